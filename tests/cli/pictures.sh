#!/bin/sh
# pictures.sh DUMPANALYZE — bush pictures from real dumps: one PNG and
# one SVG per bush, valid files of the same size, bigger bushes bigger.
SUITE=pictures
. "$(dirname "$0")/setup.sh"

# png_size FILE: "WIDTH HEIGHT" from the IHDR chunk.
png_size() {
	od -An -tu1 -j16 -N8 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4, $5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }'
}

# The bushes of each dump, counted from its text (compiled traces whose
# start names no parent exit: roots and stitched ones) and reviewed.
for case in penlight-x:26 luacheck:36 reuse:9 flush:19; do
	dump=${case%:*} bushes=${case#*:}
	out=$TMP/$dump
	$DA -q --views bush-txt,bush-png,bush-svg --dump "$SAMPLES/$dump.dump" --out-dir "$out"
	check "$dump: exit status" 0 $?
	check "$dump: $bushes bushes in the dump" "$bushes" "$(awk '/^---- TRACE [0-9]+ start / { root[$3] = ($5 !~ /^[0-9]+\/[0-9]+$/) }
		/^---- TRACE [0-9]+ stop/ { if (root[$3]) n++ } END { print n + 0 }' "$SAMPLES/$dump.dump")"
	check "$dump: one text per bush" "$bushes" "$(ls "$out" | grep -c 'bush-.*\.txt$')"
	check "$dump: one PNG per bush" "$bushes" "$(ls "$out" | grep -c 'bush-.*\.png$')"
	check "$dump: one SVG per bush" "$bushes" "$(ls "$out" | grep -c 'bush-.*\.svg$')"
	bad="" n=0
	for png in "$out"/*.png; do
		[ -e "$png" ] || continue
		n=$((n + 1))
		sig=$(od -An -c -N8 "$png" | tr -d ' ')
		[ "$sig" = '211PNG\r\n032\n' ] || bad="$bad $(basename "$png"):signature"
		svg=${png%.png}.svg
		xmllint --noout "$svg" 2> /dev/null || bad="$bad $(basename "$svg"):xml"
		set -- $(png_size "$png")
		grep -q "<svg[^>]* width=\"$1pt\" height=\"$2pt\"" "$svg" || bad="$bad $(basename "$svg"):size"
	done
	ran "$dump: PNG and SVG checked" "$n" "$bushes"
	check "$dump: PNGs valid, SVGs valid XML of the same size" "" "$bad"
done

# The bush with the most traces gets a larger canvas than the smallest.
out=$TMP/penlight-x
big=$(for t in "$out"/*-bush-*.txt; do echo "$(grep -c '^---- TRACE [0-9]* stop' "$t") $t"; done | sort -n | tail -n 1 | awk '{print $2}')
small=$(for t in "$out"/*-bush-*.txt; do echo "$(grep -c '^---- TRACE [0-9]* stop' "$t") $t"; done | sort -n | head -n 1 | awk '{print $2}')
set -- $(png_size "${big%.txt}.png"); big_area=$(($1 * $2))
set -- $(png_size "${small%.txt}.png"); small_area=$(($1 * $2))
check "largest bush has the largest picture" yes "$([ "$big_area" -gt "$small_area" ] && echo yes || echo no)"

# Reused root numbers: the K-th bush of root 3 gets its own pictures.
check "reuse: bush-3.7 drawn" "yes" "$([ -f "$TMP/reuse/gen-1-bush-3.7.png" ] && [ -f "$TMP/reuse/gen-1-bush-3.7.svg" ] && echo yes || echo no)"

# Pictures drawn in worker processes: the same bytes as drawn inline,
# whatever the number of workers, and no temporary file left behind.
for case in flush:19 penlight-x:26; do
	dump=${case%:*} bushes=${case#*:}
	$DA -q -j 1 --views bush-png,bush-svg,traces --dump "$SAMPLES/$dump.dump" --out-dir "$TMP/j1-$dump" > /dev/null
	$DA -q -j 4 --views bush-png,bush-svg,traces --dump "$SAMPLES/$dump.dump" --out-dir "$TMP/j4-$dump" > /dev/null
	check "$dump: 4 workers drew every bush" "$bushes $bushes" \
		"$(ls "$TMP/j4-$dump" | grep -c '\.png$') $(ls "$TMP/j4-$dump" | grep -c '\.svg$')"
	check "$dump: 1 worker = 4 workers" "" "$(diff -r "$TMP/j1-$dump" "$TMP/j4-$dump")"
	check "$dump: no temporary files" "" "$(ls -A "$TMP/j4-$dump" | grep '^\.')"
done
$DA -q -j 0 --dump "$SAMPLES/rsx.dump" --out-dir "$TMP/j0" > /dev/null 2> "$TMP/j0.err"
check "--jobs 0: exit 1" 1 $?
check "--jobs 0: message" "dumpanalyze: --jobs wants a number from 1 to 64, not '0'" "$(cat "$TMP/j0.err")"

# Same input, same bytes.
$DA -q --views bush-png,bush-svg --dump "$SAMPLES/penlight-x.dump" --out-dir "$TMP/again"
check "again: 26 PNGs and 26 SVGs to compare" 52 "$(ls "$TMP/again" | grep -c '\.png$\|\.svg$')"
check "pictures are deterministic" "" "$(cd "$TMP/again" && for f in *.png *.svg; do cmp -s "$f" "$TMP/penlight-x/$f" || echo "$f"; done)"

# ... and the same bytes in every run (`make check-valgrind` runs this
# too).  The 26 pictures were reviewed by eye against the dump's bushes
# when frames and arcs lost their dots and shapes got cairo's faster
# antialiasing, and again when narrow bushes' titles wrapped; libdeflate's
# files, rows unfiltered, decode to the same pixels as zlib's did.
check "penlight-x: PNG bytes as reviewed" 3b4584e5d8f0c851303d1150c05561546d43dca4460e248c6fb51f2680823a05 \
	"$(cat "$TMP/penlight-x"/*.png | sha256sum | cut -c1-64)"
finish
