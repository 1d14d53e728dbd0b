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
finish
