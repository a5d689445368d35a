#!/usr/bin/env bash
# trax collect's errors: one line, exit 2, no instance left, no trace that looks complete.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/collect-lib.bash"

d=$TMP/err
mkdir -p "$d"

# Usage errors need neither root nor tracefs.
fails_with "-w and -- together" 2 "$TRAX" collect -o "$d/x.dat" -w w.json -- true
fails_with "no -o" 2 "$TRAX" collect -- true
fails_with "-b 0" 2 "$TRAX" collect -b 0 -o "$d/x.dat" -- true
fails_with "-t -1" 2 "$TRAX" collect -t -1 -o "$d/x.dat" -- true
fails_with "--extract with a workload" 2 "$TRAX" collect --extract x -o "$d/x.dat" -- true
# -o a FIFO: the finished trace's rename would replace it; refused before any capture
mkfifo "$d/fifo"
fails_with "-o a FIFO" 2 "$TRAX" collect -o "$d/fifo" -- true
ok "-o a FIFO: it is still a FIFO" test -p "$d/fifo"
fails_with "--db a FIFO: refused before any capture" 2 \
	"$TRAX" collect -o "$d/y.dat" --db "$d/fifo" -- true
ok "--db a FIFO: it is still a FIFO, no trace written" sh -c "test -p '$d/fifo' && test ! -e '$d/y.dat'"

# Not root: checked before anything else (run as nobody when we are root).
if [ "$(id -u)" -ne 0 ]; then
	"$TRAX" collect -o "$d/x.dat" -- true >"$d/out" 2>&1
	rc=$?
elif command -v setpriv >/dev/null; then
	chmod 777 "$d"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$TRAX" collect -o "$d/x.dat" -- true \
		>"$d/out" 2>&1
	rc=$?
else
	rc=skip
fi
if [ "$rc" = skip ]; then
	skip "not root" "setpriv is missing"
else
	is "$rc" 2 "not root: exit 2"
	is "$(cat "$d/out")" "trax collect: not root: capturing needs root (tracefs instances and \
trace_pipe_raw belong to root)" \
		"not root: one line saying so"
	[ ! -e "$d/x.dat" ]
	_result $? "not root: no output"
fi

collect_needs trace-cmd

# tracefs absent (pointed elsewhere: the real one is not unmounted on a shared machine)
TRAX_TRACEFS=$d/none "$TRAX" collect -o "$d/x.dat" -- true >"$d/out" 2>&1
is "$?" 2 "no tracefs: exit 2"
is "$(cat "$d/out")" "trax collect: TRAX_TRACEFS=$d/none: no tracefs there (no events directory)" \
	"no tracefs: one line naming the place"

check_clean() { # desc pid: no instance, no output, no temporary file
	ok "$1: no instance left" no_instance "$2"
	[ ! -e "$d/x.dat" ] && ! ls -a "$d" | grep -q '\.trax-'
	_result $? "$1: no output, no temporary file" "$(ls -a "$d")"
}

run() { # runs trax collect ARGS in the background, waits; sets rc and pid
	run_bg "$d/out" "$d/err" "$TRAX" collect "$@"
	pid=$bg_pid
	wait $pid
	rc=$?
}

run -e sched:no_such_event -o "$d/x.dat" -- true
is "$rc" 2 "unknown event: exit 2"
is "$(cat "$d/err")" "trax collect: unknown event 'sched:no_such_event' (no $TRACEFS/events/sched/no_such_event)" \
	"unknown event: one line naming it"
check_clean "unknown event" $pid

# a misspelt event: the nearest of this kernel's events (sched_switch is in every kernel here)
run -e sched:sched_swich -o "$d/x.dat" -- true
is "$rc" 2 "misspelt event: exit 2"
is "$(cat "$d/err")" "trax collect: unknown event 'sched:sched_swich' (no $TRACEFS/events/sched/sched_swich; did you mean sched:sched_switch?)" \
	"misspelt event: the nearest one"
check_clean "misspelt event" $pid
run -e sched_swich -o "$d/x.dat" -- true
is "$(cat "$d/err")" "trax collect: unknown event 'sched_swich' (no such event or system in $TRACEFS/events; did you mean sched_switch?)" \
	"misspelt bare event name: the nearest one"

run -p sched,nosuchpreset -o "$d/x.dat" -- true
is "$rc" 2 "unknown preset: exit 2"
grep -q "unknown preset 'nosuchpreset' (presets: sched, power, thermal, memory, fence, android)" "$d/err"
_result $? "unknown preset: named, with the list" "$(cat "$d/err")"

# rt-app absent: PATH without it
echo '{"tasks": [{"name": "t", "period": "10ms", "duty_cycle": 10, "duration": "100ms"}]}' >"$d/w.json"
PATH=/nonexistent run -e sched:sched_switch -o "$d/x.dat" -w "$d/w.json"
is "$rc" 2 "rt-app absent: exit 2"
is "$(cat "$d/err")" "trax collect: rt-app is not installed (not in PATH): -w $d/w.json needs it \
(Debian package rt-app)" \
	"rt-app absent: one line saying so"
check_clean "rt-app absent" $pid
[ ! -e "$d/x.rtapp.json" ]
_result $? "rt-app absent: no converted workload written"

echo '{"tasks": [{"name": "t", "period": "10", "duty_cycle": 10, "duration": "1s"}]}' >"$d/bad.json"
run -e sched:sched_switch -o "$d/x.dat" -w "$d/bad.json"
is "$rc" 2 "bad workload file: exit 2"
is "$(cat "$d/err")" "trax collect: $d/bad.json: tasks[0] (name \"t\").period: '10' is not a time \
(a number and a unit: ns, us, ms, s)" \
	"bad workload file: the file, task and key"

run -e sched:sched_switch -o "$d/x.dat" -- /nonexistent/command
is "$rc" 2 "a command that cannot run: exit 2"
is "$(cat "$d/err")" "trax collect: cannot run '/nonexistent/command': No such file or directory" \
	"a command that cannot run: one line"
check_clean "cannot run" $pid
[ ! -e "$d/x.log" ]
_result $? "cannot run: no empty log left"

# the workload fails: the trace is kept, marked incomplete by its name
run -e sched:sched_switch -o "$d/x.dat" -- sh -c 'echo doing; exit 3'
is "$rc" 2 "workload exits 3: exit 2"
is "$(cat "$d/err")" "trax collect: workload 'sh' exited with status 3; trace kept as \
$d/x.dat.incomplete (workload log: $d/x.log)" \
	"workload exits 3: one line, where the trace and the log are"
check_clean "workload exits 3" $pid
ok "workload exits 3: the incomplete trace reads" trace-cmd report "$d/x.dat.incomplete"
is "$(cat "$d/x.log")" "doing" "workload exits 3: its output is in the log"
run -e sched:sched_switch --ignore-status -o "$d/x.dat" -- sh -c 'exit 3'
is "$rc" 0 "--ignore-status: exit 0"
[ -e "$d/x.dat" ] && [ ! -e "$d/x.dat.incomplete" ]
_result $? "--ignore-status: a complete trace (the stale .incomplete is gone)"
rm -f "$d/x.dat" "$d/x.log"

# signals: the workload is stopped, the instance removed, the trace kept as incomplete
for sig in INT TERM; do
	run_bg "$d/out" "$d/err" "$TRAX" collect -e sched:sched_switch -o "$d/x.dat" -- sleep 60
	pid=$bg_pid
	# the instance and the workload are there before the signal (else "no instance left"
	# and "the workload is stopped" would be about nothing): wait up to 5 s for each
	wpid=
	for _ in $(seq 50); do
		[ -e "$TRACEFS/instances/trax-collect-$pid" ] && wpid=$(pgrep -P $pid -x sleep) &&
			break
		sleep 0.1
	done
	ok "SIG$sig: the capture runs in its instance trax-collect-$pid" \
		test -d "$TRACEFS/instances/trax-collect-$pid"
	sleep 0.5
	kill -$sig $pid
	wait $pid
	rc=$?
	is "$rc" 2 "SIG$sig: exit 2"
	grep -q "^trax collect: interrupted by SIG$sig; partial trace kept as $d/x.dat.incomplete$" "$d/err"
	_result $? "SIG$sig: one line saying so" "$(cat "$d/err")"
	check_clean "SIG$sig" $pid
	[ -n "$wpid" ] && ! kill -0 "$wpid" 2>/dev/null
	_result $? "SIG$sig: the workload is stopped"
	ok "SIG$sig: the incomplete trace reads" trace-cmd report "$d/x.dat.incomplete"
	rm -f "$d/x.dat.incomplete"
done

# disk full: a 1 MB file system, filled by the drain
if mkdir -p "$d/small" && mount -t tmpfs -o size=1m trax-test "$d/small" 2>/dev/null; then
	run -p sched -b 256 -o "$d/small/x.dat" -- stress-ng --switch 1 --timeout 5
	is "$rc" 2 "disk full: exit 2"
	want="^trax collect: $d/small/x.dat: No space left on device, disk full"
	want="$want (writing CPU [0-9]*'s data to $d/small/.x.dat.trax-[0-9]*.cpu[0-9]*)$"
	grep -q "$want" "$d/err"
	_result $? "disk full: one line naming the file" "$(cat "$d/err")"
	ok "disk full: no instance left" no_instance $pid
	is "$(ls -a "$d/small" | grep -v '^\.\.\?$' | grep -v '^x\.log$')" "" \
		"disk full: nothing left but the workload's log"
	umount "$d/small"
else
	skip "disk full" "cannot mount a small tmpfs"
fi

# a capture killed outright (SIGKILL) leaves its instance; the next capture removes it
dead=4194300
while kill -0 $dead 2>/dev/null; do dead=$((dead - 1)); done
mkdir "$TRACEFS/instances/trax-collect-$dead"
run -e sched:sched_switch -o "$d/x.dat" -- true
is "$rc" 0 "a stale instance: the capture works"
grep -q "warning: removed instance trax-collect-$dead left by a killed trax" "$d/err"
_result $? "a stale instance: removed, with a warning" "$(cat "$d/err")"
ok "a stale instance: gone" no_instance $dead

run --extract no-such-instance-here -o "$d/y.dat"
is "$rc" 2 "--extract of a missing instance: exit 2"
is "$(cat "$d/err")" "trax collect: no tracefs instance 'no-such-instance-here' (in $TRACEFS/instances)" \
	"--extract of a missing instance: one line"
finish
