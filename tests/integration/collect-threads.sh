#!/usr/bin/env bash
# Thread identity on trax's own captures (root): tests/tools/tidwork's threads report their own
# gettid(), getpid() and CPU time as markers; the expected lifetimes, tgids, names, births and
# deaths come from those reports and from trace-cmd report (tests/integration/collect-threads.pl),
# never from trax. One of its processes blocks (D) in its exit after sched_process_exit, so the
# lifetime must end at its dead switch-out, not at the first switch after the exit.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/collect-lib.bash"
collect_needs trace-cmd losetup perl

tidwork=${TRAX_BUILD:-$TOP/build}/tools/tidwork
loopdev=
cleanup() {
	set +e
	[ -n "$loopdev" ] && losetup -d "$loopdev"
	rm -rf "$TMP"
}
trap cleanup EXIT

d=$TMP/threads
mkdir -p "$d"
truncate -s 32M "$d/blk.img"
if ! loopdev=$(losetup -f --show "$d/blk.img" 2>"$d/losetup.err"); then
	loopdev=
	skip "collect-threads.sh" "no loop device: $(cat "$d/losetup.err")"
	finish
fi

timeout -k 10 120 "$TRAX" collect -p sched -o "$d/x.dat" -- "$tidwork" "$loopdev" >"$d/out" 2>"$d/err"
is "$?" 0 "collect -p sched -- tidwork exits 0"
grep -q "none lost" "$d/out"
_result $? "nothing lost" "$(cat "$d/out" "$d/err")"
trace-cmd report -t "$d/x.dat" >"$d/report" 2>/dev/null
perl "$(dirname "$0")/collect-threads.pl" <"$d/report" >"$d/facts"
"$TRAX" load "$d/x.dat" -o "$d/x.db" >/dev/null
db=$d/x.db

# the workload's reports: name=NAME pid=TID tgid=PID cpu_ns=N
sed -n 's/.*tracing_mark_write: tidwork: name=\([^ ]*\) pid=\([0-9]*\) tgid=\([0-9]*\) cpu_ns=\([0-9]*\).*/\1 \2 \3 \4/p' \
	"$d/report" >"$d/reports"
is "$(wc -l <"$d/reports")" 7 "7 threads reported"
is "$(awk '{ print $3 }' "$d/reports" | sort -u | wc -l)" 3 "in 3 processes"
fact() { awk -v k="$1" -v p="$2" '$1 == k && $2 == p { v = $3 } END { print v }' "$d/facts"; }

pids=$(awk '{ print $2 }' "$d/reports" | paste -sd,)
is "$(q "$db" "SELECT count(*) FROM thread WHERE pid IN ($pids)")" 7 \
	"7 lifetimes for the 7 threads (one each)"
is "$(q "$db" "SELECT count(DISTINCT tgid) FROM thread WHERE pid IN ($pids)")" 3 \
	"their tgids name 3 processes"

while read -r name pid tgid cpu; do
	is "$(q "$db" "SELECT count(*) FROM thread WHERE pid = $pid")" 1 "$name ($pid): one lifetime"
	is "$(q "$db" "SELECT tgid FROM thread WHERE pid = $pid")" "$tgid" "$name ($pid): tgid $tgid"
	is "$(q "$db" "SELECT comm FROM thread WHERE pid = $pid")" "$name" "$name ($pid): named $name"
	born=$(fact born "$pid")
	if [ "$name" != tidwork ]; then
		# born in the trace: the lifetime starts at its task_newtask
		is "$(q "$db" "SELECT start_ts FROM thread WHERE pid = $pid")" "$born" \
			"$name ($pid): the lifetime starts at its task_newtask ($born)"
	fi
	dead=$(fact dead "$pid")
	is "$(q "$db" "SELECT end_ts FROM thread WHERE pid = $pid")" "$dead" \
		"$name ($pid): the lifetime ends at its switch-out in X/Z ($dead)"

	# every selector of the thread measures the same runtime: the one trace-cmd's switches give
	by_pid=$(q "$db" "SELECT trax_metric('{\"metric\": \"runtime\", \"task\": {\"pid\": $pid}}')")
	read -r ref misses bounded <<<"$(awk -v p="$pid" '$1 == "runtime" && $2 == p { print $3, $4, $5 }' "$d/facts")"
	if [ "$bounded" = "$ref" ]; then
		is "$by_pid" "$ref" "$name ($pid): runtime by pid is trace-cmd's ($ref ns)"
	else
		# a switch-out never seen switched in: that slice is bounded from the evidence
		is "$by_pid" "$bounded" \
			"$name ($pid): runtime by pid is trace-cmd's complete slices ($ref ns) and bounded ones ($misses switch-outs never seen in: $bounded ns)"
	fi
	if [ "$name" != tidwork ] && [ "$name" != tw-child ]; then
		# a comm selector matches every name a thread had: the threads of process 1 were
		# first named tidwork, tw-child-thr first tw-child; the other names are unique
		is "$(q "$db" "SELECT trax_metric('{\"metric\": \"runtime\", \"task\": \"$name\"}')")" \
			"$by_pid" "$name ($pid): runtime by comm = by pid"
	fi
	if [ "$name" != tidwork ] && [ "$name" != tw-blocker ]; then
		# and it is the thread's own CPU time (interrupts it served are in slices, not in
		# its CPU time; the blocker's exit does its write-back after the report)
		near "$by_pid" "$cpu" "$((cpu / 10 + 2000000))" \
			"$name ($pid): runtime ~ its own CLOCK_THREAD_CPUTIME_ID ($cpu ns)"
	fi
done <"$d/reports"

# a process's runtime by tgid is the sum of its threads' runtimes by pid
for tgid in $(awk '{ print $3 }' "$d/reports" | sort -u); do
	sum=0
	for pid in $(awk -v g="$tgid" '$3 == g { print $2 }' "$d/reports"); do
		sum=$((sum + $(q "$db" "SELECT trax_metric('{\"metric\": \"runtime\", \"task\": {\"pid\": $pid}}')")))
	done
	is "$(q "$db" "SELECT trax_metric('{\"metric\": \"runtime\", \"task\": {\"tgid\": $tgid}, \"aggregate\": \"sum\"}')")" \
		"$sum" "process $tgid: runtime by tgid = the sum of its threads' by pid"
done

# switch-outs of tasks never seen switched in on a CPU: counted per CPU, every slice bounded
# from the evidence; the facts come from trace-cmd's switches (collect-threads.pl)
for cpu in $(seq 0 $(($(nproc) - 1))); do
	want=$(awk -v c="$cpu" '$1 == "unseen" && $2 == c { print $3 }' "$d/facts")
	is "$(q "$db" "SELECT count(*) FROM anomaly WHERE kind = 'switch_out_unseen_in' AND detail LIKE 'CPU $cpu: %'")" \
		"${want:-0}" "CPU $cpu: ${want:-0} switch-outs never seen switched in, in the anomaly table"
	is "$(q "$db" "SELECT value FROM meta WHERE key = 'sched.switch_out_unseen_in.cpu$cpu'")" \
		"$want" "CPU $cpu: the count in meta"
done
awk '$1 == "runtime" { print $2, $5 }' "$d/facts" | sort >"$d/bounded.want"
q "$db" "SELECT pid, sum(dur) FROM sched_slice WHERE clipped & 3 = 0 GROUP BY pid" | tr , ' ' |
	sort >"$d/bounded.got"
diff "$d/bounded.want" "$d/bounded.got" >"$d/bounded.diff"
_result $? "every pid: runtime of its complete and bounded slices as trace-cmd's switches give" \
	"$(head -5 "$d/bounded.diff")"
is "$(q "$db" "SELECT count(*) FROM sched_slice WHERE clipped & 8 AND pid != 0")" \
	"$(awk '$1 == "flagged" { print $2 }' "$d/facts")" \
	"every slice bounded around a switch-out never seen switched in (pid != 0) is flagged 8"

# a rule on a thread with such a slice says so; one on a thread without does not
missed=$(awk 'NR == FNR { if ($1 == "runtime" && $3 != $5) m[$2] = 1; next } ($2 in m) { print $2; exit }' \
	"$d/facts" "$d/reports")
clean=$(awk 'NR == FNR { if ($1 == "runtime" && $3 == $5) m[$2] = 1; next } ($2 in m) { print $2; exit }' \
	"$d/facts" "$d/reports")
for pid in $missed $clean; do
	printf '{"rules": [{"id": "rt", "metric": "runtime", "task": {"pid": %s}, "expect": ">= 0 s"}]}\n' \
		"$pid" >"$d/rt.json"
	"$TRAX" check "$d/rt.json" "$db" --format tap >"$d/rt.tap" 2>&1
	if [ "$pid" = "$missed" ]; then
		grep -q "^# rt: note: rests on [0-9]* slices\? (.*) whose switch-in was not recorded" "$d/rt.tap"
		_result $? "pid $pid (a slice bounded): the rule's diagnostics say so" "$(cat "$d/rt.tap")"
	else
		! grep -q "note:" "$d/rt.tap"
		_result $? "pid $pid (no slice bounded): no note" "$(cat "$d/rt.tap")"
	fi
done
[ -n "$missed" ] || skip "rule note on a bounded slice" "no tidwork thread had a switch-in unrecorded in this capture"

# trax info says it per CPU
for cpu in $(awk '$1 == "unseen" { print $2 }' "$d/facts"); do
	want=$(awk -v c="$cpu" '$1 == "unseen" && $2 == c { print $3 }' "$d/facts")
	"$TRAX" info "$db" | grep -qx "CPU $cpu: $want switch-outs of tasks never seen switched in (slices bounded from wakeups and migrations)"
	_result $? "trax info: CPU $cpu: $want switch-outs of tasks never seen switched in" "$("$TRAX" info "$db" | tail -3)"
done

# the blocker's exit: sched_process_exit, then a switch-out in D, then the dead one
bpid=$(awk '$1 == "tw-blocker" { print $2 }' "$d/reports")
bexit=$(fact exit "$bpid")
shape=$(awk -v p="$bpid" -v e="$bexit" '$1 == "out" && $2 == p && $3 > e { print $4 }' "$d/facts" |
	grep -E '^(D|X|Z)' | uniq | tr '\n' ' ')
case "$shape" in
"D "*"X "|"D "*"Z ") _result 0 "tw-blocker blocked in D after sched_process_exit, then died" ;;
*) _result 1 "tw-blocker blocked in D after sched_process_exit, then died" "switch-outs after exit: $shape" ;;
esac
is "$(q "$db" "SELECT count(*) FROM thread_state s JOIN thread t USING(utid) WHERE t.pid = $bpid AND s.state = 'D' AND s.ts > $bexit")" \
	"$(awk -v p="$bpid" -v e="$bexit" '$1 == "out" && $2 == p && $3 > e && $4 ~ /^D/' "$d/facts" | wc -l)" \
	"tw-blocker: every D after its exit is in its thread_state"

# trax info counts lifetimes: here (no pid reused) the distinct pids that events name
want=$(awk '$1 == "pids" { print $2 }' "$d/facts")
"$TRAX" info "$d/x.dat" >"$d/info"
grep -q "^tasks: *$want threads in [0-9]* processes" "$d/info"
_result $? "trax info: $want threads (trace-cmd's distinct pids)" "$(grep tasks "$d/info")"
finish
