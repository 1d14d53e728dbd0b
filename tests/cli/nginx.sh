#!/bin/sh
# nginx.sh DUMPANALYZE — a real dump of an nginx worker (OpenResty's
# luajit2 under lua-nginx-module, `bench/gen-nginx-dump.sh --sample`):
# read xz-compressed, no warnings, and counts equal to the dump's own text.
# The literal numbers were counted by hand with grep on
# `xz -dc samples/nginx-worker.dump.xz` (see samples/README.md).
SUITE=nginx
. "$(dirname "$0")/setup.sh"

xz -dc "$SAMPLES/nginx-worker.dump.xz" > "$TMP/nginx.dump"
D=$TMP/nginx.dump
# every bush's text and picture (named views: the default run draws fewer)
$DA -q --views default,bush-txt,bush-png --dump "$SAMPLES/nginx-worker.dump.xz" --out-dir "$TMP/out" > "$TMP/stdout" 2> "$TMP/stderr"
check "exit 0" 0 $?
# the worker's Lua files are not in the repository: said once, nothing else
check "on stderr only that the 8 Lua files were not found" \
	"1 (8 Lua files the findings name, in no source directory)" \
	"$(wc -l < "$TMP/stderr") $(grep -o '(8 Lua files[^)]*)' "$TMP/stderr")"
check "summary.txt: 823 traces, 127 aborts, no flush, no foreign line, no warning" \
	"traces compiled 823 (root 157, side 549, stitched 117, orphan 0)|aborted attempts 127|flushes 0|foreign lines 0|warnings 0|" \
	"$(grep -E '^  (traces compiled|aborted attempts|flushes|foreign lines|warnings) ' "$TMP/out/summary.txt" | sed 's/^  //; s/  */ /g' | tr '\n' '|')"
check "one generation: no flush in the dump" "0 1" \
	"$(grep -c '^---- TRACE flush' "$D") $(ls "$TMP"/out/gen-*-traces.csv | wc -l)"

T=$TMP/out/gen-1-traces.csv
check "traces: 823 rows = 823 stop lines" "823 823" \
	"$(grep -vc '^ID,' "$T") $(grep -c '^---- TRACE [0-9]* stop' "$D")"
check "aborts: 127 in abort-reasons = 127 abort lines" "127 127" \
	"$(grep -v '^REASON,' "$TMP/out/gen-1-abort-reasons.csv" | awk -F, '{ s += $NF } END { print s }') $(grep -c '^---- TRACE [0-9]* abort' "$D")"
check "abort reasons, as the dump words them" \
	"42 leaving loop in root trace|33 NYI: bytecode 51|32 NYI: bytecode 50|14 NYI: return to lower frame|4 trace too short|2 inner loop in root trace|" \
	"$(grep '^---- TRACE [0-9]* abort' "$D" | sed 's/.* -- //' | sort | uniq -c | sort -k1,1nr -k2 | sed 's/^ *//' | tr '\n' '|')"
check "abort-reasons.csv: the same" \
	"leaving loop in root trace,42|NYI: bytecode 51,33|NYI: bytecode 50,32|NYI: return to lower frame,14|trace too short,4|inner loop in root trace,2|" \
	"$(grep -v '^REASON,' "$TMP/out/gen-1-abort-reasons.csv" | tr -d '\r' | tr '\n' '|')"
# A bush grows from a trace that is no side trace (a root, or a stitched
# trace: `start 12/stitch`), counted here from the start and stop lines.
check "bushes: 274 = roots 157 + stitched 117, from the start/stop lines" "274 157 117" \
	"$(awk '$1 == "----" && $2 == "TRACE" && $4 == "start" { k[$3] = ($5 ~ /^[0-9]+\/stitch$/) ? "s" : ($5 ~ /^[0-9]+\/[0-9]+$/) ? "x" : "r" }
		$1 == "----" && $2 == "TRACE" && $4 == "stop" { n[k[$3]]++ }
		END { print n["r"] + n["s"], n["r"], n["s"] }' "$D")"
check "bushes: 274 rows with parent 0, 274 bush texts, 274 pictures" "274 274 274" \
	"$(grep -c '^[0-9]*,0,' "$T") $(ls "$TMP"/out/gen-1-bush-*.txt | wc -l) $(ls "$TMP"/out/gen-1-bush-*.png | wc -l)"

check "the run's summary: 274 bushes" "bushes 274" \
	"$($DA --views traces --dump "$SAMPLES/nginx-worker.dump.xz" --out-dir "$TMP/out2" 2>&1 | sed -n 's/^  \(bushes\)  *\([0-9]*\)$/\1 \2/p')"

# Template chunks: loadstring(code, "=tpl-N") names them tpl-N.
check "tpl-N chunks named in the dump: 125" 125 "$(grep -o 'tpl-[0-9]*:' "$D" | sort -u | wc -l)"
check "tpl-N chunks where a trace stopped: 96, one bush text each at least" "96 96" \
	"$(awk '$1 == "----" && $2 == "TRACE" && $4 == "start" { loc[$3] = $NF } $1 == "----" && $2 == "TRACE" && $4 == "stop" { print loc[$3] }' "$D" |
		grep -o '^tpl-[0-9]*' | sort -u | wc -l) $(cat "$TMP"/out/gen-1-bush-*.txt | grep '^---- TRACE [0-9]* start' | awk '{ print $NF }' |
		grep -o '^tpl-[0-9]*' | sort -u | wc -l)"
check "abort sites in tpl-N chunks: 42 rows, 32 chunks = the dump's abort lines" "42 32 32" \
	"$(cut -d, -f1 "$TMP/out/gen-1-abort-sites.csv" | grep -c '^tpl-') $(cut -d, -f1 "$TMP/out/gen-1-abort-sites.csv" | grep '^tpl-' | sort -u | wc -l) $(grep '^---- TRACE [0-9]* abort tpl-' "$D" | awk '{ print $5 }' | cut -d: -f1 | sort -u | wc -l)"
# luajit2 ends every recorded bytecode line with its (chunk:line).
check "luajit2: 5700 bytecode lines end in (tpl-N:line)" 5700 "$(grep -cE '^[0-9]{4} .*\(tpl-[0-9]+:[0-9]+\)$' "$D")"
check "the abort sites' counts add up to the 127 aborts" 127 \
	"$(grep -v '^FILE,' "$TMP/out/gen-1-abort-sites.csv" | awk -F, '{ s += $8 } END { print s }')"
finish
