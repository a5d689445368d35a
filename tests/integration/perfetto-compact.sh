#!/usr/bin/env bash
# tests/integration/perfetto-compact.sh: Perfetto's compact_sched bundles (sched_switch and
# sched_waking as packed columns, comms interned per bundle) load into the rows of their plain
# forms. Inputs are textproto written by hand (tests/fixtures/perfetto/compact*.textproto),
# encoded with protoc; expected values are the twin written in plain form and values worked
# by hand from the textproto; bad inputs are bytes written here.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../perfetto-lib.sh"

FIX=$TOP/tests/fixtures/perfetto

if ! command -v protoc >/dev/null; then
	skip "compact_sched inputs encoded by protoc" "protoc absent (Debian: protobuf-compiler)"
elif need_shared "$PROTO" "the Perfetto schema"; then
	pf_encode "$FIX/compact.textproto" "$TMP/compact.pftrace"
	pf_encode "$FIX/compact-plain.textproto" "$TMP/plain.pftrace"
	ok "trax loads the compact_sched trace" "$TRAX" load "$TMP/compact.pftrace" -o "$TMP/c.db"
	ok "... and its plain twin" "$TRAX" load "$TMP/plain.pftrace" -o "$TMP/p.db"
	for t in sched_switch sched_waking sched_slice thread_state thread thread_comm; do
		same "$t: the compact form gives the plain form's rows" \
			"$TMP/c.db" "SELECT * FROM $t ORDER BY 1, 2, 3" \
			"$TMP/p.db" "SELECT * FROM $t ORDER BY 1, 2, 3"
	done
	# by hand: the columns' delta timestamps (CPU 0: 300, +200; CPU 1: 250, +100; 450)
	is "$(q "$TMP/c.db" "SELECT group_concat(ts || ':' || prev_pid || '>' || next_comm, ' ')
		FROM (SELECT * FROM sched_switch ORDER BY ts)")" \
		"100:0>a 150:0>c 250:12>d 300:10>b 350:13>c 450:12>swapper/1 500:11>swapper/0" \
		"switches in time order across the forms, comms from each bundle's intern table"
	is "$(q "$TMP/c.db" "SELECT group_concat(ts || ':' || common_pid || ':' || pid || ':' ||
		comm || ':' || target_cpu || ':' || coalesce(success, 'null'), ' ') AS r
		FROM (SELECT * FROM sched_waking ORDER BY ts)")" "200:10:11:b:0:null 400:12:13:d:1:null" \
		"wakings: the waker is the task on the CPU, success is not recorded"
	is "$(q "$TMP/c.db" "SELECT value FROM meta WHERE key IN
		('perfetto.ftrace.bundles.compact_sched', 'perfetto.ftrace.compact_sched.sched_switch',
		 'perfetto.ftrace.compact_sched.sched_waking') ORDER BY key" | tr '\n' ' ')" "3 5 2 " \
		"meta counts the compact bundles and their events (3 bundles, 5 switches, 2 wakings)"
	# b (pid 11) runs on CPU 0 from 300 to 500: 200 ns; its thread is named by the intern table
	is "$(q "$TMP/c.db" "SELECT sum(s.dur) FROM sched_slice s JOIN thread t USING (utid)
		WHERE t.comm = 'b'")" 200 "b's residency is 200 ns (300 to 500)"

	# --events sched_waking: the switches are not loaded, the wakers are still known
	ok "--events sched_waking loads" "$TRAX" load "$TMP/compact.pftrace" -o "$TMP/w.db" \
		--events sched_waking
	is "$(q "$TMP/w.db" "SELECT group_concat(common_pid, ' ') FROM
		(SELECT * FROM sched_waking ORDER BY ts)")" "10 12" \
		"... and the wakers come from switches not loaded"

	# A CPU whose first switch is compact: the task switched out is unknown (NULL), the next
	# one runs from the switch on.
	cat >"$TMP/first.textproto" <<'TP'
packet { trusted_packet_sequence_id: 1 ftrace_events { cpu: 2
  compact_sched { intern_table: "e" intern_table: "swapper/2"
    switch_timestamp: [1000, 300] switch_prev_state: [0, 1] switch_next_pid: [20, 0]
    switch_next_prio: [120, 120] switch_next_comm_index: [0, 1] } } }
TP
	pf_encode "$TMP/first.textproto" "$TMP/first.pftrace"
	ok "a trace of compact switches only loads" "$TRAX" load "$TMP/first.pftrace" -o "$TMP/f.db"
	is "$(q "$TMP/f.db" "SELECT ts || ':' || coalesce(prev_pid, 'null') || ':' ||
		coalesce(prev_comm, 'null') || ':' || common_pid AS r FROM sched_switch ORDER BY ts" |
		tr '\n' ' ')" "1000:null:null:-1 1300:20:e:20 " \
		"the first switch's prev is unknown (NULL, pid -1); the second's is the first's next"
	is "$(q "$TMP/f.db" "SELECT ts || ':' || dur || ':' || pid || ':' || end_state FROM
		sched_slice ORDER BY ts" | tr '\n' ' ')" "1000:300:20:S " \
		"e runs from 1000 to 1300, switched out sleeping; no slice before the first switch"
	is "$(q "$TMP/f.db" "SELECT value FROM meta WHERE key =
		'perfetto.ftrace.compact_sched.prev_unknown'")" 1 "meta counts the unknown prev"
fi

# ---- bad input: bytes written here ----
# Each: a packet (0a LEN) holding ftrace_events (0a LEN) with cpu 0 (08 00) and compact_sched
# (22 LEN) at offset 6, its fields from offset 8: switch_timestamp (0a), switch_next_pid (1a),
# switch_next_comm_index (32), intern_table (2a).
# timestamps [5, 5] (offset 8), next_pid [11] (its values at 14): one value short
pf short.pftrace 0a 0d 0a 0b 08 00 22 07 0a 02 05 05 1a 01 0b
bad_load "a column with fewer values than its timestamps: exit 2 at its values (14)" \
	short.pftrace 14 "column 3 has 1 values, its timestamps 2"
# timestamps [5], next_pid [11], comm index [3] with no intern table
pf comm.pftrace 0a 0f 0a 0d 08 00 22 09 0a 01 05 1a 01 0b 32 01 03
bad_load "a comm index past the intern table: exit 2 at the compact_sched (6)" \
	comm.pftrace 6 "comm index 3 of an intern table of 0"
# next_pid written twice (the second at 14)
pf twice.pftrace 0a 0f 0a 0d 08 00 22 09 0a 01 05 1a 01 0b 1a 01 0c
bad_load "a column written twice: exit 2 at the second (14)" twice.pftrace 14 "written twice"
# switch_timestamp unpacked (a varint, 08 05)
pf unpacked.pftrace 0a 0b 0a 09 08 00 22 05 08 05 1a 01 0b
bad_load "a column not packed: exit 2 at it (8)" unpacked.pftrace 8 \
	"field 1\): wire type 0, the schema's is 2"
# two compact_sched in one bundle (the second at 14)
pf two.pftrace 0a 14 0a 12 08 00 22 06 0a 01 05 1a 01 0b 22 06 0a 01 06 1a 01 0b
bad_load "two compact_sched in one bundle: exit 2 at the second (14)" two.pftrace 14 \
	"a second compact_sched"
# timestamps without pids
pf nopid.pftrace 0a 09 0a 07 08 00 22 03 0a 01 05
bad_load "timestamps without pids: exit 2 at the compact_sched (6)" nopid.pftrace 6 \
	"timestamps without pids"
# an intern_table string that runs past its message (length 9 in a 3-byte compact_sched)
pf intern.pftrace 0a 09 0a 07 08 00 22 03 2a 09 61
bad_load "an intern string past its message: exit 2 at it (8)" intern.pftrace 8 "truncated"
finish
