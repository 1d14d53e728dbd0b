#!/bin/sh
# diagnose.sh DUMPANALYZE — summary.txt's diagnoses (flush causes, storms,
# side-trace explosions, long chains, blacklisting after mcode) and its
# caps, on real dumps, each line checked against counts from the dump text.
SUITE=diagnose
. "$(dirname "$0")/setup.sh"

summary() { # DUMP: summary.txt of the dump
	$DA -q --views summary --dump "$SAMPLES/$1.dump" --out-dir "$TMP/$1" > /dev/null
	check "$1: exit status" 0 $?
}
diag() { # DUMP: the diagnoses section, without its header
	sed -n '/^diagnoses$/,/^$/p' "$TMP/$1/summary.txt" | sed '1d;$d'
}

# mcode-full: both flushes come right after "failed to allocate mcode memory".
summary mcode-full
d=$SAMPLES/mcode-full.dump
n=$(grep -A2 -E '^---- TRACE [0-9]+ abort .* -- failed to allocate mcode memory$' "$d" | grep -c '^---- TRACE flush$')
check "mcode-full: flushes after an mcode abort in the dump" 2 "$n"
check "mcode-full: diagnoses" "  $n flushes after machine code memory ran out (\"failed to allocate mcode memory\"), after gen 1-2
    try -Omaxmcode=1024 (KB; default 512 in LuaJIT 2.0/2.1 beta3; a generation held up to 4 KB of traces)" \
	"$(diag mcode-full)"
# (4 KB: the largest generation's SIZE_MC, in whole KB, is what -Omaxmcode=4 allowed)
$DA -q --views traces --dump "$d" --out-dir "$TMP/mf-t" > /dev/null
kb=$(for f in "$TMP"/mf-t/gen-*-traces.csv; do grep -v '^ID,' "$f" | awk -F, '{s += $7} END {print int((s + 1023) / 1024)}'; done | sort -n | tail -n 1)
check "mcode-full: largest generation's machine code in KB" 4 "$kb"

# flush.dump: three jit.flush() calls, no abort before any of them.
summary flush
d=$SAMPLES/flush.dump
check "flush: flush lines in the dump" 3 "$(grep -c '^---- TRACE flush$' "$d")"
check "flush: no abort right before a flush" 0 \
	"$(grep -B3 '^---- TRACE flush$' "$d" | grep -c 'abort')"
check "flush: diagnoses" "  3 explicit flushes (jit.flush(): no abort before, below the trace limit), after gen 1-3" \
	"$(diag flush)"

# maxtrace.dump (-Omaxtrace=100): every flush ends a generation at trace 100;
# 10 flushes are a storm.
summary maxtrace
d=$SAMPLES/maxtrace.dump
highs=$(awk '/^---- TRACE [0-9]+ (start|abort)/ { n = $3 + 0; if (n > h) h = n }
	/^---- TRACE flush$/ { printf "%d ", h; h = 0 }' "$d")
check "maxtrace: highest trace number before each flush" \
	"100 100 100 100 100 100 100 100 100 100 " "$highs"
diag maxtrace > "$TMP/mt.diag"
check "maxtrace: storm line" \
	"  flush storm: 10 flushes, each threw away every compiled trace (0 machine code, 10 trace limit, 0 explicit)" \
	"$(sed -n 1p "$TMP/mt.diag")"
check "maxtrace: cause with the number and the option" \
	"  10 flushes at trace 100, the trace limit (maxtrace), after gen 1-10
    try -Omaxtrace=200 (default 1000; 8000 in OpenResty's luajit2)" \
	"$(sed -n 2,3p "$TMP/mt.diag")"

# Side-trace explosion: compiled side traces per (generation, start line),
# counted from the dump: a side trace's start header followed by its stop.
sides() { # DUMP: "COUNT GEN LOC" for every line with >= 10, most first
	awk '/^---- TRACE flush$/ { g++ }
		/^---- TRACE [0-9]+ start [0-9]+\/[0-9]+ / { at[$3] = $6 }
		/^---- TRACE [0-9]+ start [^0-9]/ { at[$3] = "" }
		/^---- TRACE [0-9]+ stop/ { if (at[$3] != "") c[g + 1 " " at[$3]]++ }
		END { for (k in c) if (c[k] >= 10) print c[k], k }' "$1" | sort -k1,1nr -k2,2n
}
summary luacheck
sides "$SAMPLES/luacheck.dump" > "$TMP/lc.sides"
check "luacheck: one line with 10 or more side traces in the dump" "11 1 standards.lua:132" "$(cat "$TMP/lc.sides")"
check "luacheck: explosion line" "  side-trace explosion: 11 side traces start at standards.lua:132 (gen 1)" \
	"$(diag luacheck | grep explosion)"
# The longest chain: side trace of side trace ..., depth counted from the dump.
depth=$(awk '/^---- TRACE [0-9]+ start [0-9]+\/[0-9]+ / { split($5, p, "/"); d[$3] = d[p[1]] + 1; at[$3] = $3 " \342\206\222 " $6 }
	/^---- TRACE [0-9]+ start [^0-9]/ { d[$3] = 0 }
	/^---- TRACE [0-9]+ stop/ { if (d[$3] > m) { m = d[$3]; w = at[$3] } }
	END { print m, w }' "$SAMPLES/luacheck.dump")
check "luacheck: deepest chain in the dump" "10 32 → standards.lua:132" "$depth"
check "luacheck: chain line" "  long side-trace chain: 10 side traces deep, ending at trace 32 → standards.lua:132 (gen 1)" \
	"$(diag luacheck | grep chain)"
# maxtrace.dump has 10 such lines: 3 shown, "… 7 more".
sides "$SAMPLES/maxtrace.dump" > "$TMP/mt.sides"
check "maxtrace: lines with 10 or more side traces" 10 "$(wc -l < "$TMP/mt.sides")"
check "maxtrace: the top one" "24 3 parser.lua:68" "$(head -n 1 "$TMP/mt.sides")"
check "maxtrace: explosions shown, then the rest counted" \
	"  side-trace explosion: 24 side traces start at parser.lua:68 (gen 3)
  side-trace explosion: 22 side traces start at detect_unused_fields.lua:66 (gen 9)
  side-trace explosion: 21 side traces start at parser.lua:68 (gen 2)
  … 7 more lines with 10 or more side traces in one generation (gen-N-traces.csv)" \
	"$(grep -e explosion -e 'more lines' "$TMP/mt.diag")"

# Chains reaching 8 deep in maxtrace.dump (the trace at depth 8 of each),
# counted from the compiled traces; the 3 deepest shown, then the count.
n8=$(awk '/^---- TRACE flush$/ { delete d }
	/^---- TRACE [0-9]+ start [0-9]+\/[0-9]+ / { split($5, p, "/"); nd[$3] = d[p[1]] + 1 }
	/^---- TRACE [0-9]+ start [^0-9]/ { nd[$3] = 0 }
	/^---- TRACE [0-9]+ stop/ { d[$3] = nd[$3]; if (nd[$3] == 8) n++ }
	END { print n }' "$SAMPLES/maxtrace.dump")
check "maxtrace: chains reaching 8 deep in the dump" 8 "$n8"
check "maxtrace: chains shown, then counted" \
	"  long side-trace chain: 12 side traces deep, ending at trace 95 → parser.lua:68 (gen 3)
  long side-trace chain: 10 side traces deep, ending at trace 100 → parser.lua:68 (gen 2)
  long side-trace chain: 9 side traces deep, ending at trace 99 → parser.lua:68 (gen 3)
  … $n8 side-trace chains reach 8 deep in all (gen-N-traces.csv)" \
	"$(grep -e 'chain' "$TMP/mt.diag")"

# No diagnosis: one generation, no explosion.
summary penlight-x
check "penlight-x: no diagnoses" "  (none: no flushes, side-trace explosions or long chains)" "$(diag penlight-x)"

# Caps: every list stops at 10 rows and counts the rest.
$DA -q --views summary,blacklist,exits --dump "$SAMPLES/maxtrace.dump" --out-dir "$TMP/mtb" > /dev/null
rows=$(cat "$TMP"/mtb/gen-*-blacklist.csv | grep -v '^START_FILE,' | tr -d '\r' | grep -c -v ',yes$')
check "maxtrace: likely blacklisted rows in the CSVs" 50 "$rows"
check "maxtrace: blacklist list capped at 10" 10 \
	"$(sed -n '/^likely blacklisted$/,/^$/p' "$TMP/mtb/summary.txt" | grep -c '^  gen ')"
check "maxtrace: blacklist rest counted" "  … $((rows - 10)) more in gen-N-blacklist.csv" \
	"$(grep 'more in gen-N-blacklist.csv' "$TMP/mtb/summary.txt")"
check "maxtrace: per generation capped" "  … 1 more generation in gen-N-traces.csv (one file each)" \
	"$(sed -n '/^per generation$/,$p' "$TMP/mtb/summary.txt" | grep '…')"
# Exits with their trace's start: flush.dump has 22 distinct exits, 15
# without a side trace.
$DA -q --views summary,exits --dump "$SAMPLES/flush.dump" --out-dir "$TMP/fx" > /dev/null
ne=$(cat "$TMP"/fx/gen-*-exits.csv | grep -v '^TRACE,' | wc -l)
nc=$(cat "$TMP"/fx/gen-*-exits.csv | grep -v '^TRACE,' | tr -d '\r' | grep -c ',$')
check "flush: exits in the CSVs (all, without side trace)" "22 15" "$ne $nc"
# exits without a side trace first (each taking returns to the
# interpreter), then the 7 with one, all shown
check "flush: exits rest counted" "  … $((nc - 10)) more in gen-N-exits.csv" \
	"$(grep 'more in gen-N-exits.csv' "$TMP/fx/summary.txt")"
check "flush: exits with a side trace, all listed" "$((ne - nc))" \
	"$(sed -n '/^exits that grew a side trace/,/^$/p' "$TMP/fx/summary.txt" | grep -c '  side trace [0-9]')"
check "flush: exits without, first, 10 of them" 10 \
	"$(sed -n '/^exits without a side trace/,/^$/p' "$TMP/fx/summary.txt" | grep -c '^  gen .* taken')"
# exit 8/2 of gen 1: the last trace 8 of generation 1 (earlier attempts
# with that number aborted) starts at tablex.lua:424.
loc=$(awk '/^---- TRACE flush$/ { exit } /^---- TRACE 8 start / { l = $5 } END { print l }' "$SAMPLES/flush.dump")
check "flush: trace 8 of gen 1 in the dump" "tablex.lua:424" "$loc"
check "flush: exit 8/2 with its trace's start" "  gen 1    exit      8/2    taken         3  → $loc" \
	"$(grep -m1 'exit      8/2 ' "$TMP/fx/summary.txt")"

finish
