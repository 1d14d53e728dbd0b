#!/bin/sh
# run.sh TEST... — run the cmocka unit test binaries, print what each one
# says, and count their individual tests from cmocka's summary lines.  The
# last line is "unit: N passed, N failed"; the exit status is non-zero when
# a test failed or a binary crashed or printed no summary.
# DA_VALGRIND=1 runs each binary under valgrind (make check-valgrind).
LC_ALL=C
export LC_ALL
# cmocka's plain report, whatever the environment asked for: it is what we
# count.
CMOCKA_MESSAGE_OUTPUT=STDOUT
export CMOCKA_MESSAGE_OUTPUT
unset CMOCKA_TEST_ABORT

vg=
if [ -n "${DA_VALGRIND:-}" ]; then
	vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
fi

# The binaries run DA_TEST_JOBS at a time (default: one per core), each
# into a file of its own; their reports are then printed in the order given.
jobs=${DA_TEST_JOBS:-$(nproc 2> /dev/null || echo 1)}
res=$(mktemp -d "${TMPDIR:-/tmp}/dumpanalyze-unit.XXXXXX") || exit 2
trap 'rm -rf "$res"' EXIT
trap 'exit 130' INT TERM

i=0
for t in "$@"; do
	i=$((i + 1))
	printf '%s %s\n' "$i" "$t"
done | xargs -P "$jobs" -n 2 sh -c '$2 "$4" > "$1/$3.out" 2>&1; echo $? > "$1/$3.status"' \
	sh "$res" "$vg"       # each line: the binary's index, the binary

# The sum of N over "[  PASSED  ] N test(s)." (or FAILED) lines of $1.
count() {
	sed -n "s/^\[  $1  \] \([0-9][0-9]*\) test(s).*/\1/p" "$2" |
		awk '{ n += $1 } END { print n + 0 }'
}

pass=0 fail=0 i=0
for t in "$@"; do
	i=$((i + 1))
	out=$res/$i.out
	cat "$out"
	status=$(cat "$res/$i.status" 2> /dev/null || echo 255)
	p=$(count PASSED "$out")
	f=$(count FAILED "$out")
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		if [ "$status" -gt 128 ]; then
			echo "$t: killed by signal $((status - 128))"
		else
			echo "$t: exit status $status"
		fi
		f=1
	elif [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		echo "$t: no cmocka summary (no tests run)"
		f=1
	fi
	pass=$((pass + p))
	fail=$((fail + f))
done
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
