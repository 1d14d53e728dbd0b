#!/bin/sh
# many.sh DUMPANALYZE — several dumps at once: each into its own
# directory, exactly as alone, in parallel, with one merged summary; a bad
# dump does not stop the others.
SUITE=many
. "$(dirname "$0")/setup.sh"

mkdir -p "$TMP/w2"
cp "$SAMPLES/rsx.dump" "$TMP/w2/penlight-x.dump"      # same base name as another
$DA --dump "$SAMPLES/penlight-x.dump" --dump "$SAMPLES/flush.dump" --dump "$TMP/missing.dump" \
	--dump "$SAMPLES/luacheck.dump" --dump "$TMP/w2/penlight-x.dump" --out-dir "$TMP/many" \
	> "$TMP/many.stdout" 2> "$TMP/many.err"
check "a missing dump: exit status 2" 2 $?
check "a missing dump: said on stderr" 1 "$(grep -c "^dumpanalyze: cannot read dump $TMP/missing.dump: No such file or directory$" "$TMP/many.err")"
check "one directory per good dump" "flush.dump luacheck.dump manifest.json penlight-x.dump penlight-x.dump.2 summary.txt" \
	"$(ls "$TMP/many" | tr '\n' ' ' | sed 's/ $//')"
# Each dump says where its files are: OUT/NAME, where the commit put them
# (they were written in OUT's staging directory).
check "each dump's files said to be in OUT/NAME" \
	"$(for d in flush.dump luacheck.dump penlight-x.dump penlight-x.dump.2; do
		printf '%s %s/%s\n' "$(ls "$TMP/many/$d" | grep -vcx manifest.json)" "$TMP/many" "$d"; done)" \
	"$(sed -n 's/^  files written *\([0-9]*\)  in \(.*\)$/\1 \2/p' "$TMP/many.err" | sort -k2)"
# Each worker's messages come whole and in the order of the dumps (they
# are held until the dumps before are done), so stderr is the same bytes
# on every run: under valgrind, unheld, the missing dump's message was cut
# into another worker's line.
check "stderr: each dump's block whole, in dump order" \
	"penlight-x.dump flush.dump missing.dump luacheck.dump penlight-x.dump" \
	"$(sed -n -e 's|^.*/\([^/]*\): [0-9]* generations*$|\1|p' \
		-e 's|^dumpanalyze: cannot read dump .*/\([^/]*\): No such file or directory$|\1|p' "$TMP/many.err" | tr '\n' ' ' | sed 's/ $//')"
$DA --dump "$SAMPLES/penlight-x.dump" --dump "$SAMPLES/flush.dump" --dump "$TMP/missing.dump" \
	--dump "$SAMPLES/luacheck.dump" --dump "$TMP/w2/penlight-x.dump" --out-dir "$TMP/many-again" \
	> /dev/null 2> "$TMP/many-again.err"
check "stderr: the same bytes on a second run (but OUT's name)" "" \
	"$(sed "s|$TMP/many-again/|$TMP/many/|" "$TMP/many-again.err" | cmp - "$TMP/many.err" 2>&1)"
for d in penlight-x flush luacheck; do
	$DA -q --dump "$SAMPLES/$d.dump" --out-dir "$TMP/alone-$d" > /dev/null 2>&1
	check "$d: same files as alone" "" "$(diff -r -x summary.txt "$TMP/alone-$d" "$TMP/many/$d.dump")"
done
$DA -q --dump "$TMP/w2/penlight-x.dump" --out-dir "$TMP/alone-rsx" > /dev/null 2>&1
check "same base name: second one is .2" "" "$(diff -r -x summary.txt "$TMP/alone-rsx" "$TMP/many/penlight-x.dump.2")"
check "summary on stdout = summary.txt" "" "$(cmp "$TMP/many.stdout" "$TMP/many/summary.txt" 2>&1)"
check "summary: the failed dump" 1 "$(grep -c '^  missing.dump *failed (exit 2)' "$TMP/many/summary.txt")"
rows=0 aborts=0
for d in penlight-x flush luacheck; do
	rows=$((rows + $(cat "$TMP/alone-$d"/gen-*-traces.csv | grep -vc '^ID,')))
done
rows=$((rows + $(cat "$TMP/alone-rsx"/gen-*-traces.csv | grep -vc '^ID,')))
check "traces of all dumps: the 197 stop lines of their text" "197 197" \
	"$(cat "$SAMPLES/penlight-x.dump" "$SAMPLES/flush.dump" "$SAMPLES/luacheck.dump" "$TMP/w2/penlight-x.dump" |
		grep -c '^---- TRACE [0-9]* stop') $rows"
check "summary: traces of all dumps" "$rows" "$(awk '$1 == "all" { print $3 }' "$TMP/many/summary.txt")"
check "summary: an abort reason summed over dumps" \
	"$(cat "$TMP"/alone-*/gen-*-abort-reasons.csv | grep '^NYI: bytecode 71,' | awk -F, '{s += $2} END {print s}')" \
	"$(grep '  NYI: bytecode 71$' "$TMP/many/summary.txt" | awk '{print $1}')"
# Exits are per generation: flush.dump's exit 1/3 was taken 10 times in
# each of generations 2 and 4 (trace 1 of each is another trace), so the
# merged list names the generation and does not add them up to 20.
check "flush.dump: exit 1/3 in gens 2 and 4" "10 10" \
	"$(for g in 2 4; do grep '^1,3,' "$TMP/alone-flush/gen-$g-exits.csv" | tr -d '\r' | cut -d, -f3; done | tr '\n' ' ' | sed 's/ $//')"
check "merged exits: flush.dump gen 2 exit 1/3, taken 10" 1 \
	"$(grep -c "^  flush.dump  *gen 2  *exit  *1/3 .* taken 10$" "$TMP/many/summary.txt")"
check "merged exits: no exit of flush.dump taken 20" 0 \
	"$(grep -c "^  flush.dump .* taken 20$" "$TMP/many/summary.txt")"
nx=$(cat "$TMP"/alone-*/gen-*-exits.csv | grep -vc '^TRACE,')
check "merged exits: the rest counted" "  … $((nx - 10)) more in each dump's gen-N-exits.csv" \
	"$(grep "more in each dump's" "$TMP/many/summary.txt")"

cat "$SAMPLES/rsx.dump" | $DA --dump - --dump "$SAMPLES/flush.dump" --out-dir "$TMP/m2" > /dev/null 2> "$TMP/err"
check "stdin among several dumps: exit 1" 1 $?
check "stdin among several dumps: message" "dumpanalyze: standard input can only be the one dump of a run" "$(cat "$TMP/err")"
# What a shell glob gives (`--dump w-*.dump`): one --dump, the other
# names after it; the same as a --dump each.
mkdir -p "$TMP/glob"
cp "$SAMPLES/flush.dump" "$TMP/glob/w-1.dump"
cp "$SAMPLES/rsx.dump" "$TMP/glob/w-2.dump"
cp "$SAMPLES/luacheck.dump" "$TMP/glob/w-3.dump"
$DA -q --dump "$TMP"/glob/w-*.dump --out-dir "$TMP/globbed" > /dev/null 2>&1
check "--dump a b c: exit 0" 0 $?
$DA -q --dump "$TMP/glob/w-1.dump" --dump "$TMP/glob/w-2.dump" --dump "$TMP/glob/w-3.dump" \
	--out-dir "$TMP/each" > /dev/null 2>&1
check "--dump a b c: one directory per dump" "manifest.json summary.txt w-1.dump w-2.dump w-3.dump" \
	"$(ls "$TMP/globbed" | tr '\n' ' ' | sed 's/ $//')"
check "--dump a b c = --dump a --dump b --dump c" "" "$(diff -r -x manifest.json "$TMP/each" "$TMP/globbed")"
$DA -q --dump "$TMP/glob/w-1.dump" "$TMP/glob/w-2.dump" --profile "$SAMPLES/costly-lv.prof" \
	--out-dir "$TMP/g2" > /dev/null 2> "$TMP/err"
check "--dump a b with one --profile: exit 1" 1 $?
check "--dump a b with one --profile: message" \
	"dumpanalyze: give one --profile per --dump, in the same order (2 dumps, 1 profiles), or two for one dump (a -jp and a sysprof profile)" "$(cat "$TMP/err")"
# ---- names that were an earlier dump's, or OUT's own (issue 34) ---------
# a/x.dump.2 then b/x.dump: the second was once named x.dump.2 too (an
# earlier "x.dump."-prefixed name counted as an earlier x.dump), and both
# wrote into OUT/x.dump.2.  Base names OUT holds itself (summary.txt,
# manifest.json) or hidden ones (.commit) get directories of their own.
mkdir -p "$TMP/rot/a" "$TMP/rot/b"
cp "$SAMPLES/flush.dump" "$TMP/rot/a/x.dump.2"
cp "$SAMPLES/rsx.dump" "$TMP/rot/b/x.dump"
cp "$SAMPLES/luacheck.dump" "$TMP/rot/b/summary.txt"
cp "$SAMPLES/penlight-x.dump" "$TMP/rot/a/manifest.json"
cp "$SAMPLES/rsx.dump" "$TMP/rot/a/.commit"
$DA -q --dump "$TMP/rot/a/x.dump.2" --dump "$TMP/rot/b/x.dump" --dump "$TMP/rot/b/summary.txt" \
	--dump "$TMP/rot/a/manifest.json" --dump "$TMP/rot/a/.commit" --out-dir "$TMP/rot/out" 2> "$TMP/err"
check "rotated and reserved names: exit status" 0 $?
# (but that the Lua files the findings name are not here: the samples
# come without penlight's and luacheck's sources)
check "rotated and reserved names: no message but sources not found" "" "$(grep -v ': warning: sources not found: ' "$TMP/err")"
check "rotated and reserved names: one directory each, none of OUT's names" \
	"_.commit manifest.json manifest.json.2 summary.txt summary.txt.2 x.dump x.dump.2" \
	"$(ls -A "$TMP/rot/out" | tr '\n' ' ' | sed 's/ $//')"
n=0
for pair in x.dump.2:a/x.dump.2 x.dump:b/x.dump summary.txt.2:b/summary.txt \
	manifest.json.2:a/manifest.json _.commit:a/.commit; do
	d=${pair%%:*} f=${pair#*:}
	check "rotated and reserved names: $d's traces = $f's stop lines" \
		"$(grep -c '^---- TRACE [0-9]* stop' "$TMP/rot/$f")" \
		"$(cat "$TMP/rot/out/$d"/gen-*-traces.csv | grep -vc '^ID,')"
	check "rotated and reserved names: $d once in the summary's table" 1 \
		"$(awk -v d="$d" '$1 == d && $2 == "ok"' "$TMP/rot/out/summary.txt" | wc -l)"
	n=$((n + 1))
done
ran "rotated and reserved names: dumps" "$n" 5
check "rotated and reserved names: the same names again" \
	"_.commit manifest.json manifest.json.2 summary.txt summary.txt.2 x.dump x.dump.2" \
	"$($DA -q --dump "$TMP/rot/a/x.dump.2" --dump "$TMP/rot/b/x.dump" --dump "$TMP/rot/b/summary.txt" \
		--dump "$TMP/rot/a/manifest.json" --dump "$TMP/rot/a/.commit" --out-dir "$TMP/rot/out2" 2>&1 |
		grep -v ': warning: sources not found: '
		ls -A "$TMP/rot/out2" | tr '\n' ' ' | sed 's/ $//')"

# ---- one pipe under two names (issue 34) --------------------------------
# /dev/stdin and /dev/fd/0 are one pipe: two workers would split it.
cat "$SAMPLES/rsx.dump" | $DA --dump /dev/stdin --dump /dev/fd/0 --out-dir "$TMP/twice" > "$TMP/out" 2> "$TMP/err"
check "/dev/stdin and /dev/fd/0: exit status 2" 2 $?
check "/dev/stdin and /dev/fd/0: message" \
	"dumpanalyze: --dump /dev/fd/0 is the same pipe or stream as --dump /dev/stdin: two runs would each read part of it; give it once" \
	"$(cat "$TMP/err")"
check "/dev/stdin and /dev/fd/0: nothing written" "" "$(cat "$TMP/out"; ls "$TMP/twice" 2>/dev/null)"
mkfifo "$TMP/fifo"
$DA --dump "$TMP/fifo" --dump "$TMP/rot/b/../../fifo" --out-dir "$TMP/twice" > /dev/null 2> "$TMP/err"
check "a FIFO under two paths: exit status 2, refused before it is opened" \
	"2 dumpanalyze: --dump $TMP/rot/b/../../fifo is the same pipe or stream as --dump $TMP/fifo: two runs would each read part of it; give it once" \
	"$? $(cat "$TMP/err")"
# A regular file may be given twice (one dump, two profiles): each run
# reads it whole.
$DA -q --dump "$TMP/rot/b/x.dump" --dump "$TMP/rot/a/../b/x.dump" --out-dir "$TMP/twice" > /dev/null 2> "$TMP/err"
check "a regular file under two paths: exit 0, no message but sources not found" "0 " \
	"$? $(grep -v ': warning: sources not found: ' "$TMP/err")"
check "a regular file under two paths: read whole twice" \
	"$(grep -c '^---- TRACE [0-9]* stop' "$TMP/rot/b/x.dump") $(grep -c '^---- TRACE [0-9]* stop' "$TMP/rot/b/x.dump")" \
	"$(cat "$TMP/twice/x.dump"/gen-*-traces.csv | grep -vc '^ID,') $(cat "$TMP/twice/x.dump.2"/gen-*-traces.csv | grep -vc '^ID,')"

# ---- The findings of several dumps, matched by identity (issue 39) ----
# The shop, its fix and its regression, each with its own profile, as
# three workers would be.  Counted by hand from the three findings.csv
# (a CSV reader, not grep: REASON and ADVICE hold commas): 41 rows, 38
# identities, 22 of them not usually harmless; tpl-item:17's
# given-up-exit (0 samples, not among the ten shown) in the fix and the
# regression.
S=$SAMPLES
$DA -q --dump "$S/shop.dump" --dump "$S/shop-fixed.dump" --dump "$S/shop-regressed.dump" \
	--profile "$S/shop-Gvl.prof" --profile "$S/shop-fixed-Gvl.prof" --profile "$S/shop-regressed-Gvl.prof" \
	--source-root "$S/lua/shop" --out-dir "$TMP/workers" > /dev/null 2> "$TMP/err"
check "several dumps' findings: exit 0, no message" "0 " "$? $(cat "$TMP/err")"
W=$TMP/workers/summary.txt
check "several dumps' findings: the section, its counts" \
	"findings of all dumps, matched by identity (38, 22 not usually harmless; each dump's findings.csv has its own)" \
	"$(grep '^findings of all dumps' "$W")"
check "several dumps' findings: the first, shop.dump's first with its attempts and samples" \
	"  1   json.lua:19-29  blacklisted-loop, costly: NYI: bytecode FNEW; in 1 of 3 dumps, 11 attempts, 167 samples" \
	"$(grep '^  1   ' "$W" | head -n 1)"
check "several dumps' findings: ... which are shop.dump's own row" "1 11 167" \
	"$(grep -c '^1,blacklisted-loop,json.lua,19,29,json.lua,23,NYI: bytecode FNEW,NYIBC,costly,11,167,' "$TMP/workers/shop.dump/findings.csv") 11 167"
check "several dumps' findings: ten listed, the rest counted" "10|  … 12 more not usually harmless in the dumps' findings.csv" \
	"$(sed -n '/^findings of all dumps/,/^$/p' "$W" | grep -c '^  [0-9]')|$(grep '^  … [0-9]* more not usually harmless' "$W")"
# Two workers that did the same: every finding in both, counts doubled.
cp "$S/shop.dump" "$TMP/w1.dump"; cp "$S/shop.dump" "$TMP/w2.dump"
$DA -q --dump "$TMP/w1.dump" --dump "$TMP/w2.dump" --profile "$S/shop-Gvl.prof" --profile "$S/shop-Gvl.prof" \
	--source-root "$S/lua/shop" --out-dir "$TMP/same" > /dev/null 2>&1
check "the same dump twice: its 22 findings, 17 not usually harmless, each in 2 of 2" \
	"findings of all dumps, matched by identity (22, 17 not usually harmless; each dump's findings.csv has its own)|10|0" \
	"$(grep '^findings of all dumps' "$TMP/same/summary.txt")|$(grep -c '; in 2 of 2 dumps, ' "$TMP/same/summary.txt")|$(grep -c '; in 1 of 2 dumps, ' "$TMP/same/summary.txt")"
check "the same dump twice: attempts and samples doubled" \
	"  1   json.lua:19-29  blacklisted-loop, costly: NYI: bytecode FNEW; in 2 of 2 dumps, 22 attempts, 334 samples" \
	"$(grep '^  1   ' "$TMP/same/summary.txt" | head -n 1)"
# Without profiles: no samples said.
$DA -q --dump "$TMP/w1.dump" --dump "$TMP/w2.dump" --source-root "$S/lua/shop" --out-dir "$TMP/noprof" > /dev/null 2>&1
check "without profiles: attempts only" 0 "$(sed -n '/^findings of all dumps/,/^$/p' "$TMP/noprof/summary.txt" | grep -c 'samples')"

# Without the findings view: the summary says none were read.
$DA -q --views traces --dump "$TMP/w1.dump" --dump "$TMP/w2.dump" --out-dir "$TMP/nofind" > /dev/null 2> "$TMP/err"
check "--views traces: exit 0, no message, no findings read" \
	"0 |findings of all dumps: none read (no dump rendered the findings view)" \
	"$? $(cat "$TMP/err")|$(grep '^findings of all dumps' "$TMP/nofind/summary.txt")"

finish
