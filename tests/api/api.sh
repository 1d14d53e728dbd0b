#!/bin/sh
# api.sh DUMPANALYZE — libdumpanalyze as its users get it: installed under
# a scratch prefix, the examples of samples/api/ built from what
# pkg-config says alone (shared and static) and the LuaJIT FFI one run,
# their numbers checked against the tool's own CSV files on real dumps.
SUITE=api
. "$(dirname "$0")/../cli/setup.sh"

prefix=$TMP/prefix lib=$TMP/prefix/lib ex=$TOP/samples/api
PKG_CONFIG_PATH=$lib/pkgconfig
export PKG_CONFIG_PATH
# A real prefix, not DESTDIR: the .pc file names where things are.
make -s -C "$TOP" install PREFIX="$prefix" > "$TMP/install.log" 2>&1
check "make install PREFIX=" 0 $?
check "pkg-config: version = the tool's" "$("$DA_BIN" --version)" \
	"dumpanalyze $(pkg-config --modversion dumpanalyze)"
check "pkg-config: cflags are the prefix's include only" "-I$prefix/include" \
	"$(pkg-config --cflags dumpanalyze | sed "s/ *$//")"
check "man page dumpanalyze(3) installed" yes \
	"$([ -s "$prefix/share/man/man3/dumpanalyze.3" ] && echo yes)"
check "pkg-config: version = the installed header's DA_VERSION_STRING" \
	"$(pkg-config --modversion dumpanalyze)" \
	"$(sed -n 's/^#define DA_VERSION_STRING "\(.*\)"$/\1/p' "$prefix/include/dumpanalyze.h")"

# A sanitizer build (make check-asan) makes an instrumented library: its
# users build with the same runtime, and luajit loads it first, without
# leak checking, whose tracer crashes in luajit (the C examples and the
# unit tests check the library's leaks).
san= luaenv=
if readelf -d "$lib/libdumpanalyze.so" | grep -q 'NEEDED.*libasan'; then
	san=-fsanitize=address,undefined
	luaenv="LD_PRELOAD=$(cc -print-file-name=libasan.so):$(cc -print-file-name=libubsan.so)"
	luaenv="$luaenv ASAN_OPTIONS=detect_leaks=0"
fi
vg=
[ -n "${DA_VALGRIND:-}" ] &&
	vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"

# ---- building against the installed library only ------------------------

warn="-std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes"
for name in abort_files abort_reasons push_exits fix_first; do
	# shellcheck disable=SC2046 # pkg-config's words are separate flags
	cc $warn $san -o "$TMP/$name" "$ex/$name.c" $(pkg-config --cflags --libs dumpanalyze) \
		> "$TMP/$name.cc" 2>&1
	check "$name.c builds with pkg-config alone, warning-free" "0 " "$? $(cat "$TMP/$name.cc")"
	check "$name: linked to the soname" "libdumpanalyze.so.2" \
		"$(readelf -d "$TMP/$name" | sed -n 's/.*NEEDED.*\[\(libdumpanalyze[^]]*\)\]/\1/p')"
done
# Statically: the archive by its path, the rest from pkg-config --static.
# shellcheck disable=SC2046
cc $warn $san -o "$TMP/abort_files_static" "$ex/abort_files.c" $(pkg-config --cflags dumpanalyze) \
	"$lib/libdumpanalyze.a" $(pkg-config --static --libs dumpanalyze | sed 's/-ldumpanalyze//') \
	> "$TMP/static.cc" 2>&1
check "abort_files.c links statically" "0 " "$? $(cat "$TMP/static.cc")"
check "the static one needs no libdumpanalyze.so" "" \
	"$(readelf -d "$TMP/abort_files_static" | grep 'NEEDED.*libdumpanalyze')"

# ---- what the library exports -------------------------------------------

# The functions of the public header, by name.
sed -n 's/^DA_API [^(]*[ *]\(da_[a-z0-9_]*\)(.*/\1/p' "$TOP/include/dumpanalyze.h" | sort > "$TMP/api.names"
check "dumpanalyze.h declares functions" yes "$([ "$(wc -l < "$TMP/api.names")" -gt 20 ] && echo yes)"
nm -g --defined-only "$lib/libdumpanalyze.a" | awk 'NF == 3 { print $2, $3 }' | sort -k2 > "$TMP/a.syms"
check "static archive: only da_ global symbols" "" "$(grep -v ' da_' "$TMP/a.syms")"
awk '$1 == "T" { print $2 }' "$TMP/a.syms" > "$TMP/a.names"
check_file "static archive: its text symbols are the header's functions" "$TMP/api.names" "$TMP/a.names"
nm -D --defined-only "$lib"/libdumpanalyze.so* | awk 'NF == 3 { print $2, $3 }' | sort -u -k2 > "$TMP/so.syms"
check "shared library: only da_ names exported" "" "$(grep -v ' da_' "$TMP/so.syms")"
awk '$1 == "T" { print $2 }' "$TMP/so.syms" > "$TMP/so.names"
check_file "shared library: its functions are the header's" "$TMP/api.names" "$TMP/so.names"
check "shared library: soname" "libdumpanalyze.so.2" \
	"$(readelf -d "$lib/libdumpanalyze.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')"

# The man page: every function named, no troff warning at groff's width.
missing=
while read -r f; do
	grep -q "^\.BR* $f\b\|[ (*]$f(" "$TOP/man/dumpanalyze.3" || missing="$missing $f"
done < "$TMP/api.names"
check "dumpanalyze.3 names every function of the header" "" "$missing"
missing=
for m in $(sed -n 's/^#define \(DA_[A-Z0-9_]*\).*/\1/p' "$TOP/include/dumpanalyze.h" | grep -v '^DA_API$'); do
	grep -q "$m" "$TOP/man/dumpanalyze.3" || missing="$missing $m"
done
check "dumpanalyze.3 names every macro of the header" "" "$missing"
missing=
for f in DA_CALLBACK_ONLY trace_file trace_line resume_file resume_line orphans; do
	grep -q "$f" "$TOP/man/dumpanalyze.3" || missing="$missing $f"
done
check "dumpanalyze.3 names the new flag and fields" "" "$missing"
check "dumpanalyze.3 renders without a warning" "" \
	"$(groff -man -Tutf8 -ww -z "$TOP/man/dumpanalyze.3" 2>&1)"

# ---- the numbers, against the tool's CSV files ---------------------------

gzip -c "$SAMPLES/penlight-x.dump" > "$TMP/penlight-x.dump.gz"
gens_total=0 rows_total=0 files_total=0
for dump in penlight-x.dump flush.dump luajit2.dump costly.dump jv.dump luacheck.dump chunknames.dump \
            hostile.dump "$TMP/penlight-x.dump.gz"; do
	case $dump in /*) path=$dump ;; *) path=$SAMPLES/$dump ;; esac
	name=$(basename "$dump")
	out=$TMP/out-$name
	$DA -q --views abort-reasons,abort-sites --dump "$path" --out-dir "$out" > /dev/null
	check "$name: the tool's exit status" 0 $?

	# Reasons per generation: each gen-N-abort-reasons.csv's rows, with
	# N in front (records end in CRLF; a quoted field may hold a LF).
	gens=$(ls "$out" | grep -c '^gen-[0-9]*-abort-reasons\.csv$')
	n=1
	{
		printf 'GEN,REASON,COUNT\r\n'
		while [ "$n" -le "$gens" ]; do
			awk -v g="$n" 'BEGIN { RS = "\r\n"; ORS = "\r\n" } NR > 1 { print g "," $0 }' \
				"$out/gen-$n-abort-reasons.csv"
			n=$((n + 1))
		done
	} > "$TMP/$name.reasons"
	rows=$(awk 'BEGIN { RS = "\r\n" } END { print NR - 1 }' "$TMP/$name.reasons")
	check "$name: generations and reason rows to compare" yes \
		"$([ "$gens" -gt 0 ] && [ "$rows" -gt 0 ] && echo yes)"
	gens_total=$((gens_total + gens)) rows_total=$((rows_total + rows))
	LD_LIBRARY_PATH=$lib $vg "$TMP/abort_reasons" "$path" > "$TMP/$name.reasons.c"
	check "$name: abort_reasons exit status" 0 $?
	check_file "$name: abort_reasons = gen-N-abort-reasons.csv ($gens gens, $rows rows)" \
		"$TMP/$name.reasons" "$TMP/$name.reasons.c"

	# Aborts per file: COUNT summed by FILE (the first field, maybe
	# quoted) over every gen-N-abort-sites.csv, sorted as the examples do.
	cat "$out"/gen-*-abort-sites.csv | awk '
		BEGIN { RS = "\r\n" }
		/^FILE,LINE,REASON,/ { next }
		{
			# COUNT is last once NORMAL_REASON,ERROR,FIRST_LINE,LAST_LINE,
			# FINGERPRINT go
			sub(/,("([^"]|"")*"|[^,"]*),[A-Z0-9]*,[0-9]+,[0-9]+,[0-9a-f]*$/, "")
			if (substr($0, 1, 1) == "\"") {
				f = ""
				for (i = 2; ; i++) {
					c = substr($0, i, 1)
					if (c == "\"" && substr($0, i + 1, 1) != "\"")
						break
					if (c == "\"")
						i++
					f = f c
				}
			} else {
				f = substr($0, 1, index($0, ",") - 1)
			}
			match($0, /[0-9]+$/)
			count[f] += substr($0, RSTART)
		}
		END { for (f in count) printf "%d %s%c", count[f], f, 0 }' |
		sort -z -t ' ' -k1,1nr -k2 | tr '\0' '\n' > "$TMP/$name.files"
	nfiles=$(grep -c '^[0-9]* ' "$TMP/$name.files")
	check "$name: files to compare" yes "$([ "$nfiles" -gt 0 ] && echo yes)"
	files_total=$((files_total + nfiles))
	check "$name: their counts add up to the abort lines" \
		"$(zcat -f "$path" | grep -c -e '^---- TRACE [0-9]* abort ' -e '^\[TRACE --- ')" \
		"$(awk '/^[0-9]+ / { s += $1 } END { print s + 0 }' "$TMP/$name.files")"
	LD_LIBRARY_PATH=$lib $vg "$TMP/abort_files" "$path" > "$TMP/$name.files.c"
	check "$name: abort_files exit status" 0 $?
	check_file "$name: abort_files = abort-sites.csv by file" "$TMP/$name.files" "$TMP/$name.files.c"
	$vg "$TMP/abort_files_static" "$path" > "$TMP/$name.files.static"
	check_file "$name: abort_files linked statically, the same" "$TMP/$name.files" "$TMP/$name.files.static"
	# shellcheck disable=SC2086 # luaenv is assignments, one a word
	env $luaenv LD_LIBRARY_PATH="$lib" luajit "$ex/abort_files.lua" "$path" > "$TMP/$name.files.lua"
	check "$name: abort_files.lua exit status" 0 $?
	check_file "$name: abort_files.lua = abort-sites.csv by file" "$TMP/$name.files" "$TMP/$name.files.lua"
done
check "flush.dump: 4 generations compared" 4 "$(ls "$TMP/out-flush.dump" | grep -c 'abort-reasons\.csv$')"
echo "       compared: $gens_total generations, $rows_total reason rows, $files_total file counts"

# ---- the LuaJIT example's declarations are the header's --------------------

luajit "$TOP/tests/api/cdef.lua" "$prefix/include/dumpanalyze.h" "$ex/abort_files.lua" > "$TMP/cdef.out"
status=$?
check "abort_files.lua: its ffi.cdef is the installed header's (15 declarations)" \
	"0 15 declarations as in the header" "$status $(cat "$TMP/cdef.out")"
# and the check sees a difference: a field of another type
sed 's/^	size_t size;$/	unsigned size;/' "$ex/abort_files.lua" > "$TMP/changed.lua"
luajit "$TOP/tests/api/cdef.lua" "$prefix/include/dumpanalyze.h" "$TMP/changed.lua" > "$TMP/cdef.bad"
status=$?
check "cdef.lua: a declaration unlike the header's is refused" \
	"1 not in the header: struct da_options{unsigned size;" \
	"$status $(grep -o '^not in the header: struct da_options{unsigned size;' "$TMP/cdef.bad")"

# ---- push_exits: a dump fed in pieces from a pipe --------------------------

pushed=0 resumed=0 hot=0
for dump in penlight-x.dump flush.dump luajit2.dump late.dump blacklist-luajit21.dump; do
	out=$TMP/push-$dump
	$DA -q --views summary,exits,jsonl --dump "$SAMPLES/$dump" --out-dir "$out" > /dev/null 2>&1
	check "$dump: the tool's exit status" 0 $?
	# The summary's per-generation lines.
	sed -n '/^per generation$/,/^$/p' "$out/summary.txt" | grep '^  gen ' > "$TMP/$dump.gens"
	# Every exit the tool counted: "GEN TRACE/EXIT COUNT SIDE", a trace's
	# rows of one exit summed (taken before and after it was known).
	for f in "$out"/gen-*-exits.csv; do
		g=${f##*/gen-} g=${g%%-*}
		tr -d '\r' < "$f" | awk -F, -v g="$g" 'NR > 1 { k = $1 "/" $2; c[k] += $3; if ($4 != "") s[k] = $4 }
			END { for (k in c) print g, k, c[k], (k in s ? s[k] : 0) }'
	done | sort -k3,3nr > "$TMP/$dump.exits"
	# Every trace's start: "GEN ID FILE:LINE" (jsonl).
	cat "$out"/gen-*.jsonl | jq -r 'select(.type == "trace") | "\(.gen) \(.id) \(.file):\(.line)"' \
		> "$TMP/$dump.starts"
	# Piped whole, one byte per read, 7 bytes, and gzip'd in 100-byte reads.
	for how in "cat:65536" "cat:1" "cat:7" "gzip -c:100"; do
		cmd=${how%:*} b=${how#*:}
		$cmd "$SAMPLES/$dump" | LD_LIBRARY_PATH=$lib $vg "$TMP/push_exits" -b "$b" > "$TMP/push.out"
		check "$dump | $cmd, $b bytes a read: push_exits exit status" 0 $?
		sed -n '/^per generation$/,/^$/p' "$TMP/push.out" | grep '^  gen ' > "$TMP/push.gens"
		check_file "$dump | $cmd -b $b: per generation = summary.txt's" "$TMP/$dump.gens" "$TMP/push.gens"
		# "  gen G exit T/E taken C [side trace S] [→ FILE:LINE]"
		sed -n '/^hottest exits$/,/^$/p' "$TMP/push.out" | grep '^  gen ' |
			sed 's/^  gen \([0-9]*\) *exit *\([0-9/]*\) *taken *\([0-9]*\)\(  side trace \([0-9]*\)\)\{0,1\}\(  → \(.*\)\)\{0,1\}$/\1 \2 \3 s\5 @\7/' \
			> "$TMP/push.hot"
		bad=
		while read -r g te c side at; do
			side=${side#s} at=${at#@}
			grep -qx "$g $te $c ${side:-0}" "$TMP/$dump.exits" || bad="$bad $g:$te:$c:${side:-0}"
			[ -z "$at" ] || grep -qx "$g ${te%/*} $at" "$TMP/$dump.starts" || bad="$bad $te@$at"
		done < "$TMP/push.hot"
		check "$dump | $cmd -b $b: hottest exits = exits.csv's rows, places = the traces' starts" "" "$bad"
		n=$(wc -l < "$TMP/push.hot")
		check "$dump | $cmd -b $b: they are the $n most taken" \
			"$(head -n "$n" "$TMP/$dump.exits" | cut -d' ' -f3 | tr '\n' ' ')" \
			"$(cut -d' ' -f3 "$TMP/push.hot" | tr '\n' ' ')"
		hot=$((hot + n))
		pushed=$((pushed + 1))
	done
	# Where each hottest exit resumes: the first trace or attempt the dump
	# starts from it, in that generation (these dumps: one generation, or
	# checked in the first).
	sed -n '/^where they resume$/,$p' "$TMP/push.out" | grep '^  gen 1 ' |
	while read -r _ _ _ te _ _ at; do
		printf '%s %s\n' "$te" "$at"
	done > "$TMP/push.resume"
	awk '/^---- TRACE flush/ { exit } $3 ~ /^[0-9]+$/ && $4 == "start" && $5 ~ /^[0-9]+\/[0-9]+$/ && !seen[$5]++ { print $5, $6 }' \
		"$SAMPLES/$dump" > "$TMP/dump.starts"
	n=0 bad=
	while read -r te at; do
		n=$((n + 1))
		grep -qx "$te $at" "$TMP/dump.starts" || bad="$bad $te:$at"
	done < "$TMP/push.resume"
	check "$dump: every resume place printed is the first start from that exit" "" "$bad"
	[ "$dump" = late.dump ] && check "late.dump: exit 1/5 resumes where the orphan trace 2 starts" \
		"1/5 late.lua:9" "$(grep '^1/5 ' "$TMP/push.resume")"
	resumed=$((resumed + n))
done
ran "push_exits runs compared with the tool's summary" "$pushed" 20
ran "hottest exits checked" "$hot"
ran "resume places checked against the dumps' start lines" "$resumed"

# ---- the findings ----------------------------------------------------------

# fix_first.c against the tool's findings.csv of the same dump, profile and
# source: rank, ID and samples (the columns before ADVICE quote nothing here).
"$TOP/dumpanalyze" -q --views findings --dump "$SAMPLES/shop.dump" --profile "$SAMPLES/shop-Gvl.prof" \
	--source-root "$SAMPLES/lua/shop" --out-dir "$TMP/out-shop" > /dev/null 2>&1
awk -F, 'NR > 1 { printf "%s %s %s:%s-%s %s\n", $1, $15, $3, $4, $5, $12 }' "$TMP/out-shop/findings.csv" \
	> "$TMP/shop.findings"
LD_LIBRARY_PATH=$lib $vg "$TMP/fix_first" "$SAMPLES/shop.dump" "$SAMPLES/shop-Gvl.prof" "$SAMPLES/lua/shop" \
	> "$TMP/shop.fix_first"
check "fix_first: exit status" 0 $?
check "fix_first: findings to compare" yes "$([ "$(wc -l < "$TMP/shop.findings")" -gt 5 ] && echo yes)"
check_file "fix_first: rank, ID, place and samples = findings.csv" "$TMP/shop.findings" \
	"$(grep -v '^    ' "$TMP/shop.fix_first" | awk '{ print $1, $2, $4, $5 }' > "$TMP/shop.fix_first.rows"; echo "$TMP/shop.fix_first.rows")"
LD_LIBRARY_PATH=$lib "$TMP/fix_first" "$SAMPLES/shop.dump" "$SAMPLES/shop.dump" > /dev/null 2> "$TMP/fx.err"
check "fix_first: a dump as the profile: exit 1, the line and why" "1 1" \
	"$? $(grep -c "^$SAMPLES/shop.dump:1: not a line of a -jp profile" "$TMP/fx.err")"

# ---- loading and errors ---------------------------------------------------

# The library by its path, without the loader's search.
# shellcheck disable=SC2086
env $luaenv DUMPANALYZE_LIB="$lib/libdumpanalyze.so.2" \
	luajit "$ex/abort_files.lua" "$SAMPLES/flush.dump" > "$TMP/flush.lua2"
check_file "abort_files.lua: DUMPANALYZE_LIB" "$TMP/flush.dump.files" "$TMP/flush.lua2"

for run in "$TMP/abort_files" "$TMP/abort_reasons" "luajit $ex/abort_files.lua"; do
	# shellcheck disable=SC2086
	env $luaenv LD_LIBRARY_PATH="$lib" $run "$TMP/no-such.dump" > "$TMP/err.out" 2> "$TMP/err.txt"
	check "${run##*/}: a missing dump is exit 1" 1 $?
	check "${run##*/}: its message" "$TMP/no-such.dump: No such file or directory" "$(cat "$TMP/err.txt")"
	check "${run##*/}: and nothing on stdout" "" "$(cat "$TMP/err.out")"
done

finish
