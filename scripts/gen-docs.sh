#!/bin/sh
# gen-docs.sh [-C TOP] [MAN README REFERENCE] — rewrites the parts of the
# man page, README and docs/README.md that the pages of docs/ make
# (`make docs`): each "BEGIN GENERATED NAME" ... "END GENERATED NAME" span
# becomes the span of that name printed by scripts/docgen.sh (man, readme,
# reference) from the pages of TOP (default: this tree), and the man
# page's rules span from what DUMPANALYZE (default: TOP's build)
# prints for --explain list: the rules are the catalogue's, C data.  The files
# default to TOP's; one is rewritten only when it changes.  A block
# without its markers, or markers without their block, is an error and
# nothing is written.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = -C ]; then top=$2; shift 2; fi
man=${1:-$top/man/dumpanalyze.1}
readme=${2:-$top/README.md}
reference=${3:-$top/docs/README.md}
gen="sh $(dirname "$0")/docgen.sh -C $top"
da=${DUMPANALYZE:-$top/dumpanalyze}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# splice BLOCKS FILE: FILE on stdout, its marked spans replaced by those
# of BLOCKS.
splice() {
	[ -s "$1" ] || { echo "gen-docs.sh: docgen.sh printed nothing" >&2; return 1; }
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

$gen man > "$tmp/man.blocks"
"$da" --explain list > "$tmp/rules.list" ||
	{ echo "gen-docs.sh: $da --explain list failed (build it first: make docs does)" >&2; exit 1; }
$gen rules "$tmp/rules.list" >> "$tmp/man.blocks"
$gen readme > "$tmp/readme.blocks"
$gen reference > "$tmp/reference.blocks"
splice "$tmp/man.blocks" "$man" > "$tmp/man"
splice "$tmp/readme.blocks" "$readme" > "$tmp/readme"
splice "$tmp/reference.blocks" "$reference" > "$tmp/reference"
# cat into the file, not mv over it: its mode and links stay.
cmp -s "$tmp/man" "$man" || { cat "$tmp/man" > "$man"; echo "gen-docs.sh: wrote $man"; }
cmp -s "$tmp/readme" "$readme" || { cat "$tmp/readme" > "$readme"; echo "gen-docs.sh: wrote $readme"; }
cmp -s "$tmp/reference" "$reference" || { cat "$tmp/reference" > "$reference"; echo "gen-docs.sh: wrote $reference"; }
