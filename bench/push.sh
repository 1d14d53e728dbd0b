#!/bin/sh
# push.sh — what da_feed costs by the size of its pieces: the same dump
# (samples/templates.dump.xz, four times over: 35 MB, 1.4 M lines) pushed a
# byte, 64 bytes and 4 KiB at a time, against da_open_memory on the same
# bytes; and one 35 MB line without a newline pushed a byte at a time
# against the dump pushed so, which is linear when the unfinished line is
# never scanned again.  farm-bench, medians of 5, ratios A/B in one call.
# Run from the top of the tree after make.
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -std=c11 -Iinclude -o "$tmp/push_pieces" bench/push_pieces.c libdumpanalyze.a \
	$(pkg-config --libs zlib liblzma libzstd) -pthread
xz -dc samples/templates.dump.xz > "$tmp/one.dump"
cat "$tmp/one.dump" "$tmp/one.dump" "$tmp/one.dump" "$tmp/one.dump" > "$tmp/t4.dump"
head -c 35000000 /dev/zero | tr '\0' x > "$tmp/oneline.dump"
for b in 1 64 4096; do
	echo "== pushed $b bytes at a time (A) vs da_open_memory (B)"
	farm-bench -n 5 --timeout 600 --vs "$tmp/push_pieces $tmp/t4.dump 0" -- \
		"$tmp/push_pieces" "$tmp/t4.dump" "$b" | grep -E 'farm-bench|wall s|peak|A/B cpu'
done
echo "== one 35 MB line (A) vs the 35 MB dump (B), both a byte at a time"
farm-bench -n 5 --timeout 600 --vs "$tmp/push_pieces $tmp/t4.dump 1" -- \
	"$tmp/push_pieces" "$tmp/oneline.dump" 1 | grep -E 'wall s|peak|A/B cpu'
