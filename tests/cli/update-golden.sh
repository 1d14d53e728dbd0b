#!/bin/sh
# update-golden.sh DUMPANALYZE — rewrite every golden case's expected
# output from the current binary.  Review `git diff` against the dumps
# before committing: golden files are checked by hand.
LC_ALL=C
export LC_ALL
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SAMPLES=$TOP/samples
DA=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
for case in "$TOP"/tests/cli/golden/*/; do
	out=$case/expected
	rm -rf "$out"
	set --
	while IFS= read -r a; do
		set -- "$@" "$(printf '%s' "$a" | sed "s|@SAMPLES@|$SAMPLES|g")"
	done < "$case/args"
	"$DA" "$@" --out-dir "$out" > /dev/null 2> "$case/stderr.raw"
	echo $? > "$case/status"
	sed "s|$out|@OUT@|g; s|$SAMPLES|@SAMPLES@|g" "$case/stderr.raw" > "$case/stderr"
	rm -f "$case/stderr.raw"
	for f in summary.txt manifest.json; do
		[ -f "$out/$f" ] && sed -i "s|$SAMPLES|@SAMPLES@|g" "$out/$f"
	done
	# A picture is kept as its size and sha256 (png-sum.sh): look at a
	# changed one before committing its new sum.
	for png in "$out"/*.png; do
		[ -e "$png" ] || continue
		sh "$TOP/tests/cli/png-sum.sh" "$png" > "$png.sum" && rm "$png"
	done
	echo "$(basename "$case"): $(ls "$out" | wc -l) files, status $(cat "$case/status")"
done
