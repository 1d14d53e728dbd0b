#!/bin/sh
# gen-dumps.sh [SIZE_MB] — large real dumps for the benchmark, cached in
# bench/data/: Debian's luajit running luacheck (lua-check) over penlight's
# sources (lua-penlight), one file per run, runs appended until the size
# is reached.
#   flushy-SIZE.dump   -jdump=+x with low limits: many traces, aborts, side
#                      traces, exits and flushes (default 800 MB)
#   onegen-100.dump    -jdump=+x with maxtrace/maxmcode raised so LuaJIT
#                      never flushes: one huge generation (memory stress)
set -eu
size=${1:-800}
top=$(cd "$(dirname "$0")/.." && pwd)
data=$top/bench/data
mkdir -p "$data"
export LUA_PATH="/usr/share/lua/5.1/?.lua;/usr/share/lua/5.1/?/init.lua;;"

# make OUT MB LUAJIT-OPTIONS...: append whole runs until OUT has MB.
make_dump() {
	out=$1 mb=$2
	shift 2
	if [ -f "$out" ] && [ "$(stat -c %s "$out")" -ge $((mb * 1000000)) ]; then
		echo "gen-dumps: $out is cached"
		return
	fi
	: > "$out.tmp"
	while [ "$(stat -c %s "$out.tmp")" -lt $((mb * 1000000)) ]; do
		for f in /usr/share/lua/5.1/pl/*.lua; do
			env -u COLORTERM TERM=dumb luajit "$@" "-jdump=+x,$out.part" \
				"$top/samples/lua/lint.lua" "$f" > /dev/null
			cat "$out.part" >> "$out.tmp"
			[ "$(stat -c %s "$out.tmp")" -ge $((mb * 1000000)) ] && break
		done
	done
	rm -f "$out.part"
	mv "$out.tmp" "$out"
	echo "gen-dumps: $out: $(stat -c %s "$out") bytes, $(grep -c '^---- TRACE flush' "$out") flushes"
}

make_dump "$data/flushy-$size.dump" "$size" -Ohotloop=4 -Ohotexit=2 -Omaxtrace=300 -Omaxmcode=512
make_dump "$data/onegen-100.dump" 100 -Ohotloop=4 -Ohotexit=2 -Omaxtrace=65535 -Omaxmcode=1048576
