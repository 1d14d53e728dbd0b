#!/bin/sh
# profile.sh DUMPANALYZE — --profile: real -jp profiles of the workload of
# samples/costly.dump (samples/generate.sh made both), joined numbers
# checked against the raw profile and dump text, the flame graph, coverage
# for luajit2 dumps, and every way a profile can be wrong.
SUITE=profile
. "$(dirname "$0")/setup.sh"

D=$SAMPLES/costly.dump
# field N of the profile-lines.csv row of FILE:LINE (no quoting in these rows)
row() { grep "^$2,$3," "$1/profile-lines.csv" | tr -d '\r' | cut -d, -f"$4"; }

$DA --dump "$D" --profile "$SAMPLES/costly-lvr.prof" --out-dir "$TMP/lvr" > "$TMP/lvr.out" 2> "$TMP/err"
check "lvr: exit status" 0 $?
check "lvr: the default views and profile-lines.csv, no flame graph without stacks" \
	"gen-1-traces.csv profile-lines.csv summary.txt" \
	"$(ls "$TMP/lvr" | grep -E '^(profile-|flamegraph|summary|gen-1-traces)' | tr '\n' ' ' | sed 's/ $//')"
check "lvr: header" "FILE,LINE,SAMPLES,INTERPRETED,COMPILED,C,GC,JIT,ABORTS,TOP_ABORT_REASON,TRACES_STARTED,BLACKLISTED,FINGERPRINT" \
	"$(head -n 1 "$TMP/lvr/profile-lines.csv" | tr -d '\r')"
# The profile's own lines for costly.lua:30: "   44  costly.lua:30" then its states.
prof=$SAMPLES/costly-lvr.prof
want=$(awk '/^ *[0-9]+  costly.lua:30$/ { s = $1; on = 1; next } /^ *[0-9]/ { on = 0 }
	on && /Interpreted/ { i = $2 } on && /Garbage/ { g = $2 } END { print s, i, g }' "$prof")
check "lvr: costly.lua:30 samples, interpreted, GC = the profile's lines" "$want" \
	"$(row "$TMP/lvr" costly.lua 30 3) $(row "$TMP/lvr" costly.lua 30 4) $(row "$TMP/lvr" costly.lua 30 7)"
check "lvr: costly.lua:30 aborts = abort lines there" "$(grep -c '^---- TRACE [0-9]* abort costly.lua:30 ' "$D")" \
	"$(row "$TMP/lvr" costly.lua 30 9)"
check "lvr: costly.lua:30 top reason" "NYI: bytecode 51" "$(row "$TMP/lvr" costly.lua 30 10)"
check "lvr: costly.lua:29 traces started = start lines there" \
	"$(grep -c '^---- TRACE [0-9]* start \([0-9]*/[0-9]* \)\{0,1\}costly.lua:29$' "$D")" "$(row "$TMP/lvr" costly.lua 29 11)"
check "lvr: costly.lua:29, aborted 11 times, is blacklisted" "1" "$(row "$TMP/lvr" costly.lua 29 12)"
check "lvr: samples over all rows = the profile's total" \
	"$(awk '!/^  <-/ { t += $1 } END { print t }' "$prof")" \
	"$(tail -n +2 "$TMP/lvr/profile-lines.csv" | awk -F, '{ t += $3 } END { print t }')"
check "lvr: every profile line has its row" "$(grep -c '^ *[0-9][0-9]*  ' "$prof")" \
	"$(tail -n +2 "$TMP/lvr/profile-lines.csv" | awk -F, '$3 > 0' | wc -l)"
# Ranked: failed lines first, by interpreted samples.
tail -n +2 "$TMP/lvr/profile-lines.csv" | tr -d '\r' | awk -F, '
	{ failed = ($9 > 0 || $12 > 0) }
	NR > 1 && failed && !pf { bad = "a failed line after a clean one: " $0 }
	NR > 1 && failed == pf && $4 > pi { bad = "interpreted not descending: " $0 }
	{ pf = failed; pi = $4 }
	END { print bad }' > "$TMP/rank"
check "lvr: ranked by failure, then interpreted samples" "" "$(cat "$TMP/rank")"
first=$(sed -n 2p "$TMP/lvr/profile-lines.csv" | tr -d '\r')
check "lvr: the top row is tablex.lua:562 (blacklisted pairs() loop, most interpreted)" \
	"tablex.lua,562" "$(echo "$first" | cut -d, -f1,2)"
# The summary opens with where the time went: the profile's VM states,
# each the sum of its "  <-  N  State" lines.
for st in Interpreted Compiled; do
	n=$(awk -v st="$st" '/^  <- / && $3 == st { t += $2 } END { print t + 0 }' "$prof")
	word=$(echo "$st" | tr 'IC' 'ic')
	check "lvr: summary's $word samples = the profile's $st lines" \
		"$(awk -v n="$n" 'BEGIN { printf "%.1f%% %d", 100 * n / 282, n }')" \
		"$(grep "^  $word " "$TMP/lvr/summary.txt" | awk '{ print $2, $3 }')"
done
check "lvr: stdout shows it too" 1 "$(grep -c '^where the time went: .*costly-lvr.prof (282 samples)$' "$TMP/lvr.out")"
check "lvr: no thresholding note for an m0 profile" 0 "$(grep -c 'looks cut' "$TMP/lvr/summary.txt")"

# vlr gives the same rows as lvr would for the same run; for its own
# run: states per line from the "  --" lines.
$DA -q --views profile --dump "$D" --profile "$SAMPLES/costly-vlr.prof" --out-dir "$TMP/vlr" 2> "$TMP/err"
check "vlr: exit status" 0 $?
check "vlr: tablex.lua:575 interpreted = its line under Interpreted" \
	"$(awk '/^ *[0-9]+  Interpreted$/ { on = 1; next } /^ *[0-9]+  / { on = 0 } on && / tablex.lua:575$/ { print $2 }' "$SAMPLES/costly-vlr.prof")" \
	"$(row "$TMP/vlr" tablex.lua 575 4)"

# Full paths (-jp=...p): matched by base name.
$DA --views summary,profile --dump "$D" --profile "$SAMPLES/costly-lvrp.prof" --out-dir "$TMP/lvrp" > /dev/null 2> "$TMP/err"
check "lvrp: exit status" 0 $?
check "lvrp: rows carry the dump's names" 0 "$(grep -c '^/\|^lua/' "$TMP/lvrp/profile-lines.csv")"
check "lvrp: costly.lua:40 samples from lua/costly.lua:40" \
	"$(awk '/ lua\/costly.lua:40$/ { print $1 }' "$SAMPLES/costly-lvrp.prof")" "$(row "$TMP/lvrp" costly.lua 40 3)"
check "lvrp: summary says how many matched without directories" \
	"  $(grep -c '^ *[0-9]*  .*/' "$SAMPLES/costly-lvrp.prof") profile lines matched by file name without directories" \
	"$(grep 'without directories' "$TMP/lvrp/summary.txt")"

# Unmatched: this profile against a dump of other code.
$DA --views summary,profile --dump "$SAMPLES/penlight-x.dump" --profile "$SAMPLES/costly-lvr.prof" \
	--out-dir "$TMP/other" > /dev/null 2> "$TMP/err"
names=$(grep -o '^---- TRACE [0-9]* \(start\|abort\) \([0-9]*/[0-9]* \)\{0,1\}[^ :]*' "$SAMPLES/penlight-x.dump" | awk '{ print $NF }' | sort -u)
un=0 n=0
for f in $(grep '^ *[0-9][0-9]*  ' "$prof" | awk '{ print $2 }' | sed 's/:[0-9]*$//'); do
	n=$((n + 1))
	echo "$names" | grep -qx "$f" || un=$((un + 1))
done
ran "unmatched: every profile line looked up" "$n" "$(grep -c '^ *[0-9][0-9]*  ' "$prof")"
check "unmatched: profile lines in files the dump never names" \
	"  $un of $(grep -c '^ *[0-9][0-9]*  ' "$prof") profile lines are in files the dump never names" \
	"$(grep 'never names' "$TMP/other/summary.txt")"

# Thresholded and percentage profiles.
$DA --views summary,profile --dump "$D" --profile "$SAMPLES/costly-lvr-m3.prof" --out-dir "$TMP/m3" > /dev/null 2>&1
check "m3: the summary says it looks cut and how to record" 1 \
	"$(grep -c "looks cut at -jp's 3% threshold: record it with -jp=Gvli1" "$TMP/m3/summary.txt")"
$DA --views summary,profile --dump "$D" --profile "$SAMPLES/costly-lv.prof" --out-dir "$TMP/lv" > /dev/null 2>&1
check "lv: exit status" 0 $?
check "lv: samples as percentages (53% of all)" "53.00,53.00" \
	"$(row "$TMP/lv" costly.lua 40 3),$(row "$TMP/lv" costly.lua 40 5)"
check "lv: a share of a share (13% of samples, 40% of them interpreted)" "5.20" "$(row "$TMP/lv" costly.lua 30 4)"
check "lv: the summary says percentages" 1 "$(grep -c 'percentages, not counts' "$TMP/lv/summary.txt")"

# Folded stacks: the flame graph.
$DA --dump "$D" --profile "$SAMPLES/costly-Gvl.prof" --out-dir "$TMP/gvl" > /dev/null 2> "$TMP/err"
check "Gvl: exit status" 0 $?
check "Gvl: flame graph in SVG and PNG by default" "flamegraph.png flamegraph.svg" \
	"$(ls "$TMP/gvl" | grep flamegraph | tr '\n' ' ' | sed 's/ $//')"
xmllint --noout "$TMP/gvl/flamegraph.svg" 2> "$TMP/err"
check "Gvl: the SVG is well-formed XML" 0 $?
check "Gvl: the PNG is a PNG" "89504e470d0a1a0a" "$(head -c 8 "$TMP/gvl/flamegraph.png" | od -An -tx1 | tr -d ' \n')"
check "Gvl: samples per line from the leaf frames" \
	"$(grep ';' "$SAMPLES/costly-Gvl.prof" | awk '$1 ~ /;tablex.lua:575$/ { t += $2 } END { print t }')" \
	"$(row "$TMP/gvl" tablex.lua 575 3)"
$DA -q -j 1 --dump "$D" --profile "$SAMPLES/costly-Gvl.prof" --out-dir "$TMP/gvl2" 2> /dev/null
check "Gvl: the same bytes again, with one worker" "" \
	"$(cmp "$TMP/gvl/flamegraph.svg" "$TMP/gvl2/flamegraph.svg"; cmp "$TMP/gvl/flamegraph.png" "$TMP/gvl2/flamegraph.png")"
$DA -q --views flamegraph --dump "$D" --profile "$SAMPLES/costly-Gl.prof" --out-dir "$TMP/gl" 2> "$TMP/err"
check "Gl: a flame graph without VM states" "0 2" "$? $(ls "$TMP/gl" | grep -c flamegraph)"

# Errors.
$DA -q --dump "$D" --profile "$TMP/missing.prof" --out-dir "$TMP/e1" 2> "$TMP/err"
check "missing profile: exit 2" 2 $?
check "missing profile: message" "dumpanalyze: $TMP/missing.prof: No such file or directory" "$(cat "$TMP/err")"
$DA -q --dump "$D" --profile "$D" --out-dir "$TMP/e2" 2> "$TMP/err"
check "a dump as the profile: exit 3" 3 $?
check "a dump as the profile: file, line and what is read" 1 \
	"$(grep -c "^dumpanalyze: $D:1: not a line of a -jp profile dumpanalyze reads (-jp=lvr, vlr, lv, vl, Gl or Gvl): ---- TRACE" "$TMP/err")"
check "a bad profile: nothing written" "" "$(ls "$TMP/e2" 2>/dev/null)"
# A line past the cap (1 MiB) in a profile: the profile is not read.
{ head -n 3 "$SAMPLES/costly-lvr.prof"; head -c 2000000 /dev/zero | tr '\0' x; echo; tail -n +4 "$SAMPLES/costly-lvr.prof"; } > "$TMP/long.prof"
$DA -q --dump "$D" --profile "$TMP/long.prof" --out-dir "$TMP/e4" 2> "$TMP/err"
check "a profile with a 2 MB line: exit 3, its line named" "3 dumpanalyze: $TMP/long.prof:4: line longer than 1048576 bytes" \
	"$? $(cat "$TMP/err")"
printf '   40  tablex.keys\n   12  string.format\n' > "$TMP/f.prof"
$DA -q --dump "$D" --profile "$TMP/f.prof" --out-dir "$TMP/e3" 2> "$TMP/err"
check "-jp=f profile: exit 3 and the options to use" "3 1" "$? $(grep -c 'no file:line in the profile (record with -jp=Gvli1, not' "$TMP/err")"
# A real -jp=f profile of the same workload: a main chunk as costly.lua:0
# (where it is defined, not where it was sampled), then function names.
$DA -q --dump "$D" --profile "$SAMPLES/costly-f.prof" --out-dir "$TMP/e5" 2> "$TMP/err"
check "real -jp=f profile: exit 3" 3 $?
check "real -jp=f profile: the line and the options to use" \
	"dumpanalyze: $SAMPLES/costly-f.prof:1: function names, not source lines (-jp=f): record with -jp=Gvli1: $(head -1 "$SAMPLES/costly-f.prof")" \
	"$(cat "$TMP/err")"
check "real -jp=f profile: nothing written" "" "$(ls "$TMP/e5" 2>/dev/null)"
$DA -q --views flamegraph --dump "$D" --profile "$SAMPLES/costly-lvr.prof" --out-dir "$TMP/e4" 2> "$TMP/err"
check "flamegraph without stacks: exit 1" 1 $?
check "flamegraph without stacks: message" \
	"dumpanalyze: view flamegraph needs folded stacks: $SAMPLES/costly-lvr.prof has none (record it with -jp=Gvli1, or give a sysprof profile)" "$(cat "$TMP/err")"
$DA -q --views profile --dump "$D" --out-dir "$TMP/e5" 2> "$TMP/err"
check "profile view without --profile: exit 1" 1 $?
check "profile view without --profile: message" \
	"dumpanalyze: view profile needs --profile FILE (a -jp profile of the same workload)" "$(cat "$TMP/err")"
$DA -q --dump "$D" --dump "$D" --profile "$SAMPLES/costly-lvr.prof" --out-dir "$TMP/e6" 2> "$TMP/err"
check "two dumps, one profile: exit 1" 1 $?
check "two dumps, one profile: message" \
	"dumpanalyze: give one --profile per --dump, in the same order (2 dumps, 1 profiles), or two for one dump (a -jp and a sysprof profile)" "$(cat "$TMP/err")"
gzip -c "$SAMPLES/costly-lvr.prof" > "$TMP/lvr.prof.gz"
$DA -q --views profile --dump "$D" --profile "$TMP/lvr.prof.gz" --out-dir "$TMP/gz" 2> "$TMP/err"
check "a gzipped profile reads the same" "" "$(cmp "$TMP/gz/profile-lines.csv" "$TMP/vlr/../lvr/profile-lines.csv" 2>&1)"

# Several dumps, a profile each.
$DA -q --dump "$D" --profile "$SAMPLES/costly-lvr.prof" --dump "$D" --profile "$SAMPLES/costly-Gvl.prof" \
	--out-dir "$TMP/many" 2> "$TMP/err"
check "two dumps with their profiles: exit status" 0 $?
check "two dumps: each its own profile" "1 0 1" \
	"$(ls "$TMP/many/costly.dump" | grep -c profile-lines) $(ls "$TMP/many/costly.dump" | grep -c flamegraph.svg) $(ls "$TMP/many/costly.dump.2" | grep -c flamegraph.svg)"

# luajit2: bytecode lines carry their source line, so compiled coverage.
L2=$SAMPLES/costly-luajit2.dump
$DA -q --views profile --dump "$L2" --profile "$SAMPLES/costly-luajit2-Gvl.prof" --out-dir "$TMP/lj2" 2> "$TMP/err"
check "luajit2: exit status" 0 $?
check "luajit2: coverage header" "FILE,LINE,SAMPLES,COMPILED,INTERPRETED,TRACES,TRACE_IDS" \
	"$(head -n 1 "$TMP/lj2/profile-coverage.csv" | tr -d '\r')"
# Compiled traces whose bytecode has a line ending in "(costly.lua:40)".
want=$(awk '/^---- TRACE [0-9]+ start/ { id = $3; has = 0; bc = 1; next }
	/^---- TRACE [0-9]+ (IR|mcode|snapshots)/ { bc = 0; next }
	/^---- TRACE [0-9]+ stop/ { if (has) n++; has = 0; next }
	/^---- TRACE [0-9]+ abort/ { has = 0; next }
	bc && /\(costly\.lua:40\)$/ { has = 1 }
	END { print n + 0 }' "$L2")
check "luajit2: costly.lua:40 lies in the compiled traces whose bytecode names it" "$want" \
	"$(grep '^costly.lua,40,' "$TMP/lj2/profile-coverage.csv" | cut -d, -f6)"
check "luajit2: one row per profiled line" "$(grep ';' "$SAMPLES/costly-luajit2-Gvl.prof" | awk '{ n = split($1, a, ";"); print a[n] }' | grep ':[0-9]*$' | sort -u | wc -l)" \
	"$(tail -n +2 "$TMP/lj2/profile-coverage.csv" | cut -d, -f1,2 | sort -u | wc -l)"
$DA -q --views profile --dump "$D" --profile "$SAMPLES/costly-lvr.prof" --out-dir "$TMP/nocov" 2> /dev/null
check "Debian luajit dump: no coverage file (nothing to attribute)" "" "$(ls "$TMP/nocov" | grep coverage)"

finish
