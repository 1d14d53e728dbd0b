#!/bin/sh
# emptyrun.sh DUMPANALYZE — a run that did not run fails: inputs with no
# trace, abort or -jv line, written now by the installed luajit (a script
# that does not exist, a program that never gets hot) or taken from a
# sample (an empty file, mixed-stdout.dump's program output alone), are
# warned about (exit 3 under --strict), their manifest says
# "jit_events": false, and --compare refuses such a side against a real
# run (exit 2, saying which) unless --allow-empty.
SUITE=emptyrun
. "$(dirname "$0")/setup.sh"

need_luajit
RULES='new-sites,new-reasons,aborts+10%'    # README's CI rules
EMPTY='no JIT events: the input is empty (no trace, abort or -jv line; did the program run, under -jdump or -jv?)'
NOTDUMP="this does not look like a LuaJIT dump"
jit_events() { jq -r '"\(.jit_events) \(.complete)"' "$1/manifest.json"; }

# ---- A real run, the base: small.lua under -jdump=+x, piped as README
# shows (the program's own line is in the dump too).
(cd "$SAMPLES" && env -u COLORTERM TERM=dumb luajit -jdump=+x lua/small.lua) > "$TMP/small.dump"
check "base: luajit compiled traces" yes \
	"$([ "$(grep -c '^---- TRACE [0-9]* stop' "$TMP/small.dump")" -gt 0 ] && echo yes)"
$DA -q --out-dir "$TMP/base" < "$TMP/small.dump"
check "base: exit 0" 0 $?
check "base: it saw JIT events" "true true" "$(jit_events "$TMP/base")"
$DA -q --dump "$SAMPLES/jv.dump" --out-dir "$TMP/jv" 2> /dev/null
check "a -jv dump: it saw JIT events" "true true" "$(jit_events "$TMP/jv")"

# ---- luajit -jdump=+x nosuch.lua | dumpanalyze: luajit fails on stderr,
# the dump is empty; the run used to exit 0 even with --strict.
nosuch() { # NAME ARGS...: the pipe, its parts' statuses and outputs in $TMP/NAME.*
	name=$1
	shift
	{ (cd "$TMP" && luajit -jdump=+x nosuch.lua 2> "$TMP/$name.lj"; echo $? > "$TMP/$name.ljst") |
	  tee "$TMP/$name.dump" | $DA "$@" > "$TMP/$name.out" 2> "$TMP/$name.err"; echo $? > "$TMP/$name.st"; }
}
nosuch ns --out-dir "$TMP/ns"
check "nosuch.lua: luajit fails" "1 luajit: cannot open nosuch.lua: No such file or directory" \
	"$(cat "$TMP/ns.ljst") $(cat "$TMP/ns.lj")"
check "nosuch.lua: the dump is empty" 0 "$(wc -c < "$TMP/ns.dump")"
check "nosuch.lua: exit 0 (a warning)" 0 "$(cat "$TMP/ns.st")"
check "nosuch.lua: the warning, once" "<stdin>: warning: $EMPTY" "$(grep 'JIT events' "$TMP/ns.err")"
check "nosuch.lua: the manifest says so" "false true" "$(jit_events "$TMP/ns")"
check "nosuch.lua: the warning counted, in the accounting and summary.txt" "  warnings             1|  warnings                 1" \
	"$(grep '^  warnings ' "$TMP/ns.err")|$(grep '^  warnings ' "$TMP/ns/summary.txt")"
# --strict: exit 3, and the directory keeps the run it held
cp -rp "$TMP/base" "$TMP/kept"
cp -rp "$TMP/base" "$TMP/kept.before"
nosuch nss --strict --out-dir "$TMP/kept"
check "nosuch.lua, --strict: exit 3" 3 "$(cat "$TMP/nss.st")"
check "nosuch.lua, --strict: the error, alone" "<stdin>: error: $EMPTY" "$(cat "$TMP/nss.err")"
check "nosuch.lua, --strict: the directory as it was" "" "$(diff -r "$TMP/kept.before" "$TMP/kept")"

# ---- A program that never gets hot: its dump is its own output only.
(cd "$SAMPLES" && luajit -jdump=+x lua/cold.lua) > "$TMP/cold.dump"
check "cold.lua: the dump is the program's line" 55 "$(cat "$TMP/cold.dump")"
$DA --views traces --dump "$TMP/cold.dump" --out-dir "$TMP/cold" > /dev/null 2> "$TMP/err"
check "cold.lua: exit 0 (a warning)" 0 $?
check "cold.lua: the warning" "$TMP/cold.dump:1: warning: no '---- TRACE' line and no -jv line in 1 lines: $NOTDUMP" \
	"$(grep ": warning:" "$TMP/err")"
check "cold.lua: the manifest says so" "false true" "$(jit_events "$TMP/cold")"
$DA -q --strict --views traces --dump "$TMP/cold.dump" --out-dir "$TMP/colds" > /dev/null 2> "$TMP/err"
check "cold.lua, --strict: exit 3" 3 $?
check "cold.lua, --strict: the error" "$TMP/cold.dump:1: error: no '---- TRACE' line and no -jv line in 1 lines: $NOTDUMP" \
	"$(cat "$TMP/err")"

# ---- An empty file.
: > "$TMP/empty.dump"
$DA -q --views traces --dump "$TMP/empty.dump" --out-dir "$TMP/empty" > /dev/null 2> "$TMP/err"
check "empty file: exit 0, the warning" "0 $TMP/empty.dump: warning: $EMPTY" "$? $(cat "$TMP/err")"
check "empty file: the manifest says so" "false true" "$(jit_events "$TMP/empty")"
$DA -q --strict --views traces --dump "$TMP/empty.dump" --out-dir "$TMP/emptys" > /dev/null 2> "$TMP/err"
check "empty file, --strict: exit 3, the error" "3 $TMP/empty.dump: error: $EMPTY" "$? $(cat "$TMP/err")"
check "empty file, --strict: no manifest" no "$([ -e "$TMP/emptys/manifest.json" ] && echo yes || echo no)"

# ---- Program output only: the lines of mixed-stdout.dump that its
# program printed (mixed.lua's print and io.write lines).
grep -E '^(mixed|print|io\.write):' "$SAMPLES/mixed-stdout.dump" > "$TMP/prog.txt"
check "program output: mixed.lua's 14 lines" 14 "$(wc -l < "$TMP/prog.txt")"
$DA -q --views traces --dump "$TMP/prog.txt" --out-dir "$TMP/prog" > /dev/null 2> "$TMP/err"
check "program output: exit 0, the warning" \
	"0 $TMP/prog.txt:14: warning: no '---- TRACE' line and no -jv line in 14 lines: $NOTDUMP" "$? $(cat "$TMP/err")"
check "program output: the manifest says so" "false true" "$(jit_events "$TMP/prog")"
$DA -q --strict --views traces --dump "$TMP/prog.txt" --out-dir "$TMP/progs" > /dev/null 2> "$TMP/err"
check "program output, --strict: exit 3" 3 $?

# ---- --compare of the real pair: the base against the run that did not
# run passed README's gate ("traces compiled 94 -> 0", exit 0).
said() { # OLD NEW: "NEW (DIR) saw no JIT events ..." for the empty side
	echo "dumpanalyze: $1 ($2) saw no JIT events: no trace, abort or -jv line in its input, while $3 did; not compared (--allow-empty compares them anyway)"
}
$DA --compare "$TMP/base" "$TMP/ns" --fail-on "$RULES" > "$TMP/out" 2> "$TMP/err"
check "compare: NEW empty, exit 2" 2 $?
check "compare: NEW empty, says which" "$(said NEW "$TMP/ns" OLD)" "$(cat "$TMP/err")"
check "compare: NEW empty, no report" "" "$(cat "$TMP/out")"
$DA --compare "$TMP/ns" "$TMP/base" > "$TMP/out" 2> "$TMP/err"
check "compare: OLD empty, without rules too: exit 2" 2 $?
check "compare: OLD empty, says which" "$(said OLD "$TMP/ns" NEW)" "$(cat "$TMP/err")"
$DA --compare "$TMP/base" "$TMP/prog" --json > "$TMP/out" 2> "$TMP/err"
check "compare: program output only, --json: exit 2, no JSON" "2 0" "$? $(wc -c < "$TMP/out")"
$DA --compare "$TMP/ns" "$TMP/empty" > /dev/null 2> "$TMP/err"
check "compare: both empty: exit 2" 2 $?
check "compare: both empty: says so" "dumpanalyze: neither OLD ($TMP/ns) nor NEW ($TMP/empty) saw a JIT event: no trace, abort or -jv line in their input; nothing to compare (--allow-empty compares them anyway)" \
	"$(cat "$TMP/err")"
# --allow-empty: compared, flagged, and the numbers are the dump's
stops=$(grep -c '^---- TRACE [0-9]* stop' "$TMP/small.dump")
$DA --compare "$TMP/base" "$TMP/ns" --allow-empty > "$TMP/out" 2> "$TMP/err"
check "--allow-empty: exit 0" "0 " "$? $(cat "$TMP/err")"
check "--allow-empty: flagged" "  NEW saw no JIT events (no trace, abort or -jv line in its input): compared under --allow-empty" \
	"$(grep 'JIT events' "$TMP/out")"
check "--allow-empty: traces from the dump to none" "$stops -> 0" "$(grep '^  traces compiled' "$TMP/out" | awk '{print $3, $4, $5}')"
$DA --compare "$TMP/base" "$TMP/ns" --allow-empty --json > "$TMP/out.json"
check "--allow-empty: JSON" "true false" "$(jq -r '.dumps[0] | "\(.old_jit_events) \(.new_jit_events)"' "$TMP/out.json")"
$DA --compare "$TMP/base" "$TMP/ns" --allow-empty --fail-on traces-10% > /dev/null 2>&1
check "--allow-empty: traces-10% trips" 1 $?
$DA --dump "$TMP/small.dump" --allow-empty > /dev/null 2> "$TMP/err"
check "--allow-empty without --compare" "1 dumpanalyze: --allow-empty goes with --compare" "$? $(cat "$TMP/err")"
# a manifest of 0.3.0 (no "jit_events") is not taken for an empty run
cp -rp "$TMP/base" "$TMP/old03"
jq 'del(.jit_events)' "$TMP/base/manifest.json" > "$TMP/old03/manifest.json"
$DA --compare "$TMP/old03" "$TMP/base" --fail-on "$RULES" --json > "$TMP/out.json"
check "0.3.0 manifest: compared, exit 0" 0 $?
check "0.3.0 manifest: null, not false" "null true" "$(jq -r '.dumps[0] | "\(.old_jit_events) \(.new_jit_events)"' "$TMP/out.json")"
$DA --compare "$TMP/old03" "$TMP/ns" > /dev/null 2> "$TMP/err"
check "0.3.0 manifest against an empty run: refused" "2 $(said NEW "$TMP/ns" OLD)" "$? $(cat "$TMP/err")"

# ---- Several dumps: an empty one is refused by name.
mkdir -p "$TMP/real" "$TMP/none"
cp "$TMP/small.dump" "$TMP/real/app.dump"
cp "$TMP/small.dump" "$TMP/real/lib.dump"
cp "$TMP/small.dump" "$TMP/none/app.dump"
: > "$TMP/none/lib.dump"
$DA -q --dump "$TMP/real/app.dump" --dump "$TMP/real/lib.dump" --out-dir "$TMP/m1" > /dev/null 2>&1
$DA -q --dump "$TMP/none/app.dump" --dump "$TMP/none/lib.dump" --out-dir "$TMP/m2" > /dev/null 2>&1
check "several: the empty dump's manifest" "false true" "$(jit_events "$TMP/m2/lib.dump")"
$DA --compare "$TMP/m1" "$TMP/m2" > "$TMP/out" 2> "$TMP/err"
check "several: exit 2" 2 $?
check "several: says which" "$(said NEW "$TMP/m2/lib.dump" OLD)" "$(cat "$TMP/err")"
finish
