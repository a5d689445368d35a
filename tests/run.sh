#!/usr/bin/env bash
# tests/run.sh BUILD [BUILD...]: run every test against each build folder and total the TAP.
#
# Unit tests are the cmocka programs BUILD/tests/test-*; integration and conformance tests are
# the scripts tests/integration/*.sh and tests/conformance/*.sh (they use tests/lib.sh). Every
# program prints TAP; a program that exits non-zero without a `not ok` line counts as one
# failure. Builds named *san* are the ASan+UBSan build; scripts may leave out work that is
# too slow there (they say so with a SKIP line).
# Each program gets TRAX_TEST_TIMEOUT seconds (default 900); one that hangs is killed and
# counts as a failure, so a hang costs one program, not the whole run.
# The last line is: N passed, N failed, N skipped
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
[ $# -ge 1 ] || set -- build

pass=0 fail=0 skip=0
failed_list=()
log_dir=$(mktemp -d /tmp/trax-tests.XXXXXX)
export TRAX_CACHE_DIR="$log_dir/cache"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:fast_unwind_on_malloc=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$top/tests/lsan.supp:print_suppressions=0}

run_one() { # label, command...
	local label=$1; shift
	local log="$log_dir/$(echo "$label" | tr '/ ' '__').log"
	local p=0 f=0 s=0 rc
	local start=$SECONDS
	timeout -k 10 "${TRAX_TEST_TIMEOUT:-900}" "$@" >"$log" 2>&1 </dev/null
	rc=$?
	[ $rc -eq 124 ] && echo "not ok - $label timed out after ${TRAX_TEST_TIMEOUT:-900} s" >>"$log"
	while IFS= read -r line; do
		case "$line" in
		"not ok "*) if [[ "$line" == *"# TODO"* ]]; then s=$((s+1)); else f=$((f+1)); fi ;;
		"ok "*) if [[ "$line" == *"# SKIP"* || "$line" == *"# skip"* ]]; then s=$((s+1)); else p=$((p+1)); fi ;;
		esac
	done <"$log"
	if [ $rc -ne 0 ] && [ $f -eq 0 ]; then
		f=1
		echo "not ok - $label exited with status $rc" >>"$log"
	fi
	pass=$((pass+p)); fail=$((fail+f)); skip=$((skip+s))
	printf '%-58s %4d ok %3d failed %3d skipped  (%ds)\n' "$label" $p $f $s $((SECONDS-start))
	if [ $f -gt 0 ]; then
		failed_list+=("$label")
		grep -E '^not ok|^#' "$log" | grep -v '^# ok' | head -40 | sed 's/^/    /'
		tail -5 "$log" | sed 's/^/    | /'
	fi
}

for build in "$@"; do
	if [ ! -x "$build/trax" ]; then
		echo "tests/run.sh: $build/trax is missing: build first (make)" >&2
		exit 2
	fi
	export TRAX="$top/$build/trax" TRAX_BUILD="$top/$build"
	case "$build" in *san*) export TRAX_SAN=1 ;; *) export TRAX_SAN=0 ;; esac
	echo "== $build"
	for t in "$build"/tests/test-*; do
		[ -x "$t" ] || continue
		case "$t" in *.d) continue ;; esac
		CMOCKA_MESSAGE_OUTPUT=TAP run_one "$build: unit/$(basename "$t")" "$t"
	done
	for t in tests/integration/*.sh tests/conformance/*.sh; do
		[ -f "$t" ] || continue
		run_one "$build: ${t#tests/}" bash "$t"
	done
done

if [ ${#failed_list[@]} -gt 0 ]; then
	echo "failed: ${failed_list[*]}"
	echo "logs: $log_dir"
else
	rm -rf "$log_dir"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
