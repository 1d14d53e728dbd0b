#!/bin/sh
# docs.sh DUMPANALYZE — the man page's OPTIONS, VIEWS and EXIT STATUS and
# README's view table are what the option and view tables make now
# (scripts/gen-docs.sh, `make docs`), and the hidden --help=FORMAT works.
SUITE=docs
. "$(dirname "$0")/setup.sh"
MAN=$TOP/man/dumpanalyze.1
README=$TOP/README.md

# The generator on copies: they must come out as committed.
cp "$MAN" "$TMP/dumpanalyze.1"
cp "$README" "$TMP/README.md"
sh "$TOP/scripts/gen-docs.sh" "$DA_BIN" "$TMP/dumpanalyze.1" "$TMP/README.md" > "$TMP/out" 2>&1
check "gen-docs.sh: exit status" 0 $?
if cmp -s "$MAN" "$TMP/dumpanalyze.1"; then ok "man page = the tables"; else
	not_ok "man page = the tables: run make docs"
	diff -u "$MAN" "$TMP/dumpanalyze.1" | head -20 | sed 's/^/       /'
fi
if cmp -s "$README" "$TMP/README.md"; then ok "README's view table = the view table"; else
	not_ok "README's view table = the view table: run make docs"
	diff -u "$README" "$TMP/README.md" | head -20 | sed 's/^/       /'
fi
check "gen-docs.sh: nothing to rewrite" "" "$(cat "$TMP/out")"

# The generated spans are where they belong, and hold every option, view
# and exit code in table order.
span() { sed -n "/BEGIN GENERATED $2:/,/END GENERATED $2\([^a-z-]\|\$\)/p" "$1"; }
check "man: OPTIONS opens with its generated span" ".SH OPTIONS|.\\\" BEGIN GENERATED options: made from src/cli/options.c by make docs" \
	"$(grep -A1 '^\.SH OPTIONS$' "$MAN" | paste -sd'|')"
check "man: EXIT STATUS opens with its generated span" ".SH EXIT STATUS|.\\\" BEGIN GENERATED exit-status: made from src/cli/options.c by make docs" \
	"$(grep -A1 '^\.SH EXIT STATUS$' "$MAN" | paste -sd'|')"
check "man: the views' span is in VIEWS" "VIEWS" \
	"$(awk '/^\.SH /{s=$2} /BEGIN GENERATED views/{print s}' "$MAN")"
help_opts=$($DA --help | sed -n 's/^  \(-., \|    \)--\([a-z-]*\).*/\2/p' | paste -sd' ')
check "--help lists 25 options" 25 "$(printf '%s\n' $help_opts | wc -l)"
check "man OPTIONS: --help's options, in its order" "$help_opts" \
	"$(span "$MAN" options | grep -A1 '^\.TP$' | sed -n 's/^\.B[IR]* .*\\-\\-\([^ "]*\).*/\1/p' | sed 's/\\-/-/g' | paste -sd' ')"
views=$($DA --views list | sed '/^$/,$d' | awk '{print $1}' | paste -sd' ')
check "--views list: 21 views" 21 "$(printf '%s\n' $views | wc -l)"
check "--views list: then the words default and all" "
default            in a list: the views above not marked (not default), and with --profile its views
all                in a list: every view above (profile and flamegraph only with --profile)" \
	"$($DA --views list | sed -n '/^$/,$p')"
check "man VIEWS: the views, in --views list order" "$views" \
	"$(span "$MAN" views | grep -A1 '^\.TP$' | sed -n 's/^\.B //p' | sed 's/\\-/-/g' | paste -sd' ')"
check "README: a row per view, in --views list order" "$views" \
	"$(span "$README" views | sed -n 's/^| `\([a-z-]*\)` |.*/\1/p' | paste -sd' ')"
check "README and man: not default as --views list says" \
	"$($DA --views list | grep -c '(not default)$') $($DA --views list | grep -c '(not default)$')" \
	"$(span "$README" views | grep -c '(not default) |$') $(span "$MAN" views | grep -c '^Not part of the default views\.$')"
rec_opts=$($DA record --help | sed -n 's/^  \(-., \|    \)--\([a-z-]*\).*/\2/p' | paste -sd' ')
check "record --help lists 9 options" 9 "$(printf '%s\n' $rec_opts | wc -l)"
check "man RECORD: record --help's options, in its order" "$rec_opts" \
	"$(span "$MAN" record-options | grep -A1 '^\.TP$' | sed -n 's/^\.B[IR]* .*\\-\\-\([^ "]*\).*/\1/p' | sed 's/\\-/-/g' | paste -sd' ')"
check "man: record's options' span is in RECORD" "RECORD" \
	"$(awk '/^\.SH /{s=$2} /BEGIN GENERATED record-options/{print s}' "$MAN")"
# The exit codes: --help's lines are EXIT STATUS with its fonts dropped.
$DA --help | sed -n '/^Exit status:$/,$p' > "$TMP/help-exits"
check "--help: exit codes" "Exit status:
  0  Success (warnings allowed).
  1  Usage error: unknown option or view, missing argument, no dump; with --compare, also a --fail-on rule crossed.
  2  Input or output error: a dump or profile that cannot be read, corrupt compressed data, a sysprof profile malformed or cut short (the byte is named), a failed write, or no memory to be had (the message then says \"out of memory\"); the output directory in use by another run (without --wait), a lock file there that is not a regular file of one name, a dump or profile the run would write over, one pipe given twice as --dump; with --recover, a commit that can be neither finished nor undone; with --compare, a directory that is not dumpanalyze output or holds a file that is not what its run wrote, a side whose run saw no JIT event, or a --fail-on rule that cannot be evaluated; with record, a run of the workload that failed.
  3  Input rejected under --strict (also an input with no JIT event), or a --profile file that is not a profile dumpanalyze reads (a sysprof or symbol table format version it does not know, a memprof profile).
See dumpanalyze(1)." "$(cat "$TMP/help-exits")"
check "man EXIT STATUS = --help's exit codes" "$(sed -n 's/^  \([0-9]\)  /\1 /p' "$TMP/help-exits")" \
	"$(span "$MAN" exit-status | grep -v '^\.\(TP\|\\"\)' | sed 's/\\f[BIR]//g; s/\\-/-/g' |
	   paste -d' ' - - | sed 's/^\.B //')"

# The hidden formats: not listed, one error for another.
check "--help does not list --help=FORMAT" 0 "$($DA --help | grep -c 'man\|readme')"
$DA --help=man > "$TMP/man.out" 2> "$TMP/err"
check "--help=man: exit status, five spans (options, views, exit status, record's options, rules), no message" "0 5 " \
	"$? $(grep -c '^\.\\" BEGIN GENERATED' "$TMP/man.out") $(cat "$TMP/err")"
$DA --help=readme > "$TMP/readme.out" 2> "$TMP/err"
check "--help=readme: exit status, 21 rows, no message" "0 21 " \
	"$? $(grep -c '^| `' "$TMP/readme.out") $(cat "$TMP/err")"
$DA --help=pdf > "$TMP/out" 2> "$TMP/err"
check "--help=pdf: exit status 1, nothing on stdout" "1 0" "$? $(wc -c < "$TMP/out")"
check "--help=pdf: message" "dumpanalyze: unknown --help format 'pdf' (man or readme)" "$(cat "$TMP/err")"
# Short options come from the table: -h after an option with an argument
# is plain help; -V takes its argument; -h takes none.
check "-V list -h: the usage" "0 usage: dumpanalyze [--dump FILE] [--out-dir DIR] [--views LIST] [options]" \
	"$($DA -V list -h > "$TMP/out"; echo $?) $(head -n 1 "$TMP/out")"
check "-V list: 21 views, a blank line, 2 words" 24 "$($DA -V list | wc -l)"
check "-hq: help and quiet, not a format" "0 1" "$($DA -hq > "$TMP/out"; echo $?) $(grep -c '^usage: ' "$TMP/out")"
$DA -j 2> "$TMP/err"
check "-j without its number" "1 dumpanalyze: option '-j' needs an argument (try --help)" "$? $(cat "$TMP/err")"

# A man page whose markers do not pair up is refused, and left alone.
grep -v 'END GENERATED views' "$MAN" > "$TMP/broken.1"
cp "$TMP/broken.1" "$TMP/broken.orig"
sh "$TOP/scripts/gen-docs.sh" "$DA_BIN" "$TMP/broken.1" "$TMP/README.md" > "$TMP/out" 2>&1
check "gen-docs.sh: unpaired marker refused" "1 gen-docs.sh: $TMP/broken.1: no END GENERATED views" \
	"$? $(cat "$TMP/out")"
check "gen-docs.sh: refused file untouched" "" "$(cmp "$TMP/broken.1" "$TMP/broken.orig")"
grep -v 'GENERATED exit-status' "$MAN" > "$TMP/broken.1"
sh "$TOP/scripts/gen-docs.sh" "$DA_BIN" "$TMP/broken.1" "$TMP/README.md" > "$TMP/out" 2>&1
check "gen-docs.sh: a block with no place refused" "1 gen-docs.sh: $TMP/broken.1: no BEGIN GENERATED exit-status marker" \
	"$? $(cat "$TMP/out")"
# ... and a stale span is rewritten.
sed 's/^Success (warnings allowed)\.$/Success./' "$MAN" > "$TMP/stale.1"
sh "$TOP/scripts/gen-docs.sh" "$DA_BIN" "$TMP/stale.1" "$TMP/README.md" > "$TMP/out" 2>&1
check "gen-docs.sh: a stale span is rewritten" "0 gen-docs.sh: wrote $TMP/stale.1" "$? $(cat "$TMP/out")"
check "gen-docs.sh: ... as committed" "" "$(cmp "$MAN" "$TMP/stale.1")"
# Troff whose backslash a C string ate ("\(aq" is "(aq" in C) is refused
# before it reaches the page: a stand-in for the binary prints --help=man
# with "(aq" in a line that also holds what is no leftover ("\fB",
# "(empty").
cp "$MAN" "$TMP/lost.1"
printf '#!/bin/sh\n[ "$1" = --help=readme ] && exec %s "$1"\n%s --help=man | sed %s\n' "$DA_BIN" "$DA_BIN" \
	"'s/^Success (warnings allowed)\\.\$/(aqSuccess(aq \\fBand\\fR (empty)./'" > "$TMP/lost-da"
chmod +x "$TMP/lost-da"
sh "$TOP/scripts/gen-docs.sh" "$TMP/lost-da" "$TMP/lost.1" "$TMP/README.md" > "$TMP/out" 2>&1
check "gen-docs.sh: troff that lost a backslash refused, the line shown" \
	"1 gen-docs.sh: $TMP/lost-da --help=man: troff that lost a backslash" \
	"$? $(head -n 1 "$TMP/out" | sed 's/ (in C.*//')"
check "gen-docs.sh: ... the line shown, the page untouched" "1 " \
	"$(grep -c '(aqSuccess(aq' "$TMP/out") $(cmp "$MAN" "$TMP/lost.1")"
finish
