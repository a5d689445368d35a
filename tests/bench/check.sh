#!/usr/bin/env bash
# tests/bench/check.sh BUILD DB: `trax check` of 20 rules on a loaded database (target < 2 s).
# The rules cover every scheduler metric on the trace's busiest task name (all its threads,
# aggregated or per task), busy CPUs, a counter and an SQL rule: each thread's slices and
# states are read once and shared, which is what this measures. Best of 3 runs.
set -u
build=$1 db=$2
trax=$build/trax
[ -f "$db" ] || { echo "check.sh: $db missing (run tests/bench/run.sh first)" >&2; exit 2; }
comm=$("$trax" query "$db" "SELECT t.comm FROM sched_slice s JOIN thread t USING(utid) WHERE t.pid != 0 GROUP BY t.comm ORDER BY sum(s.dur) DESC LIMIT 1" --format csv | tail -n +2 | tr -d '\r"')
rules=$(mktemp /tmp/trax-bench-rules.XXXXXX.json)
trap 'rm -f "$rules"' EXIT
t="\"task\": \"$comm*\""
cat >"$rules" <<JSON
{ "topology": { "c0": [0], "rest": [1, 2, 3, 4, 5, 6, 7] },
  "rules": [
  { "id": "r01", "metric": "runtime", $t, "aggregate": "sum", "expect": "> 0 s" },
  { "id": "r02", "metric": "residency", $t, "cpus": "c0", "aggregate": "max", "expect": ">= 0 %" },
  { "id": "r03", "metric": "duty_cycle", $t, "aggregate": "mean", "expect": ">= 0 %" },
  { "id": "r04", "metric": "activations", $t, "aggregate": "sum", "expect": ">= 0" },
  { "id": "r05", "metric": "period", $t, "aggregate": "max", "expect": ">= 0 s" },
  { "id": "r06", "metric": "wakeup_latency", $t, "stat": "p99", "aggregate": "max", "expect": ">= 0 s" },
  { "id": "r07", "metric": "runnable", $t, "aggregate": "sum", "expect": ">= 0 s" },
  { "id": "r08", "metric": "preempted", $t, "aggregate": "sum", "expect": ">= 0 s" },
  { "id": "r09", "metric": "start_time", $t, "aggregate": "min", "expect": ">= 0 s" },
  { "id": "r10", "metric": "end_time", $t, "aggregate": "max", "expect": ">= 0 s" },
  { "id": "r11", "metric": "first_cpu", $t, "aggregate": "any", "expect": ">= 0" },
  { "id": "r12", "metric": "last_cpu", $t, "aggregate": "any", "expect": ">= 0" },
  { "id": "r13", "metric": "migrations", $t, "aggregate": "sum", "expect": ">= 0" },
  { "id": "r14", "metric": "switch", $t, "from": "c0", "to": "rest", "aggregate": "sum", "expect": ">= 0" },
  { "id": "r15", "metric": "busy", "cpus": "c0", "expect": ">= 0 %" },
  { "id": "r16", "metric": "busy", "expect": ">= 0 %" },
  { "id": "r17", "metric": "counter", "track": "cpu_idle", "stat": "count", "expect": ">= 0" },
  { "id": "r18", "metric": "runtime", $t, "window": { "start": "0.5", "end": "1.5", "relative": true }, "aggregate": "sum", "expect": ">= 0 s" },
  { "id": "r19", "metric": "sql", "query": "SELECT count(*) FROM sched_switch", "expect": "> 0" },
  { "id": "r20", "metric": "wakeup_latency", $t, "stat": "mean", "aggregate": "max", "expect": ">= 0 s" }
] }
JSON
[ -n "${KEEP_RULES:-}" ] && cp "$rules" "$KEEP_RULES"
events=$("$trax" query "$db" "SELECT sum(count) FROM event_type" --format csv | tail -n +2 | tr -d '\r')
best=
for i in 1 2 3; do
	s=$(date +%s.%N)
	"$trax" check "$rules" "$db" --format json -o /dev/null 2>/dev/null
	rc=$?
	e=$(date +%s.%N)
	d=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }')
	if [ -z "$best" ] || awk -v a="$d" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$d; fi
done
verdict=$(awk -v b="$best" 'BEGIN { print (b < 2 ? "within" : "OVER") }')
echo "trax check: 20 rules on '$comm*' over $events events: best of 3 $best s ($verdict the 2 s target; exit status $rc)"
