#!/bin/sh
# docs.sh DUMPANALYZE — one source per option and per view: the pages of
# docs/ (docs/README.md) make --help, --views list, the man page's
# OPTIONS, VIEWS and EXIT STATUS and the docs' tables; the C tables and
# the pages name the same things; the spans are fresh (`make docs`); and a
# change to one page shows in all of them.
SUITE=docs
. "$(dirname "$0")/setup.sh"
MAN=$TOP/man/dumpanalyze.1
README=$TOP/README.md
REF=$TOP/docs/README.md
GEN=$TOP/scripts/gen-docs.sh
# The man page's rules are what this build's --explain list prints.
DUMPANALYZE=$DA_BIN
export DUMPANALYZE

# The generator on copies: they must come out as committed.
cp "$MAN" "$TMP/dumpanalyze.1"; cp "$README" "$TMP/README.md"; cp "$REF" "$TMP/ref.md"
sh "$GEN" "$TMP/dumpanalyze.1" "$TMP/README.md" "$TMP/ref.md" > "$TMP/out" 2>&1
check "gen-docs.sh: exit status" 0 $?
check_file "man page = the pages (else run make docs)" "$MAN" "$TMP/dumpanalyze.1"
check_file "README's view table = the pages (else run make docs)" "$README" "$TMP/README.md"
check_file "docs/README.md's tables = the pages (else run make docs)" "$REF" "$TMP/ref.md"
check "gen-docs.sh: nothing to rewrite" "" "$(cat "$TMP/out")"

# The C tables and the pages: the same names, in the tables' order, and
# every count is taken from the tables.
c_opts=$(sed -n 's/^	{ "\([a-z-]*\)", [a-z_]*_argument, NULL, .*/\1/p' "$TOP/src/cli/options.c" | paste -sd' ')
c_views=$(sed -n '/^const struct view \*const view_table\[\]/,/^};/s/^	&view_\([a-z_]*\),$/\1/p' \
	"$TOP/src/views/view.c" | tr _ - | paste -sd' ')
n_opts=$(printf '%s\n' $c_opts | wc -l)
n_views=$(printf '%s\n' $c_views | wc -l)
check "getopt table: more than 20 options" 1 "$([ "$n_opts" -gt 20 ] && echo 1)"
check "view registry: more than 20 views" 1 "$([ "$n_views" -gt 20 ] && echo 1)"
check "docs/options/: a page per getopt entry, no other" "$(printf '%s\n' $c_opts | sort | paste -sd' ')" \
	"$(cd "$TOP/docs/options" && ls *.md | sed 's/\.md$//' | sort | paste -sd' ')"
check "docs/views/: a page per registered view, no other" "$(printf '%s\n' $c_views | sort | paste -sd' ')" \
	"$(cd "$TOP/docs/views" && ls *.md | sed 's/\.md$//' | sort | paste -sd' ')"
help_opts=$($DA --help | sed -n 's/^  \(-., \|    \)--\([a-z-]*\).*/\2/p' | paste -sd' ')
check "--help: the getopt table's $n_opts options, in its order" "$c_opts" "$help_opts"
span() { sed -n "/BEGIN GENERATED $2:/,/END GENERATED $2\([^a-z-]\|\$\)/p" "$1"; }
check "man OPTIONS: the same, in the same order" "$c_opts" \
	"$(span "$MAN" options | grep -A1 '^\.TP$' | sed -n 's/^\.B[IR]* .*\\-\\-\([^ "]*\).*/\1/p' | sed 's/\\-/-/g' | paste -sd' ')"
check "docs/README.md: a row per option, in that order" "$c_opts" \
	"$(span "$REF" options | sed -n 's/^| \[`\(-., \)\{0,1\}--\([a-z-]*\)`\].*/\2/p' | paste -sd' ')"
# Short letters and arguments: each page's against getopt's view of it.
n=0
for o in $c_opts; do
	n=$((n + 1))
	short=$(sed -n '2,/^---$/s/^Short: //p' "$TOP/docs/options/$o.md")
	arg=$(sed -n '2,/^---$/s/^Arg: //p' "$TOP/docs/options/$o.md")
	c_line=$(grep "^	{ \"$o\", " "$TOP/src/cli/options.c")
	c_short=$(echo "$c_line" | sed -n "s/.*NULL, '\(.\)' },\$/\1/p")
	case $c_line in *no_argument*) c_arg=no ;; *) c_arg=yes ;; esac
	check "--$o: page's Short and Arg = the getopt entry" "$c_short $c_arg" "$short $([ -n "$arg" ] && echo yes || echo no)"
done
ran "options' headers" $n "$n_opts"
views=$($DA --views list | sed '/^$/,$d' | awk '{print $1}' | paste -sd' ')
check "--views list: the registry's $n_views views, in its order" "$c_views" "$views"
check "man VIEWS: the same" "$c_views" \
	"$(span "$MAN" views | grep -A1 '^\.TP$' | sed -n 's/^\.B //p' | sed 's/\\-/-/g' | paste -sd' ')"
check "README: a row per view, in that order" "$c_views" \
	"$(span "$README" views | sed -n 's/^| `\([a-z-]*\)` |.*/\1/p' | paste -sd' ')"
# A page's Files and Default are the view's (as --views list prints them).
n=0
for v in $c_views; do
	n=$((n + 1))
	page=$TOP/docs/views/$v.md
	files=$(sed -n '2,/^---$/s/^Files: //p' "$page")
	def=$(sed -n '2,/^---$/s/^Default: //p' "$page")
	line=$($DA --views list | awk -v v="$v" '$1 == v')
	case $line in *"(not default)") c_def=no ;; *) c_def=yes ;; esac
	check "view $v: page's Files and Default = the view's" "$files $c_def" \
		"$(echo "$line" | awk -v f="$files" 'substr($0, 20, length(f) + 1) == f " " { print f }') $def"
done
ran "views' headers" $n "$n_views"
check "README and man: not default as --views list says" \
	"$($DA --views list | grep -c '(not default)$') $($DA --views list | grep -c '(not default)$')" \
	"$(span "$README" views | grep -c '(not default) |$') $(span "$MAN" views | grep -c '^Not part of the default views\.$')"
check "--views list: then the words default and all" "
default            in a list: the views above not marked (not default), and with --profile its views
all                in a list: every view above (profile and flamegraph only with --profile)" \
	"$($DA --views list | sed -n '/^$/,$p')"

# record: its getopt table, its pages and record --help agree the same way.
r_opts=$(sed -n 's/^	{ "\([a-z-]*\)", [a-z_]*_argument, NULL, .*/\1/p' "$TOP/src/cli/record_options.c" | paste -sd' ')
n_ropts=$(printf '%s\n' $r_opts | wc -l)
check "record's getopt table: more than 5 options" 1 "$([ "$n_ropts" -gt 5 ] && echo 1)"
check "docs/options/record/: a page per record getopt entry, no other" "$(printf '%s\n' $r_opts | sort | paste -sd' ')" \
	"$(cd "$TOP/docs/options/record" && ls *.md | sed 's/\.md$//' | sort | paste -sd' ')"
rec_opts=$($DA record --help | sed -n 's/^  \(-., \|    \)--\([a-z-]*\).*/\2/p' | paste -sd' ')
check "record --help: the table's $n_ropts options, in its order" "$r_opts" "$rec_opts"
check "man RECORD OPTIONS: the same" "$r_opts" \
	"$(span "$MAN" record-options | grep -A1 '^\.TP$' | sed -n 's/^\.B[IR]* .*\\-\\-\([^ "]*\).*/\1/p' | sed 's/\\-/-/g' | paste -sd' ')"
check "man: record's options' span is in RECORD" "RECORD" \
	"$(awk '/^\.SH /{s=$2} /BEGIN GENERATED record-options/{print s}' "$MAN")"
# Short letters: a page's Short is in RECORD_SHORT_OPTIONS, and each of
# those letters is a page's.
r_shorts=$(sed -n 's/^#define RECORD_SHORT_OPTIONS "+:\(.*\)"$/\1/p' "$TOP/src/cli/record.h" | tr -d ':' | fold -w1 | sort | paste -sd' ')
check "record: the pages' Short letters = RECORD_SHORT_OPTIONS" "$r_shorts" \
	"$(for f in "$TOP"/docs/options/record/*.md; do sed -n '2,/^---$/s/^Short: //p' "$f"; done | sort | paste -sd' ')"
# The rules: the man page's table is --explain list's, row for row.
n_rules=$($DA --explain list | tail -n +2 | wc -l)
check "--explain list: more than 40 rules" 1 "$([ "$n_rules" -gt 40 ] && echo 1)"
check "man rules: --explain list's ids and names, in its order" \
	"$($DA --explain list | tail -n +2 | awk '{ print $1, $2 }' | paste -sd'|')" \
	"$(span "$MAN" rules | sed -n 's/^\.B \(DA[0-9]*\) /\1 /p' | sed 's/\\-/-/g' | paste -sd'|')"

# The exit codes: --help's lines are EXIT STATUS with its fonts dropped.
$DA --help | sed -n '/^Exit status:$/,$p' > "$TMP/help-exits"
check "--help: exit codes 0 to 3, then the man page" "Exit status:|  0|  1|  2|  3|See dumpanalyze(1)." \
	"$(cut -c1-3 "$TMP/help-exits" | sed 's/^Exi$/Exit status:/; s/^See$/See dumpanalyze(1)./' | paste -sd'|')"
check "--help: exit code 0" "  0  Success (warnings allowed)." "$(sed -n 2p "$TMP/help-exits")"
check "--help: exit code 2 names record" 1 "$(grep -c '^  2  .*; with record, a run of the workload that failed\.$' "$TMP/help-exits")"
check "man EXIT STATUS = --help's exit codes" "$(sed -n 's/^  \([0-9]\)  /\1 /p' "$TMP/help-exits")" \
	"$(span "$MAN" exit-status | grep -v '^\.\(TP\|\\"\)' | sed 's/\\f[BIR]//g; s/\\-/-/g; s/\\%//g' |
	   paste -sd' ' | sed 's/^\.B //; s/ \.B \([0-9]\) /\n\1 /g')"

# --help=FORMAT is gone (the pages make the docs): an argument is refused.
$DA --help=man > "$TMP/out" 2> "$TMP/err"
check "--help=man: exit status 1, nothing on stdout" "1 0" "$? $(wc -c < "$TMP/out")"
check "--help=man: message" "dumpanalyze: option '--help' takes no argument (try --help)" "$(cat "$TMP/err")"
$DA --version=2 2> "$TMP/err"
check "--version=2: message" "1 dumpanalyze: option '--version' takes no argument (try --help)" "$? $(cat "$TMP/err")"
$DA --no-such=2 2> "$TMP/err"
check "--no-such=2: message" "1 dumpanalyze: unknown option '--no-such=2' (try --help)" "$? $(cat "$TMP/err")"
# Short options come from the table.
check "-V list -h: the usage" "0 usage: dumpanalyze [--dump FILE] [--out-dir DIR] [--views LIST] [options]" \
	"$($DA -V list -h > "$TMP/out"; echo $?) $(head -n 1 "$TMP/out")"
check "-V list: the views, a blank line, 2 words" $((n_views + 3)) "$($DA -V list | wc -l)"
check "-hq: help and quiet" "0 1" "$($DA -hq > "$TMP/out"; echo $?) $(grep -c '^usage: ' "$TMP/out")"
$DA -j 2> "$TMP/err"
check "-j without its number" "1 dumpanalyze: option '-j' needs an argument (try --help)" "$? $(cat "$TMP/err")"
# Every file --help's usage reads is one an earlier line of it writes.
check "--help's usage: app.dump and app.prof written before they are read" \
	"luajit -jdump=+x,app.dump -jp=Gvli1,app.prof app.lua; dumpanalyze --dump app.dump --profile app.prof" \
	"$($DA --help | sed -n 5p | sed 's/^ *//')"
# ... with the one recipe (luajit/recipe.h): the pages cannot include it.
check "--help's usage: the recipe of luajit/recipe.h" "$(sed -n 's/^#define RECIPE_PROF_MODE "\(.*\)"$/\1/p' "$TOP/src/luajit/recipe.h")" \
	"$($DA --help | sed -n 5p | sed 's/.* -jp=\([^,]*\),.*/\1/')"
check "record --help: the recipe of luajit/recipe.h" "-jdump=$(sed -n 's/^#define RECIPE_DUMP_FLAGS "\(.*\)"$/\1/p' "$TOP/src/luajit/recipe.h") -jp=$(sed -n 's/^#define RECIPE_PROF_MODE "\(.*\)"$/\1/p' "$TOP/src/luajit/recipe.h")" \
	"$($DA record --help | sed -n '3,4p' | grep -o -e '-jdump=[^ ]*' -e '-jp=[^,]*' | paste -sd' ')"

# Any catalogue kept as pages gets its table (--explain list's, later).
sh "$TOP/scripts/docgen.sh" table "$TOP/docs/options" Long Category > "$TMP/table"
check "docgen.sh table: a header, a rule, a row per page" "$((n_opts + 2)) | Long | Category |" \
	"$(wc -l < "$TMP/table") $(head -n 1 "$TMP/table")"
check "docgen.sh table: rows sorted by page" "| allow-empty | compare |" "$(sed -n 3p "$TMP/table")"

# One page changed, in a scratch copy of the tree: --help (the real
# cli_usage compiled with the header the pages make), the man page and
# both tables all change.
mkdir -p "$TMP/tree/build/gen"
cp -r "$TOP/docs" "$TOP/scripts" "$TOP/src" "$TOP/include" "$TOP/man" "$TMP/tree/"
cp "$README" "$TMP/tree/README.md"
sed -i 's/^Help: the version$/Help: the version of this build/; s/^Summary: exits taken, with their counts and side traces$/Summary: every exit taken/' \
	"$TMP/tree/docs/options/version.md" "$TMP/tree/docs/views/exits.md"
sed -i 's/^Table: `TRACE,EXIT,COUNT,SIDE_TRACE`, most taken first/Table: `TRACE,EXIT,COUNT,SIDE_TRACE`, the most taken first/' \
	"$TMP/tree/docs/views/exits.md"
printf 'Printed as **dumpanalyze 1.2.3**.\n' >> "$TMP/tree/docs/options/version.md"
sed -i 's/^Help: run the command N times under the dump .*/Help: how many runs of each kind/' "$TMP/tree/docs/options/record/runs.md"
sh "$TMP/tree/scripts/docgen.sh" -C "$TMP/tree" help-c > "$TMP/tree/build/gen/cli_help.h"
check "changed pages: docgen.sh help-c" 0 $?
printf '%s\n' '#include <stdio.h>' '#include "views/view.h"' '#include "cli/cli.h"' \
	'const struct view *const view_table[] = { NULL };' \
	'#include "cli/record.h"' \
	'int main(void) { cli_usage(stdout); record_usage(stdout); return 0; }' > "$TMP/tree/help.c"
cc -std=c11 -D_POSIX_C_SOURCE=200809L -I"$TMP/tree/include" -I"$TMP/tree/src" -I"$TMP/tree/build/gen" \
	-o "$TMP/help" "$TMP/tree/help.c" "$TMP/tree/src/cli/options.c" "$TMP/tree/src/cli/record_options.c" > "$TMP/cc.out" 2>&1
check "changed pages: cli_usage builds" "0 " "$? $(cat "$TMP/cc.out")"
"$TMP/help" > "$TMP/help.out"
check "changed pages: --help's line" "      --version            the version of this build" "$(grep -e '--version' "$TMP/help.out")"
check "changed pages: record --help's line" "      --runs N             how many runs of each kind" "$(grep -e '^      --runs' "$TMP/help.out")"
check "changed pages: --help's and record --help's other lines as before" \
	"$({ $DA --help; $DA record --help; } | grep -v -e '--version' -e '^      --runs')" \
	"$(grep -v -e '--version' -e '^      --runs' "$TMP/help.out")"
check "changed pages: --views list's line" 1 "$(grep -c '{ "exits", "every exit taken" },' "$TMP/tree/build/gen/cli_help.h")"
sh "$TMP/tree/scripts/gen-docs.sh" -C "$TMP/tree" > "$TMP/out" 2>&1
check "changed pages: make docs rewrites the three" "0 gen-docs.sh: wrote $TMP/tree/man/dumpanalyze.1|gen-docs.sh: wrote $TMP/tree/README.md|gen-docs.sh: wrote $TMP/tree/docs/README.md" \
	"$? $(paste -sd'|' "$TMP/out")"
check "changed pages: the man page" "+Printed as \\fB\\%dumpanalyze 1.2.3\\fR." \
	"$(diff -U0 "$MAN" "$TMP/tree/man/dumpanalyze.1" | grep '^[-+][^-+]' | paste -sd'|')"
check "changed pages: README's table" "+| \`exits\` | \`gen-N-exits.csv\` | \`TRACE,EXIT,COUNT,SIDE_TRACE\`, the most taken first (\`-jdump=+x\`) |" \
	"$(diff -U0 "$README" "$TMP/tree/README.md" | grep '^+[^+]')"
check "changed pages: docs/README.md's tables" "+| [\`--version\`](options/version.md) |  | the version of this build |
+| [\`exits\`](views/exits.md) | \`gen-N-exits.csv\` | every exit taken |" \
	"$(diff -U0 "$REF" "$TMP/tree/docs/README.md" | grep '^+[^+]')"

# A page without its entry, an entry without its page: refused, by name.
cp "$TMP/tree/docs/options/wait.md" "$TMP/tree/docs/options/no-such.md"
rm "$TMP/tree/docs/views/files.md"
sh "$TMP/tree/scripts/docgen.sh" -C "$TMP/tree" help-c > "$TMP/out" 2> "$TMP/err"
check "docgen.sh: a page without an entry refused" "1 0 docgen.sh: $TMP/tree/docs/options/no-such.md: no such entry in the C table" \
	"$? $(wc -c < "$TMP/out") $(cat "$TMP/err")"
rm "$TMP/tree/docs/options/no-such.md"
sh "$TMP/tree/scripts/docgen.sh" -C "$TMP/tree" man > "$TMP/out" 2> "$TMP/err"
check "docgen.sh: an entry without a page refused" "1 docgen.sh: files has no page $TMP/tree/docs/views/files.md" \
	"$? $(cat "$TMP/err")"
# A header without a field the generator needs.
cp "$TOP/docs/views/files.md" "$TMP/tree/docs/views/"
sed -i '/^Help: /d' "$TMP/tree/docs/options/wait.md"
sh "$TMP/tree/scripts/docgen.sh" -C "$TMP/tree" help-c > "$TMP/out" 2> "$TMP/err"
check "docgen.sh: a page without Help refused" "1 docgen.sh: $TMP/tree/docs/options/wait.md: no Help: in its header" \
	"$? $(cat "$TMP/err")"

# A man page whose markers do not pair up is refused, and left alone.
grep -v 'END GENERATED views' "$MAN" > "$TMP/broken.1"
cp "$TMP/broken.1" "$TMP/broken.orig"
sh "$GEN" "$TMP/broken.1" "$TMP/README.md" "$TMP/ref.md" > "$TMP/out" 2>&1
check "gen-docs.sh: unpaired marker refused" "1 gen-docs.sh: $TMP/broken.1: no END GENERATED views" \
	"$? $(cat "$TMP/out")"
check "gen-docs.sh: refused file untouched" "" "$(cmp "$TMP/broken.1" "$TMP/broken.orig")"
grep -v 'GENERATED exit-status' "$MAN" > "$TMP/broken.1"
sh "$GEN" "$TMP/broken.1" "$TMP/README.md" "$TMP/ref.md" > "$TMP/out" 2>&1
check "gen-docs.sh: a block with no place refused" "1 gen-docs.sh: $TMP/broken.1: no BEGIN GENERATED exit-status marker" \
	"$? $(cat "$TMP/out")"
# ... and a stale span is rewritten.
sed 's/^Success (warnings allowed)\.$/Success./' "$MAN" > "$TMP/stale.1"
sh "$GEN" "$TMP/stale.1" "$TMP/README.md" "$TMP/ref.md" > "$TMP/out" 2>&1
check "gen-docs.sh: a stale span is rewritten" "0 gen-docs.sh: wrote $TMP/stale.1" "$? $(cat "$TMP/out")"
check "gen-docs.sh: ... as committed" "" "$(cmp "$MAN" "$TMP/stale.1")"
finish
