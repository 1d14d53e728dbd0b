#!/bin/sh
# golden.sh DUMPANALYZE — real sample dumps in, exact files out.
# Each case is a directory in tests/cli/golden/: `args` (one argument a
# line; @SAMPLES@ is the samples directory), `status` (the exit code),
# `stderr` (exact; @OUT@ is the output directory) and `expected/` (the
# output directory, file for file, byte for byte).  Regenerate with
# tests/cli/update-golden.sh, then review the diff against the dump.
SUITE=golden
. "$(dirname "$0")/setup.sh"

for case in "$TOP"/tests/cli/golden/*/; do
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
	check "$name: file list" "$(cd "$case/expected" && ls -A)" "$(cd "$out" 2>/dev/null && ls -A)"
	for f in "$case"/expected/*; do
		[ -e "$f" ] || continue
		base=$(basename "$f")
		case $base in
		*.png)  # pictures: checked by the picture tests, here a real PNG
			sig=$(od -An -c -N4 "$out/$base" 2>/dev/null | tr -d ' ')
			check "$name: $base is a PNG" '211PNG' "$sig" ;;
		summary.txt)    # names the dump: the samples' path varies
			sed "s|$SAMPLES|@SAMPLES@|g" "$out/$base" > "$TMP/$name.summary"
			check_file "$name: $base" "$f" "$TMP/$name.summary" ;;
		*)	check_file "$name: $base" "$f" "$out/$base" ;;
		esac
	done
done
finish
