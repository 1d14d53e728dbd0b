# setup.sh — shared by the end-to-end tests: a C locale, a scratch
# directory, optional valgrind, and pass/fail bookkeeping.  Sourced.
LC_ALL=C
export LC_ALL
unset COLORTERM
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SAMPLES=${SAMPLES:-$TOP/samples}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dumpanalyze-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
PASS=0
FAIL=0

# DA: the binary under test, made absolute; under valgrind with DA_VALGRIND=1.
# Only definite leaks count, and only they are shown: in a picture worker
# forked while the reading thread runs, valgrind does not see the forking
# thread's registers, so the parent's parser, which the worker neither
# owns nor frees, shows as "possibly lost" (the ASan run checks leaks too).
DA_BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
if [ -n "${DA_VALGRIND:-}" ]; then
	DA="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite $DA_BIN"
else
	DA=$DA_BIN
fi

ok() { PASS=$((PASS + 1)); echo "ok   - $1"; }
not_ok() { FAIL=$((FAIL + 1)); echo "FAIL - $1"; shift; for l in "$@"; do echo "       $l"; done; }

# check NAME EXPECTED ACTUAL
check() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "expected: $2" "got:      $3"; fi
}

# check_file NAME EXPECTED_FILE ACTUAL_FILE
check_file() {
	if cmp -s "$2" "$3"; then ok "$1"; else
		not_ok "$1" "files differ: $2 $3"
		diff -u "$2" "$3" | head -20 | sed 's/^/       /'
	fi
}

# ran NAME N [EXPECTED]: a loop whose checks come after it, or that may
# skip its body, ran N times: at least once, and EXPECTED times if given
# (a check that looked at nothing must not pass).
ran() {
	if [ "$2" -gt 0 ] && { [ $# -lt 3 ] || [ "$2" = "$3" ]; }; then
		ok "$1: ran $2 times"
	else
		not_ok "$1: ran $2 times" "expected: ${3:+$3 times, and }at least once"
	fi
}

finish() {
	echo "$SUITE: $PASS passed, $FAIL failed"
	[ "$FAIL" -eq 0 ]
}

# need_luajit: a suite that runs the installed luajit (with Debian's Lua
# modules on its path) fails at once without one.
need_luajit() {
	if ! command -v luajit > /dev/null; then
		not_ok "luajit is installed" "apt-get install luajit (scripts/install-deps.sh does)"
		finish
		exit 1
	fi
	LUA_PATH="/usr/share/lua/5.1/?.lua;/usr/share/lua/5.1/?/init.lua;;"
	export LUA_PATH
}
