#!/bin/sh
# bush-times.sh [DUMP] — how long each bush picture takes inside one run,
# with no process start-up in the figures (bench/pictures.sh times a
# process per bush): uprobes on picture_write's entry and return, read by
# perf (needs root and perf with uprobes).  One worker (-j 1), bush-png
# only; default DUMP: the 200 MB bench dump.  Prints the count, median,
# p99, largest and total.  The probes slow the run by about a fifth.
set -eu
LC_ALL=C
export LC_ALL
top=$(cd "$(dirname "$0")/.." && pwd)
da=$top/dumpanalyze
dump=${1:-$top/bench/data/flushy-200.dump}
[ -x "$da" ] || { echo "build first: make" >&2; exit 1; }
[ -f "$dump" ] || sh "$top/bench/gen-dumps.sh" 200 > /dev/null
tmp=$(mktemp -d)
cleanup() {
	perf probe -q -d 'probe_dumpanalyze:picture_write*' 2> /dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
perf probe -q -x "$da" -a picture_write -a 'picture_write%return'
perf record -q -e 'probe_dumpanalyze:picture_write*' -o "$tmp/perf.data" \
	"$da" -q -j 1 --views bush-png --dump "$dump" --out-dir "$tmp/out" 2> /dev/null
perf script -i "$tmp/perf.data" -F time,event 2> /dev/null |
	awk '{ t = $1 + 0; if ($2 ~ /return/) printf "%.3f\n", (t - start) * 1000; else start = t }' |
	sort -n | awk '{ ms[NR] = $1; total += $1 }
		END { if (NR == 0) { print "no pictures"; exit 1 }
		      printf "%d bushes: median %.2f ms, p99 %.2f ms, largest %.2f ms, total %.2f s\n",
		             NR, ms[int((NR + 1) / 2)], ms[int(NR * 0.99 + 0.999)], ms[NR], total / 1000 }'
