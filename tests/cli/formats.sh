#!/bin/sh
# formats.sh DUMPANALYZE — every form a real dump arrives in: colour,
# HTML, CRLF, compressed, -jv logs, cut off; and hostile input.  The same
# run in another form must give the same files.
SUITE=formats
. "$(dirname "$0")/setup.sh"
VIEWS=traces,abort-reasons,abort-reasons-txt,bush-txt

# same NAME DUMP_A DUMP_B: both dumps give identical output directories.
same() {
	rm -rf "$TMP/s1" "$TMP/s2"
	$DA -q --views $VIEWS --dump "$2" --out-dir "$TMP/s1" 2> /dev/null
	$DA -q --views $VIEWS --dump "$3" --out-dir "$TMP/s2" 2> /dev/null
	check "$1" "" "$(diff -r -x manifest.json "$TMP/s1" "$TMP/s2" 2>&1 | head -5)"
	check "$1: not empty" yes "$([ -s "$TMP/s1/gen-1-traces.csv" ] && echo yes || echo no)"
}

# -jdump=A: escapes stripped in the input, as sed would.
sed 's/\x1b\[[0-9;]*m//g' "$SAMPLES/ansi.dump" > "$TMP/ansi-plain.dump"
check "ansi sample has escapes" yes "$(grep -q "$(printf '\033')" "$SAMPLES/ansi.dump" && echo yes || echo no)"
same "ANSI colour = plain text" "$SAMPLES/ansi.dump" "$TMP/ansi-plain.dump"

# -jdump=H: style block, tags and entities gone.
sed -e '/^<style/,/^<\/style>/d' -e 's/<[^>]*>//g' -e 's/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g' \
	"$SAMPLES/html.dump" > "$TMP/html-plain.dump"
same "HTML = plain text" "$SAMPLES/html.dump" "$TMP/html-plain.dump"
$DA --views traces --dump "$SAMPLES/html.dump" --out-dir "$TMP/h" 2> "$TMP/h.err"
check "HTML: no foreign lines" "0" "$(sed -n 's/.*foreign \([0-9]*\),.*/\1/p' "$TMP/h.err")"
check "HTML: rows = stop lines" "$(grep -c '^---- TRACE [0-9]* stop' "$SAMPLES/html.dump")" \
	"$(grep -vc '^ID,' "$TMP/h/gen-1-traces.csv")"

# CRLF line ends, and no final newline.
sed 's/$/\r/' "$SAMPLES/penlight-x.dump" > "$TMP/crlf.dump"
same "CRLF = LF" "$SAMPLES/penlight-x.dump" "$TMP/crlf.dump"

# Compressed, by magic bytes whatever the name, from a file or a pipe.
for z in "gzip -c" "xz -c" "zstd -q -c"; do
	name=$(echo "$z" | cut -d' ' -f1)
	$z "$SAMPLES/flush.dump" > "$TMP/flush.$name.dump"
	same "$name file = plain" "$SAMPLES/flush.dump" "$TMP/flush.$name.dump"
	cat "$TMP/flush.$name.dump" | $DA -q --views $VIEWS --out-dir "$TMP/zpipe"
	check "$name pipe = plain" "" "$(diff -r -x manifest.json "$TMP/s1" "$TMP/zpipe")"
	rm -rf "$TMP/zpipe"
done
{ gzip -c "$SAMPLES/rsx.dump"; gzip -c "$SAMPLES/flush.dump"; } > "$TMP/two.gz"
cat "$SAMPLES/rsx.dump" "$SAMPLES/flush.dump" > "$TMP/two.dump"
same "gzip members one after another = cat" "$TMP/two.gz" "$TMP/two.dump"

# A compressed dump cut off while written: a warning, what was there.
gzip -c "$SAMPLES/penlight-x.dump" | head -c 40000 > "$TMP/cut.gz"
$DA --views traces --dump "$TMP/cut.gz" --out-dir "$TMP/cut" 2> "$TMP/cut.err"
check "cut gzip: exit status" 0 $?
check "cut gzip: warning" 1 "$(grep -c 'warning: the gzip stream ends early: the dump was cut off' "$TMP/cut.err")"
check "cut gzip: unfinished trace is incomplete" "  incomplete           1" "$(grep '^  incomplete' "$TMP/cut.err")"

# Corrupt compressed data: exit 2, a message, no files.
{ gzip -c "$SAMPLES/rsx.dump"; echo garbage; } > "$TMP/bad.gz"
$DA --views traces --dump "$TMP/bad.gz" --out-dir "$TMP/bad" 2> "$TMP/bad.err"
check "corrupt gzip: exit status" 2 $?
check "corrupt gzip: message" "dumpanalyze: $TMP/bad.gz: trailing garbage after gzip data (after line 2588)" "$(cat "$TMP/bad.err")"
check "corrupt gzip: no files" "" "$(ls -A "$TMP/bad")"
# The same after xz and zstd data: the position is the lines read (issue
# 34: xz's said "after line 0", the lines decoded with the error dropped).
n=0
for z in "xz -c" "zstd -q -c"; do
	{ $z < "$SAMPLES/rsx.dump"; echo garbage-garbage-garbage-garbage; } > "$TMP/bad.z"
	$DA --views traces --dump "$TMP/bad.z" --out-dir "$TMP/badz" 2> "$TMP/bad.err"
	check "$z, then garbage: exit status" 2 $?
	check "$z, then garbage: message with the lines read" \
		"dumpanalyze: $TMP/bad.z: corrupt ${z%% *} data (after line $(wc -l < "$SAMPLES/rsx.dump"))" "$(cat "$TMP/bad.err")"
	check "$z, then garbage: no files" "" "$(ls -A "$TMP/badz")"
	n=$((n + 1))
done
ran "xz and zstd, then garbage" $n 2
printf '\037\213\010\000garbage-garbage-garbage' > "$TMP/worse.gz"
$DA --views traces --dump "$TMP/worse.gz" --out-dir "$TMP/worse" 2> "$TMP/bad.err"
check "broken gzip header: exit status" 2 $?
check "broken gzip header: message" "dumpanalyze: $TMP/worse.gz: corrupt gzip data (after line 0)" "$(cat "$TMP/bad.err")"

# -jv verbose log: traces, aborts and bushes from it.
JV=$SAMPLES/jv.dump
$DA -q --views default,bush-txt,bush-png --dump "$JV" --out-dir "$TMP/jv"
check "jv: rows = stopped traces" "$(grep -c '^\[TRACE  *[0-9]' "$JV")" "$(grep -vc '^ID,' "$TMP/jv/gen-1-traces.csv")"
check "jv: abort counts = aborted attempts" "$(grep -c '^\[TRACE --- ' "$JV")" \
	"$(tail -n +2 "$TMP/jv/gen-1-abort-reasons.csv" | awk -F, '{s += $NF} END {print s + 0}')"
check "jv: unknown sizes are empty" "$(grep -c '^\[TRACE  *[0-9]' "$JV")" "$(grep -c ',,,,.$' "$TMP/jv/gen-1-traces.csv")"
check "jv: side trace parent" "5,2,2,,,," "$(grep '^5,' "$TMP/jv/gen-1-traces.csv" | tr -d '\r')"
check "jv: a fallback to the interpreter is link type interpreter" \
	"$(grep -c ' -- fallback to interpreter]$' "$JV")" "$(grep -c '^[0-9]*,[0-9]*,interpreter,' "$TMP/jv/gen-1-traces.csv")"
# the bush text written from a -jv log is dump text that reads back cleanly
jv_rt=$(for b in "$TMP"/jv/gen-1-bush-*.txt; do
	rm -rf "$TMP/jv-rt"
	$DA -q --views traces --dump "$b" --out-dir "$TMP/jv-rt" 2>&1 > /dev/null
done)
check "jv: bush text reads back without a warning" "" "$jv_rt"
check "jv: 26 bushes (roots and stitched traces in the log), each drawn" "26 26" \
	"$(ls "$TMP/jv" | grep -c 'bush-.*txt$') $(ls "$TMP/jv" | grep -c 'bush-.*png$')"

# Hostile input: a message and an exit code, never a crash.
printf '%s\n' '---- TRACE 18446744073709551617 start x.lua:1' '---- TRACE 9223372036854775808 IR' \
	'---- TRACE ' '---- TRACE 1' '---- TRACE 1 start' '---- TRACE 1 stop' '---- TRACE 1 abort' \
	'---- TRACE 1 mcode' '---- TRACE 1 exit' > "$TMP/fields.dump"
$DA --views traces --dump "$TMP/fields.dump" --out-dir "$TMP/fields" 2> "$TMP/fields.err"
check "missing fields: exit status" 0 $?
check "missing fields: one warning a line" "  warnings             9" "$(grep '^  warnings' "$TMP/fields.err")"
check "missing fields: huge id message" "$TMP/fields.dump:1: warning: trace number missing or malformed: ---- TRACE 18446744073709551617 start x.lua:1" \
	"$(head -n 1 "$TMP/fields.err")"
$DA --strict --views traces --dump "$TMP/fields.dump" --out-dir "$TMP/fields2" 2> /dev/null
check "missing fields, strict: exit status" 3 $?

head -c 1048576 /dev/urandom > "$TMP/garbage.dump"
$DA --dump "$TMP/garbage.dump" --out-dir "$TMP/garbage" 2> "$TMP/garbage.err"
status=$?
check "binary garbage: exit status" 0 "$status"
check "binary garbage: no traces" "  traces               0  (root 0, side 0, stitched 0, orphan 0)" "$(grep '^  traces' "$TMP/garbage.err")"

awk 'BEGIN { for (i = 0; i < 1000; i++) print "---- TRACE flush" }' > "$TMP/flushes.dump"
$DA --views traces --dump "$TMP/flushes.dump" --out-dir "$TMP/flushes" 2> "$TMP/flushes.err"
check "all flushes: exit status" 0 $?
check "all flushes: 1001 generations" 1001 "$(ls "$TMP/flushes" | grep -c '^gen-[0-9]*-traces.csv$')"

awk 'BEGIN { for (i = 0; i < 1000000; i++) { n = i % 60000 + 1;
	printf "---- TRACE %d start big.lua:%d\n---- TRACE %d stop -> loop\n", n, i, n } }' > "$TMP/million.dump"
$DA --views traces,abort-reasons --dump "$TMP/million.dump" --out-dir "$TMP/million" 2> "$TMP/million.err"
check "10^6 traces in one generation: exit status" 0 $?
check "10^6 traces in one generation: rows" 1000001 "$(wc -l < "$TMP/million/gen-1-traces.csv")"

# ---- one line cannot take all memory (issue 26) -------------------------
# A line longer than 1 MiB (no dump line comes near) is skipped as it is
# read, never held whole, said once with its number and counted as
# foreign; the rest of the dump is read as ever.  Peak memory is
# measured, not time: /usr/bin/time's %M, in KB.
P=$SAMPLES/penlight-x.dump
np=$(wc -l < "$P")
$DA -q --views traces,abort-reasons --dump "$P" --out-dir "$TMP/plain" 2> /dev/null
rss_under() {   # NAME FILE KB: the peak RSS written to FILE is under KB
	rss=$(tail -n 1 "$2")
	echo "# $1: peak RSS $rss KB"
	check "$1: peak memory under $(($3 / 1024)) MB" yes \
		"$([ "$rss" -gt 0 ] && [ "$rss" -lt "$3" ] && echo yes || echo "no: $rss KB")"
}
# as_sample KEY NAME STATUS WARNING: exit 0, that warning first, and the
# sample's files as if nothing were added ($TMP/KEY, $TMP/KEY.err).
as_sample() {
	check "$2: exit status" 0 "$3"
	check "$2: said, with its line" "$4" "$(grep -m1 ': warning: ' "$TMP/$1.err")"
	check "$2: the sample's traces and reasons, as without it" "" \
		"$(diff -r -x manifest.json "$TMP/plain" "$TMP/$1" 2>&1 | head -5)"
}
# A gzip bomb made here through a pipe: the sample, then 1 GB of zero
# bytes and no newline (4 MB compressed).
{ cat "$P"; head -c 1000000000 /dev/zero; } | gzip -1 > "$TMP/bomb.gz"
/usr/bin/time -f %M -o "$TMP/bomb.rss" $DA_BIN --views traces,abort-reasons --dump "$TMP/bomb.gz" \
	--out-dir "$TMP/bomb" 2> "$TMP/bomb.err"
as_sample bomb "gzip bomb" $? "$TMP/bomb.gz:$((np + 1)): warning: line longer than 1048576 bytes: skipped"
check "gzip bomb: one warning" 1 "$(grep -c ': warning: ' "$TMP/bomb.err")"
check "gzip bomb: lines = the sample's and one foreign" \
	"$((np + 1)) $(($(grep -c '^---- TRACE' "$P") )) 1" \
	"$(sed -n 's/^  lines *\([0-9]*\)  (trace content [0-9]*, headers \([0-9]*\), exit registers [0-9]*, foreign \([0-9]*\),.*/\1 \2 \3/p' "$TMP/bomb.err")"
rss_under "gzip bomb" "$TMP/bomb.rss" 131072
# A 100 MB chunk name ("@name" chunks are printed whole) in a start header
# before the sample's 5th trace, through a pipe.
k=$(grep -n '^---- TRACE [0-9]* start' "$P" | sed -n 5p | cut -d: -f1)
{ head -n $((k - 1)) "$P"; printf -- '---- TRACE 99 start '; head -c 100000000 /dev/zero | tr '\0' n
  printf '.lua:1\n'; tail -n +"$k" "$P"; } |
	/usr/bin/time -f %M -o "$TMP/name.rss" $DA_BIN --views traces,abort-reasons --out-dir "$TMP/name" 2> "$TMP/name.err"
as_sample name "100 MB chunk name" $? "<stdin>:$k: warning: line longer than 1048576 bytes: skipped"
check "100 MB chunk name: one warning" 1 "$(grep -c ': warning: ' "$TMP/name.err")"
check "100 MB chunk name: lines = the sample's and one foreign" "$((np + 1)) 1" \
	"$(sed -n 's/^  lines *\([0-9]*\)  (.* foreign \([0-9]*\),.*/\1 \2/p' "$TMP/name.err")"
rss_under "100 MB chunk name" "$TMP/name.rss" 131072
check "100 MB chunk name: output as small as the sample's" yes \
	"$([ "$(du -sk "$TMP/name" | cut -f1)" -le $(($(du -sk "$TMP/plain" | cut -f1) + 16)) ] && echo yes || echo no)"
# A chunk name broken over lines (a quoted one holds the newlines of a
# string chunk) is joined to at most a line's cap: a header opened by a
# quote that never closes, then 3 lines of 600 KB, then the sample.
{ printf -- '---- TRACE 1 start "never closed\n'
  for i in 1 2 3; do head -c 600000 /dev/zero | tr '\0' q; echo; done; cat "$P"; } > "$TMP/joined.dump"
$DA_BIN --views traces,abort-reasons --dump "$TMP/joined.dump" --out-dir "$TMP/joined" 2> "$TMP/joined.err"
as_sample joined "unclosed chunk name before long lines" $? "$TMP/joined.dump:1: warning: quoted chunk name is never closed"
rm -rf "$TMP/bomb" "$TMP/bomb.gz" "$TMP/name" "$TMP/joined" "$TMP/joined.dump"

# ---- one trace cannot take all memory (issue 34) ------------------------
# A trace of 16 M IR lines (48 KB of zstd; lines forged into the stream:
# LuaJIT caps a trace at 65,536 IR instructions) after the sample: its
# text is kept up to 32 MiB of whole lines, said once with the first line
# not kept, every line still counted; the report, source view and bush
# text stay within a bound (they once took 1.1 GB, 548 MB, 556 MB).
ir='0001 rbx   >  int ADD    0001  +1'
{ cat "$P"; echo '---- TRACE 9999 start big.lua:1'; echo '---- TRACE 9999 IR'
  awk -v l="$ir" 'BEGIN { for (i = 0; i < 16000000; i++) print l }'
  echo '---- TRACE 9999 stop -> loop'; } | zstd -q -c > "$TMP/longtrace.zst"
check "16 M-line trace: compressed small" yes "$([ "$(wc -c < "$TMP/longtrace.zst")" -lt 200000 ] && echo yes)"
fit=$(( (32 * 1048576) / (${#ir} + 1) ))
/usr/bin/time -f %M -o "$TMP/long.rss" $DA_BIN --views html,source,bush-txt --dump "$TMP/longtrace.zst" \
	--out-dir "$TMP/long" > /dev/null 2> "$TMP/long.err"
check "16 M-line trace: exit status" 0 $?
check "16 M-line trace: one warning, naming the first line not kept" \
	"$TMP/longtrace.zst:$((np + 3 + fit)): warning: trace 9999: its text passes 32 MiB (no trace of LuaJIT's is that long): kept up to this line, the rest counted only" \
	"$(grep ': warning: ' "$TMP/long.err" | grep -v ': warning: sources not found: ')"
check "16 M-line trace: every line counted" "$((np + 16000003))" \
	"$(sed -n 's/^  lines *\([0-9]*\)  (.*/\1/p' "$TMP/long.err")"
check "16 M-line trace: its bush text holds the lines kept, whole" "$fit" \
	"$(grep -cxF "$ir" "$TMP/long/gen-1-bush-9999.txt")"
# (ASan's shadow and quarantine add to it: 233 MB measured there)
if grep -q __asan_init "$DA_BIN"; then long_cap=393216; else long_cap=196608; fi
rss_under "16 M-line trace, html+source+bush-txt" "$TMP/long.rss" $long_cap
rm -rf "$TMP/long" "$TMP/longtrace.zst"

# Inputs the fuzzers once choked on, and hand-written ones of their
# shapes (tests/fuzz/regressions/), run by the tool as the fuzz target ran
# them: the exit status their name ends in (.exitN), never a signal, no
# sanitizer or valgrind report.
# regression KIND FILE ARGS...: one of them.
regression() {
	name=$(basename "$2")
	case $name in
	*.exit[0-9]) want=${name##*.exit} ;;
	*) want="a name ending in .exitN" ;;
	esac
	kind=$1 f=$2
	shift 2
	$DA "$@" > /dev/null 2> "$TMP/regr.err"
	check "fuzz regression $kind/$name: exit status" "$want" $?
	check "fuzz regression $kind/$name: no sanitizer report" "" \
		"$(grep -m1 -E 'Sanitizer|runtime error|^==[0-9]+==' "$TMP/regr.err")"
	rm -rf "$TMP/regr"
}
# fuzz_dump: the bytes as a dump, into every view but pictures.
n=0
for f in "$TOP"/tests/fuzz/regressions/*; do
	[ -f "$f" ] || continue
	case $f in *README) continue ;; esac
	n=$((n + 1))
	regression dump "$f" -q --source-root "$SAMPLES/lua" --dump "$f" --out-dir "$TMP/regr" \
		--views traces,abort-reasons,abort-reasons-txt,abort-sites,exits,blacklist,bush-txt,summary,jsonl,html,source,files
done
ran "fuzz regressions" "$n" "$(find "$TOP/tests/fuzz/regressions" -maxdepth 1 -type f -name '*.exit*' | wc -l)"
# fuzz_profile: the bytes as a -jp profile of the dump it joins them with.
sh "$TOP/tests/fuzz/seeds.sh" --profile-dump > "$TMP/profile-join.dump"
n=0
for f in "$TOP"/tests/fuzz/regressions/profile/*; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	regression profile "$f" -q --source-root "$SAMPLES/lua" --dump "$TMP/profile-join.dump" \
		--profile "$f" --views default,profile,source,files,html --out-dir "$TMP/regr"
done
ran "fuzz profile regressions" "$n" "$(find "$TOP/tests/fuzz/regressions/profile" -type f -name '*.exit*' | wc -l)"
# fuzz_compare: the bytes as a packed output directory (fuzz_compare.c),
# compared with a real run's: as NEW, or as OLD when the file's length has
# bit 1 set; --json when bit 0 is set.
unpack() { sh "$TOP/tests/fuzz/unpack.sh" "$@"; }
DUMPANALYZE=$DA_BIN sh "$TOP/tests/fuzz/seeds.sh" --compare-old > "$TMP/compare-old.pack"
unpack "$TMP/compare-old.pack" "$TMP/cmp-old"
check "fuzz_compare's other side: a run of the profile's dump" "findings traces abort-reasons abort-sites bush-txt profile" \
	"$(sed -n '/"views"/,/]/p' "$TMP/cmp-old/manifest.json" | sed -n 's/^ *"\([a-z-]*\)",*$/\1/p' | tr '\n' ' ' | sed 's/ $//')"
n=0
for f in "$TOP"/tests/fuzz/regressions/compare/*; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	unpack "$f" "$TMP/cmp-new"
	size=$(wc -c < "$f")
	json=
	[ $((size & 1)) -eq 1 ] && json=--json
	if [ $((size & 2)) -ne 0 ]; then a=new b=old; else a=old b=new; fi
	regression compare "$f" --compare "$TMP/cmp-$a" "$TMP/cmp-$b" $json \
		--fail-on aborts+10%,aborts+5,traces-10%,new-reasons,new-sites
done
ran "fuzz compare regressions" "$n" "$(find "$TOP/tests/fuzz/regressions/compare" -type f -name '*.exit*' | wc -l)"

# A chunk name that is not UTF-8 cairo takes (an overlong form, which
# cairo refuses, failing the whole picture): drawn with '?' for it.
printf -- '---- TRACE 1 start \340\217\215.lua:1\n---- TRACE 1 stop -> loop\n' > "$TMP/overlong.dump"
$DA -q --views bush-png,bush-svg --dump "$TMP/overlong.dump" --out-dir "$TMP/overlong" 2> "$TMP/overlong.err"
check "chunk name not UTF-8: pictures drawn" "0 gen-1-bush-1.png gen-1-bush-1.svg" \
	"$? $(cd "$TMP/overlong" && ls gen-1-bush-1.*| tr '\n' ' ' | sed 's/ $//')"
check "chunk name not UTF-8: no message" "" "$(cat "$TMP/overlong.err")"

# Disk full (a file size limit): exit 2, the cause, no file left.
(ulimit -f 64; $DA_BIN --views traces,bush-txt --dump "$SAMPLES/luacheck.dump" --out-dir "$TMP/full" 2> "$TMP/full.err")
check "disk full: exit status" 2 $?
check "disk full: message" 1 "$(grep -c '^dumpanalyze: .*: File too large$' "$TMP/full.err")"
check "disk full: no files, not even temporary ones" "" "$(ls -A "$TMP/full")"
finish
