#!/bin/bash
# runset.sh — record a run set by hand, in the layout `dumpanalyze record`
# writes and `--run-set` reads: OUT/runs/dump-K.zst and OUT/runs/prof-K.zst,
# K = 1..N, the dump runs and the profile runs interleaved (a profiler next
# to -jdump skews both), each a fresh luajit of the same workload.
#   samples/runset.sh OUT N DUMP_ARGS -- PROF_ARGS -- DIR LUA_ARGS...
# runs `luajit -jdump=+x,FILE LUA_ARGS DUMP_ARGS` and
# `luajit -jp=Gvli1,FILE LUA_ARGS PROF_ARGS` in DIR, with DIR's modules
# first on LUA_PATH.  Example (what generate.sh records):
#   samples/runset.sh /tmp/set 5 300 -- 4000 -- samples/lua/serializer main.lua
set -euo pipefail
[ $# -ge 7 ] || { echo "usage: $0 OUT N DUMP_ARGS -- PROF_ARGS -- DIR LUA_ARGS..." >&2; exit 1; }
out=$1 n=$2
shift 2
dump_args=() prof_args=()
while [ "$1" != "--" ]; do dump_args+=("$1"); shift; done
shift
while [ "$1" != "--" ]; do prof_args+=("$1"); shift; done
shift
dir=$1
shift
LUAJIT=${LUAJIT:-luajit}
runs=$(realpath -m "$out/runs")
rm -rf "$runs"
mkdir -p "$runs"
run() { # the workload's output kept beside its file: FILE.out
  local file=$1
  shift
  (cd "$dir" && env -u COLORTERM -u LUAJIT_DUMPFILE TERM=dumb LUA_PATH="./?.lua;;" \
    "$LUAJIT" "$@" >"$file.out" 2>&1) ||
    { echo "$0: luajit failed for $file:" >&2; cat "$file.out" >&2; exit 1; }
  rm -f "$file.out"
  zstd -q -f --rm "$file"
}
for ((k = 1; k <= n; k++)); do
  run "$runs/dump-$k" "-jdump=+x,$runs/dump-$k" "$@" "${dump_args[@]}"
  run "$runs/prof-$k" "-jp=Gvli1,$runs/prof-$k" "$@" "${prof_args[@]}"
done
