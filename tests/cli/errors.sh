#!/bin/sh
# errors.sh DUMPANALYZE — usage and I/O errors: exit codes and messages.
SUITE=errors
. "$(dirname "$0")/setup.sh"
DUMP=$SAMPLES/penlight-x.dump

# expect NAME STATUS STDERR_LINE -- ARGS...: runs with stdin from /dev/null.
expect() {
	name=$1 want_status=$2 want_err=$3
	shift 4
	$DA "$@" < /dev/null > "$TMP/out" 2> "$TMP/err"
	status=$?
	check "$name: exit status" "$want_status" "$status"
	check "$name: message" "$want_err" "$(head -n 1 "$TMP/err")"
}

# Run as an unprivileged user when we are root, so permissions bite; the
# binary and the dump are copied where that user can reach them.
chmod 755 "$TMP"
cp "$DA_BIN" "$TMP/dumpanalyze" && chmod 755 "$TMP/dumpanalyze"
cp "$DUMP" "$TMP/open.dump" && chmod 644 "$TMP/open.dump"
as_user() {
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}

expect "missing dump" 2 "dumpanalyze: cannot read dump $TMP/nope.dump: No such file or directory" -- \
	--dump "$TMP/nope.dump" --out-dir "$TMP/o1"
check "missing dump: no output directory" "no" "$([ -e "$TMP/o1" ] && echo yes || echo no)"

expect "dump is a directory" 2 "dumpanalyze: cannot read dump $TMP: Is a directory" -- \
	--dump "$TMP" --out-dir "$TMP/o2"

cp "$DUMP" "$TMP/secret.dump"
chmod 000 "$TMP/secret.dump"
as_user "$TMP/dumpanalyze" --dump "$TMP/secret.dump" --out-dir /tmp/never-created-$$ > /dev/null 2> "$TMP/err"
check "unreadable dump: exit status" 2 $?
check "unreadable dump: message" "dumpanalyze: cannot read dump $TMP/secret.dump: Permission denied" "$(cat "$TMP/err")"

: > "$TMP/plainfile"
expect "output directory under a file" 2 \
	"dumpanalyze: cannot create output directory $TMP/plainfile/sub: Not a directory" -- \
	--dump "$DUMP" --out-dir "$TMP/plainfile/sub"

mkdir "$TMP/ro" && chmod 555 "$TMP/ro"
as_user "$TMP/dumpanalyze" --dump "$TMP/open.dump" --out-dir "$TMP/ro" > /dev/null 2> "$TMP/err"
check "read-only output directory: exit status" 2 $?
check "read-only output directory: message" \
	"dumpanalyze: output directory $TMP/ro is not writable: Permission denied" "$(cat "$TMP/err")"
as_user "$TMP/dumpanalyze" --dump "$TMP/open.dump" --out-dir "$TMP/ro/sub" > /dev/null 2> "$TMP/err"
check "uncreatable output directory: exit status" 2 $?
check "uncreatable output directory: message" \
	"dumpanalyze: cannot create output directory $TMP/ro/sub: Permission denied" "$(cat "$TMP/err")"

expect "unknown view" 1 "dumpanalyze: unknown view 'nope' (--views list shows them)" -- \
	--dump "$DUMP" --out-dir "$TMP/o3" --views traces,nope
check "unknown view: nothing created" "no" "$([ -e "$TMP/o3" ] && echo yes || echo no)"
expect "ambiguous view" 1 "dumpanalyze: ambiguous view 'bush': could be bush-txt bush-png bush-svg" -- \
	--dump "$DUMP" --out-dir "$TMP/o3" --views bush
expect "empty view list" 1 "dumpanalyze: bad view list 'traces,'" -- \
	--dump "$DUMP" --out-dir "$TMP/o3" --views traces,
expect "unknown view after default" 1 "dumpanalyze: unknown view 'nope' (--views list shows them)" -- \
	--dump "$DUMP" --out-dir "$TMP/o3" --views default,nope
expect "unknown view after all" 1 "dumpanalyze: unknown view 'al' (--views list shows them)" -- \
	--dump "$DUMP" --out-dir "$TMP/o3" --views al
expect "default: a word, not a prefix" 1 "dumpanalyze: unknown view 'defaults' (--views list shows them)" -- \
	--dump "$DUMP" --out-dir "$TMP/o3" --views defaults
expect "empty name after all" 1 "dumpanalyze: bad view list 'all,,traces'" -- \
	--dump "$DUMP" --out-dir "$TMP/o3" --views all,,traces
check "bad lists: nothing created" "no" "$([ -e "$TMP/o3" ] && echo yes || echo no)"
expect "flamegraph needs a profile, also with default" 1 \
	"dumpanalyze: view flamegraph needs --profile FILE (a -jp=Gvli1 profile of the same workload, or a sysprof one)" -- \
	--dump "$DUMP" --out-dir "$TMP/o3" --views default,flamegraph
expect "unknown long option" 1 "dumpanalyze: unknown option '--bogus' (try --help)" -- --bogus
expect "unknown short option" 1 "dumpanalyze: unknown option '-z' (try --help)" -- -z
expect "option without its argument" 1 "dumpanalyze: option '--dump' needs an argument (try --help)" -- --dump
expect "stray argument" 1 "dumpanalyze: unexpected argument 'dump.txt' (the dump goes after --dump)" -- dump.txt

# No --dump and a terminal on stdin: usage error, not a hang.
if command -v script > /dev/null; then
	script -qec "$DA_BIN --out-dir $TMP/o4" /dev/null > "$TMP/tty" 2>&1
	check "terminal stdin: exit status" 1 $?
	check "terminal stdin: message" \
		"dumpanalyze: no dump given: use --dump FILE, or pipe a dump to standard input" \
		"$(tr -d '\r' < "$TMP/tty")"
else
	not_ok "terminal stdin" "script(1) is missing (bsdutils)"
fi

# --strict: the first warning is fatal, exit 3, and no file is left behind.
printf '%s\n' '---- TRACE 1 start x.lua:1' '0001  FORI  1 => 2' '---- TRACE one IR' \
	'---- TRACE 1 IR' '---- TRACE 1 mcode 10' '---- TRACE 1 stop -> loop' '' > "$TMP/bad.dump"
$DA --strict --dump "$TMP/bad.dump" --out-dir "$TMP/o5" > /dev/null 2> "$TMP/err"
check "strict: exit status" 3 $?
check "strict: message" "$TMP/bad.dump:3: error: trace number missing or malformed: ---- TRACE one IR" \
	"$(cat "$TMP/err")"
check "strict: no files left" "" "$(ls -A "$TMP/o5")"
$DA --dump "$TMP/bad.dump" --out-dir "$TMP/o6" > /dev/null 2> "$TMP/err"
check "not strict: exit status" 0 $?
check "not strict: warning" "$TMP/bad.dump:3: warning: trace number missing or malformed: ---- TRACE one IR" \
	"$(head -n 1 "$TMP/err")"
check "not strict: warning counted" "  warnings             1" "$(grep '^  warnings' "$TMP/err")"
check "not strict: the trace still counts" "1,0,loop,1,0,0,10" "$(sed -n 2p "$TMP/o6/gen-1-traces.csv" | tr -d '\r')"

# A huge trace number is a malformed header, not a huge table.
printf '%s\n' '---- TRACE 99999999 start x.lua:1' '0001  FORI  1 => 2' > "$TMP/huge.dump"
$DA -q --dump "$TMP/huge.dump" --out-dir "$TMP/o7" 2> "$TMP/err"
check "huge trace number: exit status" 0 $?
check "huge trace number: warning" "$TMP/huge.dump:1: warning: trace number above 65535: ---- TRACE 99999999 start x.lua:1" \
	"$(head -n 1 "$TMP/err")"

# Help and version go to stdout with status 0.
$DA --help > "$TMP/help" 2>&1
check "help: exit status" 0 $?
check "help: first line" "usage: dumpanalyze [--dump FILE] [--out-dir DIR] [--views LIST] [options]" "$(head -n 1 "$TMP/help")"
$DA --version > "$TMP/version"
check "version: the header's DA_VERSION_STRING" "dumpanalyze $(sed -n 's/^#define DA_VERSION_STRING "\(.*\)"$/\1/p' "$TOP/include/dumpanalyze.h")" "$(cat "$TMP/version")"
# Exits of a trace compiled before the dump began (jit.dump.on inside the
# program): a warning, once per trace; fatal under --strict.
expect "exits of a trace never started, --strict" 3 \
	"$SAMPLES/late.dump:1: error: trace 1: exits of a trace that never started in this generation (compiled before the dump began?)" \
	-- --strict --views traces --dump "$SAMPLES/late.dump" --out-dir "$TMP/late"
# Input that is not a dump is named as such; an empty one too (emptyrun.sh
# has the rest of it).
n=$(wc -l < /bin/ls)
expect "/bin/ls, --strict" 3 \
	"/bin/ls:$((n + 1)): error: no '---- TRACE' line and no -jv line in $((n + 1)) lines: this does not look like a LuaJIT dump" \
	-- --strict --views traces --dump /bin/ls --out-dir "$TMP/ls"
$DA --views traces --dump "$TOP/README.md" --out-dir "$TMP/readme" > /dev/null 2> "$TMP/err"
check "a text file: exit 0" 0 $?
check "a text file: one warning" 1 "$(grep -c "README.md:[0-9]*: warning: no '---- TRACE' line and no -jv line in [0-9]* lines: this does not look like a LuaJIT dump$" "$TMP/err")"
: > "$TMP/empty.dump"
$DA --strict --views traces --dump "$TMP/empty.dump" --out-dir "$TMP/empty" > /dev/null 2> "$TMP/err"
check "an empty dump, --strict: exit 3" 3 $?
check "an empty dump: said once" 1 "$(grep -c "^$TMP/empty.dump: error: no JIT events: the input is empty" "$TMP/err")"
# ---- out of memory (issue 26) ----------------------------------------
# Under a limit on address space (ulimit -v, KB), whatever runs out (the
# library's allocations, the decompressor's, cairo's pixels, a picture
# worker's), the run exits 2 and every message it prints says "out of
# memory"; OUT gets no file.  The limits go from one where the pictures
# cannot be drawn to one where the run succeeds; where each fails depends
# on malloc's arenas and threads, so the checks hold for every run.  An
# AddressSanitizer build reserves terabytes of shadow memory and cannot
# start under any of them: it skips this.
if ldd "$DA_BIN" 2> /dev/null | grep -q 'libasan'; then
	echo "# out of memory: not run under AddressSanitizer"
else
	oom=0 pic=0 lib=0
	for dump in penlight-x.dump templates.dump.xz; do
		for kb in 50000 70000 100000 150000 200000 300000; do
			rm -rf "$TMP/oom" && mkdir "$TMP/oom"
			(ulimit -v $kb; exec $DA_BIN -q --views all --dump "$SAMPLES/$dump" --out-dir "$TMP/oom") 2> "$TMP/oom.err"
			st=$?
			[ $st = 0 ] && continue
			oom=$((oom + 1))
			check "out of memory, $dump under $kb KB: exit status" 2 $st
			# (but the warning that the samples come without their Lua files)
			check "out of memory, $dump under $kb KB: every message says so" "" \
				"$(grep -v -e 'out of memory' -e ': warning: sources not found: ' "$TMP/oom.err")"
			check "out of memory, $dump under $kb KB: a message" yes "$([ -s "$TMP/oom.err" ] && echo yes || echo no)"
			check "out of memory, $dump under $kb KB: no file in OUT" "" "$(ls "$TMP/oom")"
			# named where the file would be, not in the staging directory
			pic=$((pic + $(grep -c "^dumpanalyze: $TMP/oom/gen-[0-9]*-bush-[0-9.]*\\.png: cannot draw the picture: out of memory\$" "$TMP/oom.err")))
			lib=$((lib + $(grep -c "^dumpanalyze: $SAMPLES/$dump: out of memory (after line [0-9]*)\$" "$TMP/oom.err")))
		done
	done
	ran "out of memory: runs that ran out" "$oom"
	ran "out of memory: pictures that could not be drawn (cairo, pixels)" "$pic"
	ran "out of memory: runs the library stopped" "$lib"
	# xz -9's decoder wants 65 MB of dictionary, which 60 MB cannot hold:
	# once called corrupt data.
	(ulimit -v 60000; exec $DA_BIN -q --views traces --dump "$SAMPLES/templates.dump.xz" --out-dir "$TMP/oom") 2> "$TMP/oom.err"
	check "out of memory in the xz decoder: exit status and message" \
		"2 dumpanalyze: $SAMPLES/templates.dump.xz: out of memory (after line 0)" "$? $(cat "$TMP/oom.err")"
fi
finish
