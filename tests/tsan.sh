#!/bin/sh
# tsan.sh DUMPANALYZE UNIT_TESTS... — `make check-tsan`: the threads
# (input's reading thread, the output directory's writing thread) under
# ThreadSanitizer.  The unit tests of both, then DUMPANALYZE over every
# sample from a file, from a pipe and from a gzip pipe, with views that
# write many files.  Any report fails.
LC_ALL=C
export LC_ALL
# Pictures are drawn in line (--jobs 1): TSan cannot follow a forked
# child that starts threads of its own (its registry keeps the parent's,
# and the child's new thread reuses one's id).  What makes such forks
# safe, fork_guarded(), has its own test, run here too; its children end
# without joining their parent's threads, which do not exist in them:
# that "leak" is not one.
TSAN_OPTIONS="report_thread_leaks=0 halt_on_error=1 exitcode=66"
export TSAN_OPTIONS
da=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() {   # NAME COMMAND...: passes when it exits 0 and TSan said nothing
	name=$1
	shift
	if "$@" > "$tmp/log" 2>&1 && ! grep -q ThreadSanitizer "$tmp/log"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "not ok - $name"
		grep -A20 ThreadSanitizer "$tmp/log" | head -n 40
	fi
}
for t in "$@"; do
	check "$(basename "$t")" "$t"
done
views=traces,abort-reasons,abort-sites,exits,bush-txt,bush-svg,summary
for f in "$here"/../samples/*.dump; do
	n=$(basename "$f" .dump)
	rm -rf "$tmp/out"
	check "$n from a file" "$da" -q -j 1 --views $views --dump "$f" --out-dir "$tmp/out"
	rm -rf "$tmp/out"
	check "$n from a pipe" sh -c 'cat "$1" | "$2" -q -j 1 --views "$3" --out-dir "$4"' sh "$f" "$da" $views "$tmp/out"
	rm -rf "$tmp/out"
	check "$n from a gzip pipe" sh -c 'gzip -c "$1" | "$2" -q --views traces --out-dir "$3"' sh "$f" "$da" "$tmp/out"
done
echo "tsan: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
