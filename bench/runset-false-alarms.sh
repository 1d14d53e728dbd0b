#!/bin/bash
# runset-false-alarms.sh — the run-set gate's false-alarm rate: PAIRS pairs
# of fresh run sets of one unchanged workload (samples/runset.sh: 5 dump and
# 5 profile runs each), each pair compared with --fail-on recommended; an
# exit 1 is a false alarm.  Prints each pair's exit and the rules it failed,
# then the rate.  bench/RESULTS.md ("Run sets") has the last measurement.
#   bench/runset-false-alarms.sh [PAIRS [DIR [DUMP_ROUNDS PROF_ROUNDS]]]
# DIR under samples/lua (default serializer).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
pairs=${1:-20} dir=${2:-serializer} dump_rounds=${3:-300} prof_rounds=${4:-4000}
tool=$root/dumpanalyze
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
alarms=0
for ((i = 1; i <= pairs; i++)); do
  for side in a b; do
    "$root/samples/runset.sh" "$tmp/$side" 5 "$dump_rounds" -- "$prof_rounds" -- \
      "$root/samples/lua/$dir" main.lua
    "$tool" --run-set "$tmp/$side" --source-root "$root/samples/lua/$dir" -q 2>/dev/null
  done
  rc=0
  "$tool" --compare "$tmp/a" "$tmp/b" --fail-on recommended >"$tmp/cmp.txt" 2>/dev/null || rc=$?
  [ "$rc" -le 1 ] || { echo "pair $i: exit $rc" >&2; cat "$tmp/cmp.txt" >&2; exit 2; }
  alarms=$((alarms + rc))
  echo "pair $i: exit $rc $(grep '^FAIL:' "$tmp/cmp.txt" | tr '\n' ' ')"
  [ "$rc" -eq 0 ] || grep -E '  FAIL$' "$tmp/cmp.txt" || true
  rm -rf "$tmp/a" "$tmp/b"
done
echo "false alarms: $alarms of $pairs pairs ($dir, 5 runs and 5 profiles a side)"
