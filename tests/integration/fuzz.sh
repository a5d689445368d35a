#!/usr/bin/env bash
# tests/integration/fuzz.sh: the fuzz targets of build-fuzz/ (tests/fuzz/, doc/fuzz.md), briefly.
#
# Every reproducer of ../shared/repro goes through the target of its reader once (each must
# keep the load contract of tests/fuzz/fuzz-common.c: a database, or one line naming the file,
# and nothing left behind); then tests/fuzz/run.sh runs each target's regression corpus and seeds
# and fuzzes it for TRAX_FUZZ_SECONDS (default 15) seconds: any crash, leak, sanitizer report,
# per-input timeout (10 s) or contract breach fails. The targets are their own sanitizer build
# (clang, libFuzzer, ASan+UBSan), so this runs in the pass over the plain build only.
. "$(dirname "$0")/../lib.sh"

# the targets: TRAX_FUZZ_BUILD (tests/run.sh sets it to the checkout's build-fuzz/)
fb=${TRAX_FUZZ_BUILD:-$TOP/build-fuzz}
if [ "${TRAX_SAN:-0}" = 1 ]; then
	skip "fuzz targets" "run once, in the plain build's pass (the targets are ASan+UBSan builds)"
	finish
fi
for t in dat text systrace perfetto rules; do
	if [ ! -x "$fb/fuzz-$t" ]; then
		_result 1 "fuzz-$t is built" "$fb/fuzz-$t absent: make check builds it (make fuzz-build)"
		finish
	fi
done

export ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$TOP/tests/fuzz/lsan.supp:print_suppressions=0

R=$SHARED/repro
if need_shared "$R" "reproducers through the fuzz targets"; then
	for f in "$R"/*; do
		case $(basename "$f") in
		dat-*) t=dat ;;
		min-text-*) t=text ;;
		json-* | hand-*.json) t=rules ;;
		hand-pipe-*) t=dat ;;
		*) continue ;;
		esac
		start=$SECONDS
		out=$(timeout -k 5 60 "$fb/fuzz-$t" -timeout=10 -rss_limit_mb=2048 "$f" 2>&1)
		rc=$?
		_result $rc "fuzz-$t keeps the contract on $(basename "$f") ($((SECONDS - start)) s)" \
			"$(printf '%s\n' "$out" | grep -E 'ERROR|contract|SUMMARY' | head -5)"
	done
fi

"$TOP/tests/fuzz/run.sh" "$fb" "${TRAX_FUZZ_SECONDS:-15}" >"$TMP/fuzz.tap" 2>&1
rc=$?
while IFS= read -r line; do
	case $line in
	"ok "*) _result 0 "${line#ok * - }" ;;
	"not ok "*) _result 1 "${line#not ok * - }" "$(grep '^#' "$TMP/fuzz.tap")" ;;
	esac
done <"$TMP/fuzz.tap"
[ $rc -eq 0 ] || grep -q '^not ok' "$TMP/fuzz.tap" ||
	_result 1 "tests/fuzz/run.sh exits 0" "$(tail -5 "$TMP/fuzz.tap")"
finish
