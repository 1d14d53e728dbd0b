#!/bin/sh
# compare.sh DUMPANALYZE — --compare on the outputs of real dumps: the
# manifest required, views on one side only "not compared", abort sites
# that follow lines inserted above them (a program run twice by the
# installed luajit), bushes matched across trace numbers, profiles,
# several dumps, incomplete runs, --json, and --fail-on as a CI gate.
SUITE=compare
. "$(dirname "$0")/setup.sh"

ALL='aborts+0,aborts+0%,traces-0%,new-reasons,new-sites'
$DA -q --views default,bush-txt --dump "$SAMPLES/penlight-x.dump" --out-dir "$TMP/a" > /dev/null
$DA -q --views default,bush-txt --dump "$SAMPLES/luacheck.dump" --out-dir "$TMP/b" > /dev/null
$DA -q --views default,bush-txt --dump "$SAMPLES/flush.dump" --out-dir "$TMP/f" > /dev/null

$DA --compare "$TMP/a" "$TMP/a" --fail-on "$ALL" > "$TMP/same"
check "same directory: exit 0 under every rule" 0 $?
check "same directory: no change" "  aborts                   47 -> 47" "$(grep -m1 '^  aborts' "$TMP/same")"

$DA --compare "$TMP/a" "$TMP/b" > "$TMP/ab"
check "without --fail-on: exit 0" 0 $?
a_rows=$(grep -vc '^ID,' "$TMP/a/gen-1-traces.csv")
b_rows=$(grep -vc '^ID,' "$TMP/b/gen-1-traces.csv")
check "traces compiled from the two traces.csv" "$a_rows -> $b_rows" \
	"$(grep -m1 'traces compiled' "$TMP/ab" | awk '{print $3, $4, $5}')"
reasons() { awk '/^  abort reasons:/ { on = 1; next } /^  [a-z]/ { on = 0 } on' "$1"; }
check "a reason only luacheck has is new, and usually harmless" 1 \
	"$(reasons "$TMP/ab" | grep -c '^    new .* inner loop in root trace  (usually harmless: not counted)$')"
check "a costly new reason has no note" "    new         0 -> 9      loop unroll limit reached" \
	"$(reasons "$TMP/ab" | grep 'loop unroll')"
check "a reason only penlight has is gone" 1 "$(reasons "$TMP/ab" | grep -c '^    gone .* NYI: return to lower frame$')"
check "each heading once" "1 1 1" "$(for h in 'abort reasons:' 'abort sites (' 'bushes that grew'; do
	grep -c "^  $h" "$TMP/ab"; done | tr '\n' ' ' | sed 's/ $//')"

$DA --compare "$TMP/a" "$TMP/b" --fail-on new-reasons > "$TMP/gate"
check "new-reasons gate: exit 1" 1 $?
check "new-reasons gate: says why, naming the one that counts" \
	"FAIL: new-reasons: 1 new abort reason (costly or worth a look): loop unroll limit reached" \
	"$(grep '^FAIL' "$TMP/gate")"
$DA --compare "$TMP/a" "$TMP/b" --fail-on new-reasons:all > "$TMP/gate"
check "new-reasons:all gate: the harmless ones count too" \
	"FAIL: new-reasons:all: 3 new abort reasons: loop unroll limit reached; down-recursion, restarting; inner loop in root trace" \
	"$(grep '^FAIL' "$TMP/gate")"
$DA --compare "$TMP/a" "$TMP/b" --fail-on 'new-reasons>=2' > "$TMP/gate"
check "new-reasons>=2: one costly new reason passes" "0 0" "$? $(grep -c '^FAIL' "$TMP/gate")"
$DA --compare "$TMP/a" "$TMP/b" --fail-on 'new-reasons:all>=3' > "$TMP/gate"
check "new-reasons:all>=3: three new reasons fail" "1 FAIL: new-reasons:all>=3: 3 new abort reasons: loop unroll limit reached; down-recursion, restarting; inner loop in root trace" \
	"$? $(grep '^FAIL' "$TMP/gate")"
$DA --compare "$TMP/b" "$TMP/a" --fail-on 'traces-10%' > "$TMP/gate2"
check "traces-10% gate: exit 1" 1 $?
check "traces-10% gate: says why" "FAIL: traces-10%: compiled traces dropped by more than 10%: $b_rows -> $a_rows" \
	"$(grep '^FAIL' "$TMP/gate2")"
$DA --compare "$TMP/a" "$TMP/b" --fail-on 'aborts+1000' > /dev/null
check "aborts+1000 not crossed: exit 0" 0 $?

# Totals over the run: generation numbers are not compared one by one.
$DA --compare "$TMP/f" "$TMP/f" > "$TMP/ff"
check "generations: counted" "  generations               4 -> 4" "$(grep '^  generations' "$TMP/ff")"
check "generations: no section per number" 0 "$(grep -c '^generation ' "$TMP/ff")"
f_rows=$(cat "$TMP"/f/gen-*-traces.csv | grep -vc '^ID,')
check "generations: traces of all of them" "  traces compiled    $(printf %8d "$f_rows") -> $f_rows" \
	"$(grep '^  traces compiled' "$TMP/ff")"

# --json: the same numbers, checked against the CSV files with awk.
$DA --compare "$TMP/a" "$TMP/b" --json > "$TMP/ab.json"
check "json: exit 0" 0 $?
check "json: one object" 1 "$(jq -s length "$TMP/ab.json")"
check "json: key order" "old new dumps dumps_not_compared fail exit_status" "$(jq -r 'keys_unsorted | join(" ")' "$TMP/ab.json")"
check "json: dump keys" "name old_complete new_complete old_jit_events new_jit_events not_compared profile time generations traces aborts reasons sites sites_moved findings findings_moved findings_baselined bushes new_reasons new_sites" \
	"$(jq -r '.dumps[0] | keys_unsorted | join(" ")' "$TMP/ab.json")"
sum() { awk -F, 'NR > 1 { n += $NF } END { print n }' "$1"; }
check "json: traces" "$a_rows $b_rows" "$(jq -r '.dumps[0].traces | "\(.old) \(.new)"' "$TMP/ab.json")"
check "json: aborts" "$(sum "$TMP/a/gen-1-abort-reasons.csv") $(sum "$TMP/b/gen-1-abort-reasons.csv")" \
	"$(jq -r '.dumps[0].aborts | "\(.old) \(.new)"' "$TMP/ab.json")"
names() { tr -d '\r' < "$1" | sed '1d; s/,[0-9]*$//; s/^"//; s/"$//' | sort; }
names "$TMP/a/gen-1-abort-reasons.csv" > "$TMP/ra"
names "$TMP/b/gen-1-abort-reasons.csv" > "$TMP/rb"
new_reasons=$(comm -13 "$TMP/ra" "$TMP/rb" | wc -l)
check "json: new reasons, by severity" "$new_reasons = 1 costly or worth a look + 2 harmless, 0 baselined" \
	"$(jq -r '.dumps[0].new_reasons | "\(.counted + .harmless) = \(.counted) costly or worth a look + \(.harmless) harmless, \(.baselined) baselined"' "$TMP/ab.json")"
check "json: new reasons listed" "$(comm -13 "$TMP/ra" "$TMP/rb")" \
	"$(jq -r '.dumps[0].reasons[] | select(.change == "new") | .reason' "$TMP/ab.json" | sort)"
check "json: inner loop in root trace" '{"reason":"inner loop in root trace","severity":"harmless","baselined":false,"old":0,"new":10,"change":"new"}' \
	"$(jq -c '.dumps[0].reasons[] | select(.reason == "inner loop in root trace")' "$TMP/ab.json")"
check "json: no rule, no fail" "0 0" "$(jq -r '"\(.fail | length) \(.exit_status)"' "$TMP/ab.json")"
$DA --compare "$TMP/a" "$TMP/b" --json --fail-on new-reasons > "$TMP/abf.json"
check "json + fail-on: exit 1" 1 $?
check "json + fail-on: the rule crossed" '["new-reasons: 1 new abort reason (costly or worth a look): loop unroll limit reached"] 1' \
	"$(jq -c '.fail' "$TMP/abf.json") $(jq '.exit_status' "$TMP/abf.json")"

# A view on one side only is "not compared", never zero.
$DA -q --dump "$SAMPLES/penlight-x.dump" --views summary,traces --out-dir "$TMP/s" > /dev/null
$DA --compare "$TMP/a" "$TMP/s" > "$TMP/as"
check "missing views: exit 0" 0 $?
n=0
for v in abort-reasons abort-reasons-txt abort-sites exits blacklist bush-txt bush-png; do
	check "missing views: $v not compared" 1 "$(grep -c "^  not compared: $v (only in OLD)$" "$TMP/as")"
	n=$((n + 1))
done
ran "missing views" $n 7
check "missing views: no aborts line, no -100%" "0 0" \
	"$(grep -c '^  aborts' "$TMP/as") $(grep -c '100' "$TMP/as")"
check "missing views: traces still compared" "  traces compiled          74 -> 74" "$(grep '^  traces compiled' "$TMP/as")"
$DA --compare "$TMP/a" "$TMP/s" --json > "$TMP/as.json"
check "missing views: null in json" "null null null" "$(jq -r '.dumps[0] | "\(.aborts) \(.sites) \(.new_sites)"' "$TMP/as.json")"
check "missing views: json lists them" "abort-reasons:old" \
	"$(jq -r '.dumps[0].not_compared[0] | "\(.view):\(.only_in)"' "$TMP/as.json")"

# Two default runs (no bush text since 0.3.0): bushes are said not
# compared, never silently left out.
$DA -q --dump "$SAMPLES/penlight-x.dump" --out-dir "$TMP/d1" > /dev/null
$DA -q --dump "$SAMPLES/luacheck.dump" --out-dir "$TMP/d2" > /dev/null
$DA --compare "$TMP/d1" "$TMP/d2" > "$TMP/dd"
check "default runs: exit 0" 0 $?
check "default runs: bushes not compared, said once" \
	"  not compared: bushes (neither run has bush-txt or jsonl; run both with --views default,bush-txt)" \
	"$(grep 'bushes' "$TMP/dd")"
$DA --compare "$TMP/d1" "$TMP/d2" --json > "$TMP/dd.json"
check "default runs: bushes null in json" null "$(jq -r '.dumps[0].bushes' "$TMP/dd.json")"
$DA --compare "$TMP/a" "$TMP/s" --fail-on new-sites > /dev/null 2> "$TMP/err"
check "missing views: a rule that needs one: exit 2" 2 $?
check "missing views: says so" "dumpanalyze: cannot evaluate --fail-on new-sites: findings was not rendered on both sides" \
	"$(cat "$TMP/err")"
$DA --compare "$TMP/a" "$TMP/s" --fail-on traces-0% > /dev/null
check "missing views: a rule that has its view: exit 0" 0 $?

# No manifest: not dumpanalyze output.
mkdir "$TMP/nom"
cp "$TMP"/a/gen-1-*.csv "$TMP/nom/"
$DA --compare "$TMP/nom" "$TMP/a" > /dev/null 2> "$TMP/err"
check "no manifest: exit 2" 2 $?
check "no manifest: message" "dumpanalyze: $TMP/nom: not a dumpanalyze output directory (no manifest.json)" "$(cat "$TMP/err")"

# A rerun into the same directory changes nothing.
cp -rp "$TMP/a" "$TMP/a0"
$DA -q --views default,bush-txt --dump "$SAMPLES/penlight-x.dump" --out-dir "$TMP/a" > /dev/null
$DA --compare "$TMP/a0" "$TMP/a" --fail-on "$ALL" --json > "$TMP/rerun.json"
check "rerun: exit 0 under every rule" 0 $?
check "rerun: every reason, site and bush the same" "same" \
	"$(jq -r '.dumps[0] | [.reasons[], .sites[], .bushes[]] | map(.change) | unique | join(" ")' "$TMP/rerun.json")"
check "rerun: sites and bushes there" \
	"$(cut -d, -f1-3 "$TMP/a/gen-1-abort-sites.csv" | sed 1d | sort -u | wc -l) $(ls "$TMP"/a/gen-1-bush-*.txt | wc -l)" \
	"$(jq -r '.dumps[0] | "\(.sites | length) \(.bushes | length)"' "$TMP/rerun.json")"

# Bushes match by root kind and start location: penlight under LuaJIT
# 2.1-beta3 and 2.1-HEAD numbers its traces differently.
$DA -q --views default,bush-txt --dump "$SAMPLES/penlight-luajit21.dump" --out-dir "$TMP/h" > /dev/null
check "bushes: tablex.lua:728 is trace 23, then 28" "---- TRACE 23 start tablex.lua:728 ---- TRACE 28 start tablex.lua:728" \
	"$(head -1 "$TMP/a/gen-1-bush-23.txt") $(head -1 "$TMP/h/gen-1-bush-28.txt")"
$DA --compare "$TMP/a" "$TMP/h" --json > "$TMP/ah.json"
bush() { jq -c ".dumps[0].bushes[] | select(.file == \"$1\" and .old_line == $2)" "$TMP/ah.json"; }
check "bushes: matched across trace numbers" \
	'{"kind":"root","file":"tablex.lua","old_line":728,"new_line":728,"old_traces":21,"new_traces":21,"change":"same"}' \
	"$(bush tablex.lua 728)"
check "bushes: one that grew" \
	'{"kind":"root","file":"List.lua","old_line":550,"new_line":550,"old_traces":1,"new_traces":3,"change":"up"}' \
	"$(bush List.lua 550)"
check "bushes: stitched roots are their own kind" '"stitch"' "$(bush stringx.lua 376 | jq .kind)"
$DA --compare "$TMP/a" "$TMP/h" > "$TMP/ah"
check "bushes: the one that grew, once" "    up          1 -> 3      root List.lua:550" \
	"$(grep '^    up .* root ' "$TMP/ah")"
check "bushes: heading once" 1 "$(grep -c 'bushes that grew' "$TMP/ah")"

# Bushes from gen-N.jsonl when the bush text was not rendered.
$DA -q --dump "$SAMPLES/penlight-luajit21.dump" --views traces,jsonl --out-dir "$TMP/hj" > /dev/null
$DA --compare "$TMP/a" "$TMP/hj" --json > "$TMP/ahj.json"
check "bushes from jsonl: the same as from the text" \
	"$(jq -c '.dumps[0].bushes' "$TMP/ah.json")" "$(jq -c '.dumps[0].bushes' "$TMP/ahj.json")"

# abort-sites.csv's NORMAL_REASON, read by name: on both sides,
# 2.1-beta3's "NYI: bytecode 51" and 2.1-HEAD's "NYI: bytecode FNEW  " are
# one reason (50 UCLO, 51 FNEW, 71 VARG in 2.1's numbering); against an
# older output without the column, the reasons as written.
# old_cols DIR: a copy DIR.old with abort-sites.csv's first 8 columns only.
old_cols() {
	cp -rp "$1" "$1.old"
	tr -d '\r' < "$1/gen-1-abort-sites.csv" | awk -F, -v OFS=, '
		{ print $1, $2, $3, $4, $5, $6, $7, $8 }' > "$1.old/gen-1-abort-sites.csv"
}
old_cols "$TMP/h"
$DA --compare "$TMP/a" "$TMP/h" --json > "$TMP/x.json"
check "NORMAL_REASON on both: the reasons match" 0 \
	"$(jq -r '.dumps[0].new_reasons | .counted + .harmless' "$TMP/x.json")"
check "NORMAL_REASON on both: FNEW up from bytecode 51's count, not new" \
	"$(grep '^NYI: bytecode 51,' "$TMP/a/gen-1-abort-reasons.csv" | tr -d '\r' | cut -d, -f2) 20 up" \
	"$(jq -r '.dumps[0].reasons[] | select(.reason == "NYI: bytecode FNEW") | "\(.old) \(.new) \(.change)"' "$TMP/x.json")"
check "NORMAL_REASON on both: the new sites" "List.lua:556 class.lua:43 penlight.lua:67" \
	"$(jq -r '[.dumps[0].sites[] | select(.change == "new") | "\(.file):\(.new_line)"] | join(" ")' "$TMP/x.json")"
check "NORMAL_REASON on both: a site by its normal reason (no source read: by order)" \
	'{"file":"tablex.lua","old_line":351,"new_line":351,"reason":"NYI: bytecode VARG","matched_by":"order","old":12,"new":17,"change":"up"}' \
	"$(jq -c '.dumps[0].sites[] | select(.file == "tablex.lua" and .new_line == 351)' "$TMP/x.json")"
$DA --compare "$TMP/a" "$TMP/h.old" --json > "$TMP/x1.json"
check "NORMAL_REASON on one side: reasons as written" "3" "$(jq '.dumps[0].new_reasons | .counted + .harmless' "$TMP/x1.json")"
check "NORMAL_REASON on one side: 2.1-HEAD's padding dropped" 1 \
	"$(jq '[.dumps[0].reasons[] | select(.reason == "NYI: bytecode FNEW")] | length' "$TMP/x1.json")"

# Profiles: the same dump with two profiles of the same workload.
$DA -q --dump "$SAMPLES/costly.dump" --profile "$SAMPLES/costly-lvr.prof" --out-dir "$TMP/p1" > /dev/null
$DA -q --dump "$SAMPLES/costly.dump" --profile "$SAMPLES/costly-vl.prof" --out-dir "$TMP/p2" > /dev/null
$DA --compare "$TMP/p1" "$TMP/p2" --json > "$TMP/p.json"
ishare() { awk -F, 'NR > 1 { s += $3; i += $4 } END { printf "%.1f", 100 * i / s }' "$1"; }
check "profile: interpreted share from profile-lines.csv" \
	"$(ishare "$TMP/p1/profile-lines.csv") $(ishare "$TMP/p2/profile-lines.csv")" \
	"$(jq -r '.dumps[0].profile.interpreted_share | "\(.old * 10 | round / 10) \(.new * 10 | round / 10)"' "$TMP/p.json")"
check "profile: the top line" "costly.lua:40 53.2 54.8" \
	"$(jq -r '.dumps[0].profile.top_lines[0] | "\(.loc) \(.old_share * 10 | round / 10) \(.new_share * 10 | round / 10)"' "$TMP/p.json")"
check "profile: five top lines (the same five)" 5 "$(jq '.dumps[0].profile.top_lines | length' "$TMP/p.json")"
$DA --compare "$TMP/p1" "$TMP/p2" > "$TMP/p"
check "profile: text" "    interpreted          23.4% -> 19.3%" "$(grep '^    interpreted' "$TMP/p")"
# Where the time went comes first (issue 28), before the counts; the top
# lines after them.
check "profile: the shares by VM state at the top of the report, before the counts" \
	"  profile (shares of the samples of profile-lines.csv):
    interpreted          23.4% -> 19.3%
    compiled             59.2% -> 60.5%
    C code                6.4% -> 7.2%
    garbage collector    11.0% -> 13.1%
    JIT compiler          0.0% -> 0.0%
    charged to findings   12.1% -> 11.0%
  generations               1 -> 1" "$(sed -n 2,9p "$TMP/p")"
check "profile: the top lines after the counts" \
	"  profile's top lines (shares of the samples of profile-lines.csv):|      53.2% ->  54.8%  costly.lua:40" \
	"$(grep -A1 "^  profile's top lines" "$TMP/p" | paste -sd'|')"
check "profile --json: profile's shares before the counts, its top lines last" \
	"profile generations|interpreted_share state_shares charged_share top_lines" \
	"$(jq -r '.dumps[0] | ([keys_unsorted[] | select(. == "profile" or . == "generations")] | join(" ")) + "|" + (.profile | keys_unsorted | join(" "))' "$TMP/p.json")"
# every VM state's share, each the column's sum over all samples
sshare() { awk -F, -v c="$2" 'NR > 1 { s += $3; i += $c } END { printf "%g", int(1000 * i / s + 0.5) / 10 }' "$1"; }
for st in 5:compiled 6:c 7:gc 8:jit; do
	col=${st%%:*} key=${st#*:}
	check "profile: $key share from profile-lines.csv" \
		"$(sshare "$TMP/p1/profile-lines.csv" "$col") $(sshare "$TMP/p2/profile-lines.csv" "$col")" \
		"$(jq -r ".dumps[0].profile.state_shares.$key | \"\\(.old * 10 | round / 10) \\(.new * 10 | round / 10)\"" "$TMP/p.json")"
done
check "profile: text, a line per VM state" 5 \
	"$(grep -cE '^    (interpreted|compiled|C code|garbage collector|JIT compiler) +[0-9.]+% -> [0-9.]+%$' "$TMP/p")"
$DA --compare "$TMP/a" "$TMP/p1" > "$TMP/ap"
check "profile on one side: not compared" "  not compared: profile (only in NEW)" "$(grep 'profile' "$TMP/ap")"

# Several dumps: compared dump by dump, by name.
$DA -q --dump "$SAMPLES/rsx.dump" --dump "$SAMPLES/flush.dump" --out-dir "$TMP/m1" > /dev/null 2>&1
$DA -q --dump "$SAMPLES/rsx.dump" --dump "$SAMPLES/late.dump" --out-dir "$TMP/m2" > /dev/null 2>&1
$DA --compare "$TMP/m1" "$TMP/m2" > "$TMP/m"
check "several: exit 0" 0 $?
check "several: by name" "not compared: dump flush.dump (only in OLD)|not compared: dump late.dump (only in NEW)|dump rsx.dump" \
	"$(grep '^[a-z]' "$TMP/m" | tail -n +2 | paste -sd'|')"
$DA --compare "$TMP/m1" "$TMP/m2" --fail-on new-sites > /dev/null 2> "$TMP/err"
check "several: --fail-on with a dump on one side: exit 2" 2 $?
check "several: says which" 2 "$(grep -c 'cannot evaluate --fail-on for dump' "$TMP/err")"
$DA --compare "$TMP/m1" "$TMP/a" > /dev/null 2> "$TMP/err"
check "several against one: exit 2" 2 $?

# An incomplete run (--strict stopped at a bad line after three of
# flush.dump's four generations) is compared, flagged, and no gate.
{ cat "$SAMPLES/flush.dump"; echo '---- TRACE one IR'; } > "$TMP/bad.dump"
$DA -q --strict --dump "$TMP/bad.dump" --out-dir "$TMP/st" > /dev/null 2>&1
check "incomplete: the manifest says so" "false 3" "$(jq -r '"\(.complete) \(.exit_status)"' "$TMP/st/manifest.json")"
$DA --compare "$TMP/f" "$TMP/st" > "$TMP/inc"
check "incomplete: compared, exit 0" 0 $?
check "incomplete: flagged" "  NEW is an incomplete run (it stopped with exit status 3): its numbers are partial" \
	"$(grep incomplete "$TMP/inc")"
$DA --compare "$TMP/f" "$TMP/st" --fail-on aborts+100 > /dev/null 2> "$TMP/err"
check "incomplete: --fail-on cannot tell: exit 2" 2 $?
check "incomplete: says so" "dumpanalyze: cannot evaluate --fail-on: $TMP/st is an incomplete run" "$(cat "$TMP/err")"

$DA --compare "$TMP/a" "$TMP/nope" > /dev/null 2> "$TMP/err"
check "missing directory: exit 2" 2 $?
check "missing directory: message" "dumpanalyze: cannot read $TMP/nope: No such file or directory" "$(cat "$TMP/err")"
$DA --compare "$TMP/a" "$TMP/b" --fail-on 'more-speed' > /dev/null 2> "$TMP/err"
check "bad rule: exit 1" 1 $?
check "bad rule: message" "dumpanalyze: unknown --fail-on rule 'more-speed' (rules: recommended, new-sites[:all][>=N], new-reasons[:all][>=N], aborts+N, aborts+N%, traces-N%, interpreted+P, cost+P)" "$(cat "$TMP/err")"
n=0
for bad in 'new-sites:some' 'new-sites>=0' 'new-sites>=x' 'new-sites>2' 'aborts+10%x' 'aborts+' \
	'traces-5' 'interpreted+' 'interpreted+1.' 'interpreted+-1' 'cost+.5' 'cost+5%'; do
	$DA --compare "$TMP/a" "$TMP/b" --fail-on "new-reasons,$bad" > /dev/null 2> "$TMP/err"
	check "bad rule '$bad': exit 1, named" "1 dumpanalyze: unknown --fail-on rule '$bad' (rules:" \
		"$? $(cut -c1-$((46 + ${#bad})) "$TMP/err")"
	n=$((n + 1))
done
ran "bad rules" $n 12
$DA --compare "$TMP/a" > /dev/null 2> "$TMP/err"
check "one directory: exit 1" 1 $?
$DA --dump "$SAMPLES/rsx.dump" --fail-on new-reasons > /dev/null 2> "$TMP/err"
check "--fail-on without --compare: exit 1" 1 $?
$DA --dump "$SAMPLES/rsx.dump" --json > /dev/null 2> "$TMP/err"
check "--json without --compare: exit 1" "1 dumpanalyze: --json goes with --compare" "$? $(cat "$TMP/err")"

# Lines inserted at the top of a file: samples/edit-old.dump and
# edit-new.dump are blacklist.lua run as b.lua, and a copy with four
# comment lines on top (samples/generate.sh; made once, since one run of
# a real program can abort at a line another run did not); its abort
# sites and bushes move down by four lines.
mkdir -p "$TMP/old" "$TMP/new"
cp "$SAMPLES/lua/blacklist.lua" "$TMP/old/b.lua"
{ printf -- '-- one\n-- two\n-- three\n-- four\n'; cat "$SAMPLES/lua/blacklist.lua"; } > "$TMP/new/b.lua"
for side in old new; do
	$DA -q --views default,bush-txt --dump "$SAMPLES/edit-$side.dump" --out-dir "$TMP/$side/out" > /dev/null
	check "edit: analysed ($side)" 0 $?
done
$DA --compare "$TMP/old/out" "$TMP/new/out" --fail-on new-sites,new-reasons > "$TMP/edit"
check "edit: no new site, exit 0" 0 $?
check "edit: no new site" "  new abort sites           0" "$(grep '^  new abort sites' "$TMP/edit")"
check "edit: the sites moved" "  abort sites moved with the lines around them: 2" "$(grep '^  abort sites moved' "$TMP/edit")"
$DA --compare "$TMP/old/out" "$TMP/new/out" --json > "$TMP/edit.json"
check "edit: each site four lines down" "b.lua 11 15 NYI: bytecode FNEW|b.lua 12 16 NYI: bytecode UCLO" \
	"$(jq -r '.dumps[0].sites[] | "\(.file) \(.old_line) \(.new_line) \(.reason)"' "$TMP/edit.json" | paste -sd'|')"
check "edit: the loop's bush too" '"root" 18 22' \
	"$(jq -r '.dumps[0].bushes[] | select(.file == "b.lua" and .old_line == 18) | "\(.kind | tojson) \(.old_line) \(.new_line)"' "$TMP/edit.json")"
# With the source read (--source-root), each site's line has a
# FINGERPRINT and each finding an identity of its lines' text: the same
# text four lines down matches "by text"; a changed line makes its site
# and finding new.
for side in old new; do
	$DA -q --dump "$SAMPLES/edit-$side.dump" --source-root "$TMP/$side" --out-dir "$TMP/$side/src" > /dev/null
done
check "FINGERPRINT: the same text, the same fingerprint, four lines down" \
	"$(tr -d '\r' < "$TMP/old/src/gen-1-abort-sites.csv" | awk -F, 'NR > 1 { print $1, $2 + 4, $3, $NF }' | sort)" \
	"$(tr -d '\r' < "$TMP/new/src/gen-1-abort-sites.csv" | awk -F, 'NR > 1 { print $1, $2, $3, $NF }' | sort)"
check "FINGERPRINT: 12 hex digits on every row" 0 \
	"$(tr -d '\r' < "$TMP/new/src/gen-1-abort-sites.csv" | awk -F, 'NR > 1 && (length($NF) != 12 || $NF ~ /[^0-9a-f]/)' | wc -l)"
$DA --compare "$TMP/old/src" "$TMP/new/src" --json --fail-on new-sites > "$TMP/src.json"
check "text: the same text moved: exit 0" 0 $?
check "text: the sites moved by text" "b.lua 11 15 text moved|b.lua 12 16 text moved" \
	"$(jq -r '.dumps[0].sites[] | "\(.file) \(.old_line) \(.new_line) \(.matched_by) \(.change)"' "$TMP/src.json" | paste -sd'|')"
check "text: b.lua's three findings moved by text, none new" "3 moved text 0" \
	"$(jq -r '.dumps[0] | [.findings[] | select(.file == "b.lua")] as $f | "\($f | length) \([$f[] | .change] | unique | join(" ")) \([$f[] | .matched_by] | unique | join(" ")) \(.new_sites.counted)"' "$TMP/src.json")"
check "text: penlight's stringx.lua (not under --source-root): by order" "same order" \
	"$(jq -r '.dumps[0].findings[] | select(.file == "stringx.lua") | "\(.change) \(.matched_by)"' "$TMP/src.json")"
$DA --compare "$TMP/old/src" "$TMP/new/src" > "$TMP/src.txt"
check "text: each moved finding's old line, said" \
	"    moved  costly       b.lua:14-17 (was 10)  blacklisted-loop  NYI: bytecode FNEW|    moved  costly       b.lua:24 (was 20)  aborting-loop  NYI: bytecode FNEW|    moved  costly       b.lua:12-19 (was 8)  aborting-function  NYI: bytecode FNEW" \
	"$(grep '^    moved ' "$TMP/src.txt" | paste -sd'|')"
# line 15, the closure, changed: its site and its loop's finding are new
mkdir -p "$TMP/changed"
sed '15s/.*/    local f = function() return 0 end/' "$TMP/new/b.lua" > "$TMP/changed/b.lua"
$DA -q --dump "$SAMPLES/edit-new.dump" --source-root "$TMP/changed" --out-dir "$TMP/changed/out" > /dev/null
$DA --compare "$TMP/old/src" "$TMP/changed/out" --json --fail-on new-sites > "$TMP/src2.json"
check "text: a changed line: exit 1" 1 $?
check "text: a changed line: its site new, the old one gone; the other moved" \
	"b.lua:15:new b.lua:16:moved b.lua:11:gone" \
	"$(jq -r '[.dumps[0].sites[] | "\(.file):\(.new_line // .old_line):\(.change)"] | join(" ")' "$TMP/src2.json")"
check "text: a changed line: the findings that fail there are new" \
	'["new-sites: 3 new abort sites (costly or worth a look): b.lua:14-17 blacklisted-loop, NYI: bytecode FNEW; b.lua:24 aborting-loop, NYI: bytecode FNEW; b.lua:12-19 aborting-function, NYI: bytecode FNEW"]' \
	"$(jq -c '.fail' "$TMP/src2.json")"
# OLD without the source, NEW with it: matched by order, said so
$DA --compare "$TMP/old/out" "$TMP/new/src" --json --fail-on new-sites > "$TMP/src3.json"
check "text on one side: by order, exit 0" "0 order" \
	"$? $(jq -r '[.dumps[0].sites[] | .matched_by] | unique | join(" ")' "$TMP/src3.json")"
finish
