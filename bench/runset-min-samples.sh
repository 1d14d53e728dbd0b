#!/bin/bash
# runset-min-samples.sh — how many samples a profile needs to rank by: the
# recorded serializer run set's 5 dumps (samples/runsets/serializer) with
# fresh -jp=Gvli1 profiles of ROUNDS rounds each, TRIES profiles per
# length; for each, whether its top finding by cost (one profile alone, the
# run set's rule) is the top finding of the set's own 5 long profiles.
# Prints, per length: samples (median) and how often the top agreed.
#   bench/runset-min-samples.sh [TRIES [ROUNDS...]]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tries=${1:-5}
shift || true
lengths=${*:-30 100 300 800 2500}
tool=$root/dumpanalyze
rs=$root/samples/runsets/serializer/runs
src=$root/samples/lua/serializer
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dumps=()
for k in 1 2 3 4 5; do dumps+=(--dump "$rs/dump-$k.zst"); done
top() { # OUT: the top finding's identity by SAMPLES
  node --input-type=module -e "
import { csv } from '$root/tests/cli/csv.mjs';
const r = csv('$1/findings.csv');
console.log(r.length ? r[0].IDENTITY + ' ' + r[0].SAMPLES : 'none');"
}
profs=()
for k in 1 2 3 4 5; do profs+=(--profile "$rs/prof-$k.zst"); done
"$tool" -q --repeats "${dumps[@]}" "${profs[@]}" --source-root "$src" --out-dir "$tmp/ref" 2>/dev/null
ref=$(top "$tmp/ref" | cut -d' ' -f1)
for rounds in $lengths; do
  agree=0 samples=()
  for ((i = 1; i <= tries; i++)); do
    (cd "$src" && env -u LUAJIT_DUMPFILE LUA_PATH="./?.lua;;" luajit -jp=Gvli1,"$tmp/p" \
      main.lua "$rounds" >/dev/null)
    "$tool" -q --repeats "${dumps[@]}" --profile "$tmp/p" --source-root "$src" \
      --out-dir "$tmp/o" 2>/dev/null || true
    samples+=("$(awk -F, '$2 == "profile" { print $5 }' "$tmp/o/runs.csv")")
    [ "$(top "$tmp/o" | cut -d' ' -f1)" = "$ref" ] && agree=$((agree + 1))
  done
  med=$(printf '%s\n' "${samples[@]}" | sort -n | sed -n "$(((tries + 1) / 2))p")
  echo "rounds $rounds: samples median $med (${samples[*]}): top finding agreed $agree of $tries"
done
