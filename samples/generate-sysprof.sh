#!/usr/bin/env bash
# Make the sysprof samples in samples/sysprof/: the programs in lua/ run by
# a luajit of Tarantool's fork (tarantool/luajit) under -jdump and its
# platform profiler (misc.sysprof) in one process, through
# lua/sysprof-run.lua.  For each sample NAME it keeps
#
#   NAME.dump[.xz]       the -jdump output
#   NAME.sysprof.xz      the profile (xz -9e; dumpanalyze reads it compressed)
#   NAME.counters.txt    the fork's own counters, misc.sysprof.report()
#   NAME.parse.txt       the fork's own parser on the profile
#                        (luajit -tsysprof FILE), its lines sorted
#
# and for `costly` also costly-Gvl.prof, -jp=Gvl of the same program in
# another process of the same luajit (VM-state shares to compare).
#
# Usage:
#   LUAJIT=/path/to/build/src/luajit LUAJIT_SRC=/path/to/tarantool-luajit \
#     [LUAJIT_NO_MEMPROF=/path/to/other-build/src/luajit] \
#     samples/generate-sysprof.sh [NAME...]
#
# LUAJIT is the fork built with its own CMake defaults; LUAJIT_SRC its source
# tree (the jit.* modules and the tools/ that -tsysprof runs).  The `small`
# sample needs a second build configured with -DLUAJIT_DISABLE_MEMPROF=ON,
# which leaves the C symbols out of the profile: a real profile of a few KB,
# for tests that try every byte.  Nothing of the fork is built, fetched or
# kept by this script: build it yourself (samples/README.md says how the
# committed samples were made).
#
# LuaJIT's -jdump output and the profiler's samples differ from run to run;
# each sample is checked for what it exists to show and retried when a run
# lacks it or the process dies (the fork's sysprof can abort inside
# backtrace(); see samples/README.md).
set -euo pipefail
export LC_ALL=C

SAMPLES=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$SAMPLES"
OUT=$SAMPLES/sysprof
ATTEMPTS=12

die() { echo "generate-sysprof.sh: $*" >&2; exit 1; }
note() { echo "generate-sysprof.sh: $*" >&2; }

[ -n "${LUAJIT:-}" ] && [ -x "$LUAJIT" ] || die "set LUAJIT to a luajit built from tarantool/luajit"
[ -n "${LUAJIT_SRC:-}" ] && [ -f "$LUAJIT_SRC/tools/sysprof.lua" ] ||
  die "set LUAJIT_SRC to the tarantool/luajit source tree (with tools/sysprof.lua)"
command -v xz >/dev/null || die "xz not found"

pl=$(dpkg -L lua-penlight 2>/dev/null | grep '/pl/init.lua$' | head -n 1) || true
[ -n "$pl" ] || die "lua-penlight not installed"
PL_DIR=${pl%/pl/init.lua}

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The Lua path of a luajit: its build's jit/vmdef.lua, the source's jit.*
# modules and tools, penlight.
lua_path() { echo "$(dirname "$1")/?.lua;$LUAJIT_SRC/src/?.lua;$LUAJIT_SRC/tools/?.lua;$PL_DIR/?.lua;$PL_DIR/?/init.lua;;"; }

# run LJ ARGS...: the luajit in samples/, plain-text dumps, stdout kept aside.
run() {
  local lj=$1
  shift
  env -u COLORTERM -u LUAJIT_DUMPFILE TERM=dumb LUA_PATH="$(lua_path "$lj")" \
    "$lj" "$@" >"$TMP/stdout" 2>"$TMP/stderr"
}

is_fork() {
  "$1" -e 'assert(misc and misc.sysprof and misc.sysprof.start)' 2>/dev/null ||
    die "$1 has no misc.sysprof: not a build of tarantool/luajit"
}

# sample NAME LJ MODE PROGRAM ARGS...: one run under -jdump and sysprof.
sample() {
  local name=$1 lj=$2 mode=$3
  shift 3
  run "$lj" "-jdump=+x,$TMP/$name.dump" lua/sysprof-run.lua "$mode" 1 \
    "$TMP/$name.sysprof" "$TMP/$name.counters.txt" "$@"
}

# A generation with a trace number taken again after the GC freed its trace.
has_reuse_in_gen() {
  awk '/^---- TRACE flush/ { delete seen; next }
       /^---- TRACE [0-9]+ stop/ { if (seen[$3]++) found = 1 }
       END { exit !found }' "$1"
}

check() { # NAME: what the sample exists to show
  local d=$TMP/$1.dump n
  [ -s "$TMP/$1.sysprof" ] && [ -s "$TMP/$1.counters.txt" ] || return 1
  n=$(awk '$1 == "TRACE" { print $2 }' "$TMP/$1.counters.txt")
  [ "$n" -gt 0 ] || { note "  $1: no compiled samples"; return 1; }
  case $1 in
    phases | small)
      [ "$(grep -c '^---- TRACE flush' "$d")" -eq 3 ] || { note "  $1: not 3 flushes"; return 1; }
      has_reuse_in_gen "$d" || { note "  $1: no trace number reused in a generation"; return 1; } ;;
    costly | annotated)
      grep -q '^---- TRACE [0-9]* abort' "$d" || { note "  $1: no abort"; return 1; } ;;
    hoststacks)
      grep -qv '^;' "$TMP/$1.parse.txt" || { note "  $1: no host stacks"; return 1; } ;;
    moved) # numeric's and strings' loops compiled where the edit moved them
      grep -q '^---- TRACE [0-9]* start phases\.lua:20$' "$d" &&
        grep -q '^---- TRACE [0-9]* start phases\.lua:26$' "$d" ||
        { note "  $1: the loops at phases.lua:20 and 26 did not compile"; return 1; } ;;
  esac
}

make_one() { # NAME LJ MODE PROGRAM ARGS...
  local name=$1 i
  for i in $(seq 1 $ATTEMPTS); do
    rm -f "$TMP/$name".*
    if sample "$@"; then
      run "$2" -tsysprof "$TMP/$name.sysprof"
      sort "$TMP/stdout" >"$TMP/$name.parse.txt"
      if check "$name"; then
        note "$name: attempt $i"
        return 0
      fi
    else
      note "  $name: attempt $i: luajit failed ($(tail -c 200 "$TMP/stderr" | tr '\n' ' '))"
    fi
  done
  die "$name: no usable run in $ATTEMPTS attempts"
}

keep() { # NAME: into samples/sysprof/, the dump compressed when large
  local name=$1
  mkdir -p "$OUT"
  rm -f "$OUT/$name".*
  if [ "$(wc -c <"$TMP/$name.dump")" -gt 200000 ]; then
    xz -9e -c "$TMP/$name.dump" >"$OUT/$name.dump.xz"
  else
    cp "$TMP/$name.dump" "$OUT/$name.dump"
  fi
  xz -9e -c "$TMP/$name.sysprof" >"$OUT/$name.sysprof.xz"
  cp "$TMP/$name.counters.txt" "$TMP/$name.parse.txt" "$OUT/"
}

is_fork "$LUAJIT"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(annotated costly phases hoststacks small moved)
for name in "${names[@]}"; do
  case $name in
    annotated) make_one annotated "$LUAJIT" L lua/annotated.lua 300000 ;;
    costly) make_one costly "$LUAJIT" L lua/costly.lua 3000
      # the same program under -jp=Gvl (1 ms, as the profile above)
      for i in $(seq 1 $ATTEMPTS); do
        run "$LUAJIT" "-jdump=+x,$TMP/costly-jp.dump" "-jp=Gvli1,$TMP/costly-Gvl.prof" \
          lua/costly.lua 3000 && break
      done
      [ -s "$TMP/costly-Gvl.prof" ] || die "costly: -jp=Gvl made no profile" ;;
    phases) make_one phases "$LUAJIT" L lua/phases.lua 4 ;;
    hoststacks) make_one hoststacks "$LUAJIT" C lua/phases.lua 1 ;;
    # phases.lua with its functions reordered (lua/moved/), for --compare
    moved) make_one moved "$LUAJIT" L lua/moved/phases.lua 4 ;;
    small)
      [ -n "${LUAJIT_NO_MEMPROF:-}" ] || die "small: set LUAJIT_NO_MEMPROF"
      is_fork "$LUAJIT_NO_MEMPROF"
      make_one small "$LUAJIT_NO_MEMPROF" L lua/phases.lua 2 ;;
    *) die "unknown sample '$name'" ;;
  esac
  keep "$name"
  [ "$name" != costly ] || cp "$TMP/costly-Gvl.prof" "$OUT/"
done
