#!/usr/bin/env bash
# Switch-outs of tasks never seen switched in (doc/db.md, sched_slice clipped 8), on a hand-written
# trace whose every value is worked out here by hand. CPU 1 records no switch out of its idle
# task (as some kernels do), so b, c and d are switched out without their switch-in:
#   b: woken to CPU 1 at 100.001     -> runs [100.001, 100.003], idle [100.000, 100.001]
#   c: migrated to CPU 1 at 100.004  -> runs [100.004, 100.006], idle [100.003, 100.004]
#   d: no evidence                   -> runs from the CPU's previous switch [100.006, 100.007]
#   e: woken to CPU 1 at 100.0105 while it runs on CPU 0 (ignored), switched out on CPU 0 at
#      100.011: its switch-in on CPU 1 cannot be before that -> runs [100.011, 100.012]
# a is switched in and out normally at 100.008 and 100.009: its slice is not flagged.
. "$(dirname "$0")/../lib.sh"

cat >"$TMP/t.txt" <<'EOF'
# tracer: nop
#
          <idle>-0     [000] d..2   100.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=w next_pid=50 next_prio=120
               a-10    [001] d..2   100.000000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
               w-50    [000] d..3   100.001000: sched_wakeup: comm=b pid=20 prio=120 target_cpu=001
               b-20    [001] d..2   100.003000: sched_switch: prev_comm=b prev_pid=20 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
               w-50    [000] d..3   100.004000: sched_migrate_task: comm=c pid=30 prio=120 orig_cpu=0 dest_cpu=1
               c-30    [001] d..2   100.006000: sched_switch: prev_comm=c prev_pid=30 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
               d-40    [001] d..2   100.007000: sched_switch: prev_comm=d prev_pid=40 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
          <idle>-0     [001] d..2   100.008000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120
               a-10    [001] d..2   100.009000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
               w-50    [000] d..2   100.010000: sched_switch: prev_comm=w prev_pid=50 prev_prio=120 prev_state=R ==> next_comm=e next_pid=60 next_prio=120
          <idle>-0     [001] d.h3   100.010500: sched_wakeup: comm=e pid=60 prio=120 target_cpu=001
               e-60    [000] d..2   100.011000: sched_switch: prev_comm=e prev_pid=60 prev_prio=120 prev_state=R ==> next_comm=w next_pid=50 next_prio=120
               e-60    [001] d..2   100.012000: sched_switch: prev_comm=e prev_pid=60 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
               w-50    [000] d..2   100.013000: sched_switch: prev_comm=w prev_pid=50 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
EOF
out=$("$TRAX" load "$TMP/t.txt" -o "$TMP/t.db" 2>&1 >/dev/null)
_result $? "loads" "$out"
db=$TMP/t.db
us() { q "$db" "SELECT (ts - 100000000000) / 1000, dur / 1000, pid, ifnull(end_state, '-'), clipped FROM sched_slice WHERE cpu = $1 AND dur > 0 ORDER BY ts"; }

# CPU 1, in µs from 100 s: start, duration, pid, end state, clipped
cat >"$TMP/cpu1.want" <<'EOF'
0,1000,0,-,8
1000,2000,20,S,8
3000,1000,0,-,8
4000,2000,30,S,8
6000,1000,40,S,8
7000,1000,0,R,0
8000,1000,10,S,0
9000,2000,0,-,8
11000,1000,60,S,8
12000,1000,0,-,2
EOF
us 1 >"$TMP/cpu1.got"
diff "$TMP/cpu1.want" "$TMP/cpu1.got" >"$TMP/cpu1.diff"
_result $? "CPU 1: slices bounded from the wakeup, the migration, the previous switch, the switch-out elsewhere" \
	"$(cat "$TMP/cpu1.diff")"
# CPU 0 agrees with itself: nothing is flagged there
is "$(us 0 | paste -sd' ')" "0,10000,50,R,0 10000,1000,60,R,0 11000,2000,50,S,0" \
	"CPU 0: consistent, nothing flagged"

# one anomaly row per such switch-out, each naming its CPU and bound; counted per CPU in meta
is "$(q "$db" "SELECT count(*) FROM anomaly WHERE kind = 'switch_out_unseen_in'")" 4 "4 anomaly rows"
is "$(q "$db" "SELECT group_concat(pid, '/') FROM (SELECT t.pid FROM anomaly a JOIN thread t USING(utid) WHERE a.kind = 'switch_out_unseen_in' ORDER BY a.ts)")" \
	"20/30/40/60" "for pids 20, 30, 40, 60"
is "$(q "$db" "SELECT count(*) FROM anomaly WHERE kind = 'switch_out_unseen_in' AND detail LIKE 'CPU 1: %'")" 4 \
	"all on CPU 1"
is "$(q "$db" "SELECT detail FROM anomaly WHERE kind = 'switch_out_unseen_in' ORDER BY ts LIMIT 1" | sed 's/^"//; s/"$//')" \
	"CPU 1: pid 20 switched out, never seen switched in (the last switch-in was of pid 0 at 100.000000 s); its slice starts at 100.001000 s, from its wakeup or migration to this CPU" \
	"the detail says where the slice starts and why"
is "$(q "$db" "SELECT key || '=' || value FROM meta WHERE key LIKE 'sched.switch_out_unseen_in.%'")" \
	"sched.switch_out_unseen_in.cpu1=4" "meta: CPU 1 has 4"

# thread_state: each runs from its bound; b is woken at 100.001 and runs at once
is "$(q "$db" "SELECT (ts - 100000000000) / 1000, dur / 1000, cpu FROM thread_state s JOIN thread t USING(utid) WHERE t.pid = 30 AND state = 'Running'")" \
	"4000,2000,1" "c is Running on CPU 1 from its migration"
is "$(q "$db" "SELECT (ts - 100000000000) / 1000, dur / 1000, cpu FROM thread_state s JOIN thread t USING(utid) WHERE t.pid = 60 AND state = 'Running' ORDER BY ts" | paste -sd' ')" \
	"10000,1000,0 11000,1000,1" "e runs on CPU 0, then on CPU 1 from its switch-out on CPU 0"

# trax info says it per CPU
"$TRAX" info "$db" >"$TMP/info"
grep -qx "CPU 1: 4 switch-outs of tasks never seen switched in (slices bounded from wakeups and migrations)" "$TMP/info"
_result $? "trax info: CPU 1: 4 switch-outs of tasks never seen switched in" "$(tail -4 "$TMP/info")"
grep -q "^CPU 0:" "$TMP/info"
is "$?" 1 "trax info: nothing for CPU 0"

# a rule whose result rests on such a slice says so, in every format; one that does not is quiet
cat >"$TMP/r.json" <<'EOF'
{"rules": [
  {"id": "b-runtime", "metric": "runtime", "task": "b", "expect": "== 2 ms"},
  {"id": "a-runtime", "metric": "runtime", "task": "a", "expect": "== 1 ms"}
]}
EOF
note="rests on 1 slice (0.002000 s) whose switch-in was not recorded (on CPU 1): bounded from wakeups, migrations and the previous switch (see trax info)"
"$TRAX" check "$TMP/r.json" "$db" --format tap >"$TMP/r.tap"
is "$?" 0 "both rules pass (b ran 2 ms, a 1 ms)"
grep -qxF "# b-runtime: note: $note" "$TMP/r.tap"
_result $? "tap: b's result says it rests on a bounded slice" "$(cat "$TMP/r.tap")"
grep -q "a-runtime: note" "$TMP/r.tap"
is "$?" 1 "tap: a's result has no note"
"$TRAX" check "$TMP/r.json" "$db" --format text >"$TMP/r.txt"
grep -qF "b-runtime" "$TMP/r.txt" && grep "b-runtime" "$TMP/r.txt" | grep -qF "(note: $note)"
_result $? "text: b's line carries the note" "$(cat "$TMP/r.txt")"
"$TRAX" check "$TMP/r.json" "$db" --format json >"$TMP/r.js"
is "$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(";".join(str(x["note"]) for x in r))' "$TMP/r.js" 2>&1)" \
	"$note;None" "json: note of b, null for a"
"$TRAX" check "$TMP/r.json" "$db" --format junit >"$TMP/r.xml"
grep -qF "; note: $note</system-out>" "$TMP/r.xml"
_result $? "junit: b's system-out carries the note" "$(cat "$TMP/r.xml")"
finish
