#!/bin/sh
# serializer.sh [RUNS [ROUNDS]] (MEASURE=instructions: callgrind's count) — the findings' predicted gain against the
# measured one, on the serializer sample (samples/lua/serializer) and its
# three fixes (samples/lua/serializer-fix1..3; samples/generate.sh records
# their dumps and profiles).
#
# Each fix is applied to the one before (fix1 to the original): the
# advice of the top finding of the program before it.  Predicted: what
# summary.txt says of that finding, its SHARE (charged interpreted
# samples, % of all samples of the recorded profile samples/NAME-Gvl.prof)
# plus those of the findings with its cause (SAME_CAUSE = its rank), which
# the same change fixes.  Measured: 1 - CPU(fix) / CPU(before), CPU = user
# + sys of the whole luajit process, medians of RUNS runs of ROUNDS
# rounds, the four programs run in turn so that noise hits them alike.  A
# fix holds when the prediction is within +-50% of the measured gain.
set -eu
LC_ALL=C
export LC_ALL
top=$(cd "$(dirname "$0")/.." && pwd)
da=$top/dumpanalyze
RUNS=${1:-7}
ROUNDS=${2:-3000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dumpanalyze-ser.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
variants="serializer serializer-fix1 serializer-fix2 serializer-fix3"

# the findings of each program, with its own profile
for v in $variants; do
	"$da" -q --views jsonl --dump "$top/samples/$v.dump.xz" --profile "$top/samples/$v-Gvl.prof" \
		--source-root "$top/samples/lua/$v" --out-dir "$tmp/$v"
	jq -r 'select(.type == "finding") | [.rank, (.same_cause // 0), .file + ":" + (.line | tostring),
	       (.share // 0), .level] | @tsv' "$tmp/$v/findings.jsonl" > "$tmp/$v.rows"
done

# CPU seconds of each run, the programs in turn; with MEASURE=instructions
# the instructions callgrind counts instead (in millions, written as
# "N 0"): slower, but not moved by other processes on a shared machine
for i in $(seq "$RUNS"); do
	for v in $variants; do
		if [ "${MEASURE:-cpu}" = instructions ]; then
			(cd "$top/samples/lua/$v" && valgrind --tool=callgrind --smc-check=all --callgrind-out-file=/dev/null \
				luajit main.lua "$ROUNDS" 2>&1 > /dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p' |
				awk '{printf "%.1f 0\n", $1 / 1e6}') >> "$tmp/$v.times"
		else
			(cd "$top/samples/lua/$v" && bash -c 'TIMEFORMAT="%3U %3S"; time luajit main.lua "$0" > /dev/null' "$ROUNDS") \
				2>> "$tmp/$v.times"
		fi
	done
done
median() { awk '{print $1 + $2}' "$1" | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
range() { awk '{print $1 + $2}' "$1" | sort -n | sed -n '1p;$p' | paste -sd- -; }
unit="CPU s"
[ "${MEASURE:-cpu}" = instructions ] && unit="instructions (M)"
echo "| step | applies | predicted: SHARE of the top finding and its SAME_CAUSE | $unit before -> after, medians of $RUNS (min-max) | measured gain | within +-50% |"
echo "|---|---|---|---|---|---|"
prev=serializer
for v in serializer-fix1 serializer-fix2 serializer-fix3; do
	# the top finding not usually harmless and its SAME_CAUSE group
	top1=$(awk -F'\t' '$5 != "harmless" && $2 == 0 {print $1; exit}' "$tmp/$prev.rows")
	pred=$(awk -F'\t' -v r="$top1" '$1 == r || $2 == r {s += $4} END {printf "%.1f", s}' "$tmp/$prev.rows")
	gone=$(awk -F'\t' -v r="$top1" '($1 == r || $2 == r) && $4 >= 0.05 {printf "#%s %s %.1f%%, ", $1, $3, $4}' "$tmp/$prev.rows")
	what=$(sed -n 's/^ *-- fix [0-9] (\(the [^:]*\).*/\1/p' "$top/samples/lua/$v/serialize.lua" | head -n 1)
	b=$(median "$tmp/$prev.times")
	t=$(median "$tmp/$v.times")
	gain=$(awk -v b="$b" -v t="$t" 'BEGIN {printf "%.1f", 100 * (1 - t / b)}')
	ok=$(awk -v p="$pred" -v g="$gain" 'BEGIN {d = p - g; if (d < 0) d = -d; print (g > 0 && d <= 0.5 * g) ? "yes" : "no"}')
	echo "| $prev -> $v | $what | $pred% (${gone%, }) | $b ($(range "$tmp/$prev.times")) -> $t ($(range "$tmp/$v.times")) | $gain% | $ok |"
	prev=$v
done
