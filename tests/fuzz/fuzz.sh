#!/bin/sh
# fuzz.sh — run the fuzz targets and keep what they learn (`make fuzz`,
# `make fuzz-merge`):
#
#   fuzz.sh run TARGET SECONDS   fuzz TARGET (dump, combined, profile, compare, sysprof) for
#                                SECONDS from its committed corpus, the
#                                seeds and the regressions; new inputs grow
#                                build-fuzz/corpus-TARGET; the session is
#                                appended to tests/fuzz/LEDGER
#   fuzz.sh merge TARGET         fold the grown corpus into
#                                tests/fuzz/corpus-TARGET.tar.xz, minimised
#                                (-merge=1) and within its size cap
#   fuzz.sh lanes LANE...        run the lanes side by side (one per core),
#                                each a list of TARGET:SECONDS run in turn;
#                                the outputs are printed whole, lane by lane
#   fuzz.sh total                executions per target, all told and since
#                                the last crash (a session whose timeout
#                                was the machine's, starved:FILE, is none)
#   fuzz.sh limits TARGET        its longest input and its corpus's cap
#   fuzz.sh drop-expanding DIR   take out the inputs that decode to over
#                                64 KiB (merge does it)
#
# Crashers land in tests/fuzz/crashes/ (fix the bug, then move the file to
# tests/fuzz/regressions/, named for its reviewed exit status; one whose
# fix is not in yet is named NAME.pending, which neither the replays nor
# the fuzzers' seeds take).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
F=tests/fuzz
B=build-fuzz
LEDGER=$F/LEDGER

# What each target reads: the longest input libFuzzer makes, the committed
# corpus's cap (bytes of its .tar.xz), and its regressions.  The caps keep
# the repository small (all four under 1.9 MB).  A corpus is thousands of
# small files that no one reviews: one compressed tar (made the same way
# each time, so an unchanged corpus is an unchanged file) keeps them as a
# tenth of their size and out of the tree's listings.
settings() {
	case $1 in
	dump) max_len=8192 cap=1000000 regr=$F/regressions ;;
	# its 9 bytes of head (fuzz_combined_gen.h), then a dump as long as fuzz_dump's
	combined) max_len=8201 cap=300000 regr=$F/regressions/combined ;;
	profile) max_len=4096 cap=300000 regr=$F/regressions/profile ;;
	compare) max_len=12288 cap=300000 regr=$F/regressions/compare ;;
	# whole profiles of 130-165 KB are its seeds: no corpus is committed
	sysprof) max_len=262144 cap=0 regr=$F/regressions/sysprof ;;
	*) echo "fuzz.sh: no target $1 (dump, combined, profile, compare, sysprof)" >&2; exit 2 ;;
	esac
	bin=$F/fuzz_$1
	dict=$F/$1.dict
	dictarg=
	[ -f "$dict" ] && dictarg=-dict=$dict
	corpus=$F/corpus-$1.tar.xz
	committed=$B/committed-$1
	seeds=$B/seeds-$1/$1
	grown=$B/corpus-$1
}

# The regressions directory's inputs as a seed directory of their own
# (libFuzzer reads every file of a directory, README and subfolders aside).
regressions() {
	rm -rf "$B/regr-$1" && mkdir -p "$B/regr-$1"
	if [ -d "$regr" ]; then
		find "$regr" -maxdepth 1 -type f ! -name README ! -name '*.pending' -exec cp {} "$B/regr-$1/" \;
	fi
}

# Made afresh each time: --compare's seeds are the tool's current output.
# Each target has its own copy, so that targets can run side by side.
seeds_made() {
	DUMPANALYZE=$top/dumpanalyze sh $F/seeds.sh "$B/seeds-$1"
}

# cpu_now: the CPU seconds this shell's children used so far, to the
# hundredth (the times builtin, called in this shell: a subshell's
# children are its own).
cpu_children() {
	times > "$B/times-$1"
	cpu_now=$(tail -n 1 "$B/times-$1" |
		awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] } printf "%.2f\n", s }')
}

# The committed corpus, unpacked into $committed (empty when there is none).
unpack_committed() {
	rm -rf "$committed" && mkdir -p "$committed"
	[ -f "$corpus" ] && xz -dc "$corpus" | tar -xf - -C "$committed" || true
}

commit_id() {
	id=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
	[ -z "$(git status --porcelain --untracked-files=no -- src include tests/fuzz ':!tests/fuzz/LEDGER' 2>/dev/null)" ] ||
		id=$id-modified
	echo "$id"
}

built() {
	[ -x "$bin" ] || { echo "fuzz.sh: $bin is not built (make $bin)" >&2; exit 2; }
}

run() {
	settings "$1"
	built
	seconds=$2
	seeds_made "$1"
	regressions "$1"
	mkdir -p "$grown" $F/crashes
	unpack_committed
	cp -n "$committed"/* "$grown"/ 2>/dev/null || true
	log=$B/fuzz-$1.log
	# -entropic_feature_frequency_threshold=1: the entropic schedule's
	# rare features are the 100 rarest, not every feature seen at most
	# 255 times (thousands here): clang 14's libFuzzer looks each feature
	# of each run up in that list one by one, which took 30% of
	# fuzz_dump's time (bench/RESULTS.md).
	id=$(commit_id)             # what was built, before anything changes
	start=$(date +%s)
	cpu_children "$1"
	cpu0=$cpu_now
	set +e
	LSAN_OPTIONS=suppressions=$top/tests/lsan.supp \
	ASAN_OPTIONS=${FUZZ_ASAN_OPTIONS:-malloc_context_size=8} \
	"$bin" -max_total_time="$seconds" -max_len=$max_len ${dictarg:-} -timeout=10 \
		-entropic_feature_frequency_threshold=1 \
		-rss_limit_mb=2048 -close_fd_mask=2 -reload=0 -print_final_stats=1 \
		-artifact_prefix=$F/crashes/ ${FUZZ_FLAGS:-} \
		"$grown" "$seeds" "$B/regr-$1" > "$log" 2>&1
	status=$?
	set -e
	end=$(date +%s)
	cpu_children "$1"
	cpu=$(awk -v a="$cpu0" -v b="$cpu_now" 'BEGIN { printf "%.2f", b - a }')
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	newunits=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -n 1)
	artifact=$(sed -n "s/.*Test unit written to \(.*\)/\1/p" "$log" | tail -n 1)
	if [ $status -eq 0 ]; then
		result=ok
	else
		result=crash:$(basename "${artifact:-unknown}")
	fi
	# libFuzzer's timeout is wall-clock time: on a machine whose cores are
	# busy an input can pass 10 s without being slow.  A timeout's input
	# is run again alone; one that then finishes within a second of CPU
	# was the machine, not the code, and is said as such (starved:FILE),
	# neither a crash nor a failure.  A real hang times out again.
	case ${artifact:-} in
	*/timeout-*)
		if LSAN_OPTIONS=suppressions=$top/tests/lsan.supp /usr/bin/time -f %U -o "$B/replay-$1.time" \
			"$bin" -timeout=10 -rss_limit_mb=2048 "$artifact" > "$B/replay-$1.log" 2>&1 &&
		   awk '{ exit !($1 < 1) }' "$B/replay-$1.time"; then
			result=starved:$(basename "$artifact")
			echo "fuzz_$1: $(basename "$artifact") timed out under load; alone it ran in $(cat "$B/replay-$1.time") s of CPU"
			status=0
		fi ;;
	esac
	[ -f $LEDGER ] || printf '# %s\n' "fuzzing sessions (tests/fuzz/fuzz.sh), tab-separated:" \
		"date (UTC), target, executions, seconds, CPU seconds, ok, crash:FILE or starved:FILE, commit" \
		"(-modified: src/, include/ or tests/fuzz/ had changes)" > $LEDGER
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$1" "${execs:-0}" \
		$((end - start)) "$(printf %.0f "$cpu")" "$result" "$id" >> $LEDGER
	# The rate per core: libFuzzer's executions over the CPU seconds the
	# process used (its threads included).  libFuzzer's own exec/s is over
	# wall time, which on a shared machine measures the other users.
	percore=$(awk -v n="${execs:-0}" -v c="$cpu" 'BEGIN { printf "%.0f", (c > 0 ? n / c : 0) }')
	echo "fuzz_$1: ${execs:-0} executions in $((end - start)) s, $cpu CPU-seconds:" \
		"$percore exec/s per core (${rate:-0}/s of wall time), ${newunits:-0} new inputs, $result"
	if [ $status -ne 0 ]; then
		tail -n 60 "$log"
		echo "fuzz_$1 found a problem (exit $status): ${artifact:-see $log}"
		exit 1
	fi
}

# drop_expanding DIR: take out of DIR the compressed inputs that decode
# to more than 64 KiB.  One such input (the mutants of the regression of
# 70,000-digit trace numbers, 700 KB from 877 bytes) costs a session's
# start as much as a few hundred others, and thirty of them were half of
# fuzz_dump's replay of its corpus; the regression itself stays a seed.
drop_expanding() {
	for f in "$1"/*; do
		[ -f "$f" ] || continue
		case $(head -c 4 "$f" | od -An -tx1 | tr -d ' \n') in
		1f8b*) dec="gzip -dc" ;;
		fd377a58) dec="xz -dc" ;;
		28b52ffd) dec="zstd -dcq" ;;
		*) continue ;;
		esac
		n=$($dec < "$f" 2>/dev/null | head -c 65537 | wc -c)
		[ "$n" -le 65536 ] || rm -f "$f"
	done
}

merge() {
	settings "$1"
	built
	if [ "$cap" -eq 0 ]; then
		echo "corpus-$1: not kept (its inputs are too large to commit)"
		return 0
	fi
	seeds_made "$1"
	regressions "$1"
	new=$B/merged-$1
	rm -rf "$new" && mkdir -p "$new"
	# The seeds and regressions go in first, so the corpus keeps only what
	# they do not already reach; they are taken out again below.
	cp "$seeds"/* "$B/regr-$1"/* "$new"/ 2>/dev/null || true
	known=$(ls "$new" | wc -l)
	ls "$new" > "$B/merge-known-$1"
	unpack_committed
	dirs=$committed
	[ -d "$grown" ] && dirs="$dirs $grown"
	LSAN_OPTIONS=suppressions=$top/tests/lsan.supp \
	"$bin" -merge=1 -max_len=$max_len -timeout=10 -rss_limit_mb=2048 -close_fd_mask=2 \
		"$new" $dirs > $B/merge-$1.log 2>&1 ||
		{ tail -n 30 $B/merge-$1.log; echo "fuzz.sh: merge of $1 failed"; exit 1; }
	(cd "$new" && xargs rm -f < "../merge-known-$1")
	drop_expanding "$new"
	raw=$(cat "$new"/* 2>/dev/null | wc -c)
	files=$(ls "$new" | wc -l)
	# the same bytes for the same inputs: names sorted, no times or owners
	tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --mode=a=rX,u+w \
		-cf - -C "$new" . | xz > "$B/merged-$1.tar.xz"
	bytes=$(wc -c < "$B/merged-$1.tar.xz")
	if [ "$bytes" -gt "$cap" ]; then
		echo "fuzz.sh: corpus-$1.tar.xz would be $bytes bytes ($files inputs), over its cap of $cap;"
		echo "  left as it was (the merged set is in $new)"
		exit 1
	fi
	before=$(ls "$committed" | wc -l)
	mv "$B/merged-$1.tar.xz" "$corpus"
	echo "corpus-$1: $before -> $files inputs, $raw bytes, $bytes as .tar.xz (beyond $known seeds and regressions)"
}

total() {
	[ -f $LEDGER ] || { echo "no ledger"; return; }
	awk -F'\t' '/^#/ || NF < 7 { next }
		{ all[$2] += $3; if ($6 ~ /^crash:/) since[$2] = 0; else since[$2] += $3; secs[$2] += $4; cpu[$2] += $5 }
		END { for (t in all) printf "fuzz_%s: %d executions in %d s (%d CPU-seconds), %d since the last crash\n",
		                            t, all[t], secs[t], cpu[t], since[t] }' $LEDGER | sort
}

# lanes LANE...: each lane ("dump:180 sysprof:40") in a process of its own,
# its targets in turn, stopping at the first that fails; every lane's
# output afterwards, in order.  Fails if any lane did.
lanes() {
	n=0
	for lane in "$@"; do
		n=$((n + 1))
		(
			for job in $lane; do
				run "${job%%:*}" "${job#*:}"     # set -e: a failure ends the lane
			done
		) > "$B/lane-$n.log" 2>&1 &
		eval "pid_$n=\$!"
	done
	failed=0 i=0
	while [ $i -lt $n ]; do
		i=$((i + 1))
		eval "wait \$pid_$i" || failed=1
		cat "$B/lane-$i.log"
	done
	return $failed
}

case ${1:-} in
run) run "$2" "$3" ;;
lanes) shift; mkdir -p $B; lanes "$@" ;;
limits) settings "$2"; echo "$max_len $cap" ;;
drop-expanding) drop_expanding "$2" ;;
merge) merge "$2" ;;
total) total ;;
*) echo "usage: fuzz.sh run TARGET SECONDS | lanes LANE... | merge TARGET | total | limits TARGET" >&2; exit 2 ;;
esac
