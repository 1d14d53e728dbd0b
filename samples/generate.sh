#!/usr/bin/env bash
# Regenerate the sample LuaJIT -jdump outputs in samples/ from real LuaJIT
# running real Lua code (penlight and luacheck from Debian packages, driven by
# the small scripts in samples/lua/).
#
#   samples/generate.sh            regenerate everything
#   samples/generate.sh NAME...    regenerate only these (e.g. rsx flush)
#
# Needs: luajit, lua-penlight, lua-check (Debian packages). For the luajit2
# (OpenResty) sample it runs `apt-get download` for luajit2 and its libraries
# into samples/.cache/ and unpacks them with `dpkg -x` there -- the package is
# never installed (it conflicts with luajit). Without network the luajit2 dump
# already in samples/ is kept.
#
# LuaJIT output is not bit-for-bit reproducible (addresses, and also trace
# numbering, because hash order depends on addresses). Every dump is therefore
# checked for the line shapes it exists to show; a run that lacks one is
# retried a few times. Line numbers quoted in README.md refer to the
# committed files.
set -euo pipefail
export LC_ALL=C

SAMPLES=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$SAMPLES"

LUAJIT=/usr/bin/luajit
MAX_BYTES=1000000       # hard limit per dump
ATTEMPTS=8              # retries for dumps whose shape depends on luck

die() { echo "generate.sh: $*" >&2; exit 1; }
note() { echo "generate.sh: $*" >&2; }

[ -x "$LUAJIT" ] || die "$LUAJIT not found (apt-get install luajit)"

# Where the Debian packages put their modules (…/5.1/pl/init.lua etc.).
pkg_luadir() { # package marker-suffix
  local f
  # the whole list read (grep -m1 would leave dpkg a SIGPIPE, which
  # pipefail takes for a missing package)
  f=$(dpkg -L "$1" 2>/dev/null | grep -- "$2\$") ||
    die "package $1 not installed (need $2)"
  f=${f%%$'\n'*}
  echo "${f%"$2"}"
}
PL_DIR=$(pkg_luadir lua-penlight /pl/init.lua)
LC_DIR=$(pkg_luadir lua-check /luacheck/init.lua)
MOD_PATH="$PL_DIR/?.lua;$PL_DIR/?/init.lua"
[ "$LC_DIR" = "$PL_DIR" ] || MOD_PATH="$MOD_PATH;$LC_DIR/?.lua;$LC_DIR/?/init.lua"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Run Debian luajit with plain-text dump settings; program stdout is kept in
# $TMP/stdout. ";;" appends the default path (jit.* modules of this luajit).
lj() {
  env -u COLORTERM -u LUAJIT_DUMPFILE TERM=dumb LUA_PATH="$MOD_PATH;;" \
    "$LUAJIT" "$@" >"$TMP/stdout"
}

# ---- checks -----------------------------------------------------------------

# has FILE ERE DESCRIPTION: the dump contains a line matching ERE.
has() {
  grep -Eq -- "$2" "$1" && return 0
  note "  $(basename "$1"): missing $3"
  return 1
}
# count FILE ERE: number of matching lines.
count() { grep -Ec -- "$2" "$1" || true; }

size_ok() {
  local n
  n=$(wc -c <"$1")
  [ "$n" -le "$MAX_BYTES" ] && return 0
  note "  $(basename "$1"): $n bytes > $MAX_BYTES"
  return 1
}

# A side trace whose parent is itself a side trace (depth >= 2, a "bush").
has_bush() {
  awk '
    /^---- TRACE [0-9]+ start [0-9]+\/[0-9]+ / {
      split($5, a, "/"); par[$3] = a[1]; if (par[a[1]] != "") found = 1; next }
    /^---- TRACE [0-9]+ start / { par[$3] = "" }
    /^---- TRACE flush/ { delete par }
    END { exit !found }' "$1" && return 0
  note "  $(basename "$1"): missing side trace of a side trace"
  return 1
}

# Every `exit` line is followed by 8 register lines starting with a space.
has_exit_regs() {
  awk '
    pend > 0 { if (substr($0, 1, 1) != " ") bad = 1; pend--; if (!pend) ok++; next }
    /^---- TRACE [0-9]+ exit [0-9]+$/ { pend = 8 }
    END { exit !(ok > 0 && !bad && !pend) }' "$1" && return 0
  note "  $(basename "$1"): exit lines without 8 register lines"
  return 1
}

# A trace number that completed (stop) and is started again later in the same
# generation, i.e. reused without a flush.
has_reuse() {
  awk '
    /^---- TRACE flush/ { delete stopped; next }
    /^---- TRACE [0-9]+ stop/ { stopped[$3] = 1; next }
    /^---- TRACE [0-9]+ start/ { if ($3 in stopped) found = 1 }
    END { exit !found }' "$1" && return 0
  note "  $(basename "$1"): no trace number reused without flush"
  return 1
}

# Trace with an IR section that ends in `abort` (needs -jdump=+a).
has_ir_abort() {
  awk '
    /^---- TRACE [0-9]+ IR$/ { ir = $3; next }
    /^---- TRACE [0-9]+ (mcode|stop)/ { ir = ""; next }
    /^---- TRACE [0-9]+ abort/ { if (ir == $3) found = 1; ir = "" }
    END { exit !found }' "$1" && return 0
  note "  $(basename "$1"): no IR section followed by abort"
  return 1
}

# Two flush lines with nothing but a blank line between them.
has_double_flush() {
  awk '
    /^---- TRACE flush$/ { if (prev) found = 1; prev = 1; next }
    /^$/ { next }
    { prev = 0 }
    END { exit !found }' "$1" && return 0
  note "  $(basename "$1"): no back-to-back flush"
  return 1
}

# A program line (not dump syntax) between two bytecode lines of a trace.
has_output_inside_trace() {
  awk '
    function isbc(s) { return s ~ /^[0-9][0-9][0-9][0-9] / }
    NR > 2 && isbc(p2) && !isbc(p1) && p1 !~ /^(----|$)/ && isbc($0) { found = 1 }
    { p2 = p1; p1 = $0 }
    END { exit !found }' "$1" && return 0
  note "  $(basename "$1"): no program output inside a trace"
  return 1
}

# ---- samples ----------------------------------------------------------------
# make_NAME OUT  writes the dump to OUT;  check_NAME OUT  verifies it.

make_penlight_x() { lj "-jdump=+x,$1" lua/penlight.lua; }
check_penlight_x() {
  has "$1" '^---- TRACE [0-9]+ start [0-9]+/[0-9]+ ' 'side trace start' &&
  has_bush "$1" &&
  has "$1" '^---- TRACE [0-9]+ stop -> [0-9]+$' 'stop -> N link' &&
  has "$1" '^---- TRACE [0-9]+ start [0-9]+/stitch ' 'N/stitch start' &&
  has "$1" '^---- TRACE [0-9]+ stop -> stitch$' 'stop -> stitch' &&
  has "$1" '^---- TRACE [0-9]+ abort .* -- NYI: ' 'NYI abort' &&
  has "$1" '^---- TRACE [0-9]+ exit [0-9]+$' 'exit line'
}

make_luacheck() {
  # plain -jdump (default flags tbim); output file via LUAJIT_DUMPFILE
  env -u COLORTERM TERM=dumb LUAJIT_DUMPFILE="$1" LUA_PATH="$MOD_PATH;;" \
    "$LUAJIT" -jdump lua/lint.lua "$PL_DIR/pl/file.lua" >"$TMP/stdout"
}
check_luacheck() {
  local kinds n
  # size varies a lot run to run (640 KB .. 1 MB); keep well below the limit
  n=$(wc -c <"$1")
  [ "$n" -le 900000 ] || { note "  luacheck: $n bytes > 900000"; return 1; }
  kinds=$(grep -E '^---- TRACE [0-9]+ abort ' "$1" | sed 's/.* -- //' | sort -u | wc -l)
  [ "$kinds" -ge 5 ] || { note "  luacheck: only $kinds abort reasons"; return 1; }
  has "$1" '^---- TRACE [0-9]+ abort .* -- NYI: ' 'NYI abort' &&
  has "$1" '^---- TRACE [0-9]+ stop -> [0-9]+$' 'stop -> N link'
}

make_flush() { lj "-jdump=+x,$1" lua/flush.lua; }
check_flush() {
  [ "$(count "$1" '^---- TRACE flush$')" -ge 3 ] || { note "  flush: < 3 flushes"; return 1; }
  has_double_flush "$1"
}

make_rsx() { lj "-jdump=+rsX,$1" lua/small.lua; }
check_rsx() {
  has "$1" '^[0-9]{4} [a-z0-9]+ +[ >+] .* SLOAD ' 'IR line with register column' &&
  has "$1" '^\.\.\.\. +SNAP +#[0-9]+ +\[' 'interleaved SNAP line' &&
  has_exit_regs "$1"
}

make_snapshots() { lj "-jdump=tbsm,$1" lua/small.lua; }
check_snapshots() {
  has "$1" '^---- TRACE [0-9]+ snapshots$' 'snapshots section' &&
  has "$1" '^#0 +[0-9]{4} \[' 'snapshot #0 line' &&
  ! has "$1" '^---- TRACE [0-9]+ IR$' 'no IR (expected!)' 2>/dev/null
}

make_abort_ir() { lj "-jdump=+a,$1" lua/aborts.lua; }
check_abort_ir() {
  has_ir_abort "$1" &&
  has "$1" '^---- TRACE [0-9]+ abort .* -- NYI: bytecode 51' 'NYI FNEW abort' &&
  has "$1" '^---- TRACE [0-9]+ abort .* -- NYI: bytecode 71' 'NYI VARG abort' &&
  has "$1" '^---- TRACE [0-9]+ abort .* -- inner loop in root trace' 'inner loop abort'
}

make_chunknames() { lj "-jdump=+x,$1" lua/chunknames.lua; }
check_chunknames() {
  has "$1" '^---- TRACE [0-9]+ start "t:1:2 x":2$' 'quoted chunk name with colons' &&
  has "$1" '^---- TRACE [0-9]+ start bare name:2$' '=name chunk' &&
  has "$1" '^---- TRACE [0-9]+ start "say "hi": ok":2$' 'chunk name with quotes' &&
  has "$1" '^---- TRACE [0-9]+ start file:with:colons\.lua:2$' '@path chunk' &&
  has "$1" '^---- TRACE [0-9]+ start 0x[0-9a-f]+:2$' 'long chunk name as address' &&
  has "$1" '^---- TRACE [0-9]+ start "s=0$' 'multi-line start LOC' &&
  has "$1" '^---- TRACE [0-9]+ abort "for i=1,99 do$' 'multi-line abort LOC' &&
  has "$1" '^local f=function\(\)end end":2 -- NYI: bytecode 51$' 'multi-line abort tail' &&
  has "$1" '^---- TRACE [0-9]+ abort evil -- name:2 -- NYI' 'abort in chunk named with " -- "'
}

make_hostile() { lj "-jdump=+x,$1" lua/hostile.lua; }
check_hostile() {
  has "$1" "^---- TRACE [0-9]+ start <script>document.title='pwned'</script>:2\$" 'script chunk name' &&
  has "$1" '^---- TRACE [0-9]+ abort <img src=x onerror=.* -- NYI' 'abort in markup chunk name' &&
  has "$1" '^---- TRACE [0-9]+ start "<svg onload=alert\(1\)>":2$' 'quoted markup chunk name'
}

# Chunk names with what CI annotations and editors' parsers treat
# specially ('%', ',', ':', a blank, a newline): two real files
# (lua/ci-names/) and two loaded strings, each with a closure in a loop.
make_ci_names() { lj "-jdump=+x,$1" lua/ci-names.lua; }
check_ci_names() {
  has "$1" '^---- TRACE [0-9]+ abort 50%,off\.lua:5 -- NYI' 'abort in the file 50%,off.lua' &&
  has "$1" '^---- TRACE [0-9]+ abort a:b, c\.lua:5 -- NYI' 'abort in the file a:b, c.lua' &&
  has "$1" '^---- TRACE [0-9]+ abort 50% off, then: more:2 -- NYI' 'abort in an "=" name with % , :' &&
  has "$1" '^---- TRACE [0-9]+ abort "100%,$' 'abort in a quoted name with a newline' &&
  has "$1" '^a:b":2 -- NYI' 'the quoted name'"'"'s second line'
}

# Names and dump lines that terminals, CI logs and editors would obey
# (CR, BEL, C1 controls, bidi overrides, vim's "|N|"), each chunk a loaded
# string with a closure in a loop; the dump on stdout, where the program
# also forges two abort lines (a CR in a reason, a NUL in a chunk name).
make_controls() {
  env -u COLORTERM -u LUAJIT_DUMPFILE TERM=dumb LUA_PATH="$MOD_PATH;;" \
    "$LUAJIT" -jdump=+x lua/controls.lua >"$1"
}
check_controls() {
  has "$1" $'^---- TRACE [0-9]+ abort cr\r::error ::forged by a chunk name:2 -- NYI' 'a CR in a chunk name' &&
  has "$1" $'^---- TRACE [0-9]+ abort c1\xc2\x9b31mred\xc2\x9dosc:2 -- NYI' 'C1 controls in a chunk name' &&
  has "$1" $'^---- TRACE [0-9]+ abort bidi\xe2\x80\xaeaul\\.evil:2 -- NYI' 'a bidi override in a chunk name' &&
  has "$1" '^---- TRACE [0-9]+ abort lua/app\.lua\|7\| x:2 -- NYI' 'a quickfix place in a chunk name' &&
  has "$1" $'^---- TRACE [0-9]+ stop -> loop$' 'a compiled loop' &&
  has "$1" $'^---- TRACE 90 abort forged\\.lua:2 -- NYI: bytecode 51\r::add-mask::secret$' 'a forged reason with a CR'
}

# Chunks named as files that hold secrets (.git/config, .env, .ssh/id_rsa,
# a link into .git, /etc/passwd) and one ordinary file, each aborting on
# its line 2: source.sh checks that none but the ordinary one is read.
make_secrets() { lj "-jdump=+x,$1" lua/secrets.lua; }
check_secrets() {
  has "$1" '^---- TRACE [0-9]+ abort \.git/config:2 -- NYI' '.git/config' &&
  has "$1" '^---- TRACE [0-9]+ abort \.env:2 -- NYI' '.env' &&
  has "$1" '^---- TRACE [0-9]+ abort \.ssh/id_rsa:2 -- NYI' '.ssh/id_rsa' &&
  has "$1" '^---- TRACE [0-9]+ abort src/\.hidden/app\.lua:2 -- NYI' 'a hidden directory' &&
  has "$1" '^---- TRACE [0-9]+ abort cfg/config:2 -- NYI' 'a link into .git' &&
  has "$1" '^---- TRACE [0-9]+ abort /etc/passwd:2 -- NYI' '/etc/passwd' &&
  has "$1" '^---- TRACE [0-9]+ abort src/app\.lua:2 -- NYI' 'an ordinary file'
}

make_builtin() { lj "-jdump=+x,$1" lua/builtin.lua; }
check_builtin() {
  has "$1" '^---- TRACE [0-9]+ start builtin:remove$' 'start builtin:remove' &&
  has "$1" '^---- TRACE [0-9]+ start [0-9]+/[0-9]+ builtin:' 'side trace in builtin'
}

make_reuse() { lj "-jdump=+x,$1" lua/reuse.lua; }
check_reuse() {
  has_reuse "$1" && ! grep -q '^---- TRACE flush' "$1"
}

make_mixed_stdout() {
  # dump to stdout, interleaved with the program's own output
  env -u COLORTERM -u LUAJIT_DUMPFILE TERM=dumb LUA_PATH="$MOD_PATH;;" \
    "$LUAJIT" -jdump lua/mixed.lua >"$1"
}
check_mixed_stdout() {
  has "$1" '^print: ' 'print() output' &&
  has "$1" '^---- TRACE [0-9]+ start ' 'trace start' &&
  has_output_inside_trace "$1"
}

make_mcode_full() {
  # tiny machine-code area: recording fails to allocate mcode -> flush
  lj -Osizemcode=4 -Omaxmcode=4 "-jdump=+x,$1" lua/small.lua
}
check_mcode_full() {
  grep -A2 -E '^---- TRACE [0-9]+ abort .* -- failed to allocate mcode memory$' "$1" |
    grep -q '^---- TRACE flush$' && return 0
  note "  mcode-full: no 'failed to allocate mcode memory' abort followed by flush"
  return 1
}

make_maxtrace() {
  # a trace limit of 100: luacheck on two files needs more, so LuaJIT
  # flushes whenever all 100 numbers are taken; -jdump=t keeps it small
  lj -Omaxtrace=100 "-jdump=t,$1" lua/lint.lua "$PL_DIR/pl/file.lua" "$PL_DIR/pl/utils.lua"
}
# At least 2 flushes, each ending a generation whose highest trace number is
# 100, with no abort between that trace and the flush.
check_maxtrace() {
  awk '/^---- TRACE [0-9]+ (start|stop)/ { n = $3 + 0; if (n > h) h = n; ab = 0 }
    /^---- TRACE [0-9]+ abort/ { ab = 1 }
    /^---- TRACE flush$/ { if (h == 100 && !ab) ok++; else bad++; h = 0 }
    END { exit !(ok >= 2 && !bad) }' "$1" && return 0
  note "  maxtrace: not every flush follows trace 100"
  return 1
}

# luajit2 (OpenResty) from the Debian archive, unpacked privately.
LJ2_CACHE="$SAMPLES/.cache"
LJ2_ROOT="$LJ2_CACHE/luajit2-root"
LJ2_BIN=""
setup_luajit2() {
  [ -n "$LJ2_BIN" ] && return 0
  mkdir -p "$LJ2_CACHE"
  local pkgs=(luajit2 libluajit2-5.1-2 libluajit2-5.1-common) p have=1
  for p in "${pkgs[@]}"; do
    compgen -G "$LJ2_CACHE/${p}_*.deb" >/dev/null || have=0
  done
  if [ "$have" = 0 ]; then
    note "downloading ${pkgs[*]} into $LJ2_CACHE"
    if ! (cd "$LJ2_CACHE" && apt-get download "${pkgs[@]}") >"$TMP/apt.log" 2>&1; then
      cat "$TMP/apt.log" >&2
      return 1
    fi
  fi
  rm -rf "$LJ2_ROOT"
  mkdir -p "$LJ2_ROOT"
  for p in "${pkgs[@]}"; do
    dpkg -x "$(newest_deb "$p")" "$LJ2_ROOT"
  done
  LJ2_BIN=$LJ2_ROOT/usr/bin/luajit
  [ -x "$LJ2_BIN" ] || LJ2_BIN=$(find "$LJ2_ROOT/usr/bin" -name 'luajit*' -type f | head -n1)
  LJ2_JITDIR=$(dirname "$(dirname "$(find "$LJ2_ROOT" -path '*/jit/dump.lua' | head -n1)")")
  LJ2_LIBDIR=$(dirname "$(find "$LJ2_ROOT" -name 'libluajit*.so*' | head -n1)")
  [ -x "$LJ2_BIN" ] && [ -f "$LJ2_JITDIR/jit/dump.lua" ] || return 1
}
newest_deb() { # package -> newest cached .deb of it
  find "$LJ2_CACHE" -maxdepth 1 -name "${1}_*.deb" | sort -V | tail -n1
}
lj2() {
  # no ";;": the default path would find Debian luajit's jit.* modules, whose
  # vmdef.lua/dump.lua do not match this binary
  env -u COLORTERM -u LUAJIT_DUMPFILE TERM=dumb LD_LIBRARY_PATH="$LJ2_LIBDIR" \
    LUA_PATH="$LJ2_JITDIR/?.lua;$MOD_PATH" "$LJ2_BIN" "$@" >"$TMP/stdout"
}
make_luajit2() { lj2 "-jdump=+x,$1" lua/penlight.lua; }
check_luajit2() {
  has "$1" '^[0-9]{4} .* +\([^ ]+:[0-9]+\)$' 'bytecode line with (file:line)' &&
  has "$1" '^---- TRACE [0-9]+ start [0-9]+/stitch ' 'N/stitch start' &&
  has "$1" '^---- TRACE [0-9]+ abort [a-z_]+\.[a-z_]+ -- ' 'abort located in a fast function' &&
  has "$1" '^---- TRACE [0-9]+ exit [0-9]+$' 'exit line'
}

# A dump and profiles of the same workload, for --profile: two runs of
# it, as -jp next to -jdump would skew the profile toward the JIT.  The
# profiler samples: every run differs a little, so the tests read the
# committed files and compare with their text.
COSTLY_ROUNDS=1000
make_costly() { lj "-jdump=tbim,$1" lua/costly.lua "$COSTLY_ROUNDS"; }
check_costly() {
  has "$1" '^---- TRACE [0-9]+ abort tablex\.lua:[0-9]+ -- NYI: bytecode 71$' 'pairs() abort in tablex' &&
  has "$1" '^---- TRACE [0-9]+ abort costly\.lua:30 -- NYI: bytecode 51$' 'closure abort in costly.lua'
}
make_costly_luajit2() { lj2 "-jdump=tbim,$1" lua/costly.lua "$COSTLY_ROUNDS"; }
check_costly_luajit2() {
  has "$1" '^[0-9]{4} .* +\(costly\.lua:[0-9]+\)$' 'bytecode line with (costly.lua:line)'
}
# The source view's sample: a program of our own whose lines carry the
# story (a compiled loop, a closure per iteration that aborts and gets
# blacklisted, a caller spending its time there, markup in its text).
make_annotated() { lj "-jdump=tbim,$1" lua/annotated.lua; }
check_annotated() {
  has "$1" '^---- TRACE [0-9]+ abort annotated\.lua:21 -- NYI: bytecode 51$' 'closure abort at line 21' &&
  [ "$(count "$1" '^---- TRACE [0-9]+ start annotated\.lua:20$')" -ge 11 ] &&
  has "$1" '^---- TRACE [0-9]+ stop -> loop$' 'a compiled loop'
}
make_annotated_luajit2() { lj2 "-jdump=tbim,$1" lua/annotated.lua; }
check_annotated_luajit2() {
  has "$1" '^[0-9]{4} .* +\(annotated\.lua:[0-9]+\)$' 'bytecode line with (annotated.lua:line)' &&
  has "$1" '^---- TRACE [0-9]+ abort annotated\.lua:21 -- NYI: bytecode 51$' 'closure abort at line 21'
}
# annotated-Gvl.prof: folded stacks of the same program, where the
# caller's line (28) is above the failed closure's (21).
make_annotated_profile() {
  local i
  for ((i = 1; i <= ATTEMPTS; i++)); do
    rm -f "$TMP/annotated-Gvl.prof"
    lj -jp=Gvli1,"$TMP/annotated-Gvl.prof" lua/annotated.lua || die "annotated-Gvl: luajit failed"
    if grep -Eq '^@[^;]*;annotated\.lua:33;annotated\.lua:28;annotated\.lua:21 [0-9]+$' "$TMP/annotated-Gvl.prof"; then
      mv "$TMP/annotated-Gvl.prof" "$SAMPLES/annotated-Gvl.prof"
      note "annotated-Gvl.prof $(wc -c <"$SAMPLES/annotated-Gvl.prof") bytes (attempt $i)"
      return 0
    fi
  done
  die "annotated-Gvl: no stack through line 28 into line 21"
}

# The shop service (lua/shop, an OpenResty-style app run without nginx)
# before and after the fix of its top findings (lua/shop-fixed): dumps of
# SHOP_DUMP_ROUNDS rounds, and -jp=Gvl profiles of SHOP_PROF_ROUNDS rounds
# (separate runs: -jp next to -jdump would skew the profile), for the
# findings' acceptance test (tests/cli/findings.sh): the interpreted share
# the fixed findings were charged before is the share the fix removed.
SHOP_DUMP_ROUNDS=2000
SHOP_PROF_ROUNDS=60000
shop_run() { # DIR ARGS...: luajit in lua/DIR, its modules found there
  local dir=$1
  shift
  (cd "lua/$dir" && env -u COLORTERM -u LUAJIT_DUMPFILE TERM=dumb LUA_PATH="./?.lua;;" \
    "$LUAJIT" "$@" >"$TMP/stdout")
}
make_shop() { shop_run shop "-jdump=+x,$1" main.lua "$SHOP_DUMP_ROUNDS"; }
check_shop() {
  has "$1" '^0[0-9]{3}  FNEW .* ; json\.lua:23$' 'FNEW of the closure at json.lua:23' &&
  has "$1" '^---- TRACE [0-9]+ abort json\.lua:25 -- NYI: bytecode 51$' 'its abort at json.lua:25' &&
  has "$1" '^---- TRACE [0-9]+ abort app\.lua:161 -- NYI: bytecode 51$' 'the middleware closure abort' &&
  [ "$(count "$1" '^---- TRACE [0-9]+ start json\.lua:19$')" -ge 11 ] &&
  [ "$(count "$1" '^---- TRACE [0-9]+ start app\.lua:159$')" -ge 11 ] ||
    { note "  shop: the loops at json.lua:19 and app.lua:159 are not blacklisted"; return 1; }
}
make_shop_fixed() { shop_run shop-fixed "-jdump=+x,$1" main.lua "$SHOP_DUMP_ROUNDS"; }
check_shop_fixed() {
  ! grep -Eq '^---- TRACE [0-9]+ abort (json\.lua:25|app\.lua:16[0-9]) -- NYI: bytecode 51$' "$1" ||
    { note "  shop-fixed: the fixed closures still abort"; return 1; }
  has "$1" '^---- TRACE [0-9]+ start json\.lua:19$' 'the encoder loop compiled'
}
# The CI gate's scenario (tests/cli/gate.sh): lua/shop-regressed is
# shop-fixed with a new costly problem elsewhere (router.lua percent-decodes
# each capture with a closure made for every request) and three comment
# lines added at the top of json.lua, which move all its code: README's
# recommended rules must pass shop -> shop-fixed, fail shop-fixed ->
# shop-regressed naming the router's finding, and json.lua's findings must
# move, not become new.
make_shop_regressed() { shop_run shop-regressed "-jdump=+x,$1" main.lua "$SHOP_DUMP_ROUNDS"; }
check_shop_regressed() {
  has "$1" '^0[0-9]{3}  FNEW .* ; router\.lua:40$' 'FNEW of the closure at router.lua:40' &&
  has "$1" '^---- TRACE [0-9]+ abort router\.lua:42 -- NYI: bytecode 51$' 'its abort at router.lua:42' &&
  has "$1" '^---- TRACE [0-9]+ abort json\.lua:37 -- inner loop in root trace$' \
    "json.lua's inner loop, three lines down from shop-fixed's json.lua:34"
}
# The serializer (lua/serializer, a serpent-like recursive pretty-printer)
# and three fixes, each applying the advice of one of its top three
# findings to the original (lua/serializer-fix1..3): dumps of
# SER_DUMP_ROUNDS rounds and -jp=Gvl profiles of SER_PROF_ROUNDS rounds,
# for the findings' tests (tests/cli/findings.sh: exact lines and costs)
# and bench/serializer.sh (the predicted against the measured gain).
SER_DUMP_ROUNDS=300
SER_PROF_ROUNDS=6000
make_serializer() { shop_run serializer "-jdump=+x,$1" main.lua "$SER_DUMP_ROUNDS"; }
check_serializer() {
  has "$1" '^0[0-9]{3}  FNEW .* ; serialize\.lua:15$' "FNEW of safestr's gsub callback" &&
  has "$1" '^---- TRACE [0-9]+ abort serialize\.lua:15 -- NYI: return to lower frame$' 'the callback returning to gsub' &&
  has "$1" '^---- TRACE [0-9]+ start [0-9]+/[0-9]+ serialize\.lua:55$' 'side attempts from the loop body at 55' &&
  [ "$(count "$1" '^---- TRACE [0-9]+ start serialize\.lua:35$')" -ge 11 ] ||
    { note "  serializer: val2str (35) not blacklisted"; return 1; }
}
make_serializer_fix1() { shop_run serializer-fix1 "-jdump=+x,$1" main.lua "$SER_DUMP_ROUNDS"; }
check_serializer_fix1() {
  ! grep -Eq '^0[0-9]{3}  FNEW .* ; serialize\.lua:(15|16)$' "$1" ||
    { note "  serializer-fix1: a closure is still made in safestr"; return 1; }
}
make_serializer_fix2() { shop_run serializer-fix2 "-jdump=+x,$1" main.lua "$SER_DUMP_ROUNDS"; }
check_serializer_fix2() {
  ! grep -Eq 'abort serialize\.lua:1[5-9] -- NYI: return to lower frame$' "$1" ||
    { note "  serializer-fix2: safestr still calls back"; return 1; }
}
make_serializer_fix3() { shop_run serializer-fix3 "-jdump=+x,$1" main.lua "$SER_DUMP_ROUNDS"; }
check_serializer_fix3() {
  ! grep -Eq '^0[0-9]{3}  FNEW .* ; serialize\.lua:5[0-9]$' "$1" ||
    { note "  serializer-fix3: the comparator is still made per table"; return 1; }
}
# Issue 36's other shapes (lua/shapes): a JSON encoder whose string
# escaping creates a gsub callback in a helper (json.lua's encode_string,
# called from encode's loops), and a closure factory called in a loop
# (counter.lua's make_counter): the advice must name the helper and the
# call.
make_shapes() { shop_run shapes "-jdump=+x,$1" main.lua 200; }
check_shapes() {
  has "$1" '^---- TRACE [0-9]+ abort json\.lua:15 -- NYI: bytecode 51$' "encode_string's callback" &&
  has "$1" '^---- TRACE [0-9]+ abort counter\.lua:11 -- NYI: bytecode 51$' "make_counter's closure" &&
  has "$1" '^---- TRACE [0-9]+ start counter\.lua:16$' 'the loop calling make_counter'
}
# ser_profile NAME DIR: samples/NAME.prof of SER_PROF_ROUNDS rounds.
ser_profile() {
  rm -f "$TMP/$1.prof"
  shop_run "$2" "-jp=Gvli1,$TMP/$1.prof" main.lua "$SER_PROF_ROUNDS" && [ -s "$TMP/$1.prof" ] ||
    die "$1: no profile written"
  mv "$TMP/$1.prof" "$SAMPLES/$1.prof"
  note "$1.prof $(wc -c <"$SAMPLES/$1.prof") bytes"
}

# shop_profile NAME DIR: samples/NAME.prof, retried until its interpreted
# stacks show the shape the test relies on.
shop_profile() {
  local name=$1 dir=$2 want=$3 i
  for ((i = 1; i <= ATTEMPTS; i++)); do
    rm -f "$TMP/$name.prof"
    shop_run "$dir" "-jp=Gvli1,$TMP/$name.prof" main.lua "$SHOP_PROF_ROUNDS" ||
      die "$name: luajit failed"
    if awk '/^Interpreted /{on=1; next} /^[A-Z]/{on=0} on' "$TMP/$name.prof" | grep -Eq "$want"; then
      mv "$TMP/$name.prof" "$SAMPLES/$name.prof"
      note "$name.prof $(wc -c <"$SAMPLES/$name.prof") bytes (attempt $i)"
      return 0
    fi
  done
  die "$name: no interpreted stack matching $want"
}

# profile NAME TOOL OPTS: samples/NAME.prof from -jp=OPTS of the workload.
profile() {
  local name=$1 tool=$2 opts=$3
  rm -f "$TMP/$name.prof"
  "$tool" "-jp=$opts,$TMP/$name.prof" lua/costly.lua "$COSTLY_ROUNDS" &&
    [ -s "$TMP/$name.prof" ] || die "$name: no profile written"
  mv "$TMP/$name.prof" "$SAMPLES/$name.prof"
  printf 'generate.sh: %-22s %6d bytes  (-jp=%s)\n' "$name.prof" "$(wc -c <"$SAMPLES/$name.prof")" "$opts" >&2
}
make_profiles() {
  profile costly-lvr lj lvrm0i1       # counts per line, split by VM state (the recipe is Gvli1)
  profile costly-vlr lj vlrm0i1       # the same, VM state first
  profile costly-lv lj lv             # percentages, lines under 3% dropped
  profile costly-vl lj vl
  profile costly-lvr-m3 lj lvri1      # counts, lines under 3% dropped
  profile costly-lvrp lj lvrpm0i1     # full paths of the files
  profile costly-Gl lj Gli1           # folded stacks
  profile costly-f lj f               # function names: refused
  profile costly-Gvl lj Gvli1         # folded stacks under VM states
}

# Deterministic cut of penlight-x.dump inside an IR section: after the 10th
# IR header, 6 more lines, then half of the next line (no final newline).
make_ansi() { lj "-jdump=+xA,$1" lua/small.lua; }
check_ansi() { grep -q $'\033\\[' "$1" && has "$1" '^---- TRACE [0-9]+ exit' "exits"; }

make_html() { lj "-jdump=+xH,$1" lua/small.lua; }
check_html() {
  has "$1" '^<style type="text/css">' "HTML style header" &&
    has "$1" '^<pre class="ljdump">' "pre blocks" && has "$1" '&[lg]t;' "escaped <>" &&
    has "$1" 'class="irt_' "IR type spans"
}

make_jv() { lj "-jv=$1" lua/penlight.lua; }
check_jv() {
  has "$1" '^\[TRACE +[0-9]+ \([0-9]+/[0-9]+\) ' "side traces" &&
    has "$1" '^\[TRACE --- ' "aborts" && has "$1" ' stitch ' "stitches" &&
    has "$1" ' -> [0-9]+\]$' "links"
}

make_blacklist() { lj "-jdump=+x,$1" lua/blacklist.lua; }
check_blacklist() {
  [ "$(grep -c '^---- TRACE [0-9]* start blacklist.lua:10$' "$1")" -ge 11 ] ||
    { note "  blacklist: fewer than 11 attempts at the loop"; return 1; }
  has "$1" 'abort blacklist.lua:11 -- NYI: bytecode 51' "FNEW aborts"
}

make_truncated() {
  local src=penlight-x.dump l
  l=$(grep -n -m10 -E '^---- TRACE [0-9]+ IR$' "$src" | tail -n1 | cut -d: -f1)
  head -n "$((l + 6))" "$src" >"$1"
  sed -n "$((l + 7))p" "$src" | head -c 14 >>"$1"
}
check_truncated() {
  [ "$(tail -c1 "$1" | od -An -c | tr -d ' ')" != '\n' ] ||
    { note "  truncated: ends with newline"; return 1; }
  [ "$(tail -n 8 "$1" | grep -c '^---- TRACE [0-9]* IR$')" = 1 ] ||
    { note "  truncated: not cut inside an IR section"; return 1; }
}

# Dump switched on after the first trace compiled (jit.dump.on inside the
# program, as in an nginx worker): exits of a trace that never started
# in the dump.
make_late() { lj lua/late.lua "$1"; }
check_late() {
  has "$1" '^---- TRACE [0-9]+ exit [0-9]+$' 'exit line' &&
  awk '
    /^---- TRACE [0-9]+ start/ { started[$3] = 1; next }
    /^---- TRACE [0-9]+ exit/ { if (!($3 in started)) found = 1 }
    END { exit !found }' "$1" ||
    { note "  late: no exit of a trace that never started"; return 1; }
}

# The same program before and after four comment lines were inserted at
# the top of its file (both named b.lua): --compare's test that abort
# sites and bushes follow the lines that moved.  Each run must abort at
# exactly the loop's two lines, so that the pair differs only by the edit.
edit_run() { # DUMP PREFIX-LINES
  rm -rf "$TMP/edit" && mkdir "$TMP/edit"
  { [ "$2" = 0 ] || printf -- '-- one\n-- two\n-- three\n-- four\n'; cat lua/blacklist.lua; } >"$TMP/edit/b.lua"
  (cd "$TMP/edit" && env -u COLORTERM -u LUAJIT_DUMPFILE TERM=dumb LUA_PATH="$SAMPLES/lua/?.lua;$MOD_PATH;;" \
    "$LUAJIT" "-jdump=tbim,$1" b.lua >/dev/null)
}
edit_sites() { # DUMP: its abort sites, one "LINE REASON" each
  sed -n 's/^---- TRACE [0-9]* abort b\.lua:\([0-9]*\) -- \(.*\)$/\1 \2/p' "$1" | sort -u | paste -sd'|'
}
make_edit_old() { edit_run "$1" 0; }
check_edit_old() {
  [ "$(edit_sites "$1")" = "11 NYI: bytecode 51|12 NYI: bytecode 50" ] ||
    { note "  edit-old: sites $(edit_sites "$1")"; return 1; }
}
make_edit_new() { edit_run "$1" 4; }
check_edit_new() {
  [ "$(edit_sites "$1")" = "15 NYI: bytecode 51|16 NYI: bytecode 50" ] ||
    { note "  edit-new: sites $(edit_sites "$1")"; return 1; }
}

# One generation of thousands of bushes from thousands of loadstring'ed
# chunks (tpl-1 ... tpl-8000), as a template engine makes under OpenResty.
# 8.8 MB of text, committed xz-compressed (dumpanalyze reads xz).
make_templates() {
  lj -Omaxtrace=30000 -Omaxmcode=131072 "-jdump=tbx,$1" lua/templates.lua 8000
}
# At least 7000 roots, 7000 side traces, an FNEW abort in a tpl chunk and
# no flush; then compress.
check_templates() {
  [ "$(count "$1" '^---- TRACE [0-9]+ start [^0-9]')" -ge 7000 ] &&
    [ "$(count "$1" '^---- TRACE [0-9]+ start [0-9]+/')" -ge 7000 ] &&
    has "$1" '^---- TRACE [0-9]+ abort tpl-[0-9]+:10 -- NYI: bytecode 51$' "FNEW abort in a template" &&
    ! grep -q '^---- TRACE flush' "$1" || { note "  templates: wrong shape"; return 1; }
  xz -9 -c "$1" > "$SAMPLES/templates.dump.xz"
}

# Attempts that start in 24 chunks and abort in another (helper.lua):
# the source model once kept a pointer to the abort's file across adding
# the start's, which moved the array of files at the 17th (issue 26).  A
# fuzz regression rather than a sample: tests/fuzz/regressions/.
make_manyfiles() { lj "-jdump=t,$1" lua/manyfiles.lua 24; }
check_manyfiles() {
  local starts
  starts=$(grep -A1 -E '^---- TRACE [0-9]+ start chunk[0-9]+\.lua:' "$1" |
    grep -B1 -E '^---- TRACE [0-9]+ abort helper\.lua:[0-9]+ -- ' |
    sed -n 's/^---- TRACE [0-9]* start \(chunk[0-9]*\.lua\):.*/\1/p' | sort -u | wc -l)
  [ "$starts" -ge 20 ] || { note "  manyfiles: attempts start in only $starts chunks"; return 1; }
}

# Chunks a loader names itself with a '/' ("=views/cart.lua"), which
# LuaJIT writes as given; closures abort in each (fuzz_combined's seeds).
make_loader() { lj "-jdump=+a,$1" lua/loader.lua; }
check_loader() {
  has "$1" '^---- TRACE [0-9]+ abort views/cart\.lua:5 -- NYI: bytecode 51$' 'FNEW abort in views/cart.lua' &&
  has "$1" '^---- TRACE [0-9]+ abort lib/fmt\.lua:4 -- NYI: bytecode 51$' 'FNEW abort in lib/fmt.lua' &&
  has "$1" '^---- TRACE [0-9]+ start loader\.lua:40$' 'the caller loop starts'
}

# produce NAME: make, check, retry, then move into samples/NAME.dump
produce() {
  local name=$1 fn=${1//-/_} out="$TMP/$1.dump" i
  for ((i = 1; i <= ATTEMPTS; i++)); do
    rm -f "$out"
    if "make_$fn" "$out" && [ -s "$out" ] && size_ok "$out" && "check_$fn" "$out"; then
      mv "$out" "$SAMPLES/$name.dump"
      printf 'generate.sh: %-14s %8d bytes  (attempt %d)\n' "$name.dump" \
        "$(wc -c <"$SAMPLES/$name.dump")" "$i" >&2
      return 0
    fi
    note "$name: attempt $i did not show all wanted shapes, retrying"
  done
  die "$name: giving up after $ATTEMPTS attempts"
}

ALL=(penlight-x truncated luacheck flush rsx snapshots abort-ir chunknames
     builtin reuse mixed-stdout mcode-full maxtrace ansi html jv blacklist hostile ci-names controls secrets luajit2
     costly profiles costly-luajit2 late edit-old edit-new templates
     annotated annotated-profile annotated-luajit2 shop shop-fixed shop-regressed shop-profiles manyfiles
     serializer serializer-fix1 serializer-fix2 serializer-fix3 serializer-profiles shapes shapes-profile loader)
[ $# -gt 0 ] && ALL=("$@")

note "$("$LUAJIT" -v)  ($LUAJIT, Debian $(dpkg-query -W -f='${Version}' luajit))"
for name in "${ALL[@]}"; do
  case $name in
    luajit2)
      if setup_luajit2; then
        note "luajit2: $("$LJ2_BIN" -v) (Debian luajit2 $(dpkg-deb -f "$(newest_deb luajit2)" Version))"
        produce luajit2
      else
        note "luajit2: cannot download/unpack luajit2 (no network?); keeping existing luajit2.dump"
      fi ;;
    costly-luajit2)
      if setup_luajit2; then
        produce costly-luajit2
        profile costly-luajit2-Gvl lj2 Gvli1
      else
        note "costly-luajit2: cannot download/unpack luajit2; keeping the existing files"
      fi ;;
    profiles)
      make_profiles ;;
    annotated-profile)
      make_annotated_profile ;;
    shop-profiles)
      # before: the encoder's closure is interpreted; after: main's loop
      shop_profile shop-Gvl shop ';json\.lua:2[2-5] [0-9]+$'
      shop_profile shop-fixed-Gvl shop-fixed ';main\.lua:2[0-9]'
      shop_profile shop-regressed-Gvl shop-regressed ';router\.lua:(3[4-9]|4[0-2]) [0-9]+$' ;;
    runsets)
      # run sets for tests/cli/runset.sh (runsets.sh says which)
      LUAJIT=$LUAJIT ./runsets.sh || die "runsets: recording failed" ;;
    serializer|serializer-fix[123])
      # kept compressed: a fix's dump is ~0.5 MB
      produce "$name"
      xz -9 -f "$SAMPLES/$name.dump"
      note "$name.dump.xz $(wc -c <"$SAMPLES/$name.dump.xz") bytes" ;;
    shapes-profile)
      SER_PROF_ROUNDS=20000 ser_profile shapes-Gvl shapes ;;
    serializer-profiles)
      for d in serializer serializer-fix1 serializer-fix2 serializer-fix3; do ser_profile "$d-Gvl" "$d"; done ;;
    shop-regressed-profile)
      # the regression's closure and loop run interpreted
      shop_profile shop-regressed-Gvl shop-regressed ';router\.lua:(3[4-9]|4[0-2]) [0-9]+$' ;;
    annotated-luajit2)
      if setup_luajit2; then
        produce annotated-luajit2
      else
        note "annotated-luajit2: cannot download/unpack luajit2; keeping the existing dump"
      fi ;;
    templates)
      # size_ok's 1 MB is for the compressed file here
      for ((i = 1; i <= ATTEMPTS; i++)); do
        rm -f "$TMP/templates.dump"
        make_templates "$TMP/templates.dump" && check_templates "$TMP/templates.dump" &&
          size_ok "$SAMPLES/templates.dump.xz" && break
        [ "$i" -lt "$ATTEMPTS" ] || die "templates: giving up"
      done
      note "templates.dump.xz $(wc -c <"$SAMPLES/templates.dump.xz") bytes ($(wc -c <"$TMP/templates.dump") uncompressed)" ;;
    truncated)
      [ -f penlight-x.dump ] || produce penlight-x
      produce truncated ;;
    manyfiles)
      produce manyfiles
      mv manyfiles.dump ../tests/fuzz/regressions/starts-in-24-files.exit0 ;;
    *)
      declare -F "make_${name//-/_}" >/dev/null || die "unknown sample: $name"
      produce "$name" ;;
  esac
done
