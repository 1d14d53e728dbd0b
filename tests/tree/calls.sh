#!/bin/sh
# calls.sh SRC_ROOT BUILD_ROOT — the calls between the .c files under
# SRC_ROOT, read from their objects under BUILD_ROOT (SRC_ROOT/a/b.c is
# BUILD_ROOT/a/b.o, as the Makefile builds them): file A calls file B when
# A's object leaves undefined a name that B's object defines as a function
# (a call, or its address taken).
# The objects, not the text: what the linker joins is what is called,
# through macros and static inline functions of headers too, and no
# parser of C is needed (nm is binutils', which the build has).  Not
# calls: static functions (inside one file), calls through a function
# pointer (how a call is inverted: a callback), and data, so that a
# registry's table naming its entries (view_table[] and the views' structs)
# is no call back from the entries that call the registry.
# Prints one "calls A B NAME..." line per pair, "edges N", then one
# "cycle A -> B (NAME...); B -> C (...); ..." line per set of files that
# reach each other through calls (a strongly connected component of the
# graph, two files or more), its calls inside the set.
# Exit status 2 when an object is missing or nm fails.
LC_ALL=C
export LC_ALL
src=$1 obj=$2
syms=$(mktemp) || exit 2
trap 'rm -f "$syms"' EXIT
for c in $(cd "$src" && find . -name '*.c' | sort); do
	c=${c#./}
	o=$obj/${c%.c}.o
	[ -f "$o" ] || { echo "calls.sh: no object $o for $src/$c" >&2; exit 2; }
	# POSIX format, global names only: "NAME TYPE [VALUE SIZE]"
	nm -P -g "$o" > "$syms.one" || { echo "calls.sh: nm failed on $o" >&2; exit 2; }
	awk -v f="$src/$c" '{ print f, $1, $2 }' "$syms.one" >> "$syms"
done
rm -f "$syms.one"

awk '
$3 == "U" || $3 == "w" { use[++nu] = $1 " " $2; next }
$3 == "T" || $3 == "W" || $3 == "i" { def[$2] = $1 }
END {
	for (i = 1; i <= nu; i++) {
		split(use[i], u, " ")
		if (!(u[2] in def) || def[u[2]] == u[1])
			continue
		e = u[1] SUBSEP def[u[2]]
		if (!(e in names)) {
			edges[++ne] = e
			from[ne] = u[1]; to[ne] = def[u[2]]
			out[u[1]] = out[u[1]] " " ne
		}
		names[e] = names[e] " " u[2]
	}
	for (k = 1; k <= ne; k++)
		print "calls", from[k], to[k] names[edges[k]]
	print "edges", ne
	# What each file reaches, by a depth-first walk from each.
	for (k = 1; k <= ne; k++) { node[from[k]] = 1; node[to[k]] = 1 }
	for (n in node) {
		top = 0; stack[++top] = n
		while (top) {
			m = stack[top--]
			c = split(out[m], es, " ")
			for (j = 1; j <= c; j++) {
				t = to[es[j]]
				if (!((n, t) in reach)) { reach[n, t] = 1; stack[++top] = t }
			}
		}
	}
	# A cycle: the files that reach n and that n reaches, named once
	# from the first of them in name order.
	nn = 0
	for (n in node) sorted[++nn] = n
	for (i = 2; i <= nn; i++)
		for (j = i; j > 1 && sorted[j - 1] > sorted[j]; j--) {
			t = sorted[j]; sorted[j] = sorted[j - 1]; sorted[j - 1] = t
		}
	for (i = 1; i <= nn; i++) {
		n = sorted[i]
		if (n in done || !((n, n) in reach))
			continue
		line = ""
		for (j = 1; j <= nn; j++) {
			m = sorted[j]
			if (!((n, m) in reach) || !((m, n) in reach))
				continue
			done[m] = 1
			c = split(out[m], es, " ")
			for (k = 1; k <= c; k++) {
				t = to[es[k]]
				if ((n, t) in reach && (t, n) in reach)
					line = line (line == "" ? "" : "; ") m " -> " t " (" substr(names[edges[es[k]]], 2) ")"
			}
		}
		print "cycle", line
	}
}' "$syms"
