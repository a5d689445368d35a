#!/usr/bin/env bash
# tests/integration/perfetto-info.sh: the Perfetto packets that describe a trace rather than
# record events: process_tree and track descriptors (thread names and processes), system_info
# (the kernel, and so the prev_state numbering), ftrace_stats (ring buffer losses, into
# lost_event), trace_stats and clock snapshots. Inputs: tests/fixtures/perfetto/info.textproto
# encoded with protoc, its ftrace text twin info-text.txt, the real trace in ../shared (values
# from protoc's decoding of it), and bad bytes written here.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../perfetto-lib.sh"

FIX=$TOP/tests/fixtures/perfetto
REAL=$TRACES/perfetto/test_trace.perfetto-trace

have_proto=0
if ! command -v protoc >/dev/null; then
	skip "info packets encoded by protoc" "protoc absent (Debian: protobuf-compiler)"
elif need_shared "$PROTO" "the Perfetto schema"; then
	have_proto=1
fi

if [ $have_proto -eq 1 ]; then
	pf_encode "$FIX/info.textproto" "$TMP/info.pftrace"
	ok "trax loads the trace" "$TRAX" load "$TMP/info.pftrace" -o "$TMP/i.db"
	ok "... and its ftrace text twin" "$TRAX" load "$FIX/info-text.txt" -o "$TMP/t.db"

	# the twin: the same rows, threads by pid (utids are numbered in order of sighting, and
	# the text's markers are written by pid 0)
	for qy in \
		"thread|SELECT pid, tgid, comm, start_ts, end_ts FROM thread WHERE pid != 0
			ORDER BY pid, start_ts" \
		"thread_comm|SELECT t.pid, c.ts, c.comm FROM thread_comm c JOIN thread t USING (utid)
			ORDER BY 1, 2" \
		"sched_slice|SELECT ts, dur, cpu, pid, prio, end_state, clipped FROM sched_slice
			ORDER BY ts, cpu" \
		"thread_state|SELECT s.ts, s.dur, t.pid, s.state, s.cpu, w.pid FROM thread_state s
			JOIN thread t USING (utid) LEFT JOIN thread w ON w.utid = s.waker_utid
			ORDER BY 1, 3" \
		"sched_switch|SELECT * FROM sched_switch ORDER BY ts, cpu" \
		"sched_waking|SELECT ts, cpu, common_pid, comm, pid, prio, target_cpu FROM
			sched_waking ORDER BY ts" \
		"lost_event|SELECT * FROM lost_event ORDER BY ts, cpu"; do
		same "${qy%%|*}: the Perfetto trace gives its text twin's rows" \
			"$TMP/i.db" "${qy#*|}" "$TMP/t.db" "${qy#*|}"
	done

	# by hand, from info.textproto
	is "$(q "$TMP/i.db" "SELECT pid || ':' || coalesce(tgid, 'null') || ':' || comm FROM thread
		WHERE pid IN (100, 101, 201, 202) ORDER BY pid" | tr '\n' ' ')" \
		"100:100:surfaceflinger 101:100:RenderThread 201:200:app-worker 202:200:app-io " \
		"process_tree: tgids, and the name of pid 100 (seen only as a waker) from its cmdline"
	is "$(meta "$TMP/i.db" kernel.release)" "4.9.118-test" "system_info: meta kernel.release"
	is "$(meta "$TMP/i.db" kernel)" "Linux 4.9.118-test #1 SMP PREEMPT aarch64" \
		"system_info: meta kernel (sysname release version machine)"
	is "$(meta "$TMP/i.db" android.sdk_version):$(meta "$TMP/i.db" kernel.hz)" "28:250" \
		"system_info: SDK version and HZ"
	is "$(meta "$TMP/i.db" sched.prev_state_numbering):$(meta "$TMP/i.db" \
		sched.prev_state_preempted)" "pre-4.14:4096" \
		"a 4.9 kernel: prev_state read before 4.14's numbering, preempted 4096 (4.8 to 4.13)"
	# 64 is x (TASK_DEAD) before 4.14: RenderThread's lifetime ends at its switch out (500);
	# 4096 alone is preempted (R+)
	is "$(q "$TMP/i.db" "SELECT pid || ':' || end_state FROM sched_slice WHERE pid IN (101, 201)
		ORDER BY pid" | tr '\n' ' ')" "101:x 201:R+ " "the switch-outs decoded: 64 x, 4096 R+"
	is "$(q "$TMP/i.db" "SELECT end_ts FROM thread WHERE pid = 101")" 1000000500 \
		"... and RenderThread dies at its switch out in x"
	# without the system_info the same numbers read as 4.14's: 64 is P (parked)
	grep -v 'system_info\|android_build\|hz: 250\|machine: "aarch64" }$' \
		"$FIX/info.textproto" | sed '/^packet { trusted_packet_sequence_id: 1$/d' \
		>"$TMP/nosys.textproto"
	pf_encode "$TMP/nosys.textproto" "$TMP/nosys.pftrace"
	"$TRAX" load "$TMP/nosys.pftrace" -o "$TMP/n.db" >/dev/null 2>&1
	is "$(q "$TMP/n.db" "SELECT end_state FROM sched_slice WHERE pid = 101"):$(meta "$TMP/n.db" \
		sched.prev_state_numbering)" "P:4.14+" "without system_info: 64 is P (the default 4.14+)"

	# ftrace_stats: end less start. CPU 0: overruns 7 - 2 = 5, dropped 1: 6 lost, no bundle
	# marks it, so before CPU 0's first event (100); CPU 1: 3, at its one lost_events bundle
	is "$(meta "$TMP/i.db" cpu.0.overrun):$(meta "$TMP/i.db" cpu.0.dropped_events):$(meta \
		"$TMP/i.db" cpu.1.overrun)" "5:1:3" "ftrace_stats: overruns and drops, end less start"
	is "$(q "$TMP/i.db" "SELECT ts || ':' || cpu || ':' || coalesce(count, 'null') FROM
		lost_event ORDER BY ts" | tr '\n' ' ')" "1000000100:0:6 1000000300:1:3 " \
		"lost_event: CPU 0's 6 before its first event, CPU 1's 3 at its lost_events bundle"
	# trace_stats: buffer_stats summed over the buffers, plus the service's own counts
	is "$(q "$TMP/i.db" "SELECT group_concat(substr(key, 22) || '=' || value, ' ') FROM
		(SELECT * FROM meta WHERE key LIKE 'perfetto.trace_stats.%' ORDER BY key)")" \
		"chunks_discarded=6 chunks_overwritten=14 invalid_packets=7 packet_loss=2 patches_discarded=6" \
		"trace_stats: chunks overwritten 4+10, discarded 1+5, packet loss, patches, invalid"
	# clock snapshot: boot 1000000000; realtime 1700000000000000000, monotonic 999000000,
	# monotonic_raw 998000000
	is "$(meta "$TMP/i.db" clock.boot_to_realtime_ns) $(meta "$TMP/i.db" \
		clock.boot_to_monotonic_ns) $(meta "$TMP/i.db" clock.boot_to_monotonic_raw_ns)" \
		"1699999999000000000 -1000000 -2000000" "clock snapshot: the offsets from the boot clock"
	TRAX_CACHE_DIR=$TMP/cache "$TRAX" info "$TMP/i.db" >"$TMP/info" 2>&1
	ok "trax info: the wall-clock offset of the boot clock" grep -qF \
		"clock:    boot (realtime = boot + 1699999999.000000000 s" "$TMP/info"
	ok "trax info: the ring buffer counts" grep -qF \
		"ring buffer counts: cpu.0.dropped_events=1, cpu.0.overrun=5, cpu.1.overrun=3" \
		"$TMP/info"
	ok "trax info: the lost events" grep -qF "lost events: cpu.0.lost_events=6, cpu.1.lost_events=3" \
		"$TMP/info"
	ok "trax info: the kernel" grep -qF "kernel:   Linux 4.9.118-test" "$TMP/info"
	ok "trax info: the packets read are not listed as not read" sh -c \
		"! grep -q '^not read' '$TMP/info'"
	is "$(meta "$TMP/i.db" perfetto.packets.unused)" 0 "no packet counted as unused"

	# track descriptors (the SDK's and atrace's tracks name threads and processes)
	cat >"$TMP/track.textproto" <<'TP'
packet { trusted_packet_sequence_id: 1 track_descriptor { uuid: 1
  process { pid: 300 process_name: "com.example.ui" cmdline: "com.example.ui:main" } } }
packet { trusted_packet_sequence_id: 1 track_descriptor { uuid: 2 parent_uuid: 1
  thread { pid: 300 tid: 301 thread_name: "ui-render" } } }
packet { trusted_packet_sequence_id: 1 ftrace_events { cpu: 0
  event { timestamp: 10 pid: 301 sched_waking { comm: "x" pid: 302 prio: 120 target_cpu: 0 } }
  event { timestamp: 20 pid: 300 sched_waking { comm: "x" pid: 302 prio: 120 target_cpu: 0 } } } }
TP
	pf_encode "$TMP/track.textproto" "$TMP/track.pftrace"
	"$TRAX" load "$TMP/track.pftrace" -o "$TMP/k.db" >/dev/null 2>&1
	is "$(q "$TMP/k.db" "SELECT pid || ':' || tgid || ':' || comm FROM thread WHERE pid IN (300,
		301) ORDER BY pid" | tr '\n' ' ')" "300:300:com.example.ui 301:300:ui-render " \
		"track descriptors: a process by its process_name, a thread by its name and pid"
fi

# ---- the real trace: values from protoc's decoding ----
if [ $have_proto -eq 1 ] && need_shared "$REAL" "the real Perfetto trace"; then
	pf_decode "$REAL" >"$TMP/real.txt"
	"$TRAX" load "$REAL" -o "$TMP/r.db" >/dev/null 2>&1
	rel=$(awk '/^    utsname \{/ { u = 1 } u && /^      release: / { gsub(/"/, "", $2);
		print $2; exit }' "$TMP/real.txt")
	is "$(meta "$TMP/r.db" kernel.release)" "$rel" "the real trace: kernel.release is system_info's ($rel)"
	# ftrace_stats per CPU: the END_OF_TRACE overrun less the START_OF_TRACE one (the
	# earliest start, the latest end)
	awk '/^  ftrace_stats \{/ { fs = 1; ph = "" } fs && /^    phase: / { ph = $2 }
		fs && /^      cpu: / { cpu = $2 } fs && /^      overrun: / { o[ph, cpu] = $2; c[cpu] = 1 }
		/^  \}/ { fs = 0 }
		END { for (k in c) print "cpu." k ".overrun," o["END_OF_TRACE", k] - o["START_OF_TRACE", k] }' \
		"$TMP/real.txt" | sort >"$TMP/ov.want"
	q "$TMP/r.db" "SELECT key, value FROM meta WHERE key LIKE 'cpu.%.overrun' ORDER BY key" \
		>"$TMP/ov.got"
	is "$(cat "$TMP/ov.got")" "$(cat "$TMP/ov.want")" \
		"the real trace: per-CPU overruns as its ftrace_stats say ($(grep -c '' "$TMP/ov.want") CPUs)"
	# the first clock snapshot: realtime (1) less boottime (6)
	read -r rt bt < <(awk '/^  clock_snapshot \{/ { cs = 1 } cs && /clock_id: / { id = $2 }
		cs && /^      timestamp: / { t[id] = $2 } cs && /^  \}/ { print t[1], t[6]; exit }' \
		"$TMP/real.txt")
	is "$(meta "$TMP/r.db" clock.boot_to_realtime_ns)" "$((rt - bt))" \
		"the real trace: boot to realtime from its first clock snapshot ($rt - $bt)"
	# the track descriptors name pid 20855's process (its thread descriptor's tid)
	is "$(q "$TMP/r.db" "SELECT DISTINCT tgid FROM thread WHERE pid = 20855")" 20855 \
		"the real trace: the track descriptor's process gives tid 20855 its tgid"
fi

# ---- bad input: bytes written here ----
# a packet (0a LEN) holding system_info (field 45: ea 02 LEN) whose utsname (field 1) is a
# varint (08 05) at offset 5
pf sys.pftrace 0a 05 ea 02 02 08 05
bad_load "system_info: a utsname not a message: exit 2 at it (5)" sys.pftrace 5 "system_info"
# process_tree (field 2: 12 04) whose thread (12 05, at offset 4) claims 5 bytes of its 2
pf tree.pftrace 0a 06 12 04 12 05 08 01
bad_load "process_tree: a thread longer than the tree: exit 2 at it (4)" tree.pftrace 4 \
	"process_tree"
# ftrace_stats (field 34: 92 02 LEN) of phase END_OF_TRACE (08 02): cpu_stats (12 03, offset
# 7) whose overrun (field 3) is a length-delimited field (1a 01 00) at offset 9
pf fstats.pftrace 0a 0a 92 02 07 08 02 12 03 1a 01 00
bad_load "ftrace_stats: an overrun not a varint: exit 2 at it (9)" fstats.pftrace 9 "ftrace_stats"
# clock_snapshot (field 6: 32 04): a clock (0a 02) whose timestamp (field 2) is a length
# (12 00) at offset 6
pf clock.pftrace 0a 06 32 04 0a 02 12 00
bad_load "clock_snapshot: a timestamp not a varint: exit 2 at it (6)" clock.pftrace 6 \
	"clock_snapshot"
# track_descriptor (field 60: e2 03 LEN) whose thread (field 4: 22 LEN) is cut: its tid
# (field 2) varint runs off the end (10 ff) at offset 7
pf track.pftrace 0a 07 e2 03 04 22 02 10 ff
bad_load "track_descriptor: a thread's varint cut short: exit 2 at it (7)" track.pftrace 7 \
	"track descriptor|thread"

finish
