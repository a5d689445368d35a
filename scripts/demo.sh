#!/usr/bin/env bash
# scripts/demo.sh BUILD: the main job, end to end on the trace and rules shipped in the repo.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
trax=$build/trax
trace=tests/fixtures/demo.dat
out=demo-out
mkdir -p "$out"
echo "== trax load $trace"
"$trax" load "$trace" -o "$out/demo.db" --stats
echo
echo "== trax info"
"$trax" info "$out/demo.db"
echo
echo "== trax query: CPU time per task (top 5)"
"$trax" query "$out/demo.db" "SELECT t.comm, t.pid, round(sum(s.dur)/1e6, 3) AS run_ms, count(*) AS slices FROM sched_slice s JOIN thread t USING(utid) WHERE t.pid != 0 GROUP BY s.utid ORDER BY sum(s.dur) DESC LIMIT 5"
echo
echo "== trax check tests/fixtures/demo-rules.json (the workload's designed behaviour)"
status=0
"$trax" check tests/fixtures/demo-rules.json "$out/demo.db" --format text || status=$?
echo "trax check exit status: $status"
echo
echo "== trax report"
"$trax" report "$out/demo.db" --rules tests/fixtures/demo-rules.json -o "$out/report.html"
echo "report: $PWD/$out/report.html"

# ---- live: capture a short rt-app workload on this machine and check its rules ----
echo
echo "== live: trax collect -w doc/examples/periodic.workload.json, then trax check"
live_why=
scripts/tracefs.sh
if [ "$(id -u)" -ne 0 ]; then
	live_why="not root (trax collect needs root)"
elif [ ! -d /sys/kernel/tracing/instances ]; then
	live_why="no tracefs at /sys/kernel/tracing"
elif ! command -v rt-app >/dev/null; then
	live_why="rt-app is not installed (apt-get install rt-app)"
fi
if [ -n "$live_why" ]; then
	echo "skipped: $live_why; the shipped trace above ($trace) stands in for a live capture"
else
	live_status=0
	"$trax" collect -p sched,power -o "$out/live.dat" -w doc/examples/periodic.workload.json ||
		live_status=$?
	if [ "$live_status" -eq 0 ]; then
		"$trax" check doc/examples/periodic.rules.json "$out/live.dat" --format text ||
			live_status=$?
		echo "trax check exit status (live capture): $live_status"
	else
		echo "the live capture failed (status $live_status); the shipped trace above stands in for it"
	fi
fi
