#!/bin/bash
# recipes.sh — `make check-recipes`: docs/recipes.md's server recipes, run
# as the document writes them, on Debian 12's own servers.
#
# NEEDS DEBIAN'S MIRROR: the servers are fetched with `apt-get download`
# (the versions apt's lists name as candidates) and unpacked with
# `dpkg -x` into a cache, $DA_RECIPES_CACHE (default
# /var/cache/dumpanalyze-recipes): never installed, no service started,
# the host's packages untouched (nothing is installed at all).  A package
# that cannot be downloaded fails the test, naming it.  Not part of
# `make check`; .ci/run calls it after `make check-fresh`.
#
# OpenResty/nginx workers: nginx, libnginx-mod-http-ndk,
# libnginx-mod-http-lua, lua-resty-core, lua-resty-lrucache and
# OpenResty's luajit2 (libluajit2-5.1-2, -common), unpacked as
# bench/gen-nginx-dump.sh does; cjson, wrk and curl from the host
# (scripts/install-deps.sh nginx).  The ```nginx block of the recipe and
# its ```sh `dumpanalyze --repeats` block are read from docs/recipes.md
# now, with only the paths changed, by
#     sed -e "s|/var/tmp/jit|$JIT|g" -e "s|/path/to/lua|$PREFIX|g"
# (JIT a scratch directory for the workers' files, PREFIX nginx's prefix,
# the workers' current directory: the app's Lua files are in PREFIX/app).
# The block goes into http { } of an nginx.conf with the `env JIT_PROFILE;`
# the recipe asks for, 2 worker processes, the app of bench/nginx/app/,
# listening on 127.0.0.1 and a high port (RECIPES_PORT, default
# 29000-29999 by pid) with reuseport, so that both workers get
# connections.  nginx runs twice, without and with JIT_PROFILE=1: wrk
# (bench/nginx/wrk.lua) for 4 s (the profile run 8 s), then `nginx -s quit` and a wait until the
# master is gone (its workers, which write the profiles on exit, went
# before it).  Then the recipe's dumpanalyze command, as written.
#
# Tarantool: if apt knows a `tarantool` package, it is unpacked the same
# way and the recipe's ```lua block is run with `tarantool`, its
# "-- ... the workload ..." line replaced by dofile of
# samples/lua/walkthrough/app.lua (100000 orders).  Debian 12's tarantool
# 2.6.0 has no `misc` module: the block as written stops at
# misc.sysprof.start (checked, with its message), so it is run again
# without its misc.sysprof lines: the dump half, and the recipe's
# dumpanalyze command without `--profile app.sysprof`.
#
# Last line: "recipes: N passed, N failed".
set -uo pipefail
LC_ALL=C
export LC_ALL
unset COLORTERM
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${DA_RECIPES_CACHE:-/var/cache/dumpanalyze-recipes}
da=$top/dumpanalyze
doc=$top/docs/recipes.md
PASS=0 FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok   - $1"; }
not_ok() { FAIL=$((FAIL + 1)); echo "FAIL - $1"; shift; for l in "$@"; do echo "       $l"; done; }
check() { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "expected: $2" "got:      $3"; fi; }
# check_ge NAME MIN ACTUAL: a count of at least MIN.
check_ge() {
	if [ -n "$3" ] && [ "$3" -ge "$2" ] 2> /dev/null; then ok "$1: $3"; else not_ok "$1" "expected: at least $2" "got:      $3"; fi
}
finish() { echo "recipes: $PASS passed, $FAIL failed"; [ "$FAIL" -eq 0 ]; }
die() { not_ok "$1" "${@:2}"; finish; exit 1; }
started=$(date +%s)

[ -x "$da" ] || die "dumpanalyze is built" "run: make"
for c in apt-get apt-cache dpkg dpkg-deb curl wrk flock jq timeout; do
	command -v "$c" > /dev/null || die "$c is there" "run: scripts/install-deps.sh nginx (jq: scripts/install-deps.sh test)"
done
cmoddir=$(dirname "$(dpkg -L lua-cjson 2> /dev/null | grep -m 1 '/5\.1/cjson\.so$')")
[ -f "$cmoddir/cjson.so" ] || die "lua-cjson is installed" "run: scripts/install-deps.sh nginx"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/dumpanalyze-recipes.XXXXXX")
chmod 755 "$TMP"
nginx_bin="" nginx_p="" libdir=""
# stop_nginx: `nginx -s quit` and wait until the master has gone; TERM
# after 30 s.  The trap calls it on every exit.
stop_nginx() {
	local pid i=0
	[ -n "$nginx_p" ] && [ -f "$nginx_p/nginx.pid" ] || return 0
	pid=$(cat "$nginx_p/nginx.pid")
	# with the unpacked luajit2: `-s quit` loads the modules too
	LD_LIBRARY_PATH=$libdir "$nginx_bin" -p "$nginx_p/" -c "$nginx_p/nginx.conf" -e "$nginx_p/error.log" -s quit ||
		kill -QUIT "$pid" 2> /dev/null
	while kill -0 "$pid" 2> /dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	if kill -0 "$pid" 2> /dev/null; then
		kill -TERM "$pid" 2> /dev/null
		return 1
	fi
	return 0
}
trap 'stop_nginx; [ -n "${RECIPES_KEEP:-}" ] || rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM

# fetch NAME PKG...: the candidate versions of PKG... downloaded and
# unpacked into $cache/NAME/root (kept while apt's candidates are the same
# versions; made under a lock, in a temporary name renamed when complete).
# Prints the root.
fetch() {
	local name=$1 want="" p v dir new
	shift
	for p in "$@"; do
		v=$(apt-cache policy "$p" 2> /dev/null | awk '$1 == "Candidate:" { print $2 }')
		if [ -z "$v" ] || [ "$v" = "(none)" ]; then
			echo "recipes: Debian's package $p is not in apt's lists (this test needs Debian 12's mirror: apt-get update)" >&2
			return 1
		fi
		want="$want$p=$v
"
	done
	dir=$cache/$name
	mkdir -p "$cache"
	exec 9> "$cache/.lock"
	flock 9
	if [ -f "$dir/.complete" ] && [ "$(cat "$dir/.complete")" = "$(printf '%s' "$want")" ]; then
		echo "recipes: $name: cached in $dir" >&2
	else
		new=$cache/.$name.new
		rm -rf "$new"
		mkdir -p "$new/debs" "$new/root"
		chmod 755 "$new" "$new/debs"    # apt-get download drops to the _apt user
		# shellcheck disable=SC2046
		if ! (cd "$new/debs" && apt-get download $(printf '%s' "$want" | tr '\n' ' ')) > "$new/apt.log" 2>&1; then
			sed 's/^/       /' "$new/apt.log" >&2
			echo "recipes: apt-get download of $* failed: this test needs Debian 12's mirror" >&2
			exec 9>&-
			return 1
		fi
		for p in "$new"/debs/*.deb; do dpkg -x "$p" "$new/root" || { exec 9>&-; return 1; }; done
		printf '%s' "$want" > "$new/.complete"
		rm -rf "$dir"
		mv "$new" "$dir"
		echo "recipes: $name: downloaded and unpacked into $dir" >&2
	fi
	exec 9>&-
	printf '%s\n' "$dir/root"
}

# block SECTION LANG [N]: the Nth (default 1st) ```LANG block of the
# section "## SECTION" of docs/recipes.md.
block() {
	awk -v s="## $1" -v l="\`\`\`$2" -v n="${3:-1}" '
		$0 == s { on = 1; next } on && /^## / { exit }
		on && $0 == l { k++; if (k == n) { f = 1; next } }
		f && /^```$/ { exit } f { print }' "$doc"
}

############################################################ nginx
echo "# OpenResty/nginx workers"
debs="nginx libnginx-mod-http-ndk libnginx-mod-http-lua lua-resty-core lua-resty-lrucache
libluajit2-5.1-2 libluajit2-5.1-common"
# shellcheck disable=SC2086
root=$(fetch nginx $debs) || die "nginx and its Lua module downloaded from Debian's mirror" "see the message above"
ok "nginx and its Lua module unpacked into $(dirname "$root") (nothing installed)"
nginx_bin=$root/usr/sbin/nginx
libdir=$(dirname "$(find "$root" -name 'libluajit-5.1.so.2*' | head -n 1)")
jitdir=$(dirname "$(dirname "$(find "$root" -path '*/jit/dump.lua' | head -n 1)")")
moddir=$root/usr/lib/nginx/modules
luadir=$root/usr/share/lua/5.1
check "the unpacked packages have nginx, the Lua module, jit/dump.lua and jit/p.lua" "yes yes yes yes" \
	"$([ -x "$nginx_bin" ] && echo yes) $([ -f "$moddir/ngx_http_lua_module.so" ] && echo yes) $([ -f "$jitdir/jit/dump.lua" ] && echo yes) $([ -f "$jitdir/jit/p.lua" ] && echo yes)"

conf_block=$(block "OpenResty/nginx workers" nginx)
cmd_block=$(block "OpenResty/nginx workers" sh)
check "the recipe's nginx block: init_worker and exit_worker" "2" \
	"$(printf '%s\n' "$conf_block" | grep -c '^\(init\|exit\)_worker_by_lua_block {')"
check "the recipe's command: dumpanalyze --repeats" "dumpanalyze --repeats" \
	"$(printf '%s\n' "$cmd_block" | tail -n 1 | cut -d' ' -f1-2)"
envline=$(awk '/^## OpenResty\/nginx workers/ { on = 1; next } on && /^## / { exit } on' "$doc" |
	grep -o '`env [A-Z_]*;` at the top level' | cut -d'`' -f2)
check "the recipe asks for env JIT_PROFILE; at the top level" "env JIT_PROFILE;" "$envline"

p=$TMP/nginx
jit=$TMP/jit
nginx_p=$p
mkdir -p "$p/temp" "$jit" "$TMP/run"
cp -R "$top/bench/nginx/app" "$p/app"
# app.lua's init_worker is not called: the recipe's block is the worker's.
cat > "$p/app/config.lua" << 'EOF'
-- written by tests/recipes.sh: the app's templates
return { templates = 150, dump_flags = "+x", dump_path = "/dev/null", jit_opt = {} }
EOF
sed "s/WRK_TEMPLATES/150/" "$top/bench/nginx/wrk.lua" > "$p/wrk.lua"
subst() { sed -e "s|/var/tmp/jit|$jit|g" -e "s|/path/to/lua|$p/app|g"; }
# The app's files, as the dumps and profiles name them (NAME.lua).
applua=$(cd "$top/bench/nginx/app" && ls ./*.lua | sed 's|^\./||; s|\.|\\.|' | paste -sd'|')
port=${RECIPES_PORT:-$((29000 + $$ % 1000))}
user=""
[ "$(id -u)" -eq 0 ] && user="user root root;"
{
	cat << EOF
# nginx.conf by tests/recipes.sh: docs/recipes.md's block in http { }.
load_module $moddir/ndk_http_module.so;
load_module $moddir/ngx_http_lua_module.so;
$user
$envline
worker_processes 2;
daemon on;
master_process on;
pid $p/nginx.pid;
error_log $p/error.log warn;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path $p/temp/body;
    proxy_temp_path $p/temp/proxy;
    fastcgi_temp_path $p/temp/fastcgi;
    uwsgi_temp_path $p/temp/uwsgi;
    scgi_temp_path $p/temp/scgi;
    lua_package_path "app/?.lua;$luadir/?.lua;$luadir/?/init.lua;$jitdir/?.lua;;";
    lua_package_cpath "$cmoddir/?.so;;";
    lua_shared_dict stats 1m;
    init_by_lua_block {
        require "resty.core"
        require "app"
    }
# docs/recipes.md, "OpenResty/nginx workers":
EOF
	printf '%s\n' "$conf_block" | subst
	cat << EOF
    server {
        listen 127.0.0.1:$port reuseport;
        location / { content_by_lua_block { require("app").handle() } }
    }
}
EOF
} > "$p/nginx.conf"

# serve KIND SECONDS [ENV...]: start nginx, load it SECONDS with wrk, stop
# it and wait.
serve() {
	local kind=$1 secs=$2 master workers w lib i=0 rc
	shift 2
	: > "$p/error.log"
	if ! (cd "$p" && env -u JIT_PROFILE "$@" TERM=dumb LD_LIBRARY_PATH="$libdir" \
		"$nginx_bin" -p "$p/" -c "$p/nginx.conf" -e "$p/error.log"); then
		die "$kind run: nginx starts" "$(cat "$p/error.log" 2> /dev/null)"
	fi
	# Waits for states (nginx answers, then both workers are there),
	# polled every 0.1 s, 30 s at most: a bound for a broken start only.
	until curl -fsS "http://127.0.0.1:$port/static/x" > /dev/null 2>&1; do
		i=$((i + 1))
		[ $i -lt 300 ] || die "$kind run: nginx answers on 127.0.0.1:$port" "$(cat "$p/error.log")"
		sleep 0.1
	done
	master=$(cat "$p/nginx.pid")
	i=0
	while [ "$(pgrep -P "$master" | wc -l)" -lt 2 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	workers=$(pgrep -P "$master" | sort -n | paste -sd' ')
	check "$kind run: 2 workers" 2 "$(echo "$workers" | wc -w)"
	for w in $workers; do
		lib=$(grep -m 1 'libluajit' "/proc/$w/maps" | awk '{ print $6 }')
		case $lib in "$root"/*) ok "$kind run: worker $w runs the unpacked luajit2" ;;
		*) not_ok "$kind run: worker $w runs the unpacked luajit2" "got: ${lib:-no libluajit}" ;; esac
	done
	wrk -t 2 -c 16 -d "${secs}s" -s "$p/wrk.lua" "http://127.0.0.1:$port" > "$TMP/wrk-$kind.out" 2>&1
	rc=$?
	check "$kind run: wrk exits 0" 0 "$rc"
	check_ge "$kind run: requests served in $secs s" 1000 \
		"$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' "$TMP/wrk-$kind.out")"
	check "$kind run: a page of the app" "200 <!doctype html>" \
		"$(curl -s -o "$TMP/page" -w '%{http_code}' "http://127.0.0.1:$port/page/7") $(head -c 15 "$TMP/page" | tr '[:upper:]' '[:lower:]')"
	stop_nginx
	# shellcheck disable=SC2086 # the workers' pids, one word each
	check "$kind run: nginx -s quit, the master and its workers gone" "gone" \
		"$(kill -0 "$master" $workers 2> /dev/null || echo gone)"
	check "$kind run: no [error], [alert], [crit] or [emerg] in error.log" "" \
		"$(grep '\[error\]\|\[alert\]\|\[crit\]\|\[emerg\]' "$p/error.log" | head -n 3)"
	echo "$workers" > "$TMP/workers-$kind"
}
# The profile run longer: each worker's profile needs 500 samples.
serve dump 4
serve profile 8 JIT_PROFILE=1

# What the workers left, named by the workers that ran.
check "dump-PID: one per worker of the dump run" \
	"$(sed 's/[0-9][0-9]*/dump-&/g' "$TMP/workers-dump")" "$(cd "$jit" && ls dump-* | sort -t- -k2n | paste -sd' ')"
check "prof-PID: one per worker of the profile run" \
	"$(sed 's/[0-9][0-9]*/prof-&/g' "$TMP/workers-profile")" "$(cd "$jit" && ls prof-* | sort -t- -k2n | paste -sd' ')"
n=0
for f in "$jit"/dump-*; do
	n=$((n + 1))
	check_ge "$(basename "$f"): ---- TRACE lines" 10 "$(grep -c '^---- TRACE' "$f")"
	check_ge "$(basename "$f"): traces started in the app's files" 10 "$(grep -Ec "^---- TRACE [0-9]+ start ($applua):" "$f")"
done
check "dumps looked at" 2 "$n"
n=0
for f in "$jit"/prof-*; do
	n=$((n + 1))
	# -jp=Gv: "STATE COUNT" heads the state's "STACK COUNT" lines, the
	# frames NAME.lua:LINE; the samples are the stack lines' counts
	awk '/^(Interpreted|Compiled|C code|Garbage Collector|JIT Compiler) [0-9]+$/ { next }
		{ t += $NF } END { print t + 0 }' "$f" > "$TMP/samples-$(basename "$f")"
	check_ge "$(basename "$f"): samples (500: what a profile needs to rank by)" 500 "$(cat "$TMP/samples-$(basename "$f")")"
	check_ge "$(basename "$f"): samples in the app's files" 100 "$(grep -E "(^|;)($applua):[0-9]+" "$f" | awk '{ s += $NF } END { print s + 0 }')"
done
check "profiles looked at" 2 "$n"

# The recipe's command, as written but for the paths.
cmd=$(printf '%s\n' "$cmd_block" | subst)
echo "recipes: running: $cmd"
(cd "$TMP/run" && PATH=$top:$PATH timeout -k 10 300 sh -c "$cmd") > "$TMP/da.out" 2> "$TMP/da.err"
rc=$?
check "the recipe's dumpanalyze --repeats: exit 0" 0 "$rc"
[ "$rc" -eq 0 ] || sed 's/^/       /' "$TMP/da.err" | head -n 20
out=$TMP/run/out
check "the run set: its summary's first line" "dumpanalyze summary of a run set: 2 runs, 2 profiles" \
	"$(head -n 1 "$out/summary.txt" 2> /dev/null)"
check "its manifest: complete, exit status 0, run-1 and run-2" "true 0 run-1 run-2" \
	"$(jq -r '"\(.complete) \(.exit_status) \(.dirs | join(" "))"' "$out/manifest.json" 2> /dev/null)"
check "its manifest: the run set's files" "findings.csv runs.csv summary.txt" \
	"$(jq -r '.files[]' "$out/manifest.json" 2> /dev/null | grep -x 'findings.csv\|runs.csv\|summary.txt' | paste -sd' ')"
for k in 1 2; do
	check "run-$k/manifest.json: complete, a worker's dump, the views listed" "true $(cd "$jit" && ls -d dump-* | sed -n "${k}p") summary findings traces" \
		"$(jq -r '"\(.complete) \(.dumps[0].path | sub(".*/"; "")) \([.views[] | select(. == "summary" or . == "findings" or . == "traces")] | join(" "))"' "$out/run-$k/manifest.json" 2> /dev/null)"
done
check "runs.csv: both profiles used, their samples as their text counts them" \
	"$(for f in "$jit"/prof-*; do echo "$f,ok,$(cat "$TMP/samples-$(basename "$f")")"; done)" \
	"$(grep ',profile,' "$out/runs.csv" 2> /dev/null | cut -d, -f3-5)"
check_ge "summary.txt: findings in the app's files under \"fix these first\"" 1 \
	"$(sed -n '/^fix these first/,/^$/p' "$out/summary.txt" 2> /dev/null | grep -Ec "^ +[0-9]+ +($applua):[0-9]")"
check_ge "findings.csv: findings in the app's files" 5 "$(grep -Ec "(^|,)($applua)," "$out/findings.csv" 2> /dev/null)"
check "summary.txt: no warning that a profile is too small" "" "$(grep -m 1 'too small' "$out/summary.txt" 2> /dev/null)"

# The recipe's other command, in its prose: each worker on its own.
each=$(awk '/^## OpenResty\/nginx workers/ { on = 1; next } on && /^## / { exit } on' "$doc" | paste -sd' ' |
	grep -o '`dumpanalyze --dump /var/tmp/jit/dump-\* --out-dir out`' | tr -d '`')
check "the recipe's each-worker command" "dumpanalyze --dump /var/tmp/jit/dump-* --out-dir out" "$each"
each=$(printf '%s\n' "$each" | subst)
mkdir -p "$TMP/each"
echo "recipes: running: $each"
(cd "$TMP/each" && PATH=$top:$PATH timeout -k 10 300 sh -c "$each") > /dev/null 2> "$TMP/each.err"
check "$each: exit 0" 0 "$?"
check "... one directory per worker's dump, one summary over them" \
	"$(cd "$jit" && ls -d dump-* | paste -sd' ') dumpanalyze summary of 2 dumps (each in its own directory)" \
	"$(jq -r '.dirs | join(" ")' "$TMP/each/out/manifest.json" 2> /dev/null) $(head -n 1 "$TMP/each/out/summary.txt" 2> /dev/null)"

echo "recipes: the summary's top:"
sed -n '1,16p' "$out/summary.txt" 2> /dev/null | sed 's/^/    /'

############################################################ Tarantool
echo "# Tarantool"
tv=$(apt-cache policy tarantool 2> /dev/null | awk '$1 == "Candidate:" { print $2 }')
if [ -z "$tv" ] || [ "$tv" = "(none)" ]; then
	echo "skip - Tarantool: apt knows no tarantool package here; its recipe is not run"
else
	troot=$(fetch tarantool tarantool) || die "tarantool $tv downloaded from Debian's mirror" "see the message above"
	ok "tarantool $tv unpacked into $(dirname "$troot") (nothing installed)"
	tt=$troot/usr/bin/tarantool
	t=$TMP/tarantool
	mkdir -p "$t"
	cp "$top/samples/lua/walkthrough/app.lua" "$t/app.lua"
	block Tarantool lua > "$t/doc.lua"
	check "the recipe's Lua block: jit.dump, misc.sysprof start and stop, the workload line" \
		"1 2 1" "$(grep -c 'require("jit.dump").on("+x", "app.dump")' "$t/doc.lua") $(grep -c '^misc\.sysprof\.' "$t/doc.lua") $(grep -c '^-- \.\.\. the workload \.\.\.$' "$t/doc.lua")"
	sed 's|^-- \.\.\. the workload \.\.\.$|dofile("app.lua")|' "$t/doc.lua" > "$t/recipe.lua"
	check "$tt: LuaJIT with jit.dump" "LuaJIT 2.1.0-beta3 true nil" \
		"$(cd "$t" && printf 'print(jit.version, (pcall(require, "jit.dump")), type(misc))\n' > v.lua && "$tt" v.lua | tr "\t" " ")"
	# As written: stops at misc.sysprof.start, Debian's 2.6 has no misc.
	(cd "$t" && "$tt" recipe.lua 100000) > "$t/asis.out" 2>&1
	rc=$?
	check "the block as written: exit 1 at misc.sysprof.start (no misc in tarantool $tv)" \
		"1 recipe.lua:2: attempt to index global 'misc' (a nil value)" \
		"$rc $(grep -o "recipe.lua:[0-9]*: attempt to index global 'misc' (a nil value)" "$t/asis.out")"
	# Its dump half: the block without the misc.sysprof lines.
	rm -f "$t/app.dump"
	sed '/^misc\.sysprof\./d' "$t/recipe.lua" > "$t/dumponly.lua"
	(cd "$t" && "$tt" dumponly.lua 100000) > "$t/dumponly.out" 2>&1
	rc=$?
	check "the block without misc.sysprof: exit 0, the workload's line" "0 100000 orders, total 5136000.00, 28782 bytes of receipts" \
		"$rc $(grep orders "$t/dumponly.out")"
	check_ge "app.dump: ---- TRACE lines" 10 "$(grep -c '^---- TRACE' "$t/app.dump")"
	check_ge "app.dump: FNEW aborts in app.lua" 1 "$(grep -c '^---- TRACE [0-9]* abort app\.lua:[0-9]* -- NYI: bytecode \(FNEW\|51\)' "$t/app.dump")"
	tcmd=$(block Tarantool sh)
	check "the recipe's command" "dumpanalyze --dump app.dump --profile app.sysprof" "$tcmd"
	tcmd=${tcmd% --profile app.sysprof}
	echo "recipes: running: $tcmd"
	(cd "$t" && PATH=$top:$PATH timeout -k 10 300 sh -c "$tcmd --out-dir out") > "$t/da.out" 2> "$t/da.err"
	rc=$?
	check "$tcmd: exit 0" 0 "$rc"
	check "its manifest: complete, the views listed" "true yes" \
		"$(jq -r '"\(.complete) \(if ([.views[]] | index("findings")) then "yes" else "no" end)"' "$t/out/manifest.json" 2> /dev/null)"
	check "summary.txt: the closure made in app.lua's loop, among the first findings" \
		"fix   app.lua:22 creates a closure each time the loop at app.lua:19 runs" \
		"$(sed -n '/^fix these first/,/^$/p' "$t/out/summary.txt" | grep -o 'fix   app.lua:22 creates a closure each time the loop at app.lua:19 runs')"
fi

echo "recipes: $(($(date +%s) - started)) s"
finish
