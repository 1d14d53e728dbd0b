#!/bin/sh
# run.sh DUMPANALYZE — every end-to-end suite; the last line counts them all.
here=$(dirname "$0")
pass=0 fail=0
# The suites, in the order they run.
suites="golden errors behaviour docs doctest manpages pictures formats answers diagnose compare untrusted inert emptyrun many fresh report profile record
terminal scripts outdir commit explain nginx source findings judgment gate runset sysprof oncode fuzz"
for name in $suites; do
	suite=$here/$name.sh
	out=$(sh "$suite" "$1" 2>&1)
	status=$?
	printf '%s\n' "$out"
	line=$(printf '%s\n' "$out" | tail -n 1)
	p=$(printf '%s' "$line" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed.*/\1/p')
	f=$(printf '%s' "$line" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed.*/\2/p')
	if [ -z "$p" ]; then
		echo "suite $suite died (status $status)"
		p=0 f=1
	elif [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	pass=$((pass + p)) fail=$((fail + f))
done
echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
