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

out=$(mktemp) || exit 2
trap 'rm -f "$out"' EXIT
trap 'exit 130' INT TERM

# The sum of N over "[  PASSED  ] N test(s)." (or FAILED) lines of $out.
count() {
	sed -n "s/^\[  $1  \] \([0-9][0-9]*\) test(s).*/\1/p" "$out" |
		awk '{ n += $1 } END { print n + 0 }'
}

pass=0 fail=0
for t in "$@"; do
	$vg "$t" > "$out" 2>&1
	status=$?
	cat "$out"
	p=$(count PASSED)
	f=$(count FAILED)
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
