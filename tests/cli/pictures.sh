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

# The default views draw only bushes with side traces (a root and more)
# whose picture fits 1024 px either way at full scale, and write no bush
# text: the PNGs are exactly those of the bushes whose text (above, every
# bush) has more than one trace and whose named picture (drawn at full
# scale up to 2048 px) is at most 1024 px; the others are counted on
# stderr.  Counts reviewed against the dumps' bushes.
for case in penlight-x:11:1:20 luacheck:13:1:22 reuse:1:0:11 flush:3:0:31; do
	dump=${case%%:*} rest=${case#*:}
	multi=${rest%%:*} rest=${rest#*:}
	large=${rest%%:*} files=${rest#*:}
	$DA --dump "$SAMPLES/$dump.dump" --out-dir "$TMP/default-$dump" > /dev/null 2> "$TMP/default-$dump.err"
	want= big=0 several=0
	for t in "$TMP/$dump"/*-bush-*.txt; do
		[ "$(grep -c '^---- TRACE [0-9]* stop' "$t")" -gt 1 ] || continue
		several=$((several + 1))
		png=${t%.txt}.png
		set -- $(png_size "$png")
		if [ "$1" -le 1024 ] && [ "$2" -le 1024 ]; then
			want="$want$(basename "$png")
"
		else
			big=$((big + 1))
		fi
	done
	want=$(printf '%s' "$want" | sort)
	check "$dump default: $multi bushes of several traces" "$multi" "$several"
	check "$dump default: $large of them larger than 1024 px" "$large" "$big"
	check "$dump default: PNGs of exactly the others" "$want" "$(ls "$TMP/default-$dump" | grep '\.png$' | sort)"
	if [ "$large" -gt 0 ]; then
		check "$dump default: stderr counts those left out" \
			"  pictures left out $(printf %4d "$large")  (bushes larger than 1024 px: --views bush-png draws them, the report zooms)" \
			"$(grep '^  pictures left out' "$TMP/default-$dump.err")"
	else
		check "$dump default: nothing left out, nothing said" "" "$(grep 'left out' "$TMP/default-$dump.err")"
	fi
	check "$dump default: no bush text" "" "$(ls "$TMP/default-$dump" | grep 'bush-.*\.txt$')"
	check "$dump default: $files files" "$files" "$(ls "$TMP/default-$dump" | wc -l)"
	check "$dump default: pictures = named bush-png's" "" \
		"$(cd "$TMP/default-$dump" && for f in *.png; do cmp -s "$f" "$TMP/$dump/$f" || echo "$f"; done)"
done
check "penlight-x default: the files" "files.csv findings.csv gen-1-abort-reasons.csv gen-1-abort-reasons.txt gen-1-abort-sites.csv \
gen-1-blacklist.csv gen-1-bush-22.png gen-1-bush-3.png gen-1-bush-37.png gen-1-bush-38.png \
gen-1-bush-41.png gen-1-bush-5.png gen-1-bush-52.png gen-1-bush-53.png gen-1-bush-6.png gen-1-bush-72.png \
gen-1-exits.csv gen-1-traces.csv manifest.json summary.txt" "$(ls "$TMP/default-penlight-x" | tr '\n' ' ' | sed 's/ $//')"
# Named with the default set, or by "all": every bush again.
$DA -q --views default,bush-png --dump "$SAMPLES/penlight-x.dump" --out-dir "$TMP/default-named"
check "default,bush-png: every bush drawn" 26 "$(ls "$TMP/default-named" | grep -c 'bush-.*\.png$')"
$DA -q --views all --dump "$SAMPLES/penlight-x.dump" --out-dir "$TMP/all"
check "all: every bush drawn, as text, PNG and SVG" "26 26 26" \
	"$(for e in txt png svg; do ls "$TMP/all" | grep -c "bush-.*\.$e\$"; done | tr '\n' ' ' | sed 's/ $//')"

# A run of three or more exits neither taken nor grown from is one row:
# bush 6 of penlight-x shows "6/3-6  4 exits" (its exits 3..6 quiet).
check "penlight-x: bush 6 is 218 px shorter by its runs and tighter rows (614 1171 before)" "602 953" \
	"$(png_size "$TMP/penlight-x/gen-1-bush-6.png")"
# Text and shapes without antialiasing: every unscaled picture has few
# colours and is a palette PNG (colour type 3, byte 25); penlight-x's 26
# pictures were 647,365 bytes as RGB with antialiasing (0.2.0).
check "penlight-x: 26 palette PNGs" 26 \
	"$(for f in "$TMP/penlight-x"/*.png; do od -An -tu1 -j25 -N1 "$f"; done | grep -c ' 3$')"
check "penlight-x: PNG bytes (153,567 at 8 bits a pixel)" 137453 "$(cat "$TMP/penlight-x"/*.png | wc -c)"

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
# The pictures are one queue across generations: flush.dump's 19 bushes
# with side traces lie in 3 generations, and with -j 2 two workers, forked
# once, draw all of them (not one worker a generation, not the run itself).
# Each file is written as .NAME.tmpPID: the PID says which process wrote it.
strace -f -qq -e trace=rename,renameat,renameat2 -o "$TMP/j2.strace" \
	$DA -q -j 2 --views bush-png,traces --dump "$SAMPLES/flush.dump" --out-dir "$TMP/j2" > /dev/null
pids() { sed -n "s/.*\"\.gen-\([0-9]*\)-$1.*\.tmp\([0-9]*\)\".*/\1 \2/p" "$TMP/j2.strace"; }
check "-j 2: 19 pictures renamed into place" 19 "$(pids 'bush-[0-9.]*png' | wc -l)"
check "-j 2: the pictures of 3 generations" 3 "$(pids 'bush-[0-9.]*png' | cut -d' ' -f1 | sort -u | wc -l)"
check "-j 2: drawn by 1 or 2 processes" yes \
	"$(n=$(pids 'bush-[0-9.]*png' | cut -d' ' -f2 | sort -u | wc -l); [ "$n" -ge 1 ] && [ "$n" -le 2 ] && echo yes)"
main_pid=$(pids traces | cut -d' ' -f2 | sort -u)
check "-j 2: traces.csv written by one process" 1 "$(echo "$main_pid" | wc -l)"
check "-j 2: no picture drawn by the run itself" 0 "$(pids 'bush-[0-9.]*png' | cut -d' ' -f2 | grep -cx "$main_pid")"
check "-j 2: the same bytes as -j 1" "" "$(cd "$TMP/j2" && for f in *.png; do cmp -s "$f" "$TMP/j1-flush/$f" || echo "$f"; done)"
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
# Again when runs of quiet exits became one row, and when text and shapes
# lost their antialiasing for palette PNGs (bushes 6 and 23 viewed).
# Again when palettes of 16 colours or fewer went to 4 bits a pixel (the
# same pixels, decoded and compared) and curves were flattened to half a
# pixel (cairo's tolerance 0.5: a few hundred edge pixels of a picture
# moved; bush 6 viewed before and after).
check "penlight-x: PNG bytes as reviewed" 3f1355b7b2b8ddaafcd4efb56099784d7c80c702dd11d895b0292fc6396babec \
	"$(cat "$TMP/penlight-x"/*.png | sha256sum | cut -c1-64)"
finish
