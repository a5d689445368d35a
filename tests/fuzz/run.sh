#!/usr/bin/env bash
# tests/fuzz/run.sh BUILD SECONDS [TARGET...]: run the fuzz targets of BUILD (build-fuzz) and
# print TAP. For each target (default: all five): first every input of its regression corpus
# (tests/fuzz/regress/TARGET/: inputs that once failed) and every seed, once each; then
# SECONDS seconds of fuzzing from the seeds into a fresh corpus. A crash, leak, sanitizer
# report, an input over the per-input timeout (10 s) or over the memory limit (2 GB), or a
# breach of the load contract (tests/fuzz/fuzz-common.c) fails the target; the input is saved
# as BUILD/findings/TARGET/crash-* (or leak-, timeout-, oom-) and its path printed.
# The environment may add libFuzzer flags in TRAX_FUZZ_FLAGS (say -seed) and name the corpus
# folder in TRAX_FUZZ_CORPUS (default BUILD/corpus; TARGET/ under it is emptied first).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: run.sh BUILD SECONDS [TARGET...]}
secs=${2:?usage: run.sh BUILD SECONDS [TARGET...]}
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(dat text systrace perfetto rules)
build=$(cd "$build" && pwd)

export ASAN_OPTIONS=${TRAX_FUZZ_ASAN_OPTIONS:-detect_leaks=1:fast_unwind_on_malloc=0:abort_on_error=0}
# (full unwinding: the suppressions of leaks inside libtracecmd need frames fast unwinding loses)
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$top/tests/fuzz/lsan.supp:print_suppressions=0
seeds=$build/seeds/run-$$
trap 'rm -rf "$seeds"' EXIT
"$top/tests/fuzz/seeds.sh" "$seeds"

# the largest input a target's mutations may grow to
max_len() {
	case $1 in
	dat) echo 131072 ;;
	text | systrace | perfetto) echo 32768 ;;
	rules) echo 16384 ;;
	esac
}

n=0 failed=0
echo "1..$((${#targets[@]} * 2))"
for t in "${targets[@]}"; do
	bin=$build/fuzz-$t
	log=$build/findings/$t-$$.log
	mkdir -p "$build/findings/$t"
	n=$((n + 1))
	if [ ! -x "$bin" ]; then
		echo "not ok $n - fuzz-$t regressions: $bin is not built (make fuzz-build)"
		n=$((n + 1)); echo "not ok $n - fuzz-$t: not built"; failed=1; continue
	fi
	inputs=("$seeds/$t"/*)
	[ -d "$top/tests/fuzz/regress/$t" ] && inputs+=("$top/tests/fuzz/regress/$t"/*)
	if "$bin" -timeout=10 -rss_limit_mb=2048 "${inputs[@]}" >"$log" 2>&1; then
		echo "ok $n - fuzz-$t: ${#inputs[@]} seed and regression inputs keep the contract"
	else
		echo "not ok $n - fuzz-$t: a seed or regression input fails (log: $log)"
		grep -E 'ERROR|contract broken|Running: ' "$log" | tail -5 | sed 's/^/#   /'
		failed=1
	fi
	n=$((n + 1))
	corpus=${TRAX_FUZZ_CORPUS:-$build/corpus}/$t
	rm -rf "$corpus"
	mkdir -p "$corpus"
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len="$(max_len "$t")" \
		-close_fd_mask=2 -print_final_stats=1 -artifact_prefix="$build/findings/$t/" \
		${TRAX_FUZZ_FLAGS:-} "$corpus" "$seeds/$t" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
	if [ $rc -eq 0 ]; then
		echo "ok $n - fuzz-$t: $secs s, ${execs:-?} executions, $cov, no findings"
	else
		echo "not ok $n - fuzz-$t: finding after ${execs:-?} executions (exit $rc; log: $log)"
		grep -E 'ERROR|contract broken|Test unit written|SUMMARY' "$log" | head -5 |
			sed 's/^/#   /'
		failed=1
	fi
done
exit $failed
