#!/bin/sh
# gen-nginx-dump.sh [SIZE_MB]   — a real -jdump of an nginx worker running an
#                                  OpenResty-style app, for the benchmark:
#                                  bench/data/nginx-worker.dump (default 64 MB)
# gen-nginx-dump.sh --sample    — a short run of the same app, for the tests:
#                                  samples/nginx-worker.dump.xz
#
# What runs: Debian 12's nginx 1.22 with lua-nginx-module (libnginx-mod-http-lua)
# on OpenResty's LuaJIT branch (luajit2, libluajit2-5.1-2) and lua-resty-core,
# ONE worker (worker_processes 1), the app in bench/nginx/app/ (routing by
# string matching, cjson, string.format/gsub, a template engine that compiles
# every template with loadstring(code, "=tpl-N"), pcall/error, pairs, a
# coroutine), and init_worker_by_lua turning on
#     require("jit.dump").on("+x", PATH)
# which is -jdump=+x: the default t,b,i,m (traces, bytecode, IR, machine
# code) plus x (every trace exit taken): what one turns on to debug a worker.
# wrk (bench/nginx/wrk.lua: pages over all templates, item pages, JSON API,
# search, reports, feeds, POSTed JSON) drives load until the dump has
# SIZE_MB; then the dump is switched off, nginx stopped, and the counts
# printed (./dumpanalyze must be built: `make`).
#
# Packages: the system gets only what conflicts with nothing (scripts/
# install-deps.sh nginx: wrk, lua-cjson, curl, xz-utils, libpcre3).  luajit2
# conflicts with Debian's luajit, which the tests need, and
# libnginx-mod-http-lua/lua-resty-core pull luajit2 in: so nginx, its lua
# module and luajit2 are fetched with `apt-get download` and unpacked with
# dpkg -x into a temporary directory -- never installed, no service started.
# nginx runs from its own prefix on 127.0.0.1, a high port (NGINX_PORT,
# default 28000-28999 by pid), and is stopped at the end.
#
# Environment: NGINX_TEMPLATES (how many templates; 6000, --sample 150),
# NGINX_JIT_OPT (extra jit.opt.start settings, comma-separated, e.g.
# "maxtrace=20000,maxmcode=81920"; default none: luajit2's own defaults),
# NGINX_MAX_SECONDS (give up growing the dump after this long; 1800).
set -eu
LC_ALL=C
export LC_ALL
top=$(cd "$(dirname "$0")/.." && pwd)
mode=bench
if [ "${1:-}" = --sample ]; then
	mode=sample
	shift
fi
if [ "$mode" = sample ]; then
	size=${1:-3}
	templates=${NGINX_TEMPLATES:-150}
	out=$top/samples/nginx-worker.dump.xz
else
	size=${1:-64}
	templates=${NGINX_TEMPLATES:-6000}
	out=$top/bench/data/nginx-worker.dump
fi
case $size in '' | *[!0-9]*) echo "usage: $0 [--sample] [SIZE_MB]" >&2; exit 1 ;; esac
port=${NGINX_PORT:-$((28000 + $$ % 1000))}
max_seconds=${NGINX_MAX_SECONDS:-1800}
da=$top/dumpanalyze
say() { echo "gen-nginx-dump: $*" >&2; }
die() { say "$*"; exit 1; }

if [ "$mode" = bench ] && [ -f "$out" ] && [ "$(stat -c %s "$out")" -ge $((size * 1000000)) ]; then
	say "$out is cached"
	exit 0
fi
[ -x "$da" ] || die "build dumpanalyze first (make)"
sh "$top/scripts/install-deps.sh" nginx >&2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/nginx-dump.XXXXXX")
pidfile=$tmp/prefix/nginx.pid
stop_nginx() {
	if [ -f "$pidfile" ]; then
		kill -QUIT "$(cat "$pidfile")" 2> /dev/null || true
		i=0
		while [ -f "$pidfile" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
		[ -f "$pidfile" ] && kill -TERM "$(cat "$pidfile")" 2> /dev/null
	fi
	return 0
}
trap 'stop_nginx; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# nginx, its lua module, luajit2, unpacked privately.
debs="nginx libnginx-mod-http-ndk libnginx-mod-http-lua lua-resty-core lua-resty-lrucache
libluajit2-5.1-2 libluajit2-5.1-common"
mkdir -p "$tmp/debs" "$tmp/root"
chmod 755 "$tmp" "$tmp/debs"    # apt-get download drops to the _apt user
# shellcheck disable=SC2086
(cd "$tmp/debs" && apt-get download $debs) > "$tmp/apt.log" 2>&1 ||
	{ cat "$tmp/apt.log" >&2; die "apt-get download failed (network?)"; }
for d in "$tmp"/debs/*.deb; do dpkg -x "$d" "$tmp/root"; done
root=$tmp/root
libdir=$(dirname "$(find "$root" -name 'libluajit-5.1.so.2*' | head -n 1)")
jitdir=$(dirname "$(dirname "$(find "$root" -path '*/jit/dump.lua' | head -n 1)")")
moddir=$root/usr/lib/nginx/modules
luadir=$root/usr/share/lua/5.1
cmoddir=$(dirname "$(dpkg -L lua-cjson | grep -m 1 '/5\.1/cjson\.so$')")
if [ ! -f "$jitdir/jit/dump.lua" ] || [ ! -f "$moddir/ngx_http_lua_module.so" ]; then
	die "unpacked packages lack jit/dump.lua or the lua module"
fi
version() { dpkg-deb -f "$(find "$tmp/debs" -name "${1}_*.deb" | head -n 1)" Version; }

# The prefix: conf, app, temp dirs.
p=$tmp/prefix
mkdir -p "$p/temp" "$p/dump"
cp -R "$top/bench/nginx/app" "$p/app"
dump=$p/dump/worker.dump
jitopt=""
if [ -n "${NGINX_JIT_OPT:-}" ]; then
	jitopt=$(printf '%s' "$NGINX_JIT_OPT" | sed 's/[^,][^,]*/"&"/g')
fi
cat > "$p/app/config.lua" << EOF
-- written by gen-nginx-dump.sh
return {
  templates = $templates,
  dump_flags = "+x",
  dump_path = "$dump",
  jit_opt = { $jitopt },
}
EOF
user=""
[ "$(id -u)" -eq 0 ] && user="user root root;"
sed -e "s|@PREFIX@|$p|g" -e "s|@MODDIR@|$moddir|g" -e "s|@LUADIR@|$luadir|g" \
	-e "s|@JITDIR@|$jitdir|g" -e "s|@CMODDIR@|$cmoddir|g" -e "s|@PORT@|$port|g" \
	-e "s|@USER@|$user|g" -e "s|@TEMP@|$p/temp|g" \
	"$top/bench/nginx/nginx.conf.in" > "$p/nginx.conf"
sed "s/WRK_TEMPLATES/$templates/" "$top/bench/nginx/wrk.lua" > "$p/wrk.lua"

# Start: the worker's cwd is the prefix, so chunk names are app/NAME.lua.
(cd "$p" && env -u COLORTERM TERM=dumb LD_LIBRARY_PATH="$libdir" \
	"$root/usr/sbin/nginx" -p "$p/" -c "$p/nginx.conf" -e "$p/error.log") ||
	{ cat "$p/error.log" >&2 2> /dev/null; die "nginx did not start"; }
i=0
until curl -fsS "http://127.0.0.1:$port/static/x" > /dev/null 2>&1; do
	i=$((i + 1))
	[ $i -lt 50 ] || { cat "$p/error.log" >&2; die "nginx does not answer on port $port"; }
	sleep 0.1
done
worker=$(pgrep -P "$(cat "$pidfile")" | head -n 1)
lib=$(grep -m 1 'libluajit' "/proc/$worker/maps" | awk '{ print $6 }')
case $lib in "$root"/*) ;; *) die "the worker loaded $lib, not the unpacked luajit2" ;; esac
jitver=$(sed -n 's/.*jit\.dump on: \(.*\), context:.*/\1/p' "$p/error.log" | head -n 1)
say "nginx $(version nginx), lua-nginx-module $(version libnginx-mod-http-lua), lua-resty-core $(version lua-resty-core), luajit2 $(version libluajit2-5.1-2)"
say "worker $worker on port $port loaded $(basename "$lib") from the unpacked luajit2: $jitver"

# Load until the dump is big enough.
start=$(date +%s)
rounds=0
while [ "$(stat -c %s "$dump")" -lt $((size * 1000000)) ]; do
	[ $(($(date +%s) - start)) -lt "$max_seconds" ] || die "the dump did not reach $size MB in $max_seconds s"
	wrk -t 1 -c 4 -d 3s -s "$p/wrk.lua" "http://127.0.0.1:$port" > "$tmp/wrk.out" 2>&1 ||
		{ cat "$tmp/wrk.out" >&2; die "wrk failed"; }
	rounds=$((rounds + 1))
	say "$(stat -c %s "$dump") bytes after $rounds x 3 s of wrk ($(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' "$tmp/wrk.out") requests in the last)"
done
curl -fsS "http://127.0.0.1:$port/__dump_off" > /dev/null
stop_nginx
if grep -q '\[error\]\|\[alert\]\|\[crit\]' "$p/error.log"; then
	say "nginx logged errors:"
	grep '\[error\]\|\[alert\]\|\[crit\]' "$p/error.log" | sort | uniq -c | sort -rn | head -n 10 >&2
fi

# Counts, by dumpanalyze and by grep.
"$da" -q --views traces --dump "$dump" --out-dir "$tmp/da" > /dev/null 2> "$tmp/da.err" || true
traces=$(cat "$tmp"/da/gen-*-traces.csv | grep -vc '^ID,')
bushes=$(cat "$tmp"/da/gen-*-traces.csv | grep -c '^[0-9]*,0,')
gens=$(find "$tmp/da" -name 'gen-*-traces.csv' | wc -l)
flushes=$(grep -c '^---- TRACE flush' "$dump" || true)
aborts=$(grep -c '^---- TRACE [0-9]* abort' "$dump" || true)
chunks=$(grep -o 'tpl-[0-9]*:' "$dump" | sort -u | wc -l)
mkdir -p "$(dirname "$out")"
if [ "$mode" = sample ]; then
	xz -9e -T1 -c "$dump" > "$out.tmp"
else
	cat "$dump" > "$out.tmp"
fi
mv "$out.tmp" "$out"
echo "$(basename "$out"): $(stat -c %s "$dump") bytes ($(stat -c %s "$out") stored), $traces traces, $aborts aborts, $flushes flushes, $gens generations, $bushes bushes, $chunks tpl-N chunks; $templates templates, $rounds x 3 s of wrk; $jitver"
if [ -s "$tmp/da.err" ]; then
	say "dumpanalyze said:"
	head -n 20 "$tmp/da.err" >&2
fi
