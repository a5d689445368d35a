#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kselftest/trax/trax_sched.sh: run workload.json under `trax collect` (a private tracefs
# instance), check rules.json with `trax check --format tap`, and exit with kselftest's codes:
# 0 pass, 1 fail, 4 skip (not root, no tracefs, no sched events, no trax or rt-app).
#
# Environment: TRAX (the trax binary, default: trax in PATH), TRAX_RULES and TRAX_WORKLOAD
# (other rule and workload files), TRAX_BASELINE (compare with a baseline saved by
# `trax check --save-baseline`: a regression fails), TRAX_TRACEFS (default: where tracefs is
# mounted), TRAX_KEEP (a folder to keep the trace in). The runner prefixes this output with
# "# "; the nested TAP is trax check's, without its "TAP version 13" when KSFT_TAP_LEVEL is set
# (as kselftest.h does).

ksft_pass=0
ksft_fail=1
ksft_skip=4

dir=$(cd "$(dirname "$0")" && pwd)
trax=${TRAX:-trax}
rules=${TRAX_RULES:-$dir/rules.json}
workload=${TRAX_WORKLOAD:-$dir/workload.json}

header() {
	[ -n "${KSFT_TAP_LEVEL:-}" ] || echo "TAP version 13"
}

skip() {
	header
	echo "1..0 # SKIP $*"
	exit $ksft_skip
}

fail() {
	header
	echo "Bail out! $*"
	exit $ksft_fail
}

[ "$(id -u)" -eq 0 ] || skip "trax collect needs root"
if [ -n "${TRAX_TRACEFS:-}" ]; then
	tracefs=$TRAX_TRACEFS
elif [ -d /sys/kernel/tracing/events ]; then
	tracefs=/sys/kernel/tracing
else
	tracefs=/sys/kernel/debug/tracing
fi
[ -d "$tracefs/instances" ] || skip "tracefs is not mounted at $tracefs (mount -t tracefs nodev /sys/kernel/tracing)"
for ev in sched_switch sched_wakeup; do
	[ -d "$tracefs/events/sched/$ev" ] || skip "the kernel has no sched:$ev event"
done
command -v "$trax" >/dev/null 2>&1 || skip "trax is not installed (set TRAX=/path/to/trax)"
command -v rt-app >/dev/null 2>&1 || skip "rt-app is not installed (the workload runs under it)"
[ -r "$rules" ] || fail "cannot read the rules $rules"
[ -r "$workload" ] || fail "cannot read the workload $workload"

tmp=$(mktemp -d /tmp/trax-ksft.XXXXXX) || fail "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
out=${TRAX_KEEP:-$tmp}
if ! "$trax" collect -p sched --no-kallsyms -w "$workload" -o "$out/trace.dat" \
	>"$tmp/collect.out" 2>&1; then
	header
	sed 's/^/# /' "$tmp/collect.out"
	echo "Bail out! trax collect failed"
	exit $ksft_fail
fi

set -- "$rules" "$out/trace.dat" --format tap
[ -n "${TRAX_BASELINE:-}" ] && set -- "$@" --baseline "$TRAX_BASELINE"
"$trax" check "$@" >"$tmp/check.tap" 2>"$tmp/check.err"
rc=$?
if [ -n "${KSFT_TAP_LEVEL:-}" ]; then
	grep -v '^TAP version 13$' "$tmp/check.tap"
else
	cat "$tmp/check.tap"
fi
sed 's/^/# /' "$tmp/check.err"
case $rc in
0) exit $ksft_pass ;;
4) exit $ksft_skip ;;
1) exit $ksft_fail ;;
*) echo "# trax check: evaluation error (exit status $rc)"; exit $ksft_fail ;;
esac
