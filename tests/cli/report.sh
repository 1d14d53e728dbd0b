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
	$DA -q --views html,traces --dump "$d" --out-dir "$out" > /dev/null 2> "$TMP/err"
	check "$dump: exit status" 0 $?
	gens=$(($(grep -c '^---- TRACE flush' "$d") + 1))
	check "$dump: one bushes page and one data file per generation" "$gens $gens" \
		"$(ls "$out" | grep -c '^gen-[0-9]*-bushes\.html$') $(ls "$out" | grep -c '^gen-[0-9]*-bushes\.js$')"
	check "$dump: no pictures or bush text: html draws in the browser" 0 \
		"$(ls "$out" | grep -c 'bush-.*\.\(txt\|svg\|png\)$')"
	check "$dump: index-traces.js rows = stop lines" "$(grep -c '^---- TRACE [0-9]* stop' "$d")" \
		"$(grep -c '^\[' "$out/index-traces.js")"
	node --check "$out/index-traces.js" 2> "$TMP/err"
	check "$dump: index-traces.js is valid JavaScript" "0" "$?"
	# Each generation's data against its traces.csv and the dump.
	sum_traces=0 sum_bushes=0 sum_aborts=0 sum_same=0 sum_differs=0 sum_chunks=0 files_chunks=0 sum_linked=0
	for g in $(seq 1 "$gens"); do
		node "$(dirname "$0")/report-data.mjs" "$out" "$g" "$d" > "$TMP/data" 2> "$TMP/err"
		check "$dump: gen $g: the data reads back" "0" "$?"
		v() { sed -n "s/^$1 //p" "$TMP/data"; }
		rows=$(($(wc -l < "$out/gen-$g-traces.csv") - 1))
		check "$dump: gen $g: traces in the data = rows of traces.csv" "$rows" "$(v traces)"
		check "$dump: gen $g: every trace placed in a bush's layout" "$rows" "$(v blocks)"
		sum_traces=$((sum_traces + $(v traces))) sum_bushes=$((sum_bushes + $(v bushes)))
		sum_aborts=$((sum_aborts + $(v aborts))) sum_same=$((sum_same + $(v text-same)))
		sum_differs=$((sum_differs + $(v text-differs))) sum_chunks=$((sum_chunks + $(v chunks)))
		sum_linked=$((sum_linked + $(v site-linked)))
		files_chunks=$((files_chunks + $(ls "$out" | grep -c "^gen-$g-text-[0-9]*\.js$")))
	done
	check "$dump: bushes in the data" "$bushes" "$sum_bushes"
	check "$dump: aborts in the data = abort lines" "$(grep -c '^---- TRACE [0-9]* abort' "$d")" "$sum_aborts"
	# Every trace, and the first attempt at each site (abort LOC and
	# reason): small dumps keep all their text.
	nsites=$(grep '^---- TRACE [0-9]* abort ' "$d" | sed 's/^---- TRACE [0-9]* abort //' | sort -u | wc -l)
	check "$dump: later attempts at a site link to the first's text" \
		"$(($(grep -c '^---- TRACE [0-9]* abort' "$d") - nsites))" "$sum_linked"
	ran "$dump: kept texts equal the dump's lines" "$sum_same" \
		"$(($(grep -c '^---- TRACE [0-9]* stop' "$d") + nsites))"
	check "$dump: no kept text differs" 0 "$sum_differs"
	check "$dump: chunk files = chunks the data names" "$sum_chunks" "$files_chunks"
	data "$out/index.html" > "$TMP/$dump.json"
	check "$dump: generations in the data" "$gens" "$(jq '.gens | length' "$TMP/$dump.json")"
	check "$dump: aborts in the data = abort lines" "$(grep -c '^---- TRACE [0-9]* abort' "$d")" \
		"$(jq '[.sites[][2]] | add // 0' "$TMP/$dump.json")"
	check "$dump: aborts card = abort lines" "$(grep -c '^---- TRACE [0-9]* abort' "$d")" \
		"$(jq '.cards[] | select(.[0] == "aborted attempts") | .[1]' "$TMP/$dump.json")"
	check "$dump: exits card = exit lines" "$(grep -c '^---- TRACE [0-9]* exit' "$d")" \
		"$(jq '.cards[] | select(.[0] == "exits taken") | .[1]' "$TMP/$dump.json")"
	# A site's last attempt is an abort line of the dump, in the generation named.
	bad=0 n=0
	for row in $(jq -r '.sites[][3][] | "\(.[5]):\(.[6])"' "$TMP/$dump.json"); do
		n=$((n + 1))
		line=${row%:*} gen=${row#*:}
		sed -n "${line}p" "$d" | grep -q '^---- TRACE [0-9]* abort' || bad=$((bad + 1))
		grep -q "^\[$line," "$out/gen-$gen-bushes.js" || bad=$((bad + 1))
	done
	ran "$dump: sites' last attempts are abort lines of their generation's data" "$n" \
		"$(jq '[.sites[][3][]] | length' "$TMP/$dump.json")"
	check "$dump: ... all of them" 0 "$bad"
done

# Same input, same bytes, with one worker or two.
$DA -q -j 1 --views html,traces --dump "$SAMPLES/penlight-x.dump" --out-dir "$TMP/again" > /dev/null 2>&1
$DA -q -j 2 --views html,traces --dump "$SAMPLES/penlight-x.dump" --out-dir "$TMP/again2" > /dev/null 2>&1
check "the report is deterministic" "" "$(diff -r "$TMP/penlight-x" "$TMP/again"; diff -r "$TMP/again" "$TMP/again2")"
$DA -q --views html --dump "$SAMPLES/penlight-x.dump" --out-dir "$TMP/alone" > /dev/null 2>&1
check "--views html: index, trace rows, page, data, 2 text chunks, the pages' script and style, the manifest" \
	"gen-1-bushes.html gen-1-bushes.js gen-1-text-0.js gen-1-text-1.js index-traces.js index.html manifest.json report-bushes.js report.css source-index.html source-links.js source.txt" \
	"$(ls "$TMP/alone" | tr '\n' ' ' | sed 's/ $//')"
check "--views html: the pages' script and style are the project's files, byte for byte" "" \
	"$(cmp "$TMP/alone/report-bushes.js" "$TOP/src/views/html/bushes.js"; cmp "$TMP/alone/report.css" "$TOP/src/views/html/report.css")"
check "--views html: the generation page loads them, inlines neither" "1 1 0 0" \
	"$(grep -c '<script src="report-bushes.js"></script>' "$TMP/alone/gen-1-bushes.html") $(grep -c '<link rel="stylesheet" href="report.css">' "$TMP/alone/gen-1-bushes.html") $(grep -c '<style>' "$TMP/alone/gen-1-bushes.html") $(grep -c '<script>' "$TMP/alone/gen-1-bushes.html")"
check "--views html: penlight's files are not found, so no source-K.html and no site links" \
	"0 0" "$(ls "$TMP/alone" | grep -c '^source-[0-9]')$(printf ' ')$(data "$TMP/alone/index.html" | jq '[.sites[] | select(.[4] != null)] | length')"

# The report links its source lines to the source view's pages (html
# brings the source view): on annotated.lua, read under --source-root.
(cd "$SAMPLES" && $DA -q --views html --dump annotated.dump --source-root lua --out-dir "$TMP/src") \
	> /dev/null 2> "$TMP/err"
check "annotated: exit status" 0 $?
check "annotated: the source pages are there" "source-1.html source-index.html source-links.js" \
	"$(ls "$TMP/src" | grep '^source-' | tr '\n' ' ' | sed 's/ $//')"
check "annotated: index.html links the source files" 1 "$(grep -c 'href="source-index.html"' "$TMP/src/index.html")"
data "$TMP/src/index.html" > "$TMP/src.json"
page=$(sed -n 's/.*href="\(source-[0-9]*\.html\)">annotated\.lua<.*/\1/p' "$TMP/src/source-index.html")
check "annotated: annotated.lua has a page" "source-1.html" "$page"
# Every site row's link: that file's page, at that line, whose text is
# the file's line.
jq -r '.sites[] | [.[0], .[1], .[4]] | @tsv' "$TMP/src.json" > "$TMP/src.sites"
n=0 bad=0
while IFS="$(printf '\t')" read -r file line link; do
	n=$((n + 1))
	[ "$file" = annotated.lua ] && [ "$link" = "$page#L$line" ] || { bad=$((bad + 1)); continue; }
	text=$(sed -n "s/.*<tr id=\"L$line\"[^>]*>.*<td class=\"c\">\(.*\)<\/td><\/tr>/\1/p" "$TMP/src/$page")
	[ "$text" = "$(sed -n "${line}p" "$SAMPLES/lua/annotated.lua")" ] || bad=$((bad + 1))
done < "$TMP/src.sites"
ran "annotated: site rows (one per abort FILE:LINE in the dump)" "$n" "$(grep '^---- TRACE [0-9]* abort ' "$SAMPLES/annotated.dump" | sed 's/^---- TRACE [0-9]* abort \([^ ]*\).*/\1/' | sort -u | wc -l)"
check "annotated: each site links its file's page at its line, with that line's text" 0 "$bad"
# Blacklisting rows: "where" (a root start) and the parent's start.
check "annotated: blacklisting rows link their source lines" \
	"$(jq -c '[.blacklist[] | [(.[1] | if test(":") then "source-1.html#L" + (split(":")[1]) else null end), ("source-1.html#L" + (.[5] | split(":")[1]))]]' "$TMP/src.json")" \
	"$(jq -c '[.blacklist[] | [.[6], .[7]]]' "$TMP/src.json")"
# The generation pages' map: every start and abort FILE:LINE of the
# dump (all in annotated.lua, which has a page) to that line.
want=$(grep -E '^---- TRACE [0-9]+ (start|abort) ' "$SAMPLES/annotated.dump" |
	sed -E 's/^---- TRACE [0-9]+ (start|abort) ([0-9]+\/[0-9a-z]+ )?([^ ]*).*/\3/' | sort -u |
	sed 's/^\(.*\):\([0-9]*\)$/"\1:\2":"source-1.html#L\2"/')
ran "annotated: locations in the dump" "$(printf '%s\n' "$want" | grep -c .)"
check "annotated: source-links.js maps each to its source line" "$want" \
	"$(sed -n 's/,$//; s/};$//; /^"/p' "$TMP/src/source-links.js" | sort)"
node --check "$TMP/src/source-links.js" 2> "$TMP/err"
check "annotated: source-links.js is valid JavaScript" "0" "$?"
ran "annotated: largest bushes" "$(jq '.bushes | length' "$TMP/src.json")"
check "annotated: each bush's root start links its source line" \
	"$(jq -c '[.bushes[] | "source-1.html#L" + (.[4] | split(":")[1])]' "$TMP/src.json")" \
	"$(jq -c '[.bushes[] | .[5]]' "$TMP/src.json")"
# The profile's lines (where JIT failures cost time): costly.lua's rows
# link its page; penlight's files are not found, their rows do not.
(cd "$SAMPLES" && $DA -q --views html,profile --dump costly.dump --profile costly-Gvl.prof \
	--source-root lua --out-dir "$TMP/srcprof") > /dev/null 2> "$TMP/err"
check "costly with a profile: exit status" 0 $?
data "$TMP/srcprof/index.html" > "$TMP/srcprof.json"
cpage=$(sed -n 's/.*href="\(source-[0-9]*\.html\)">costly\.lua<.*/\1/p' "$TMP/srcprof/source-index.html")
check "costly: costly.lua has a page" "source-1.html" "$cpage"
ran "costly: profiled lines of costly.lua" \
	"$(jq '[.profile.rows[] | select(.[0] == "costly.lua")] | length' "$TMP/srcprof.json")"
check "costly: a profiled line links its source line exactly when it is costly.lua's" 0 \
	"$(jq --arg p "$cpage" '[.profile.rows[] | select(.[12] != (if .[0] == "costly.lua" then "\($p)#L\(.[1])" else null end))] | length' "$TMP/srcprof.json")"
ran "annotated: blacklisting rows" "$(jq '.blacklist | length' "$TMP/src.json")"

# The first screen: the library's findings (findings.csv) under the
# profile's shares by VM state, each start linked to its source page with
# its extent marked there, each failed attempt to its panel; on the shop
# service (samples/lua/shop) with its -jp=Gvl profile.
(cd "$SAMPLES" && $DA -q --views html,findings,summary,abort-sites,blacklist,exits --dump shop.dump \
	--profile shop-Gvl.prof --source-root lua/shop --out-dir "$TMP/shop") > /dev/null 2> "$TMP/err"
check "shop: exit status, no message" "0 " "$? $(cat "$TMP/err")"
node "$(dirname "$0")/report-findings.mjs" "$TMP/shop" "$SAMPLES/shop.dump" "$SAMPLES/lua/shop" \
	> "$TMP/shop.facts" 2> "$TMP/err"
check "shop: the report's findings read back" "0 " "$? $(cat "$TMP/err")"
fact() { sed -n "s/^$1 //p" "$TMP/shop.facts"; }
check "shop: a finding in the report per row of findings.csv (22)" "22 22" "$(fact rows) $(fact csv-rows)"
check "shop: in rank order" 1 "$(fact ranks-in-order)"
ran "shop: fields compared with findings.csv's (34 of each row)" "$(fact compared)" $((22 * 34))
check "shop: ... all equal" "0" "$(fact differ)$(fact first-difference)"
check "shop: findings with an extent (2 of them in tpl-item, a chunk that is no file)" "22 20" \
	"$(fact csv-extents) $(fact csv-extents-paged)"
ran "shop: starts linked to their source line (those with an extent in a file)" "$(fact href-checked)" "$(fact csv-extents-paged)"
check "shop: ... each at its page and line, its extent marked with its rank, named under its first line" \
	"0 0" "$(fact href-bad) $(fact href-missing)$(fact href-why)"
ran "shop: failed attempts linked (findings with a dump line)" "$(fact attempt-checked)" "$(fact csv-dump-lines)"
check "shop: ... each an abort line of its generation's data, whose last bytecode is BYTECODE" 0 "$(fact attempt-bad)"
# The shares: the profile's stacks summed under each VM state's header.
states=$(awk '/^(Interpreted|Compiled|C code|Garbage Collector|JIT Compiler) [0-9]+$/ { s = $1; next }
	{ t[s] += $NF; all += $NF }
	END { print all, t["Interpreted"] + 0, t["Compiled"] + 0, t["C"] + 0, t["Garbage"] + 0, t["JIT"] + 0 }' \
	"$SAMPLES/shop-Gvl.prof")
check "shop: the shares = the profile's stacks by VM state" "$states" "$(fact shares | cut -d' ' -f1-6)"
check "shop: charged = the SAMPLES of findings.csv summed" \
	"$(awk -F, 'NR > 1 { s += $12 } END { print s }' "$TMP/shop/findings.csv")" "$(fact shares | cut -d' ' -f7)"
check "shop: the first screen lists the findings summary.txt fixes first" \
	"$(sed -n '/^fix these first/,/^$/p' "$TMP/shop/summary.txt" | sed -n 's/^  \([0-9][0-9]*\) .*/\1/p' | tr '\n' ' ' | sed 's/ $//')" \
	"$(fact top)"
data "$TMP/shop/index.html" > "$TMP/shop.json"
# Reasons: the normal form shown, as written on hover.
check "shop: each reason as written with its normal form = abort-sites.csv's" \
	"$(awk -F, 'NR > 1 { print $3 "|" $9 }' "$TMP/shop/gen-1-abort-sites.csv" | sort -u)" \
	"$(jq -r '.written[] | "\(.[0])|\(.[1])"' "$TMP/shop.json" | sort)"
check "shop: ... and the generation page's map where they differ" \
	"$(awk -F, 'NR > 1 && $3 != $9 { print $3 "|" $9 }' "$TMP/shop/gen-1-abort-sites.csv" | sort -u)" \
	"$(node -e 'const vm = require("vm"), c = {}; vm.runInNewContext(require("fs").readFileSync(process.argv[1], "utf8") + ";this.D = DA_GEN", c);
		for (const n of c.D.normal) console.log(n[0] + "|" + n[1]);' "$TMP/shop/gen-1-bushes.js" | sort)"
# Likely blacklisting: the main reason and its attempts, as blacklist.csv.
check "shop: blacklisting rows' main reason and attempts = blacklist.csv's" \
	"$(awk -F, 'NR > 1 { sub(/\r$/, ""); print $5 "|" $8 "|" $9 }' "$TMP/shop/gen-1-blacklist.csv" | sort)" \
	"$(jq -r '.blacklist[] | "\(.[2])|\(.[8])|\(.[9])"' "$TMP/shop.json" | sort)"
# Exits by what they cost: without a side trace, then those with one.
check "shop: exits without a side trace = exits.csv's rows without one, most taken first" \
	"$(awk -F, 'NR > 1 { sub(/\r$/, "") } NR > 1 && $4 == "" { print $3 }' "$TMP/shop/gen-1-exits.csv" | sort -rn | head -50 | tr '\n' ' ')" \
	"$(jq -r '.cold[] | .[3]' "$TMP/shop.json" | tr '\n' ' ')"
check "shop: ... none with a side trace; their number" \
	"0 $(awk -F, 'NR > 1 { sub(/\r$/, "") } NR > 1 && $4 == ""' "$TMP/shop/gen-1-exits.csv" | grep -c .)" \
	"$(jq '[.cold[] | select(.[4] != null)] | length' "$TMP/shop.json") $(jq .ncold "$TMP/shop.json")"
# The flame graph: html brings the flamegraph view for a profile of stacks.
check "shop: the report shows the flame graph it drew" '[["flamegraph.svg","shop-Gvl.prof"]] 1' \
	"$(jq -c .flamegraphs "$TMP/shop.json") $(ls "$TMP/shop" | grep -c '^flamegraph\.svg$')"
(cd "$SAMPLES" && $DA -q --views html --dump costly.dump --profile costly-Gvl.prof --out-dir "$TMP/fg") \
	> /dev/null 2> "$TMP/err"
check "--views html with a profile of stacks: the flame graph is drawn and shown" \
	'0 [["flamegraph.svg","costly-Gvl.prof"]]' "$? $(data "$TMP/fg/index.html" | jq -c .flamegraphs)"
(cd "$SAMPLES" && $DA -q --views html --dump costly.dump --profile costly-lvr.prof --out-dir "$TMP/nofg") \
	> /dev/null 2> "$TMP/err"
check "--views html with a profile without stacks: none, and no complaint" '0 [] 0' \
	"$? $(data "$TMP/nofg/index.html" | jq -c .flamegraphs) $(ls "$TMP/nofg" | grep -c flamegraph)"
# Without a profile: no shares, the findings as findings.csv ranks them
# (by score); penlight's files are not found, so no source links.
$DA -q --views html,findings --dump "$SAMPLES/penlight-x.dump" --out-dir "$TMP/penf" > /dev/null 2>&1
node "$(dirname "$0")/report-findings.mjs" "$TMP/penf" "$SAMPLES/penlight-x.dump" "$SAMPLES" > "$TMP/shop.facts"
check "penlight without a profile: no shares" null "$(data "$TMP/penf/index.html" | jq -c .shares)"
ran "penlight: findings in the report" "$(fact rows)" "$(fact csv-rows)"
check "penlight: ... all fields equal findings.csv's, no source link, attempts linked" "0 0 0 0 $(fact csv-dump-lines)" \
	"$(fact differ) $(fact href-checked) $(fact href-bad) $(fact attempt-bad) $(fact attempt-checked)"

# The text budget: a run keeps text in dump order until its chunks
# reach 24 MB; onegen-100 (bench/data, not in git) would need more.
# Here: a generation of thousands of bushes (templates.dump) keeps all.
xz -dc "$SAMPLES/templates.dump.xz" > "$TMP/templates.dump"
$DA -q --views html,traces --dump "$TMP/templates.dump" --out-dir "$TMP/templates" > /dev/null 2>&1
check "templates: exit status" 0 $?
node "$(dirname "$0")/report-data.mjs" "$TMP/templates" 1 "$TMP/templates.dump" > "$TMP/data"
check "templates: 7803 bushes, 15705 traces, 693 attempts, all text the dump's" \
	"traces 15705 bushes 7803 aborts 693 text-differs 0 not-kept 0" \
	"$(grep '^\(traces\|bushes\|aborts\|text-differs\|not-kept\) ' "$TMP/data" | tr '\n' ' ' | sed 's/ $//')"
check "templates: the report is well under 50 MB" 1 "$(($(du -sb "$TMP/templates" | cut -f1) < 8000000))"

# Escaping: names from the dump are markup in hostile.dump.
$DA -q --views html --dump "$SAMPLES/hostile.dump" --out-dir "$TMP/hostile" > /dev/null 2>&1
check "hostile: exit status" 0 $?
check "hostile: no raw markup from the dump in any page or script" "" \
	"$(cat "$TMP"/hostile/*.html "$TMP"/hostile/*.js | grep -o '<script>document\|<img src=x\|<svg onload\|</script><b>')"
check "hostile: the name escaped for JSON in the generation's data" 1 \
	"$(grep -c '"\\u003cscript\\u003edocument.title='"'"'pwned'"'"'\\u003c/script\\u003e:2"' "$TMP/hostile/gen-1-bushes.js")"
check "hostile: the name escaped for JSON" 1 \
	"$(grep -c '"\\u003cscript\\u003edocument.title='"'"'pwned'"'"'\\u003c/script\\u003e",2,' "$TMP/hostile/index-traces.js")"
data "$TMP/hostile/index.html" > "$TMP/hostile.json"
ran "hostile: abort sites" "$(jq '.sites | length' "$TMP/hostile.json")"
check "hostile: chunk names are no files: no source link in any site or blacklisting row" "0" \
	"$(jq '[(.sites[] | .[4]), (.blacklist[] | .[6], .[7])] | map(select(. != null)) | length' "$TMP/hostile.json")"
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
check "failed run: ... with its data" "gen-1-bushes.js" "$(ls "$TMP/bad" | grep 'gen-.*bushes.js')"
# Its page loads only files that are there (no missing-script error).
n=0 missing=0
for f in $(sed -n 's/.*\(src\|rel="stylesheet" href\)="\([^"]*\)".*/\2/p' "$TMP/bad/gen-1-bushes.html"); do
	n=$((n + 1))
	[ -f "$TMP/bad/$f" ] || { missing=$((missing + 1)); echo "       missing: $f"; }
done
ran "failed run: files the page loads (style, links, data, script)" "$n" 4
check "failed run: ... all there" 0 "$missing"
check "failed run: ... the links map empty: no source pages" "var DA_SOURCE = {};" "$(grep '^var' "$TMP/bad/source-links.js")"
check "failed run: no index, no trace rows, no temporary files" "" "$(ls -A "$TMP/bad" | grep 'index\|tmp')"

finish
