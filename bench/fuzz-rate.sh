#!/bin/sh
# fuzz-rate.sh FUZZER SEEDS RUNS MAX_LEN [DICT] — a fuzz target's
# executions per CPU-second: RUNS executions (-seed=1) from the seed
# directory SEEDS into a fresh corpus on tmpfs (so that the disk does not
# count), with -max_len=MAX_LEN and the dictionary, timed by /usr/bin/time
# (user + system seconds of the whole process, its threads included).
# CPU time, not wall time: on a shared machine a core's share varies.
# bench/RESULTS.md quotes medians of several such runs.  The libFuzzer and
# ASan options are tests/fuzz/fuzz.sh's (-entropic_feature_frequency_threshold=1,
# malloc_context_size=8), so that the rate is the one `make fuzz` prints
# per core; FUZZ_FLAGS adds libFuzzer options.
#   sh bench/fuzz-rate.sh tests/fuzz/fuzz_dump build-fuzz/seeds/dump 20000 8192 tests/fuzz/dump.dict
set -eu
bin=$1 seeds=$2 runs=$3 max_len=$4 dict=${5:-}
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "$( [ -w /dev/shm ] && echo /dev/shm || echo /tmp)/fuzz-rate.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/corpus"
LSAN_OPTIONS=suppressions=$top/tests/lsan.supp \
ASAN_OPTIONS=${FUZZ_ASAN_OPTIONS:-malloc_context_size=8} \
/usr/bin/time -f '%U %S' -o "$tmp/time" \
	"$bin" -runs="$runs" -seed=1 -max_len="$max_len" ${dict:+-dict="$dict"} -reload=0 \
	-close_fd_mask=3 -rss_limit_mb=4096 -entropic_feature_frequency_threshold=1 ${FUZZ_FLAGS:-} "$tmp/corpus" "$seeds" > "$tmp/log" 2>&1 ||
	{ tail -n 20 "$tmp/log"; echo "fuzz-rate.sh: $bin failed" >&2; exit 1; }
read -r user sys < "$tmp/time"
awk -v n="$runs" -v u="$user" -v s="$sys" 'BEGIN {
	printf "%d executions, %.2f CPU-seconds (user %.2f, system %.2f): %.0f executions per CPU-second\n",
	       n, u + s, u, s, n / (u + s) }'
