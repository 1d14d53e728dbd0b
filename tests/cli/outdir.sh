#!/bin/sh
# outdir.sh DUMPANALYZE — the run owns its out-dir: a manifest written
# last, a rerun that leaves exactly one run's files, files of others left
# alone and named, leftovers of killed runs removed, and interrupted runs
# that leave no temporary file and the earlier output as it was.
SUITE=outdir
. "$(dirname "$0")/setup.sh"

# files DIR: its entries, hidden ones too, on one line.
files() { ls -A "$1" | tr '\n' ' ' | sed 's/ $//'; }

# The manifest lists every file of the run, the dump and the views.
$DA -q --dump "$SAMPLES/flush.dump" --out-dir "$TMP/o" > /dev/null 2>&1
check "flush: exit 0" 0 $?
listed=$(jq -r '.files[]' "$TMP/o/manifest.json" | tr '\n' ' ' | sed 's/ $//')
check "manifest: lists every other file" "$(ls "$TMP/o" | grep -vx manifest.json | tr '\n' ' ' | sed 's/ $//')" "$listed"
ran "manifest: files listed" "$(jq '.files | length' "$TMP/o/manifest.json")" 30
check "manifest: the dump and its size" "$SAMPLES/flush.dump $(wc -c < "$SAMPLES/flush.dump")" \
	"$(jq -r '.dumps[0] | "\(.path) \(.bytes)"' "$TMP/o/manifest.json")"
check "manifest: the default views" "summary findings traces abort-reasons abort-reasons-txt abort-sites exits blacklist bush-png files" \
	"$(jq -r '.views | join(" ")' "$TMP/o/manifest.json")"
check "manifest: complete, exit 0" "true 0" "$(jq -r '"\(.complete) \(.exit_status)"' "$TMP/o/manifest.json")"
check "no staging directory left" "" "$(ls -A "$TMP/o" | grep '^\.')"

# A rerun with a smaller dump: flush's generations 2 to 4 are gone, a
# file the user put there stays and is named, leftovers of a killed run
# (a dead process's staging directory and temporary file) are removed.
echo mine > "$TMP/o/notes.txt"
sh -c 'exit 0' & dead=$!
wait $dead                      # a process that no longer runs
mkdir "$TMP/o/.dumpanalyze-run.$dead"
echo half > "$TMP/o/.dumpanalyze-run.$dead/.gen-1-traces.csv.tmp$dead"
# A hidden file of the user's with a temporary's shape and a dead PID
# (issue 34: it was removed as a leftover of this tool's).
echo mine > "$TMP/o/.notes.tmp$dead"
alive=$$                        # this shell: a run still going
mkdir "$TMP/o/.dumpanalyze-run.$alive"
$DA -q --dump "$SAMPLES/rsx.dump" --out-dir "$TMP/o" > /dev/null 2> "$TMP/err"
check "rerun: exit 0" 0 $?
$DA -q --dump "$SAMPLES/rsx.dump" --out-dir "$TMP/alone" > /dev/null 2>&1
check "rerun: exactly one run's files, and the user's" "$( (ls -A "$TMP/alone"; echo notes.txt; echo .notes.tmp$dead) | sort | tr '\n' ' ')" \
	"$(ls -A "$TMP/o" | grep -v '^\.dumpanalyze-run\.' | sort | tr '\n' ' ')"
check "rerun: no generation 2 left" 0 "$(ls "$TMP/o" | grep -c '^gen-2-')"
check "rerun: the user's file untouched" mine "$(cat "$TMP/o/notes.txt")"
check "rerun: the user's file named" \
	"dumpanalyze: warning: $TMP/o: 1 file not written by dumpanalyze, left alone: notes.txt" \
	"$(grep -v ': warning: sources not found: ' "$TMP/err")"
check "rerun: a killed run's staging directory removed" "" \
	"$(ls -A "$TMP/o" | grep -e "\.dumpanalyze-run\.$dead")"
check "rerun: the user's hidden .notes.tmp$dead kept" mine "$(cat "$TMP/o/.notes.tmp$dead")"
rm "$TMP/o/.notes.tmp$dead"
check "rerun: a running run's staging directory kept" ".dumpanalyze-run.$alive" \
	"$(ls -A "$TMP/o" | grep '^\.dumpanalyze-run\.')"
rmdir "$TMP/o/.dumpanalyze-run.$alive"
check "rerun: the same files as a fresh run" "" "$(diff -r -x notes.txt "$TMP/alone" "$TMP/o")"

# A file of the user's with the name of one the run writes (issue 34: the
# user's index.html was replaced without a word): replaced, and named.
mkdir -p "$TMP/ih"
echo mine > "$TMP/ih/index.html"
echo mine > "$TMP/ih/notes.txt"
$DA -q --views html --dump "$SAMPLES/rsx.dump" --out-dir "$TMP/ih" > /dev/null 2> "$TMP/err"
check "a user's index.html: exit 0" 0 $?
check "a user's index.html: named as replaced, the other file as left alone" \
	"dumpanalyze: warning: $TMP/ih: 1 file not written by dumpanalyze, replaced by this run's: index.html|dumpanalyze: warning: $TMP/ih: 1 file not written by dumpanalyze, left alone: notes.txt" \
	"$(grep -v ': warning: sources not found: ' "$TMP/err" | paste -sd'|')"
check "a user's index.html: the report's now" "<!DOCTYPE html>" "$(head -n 1 "$TMP/ih/index.html")"
$DA -q --views html --dump "$SAMPLES/rsx.dump" --out-dir "$TMP/ih" > /dev/null 2> "$TMP/err"
check "a user's index.html: the next run replaces its own, saying only the other file" \
	"dumpanalyze: warning: $TMP/ih: 1 file not written by dumpanalyze, left alone: notes.txt" "$(grep -v ': warning: sources not found: ' "$TMP/err")"

# A manifest names only plain file names: one that names a path outside
# OUT (written by hand here) makes the next run touch nothing there.
mkdir -p "$TMP/safe" "$TMP/victim"
echo keep > "$TMP/victim/data"
printf '{"tool": "dumpanalyze", "version": "0", "files": ["../victim/data", "/etc/passwd", ".hidden"]}\n' \
	> "$TMP/safe/manifest.json"
$DA -q --views traces --dump "$SAMPLES/rsx.dump" --out-dir "$TMP/safe" > /dev/null 2>&1
check "a manifest naming paths: nothing outside OUT removed" keep "$(cat "$TMP/victim/data")"

# A directory the manifest lists that is now a link leads nowhere.
mkdir -p "$TMP/linked" "$TMP/elsewhere"
echo keep > "$TMP/elsewhere/data"
printf '{"tool": "dumpanalyze", "files": ["data"]}\n' > "$TMP/elsewhere/manifest.json"
printf '{"tool": "dumpanalyze", "version": "0", "dirs": ["sub"]}\n' > "$TMP/linked/manifest.json"
ln -s "$TMP/elsewhere" "$TMP/linked/sub"
$DA -q --views traces --dump "$SAMPLES/rsx.dump" --out-dir "$TMP/linked" > /dev/null 2>&1
check "a listed directory that is a link: nothing behind it removed" keep "$(cat "$TMP/elsewhere/data")"

# Several dumps: the top manifest names their directories; a rerun with
# one dump removes the others' directories, which it lists.
$DA -q --dump "$SAMPLES/rsx.dump" --dump "$SAMPLES/flush.dump" --out-dir "$TMP/m" > /dev/null 2>&1
check "several: dirs in the manifest" "flush.dump rsx.dump" "$(jq -r '.dirs | join(" ")' "$TMP/m/manifest.json")"
check "several: each dump's own manifest" "$SAMPLES/flush.dump" "$(jq -r '.dumps[0].path' "$TMP/m/flush.dump/manifest.json")"
$DA -q --dump "$SAMPLES/rsx.dump" --out-dir "$TMP/m" > /dev/null 2>&1
check "one dump after several: their directories gone" "$(files "$TMP/alone")" "$(files "$TMP/m")"

# Interrupted half way through a dump fed through a FIFO: no temporary
# file, the earlier output as it was, one line, killed by the signal.
# interrupt SIG DIR: a run into DIR, sent SIG once half the dump is in.
# No wait on time: the run sets its handlers before it opens the FIFO
# (which our side's open waits for), so the signal is caught whenever it
# comes; it comes once the run has read the first half (its rchar, in
# /proc, counts the bytes it read), and the run checks for a caught signal
# after its input ends too, so the rest may follow at once.
HALF=$(head -n 4000 "$SAMPLES/penlight-x.dump" | wc -c)
interrupt() {
	rm -f "$TMP/fifo"
	mkfifo "$TMP/fifo"
	env --default-signal="$1" $DA_BIN -q --views traces,bush-txt,bush-png --dump "$TMP/fifo" \
		--out-dir "$2" > /dev/null 2> "$TMP/int.err" &
	pid=$!
	{
		head -n 4000 "$SAMPLES/penlight-x.dump"
		i=0     # 60 s at most
		while [ "$(sed -n 's/^rchar: //p' /proc/$pid/io 2> /dev/null || echo 0)" -lt "$HALF" ] &&
			[ $i -lt 6000 ]; do
			sleep 0.01
			i=$((i + 1))
		done
		kill -"$1" $pid
		tail -n +4001 "$SAMPLES/penlight-x.dump"
	} > "$TMP/fifo" 2> /dev/null
	wait $pid
	status=$?
}
$DA -q --views traces,bush-txt,bush-png --dump "$SAMPLES/flush.dump" --out-dir "$TMP/i" > /dev/null 2>&1
cp -rp "$TMP/i" "$TMP/i.before"
for sig in INT:2 TERM:15 HUP:1; do
	n=${sig#*:} sig=${sig%:*}
	interrupt $sig "$TMP/i"
	check "SIG$sig: killed by the signal" $((128 + n)) "$status"
	check "SIG$sig: one line" "dumpanalyze: $TMP/fifo: interrupted (SIG$sig); $TMP/i is left as it was" \
		"$(cat "$TMP/int.err")"
	check "SIG$sig: no temporary file" "" "$(ls -A "$TMP/i" | grep '^\.')"
	check "SIG$sig: the earlier output as it was" "" "$(diff -r "$TMP/i.before" "$TMP/i")"
done
# Into a new directory: nothing at all is left.
interrupt INT "$TMP/new"
check "SIGINT, new directory: empty" "" "$(ls -A "$TMP/new")"
finish
