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
