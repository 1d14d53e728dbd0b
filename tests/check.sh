#!/bin/sh
# check.sh UNIT_TESTS... — `make check`: unit tests, the shape of src/
# (tests/tree/), an install into a scratch root, the library's examples
# against an install of their own, the end-to-end suites; the last line
# counts them all.
LC_ALL=C
export LC_ALL
here=$(dirname "$0")
total_pass=0 total_fail=0

started=$(date +%s)
took() { echo "# $1 took $(($(date +%s) - started)) s"; started=$(date +%s); }

tally() {   # the "NAME: N passed, N failed" line of a suite's output
	line=$(grep -E '^[a-z]+: [0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
	p=$(printf '%s' "$line" | sed -n 's/.*: \([0-9]*\) passed.*/\1/p')
	f=$(printf '%s' "$line" | sed -n 's/.*passed, \([0-9]*\) failed.*/\1/p')
	[ -n "$p" ] || { p=0; f=1; echo "check: $2 printed no count"; }
	[ "$3" -ne 0 ] && [ "$f" -eq 0 ] && f=1
	total_pass=$((total_pass + p)) total_fail=$((total_fail + f))
}

out=$(mktemp)
sh "$here/unit/run.sh" "$@" > "$out" 2>&1; status=$?
cat "$out"; took unit; tally "$out" unit $status

# the shape of src/: file sizes, no files that call each other
sh "$here/tree/tree.sh" > "$out" 2>&1; status=$?
cat "$out"; took tree; tally "$out" tree $status

root=$(mktemp -d)
if make -s install DESTDIR="$root" PREFIX=/usr > "$out" 2>&1 &&
   [ -x "$root/usr/bin/dumpanalyze" ] && [ -f "$root/usr/share/man/man1/dumpanalyze.1" ] &&
   "$root/usr/bin/dumpanalyze" --version | grep -q '^dumpanalyze '; then
	echo "install: 1 passed, 0 failed" > "$out"
else
	echo "install: binary or man page missing under DESTDIR" >> "$out"
	echo "install: 0 passed, 1 failed" >> "$out"
fi
rm -rf "$root"
cat "$out"; took install; tally "$out" install 0

sh "$here/api/api.sh" ./dumpanalyze > "$out" 2>&1; status=$?
cat "$out"; took api; tally "$out" api $status

sh "$here/cli/run.sh" ./dumpanalyze > "$out" 2>&1; status=$?
cat "$out"; took cli; tally "$out" cli $status

sh "$here/browser/run.sh" ./dumpanalyze > "$out" 2>&1; status=$?
cat "$out"; took browser; tally "$out" browser $status
rm -f "$out"

echo "check: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
