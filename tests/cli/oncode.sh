#!/bin/sh
# oncode.sh DUMPANALYZE — the findings where developers look, read by
# their real consumers: findings.sarif by Microsoft's SARIF Multitool
# (`sarif validate`), problems.txt by vim's quickfix (its default
# 'errorformat'), the `--annotate github` lines by a reader of GitHub's
# workflow commands (tests/ci/annotations.mjs), the Code Quality report
# by ajv against GitLab's documented fields; each against findings.jsonl
# (the library's list) and the Lua files.  samples/ci/'s workflow and job
# parse as YAML and use options the tool has.  The consumers are pinned
# by tests/ci/package-lock.json (scripts/install-deps.sh installs them).
SUITE=oncode
. "$(dirname "$0")/setup.sh"
CI=$TOP/tests/ci
BIN=$CI/node_modules/.bin

need() { not_ok "$1" "$2"; finish; exit 1; }
command -v node > /dev/null || need "node is installed" "run scripts/install-deps.sh"
command -v jq > /dev/null || need "jq is installed" "run scripts/install-deps.sh"
# The package's bin.js passes its arguments through a shell unquoted (a
# ';' of --level would end the command): the Linux binary is run itself.
MULTITOOL=$CI/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
[ -x "$MULTITOOL" ] && [ -x "$BIN/ajv" ] && [ -d "$CI/node_modules/js-yaml" ] ||
	need "the consumers are installed" "run scripts/install-deps.sh (npm ci in tests/ci)"
vim --version 2> /dev/null | grep -q '+quickfix' ||
	need "vim with +quickfix is installed" "apt-get install vim (vim-tiny has no quickfix)"

VIEWS=findings,jsonl,sarif,problems,codequality
# case NAME DIR ARGS...: a run in DIR (the current directory the files
# are found from) into $TMP/NAME; its findings as findings.jsonl.
CASES=
case_run() {
	name=$1 dir=$2
	shift 2
	(cd "$dir" && $DA -q --views $VIEWS --out-dir "$TMP/$name" "$@") 2> "$TMP/$name.err"
	check "$name: run" "0" "$?"
	grep '"type":"finding"' "$TMP/$name/findings.jsonl" > "$TMP/$name.findings"
	eval "DIR_$name=\$dir"
	CASES="$CASES $name"
}
case_run shop "$SAMPLES/lua/shop" --dump ../../shop.dump --profile ../../shop-Gvl.prof
case_run names "$SAMPLES" --dump ci-names.dump --source-root lua
case_run costly "$SAMPLES" --dump costly.dump --profile costly-Gvl.prof --source-root lua
case_run maxtrace "$SAMPLES" --dump maxtrace.dump
case_run chunknames "$SAMPLES" --dump chunknames.dump
# A baseline accepting two of the shop's findings (written by the tool,
# cut to two entries, a reason given to one with '%', ',' and ':').
(cd "$SAMPLES/lua/shop" && $DA -q --views findings --dump ../../shop.dump --out-dir "$TMP/blw" \
	--write-baseline "$TMP/all.baseline") 2> /dev/null
awk -v RS= -v ORS='\n\n' 'NR == 1 || /place: json\.lua:19-29(\n|$)/ || /place: tpl-item:17-19(\n|$)/' \
	"$TMP/all.baseline" | sed '/place: json.lua:19-29$/{n;s/accepted:.*/accepted: rewritten in #42, 100%, a:b/;}' \
	> "$TMP/two.baseline"
check "the baseline has two entries" "2" "$(grep -c '^finding ' "$TMP/two.baseline")"
case_run baselined "$SAMPLES/lua/shop" --dump ../../shop.dump --profile ../../shop-Gvl.prof \
	--baseline "$TMP/two.baseline"

# ---- findings.sarif ----------------------------------------------------
# The validator's own findings: none of level error or warning; notes only
# of these rules, each reviewed:
#   SARIF2002 messages are text, not rule messageStrings with arguments:
#             each is the library's sentence for that finding, its advice
#             naming the places, which no template holds;
#   SARIF2003 no versionControlProvenance: the run knows no repository or
#             commit (upload-sarif gives GitHub both);
#   SARIF2006 the $schema URI GitHub's documentation gives is not
#             reachable from a machine without the web;
#   SARIF2010 no code snippets, SARIF2011 no context regions: the file and
#             lines are named, and the consumers read the file; a snippet
#             would copy source text into every CI artifact;
#   SARIF2012 (Note_ProvideHelpUri only) no help URI: the project has no
#             web site; each rule's help holds its advice, and
#             `dumpanalyze --explain` and the man page explain it.
set --
for c in $CASES; do set -- "$@" "$TMP/$c/findings.sarif"; done
DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 HOME=$TMP "$MULTITOOL" validate \
	--level "Error;Warning;Note" --log ForceOverwrite -o "$TMP/validation.sarif" "$@" \
	> "$TMP/validate.out" 2>&1
check "sarif validate ran on $# files" "0" "$?"
check "sarif validate: no errors or warnings" "0" \
	"$(jq '[.runs[].results[]? | select((.level // "warning") != "note")] | length' "$TMP/validation.sarif")"
check "sarif validate: only the reviewed notes" "" \
	"$(jq -r '.runs[].results[]? | .ruleId + "/" + (.message.id // "")' "$TMP/validation.sarif" |
	   sort -u | grep -vx 'SARIF2002/Note_Default\|SARIF2003/Note_Default\|SARIF2006/Note_Default\|SARIF2010/Note_Default\|SARIF2011/Note_Default\|SARIF2012/Note_ProvideHelpUri')"
check "sarif validate: files scanned" "1" "$(grep -c "Done. $# files scanned" "$TMP/validate.out")"

# Every rule of the catalogue, once, sorted, whatever the run found.
ids=$(grep -ohE '"DA[0-9]{3}"' "$TOP/src/luajit/traceerr.def" "$TOP/src/luajit/bytecodes.def" \
	"$TOP/src/findings/kinds.def" | tr -d '"' | sort -u)
check "sarif: the rules are the catalogue's ($(echo "$ids" | wc -l))" "$ids" \
	"$(jq -r '.runs[0].tool.driver.rules[].id' "$TMP/names/findings.sarif")"
check "sarif: the rules do not depend on the run" \
	"$(jq -c '.runs[0].tool.driver' "$TMP/names/findings.sarif")" \
	"$(jq -c '.runs[0].tool.driver' "$TMP/maxtrace/findings.sarif")"
check "sarif: driver name, version, information URI" "dumpanalyze $($DA --version | cut -d' ' -f2) file" \
	"$(jq -r '.runs[0].tool.driver | .name + " " + .version + " " + (.informationUri | split(":")[0])' "$TMP/shop/findings.sarif")"

# Each result against its finding (findings.jsonl, by rank): the same
# order, rule, level, fingerprint, line, and the extent's last line; a
# finding with no file to place it on is no result (GitHub refuses an
# upload with one), counted in the run's findingsLeftOut; ruleIndex names
# the rule; and GitHub's ingestion rule: every result has
# locations[0].physicalLocation.artifactLocation.uri.
for c in $CASES; do
	jq -rn --slurpfile f "$TMP/$c.findings" --slurpfile s "$TMP/$c/findings.sarif" '
		$s[0].runs[0] as $r | ($f | map({key: (.rank | tostring), value: .}) | from_entries) as $by |
		(if ($r.results | length) + $r.properties.findingsLeftOut != ($f | length)
		 then "count: \($r.results | length) results + \($r.properties.findingsLeftOut) left out != \($f | length)" else empty end),
		(if [$r.results[].properties.rank] != ([$r.results[].properties.rank] | sort) then "not in rank order" else empty end),
		($r.results[] as $g | $by[$g.properties.rank | tostring] as $w |
		 ($g.locations[0].physicalLocation) as $p |
		 [$w.rule, (if $w.severity == "harmless" then "note" else "warning" end), $w.id, $w.line,
		  (if $w.end_line != null and $w.line != null and $w.end_line > $w.line then $w.end_line else null end)] as $want |
		 [$g.ruleId, $g.level, $g.partialFingerprints["dumpanalyze/v1"], $p.region.startLine, $p.region.endLine] as $got |
		 if ($p.artifactLocation.uri | type) != "string" then "rank \($g.properties.rank): no artifactLocation.uri"
		 elif [$g.relatedLocations[]? | select((.physicalLocation.artifactLocation.uri | type) != "string")] != []
		 then "rank \($g.properties.rank): a related location without artifactLocation.uri"
		 elif $want != $got then "rank \($g.properties.rank): want \($want) got \($got)"
		 elif $r.tool.driver.rules[$g.ruleIndex].id != $g.ruleId then "rank \($g.properties.rank): ruleIndex \($g.ruleIndex)"
		 else empty end)' > "$TMP/$c.diff"
	check "$c: a result per placed finding ($(jq '.runs[0].results | length' "$TMP/$c/findings.sarif") of $(wc -l < "$TMP/$c.findings")): rule, level, fingerprint, lines, uri" \
		"" "$(head -n 5 "$TMP/$c.diff")"
done
check "names: hostile names are placed on their files" \
	"lua/ci-names.lua lua/ci-names/50%25%2Coff.lua lua/ci-names/a%3Ab%2C%20c.lua" \
	"$(jq -r '[.runs[0].results[].locations[0].physicalLocation.artifactLocation.uri // empty] | sort | join(" ")' "$TMP/names/findings.sarif")"
check "names: the two chunks that are no file are left out, and counted" "2 3" \
	"$(jq -r '.runs[0] | "\(.properties.findingsLeftOut) \(.results | length)"' "$TMP/names/findings.sarif")"
(cd "$SAMPLES" && $DA -q --views findings,sarif --dump builtin.dump --source-root lua --out-dir "$TMP/builtin")
check "builtin: the 3 findings in builtin: chunks (no file) are no results, counted" "3 0 3" \
	"$(jq -r '.runs[0] | "\(.properties.findingsLeftOut) \(.results | length)"' "$TMP/builtin/findings.sarif") $(grep -c ',builtin:' "$TMP/builtin/findings.csv")"
check "maxtrace: no file read (no --source-root): every finding left out, counted" "205 0" \
	"$(jq -r '.runs[0] | "\(.properties.findingsLeftOut) \(.results | length)"' "$TMP/maxtrace/findings.sarif")"
check "shop: related locations: the failing line and the closure's (json.lua:25, 23)" "25 23" \
	"$(jq -r '[.runs[0].results[0].relatedLocations[].physicalLocation.region.startLine] | join(" ")' "$TMP/shop/findings.sarif")"
# (the other accepted one, tpl-item:17-19, is in a chunk that is no file:
# no result, counted in findingsLeftOut)
check "baselined: a result per placed finding, the accepted one suppressed" \
	"20 1:external:accepted:rewritten in #42, 100%, a:b" \
	"$(jq -r '.runs[0].results | "\(length) " + ([.[] | select(.suppressions) | "\(.properties.rank):" +
	        (.suppressions[0] | .kind + ":" + .status + ":" + .justification)] | join(" "))' "$TMP/baselined/findings.sarif")"
check "baselined: left out of problems.txt" "20 0" \
	"$(wc -l < "$TMP/baselined/problems.txt") $(grep -c '^json.lua:19:\|tpl-item line 17' "$TMP/baselined/problems.txt")"
check "baselined: left out of the Code Quality report" "20" \
	"$(jq length "$TMP/baselined/gl-code-quality-report.json")"
check "shop: %SRCROOT% is declared, without a path of this machine" "%SRCROOT% null" \
	"$(jq -r '.runs[0].originalUriBaseIds | keys[0] + " " + (.["%SRCROOT%"].uri | tostring)' "$TMP/shop/findings.sarif")"

# Placed on the right lines: each file exists from the run's directory,
# and the line a result starts on is the start whose text the finding's
# identity holds ("S:TEXT#K", whitespace normalised).
n=0 bad=
TAB=$(printf '\t')
for c in $CASES; do
	eval "dir=\$DIR_$c"
	jq -r '.runs[0].results[] | select(.locations[0].physicalLocation) |
	       (.locations[0].physicalLocation | .artifactLocation.uri + "\t" + (.region.startLine | tostring)) + "\t" +
	       (.properties.identity | capture("\\|S:(?<s>.*?)#[0-9]+(\\|A:|$)").s // "")' "$TMP/$c/findings.sarif" |
		node -e 'for (const l of require("fs").readFileSync(0, "utf8").split("\n")) if (l) { const [u, ...r] = l.split("\t"); console.log([decodeURIComponent(u), ...r].join("\t")); }' \
		> "$TMP/$c.places"
	while IFS=$TAB read -r file line text; do
		n=$((n + 1))
		got=$(sed -n "${line}p" "$dir/$file" | tr -s ' \t' '  ' | sed 's/^ //; s/ $//')
		[ -f "$dir/$file" ] && [ "$got" = "$text" ] || bad="$bad $c:$file:$line"
	done < "$TMP/$c.places"
done
check "sarif: every placed result starts on its loop's or function's line ($n)" "" "$bad"
ran "placed results checked" "$n"

# Same input, same bytes.
(cd "$SAMPLES/lua/shop" && $DA -q --views sarif,codequality,problems --dump ../../shop.dump \
	--profile ../../shop-Gvl.prof --out-dir "$TMP/shop2") 2> /dev/null
for f in findings.sarif gl-code-quality-report.json problems.txt; do
	check_file "shop: $f is the same bytes on a rerun" "$TMP/shop/$f" "$TMP/shop2/$f"
done

# ---- problems.txt in vim's quickfix ------------------------------------
# :cfile with the default 'errorformat'; every entry: valid, file, line.
# The placed findings must be jumps to the SARIF result's file and line;
# the others entries that are no jump.
for c in $CASES; do
	eval "dir=\$DIR_$c"
	(cd "$dir" && vim -u NONE -i NONE -N -es -c 'set errorformat&' -c "cfile $TMP/$c/problems.txt" \
		-c "call writefile(map(getqflist(), {_, e -> e.valid ? bufname(e.bufnr) . ':' . e.lnum . ':' . filereadable(bufname(e.bufnr)) : '-'}), '$TMP/$c.qf')" \
		-c 'qa!') < /dev/null > /dev/null 2>&1
	jq -rn --slurpfile f "$TMP/$c.findings" --slurpfile s "$TMP/$c/findings.sarif" '
	       ($s[0].runs[0].results | map({key: (.properties.rank | tostring), value: .}) | from_entries) as $by |
	       $f[] | select(.baseline_reason == null) | $by[.rank | tostring] as $g |
	       if $g then ($g.locations[0].physicalLocation | (.artifactLocation.uri | @text) + ":" +
	                   (.region.startLine | tostring) + ":1") else "-" end' | node -e 'for (const l of require("fs").readFileSync(0, "utf8").split("\n")) if (l) console.log(decodeURIComponent(l))' \
		> "$TMP/$c.qfwant"
	check_file "$c: vim's quickfix lands on every placed finding's file and line ($(grep -vc '^-$' "$TMP/$c.qfwant") of $(wc -l < "$TMP/$c.qfwant"))" \
		"$TMP/$c.qfwant" "$TMP/$c.qf"
done
check "shop: one line per finding" "$(wc -l < "$TMP/shop.findings")" "$(wc -l < "$TMP/shop/problems.txt")"
check "shop: the first line" \
	"json.lua:19:1: warning: blacklisted-loop (costly): NYI: bytecode FNEW in 11 of 11 aborted attempts, likely given up on in 1 generation, charged 16.4% of the samples. json.lua:23 creates a closure each time the loop at json.lua:19 runs: create it once outside the loop (or pass its upvalues as arguments). [DA203]" \
	"$(head -n 1 "$TMP/shop/problems.txt")"
check "names: a chunk's newline stays on its line" \
	'dumpanalyze: warning: "100%,\na:b" line 2, aborting-start (costly): NYI: bytecode FNEW in 3 of 3 aborted attempts. "100%,?a:b":2 creates a closure each time the loop or function at "100%,?a:b":2 runs: create it once outside the loop or function (or pass its upvalues as arguments). [DA203]' \
	"$(grep '^dumpanalyze: warning: "100' "$TMP/names/problems.txt")"

# --format=gcc: the same lines on standard output, and nothing else.
(cd "$SAMPLES" && $DA -q --format=gcc --dump ci-names.dump --source-root lua --out-dir "$TMP/gcc") \
	> "$TMP/gcc.out" 2> "$TMP/gcc.err"
check "-q --format=gcc: exit 0" "0" "$?"
check_file "-q --format=gcc prints problems.txt's lines" "$TMP/names/problems.txt" "$TMP/gcc.out"
check "-q --format=gcc: nothing on standard error" "" "$(cat "$TMP/gcc.err")"
(cd "$SAMPLES" && $DA --format=gcc --dump ci-names.dump --source-root lua --out-dir "$TMP/gcc2") \
	> "$TMP/gcc2.out" 2> "$TMP/gcc2.err"
check_file "--format=gcc without -q: the lines instead of the summary" "$TMP/names/problems.txt" "$TMP/gcc2.out"
check "--format=gcc without -q: the counts on standard error" "1" "$(grep -c '^  traces ' "$TMP/gcc2.err")"
check "--format=gcc writes no file of its own" "" "$(ls "$TMP/gcc" | grep -x 'problems.txt')"

# ---- names a terminal, a CI log or vim would obey ----------------------
# samples/controls.dump (lua/controls.lua): chunk names with a lone CR
# and "::error ::", BEL, C1 controls, bidi overrides, and the shapes of
# places vim's default 'errorformat' reads ("=lua/app.lua|7| x",
# 'a"b.lua" 7: x', "x.lua(12): y", "x.lua:12:3: y").  No name is a file,
# so problems.txt must give vim no jump at all, one entry per finding;
# --format=gcc prints the same lines; the annotations hold no raw CR, and
# every control shown as text.
(cd "$SAMPLES" && $DA -q --views findings,jsonl,sarif,problems --dump controls.dump --out-dir "$TMP/ctl" \
	--annotate github) > "$TMP/ctl.ann" 2> "$TMP/ctl.err"
check "controls: exit 0, no message (but sources not found)" "0 " "$? $(grep -v ': warning: sources not found: ' "$TMP/ctl.err")"
(cd "$SAMPLES" && vim -u NONE -i NONE -N -es -c 'set errorformat&' -c "cgetfile $TMP/ctl/problems.txt" \
	-c "call writefile(map(getqflist(), {_, e -> e.valid . ':' . bufname(e.bufnr) . ':' . e.lnum}), '$TMP/ctl.qf')" \
	-c 'qa!') < /dev/null > /dev/null 2>&1
check "controls: vim reads one entry per finding ($(grep -c '"type":"finding"' "$TMP/ctl/findings.jsonl")), none a jump" \
	"$(grep '"type":"finding"' "$TMP/ctl/findings.jsonl" | sed 's/.*/0::0/')" "$(cat "$TMP/ctl.qf")"
check "controls: the names vim would have read as places, written so that it does not" \
	'dumpanalyze: warning: a"b.lua" 7 : x line 2, aborting-start (costly): NYI: bytecode FNEW in 3 of 3 aborted attempts. a"b.lua" 7 : x:2 creates a closure each time the loop or function at a"b.lua" 7 : x:2 runs: create it once outside the loop or function (or pass its upvalues as arguments). [DA203]
dumpanalyze: warning: lua/app.lua|7 | x line 2, aborting-start (costly): NYI: bytecode FNEW in 3 of 3 aborted attempts. lua/app.lua|7 | x:2 creates a closure each time the loop or function at lua/app.lua|7 | x:2 runs: create it once outside the loop or function (or pass its upvalues as arguments). [DA203]
dumpanalyze: warning: x.lua(12) : y line 2, aborting-start (costly): NYI: bytecode FNEW in 3 of 3 aborted attempts. x.lua(12) : y:2 creates a closure each time the loop or function at x.lua(12) : y:2 runs: create it once outside the loop or function (or pass its upvalues as arguments). [DA203]
dumpanalyze: warning: x.lua:12 :3 : y line 2, aborting-start (costly): NYI: bytecode FNEW in 3 of 3 aborted attempts. x.lua:12 :3 : y:2 creates a closure each time the loop or function at x.lua:12 :3 : y:2 runs: create it once outside the loop or function (or pass its upvalues as arguments). [DA203]' \
	"$(grep 'app\.lua|\|b\.lua"\|^dumpanalyze: warning: x\.lua' "$TMP/ctl/problems.txt")"
check "controls: problems.txt: the controls and the forged reason escaped" \
	'dumpanalyze: warning: bidi\u202eaul.evil line 2, aborting-start (costly): NYI: bytecode FNEW in 3 of 3 aborted attempts. bidi\u202eaul.evil:2 creates a closure each time the loop or function at bidi\u202eaul.evil:2 runs: create it once outside the loop or function (or pass its upvalues as arguments). [DA203]
dumpanalyze: warning: c1\xc2\x9b31mred\xc2\x9dosc line 2, aborting-start (costly): NYI: bytecode FNEW in 3 of 3 aborted attempts. c1\xc2\x9b31mred\xc2\x9dosc:2 creates a closure each time the loop or function at c1\xc2\x9b31mred\xc2\x9dosc:2 runs: create it once outside the loop or function (or pass its upvalues as arguments). [DA203]
dumpanalyze: warning: cr\r::error ::forged by a chunk name line 2, aborting-start (costly): NYI: bytecode FNEW in 3 of 3 aborted attempts. cr?::error ::forged by a chunk name:2 creates a closure each time the loop or function at cr?::error ::forged by a chunk name:2 runs: create it once outside the loop or function (or pass its upvalues as arguments). [DA203]
dumpanalyze: warning: forged.lua line 1-2, aborting-start (costly): NYI: bytecode 51\r::add-mask::secret in 1 of 1 aborted attempt. Move the construct at forged.lua:2 out of the loop or function at forged.lua:1. [DA108]' \
	"$(grep '^dumpanalyze: warning: \(cr\|c1\|bidi\|forged\)' "$TMP/ctl/problems.txt")"
(cd "$SAMPLES" && $DA -q --format=gcc --dump controls.dump --out-dir "$TMP/ctl-gcc") > "$TMP/ctl-gcc.out" 2> /dev/null
check_file "controls: --format=gcc prints problems.txt's lines" "$TMP/ctl/problems.txt" "$TMP/ctl-gcc.out"
check "controls: no raw CR, C0 (but tab), C1 or bidi byte in problems.txt or the annotations" 0 \
	"$(cat "$TMP/ctl/problems.txt" "$TMP/ctl.ann" | LC_ALL=C grep -ac "$(printf '[\001-\010\013-\037\177]\|\302[\200-\237]\|\342\200[\216\217\250-\256]\|\342\201[\246-\251]')")"
node "$CI/annotations.mjs" "$TMP/ctl.ann" "$TMP/ctl/findings.sarif" > "$TMP/ctl.annout" 2>&1 ||
	true
check "controls: the annotations as GitHub reads them: one per finding, the CR a %0D" \
	"annotations: checked $(grep -c '"type":"finding"' "$TMP/ctl/findings.jsonl") lines
::warning title=DA203 closure-in-loop::bidi\\u202eaul.evil:2: aborting-start (costly)
::warning title=DA203 closure-in-loop::c1\\xc2\\x9b31mred\\xc2\\x9dosc:2: aborting-start (costly)
::warning title=DA203 closure-in-loop::cr%0D::error ::forged by a chunk name:2: aborting-start (costly)
::warning title=DA108 unsupported-bytecode::forged.lua:1-2: aborting-start (costly): NYI: bytecode 51%0D::add-mask::secret in 1 of 1 aborted attempt." \
	"$(tail -n 1 "$TMP/ctl.annout"; grep '::\(cr\|c1\|bidi\|forged\)' "$TMP/ctl.ann" | sed 's/\(aborting-start (costly)\): NYI: bytecode FNEW.*/\1/; s/\(aborted attempt\.\).*/\1/')"

# ---- a base name several files have ------------------------------------
# shop-regressed.dump names its files by base name ("router.lua").  A
# tree with the program in lua/shop-regressed/, an older version's
# router.lua, app.lua and template.lua kept in old/shop/ (lua/shop's),
# and a third router.lua in a directory whose name holds a newline and a
# workflow command: under --source-root . those three
# names match several files equally, so none is read: a warning per
# name, once, naming the files (escaped), and their findings placed on no
# file, their identities and fingerprints without text; json.lua and
# log.lua, which only the program has, are read.  With the program's
# directory as an earlier --source-root every name is the program's.
AMB=$TMP/amb
EVIL="$AMB/evil
::error ::x"
mkdir -p "$AMB/old/shop" "$AMB/lua/shop-regressed" "$EVIL"
for f in router app template; do cp "$SAMPLES/lua/shop/$f.lua" "$AMB/old/shop/"; done
cp "$SAMPLES"/lua/shop-regressed/*.lua "$AMB/lua/shop-regressed/"
cp "$SAMPLES/lua/shop-regressed/router.lua" "$EVIL/"
AMB_VIEWS=findings,sarif,problems,source,abort-sites
(cd "$AMB" && $DA -q --strict --views $AMB_VIEWS --dump "$SAMPLES/shop-regressed.dump" --source-root . \
	--out-dir "$TMP/amb-out" --annotate github) > "$TMP/amb.ann" 2> "$TMP/amb.err"
check "ambiguous: exit 0, also under --strict (the dump is fine)" "0" "$?"
check "ambiguous: one warning per name, each once, the names escaped" \
	"$SAMPLES/shop-regressed.dump: warning: router.lua: 3 files of that name under the source root . match it equally (./evil\\n::error ::x/router.lua, ./lua/shop-regressed/router.lua, ./old/shop/router.lua): none is read, nothing is placed on it; give the directory that holds it as an earlier source root
$SAMPLES/shop-regressed.dump: warning: app.lua: 2 files of that name under the source root . match it equally (./lua/shop-regressed/app.lua, ./old/shop/app.lua): none is read, nothing is placed on it; give the directory that holds it as an earlier source root
$SAMPLES/shop-regressed.dump: warning: template.lua: 2 files of that name under the source root . match it equally (./lua/shop-regressed/template.lua, ./old/shop/template.lua): none is read, nothing is placed on it; give the directory that holds it as an earlier source root" \
	"$(cat "$TMP/amb.err")"
check "ambiguous: no finding placed on another version's file" "0" \
	"$(cat "$TMP/amb-out/problems.txt" "$TMP/amb.ann" | grep -c 'old/\|evil')"
check "ambiguous: problems.txt names router.lua's findings, places none" "3 0" \
	"$(grep -c '^dumpanalyze: warning: router.lua line ' "$TMP/amb-out/problems.txt") $(grep -c '^[^ ]*router.lua:' "$TMP/amb-out/problems.txt")"
check "ambiguous: json.lua, which only the program has, is placed" "lua/shop-regressed/json.lua" \
	"$(sed -n 's/^\([^ ]*json\.lua\):[0-9]*:1: .*/\1/p' "$TMP/amb-out/problems.txt" | sort -u)"
check "ambiguous: SARIF: router.lua's findings are no results, counted as left out" "0 0 1" \
	"$(jq '[.runs[0].results[].locations[0] | select(.logicalLocations)] | length' "$TMP/amb-out/findings.sarif") $(jq '[.runs[0].results[].locations[0].physicalLocation.artifactLocation.uri // empty | select(test("router"))] | length' "$TMP/amb-out/findings.sarif") $(jq '.runs[0].properties.findingsLeftOut >= 3' "$TMP/amb-out/findings.sarif" | grep -c true)"
check "ambiguous: annotations: router.lua's have no file=" "3 0" \
	"$(grep -c '::router.lua:' "$TMP/amb.ann") $(grep -c 'file=[^,]*router' "$TMP/amb.ann")"
check "ambiguous: router.lua's identities without the text of any file" \
	"v1|exit|router.lua|NYIBC|o:0 v1|exit|router.lua|NYIBC|o:1 v1|start|router.lua|NYIBC|o:0" \
	"$(tr -d '\r' < "$TMP/amb-out/findings.csv" | grep -o '"\?v1|[a-z]*|router\.lua|[^,"]*' | tr -d '"' | sort | tr '\n' ' ' | sed 's/ $//')"
check "ambiguous: router.lua's abort sites without a fingerprint, json.lua's with" "0 0" \
	"$(tr -d '\r' < "$TMP/amb-out/gen-1-abort-sites.csv" | awk -F, '$1 == "router.lua" && $NF != ""' | wc -l) $(tr -d '\r' < "$TMP/amb-out/gen-1-abort-sites.csv" | awk -F, '$1 == "json.lua" && $NF == ""' | wc -l)"
check "ambiguous: source.txt says so, and reads none of them" \
	"== 2 router.lua (ambiguous: 3 files of that name under a --source-root match it equally; none is read: give the directory that holds it as an earlier --source-root)" \
	"$(grep '^== [0-9]* router\.lua' "$TMP/amb-out/source.txt")"
(cd "$AMB" && $DA -q --strict --views $AMB_VIEWS --dump "$SAMPLES/shop-regressed.dump" \
	--source-root lua/shop-regressed --source-root . --out-dir "$TMP/amb-out2" --annotate github) \
	> "$TMP/amb2.ann" 2> "$TMP/amb2.err"
check "the program's directory first: exit 0, no warning" "0 " "$? $(cat "$TMP/amb2.err")"
check "the program's directory first: router.lua's findings on its file" "3" \
	"$(grep -c '^lua/shop-regressed/router\.lua:[0-9]*:1: ' "$TMP/amb-out2/problems.txt")"
check "the program's directory first: the identity has router.lua:35's text" \
	"S:$(sed -n 35p "$AMB/lua/shop-regressed/router.lua" | tr -s ' \t' '  ' | sed 's/^ //; s/ $//')#0" \
	"$(tr -d '\r' < "$TMP/amb-out2/findings.csv" | awk -F, '$3 == "router.lua" && $4 == 35' | grep -o 'S:[^|]*#[0-9]*')"

# ---- GitHub annotations ------------------------------------------------
for c in shop names costly baselined; do
	eval "dir=\$DIR_$c"
	case $c in
	shop) set -- --dump ../../shop.dump --profile ../../shop-Gvl.prof ;;
	baselined) set -- --dump ../../shop.dump --profile ../../shop-Gvl.prof --baseline "$TMP/two.baseline" ;;
	names) set -- --dump ci-names.dump --source-root lua ;;
	costly) set -- --dump costly.dump --profile costly-Gvl.prof --source-root lua ;;
	esac
	(cd "$dir" && $DA -q --annotate github --out-dir "$TMP/ann-$c" "$@") > "$TMP/$c.ann" 2> /dev/null
	check "$c: --annotate github: exit 0" "0" "$?"
	node "$CI/annotations.mjs" "$TMP/$c.ann" "$TMP/$c/findings.sarif" > "$TMP/$c.annout" 2>&1
	check "$c: annotations read as GitHub reads them, = findings.sarif" "0" "$?" 
	check "$c: one annotation per finding not baselined" \
		"annotations: checked $(grep -c '"baseline_reason":null' "$TMP/$c.findings") lines" "$(tail -n 1 "$TMP/$c.annout")"
done
check "names: a file with ':' and ',' escaped in file=" "1" \
	"$(grep -c '^::warning file=lua/ci-names/a%3Ab%2C c\.lua,line=4,endLine=7,title=DA203 closure-in-loop::' "$TMP/names.ann")"
check "names: '%' and a newline escaped in the message" "1" \
	"$(grep -c '^::warning title=DA203 closure-in-loop::"100%25,%0Aa:b":2: aborting-start' "$TMP/names.ann")"
check "names: '%' escaped in file=" "1" "$(grep -c '^::warning file=lua/ci-names/50%25%2Coff\.lua,line=4,' "$TMP/names.ann")"
check "shop: usually harmless findings are notices" \
	"$(jq -r 'select(.severity == "harmless") | .id' "$TMP/shop.findings" | wc -l)" "$(grep -c '^::notice ' "$TMP/shop.ann")"

# --annotate github on a comparison: the gate of README on the shop's
# fix and regression (the runs of tests/cli/gate.sh's scenario): each
# new finding of NEW, an error for those that fail a rule, run where the
# files are.
for n in shop shop-fixed shop-regressed; do
	(cd "$SAMPLES/lua/$n" && $DA -q --dump ../../$n.dump --profile ../../$n-Gvl.prof --source-root . \
		--out-dir "$TMP/g-$n") 2> /dev/null
done
(cd "$SAMPLES/lua/shop-regressed" && $DA --compare "$TMP/g-shop-fixed" "$TMP/g-shop-regressed" \
	--fail-on new-sites,new-reasons --annotate github) > "$TMP/reg.out" 2> "$TMP/reg.err"
check "regression: --compare --annotate github exits 1 (the gate fails)" "1" "$?"
grep '^::' "$TMP/reg.out" > "$TMP/reg.ann"
check "regression: the report first, then the annotations" "$(grep -c . "$TMP/reg.out")" \
	"$(($(sed -n '/^::/q;p' "$TMP/reg.out" | grep -c .) + $(wc -l < "$TMP/reg.ann")))"
node "$CI/annotations.mjs" "$TMP/reg.ann" > "$TMP/reg.dec" 2>&1
check "regression: the annotations read as GitHub reads them" "0" "$?"
check "regression: an error per new abort site that fails new-sites, a notice per new harmless one" \
	"error router.lua:35-47 DA203 closure-in-loop
error router.lua:37-43 DA203 closure-in-loop
error router.lua:34-47 DA203 closure-in-loop
error template.lua:13-14 DA119 return-to-lower-frame
notice app.lua:95-100 DA110 inner-loop
notice json.lua:40-45 DA109 leaving-loop
notice json.lua:37 DA109 leaving-loop
annotations: checked 7 lines" "$(cat "$TMP/reg.dec")"
check "regression: the errors are the FAIL line's new sites" \
	"router.lua:35-47 given-up-exit, NYI: bytecode FNEW; router.lua:37-43 aborting-loop, NYI: bytecode FNEW; router.lua:34-47 blacklisted-stitch, NYI: bytecode FNEW; template.lua:13-14 blacklisted-stitch, NYI: return to lower frame" \
	"$(sed -n 's/^FAIL: new-sites: 4 new abort sites (costly or worth a look): //p' "$TMP/reg.out")"
check "regression: an error says the rule it fails" "4" "$(grep -c '^::error .*It fails --fail-on new-sites\.$' "$TMP/reg.ann")"
(cd "$SAMPLES/lua/shop-fixed" && $DA --compare "$TMP/g-shop" "$TMP/g-shop-fixed" \
	--fail-on new-sites,new-reasons --annotate github) > "$TMP/fix.out" 2> /dev/null
check "the fix: --compare --annotate github exits 0" "0" "$?"
check "the fix: no error, a notice per new finding (5, usually harmless)" "0 5 5" \
	"$(grep -c '^::error' "$TMP/fix.out") $(grep -c '^::notice' "$TMP/fix.out") $(grep -c '^    new    harmless' "$TMP/fix.out")"
# A baseline accepting one of the regression's new sites: no annotation
# for it; the others still fail.
(cd "$SAMPLES/lua/shop-regressed" && $DA -q --compare "$TMP/g-shop-fixed" "$TMP/g-shop-regressed" \
	--write-baseline "$TMP/reg-all.baseline") > /dev/null 2>&1
awk -v RS= -v ORS='\n\n' 'NR == 1 || /place: router\.lua:35-47(\n|$)/' "$TMP/reg-all.baseline" > "$TMP/reg-one.baseline"
check "regression: a baseline of one entry" "1" "$(grep -c '^finding ' "$TMP/reg-one.baseline")"
(cd "$SAMPLES/lua/shop-regressed" && $DA --compare "$TMP/g-shop-fixed" "$TMP/g-shop-regressed" \
	--fail-on new-sites,new-reasons --annotate github --baseline "$TMP/reg-one.baseline") > "$TMP/regb.out" 2> /dev/null
check "regression with a baseline: the accepted site has no annotation" "0 3" \
	"$(grep -c '^::.*file=router.lua,line=35,' "$TMP/regb.out") $(grep -c '^::error' "$TMP/regb.out")"
$DA --compare "$TMP/g-shop" "$TMP/g-shop-fixed" --json --annotate github > /dev/null 2> "$TMP/err"
check "--json with --annotate: exit 1" "1" "$?"
check "--json with --annotate: the message" \
	"dumpanalyze: --json and --annotate both print on standard output: run them apart" "$(cat "$TMP/err")"

# ---- GitLab's Code Quality report ---------------------------------------
for c in $CASES; do
	"$BIN/ajv" validate --spec=draft7 -s "$CI/codequality.schema.json" -d "$TMP/$c/gl-code-quality-report.json" \
		> "$TMP/$c.ajv" 2>&1
	check "$c: gl-code-quality-report.json has GitLab's documented fields (ajv)" "0" "$?"
	check "$c: an issue per finding: fingerprint = ID, line = LINE" \
		"$(jq -r 'select(.baseline_reason == null) | .id + " " + (.line // 1 | tostring)' "$TMP/$c.findings")" \
		"$(jq -r '.[] | .fingerprint + " " + (.location.lines.begin | tostring)' "$TMP/$c/gl-code-quality-report.json")"
done
check "shop: severities: costly major, worth a look minor, harmless info" \
	"$(jq -r '.severity | sub("costly"; "major") | sub("worth-a-look"; "minor") | sub("harmless"; "info")' "$TMP/shop.findings")" \
	"$(jq -r '.[].severity' "$TMP/shop/gl-code-quality-report.json")"
check "names: paths from the current directory, chunks by name" \
	'["\"100%,\na:b\"","50% off, then: more","lua/ci-names.lua","lua/ci-names/50%,off.lua","lua/ci-names/a:b, c.lua"]' \
	"$(jq -c '[.[].location.path] | sort' "$TMP/names/gl-code-quality-report.json")"

# ---- usage ---------------------------------------------------------------
$DA --format=xml --dump "$SAMPLES/flush.dump" --out-dir "$TMP/x" > /dev/null 2> "$TMP/err"
check "--format=xml: exit 1" "1" "$?"
check "--format=xml: the message" "dumpanalyze: --format wants summary or gcc, not 'xml'" "$(cat "$TMP/err")"
$DA --annotate gitlab --dump "$SAMPLES/flush.dump" --out-dir "$TMP/x" > /dev/null 2> "$TMP/err"
check "--annotate gitlab: exit 1" "1" "$?"
check "--annotate gitlab: the message" "dumpanalyze: --annotate wants github, not 'gitlab'" "$(cat "$TMP/err")"
$DA --format=gcc --dump "$SAMPLES/flush.dump" --dump "$SAMPLES/rsx.dump" --out-dir "$TMP/x" > /dev/null 2> "$TMP/err"
check "--format=gcc with two dumps: exit 1" "1" "$?"
$DA --format=gcc --compare "$TMP/shop" "$TMP/shop2" > /dev/null 2> "$TMP/err"
check "--format=gcc with --compare: exit 1" "1" "$?"
check "nothing was written for a usage error" "no" "$([ -e "$TMP/x" ] && echo yes || echo no)"

# ---- samples/ci: the GitHub workflow and the GitLab job ----------------
node "$CI/ciconfig.mjs" "$TOP/samples/ci/github-workflow.yml" "$TOP/samples/ci/gitlab-ci.yml" \
	> "$TMP/cmds" 2> "$TMP/cierr"
check "samples/ci: both parse as YAML, upload what their runs write" "0" "$?"
check "samples/ci: the dumpanalyze commands found" "7" "$(wc -l < "$TMP/cmds")"
$DA --help > "$TMP/help"
opts=$(sed 's/\$baseline/--baseline jit.baseline/' "$TMP/cmds" | tr ' ' '\n' | grep '^--' | sed 's/=.*//' | sort -u)
n=0 bad=
for o in $opts; do
	n=$((n + 1))
	grep -q -- "^ *\(-., \)\?$o\( \|$\)" "$TMP/help" || bad="$bad $o"
done
check "samples/ci: every option they use exists" "" "$bad"
ran "options checked" "$n"
views=$(grep -o -- '--views [^ ]*' "$TMP/cmds" | cut -d' ' -f2 | tr ',' '\n' | sort -u)
$DA --views list > "$TMP/views"
n=0 bad=
for v in $views; do
	n=$((n + 1))
	[ "$v" = default ] || grep -q "^ *$v " "$TMP/views" || bad="$bad $v"
done
check "samples/ci: every view they ask for exists" "" "$bad"
ran "views checked" "$n"
for f in github-workflow.yml gitlab-ci.yml; do
	sed -n "/^<!-- samples\/ci\/$f -->/,/^\`\`\`\$/p" "$TOP/docs/ci.md" | sed '1,2d;$d' > "$TMP/readme-$f"
	check_file "docs/ci.md shows samples/ci/$f as it is" "$TOP/samples/ci/$f" "$TMP/readme-$f"
done

# ---- samples/ci's GitHub workflow, run in a repository -----------------
# Its analyse and compare steps as written (tests/ci/step.mjs), in a git
# repository whose Lua code is under src/ (the shop service: the base
# commit shop-fixed, the pull request shop-regressed), with dumpanalyze
# and a stand-in for luajit on PATH: the stand-in copies the dump real
# LuaJIT wrote of that code (samples/generate.sh), whose chunk names are
# base names ("router.lua"), as a program run from its own directory
# writes them.  The analyse step finds them under --source-root . and
# records their paths (findings.csv's PATH); the compare step, which has
# no --source-root, places its annotations by them.
W=$TMP/wf
mkdir -p "$W/bin" "$W/repo/src"
ln -s "$DA_BIN" "$W/bin/dumpanalyze"
{
	echo '#!/bin/sh'
	echo 'for a; do case $a in -jdump=+x,*) out=${a#-jdump=+x,} ;; esac; done'
	echo "if cmp -s src/router.lua '$SAMPLES/lua/shop-regressed/router.lua'; then"
	echo "	cp '$SAMPLES/shop-regressed.dump' \"\$out\""
	echo 'else'
	echo "	cp '$SAMPLES/shop-fixed.dump' \"\$out\""
	echo 'fi'
} > "$W/bin/luajit"
chmod +x "$W/bin/luajit"
G="git -C $W/repo -c user.name=t -c user.email=t@example.org -c init.defaultBranch=main"
$G init -q
cp "$SAMPLES"/lua/shop-fixed/*.lua "$W/repo/src/"
$G add -A && $G commit -qm base
BASE_SHA=$($G rev-parse HEAD)
cp "$SAMPLES"/lua/shop-regressed/*.lua "$W/repo/src/"
$G commit -qam regression
check "workflow: the repository has its two commits" "2" "$($G rev-list --count HEAD)"
node "$CI/step.mjs" "$TOP/samples/ci/github-workflow.yml" "Run under -jdump and analyse" > "$W/analyse.sh"
check "workflow: its analyse step" "0" "$?"
node "$CI/step.mjs" "$TOP/samples/ci/github-workflow.yml" "Compare with the base branch, annotate, gate" |
	sed "s/\${{ github.event.pull_request.base.sha }}/$BASE_SHA/" > "$W/compare.sh"
check "workflow: its compare step, the base commit put in" "1" "$(grep -c "$BASE_SHA" "$W/compare.sh")"
(cd "$W/repo" && PATH=$W/bin:$PATH GITHUB_WORKSPACE=$W/repo PROGRAM=app.lua sh -e "$W/analyse.sh") \
	> "$W/analyse.out" 2> "$W/analyse.err"
check "workflow: the analyse step exits 0" "0" "$?"
check "workflow: the analyse step records where it read router.lua" "src/router.lua" \
	"$(tr -d '\r' < "$W/repo/jit/new/findings.csv" | awk -F, 'NR > 1 && $3 == "router.lua" { print $NF }' | sort -u)"
(cd "$W/repo" && PATH=$W/bin:$PATH GITHUB_WORKSPACE=$W/repo PROGRAM=app.lua sh -e "$W/compare.sh") \
	> "$W/cmp.out" 2> "$W/cmp.err"
check "workflow: the gate fails the regression (exit 1)" "1" "$?"
grep '^::' "$W/cmp.out" > "$W/cmp.ann"
node "$CI/annotations.mjs" "$W/cmp.ann" > "$W/cmp.dec" 2>&1
check "workflow: the annotations sit on src/, read as GitHub reads them" \
	"error src/router.lua:35-47 DA203 closure-in-loop
error src/router.lua:34-47 DA203 closure-in-loop
error src/router.lua:37-43 DA203 closure-in-loop
error src/template.lua:13-14 DA119 return-to-lower-frame
notice src/app.lua:95-100 DA110 inner-loop
notice src/json.lua:40-45 DA109 leaving-loop
notice src/json.lua:37 DA109 leaving-loop
annotations: checked 7 lines" "$(cat "$W/cmp.dec")"
check "workflow: the first error, whole" \
	"::error file=src/router.lua,line=35,endLine=47,title=DA203 closure-in-loop::new: given-up-exit (costly): NYI: bytecode FNEW in 4 of 4 aborted attempts. router.lua:40 creates a closure each time the loop at router.lua:37 runs: create it once outside the loop (or pass its upvalues as arguments). It fails --fail-on new-sites." \
	"$(grep -m1 '^::error' "$W/cmp.ann")"
(cd / && $DA --compare "$W/repo/jit/base" "$W/repo/jit/new" --fail-on new-sites,new-reasons \
	--annotate github) > "$W/far.out" 2> /dev/null
check "workflow: compared away from the source tree, the same annotations" "$(cat "$W/cmp.ann")" \
	"$(grep '^::' "$W/far.out")"
# A run of 0.4.0 had no PATH: its findings are looked up again from the
# current directory, as before (without --source-root: no file=).
mkdir "$W/old" && cp -r "$W/repo/jit/new" "$W/old/new"
tr -d '\r' < "$W/repo/jit/new/findings.csv" | awk -F, -v OFS=, '{ NF = NF - 1; printf "%s\r\n", $0 }' \
	> "$W/old/new/findings.csv"
check "workflow: findings.csv cut to 0.4.0's columns" "PROFILE" \
	"$(head -n 1 "$W/old/new/findings.csv" | tr -d '\r' | awk -F, '{ print $NF }')"
(cd "$W/repo" && $DA --compare jit/base "$W/old/new" --annotate github) > "$W/old.out" 2> /dev/null
check "workflow: a run without PATH: annotations without file=, as before" "0 7" \
	"$(grep -c '^::[a-z]* file=' "$W/old.out") $(grep -c '^::' "$W/old.out")"
(cd "$W/repo" && $DA --compare jit/base "$W/old/new" --fail-on new-sites,new-reasons --annotate github \
	--source-root .) > "$W/old2.out" 2> /dev/null
check "workflow: ... and with --source-root, found again from here" "$(cat "$W/cmp.ann")" \
	"$(grep '^::' "$W/old2.out")"

finish
