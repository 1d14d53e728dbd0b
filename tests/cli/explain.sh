#!/bin/sh
# explain.sh DUMPANALYZE — why each abort happened, whichever LuaJIT wrote
# the dump: the normal reason names the bytecode on the attempt's last
# bytecode line (found here with awk from the dump's text), the same
# program gives the same reasons under each 2.1, and --explain knows
# every message of LuaJIT 2.0's and 2.1's traceerr tables.
SUITE=explain
. "$(dirname "$0")/setup.sh"

# The opcode of the last bytecode line before each abort header (IR and
# other lines between them are skipped; a start header forgets it), as
# "LINE OPCODE" for the aborts whose reason is "NYI: bytecode".
last_opcodes() {
	awk '
		/^---- TRACE [0-9]+ start / { op = "" }
		/^[0-9][0-9][0-9][0-9]  (\. )*[A-Z][A-Z0-9]*/ {
			s = substr($0, 7)
			while (substr(s, 1, 2) == ". ")
				s = substr(s, 3)
			match(s, /^[A-Z][A-Z0-9]*/)
			op = substr(s, 1, RLENGTH)
		}
		/^---- TRACE [0-9]+ abort .* -- NYI: bytecode / { print NR, op }' "$1"
}

# Each flavour's dump: 2.0, 2.1 since 2024, 2.1.0-beta3, luajit2, and a
# 2.1.0-beta3 dump with IR between the bytecode and the abort (+a).
for case in penlight-luajit20:48 penlight-luajit21:55 penlight-x:39 luajit2:55 abort-ir:8; do
	dump=${case%:*} want=${case#*:}
	d=$SAMPLES/$dump.dump
	out=$TMP/$dump
	$DA -q --views abort-sites,jsonl,summary --dump "$d" --out-dir "$out"
	check "$dump: exit status" 0 $?
	cat "$out"/gen-*.jsonl > "$TMP/$dump.jsonl"
	last_opcodes "$d" > "$TMP/$dump.awk"
	jq -r 'select(.type == "abort" and (.reason | startswith("NYI: bytecode")))
		| "\(.line_no) \(.reason_normal | sub("^NYI: bytecode "; ""))"' \
		"$TMP/$dump.jsonl" > "$TMP/$dump.jq"
	check "$dump: NYI bytecode aborts, $want of them" "$want" "$(wc -l < "$TMP/$dump.awk")"
	check_file "$dump: each names the opcode on its attempt's last bytecode line" \
		"$TMP/$dump.awk" "$TMP/$dump.jq"
	# jsonl: every abort has a normal reason and an error name, and its
	# last bytecode line is the dump's line just before it (no +a here).
	check "$dump: every abort has an error name" 0 \
		"$(jq -r 'select(.type == "abort" and .error == null) | .line_no' "$TMP/$dump.jsonl" | wc -l)"
	# abort-sites.csv: the last five columns, by name (FINGERPRINT empty:
	# no source is read here)
	check "$dump: abort-sites.csv header" \
		"FILE,LINE,REASON,START_FILE,START_LINE,PARENT,EXIT,COUNT,NORMAL_REASON,ERROR,FIRST_LINE,LAST_LINE,FINGERPRINT" \
		"$(head -n 1 "$out/gen-1-abort-sites.csv" | tr -d '\r')"
	tr -d '\r' < "$out/gen-1-abort-sites.csv" | awk -F, 'NR > 1 { print $(NF - 2), $(NF - 1) }' > "$TMP/$dump.sites"
	n=0 bad=0
	while read -r first last; do
		n=$((n + 1))
		for l in "$first" "$last"; do
			sed -n "${l}p" "$d" | grep -q '^---- TRACE [0-9]* abort ' || bad=$((bad + 1))
		done
	done < "$TMP/$dump.sites"
	ran "$dump: sites' FIRST_LINE and LAST_LINE" "$n"
	check "$dump: FIRST_LINE and LAST_LINE are abort headers" 0 "$bad"
done

# luajit2 writes "(file:line)" after bytecode lines: kept as written.
check "luajit2: the failed FNEW of trace 23's attempt, with its (file:line)" \
	'["0095  FNEW    23  19      ; penlight.lua:34       (penlight.lua:34)"]' \
	"$(jq -c 'select(.type == "abort" and .line_no == 3918) | .bytecode[-1:]' "$TMP/luajit2.jsonl")"
check "luajit2: line 3917 is that line" "0095  FNEW    23  19      ; penlight.lua:34       (penlight.lua:34)" \
	"$(sed -n 3917p "$SAMPLES/luajit2.dump")"
check "luajit2: at most 4 bytecode lines per abort" 4 \
	"$(jq -s '[.[] | select(.type == "abort") | .bytecode | length] | max' "$TMP/luajit2.jsonl")"

# The same program under every 2.1: the same normal NYI reasons, though
# 2.1 since 2024 writes names ("NYI: bytecode FNEW  ") and the others
# numbers ("NYI: bytecode 51").
nyi() {
	tr -d '\r' < "$1" | awk -F, 'NR > 1 && $(NF - 4) ~ /^NYI: bytecode / { print $(NF - 4) }' | sort -u | tr '\n' ' '
}
for dump in penlight-luajit21 penlight-x luajit2; do
	check "$dump: NYI reasons" "NYI: bytecode FNEW NYI: bytecode UCLO NYI: bytecode VARG " \
		"$(nyi "$TMP/$dump/gen-1-abort-sites.csv")"
done
check "penlight-luajit21: raw reasons are names" "FNEW  " \
	"$(jq -r 'select(.type == "abort" and .reason_normal == "NYI: bytecode FNEW") | .reason' \
		"$TMP/penlight-luajit21.jsonl" | sed -n '1s/^NYI: bytecode //p')"
check "penlight-x: raw reasons are numbers" "51" \
	"$(jq -r 'select(.type == "abort" and .reason_normal == "NYI: bytecode FNEW") | .reason' \
		"$TMP/penlight-x.jsonl" | sed -n '1s/^NYI: bytecode //p')"
# 2.0 numbers the same opcodes differently (FNEW is 49, VARG 67), and
# cannot compile CAT, which 2.1 can.
check "penlight-luajit20: NYI reasons" "NYI: bytecode CAT NYI: bytecode FNEW NYI: bytecode VARG " \
	"$(nyi "$TMP/penlight-luajit20/gen-1-abort-sites.csv")"
check "penlight-luajit20: FNEW was 49" "NYI: bytecode 49" \
	"$(jq -r 'select(.type == "abort" and .reason_normal == "NYI: bytecode FNEW") | .reason' \
		"$TMP/penlight-luajit20.jsonl" | sort -u)"
check "penlight-luajit20: C function addresses are dropped" "NYI: C function NYICF" \
	"$(jq -r 'select(.type == "abort" and (.reason | startswith("NYI: C function C:"))) | "\(.reason_normal) \(.error)"' \
		"$TMP/penlight-luajit20.jsonl" | sort -u)"

# A -jv log has no bytecode lines: its numbers are read by the flavour
# its reasons show (2.1.0-beta3: 71 is VARG).
$DA -q --views abort-sites,jsonl --dump "$SAMPLES/jv.dump" --out-dir "$TMP/jv"
check "jv: exit status" 0 $?
check "jv: NYI reasons" "NYI: bytecode FNEW NYI: bytecode UCLO NYI: bytecode VARG " \
	"$(nyi "$TMP/jv/gen-1-abort-sites.csv")"
check "jv: no bytecode lines" 0 \
	"$(cat "$TMP"/jv/gen-*.jsonl | jq -r 'select(.type == "abort") | .bytecode | length' | sort -u)"

# summary.txt: meaning and advice under a top reason, the failed bytecode
# and the dump line under a top site.
grep -A3 '^ *[0-9]*  NYI: bytecode 71$' "$TMP/penlight-x/summary.txt" > "$TMP/sum"
check "summary: VARG's meaning under 'NYI: bytecode 71'" \
	"            NYI: bytecode VARG -- NYIBC: the ... of a vararg function is read, e.g. select('#', ...) or {...}. DA206 (varargs-read, costly and fixable): Reading ... in ways the recorder does not handle keeps the loop or function interpreted; reading the arguments into locals first is a source change." \
	"$(sed -n 2p "$TMP/sum")"
l=$(sed -n '4s/.*, dump line \([0-9]*\)$/\1/p' "$TMP/sum")
check "summary: the failed VARG line is the one before dump line $l" \
	"$(sed -n "$((l - 1))p" "$SAMPLES/penlight-x.dump")" \
	"$(sed -n '4s/^                failed at \(.*\), dump line [0-9]*$/\1/p' "$TMP/sum")"

# --luajit-vmdef: the build's own numbering, read from its vmdef.lua.
vmdef=/usr/share/luajit-2.1.0-beta3/jit/vmdef.lua
if [ -f "$vmdef" ]; then
	$DA -q --views abort-sites --luajit-vmdef "$vmdef" --dump "$SAMPLES/jv.dump" --out-dir "$TMP/jv-vm"
	check "--luajit-vmdef: exit status" 0 $?
	check "--luajit-vmdef: the same reasons" "$(nyi "$TMP/jv/gen-1-abort-sites.csv")" \
		"$(nyi "$TMP/jv-vm/gen-1-abort-sites.csv")"
	check "--explain with --luajit-vmdef: 51 is FNEW" \
		"bytecode:  FNEW, number 49 in LuaJIT 2.0 and 51 in 2.1: a closure is created here: a function expression or local function" \
		"$($DA --explain 'NYI: bytecode 51' --luajit-vmdef "$vmdef" | tail -n 1)"
	# every message of the installed build's traceerr table
	sed -n '/^traceerr = {/,/^}/p' "$vmdef" | sed -n 's/^\(\[0\]=\)\{0,1\}"\(.*\)",$/\2/p' |
		sed 's/%d/51/; s/%s/string.find/' > "$TMP/vm-msgs"
	n=0 bad=0
	while IFS= read -r msg; do
		n=$((n + 1))
		$DA --explain "$msg" > /dev/null 2>&1 || { bad=$((bad + 1)); echo "       unknown: $msg"; }
	done < "$TMP/vm-msgs"
	ran "--explain: $vmdef's traceerr messages" "$n" 35
	check "--explain knows them all" 0 "$bad"
fi
printf 'bcnames = "ISLT  ISGE  XYZZY "\n' > "$TMP/odd-vmdef.lua"
check "--luajit-vmdef: a build's own names" "bytecode:  XYZZY (in the given vmdef.lua)" \
	"$($DA --explain 'NYI: bytecode 2' --luajit-vmdef "$TMP/odd-vmdef.lua" | tail -n 1)"
$DA --explain FNEW --luajit-vmdef "$SAMPLES/README.md" > "$TMP/out" 2> "$TMP/err"
check "--luajit-vmdef without bcnames: exit 1" 1 $?
check "--luajit-vmdef without bcnames: the message" \
	"dumpanalyze: --luajit-vmdef $SAMPLES/README.md: no bcnames string of six-character names (is it a build's jit/vmdef.lua?)" \
	"$(cat "$TMP/err")"
$DA -q --luajit-vmdef "$TMP/none.lua" --dump "$SAMPLES/jv.dump" --out-dir "$TMP/none" 2> "$TMP/err"
check "--luajit-vmdef missing: exit 1" 1 $?
check "--luajit-vmdef missing: nothing written" no "$([ -e "$TMP/none" ] && echo yes || echo no)"

# --explain: every message of LuaJIT 2.0's and 2.1's tables (lj_traceerr.h
# of each branch), each placeholder filled as dump.lua fills it.
n=0 bad=0
while IFS='|' read -r name msg; do
	n=$((n + 1))
	got=$($DA --explain "$msg" 2> /dev/null | head -n 1 | sed 's/:.*//')
	[ "$got" = "$name" ] || { bad=$((bad + 1)); echo "       $msg: got '$got', want $name"; }
done << 'EOF2'
RECERR|error thrown or hook called during recording
TRACEUV|trace too short
TRACEOV|trace too long
STACKOV|trace too deep
SNAPOV|too many snapshots
BLACKL|blacklisted
RETRY|retry recording
NYIBC|NYI: bytecode 51
NYIBC|NYI: bytecode FNEW  
LLEAVE|leaving loop in root trace
LINNER|inner loop in root trace
LUNROLL|loop unroll limit reached
BADTYPE|bad argument type
CJITOFF|JIT compilation disabled for function
CUNROLL|call unroll limit reached
DOWNREC|down-recursion, restarting
NYICF|NYI: C function C:55e706e13ba0
NYIFF|NYI: FastFunc string.find
NYIFFU|NYI: unsupported variant of FastFunc string.sub
NYIRETL|NYI: return to lower frame
STORENN|store with nil or NaN key
NOMM|missing metamethod
IDXLOOP|looping index lookup
NYITMIX|NYI: mixed sparse/dense table
NOCACHE|symbol not in cache
NYICONV|NYI: unsupported C type conversion
NYICALL|NYI: unsupported C function type
GFAIL|guard would always fail
PHIOV|too many PHIs
TYPEINS|persistent type instability
MCODEAL|failed to allocate mcode memory
MCODEOV|machine code too long
MCODELM|hit mcode limit (retrying)
SPILLOV|too many spill slots
BADRA|inconsistent register allocation
NYIIR|NYI: cannot assemble IR instruction 12
NYIPHI|NYI: PHI shuffling too complex
NYICOAL|NYI: register coalescing too complex
EOF2
ran "--explain: the messages of 2.0 and 2.1" "$n" 38
check "--explain knows every message" 0 "$bad"

# The forms the issue names.
$DA --explain 'NYI: bytecode 51' > "$TMP/out"
check "--explain 'NYI: bytecode 51': exit 0" 0 $?
check "--explain 'NYI: bytecode 51': both readings" \
	"if 2.0:    TDUP, number 51 in LuaJIT 2.0 and 53 in 2.1 (no recorder aborts on it)
if 2.1:    FNEW, number 49 in LuaJIT 2.0 and 51 in 2.1: a closure is created here: a function expression or local function" \
	"$(tail -n 2 "$TMP/out")"
check "--explain FNEW" "NYIBC: NYI: bytecode %d|bytecode:  FNEW, number 49 in LuaJIT 2.0 and 51 in 2.1: a closure is created here: a function expression or local function" \
	"$($DA --explain FNEW | sed -n '1p;$p' | paste -sd '|')"
check "--explain nyibc (any case)" "NYIBC: NYI: bytecode %d" "$($DA --explain nyibc | head -n 1)"
check "--explain 'failed to allocate mcode memory'" \
	"MCODEAL: failed to allocate mcode memory
builds:    LuaJIT 2.0, LuaJIT 2.1 before 2024 (2.1.0-beta3), OpenResty luajit2, LuaJIT 2.1 since 2024
meaning:   The machine-code area is full (-Omaxmcode reached) or could not be mapped, so every trace is flushed next.
try:       Raise -Omaxmcode (and -Osizemcode if single traces are large) so the compiled code fits.
rule:      DA130 mcode-full, costly and fixable: Every compiled trace is thrown away when machine code runs out; raising the limit is one option." \
	"$($DA --explain 'failed to allocate mcode memory')"
# An NYI bytecode has its own rule once the bytecode is known; a bare
# number both numberings read differently keeps the trace error's.
check "--explain FNEW: the closure rule" \
	"rule:      DA203 closure-in-loop, costly and fixable: A closure created on every run keeps the loop or function interpreted; creating it once is a source change." \
	"$($DA --explain FNEW | grep '^rule:')"
check "--explain 'NYI: bytecode 51' (FNEW in 2.1, TDUP in 2.0): NYIBC's rule" \
	"rule:      DA108 unsupported-bytecode, costly and fixable: The bytecode keeps the whole loop or function interpreted; moving it out is a source change." \
	"$($DA --explain 'NYI: bytecode 51' | grep '^rule:')"
check "--explain down-recursion: usually harmless" \
	"rule:      DA115 down-recursion, usually harmless: Recording restarts at the return; nothing is lost." \
	"$($DA --explain 'down-recursion, restarting' | grep '^rule:')"
$DA --explain 'trace to long' > "$TMP/out" 2> "$TMP/err"
check "--explain unknown: exit 1" 1 $?
check "--explain unknown: nothing on stdout" "" "$(cat "$TMP/out")"
check "--explain unknown: the closest" \
	"dumpanalyze: no rule, abort reason or bytecode like 'trace to long' is known (--explain list lists the rules); the closest:
  TRACEOV: trace too long
  TRACEUV: trace too short
  STACKOV: trace too deep" "$(cat "$TMP/err")"
# A rule by its id or its name, as every output prints them (issue 36).
want="DA203 closure-in-loop: a closure is created here: a function expression or local function
severity:  costly and fixable: A closure created on every run keeps the loop or function interpreted; creating it once is a source change.
reason:    NYI: bytecode FNEW
fix:       CAUSE creates a closure each time the loop or function at START runs: create it once outside the loop or function (or pass its upvalues as arguments)."
check "--explain DA203: the rule" "$want" "$($DA --explain DA203)"
check "--explain closure-in-loop: the same" "$want" "$($DA --explain closure-in-loop)"
check "--explain da203: ids in any case" "$want" "$($DA --explain da203)"
check "--explain DA002: a run-level rule" "DA002 flush-storm: Ten or more flushes: each one throws away every compiled trace, and the program runs interpreted until they are compiled again." \
	"$($DA --explain DA002 | head -n 1)"
check "--explain trace-too-long: its reason and error" "reason:    trace too long (TRACEOV)" \
	"$($DA --explain trace-too-long | grep '^reason:')"
# --explain list: a header and every rule of the catalogue, once, by id
ids=$(grep -ohE '"DA[0-9]{3}"' "$TOP/src/luajit/traceerr.def" "$TOP/src/luajit/bytecodes.def" \
	"$TOP/src/findings/kinds.def" | tr -d '"' | sort -u)
check "--explain list: every rule of the catalogue ($(echo "$ids" | wc -l))" "$ids" \
	"$($DA --explain list | sed 1d | cut -d' ' -f1)"
check "--explain list: 51 rules and a header" "52 ID NAME SEVERITY WHAT" \
	"$($DA --explain list | wc -l) $($DA --explain list | head -n 1 | tr -s ' ')"
check "the man page's table: every rule, as --explain list" "$ids" \
	"$(sed -n '/BEGIN GENERATED rules/,/END GENERATED rules/p' "$TOP/man/dumpanalyze.1" | sed -n 's/^\.B \(DA[0-9]*\) .*/\1/p')"
$DA --explain 'zzzz' > "$TMP/out" 2> "$TMP/err"
check "--explain nothing close: exit 1, one line" "1 1" "$? $(wc -l < "$TMP/err")"

finish
