#!/bin/sh
# tree.sh — the shape of src/ that ARCHITECTURE.md asks for: no file over
# 600 lines (as wc -l counts them), and no .c files that call each other,
# two of them or round a longer loop (calls.sh, from the objects that
# `make` built in build/).  calls.sh is first tried on a small tree made
# here, with a known answer.  The last line counts the checks.
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
MAX_LINES=600
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dumpanalyze-tree.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   - $1"; }
not_ok() { fail=$((fail + 1)); echo "FAIL - $1"; shift; for l in "$@"; do echo "       $l"; done; }
check() {   # NAME EXPECTED ACTUAL
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "expected: $2" "got:      $3"; fi
}

# ---- calls.sh on a tree with a known answer ----------------------------
# a -> b -> c -> a is a loop, and so is e <-> f; d calls into the loop
# from outside it; h passes g a function to call back (the way to invert
# a call); reg.c's table names x.c's struct, which is data, while x.c
# calls reg.c (a registry: view_table[] and the views).
mkdir -p "$tmp/k/src/sub" "$tmp/k/build/sub"
cd "$tmp/k/src" || exit 2
printf 'void b(void);\nvoid a(void) { b(); }\n' > a.c
printf 'void c(void);\nvoid b(void) { c(); }\n' > b.c
printf 'void a(void);\nvoid c(void) { a(); }\n' > c.c
printf 'void a(void);\nvoid d(void) { a(); }\n' > d.c
printf 'void f(void);\nvoid e(void) { f(); }\n' > sub/e.c
printf 'void e(void);\nvoid f(void) { e(); }\n' > sub/f.c
printf 'void g(void (*fn)(void)) { fn(); }\n' > g.c
printf 'void g(void (*fn)(void));\nstatic void back(void) { }\nvoid h(void) { g(back); }\n' > h.c
printf 'struct v { int n; };\nextern const struct v x_view;\nconst struct v *const reg[] = { &x_view };\nvoid reg_create(void) { }\n' > reg.c
printf 'struct v { int n; };\nvoid reg_create(void);\nconst struct v x_view = { 1 };\nvoid x(void) { reg_create(); }\n' > x.c
built=0
for c in a b c d sub/e sub/f g h reg x; do
	${CC:-cc} -c -o "../build/$c.o" "$c.c" && built=$((built + 1))
done
cd "$top" || exit 2
check "calls.sh: the known tree's objects built" 10 "$built"
(cd "$tmp/k" && sh "$here/calls.sh" src build) > "$tmp/k.out" 2> "$tmp/k.err"
check "calls.sh: the known tree read (status)" 0 "$?"
check "calls.sh: the known tree's loops, and nothing else" \
"cycle src/a.c -> src/b.c (b); src/b.c -> src/c.c (c); src/c.c -> src/a.c (a)
cycle src/sub/e.c -> src/sub/f.c (f); src/sub/f.c -> src/sub/e.c (e)" \
	"$(grep '^cycle' "$tmp/k.out")"
check "calls.sh: the known tree's calls (a callback and data are none)" \
"calls src/a.c src/b.c b
calls src/b.c src/c.c c
calls src/c.c src/a.c a
calls src/d.c src/a.c a
calls src/h.c src/g.c g
calls src/sub/e.c src/sub/f.c f
calls src/sub/f.c src/sub/e.c e
calls src/x.c src/reg.c reg_create
edges 8" \
	"$(grep -v '^cycle' "$tmp/k.out" | sort)"
rm "$tmp/k/build/sub/f.o"
(cd "$tmp/k" && sh "$here/calls.sh" src build) > /dev/null 2> "$tmp/k.err"
check "calls.sh: an object missing is an error (status, message)" \
	"2 calls.sh: no object build/sub/f.o for src/sub/f.c" "$? $(cat "$tmp/k.err")"

# ---- src/ ------------------------------------------------------------------
nfiles=0 nc=0 long=
for f in $(find src -type f | sort); do
	nfiles=$((nfiles + 1))
	case $f in *.c) nc=$((nc + 1)) ;; esac
	n=$(wc -l < "$f")
	[ "$n" -le "$MAX_LINES" ] || long="$long $f ($n lines)"
done
if [ "$nfiles" -gt 0 ] && [ -z "$long" ]; then
	ok "src/: none of its $nfiles files over $MAX_LINES lines"
else
	not_ok "src/: files over $MAX_LINES lines (split them by job)" "${long:-no file read}"
fi

sh "$here/calls.sh" src build > "$tmp/src.out" 2> "$tmp/src.err"
status=$?
check "src/: the objects of its $nc .c files read (status; run make first)" "0 " "$status $(cat "$tmp/src.err")"
edges=$(sed -n 's/^edges //p' "$tmp/src.out")
# calls the graph must show, or it shows nothing real: the parser calls
# the event handlers, and a view calls the source model
check "src/: the call graph has the calls it must" \
	"calls src/parse/parser.c src/parse/events.c event_cont_give_up event_cont_line event_cont_takes event_header event_jv
calls src/views/source_state.c src/source/source_model.c src_model_abort src_model_file src_model_free src_model_gen_begin src_model_gen_end src_model_init src_model_profile src_model_rank src_model_trace" \
	"$(grep -E '^calls src/parse/parser.c src/parse/events.c |^calls src/views/source_state.c src/source/source_model.c ' "$tmp/src.out")"
if [ "${edges:-0}" -gt 0 ] && ! grep -q '^cycle' "$tmp/src.out"; then
	ok "src/: no files that call each other ($edges calls between files)"
else
	not_ok "src/: files that call each other (move what they share into a third, or invert with a callback)" \
		"$(grep '^cycle' "$tmp/src.out" || echo 'no call graph')"
fi

# ---- layering: a folder uses only itself and the folders before it ------
# The order is the Makefile's (LIB_DIRS, then TOOL_DIRS), ARCHITECTURE.md's
# stages; views/html is part of views.  Both what a file includes
# ("folder/file.h") and what it calls (calls.sh) are checked.
order=$(sed -n 's/^LIB_DIRS *= *//p; s/^TOOL_DIRS *= *//p' Makefile | tr '\n' ' ')
check "layering: the Makefile's folders in order" \
	"util luajit input parse model analysis profile source findings lib output outdir draw views views/html compare cli" \
	"$(echo $order)"
# FILE FOLDER HEADER lines: what each file of src/ includes from a folder
for f in $(find src -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' \) | sort); do
	sed -n "s|^#include \"\\([a-z_]*\\)/\\([^\"]*\\)\".*|$f \\1 \\1/\\2|p" "$f"
done > "$tmp/includes"
awk -v order="$order" '
	BEGIN { n = split(order, o, " "); for (i = 1; i <= n; i++) if (!(o[i] in rank)) rank[o[i]] = i }
	function folder(path,   p) { split(path, p, "/"); return p[2] }
	FILENAME ~ /includes$/ { from = folder($1); to = $2 }
	FILENAME ~ /src.out$/ { if ($1 != "calls") next; from = folder($2); to = folder($3) }
	!(to in rank) || from == to { next }
	{ across++ }
	rank[to] > rank[from] { print (FILENAME ~ /includes$/ ? "includes " $1 " " $3 : $0) }
	END { print "across", across + 0 }' "$tmp/includes" "$tmp/src.out" > "$tmp/layers"
across=$(sed -n 's/^across //p' "$tmp/layers")
if [ "$across" -gt 100 ]; then
	ok "layering: $across includes and calls across folders read"
else
	not_ok "layering: includes and calls across folders read" "only ${across:-none}"
fi
check "layering: none of them goes to a later folder (pass a function or the result down instead)" "" \
	"$(grep -v '^across ' "$tmp/layers")"

# ---- names and headers ----------------------------------------------------
# Every file's base name once in src/ (as LuaJIT's lj_ names: a name in a
# message, a profile or a search is one file), and no two .c files that
# include each other's header (move what both need into a third).
check "src/: no two files share a base name" "" \
	"$(find src -type f -printf '%f\n' | sort | uniq -d | tr '\n' ' ' | sed 's/ $//')"
awk '$1 ~ /\.c$/ { own = $1; sub(/^src\//, "", own); sub(/\.c$/, ".h", own)
	if ($3 != own) inc[$1 " " $3] = 1; files[$1] = 1 }
	END {
		for (k in inc) {
			split(k, p, " "); a = p[1]; h = p[2]
			b = "src/" h; sub(/\.h$/, ".c", b)
			ha = a; sub(/^src\//, "", ha); sub(/\.c$/, ".h", ha)
			if ((b " " ha) in inc && a < b) print a " <-> " b
		}
		n = 0; for (k in inc) n++; print "read", n
	}' "$tmp/includes" > "$tmp/mutual"
if [ "$(sed -n 's/^read //p' "$tmp/mutual")" -gt 100 ]; then
	ok "headers: the includes of the .c files read ($(sed -n 's/^read //p' "$tmp/mutual"))"
else
	not_ok "headers: the includes of the .c files read" "only $(sed -n 's/^read //p' "$tmp/mutual")"
fi
check "headers: no two .c files include each other's header" "" \
	"$(grep -v '^read ' "$tmp/mutual" | sort | tr '\n' ' ' | sed 's/ $//')"

echo "tree: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
