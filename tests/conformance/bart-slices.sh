#!/usr/bin/env bash
# bart/raw_trace.dat: sched_slice semantics of DESIGN.md, checked against BART's own numbers.
. "$(dirname "$0")/../lib.sh"
f=$TRACES/bart/raw_trace.dat
need_shared "$f" "bart sched_slice conformance" || finish

"$TRAX" load "$f" -o "$TMP/full.db" >/dev/null
"$TRAX" load "$f" -o "$TMP/sw.db" --events sched_switch >/dev/null

# BART (tests/test_sched_assert.py): ls (pid 4734) runs 0.003474 s with partial slices dropped.
# 3473720 ns is the exact sum of its complete slices (trace-cmd report -t, by hand).
is "$(q "$TMP/full.db" "SELECT sum(dur) FROM sched_slice WHERE pid=4734 AND clipped=0")" 3473720 \
	"pid 4734 runs 3473720 ns in complete slices"
is "$(q "$TMP/full.db" "SELECT sum(dur) FROM sched_slice WHERE pid=4734 AND clipped=0 AND cpu IN (0,3,4,5)")" 3473720 \
	"all of it on CPUs {0,3,4,5}"
# pid 4734 is one thread named trace-cmd, then ls after exec.
is "$(q "$TMP/full.db" "SELECT group_concat(comm, '>') FROM (SELECT c.comm FROM thread_comm c JOIN thread t USING(utid) WHERE t.pid=4734 ORDER BY c.ts)")" \
	"trace-cmd>ls" "pid 4734 is named trace-cmd, then ls"
is "$(q "$TMP/full.db" "SELECT count(*) FROM thread WHERE pid=4734")" 1 "pid 4734 is one thread"
# Loading only sched_switch gives the same slices.
is "$(q "$TMP/sw.db" "SELECT count(*), sum(dur), sum(clipped) FROM sched_slice")" \
	"$(q "$TMP/full.db" "SELECT count(*), sum(dur), sum(clipped) FROM sched_slice")" \
	"--events sched_switch: same slices as a full load"
# Each CPU's first switch: the clipped slice starts at that CPU's first record.
is "$(q "$TMP/full.db" "SELECT count(*) FROM sched_slice s WHERE clipped & 1 AND ts != (SELECT value FROM meta WHERE key='cpu.' || s.cpu || '.first_ts')")" \
	0 "clipped slices start at their CPU's first record"
# ... and there is one to check (trace-cmd report -t): CPU 2's first record is a bprint at
# 106439.675570920, before its first switch; CPUs 0, 1 and 5 begin with a switch (nothing
# before it to clip), CPUs 3 and 4 have no switch.
is "$(q "$TMP/full.db" "SELECT cpu || ' ' || ts FROM sched_slice WHERE clipped & 1")" \
	"2 106439675570920" "one clipped first slice: CPU 2's, from its first record"
# The trace's first sched_switch, per BART's test: 106439.675591 s.
is "$(q "$TMP/full.db" "SELECT min(ts)/1000 FROM sched_switch")" 106439675591 "first sched_switch at 106439.675591 s"
finish
