#!/usr/bin/env bash
# tests/integration/android-formats.sh: every real Android event format loads with libtraceevent.
#
# The dumps of ../shared/traces/android/formats (3.4 to 5.10 kernels, and perfetto's synthetic
# formats): every events/SYSTEM/NAME/format is parsed by libtraceevent (tools/fmt-check) with
# the kernel's long size (the size of print's `unsigned long ip`). Its fields must read; a print
# format libtraceevent cannot interpret is reported, not failed (its records still decode).
. "$(dirname "$0")/../lib.sh"

F=$TRACES/android/formats
chk=${TRAX_BUILD:-$TOP/build}/tools/fmt-check
need_shared "$F" "Android format dumps" || finish
if [ ! -x "$chk" ]; then
	skip "Android formats" "$chk not built"
	finish
fi
for d in "$F"/*/; do
	name=$(basename "$d")
	ls=8
	if [ -f "$d/events/ftrace/print/format" ]; then
		ls=$(sed -n 's/.*long ip;.*size:\([0-9]*\);.*/\1/p' "$d/events/ftrace/print/format")
	fi
	find "$d/events" -name format | sort >"$TMP/list"
	n=$(wc -l <"$TMP/list")
	# libtraceevent 1.7 leaks a few bytes parsing some print formats: not ours to report
	ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 xargs "$chk" "$ls" <"$TMP/list" >"$TMP/out" 2>&1
	# xargs may run it several times: sum the totals
	got=$(awk '$1 == "ok" { n += $2 } END { print n + 0 }' "$TMP/out")
	is "$got" "$n" "$name: all $n formats read by libtraceevent (long size $ls)"
	grep '^fail /' "$TMP/out" | head -5 | sed 's/^/# /'
	w=$(awk '$1 == "warn" && $2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }' "$TMP/out")
	[ "$w" -gt 0 ] && echo "# $name: $w print formats libtraceevent cannot interpret"
done
finish
