#!/usr/bin/env bash
# Lost events are reported honestly: the drain is stopped (SIGSTOP to trax) while stress-ng
# switches on both CPUs with a 64 KB buffer, so the kernel overwrites events. The loss trax
# reports equals the kernel's per-CPU overrun (stored in the file, read by trace-cmd) and the
# lost-event marks in the pages (counted by libtracecmd and by trace-cmd report).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/collect-lib.bash"
collect_needs trace-cmd stress-ng

d=$TMP/loss
mkdir -p "$d"
run_bg "$d/out" "$d/err" "$TRAX" collect -e sched:sched_switch -b 64 -o "$d/x.dat" -- \
	stress-ng --switch 2 --switch-freq 20000 --timeout 5
pid=$bg_pid
sleep 1.5
kill -STOP $pid
sleep 1.5	# some 60000 switches per CPU: far more than 64 KB (about 960 records) holds
kill -CONT $pid
wait $pid
is "$?" 0 "a lossy capture still succeeds (the loss is a warning)"
ok "no instance left behind" no_instance $pid

# the kernel's per-CPU stats, as stored in the file and printed by trace-cmd
trace-cmd report --stat "$d/x.dat" 2>/dev/null |
	awk '/^CPU: / { c = $2 } /^overrun:/ { print c, $2 }' | sort -n >"$d/stats"
# the marks: libtracecmd's missed counts per CPU
"$DATSTAT" "$d/x.dat" | awk '$1 == "cpu" { print $2, $6, $8 }' | sort -n >"$d/marks"
# the marks as trace-cmd report prints them: "CPU:N [COUNT EVENTS DROPPED]"
trace-cmd report "$d/x.dat" 2>/dev/null |
	sed -n 's/^CPU:\([0-9]*\) \[\([0-9]*\) EVENTS DROPPED\]$/\1 \2/p' |
	awk '{ s[$1] += $2 } END { for (c in s) print c, s[c] }' | sort -n >"$d/tcmarks"
# what trax said
sed -n 's/^trax collect: warning: CPU \([0-9]*\) lost \([0-9]*\) events .*; the trace marks \([0-9]*\) lost$/\1 \2 \3/p' \
	"$d/err" | sort -n >"$d/said"

lost=$(awk '{ s += $2 } END { print s + 0 }' "$d/stats")
[ "$lost" -gt 0 ]
_result $? "the kernel overwrote events ($lost)" "$(cat "$d/stats")"
is "$(awk '{ print $1, $2 }' "$d/said")" "$(awk '$2 > 0' "$d/stats")" \
	"trax reports each CPU's loss as the kernel's overrun"
is "$(awk '{ print $1, $3 }' "$d/said")" "$(awk '$2 > 0' "$d/stats")" \
	"... and says the file marks as many"
is "$(awk '{ print $1, $2 }' "$d/marks")" "$(cat "$d/stats")" \
	"the file's lost-event marks (libtracecmd) sum to the overrun on every CPU"
is "$(awk '$3 > 0' "$d/marks")" "" "no mark without its count"
is "$(cat "$d/tcmarks")" "$(awk '$2 > 0' "$d/stats")" \
	"trace-cmd report prints the same counts ([N EVENTS DROPPED])"
grep -q "events lost" "$d/out"
_result $? "the summary says events were lost" "$(cat "$d/out")"

# trax load: the loss per CPU in meta; the slices that span it are flagged
"$TRAX" load "$d/x.dat" -o "$d/x.db" >/dev/null
is "$(q "$d/x.db" "SELECT substr(key, 5, length(key) - 16) || ' ' || value FROM meta
	WHERE key LIKE 'cpu.%.lost_events' AND value != '0' ORDER BY key")" \
	"$(awk '$2 > 0' "$d/stats")" "trax load stores each CPU's loss"
[ "$(q "$d/x.db" "SELECT count(*) AS n FROM sched_slice WHERE clipped & 4")" -gt 0 ]
_result $? "slices spanning the loss are flagged"
finish
