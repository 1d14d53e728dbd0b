#!/bin/sh
# golden.sh DUMPANALYZE — real sample dumps in, exact files out.
# Each case is a directory in tests/cli/golden/: `args` (one argument a
# line; @SAMPLES@ is the samples directory), `status` (the exit code),
# `stderr` (exact; @OUT@ is the output directory) and `expected/` (the
# output directory, file for file, byte for byte; a picture NAME.png as
# NAME.png.sum, its size and sha256 from png-sum.sh).  Regenerate with
# tests/cli/update-golden.sh, then review the diff against the dump (and
# a changed picture by looking at it).
SUITE=golden
. "$(dirname "$0")/setup.sh"

ncases=0
for case in "$TOP"/tests/cli/golden/*/; do
	ncases=$((ncases + 1))
	name=$(basename "$case")
	out=$TMP/$name
	set --
	while IFS= read -r a; do
		set -- "$@" "$(printf '%s' "$a" | sed "s|@SAMPLES@|$SAMPLES|g")"
	done < "$case/args"
	$DA "$@" --out-dir "$out" > "$TMP/$name.stdout" 2> "$TMP/$name.stderr"
	status=$?
	check "$name: exit status" "$(cat "$case/status")" "$status"
	sed "s|$out|@OUT@|g; s|$SAMPLES|@SAMPLES@|g" "$TMP/$name.stderr" > "$TMP/$name.stderr.n"
	check_file "$name: stderr" "$case/stderr" "$TMP/$name.stderr.n"
	check "$name: file list" "$(cd "$case/expected" && ls -A | sed 's/\.png\.sum$/.png/' | sort)" \
		"$(cd "$out" 2>/dev/null && ls -A | sort)"
	n=0
	for f in "$case"/expected/*; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		base=$(basename "$f")
		case $base in
		*.png.sum)
			check "$name: ${base%.sum}" "$(cat "$f")" "$(sh "$TOP/tests/cli/png-sum.sh" "$out/${base%.sum}")" ;;
		summary.txt|manifest.json)      # name the dump: the samples' path varies
			sed "s|$SAMPLES|@SAMPLES@|g" "$out/$base" > "$TMP/$name.summary"
			check_file "$name: $base" "$f" "$TMP/$name.summary" ;;
		*)	check_file "$name: $base" "$f" "$out/$base" ;;
		esac
	done
	ran "$name: every expected file compared" "$n" "$(ls -A "$case/expected" | wc -l)"
done
ran "golden cases" "$ncases" "$(ls -d "$TOP"/tests/cli/golden/*/ | wc -l)"
finish
