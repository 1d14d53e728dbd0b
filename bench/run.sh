#!/bin/sh
# run.sh — `make bench`: dumpanalyze against the cost of reading the same
# bytes, on the same file in the same run (these machines are noisy, so
# ratios, not seconds, are the figures).  Median of RUNS runs each.
set -eu
LC_ALL=C
export LC_ALL
top=$(cd "$(dirname "$0")/.." && pwd)
da=$top/dumpanalyze
RUNS=${RUNS:-3}
size=${BENCH_MB:-800}
sh "$top/bench/gen-dumps.sh" "$size" > /dev/null
sh "$top/bench/gen-dumps.sh" 200 > /dev/null
# a real nginx worker's dump (needs network once: apt-get download)
nginx=$top/bench/data/nginx-worker.dump
sh "$top/bench/gen-nginx-dump.sh" > /dev/null 2>&1 || echo "run.sh: no $nginx (bench/gen-nginx-dump.sh failed); skipping it" >&2
big=$top/bench/data/flushy-$size.dump
mid=$top/bench/data/flushy-200.dump
one=$top/bench/data/onegen-100.dump
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dumpanalyze-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
CSV=traces,abort-reasons,abort-reasons-txt
TEXT=$CSV,abort-sites,exits,blacklist,bush-txt

# measure NAME COMMAND...: median wall, CPU and peak RSS of RUNS runs.
measure() {
	name=$1
	shift
	for i in $(seq "$RUNS"); do
		# The previous run's files are moved aside, and deleted only at
		# the end: on an ext4 without a journal (this VM's root) a file
		# created within 30 s of thousands being deleted makes the
		# kernel walk the deleted inodes (recently_deleted), a cost of
		# the benchmark's own cleanup.  tmpfs has no such walk.
		if [ -e "$tmp/out" ] && [ -z "${BENCH_DELETE:-}" ]; then
			mv "$tmp/out" "$(mktemp -d "$tmp/old.XXXXXX")/"
		fi
		rm -rf "${stmp:-$tmp}/out" && mkdir -p "$tmp/out" "${stmp:-$tmp}/out"
		# the previous run's hundreds of MB, written back now rather
		# than in the middle of this one
		sync
		# a failed run is said, never a row of zeros: time writes its
		# figures last, after a line on the failure
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" sh -c "$*" > /dev/null 2>&1 ||
			echo "run.sh: '$name' failed: $*" >&2
		tail -n 1 "$tmp/t"
	done | sort -n | awk -v name="$name" -v n="$RUNS" '
		{ w[NR] = $1; c[NR] = $2 + $3; m[NR] = $4; if ($4 > mx) mx = $4 }
		END { i = int((n + 1) / 2)
		      printf "%s|%s|%s|%s|%s|%s\n", name, w[i], c[i], mx, w[1], w[NR] }'
}

report() {      # file, then the rows of measure, with ratios to the first two
	bytes=$(stat -c %s "$1")
	shift
	awk -F'|' -v bytes="$bytes" '
		NR == 1 { wc = $2 } NR == 2 { cat = $2 }
		{ mbs = ($2 > 0) ? bytes / 1e6 / $2 : 0
		  printf "  %-34s %7.2f s wall (%.2f-%.2f) %7.2f s cpu %8.0f MB/s %6.1fx wc %6.1fx cat %7.1f MB rss\n",
		         $1, $2, $5, $6, $3, mbs, (wc > 0 ? $2 / wc : 0), (cat > 0 ? $2 / cat : 0), $4 / 1024 }'
}

# row NAME FILE: the median wall of row NAME in a file of measure's rows.
row() {
	awk -F'|' -v name="$1" '$1 == name { print $2 }' "$2"
}

# verdict WHAT VALUE OP LIMIT: one acceptance line (issue 37).
verdict() {
	awk -v what="$1" -v v="$2" -v op="$3" -v lim="$4" 'BEGIN {
		ok = (op == "<=") ? v <= lim : v >= lim
		printf "  %-58s %7.2f  %s %5.2f  %s\n", what, v, op, lim, ok ? "ok" : "MISSED" }'
}

jobs=$(nproc)
[ "$jobs" -gt 64 ] && jobs=64
# the default views but bush-png, as --views list marks them
NOPNG=$("$da" --views list | awk 'NF && $0 !~ /\(not default\)/ && $1 != "default" && $1 != "all" && $1 != "bush-png" { printf "%s%s", sep, $1; sep = "," }')

echo "machine: $(nproc) cores, $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# Issue 37's acceptance: the default run on a dump with many flushes (many
# small generations) and on one big generation, --jobs 1 against --jobs N,
# each against wc -l and cat of the same file in the same run.
echo "issue 37: the default run, --jobs 1 against --jobs $jobs (wall: median (min-max) of $RUNS)"
echo "$(basename "$big"): $(stat -c %s "$big") bytes, $(grep -c '^---- TRACE flush' "$big") flushes"
{
	measure "wc -l" "wc -l '$big'"
	measure "cat > out/copy" "cat '$big' > '$tmp/out/copy'"
	measure "dumpanalyze csv views" "'$da' -q --views $CSV --dump '$big' --out-dir '$tmp/out'"
	measure "default views but bush-png" "'$da' -q --views $NOPNG --dump '$big' --out-dir '$tmp/out'"
	measure "default run" "'$da' -q --dump '$big' --out-dir '$tmp/out'"
	measure "default run, --jobs 1" "'$da' -q --jobs 1 --dump '$big' --out-dir '$tmp/out'"
	measure "default run, --jobs $jobs" "'$da' -q --jobs $jobs --dump '$big' --out-dir '$tmp/out'"
} > "$tmp/a37-big"
report "$big" < "$tmp/a37-big"
echo "$(basename "$one"): $(stat -c %s "$one") bytes, no flush (one generation)"
{
	measure "wc -l" "wc -l '$one'"
	measure "cat > out/copy" "cat '$one' > '$tmp/out/copy'"
	measure "dumpanalyze csv views" "'$da' -q --views $CSV --dump '$one' --out-dir '$tmp/out'"
	measure "default run, --jobs 1" "'$da' -q --jobs 1 --dump '$one' --out-dir '$tmp/out'"
	measure "default run, --jobs $jobs" "'$da' -q --jobs $jobs --dump '$one' --out-dir '$tmp/out'"
} > "$tmp/a37-one"
report "$one" < "$tmp/a37-one"
echo "$(basename "$mid"): $(stat -c %s "$mid") bytes, $(grep -c '^---- TRACE flush' "$mid") flushes"
{
	measure "wc -l" "wc -l '$mid'"
	measure "cat > out/copy" "cat '$mid' > '$tmp/out/copy'"
	measure "all default views (pictures too)" "'$da' -q --dump '$mid' --out-dir '$tmp/out'"
} > "$tmp/a37-mid"
report "$mid" < "$tmp/a37-mid"
rss() {         # the largest peak RSS of a file's dumpanalyze rows, in MB
	awk -F'|' '$1 !~ /^(wc|cat)/ && $4 > m { m = $4 } END { printf "%.1f", m / 1024 }' "$1"
}
echo
echo "issue 37: acceptance ($jobs cores; the targets are for 2)"
verdict "default run, $(basename "$big") (s)" "$(row "default run" "$tmp/a37-big")" "<=" 1.5
verdict "--jobs 1 / --jobs $jobs, $(basename "$big") (speed-up)" \
	"$(awk -v a="$(row "default run, --jobs 1" "$tmp/a37-big")" -v b="$(row "default run, --jobs $jobs" "$tmp/a37-big")" 'BEGIN { print a / b }')" ">=" 1.7
verdict "default views but bush-png, $(basename "$big") (s)" "$(row "default views but bush-png" "$tmp/a37-big")" "<=" 0.25
verdict "all default views, $(basename "$mid") (s)" "$(row "all default views (pictures too)" "$tmp/a37-mid")" "<=" 1.1
for f in big one; do
	verdict "csv views / wc -l, $(eval basename \"\$$f\")" \
		"$(awk -v a="$(row "dumpanalyze csv views" "$tmp/a37-$f")" -v b="$(row "wc -l" "$tmp/a37-$f")" 'BEGIN { print a / b }')" "<=" 2
	verdict "peak RSS, $(eval basename \"\$$f\") (MB)" "$(rss "$tmp/a37-$f")" "<=" 32
done
echo "  (--jobs 1 / --jobs $jobs on $(basename "$one"): $(awk -v a="$(row "default run, --jobs 1" "$tmp/a37-one")" -v b="$(row "default run, --jobs $jobs" "$tmp/a37-one")" 'BEGIN { printf "%.2f", a / b }'))"
[ -n "${BENCH_ONLY_37:-}" ] && exit 0
echo
echo "$(basename "$big"): $(stat -c %s "$big") bytes, $(grep -c '^---- TRACE flush' "$big") flushes"
{
	measure "wc -l" "wc -l '$big'"
	measure "cat > out/copy" "cat '$big' > '$tmp/out/copy'"
	measure "dumpanalyze csv views" "'$da' -q --views $CSV --dump '$big' --out-dir '$tmp/out'"
	measure "dumpanalyze csv views, stdin" "cat '$big' | '$da' -q --views $CSV --out-dir '$tmp/out'"
	measure "dumpanalyze all text views" "'$da' -q --views $TEXT --dump '$big' --out-dir '$tmp/out'"
	measure "dumpanalyze default views" "'$da' -q --dump '$big' --out-dir '$tmp/out'"
	measure "dumpanalyze --views html" "'$da' -q --views html --dump '$big' --out-dir '$tmp/out'"
} | report "$big"
# What the default run and the report write (issue 22: at most 150 MB
# and 50 MB).
rm -rf "$tmp/out" && mkdir -p "$tmp/out"
"$da" -q --dump "$big" --out-dir "$tmp/out" > /dev/null 2>&1
echo "  default views' output: $(du -sb "$tmp/out" | cut -f1) bytes in $(ls "$tmp/out" | wc -l) files ($(ls "$tmp/out" | grep -c '\.png$') PNGs)"
rm -rf "$tmp/out" && mkdir -p "$tmp/out"
"$da" -q --views html --dump "$big" --out-dir "$tmp/out" > /dev/null 2>&1
echo "  --views html output: $(du -sb "$tmp/out" | cut -f1) bytes in $(ls "$tmp/out" | wc -l) files"

# The views create files: 441 for the CSV views, thousands for the text
# views.  On some disks (this VM's ext4) each create costs 0.3-0.7 ms while
# hundreds of MB are dirty, which is the kernel's time, not ours.  The same
# runs with the output on tmpfs show our share.  (Set BENCH_DELETE=1 to
# delete each run's files before the next, as the benchmark did before.)
shm=/dev/shm
if [ -d "$shm" ] && [ -w "$shm" ]; then
	stmp=$(mktemp -d "$shm/dumpanalyze-bench.XXXXXX")
	trap 'rm -rf "$tmp" "$stmp"' EXIT
	echo
	echo "$(basename "$big"), output on tmpfs ($shm)"
	{
		measure "wc -l" "wc -l '$big'"
		measure "cat > out/copy" "cat '$big' > '$stmp/out/copy'"
		measure "dumpanalyze csv views" "'$da' -q --views $CSV --dump '$big' --out-dir '$stmp/out'"
		measure "dumpanalyze csv views, stdin" "cat '$big' | '$da' -q --views $CSV --out-dir '$stmp/out'"
		# what a pipe alone costs: the same bytes through cat into wc
		measure "cat, pipe, wc -l" "cat '$big' | wc -l"
		measure "dumpanalyze all text views" "'$da' -q --views $TEXT --dump '$big' --out-dir '$stmp/out'"
	} | report "$big"
	rm -rf "$stmp"
	stmp=
fi

echo
echo "$(basename "$one"): $(stat -c %s "$one") bytes, no flush (one generation)"
{
	measure "wc -l" "wc -l '$one'"
	measure "cat > out/copy" "cat '$one' > '$tmp/out/copy'"
	measure "dumpanalyze csv views" "'$da' -q --views $CSV --dump '$one' --out-dir '$tmp/out'"
	measure "dumpanalyze all text views" "'$da' -q --views $TEXT --dump '$one' --out-dir '$tmp/out'"
} | report "$one"

echo
echo "$(basename "$mid"): $(stat -c %s "$mid") bytes, all default views (pictures too)"
{
	measure "wc -l" "wc -l '$mid'"
	measure "cat > out/copy" "cat '$mid' > '$tmp/out/copy'"
	measure "dumpanalyze default views" "'$da' -q --dump '$mid' --out-dir '$tmp/out'"
} | report "$mid"

if [ -f "$nginx" ]; then
	echo
	echo "$(basename "$nginx"): $(stat -c %s "$nginx") bytes, $(grep -c '^---- TRACE flush' "$nginx") flushes, default views and the report"
	{
		measure "wc -l" "wc -l '$nginx'"
		measure "cat > out/copy" "cat '$nginx' > '$tmp/out/copy'"
		measure "dumpanalyze default views" "'$da' -q --dump '$nginx' --out-dir '$tmp/out'"
		measure "dumpanalyze --views html" "'$da' -q --views html --dump '$nginx' --out-dir '$tmp/out'"
	} | report "$nginx"
	# what a user gets: files and bytes of one run each
	for v in default html; do
		rm -rf "$tmp/size"
		if [ $v = default ]; then "$da" -q --dump "$nginx" --out-dir "$tmp/size" > /dev/null 2>&1
		else "$da" -q --views html --dump "$nginx" --out-dir "$tmp/size" > /dev/null 2>&1; fi
		echo "  output of $v: $(find "$tmp/size" -type f | wc -l) files, $(du -sk "$tmp/size" | cut -f1) KB"
	done
	rm -rf "$tmp/size"
fi

# One bush, 65,535 traces: a chain that deep against a fan that wide
# (issue 26: the chain's default pictures were quadratic in its depth).
for shape in chain-10000 chain-65535 fan-65535; do
	f=$top/bench/data/$shape.dump
	echo
	echo "$shape.dump: $(stat -c %s "$f") bytes, one bush, default views"
	{
		measure "wc -l" "wc -l '$f'"
		measure "cat > out/copy" "cat '$f' > '$tmp/out/copy'"
		measure "dumpanalyze default views" "'$da' -q --dump '$f' --out-dir '$tmp/out'"
	} | report "$f"
done

# Instructions per input byte: callgrind counts do not move with noise.
if command -v valgrind > /dev/null; then
	head -c 20000000 "$big" > "$tmp/slice.dump"
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$da" -q --views $CSV \
		--dump "$tmp/slice.dump" --out-dir "$tmp/out" > /dev/null 2> "$tmp/cg.err"
	ir=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/cg.err")
	echo
	echo "callgrind, csv views on a 20 MB slice: $ir instructions, $(awk -v i="$ir" 'BEGIN { printf "%.2f", i / 20000000 }') per input byte"
	# the text views' copies, counted the same way (all threads)
	rm -rf "$tmp/out"
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$da" -q --views $TEXT \
		--dump "$tmp/slice.dump" --out-dir "$tmp/out" > /dev/null 2> "$tmp/cg.err"
	ir=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$tmp/cg.err")
	echo "callgrind, all text views on the slice: $ir instructions, $(awk -v i="$ir" 'BEGIN { printf "%.2f", i / 20000000 }') per input byte"
fi
