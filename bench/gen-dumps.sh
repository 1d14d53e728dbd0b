#!/bin/sh
# gen-dumps.sh [SIZE_MB] — large real dumps for the benchmark, cached in
# bench/data/: Debian's luajit running luacheck (lua-check) over penlight's
# sources (lua-penlight), one file per run, runs appended until the size
# is reached.
#   flushy-SIZE.dump   -jdump=+x with low limits: many traces, aborts, side
#                      traces, exits and flushes (default 800 MB)
#   onegen-100.dump    -jdump=+x with maxtrace/maxmcode raised so LuaJIT
#                      never flushes: one huge generation (memory stress)
#   chain-N.dump,      one bush of N traces (N <= 65535, the most one
#   fan-N.dump         generation numbers): a chain N deep (each side trace
#                      grown from the one before) or a fan N wide (every
#                      side trace grown from the root).  No LuaJIT run
#                      makes these shapes on demand: they are the first
#                      root trace of samples/maxtrace.dump (-jdump=t) and
#                      its side trace 3, renumbered N - 1 times
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

# make_shape OUT N chain|fan: samples/maxtrace.dump's trace 1 as it is,
# then its trace 3 ("start 2/0", "stop -> return") as traces 2..N.
make_shape() {
	[ -f "$1" ] && { echo "gen-dumps: $1 is cached"; return; }
	awk -v n="$2" -v shape="$3" '
		NR <= 3 { print; next }
		/^---- TRACE 3 start 2\/0 / && side == "" { side = $0; getline stop }
		END {
			for (i = 2; i <= n; i++) {
				p = shape == "chain" ? i - 1 : 1
				e = shape == "chain" ? 0 : i - 2
				s = side; sub(/TRACE 3 start 2\/0/, "TRACE " i " start " p "/" e, s); print s
				t = stop; sub(/TRACE 3/, "TRACE " i, t); print t; print ""
			}
		}' "$top/samples/maxtrace.dump" > "$1.tmp"
	mv "$1.tmp" "$1"
	echo "gen-dumps: $1: $(stat -c %s "$1") bytes"
}

make_dump "$data/flushy-$size.dump" "$size" -Ohotloop=4 -Ohotexit=2 -Omaxtrace=300 -Omaxmcode=512
make_dump "$data/onegen-100.dump" 100 -Ohotloop=4 -Ohotexit=2 -Omaxtrace=65535 -Omaxmcode=1048576
make_shape "$data/chain-10000.dump" 10000 chain
make_shape "$data/chain-65535.dump" 65535 chain
make_shape "$data/fan-65535.dump" 65535 fan
