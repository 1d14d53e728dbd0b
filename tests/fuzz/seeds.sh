#!/bin/sh
# seeds.sh DIR — the fuzzers' seeds, cut from the real samples in samples/
# (line ranges below; see samples/README.md for where each sample came
# from): one shape each, small, so that a mutation changes one thing and an
# execution costs little.  DIR/dump/ for fuzz_dump, DIR/combined/ for
# fuzz_combined (the dump seeds, each behind a head that picks its
# profiles and views), DIR/profile/ for fuzz_profile, DIR/compare/ for
# fuzz_compare.  `make fuzz` runs it;
# tests/cli/fuzz.sh checks every seed is what these cuts give.
#
# seeds.sh --profile-dump prints the dump fuzz_profile joins its profiles
# with (compiled into it), for tests/cli/formats.sh to replay a profile
# regression the same way: costly.dump lines 3026-3103, the profiled
# program's side trace at tablex.lua:81, aborts at tablex.lua:563 and
# seven attempts at costly.lua:29 aborting at costly.lua:30.
#
# seeds.sh --compare-old prints the other side fuzz_compare compares its
# inputs with (compiled into it), packed (fuzz_compare.c): the run of that
# dump with the profile costly-lvr.prof.  The compare seeds and this are
# made by the tool ($DUMPANALYZE, else ./dumpanalyze at the top).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
S=$top/samples
DA=${DUMPANALYZE:-$top/dumpanalyze}
CMP_VIEWS=traces,abort-reasons,abort-sites,findings

profile_dump() {
	sed -n 3026,3103p "$S/costly.dump"
}

# pack DIR: the files of an output directory as `head` prints them
# (==> NAME <==, then its bytes), in name order.
pack() {
	for f in $(cd "$1" && ls); do
		printf '==> %s <==\n' "$f"
		cat "$1/$f"
	done
}

# run_pack DUMP PACKED ARGS...: the tool's run of DUMP (a path relative to
# where it runs, so that its manifest does not name this machine's
# directories), packed.
run_pack() {
	dump=$1 packed=$2
	shift 2
	rm -rf "$work/out"
	(cd "$work" && "$DA" -q --dump "$dump" --out-dir out "$@") > /dev/null 2>&1 || true
	[ -f "$work/out/manifest.json" ] || { echo "seeds.sh: $DA made no run of $dump" >&2; exit 1; }
	pack "$work/out" > "$packed"
}

case ${1:-} in
--profile-dump)
	profile_dump
	exit 0 ;;
--compare-old)
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	profile_dump > "$work/costly.dump"
	cp "$S/costly-lvr.prof" "$work/costly-lvr.prof"
	run_pack costly.dump "$work/old" --profile costly-lvr.prof --views $CMP_VIEWS,bush-txt,profile
	cat "$work/old"
	exit 0 ;;
esac
out=$1
rm -rf "$out/dump" "$out/combined" "$out/profile" "$out/compare" "$out/sysprof"
mkdir -p "$out/dump" "$out/combined" "$out/profile" "$out/compare"

# cut SAMPLE FIRST LAST NAME: lines FIRST..LAST of SAMPLE as a dump seed.
cut() {
	sed -n "$2,$3p" "$S/$1" > "$out/dump/$4"
}

# A root trace whole: bytecode, IR, mcode, "stop -> return".
cut penlight-x.dump 362 424 trace
# A root trace with registers and spill slots in its IR, interleaved
# snapshots (-jdump=+rsX), then "exit 0" with its register dump.
cut rsx.dump 1 72 trace-regs-exit
# An attempt: start, IR, "abort ... -- NYI: bytecode 71".
cut abort-ir.dump 1 15 abort
# Headers only (-jdump=t): a stop, then "---- TRACE flush", then a new
# generation's start, stop and abort.
cut maxtrace.dump 499 508 flush
# Headers only: a root, side traces 1/3, 2/0 and 1/1, an abort, a link.
cut maxtrace.dump 1 20 bush
# Headers only: a stitch and the trace started from it.
cut maxtrace.dump 235 239 stitch
# Exits of a trace the dump never started, then its side trace (late on).
cut late.dump 1 46 exits-orphan
# -jv: loop, return, stitch, "-> N" links, (P/E) sides, "---" aborts.
cut jv.dump 1 30 jv
# -jdump=+H: the style sheet, <pre> and the first trace, </pre>, exits.
cut html.dump 1 88 html
# -jdump=+A: the first trace with ANSI colours and its first exit.
cut ansi.dump 1 60 ansi
# A snapshots section (-jdump=tbsm) instead of IR.
cut snapshots.dump 1 51 snapshots
# luajit2: bytecode lines that end in "(file:line)".
cut luajit2.dump 374 431 luajit2
# luajit2: an abort located in a fast function.
cut luajit2.dump 3295 3300 abort-fastfunc
# LuaJIT 2.0: "NYI: FastFunc string.format".
cut penlight-luajit20.dump 1 20 luajit20-nyi
# LuaJIT 2.1 of 2024: "NYI: bytecode FNEW  ", padded.
cut penlight-luajit21.dump 2987 2993 luajit21-nyi-name
# Quoted chunk names over two lines in a start, a bytecode line and an
# abort; a chunk name holding " -- ".
cut chunknames.dump 298 319 chunknames
# Program output before and inside the dump.
cut mixed-stdout.dump 1 62 mixed-stdout
# Markup in chunk names.
cut hostile.dump 42 50 hostile
# The machine-code area full: that abort, then a flush.
cut mcode-full.dump 1097 1150 mcode-full
# Cut off: the file ends inside an IR line, no final newline.
cut truncated.dump 2067 2074 truncated
# Chunk names with a '/' (a loader's "=views/cart.lua"): two aborts in
# one such chunk; then a loop of loader.lua calling into two of them,
# each attempt aborting in one.
cut loader.dump 1 16 loader
cut loader.dump 170 235 loader-calls
# CRLF line ends (as tests/cli/formats.sh makes them) of the root trace.
sed 's/$/\r/' "$out/dump/trace" > "$out/dump/trace-crlf"
# The root trace compressed in each format input/decode.c reads.
gzip -n -9 -c "$out/dump/trace" > "$out/dump/trace.gz"
# xz with a dictionary of 64 KiB (the default is 8 MiB, which the decoder
# allocates and ASan poisons for every input made from this seed: a tenth
# of fuzz_dump's time)
xz --lzma2=preset=6,dict=64KiB -c "$out/dump/trace" > "$out/dump/trace.xz"
zstd -q -c "$out/dump/trace" > "$out/dump/trace.zst"

# fuzz_combined: each dump seed behind the 9 bytes fuzz_combined_gen.h
# reads: byte 0 the seed's place in name order k (0-31: the profiles k %
# 4, the group of views k / 4 % 8, read whole), then the recipe (-jp
# lines "lr", stacks with VM states and a root frame, two stacks or 14
# sysprof samples, no pictures, seed 1).
k=0
for f in $(cd "$out/dump" && ls); do
	printf "$(printf '\\%03o' $((k % 32)))\015\002\001\000\000\000\000\001" > "$out/combined/$f"
	cat "$out/dump/$f" >> "$out/combined/$f"
	k=$((k + 1))
done

# Profiles, one of each -jp shape the reader knows, whole (the largest is
# 1.6 KB): lvr, vlr, lv, vl, lvr cut at 3%, whole paths, folded stacks
# with and without VM states (LuaJIT and luajit2), and -jp=f, refused.
for p in costly-lvr costly-vlr costly-lv costly-vl costly-lvr-m3 costly-lvrp \
         costly-Gl costly-Gvl costly-luajit2-Gvl costly-f annotated-Gvl; do
	cp "$S/$p.prof" "$out/profile/$p"
done

# Tarantool's sysprof profiles (samples/sysprof/), whole, for fuzz_sysprof.
mkdir -p "$out/sysprof"
for f in "$S"/sysprof/*.sysprof.xz; do
	xz -dc "$f" > "$out/sysprof/$(basename "$f" .xz)"
done

# --compare's other side: the tool's own runs of the seeds above, packed
# (fuzz_compare.c), with the views --compare reads.
[ -x "$DA" ] || { echo "seeds.sh: no $DA: no seeds for fuzz_compare" >&2; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/dump"
cp "$out"/dump/abort "$out"/dump/bush "$out"/dump/flush "$out"/dump/trace "$out"/dump/jv "$work/dump/"
profile_dump > "$work/costly.dump"
cp "$S/costly-lvr.prof" "$S/costly-Gvl.prof" "$work/"
C=$out/compare
# the same run as the other side (no change), and with folded stacks
run_pack costly.dump "$C/same" --profile costly-lvr.prof --views $CMP_VIEWS,bush-txt,profile
run_pack costly.dump "$C/stacks" --profile costly-Gvl.prof --views $CMP_VIEWS,jsonl,profile
# other runs: bushes as text or as JSON lines, two generations, -jv
run_pack dump/bush "$C/bush-txt" --views $CMP_VIEWS,bush-txt
run_pack dump/bush "$C/bush-jsonl" --views $CMP_VIEWS,jsonl
run_pack dump/abort "$C/abort" --views $CMP_VIEWS,bush-txt
run_pack dump/flush "$C/flush" --views $CMP_VIEWS,bush-txt
run_pack dump/trace "$C/trace" --views $CMP_VIEWS,jsonl
run_pack dump/jv "$C/jv" --views $CMP_VIEWS,bush-txt
