#!/bin/sh
# fuzz.sh DUMPANALYZE — what the fuzzers start from and keep: each seed
# tests/fuzz/seeds.sh cuts has the shape it is cut for (counted from its
# own text), the committed corpora stay within their caps, the ledger is
# well formed.  (The regressions run in formats.sh; fuzzing itself is
# `make fuzz`.)
SUITE=fuzz
. "$(dirname "$0")/setup.sh"
F=$TOP/tests/fuzz
SEEDS=$TMP/seeds
DUMPANALYZE=$DA_BIN sh "$F/seeds.sh" "$SEEDS"
D=$SEEDS/dump

# run NAME: the seed through the tool into $TMP/NAME; its exit status.
run() {
	$DA -q --views traces,abort-reasons,exits --dump "$D/$1" --out-dir "$TMP/$1" 2> "$TMP/$1.err"
}
rows() { tail -n +2 "$1" | wc -l; }       # a CSV's rows but its header
body() { tail -n +2 "$1" | tr -d '\r'; }    # ... as text (CSV lines end in CRLF)
headers() { grep -c "^---- TRACE [0-9]* $2" "$D/$1"; }

n=0
for s in "$D"/*; do
	n=$((n + 1))
	name=$(basename "$s")
	check "seed $name: at most 3200 bytes" yes "$([ "$(wc -c < "$s")" -le 3200 ] && echo yes || echo no)"
	run "$name"
	check "seed $name: exit status" 0 $?
done
ran "seeds" "$n" 26

check "seed trace: one trace, as its stop line" "1 1" "$(headers trace stop) $(rows "$TMP/trace/gen-1-traces.csv")"
check "seed trace: its mcode size" "$(sed -n 's/^---- TRACE 2 mcode //p' "$D/trace")" \
	"$(body "$TMP/trace/gen-1-traces.csv" | cut -d, -f7)"
for v in trace-crlf trace.gz trace.xz trace.zst; do
	check "seed $v = seed trace" "" "$(diff -r -x manifest.json "$TMP/trace" "$TMP/$v" 2>&1 | head -3)"
done
check "seed html: traces = stop lines" "$(grep -c '^---- TRACE [0-9]* stop' "$D/html")" \
	"$(rows "$TMP/html/gen-1-traces.csv")"
check "seed html: no warning (markup all taken out)" "" "$(cat "$TMP/html.err")"
check "seed abort: one abort, its reason" "1 NYI: bytecode 71,1" \
	"$(headers abort abort) $(body "$TMP/abort/gen-1-abort-reasons.csv")"
check "seed abort: no trace" 0 "$(rows "$TMP/abort/gen-1-traces.csv")"
check "seed flush: two generations" "1 yes" \
	"$(grep -c '^---- TRACE flush' "$D/flush") $([ -f "$TMP/flush/gen-2-traces.csv" ] && echo yes)"
check "seed flush: traces per generation" "1 1" \
	"$(rows "$TMP/flush/gen-1-traces.csv") $(rows "$TMP/flush/gen-2-traces.csv")"
check "seed bush: traces = stop lines" "$(headers bush stop)" "$(rows "$TMP/bush/gen-1-traces.csv")"
check "seed bush: side traces" "$(grep -c '^---- TRACE [0-9]* start [0-9]*/' "$D/bush")" \
	"$(body "$TMP/bush/gen-1-traces.csv" | cut -d, -f2 | grep -vc '^0$')"
check "seed stitch: stitched trace's link" "stitch" "$(body "$TMP/stitch/gen-1-traces.csv" | tail -n 1 | cut -d, -f3)"
check "seed exits-orphan: exits = exit lines" "$(headers exits-orphan exit)" \
	"$(body "$TMP/exits-orphan/gen-1-exits.csv" | awk -F, '{ s += $3 } END { print s }')"
check "seed trace-regs-exit: one exit" "1 1,0,1," \
	"$(headers trace-regs-exit exit) $(body "$TMP/trace-regs-exit/gen-1-exits.csv")"
check "seed jv: traces = numbered [TRACE lines" "$(grep -c '^\[TRACE  *[0-9]' "$D/jv")" \
	"$(rows "$TMP/jv/gen-1-traces.csv")"
check "seed ansi: has escapes" yes "$(grep -q "$(printf '\033')" "$D/ansi" && echo yes)"
check "seed ansi: one trace" 1 "$(rows "$TMP/ansi/gen-1-traces.csv")"

# fuzz_combined's seeds: each dump seed behind its 9-byte head, byte 0
# the seed's place in name order.
n=0
for s in "$D"/*; do
	name=$(basename "$s")
	c=$SEEDS/combined/$name
	check "combined seed $name: the dump seed after 9 bytes" "" "$(tail -c +10 "$c" | cmp - "$s" 2>&1)"
	check "combined seed $name: byte 0" "$(printf '%03o' $((n % 32)))" "$(od -An -N1 -to1 "$c" | tr -d ' ')"
	n=$((n + 1))
done
ran "combined seeds" "$n" 26
check "combined seed loader-calls: a chunk name with a '/', and an abort in it" "yes" \
	"$(grep -q '^---- TRACE [0-9]* abort views/cart.lua:5 -- ' "$SEEDS/combined/loader-calls" && echo yes)"
check "combined.dict holds every line of dump.dict but its heading" "" \
	"$(sed '1,4d' "$F/dump.dict" | grep -vxF -f "$F/combined.dict" | head -3)"

# Profiles: each is read (-jp=f is refused, exit 3, as the tool does).
sh "$F/seeds.sh" --profile-dump > "$TMP/join.dump"
n=0
for p in "$SEEDS"/profile/*; do
	n=$((n + 1))
	name=$(basename "$p")
	want=0
	[ "$name" = costly-f ] && want=3
	$DA -q --views profile --dump "$TMP/join.dump" --profile "$p" --out-dir "$TMP/p-$name" 2> /dev/null
	check "profile seed $name: exit status" $want $?
done
ran "profile seeds" "$n" 11
check "the dump joined with profiles: 78 lines of costly.dump" \
	"78 $(sed -n 3026p "$SAMPLES/costly.dump")" "$(wc -l < "$TMP/join.dump") $(head -n 1 "$TMP/join.dump")"

# --compare's seeds: real runs packed, each unpacking to the directory the
# tool wrote (its manifest lists every file there) that --compare reads.
n=0
for c in "$SEEDS"/compare/*; do
	n=$((n + 1))
	name=$(basename "$c")
	sh "$F/unpack.sh" "$c" "$TMP/c-$name"
	check "compare seed $name: the files its manifest lists" \
		"$(sed -n '/"files"/,/]/p' "$TMP/c-$name/manifest.json" | sed -n 's/^ *"\(.*\)",*$/\1/p' | sort | tr '\n' ' ')" \
		"$(cd "$TMP/c-$name" && ls | grep -vx manifest.json | sort | tr '\n' ' ')"
	$DA --compare "$TMP/c-$name" "$TMP/c-$name" > "$TMP/c-$name.out" 2>&1
	check "compare seed $name: compared with itself, exit 0" 0 $?
done
ran "compare seeds" "$n" 8

# The committed corpora (tests/fuzz/corpus-TARGET.tar.xz): each within its
# cap, each input within its target's longest, every member a plain file
# of the top directory (no path, link or device to unpack), and all of
# tests/fuzz/ under 2 MB.
n=0
for t in dump combined profile compare; do
	set -- $(sh "$F/fuzz.sh" limits $t)
	max_len=$1 cap=$2
	[ -f "$F/corpus-$t.tar.xz" ] || continue
	n=$((n + 1))
	bytes=$(wc -c < "$F/corpus-$t.tar.xz")
	check "corpus-$t: within its cap of $cap bytes" yes "$([ "$bytes" -le "$cap" ] && echo yes || echo "no: $bytes")"
	xz -dc "$F/corpus-$t.tar.xz" | tar -tvf - > "$TMP/corpus-$t.list"
	check "corpus-$t: inputs" yes "$([ "$(grep -c '^-' "$TMP/corpus-$t.list")" -gt 0 ] && echo yes)"
	check "corpus-$t: only plain files at the top" "" \
		"$(awk '$1 !~ /^-/ && $6 != "./" || $1 ~ /^-/ && $6 !~ /^\.\/[^\/]+$/' "$TMP/corpus-$t.list" | head -3)"
	check "corpus-$t: no input over $max_len bytes" "" \
		"$(awk -v m=$max_len '$1 ~ /^-/ && $3 > m' "$TMP/corpus-$t.list" | head -3)"
done
ran "committed corpora" "$n" 4
check "tests/fuzz/ under 2 MB" yes \
	"$([ "$(du -sk --exclude=fuzz_dump --exclude=fuzz_profile --exclude=fuzz_compare --exclude=fuzz_sysprof --exclude=fuzz_combined --exclude=crashes "$F" | cut -f1)" -lt 2048 ] && echo yes)"

# The ledger: date, target, executions, seconds, CPU seconds, ok or
# crash:FILE, commit.
check "ledger: every line well formed" "" \
	"$(grep -v '^#' "$F/LEDGER" | awk -F'\t' 'NF != 7 || $2 !~ /^(dump|combined|profile|compare|sysprof)$/ || $3 !~ /^[0-9]+$/ || $4 !~ /^[0-9]+$/ || $5 !~ /^[0-9]+$/ || $6 !~ /^(ok|crash:.+|starved:.+)$/' | head -3)"
check "ledger: total = the sum of its dump lines" \
	"$(grep -v '^#' "$F/LEDGER" | awk -F'\t' '$2 == "dump" { s += $3 } END { print s + 0 }')" \
	"$(sh "$F/fuzz.sh" total | sed -n 's/^fuzz_dump: \([0-9]*\) executions.*/\1/p')"
finish
