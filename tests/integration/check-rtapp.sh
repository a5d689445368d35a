#!/usr/bin/env bash
# trax check on an rt-app workload recorded on this machine (tests/fixtures/demo.dat, recorded by
# tests/fixtures/record.sh from tests/fixtures/demo-workload.json). Expected values come from the
# workload's design and from rt-app's own per-activation logs (tests/fixtures/demo-rtapp-logs),
# whose timestamps are CLOCK_MONOTONIC microseconds, the trace's clock ("mono").
. "$(dirname "$0")/../lib.sh"
fx=$TOP/tests/fixtures
dat=$fx/demo.dat
logs=$fx/demo-rtapp-logs

# The marker windows, read with trace-cmd (µs).
marker_us() { trace-cmd report "$dat" 2>/dev/null | awk -v m="$1" '$0 ~ m"$" { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(/:$/, "", $i); split($i, a, "."); print a[1] a[2]; exit } }'; }
p1s=$(marker_us "phase1 start"); p1e=$(marker_us "phase1 end")
p2s=$(marker_us "phase2 start"); p2e=$(marker_us "phase2 end")
[ -n "$p1s" ] && [ -n "$p1e" ] && [ -n "$p2s" ] && [ -n "$p2e" ]
_result $? "trace-cmd finds the four phase markers"

"$TRAX" check "$fx/demo-rules.json" "$dat" --format json -o "$TMP/demo.json"
is "$?" 0 "the demo workload meets every rule written from its design (exit 0)"
val() { jq -r --arg n "$1" '.results[] | select(.name == $n) | .value' "$TMP/demo.json"; }
verdict() { jq -r --arg n "$1" '.results[] | select(.name == $n) | .verdict' "$TMP/demo.json"; }

# Pinned tasks: 100 % on their CPU once running (rt-app sets the affinity after the thread
# starts, so the check uses the steady phase window).
is "$(val small-pinned)" 100 "small: residency 100 % on CPU 0"
is "$(val big-pinned)" 100 "big: residency 100 % on CPU 1"

# Duty cycle from rt-app's log: the run time of the activations inside phase1, over the window.
# Tolerance: the window cuts at most one 4 ms run at each edge: 2 x 4 ms / 601 ms = 1.3 %.
log_stats() { # log start_us end_us -> runs_in_window sum_run_us median_period_us max_wu_lat_us
	local rows
	rows=$(awk -v s="$2" -v e="$3" 'NR > 2 && $5 >= s && $6 <= e' "$1")
	printf '%s\n' "$rows" | awk '{ n++; run += $3; if ($11 > wl) wl = $11 } END { printf "%d %d ", n, run }'
	printf '%s\n' "$rows" | awk '{ print $4 }' | sort -n | awk '{ p[NR] = $1 } END { printf "%d ", p[int((NR + 1) / 2)] }'
	printf '%s\n' "$rows" | awk '{ if ($11 > wl) wl = $11 } END { print wl + 0 }'
}
read -r n run per wl < <(log_stats "$logs/rt-app-small-0.log" "$p1s" "$p1e")
wlen=$((p1e - p1s))
want_duty=$(awk -v r="$run" -v w="$wlen" 'BEGIN { printf "%.4f", 100 * r / w }')
near "$(val small-duty)" "$want_duty" 1.33 "small: duty cycle = rt-app's runs in phase1 / window ($want_duty %)"
# Period: rt-app's median loop period in the window; our median interval between activations.
near "$(val small-period)" "$((per * 1000))" 100000 "small: period within 0.1 ms of rt-app's median ($per us)"
# Wakeup latency: rt-app measures from the timer's deadline, trax from sched_waking, which
# comes after it: trax's maximum is at most rt-app's and, on this idle machine, within 100 us.
mx=$(jq -r '.results[] | select(.name == "small-latency") | .value' "$TMP/demo.json")
cat >"$TMP/lat.json" <<JSON
{ "windows": { "phase1": { "from_marker": "phase1 start", "to_marker": "phase1 end" } },
  "rules": [
  { "id": "max", "metric": "wakeup_latency", "task": "small", "window": "phase1", "stat": "max", "expect": "> 0 ns" },
  { "id": "acts", "metric": "activations", "task": "small", "window": "phase1", "expect": "> 0" },
  { "id": "mover-first", "metric": "first_cpu", "task": "mover",
    "window": { "start": "$((p1s / 1000000)).$(printf %06d $((p1s % 1000000)))", "end": "$((p1e / 1000000)).$(printf %06d $((p1e % 1000000)))" }, "expect": "== 0" },
  { "id": "mover-last", "metric": "last_cpu", "task": "mover", "expect": "== 1" }
] }
JSON
"$TRAX" check "$TMP/lat.json" "$dat" --format json -o "$TMP/lat.out"
lval() { jq -r --arg n "$1" '.results[] | select(.name == $n) | .value' "$TMP/lat.out"; }
awk -v t="$(lval max)" -v w="$wl" 'BEGIN { exit !(t <= w * 1000 && t >= (w - 100) * 1000) }'
_result $? "small: max wakeup latency $(lval max) ns within [rt-app max - 100 us, rt-app max] ($wl us)"
# Activations: one per rt-app loop starting in the window (+-1 for the loops the edges cut).
near "$(lval acts)" "$n" 1 "small: activations in phase1 = rt-app loops in it ($n)"
# big: 60 % from its design (6 ms every 10 ms); mover: CPU 0 first, CPU 1 after, one move.
near "$(val big-duty)" 60 2 "big: duty cycle 60 % +- 2 %"
is "$(lval mover-first)" 0 "mover: first CPU 0 in phase1"
is "$(lval mover-last)" 1 "mover: last CPU 1"
is "$(val mover-moves-once)" 1 "mover: exactly one move from CPU 0 to CPU 1 between the phases"
is "$(val mover-never-back)" 0 "mover: never back to CPU 0"
is "$(verdict small-pinned) $(verdict big-period) $(verdict cpu1-busy)" "pass pass pass" \
	"other designed properties pass"
finish
