#!/bin/sh
# terminal.sh DUMPANALYZE — the progress line on a terminal: it fits the
# terminal's width (a line that wraps scrolls at every redraw), and it is
# off when stderr is no terminal.
SUITE=terminal
. "$(dirname "$0")/setup.sh"
DUMP=$SAMPLES/penlight-x.dump

command -v script > /dev/null || { echo "terminal: script(1) missing"; exit 1; }

# slow_run COLS OUT: a dump fed through a FIFO with a pause, so that a
# redraw is due, in a pty COLS wide.
# The pause is a wait on time on purpose: the line is redrawn at most every
# 0.25 s, after 65536 more lines (progress.c), so the run must stall on its
# input that long with 7 copies (66325 lines) still to come.  A busy
# machine only makes the pause longer, which changes nothing.
slow_run() {
	rm -f "$TMP/slow.fifo"
	mkfifo "$TMP/slow.fifo"
	{ for i in 1 2 3 4 5 6 7; do cat "$DUMP"; done; sleep 0.6
	  for i in 1 2 3 4 5 6 7; do cat "$DUMP"; done; } > "$TMP/slow.fifo" &
	script -qec "stty cols $1 rows 24; $DA_BIN --views traces --dump $TMP/slow.fifo --out-dir $TMP/slow-$1" \
		/dev/null < /dev/null > "$2" 2>&1
	wait
}

# The redraws: what follows each carriage return, the clearing escape
# taken out.
redraws() { tr '\r' '\n' < "$1" | sed 's/\x1b\[K//g' | grep ' traces, generation '; }
redraws_cut() { tr '\r' '\n' < "$1" | sed 's/\x1b\[K//g' | grep ' MB/s'; }

slow_run 200 "$TMP/wide.out"
check "a wide terminal: the whole line" 1 \
	"$(redraws "$TMP/wide.out" | grep -c -m1 '^[0-9]* MB, [0-9]* MB/s, [0-9]* traces, generation 1$')"

slow_run 30 "$TMP/narrow.out"
# Cut to 29 columns, "traces" is gone; " MB/s" is still there.
n=$(redraws_cut "$TMP/narrow.out" | wc -l)
check "30 columns: a redraw was seen" yes "$([ "$n" -gt 0 ] && echo yes || echo no)"
longest=$(redraws_cut "$TMP/narrow.out" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')
check "30 columns: every redraw is 29 wide at most" 29 "$longest"

# stderr to a file: no progress line, only the closing accounting.
$DA --views traces --dump "$DUMP" --out-dir "$TMP/plain" > /dev/null 2> "$TMP/plain.err"
check "stderr not a terminal: no progress line" 0 "$(grep -c 'MB/s' "$TMP/plain.err")"
finish
