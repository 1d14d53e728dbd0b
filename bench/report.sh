#!/bin/sh
# report.sh — the HTML report of about 100k traces (the 800 MB dump twice
# and the 200 MB one, read as one stream), opened in chromium: how long
# writing it takes and how the page responds (bench/report.mjs).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/bench/gen-dumps.sh" 800 > /dev/null
sh "$top/bench/gen-dumps.sh" 200 > /dev/null
big=$top/bench/data/flushy-800.dump
mid=$top/bench/data/flushy-200.dump
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dumpanalyze-report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "html view of flushy-800 + flushy-800 + flushy-200 from a pipe:"
/usr/bin/time -f '  %e s wall, %U s user, %S s system, %M KB peak RSS' \
	sh -c "cat '$big' '$big' '$mid' | '$top/dumpanalyze' -q --views html --out-dir '$tmp/out'"
echo "  $(ls "$tmp/out" | wc -l) files, index.html $(stat -c %s "$tmp/out/index.html") bytes," \
	"index-traces.js $(stat -c %s "$tmp/out/index-traces.js") bytes"
HOME=$tmp node "$top/bench/report.mjs" "$tmp/out"

# Issue 22's goals: --views html on flushy-800 alone (<= 5 s, <= 50 MB,
# every page's first paint <= 2 s), a generation of thousands of bushes.
echo "html view of flushy-800 (CPU time: the machine may be shared):"
/usr/bin/time -f '  %e s wall, %U s user, %S s system, %M KB peak RSS' \
	"$top/dumpanalyze" -q --views html --dump "$big" --out-dir "$tmp/one"
echo "  $(ls "$tmp/one" | wc -l) files, $(du -sb "$tmp/one" | cut -f1) bytes," \
	"$(cat "$tmp/one"/gen-*-text-*.js | wc -c) of them trace text"
/usr/bin/time -f '  wc -l: %e s wall' wc -l "$big" > /dev/null
largest=$(ls -S "$tmp/one" | grep '^gen-[0-9]*-bushes\.js$' | head -1 | sed 's/\.js$/.html/')
HOME=$tmp node "$top/bench/report.mjs" "$tmp/one" "$largest"
xz -dc "$top/samples/templates.dump.xz" > "$tmp/templates.dump"
"$top/dumpanalyze" -q --views html --dump "$tmp/templates.dump" --out-dir "$tmp/tpl"
echo "templates.dump (one generation, 7803 bushes): $(du -sb "$tmp/tpl" | cut -f1) bytes"
HOME=$tmp node "$top/bench/report.mjs" "$tmp/tpl" gen-1-bushes.html | tail -1
"$top/dumpanalyze" -q --views html --dump "$top/bench/data/onegen-100.dump" --out-dir "$tmp/onegen"
echo "onegen-100 (one generation, $(grep -o '^\["[0-9.]*",' "$tmp/onegen/gen-1-bushes.js" | wc -l) bushes): $(du -sb "$tmp/onegen" | cut -f1) bytes"
HOME=$tmp node "$top/bench/report.mjs" "$tmp/onegen" gen-1-bushes.html | tail -1
