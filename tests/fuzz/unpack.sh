#!/bin/sh
# unpack.sh FILE DIR — a packed output directory (fuzz_compare.c) as the
# files of DIR, by fuzz_compare's rule: a section starts at a line that is
# exactly "==> NAME <==" (NAME 1-64 of [A-Za-z0-9._-], not starting with
# '.'), its bytes run to the next such line; bytes before the first are
# dropped.  For tests/cli/ to replay fuzz_compare's inputs.
set -eu
LC_ALL=C
export LC_ALL
f=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
rm -rf "$2"
mkdir -p "$2/.parts"
head='^==> [A-Za-z0-9_-][A-Za-z0-9._-]\{0,63\} <==$'
(cd "$2/.parts" && csplit -s -z -f part "$f" "/$head/" '{*}') 2> /dev/null || true
for p in "$2"/.parts/part*; do
	[ -f "$p" ] || continue
	name=$(head -n 1 "$p" | grep -x -- "$head" | sed 's/^==> \(.*\) <==$/\1/') || true
	[ -n "$name" ] && tail -n +2 "$p" > "$2/$name"
done
rm -rf "$2/.parts"
