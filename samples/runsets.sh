#!/bin/bash
# runsets.sh — the recorded run sets of samples/runsets/ (generate.sh
# runsets calls it; it needs luajit, zstd and the tool, $DUMPANALYZE or
# ../dumpanalyze): 5 dump runs and 5 profile runs each, recorded by
# `dumpanalyze record` (the profile runs longer: main.lua reads
# DUMPANALYZE_RECORD_KIND), of the serializer, its two-fix and regressed
# versions, and the shop service's three; only runs/ is kept.  And a
# profile too short to rank by, for tests/cli/runset.sh.  Re-run to
# record afresh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
DA=${DUMPANALYZE:-$(pwd)/../dumpanalyze}
sets=${*:-serializer serializer-fixed serializer-regressed shop shop-fixed shop-regressed}
for dir in $sets; do
  out=$(pwd)/runsets/$dir
  (cd "lua/$dir" && env -u COLORTERM -u LUAJIT_DUMPFILE -u LUA_INIT TERM=dumb LUA_PATH="./?.lua;;" \
    "$DA" record -q --runs 5 --views summary,findings --out-dir "$out" -- "${LUAJIT:-luajit}" main.lua)
  find "$out" -mindepth 1 -maxdepth 1 ! -name runs -exec rm -rf {} +
  echo "runsets.sh: runsets/$dir: $(du -sk "$out/runs" | cut -f1) KiB" >&2
done
# a profile too short to rank by (tests/cli/runset.sh: "only N samples")
[ $# -gt 0 ] || {
  (cd lua/serializer && env -u LUAJIT_DUMPFILE LUA_PATH="./?.lua;;" "${LUAJIT:-luajit}" \
    -jp=Gvli1,../../runsets/serializer-short.prof main.lua 30 >/dev/null)
  echo "runsets.sh: runsets/serializer-short.prof: $(grep -c . runsets/serializer-short.prof) lines" >&2
}
