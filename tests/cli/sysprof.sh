#!/bin/sh
# sysprof.sh DUMPANALYZE — --profile with sysprof profiles of Tarantool's
# LuaJIT (samples/sysprof/, samples/README.md): counts by VM state against
# the fork's own counters, its parser's totals and a second reader
# (sysprof-read.mjs); every compiled sample on the dump's trace of its
# number and start, in the right generation; the views, the report's
# data, the flame graph, --compare, -jp and sysprof side by side; and
# profiles cut short or corrupted.
SUITE=sysprof
. "$(dirname "$0")/setup.sh"

S=$SAMPLES/sysprof
HERE=$(cd "$(dirname "$0")" && pwd)
dump_of() { if [ -f "$S/$1.dump" ]; then echo "$S/$1.dump"; else echo "$S/$1.dump.xz"; fi; }
plain_dump() { if [ -f "$S/$1.dump" ]; then cat "$S/$1.dump"; else xz -dc "$S/$1.dump.xz"; fi; }
col() { tr -d '\r' | cut -d, -f"$1"; }
# fnd DIR RANK .a,.b,...: those fields of the finding of that rank in
# DIR/findings.jsonl (the same records as findings.csv), space-separated
fnd() { jq -r --argjson r "$2" "select(.type == \"finding\" and .rank == \$r) | [$3] | map(tostring) | join(\" \")" "$1/findings.jsonl"; }

n=0
for name in annotated costly phases hoststacks small; do
	out=$TMP/$name
	$DA -q --dump "$(dump_of $name)" --profile "$S/$name.sysprof.xz" --out-dir "$out" 2> "$TMP/err"
	# (besides the Lua files not found here, said once: judgment.sh)
	check "$name: exit status" "0 " "$? $(grep -v ': warning: sources not found: ' "$TMP/err")"
	# by VM state: the fork's counters, the fork's parser, a second reader
	for st in INTERP LFUNC FFUNC CFUNC GC EXIT RECORD OPT ASM TRACE; do
		want=$(awk -v s=$st '$1 == s { print $2 }' "$S/$name.counters.txt")
		got=$(grep "^$st," "$out/profile-states.csv" | col 3)
		[ "$want" = "$got" ] || not_ok "$name: $st samples = the fork's counter" "expected: $want" "got: $got"
	done
	total=$(tail -n +2 "$out/profile-states.csv" | col 3 | awk '{ t += $1 } END { print t }')
	check "$name: samples = the fork's counter" "$(awk '$1 == "samples" { print $2 }' "$S/$name.counters.txt")" "$total"
	check "$name: samples = the fork's parser's total (luajit -tsysprof)" \
		"$(awk -F '\t' '{ t += $NF } END { print t }' "$S/$name.parse.txt")" "$total"
	xz -dc "$S/$name.sysprof.xz" > "$TMP/$name.bin"
	node "$HERE/sysprof-read.mjs" "$TMP/$name.bin" > "$TMP/$name.read" 2>&1
	check "$name: the second reader read it" 0 $?
	check "$name: states = the second reader's" \
		"$(awk '$1 == "state" { print $2, $3 }' "$TMP/$name.read")" \
		"$(tail -n +2 "$out/profile-states.csv" | tr -d '\r' | awk -F, '{ print $1, $3 }')"
	# Profiling began before the first trace: the records are the dump's
	# stops one for one, in order (trace number and start location).
	check "$name: no trace alive when profiling began" 0 "$(grep -c '^record 1 ' "$TMP/$name.read")"
	plain_dump $name | awk '
		/^---- TRACE flush/ { gen++ }
		/^---- TRACE [0-9]+ start / { loc[$3] = $NF }
		/^---- TRACE [0-9]+ stop/ { print gen + 1, $3, loc[$3] }' > "$TMP/$name.stops"
	awk '$1 == "record" { print $3, $4, $5 }' "$TMP/$name.read" > "$TMP/$name.records"
	check "$name: records = the dump's stops (number, start), in order" \
		"$(cut -d' ' -f2,3 "$TMP/$name.stops")" "$(cut -d' ' -f1,2 "$TMP/$name.records")"
	# each dump trace's samples = its record's (summed by generation,
	# number and start, which name one trace in these dumps)
	paste -d' ' "$TMP/$name.stops" "$TMP/$name.records" |
		awk '{ s[$1 "," $2 "," $3] += $6 } END { for (k in s) print k "," s[k] }' | sort > "$TMP/want"
	tail -n +2 "$out/profile-traces.csv" | tr -d '\r' | awk -F, '$1 != "" { s[$1 "," $2 "," $4] += $5 }
		END { for (k in s) print k "," s[k] }' | sort > "$TMP/got"
	check_file "$name: samples per trace (generation, number, start) = the second reader's" \
		"$TMP/want" "$TMP/got"
	check "$name: every compiled sample on a trace of the dump" \
		"$(grep '^TRACE,' "$out/profile-states.csv" | col 3)" \
		"$(tail -n +2 "$out/profile-traces.csv" | tr -d '\r' | awk -F, '$1 != "" { t += $5 } END { print t + 0 }')"
	check "$name: bushes' samples = their traces'" \
		"$(tail -n +2 "$out/profile-traces.csv" | tr -d '\r' | awk -F, '{ s[$1 "/" $3] += $5 } END { for (k in s) if (s[k]) print k, s[k] }' | sort)" \
		"$(tail -n +2 "$out/profile-bushes.csv" | tr -d '\r' | awk -F, '$6 { print $1 "/" $2, $6 }' | sort)"
	n=$((n + 1))
done
ran "every sample" $n 5

# phases: three generations, trace numbers reused within each.
check "phases: compiled samples in each generation" "1 2 3" \
	"$(tail -n +2 "$TMP/phases/profile-traces.csv" | tr -d '\r' | awk -F, '$5 > 0 { print $1 }' | sort -u | tr '\n' ' ' | sed 's/ $//')"
check "phases: in generation 1, trace 5 is four chunks' in turn, each with samples" \
	"chunk-101:1 chunk-102:1 chunk-103:1 chunk-104:1" \
	"$(tail -n +2 "$TMP/phases/profile-traces.csv" | tr -d '\r' | awk -F, '$1 == 1 && $2 == 5 && $5 > 0 { print $4 }' | sort | tr '\n' ' ' | sed 's/ $//')"
check "phases: ranked, most samples first" "" \
	"$(tail -n +2 "$TMP/phases/profile-traces.csv" | tr -d '\r' | awk -F, 'NR > 1 && $5 > p { print "not ranked: " $0 } { p = $5 }')"
check "phases: the top bush and share" "3,1,root,phases.lua:11,1" \
	"$(sed -n 2p "$TMP/phases/profile-bushes.csv" | col 1-5)"
top=$(sed -n 2p "$TMP/phases/profile-bushes.csv" | tr -d '\r')
check "phases: SHARE = SAMPLES / all samples" \
	"$(echo "$top" | awk -F, '{ printf "%.2f", 100 * $6 / 863 }')" "$(echo "$top" | cut -d, -f7)"
check "phases: summary.txt's time per trace" 1 \
	"$(grep -c '^time per trace (sysprof .*phases.sysprof.xz: 863 samples)$' "$TMP/phases/summary.txt")"
check "phases: the summary's top bush = profile-bushes.csv's" "gen 3 bush 1 root phases.lua:11" \
	"$(sed -n '/^  bushes by time/{n;p;}' "$TMP/phases/summary.txt" | awk '{ print $2, $3, $4, $5, $6, $7 }')"
check "phases: the summary's VM-state line = profile-states.csv" \
	"$(tail -n +2 "$TMP/phases/profile-states.csv" | tr -d '\r' | awk -F, '
		{ s[$2] += $3; t += $3 }
		END { printf "compiled %.1f%%  interpreted %.1f%%  C %.1f%%  GC %.1f%%  JIT %.1f%%",
			100 * s["Compiled"] / t, 100 * s["Interpreted"] / t, 100 * s["C code"] / t,
			100 * s["Garbage Collector"] / t, 100 * s["JIT Compiler"] / t }')" \
	"$(sed -n '/^time per trace/{n;p;}' "$TMP/phases/summary.txt" | sed 's/^  //')"
# interpreted samples per function: the second reader's LFUNC tops (no
# FFUNC samples in these two)
for name in annotated phases; do
	check "$name: INTERPRETED per function = the second reader's LFUNC samples on top" \
		"$(awk '$1 == "lfunc" { print $2, $3 }' "$TMP/$name.read" | sort)" \
		"$(tail -n +2 "$TMP/$name/profile-functions.csv" | tr -d '\r' | awk -F, '$3 > 0 { print $1 ":" $2, $3 }' | sort)"
done
check "annotated: the closure loop's function, 18, is the most interpreted" "annotated.lua,18" \
	"$(sed -n 2p "$TMP/annotated/profile-functions.csv" | col 1,2)"
# One caller per stack (profile/callees.h): above the deepest function
# that lies in a failed finding's extent, as the findings charge by
# function (closures, 18, in finding 1's; caller, 27, in finding 3's),
# the nearest frame in another file: the runner's main chunk, which gets
# every interpreted stack through 27, naming the finding charged most of
# them (finding 1, annotated.lua:18: 755 of the 788; the others below).
check "annotated: the failed code's caller gets its time (profile-callees-sysprof.csv)" \
	"sysprof-run.lua,0,788,annotated.lua,18,NYI: bytecode FNEW" \
	"$(grep '^sysprof-run.lua,0,' "$TMP/annotated/profile-callees-sysprof.csv" | tr -d '\r')"
check "annotated: the callee samples = the interpreted stacks through caller (27)" \
	"$(awk '$1 == "through" && $2 == "annotated.lua:27" { print $3 }' "$TMP/annotated.read")" \
	"$(grep '^sysprof-run.lua,0,' "$TMP/annotated/profile-callees-sysprof.csv" | col 3)"
check "annotated: ... which are the samples charged to the findings" 788 \
	"$(sed -n 's/^  charged to the findings: \([0-9]*\) interpreted.*/\1/p' "$TMP/annotated/summary.txt")"
check "annotated: one row, each sample counted once" 1 \
	"$(tail -n +2 "$TMP/annotated/profile-callees-sysprof.csv" | wc -l)"

# The flame graph: host frames (mode C) grey, none in mode L.
check "hoststacks: flamegraph-sysprof.svg has host frames in grey" 1 \
	"$(grep -c 'fill:rgb(66%,68%,70%)' "$TMP/hoststacks/flamegraph-sysprof.svg" | awk '{ print ($1 > 10) }')"
check "phases: no host frames in mode L" 0 "$(grep -c 'fill:rgb(66%,68%,70%)' "$TMP/phases/flamegraph-sysprof.svg")"
check "annotated: the failed function is marked" 1 \
	"$(grep -c 'fill:rgb(35%,55%,95%)' "$TMP/annotated/flamegraph-sysprof.svg" | awk '{ print ($1 > 0) }')"

# The report: profile-time.js = profile-traces.csv, the pages load it.
$DA -q --views html --dump "$S/phases.dump" --profile "$S/phases.sysprof.xz" --out-dir "$TMP/html" 2> "$TMP/err"
check "html: exit status" 0 $?
check "html: each generation page loads profile-time.js" "4 4" \
	"$(ls "$TMP/html"/gen-*-bushes.html | wc -l) $(grep -l '<script src="profile-time.js">' "$TMP/html"/gen-*-bushes.html | wc -l)"
node -e '
	const vm = require("node:vm"), fs = require("node:fs"), c = {};
	vm.runInNewContext(fs.readFileSync(process.argv[1], "utf8") + ";this.T = DA_TIME;", c);
	for (const g of Object.keys(c.T.gens).sort())
		console.log(g, c.T.gens[g].t.reduce((a, b) => a + b, 0),
			Object.values(c.T.gens[g].b).reduce((a, b) => a + b, 0));
	console.log("samples", c.T.samples);' "$TMP/html/profile-time.js" > "$TMP/time"
check "html: DA_TIME per generation = profile-traces.csv's, traces and bushes" \
	"$(tail -n +2 "$TMP/phases/profile-traces.csv" | tr -d '\r' | awk -F, '$1 { s[$1] += $5 } END { for (g in s) print g, s[g], s[g] }' | sort; echo samples 863)" \
	"$(cat "$TMP/time")"
# the trace panel's order is stop order: gen 1's fifth trace is chunk-101's
check "html: DA_TIME's traces in stop order" \
	"$(grep '^1,5,5,chunk-101:1,' "$TMP/phases/profile-traces.csv" | col 5)" \
	"$(node -e 'const vm = require("node:vm"), fs = require("node:fs"), c = {};
		vm.runInNewContext(fs.readFileSync(process.argv[1], "utf8") + ";this.T = DA_TIME;", c);
		console.log(c.T.gens["1"].t[4]);' "$TMP/html/profile-time.js")"
$DA -q --views html --dump "$S/phases.dump" --out-dir "$TMP/html2" 2> "$TMP/err"
check "html: no profile-time.js without a sysprof profile, nor its script" "0 0" \
	"$(ls "$TMP/html2" | grep -c profile-time) $(grep -c '<script src="profile-time.js">' "$TMP/html2/gen-1-bushes.html")"

# -jp=Gvl and sysprof of the same program (costly.lua, two runs of the
# same luajit): the VM-state shares agree within sampling noise.  Each
# share is a binomial proportion of its run's samples; their difference
# has the standard deviation sqrt(p (1 - p) (1/n1 + 1/n2)) for the pooled
# p; allowed: 4 of them (a share off by that much is a real difference,
# not noise, with odds of 1 in 15,000).
awk -F, 'FNR == 1 { next } FILENAME ~ /Gvl/ { next } { print }' /dev/null
jp=$(awk '/^[A-Z][a-zA-Z ]* [0-9]+$/ { n = $NF; $NF = ""; sub(/ $/, ""); s[$0] = n }
	END { print s["Interpreted"]+0, s["Compiled"]+0, s["C code"]+0, s["Garbage Collector"]+0, s["JIT Compiler"]+0 }' \
	"$S/costly-Gvl.prof")
$DA -q --dump "$(dump_of costly)" --profile "$S/costly.sysprof.xz" --views sysprof --out-dir "$TMP/costly-sp" 2> "$TMP/err"
sp=$(tail -n +2 "$TMP/costly-sp/profile-states.csv" | tr -d '\r' | awk -F, '{ s[$2] += $3 }
	END { print s["Interpreted"]+0, s["Compiled"]+0, s["C code"]+0, s["Garbage Collector"]+0, s["JIT Compiler"]+0 }')
k=0
for i in 1 2 3 4 5; do
	a=$(echo "$jp" | cut -d' ' -f$i) b=$(echo "$sp" | cut -d' ' -f$i)
	n1=$(echo "$jp" | awk '{ print $1 + $2 + $3 + $4 + $5 }') n2=$(echo "$sp" | awk '{ print $1 + $2 + $3 + $4 + $5 }')
	verdict=$(awk -v a="$a" -v b="$b" -v n1="$n1" -v n2="$n2" 'BEGIN {
		p = (a + b) / (n1 + n2); sd = sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
		d = a / n1 - b / n2; if (d < 0) d = -d
		printf "%s (%.1f%% vs %.1f%%, |d| %.2f <= 4 sd %.2f points)", d <= 4 * sd ? "agree" : "DIFFER",
			100 * a / n1, 100 * b / n2, 100 * d, 400 * sd }')
	check "costly: -jp=Gvl and sysprof, state $i of Interpreted, Compiled, C, GC, JIT: $verdict" agree "${verdict%% *}"
	k=$((k + 1))
done
ran "the five states" $k 5
check "costly: both profiles have enough samples for it (over 500 each)" "1 1" \
	"$(echo "$jp" | awk '{ print ($1 + $2 + $3 + $4 + $5 > 500) }') $(echo "$sp" | awk '{ print ($1 + $2 + $3 + $4 + $5 > 500) }')"

# The findings charged by function (basis "function"): the sysprof
# profile alone charges each interpreted sample, by the innermost Lua
# function of its stack, to the innermost failed loop or function whose
# extent holds that whole function (extents from samples/lua/).
PL=$(dpkg -L lua-penlight | sed -n 's|/pl/init.lua$|/pl|p' | head -n 1)
k=0
for name in annotated costly phases hoststacks small; do
	$DA -q --dump "$(dump_of $name)" --profile "$S/$name.sysprof.xz" --source-root "$SAMPLES/lua" \
		--views default,jsonl --out-dir "$TMP/fn-$name" 2> "$TMP/err"
	interp=$(grep -E '^(INTERP|LFUNC|FFUNC),' "$TMP/fn-$name/profile-states.csv" | col 3 | awk '{ t += $1 } END { print t }')
	charged=$(jq -r 'select(.type == "finding") | .samples' "$TMP/fn-$name/findings.jsonl" | awk '{ t += $1 } END { print t + 0 }')
	check "$name: charged $charged <= interpreted $interp (sysprof's INTERP+LFUNC+FFUNC)" 1 \
		"$(awk -v c="$charged" -v i="$interp" 'BEGIN { print (c <= i) }')"
	check "$name: summary.txt's charged = findings.csv's sum" 1 \
		"$(grep -c "^  charged to the findings: $charged interpreted samples" "$TMP/fn-$name/summary.txt")"
	check "$name: every finding by function, or none without an extent; PROFILE the sysprof file" "" \
		"$(jq -r 'select(.type == "finding") | [.basis, .extent, .profile] | join(" ")' "$TMP/fn-$name/findings.jsonl" |
			awk -v p="$S/$name.sysprof.xz" '!(($1 == "function" && $2 != "none" || $1 == "none" && $2 == "none") && $3 == p)')"
	check "$name: findings.csv's PROFILE column too" "$S/$name.sysprof.xz" \
		"$(sed -n 2p "$TMP/fn-$name/findings.csv" | tr -d '\r' | awk -F, '{ print $(NF - 1) }')"
	k=$((k + 1))
done
ran "findings by function" $k 5
# annotated: the second reader's innermost Lua functions of the LFUNC and
# FFUNC samples (leaf NAME:LINE N): closures (18, its extent 18-25 from
# the source, blacklisted) takes its own, the closure written on 21 lies
# in the blacklisted loop 20-23, caller (27-29) its own.
leaf() { awk -v k="$2" '$1 == "leaf" && $2 == k { print $3 }' "$TMP/$1.read"; }
check "annotated: by function, closures 18-25 = its samples in the stream" \
	"blacklisted-function annotated.lua 18 25 $(leaf annotated annotated.lua:18) function source" \
	"$(fnd "$TMP/fn-annotated" 1 .kind,.file,.line,.end_line,.samples,.basis,.extent)"
check "annotated: the loop 20-23 = the closure on 21's samples" \
	"blacklisted-loop 20 23 $(leaf annotated annotated.lua:21)" \
	"$(fnd "$TMP/fn-annotated" 2 .kind,.line,.end_line,.samples)"
check "annotated: summary.txt says by function, and whose samples" 2 \
	"$(grep -c -e '^where the time went: .*annotated.sysprof.xz (sysprof, 1769 samples; interpreted time is known per Lua function' \
		-e '^  1   annotated.lua:18-25  blacklisted-function, costly: 42.7% of the samples (755 interpreted, by function, extent from the source)$' \
		"$TMP/fn-annotated/summary.txt")"
# The -jp=Gvl profile of annotated.lua (another run, Debian's luajit)
# charges the loop 20-23 first, sysprof closures (18-25) around it: by
# function the loop's time is its function's.  Both: the closure on 21.
$DA -q --dump "$S/annotated.dump" --profile "$SAMPLES/annotated-Gvl.prof" --source-root "$SAMPLES/lua" \
	--views default,jsonl --out-dir "$TMP/ann-jp" 2> "$TMP/err"
check "annotated: -jp=Gvl and sysprof, tops around the same cause" \
	"blacklisted-loop 20 23 annotated.lua 21 source
blacklisted-function 18 25 annotated.lua 21 function" \
	"$(fnd "$TMP/ann-jp" 1 .kind,.line,.end_line,.cause_file,.cause_line,.basis; fnd "$TMP/fn-annotated" 1 .kind,.line,.end_line,.cause_file,.cause_line,.basis)"
# phases: closures (21-28) is no finding, its loop 23-26 is: its own 105
# samples cannot be given to a line, the closure on 24 is the loop's.
check "phases: the loop 23-26 = the closure on 24's samples" "23 26 $(leaf phases phases.lua:24)" \
	"$(fnd "$TMP/fn-phases" 1 .line,.end_line,.samples)"
check "phases: closures' own samples, not charged, said" 1 \
	"$(grep -c "^  not charged: $(leaf phases phases.lua:21) interpreted samples in functions that hold a failed loop of their own$" "$TMP/fn-phases/summary.txt")"
# -jp=Gvl and sysprof of costly.lua rank the same top finding when the
# penlight sources are read too: tablex.keys (586-589), blacklisted,
# which both profiles see the time in.  Without them tablex.lua's extents
# are lines, and the -jp profile charges the loop calling keys,
# costly.lua:24-26, whose line it sees; sysprof cannot (costly.lua's loops
# are all in its main chunk, one function), so its top is keys' line.
for p in costly-Gvl.prof costly.sysprof.xz; do
	$DA -q --dump "$(dump_of costly)" --profile "$S/$p" --source-root "$SAMPLES/lua" --source-root "$PL" \
		--views default,jsonl --out-dir "$TMP/top-$p" 2> "$TMP/err"
done
check "costly: -jp=Gvl and sysprof, the same top finding (tablex.keys)" \
	"1 blacklisted-function tablex.lua 586 589 source
1 blacklisted-function tablex.lua 586 589 function" \
	"$(for p in costly-Gvl.prof costly.sysprof.xz; do fnd "$TMP/top-$p" 1 .rank,.kind,.file,.line,.end_line,.basis; done)"
check "costly: ... the same ID" 1 \
	"$(for p in costly-Gvl.prof costly.sysprof.xz; do fnd "$TMP/top-$p" 1 .id; done | sort -u | wc -l)"
check "costly: without penlight's source, the tops differ as said" \
	"costly.lua 24 source
tablex.lua 586 function" \
	"$($DA -q --dump "$(dump_of costly)" --profile "$S/costly-Gvl.prof" --source-root "$SAMPLES/lua" \
		--views default,jsonl --out-dir "$TMP/nopl-jp" 2> "$TMP/err"
	   fnd "$TMP/nopl-jp" 1 .file,.line,.basis; fnd "$TMP/fn-costly" 1 .file,.line,.basis)"

# Both profiles at once: each answer names its profile.
$DA --dump "$(dump_of costly)" --profile "$S/costly-Gvl.prof" --profile "$S/costly.sysprof.xz" \
	--out-dir "$TMP/both" > "$TMP/both.out" 2> "$TMP/err"
check "both: exit status" 0 $?
check "both: summary sections name their profiles" "1 1" \
	"$(grep -c '^where the time went: .*costly-Gvl.prof (975 samples)$' "$TMP/both/summary.txt") $(grep -c '^time per trace (sysprof .*costly.sysprof.xz: 863 samples)$' "$TMP/both/summary.txt")"
check "both: the -jp files and the sysprof files, named apart" \
	"flamegraph-sysprof.svg flamegraph.svg profile-bushes.csv profile-callees-sysprof.csv profile-callees.csv profile-functions.csv profile-lines.csv profile-states.csv profile-traces.csv" \
	"$(ls "$TMP/both" | grep -E '^(profile-|flamegraph.*svg)' | tr '\n' ' ' | sed 's/ $//')"
check "both: the -jp profile charges the findings (by line, not function), said" "1 costly-Gvl.prof trace" \
	"$(grep -c '^  (of the two profiles this -jp one, which knows lines, charges the findings;$' "$TMP/both/summary.txt") $(sed -n 2p "$TMP/both/findings.csv" | tr -d '\r' | awk -F, '{ print $(NF - 1), $14 }' | sed 's|^.*/||')"
check "both: manifest.json names both" "1 1" \
	"$(grep -c '"profile": *".*costly-Gvl.prof"' "$TMP/both/manifest.json") $(grep -c '"sysprof": *".*costly.sysprof.xz"' "$TMP/both/manifest.json")"
$DA -q --dump "$(dump_of costly)" --profile "$S/costly.sysprof.xz" --profile "$S/phases.sysprof.xz" --out-dir "$TMP/two" 2> "$TMP/err"
check "two sysprof profiles: a usage error" "1 1" "$? $(grep -c 'at most one -jp and one sysprof' "$TMP/err")"
$DA -q --dump "$(dump_of costly)" --views sysprof --out-dir "$TMP/none" 2> "$TMP/err"
check "--views sysprof without one: a usage error" "1 1" "$? $(grep -c 'view sysprof needs --profile FILE written by sysprof' "$TMP/err")"

# --compare: time per bush, matched by root kind and start.
$DA -q --dump "$S/hoststacks.dump" --profile "$S/hoststacks.sysprof.xz" --out-dir "$TMP/hs" 2> "$TMP/err"
$DA --compare "$TMP/phases" "$TMP/hs" > "$TMP/cmp.txt" 2> "$TMP/err"
check "compare: exit status" 0 $?
check "compare: the time part" 1 "$(grep -c '^  time (sysprof; shares of all samples, 863 -> 192):$' "$TMP/cmp.txt")"
sum_start() { tail -n +2 "$1/profile-bushes.csv" | tr -d '\r' | awk -F, -v k="$2" '$3 "," $4 == k { s += $6 } END { print s + 0 }'; }
check "compare: root phases.lua:11's shares = its bushes' samples summed over generations" \
	"$(awk -v a="$(sum_start "$TMP/phases" root,phases.lua:11)" -v b="$(sum_start "$TMP/hs" root,phases.lua:11)" \
		'BEGIN { printf "%.1f%% -> %.1f%% root phases.lua:11", 100 * a / 863, 100 * b / 192 }')" \
	"$(grep 'root phases.lua:11$' "$TMP/cmp.txt" | tr -s ' ' | sed 's/^ //')"
$DA --compare "$TMP/phases" "$TMP/hs" --json > "$TMP/cmp.json" 2> "$TMP/err"
check "compare --json: time.bushes has root phases.lua:11's samples" \
	"$(sum_start "$TMP/phases" root,phases.lua:11) $(sum_start "$TMP/hs" root,phases.lua:11)" \
	"$(node -e 'const j = JSON.parse(require("fs").readFileSync(process.argv[1]));
		const d = j.dumps ? j.dumps[0] : j; const b = d.time.bushes.find(x => x.file === "phases.lua" && x.old_line === 11);
		console.log(b.old_samples, b.new_samples)' "$TMP/cmp.json")"

check "compare: the VM-state shares at the top, before the counts" \
	"  time (sysprof; shares of all samples, 863 -> 192):|  generations               4 -> 4" \
	"$(sed -n '2p;4p' "$TMP/cmp.txt" | paste -sd'|')"
check "compare --json: time's states before the counts, its bushes after" "time generations time.bushes" \
	"$(jq -r '.dumps[0] | [(keys_unsorted | map(select(. == "time" or . == "generations")) | .[]), (.time | keys_unsorted | .[1] | "time." + .)] | join(" ")' "$TMP/cmp.json")"

# Code moved: sysprof/moved is lua/moved/phases.lua, phases.lua with
# closures() moved above numeric() and strings(), run like phases
# (generate-sysprof.sh).  Its bushes start at other lines (numeric's loop
# 11 -> 20, strings' 17 -> 26, the closures' 24 -> 12): matched by the
# text of the root's start line (profile-bushes.csv's FINGERPRINT), every
# one is found; by kind and order (no source read) the closures' bush,
# which moved above the others, is "new" and "gone".
for side in phases moved; do
	src=$SAMPLES/lua; [ $side = moved ] && src=$SAMPLES/lua/moved
	$DA -q --views default,sysprof --dump "$S/$side.dump" --profile "$S/$side.sysprof.xz" --source-root "$src" \
		--out-dir "$TMP/mv-$side" 2> "$TMP/err"
	# (LuaJIT's own jit/*.lua the profiler ran, and the driver, are in no
	# source root: said once, judgment.sh checks the sentence)
	check "moved: $side with its source: exit 0" "0 " "$? $(grep -v ': warning: sources not found: ' "$TMP/err")"
	$DA -q --views default,sysprof --dump "$S/$side.dump" --profile "$S/$side.sysprof.xz" \
		--out-dir "$TMP/mv0-$side" 2> "$TMP/err"
	check "moved: $side without its source: exit 0" "0" "$?"
done
fp_of() { tail -n +2 "$1/profile-bushes.csv" | tr -d '\r' | awk -F, -v k="$2" '$4 == k { print $8 }' | sort -u | paste -sd' '; }
check "moved: profile-bushes.csv's FINGERPRINT: one per start line, the same text in both runs" \
	"$(fp_of "$TMP/mv-phases" phases.lua:11) $(fp_of "$TMP/mv-phases" phases.lua:17) $(fp_of "$TMP/mv-phases" phases.lua:24)" \
	"$(fp_of "$TMP/mv-moved" phases.lua:20) $(fp_of "$TMP/mv-moved" phases.lua:26) $(fp_of "$TMP/mv-moved" phases.lua:12)"
check "moved: ... 12 hex digits, different for different lines" "3" \
	"$({ fp_of "$TMP/mv-phases" phases.lua:11; fp_of "$TMP/mv-phases" phases.lua:17; fp_of "$TMP/mv-phases" phases.lua:24; } |
	   sort -u | grep -c '^[0-9a-f]\{12\}$')"
check "moved: ... for phases.lua's bushes only (chunk-N is no file)" "0 $(tail -n +2 "$TMP/mv-moved/profile-bushes.csv" | grep -c 'phases\.lua:')" \
	"$(tail -n +2 "$TMP/mv-moved/profile-bushes.csv" | tr -d '\r' | awk -F, '$4 ~ /^chunk-/ && $8 != ""' | wc -l) $(tail -n +2 "$TMP/mv-moved/profile-bushes.csv" | tr -d '\r' | awk -F, '$4 ~ /^phases\.lua:/ && length($8) == 12 && $8 ~ /^[0-9a-f]+$/' | wc -l)"
check "moved: ... and none without the source" "0" \
	"$(tail -n +2 "$TMP/mv0-moved/profile-bushes.csv" | tr -d '\r' | awk -F, '$8 != ""' | wc -l)"
$DA --compare "$TMP/mv-phases" "$TMP/mv-moved" > "$TMP/mv.txt" 2> "$TMP/err"
check "moved: compare: exit 0" "0" "$?"
share_of() { awk -v s="$(sum_start "$1" "$2")" -v t="$3" 'BEGIN { printf "%5.1f%%", 100 * s / t }'; }
check "moved: by text: numeric's and strings' loops, shares = profile-bushes.csv's sums" \
	"    $(share_of "$TMP/mv-phases" root,phases.lua:11 863) -> $(share_of "$TMP/mv-moved" root,phases.lua:20 710)  root phases.lua:20 (was 11)
    $(share_of "$TMP/mv-phases" root,phases.lua:17 863) -> $(share_of "$TMP/mv-moved" root,phases.lua:26 710)  root phases.lua:26 (was 17)" \
	"$(grep '  root phases\.lua:' "$TMP/mv.txt")"
check "moved: by text: every bush start matched" "  bush starts 15 -> 15: 15 matched, 0 new, 0 gone" \
	"$(grep '^  bush starts' "$TMP/mv.txt")"
$DA --compare "$TMP/mv-phases" "$TMP/mv-moved" --json > "$TMP/mv.json" 2> "$TMP/err"
check "moved: --json: phases.lua's bushes, each old line with its new one, by text" \
	"11 20 $(sum_start "$TMP/mv-phases" root,phases.lua:11) $(sum_start "$TMP/mv-moved" root,phases.lua:20) text|17 26 $(sum_start "$TMP/mv-phases" root,phases.lua:17) $(sum_start "$TMP/mv-moved" root,phases.lua:26) text|24 12 $(sum_start "$TMP/mv-phases" root,phases.lua:24) $(sum_start "$TMP/mv-moved" root,phases.lua:12) text" \
	"$(jq -r '.dumps[0].time.bushes[] | select(.file == "phases.lua") | "\(.old_line) \(.new_line) \(.old_samples) \(.new_samples) \(.matched_by)"' "$TMP/mv.json" | paste -sd'|')"
$DA --compare "$TMP/mv0-phases" "$TMP/mv0-moved" --json > "$TMP/mv0.json" 2> "$TMP/err"
check "moved: without the source, by order: the closures' bush new and gone" \
	"11 20 order|17 26 order|24 null null|null 12 null" \
	"$(jq -r '.dumps[0].time.bushes[] | select(.file == "phases.lua") | "\(.old_line) \(.new_line) \(.matched_by)"' "$TMP/mv0.json" | paste -sd'|')"
$DA --compare "$TMP/mv0-phases" "$TMP/mv0-moved" > "$TMP/mv0.txt" 2> "$TMP/err"
check "moved: without the source: said, and counted" \
	"    $(share_of "$TMP/mv-phases" root,phases.lua:11 863) -> $(share_of "$TMP/mv-moved" root,phases.lua:20 710)  root phases.lua:20 (was 11, by order: no source text)|  bush starts 15 -> 15: 14 matched, 1 new, 1 gone" \
	"$(grep '  root phases\.lua:20\|^  bush starts' "$TMP/mv0.txt" | paste -sd'|')"
# A run of 0.4.0 wrote no FINGERPRINT: both sides are matched by order.
cp -r "$TMP/mv-moved" "$TMP/mv-old"
tr -d '\r' < "$TMP/mv-moved/profile-bushes.csv" | cut -d, -f1-7 | sed 's/$/\r/' > "$TMP/mv-old/profile-bushes.csv"
$DA --compare "$TMP/mv-phases" "$TMP/mv-old" > "$TMP/mv-old.txt" 2> "$TMP/err"
check "moved: one side without FINGERPRINT (0.4.0): by order" "0 1" \
	"$? $(grep -c '^  bush starts 15 -> 15: 14 matched, 1 new, 1 gone$' "$TMP/mv-old.txt")"

# --compare reads the sysprof view's files as strictly as the others
# (compare/csvin_files.def): a column it does not know, a state sysprof has not.
cp -r "$TMP/phases" "$TMP/tampered"
sed '1s/SHARE/SHARE,EXTRA/' "$TMP/phases/profile-bushes.csv" > "$TMP/tampered/profile-bushes.csv"
$DA --compare "$TMP/phases" "$TMP/tampered" > "$TMP/cmp.txt" 2> "$TMP/err"
check "compare: an unknown column of profile-bushes.csv: exit 2, file, row and column named" \
	"2 dumpanalyze: $TMP/tampered/profile-bushes.csv: row 1, column 8: unknown column 'EXTRA'" "$? $(cat "$TMP/err")"
cp "$TMP/phases/profile-bushes.csv" "$TMP/tampered/"
sed '3s/^LFUNC,/LFUNK,/' "$TMP/phases/profile-states.csv" > "$TMP/tampered/profile-states.csv"
$DA --compare "$TMP/phases" "$TMP/tampered" > "$TMP/cmp.txt" 2> "$TMP/err"
check "compare: a state sysprof has not: exit 2, named" \
	"2 dumpanalyze: $TMP/tampered/profile-states.csv: row 3, column STATE: 'LFUNK' is not one of sysprof's VM states" \
	"$? $(cat "$TMP/err")"

# Determinism: the same profile, the same bytes.
$DA -q --dump "$S/phases.dump" --profile "$S/phases.sysprof.xz" --views sysprof --out-dir "$TMP/again" 2> "$TMP/err"
same=0
for f in profile-states.csv profile-traces.csv profile-bushes.csv profile-functions.csv profile-callees-sysprof.csv; do
	cmp -s "$TMP/phases/$f" "$TMP/again/$f" && same=$((same + 1))
done
check "the same run twice, the same files" 5 $same

# Profiles cut short or corrupted: exit 2, the byte named, nothing written.
bytes=$(wc -c < "$TMP/small.bin")
k=0 bad=0
for cut in 3 7 100 1000 2000 3000 4000 5000 6000 7000 8000 $((bytes - 1)); do
	head -c $cut "$TMP/small.bin" > "$TMP/cut.bin"
	$DA -q --dump "$S/small.dump" --profile "$TMP/cut.bin" --out-dir "$TMP/cut-out" 2> "$TMP/err"
	st=$?
	if [ $st -ne 2 ] || ! grep -q "byte $cut" "$TMP/err" || [ -e "$TMP/cut-out" ]; then
		bad=$((bad + 1))
		not_ok "cut at $cut: exit 2, byte $cut named, nothing written" "status $st: $(cat "$TMP/err")"
	fi
	k=$((k + 1))
done
ran "cut profiles" $k 12
check "cut profiles: each refused at its end" 0 $bad
check "a cut profile's message" \
	"dumpanalyze: $TMP/cut.bin: not a sysprof profile dumpanalyze can trust: the stream ends at byte $((bytes - 1)) (the profiler was not stopped, or the file was cut)" \
	"$(sed 's/no epilogue: //' "$TMP/err")"
head -c 20000 "$S/costly.sysprof.xz" > "$TMP/cut.xz"
$DA -q --dump "$(dump_of costly)" --profile "$TMP/cut.xz" --out-dir "$TMP/cut-xz" 2> "$TMP/err"
check "a cut xz profile: exit 2, said so" "2 1" "$? $(grep -c 'compressed stream is cut short' "$TMP/err")"
# the version byte of the sample stream (after the symbol table) made 9
off=$(grep -abo ljp "$TMP/small.bin" | head -n 1 | cut -d: -f1)
{ head -c $((off + 3)) "$TMP/small.bin"; printf '\011'; tail -c +$((off + 5)) "$TMP/small.bin"; } > "$TMP/v9.bin"
$DA -q --dump "$S/small.dump" --profile "$TMP/v9.bin" --out-dir "$TMP/v9" 2> "$TMP/err"
check "sysprof version 9: exit 3, the version and its byte named" \
	"3 dumpanalyze: $TMP/v9.bin: sysprof format version 9 at byte $((off + 3)): dumpanalyze reads versions 1 to 2" \
	"$? $(cat "$TMP/err")"
{ head -c $off "$TMP/small.bin"; printf 'ljm'; tail -c +$((off + 4)) "$TMP/small.bin"; } > "$TMP/mem.bin"
$DA -q --dump "$S/small.dump" --profile "$TMP/mem.bin" --out-dir "$TMP/mem" 2> "$TMP/err"
check "a memprof stream: exit 3, said so" "3 1" "$? $(grep -c 'memory profile' "$TMP/err")"
# a sample header no version has: the first sample's, and the epilogue
k=0
for at in $((off + 7)) $((bytes - 1)); do
	{ head -c $at "$TMP/small.bin"; printf '\177'; tail -c +$((at + 2)) "$TMP/small.bin"; } > "$TMP/bad.bin"
	check "the corrupted copy is as long" "$bytes" "$(wc -c < "$TMP/bad.bin")"
	$DA -q --dump "$S/small.dump" --profile "$TMP/bad.bin" --out-dir "$TMP/bad" 2> "$TMP/err"
	check "header 0x7f at $at: exit 2, the byte named, nothing written" \
		"2 dumpanalyze: $TMP/bad.bin: not a sysprof profile dumpanalyze can trust: unknown sample header 0x7f at byte $at 0" \
		"$? $(cat "$TMP/err") $(ls -d "$TMP/bad" 2>/dev/null | wc -l)"
	k=$((k + 1))
done
ran "corrupted profiles" $k 2

finish
