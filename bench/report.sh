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
