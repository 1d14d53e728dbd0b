#!/bin/sh
# png-sum.sh PNG — "WIDTH HEIGHT SHA256" of a picture: what a golden case
# keeps for it (update-golden.sh writes NAME.png.sum, golden.sh compares).
# Same drawing, same bytes (src/draw/picture.c), so the file's hash
# stands for its pixels; the size says at a glance what changed.
[ -f "$1" ] || { echo "no file $1"; exit 1; }
size=$(od -An -tu1 -j16 -N8 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4, $5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }')
echo "$size $(sha256sum < "$1" | cut -c1-64)"
