#!/usr/bin/env bash
# tests/integration/prev-state.sh: prev_state numbers in traces that carry no format are read
# in the numbering their values show (doc/db.md, prev_state numberings). Before Linux 4.14,
# 64 is TASK_DEAD (x) and 4096 (TASK_STATE_MAX here) is preempted; from 4.14 on, 16 is X,
# 64 is P (parked) and 128 I. Expected values are worked by hand from the lines below.
. "$(dirname "$0")/../lib.sh"

sw() { # ts cpu prev_comm prev_pid prev_state next_comm next_pid
	printf '%16s-%-5s [%03d] %12s: sched_switch:          prev_comm=%s prev_pid=%s prev_prio=120 prev_state=%s next_comm=%s next_pid=%s next_prio=120\n' \
		"$3" "$4" "$2" "$1" "$3" "$4" "$5" "$6" "$7"
}

# ---- pre-4.14: 130 = D|K, 64 = x (dead: the lifetime ends), 4096 alone = R+ ----
{
	echo "version = 6"
	echo "cpus=2"
	sw 10.000100 0 swapper/0 0 0 worker 200
	sw 10.000200 0 worker 200 130 dying 201
	sw 10.000300 0 dying 201 64 busy 202
	sw 10.000400 0 busy 202 4096 swapper/0 0
} >"$TMP/old.txt"
"$TRAX" load "$TMP/old.txt" -o "$TMP/old.db" >/dev/null 2>"$TMP/err"
is "$?" 0 "pre-4.14 text: loads"
is "$(q "$TMP/old.db" "SELECT value FROM meta WHERE key = 'sched.prev_state_numbering'")" pre-4.14 \
	"pre-4.14 text: the numbering is inferred as before 4.14"
is "$(q "$TMP/old.db" "SELECT pid || '=' || end_state FROM sched_slice WHERE pid IN (200, 201, 202) ORDER BY ts" | tr '\n' ' ')" \
	"200=D|K 201=x 202=R+ " "pre-4.14 text: 130 is D|K, 64 is x, 4096 is R+"
is "$(q "$TMP/old.db" "SELECT end_ts FROM thread WHERE pid = 201")" 10000300000 \
	"pre-4.14 text: the task switched out in x ends there"
"$TRAX" info "$TMP/old.db" | grep -q "pre-4.14"
_result $? "pre-4.14 text: trax info says which numbering" "$("$TRAX" info "$TMP/old.db")"

# ---- 4.14 on: 64 = P (parked, runs again), 16 = X (dead), 128 = I ----
{
	echo "version = 6"
	echo "cpus=2"
	sw 20.000100 1 swapper/1 0 0 parker 300
	sw 20.000200 1 parker 300 64 leaver 301
	sw 20.000300 1 leaver 301 16 kworker 302
	sw 20.000400 1 kworker 302 128 parker 300
	sw 20.000500 1 parker 300 1 swapper/1 0
} >"$TMP/new.txt"
"$TRAX" load "$TMP/new.txt" -o "$TMP/new.db" >/dev/null 2>"$TMP/err"
is "$?" 0 "4.14+ text: loads"
is "$(q "$TMP/new.db" "SELECT value FROM meta WHERE key = 'sched.prev_state_numbering'")" 4.14+ \
	"4.14+ text: a task switched out with 64 that runs again: from 4.14 on"
is "$(q "$TMP/new.db" "SELECT pid || '=' || end_state FROM sched_slice WHERE pid IN (300, 301, 302) ORDER BY ts" | tr '\n' ' ')" \
	"300=P 301=X 302=I 300=S " "4.14+ text: 64 is P, 16 is X, 128 is I, 1 is S"
is "$(q "$TMP/new.db" "SELECT count(*) FROM thread WHERE pid = 300")" 1 \
	"4.14+ text: the parked task is one lifetime"
is "$(q "$TMP/new.db" "SELECT end_ts FROM thread WHERE pid = 301")" 20000300000 \
	"4.14+ text: the task switched out in X ends there"

# ---- the real 4.x Juno trace (-R text): ramp dies at its 64 switch-out ----
j=$SHARED/traces/lisa/juno_sched_raw.txt
if need_shared "$j" "juno_sched_raw.txt"; then
	"$TRAX" load "$j" -o "$TMP/j.db" >/dev/null 2>&1
	is "$(q "$TMP/j.db" "SELECT value FROM meta WHERE key = 'sched.prev_state_numbering'")" pre-4.14 \
		"juno_sched_raw.txt: before 4.14"
	# line 1808 by hand: ramp-1706 [002] 81.206524: ... prev_state=64 ==> swapper/2
	is "$(q "$TMP/j.db" "SELECT end_ts FROM thread WHERE pid = 1706")" 81206524000 \
		"juno_sched_raw.txt: ramp's lifetime ends at its switch-out with 64 (x)"
	is "$(q "$TMP/j.db" "SELECT count(*) FROM thread_state s JOIN thread t USING(utid) WHERE t.pid = 1706 AND s.state = 'P'")" 0 \
		"juno_sched_raw.txt: ramp is never shown parked"
	is "$(q "$TMP/j.db" "SELECT count(*) FROM sched_slice WHERE end_state = 'x'")" \
		"$(awk '/\[[0-9]+\]/ { match($0, /\[[0-9]+\]/); c = substr($0, RSTART, RLENGTH);
			first = !(c in seen); seen[c] = 1
			if (!first && / sched_switch: .* prev_state=64 /) n++ } END { print n }' "$j")" \
		"juno_sched_raw.txt: every switch-out with 64 ends its slice in x (awk count; a CPU's first record has no slice before it)"
fi
finish
