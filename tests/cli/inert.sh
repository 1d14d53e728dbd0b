#!/bin/sh
# inert.sh DUMPANALYZE — names and reasons from a dump reach people only
# as inert text: samples/controls.dump (lua/controls.lua, real LuaJIT)
# names chunks with a lone CR and a workflow command, BEL and ESC, C1
# controls (8-bit CSI and OSC), bidi overrides and isolates, and vim's
# "|7|"; its program forges an abort whose reason holds a CR and
# "::add-mask::", and one whose chunk name holds a NUL.  Every output a
# person reads (the summary on stdout and in summary.txt, the several-
# dumps summary, source.txt, --compare's text, messages on stderr) shows
# them escaped by the one rule of output/termtext.h, byte for byte;
# problems.txt, --format=gcc and --annotate are oncode.sh's.
SUITE=inert
. "$(dirname "$0")/setup.sh"

C=$SAMPLES/controls.dump
# What the sample must hold for the checks below to mean anything.
check "the sample: a lone CR in a chunk name's 3 aborts and in a forged reason" "3 1" \
	"$(grep -ac "$(printf '^---- TRACE 1 abort cr\r::error ::forged by a chunk name:2 -- NYI')" "$C") $(grep -ac -e "$(printf -- '-- NYI: bytecode 51\r::add-mask::secret$')" "$C")"
check "the sample: BEL, 8-bit CSI and OSC, RLO, LRI and PDI, a NUL" "1 1 1 1 1 1 1" \
	"$(for b in '\007' '\302\233' '\302\235' '\342\200\256' '\342\201\246' '\342\201\251'; do
		grep -ac "$(printf "$b")" "$C" | sed 's/^[1-9][0-9]*$/1/'; done | paste -sd' ') $(tr -cd '\000' < "$C" | wc -c | sed 's/^[1-9][0-9]*$/1/')"

# raw FILE...: how many lines of the files hold a byte a terminal, a CI
# log or an editor would obey: a CR, a C0 control but tab, DEL, a C1
# control, a bidi control or a line separator.
raw() {
	cat "$@" | LC_ALL=C grep -ac "$(printf '[\001-\010\013-\037\177]\|\302[\200-\237]\|\342\200[\216\217\250-\256]\|\342\201[\246-\251]\|\330\234')"
}
check "raw finds the sample's own lines (the check below can fail)" 1 \
	"$(raw "$C" | sed 's/^[1-9][0-9]*$/1/')"

# ---- the summary: stdout and summary.txt ---------------------------------
(cd "$SAMPLES" && $DA --dump controls.dump --out-dir "$TMP/c") > "$TMP/c.out" 2> "$TMP/c.err"
check "controls: exit 0" 0 $?
check_file "controls: stdout is summary.txt" "$TMP/c/summary.txt" "$TMP/c.out"
check "controls: no raw control, C1 or bidi byte in the summary or the messages" "0" \
	"$(raw "$TMP/c.out" "$TMP/c.err")"
check "controls: the top abort reasons, the forged one's CR escaped" \
	"        27  NYI: bytecode 51
         3      cr\\r::error ::forged by a chunk name:2
                failed at 0006  FNEW     5   0      ; cr\\r::error ::forged by a chunk name:2, dump line 11
         3      bel\\x07esc]0;retitled\\x07:2
                failed at 0006  FNEW     5   0      ; bel\\x07esc]0;retitled\\x07:2, dump line 23
         3      c1\\xc2\\x9b31mred\\xc2\\x9dosc:2
                failed at 0006  FNEW     5   0      ; c1\\xc2\\x9b31mred\\xc2\\x9dosc:2, dump line 35
         1  NYI: bytecode 51\\r::add-mask::secret" \
	"$(sed -n '/^top abort reasons/,/^$/p' "$TMP/c/summary.txt" | grep -v 'bytecode FNEW --\|NYIBC' | sed -n '2,9p')"
check "controls: the files, each name escaped" \
	"         3        3  cr\\r::error ::forged by a chunk name
         3        3  bel\\x07esc]0;retitled\\x07
         3        3  c1\\xc2\\x9b31mred\\xc2\\x9dosc
         3        3  lua/app.lua|7| x
         3        3  a\"b.lua\" 7: x
         3        3  x.lua(12): y
         3        3  x.lua:12:3: y
         3        3  bidi\\u202eaul.evil
         2        2  iso\\u2066x\\u2069
         1        1  forged.lua" \
	"$(sed -n '/^files and chunk families/,/^$/p' "$TMP/c/summary.txt" | sed -n '3,12p')"
check "controls: the bush and the exit under a name with a CR" \
	"  gen 1    bush 1               1 traces        82 bytes mcode  → loop\\r::warning ::forged by a trace:2
  gen 1    exit      1/3    taken         1  → loop\\r::warning ::forged by a trace:2" \
	"$(grep ' → loop' "$TMP/c/summary.txt")"

# ---- several dumps -------------------------------------------------------
(cd "$SAMPLES" && $DA --dump controls.dump --dump hostile.dump --out-dir "$TMP/m") \
	> "$TMP/m.out" 2> "$TMP/m.err"
check "several dumps: exit 0" 0 $?
check "several dumps: no raw control, C1 or bidi byte in the summary or the messages" "0" \
	"$(raw "$TMP/m.out" "$TMP/m.err" "$TMP/m/summary.txt")"
check "several dumps: the forged reason escaped" \
	"         1  NYI: bytecode 51\\r::add-mask::secret
         1      forged.lua:2" \
	"$(grep -A1 'add-mask' "$TMP/m/summary.txt")"
check "several dumps: a site's chunk name escaped, in the findings and under its reason" \
	"  3   bidi\\u202eaul.evil:2  aborting-start, costly: NYI: bytecode FNEW; in 1 of 2 dumps, 3 attempts
         3      bidi\\u202eaul.evil:2" "$(grep 'bidi' "$TMP/m/summary.txt")"

# ---- source.txt ----------------------------------------------------------
(cd "$SAMPLES" && $DA -q --views source --dump controls.dump --out-dir "$TMP/s") 2> "$TMP/s.err"
# (forged.lua, which the dump names, is not in samples/: said, nothing else)
check "source: exit 0, no message but sources not found" "0 " "$? $(grep -v ': warning: sources not found: ' "$TMP/s.err")"
check "source: no raw control, C1 or bidi byte in source.txt" "0" "$(raw "$TMP/s/source.txt")"
check "source: the files' headings, escaped" \
	"== 3 bidi\\u202eaul.evil (not found: give --source-root DIR to see its text)
== 5 cr\\r::error ::forged by a chunk name (not found: give --source-root DIR to see its text)
== 11 nul\\x00name.lua (string chunk)" \
	"$(grep '^== [0-9]* \(cr\|bidi\|nul\)' "$TMP/s/source.txt")"

# ---- --compare's text, and its own runs' gen-N.jsonl with a NUL ----------
(cd "$SAMPLES" && $DA -q --views default,jsonl --dump controls.dump --out-dir "$TMP/j1" &&
	$DA -q --views default,jsonl --dump ci-names.dump --out-dir "$TMP/j0") 2> /dev/null
check "the run writes the NUL as \\u0000 in gen-1.jsonl" 1 "$(grep -c 'nul\\u0000name.lua' "$TMP/j1/gen-1.jsonl")"
$DA --compare "$TMP/j1" "$TMP/j1" > "$TMP/self.out" 2> "$TMP/self.err"
check "--compare reads its own run's gen-1.jsonl with a NUL: exit 0, no message" "0 " \
	"$? $(cat "$TMP/self.err")"
$DA --compare "$TMP/j0" "$TMP/j1" > "$TMP/cmp.out" 2> "$TMP/cmp.err"
check "--compare: exit 0" 0 $?
check "--compare: no raw control, C1 or bidi byte in its text or messages" "0" \
	"$(raw "$TMP/cmp.out" "$TMP/cmp.err")"
check "--compare: the new reason and the new sites, escaped" \
	"    new         0 -> 1      NYI: bytecode 51\\r::add-mask::secret
    new         0 -> 3      bidi\\u202eaul.evil:2  NYI: bytecode FNEW
    new         0 -> 3      cr\\r::error ::forged by a chunk name:2  NYI: bytecode FNEW
    new         0 -> 1      forged.lua:2  NYI: bytecode 51\\r::add-mask::secret
    new         0 -> 1      nul:2  NYI: bytecode FNEW" \
	"$(grep '^    new         0 -> .*\(add-mask\|bidi\|cr\\r\|nul\)' "$TMP/cmp.out")"

# ---- messages on stderr ----------------------------------------------------
EVIL=$(printf '%s/no\033]0;t\007\r::error ::x\302\233such.dump' "$TMP")
$DA --dump "$EVIL" --out-dir "$TMP/nx" > /dev/null 2> "$TMP/nx.err"
check "a dump's path in a message: exit 2, escaped" \
	"2 dumpanalyze: cannot read dump $TMP/no\\x1b]0;t\\x07\\r::error ::x\\xc2\\x9bsuch.dump: No such file or directory" \
	"$? $(cat "$TMP/nx.err")"

finish
