#!/bin/sh
# compare.sh DUMPANALYZE — --compare on the outputs of two real dumps of
# different programs, and --fail-on as a CI gate.
SUITE=compare
. "$(dirname "$0")/setup.sh"

$DA -q --dump "$SAMPLES/penlight-x.dump" --out-dir "$TMP/a" > /dev/null
$DA -q --dump "$SAMPLES/luacheck.dump" --out-dir "$TMP/b" > /dev/null
$DA -q --dump "$SAMPLES/flush.dump" --out-dir "$TMP/f" > /dev/null

$DA --compare "$TMP/a" "$TMP/a" --fail-on 'aborts+0,aborts+0%,traces-0%,new-reasons,new-sites' > "$TMP/same"
check "same directory: exit 0 under every rule" 0 $?
check "same directory: no change" "  aborts                   47 -> 47" "$(grep -m1 '^  aborts' "$TMP/same" | sed 's/ *$//')"

$DA --compare "$TMP/a" "$TMP/b" > "$TMP/ab"
check "without --fail-on: exit 0" 0 $?
a_rows=$(grep -vc '^ID,' "$TMP/a/gen-1-traces.csv")
b_rows=$(grep -vc '^ID,' "$TMP/b/gen-1-traces.csv")
check "traces compiled from the two traces.csv" "$a_rows -> $b_rows" \
	"$(grep -m1 'traces compiled' "$TMP/ab" | awk '{print $3, $4, $5}')"
reasons() { awk '/^  abort reasons:/ { on = 1; next } /^  [a-z]/ { on = 0 } on' "$1"; }
check "a reason only luacheck has is new" 1 "$(reasons "$TMP/ab" | grep -c '^    new .* inner loop in root trace$')"
check "a reason only penlight has is gone" 1 "$(reasons "$TMP/ab" | grep -c '^    gone .* NYI: return to lower frame$')"

$DA --compare "$TMP/a" "$TMP/b" --fail-on new-reasons > "$TMP/gate"
check "new-reasons gate: exit 1" 1 $?
check "new-reasons gate: says why" 1 "$(grep -c '^FAIL: [0-9]* new abort reason' "$TMP/gate")"
$DA --compare "$TMP/b" "$TMP/a" --fail-on 'traces-10%' > "$TMP/gate2"
check "traces-10% gate: exit 1" 1 $?
check "traces-10% gate: says why" "FAIL: compiled traces dropped by more than 10%" "$(grep '^FAIL' "$TMP/gate2")"
$DA --compare "$TMP/a" "$TMP/b" --fail-on 'aborts+1000' > /dev/null
check "aborts+1000 not crossed: exit 0" 0 $?

$DA --compare "$TMP/f" "$TMP/f" > "$TMP/ff"
check "per generation: four of them" 4 "$(grep -c '^generation ' "$TMP/ff")"

$DA --compare "$TMP/a" "$TMP/nope" > /dev/null 2> "$TMP/err"
check "missing directory: exit 2" 2 $?
check "missing directory: message" "dumpanalyze: cannot read $TMP/nope: No such file or directory" "$(cat "$TMP/err")"
$DA --compare "$TMP/a" "$TMP/b" --fail-on 'more-speed' > /dev/null 2> "$TMP/err"
check "bad rule: exit 1" 1 $?
check "bad rule: message" "dumpanalyze: unknown --fail-on rule 'more-speed' (rules: aborts+N, aborts+N%, traces-N%, new-reasons, new-sites)" "$(cat "$TMP/err")"
$DA --compare "$TMP/a" > /dev/null 2> "$TMP/err"
check "one directory: exit 1" 1 $?
$DA --dump "$SAMPLES/rsx.dump" --fail-on new-reasons > /dev/null 2> "$TMP/err"
check "--fail-on without --compare: exit 1" 1 $?
finish
