#!/bin/sh
# doctest.sh DUMPANALYZE [FILE...] — the documents' examples, run: every
# block marked "doctest" in README.md, docs/*.md and the man page is run
# on the samples in a scratch directory and must show what it says.
# The scratch tree holds a copy of samples/.
# Markers (an HTML comment in Markdown, a troff comment in the man page),
# on the line before the block (blank lines and .PP/.RS between allowed):
#   <!-- doctest -->          the block's "$ CMD" lines are run, each
#                             followed by its output (stdout and stderr)
#   <!-- doctest $ CMD -->    CMD is run, the whole block is its output
#   <!-- doctest run -->      the block is a script; it must exit 0
#   <!-- doctest setup CMD -->  no block: CMD is run (exit 0), unseen
#   ".\" doctest ..." the same in troff, before .nf ... .fi
# Each may start with "in DIR" (a directory of the scratch tree, which
# holds a copy of samples/ and is where a file's blocks all run, in
# order).  In an expected output a line "..." stands for any lines, and
# a line ending in "..." for one line that starts so.  DOCTEST_KEEP=DIR
# keeps what each block printed.
SUITE=doctest
. "$(dirname "$0")/setup.sh"
shift
files=${*:-"$TOP/README.md $TOP/man/dumpanalyze.1 $(ls "$TOP"/docs/*.md)"}

mkdir -p "$TMP/bin"
printf '#!/bin/sh\nexec %s "$@"\n' "$DA" > "$TMP/bin/dumpanalyze"
chmod +x "$TMP/bin/dumpanalyze"
PATH=$TMP/bin:$PATH
export PATH

# blocks FILE DIR: each marker of FILE as DIR/N.args (its arguments),
# DIR/N.text (its block, unindented and, in troff, unescaped), DIR/N.line.
blocks() {
	awk -v dir="$2" '
	function flush() { if (n) close(dir "/" n ".text") }
	function start(args) {
		flush(); n++
		print args > (dir "/" n ".args"); close(dir "/" n ".args")
		print FNR > (dir "/" n ".line"); close(dir "/" n ".line")
		printf "" > (dir "/" n ".text")
		want = (args ~ /^(in [^ ]+ )?setup /) ? 0 : 1
		state = want ? "seek" : ""
	}
	function unescape(l) {
		gsub(/\\-/, "-", l); gsub(/\\\(aq/, "\047", l); gsub(/\\&/, "", l); gsub(/\\e/, "\\", l)
		return l
	}
	/^<!-- doctest( .*)? -->$/ { a = $0; sub(/^<!-- doctest ?/, "", a); sub(/ ?-->$/, "", a); start(a); next }
	/^\.\\" doctest( |$)/ { a = $0; sub(/^\.\\" doctest ?/, "", a); start(a); next }
	state == "seek" {
		if ($0 == "" || $0 ~ /^\.(PP|RS|IP)$/) next
		if ($0 ~ /^```/) { state = "fence"; next }
		if ($0 == ".nf") { state = "troff"; next }
		if ($0 ~ /^    /) state = "indent"
		else { print FILENAME ":" FNR ": doctest marker without a block" > "/dev/stderr"; bad = 1; state = ""; next }
	}
	state == "fence" { if ($0 ~ /^```/) state = ""; else print > (dir "/" n ".text"); next }
	state == "troff" { if ($0 == ".fi") state = ""; else print unescape($0) > (dir "/" n ".text"); next }
	state == "indent" {
		if ($0 ~ /^    / || $0 == "") { l = $0; sub(/^    /, "", l); print l > (dir "/" n ".text"); next }
		state = ""
	}
	END { flush(); exit bad }' "$1"
}

# matches EXPECTED ACTUAL: 0 when ACTUAL is what EXPECTED shows ("..."
# lines and endings as above; trailing blanks and blank last lines
# ignored).
matches() {
	awk '
	function m(i, j,   k) {
		if (i > ne) return j > na
		if (e[i] ~ /^ *(\.\.\.|…)$/) {
			for (k = j; k <= na + 1; k++) if (m(i + 1, k)) return 1
			return 0
		}
		if (j > na) return 0
		if (e[i] ~ /\.\.\.$/) {
			p = substr(e[i], 1, length(e[i]) - 3)
			if (substr(a[j], 1, length(p)) != p) return 0
		} else if (e[i] != a[j]) return 0
		return m(i + 1, j + 1)
	}
	{ sub(/[ \t\r]+$/, "") }
	FNR == NR { e[++ne] = $0; next }
	{ a[++na] = $0 }
	END {
		while (ne && e[ne] == "") ne--
		while (na && a[na] == "") na--
		exit !m(1, 1)
	}' "$1" "$2"
}

# exits0 NAME STATUS OUTPUT: the status is 0, else the output's end shown.
exits0() {
	if [ "$2" = 0 ]; then ok "$1"; else not_ok "$1" "exit status $2; the end of its output:"; tail -n 10 "$3" | sed 's/^/       > /'; fi
}

total=0
for f in $files; do
	name=${f#"$TOP"/}
	work=$TMP/work-$(echo "$name" | tr / -)
	mkdir -p "$work/.blocks"
	cp -r "$SAMPLES" "$work/samples"
	# README runs one example at the repository's root, which holds
	# another router.lua there.
	blocks "$f" "$work/.blocks"
	check "$name: every marker has its block" 0 $?
	n=0
	while [ -f "$work/.blocks/$((n + 1)).args" ]; do
		n=$((n + 1))
		b=$work/.blocks/$n
		args=$(cat "$b.args")
		where="$name:$(cat "$b.line")"
		dir=$work
		case $args in "in "*)
			d=${args#in }; d=${d%% *}; dir=$work/$d; args=${args#in "$d"}; args=${args# } ;;
		esac
		case $args in
		"setup "*)
			(cd "$dir" && sh -c "${args#setup }") > "$b.out" 2>&1
			exits0 "$where: setup exits 0" $? "$b.out" ;;
		run)
			(cd "$dir" && sh -e "$b.text") > "$b.out" 2>&1
			exits0 "$where: the commands exit 0" $? "$b.out" ;;
		*)
			if [ -n "$args" ]; then
				cp "$b.text" "$b.want"
				(cd "$dir" && sh -c "${args#\$ }") > "$b.out" 2>&1
			else
				# "$ CMD" lines: each command's output after it (blank
				# lines before a command only part the page's commands).
				: > "$b.out"; : > "$b.want"; blanks=0
				while IFS= read -r line || [ -n "$line" ]; do
					case $line in
					'$ '*)
						blanks=0
						printf '%s\n' "$line" >> "$b.out"
						printf '%s\n' "$line" >> "$b.want"
						(cd "$dir" && sh -c "${line#\$ }") >> "$b.out" 2>&1 ;;
					'') blanks=$((blanks + 1)) ;;
					*)
						while [ "$blanks" -gt 0 ]; do echo >> "$b.want"; blanks=$((blanks - 1)); done
						printf '%s\n' "$line" >> "$b.want" ;;
					esac
				done < "$b.text"
			fi
			if matches "$b.want" "$b.out"; then ok "$where: output as shown"; else
				not_ok "$where: output as shown" "the block, then what it printed:"
				sed 's/^/       | /' "$b.want" | head -20
				sed 's/^/       > /' "$b.out" | head -20
			fi ;;
		esac
	done
	# Every block that shows a "$ " command of the tool is marked.
	unmarked=$(awk '
		(/^<!-- doctest/ || /^\.\\" doctest/) && !/ setup / { pending = 1; inb = 0; next }
		/^```/ { if (!fence) { fence = 1; cur = pending; pending = 0 } else fence = 0; next }
		/^    / && !fence && !inb { inb = 1; cur = pending; pending = 0 }
		!/^    / && $0 != "" && !fence { inb = 0 }
		(inb || fence) && /^(    )?\$ dumpanalyze / && !cur { print FILENAME ":" FNR }' "$f")
	check "$name: every block with a \"\$ dumpanalyze\" line is tested" "" "$unmarked"
	# DOCTEST_KEEP=DIR keeps each block's N.want and N.out (to update a page).
	[ -z "${DOCTEST_KEEP:-}" ] || { mkdir -p "$DOCTEST_KEEP/$name" && cp "$work/.blocks"/* "$DOCTEST_KEEP/$name/"; }
	total=$((total + n))
	echo "# $name: $n blocks"
done
ran "blocks run" $total

# The test finds what it is for: on a page with a block whose output is
# stale, a "$ dumpanalyze" block not marked, a marker without a block,
# and blocks that hold ("..." lines, a line cut with "...").
if [ -z "${DOCTEST_INNER:-}" ]; then
	{
		echo '<!-- doctest setup cp samples/blacklist.dump b.dump -->'
		echo '<!-- doctest -->'
		echo '    $ dumpanalyze --explain NYIBC | head -n 1'
		echo '    NYIBC: NYI: bytecode %d'
		echo '    $ dumpanalyze -q --views exits --dump b.dump --out-dir o; head -n 2 o/gen-1-exits.csv'
		echo '    TRACE,EXIT,COUNT,SIDE_TRACE'
		echo '    1,9,999,'
		echo; echo '<!-- doctest $ dumpanalyze --explain NYIBC -->'
		echo '    NYIBC: NYI: bytecode %d'
		echo '    ...'
		echo '    rule:      DA108 unsupported-bytecode, costly ...'
		echo '    ...'
		echo; echo 'text'; echo
		echo '    $ dumpanalyze --version'
		echo; echo '<!-- doctest -->'; echo 'no block here'
	} > "$TMP/page.md"
	DOCTEST_INNER=1 sh "$0" "$DA_BIN" "$TMP/page.md" > "$TMP/self.out" 2>&1
	check "a stale page: exit status 1, three failures" "1 3" "$? $(grep -c '^FAIL' "$TMP/self.out")"
	check "... the stale block, by line" "FAIL - $TMP/page.md:2: output as shown" "$(grep '^FAIL.*output as shown' "$TMP/self.out")"
	check "... the block that holds, with its ... lines" "ok   - $TMP/page.md:9: output as shown" "$(grep ':9: output as shown' "$TMP/self.out")"
	check "... the unmarked block, by line" "1 $TMP/page.md:17" \
		"$(grep -c '^FAIL.*every block with a' "$TMP/self.out") $(grep -A2 '^FAIL.*every block with a' "$TMP/self.out" | sed -n 's/^ *got: *//p')"
	check "... the marker without a block" "1 $TMP/page.md:20: doctest marker without a block" \
		"$(grep -c '^FAIL.*every marker has its block' "$TMP/self.out") $(grep '^/.*marker without a block' "$TMP/self.out")"
fi
finish
