#!/bin/sh
# run.sh TEST... — run the cmocka unit test binaries; the last line counts
# the individual tests of all of them.
LC_ALL=C
export LC_ALL
pass=0 fail=0
vg=
[ -n "${DA_VALGRIND:-}" ] && vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
for t in "$@"; do
	out=$($vg "$t" 2>&1)
	status=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	p=${p:-0} f=${f:-0}
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "$t: exit status $status"
		f=1
	fi
	pass=$((pass + p)) fail=$((fail + f))
done
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
