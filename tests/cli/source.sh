#!/bin/sh
# source.sh DUMPANALYZE — the source view and the files roll-up on real
# samples: samples/lua/annotated.lua with its dumps (Debian luajit and
# OpenResty luajit2) and folded-stack profile (samples/generate.sh made
# them), costly.dump, templates.dump.xz (8000 tpl-N chunks), hostile.dump;
# every number against the dump's or the profile's own text; files read
# only under the current directory and --source-root.
SUITE=source
. "$(dirname "$0")/setup.sh"

D=$SAMPLES/annotated.dump
cd "$SAMPLES" || exit 1

# ---- the story lines = the dump's start and abort lines -----------------
$DA -q --views source,blacklist --dump "$D" --source-root lua --out-dir "$TMP/a" 2> "$TMP/err"
check "annotated: exit status" 0 $?
check "annotated: files" "gen-1-blacklist.csv manifest.json source-1.html source-index.html source.txt" \
	"$(ls "$TMP/a" | tr '\n' ' ' | sed 's/ $//')"
check "annotated: no message" "" "$(cat "$TMP/err")"
want=$(grep -E '^---- TRACE [0-9]+ (start|abort) ([0-9]+/[0-9a-z]+ )?annotated\.lua:[0-9]+' "$D" |
	sed 's/.*annotated\.lua:\([0-9]*\).*/\1/' | sort -n -u | tr '\n' ' ')
got=$(sed -n '/^== 1 annotated.lua/,$p' "$TMP/a/source.txt" | sed -n 's/^\*[ |] *\([0-9][0-9]*\).*/\1/p' | tr '\n' ' ')
check "annotated: lines marked * = the dump's start and abort lines of annotated.lua" "$want" "$got"
ran "annotated: story lines" "$(echo "$got" | wc -w)"
check "annotated: the file is found under --source-root as written" 1 \
	"$(grep -c '^== 1 annotated.lua: lua/annotated.lua$' "$TMP/a/source.txt")"
check "annotated: source line 21 shown as written" 1 \
	"$(grep -cF '*|    21      fs[i % 5 + 1] = function() return i end' "$TMP/a/source.txt")"
# Attempts started at line 20: their abort lines, by the start header of
# the same trace number before them.
set -- $(awk '/^---- TRACE [0-9]+ start/ { loc[$3] = $NF }
	/^---- TRACE [0-9]+ abort/ && loc[$3] == "annotated.lua:20" { n++; if (!f) f = NR; l = NR; r = $0 }
	END { sub(/.* -- /, "", r); print n, f, l }' "$D")
check "annotated: line 20's aborted attempts, first and last dump line" \
	"               > $1 aborted attempts started here: NYI: bytecode FNEW at annotated.lua:21 (first dump line $2, last dump line $3)" \
	"$(grep -F 'aborted attempts started here' "$TMP/a/source.txt" | grep -F "dump line $2,")"
first=$(grep -n '^---- TRACE [0-9]* abort annotated.lua:21 ' "$D" | head -n 1 | cut -d: -f1)
last=$(grep -n '^---- TRACE [0-9]* abort annotated.lua:21 ' "$D" | tail -n 1 | cut -d: -f1)
n=$(grep -c '^---- TRACE [0-9]* abort annotated.lua:21 -- NYI: bytecode 51' "$D")
check "annotated: aborts at line 21: count, first and last dump line" \
	"               > $n aborts here: NYI: bytecode FNEW (first dump line $first, last dump line $last)" \
	"$(grep -F 'aborts here: NYI: bytecode FNEW' "$TMP/a/source.txt")"
compiled=$(awk '/^---- TRACE [0-9]+ start/ { loc[$3] = $NF } /^---- TRACE [0-9]+ stop/ && loc[$3] ~ /^annotated\.lua:/ { n++ } END { print n }' "$D")
check "annotated: traces compiled in the file = stop lines of traces started there" \
	"  $n aborts, $(grep -c '^---- TRACE [0-9]* start .*annotated.lua:' "$D" | awk -v c="$compiled" '{ print $1 - c }') aborted attempts started, $compiled traces compiled, 1 likely blacklisted" \
	"$(sed -n '/^== 1 annotated.lua/{n;p;}' "$TMP/a/source.txt")"
check "annotated: likely blacklisted at the line the blacklist view names" \
	"$(grep '^annotated.lua,' "$TMP/a/gen-1-blacklist.csv" | tr -d '\r' | awk -F, '$7 == "no" { print $2 }')" \
	"$(awk '/^\*[ |] *[0-9]+ / { n = $0; sub(/^\*[ |] */, "", n); sub(/ .*/, "", n) } /> likely blacklisted \(/ { print n }' "$TMP/a/source.txt")"
# The side exit LuaJIT gave up on (its side traces' starts "P/E", their
# aborts, and the trace that then compiled there, "stop -> interpreter"):
# at its parent trace's start line, the last reason in its normal form
# like every other reason of the view (2.1's bytecode 51 is FNEW).
set -- $(awk '/^---- TRACE [0-9]+ start [0-9]+\/[0-9]+ / { side[$3] = $5; next }
	/^---- TRACE [0-9]+ start/ { side[$3] = ""; next }
	/^---- TRACE [0-9]+ abort/ && side[$3] != "" { n++; k = side[$3]; r = $0; sub(/.* -- /, "", r) }
	/^---- TRACE [0-9]+ stop -> interpreter$/ && side[$3] == k { stub = "stub" }
	END { split(k, pe, "/"); print pe[1], pe[2], n, stub, r }' "$D")
check "annotated: the dump's given-up exit: parent, exit, attempts, stub, last reason" \
	"1 3 4 stub NYI: bytecode 51" "$*"
check "annotated: the exit given up, its last reason in the normal form" \
	"               > likely given up: exit $2 of gen 1 trace $1 ($3 aborted attempts, last: NYI: bytecode FNEW; now an interpreter stub)" \
	"$(grep -F 'likely given up: exit' "$TMP/a/source.txt")"
check "annotated: ... under the line its parent trace starts at" \
	"$(awk -v t="$1" '$1 == "----" && $3 == t && $4 == "start" { sub(/.*:/, "", $5); print $5; exit }' "$D")" \
	"$(awk '/^\*[ |] *[0-9]+ / { n = $0; sub(/^\*[ |] */, "", n); sub(/ .*/, "", n) } /> likely given up: exit/ { print n }' "$TMP/a/source.txt")"
check "annotated: the page says the same, no reason in its written form" "1 0" \
	"$(grep -c "likely given up: exit $2 of <a [^>]*>gen 1 trace $1</a> ($3 aborted attempts, last: NYI: bytecode FNEW; now an interpreter stub)" "$TMP/a/source-1.html") $(grep -c 'NYI: bytecode [0-9]' "$TMP/a/source-1.html")"
check "annotated: Debian luajit: says coverage is not known" 1 \
	"$(grep -c 'this LuaJIT writes no "(file:line)" after bytecode lines' "$TMP/a/source.txt")"
check "annotated: no coverage line without (file:line)" 0 "$(grep -c 'lines in compiled traces' "$TMP/a/source.txt")"
check "annotated: the file says which coverage it has" \
	'  coverage: trace starts, aborts and links only (no "(file:line)" in this dump)' \
	"$(sed -n '/^== 1 annotated.lua/{n;n;p;}' "$TMP/a/source.txt")"
# Trace links: line 14's compiled trace is the one the main loop's trace
# links to (stop -> N).
t=$(awk '/^---- TRACE [0-9]+ start annotated\.lua:14$/ { print $3; exit }' "$D")
check "annotated: line 14 names its trace" 1 "$(grep -c "^               > 1 compiled trace starts here: gen 1 trace $t\$" "$TMP/a/source.txt")"
check "annotated: a trace links to line 14's trace" "$(grep -c "^---- TRACE [0-9]* stop -> $t\$" "$D")" \
	"$(sed -n 's/^               > \([0-9]*\) traces\{0,1\} links\{0,1\} to a trace starting here.*/\1/p' "$TMP/a/source.txt")"

# Side exits and stitches LuaJIT likely gave up on: at the line their
# parent trace starts, as many as the blacklist view's rows for them.
$DA -q --views source,blacklist --dump "$SAMPLES/maxtrace.dump" --out-dir "$TMP/mx" 2> "$TMP/err"
want=$(cat "$TMP"/mx/gen-*-blacklist.csv | tr -d '\r' | awk -F, '$4 != "" && $4 != "EXIT" && $7 != "yes"' | wc -l)
check "maxtrace: exits and stitches given up = the blacklist view's rows for them" "$want" \
	"$(grep 'likely given up: exit\|likely blacklisted: the stitch after' "$TMP/mx/source.txt" |
		awk '{ n++; if (match($0, /and [0-9]+ more$/)) { split(substr($0, RSTART), a, " "); n += a[2] } } END { print n }')"
ran "maxtrace: exits given up" "$want"

# ---- the same twice, in another locale ----------------------------------
LC_ALL=C.UTF-8 $DA -q --views source,blacklist --dump "$D" --source-root lua --out-dir "$TMP/a2" 2> /dev/null
same=0
for f in source.txt source-1.html source-index.html; do
	cmp -s "$TMP/a/$f" "$TMP/a2/$f" && same=$((same + 1))
done
check "annotated: the same bytes in another locale (3 files)" 3 "$same"

# ---- the page -------------------------------------------------------------
P=$TMP/a/source-1.html
check "page: one row per source line, anchored" "$(wc -l < lua/annotated.lua)" "$(grep -c '<tr id="L[0-9]*"' "$P")"
# twice: line 21's aborts and line 20's attempts (the same first abort)
check "page: line 21 links to its aborts' attempts" 2 \
	"$(grep -c "href=\"gen-1-bushes.html#abort-$first\">dump line $first</a>" "$P")"
check "page: line 14 links to its trace" 1 "$(grep -c "href=\"gen-1-bushes.html#trace-$t\">gen 1 trace $t</a>" "$P")"
check "page: attempts that aborted at line 21 link to its row (lines 15, 18, 20, 27)" 4 \
	"$(grep -c 'href="#L21">annotated.lua:21</a>' "$P")"
check "page: the comment's markup stays text" 0 "$(grep -c "<script>document.title" "$P")"
check "page: ... escaped" 1 "$(grep -c "&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;script&gt;document.title=&#39;pwned by a comment&#39;&lt;/script&gt;" "$P")"
check "page: the string's markup stays text" 1 "$(grep -c "&lt;img src=x onerror=alert(&#39;annotated&#39;)&gt; &amp; &lt;/script&gt;" "$P")"
check "page: no script at all" 0 "$(grep -ci '<script' "$P")"
check "index: links the page" 1 "$(grep -c '<a href="source-1.html">annotated.lua</a>' "$TMP/a/source-index.html")"

# ---- luajit2: coverage = the (file:line) suffixes of compiled traces ------
L2=$SAMPLES/annotated-luajit2.dump
$DA -q --views source --dump "$L2" --source-root lua --out-dir "$TMP/l2" 2> "$TMP/err"
check "luajit2: exit status" 0 $?
want=$(awk '
	/^---- TRACE [0-9]+ start/ { bc = 1; buf = ""; next }
	/^---- TRACE [0-9]+ stop/ { n = split(buf, a, " "); for (i = 1; i <= n; i++) seen[a[i]] = 1; bc = 0; next }
	/^---- TRACE/ { bc = 0; next }
	bc && /\(annotated\.lua:[0-9]+\)$/ { l = $NF; gsub(/[^0-9]/, "", l); buf = buf " " l }
	END { for (l in seen) print l }' "$L2" | sort -n | awk '
	NR == 1 { from = to = $1; next }
	$1 == to + 1 { to = $1; next }
	{ out = out sep (from == to ? from : from "-" to); sep = ", "; from = to = $1 }
	END { if (NR) out = out sep (from == to ? from : from "-" to); print "  lines in compiled traces: " out }')
check "luajit2: covered lines = the (annotated.lua:N) suffixes of compiled traces" "$want" \
	"$(sed -n '/^== 1 annotated.lua/,$p' "$TMP/l2/source.txt" | grep '^  lines in compiled traces')"
ran "luajit2: covered lines" "$(grep -c '^[0-9]\{4\} .*(annotated\.lua:[0-9]*)$' "$L2")"
check "luajit2: says where coverage comes from" 1 "$(grep -c 'lines end in "(file:line)": OpenResty luajit2' "$TMP/l2/source.txt")"
check "luajit2: the page marks covered lines" "$(echo "$want" | sed 's/.*: //' | tr ',' '\n' | awk -F- '{ n += ($2 ? $2 - $1 + 1 : 1) } END { print n }')" \
	"$(grep -c '<tr id="L[0-9]*" class="[a-z0-9 ]*cov[ "]' "$TMP/l2/source-1.html")"

# ---- time up the call stack ---------------------------------------------
G=$SAMPLES/annotated-Gvl.prof
$DA -q --views source,profile,summary --dump "$D" --profile "$G" --source-root lua --out-dir "$TMP/g" 2> "$TMP/err"
check "callees: exit status" 0 $?
# Interpreted stacks whose deepest failed frame lies in the blacklisted
# loop (the findings' extent, annotated.lua:20-23: the innermost failed
# one) and that line 28 calls: each sample goes to one caller, the nearest
# frame above the failed one (all in one file here), and names the loop's
# finding, as the findings' cost charges it.
callers() {
	awk -v caller="$1" '/^[A-Z]/ { interp = ($1 == "Interpreted") ; next }
	interp { k = split($1, f, ";"); d = 0
		for (i = k; i > 0 && !d; i--) if (f[i] ~ /^annotated\.lua:2[0-3]$/) d = i
		if (d > 1 && f[d - 1] == caller) t += $NF }
	END { print t }' "$G"
}
n=$(callers annotated.lua:28)
check "callees: line 28 gets the interpreted samples of its failed callees (48 + 47 + 5)" 100 "$n"
check "callees: ... said at line 28, naming the loop's finding" \
	"               > $n interpreted samples in callees that failed to compile (NYI: bytecode FNEW, annotated.lua:20)" \
	"$(sed -n '/^\*|    28 /,/^.|    29 /p' "$TMP/g/source.txt" | grep 'in callees that failed')"
ran "callees: samples counted" "$n"
check "callees: profile-callees.csv rows: line 28, and line 22 calling the closure of line 21" \
	"annotated.lua,28,$n,annotated.lua,20,NYI: bytecode FNEW|annotated.lua,22,$(callers annotated.lua:22),annotated.lua,20,NYI: bytecode FNEW" \
	"$(tr -d '\r' < "$TMP/g/profile-callees.csv" | grep '^annotated.lua,2[28],' | paste -sd'|')"

c=$(awk '/^[A-Z]/ { interp = ($1 == "Interpreted"); next } interp && / *;annotated\.lua:21 [0-9]+$/ { t += $NF } END { print t }' "$G")
check "callees: line 21's own interpreted samples = the profile's leaf frames there" 1 \
	"$(sed -n '/^\*|    21 /,/^\*|    22 /p' "$TMP/g/source.txt" | grep -c "samples: $c interpreted")"
$DA -q --views profile --dump "$SAMPLES/costly.dump" --profile "$SAMPLES/costly-lvr.prof" --out-dir "$TMP/nostack" 2> /dev/null
check "callees: no profile-callees.csv without folded stacks" "" "$(ls "$TMP/nostack" | grep callees)"

# A dump with no failed line against folded stacks (the fuzzer's find).
$DA -q --views source,profile,summary --dump "$SAMPLES/reuse.dump" --profile "$G" --out-dir "$TMP/nofail" 2> "$TMP/err"
check "callees: no failed line in the dump: exit status, header only" "0 1" \
	"$? $(wc -l < "$TMP/nofail/profile-callees.csv")"

# ---- roll-ups: tpl-1 ... tpl-8000 are one family --------------------------
X=$TMP/templates.dump
xz -dc "$SAMPLES/templates.dump.xz" > "$X"
$DA -q --views files,summary,source --dump "$X" --out-dir "$TMP/t" 2> "$TMP/err"
check "templates: exit status" 0 $?
chunks=$(grep -E '^---- TRACE [0-9]+ (start|abort) ([0-9]+/[0-9a-z]+ )?tpl-[0-9]+:' "$X" | sed 's/.* \(tpl-[0-9]*\):.*/\1/' | sort -u | wc -l)
aborts=$(grep -c '^---- TRACE [0-9]* abort tpl-[0-9]*:' "$X")
check "templates: files.csv: one row for the family, its chunks and aborts" "tpl-*,family,$chunks,$aborts" \
	"$(grep '^tpl-' "$TMP/t/files.csv" | tr -d '\r' | cut -d, -f1-3,5)"
check "templates: files.csv: two rows" 3 "$(wc -l < "$TMP/t/files.csv")"
n=$(grep -c '^---- TRACE [0-9]* abort tpl-[0-9]*:10 -- NYI: bytecode 51$' "$X")
k=$(grep '^---- TRACE [0-9]* abort tpl-[0-9]*:10 -- NYI: bytecode 51$' "$X" | sed 's/.* abort \(tpl-[0-9]*\):.*/\1/' | sort -u | wc -l)
check "templates: summary's top location is the family's line" "$(printf '  %8d      tpl-*:10  (%d chunks)' "$n" "$k")" \
	"$(grep -F 'tpl-*:10' "$TMP/t/summary.txt")"
check "templates: summary's files list: one row for the family" 1 "$(grep -c "^ *$aborts *[0-9]*  tpl-\*  ($chunks chunks)\$" "$TMP/t/summary.txt")"
check "templates: no single tpl-N in the summary's locations and files" 0 \
	"$(sed -n '/^top abort reasons/,/^largest bushes/p' "$TMP/t/summary.txt" | grep -v 'failed at' | grep -c 'tpl-[0-9]')"
check "templates: source.txt ranks the family once" 1 "$(grep -c "^ *1 *$aborts .*  tpl-\*  (a family of $chunks chunks)\$" "$TMP/t/source.txt")"
check "templates: source.txt sums the family's line 10 over its chunks" \
	"      10  > $n aborts here: NYI: bytecode FNEW (in $k chunks)" "$(grep '^      10  > ' "$TMP/t/source.txt")"
check "templates: source.txt shows 3 of its chunks" 3 "$(grep -c '^== 1\.[0-9] tpl-[0-9]* ' "$TMP/t/source.txt")"
check "templates: the index has the family's row, not 8000" 2 "$(grep -c '^<tr><td>' "$TMP/t/source-index.html")"

# ---- what is read, and what never --------------------------------------
mkdir -p "$TMP/cwd/sub/deeper"
ln -s /etc/passwd "$TMP/cwd/annotated.lua"
(cd "$TMP/cwd" && $DA -q --views source --dump "$D" --out-dir "$TMP/s1" 2> "$TMP/err")
check "symlink out of the current directory: not read" 1 "$(grep -c '^== 1 annotated.lua (not found' "$TMP/s1/source.txt")"
check "symlink: no page" "" "$(ls "$TMP/s1" | grep 'source-[0-9]')"
cp lua/annotated.lua "$TMP/cwd/sub/deeper/annotated.lua"
(cd "$TMP/cwd" && $DA -q --views source --dump "$D" --source-root sub --out-dir "$TMP/s2" 2> "$TMP/err")
check "found by base name below a root" 1 "$(grep -c '^== 1 annotated.lua: sub/deeper/annotated.lua$' "$TMP/s2/source.txt")"
# The dump is untrusted: the same dump naming other paths (its file name
# rewritten, the only edit).
sed 's|annotated\.lua:|/etc/passwd:|' "$D" > "$TMP/abs.dump"
$DA -q --views source --dump "$TMP/abs.dump" --out-dir "$TMP/s3" 2> "$TMP/err"
check "an absolute path outside: refused" 1 "$(grep -c '^== 1 /etc/passwd (refused' "$TMP/s3/source.txt")"
check "an absolute path outside: nothing of it in the output" 0 "$(cat "$TMP/s3"/* | grep -c '^root:')"
$DA -q --views source --dump "$TMP/abs.dump" --source-root /etc --out-dir "$TMP/s4" 2> "$TMP/err"
check "... read when the user names its directory" 1 "$(grep -c '^== 1 /etc/passwd: /etc/passwd$' "$TMP/s4/source.txt")"
sed 's|annotated\.lua:|../samples/lua/annotated.lua:|' "$D" > "$TMP/dots.dump"
(cd lua && $DA -q --views source --dump "$TMP/dots.dump" --out-dir "$TMP/s5" 2> "$TMP/err")
check "a .. component: refused, though the file exists" 1 "$(grep -c '^== 1 \.\./samples/lua/annotated.lua (refused' "$TMP/s5/source.txt")"
(cd lua && $DA -q --views source --dump "$TMP/dots.dump" --source-root . --out-dir "$TMP/s6" 2> "$TMP/err")
check "... but found by its base name under a root" 1 "$(grep -c '^== 1 \.\./samples/lua/annotated.lua: \./annotated.lua$' "$TMP/s6/source.txt")"

$DA -q --views source --dump "$D" --source-root "$TMP/no-such-dir" --out-dir "$TMP/s7" 2> "$TMP/err"
check "a --source-root that is no directory: usage error" "1 dumpanalyze: --source-root wants a directory, not '$TMP/no-such-dir'" \
	"$? $(cat "$TMP/err")"

# ---- hostile chunk names and no source ----------------------------------
$DA -q --views source,files --dump "$SAMPLES/hostile.dump" --out-dir "$TMP/h" 2> "$TMP/err"
check "hostile: exit status" 0 $?
check "hostile: files.csv kinds: the quoted name a string chunk, the others files" \
	'"""<svg onload=alert(1)>""",string chunk|"</script><b>&amp;""'"'"'",file|<img src=x onerror=alert(1)>,file|<script>document.title='"'"'pwned'"'"'</script>,file' \
	"$(tail -n +2 "$TMP/h/files.csv" | tr -d '\r' | cut -d, -f1-2 | sort | paste -sd'|')"
check "hostile: chunk names escaped in the index" 0 "$(grep -c '<script>document\|<img src=x\|<svg onload' "$TMP/h/source-index.html")"
check "hostile: ... and there" 1 "$(grep -c '&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;' "$TMP/h/source-index.html")"
check "hostile: listed as no files (4 names)" 4 \
	"$(sed -n '/^files, ranked/,/^$/p' "$TMP/h/source.txt" | grep -c '(not found)$\|(string chunk)$')"
$DA -q --views source --dump "$SAMPLES/costly.dump" --out-dir "$TMP/c" 2> "$TMP/err"
check "costly without --source-root: penlight's files are not found, costly.lua neither (it is in lua/)" 7 \
	"$(sed -n '/^files, ranked/,/^$/p' "$TMP/c/source.txt" | grep -c '(not found)$')"

# ---- secrets: no path through a hidden component ----------------------
# samples/secrets.dump (lua/secrets.lua) names .git/config:2 (where
# actions/checkout keeps the job token's header), .env:2, .ssh/id_rsa:2,
# src/.hidden/app.lua:2, cfg/config:2 (cfg a link to .git), /etc/passwd:2
# and an ordinary src/app.lua:2.  In a directory that has them all, each
# secret file's line 2 holding a marker: no output file holds a marker,
# a warning per hidden name says why it was not read, the ordinary file
# is read; with .git itself given as a --source-root, its files are.
S=$TMP/secrets
mkdir -p "$S/.git" "$S/.ssh" "$S/src/.hidden"
printf '[http]\n\textraheader = AUTHORIZATION: basic SECRET-MARKER-git\n' > "$S/.git/config"
printf 'A=1\nTOKEN=SECRET-MARKER-env\n' > "$S/.env"
printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET-MARKER-ssh\n' > "$S/.ssh/id_rsa"
printf 'local n=0\nlocal s="SECRET-MARKER-hidden"\n' > "$S/src/.hidden/app.lua"
ln -s .git "$S/cfg"
printf 'local n=0\nfor i=1,200 do local g=function() end n=n+1 end return n -- ordinary\n' > "$S/src/app.lua"
(cd "$S" && $DA -q --views all --dump "$SAMPLES/secrets.dump" --out-dir "$TMP/sec" \
	--annotate github) > "$TMP/sec.ann" 2> "$TMP/sec.err"
check "secrets: exit 0" 0 $?
check "secrets: no marker in any output file, the annotations or messages" "" \
	"$(grep -rl 'SECRET-MARKER' "$TMP/sec" "$TMP/sec.ann" "$TMP/sec.err")"
why=": not read: the path goes through a hidden file or directory (a name starting with '.', such as .git, .ssh or .env), which a dump's names never open; give that directory itself as a source root to read it"
check "secrets: a warning per hidden name, once, saying why" \
	"$SAMPLES/secrets.dump: warning: .env$why
$SAMPLES/secrets.dump: warning: .git/config$why
$SAMPLES/secrets.dump: warning: .ssh/id_rsa$why
$SAMPLES/secrets.dump: warning: cfg/config$why
$SAMPLES/secrets.dump: warning: src/.hidden/app.lua$why" "$(grep -v ': warning: sources not found: ' "$TMP/sec.err")"
check "secrets: source.txt: the hidden ones hidden, /etc/passwd refused, src/app.lua read" \
	"== 1 .env (hidden: through a hidden directory or file, never read unless given as a --source-root)
== 2 .git/config (hidden: through a hidden directory or file, never read unless given as a --source-root)
== 3 .ssh/id_rsa (hidden: through a hidden directory or file, never read unless given as a --source-root)
== 4 /etc/passwd (refused: outside the current directory and the source roots)
== 5 cfg/config (hidden: through a hidden directory or file, never read unless given as a --source-root)
== 6 src/app.lua: src/app.lua
== 7 src/.hidden/app.lua (hidden: through a hidden directory or file, never read unless given as a --source-root)" \
	"$(grep '^== ' "$TMP/sec/source.txt")"
check "secrets: the ordinary file's line is read (its identity has its text)" 1 \
	"$(grep -c 'src/app.lua|.*S:for i=1,200 do local g=function() end n=n+1 end return n -- ordinary' "$TMP/sec/findings.csv")"
# As the source root's own directory: the same refusals by base name.
(cd "$S" && $DA -q --views source,findings --dump "$SAMPLES/secrets.dump" --source-root . \
	--out-dir "$TMP/sec2") 2> /dev/null
check "secrets: --source-root . reads no marker (by base name neither)" "" \
	"$(grep -rl 'SECRET-MARKER' "$TMP/sec2")"
# .git given as a root: the user said to look there.
(cd "$S" && $DA -q --views source,findings --dump "$SAMPLES/secrets.dump" --source-root .git \
	--out-dir "$TMP/sec3") 2> "$TMP/sec3.err"
check "secrets: --source-root .git: its config is read, the others are not" \
	"SECRET-MARKER-git" "$(grep -rho 'SECRET-MARKER-[a-z]*' "$TMP/sec3" | sort -u)"
check "secrets: --source-root .git: no warning for the names found there" \
	".env .ssh/id_rsa src/.hidden/app.lua" "$(grep -v ': warning: sources not found: ' "$TMP/sec3.err" | sed 's/^[^:]*: warning: \([^:]*\): not read.*/\1/' | paste -sd' ')"

# ---- attempts that start in many files and abort in another ------------
# tests/fuzz/regressions/starts-in-24-files.exit0 (samples/generate.sh
# manyfiles): the model once read the abort's file through a pointer its
# start file's entry had moved (issue 26).  Every file's aborts and
# aborted attempts = the dump's abort lines and the start lines before
# them, by file.
M=$TOP/tests/fuzz/regressions/starts-in-24-files.exit0
$DA -q --views source,files --dump "$M" --out-dir "$TMP/m" 2> "$TMP/err"
check "many start files: exit status" 0 $?
# (the chunks' files are in no source directory: said once, issue 36)
check "many start files: one message, the 24 files not found" \
	"1 (24 Lua files the findings name, in no source directory)" \
	"$(wc -l < "$TMP/err") $(grep -o '(24 Lua files[^)]*)' "$TMP/err")"
want=$(awk '/^---- TRACE [0-9]+ start/ { loc[$3] = $NF; next }
	/^---- TRACE [0-9]+ abort/ { split($5, a, ":"); ab[a[1]]++; split(loc[$3], s, ":"); at[s[1]]++; f[a[1]]; f[s[1]] }
	END { for (k in f) printf "%s %d %d\n", k, ab[k], at[k] }' "$M" | sort)
got=$(sed -n '/^files, ranked/,/^$/p' "$TMP/m/source.txt" | awk '$1 ~ /^[0-9]+$/ && $NF == "found)" { print $6, $2, $3 }' | sort)
check "many start files: aborts and attempts per file = the dump's" "$want" "$got"
ran "many start files: chunks (more than the 16 the array first holds)" "$(echo "$got" | grep -c '^chunk')"

# ---- a callee in a file named with a directory (issue 34) ---------------
# A folded stack that enters a chunk named with a '/' through a caller
# that aborts too: the callee's file is a base name inside the dump's
# name, which the source view once read as an interned string of its own
# (a length from the bytes before it: a read past the name, ASan's
# use-after-poison).  Hand-written: three dump lines, two profile lines.
printf -- '---- TRACE 1 start d1/app.lua:2\n---- TRACE 1 abort d1/app.lua:5 -- NYI: bytecode 50\n---- TRACE 9 abort x.lua:1 -- NYI: bytecode 51\n' > "$TMP/slash.dump"
printf 'Interpreted 50\n@0x1;x.lua:1;d1/app.lua:2;bcd.lua:3 50\n' > "$TMP/slash.prof"
mkdir -p "$TMP/slashsrc/d1"
printf 'local t = {}\nfor i = 1, 100 do\n  local x = i\n  t[i] = function() return x end\nend\n' > "$TMP/slashsrc/d1/app.lua"
printf 'return function() end\n' > "$TMP/slashsrc/x.lua"
(cd "$TMP/slashsrc" && $DA -q --views source,html --dump "$TMP/slash.dump" --profile "$TMP/slash.prof" --out-dir "$TMP/slash") 2> "$TMP/err"
check "callee in d1/app.lua: exit status" 0 $?
check "callee in d1/app.lua: no message (but sources not found)" "" "$(grep -v ': warning: sources not found: ' "$TMP/err")"
check "callee in d1/app.lua: x.lua:1's callee line names app.lua:2 and its reason" \
	"               > 50 interpreted samples in callees that failed to compile (NYI: bytecode UCLO, app.lua:2)" \
	"$(grep -F 'in callees that failed to compile (' "$TMP/slash/source.txt")"
check "callee in d1/app.lua: the report's source page says the same" 1 \
	"$(grep -cF '<li>50 interpreted samples in callees that failed to compile (NYI: bytecode UCLO, app.lua:2)</li>' "$TMP/slash/source-2.html")"

finish
