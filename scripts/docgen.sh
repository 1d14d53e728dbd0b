#!/bin/sh
# docgen.sh [-C TOP] WHAT — the documents made from the pages of docs/:
# one Markdown page per option (docs/options/NAME.md), per option of
# record (docs/options/record/NAME.md), per view (docs/views/NAME.md),
# and docs/exit-status.md, docs/usage.md, docs/record-usage.md (format:
# docs/README.md).  WHAT is
#   help-c     build/gen/cli_help.h: --help's text, --views list's lines,
#              record --help's text
#   man        the man page's OPTIONS, VIEWS, EXIT STATUS and RECORD
#              OPTIONS spans (troff)
#   rules LIST the man page's rules span, from LIST: what
#              `dumpanalyze --explain list` prints (the catalogue is C data)
#   readme     README's view table span
#   reference  docs/README.md's option and view table spans
#   table DIR FIELD...  a Markdown table of the pages in DIR, a column per
#              header field (for any catalogue kept as pages)
# Options come in the order of the getopt tables (src/cli/options.c,
# src/cli/record_options.c),
# views in that of the registry (src/views/view.c): the C tables say
# what exists, the pages what is said about it.  A table entry without
# a page, or a page without its entry, is an error and nothing is printed.
set -eu
# Bytes, not characters: the same output in any locale.
LC_ALL=C
export LC_ALL
top=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = -C ]; then top=$2; shift 2; fi
what=${1:?usage: docgen.sh [-C TOP] help-c|man|readme|reference|table DIR FIELD...}
shift

# The names in table order, one a line.
option_names() {
	sed -n 's/^	{ "\([a-z-]*\)", [a-z_]*_argument, NULL, .*/\1/p' "$top/src/cli/${1:-options}.c"
}
view_names() {
	sed -n '/^const struct view \*const view_table\[\]/,/^};/s/^	&view_\([a-z_]*\),$/\1/p' \
		"$top/src/views/view.c" | tr _ -
}

# pages DIR NAMES: the page files in that order, after checking that every
# name has its page and every page its name.
pages() {
	dir=$1; names=$2; bad=0; list=
	for n in $names; do
		if [ -f "$dir/$n.md" ]; then list="$list $dir/$n.md"; else
			echo "docgen.sh: $n has no page $dir/$n.md" >&2; bad=1
		fi
	done
	for f in "$dir"/*.md; do
		[ -f "$f" ] || continue
		n=$(basename "$f" .md)
		case " $(echo $names) " in *" $n "*) ;; *)
			echo "docgen.sh: $f: no such entry in the C table" >&2; bad=1 ;;
		esac
	done
	[ "$bad" = 0 ] || exit 1
	[ -n "$list" ] || { echo "docgen.sh: no entries in $dir's table" >&2; exit 1; }
	echo $list
}

# The awk library: a page's header (between --- lines) and its Markdown
# body made into troff, C strings, plain text.
lib='
BEGIN { OPTS = ENVIRON["OPTS"]; VIEWS = ENVIRON["VIEWS"]; EXITS = ENVIRON["EXITS"]; USAGE = ENVIRON["USAGE"]
	WHAT = ENVIRON["WHAT"]; FIELDS = ENVIRON["FIELDS"]; PAGES = ENVIRON["PAGES"]
	ROPTS = ENVIRON["ROPTS"]; RUSAGE = ENVIRON["RUSAGE"] }
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function cstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\n/, "\\n", s); return "\"" s "\"" }
# Markdown inline text as plain text (for --help): markers dropped.
function plain(s) { gsub(/\*\*|`/, "", s); gsub(/\\\*/, "\001", s); gsub(/\*/, "", s); gsub(/\001/, "*", s); return s }
function font() { return ital ? "\\fI" : (bold || code) ? "\\fB" : "\\fR" }
# One line of Markdown as troff; bold, italic and code spans may go on
# over lines (state kept until the paragraph ends).
function troff(s,   out, i, c, n, lit) {
	out = ""
	n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		lit = 0
		if (code) {
			if (c == "`") { code = 0; out = out font(); continue }
			lit = 1
		} else if (c == "\\" && i < n) {
			i++; c = substr(s, i, 1); lit = 1
		} else if (c == "`") {
			code = 1; out = out font() "\\%"; continue
		} else if (substr(s, i, 2) == "**") {
			bold = !bold; i++; out = out font(); if (bold) out = out "\\%"; continue
		} else if (c == "*") {
			ital = !ital; out = out font(); continue
		} else lit = 1
		if (c == "\\") c = "\\e"
		else if (c == "-" && (bold || ital || code)) c = "\\-"
		else if (c == "\047" && code) c = "\\(aq"
		else if (c == "," && (bold || code) && i < n && substr(s, i + 1, 1) != " ") c = ",\\:"
		out = out c
	}
	gsub(/\342\200\224/, "\\(em", out)
	if (out ~ /^[.\047]/) out = "\\&" out
	return out
}
# A page body as troff (after .TP and its tag line): blank lines
# between paragraphs are .IP, fenced blocks .nf/.fi.
function body_troff(b,   ls, k, m, l, para, fence, out) {
	m = split(b, ls, "\n"); out = ""; para = 0; fence = 0
	bold = ital = code = 0
	for (k = 1; k <= m; k++) {
		l = ls[k]
		if (l ~ /^```/) {
			if (!fence) { if (para) out = out ".IP\n"; out = out ".nf\n"; fence = 1 }
			else { out = out ".fi\n"; fence = 0; para = 1 }
			continue
		}
		if (fence) {
			gsub(/\\/, "\\e", l); gsub(/-/, "\\-", l)
			if (l ~ /^[.\047]/) l = "\\&" l
			out = out l "\n"; continue
		}
		if (l == "") { if (para) { pend = 1 } bold = ital = code = 0; continue }
		if (pend) { out = out ".IP\n"; pend = 0 }
		out = out troff(l) "\n"; para = 1
	}
	pend = 0
	return out
}
# read_page(FILE): the header in H[field], the body in BODY.
function read_page(f,   l, state, k) {
	delete H; BODY = ""; state = 0
	while ((getline l < f) > 0) {
		if (state < 2 && l == "---") { state++; continue }
		if (state == 1) {
			k = index(l, ":")
			if (!k) { print "docgen.sh: " f ": header line without a field: " l > "/dev/stderr"; exit 1 }
			H[substr(l, 1, k - 1)] = trim(substr(l, k + 1))
		} else if (state == 2) BODY = BODY (BODY == "" && l == "" ? "" : l "\n")
	}
	close(f)
	if (state != 2) { print "docgen.sh: " f ": no header between --- lines" > "/dev/stderr"; exit 1 }
	sub(/\n+$/, "\n", BODY)
}
function need(f, field) {
	if (!(field in H) || H[field] == "") { print "docgen.sh: " f ": no " field ": in its header" > "/dev/stderr"; exit 1 }
	return H[field]
}
# The --help line of an option, and its man tag.
function help_line(f,   left) {
	left = ("Short" in H ? "-" H["Short"] ", " : "    ") "--" need(f, "Long") ("Arg" in H ? " " H["Arg"] : "")
	return sprintf("  %-24s %s", left, need(f, "Help"))
}
function man_tag(   t, a) {
	a = ("Arg" in H) ? H["Arg"] : ""
	t = H["Long"]; gsub(/-/, "\\-", t)
	if ("Short" in H)
		return ".BR \\-" H["Short"] " \", \" \\-\\-" t (a != "" ? " \" \\fI" a "\\fR\"" : "")
	return (a != "" ? ".BI \\-\\-" t " \" " a "\"" : ".B \\-\\-" t)
}
# See-also: the names, comma-separated, as a last paragraph.
function see_also(opt,   n, s, k, out, t) {
	if (!("See-also" in H)) return ""
	n = split(H["See-also"], s, /, */); out = "See also"
	for (k = 1; k <= n; k++) {
		t = s[k]; gsub(/-/, "\\-", t)
		out = out "\n.BR " (opt ? "\\-\\-" : "") t " " (k < n ? "," : ".")
	}
	return ".IP\n" out "\n"
}
# The fenced block of a page, as it is.
function fenced(f,   l, infence, out) {
	out = ""; infence = 0
	while ((getline l < f) > 0) {
		if (l ~ /^```/) { infence = !infence; continue }
		if (infence) out = out l "\n"
	}
	close(f)
	if (out == "") { print "docgen.sh: " f ": no fenced block" > "/dev/stderr"; exit 1 }
	return out
}
# The exit codes page: "## CODE" headings, each with its paragraph.
function read_exits(f,   l, n) {
	n = 0
	while ((getline l < f) > 0) {
		if (l ~ /^## [0-9]+$/) { n++; CODE[n] = substr(l, 4); TEXT[n] = ""; continue }
		if (n && l != "") TEXT[n] = TEXT[n] (TEXT[n] == "" ? "" : " ") l
	}
	close(f)
	if (!n) { print "docgen.sh: " f ": no \"## CODE\" heading" > "/dev/stderr"; exit 1 }
	return n
}
function readme_files(s,   n, p, k, out) {
	n = split(s, p, " "); out = ""
	for (k = 1; k <= n; k++) out = out (k > 1 ? ", " : "") "`" p[k] "`"
	return out
}
'

case $what in
help-c)
	opts=$(pages "$top/docs/options" "$(option_names)")
	views=$(pages "$top/docs/views" "$(view_names)")
	ropts=$(pages "$top/docs/options/record" "$(option_names record_options)")
	OPTS="$opts" VIEWS="$views" EXITS="$top/docs/exit-status.md" USAGE="$top/docs/usage.md" \
	ROPTS="$ropts" RUSAGE="$top/docs/record-usage.md" awk "$lib"'
	BEGIN {
		print "/* cli_help.h — made by scripts/docgen.sh from docs/ (do not edit):"
		print " * --help, --views list and record --help, as the pages say them. */"
		printf "static const char cli_help_usage[] =\n\t%s;\n", cstr(fenced(USAGE))
		printf "static const char cli_help_record_usage[] =\n\t%s;\n", cstr(fenced(RUSAGE))
		printf "static const char cli_help_record_options[] =\n"
		n = split(ROPTS, f, " ")
		for (k = 1; k <= n; k++) { read_page(f[k]); printf "\t%s\n", cstr(help_line(f[k]) "\n") }
		print "\t\"\";"
		printf "static const char cli_help_options[] =\n"
		n = split(OPTS, f, " ")
		for (k = 1; k <= n; k++) { read_page(f[k]); printf "\t%s\n", cstr(help_line(f[k]) "\n") }
		print "\t\"\";"
		m = read_exits(EXITS)
		printf "static const char cli_help_exits[] =\n\t\"Exit status:\\n\"\n"
		for (k = 1; k <= m; k++) printf "\t%s\n", cstr("  " CODE[k] "  " plain(TEXT[k]) "\n")
		print "\t\"\";"
		print "static const struct { const char *name, *summary; } cli_view_summaries[] = {"
		n = split(VIEWS, f, " ")
		for (k = 1; k <= n; k++) { read_page(f[k]); printf "\t{ %s, %s },\n", cstr(need(f[k], "View")), cstr(need(f[k], "Summary")) }
		print "};"
	}' < /dev/null
	;;
man)
	opts=$(pages "$top/docs/options" "$(option_names)")
	views=$(pages "$top/docs/views" "$(view_names)")
	ropts=$(pages "$top/docs/options/record" "$(option_names record_options)")
	OPTS="$opts" VIEWS="$views" EXITS="$top/docs/exit-status.md" ROPTS="$ropts" awk "$lib"'
	BEGIN {
		print ".\\\" BEGIN GENERATED options: made from docs/options/*.md by make docs"
		n = split(OPTS, f, " ")
		for (k = 1; k <= n; k++) { read_page(f[k]); need(f[k], "Long"); printf ".TP\n%s\n%s%s", man_tag(), body_troff(BODY), see_also(1) }
		print ".\\\" END GENERATED options"
		print ".\\\" BEGIN GENERATED views: made from docs/views/*.md by make docs"
		# ragged right: the long CSV headers would otherwise stretch the spaces
		print ".ad l"
		n = split(VIEWS, f, " ")
		for (k = 1; k <= n; k++) {
			read_page(f[k]); v = need(f[k], "View"); gsub(/-/, "\\-", v)
			printf ".TP\n.B %s\n%s", v, body_troff(BODY)
			if (need(f[k], "Default") == "no") print "Not part of the default views."
			printf "%s", see_also(0)
		}
		print ".ad"
		print ".\\\" END GENERATED views"
		print ".\\\" BEGIN GENERATED exit-status: made from docs/exit-status.md by make docs"
		m = read_exits(EXITS)
		for (k = 1; k <= m; k++) printf ".TP\n.B %s\n%s", CODE[k], body_troff(TEXT[k])
		print ".\\\" END GENERATED exit-status"
		print ".\\\" BEGIN GENERATED record-options: made from docs/options/record/*.md by make docs"
		n = split(ROPTS, f, " ")
		for (k = 1; k <= n; k++) { read_page(f[k]); need(f[k], "Long"); printf ".TP\n%s\n%s%s", man_tag(), body_troff(BODY), see_also(1) }
		print ".\\\" END GENERATED record-options"
	}' < /dev/null
	;;
rules)
	# Lines of ID NAME SEVERITY WHAT: the first three are words (the
	# severity's word, e.g. worth-a-look), the rest one sentence.
	list=${1:?rules LIST}
	awk "$lib"'
	NR == 1 {
		if ($1 != "ID" || $2 != "NAME") { print "docgen.sh: " FILENAME ": not what --explain list prints" > "/dev/stderr"; exit 1 }
		print ".\\\" BEGIN GENERATED rules: made from the findings\047 catalogue (--explain list) by make docs"
		next
	}
	{
		name = $2; sev = $3; what = $0
		sub(/^[^ ]+ +[^ ]+ +[^ ]+ +/, "", what)
		gsub(/-/, "\\-", name); gsub(/-/, "\\-", sev)
		gsub(/\\/, "\\e", what); gsub(/-/, "\\-", what)
		if (what ~ /^[.\047]/) what = "\\&" what
		printf ".TP\n.B %s %s\n(%s) %s\n", $1, name, sev, what
		n++
	}
	END {
		if (!n) { print "docgen.sh: no rule in the list" > "/dev/stderr"; exit 1 }
		print ".\\\" END GENERATED rules"
	}' "$list"
	;;
readme|reference)
	views=$(pages "$top/docs/views" "$(view_names)")
	opts=$(pages "$top/docs/options" "$(option_names)")
	OPTS="$opts" VIEWS="$views" WHAT="$what" awk "$lib"'
	BEGIN {
		if (WHAT == "reference") {
			print "<!-- BEGIN GENERATED options: made from docs/options/*.md by make docs -->"
			print "| option | argument | what it does |\n|---|---|---|"
			n = split(OPTS, f, " ")
			for (k = 1; k <= n; k++) {
				read_page(f[k]); o = need(f[k], "Long")
				printf "| [`%s--%s`](options/%s.md) | %s | %s |\n", ("Short" in H ? "-" H["Short"] ", " : ""), o, o,
					("Arg" in H ? "`" H["Arg"] "`" : ""), need(f[k], "Help")
			}
			print "\n<!-- END GENERATED options -->"
		}
		print "<!-- BEGIN GENERATED views: made from docs/views/*.md by make docs -->"
		print "| view | files | what is in it |\n|---|---|---|"
		n = split(VIEWS, f, " ")
		for (k = 1; k <= n; k++) {
			read_page(f[k]); v = need(f[k], "View")
			printf "| %s | %s | %s%s |\n", (WHAT == "reference" ? "[`" v "`](views/" v ".md)" : "`" v "`"),
				readme_files(need(f[k], "Files")),
				(WHAT == "reference" ? need(f[k], "Summary") : need(f[k], "Table")),
				(need(f[k], "Default") == "no" ? " (not default)" : "")
		}
		# A blank line ends the table: GFM would take the marker as a row.
		print "\n<!-- END GENERATED views -->"
	}' < /dev/null
	;;
table)
	dir=${1:?table DIR FIELD...}; shift
	FIELDS="$*" PAGES="$(ls "$dir"/*.md | sort | paste -sd' ')" awk "$lib"'
	BEGIN {
		n = split(FIELDS, fl, " "); m = split(PAGES, f, " ")
		for (j = 1; j <= n; j++) { h = h "| " fl[j] " "; r = r "|---" }
		print h "|\n" r "|"
		for (k = 1; k <= m; k++) {
			read_page(f[k]); row = ""
			for (j = 1; j <= n; j++) { c = need(f[k], fl[j]); gsub(/\|/, "\\|", c); row = row "| " c " " }
			print row "|"
		}
	}' < /dev/null
	;;
*)
	echo "docgen.sh: unknown WHAT '$what'" >&2; exit 1 ;;
esac
