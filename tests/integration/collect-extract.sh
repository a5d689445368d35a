#!/usr/bin/env bash
# The trace.dat writer against the kernel's own text: events recorded in an instance set up
# here are read through its `trace` file (the kernel formats them), then written by
# `trax collect --extract` and printed by `trace-cmd report -N` (formats from the file, no
# plugins). Every event must come out the same: CPU, time, pid, name and text.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/collect-lib.bash"
collect_needs trace-cmd

d=$TMP/extract
mkdir -p "$d"
name=trax-test-extract-$$
inst=$TRACEFS/instances/$name
cleanup() { [ -d "$inst" ] && rmdir "$inst"; rm -rf "$TMP"; }
trap cleanup EXIT
mkdir "$inst" || { skip "extract" "cannot create instance $name"; finish; }
echo 0 >"$inst/tracing_on"
echo 512 >"$inst/buffer_size_kb"
for e in sched/sched_switch sched/sched_wakeup sched/sched_waking sched/sched_process_exec \
	sched/sched_process_exit; do
	echo 1 >"$inst/events/$e/enable"
done
echo 1 >"$inst/tracing_on"
echo "extract test: before" >"$inst/trace_marker"
for i in 1 2 3 4 5; do
	sh -c 'ls / >/dev/null; sleep 0.01'
done
echo "extract test: after, with  two spaces" >"$inst/trace_marker"
echo 0 >"$inst/tracing_on"

# "pid cpu time event text", from the kernel's text and from trace-cmd's
grep -v '^#' "$inst/trace" |
	sed -E 's/^ *.*-([0-9]+) +\[([0-9]+)\] [^ ]+ +([0-9]+\.[0-9]+): ([a-z_0-9]+): (.*)$/\1 \2 \3 \4 \5/' |
	sed -E 's/ +$//' |
	sed -E 's/^([0-9]+ [0-9]+ [0-9.]+) tracing_mark_write (.*)$/\1 print tracing_mark_write: \2/' |
	sort >"$d/kernel"	# (the kernel prints a marker without the event's name, print)
n=$(wc -l <"$d/kernel")
# if the system was busy, the oldest events were overwritten: the kernel's count per CPU
for s in "$inst"/per_cpu/cpu*/stats; do
	c=${s%/stats}
	echo "${c##*/cpu} $(awk '/^overrun:/ { print $2 }' "$s")"
done | awk '$2 > 0' | sort -n >"$d/overrun"
"$TRAX" collect --extract "$name" -o "$d/x.dat" >"$d/out" 2>&1
is "$?" 0 "collect --extract exits 0"
[ -d "$inst" ]
_result $? "--extract leaves the instance in place"
trace-cmd report -N "$d/x.dat" 2>/dev/null >"$d/report"
grep -v '^cpus=' "$d/report" | grep -v '^CPU:[0-9]* \[.*EVENTS DROPPED\]$' |
	sed -E 's/^ *.*-([0-9]+) +\[([0-9]+)\] +([0-9]+\.[0-9]+): ([a-z_0-9]+): +(.*)$/\1 \2 \3 \4 \5/' |
	sed -E 's/ +$//' | sort >"$d/tracecmd"
[ "$n" -gt 50 ]
_result $? "the kernel's text holds the events ($n)"
is "$(wc -l <"$d/tracecmd")" "$n" "trace-cmd reads as many events from the file"
diff "$d/kernel" "$d/tracecmd" >"$d/diff"
_result $? "every event's CPU, time, pid, name and text are the kernel's" "$(head -20 "$d/diff")"
is "$(sed -n 's/^CPU:\([0-9]*\) \[\([0-9]*\) EVENTS DROPPED\]$/\1 \2/p' "$d/report" |
	awk '{ s[$1] += $2 } END { for (c in s) print c, s[c] }' | sort -n)" "$(cat "$d/overrun")" \
	"events the kernel overwrote (if any) are marked with their count"
grep -q "print tracing_mark_write: extract test: after, with  two spaces$" "$d/tracecmd"
_result $? "the markers come through" "$(grep print "$d/tracecmd")"
"$TRAX" load "$d/x.dat" -o "$d/x.db" >/dev/null
is "$(q "$d/x.db" "SELECT sum(count) FROM event_type")" "$n" "trax load reads as many"
is "$(q "$d/x.db" "SELECT group_concat(name, ' ') FROM (SELECT name FROM event_type
	WHERE system = 'sched' ORDER BY name)")" \
	"sched_process_exec sched_process_exit sched_switch sched_wakeup sched_waking" \
	"the file holds the formats of the instance's enabled events"
finish
