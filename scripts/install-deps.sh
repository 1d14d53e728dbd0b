#!/bin/sh
# install-deps.sh [build|test|demo|nginx|fresh] — install, on Debian (as
# root), only what is missing to build dumpanalyze (build), to build and
# test it (test, the default), to build it and analyse a bundled sample
# (demo), to build it and run bench/gen-nginx-dump.sh (nginx: that script
# unpacks nginx, its lua module and luajit2 privately; the system gets only
# the load tool, cjson, curl, xz and libpcre3, which conflict with
# nothing), or to run `make check-fresh` (fresh: debootstrap and Debian's
# keys, nothing to build).
# It only adds: apt-get runs with --no-remove, so a package that would
# take another away (luajit and OpenResty's luajit2 conflict) makes it
# stop and say so instead.
set -eu
cd "$(dirname "$0")/.."
what=${1:-test}
case $what in
build|test|demo|nginx|fresh) ;;
*) echo "usage: $0 [build|test|demo|nginx|fresh]" >&2; exit 1 ;;
esac

# build: compiler, make, pkg-config, binutils (objcopy for the static
# library), libcsv, cairo (+ the font the pictures use), libdeflate (PNG
# compression), zlib (PNG checksums, gzip dumps), liblzma/libzstd for
# compressed dumps, jansson (JSON lines).
BUILD="gcc make pkg-config binutils libc6-dev libcsv-dev libcairo2-dev libdeflate-dev
zlib1g-dev liblzma-dev libzstd-dev libjansson-dev fonts-dejavu-core"
# test: cmocka, a LuaJIT and the Lua code the samples run, valgrind,
# script(1), setpriv(1), xmllint, jq, groff (the man page's check), clang
# and its libFuzzer, the compressors, chromium for the HTML report's
# browser tests (with Node.js, if the machine has none), vim (its
# quickfix reads problems.txt; vim-tiny has no quickfix), strace (which
# process wrote a picture).
TEST="libcmocka-dev lua-penlight lua-check valgrind bsdutils util-linux libxml2-utils jq
groff-base clang libclang-rt-14-dev gzip xz-utils zstd time chromium vim git strace"

installed() {
	dpkg-query -W -f='${Status}\n' "$1" 2> /dev/null | grep -q '^install ok installed$'
}

# nginx: what bench/gen-nginx-dump.sh needs on the system (see there).
NGINX="wrk lua-cjson curl xz-utils libpcre3 dpkg"

# fresh: tests/fresh.sh makes a bare Debian 12 root with debootstrap.
FRESH="debootstrap debian-archive-keyring"

PACKAGES=$BUILD
[ "$what" = nginx ] && PACKAGES="$PACKAGES $NGINX"
[ "$what" = fresh ] && PACKAGES=$FRESH
if [ "$what" = test ]; then
	PACKAGES="$PACKAGES $TEST"
	# Either LuaJIT will do: an OpenResty box keeps its luajit2.
	installed luajit2 || PACKAGES="$PACKAGES luajit"
	command -v node > /dev/null && command -v npm > /dev/null || PACKAGES="$PACKAGES nodejs npm"
fi

missing=""
for p in $PACKAGES; do
	installed "$p" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "install-deps: installing$missing"
	if [ "$(id -u)" -ne 0 ]; then
		echo "install-deps: run as root (or: sudo $0 $what)" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	if ! apt-get install -y -qq --no-install-recommends --no-remove $missing; then
		echo "install-deps: apt-get would have to remove packages to install$missing;" >&2
		echo "install-deps: nothing was removed: install them by hand if you want that" >&2
		exit 1
	fi
else
	echo "install-deps: everything for '$what' is installed"
fi

# playwright-core, the pinned version of tests/browser/package-lock.json,
# drives that chromium.
if [ "$what" = test ] && [ ! -d tests/browser/node_modules/playwright-core ]; then
	echo "install-deps: npm ci in tests/browser"
	(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
fi

# The consumers of the findings' CI formats, pinned by
# tests/ci/package-lock.json: Microsoft's SARIF Multitool (its Linux
# binary comes in the package), ajv-cli (JSON schemas), js-yaml.
if [ "$what" = test ] && [ ! -d tests/ci/node_modules/@microsoft/sarif-multitool ]; then
	echo "install-deps: npm ci in tests/ci"
	(cd tests/ci && npm ci --no-audit --no-fund --loglevel=error)
fi

if [ "$what" = demo ]; then
	make
	make demo
fi
