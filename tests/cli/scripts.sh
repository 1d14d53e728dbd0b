#!/bin/sh
# scripts.sh DUMPANALYZE — scripts/install-deps.sh against stand-ins for
# apt-get, dpkg-query and npm: it installs only what is missing, never
# removes a package, keeps an OpenResty box's luajit2, `build`/`demo`
# install only what the build needs, `nginx` adds only what conflicts with
# nothing, `fresh` only debootstrap; `make check` installs before it builds.
SUITE=scripts
. "$(dirname "$0")/setup.sh"

# A scratch copy of the repository's scripts, so `demo` builds nothing.
mkdir -p "$TMP/repo/scripts" "$TMP/bin" "$TMP/repo/tests/browser/node_modules/playwright-core" \
	"$TMP/repo/tests/ci/node_modules/@microsoft/sarif-multitool"
cp "$TOP/scripts/install-deps.sh" "$TMP/repo/scripts/"
# stand-ins: dpkg-query says installed for the names in $TMP/installed;
# apt-get writes its arguments to $TMP/apt.log; id says root.
cat > "$TMP/bin/dpkg-query" <<'STUB'
#!/bin/sh
for a; do p=$a; done
grep -qx "$p" "$STUBS/installed" && echo 'install ok installed' || exit 1
STUB
cat > "$TMP/bin/apt-get" <<'STUB'
#!/bin/sh
echo "$*" >> "$STUBS/apt.log"
STUB
printf '#!/bin/sh\necho 0\n' > "$TMP/bin/id"
printf '#!/bin/sh\nexit 0\n' > "$TMP/bin/make"
chmod +x "$TMP/bin/"*
STUBS=$TMP
export STUBS

# run WHAT INSTALLED...: the script with those packages installed; the
# packages apt-get was asked to install, sorted, on one line.
run() {
	what=$1
	shift
	printf '%s\n' "$@" > "$TMP/installed"
	: > "$TMP/apt.log"
	PATH="$TMP/bin:$PATH" sh "$TMP/repo/scripts/install-deps.sh" $what > "$TMP/out" 2>&1
	status=$?
	asked=$(grep '^install ' "$TMP/apt.log" | tr ' ' '\n' | grep -v '^-' | grep -v '^install$' | sort | tr '\n' ' ')
}

run test node npm
check "test on a bare machine: exit 0" 0 "$status"
check "test: every install has --no-remove" "$(grep -c '^install ' "$TMP/apt.log")" "$(grep -c '^install .*--no-remove' "$TMP/apt.log")"
check "test: one apt-get install" 1 "$(grep -c '^install ' "$TMP/apt.log")"
check "test: Debian's luajit when no LuaJIT is there" 1 "$(echo "$asked" | tr ' ' '\n' | grep -cx luajit)"
check "test: cmocka and chromium asked for" 2 "$(echo "$asked" | tr ' ' '\n' | grep -cx 'libcmocka-dev\|chromium')"

run test node npm luajit2 libnginx-mod-http-lua
check "OpenResty box: luajit is not asked for" 0 "$(echo "$asked" | tr ' ' '\n' | grep -cx luajit)"
check "OpenResty box: luajit2 is not asked for either" 0 "$(echo "$asked" | tr ' ' '\n' | grep -cx luajit2)"

run demo node npm
check "demo: exit 0" 0 "$status"
check "demo: no test package asked for" "" \
	"$(echo "$asked" | tr ' ' '\n' | grep -x 'luajit\|libcmocka-dev\|chromium\|clang\|valgrind\|nodejs\|npm\|lua-check')"
check "demo: the build's libraries asked for" 2 "$(echo "$asked" | tr ' ' '\n' | grep -cx 'libcairo2-dev\|libcsv-dev')"

# nginx (bench/gen-nginx-dump.sh): the load tool and cjson, never nginx,
# its lua module or luajit2, which that script unpacks privately.
run nginx node npm
check "nginx: exit 0" 0 "$status"
check "nginx: wrk, lua-cjson and the build's libraries asked for" 4 "$(echo "$asked" | tr ' ' '\n' | grep -cx 'wrk\|lua-cjson\|libcairo2-dev\|libcsv-dev')"
check "nginx: no nginx, lua module, LuaJIT or test package asked for" "" \
	"$(echo "$asked" | tr ' ' '\n' | grep -x 'nginx\|libnginx-mod-http-lua\|luajit\|luajit2\|libluajit2-5.1-2\|lua-resty-core\|libcmocka-dev\|chromium')"

all=$(sed -n '/^BUILD="/,/"$/p; /^TEST="/,/"$/p' "$TOP/scripts/install-deps.sh" | tr -d '"' | sed 's/^[A-Z]*=//' | tr ' ' '\n' | grep . | sort -u)
# shellcheck disable=SC2086
run test node npm luajit $all
check "everything installed: apt-get not run" "" "$(cat "$TMP/apt.log")"
check "everything installed: said so" "install-deps: everything for 'test' is installed" "$(head -1 "$TMP/out")"

# fresh (make check-fresh): debootstrap and Debian's keys, nothing else.
run fresh node npm
check "fresh: exit 0" 0 "$status"
check "fresh: debootstrap and the keyring, nothing else" "debian-archive-keyring debootstrap " "$asked"

run bogus
check "an unknown argument: exit 1" 1 "$status"
check "an unknown argument: usage" 1 "$(grep -c '^usage: .*install-deps.sh \[build|test|demo|nginx|fresh\]$' "$TMP/out")"

# make check installs what the tests need before it builds anything
# (README's second command on a machine that has only the build's
# packages): in a scratch copy of the tree, make -n check's first command
# is the install, before any compiler.
mkdir -p "$TMP/tree"
cp -r "$TOP/Makefile" "$TOP/src" "$TOP/include" "$TOP/scripts" "$TOP/docs" "$TMP/tree/"
mkdir -p "$TMP/tree/tests/unit" && cp "$TOP"/tests/unit/*.c "$TOP"/tests/unit/*.h "$TMP/tree/tests/unit/" 2> /dev/null
cp -r "$TOP/tests/faults" "$TMP/tree/tests/" 2> /dev/null
mkdir -p "$TMP/tree/tests/fuzz" && cp "$TOP/tests/fuzz/fuzz.mk" "$TMP/tree/tests/fuzz/"
make -n -C "$TMP/tree" check > "$TMP/make-n" 2>&1
check "make check: the install of the test set comes first" "sh scripts/install-deps.sh test" \
	"$(grep -m1 -E 'install-deps|(^| )(cc|gcc|clang) ' "$TMP/make-n")"
check "make check: ... then the unit tests are built (with cmocka)" 1 \
	"$(grep -c -m1 -e '-o tests/unit/test_api .*-lcmocka' "$TMP/make-n")"
finish
