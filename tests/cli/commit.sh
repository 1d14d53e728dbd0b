#!/bin/sh
# commit.sh DUMPANALYZE — the output directory's atomic commit, its lock
# and its inputs: a run killed at every operation of a rerun, then
# recovered (by --recover or by the next run), leaves exactly the previous
# run or exactly the new one, byte for byte with its manifest; the same for
# an I/O error or a full disk at every operation of the commit, a full
# tmpfs at every size and inode count, and several dumps; two runs at once
# never mix; a dump or profile the run would write over is refused; a
# signal during the commit is honoured after it.  Uses
# build/dumpanalyze-faults (the tool with the tests' file system
# operations, tests/faults/).
SUITE=commit
. "$(dirname "$0")/setup.sh"

FAULTS=$(dirname "$DA_BIN")/build/dumpanalyze-faults
if [ ! -x "$FAULTS" ]; then
	not_ok "$FAULTS is built (make build/dumpanalyze-faults)"
	finish
	exit 1
fi
check "the tool itself has no fault hook (only build/dumpanalyze-faults)" "0 yes" \
	"$(grep -c DA_FAULT "$DA_BIN") $(grep -q DA_FAULT "$FAULTS" && echo yes)"
SAMPLES_FLUSH=$SAMPLES/flush.dump
SAMPLES_RSX=$SAMPLES/rsx.dump

# The loops run in a tmpfs when one can be mounted (fsync costs nothing
# there, and its size can be limited), else in $TMP.
W=$TMP/w
mkdir -p "$W"
mounted=
if mount -t tmpfs -o size=64m tmpfs "$W" 2> /dev/null; then
	mounted=1
fi
trap '[ -n "$mounted" ] && umount "$W" 2> /dev/null; [ -n "${small:-}" ] && umount "$small" 2> /dev/null; rm -rf "$TMP"' EXIT INT TERM

# state DIR: old (exactly $W/old), new (exactly $W/new) or mix.
state() {
	if diff -r "$W/old" "$1" > /dev/null 2>&1; then echo old
	elif diff -r "$W/new" "$1" > /dev/null 2>&1; then echo new
	else echo mix; fi
}

# The previous run: three generations' traces, the summary, the source
# view; the new run replaces gen-1-traces.csv and summary.txt, removes the
# rest and adds pictures.
# (with the Lua files they name, so that no run warns it did not find them)
ROOTS="--source-root $SAMPLES/lua --source-root /usr/share/lua/5.1/pl"
OLD_ARGS="--views traces,summary,source --dump $SAMPLES_FLUSH $ROOTS"
NEW_ARGS="--views traces,summary,bush-png --dump $SAMPLES_RSX $ROOTS"
$DA -q --jobs 1 $OLD_ARGS --out-dir "$W/old" > /dev/null 2>&1
check "previous run: exit 0" 0 $?
cp -a "$W/old" "$W/o"
$DA -q --jobs 1 $NEW_ARGS --out-dir "$W/o" > /dev/null 2> "$TMP/err"
check "rerun: exit 0" 0 $?
check "rerun: says which views it dropped" \
	"dumpanalyze: $W/o: removed source of the previous run; '--views traces,summary,bush-png,source' keeps them" \
	"$(cat "$TMP/err")"
mv "$W/o" "$W/new"
$DA -q --jobs 1 $NEW_ARGS --out-dir "$W/fresh" > /dev/null 2>&1
check "rerun: the same files as a fresh run" "" "$(diff -r "$W/fresh" "$W/new")"
check "rerun: the manifest lists exactly its files" \
	"$(ls "$W/new" | grep -vx manifest.json)" "$(jq -r '.files[]' "$W/new/manifest.json")"
check "no hidden file left (staging, record, lock)" "" "$(ls -A "$W/new" | grep '^\.')"

# Every operation of the rerun, logged: its count bounds the loops.
cp -a "$W/old" "$W/o"
DA_FAULT_LOG=$TMP/ops $FAULTS -q --jobs 1 $NEW_ARGS --out-dir "$W/o" > /dev/null 2>&1
check "logged run: exit 0" 0 $?
check "logged run: the same output" new "$(state "$W/o")"
rm -rf "$W/o"
ops=$(wc -l < "$TMP/ops")
# The record's write, the first move into OUT, the manifest's rename.
record=$(grep -m1 ' write .commit$' "$TMP/ops" | cut -d' ' -f1)
first_move=$(awk '$2 == "rename" && $3 == $4 { print $1; exit }' "$TMP/ops")
commit_point=$(awk '$2 == "rename" && $3 == "manifest.json" { print $1; exit }' "$TMP/ops")
staged_manifest=$(grep -m1 ' write manifest.json$' "$TMP/ops" | cut -d' ' -f1)
check "log: record, moves, manifest in that order" yes \
	"$([ "$staged_manifest" -lt "$record" ] && [ "$record" -lt "$first_move" ] &&
	   [ "$first_move" -lt "$commit_point" ] && [ "$commit_point" -lt "$ops" ] && echo yes)"

# Durability: the staged files (the manifest too) made durable at once
# (syncfs) after the last of them was written and before the record; the
# record and its directory synced before the first move into OUT; OUT
# synced after the manifest's rename and before the record is removed.
sync=$(awk '$2 == "syncfs" { print $1; exit }' "$TMP/ops")
last_write=$(awk -v r="$record" '$1 < r && $2 == "write" && $3 != ".dumpanalyze.lock" { n = $1 } END { print n }' "$TMP/ops")
check "durable: one syncfs of the staging directory after the last staged write, before the record" \
	"yes 1" "$([ "$last_write" -lt "$sync" ] && [ "$sync" -lt "$record" ] && echo yes) $(grep -c ' syncfs ' "$TMP/ops")"
check "durable: ... the last staged write is the manifest's" "write manifest.json" \
	"$(awk -v n="$last_write" '$1 == n { print $2, $3 }' "$TMP/ops")"
check "durable: the record and its directory synced, before the first move" "fsync .commit|fsync .dumpanalyze-run" \
	"$(awk -v r="$record" -v m="$first_move" '$1 > r && $1 < m && $2 == "fsync" { printf "%s%s %s", s, $2, $3; s = "|" }' "$TMP/ops" |
	   sed 's/run\.[0-9]*$/run/')"
check "durable: OUT synced after the commit point, before the record goes" "fsync $W/o" \
	"$(awk -v c="$commit_point" '$1 > c && $2 == "fsync" { print $2, $3; exit }' "$TMP/ops")"
check "durable: the record goes after that" "unlink .commit" \
	"$(awk -v c="$commit_point" '$1 > c && $2 == "unlink" { print $2, $3; exit }' "$TMP/ops")"

# seen DIR: what a reader that skips the tool's hidden names sees (an
# artifact upload, a diff): old, new or mix.
seen() {
	if diff -r -x '.dumpanalyze*' "$W/old" "$1" > /dev/null 2>&1; then echo old
	elif diff -r -x '.dumpanalyze*' "$W/new" "$1" > /dev/null 2>&1; then echo new
	else echo mix; fi
}

# SIGKILL at every operation, then --recover: exactly the old run up to
# the record's write, exactly the new one from the operation after it.
# Before --recover, what README says a reader sees (issue 34): one whole
# run wherever no commit record (OUT/.dumpanalyze-run.PID/.commit) is
# left; a mix only with one, from the first file set aside to the
# manifest's rename.
seq= untold= mixed= silent= said=0
n=1
while [ "$n" -le $((ops + 1)) ]; do
	rm -rf "$W/o"
	cp -a "$W/old" "$W/o"
	DA_FAULT=kill@$n $FAULTS -q --jobs 1 $NEW_ARGS --out-dir "$W/o" > /dev/null 2> "$TMP/err"
	status=$?
	[ "$status" -eq 0 ] && break
	[ "$status" -eq 137 ] || { not_ok "kill@$n: killed (status $status)"; break; }
	v=$(seen "$W/o")
	if ls "$W"/o/.dumpanalyze-run.*/.commit > /dev/null 2>&1; then
		[ "$v" = mix ] && mixed="$mixed $n"
	elif [ "$v" = mix ]; then
		untold="$untold $n"
	fi
	left=$(ls -A "$W/o" 2> /dev/null | grep -c '^\.dumpanalyze')
	$DA --recover "$W/o" > /dev/null 2> "$TMP/rerr"
	[ $? -eq 0 ] || { not_ok "kill@$n: --recover exit 0" "$(cat "$TMP/rerr")"; break; }
	# It says what it did: something for each thing a killed run left.
	if [ "$left" -gt 0 ] && { ! [ -s "$TMP/rerr" ] || grep -q 'nothing to recover' "$TMP/rerr"; }; then
		silent="$silent $n"
	fi
	said=$((said + (left > 0)))
	seq="$seq $(state "$W/o")"
	n=$((n + 1))
done
check "SIGKILL: --recover says what it removed or finished, every time something was left" "" "$silent"
ran "SIGKILL: runs that left something" "$said"
ran "SIGKILL at every operation" $((n - 1)) "$ops"
check "SIGKILL: the run not killed past the last operation" 0 "$status"
first_aside=$(awk -v r="$record" '$1 > r && $2 == "rename" { print $1; exit }' "$TMP/ops")
check "SIGKILL, before --recover: a reader sees one whole run where no record is left" "" "$untold"
check "SIGKILL, before --recover: a mix only with a record, killed after the first set-aside up to the manifest's rename" \
	"$(seq $((first_aside + 1)) "$commit_point" | paste -sd' ')" "$(echo $mixed)"
check "SIGKILL: old up to the record, new from the operation after it" \
	"$((record))old $((ops - record))new" \
	"$(echo $seq | tr ' ' '\n' | uniq -c | awk '{ printf "%s%s%s", s, $1, $2; s = " " }')"

# Killed at each operation of the commit (from the record on), then the
# next run (not --recover) finishes that commit first: no file is called
# "not written by dumpanalyze", and the result is that run's, exactly.
$DA -q --jobs 1 --views traces --dump "$SAMPLES/late.dump" --out-dir "$W/third" > /dev/null 2>&1
unlinked=$(grep -m1 ' unlink .commit$' "$TMP/ops" | cut -d' ' -f1)
count=0 bad=
for n in $(seq $((record + 1)) "$ops"); do
	rm -rf "$W/o"
	cp -a "$W/old" "$W/o"
	DA_FAULT=kill@$n $FAULTS -q --jobs 1 $NEW_ARGS --out-dir "$W/o" > /dev/null 2>&1
	$DA -q --jobs 1 --views traces --dump "$SAMPLES/late.dump" --out-dir "$W/o" > /dev/null 2> "$TMP/err"
	status=$?
	count=$((count + 1))
	if [ "$status" -ne 0 ] || grep -q 'not written by dumpanalyze' "$TMP/err" ||
	   ! diff -r "$W/third" "$W/o" > /dev/null; then
		bad="$bad $n"
	fi
	# the record, if still there, is acted on and said
	if [ "$n" -le "$unlinked" ] &&
	   ! grep -q "^dumpanalyze: $W/o: finished the commit of a run that was interrupted (PID [0-9]*)$" "$TMP/err"; then
		bad="$bad $n(said)"
	fi
done
ran "killed in the commit, then the next run" "$count" $((ops - record))
check "killed in the commit, then the next run: its own output exactly, no foreign file" "" "$bad"

# fault_loop MODE: MODE (EIO, ENOSPC) at each operation of the commit,
# from the staged manifest on: exit 2 and exactly the old run (undone at
# once), or the new run (exit 0, or exit 2 with its clean-up left to
# --recover, which it names).  Sets count, bad, undone (exit 2 with the
# old run) and moved_back (the same, saying it was undone, from the first
# move into OUT on).
fault_loop() {
	count=0 bad= undone=0 moved_back=0
	for n in $(seq "$staged_manifest" "$ops"); do
		rm -rf "$W/o"
		cp -a "$W/old" "$W/o"
		DA_FAULT=$1@$n $FAULTS -q --jobs 1 $NEW_ARGS --out-dir "$W/o" > /dev/null 2> "$TMP/err"
		status=$?
		count=$((count + 1))
		now=$(state "$W/o")
		if [ "$status" -eq 2 ] && [ "$now" = old ]; then
			undone=$((undone + 1))
			[ "$n" -ge "$first_move" ] &&
				grep -q "^dumpanalyze: $W/o: cannot commit the run: .*; it holds the previous run$" "$TMP/err" &&
				moved_back=$((moved_back + 1))
			continue
		fi
		$DA --recover "$W/o" > /dev/null 2>&1
		after=$(state "$W/o")
		if [ "$after" != new ] || { [ "$status" -ne 0 ] && ! grep -q -- "--recover $W/o\` " "$TMP/err"; }; then
			bad="$bad $n:$status:$now:$after"
		fi
	done
}
fault_loop EIO
ran "EIO at every operation of the commit" "$count" $((ops - staged_manifest + 1))
check "EIO: exactly the old run, or the new one (after --recover)" "" "$bad"
check "EIO in the moves and at the manifest's rename: undone at once" \
	$((commit_point - first_move + 1)) "$moved_back"

# A full disk (every write, create and mkdir failing from then on): the
# same, and up to the commit point always the old run at once.
fault_loop ENOSPC
ran "ENOSPC at every operation of the commit" "$count" $((ops - staged_manifest + 1))
check "ENOSPC: exactly the old run, or the new one (after --recover)" "" "$bad"
check "ENOSPC up to the commit point: exactly the old run at once" \
	$((commit_point - staged_manifest + 1)) "$undone"
check "ENOSPC in the moves and at the manifest's rename: undone, said" \
	$((commit_point - first_move + 1)) "$moved_back"

# A signal during the commit is honoured after it: SIGTERM arrives at the
# first move; the run finishes, says so and dies of it (143).
rm -rf "$W/o"
cp -a "$W/old" "$W/o"
DA_FAULT=SIGTERM@$first_move $FAULTS -q --jobs 1 $NEW_ARGS --out-dir "$W/o" > /dev/null 2> "$TMP/err"
check "SIGTERM in the commit: status 143" 143 $?
check "SIGTERM in the commit: the new run, whole" new "$(state "$W/o")"
check "SIGTERM in the commit: one line" \
	"dumpanalyze: $SAMPLES_RSX: interrupted (SIGTERM); $W/o holds this run" \
	"$(grep -v -e '^dumpanalyze-faults:' -e 'removed source' -e '^Terminated$' "$TMP/err")"
# ... and before it (while the files are written): the old run.
rm -rf "$W/o"
cp -a "$W/old" "$W/o"
DA_FAULT=SIGTERM@$(grep -m1 ' write \.gen-' "$TMP/ops" | cut -d' ' -f1) $FAULTS -q --jobs 1 $NEW_ARGS --out-dir "$W/o" > /dev/null 2> "$TMP/err"
check "SIGTERM before the commit: status 143" 143 $?
check "SIGTERM before the commit: the old run, as it was" old "$(state "$W/o")"

# A full disk while a picture is written: the message names the file as
# the user would have found it, OUT/NAME, not its place in the staging
# directory; OUT keeps the old run.
set -- $(grep -m1 ' write \.gen-1-bush-[0-9.]*png\.tmp[0-9]*$' "$TMP/ops" |
	sed 's/^\([0-9]*\) write \.\(.*png\)\.tmp[0-9]*$/\1 \2/')
rm -rf "$W/o"
cp -a "$W/old" "$W/o"
DA_FAULT=ENOSPC@$1 $FAULTS -q --jobs 1 $NEW_ARGS --out-dir "$W/o" > /dev/null 2> "$TMP/err"
check "ENOSPC writing $2: status and message, naming OUT/$2" \
	"2 dumpanalyze: $W/o/$2: No space left on device" \
	"$? $(grep -v '^dumpanalyze-faults:' "$TMP/err")"
check "ENOSPC writing $2: the old run, as it was" old "$(state "$W/o")"

# Several dumps: one record for all.  The previous run had flush.dump and
# rsx.dump; the new one has rsx.dump and late.dump: a directory removed,
# one replaced, one added, at once.
rm -rf "$W/old" "$W/new"
$DA -q --views traces,summary --dump "$SAMPLES_FLUSH" --dump "$SAMPLES_RSX" --out-dir "$W/old" > /dev/null 2>&1
check "several: previous run" "flush.dump manifest.json rsx.dump summary.txt" "$(ls "$W/old" | tr '\n' ' ' | sed 's/ $//')"
MANY_ARGS="--views traces,summary --dump $SAMPLES_RSX --dump $SAMPLES/late.dump"
cp -a "$W/old" "$W/new"
DA_FAULT_LOG=$TMP/mops $FAULTS -q $MANY_ARGS --out-dir "$W/new" > /dev/null 2>&1
check "several: rerun exit 0" 0 $?
check "several: the directories now" "late.dump manifest.json rsx.dump summary.txt" "$(ls "$W/new" | tr '\n' ' ' | sed 's/ $//')"
$DA -q $MANY_ARGS --out-dir "$W/fresh-many" > /dev/null 2>&1
check "several: the same files as a fresh run" "" "$(diff -r "$W/fresh-many" "$W/new")"
mops=$(wc -l < "$TMP/mops")
mrecord=$(grep -m1 ' write .commit$' "$TMP/mops" | cut -d' ' -f1)
mfirst=$(grep -m1 ' write manifest.json$' "$TMP/mops" | cut -d' ' -f1)
seq=
count=0
for n in $(seq "$mfirst" "$mops"); do
	rm -rf "$W/o"
	cp -a "$W/old" "$W/o"
	DA_FAULT=kill@$n $FAULTS -q $MANY_ARGS --out-dir "$W/o" > /dev/null 2>&1
	$DA --recover "$W/o" > /dev/null 2>&1
	seq="$seq $(state "$W/o")"
	count=$((count + 1))
done
ran "several: SIGKILL at every operation of the commit" "$count" $((mops - mfirst + 1))
check "several: old up to the record, then new" \
	"$((mrecord - mfirst + 1))old $((mops - mrecord))new" \
	"$(echo $seq | tr ' ' '\n' | uniq -c | awk '{ printf "%s%s%s", s, $1, $2; s = " " }')"
check "several: the subdirectories' moves were in the record" yes \
	"$(grep -q ' rename rsx.dump/manifest.json rsx.dump/manifest.json$' "$TMP/mops" &&
	   grep -q ' rename flush.dump/manifest.json .old/flush.dump/manifest.json$' "$TMP/mops" &&
	   grep -q ' rmdir flush.dump$' "$TMP/mops" && echo yes)"

# A full tmpfs: the rerun with every size from what the previous run
# takes up to enough, a page at a time, then every inode count: either it
# fails (exit 2, saying so) and OUT is exactly the previous run, nothing
# else, or it succeeds and OUT is exactly the new one.
small=$TMP/small
mkdir -p "$small"
if mount -t tmpfs -o size=4m tmpfs "$small" 2> /dev/null; then
	rm -rf "$W/old" "$W/new"
	$DA -q --jobs 1 $OLD_ARGS --out-dir "$W/old" > /dev/null 2>&1
	cp -a "$W/old" "$W/new"
	$DA -q --jobs 1 $NEW_ARGS --out-dir "$W/new" > /dev/null 2>&1
	# limit KIND VALUE: the previous run in $small/o, then the limit.
	limit() {
		mount -o remount,size=4m,nr_inodes=4096 "$small"
		rm -rf "$small/o"
		cp -a "$W/old" "$small/o"
		mount -o remount,"$1=$2" "$small"
	}
	for kind in size nr_inodes; do
		limit size 4m
		if [ "$kind" = size ]; then
			v=$(($(df -k --output=used "$small" | tail -n 1) + 4)) unit=k step=4
		else
			v=$(($(df --output=iused "$small" | tail -n 1))) unit= step=1
		fi
		last=$((v + 2048)) fails=0 bad=
		: > "$TMP/points"
		while :; do
			limit "$kind" "$v$unit"
			$DA -q --jobs 1 $NEW_ARGS --out-dir "$small/o" > /dev/null 2> "$TMP/err"
			status=$?
			now=$(state "$small/o")
			if [ "$status" -eq 0 ]; then
				[ "$now" = new ] || bad="$bad $v:0:$now"
				break
			fi
			fails=$((fails + 1))
			{ [ "$status" -eq 2 ] && [ "$now" = old ]; } || bad="$bad $v:$status:$now"
			grep -q 'No space left on device' "$TMP/err" || bad="$bad $v:unsaid"
			# where it failed: a staged file, the manifest, the record...
			head -n 1 "$TMP/err" | sed -E -e "s|$small/o|OUT|g" -e 's/[0-9]+/N/g' >> "$TMP/points"
			v=$((v + step))
			[ "$v" -gt "$last" ] && { bad="$bad never-fits"; break; }
		done
		ran "full tmpfs ($kind): failing limits" "$fails"
		check "full tmpfs ($kind): exactly the old run, or the new one" "" "$bad"
		sort "$TMP/points" | uniq -c | sed 's/^/       /'
		check "full tmpfs ($kind): no message names a file in the staging directory" "" \
			"$(grep 'dumpanalyze-run' "$TMP/points" | grep -v "cannot make the run's staging directory")"
		if [ "$kind" = size ]; then
			check "full tmpfs (size): the staged files (named in OUT), the manifest and the record fill it" yes \
				"$(grep -q '^dumpanalyze: OUT/gen-N-[^/]*: No space left on device$' "$TMP/points" &&
				   grep -q '^dumpanalyze: OUT: cannot commit the run: writing manifest.json: No space left on device; it holds the previous run$' "$TMP/points" &&
				   grep -q "^dumpanalyze: OUT: cannot commit the run: writing the commit's record: No space left on device; it holds the previous run$" "$TMP/points" &&
				   echo yes)"
		else
			check "full tmpfs (inodes): the lock, the staging directory, a file, the manifest, the record, the place set aside" yes \
				"$(grep -q 'cannot lock it: .dumpanalyze.lock: No space' "$TMP/points" &&
				   grep -q "^dumpanalyze: OUT: cannot make the run's staging directory .dumpanalyze-run.N: No space left on device$" "$TMP/points" &&
				   grep -q '^dumpanalyze: OUT/gen-N-[^/]*: No space left on device$' "$TMP/points" &&
				   grep -q 'writing manifest.json: No space' "$TMP/points" &&
				   grep -q "writing the commit's record: No space" "$TMP/points" &&
				   grep -q 'making .old: No space' "$TMP/points" && echo yes)"
		fi
	done
	# A first run into an empty directory on a full tmpfs: nothing left.
	mount -o remount,size=4m,nr_inodes=4096 "$small"
	rm -rf "$small/o"
	mkdir "$small/o"
	mount -o remount,size=$(($(df -k --output=used "$small" | tail -n 1) + 4))k "$small"
	$DA -q --jobs 1 $NEW_ARGS --out-dir "$small/o" > /dev/null 2>&1
	check "full tmpfs, first run: exit 2" 2 $?
	check "full tmpfs, first run: nothing left" "" "$(ls -A "$small/o")"
	umount "$small"
	small=
else
	echo "skipped - full tmpfs: cannot mount a tmpfs here (not root?)"
fi

# until_in FILE PATTERN: wait until FILE has a line that matches (a
# state, not a time; 30 s at most, then the check after it fails).
until_in() {
	i=0
	until grep -q "$2" "$1" 2> /dev/null; do
		i=$((i + 1)); [ "$i" -gt 3000 ] && break; sleep 0.01
	done
}

# Two runs into one OUT.  A reads a FIFO the test holds open, so it keeps
# the lock; B is refused at once, naming A; C waits (--wait) and, once A
# is fed and done, runs: OUT is exactly C's run.
rm -rf "$W/two" "$TMP/fifo"
mkfifo "$TMP/fifo"
$DA_BIN -q --views traces,summary --dump "$TMP/fifo" --out-dir "$W/two" > /dev/null 2> "$TMP/a.err" &
apid=$!
exec 3> "$TMP/fifo"
until_in "$W/two/.dumpanalyze.lock" "^pid $apid\$"
check "two runs: A holds the lock (its PID in it)" "pid $apid" "$(head -n 1 "$W/two/.dumpanalyze.lock")"
$DA_BIN -q $NEW_ARGS --out-dir "$W/two" > /dev/null 2> "$TMP/b.err" 3>&-
check "two runs: B exits 2 at once" 2 $?
check "two runs: B names A's PID" yes \
	"$(grep -q "^dumpanalyze: $W/two is in use by another run of dumpanalyze (PID $apid on .*, since .* UTC); --wait waits for it$" "$TMP/b.err" && echo yes)"
check "two runs: B wrote nothing" ".dumpanalyze-run.$apid .dumpanalyze.lock" "$(ls -A "$W/two" | tr '\n' ' ' | sed 's/ $//')"
$DA_BIN --wait $NEW_ARGS --out-dir "$W/two" > /dev/null 2> "$TMP/c.err" 3>&- &
cpid=$!
until_in "$TMP/c.err" '; waiting$'
check "two runs: C waits, naming A" yes \
	"$(grep -q "^dumpanalyze: $W/two is in use by another run of dumpanalyze (PID $apid .*; waiting$" "$TMP/c.err" && echo yes)"
# D waits too, and a signal stops its waiting.
$DA_BIN --wait $NEW_ARGS --out-dir "$W/two" > /dev/null 2> "$TMP/d.err" 3>&- &
dpid=$!
until_in "$TMP/d.err" '; waiting$'
kill -TERM $dpid
wait $dpid 2> /dev/null
check "two runs: D, waiting, stopped by SIGTERM: status 143" 143 $?
check "two runs: D's last line" "dumpanalyze: $SAMPLES_RSX: interrupted (SIGTERM); $W/two is left as it was" \
	"$(tail -n 1 "$TMP/d.err")"
cat "$SAMPLES_FLUSH" >&3
exec 3>&-
wait $apid
check "two runs: A exit 0" 0 $?
wait $cpid
check "two runs: C exit 0" 0 $?
$DA -q $NEW_ARGS --out-dir "$W/c-alone" > /dev/null 2>&1
check "two runs: OUT is exactly C's run" "" "$(diff -r "$W/c-alone" "$W/two")"

# A lock left by a process that is gone (its file, no kernel lock) never
# blocks, nor does the file of one alive that holds no lock; the run
# removes it.
rm -rf "$W/stale"
mkdir -p "$W/stale"
sh -c 'exit 0' & dead=$!
wait $dead
printf 'pid %s\nhost %s\nstarted 2020-01-01 00:00:00 UTC\n' "$dead" "$(hostname)" > "$W/stale/.dumpanalyze.lock"
$DA -q $NEW_ARGS --out-dir "$W/stale" > /dev/null 2> "$TMP/err"
check "stale lock of a dead PID: exit 0" 0 $?
check "stale lock of a dead PID: silent" "" "$(cat "$TMP/err")"
check "stale lock of a dead PID: removed" "" "$(ls -A "$W/stale" | grep '^\.')"
printf 'pid %s\n' $$ > "$W/stale/.dumpanalyze.lock"
$DA -q $NEW_ARGS --out-dir "$W/stale" > /dev/null 2>&1
check "lock file of a live process holding no lock: exit 0" 0 $?
check "--wait with nobody there: no wait, exit 0" "0 " \
	"$($DA --wait -q $NEW_ARGS --out-dir "$W/stale" > /dev/null 2> "$TMP/err"; echo "$? $(cat "$TMP/err")")"

# A hard link planted as the lock file (issue 34): writing the lock would
# truncate and overwrite its other name's file, outside OUT.  Refused by a
# run and by --recover, the target untouched, nothing written.
rm -rf "$W/hard"
mkdir -p "$W/hard/out"
printf 'not a lock\n' > "$W/hard/target"
ln "$W/hard/target" "$W/hard/out/.dumpanalyze.lock"
n=0
for how in run recover; do
	if [ $how = run ]; then
		$DA -q $NEW_ARGS --out-dir "$W/hard/out" > /dev/null 2> "$TMP/err"
	else
		$DA --recover "$W/hard/out" > /dev/null 2> "$TMP/err"
	fi
	check "hard link as the lock ($how): exit 2" 2 $?
	check "hard link as the lock ($how): message" \
		"dumpanalyze: $W/hard/out: refusing the lock file .dumpanalyze.lock (it has other names (a hard link)): nothing written; remove it if no run is using $W/hard/out" \
		"$(cat "$TMP/err")"
	check "hard link as the lock ($how): its target untouched" "not a lock" "$(cat "$W/hard/target")"
	check "hard link as the lock ($how): nothing else in OUT" ".dumpanalyze.lock" "$(ls -A "$W/hard/out")"
	n=$((n + 1))
done
ran "hard link as the lock: run and --recover" $n 2
rm -rf "$W/hard"
mkdir -p "$W/hard/out"
mkfifo "$W/hard/out/.dumpanalyze.lock"
$DA -q $NEW_ARGS --out-dir "$W/hard/out" > /dev/null 2> "$TMP/err"
check "a FIFO as the lock: exit 2, refused" "2 dumpanalyze: $W/hard/out: refusing the lock file .dumpanalyze.lock (it is not a regular file): nothing written; remove it if no run is using $W/hard/out" \
	"$? $(cat "$TMP/err")"

# A file system without locks: a warning, and the run goes on.
rm -rf "$W/nolock"
mkdir "$W/nolock"                # the same operations as the logged rerun's
DA_FAULT=ENOLCK@$(grep -m1 ' lock ' "$TMP/ops" | cut -d' ' -f1) \
	$FAULTS -q $NEW_ARGS --out-dir "$W/nolock" > /dev/null 2> "$TMP/err"
check "no locks: exit 0" 0 $?
check "no locks: the warning" \
	"dumpanalyze: warning: $W/nolock: the file system has no locks (No locks available): runs into it at the same time would mix" \
	"$(grep -v '^dumpanalyze-faults:' "$TMP/err")"
check "no locks: the run, whole" "" "$(diff -r "$W/c-alone" "$W/nolock")"

# Something in the way that is not a file of the previous run: refused
# before anything is written.
rm -rf "$W/way"
mkdir -p "$W/way/summary.txt"
$DA -q $NEW_ARGS --out-dir "$W/way" > /dev/null 2> "$TMP/err"
check "a directory where a file goes: exit 2" 2 $?
check "a directory where a file goes: message" \
	"dumpanalyze: $W/way/summary.txt is a directory dumpanalyze did not write, where this run writes a file; nothing written" \
	"$(cat "$TMP/err")"
check "a directory where a file goes: left alone" "summary.txt" "$(ls -A "$W/way")"
rm -rf "$W/way"
mkdir -p "$W/way"
echo mine > "$W/way/rsx.dump"
$DA -q --views traces --dump "$SAMPLES_RSX" --dump "$SAMPLES_FLUSH" --out-dir "$W/way" > /dev/null 2> "$TMP/err"
check "a file where a dump's directory goes: exit 2" 2 $?
check "a file where a dump's directory goes: message" \
	"dumpanalyze: $W/way/rsx.dump is in the way of the directory of a dump (it is not one, and dumpanalyze did not write it); nothing written" \
	"$(cat "$TMP/err")"
check "a file where a dump's directory goes: left alone" "mine rsx.dump" "$(cat "$W/way/rsx.dump") $(ls -A "$W/way")"

# Never write over an input.
rm -rf "$W/in"
$DA -q $NEW_ARGS --out-dir "$W/in" > /dev/null 2>&1
cp -a "$W/in" "$W/in.before"
for f in gen-1-traces.csv summary.txt manifest.json; do
	$DA -q --dump "$W/in/$f" --out-dir "$W/in" > /dev/null 2> "$TMP/err"
	check "dump $f inside OUT: exit 2" 2 $?
	how="replace or remove"
	[ "$f" = manifest.json ] && how=replace
	check "dump $f inside OUT: message" \
		"dumpanalyze: refusing to write over the dump $W/in/$f: this run would $how $W/in/$f" "$(cat "$TMP/err")"
	check "dump $f inside OUT: OUT untouched, nothing left" "" "$(diff -r "$W/in.before" "$W/in")"
done
ln "$W/in/summary.txt" "$W/linked.dump"
$DA -q --dump "$W/linked.dump" --out-dir "$W/in" > /dev/null 2> "$TMP/err"
check "a hard link to a file of OUT: exit 2" 2 $?
check "a hard link to a file of OUT: message" \
	"dumpanalyze: refusing to write over the dump $W/linked.dump: this run would replace or remove $W/in/summary.txt (the same file)" \
	"$(cat "$TMP/err")"
$DA -q --out-dir "$W/in" < "$W/in/gen-1-traces.csv" > /dev/null 2> "$TMP/err"
check "standard input from a file of OUT: exit 2" 2 $?
check "standard input from a file of OUT: OUT untouched" "" "$(diff -r "$W/in.before" "$W/in")"
# No manifest: the file is found when the commit would replace it, before
# OUT is touched.
rm -rf "$W/bare"
mkdir -p "$W/bare"
cp "$SAMPLES_RSX" "$W/bare/gen-1-traces.csv"
$DA -q --views traces --dump "$W/bare/gen-1-traces.csv" --out-dir "$W/bare" > /dev/null 2> "$TMP/err"
check "dump named like an output, no manifest: exit 2" 2 $?
check "dump named like an output, no manifest: message" \
	"dumpanalyze: refusing to write over the dump $W/bare/gen-1-traces.csv: this run would replace or remove $W/bare/gen-1-traces.csv" \
	"$(cat "$TMP/err")"
check "dump named like an output, no manifest: the dump intact, alone" "gen-1-traces.csv" \
	"$(cmp -s "$SAMPLES_RSX" "$W/bare/gen-1-traces.csv" && ls -A "$W/bare")"
cp "$SAMPLES/costly-Gl.prof" "$W/bare/summary.txt"
cp "$SAMPLES/costly.dump" "$W/bare/c.dump"
rm "$W/bare/gen-1-traces.csv"
$DA -q --views summary --dump "$W/bare/c.dump" $ROOTS --profile "$W/bare/summary.txt" --out-dir "$W/bare" > /dev/null 2> "$TMP/err"
check "profile named like an output: exit 2" 2 $?
check "profile named like an output: message" \
	"dumpanalyze: refusing to write over the profile $W/bare/summary.txt: this run would replace or remove $W/bare/summary.txt" \
	"$(cat "$TMP/err")"
check "profile named like an output: intact" "" "$(cmp "$SAMPLES/costly-Gl.prof" "$W/bare/summary.txt")"
# Several dumps: a file of a dump's directory.
rm -rf "$W/min"
$DA -q --views traces --dump "$SAMPLES_RSX" --dump "$SAMPLES_FLUSH" --out-dir "$W/min" > /dev/null 2>&1
cp -a "$W/min" "$W/min.before"
$DA -q --views traces --dump "$W/min/rsx.dump/gen-1-traces.csv" --dump "$SAMPLES_FLUSH" --out-dir "$W/min" > /dev/null 2> "$TMP/err"
check "several: a dump in a dump's directory: exit 2" 2 $?
check "several: a dump in a dump's directory: message" \
	"dumpanalyze: refusing to write over the dump $W/min/rsx.dump/gen-1-traces.csv: this run would replace or remove $W/min/rsx.dump/gen-1-traces.csv" \
	"$(cat "$TMP/err")"
check "several: a dump in a dump's directory: OUT untouched" "" "$(diff -r "$W/min.before" "$W/min")"

# A rerun that drops views says so, in one line, with the --views that
# keeps them; one that drops none says nothing.
rm -rf "$W/v"
$DA -q --views default,html --dump "$SAMPLES_RSX" --out-dir "$W/v" > /dev/null 2>&1
$DA -q --dump "$SAMPLES_RSX" $ROOTS --out-dir "$W/v" > /dev/null 2> "$TMP/err"
check "dropped views: html and the source view it brought" \
	"dumpanalyze: $W/v: removed source, html of the previous run; '--views default,source,html' keeps them" \
	"$(cat "$TMP/err")"
check "dropped views: their files gone" 0 "$(ls "$W/v" | grep -c -e '\.html$' -e '^source')"
# the default views but traces, in the registry's order, as the previous
# run's manifest lists them
others=$(jq -r '[.views[] | select(. != "traces")] | join(", ")' "$W/v/manifest.json")
$DA -q --views traces --dump "$SAMPLES_RSX" $ROOTS --out-dir "$W/v" > /dev/null 2> "$TMP/err"
check "dropped views: the default ones, said as 'default'" \
	"dumpanalyze: $W/v: removed $others of the previous run; '--views default,traces' keeps them" \
	"$(cat "$TMP/err")"
check "dropped views: ... several of them" yes "$([ "$(echo "$others" | tr ',' '\n' | wc -l)" -ge 8 ] && echo yes)"
$DA -q --views traces,summary --dump "$SAMPLES_RSX" $ROOTS --out-dir "$W/v" > /dev/null 2> "$TMP/err"
check "no view dropped: nothing said" "" "$(cat "$TMP/err")"

# --recover: alone, says what it did.
out=$($DA --recover "$W/v" 2>&1 > /dev/null; echo "status $?")
check "--recover with nothing to do: message, exit 0" \
	"dumpanalyze: $W/v: nothing to recover: no interrupted commit, nothing a killed run left status 0" "$(echo $out)"
# ... a run killed while staging (before its commit record): its staging
# directory and its lock, each named, and the previous run untouched.
rm -rf "$W/o"
cp -a "$W/old" "$W/o"
DA_FAULT=kill@$((record - 1)) $FAULTS -q --jobs 1 $NEW_ARGS --out-dir "$W/o" > /dev/null 2>&1
check "killed while staging: status 137" 137 $?
killed=$(ls -A "$W/o" | sed -n 's/^\.dumpanalyze-run\.\([0-9]*\)$/\1/p')
$DA --recover "$W/o" > "$TMP/out" 2> "$TMP/rerr"
check "killed while staging: --recover exit 0, its messages" "0|dumpanalyze: $W/o: removed the lock of a killed run (PID $killed)|dumpanalyze: $W/o: removed .dumpanalyze-run.$killed, the staging directory of a run killed before its commit (PID $killed): what the directory held is untouched" \
	"$?|$(paste -sd'|' "$TMP/rerr")"
check "killed while staging: the old run, nothing hidden left" "old " "$(state "$W/o") $(ls -A "$W/o" | grep '^\.')"
# ... killed after its commit record: the commit finished, and the lock.
rm -rf "$W/o"
cp -a "$W/old" "$W/o"
DA_FAULT=kill@$first_move $FAULTS -q --jobs 1 $NEW_ARGS --out-dir "$W/o" > /dev/null 2>&1
check "killed while committing: status 137" 137 $?
$DA --recover "$W/o" > "$TMP/out" 2> "$TMP/rerr"
check "killed while committing: --recover exit 0, the lock and the commit said" "0 2 1 1" \
	"$? $(wc -l < "$TMP/rerr") $(grep -c '^dumpanalyze: .*: removed the lock of a killed run (PID [0-9]*)$' "$TMP/rerr") $(grep -c ': finished the commit of a run that was interrupted (PID [0-9]*)' "$TMP/rerr")"
check "killed while committing: the new run" new "$(state "$W/o")"
out=$($DA -q --recover "$W/o" 2>&1; echo "status $?")
check "--recover -q: nothing said" "status 0" "$(echo $out)"
out=$($DA --recover "$W/nowhere" 2>&1; echo "status $?")
check "--recover on a missing directory: exit 2" \
	"dumpanalyze: $W/nowhere: No such file or directory status 2" "$(echo $out)"
out=$($DA --recover "$W/v" --dump "$SAMPLES_RSX" 2>&1; echo "status $?")
check "--recover with a dump: usage error" \
	"dumpanalyze: --recover DIR goes alone (with --wait or --quiet) status 1" "$(echo $out)"
# --compare refuses a directory whose commit was interrupted.
rm -rf "$W/cmp"
cp -a "$W/v" "$W/cmp"
DA_FAULT=kill@$(awk '$2 == "rename" && $3 == $4 { print $1; exit }' "$TMP/ops") \
	$FAULTS -q --jobs 1 $NEW_ARGS --out-dir "$W/cmp" > /dev/null 2>&1
$DA --compare "$W/v" "$W/cmp" > /dev/null 2> "$TMP/err"
check "--compare on an interrupted commit: exit 2" 2 $?
check "--compare on an interrupted commit: message" \
	"dumpanalyze: $W/cmp: the commit of a run into it was interrupted: \`dumpanalyze --recover $W/cmp\` finishes it" \
	"$(cat "$TMP/err")"
finish
