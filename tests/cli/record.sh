#!/bin/sh
# record.sh DUMPANALYZE — `dumpanalyze record` on real luajit runs of
# samples/lua/serializer and samples/lua/shop: the run set's layout and
# statuses, the analysis over it, a wrapper script, LUA_INIT kept, a
# failing workload, a command that is not LuaJIT, two LuaJITs in a run,
# Ctrl-C; and the one recipe in --help, the man page and README.
#
# What is asserted of the JIT holds on every run: every dump of
# `serializer/main.lua 300` aborts at serialize.lua:17 on the closure made
# at line 15 (NYI: bytecode 51, FNEW: LuaJIT 2.1 never records it) and at
# serialize.lua:42 on "NYI: return to lower frame"; every dump of
# `shop/main.lua 2000` at json.lua:25 on FNEW (samples/generate.sh checks
# the same of the samples).  The findings of a wrapper and of luajit are
# compared on findings of the same kind (below).
SUITE=record
. "$(dirname "$0")/setup.sh"
need_luajit
SER=$SAMPLES/lua/serializer
SHOP=$SAMPLES/lua/shop
LUA_PATH="./?.lua;$LUA_PATH"
export LUA_PATH
unset LUA_INIT

# abort_runs DIR PATTERN: how many of DIR's dumps hold an abort line
# matching PATTERN.
abort_runs() {
	n=0
	for d in "$1"/runs/dump-*.zst; do
		zstd -dc "$d" | grep -qE "^---- TRACE [0-9]+ abort $2\$" && n=$((n + 1))
	done
	echo "$n"
}
# columns FILE.csv COLUMN...: those columns of every row, joined by '|'.
columns() {
	node -e 'import("'"$TOP"'/tests/cli/csv.mjs").then(({ csv }) => {
		const [file, ...cols] = process.argv.slice(1);
		for (const r of csv(file)) console.log(cols.map((c) => r[c]).join("|")); })' "$@"
}

# --- luajit itself, 3 runs ---
(cd "$SER" && $DA record --runs 3 --out-dir "$TMP/ser" -- luajit main.lua 300) \
	> "$TMP/ser.out" 2> "$TMP/ser.err"
check "serializer: exit status 0" 0 $?
check "serializer: the run set's files" "dump-1.zst dump-2.zst dump-3.zst prof-1.zst prof-2.zst prof-3.zst \
run-dump-1.json run-dump-1.stderr run-dump-1.stdout run-dump-2.json run-dump-2.stderr run-dump-2.stdout \
run-dump-3.json run-dump-3.stderr run-dump-3.stdout run-prof-1.json run-prof-1.stderr run-prof-1.stdout \
run-prof-2.json run-prof-2.stderr run-prof-2.stdout run-prof-3.json run-prof-3.stderr run-prof-3.stdout" \
	"$(ls "$TMP/ser/runs" | paste -sd' ')"
expected_stdout=$(cd "$SER" && luajit main.lua 300)
n=0
for f in "$TMP"/ser/runs/run-*.json; do
	k=${f##*/run-}
	k=${k%.json}
	check "serializer $k: exit 0, one LuaJIT, its file" '"exit":0,"signal":0 "luajits":1,"wrote":1' \
		"$(sed 's/^{\("exit":0,"signal":0\),"seconds":[0-9.]*,\("luajits":[0-9]*,"wrote":[0-9]*\),.*/\1 \2/' "$f")"
	check "serializer $k: its stdout kept, as luajit writes it" "$expected_stdout" "$(cat "${f%.json}.stdout")"
	check "serializer $k: its stderr kept (empty)" "0" "$(wc -c < "${f%.json}.stderr")"
	n=$((n + 1))
done
ran "serializer: runs' statuses" "$n" 6
check "serializer: the dumps and profiles are zstd" "" \
	"$(zstd -tq "$TMP"/ser/runs/*.zst 2>&1)"
check "serializer: every dump aborts at serialize.lua:17 on FNEW" 3 \
	"$(abort_runs "$TMP/ser" 'serialize\.lua:17 -- NYI: bytecode 51')"
check "serializer: every dump aborts at serialize.lua:42 (return to lower frame)" 3 \
	"$(abort_runs "$TMP/ser" 'serialize\.lua:42 -- NYI: return to lower frame')"
check "serializer: every profile has folded stacks by VM state (Gvli1)" "3 3" \
	"$(for k in 1 2 3; do zstd -dc "$TMP/ser/runs/prof-$k.zst" | grep -c '^Interpreted [0-9]*$'; done | awk '{ s += $1 } END { print s }') \
$(for k in 1 2 3; do zstd -dc "$TMP/ser/runs/prof-$k.zst" | grep -q '^@[^ ]*;main\.lua:[0-9]*;.*serialize\.lua:[0-9]* [0-9]*$' && echo x; done | wc -l)"
check "serializer: the analysis of the 3 runs" "findings-runs.csv findings.csv manifest.json run-1 run-2 run-3 runs runs.csv summary.txt" \
	"$(ls "$TMP/ser" | paste -sd' ')"
check "serializer: summary.txt on stdout" "" "$(cmp "$TMP/ser.out" "$TMP/ser/summary.txt" 2>&1)"
check "serializer: the manifest names the kept runs" \
	"$TMP/ser/runs/dump-1.zst $TMP/ser/runs/dump-2.zst $TMP/ser/runs/dump-3.zst" \
	"$(sed -n 's/^ *"path": "\(.*\)",$/\1/p' "$TMP/ser/manifest.json" | paste -sd' ')"
check "serializer: no stage left, no file called another's" "0 0" \
	"$(ls -a "$TMP/ser" | grep -c '^\.dumpanalyze-record\.[0-9]') $(grep -c 'not written by dumpanalyze' "$TMP/ser.err")"
# the FNEW abort at :17 is a finding in every run, on the right file and line
check "serializer: a FNEW finding at serialize.lua:17 in each run" "1 1 1" \
	"$(for k in 1 2 3; do columns "$TMP/ser/run-$k/findings.csv" AT_FILE AT_LINE REASON |
		grep -c '^serialize\.lua|17|NYI: bytecode FNEW$' | awk '{ print ($1 > 0) }'; done | paste -sd' ')"
check "serializer: the run set's findings: at serialize.lua:17, FNEW, of 3 runs" "yes" \
	"$(columns "$TMP/ser/findings.csv" AT_FILE AT_LINE REASON RUNS_TOTAL |
		grep -q '^serialize\.lua|17|NYI: bytecode FNEW|3$' && echo yes)"

# --- the same through a shell script that starts luajit (not exec), from
# another directory: the Lua files found by --source-root ---
cat > "$TMP/wrapper.sh" <<EOF
#!/bin/sh
# a test runner's kind of wrapper: a version check, then the workload
cd "$SER" || exit 9
luajit -v > /dev/null
luajit main.lua "\$@"
echo "wrapper done"
EOF
chmod +x "$TMP/wrapper.sh"
(cd "$TMP" && $DA record -q --runs 3 --out-dir "$TMP/wrap" --source-root "$SER" -- ./wrapper.sh 300) \
	> "$TMP/wrap.out" 2> "$TMP/wrap.err"
check "wrapper: exit status 0, quiet" "0 0" "$? $(wc -c < "$TMP/wrap.out")"
check "wrapper: two LuaJITs a run (luajit -v writes an empty file), one recorded" "6 6" \
	"$(grep -c '"luajits":2,"wrote":1' "$TMP"/wrap/runs/run-*.json | awk -F: '{ s += $2 } END { print s }') \
$(cat "$TMP"/wrap/runs/run-*.stdout | grep -c '^wrapper done$')"
check "wrapper: the workload's stdout, as luajit's" "$expected_stdout" \
	"$(head -1 "$TMP/wrap/runs/run-dump-2.stdout")"
check "wrapper: every dump aborts at serialize.lua:17 on FNEW" 3 \
	"$(abort_runs "$TMP/wrap" 'serialize\.lua:17 -- NYI: bytecode 51')"
check "wrapper: every dump aborts at serialize.lua:42 (return to lower frame)" 3 \
	"$(abort_runs "$TMP/wrap" 'serialize\.lua:42 -- NYI: return to lower frame')"
# The same findings.  Of `main.lua 300`'s findings, 7 were in each of 20
# recorded runs (and the rest in 1 to 19: LuaJIT's choice); these 5 rest
# on what LuaJIT 2.1 never compiles (FNEW, a return to a lower frame) in
# functions every round calls, so runs have them: each is in most runs
# of both records, with the same identity (the source's text read
# the same way through --source-root).  Not their kinds: whether the
# function at 14 is blacklisted (11 attempts or more) or only aborting
# depends on how many attempts LuaJIT makes, and its hot-count penalties
# have random bits (lj_trace.c, penalty_pc).
pinned="serialize.lua|14|serialize.lua|17|NYI: bytecode FNEW
main.lua|26|serialize.lua|33|NYI: bytecode FNEW
serialize.lua|15|serialize.lua|15|NYI: return to lower frame
serialize.lua|42|serialize.lua|42|NYI: return to lower frame
serialize.lua|80|serialize.lua|80|NYI: return to lower frame"
for side in ser wrap; do
	for k in 1 2 3; do
		columns "$TMP/$side/run-$k/findings.csv" FILE LINE AT_FILE AT_LINE REASON IDENTITY |
			sort -u > "$TMP/$side.$k"
	done
	# in most runs (2 of 3), as a run set calls a finding stable: 110 of
	# 110 runs had all five, kinds included (3 records of 30 side by side
	# and one of 20, 2026-11-28), yet one run in CI's bare Debian root had
	# four (which one was not logged)
	# (a failure lists those that were, and in how many runs each)
	check "$side: the 5 pinned findings, each in most of the 3 runs" "$pinned" \
		"$(printf '%s\n' "$pinned" | while IFS= read -r f; do
			n=0
			for k in 1 2 3; do grep -qF "$f|" "$TMP/$side.$k" && n=$((n + 1)); done
			if [ "$n" -ge 2 ]; then echo "$f"; else echo "$f: in $n of 3 runs"; fi
		done)"
	for k in 1 2 3; do printf '%s\n' "$pinned" | while IFS= read -r f; do
		grep -F "$f|" "$TMP/$side.$k" | head -1; done; done | sort -u > "$TMP/$side.pinned"
done
check "wrapper vs luajit: the pinned findings' identities, with the source's text" "5 5" \
	"$(wc -l < "$TMP/ser.pinned") $(grep -c '|v1|[a-z]*|[a-z.]*|[A-Z]*|S:' "$TMP/wrap.pinned")"
check "wrapper vs luajit: the same identities" "" "$(diff "$TMP/ser.pinned" "$TMP/wrap.pinned")"

# --- a rerun replaces the run set whole; shop, 2 runs ---
cp -a "$TMP/ser" "$TMP/ser.before"
(cd "$SHOP" && $DA record -q --runs 2 --out-dir "$TMP/ser" -- luajit main.lua 2000) > /dev/null 2> "$TMP/shop.err"
check "rerun (shop, 2 runs): exit status 0" 0 $?
check "rerun: the new set only" "dump-1.zst dump-2.zst prof-1.zst prof-2.zst" \
	"$(ls "$TMP/ser/runs" | grep -v '^run-' | paste -sd' ')"
check "rerun: the analysis of 2 runs, the third run's directory gone" "run-1 run-2" \
	"$(ls "$TMP/ser" | grep '^run-' | paste -sd' ')"
check "rerun: every dump aborts at json.lua:25 on FNEW" 2 \
	"$(abort_runs "$TMP/ser" 'json\.lua:25 -- NYI: bytecode 51')"
check "rerun: no stage left, nothing called another's" "0 0" \
	"$(ls -a "$TMP/ser" | grep -c '^\.dumpanalyze-record\.[0-9]') $(grep -c 'not written by dumpanalyze' "$TMP/shop.err")"
rm -rf "$TMP/ser.before"
cp -a "$TMP/ser" "$TMP/ser.before"

# dir_unchanged NAME: OUT as before, and no stage left in it.
dir_unchanged() {
	check "$1: the directory as it was" "" "$(diff -r "$TMP/ser.before" "$TMP/ser" 2>&1)"
}

# --- a workload that fails on its second dump run ---
cat > "$TMP/flaky.sh" <<EOF
#!/bin/sh
cd "$SHOP" || exit 9
if [ -e "$TMP/flaky.ran" ]; then echo "database gone" >&2; exit 3; fi
touch "$TMP/flaky.ran"
exec luajit main.lua 2000
EOF
chmod +x "$TMP/flaky.sh"
$DA record -q --runs 2 --out-dir "$TMP/ser" -- "$TMP/flaky.sh" > "$TMP/out" 2> "$TMP/err"
check "failing run: exit status 2" 2 $?
check "failing run: which run, its exit status, its stderr" \
"dumpanalyze: record: run 2 of 4 (profile 1) of '$TMP/flaky.sh' failed: it exited with status 3
  | database gone
dumpanalyze: record: $TMP/ser is left as it was" "$(cat "$TMP/err")"
dir_unchanged "failing run"

# --- runs past --timeout: the whole process group stopped (the
# background sleep too), with SIGTERM, then SIGKILL 5 s later for a run
# that ignores SIGTERM; the run fails, DIR as it was ---
# gone PIDFILE: the process it names is gone (or a zombie awaiting init);
# the run must have got as far as writing it (the timeouts are 2 s: the
# script writes it at once, after its "working").
gone() {
	pid=$(cat "$1" 2> /dev/null)
	[ -n "$pid" ] || { echo "no pid written: the run did not get going"; return; }
	st=$(ps -o stat= -p "$pid" 2> /dev/null)
	case $st in ''|Z*) echo gone ;; *) echo "still there ($st)" ;; esac
}
for how in term ignore; do
	trap_line=
	[ $how = ignore ] && trap_line="trap '' TERM"
	cat > "$TMP/hang-$how.sh" <<EOF
#!/bin/sh
$trap_line
echo "working" >&2
sleep 1000 &
echo \$! > "$TMP/hang-$how.pid"
wait
EOF
	chmod +x "$TMP/hang-$how.sh"
done
$DA record -q --runs 1 --timeout 2 --out-dir "$TMP/ser" -- "$TMP/hang-term.sh" > "$TMP/out" 2> "$TMP/err"
check "--timeout 2: exit status 2, which run, how it was stopped, its stderr" \
"2 dumpanalyze: record: run 1 of 2 (dump 1) of '$TMP/hang-term.sh' did not finish in 2 s (--timeout): stopped with SIGTERM
  | working
dumpanalyze: record: $TMP/ser is left as it was" "$? $(cat "$TMP/err")"
check "--timeout 2: the run's background process stopped too" gone "$(gone "$TMP/hang-term.pid")"
dir_unchanged "--timeout 2"
$DA record -q --runs 1 --timeout 2 --out-dir "$TMP/ser" -- "$TMP/hang-ignore.sh" > "$TMP/out" 2> "$TMP/err"
check "--timeout 2, SIGTERM ignored: exit status 2, then SIGKILL" \
"2 dumpanalyze: record: run 1 of 2 (dump 1) of '$TMP/hang-ignore.sh' did not finish in 2 s (--timeout): stopped with SIGTERM, then SIGKILL
  | working
dumpanalyze: record: $TMP/ser is left as it was" "$? $(cat "$TMP/err")"
check "--timeout 2, SIGTERM ignored: its background process killed too" gone "$(gone "$TMP/hang-ignore.pid")"
dir_unchanged "--timeout 2, SIGTERM ignored"

# --- the workload sees which kind of run it is (an inherited value is
# replaced): run-dump-1 says dump, run-prof-1 profile ---
DUMPANALYZE_RECORD_KIND=stale $DA record -q --runs 1 --out-dir "$TMP/kind" -- \
	sh -c "cd '$SER' && echo \"kind=\$DUMPANALYZE_RECORD_KIND\" && luajit main.lua 300 > /dev/null" \
	> /dev/null 2>&1
check "DUMPANALYZE_RECORD_KIND: dump, then profile" "0 kind=dump kind=profile" \
	"$? $(cat "$TMP/kind/runs/run-dump-1.stdout" "$TMP/kind/runs/run-prof-1.stdout" | tr '\n' ' ' | sed 's/ $//')"

# --- the user's LUA_INIT runs too, after record's (a chunk, then @file) ---
LUA_INIT='io.stderr:write("user init ran\n")' $DA record -q --runs 1 --out-dir "$TMP/init" -- \
	sh -c "cd '$SER' && luajit main.lua 300" > /dev/null 2>&1
check "LUA_INIT chunk: recorded, and it ran in both runs" "0 user init ran
user init ran" "$? $(cat "$TMP"/init/runs/run-*.stderr)"
printf 'io.stderr:write("init file ran\\n")\n' > "$TMP/init.lua"
LUA_INIT="@$TMP/init.lua" $DA record -q --runs 1 --out-dir "$TMP/init" -- \
	sh -c "cd '$SER' && luajit main.lua 300" > /dev/null 2>&1
check "LUA_INIT @file: recorded, and it ran in both runs" "0 init file ran
init file ran" "$? $(cat "$TMP"/init/runs/run-*.stderr)"
LUA_INIT='error("broken init")' $DA record -q --runs 1 --out-dir "$TMP/ser" -- \
	sh -c "cd '$SER' && luajit main.lua 300" > /dev/null 2> "$TMP/err"
check "LUA_INIT that fails: exit 2, luajit's message shown" "2 1" \
	"$? $(grep -c '^  | luajit: .*broken init' "$TMP/err")"
dir_unchanged "LUA_INIT that fails"

# --- a program that ends with os.exit: luajit -jp loses its profile
# (written when the state is closed, which os.exit skips); record's does not
printf 'arg = { [0] = "main.lua", "300" }\ndofile("main.lua")\nos.exit(0)\n' > "$TMP/exit.lua"
(cd "$SER" && luajit -jp=Gvli1,"$TMP/plain.prof" "$TMP/exit.lua" > /dev/null)
(cd "$SER" && $DA record -q --runs 1 --out-dir "$TMP/exit" -- luajit "$TMP/exit.lua") > /dev/null 2>&1
status=$?
check "os.exit: plain -jp writes nothing, record's profile has samples" "0 0 yes" \
	"$(wc -c < "$TMP/plain.prof") $status $(zstd -dc "$TMP/exit/runs/prof-1.zst" | grep -q '^Interpreted [1-9][0-9]*$' && echo yes)"

# --- not a LuaJIT program ---
$DA record -q --runs 2 --out-dir "$TMP/ser" -- sh -c 'echo hello' > /dev/null 2> "$TMP/err"
check "not LuaJIT: exit 2 and what to do" "2 1 1" \
	"$? $(grep -c "^dumpanalyze: record: run 1 of 4 (dump 1) of 'sh' failed: it exited with status 0, but no LuaJIT it started read LUA_INIT: record reaches LuaJIT through LUA_INIT, so COMMAND must be luajit or start it" "$TMP/err") \
$(grep -c 'record the runs yourself and give them to dumpanalyze --repeats' "$TMP/err")"
dir_unchanged "not LuaJIT"
$DA record -q --out-dir "$TMP/ser" -- no-such-program-here > /dev/null 2> "$TMP/err"
check "no such command: exit 2, said" "2 dumpanalyze: record: run 1 of 10 (dump 1): cannot run 'no-such-program-here': No such file or directory" \
	"$? $(head -1 "$TMP/err")"
dir_unchanged "no such command"

# --- two LuaJITs that both compile: refused ---
$DA record -q --runs 1 --out-dir "$TMP/ser" -- sh -c "cd '$SER' && luajit main.lua 300 && luajit main.lua 300" \
	> /dev/null 2> "$TMP/err"
check "two LuaJITs in a run: exit 2, said" "2 1" \
	"$? $(grep -c '2 LuaJIT processes of the run wrote a dump; record analyses one program' "$TMP/err")"
dir_unchanged "two LuaJITs"

# --- another record putting its runs into the same directory: exit 2
# without --wait (the lock held here by flock(1), as a record holds it)
if command -v flock > /dev/null; then
	flock "$TMP/ser/.dumpanalyze-record.lock" sh -c "cd '$SER' && $DA_BIN record -q --runs 1 \
		--out-dir '$TMP/ser' -- luajit main.lua 300" > /dev/null 2> "$TMP/err"
	check "locked by another record: exit 2, said" "2 dumpanalyze: record: $TMP/ser: another record is putting its runs there (--wait to wait for it)
dumpanalyze: record: $TMP/ser is left as it was" "$? $(cat "$TMP/err")"
	dir_unchanged "locked by another record"
fi

# --- Ctrl-C: the workload stopped, the directory as it was ---
cat > "$TMP/spin.lua" <<'EOF'
local ffi = require("ffi")
ffi.cdef("int getpid(void);")
local f = assert(io.open(arg[1] .. ".tmp", "w"))
f:write(ffi.C.getpid(), "\n")
f:close()
os.rename(arg[1] .. ".tmp", arg[1])
local x = 0
while true do x = x + 1 end
EOF
# A non-interactive shell starts a background job with SIGINT ignored:
# env gives it back its default, as a terminal's Ctrl-C would find it.
env --default-signal=INT $DA_BIN record -q --runs 2 --out-dir "$TMP/ser" -- luajit "$TMP/spin.lua" "$TMP/spin.pid" \
	> /dev/null 2> "$TMP/err" &
rec=$!
i=0
while [ ! -s "$TMP/spin.pid" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
check "Ctrl-C: the workload started" yes "$([ -s "$TMP/spin.pid" ] && echo yes)"
kill -INT $rec
wait $rec
check "Ctrl-C: record dies of SIGINT" 130 $?
check "Ctrl-C: said" "dumpanalyze: record: interrupted (SIGINT); $TMP/ser is left as it was" "$(cat "$TMP/err")"
check "Ctrl-C: the workload is gone" gone "$(kill -0 "$(cat "$TMP/spin.pid")" 2>/dev/null || echo gone)"
dir_unchanged "Ctrl-C"

# --- Ctrl-C during the analysis: the previous run set back.  A run
# reading a FIFO holds the directory's lock; record --wait swaps its runs
# in and waits for that lock (it says so): then SIGINT.
mkfifo "$TMP/hold.fifo"
$DA_BIN --dump "$TMP/hold.fifo" --out-dir "$TMP/ser" > /dev/null 2>&1 &
holder=$!
exec 3> "$TMP/hold.fifo"
i=0
while ! ls -a "$TMP/ser" | grep -q '^\.dumpanalyze-run\.' && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
(cd "$SER" && exec env --default-signal=INT $DA_BIN record -q --wait --runs 1 --out-dir "$TMP/ser" -- \
	luajit main.lua 300) > /dev/null 2> "$TMP/err" &
rec=$!
i=0
while ! grep -q 'is in use by' "$TMP/err" && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
check "interrupted analysis: its new runs were in place" "dump-1.zst prof-1.zst" \
	"$(ls "$TMP/ser/runs" | grep -v '^run-' | paste -sd' ')"
kill -INT $rec
wait $rec
check "interrupted analysis: record dies of SIGINT" 130 $?
kill -TERM $holder
wait $holder 2> /dev/null
exec 3>&-
check "interrupted analysis: said" "dumpanalyze: interrupted (SIGINT); $TMP/ser is left as it was" \
	"$(grep -v 'is in use by' "$TMP/err")"
dir_unchanged "interrupted analysis"

# --- usage ---
$DA record --runs 0 -- luajit x.lua > /dev/null 2> "$TMP/err"
check "--runs 0: usage error" "1 dumpanalyze: record: --runs wants a number from 1 to 100, not '0'" "$? $(cat "$TMP/err")"
for bad in 0 -1 x 1e9 ''; do
	$DA record --timeout "$bad" -- true > /dev/null 2> "$TMP/err"
	check "--timeout '$bad': usage error" \
		"1 dumpanalyze: record: --timeout wants seconds, more than 0 and at most 604800, not '$bad'" \
		"$? $(cat "$TMP/err")"
done
$DA record --out-dir "$TMP/x" > /dev/null 2> "$TMP/err"
check "no command: usage error" "1 dumpanalyze: record: no command: dumpanalyze record [options] -- COMMAND [ARGS...]" "$? $(cat "$TMP/err")"
check "no command: nothing made" "" "$(ls "$TMP/x" 2>&1 | grep -v 'No such file')"

# --- progress on a terminal: which run of how many ---
if command -v script > /dev/null; then
	script -qec "cd '$SER' && $DA_BIN record --runs 1 --out-dir '$TMP/tty' -- luajit main.lua 300" /dev/null \
		> "$TMP/tty.out" 2>&1
	check "progress: run 1 of 2 and run 2 of 2 shown on a terminal" "1 1" \
		"$(grep -c 'record: run 1 of 2 (dump 1 of 1)' "$TMP/tty.out") $(grep -c 'record: run 2 of 2 (profile 1 of 1)' "$TMP/tty.out")"
fi

# --- one recipe: --help, record --help, the man page, README ---
check "recipe: --help" 1 "$($DA --help | grep -c 'luajit -jdump=+x,app.dump -jp=Gvli1,app.prof app.lua')"
check "recipe: record --help" 1 "$($DA record --help | grep -c 'with -jdump=+x and N$')"
check "recipe: the man page's PROFILES, EXAMPLES and --profile" "3" \
	"$(grep -c '^luajit \\-jp=Gvli1,prof.txt app.lua$\|^luajit \\-jp=Gvli1,app.prof app.lua$\|^\\-jp=Gvli1,\\:FILE\\fR' "$TOP/man/dumpanalyze.1")"
check "recipe: --profile's page" 1 "$(grep -c '^-jp=Gvli1,FILE\*\*' "$TOP/docs/options/profile.md")"
check "recipe: README's Use" 1 "$(grep -c '^    luajit -jp=Gvli1,app.prof app.lua$' "$TOP/README.md")"
check "recipe: no other -jp recipe to record with, anywhere" "" \
	"$(grep -rn 'record[a-z ]* with -jp=\|luajit -jp=\|luajit \\-jp=' "$TOP/README.md" "$TOP/man/dumpanalyze.1" "$TOP/src" "$TOP/docs" |
		grep -v 'Gvli1' | grep -v 'costly-lvr\|jp=OPTS')"
finish
