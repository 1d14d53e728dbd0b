#!/bin/bash
# runsets.sh — the recorded run sets of samples/runsets/ (generate.sh
# runsets calls it; it needs only luajit and zstd): 5 dump runs and 5
# profile runs each (runset.sh, the layout `dumpanalyze record` writes) of
# the serializer, its two-fix and regressed versions, and the shop
# service's three, and a profile too short to rank by, for
# tests/cli/runset.sh.  Re-run to record afresh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
sets=${*:-serializer:300:4000 serializer-fixed:300:4000 serializer-regressed:300:4000
            shop:2000:20000 shop-fixed:2000:20000 shop-regressed:2000:20000}
for set in $sets; do
  IFS=: read -r dir dump_rounds prof_rounds <<<"$set"
  ./runset.sh "runsets/$dir" 5 "$dump_rounds" -- "$prof_rounds" -- "lua/$dir" main.lua
  echo "runsets.sh: runsets/$dir: $(du -sk "runsets/$dir/runs" | cut -f1) KiB" >&2
done
# a profile too short to rank by (tests/cli/runset.sh: "only N samples")
[ $# -gt 0 ] || {
  (cd lua/serializer && env -u LUAJIT_DUMPFILE LUA_PATH="./?.lua;;" "${LUAJIT:-luajit}" \
    -jp=Gvli1,../../runsets/serializer-short.prof main.lua 30 >/dev/null)
  echo "runsets.sh: runsets/serializer-short.prof: $(grep -c . runsets/serializer-short.prof) lines" >&2
}
