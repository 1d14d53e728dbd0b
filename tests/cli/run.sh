#!/bin/sh
# run.sh DUMPANALYZE — every end-to-end suite; the last line counts them all.
# The suites are independent (each has its own scratch directory), so they
# run DA_TEST_JOBS at a time (default: one per core), and their outputs are
# printed whole, in the order below, with the seconds each took.
here=$(dirname "$0")
pass=0 fail=0
# The suites, in the order they are printed.
suites="golden errors behaviour docs doctest manpages pictures formats answers diagnose compare untrusted inert emptyrun many fresh report profile record
terminal scripts outdir commit explain nginx source findings judgment gate runset sysprof oncode fuzz"
# The slowest start first (measured under valgrind), so that the pool ends
# together; any suite not named here starts after them.
slow="doctest commit pictures formats behaviour record gate sysprof runset compare answers"
jobs=${DA_TEST_JOBS:-$(nproc 2> /dev/null || echo 1)}
res=$(mktemp -d "${TMPDIR:-/tmp}/dumpanalyze-suites.XXXXXX") || exit 1
trap 'rm -rf "$res"' EXIT
trap 'exit 130' INT TERM

order=$slow
for name in $suites; do
	case " $slow " in *" $name "*) ;; *) order="$order $name" ;; esac
done
# shellcheck disable=SC2016 # the script is sh -c's, its $1.. are xargs'
printf '%s\n' $order | xargs -P "$jobs" -n 1 sh -c '
	start=$(date +%s)
	sh "$1/$4.sh" "$2" > "$3/$4.out" 2>&1
	echo $? > "$3/$4.status"
	echo $(($(date +%s) - start)) > "$3/$4.seconds"' sh "$here" "$1" "$res"

for name in $suites; do
	out=$res/$name.out
	cat "$out" 2> /dev/null
	status=$(cat "$res/$name.status" 2> /dev/null || echo 255)
	line=$(tail -n 1 "$out" 2> /dev/null)
	p=$(printf '%s' "$line" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed.*/\1/p')
	f=$(printf '%s' "$line" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed.*/\2/p')
	if [ -z "$p" ]; then
		echo "suite $here/$name.sh died (status $status)"
		p=0 f=1
	elif [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	pass=$((pass + p)) fail=$((fail + f))
done
printf '# seconds per suite, %s at a time:' "$jobs"
for name in $suites; do printf ' %s %s' "$name" "$(cat "$res/$name.seconds" 2> /dev/null)"; done
echo
echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
