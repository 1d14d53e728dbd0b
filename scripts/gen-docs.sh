#!/bin/sh
# gen-docs.sh DUMPANALYZE [MAN README] — rewrites the parts of the man page
# and README that the option and view tables make (`make docs`): each
# "BEGIN GENERATED NAME" ... "END GENERATED NAME" span becomes the span of
# that name printed by --help=man (man page) or --help=readme (README).
# The files default to the repository's; one is rewritten only when it
# changes.  A block without its markers, or markers without their block,
# is an error and nothing is written.
set -eu
da=$1
top=$(cd "$(dirname "$0")/.." && pwd)
man=${2:-$top/man/dumpanalyze.1}
readme=${3:-$top/README.md}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# splice BLOCKS FILE: FILE on stdout, its marked spans replaced by those
# of BLOCKS.
splice() {
	[ -s "$1" ] || { echo "gen-docs.sh: $da printed nothing" >&2; return 1; }
	awk -v file="$2" '
	function name_of(line, word,   head) {
		head = word " GENERATED "
		match(line, head "[a-z-]+")
		return substr(line, RSTART + length(head), RLENGTH - length(head))
	}
	function fail(msg) { print "gen-docs.sh: " file ": " msg > "/dev/stderr"; bad = 1 }
	FNR == NR {
		if ($0 ~ /BEGIN GENERATED [a-z-]+/) { cur = name_of($0, "BEGIN"); block[cur] = "" }
		if (cur != "") block[cur] = block[cur] $0 "\n"
		if ($0 ~ /END GENERATED [a-z-]+/) cur = ""
		next
	}
	skip != "" {
		if ($0 ~ /END GENERATED [a-z-]+/ && name_of($0, "END") == skip) skip = ""
		next
	}
	/BEGIN GENERATED [a-z-]+/ {
		n = name_of($0, "BEGIN")
		if (!(n in block)) fail("no generated block \"" n "\"")
		else if (n in used) fail("block \"" n "\" marked twice")
		printf "%s", block[n]
		used[n] = 1
		skip = n
		next
	}
	{ print }
	END {
		if (skip != "") { fail("no END GENERATED " skip); exit 1 }
		for (n in block)
			if (!(n in used)) fail("no BEGIN GENERATED " n " marker")
		exit bad
	}' "$1" "$2"
}

"$da" --help=man > "$tmp/man.blocks"
# A backslash lost between the C source and troff (in C, "\(aq" is "(aq"
# and "\fB" a form feed and "B"): refused, where the man page would show it.
ff=$(printf '\f')
if grep -n -E "(^|[^\\])\((aq|(em|en|lq|rq|bu|co|mu|dq|oq|cq)([^[:alpha:]]|\$))|$ff" "$tmp/man.blocks" > "$tmp/lost"; then
	printf '%s\n' "gen-docs.sh: $da --help=man: troff that lost a backslash (in C, write \\\\ for \\):" >&2
	cat "$tmp/lost" >&2
	exit 1
fi
"$da" --help=readme > "$tmp/readme.blocks"
splice "$tmp/man.blocks" "$man" > "$tmp/man"
splice "$tmp/readme.blocks" "$readme" > "$tmp/readme"
# cat into the file, not mv over it: its mode and links stay.
cmp -s "$tmp/man" "$man" || { cat "$tmp/man" > "$man"; echo "gen-docs.sh: wrote $man"; }
cmp -s "$tmp/readme" "$readme" || { cat "$tmp/readme" > "$readme"; echo "gen-docs.sh: wrote $readme"; }
