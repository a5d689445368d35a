#!/usr/bin/env bash
# tests/run.sh [BUILD...] [-- TEST...]: run every test against each build folder and total the TAP.
#
# Unit tests are the cmocka programs BUILD/tests/test-*; integration and conformance tests are
# the scripts tests/integration/*.sh and tests/conformance/*.sh (they use tests/lib.sh). After
# `--`, only the TESTs named are run (a *.sh script is run with bash, anything else directly).
# Every program prints TAP; a program that exits non-zero without a `not ok` line counts as one
# failure. Builds named *san* are the ASan+UBSan build; scripts may leave out work that is
# too slow there (they say so with a SKIP line).
# Each program gets TRAX_TEST_TIMEOUT seconds (default 900); one that hangs is killed and
# counts as a failure, so a hang costs one program, not the whole run.
# A test point with a SKIP directive is a skip, whether it says ok or not ok: cmocka prints a
# skipped test as "not ok N # SKIP name". tests/integration/runner.sh checks these counts.
# The last line is: N passed, N failed, N skipped
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
builds=() only=()
while [ $# -gt 0 ]; do
	if [ "$1" = -- ]; then shift; only=("$@"); break; fi
	builds+=("$1"); shift
done
[ ${#builds[@]} -ge 1 ] || builds=(build)

pass=0 fail=0 skip=0
failed_list=()
log_dir=$(mktemp -d /tmp/trax-tests.XXXXXX)
export TRAX_CACHE_DIR="$log_dir/cache"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:fast_unwind_on_malloc=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$top/tests/lsan.supp:print_suppressions=0}

# tap_count LOG: sets p, f, s (passed, failed, skipped test points) and plan_skip from one
# program's TAP. A test point is "ok" or "not ok", a number, a description and a directive after
# the first unescaped "#" ("\#" is part of the description). Directives, in any case: SKIP (also
# "skip", "Skipped: why") is a skip, on ok and on not ok alike; TODO on a not ok is an expected
# failure (a skip); anything else (XFAIL, "exit=1") leaves the point as it is. A plan "1..0 # SKIP"
# skips the whole program (one skip); "Bail out!" is a failure. Lines starting with "#" or
# indented (nested TAP) are comments.
tap_count() {
	local line word re='^(not )?ok(([^#\\]|\\.)*)#[[:space:]]*([[:alpha:]]+)'
	p=0 f=0 s=0 plan_skip=0
	shopt -s nocasematch
	while IFS= read -r line; do
		line=${line%$'\r'}
		case "$line" in
		"ok" | "ok "* | "not ok" | "not ok "*)
			word=
			[[ "$line" =~ $re ]] && word=${BASH_REMATCH[4]}
			if [[ "$word" == skip* ]]; then
				s=$((s+1))
			elif [[ "$line" == "not ok"* ]]; then
				if [[ "$word" == todo ]]; then s=$((s+1)); else f=$((f+1)); fi
			else
				p=$((p+1))
			fi ;;
		"1..0"*)
			if [[ "$line" =~ ^1\.\.0[[:space:]]*#[[:space:]]*skip ]]; then
				s=$((s+1)); plan_skip=1
			fi ;;
		"Bail out!"*) f=$((f+1)) ;;
		esac
	done <"$1"
	shopt -u nocasematch
}

run_one() { # label, command...
	local label=$1; shift
	local log="$log_dir/$(echo "$label" | tr '/ ' '__').log"
	local p f s plan_skip rc
	local start=$SECONDS
	timeout -k 10 "${TRAX_TEST_TIMEOUT:-900}" "$@" >"$log" 2>&1 </dev/null
	rc=$?
	[ $rc -eq 124 ] && echo "not ok - $label timed out after ${TRAX_TEST_TIMEOUT:-900} s" >>"$log"
	tap_count "$log"
	# a program that skips as a whole may exit 4, kselftest's KSFT_SKIP
	[ $rc -eq 4 ] && [ $plan_skip -eq 1 ] && rc=0
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

# the fuzz targets (make fuzz-build) of this checkout, unless the caller names others
export TRAX_FUZZ_BUILD=${TRAX_FUZZ_BUILD:-$top/build-fuzz}
for build in "${builds[@]}"; do
	build=${build%/}
	case "$build" in /*) b=$build ;; *) b=$top/$build ;; esac
	if [ ! -x "$b/trax" ]; then
		echo "tests/run.sh: $build/trax is missing: build first (make)" >&2
		exit 2
	fi
	export TRAX="$b/trax" TRAX_BUILD="$b"
	case "${build##*/}" in *san*) export TRAX_SAN=1 ;; *) export TRAX_SAN=0 ;; esac
	echo "== $build"
	if [ ${#only[@]} -gt 0 ]; then
		for t in "${only[@]}"; do
			case "$t" in
			*.sh) run_one "$build: $t" bash "$t" ;;
			*) CMOCKA_MESSAGE_OUTPUT=TAP run_one "$build: $t" "$t" ;;
			esac
		done
		continue
	fi
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
