#!/usr/bin/env bash
# tests/integration/perfetto-track.sh: Perfetto track events (the SDK's, android.os.Trace
# through it) become the slice, instant and counter rows of the atrace markers of the same
# meaning. Input: tests/fixtures/perfetto/track.textproto encoded with protoc; its twin
# track-text.txt (those markers as ftrace text); values worked by hand; bad bytes written here.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../perfetto-lib.sh"

FIX=$TOP/tests/fixtures/perfetto

have_proto=0
if ! command -v protoc >/dev/null; then
	skip "track events encoded by protoc" "protoc absent (Debian: protobuf-compiler)"
elif need_shared "$PROTO" "the Perfetto schema"; then
	have_proto=1
fi

if [ $have_proto -eq 1 ]; then
	pf_encode "$FIX/track.textproto" "$TMP/tr.pftrace"
	ok "trax loads the track events" "$TRAX" load "$TMP/tr.pftrace" -o "$TMP/p.db"
	ok "... and the markers of its twin" "$TRAX" load "$FIX/track-text.txt" -o "$TMP/t.db"
	for t in slice instant counter track anomaly; do
		same "$t: the track events give their twin's rows" \
			"$TMP/p.db" "SELECT * FROM $t ORDER BY 1, 2, 3" \
			"$TMP/t.db" "SELECT * FROM $t ORDER BY 1, 2, 3"
	done
	same "thread: the same threads and processes" \
		"$TMP/p.db" "SELECT utid, pid, tgid FROM thread ORDER BY utid" \
		"$TMP/t.db" "SELECT utid, pid, tgid FROM thread ORDER BY utid"

	# by hand, from track.textproto
	is "$(q "$TMP/p.db" "SELECT group_concat(s.name || ':' || s.ts || '+' || s.dur || ':' ||
		s.depth || ':' || t.pid, ' ') AS r FROM (SELECT * FROM slice WHERE track IS NULL
		ORDER BY ts) s JOIN thread t USING (utid)")" \
		"frame:1000+500:0:401 draw:1100+100:1:401 second:1700+100:0:401" \
		"thread track: frame holds draw; names from the interned ids of each generation"
	is "$(q "$TMP/p.db" "SELECT group_concat(name || ':' || ts || '+' || dur || ':' || track ||
		':' || cookie, ' ') AS r FROM (SELECT * FROM slice WHERE track IS NOT NULL ORDER BY
		ts)")" "fetch:1050+350:network:0 dns:1080+10:network:1" \
		"the process's named track: nested async slices, their cookie the depth"
	is "$(q "$TMP/p.db" "SELECT group_concat(name || '@' || ts, ' ') AS r FROM (SELECT * FROM
		instant ORDER BY ts)")" "tick@1300 mono@1600" \
		"instants; the monotonic packet at 1500 is 1600 on the boot clock (snapshot: +100)"
	is "$(q "$TMP/p.db" "SELECT group_concat(k.name || '=' || c.value || '@' || c.ts || ':' ||
		t.pid, ' ') AS r FROM (SELECT * FROM counter ORDER BY ts) c JOIN track k ON k.id =
		c.track_id JOIN thread t ON t.utid = k.utid")" \
		"queue_depth=5@1250:400 queue_depth=2.5@1350:400" \
		"the counter track: integer and double values, on its process"
	is "$(q "$TMP/p.db" "SELECT group_concat(pid || ':' || comm, ' ') AS r FROM (SELECT * FROM
		thread ORDER BY pid)")" "400:com.example.sdk 401:sdk-main" \
		"the descriptors name the process and its thread"
	is "$(meta "$TMP/p.db" perfetto.track_event.events):$(meta "$TMP/p.db" \
		perfetto.track_event.slice_begin):$(meta "$TMP/p.db" \
		perfetto.track_event.slice_end):$(meta "$TMP/p.db" \
		perfetto.track_event.instant):$(meta "$TMP/p.db" perfetto.track_event.counter)" \
		"14:5:5:2:2" "meta counts the track events: 14, 5 begins, 5 ends, 2 instants, 2 counters"
	is "$(meta "$TMP/p.db" perfetto.packets.unused)" 0 \
		"track_event, interned_data and trace_packet_defaults packets are read, not unused"

	# events trax cannot place: an unknown track, a clock with no snapshot, no timestamp
	cat >"$TMP/skip.textproto" <<'TP'
packet { trusted_packet_sequence_id: 1 timestamp: 600 track_descriptor { uuid: 11
    thread { pid: 400 tid: 401 } } }
packet { trusted_packet_sequence_id: 1 timestamp: 1000
  track_event { type: TYPE_INSTANT track_uuid: 99 name: "lost" } }
packet { trusted_packet_sequence_id: 1 timestamp: 1100 timestamp_clock_id: 1
  track_event { type: TYPE_INSTANT track_uuid: 11 name: "realtime" } }
packet { trusted_packet_sequence_id: 1
  track_event { type: TYPE_INSTANT track_uuid: 11 name: "untimed" } }
packet { trusted_packet_sequence_id: 1 timestamp: 1200
  track_event { type: TYPE_INSTANT track_uuid: 11 name: "kept" } }
packet { trusted_packet_sequence_id: 1 timestamp: 1300
  track_event { type: TYPE_INSTANT track_uuid: 11 name_iid: 7 } }
TP
	pf_encode "$TMP/skip.textproto" "$TMP/skip.pftrace"
	ok "a trace of events trax cannot all place loads" "$TRAX" load "$TMP/skip.pftrace" \
		-o "$TMP/s.db"
	is "$(q "$TMP/s.db" "SELECT group_concat(coalesce(nullif(name, ''), '(none)') || '@' || ts,
		' ') AS r FROM (SELECT * FROM instant ORDER BY ts)")" "kept@1200 (none)@1300" \
		"only the events it can place are rows (a name id never interned: no name)"
	is "$(meta "$TMP/s.db" perfetto.track_event.skipped.no_track):$(meta "$TMP/s.db" \
		perfetto.track_event.skipped.clock):$(meta "$TMP/s.db" \
		perfetto.track_event.skipped.no_timestamp):$(meta "$TMP/s.db" \
		perfetto.track_event.name_unknown)" "1:1:1:1" \
		"... and the others are counted: no track, no realtime snapshot, no timestamp, no name"
fi

# ---- bad input: bytes written here ----
# a packet (0a LEN) at timestamp 10 (40 0a) holding track_event (5a LEN) whose type (field 9)
# is length-delimited (4a 01 00) at offset 6
pf type.pftrace 0a 07 40 0a 5a 03 4a 01 00
bad_load "track_event: a type not a varint: exit 2 at it (6)" type.pftrace 6 "track event"
# interned_data (62 LEN) whose event name (12 LEN, offset 4) claims 9 bytes of its 2
pf intern.pftrace 0a 06 62 04 12 09 08 01
bad_load "interned_data: an event name longer than its message: exit 2 at it (4)" intern.pftrace 4 \
	"interned"
# track_descriptor (e2 03 LEN) whose uuid (field 1) is a fixed64 (09 + 8 bytes) at offset 5
pf desc.pftrace 0a 0c e2 03 09 09 01 00 00 00 00 00 00 00
bad_load "track_descriptor: a uuid not a varint: exit 2 at it (5)" desc.pftrace 5 \
	"track descriptor"
# trace_packet_defaults (da 03 LEN) whose clock id (field 58: d0 03) is cut short (ff) at 5
pf defaults.pftrace 0a 05 da 03 02 d0 03
bad_load "trace_packet_defaults: a clock id cut short: exit 2 at it (5)" defaults.pftrace 5 \
	"defaults"

finish
