#!/bin/sh
# record-runs.sh [DUMPANALYZE] [RUNS] — re-measures record's default
# --runs (bench/RESULTS.md, "record's default number of runs"): records
# samples/lua/serializer and samples/lua/shop RUNS times (default 10)
# each way, then bench/record-runs.mjs prints, per workload, the spread
# of the interpreted share over the profile runs, how often each finding
# appears over the dump runs, the seconds a run takes, and for each N
# the 95% interval's half-width of the share's mean and the chance that
# N runs see a finding of each presence at least once.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
da=$(cd "$(dirname "${1:-$top/dumpanalyze}")" && pwd)/$(basename "${1:-dumpanalyze}")
runs=${2:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for w in serializer shop; do
	case $w in
	serializer) rounds=${ROUNDS_serializer:-2000} ;;
	shop) rounds=${ROUNDS_shop:-10000} ;;
	esac
	(cd "$top/samples/lua/$w" && LUA_PATH="./?.lua;;" \
		"$da" record -q --runs "$runs" --out-dir "$tmp/$w" -- luajit main.lua "$rounds") >/dev/null
	k=1
	while [ "$k" -le "$runs" ]; do
		# the VM states' totals are the lines of no stack ("Interpreted 22")
		zstd -dc "$tmp/$w/runs/prof-$k.zst" |
			awk '!/;/ && !/^@/ { t += $NF; if ($1 == "Interpreted") i = $NF }
			     END { printf "%d %d\n", i, t }' >> "$tmp/$w.states"
		k=$((k + 1))
	done
	echo "($w: main.lua $rounds)"
	node "$here/record-runs.mjs" "$w" "$tmp/$w" "$runs" "$tmp/$w.states"
done
