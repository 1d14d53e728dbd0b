#!/bin/sh
# behaviour.sh DUMPANALYZE — properties that hold on every real sample:
# pipes equal files, bush text round-trips, lines add up, output is
# deterministic, the documentation names every option and view.
SUITE=behaviour
. "$(dirname "$0")/setup.sh"
DUMP=$SAMPLES/penlight-x.dump
TEXT_VIEWS=traces,abort-reasons,abort-reasons-txt,bush-txt

# A pipe must behave exactly like a file: same files, same bytes.  (The
# default views and the bush text, which left the default set in 0.3.0.)
$DA -q --views default,bush-txt --dump "$DUMP" --out-dir "$TMP/file" 2> /dev/null
cat "$DUMP" | $DA -q --views default,bush-txt --out-dir "$TMP/pipe"
# (summary.txt names its dump on its first line: <stdin> for a pipe)
check "stdin pipe (no --dump) = file" "" "$(diff -r -x summary.txt -x manifest.json "$TMP/file" "$TMP/pipe")"
check "stdin pipe: same summary" "" "$(diff "$TMP/file/summary.txt" "$TMP/pipe/summary.txt" | grep '^[<>]' | grep -v 'dumpanalyze summary of')"
check "stdin pipe: summary names <stdin>" "dumpanalyze summary of <stdin>" "$(head -n 1 "$TMP/pipe/summary.txt")"
cat "$DUMP" | $DA -q --views default,bush-txt --dump - --out-dir "$TMP/dash"
check "--dump - = file" "" "$(diff -r -x summary.txt -x manifest.json "$TMP/file" "$TMP/dash")"

# Same input, same bytes (pictures included), whatever the locale.
LC_ALL=C.UTF-8 $DA -q --views default,bush-txt --dump "$DUMP" --out-dir "$TMP/again"
check "deterministic across runs and locales" "" "$(diff -r "$TMP/file" "$TMP/again")"

# Two real runs appended: trace numbers 3 and 5 come back as other
# traces, and both runs take exit 3/4 and 5/1 ten times each, the second
# with another side trace (rsx's trace 9 from 3/4 aborted).  Such rows
# tie; they come in order of first appearance, never in the order of
# addresses, which changed from run to run.
cat "$SAMPLES/rsx.dump" "$SAMPLES/penlight-x.dump" > "$TMP/two-runs.dump"
for i in 1 2 3 4 5 6; do
	$DA -q --views exits,jsonl --dump "$TMP/two-runs.dump" --out-dir "$TMP/two-$i"
done
check "two runs appended: tied exits in order of first appearance" \
	"3,4,10,|3,4,10,7|5,1,10,8|5,1,10,11" \
	"$(grep -E '^(3,4|5,1),' "$TMP/two-1/gen-1-exits.csv" | tr -d '\r' | paste -sd'|')"
check "two runs appended: tied exits in the JSON lines too" \
	'null|7' \
	"$(grep '"type":"exit","gen":1,"trace":3,"exit":4,' "$TMP/two-1/gen-1.jsonl" | sed 's/.*"side_trace":\([a-z0-9]*\)}/\1/' | paste -sd'|')"
same=0
for i in 2 3 4 5 6; do
	diff -r "$TMP/two-1" "$TMP/two-$i" > /dev/null && same=$((same + 1))
done
check "two runs appended: the same bytes in 6 runs" 5 "$same"

# Default output directory: FILE-parsed next to the dump; stdin: ./dumpanalyze-out.
mkdir -p "$TMP/d" && cp "$DUMP" "$TMP/d/app.dump"
$DA -q --dump "$TMP/d/app.dump"
check "default out dir next to the dump" "yes" "$([ -f "$TMP/d/app.dump-parsed/gen-1-traces.csv" ] && echo yes || echo no)"
(cd "$TMP/d" && cat app.dump | $DA -q)
check "default out dir for stdin" "yes" "$([ -f "$TMP/d/dumpanalyze-out/gen-1-traces.csv" ] && echo yes || echo no)"

# Each bush file is a dump: fed back, it gives that bush's rows.
rt_ok=0 rt_bad=""
for b in "$TMP"/file/gen-*-bush-*.txt; do
	gen=$(basename "$b" | sed 's/^gen-\([0-9]*\)-.*/\1/')
	$DA -q --views traces --dump "$b" --out-dir "$TMP/rt" 2> /dev/null
	ids=$(grep '^---- TRACE [0-9]* stop' "$b" | awk '{print $3}')
	want=$(for id in $ids; do grep "^$id," "$TMP/file/gen-$gen-traces.csv"; done)
	got=$(tail -n +2 "$TMP/rt/gen-1-traces.csv")
	if [ -n "$ids" ] && [ "$want" = "$got" ]; then rt_ok=$((rt_ok + 1)); else rt_bad="$rt_bad $(basename "$b")"; fi
	rm -rf "$TMP/rt"
done
check "bush text round-trips ($rt_ok bushes)" "" "$rt_bad"
check "penlight-x: 26 bush files" 26 "$(ls "$TMP"/file/*-bush-*.txt | wc -l)"
ran "round-trip of every bush" "$rt_ok" 26

# Every input line is accounted for, on every sample.
nsamples=$(ls "$SAMPLES"/*.dump | wc -l)
n=0
for dump in "$SAMPLES"/*.dump; do
	n=$((n + 1))
	$DA --views traces --dump "$dump" --out-dir "$TMP/acc" 2> "$TMP/acc.err"
	sums=$(sed -n 's/^  lines *\([0-9]*\)  (trace content \([0-9]*\), headers \([0-9]*\), exit registers \([0-9]*\), foreign \([0-9]*\), blank \([0-9]*\))/\1 \2 \3 \4 \5 \6/p' "$TMP/acc.err")
	set -- $sums
	total=$(wc -l < "$dump")
	[ -n "$(tail -c 1 "$dump")" ] && total=$((total + 1))
	check "$(basename "$dump"): lines read = lines in file" "$total" "${1:-missing}"
	check "$(basename "$dump"): lines add up" "${1:-x}" "$(( ${2:-0} + ${3:-0} + ${4:-0} + ${5:-0} + ${6:-0} ))"
	rm -rf "$TMP/acc"
done
ran "line accounting on every sample" "$n" "$nsamples"

# Independent counts: rows = stop lines, abort tallies = abort lines,
# bush files = bushes, per generation.
counted=0
for dump in "$SAMPLES"/*.dump; do
	n=$(basename "$dump")
	[ "$n" = jv.dump ] && continue      # a -jv log: counted in formats.sh
	counted=$((counted + 1))
	$DA -q --views $TEXT_VIEWS --dump "$dump" --out-dir "$TMP/$n" 2> /dev/null
	check "$n: rows = stop lines" "$(grep -c '^---- TRACE [0-9]* stop' "$dump")" \
		"$(cat "$TMP/$n"/gen-*-traces.csv | grep -vc '^ID,')"
	check "$n: abort counts = abort lines" "$(grep -c '^---- TRACE [0-9]* abort' "$dump")" \
		"$(cat "$TMP/$n"/gen-*-abort-reasons.csv | grep -v '^REASON,COUNT' | awk -F, '{s += $NF} END {print s + 0}')"
	check "$n: generations = flushes + 1" "$(( $(grep -c '^---- TRACE flush' "$dump") + 1 ))" \
		"$(ls "$TMP/$n" | grep -c -- '-traces.csv$')"
	check "$n: traces in bush files = stop lines" "$(grep -c '^---- TRACE [0-9]* stop' "$dump")" \
		"$(cat "$TMP/$n"/gen-*-bush-*.txt 2> /dev/null | grep -c '^---- TRACE [0-9]* stop')"
done
ran "independent counts on every sample but jv.dump" "$counted" "$((nsamples - 1))"

# The truncated sample ends inside a trace: incomplete, not compiled.
$DA --views traces --dump "$SAMPLES/truncated.dump" --out-dir "$TMP/tr" 2> "$TMP/tr.err"
check "truncated: one incomplete trace" "  incomplete           1" "$(grep '^  incomplete' "$TMP/tr.err")"
check "truncated: the warning names it" "1" "$(grep -c 'is incomplete: the dump ends inside it' "$TMP/tr.err")"

# A dump attached mid-run: a side trace whose parent was never seen roots
# its own bush, with a warning naming it.
first_side=$(grep -n '^---- TRACE [0-9]* start [0-9]*/[0-9]* ' "$DUMP" | head -n 1)
line=${first_side%%:*}
id=$(printf '%s' "$first_side" | awk '{print $3}')
parent=$(printf '%s' "$first_side" | awk '{split($5, p, "/"); print p[1]}')
tail -n "+$line" "$DUMP" > "$TMP/orphan.dump"
$DA --views traces,bush-txt --dump "$TMP/orphan.dump" --out-dir "$TMP/orphan" 2> "$TMP/orphan.err"
check "orphan: exit status" 0 $?
check "orphan: warning" "$TMP/orphan.dump:1: warning: trace $id: parent trace $parent is not in this generation; it becomes the root of its own bush" \
	"$(grep -m1 'parent trace' "$TMP/orphan.err")"
check "orphan: its own bush file" "yes" "$([ -f "$TMP/orphan/gen-1-bush-$id.txt" ] && echo yes || echo no)"
check "orphan: row keeps the parent from the dump" "$id,$parent," \
	"$(grep "^$id," "$TMP/orphan/gen-1-traces.csv" | head -n 1 | cut -d, -f1-2),"

# A 10 MB line (program output) neither crashes nor changes the result:
# it is longer than a line may be (1 MiB), skipped and said.
{ head -n 20 "$DUMP"; head -c 10485760 /dev/zero | tr '\0' 'x'; echo; tail -n +21 "$DUMP"; } > "$TMP/long.dump"
$DA --views traces,abort-reasons --dump "$TMP/long.dump" --out-dir "$TMP/long" 2> "$TMP/long.err"
check "10 MB line: exit status" 0 $?
check "10 MB line: same traces" "" "$(diff "$TMP/file/gen-1-traces.csv" "$TMP/long/gen-1-traces.csv")"
check "10 MB line: counted as one foreign line" "1" \
	"$(sed -n 's/.*foreign \([0-9]*\),.*/\1/p' "$TMP/long.err")"
check "10 MB line: said once, with its number" "$TMP/long.dump:21: warning: line longer than 1048576 bytes: skipped" \
	"$(grep ': warning: ' "$TMP/long.err")"

# A last line without its newline still counts.
head -c -1 "$DUMP" > "$TMP/nonl.dump"
$DA -q --views traces --dump "$TMP/nonl.dump" --out-dir "$TMP/nonl"
check "no final newline: same traces" "" "$(diff "$TMP/file/gen-1-traces.csv" "$TMP/nonl/gen-1-traces.csv")"

# Progress on a terminal: bytes, MB/s, traces, generation; fed through a
# FIFO with a pause, so that a redraw is due.
# The pause is a wait on time on purpose: the line is redrawn at most every
# 0.25 s, after 65536 more lines (progress.c), so the run must stall on its
# input that long with 7 copies (66325 lines) still to come.  A busy
# machine only makes the pause longer, which changes nothing.
if command -v script > /dev/null; then
	mkfifo "$TMP/slow.fifo"
	{ for i in 1 2 3 4 5 6 7; do cat "$DUMP"; done; sleep 0.6
	  for i in 1 2 3 4 5 6 7; do cat "$DUMP"; done; } > "$TMP/slow.fifo" &
	script -qec "$DA_BIN --views traces --dump $TMP/slow.fifo --out-dir $TMP/slow" /dev/null \
		< /dev/null > "$TMP/tty.out" 2>&1
	check "progress on a terminal" 1 "$(tr '\r' '\n' < "$TMP/tty.out" | grep -c -m1 'MB, [0-9]* MB/s, [0-9]* traces, generation 1')"
	wait
fi

# The man page documents every option of --help and every view: the
# whole name (\-\-out\-dir in troff, or --out-dir), not more of a name.
nopts=$($DA --help | grep -cE '^ +(-[a-zA-Z], +)?--[a-z]')
n=0
for opt in $($DA --help | grep -o -- '--[a-z-]*' | sort -u); do
	n=$((n + 1))
	esc=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
	grep -qE -- "$esc"'([^a-zA-Z\-]|\\[^-]|$)' "$TOP/man/dumpanalyze.1" ||
		grep -qE -- '(^|[^a-zA-Z\-])'"$opt"'([^a-zA-Z-]|$)' "$TOP/man/dumpanalyze.1"
	check "man page documents $opt" 0 $?
done
check "man page: every one of the $nopts options of --help looked up" yes \
	"$([ "$nopts" -gt 0 ] && [ "$n" -ge "$nopts" ] && echo yes || echo "no: $n")"
# (How it renders: manpages.sh.)
# A view: a tagged paragraph of its own in the man page (".TP", then
# ".B NAME"), the first cell of a row of the README's table.
nviews=$($DA --views list | sed '/^$/,$d' | wc -l)
n=0
for v in $($DA --views list | sed '/^$/,$d' | awk '{print $1}'); do
	n=$((n + 1))
	grep -A1 -x '\.TP' "$TOP/man/dumpanalyze.1" | grep -qxF -- ".B $(printf '%s' "$v" | sed 's/-/\\-/g')"
	check "man page documents view $v" 0 $?
	grep -q "^| \`$v\` |" "$TOP/README.md"
	check "README names view $v" 0 $?
done
check "every one of the $nviews views of --views list looked up" yes \
	"$([ "$nviews" -gt 0 ] && [ "$n" -ge "$nviews" ] && echo yes || echo "no: $n")"
finish
