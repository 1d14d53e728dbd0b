#!/bin/bash
# quickstart.sh — `make check-fresh`: README's Quick start and its
# walk-through as a newcomer runs them.
# A bare Debian 12 root (debootstrap --variant=minbase bookworm, from the
# Debian mirror this machine's apt uses), a clone of this repository's
# HEAD in it, the commands of README's "Quick start" block read from
# README.md and run there as written, as root, in bash, then dumpanalyze
# on a sample; then `make install` and README's walk-through ("Five
# minutes with your own program": its ```sh blocks, as written, in
# samples/lua/walkthrough), checked for what is the same on every run of
# LuaJIT: the closure in the loop (FNEW) found in all 5 runs, and the
# fixed program's --compare --fail-on recommended passing.  Last line: "quickstart: N passed, N failed"; the whole log
# of the last run is kept beside the cached root (last-run.log).
#
# The root gets what any machine on this network has, copied from this
# one where it exists: the extra CA certificates
# (/usr/local/share/ca-certificates), apt's proxy and date settings, the
# npm settings (~/.npmrc, /etc/npmrc, the registry), resolv.conf.  Nothing
# else from the host: the commands run with a clean environment.
#
# The minbase root is made once and kept in $DA_FRESH_CACHE (default
# /var/cache/dumpanalyze-fresh, outside the clone; remade after 30 days);
# each run copies it.  It all runs in its own mount and PID namespaces
# (unshare): /proc, /dev, /dev/pts and /dev/shm are mounted there for
# chromium and script(1), unmounted by a trap on every exit, and gone with
# the namespace even when the run is killed; no process outlives it.  The
# host's packages are never touched: apt runs only inside the root.
#
# Time on this machine (2 shared cores): see README ("A bare Debian 12").
set -euo pipefail
LC_ALL=C
export LC_ALL
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${DA_FRESH_CACHE:-/var/cache/dumpanalyze-fresh}
PASS=0 FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok   - $1"; }
not_ok() { FAIL=$((FAIL + 1)); echo "FAIL - $1"; shift; for l in "$@"; do echo "       $l"; done; }
check() { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "expected: $2" "got:      $3"; fi; }
finish() { echo "quickstart: $PASS passed, $FAIL failed"; [ "$FAIL" -eq 0 ]; }
die() { not_ok "$1" "${@:2}"; finish; exit 1; }
now() { date +%s; }
started=$(now)

[ "$(id -u)" -eq 0 ] || die "run as root" "debootstrap, chroot and mount need root"
for c in debootstrap git unshare chroot flock; do
	command -v "$c" > /dev/null || die "$c is installed" "run: scripts/install-deps.sh fresh"
done

# README's Quick start: the indented lines of its block, exactly two.
mapfile -t cmds < <(awk '/^## Quick start/ { on = 1; next } on && /^## / { exit }
	on && /^    [^ ]/ { sub(/^    /, ""); print }' "$top/README.md")
check "README's Quick start: two commands" 2 "${#cmds[@]}"
[ "${#cmds[@]}" -eq 2 ] || { finish; exit 1; }
# README's walk-through: the lines of its ```sh blocks, in order.
walk=$(awk '/^## Five minutes with your own program/ { on = 1; next } on && /^## / { exit }
	on && /^```sh$/ { f = 1; next } f && /^```$/ { f = 0; next } f { print }' "$top/README.md")
check "README's walk-through: record, edit, record, compare" \
	"dumpanalyze record --out-dir before -- luajit app.lua|cp app-fixed.lua app.lua|dumpanalyze record --out-dir after -- luajit app.lua|dumpanalyze --compare before after --fail-on recommended" \
	"$(printf '%s\n' "$walk" | sed 's/ *#.*//' | paste -sd'|')"

# The mirror and suites apt uses here (Debian's own names if it has none).
mirror_of() {
	{ apt-cache policy 2> /dev/null || true; } |
		awk -v s="$1/main" '$3 == s && $2 ~ /^https?:/ { print $2; exit }'
}
mirror=$(mirror_of bookworm)
mirror=${mirror:-http://deb.debian.org/debian}
security=$(mirror_of bookworm-security)
security=${security:-http://deb.debian.org/debian-security}

# The cached bare root: made under a lock, in a temporary name renamed when
# complete, so a killed debootstrap leaves nothing that looks whole.
mkdir -p "$cache"
exec 9> "$cache/.lock"
flock 9
base=$cache/bookworm-minbase
if [ -d "$base" ] && [ -n "$(find "$base/.complete" -mtime +30 2> /dev/null)" ]; then
	echo "quickstart: the cached root is over 30 days old: made again"
	rm -rf --one-file-system "$base"
fi
if [ ! -f "$base/.complete" ]; then
	t0=$(now)
	rm -rf --one-file-system "$base" "$base.tmp"
	echo "quickstart: debootstrap --variant=minbase bookworm from $mirror into $base"
	if ! debootstrap --variant=minbase bookworm "$base.tmp" "$mirror" > "$cache/debootstrap.log" 2>&1; then
		tail -n 20 "$cache/debootstrap.log"
		rm -rf --one-file-system "$base.tmp"
		die "debootstrap made a bare Debian 12 root" "see $cache/debootstrap.log"
	fi
	date -u +%FT%TZ > "$base.tmp/.complete"
	mv "$base.tmp" "$base"
	echo "quickstart: bare root made in $(($(now) - t0)) s"
fi

# This run's root: a copy, removed at the end.  Removal only when nothing
# is mounted under it (the namespace is gone by then; this makes sure).
work=$(mktemp -d /var/tmp/dumpanalyze-fresh.XXXXXX)
ns_pid=
cleanup() {
	set +e
	[ -n "$ns_pid" ] && kill -KILL "$ns_pid" 2> /dev/null && wait "$ns_pid" 2> /dev/null
	if grep -q " $work/" /proc/self/mounts; then
		echo "quickstart: something is still mounted under $work: left in place" >&2
	else
		t=$(now)
		rm -rf --one-file-system "$work"
		echo "quickstart: the root removed in $(($(now) - t)) s; $(($(now) - started)) s in all"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
root=$work/root
t0=$(now)
cp -a "$base" "$root"
flock -u 9
echo "quickstart: bare root copied in $(($(now) - t0)) s"

# What a machine on this network has.
printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s bookworm-security main\n' \
	"$mirror" "$mirror" "$security" > "$root/etc/apt/sources.list"
apt-config dump 2> /dev/null | grep -E '^Acquire::((https?|ftp)::Proxy|Check-Valid-Until|Check-Date)' \
	> "$root/etc/apt/apt.conf.d/99network" || rm -f "$root/etc/apt/apt.conf.d/99network"
copied=""
for crt in /usr/local/share/ca-certificates/*.crt; do
	[ -f "$crt" ] || continue
	mkdir -p "$root/usr/local/share/ca-certificates"
	cp "$crt" "$root/usr/local/share/ca-certificates/"
	copied="$copied $(basename "$crt")"
done
[ -f "$HOME/.npmrc" ] && cp "$HOME/.npmrc" "$root/root/.npmrc" && copied="$copied ~/.npmrc"
[ -f /etc/npmrc ] && cp /etc/npmrc "$root/etc/npmrc" && copied="$copied /etc/npmrc"
if command -v npm > /dev/null; then
	registry=$(npm config get registry 2> /dev/null || true)
	if [ -n "$registry" ] && [ "$registry" != "https://registry.npmjs.org/" ] &&
	   ! grep -qs '^registry *=' "$root/root/.npmrc"; then
		echo "registry=$registry" >> "$root/root/.npmrc"
		copied="$copied registry"
	fi
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
echo "quickstart: copied from this machine:${copied:- nothing but the apt sources and resolv.conf}"

# The newcomer's clone: this repository's HEAD (what is committed).
head=$(git -C "$top" rev-parse HEAD)
git clone -q --no-hardlinks "$top" "$root/root/dumpanalyze"
git -C "$root/root/dumpanalyze" checkout -q -B main "$head"
echo "quickstart: cloned $(git -C "$top" log -1 --format='%h %s' | cut -c1-70)"

# Inside the namespaces: the mounts, the two commands, the sample.  The
# trap unmounts on every exit; were it killed, the mounts go with the
# namespace.  Each command's output goes to the log; its status to a file.
cat > "$work/inside.sh" <<'INSIDE'
set -u
root=$1 log=$2
shift 2
mounted=""
unmount() {
	for m in $mounted; do
		umount "$root/$m" 2> /dev/null || umount -l "$root/$m"
	done
}
trap unmount EXIT
trap 'exit 130' INT TERM HUP
mount -t proc proc "$root/proc" && mounted="proc"
mount --bind /dev "$root/dev" && mounted="dev $mounted"
mount --bind /dev/pts "$root/dev/pts" && mounted="dev/pts $mounted"
mount -t tmpfs -o mode=1777,nosuid,nodev shm "$root/dev/shm" && mounted="dev/shm $mounted"
echo "$mounted" > "$log.mounted"
in_root() {
	chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "cd /root/dumpanalyze && $1"
}
n=0
for cmd in "$@"; do
	n=$((n + 1))
	start=$(date +%s)
	echo "==== \$ $cmd" >> "$log"
	in_root "$cmd" >> "$log" 2>&1 < /dev/null
	echo "$? $(($(date +%s) - start))" > "$log.status$n"
done
INSIDE

sample="./dumpanalyze --dump samples/rsx.dump --out-dir /tmp/rsx-out && node --version"
# The walk-through as a reader types it, after make install, in the
# program's directory; the comparison's output kept for the checks.
walkthrough="make install > /dev/null && cd samples/lua/walkthrough && set -e && set -o pipefail
${walk/%--fail-on recommended/--fail-on recommended | tee compare.txt}"
log=$work/log
t1=$(now)
unshare --mount --pid --fork --kill-child bash "$work/inside.sh" "$root" "$log" "${cmds[@]}" "$sample" "$walkthrough" &
ns_pid=$!
wait "$ns_pid" || true
ns_pid=
echo "quickstart: the commands took $(($(now) - t1)) s"

check "/proc, /dev, /dev/pts, /dev/shm were mounted in the root" "dev/shm dev/pts dev proc" \
	"$(cat "$log.mounted" 2> /dev/null)"
check "nothing left mounted under the root" "" "$(grep " $work/" /proc/self/mounts || true)"
n=0
for cmd in "${cmds[@]}"; do
	n=$((n + 1))
	read -r status secs < "$log.status$n" || status=missing
	typed=$(printf '%s' "${cmd%%#*}" | sed 's/ *$//')
	check "README's '$typed': exit status (${secs:-?} s)" 0 "$status"
done
# make check's closing lines, from the log: every suite, the browser's
# included (Debian's chromium through Debian's Node).
grep -E '^[a-z-]+: [0-9]+ passed, [0-9]+ failed' "$log" | sed 's/^/       /' || true
check "make check: its last line says nothing failed" 0 \
	"$(grep -E '^check: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 | sed -n 's/.*passed, \([0-9]*\) failed.*/\1/p')"
browser=$(grep -E '^browser: [0-9]+ passed, 0 failed' "$log" | tail -n 1 | cut -d' ' -f2 || true)
check "the browser tests ran there" yes "$([ "${browser:-0}" -gt 0 ] && echo yes || echo "no: ${browser:-none}")"
read -r status secs < "$log.status3" || status=missing
check "dumpanalyze on samples/rsx.dump" 0 "$status"
traces=$(grep -c '^---- TRACE [0-9]* stop' "$top/samples/rsx.dump" || true)
rows=$(($({ wc -l < "$root/tmp/rsx-out/gen-1-traces.csv"; } 2> /dev/null || echo 1) - 1))
check "its traces.csv: a row per trace the dump stops" "$traces" "$rows"
check "the Node.js it ran on is Debian 12's" v18 "$(grep -x 'v[0-9.]*' "$log" | tail -n 1 | cut -d. -f1)"
read -r status secs < "$log.status4" || status=missing
check "README's walk-through, as written: exit status (${secs:-?} s)" 0 "$status"
wt=$root/root/dumpanalyze/samples/lua/walkthrough
check "walk-through: make install put dumpanalyze in /usr/local/bin" yes \
	"$([ -x "$root/usr/local/bin/dumpanalyze" ] && echo yes || echo no)"
check "walk-through: fix these first, 1: the loop's closure (FNEW) in all 5 runs" 1 \
	"$(sed -n '/^fix these first/,/^$/p' "$wt/before/summary.txt" 2> /dev/null |
	   grep -c '^  1   app.lua:19  NYI: bytecode FNEW, costly, at app.lua:22: runs 5/5')"
check "walk-through: the factory's closure (FNEW) in all 5 runs" 1 \
	"$(grep -c '^  2   app.lua:9  NYI: bytecode FNEW, costly, at app.lua:10: runs 5/5' "$wt/before/summary.txt" 2> /dev/null)"
check "walk-through: the fix passes the recommended gate" "pass: new-sites|pass: new-reasons|pass: interpreted" \
	"$(tail -n 3 "$wt/compare.txt" 2> /dev/null | paste -sd'|')"
check "walk-through: the loop's finding is gone" 1 \
	"$(sed -n '/^gone/,/^$/p' "$wt/compare.txt" 2> /dev/null | grep -c '^  app.lua:19  NYI: bytecode FNEW')"
cp "$log" "$cache/last-run.log"
if [ "$FAIL" -gt 0 ]; then
	echo "quickstart: the end of the log ($cache/last-run.log):"
	tail -n 60 "$log" | sed 's/^/       /'
fi
finish
