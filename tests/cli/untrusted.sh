#!/bin/sh
# untrusted.sh DUMPANALYZE — --compare trusts nothing it reads: real runs
# of real samples whose files are then damaged as a disk, a careless
# script or an adversary would (a column cut, a count that is not one, a
# sum past 2^63, a FIFO, a device, a link out of the directory, a file
# past its cap, a manifest that lies, escape sequences in names).  Each
# damage must exit 2 with one message naming the file, the row and the
# column, never pass the gate it would have passed before.
SUITE=untrusted
. "$(dirname "$0")/setup.sh"

RULES='new-sites,new-reasons,aborts+10%'    # README's CI rules, and the aborts
$DA -q --views default,bush-txt --dump "$SAMPLES/penlight-x.dump" --out-dir "$TMP/old" > /dev/null
$DA -q --views default,bush-txt --dump "$SAMPLES/luacheck.dump" --out-dir "$TMP/new" > /dev/null
$DA -q --views default,bush-txt --dump "$SAMPLES/flush.dump" --out-dir "$TMP/flush" > /dev/null
$DA -q --dump "$SAMPLES/costly.dump" --profile "$SAMPLES/costly-lvr.prof" --out-dir "$TMP/prof" > /dev/null
$DA -q --views traces,abort-reasons,jsonl --dump "$SAMPLES/penlight-luajit21.dump" --out-dir "$TMP/js" > /dev/null

# damage NAME FROM: D, a copy of the run in FROM to damage.
damage() {
	D=$TMP/$1
	rm -rf "$D"
	cp -rp "$2" "$D"
}

# refused NAME MESSAGE OLD NEW [ARGS]: --compare OLD NEW under the rules
# exits 2 with the one message and no report (a FIFO must not block it:
# timeout only bounds a failure).
refused() {
	name=$1 msg=$2
	shift 2
	timeout -k 5 60 $DA --compare "$@" --fail-on "$RULES" > "$TMP/out" 2> "$TMP/err"
	check "$name: exit 2" 2 $?
	check "$name: message" "$msg" "$(cat "$TMP/err")"
	check "$name: no report" "" "$(cat "$TMP/out")"
}

# The gate on the undamaged runs: luacheck has reasons penlight lacks.
$DA --compare "$TMP/old" "$TMP/new" --fail-on "$RULES" > "$TMP/out"
check "undamaged: the gate trips, exit 1" 1 $?
check "undamaged: says why" "FAIL: new-reasons: 1 new abort reason (costly or worth a look): loop unroll limit reached" \
	"$(grep '^FAIL: new-reasons' "$TMP/out")"
$DA --compare "$TMP/new" "$TMP/new" --fail-on "$RULES" > /dev/null
check "undamaged: a run against itself, exit 0" 0 $?

# ---- A CSV without its COUNT column: it read as 0 aborts, and the gate
# passed over them.
damage nocount "$TMP/new"
sed -i 's/,COUNT\r$/\r/; s/,[0-9]*\r$/\r/' "$D/gen-1-abort-reasons.csv"
check "no COUNT: the column is gone" "REASON" "$(head -1 "$D/gen-1-abort-reasons.csv" | tr -d '\r')"
refused "no COUNT" "dumpanalyze: $D/gen-1-abort-reasons.csv: row 1: no column COUNT" "$TMP/old" "$D"
refused "no COUNT, as OLD" "dumpanalyze: $D/gen-1-abort-reasons.csv: row 1: no column COUNT" "$D" "$TMP/old"
timeout -k 5 60 $DA --compare "$TMP/old" "$D" --json > "$TMP/out" 2> /dev/null
check "no COUNT: --json, exit 2 and no JSON" "2 0" "$? $(wc -c < "$TMP/out")"

# ---- An unknown column (a renamed one).
damage unknown "$TMP/new"
sed -i '1s/,COUNT\r$/,COUNTS\r/' "$D/gen-1-abort-reasons.csv"
refused "unknown column" "dumpanalyze: $D/gen-1-abort-reasons.csv: row 1, column 2: unknown column 'COUNTS'" \
	"$TMP/old" "$D"
damage extra "$TMP/new"
sed -i '1s/\r$/,WEIGHT\r/; 2,$s/\r$/,1\r/' "$D/gen-1-abort-reasons.csv"
refused "an added column" "dumpanalyze: $D/gen-1-abort-reasons.csv: row 1, column 3: unknown column 'WEIGHT'" \
	"$TMP/old" "$D"

# ---- A count that is not a number, a negative one, ones past 2^63-1.
damage nan "$TMP/new"
sed -i '3s/,[0-9]*\r$/,12x\r/' "$D/gen-1-abort-reasons.csv"
refused "not a number" "dumpanalyze: $D/gen-1-abort-reasons.csv: row 3, column COUNT: '12x' is not a number" \
	"$TMP/old" "$D"
damage neg "$TMP/new"
sed -i '2s/,[0-9]*\r$/,-5\r/' "$D/gen-1-abort-reasons.csv"
refused "negative" "dumpanalyze: $D/gen-1-abort-reasons.csv: row 2, column COUNT: '-5' is negative" \
	"$TMP/old" "$D"
damage big "$TMP/new"
sed -i '2s/,[0-9]*\r$/,18446744073709551611\r/' "$D/gen-1-abort-reasons.csv"
refused "2^64-5" "dumpanalyze: $D/gen-1-abort-reasons.csv: row 2, column COUNT: '18446744073709551611' is more than 2^63-1" \
	"$TMP/old" "$D"
damage big63 "$TMP/new"
sed -i '2s/,[0-9]*\r$/,9223372036854775808\r/' "$D/gen-1-abort-reasons.csv"
refused "2^63" "dumpanalyze: $D/gen-1-abort-reasons.csv: row 2, column COUNT: '9223372036854775808' is more than 2^63-1" \
	"$TMP/old" "$D"

# ---- Counts that sum past 2^63-1: in one file (2^64-1 and 2 wrapped to
# "23 -> 1"), and over the generations of flush.dump.
damage sum "$TMP/new"
sed -i '2s/,[0-9]*\r$/,9223372036854775807\r/; 3s/,[0-9]*\r$/,9223372036854775807\r/' "$D/gen-1-abort-reasons.csv"
check "sum: row 4 has a count" yes "$([ "$(sed -n '4s/.*,\([0-9]*\)\r$/\1/p' "$D/gen-1-abort-reasons.csv")" -gt 0 ] && echo yes)"
refused "sum in one file" "dumpanalyze: $D/gen-1-abort-reasons.csv: row 3, column COUNT: the counts sum past 2^63-1" \
	"$TMP/old" "$D"
damage gensum "$TMP/flush"
check "sum over generations: gen-2 has an abort reason" 2 "$(wc -l < "$D/gen-2-abort-reasons.csv")"
printf 'REASON,COUNT\r\nNYI: bytecode 71,9223372036854775807\r\n' > "$D/gen-1-abort-reasons.csv"
refused "sum over generations" "dumpanalyze: $D/gen-2-abort-reasons.csv: row 2, column COUNT: the counts sum past 2^63-1" \
	"$TMP/flush" "$D"
damage sitesum "$TMP/new"
sed -i '2s/^\(\([^,]*,\)\{7\}\)[0-9]*,/\19223372036854775807,/' "$D/gen-1-abort-sites.csv"
check "sites: the count set" 9223372036854775807 "$(sed -n '2p' "$D/gen-1-abort-sites.csv" | cut -d, -f8)"
refused "sites' sum" "dumpanalyze: $D/gen-1-abort-sites.csv: row 3, column COUNT: the counts sum past 2^63-1" \
	"$TMP/old" "$D"

# ---- Sites, traces and profile lines.
damage line "$TMP/new"
sed -i '2s/^\([^,]*\),[0-9]*,/\1,-3,/' "$D/gen-1-abort-sites.csv"
refused "a negative line" "dumpanalyze: $D/gen-1-abort-sites.csv: row 2, column LINE: '-3' is negative" \
	"$TMP/old" "$D"
damage short "$TMP/new"
sed -i '3s/,[0-9]*\r$/\r/' "$D/gen-1-traces.csv"
refused "a short row" "dumpanalyze: $D/gen-1-traces.csv: row 3: 6 fields, the header has 7" "$TMP/old" "$D"
damage id "$TMP/new"
sed -i '4s/^[0-9]*,/x,/' "$D/gen-1-traces.csv"
refused "a trace ID" "dumpanalyze: $D/gen-1-traces.csv: row 4, column ID: 'x' is not a number" "$TMP/old" "$D"
damage quote "$TMP/new"
sed -i '5s/^/"/' "$D/gen-1-traces.csv"
refused "an unclosed quote" "dumpanalyze: $D/gen-1-traces.csv: row 5: not valid CSV (error parsing data while strict checking enabled)" \
	"$TMP/old" "$D"
damage samples "$TMP/prof"
sed -i '2s/^\([^,]*,[0-9]*\),[0-9]*,/\1,nan,/' "$D/profile-lines.csv"
refused "profile: SAMPLES" "dumpanalyze: $D/profile-lines.csv: row 2, column SAMPLES: 'nan' is not a number" \
	"$TMP/prof" "$D"
damage interp "$TMP/prof"
cut -d, -f1-3 "$TMP/prof/profile-lines.csv" > "$D/profile-lines.csv"
refused "profile: no INTERPRETED" "dumpanalyze: $D/profile-lines.csv: row 1: no column INTERPRETED" "$TMP/prof" "$D"

# ---- findings.csv (new-sites reads it) and the fingerprints.
damage sev "$TMP/new"
sed -i '2s/,costly,/,cheap,/' "$D/findings.csv"
refused "findings: a severity" "dumpanalyze: $D/findings.csv: row 2, column SEVERITY: 'cheap' is not costly, worth-a-look or harmless" \
	"$TMP/old" "$D"
damage ident "$TMP/new"
sed -i '2s/,v1|/,v9|/' "$D/findings.csv"
refused "findings: an identity" "dumpanalyze: $D/findings.csv: row 2, column IDENTITY: 'v9|exit|core_utils.lua|NYIBC|o:0' is not an identity (v1|...)" \
	"$TMP/old" "$D"
damage fattempts "$TMP/new"
sed -i '2s/^\(\([^,]*,\)\{10\}\)[0-9]*,/\1many,/' "$D/findings.csv"
refused "findings: ATTEMPTS" "dumpanalyze: $D/findings.csv: row 2, column ATTEMPTS: 'many' is not a number" \
	"$TMP/old" "$D"
damage fnone "$TMP/new"
rm "$D/findings.csv"
sed -i 's/"findings.csv", *//; s/, *"findings.csv"//' "$D/manifest.json"
refused "findings: the file gone from the manifest too" \
	"dumpanalyze: $D/manifest.json: the view findings was rendered but the manifest does not list findings.csv" \
	"$TMP/old" "$D"
damage fp "$TMP/new"
sed -i '2s/,\r$/,ZZZZ\r/' "$D/gen-1-abort-sites.csv"
refused "a FINGERPRINT" "dumpanalyze: $D/gen-1-abort-sites.csv: row 2, column FINGERPRINT: 'ZZZZ' is not a fingerprint (12 hex digits)" \
	"$TMP/old" "$D"

# ---- A CSV field is held whole by libcsv: a row is capped at 64 MiB, as
# a line is, so a 70 MB reason is refused once 64 MiB of it are read.
damage bigrow "$TMP/new"
{ head -n 1 "$D/gen-1-abort-reasons.csv"; printf '"'; head -c 70000000 /dev/zero | tr '\0' x
  printf '",3\r\n'; } > "$TMP/bigrow.csv" && mv "$TMP/bigrow.csv" "$D/gen-1-abort-reasons.csv"
$DA_BIN --compare "$TMP/old" "$D" > "$TMP/out" 2> "$TMP/err"   # 70 MB through valgrind: minutes
check "a 70 MB field: exit 2" 2 $?
check "a 70 MB field: message" \
	"dumpanalyze: $D/gen-1-abort-reasons.csv: row 2: a row longer than 67108864 bytes, more than any dumpanalyze writes" \
	"$(cat "$TMP/err")"
rm -rf "$D"

# ---- Only regular files: a FIFO blocked the comparison for ever.
damage fifo "$TMP/new"
rm "$D/gen-1-traces.csv" && mkfifo "$D/gen-1-traces.csv"
refused "a FIFO" "dumpanalyze: $D/gen-1-traces.csv: not a regular file (a FIFO)" "$TMP/old" "$D"
damage fifoman "$TMP/new"
rm "$D/manifest.json" && mkfifo "$D/manifest.json"
refused "a FIFO manifest" "dumpanalyze: $D/manifest.json: not a regular file (a FIFO)" "$TMP/old" "$D"
damage dir "$TMP/new"
rm "$D/gen-1-abort-sites.csv" && mkdir "$D/gen-1-abort-sites.csv"
refused "a directory" "dumpanalyze: $D/gen-1-abort-sites.csv: not a regular file (a directory)" "$TMP/old" "$D"
if [ "$(id -u)" -eq 0 ]; then
	damage dev "$TMP/new"
	rm "$D/gen-1-traces.csv" && mknod "$D/gen-1-traces.csv" c 1 5     # /dev/zero's numbers
	refused "a device" "dumpanalyze: $D/gen-1-traces.csv: not a regular file (a character device)" "$TMP/old" "$D"
else
	echo "skip - a device in the directory (mknod needs root)"
fi

# ---- Symbolic links: within the directory they are followed; out of it
# (to another run's file, to a device) never.
damage linkin "$TMP/new"
mv "$D/gen-1-abort-reasons.csv" "$D/kept.csv" && ln -s kept.csv "$D/gen-1-abort-reasons.csv"
$DA --compare "$TMP/old" "$D" > "$TMP/out" 2> "$TMP/err"
check "a link within: exit 0" "0 " "$? $(cat "$TMP/err")"
$DA --compare "$TMP/old" "$TMP/new" > "$TMP/ref"
# (the report below its first line, which names the directories)
check "a link within: the same report" "$(tail -n +2 "$TMP/ref")" "$(tail -n +2 "$TMP/out")"
check "a link within: a report" 1 "$(grep -c '^  abort reasons:' "$TMP/out")"
damage linkout "$TMP/new"
rm "$D/gen-1-abort-reasons.csv" && ln -s "$TMP/old/gen-1-abort-reasons.csv" "$D/gen-1-abort-reasons.csv"
refused "a link out" "dumpanalyze: $D/gen-1-abort-reasons.csv: a symbolic link leading out of $D" "$TMP/old" "$D"
damage linkdev "$TMP/new"
rm "$D/gen-1-traces.csv" && ln -s /dev/zero "$D/gen-1-traces.csv"
refused "a link to /dev/zero" "dumpanalyze: $D/gen-1-traces.csv: a symbolic link leading out of $D" "$TMP/old" "$D"
damage linkup "$TMP/new"
rm "$D/gen-1-traces.csv" && ln -s ../old/gen-1-traces.csv "$D/gen-1-traces.csv"
refused "a link through .." "dumpanalyze: $D/gen-1-traces.csv: a symbolic link leading out of $D" "$TMP/old" "$D"
damage linkman "$TMP/new"
rm "$D/manifest.json" && ln -s "$TMP/old/manifest.json" "$D/manifest.json"
refused "a manifest linked out" "dumpanalyze: $D/manifest.json: a symbolic link leading out of $D" "$TMP/old" "$D"
# a dump of several whose subdirectory leads out
$DA -q --dump "$SAMPLES/rsx.dump" --dump "$SAMPLES/flush.dump" --out-dir "$TMP/m1" > /dev/null 2>&1
damage m2 "$TMP/m1"
rm -r "$D/rsx.dump" && ln -s "$TMP/m1/rsx.dump" "$D/rsx.dump"
refused "several: a dump's directory linked out" "dumpanalyze: $D/rsx.dump: a symbolic link leading out of $D" \
	"$TMP/m1" "$D"

# ---- Size caps (sparse files: the size is refused before a byte is read).
damage huge "$TMP/new"
truncate -s 1073741825 "$D/gen-1-traces.csv"
refused "a file past 1 GiB" "dumpanalyze: $D/gen-1-traces.csv: 1073741825 bytes, more than the 1 GiB such a file may have" \
	"$TMP/old" "$D"
damage hugeman "$TMP/new"
truncate -s 67108865 "$D/manifest.json"
refused "a manifest past 64 MiB" "dumpanalyze: $D/manifest.json: 67108865 bytes, more than the 64 MiB such a file may have" \
	"$TMP/old" "$D"
damage longline "$TMP/js"
head -c 67108865 /dev/zero | tr '\0' ' ' >> "$D/gen-1.jsonl"
lines=$(wc -l < "$D/gen-1.jsonl")
refused "a jsonl line past 64 MiB" "dumpanalyze: $D/gen-1.jsonl: line $((lines + 1)) is longer than 64 MiB" "$TMP/js" "$D"

# ---- A manifest that lies or is not one.
damage man "$TMP/new"
M=$D/manifest.json
cp "$M" "$TMP/manifest.good"
mangle() { jq "$1" "$TMP/manifest.good" > "$M"; }
printf '{"tool": "dumpanalyze",' > "$M"
refused "manifest: not JSON" "dumpanalyze: $M: not JSON (line 1, column 23: string or '}' expected near end of file)" "$TMP/old" "$D"
mangle '.files = "gen-1-traces.csv"'
refused "manifest: files not a list" "dumpanalyze: $M: \"files\" is not a list" "$TMP/old" "$D"
mangle '.files += ["../old/gen-1-traces.csv"]'
refused "manifest: a path out" "dumpanalyze: $M: \"files\" item $(($(jq '.files | length' "$TMP/manifest.good") + 1)), '../old/gen-1-traces.csv', is not the name of an entry of the directory" "$TMP/old" "$D"
mangle '.files += [.files[0]]'
refused "manifest: a name twice" "dumpanalyze: $M: \"files\" names '$(jq -r '.files | sort | .[0]' "$TMP/manifest.good")' twice" "$TMP/old" "$D"
mangle '.format = 99'
refused "manifest: a newer format" "dumpanalyze: $M: \"format\" 99 is not one this dumpanalyze reads (1 to 1)" "$TMP/old" "$D"
mangle '.complete = "yes"'
refused "manifest: complete" "dumpanalyze: $M: \"complete\" is not true or false" "$TMP/old" "$D"
mangle 'del(.views)'
refused "manifest: no views" "dumpanalyze: $M: \"views\" is missing, it should be a list" "$TMP/old" "$D"
mangle '.jit_events = "no"'
refused "manifest: jit_events" "dumpanalyze: $M: \"jit_events\" is not true or false" "$TMP/old" "$D"
mangle '.tool = "other"'
refused "manifest: another tool's" "dumpanalyze: $M: not a dumpanalyze manifest (no \"tool\": \"dumpanalyze\")" "$TMP/old" "$D"
sed 's/^{/{"views": [],/' "$TMP/manifest.good" > "$M"
refused "manifest: a key twice" "dumpanalyze: $M: not JSON (line 16, column 8: duplicate object key near '\"views\"')" "$TMP/old" "$D"
mangle '.files -= ["gen-1-abort-reasons.csv"]'
refused "manifest: a rendered view's file unlisted" "dumpanalyze: $D/manifest.json: the view abort-reasons was rendered but the manifest does not list gen-1-abort-reasons.csv" "$TMP/old" "$D"
cp "$TMP/manifest.good" "$M"
rm "$D/gen-1-abort-sites.csv"
refused "manifest: a listed file missing" "dumpanalyze: $D/gen-1-abort-sites.csv: No such file or directory" "$TMP/old" "$D"
cp "$TMP/old/gen-1-abort-sites.csv" "$D/"
mangle '.files += ["gen-1-bush-\u001b]0;x\u0007.txt"]'
refused "manifest: an escape in a missing file's name" "dumpanalyze: $D/gen-1-bush-\\x1b]0;x\\x07.txt: No such file or directory" "$TMP/old" "$D"
check "manifest: no escape byte on stderr" 0 "$(tr -cd '\033\007' < "$TMP/err" | wc -c)"

# ---- Bushes' files.
damage bush "$TMP/new"
b=$(ls "$D" | grep -m1 '^gen-1-bush-.*\.txt$')
sed -i '1s/.*/print: hello/' "$D/$b"
refused "bush text: not a trace" "dumpanalyze: $D/$b: line 1 is not the start of a trace (---- TRACE N start)" "$TMP/old" "$D"
damage jsonl "$TMP/js"
sed -i '3s/.*/{"type":"trace","id":"x"}/' "$D/gen-1.jsonl"
refused "jsonl: a trace without its fields" "dumpanalyze: $D/gen-1.jsonl: line 3: a trace without \"id\", \"bush_root\", \"bush_dup\" or \"loc\"" "$TMP/js" "$D"
sed -i '3s/.*/not json/' "$D/gen-1.jsonl"
refused "jsonl: not JSON" "dumpanalyze: $D/gen-1.jsonl: line 3: not a JSON object of dumpanalyze's ('[' or '{' expected near 'not')" "$TMP/js" "$D"

# ---- Escape sequences in names: escaped in the text, plain JSON in --json.
damage esc "$TMP/new"
reason=$(printf '\033]0;pwned\007\033[2JNYI: x')
printf '"%s",5\r\n' "$reason" >> "$D/gen-1-abort-reasons.csv"
printf '"x.lua\nFAIL: 0 forged",7,"%s",,,,,5,"%s",,,,\r\n' "$reason" "$reason" >> "$D/gen-1-abort-sites.csv"
$DA --compare "$TMP/old" "$D" > "$TMP/out" 2> "$TMP/err"
check "escapes: exit 0" "0 " "$? $(cat "$TMP/err")"
check "escapes: no escape byte reaches the terminal" 0 "$(tr -cd '\033\007\233' < "$TMP/out" | wc -c)"
check "escapes: the reason, escaped" '    new         0 -> 5      \x1b]0;pwned\x07\x1b[2JNYI: x' \
	"$(grep -F 'pwned' "$TMP/out" | grep -v '\.lua')"
check "escapes: the chunk name's newline, escaped" '    new         0 -> 5      x.lua\nFAIL: 0 forged:7  \x1b]0;pwned\x07\x1b[2JNYI: x' \
	"$(grep -F 'forged' "$TMP/out")"
check "escapes: no forged FAIL line" 0 "$(grep -c '^FAIL: 0' "$TMP/out")"
$DA --compare "$TMP/old" "$D" --json > "$TMP/esc.json"
check "escapes: JSON, the reason as it was" "$reason" \
	"$(jq -r '.dumps[0].reasons[] | select(.old == 0 and .new == 5) | .reason' "$TMP/esc.json")"
check "escapes: JSON, the file as it was" "$(printf 'x.lua\nFAIL: 0 forged')" \
	"$(jq -r '.dumps[0].sites[] | select(.new_line == 7) | .file' "$TMP/esc.json")"
check "escapes: JSON-escaped in the text (reason, site)" 2 "$(grep -c '"\\u001B\]0;pwned\\u0007\\u001B\[2JNYI: x"' "$TMP/esc.json")"
finish
