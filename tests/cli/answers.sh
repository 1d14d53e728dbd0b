#!/bin/sh
# answers.sh DUMPANALYZE — summary, exits, abort sites, blacklisting and
# JSON lines, checked against counts taken from the dump text.
SUITE=answers
. "$(dirname "$0")/setup.sh"

# The JSON inside index.html, for jq.
data() { sed -n '/<script type="application\/json" id="da-data">/,/<\/script>/p' "$1" | sed '1d;$d'; }

# (bushes: counted from the dump's text, as in pictures.sh, and reviewed)
for case in penlight-x:26 flush:19 luajit2:26 blacklist:6 chunknames:7; do
	dump=${case%:*} bushes=${case#*:}
	d=$SAMPLES/$dump.dump
	out=$TMP/$dump
	$DA -q --views traces,abort-sites,exits,jsonl,bush-txt --dump "$d" --out-dir "$out" > "$TMP/$dump.stdout"
	check "$dump: exit status" 0 $?
	check "$dump: exit counts = exit lines" "$(grep -c '^---- TRACE [0-9]* exit' "$d")" \
		"$(cat "$out"/gen-*-exits.csv | grep -v '^TRACE,' | awk -F, '{s += $3} END {print s + 0}')"
	# (chunk names with newlines make multi-line CSV fields: counted via jsonl)
	[ "$dump" = chunknames ] ||
	check "$dump: abort-site counts = abort lines" "$(grep -c '^---- TRACE [0-9]* abort' "$d")" \
		"$(cat "$out"/gen-*-abort-sites.csv | grep -v '^FILE,' | tr -d '\r' | awk -F, '{s += $(NF - 5)} END {print s + 0}')"
	# JSON lines: valid for jq, one object per record.
	cat "$out"/gen-*.jsonl > "$TMP/$dump.jsonl"
	jq -e . "$TMP/$dump.jsonl" > /dev/null 2>&1
	check "$dump: jsonl parses with jq" 0 $?
	check "$dump: jsonl traces = stop lines" "$(grep -c '^---- TRACE [0-9]* stop' "$d")" \
		"$(jq -r 'select(.type == "trace") | .id' "$TMP/$dump.jsonl" | wc -l)"
	check "$dump: jsonl aborts = abort lines" "$(grep -c '^---- TRACE [0-9]* abort' "$d")" \
		"$(jq -r 'select(.type == "abort") | .reason' "$TMP/$dump.jsonl" | wc -l)"
	check "$dump: jsonl exit counts = exit lines" "$(grep -c '^---- TRACE [0-9]* exit' "$d")" \
		"$(jq -s '[.[] | select(.type == "exit") | .count] | add // 0' "$TMP/$dump.jsonl")"
	check "$dump: jsonl bushes = bush files = $bushes" "$bushes $bushes" \
		"$(ls "$out" | grep -c 'bush-.*\.txt$') $(jq -r 'select(.type == "bush") | .root' "$TMP/$dump.jsonl" | wc -l)"
	check "$dump: jsonl NUM_IR = traces.csv" \
		"$(cat "$out"/gen-*-traces.csv | grep -v '^ID,' | awk -F, '{s += $5} END {print s + 0}')" \
		"$(jq -s '[.[] | select(.type == "trace") | .num_ir] | add // 0' "$TMP/$dump.jsonl")"
done

# A side trace's exit: its SIDE_TRACE is the trace that started there.
row=$(grep -m1 ',[0-9][0-9]*.$' "$TMP/penlight-x/gen-1-exits.csv" | tr -d '\r')
tr=$(echo "$row" | cut -d, -f1) ex=$(echo "$row" | cut -d, -f2) side=$(echo "$row" | cut -d, -f4)
check "exits: side trace $side is the last trace started at $tr/$ex" "$side" \
	"$(grep "^---- TRACE [0-9]* start $tr/$ex " "$SAMPLES/penlight-x.dump" | tail -n 1 | awk '{print $3}')"

# Invalid UTF-8 in a chunk name: still JSON, the bytes as U+FFFD.
check "jsonl: invalid UTF-8 becomes U+FFFD" '"bytes �� nul:2"' \
	"$(jq -c 'select(.type == "trace" and (.loc | startswith("bytes"))) | .loc' "$TMP/chunknames.jsonl")"

# Blacklisting: the loop aborted 11 times and never started again.
d=$SAMPLES/blacklist.dump
$DA -q --views blacklist --dump "$d" --out-dir "$TMP/bl" > /dev/null
n=$(grep -c '^---- TRACE [0-9]* start blacklist.lua:10$' "$d")
last_start=$(grep -n '^---- TRACE [0-9]* start blacklist.lua:10$' "$d" | tail -n 1 | cut -d: -f1)
# the main reason: of the attempts started there, how many aborted with
# the reason most of them did (FNEW: 51 in 2.1's numbering)
m=$(awk '/^---- TRACE [0-9]* start / { at = $5 } /^---- TRACE [0-9]* abort / { if (at == "blacklist.lua:10") print }' "$d" |
	sed 's/.* -- //' | sort | uniq -c | sort -rn | head -n 1 | awk '{ print $1 }')
check "blacklist: most attempts there aborted with bytecode 51 (FNEW)" "$m" \
	"$(awk '/^---- TRACE [0-9]* start / { at = $5 } /^---- TRACE [0-9]* abort .* -- NYI: bytecode 51$/ { if (at == "blacklist.lua:10") n++ } END { print n }' "$d")"
check "blacklist: attempts = starts in the dump, the main reason and its count" \
	"blacklist.lua,10,,,$n,NYI: bytecode 51,no,NYI: bytecode FNEW,$m" \
	"$(grep '^blacklist.lua,10,' "$TMP/bl/gen-1-blacklist.csv" | tr -d '\r')"
check "blacklist: no trace starts there after the last abort" 0 \
	"$(tail -n +"$((last_start + 1))" "$d" | grep -c '^---- TRACE [0-9]* start blacklist.lua:10$')"
# Side exits given up: 4 aborted attempts, then an interpreter stub.
$DA -q --views blacklist --dump "$SAMPLES/penlight-x.dump" --out-dir "$TMP/pbl" > /dev/null
stub=$(grep ',4,.*,stub' "$TMP/pbl/gen-1-blacklist.csv" | head -n 1 | tr -d '\r')
p=$(echo "$stub" | cut -d, -f3) e=$(echo "$stub" | cut -d, -f4)
check "blacklist: exit $p/$e given up after 4 attempts" 4 \
	"$(grep -c "^---- TRACE [0-9]* start $p/$e " "$SAMPLES/penlight-x.dump" | awk '{print $1 - 1}')"
check "blacklist: its last side trace is an interpreter stub" "stop -> interpreter" \
	"$(awk -v pe="$p/$e" '$4 == "start" && $5 == pe { id = $3 } id && $3 == id && $4 == "stop" { s = $4 " " $5 " " $6 } END { print s }' "$SAMPLES/penlight-x.dump")"
# START_FILE, START_LINE of an exit's or stitch's row: where its side
# traces start, as their start headers write it ("start P/E FILE:LINE").
want=$(tr -d '\r' < "$TMP/pbl/gen-1-blacklist.csv" | awk -F, 'NR > 1 && $4 != "" { print $3 "/" $4 }' |
	while read -r pe; do
		grep -m 1 "^---- TRACE [0-9]* start $pe " "$SAMPLES/penlight-x.dump" |
			awk -v pe="$pe" '{ n = split($6, l, ":"); split(pe, x, "/"); print substr($6, 1, length($6) - length(l[n]) - 1) "," l[n] "," x[1] "," x[2] }'
	done)
check "blacklist: exits' and stitches' rows start where their side traces start" "$want" \
	"$(tr -d '\r' < "$TMP/pbl/gen-1-blacklist.csv" | awk -F, 'NR > 1 && $4 != "" { print $1 "," $2 "," $3 "," $4 }')"
ran "blacklist: exits' and stitches' rows" "$(echo "$want" | grep -c ',')" 6

# The summary: in the directory, and on stdout unless --quiet.
$DA --dump "$SAMPLES/flush.dump" --out-dir "$TMP/sum" > "$TMP/sum.stdout" 2> /dev/null
check "summary on stdout = summary.txt" "" "$(cmp "$TMP/sum.stdout" "$TMP/sum/summary.txt" 2>&1)"
check "summary: generations" "whole dump: 4 generations" "$(grep '^whole dump' "$TMP/sum/summary.txt")"
$DA -q --dump "$SAMPLES/flush.dump" --out-dir "$TMP/sum2" > "$TMP/sum2.stdout" 2> /dev/null
check "summary: --quiet prints nothing" 0 "$(wc -c < "$TMP/sum2.stdout")"
# One meaning of side and orphan traces in every output, on every sample:
# root + side + stitched + orphan = traces and root + stitched + orphan =
# bushes in summary.txt (the whole dump and each generation), the closing
# lines on stderr and the report's data; jsonl's records counted by kind
# say the same; and so does the dump's own text, where a side trace is an
# orphan when no trace of its parent's number stopped in its generation.
adds() {    # "T R S X O": 1 when T = R + S + X + O
	echo "$1" | awk '{ print ($1 == $2 + $3 + $4 + $5) }'
}
nsamples=0 ngens=0 norphans=0
for path in "$SAMPLES"/*.dump "$SAMPLES"/*.dump.xz; do
	name=$(basename "$path")
	out=$TMP/kinds-$name
	$DA --views summary,jsonl,html --dump "$path" --out-dir "$out" > /dev/null 2> "$TMP/kinds.err"
	check "$name: exit status" 0 $?
	whole=$(sed -n 's/^  traces compiled *\([0-9]*\)  (root \([0-9]*\), side \([0-9]*\), stitched \([0-9]*\), orphan \([0-9]*\))$/\1 \2 \3 \4 \5/p' "$out/summary.txt")
	check "$name: summary.txt: traces = root + side + stitched + orphan ($whole)" 1 "$(adds "$whole")"
	closing=$(sed -n 's/^  traces *\([0-9]*\)  (root \([0-9]*\), side \([0-9]*\), stitched \([0-9]*\), orphan \([0-9]*\))$/\1 \2 \3 \4 \5/p' "$TMP/kinds.err")
	check "$name: the closing lines' traces = summary.txt's" "$whole" "$closing"
	set -- $whole
	check "$name: the closing lines' bushes = root + stitched + orphan" "$(($2 + $4 + $5))" \
		"$(sed -n 's/^  bushes *\([0-9]*\)$/\1/p' "$TMP/kinds.err")"
	norphans=$((norphans + $5))
	# each generation's line (summary.txt lists the first 10)
	sed -n 's/^  gen \([0-9]*\) *traces *\([0-9]*\) (root \([0-9]*\), side \([0-9]*\), stitched \([0-9]*\), orphan \([0-9]*\)).*bushes *\([0-9]*\) .*/\1 \2 \3 \4 \5 \6 \7/p' \
		"$out/summary.txt" > "$TMP/kinds.gens"
	bad=$(awk '$2 != $3 + $4 + $5 + $6 || $7 != $3 + $5 + $6' "$TMP/kinds.gens")
	check "$name: every per-generation line adds up" "" "$bad"
	ngens=$((ngens + $(wc -l < "$TMP/kinds.gens")))
	# the report's data: [gen, traces, root, side, stitched, orphan, aborts, exits, bushes, ...]
	data "$out/index.html" | jq -r '.gens[] | "\(.[0]) \(.[1]) \(.[2]) \(.[3]) \(.[4]) \(.[5]) \(.[8])"' \
		| head -n 10 > "$TMP/kinds.html"
	check_file "$name: the report's generations = summary.txt's" "$TMP/kinds.gens" "$TMP/kinds.html"
	check "$name: the report's side and orphan cards" "$3 $5" "$(data "$out/index.html" |
		jq -r '[.cards[] | select(.[0] == "side traces" or .[0] == "orphan traces") | .[1]] | join(" ")')"
	# jsonl's traces by kind, per generation
	cat "$out"/gen-*.jsonl | jq -r 'select(.type == "trace") |
		"\(.gen) \(if .parent_exit == null then "root" elif .parent_exit == "stitch" then "stitched"
		        elif .orphan then "orphan" else "side" end)"' |
		awk '{ n[$1, $2]++; if ($1 > g) g = $1 }
		     END { for (i = 1; i <= g && i <= 10; i++) printf "%d %d %d %d %d %d\n", i,
		           n[i, "root"] + n[i, "side"] + n[i, "stitched"] + n[i, "orphan"],
		           n[i, "root"], n[i, "side"], n[i, "stitched"], n[i, "orphan"] }' > "$TMP/kinds.jsonl"
	cut -d' ' -f1-6 "$TMP/kinds.gens" | awk '$2 > 0' > "$TMP/kinds.want"
	awk '$2 > 0' "$TMP/kinds.jsonl" > "$TMP/kinds.got"
	check_file "$name: jsonl's traces by kind = summary.txt's" "$TMP/kinds.want" "$TMP/kinds.got"
	# the dump's text (not a -jv log): kinds of the traces that stopped
	case $name in *.xz) cat=xzcat ;; *) cat=cat ;; esac
	$cat "$path" | tr -d '\r' | sed 's/\x1b\[[0-9;]*m//g' |
		{ if [ "$name" = html.dump ]; then sed 's/<[^>]*>//g'; else cat; fi; } | awk '
		$1 == "----" && $2 == "TRACE" && $3 == "flush" { delete held; next }
		$1 != "----" || $2 != "TRACE" || $3 !~ /^[0-9]+$/ { next }
		$4 == "start" {
			kind[$3] = $5 ~ /^[0-9]+\/[0-9]+$/ ? "side" : $5 ~ /^[0-9]+\/stitch$/ ? "stitched" : "root"
			split($5, pe, "/"); parent[$3] = pe[1]
		}
		$4 == "abort" { delete kind[$3] }
		$4 == "stop" {
			k = $3 in kind ? kind[$3] : "root"
			if (k == "side" && !(parent[$3] in held)) k = "orphan"
			n[k]++; held[$3] = 1; delete kind[$3]; any = 1
		}
		END { if (any) print n["root"] + n["side"] + n["stitched"] + n["orphan"] + 0, n["root"] + 0,
		                     n["side"] + 0, n["stitched"] + 0, n["orphan"] + 0 }' > "$TMP/kinds.text"
	# jv.dump is a -jv log; secrets.dump's chunks only abort (no trace stops)
	[ -s "$TMP/kinds.text" ] || [ "$name" = jv.dump ] ||
		{ [ "$name" = secrets.dump ] && [ "$whole" = "0 0 0 0 0" ]; } ||
		not_ok "$name: no trace headers found in the text"
	[ -s "$TMP/kinds.text" ] && check "$name: the kinds = the dump text's" "$(cat "$TMP/kinds.text")" "$whole"
	nsamples=$((nsamples + 1))
done
ran "samples whose kinds were checked" "$nsamples" "$(ls "$SAMPLES"/*.dump "$SAMPLES"/*.dump.xz | wc -l)"
ran "per-generation lines that add up" "$ngens"
ran "orphan traces among them" "$norphans"

finish
