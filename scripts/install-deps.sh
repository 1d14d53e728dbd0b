#!/bin/sh
# install-deps.sh [demo] — install what dumpanalyze needs to build and test
# on Debian (as root), only what is missing; with "demo", then build and
# analyse a bundled sample dump.
set -eu
cd "$(dirname "$0")/.."

# build: compiler, make, pkg-config, libcsv, cairo (+ the font the
# pictures use), libdeflate (PNG compression), zlib (PNG checksums, gzip
# dumps), liblzma/libzstd for
# compressed dumps; tests:
# cmocka, luajit and the Lua code the samples run, valgrind, script(1),
# setpriv(1), xmllint, groff (the man page's check), clang's libFuzzer,
# the compressors, chromium for the HTML report's browser tests (with
# Node.js, if the machine has none).
PACKAGES="gcc make pkg-config libc6-dev libcsv-dev libcairo2-dev libdeflate-dev zlib1g-dev liblzma-dev libzstd-dev libjansson-dev fonts-dejavu-core
libcmocka-dev luajit lua-penlight lua-check valgrind bsdutils util-linux libxml2-utils jq groff-base
clang libclang-rt-14-dev gzip xz-utils zstd time chromium"
command -v node > /dev/null && command -v npm > /dev/null || PACKAGES="$PACKAGES nodejs npm"

missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}\n' "$p" 2> /dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "install-deps: installing$missing"
	if [ "$(id -u)" -ne 0 ]; then
		echo "install-deps: run as root (or: sudo $0)" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing
else
	echo "install-deps: everything is installed"
fi

# playwright-core, the pinned version of tests/browser/package-lock.json,
# drives that chromium.
if [ ! -d tests/browser/node_modules/playwright-core ]; then
	echo "install-deps: npm ci in tests/browser"
	(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
fi

if [ "${1:-}" = demo ]; then
	make
	make demo
fi
