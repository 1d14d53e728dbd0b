#!/bin/bash
# runset-false-alarms.sh — the run-set gate's false-alarm rate: SETS fresh
# run sets of one unchanged workload (samples/runset.sh: 5 dump and 5
# profile runs each), every pair of them compared with --fail-on
# recommended (SETS = 7 gives 21 pairs); an exit 1 is a false alarm.  Prints
# each pair's exit and what failed, then the rate.  bench/RESULTS.md ("Run
# sets") has the last measurement.
#   bench/runset-false-alarms.sh [SETS [DIR [DUMP_ROUNDS PROF_ROUNDS]]]
# DIR under samples/lua (default serializer).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sets=${1:-7} dir=${2:-serializer} dump_rounds=${3:-300} prof_rounds=${4:-2500}
tool=$root/dumpanalyze
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((i = 1; i <= sets; i++)); do
  "$root/samples/runset.sh" "$tmp/$i" 5 "$dump_rounds" -- "$prof_rounds" -- \
    "$root/samples/lua/$dir" main.lua
  "$tool" --run-set "$tmp/$i" --source-root "$root/samples/lua/$dir" -q 2>/dev/null
  echo "set $i recorded: $(grep -c ',profile,' "$tmp/$i/runs.csv") profiles, samples" \
    "$(awk -F, '$2 == "profile" { printf "%s ", $5 }' "$tmp/$i/runs.csv")"
done
alarms=0 pairs=0
for ((i = 1; i <= sets; i++)); do
  for ((j = i + 1; j <= sets; j++)); do
    rc=0
    "$tool" --compare "$tmp/$i" "$tmp/$j" --fail-on recommended >"$tmp/cmp.txt" 2>/dev/null || rc=$?
    [ "$rc" -le 1 ] || { echo "pair $i-$j: exit $rc" >&2; cat "$tmp/cmp.txt" >&2; exit 2; }
    alarms=$((alarms + rc)) pairs=$((pairs + 1))
    echo "pair $i-$j: exit $rc $(grep '^FAIL:' "$tmp/cmp.txt" | tr '\n' ' ')"
    [ "$rc" -eq 0 ] || grep -E '  FAIL( \(.*\))?$' "$tmp/cmp.txt" || true
  done
done
echo "false alarms: $alarms of $pairs pairs of $sets fresh run sets ($dir, 5 runs and 5 profiles a side)"
