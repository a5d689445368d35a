#!/usr/bin/env bash
# trax collect end to end (root): a stress-ng capture that trace-cmd and trax read alike, the
# markers around the workload, its log, the initial state, --db, the trace clock.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/collect-lib.bash"
collect_needs trace-cmd stress-ng

secs=10
[ "$TRAX_SAN" = 1 ] && secs=3	# ASan: the same checks on a shorter run
d=$TMP/basic
mkdir -p "$d"

# 1. issue 5's acceptance: the sched preset around stress-ng --cpu 2
run_bg "$d/out" "$d/err" "$TRAX" collect -p sched -o "$d/x.dat" -- stress-ng --cpu 2 --timeout "$secs"
pid=$bg_pid
wait $pid
is "$?" 0 "collect -p sched -- stress-ng --cpu 2 --timeout $secs exits 0"
ok "no instance left behind" no_instance $pid
ok "trace-cmd report reads the trace" trace-cmd report "$d/x.dat"
report_counts "$d/x.dat" >"$d/tc.counts"
"$TRAX" load "$d/x.dat" -o "$d/x.db" >/dev/null
trax_counts "$d/x.db" >"$d/trax.counts"
is "$(cat "$d/trax.counts")" "$(cat "$d/tc.counts")" "trax and trace-cmd agree on every event's count"
grep -q "^sched_switch [0-9]" "$d/tc.counts"
_result $? "the trace holds sched_switch events" "$(cat "$d/tc.counts")"
# the preset's events this kernel has, and only those, are in the file
want=$("$TRAX" collect --list-presets | awk -F': ' '$1 == "sched" { print $2 }' | tr ' ' '\n' |
	while IFS=: read -r s e; do [ -e "$TRACEFS/events/$s/$e/format" ] && echo "$e"; done | sort)
got=$(q "$d/x.db" "SELECT name FROM event_type WHERE system != 'ftrace'" | sort)
is "$got" "$want" "the file holds the formats of the preset's events this kernel has"
# the drained count is what trace-cmd reads
total=$(awk '{ s += $2 } END { print s }' "$d/tc.counts")
grep -q " $total events in " "$d/out"
_result $? "the summary's event count ($total) is the file's" "$(cat "$d/out")"
grep -q "none lost" "$d/out"
_result $? "nothing lost" "$(cat "$d/out" "$d/err")"
stats=$(trace-cmd report --stat "$d/x.dat" 2>/dev/null | awk '/^overrun:/ { s += $2 } END { print s + 0 }')
is "$stats" 0 "the per-CPU stats in the file show no overrun"
# markers around the workload: start before stress-ng's exec, stop after its exit
order=$(trace-cmd report "$d/x.dat" 2>/dev/null |
	awk '/tracing_mark_write: trax: start/ { print "start" }
	     /sched_process_exec:.*stress-ng/ && !x++ { print "exec" }
	     /tracing_mark_write: trax: stop/ { print "stop" }' | tr '\n' ' ')
is "$order" "start exec stop " "trax: start, stress-ng's exec, trax: stop, in that order"
grep -q "successful run completed" "$d/x.log"
_result $? "the workload's output is in x.log" "$(cat "$d/x.log")"
ls -a "$d" | grep -q '\.trax-' && _result 1 "no temporary file left" "$(ls -a "$d")" ||
	_result 0 "no temporary file left"

# 2. the initial state: oom_score_adj of the workload (set here: 123, inherited), cpu_idle of
# every online CPU, written on that CPU; the loader makes counters of them
cpus=$(getconf _NPROCESSORS_ONLN)
ev=sched:sched_switch,power:cpu_idle,oom:oom_score_adj_update
(echo 123 >/proc/self/oom_score_adj && exec "$TRAX" collect -e $ev -o "$d/init.dat" -- sleep 0.2) \
	>"$d/out" 2>"$d/err"
is "$?" 0 "collect with power and oom events exits 0"
idle=$(trace-cmd report "$d/init.dat" 2>/dev/null | grep -c 'trax: initial cpu_idle')
is "$idle" "$cpus" "one initial cpu_idle marker per online CPU ($cpus)"
oncpu=$(trace-cmd report "$d/init.dat" 2>/dev/null |
	sed -n 's/.*\[0*\([0-9][0-9]*\)\].*trax: initial cpu_idle cpu_id=\([0-9]*\) .*/\1 \2/p' |
	awk '$1 == $2' | wc -l)
is "$oncpu" "$cpus" "each cpu_idle marker was written on its CPU"
wpid=$(trace-cmd report "$d/init.dat" 2>/dev/null |
	sed -n 's/.*trax: initial oom_score_adj_update pid=\([0-9]*\) oom_score_adj=123.*/\1/p')
[ -n "$wpid" ]
_result $? "the workload's oom_score_adj (123) is recorded"
"$TRAX" load "$d/init.dat" -o "$d/init.db" >/dev/null
is "$(q "$d/init.db" "SELECT count(DISTINCT t.cpu) AS n FROM counter c JOIN track t ON t.id = c.track_id
	WHERE t.name = 'cpu_idle' AND c.value = -1 AND c.ts IN (SELECT ts FROM print
	WHERE buf LIKE 'trax: initial cpu_idle%')")" "$cpus" \
	"every CPU's cpu_idle counter is -1 (running) at its marker"
is "$(q "$d/init.db" "SELECT c.value AS v, c.ts = (SELECT min(CAST(value AS INTEGER)) FROM meta
	WHERE key LIKE 'cpu.%.first_ts') AS at_start FROM counter c JOIN track t ON t.id = c.track_id
	WHERE t.name = 'oom_score_adj' AND t.utid IN (SELECT utid FROM thread
	WHERE pid = ${wpid:-0})")" "123,1" \
	"the workload's oom_score_adj counter is 123 from the trace start (other processes may change theirs)"

# 3. --db, and another trace clock
"$TRAX" collect -e sched:sched_switch -C mono --db "$d/db.db" -o "$d/mono.dat" -- sleep 0.1 >"$d/out" 2>&1
is "$?" 0 "collect --db -C mono exits 0"
is "$(q "$d/db.db" "SELECT value FROM meta WHERE key = 'trace_clock'")" "mono" "the trace clock is mono"
# trace-cmd puts the clock list in the TRACECLOCK option too; libtracecmd parses an empty one
# past its end (heap bytes), which now and then turns trace-cmd report's seconds into counts.
is "$(trace-cmd dump --options "$d/mono.dat" 2>/dev/null | sed -n '/Option TRACECLOCK/{n;p;q}' |
	grep -o '\[[a-z0-9_-]*\]')" "[mono]" "the TRACECLOCK option names the clock in use"
is "$(trax_counts "$d/db.db")" "$(report_counts "$d/mono.dat")" "--db holds what trace-cmd reads"
u=$(trace-cmd report --uname "$d/mono.dat" 2>/dev/null | grep -Fx "$(uname -s -n -r -v -m)")
is "$u" "$(uname -s -n -r -v -m)" "uname is recorded"
# 4. -t: without a workload, a capture of that long; with one, the workload is stopped
start=$(date +%s.%N)
"$TRAX" collect -e sched:sched_switch -t 1 -o "$d/t.dat" >"$d/out" 2>&1
rc=$?
is "$rc" 0 "-t 1 without a workload exits 0"
# never before 1 s; the slack above it is for a loaded machine (start-up, drain, teardown)
near "$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')" 2.5 1.5 \
	"... after a second (between 1 s and 4 s)"
ok "... and trace-cmd reads the trace" trace-cmd report "$d/t.dat"
"$TRAX" collect -e sched:sched_switch -t 1 -o "$d/t.dat" -- sleep 30 >"$d/out" 2>&1
is "$?" 0 "-t 1 -- sleep 30: the workload is stopped, the capture is complete"
[ -e "$d/t.dat" ] && [ ! -e "$d/t.dat.incomplete" ]
_result $? "... as t.dat"
# without a workload or -t, a signal ends the capture: a complete trace
run_bg "$d/out" "$d/err" "$TRAX" collect -e sched:sched_switch -o "$d/sig.dat"
pid=$bg_pid
for _ in $(seq 50); do
	[ -e "$TRACEFS/instances/trax-collect-$pid" ] && break
	sleep 0.1
done
# the instance is there while capturing (else every "no instance left" check passes on nothing)
ok "the capture runs in its instance trax-collect-$pid" \
	test -d "$TRACEFS/instances/trax-collect-$pid"
sleep 0.5
kill -INT $pid
wait $pid
is "$?" 0 "without a workload, SIGINT ends the capture: exit 0"
ok "... with a complete trace" trace-cmd report "$d/sig.dat"
ok "... and no instance left" no_instance $pid
# --cmdlines: the global saved_cmdlines_size during the capture (seen by the workload through
# the real tracefs: --no-redirect), restored after
# (the kernel rounds the size up to fill the pages it allocates: asking one more than now
# makes it grow)
old=$(cat "$TRACEFS/saved_cmdlines_size")
want=$((old + 1))
"$TRAX" collect -e sched:sched_switch --no-redirect --cmdlines $want -o "$d/c.dat" -- \
	cat "$TRACEFS/saved_cmdlines_size" >"$d/out" 2>&1
[ "$(cat "$d/c.log")" -ge "$want" ]
_result $? "--cmdlines $want: at least that during the capture" "$(cat "$d/c.log" "$d/out")"
is "$(cat "$TRACEFS/saved_cmdlines_size")" "$old" "--cmdlines: restored to $old after"
# --no-kallsyms: the file is smaller by about /proc/kallsyms
"$TRAX" collect -e sched:sched_switch --no-kallsyms -o "$d/k.dat" -- true >"$d/out" 2>&1
is "$?" 0 "--no-kallsyms exits 0"
"$TRAX" collect -e sched:sched_switch -o "$d/k2.dat" -- true >"$d/out" 2>&1
ks=$(wc -c </proc/kallsyms)
diffk=$(( $(stat -c %s "$d/k2.dat") - $(stat -c %s "$d/k.dat") ))
near "$diffk" "$ks" $((ks / 20)) "--no-kallsyms leaves out /proc/kallsyms ($ks bytes)"
ok "... and trace-cmd reads the trace" trace-cmd report "$d/k.dat"

"$TRAX" collect -e sched:sched_switch -C nosuchclock -o "$d/bad.dat" -- true >"$d/out" 2>&1
is "$?" 2 "an unknown clock is an error"
grep -q "unknown trace clock 'nosuchclock' (this kernel has: .*local" "$d/out"
_result $? "... naming the clocks there are" "$(cat "$d/out")"
finish
