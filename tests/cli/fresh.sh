#!/bin/sh
# fresh.sh DUMPANALYZE — dumps written now by the installed luajit, checked
# against counts taken independently from the dump text, so a change in
# LuaJIT's format shows up here and not in a user's CI.
SUITE=fresh
. "$(dirname "$0")/setup.sh"

need_luajit

for run in "penlight +x" "flush +x" "small +rsX" "penlight tbsm"; do
	set -- $run
	script=$1 flags=$2
	name=$script-$(printf '%s' "$flags" | tr -c 'a-zA-Z0-9\n' '_')
	dump=$TMP/$name.dump
	(cd "$SAMPLES" && env -u COLORTERM TERM=dumb luajit "-jdump=$flags,$dump" "lua/$script.lua" > /dev/null)
	check "$name: luajit ran" 0 $?
	out=$TMP/$name.out
	$DA -q --views traces,abort-reasons,bush-txt --dump "$dump" --out-dir "$out"
	check "$name: exit status" 0 $?
	# (a dump without traces would pass every count below: 0 = 0)
	check "$name: luajit compiled traces" yes \
		"$([ "$(grep -c '^---- TRACE [0-9]* stop' "$dump")" -gt 0 ] && echo yes || echo no)"
	gens=$(( $(grep -c '^---- TRACE flush' "$dump") + 1 ))
	check "$name: one traces.csv per generation" "$gens" "$(ls "$out" | grep -c -- '-traces.csv$')"
	# Per generation: rows = stop lines, abort tallies = abort lines.
	awk -v out="$out" '
		/^---- TRACE flush/ { g++; next }
		/^---- TRACE [0-9]+ stop/ { stops[g + 0]++ }
		/^---- TRACE [0-9]+ abort/ { aborts[g + 0]++ }
		END { for (i = 0; i <= g; i++) printf "%d %d %d\n", i + 1, stops[i], aborts[i] }
	' "$dump" > "$TMP/$name.counts"
	n=0
	while read -r g stops aborts; do
		n=$((n + 1))
		rows=$(grep -vc '^ID,' "$out/gen-$g-traces.csv")
		check "$name gen $g: rows = stop lines" "$stops" "$rows"
		sum=$(tail -n +2 "$out/gen-$g-abort-reasons.csv" | awk -F, '{s += $NF} END {print s + 0}')
		check "$name gen $g: abort counts = abort lines" "$aborts" "$sum"
	done < "$TMP/$name.counts"
	ran "$name: every generation counted" "$n" "$gens"
	# Bytecode lines in the dump = NUM_BC summed (all traces, stopped ones).
	check "$name: bush files hold every stopped trace" "$(grep -c '^---- TRACE [0-9]* stop' "$dump")" \
		"$(cat "$out"/gen-*-bush-*.txt 2> /dev/null | grep -c '^---- TRACE [0-9]* stop')"
	# mcode sizes: the sum of SIZE_MC equals the sum over "mcode N" headers of stopped traces.
	want=$(awk '/^---- TRACE [0-9]+ mcode/ { m[$3] = $5 } /^---- TRACE [0-9]+ stop/ { s += m[$3] } END { print s + 0 }' "$dump")
	got=$(cat "$out"/gen-*-traces.csv | grep -v '^ID,' | tr -d '\r' | awk -F, '{ s += $7 } END { print s + 0 }')
	check "$name: mcode bytes add up" "$want" "$got"
done
finish
