#!/bin/sh
# manpages.sh DUMPANALYZE — man/dumpanalyze.1 and man/dumpanalyze.3 as a
# reader sees them: rendered by groff as man(1) does (-man -Tutf8, UTF-8
# input through preconv), with every warning on (-ww) and none given, and
# no troff source left in the text: a named character or font change whose
# backslash was lost on the way (a C string's "\(aq" is "(aq"), an escape
# or a request printed as text.
SUITE=manpages
. "$(dirname "$0")/setup.sh"

command -v groff > /dev/null || { not_ok "groff is installed" "run scripts/install-deps.sh (groff-base)"; finish; exit 1; }

# render PAGE OUT [WIDTH]: plain text (no bold or underline sequences);
# its warnings in OUT.err.
render() {
	groff -man -Tutf8 -Kutf8 -ww -P-cbou ${3:+-rLL=$3} "$1" > "$2" 2> "$2.err"
}

# Troff left in rendered text: an escape (\f, \(, \*, \[, \s), a font
# change or named character that lost its backslash (fB, fI, fR, fP at a
# word's start; (aq; (em, (en, (lq, (rq, (bu, (co, (mu, (dq, (oq, (cq
# where no letter follows, unlike "(empty"), a request or macro line shown
# as text.
leftovers() {
	grep -n -E '\\[f(*[s]|(^|[^[:alnum:]])f[BIRP][[:alnum:]"(\\-]|\(aq|\((em|en|lq|rq|bu|co|mu|dq|oq|cq|ha|ti|rs)([^[:alpha:]]|$)|^ *\.[A-Z][A-Za-z]?( |$)' "$1"
}

n=0
for page in "$TOP/man/dumpanalyze.1" "$TOP/man/dumpanalyze.3"; do
	name=$(basename "$page")
	n=$((n + 1))
	render "$page" "$TMP/$name.txt"
	check "$name: groff exit status" 0 $?
	check "$name: no warning (-ww)" "" "$(cat "$TMP/$name.txt.err")"
	check "$name: no troff left in the text" "" "$(leftovers "$TMP/$name.txt")"
	# Every section is there as a heading: the text is the page's, not
	# an empty or cut-off rendering.
	want=$(sed -n 's/^\.SH  *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$page" | sed 's/\\-/-/g')
	check "$name: every .SH is a heading of the text ($(printf '%s\n' "$want" | wc -l))" "$want" \
		"$(grep -E "^[A-Z][A-Z0-9 ?!,'-]*\$" "$TMP/$name.txt")"
done
ran "pages rendered" $n 2

# The one that had lost its backslashes (generated from src/cli/options.c):
# --explain's examples, quoted, each one bold run with its blanks.
render "$TOP/man/dumpanalyze.1" "$TMP/wide.txt" 1000n
check "--explain's examples as written" 1 \
	"$(grep -c "is a message as any LuaJIT writes it ('NYI: bytecode 51', 'failed to allocate mcode memory'), LuaJIT's name" "$TMP/wide.txt")"

# The check itself finds what it is for: a page with each kind of leftover.
printf '%s\n' '.TH X 1' '.SH NAME' 'x' '.SH DESCRIPTION' '.RB ( (aqNYI(aq )' .PP 'a \efBbold' .PP \
	'fIitalic\fR' .PP '\&.BR shown' > "$TMP/bad.1"
render "$TMP/bad.1" "$TMP/bad.txt"
check "a page with troff left in it is caught, line by line" 4 "$(leftovers "$TMP/bad.txt" | wc -l)"
printf '%s\n' '.TH X 1' '.SH NAME' '.XX not a macro' > "$TMP/warn.1"
render "$TMP/warn.1" "$TMP/warn.txt"
check "a page groff warns about is caught" 1 "$(grep -c 'warning' "$TMP/warn.txt.err")"
finish
