#!/bin/sh
# report.sh DUMPANALYZE — the html view's files without a browser: which
# files, their data against the dump, escaping, determinism, and nothing
# left behind by a run that fails.  (tests/browser/ opens them.)
SUITE=report
. "$(dirname "$0")/setup.sh"

# The JSON inside index.html, for jq.
data() { sed -n '/<script type="application\/json" id="da-data">/,/<\/script>/p' "$1" | sed '1d;$d'; }

# (bushes: counted from the dump's text, as in pictures.sh, and reviewed)
for case in penlight-x:26 flush:19 chunknames:7; do
	dump=${case%:*} bushes=${case#*:}
	d=$SAMPLES/$dump.dump
	out=$TMP/$dump
	$DA -q --views html --dump "$d" --out-dir "$out" > /dev/null 2> "$TMP/err"
	check "$dump: exit status" 0 $?
	gens=$(($(grep -c '^---- TRACE flush' "$d") + 1))
	check "$dump: one bushes page per generation" "$gens" "$(ls "$out" | grep -c '^gen-[0-9]*-bushes\.html$')"
	check "$dump: html brings bush-svg and bush-txt along" "$bushes $bushes" \
		"$(ls "$out" | grep -c 'bush-.*\.txt$') $(ls "$out" | grep -c 'bush-.*\.svg$')"
	check "$dump: index-traces.js rows = stop lines" "$(grep -c '^---- TRACE [0-9]* stop' "$d")" \
		"$(grep -c '^\[' "$out/index-traces.js")"
	node --check "$out/index-traces.js" 2> "$TMP/err"
	check "$dump: index-traces.js is valid JavaScript" "0" "$?"
	data "$out/index.html" > "$TMP/$dump.json"
	check "$dump: generations in the data" "$gens" "$(jq '.gens | length' "$TMP/$dump.json")"
	check "$dump: aborts in the data = abort lines" "$(grep -c '^---- TRACE [0-9]* abort' "$d")" \
		"$(jq '[.sites[][2]] | add // 0' "$TMP/$dump.json")"
	check "$dump: aborts card = abort lines" "$(grep -c '^---- TRACE [0-9]* abort' "$d")" \
		"$(jq '.cards[] | select(.[0] == "aborted attempts") | .[1]' "$TMP/$dump.json")"
	check "$dump: exits card = exit lines" "$(grep -c '^---- TRACE [0-9]* exit' "$d")" \
		"$(jq '.cards[] | select(.[0] == "exits taken") | .[1]' "$TMP/$dump.json")"
	# Every picture and text a page names is a file of the run.
	missing=0 named=0
	for f in $(cat "$out"/gen-*-bushes.html | grep -o '\(src\|href\)="gen-[^"]*"' | sed 's/.*="//; s/"$//'); do
		named=$((named + 1))
		[ -f "$out/$f" ] || missing=$((missing + 1))
	done
	ran "$dump: a picture and a text named per bush" "$named" "$((2 * bushes))"
	check "$dump: every file the pages name exists" 0 "$missing"
done

# Same input, same bytes, with one worker or two.
$DA -q -j 1 --views html --dump "$SAMPLES/penlight-x.dump" --out-dir "$TMP/again" > /dev/null 2>&1
$DA -q -j 2 --views html --dump "$SAMPLES/penlight-x.dump" --out-dir "$TMP/again2" > /dev/null 2>&1
check "the report is deterministic" "" "$(diff -r "$TMP/penlight-x" "$TMP/again"; diff -r "$TMP/again" "$TMP/again2")"
check "--views html: 26 bushes, 2 files each, 3 report files, the manifest" 56 "$(ls "$TMP/penlight-x" | wc -l)"

# Escaping: names from the dump are markup in hostile.dump.
$DA -q --views html --dump "$SAMPLES/hostile.dump" --out-dir "$TMP/hostile" > /dev/null 2>&1
check "hostile: exit status" 0 $?
check "hostile: no raw markup from the dump in any page or script" "" \
	"$(cat "$TMP"/hostile/*.html "$TMP"/hostile/*.js | grep -o '<script>document\|<img src=x\|<svg onload\|</script><b>')"
check "hostile: the name escaped for HTML" 1 \
	"$(grep -c "root at &lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;:2" "$TMP/hostile/gen-1-bushes.html")"
check "hostile: the name escaped for JSON" 1 \
	"$(grep -c '"\\u003cscript\\u003edocument.title='"'"'pwned'"'"'\\u003c/script\\u003e",2,' "$TMP/hostile/index-traces.js")"
data "$TMP/hostile/index.html" > "$TMP/hostile.json"
check "hostile: the data still reads back exactly" "<img src=x onerror=alert(1)>" \
	"$(jq -r '.sites[] | .[0]' "$TMP/hostile.json" | grep img)"

# Not a default view; listed with what it writes.
$DA -q --dump "$SAMPLES/penlight-x.dump" --out-dir "$TMP/default" > /dev/null 2>&1
check "html is not a default view" "" "$(ls "$TMP/default" | grep '\.html$\|\.js$')"
check "--views list names html" 1 "$($DA --views list | grep -c '^ *html ')"

# A run that stops leaves no report behind, not even a temporary one;
# the generation before the bad line is complete and stays.
printf -- '---- TRACE 1 start x.lua:1\n---- TRACE 1 stop -> loop\n---- TRACE flush\n---- TRACE ? bogus\n' > "$TMP/bad.dump"
$DA -q --strict --views html --dump "$TMP/bad.dump" --out-dir "$TMP/bad" > /dev/null 2> "$TMP/err"
check "failed run: exit status 3" 3 $?
check "failed run: the complete generation's page is there" "gen-1-bushes.html" "$(ls "$TMP/bad" | grep html)"
check "failed run: no index, no trace rows, no temporary files" "" "$(ls -A "$TMP/bad" | grep 'index\|tmp')"

finish
