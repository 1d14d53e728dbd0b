#!/bin/sh
# pictures.sh [DUMP...] — time the bush pictures: for every bush of the
# dumps (default: the samples), render its bush text with and without
# bush-png and report the difference per bush: by bush size, median, p99
# and total (each figure includes a process's start-up, about 6 ms).
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
for b in "$tmp"/bushes/*/*.txt; do
	n=$(grep -c '^---- TRACE [0-9]* stop' "$b")
	t0=$(now)
	"$da" -q -j 1 --views traces --dump "$b" --out-dir "$tmp/o1"
	t1=$(now)
	"$da" -q -j 1 --views traces,bush-png --dump "$b" --out-dir "$tmp/o2"
	t2=$(now)
	echo "$n $(( (t2 - t1) - (t1 - t0) ))"
done > "$tmp/times"
printf '%-8s %8s %10s\n' traces bushes "ms/bush"
awk '
	{ b = $1 < 5 ? "1-4" : $1 < 10 ? "5-9" : $1 < 20 ? "10-19" : $1 < 50 ? "20-49" : "50+"
	  n[b]++; ns[b] += $2; all++; tot += $2 }
	END {
		split("1-4 5-9 10-19 20-49 50+", order, " ")
		for (i = 1; i <= 5; i++) if (n[order[i]])
			printf "%-8s %8d %10.2f\n", order[i], n[order[i]], ns[order[i]] / n[order[i]] / 1e6
		printf "%-8s %8d %10.2f\n", "all", all, tot / all / 1e6
		printf "total %.2f s for %d bushes\n", tot / 1e9, all
	}' "$tmp/times"
sort -n -k2 "$tmp/times" | awk '{ t[NR] = $2 } END {
	printf "median %.2f ms, p99 %.2f ms per bush\n", t[int((NR + 1) / 2)] / 1e6, t[int(NR * 0.99 + 0.999)] / 1e6 }'
