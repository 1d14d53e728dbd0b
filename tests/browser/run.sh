#!/bin/sh
# run.sh DUMPANALYZE — the HTML report of real dumps, checked in Debian's
# chromium through playwright-core (scripts/install-deps.sh installs
# both).  Last line: "browser: N passed, N failed".
here=$(cd "$(dirname "$0")" && pwd)
SUITE=browser
. "$here/../cli/setup.sh"

need() { not_ok "$1" "$2"; finish; exit 1; }
command -v node > /dev/null || need "node is installed" "run scripts/install-deps.sh"
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || need "chromium is installed" "run scripts/install-deps.sh"
[ -d "$here/node_modules/playwright-core" ] ||
	need "playwright-core is installed" "run scripts/install-deps.sh (npm ci in tests/browser)"

$DA -q --views html,traces,abort-reasons,abort-sites,exits --dump "$SAMPLES/penlight-x.dump" \
	--out-dir "$TMP/pen" 2> "$TMP/err"
check "report of penlight-x.dump is written" "0" "$?"
$DA -q --views html --dump "$SAMPLES/hostile.dump" --out-dir "$TMP/hostile" 2> "$TMP/err"
check "report of hostile.dump is written" "0" "$?"
xz -dc "$SAMPLES/templates.dump.xz" > "$TMP/templates.dump"     # read by the test too
$DA -q --views html --dump "$TMP/templates.dump" --out-dir "$TMP/tpl" 2> "$TMP/err"
check "report of templates.dump (7803 bushes) is written" "0" "$?"

$DA -q --views html,profile,flamegraph,abort-sites --dump "$SAMPLES/costly.dump" --profile "$SAMPLES/costly-Gvl.prof" \
	--out-dir "$TMP/prof" 2> "$TMP/err"
check "report with a profile is written" "0" "$?"
$DA -q --views html,sysprof,findings --dump "$SAMPLES/sysprof/phases.dump" --profile "$SAMPLES/sysprof/phases.sysprof.xz" \
	--out-dir "$TMP/sysprof" 2> "$TMP/err"
check "report with a sysprof profile is written" "0" "$?"
# What to fix first: the shop service with its profile and its source.
(cd "$SAMPLES" && $DA -q --views html,findings --dump shop.dump --profile shop-Gvl.prof \
	--source-root lua/shop --out-dir "$TMP/shop" 2> "$TMP/err")
check "report of shop.dump with its profile and source is written" "0" "$?"

# The source view's pages: its program under --source-root, the report
# beside them for the trace links (html brings the source view);
# hostile chunk names.
(cd "$SAMPLES" && $DA -q --views html --dump annotated.dump --profile annotated-Gvl.prof --source-root lua \
	--out-dir "$TMP/src" 2> "$TMP/err")
check "source pages of annotated.dump are written" "0" "$?"
$DA -q --views source --dump "$SAMPLES/hostile.dump" --out-dir "$TMP/srchostile" 2> "$TMP/err"
check "source pages of hostile.dump are written" "0" "$?"
HOME=$TMP node "$here/source.test.mjs" "$TMP" "$SAMPLES" > "$TMP/src.out" 2>&1
status=$?
grep -v '^browser-source: ' "$TMP/src.out"
line=$(grep '^browser-source: ' "$TMP/src.out")
p=$(printf '%s' "$line" | sed -n 's/^browser-source: \([0-9]*\) passed.*/\1/p')
f=$(printf '%s' "$line" | sed -n 's/.* \([0-9]*\) failed$/\1/p')
PASS=$((PASS + ${p:-0}))
FAIL=$((FAIL + ${f:-1}))
[ "$status" -ne 0 ] && [ "${f:-1}" -eq 0 ] && FAIL=$((FAIL + 1))

# HOME: chromium wants a writable profile directory.
HOME=$TMP node "$here/report.test.mjs" "$TMP" "$SAMPLES" > "$TMP/out" 2>&1
status=$?
grep -v '^browser: ' "$TMP/out"
line=$(grep '^browser: ' "$TMP/out")
p=$(printf '%s' "$line" | sed -n 's/^browser: \([0-9]*\) passed.*/\1/p')
f=$(printf '%s' "$line" | sed -n 's/.* \([0-9]*\) failed$/\1/p')
PASS=$((PASS + ${p:-0}))
FAIL=$((FAIL + ${f:-1}))
[ "$status" -ne 0 ] && [ "${f:-1}" -eq 0 ] && FAIL=$((FAIL + 1))
finish
