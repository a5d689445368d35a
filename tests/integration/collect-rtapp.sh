#!/usr/bin/env bash
# rt-app workloads: a pinned periodic task from a trax workload file (converted to rt-app
# JSON), checked against its known shape by hand from trace-cmd's report and by `trax check`;
# rt-app's own markers reach the capture's instance, never the top-level buffer.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/collect-lib.bash"
collect_needs trace-cmd rt-app

d=$TMP/rtapp
mkdir -p "$d"
# One task pinned to CPU 0 (this kernel never records the switch out of CPU 1's idle task),
# SCHED_FIFO so that other machine load does not bend its shape: 16 ms period, 25 % duty,
# 2 s: 125 activations of 4 ms. rt-app sets the affinity once the thread runs (after its
# "[0] starts" marker), so its shape is measured from its first loop's marker, "[0] begins
# loop 0 phase 0 step 0", to the marker it writes after its last loop, "[0] exiting": what the
# thread does after that (its log written out, its exit) sleeps in D as often as the machine's
# load makes it, and is not the workload's shape.
cat >"$d/pinned.json" <<'EOF'
{ "tasks": [ { "name": "pinned", "cpus": [0], "policy": "SCHED_FIFO", "priority": 10,
               "period": "16ms", "duty_cycle": 25, "duration": "2s" } ] }
EOF
top_on=$(cat "$TRACEFS/tracing_on")
run_bg "$d/out" "$d/err" "$TRAX" collect -p sched -o "$d/x.dat" -w "$d/pinned.json"
pid=$bg_pid
wait $pid
is "$?" 0 "collect -w (trax workload) exits 0"
ok "no instance left behind" no_instance $pid
[ -s "$d/x.rtapp.json" ] && grep -q '"pinned"' "$d/x.rtapp.json"
_result $? "the rt-app JSON is kept beside the trace" "$(ls "$d")"
grep -q "\[0\] Exiting" "$d/x.log"
_result $? "rt-app's output is in the log" "$(cat "$d/x.log")"
is "$(cat "$TRACEFS/tracing_on")" "$top_on" "the top-level tracing_on is untouched"
trace-cmd report "$d/x.dat" 2>/dev/null >"$d/report"
grep -q "tracing_mark_write: \[0\] starts$" "$d/report"
_result $? "rt-app's markers are in the capture (its tracefs was the instance)"
pinned_pid=$(sed -n 's/^ *pinned-\([0-9]*\) .*tracing_mark_write: \[0\] starts$/\1/p' "$d/report")
# (without the task's pid the grep below, and the shape, would pass on nothing)
[ -n "$pinned_pid" ]
_result $? "the pinned task's pid from its \"[0] starts\" marker ($pinned_pid)"
if [ -n "$pinned_pid" ] && grep -q "pinned-$pinned_pid .*tracing_mark_write" "$TRACEFS/trace" 2>/dev/null; then
	_result 1 "rt-app's markers are not in the top-level buffer"
else
	_result 0 "rt-app's markers are not in the top-level buffer"
fi

# The shape by hand, from trace-cmd's sched_switch lines (prev:pid [prio] state ==> next:pid
# [prio]) between "[0] begins loop 0 phase 0 step 0" and "[0] exiting"
rtapp_shape "$d/report" "pinned:$pinned_pid" >"$d/shape"
read -r off acts duty <"$d/shape"
# the median interval between activations (mean of the middle two for an even count)
period=$(tail -n +2 "$d/shape" | sort -n | awk '{ v[NR] = $1 }
	END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
is "$off" 0 "by hand: every switch-in after the first loop's marker is on CPU 0"
near "$acts" 125 2 "by hand: 125 activations (2 s / 16 ms)"
near "$duty" 25 2 "by hand: duty cycle 25 %"
near "$period" 16 0.5 "by hand: period 16 ms"

# The same through the rules
cat >"$d/rules.json" <<'EOF'
{ "windows": { "run": { "from_marker": "[0] begins loop 0 phase 0 step 0",
                        "to_marker": "[0] exiting" } },
  "rules": [
    { "id": "on-cpu0", "metric": "residency", "task": "pinned", "cpus": [0], "window": "run",
      "expect": "== 100 %" },
    { "id": "duty", "metric": "duty_cycle", "task": "pinned", "window": "run",
      "expect": "25 % +- 2 %" },
    { "id": "period", "metric": "period", "task": "pinned", "window": "run",
      "expect": "16 ms +- 0.5 ms" },
    { "id": "activations", "metric": "activations", "task": "pinned", "window": "run",
      "expect": "125 +- 2" }
  ] }
EOF
"$TRAX" check "$d/rules.json" "$d/x.dat" --format tap >"$d/tap" 2>&1
is "$?" 0 "trax check: the pinned periodic task passes its rules"
is "$(grep -c '^ok ' "$d/tap")" 4 "trax check: four rules pass" "$(cat "$d/tap")"

# An rt-app file runs as it is; rt-app's ftrace option writes the instance's tracing_on
cat >"$d/rt.json" <<'EOF'
{ "global": { "duration": -1, "calibration": 100, "ftrace": true, "logdir": "/tmp" },
  "tasks": { "rtfile": { "loop": 1, "phases": { "p": { "loop": 10, "runtime": 1000,
             "timer": { "ref": "unique", "period": 5000 } } } } } }
EOF
sed -i "s|\"/tmp\"|\"$d\"|" "$d/rt.json"
"$TRAX" collect -e sched:sched_switch -o "$d/y.dat" -w "$d/rt.json" >"$d/out" 2>&1
is "$?" 0 "collect -w (rt-app file) exits 0"
[ ! -e "$d/y.rtapp.json" ]
_result $? "an rt-app file is not converted"
is "$(trace-cmd report "$d/y.dat" 2>/dev/null | grep -c 'rtfile-.*tracing_mark_write: \[0\] end loop')" 10 \
	"its 10 loops are marked in the capture"
is "$(cat "$TRACEFS/tracing_on")" "$top_on" "the top-level tracing_on is still untouched"
finish
