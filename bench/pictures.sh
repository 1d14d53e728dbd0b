#!/bin/sh
# pictures.sh [DUMP...] — time the bush pictures: for every bush of the
# dumps (default: the samples), render its bush text with and without
# bush-png and report the difference per bush, by bush size.
#   sh bench/pictures.sh                 # samples
#   sh bench/pictures.sh big.dump        # a large dump
set -eu
LC_ALL=C
export LC_ALL
top=$(cd "$(dirname "$0")/.." && pwd)
da=$top/dumpanalyze
[ -x "$da" ] || { echo "build first: make" >&2; exit 1; }
[ $# -gt 0 ] || set -- "$top"/samples/*.dump
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Split the dumps into one dump per bush.
i=0
for d in "$@"; do
	i=$((i + 1))
	"$da" -q --views bush-txt --dump "$d" --out-dir "$tmp/bushes/$i"
done

now() { date +%s%N; }
printf '%-8s %8s %10s\n' traces bushes "ms/bush"
for b in "$tmp"/bushes/*/*.txt; do
	n=$(grep -c '^---- TRACE [0-9]* stop' "$b")
	t0=$(now)
	"$da" -q --views traces --dump "$b" --out-dir "$tmp/o1"
	t1=$(now)
	"$da" -q --views traces,bush-png --dump "$b" --out-dir "$tmp/o2"
	t2=$(now)
	echo "$n $(( (t2 - t1) - (t1 - t0) ))"
done | awk '
	{ b = $1 < 5 ? "1-4" : $1 < 10 ? "5-9" : $1 < 20 ? "10-19" : $1 < 50 ? "20-49" : "50+"
	  n[b]++; ns[b] += $2; all++; tot += $2 }
	END {
		split("1-4 5-9 10-19 20-49 50+", order, " ")
		for (i = 1; i <= 5; i++) if (n[order[i]])
			printf "%-8s %8d %10.2f\n", order[i], n[order[i]], ns[order[i]] / n[order[i]] / 1e6
		printf "%-8s %8d %10.2f\n", "all", all, tot / all / 1e6
	}'
