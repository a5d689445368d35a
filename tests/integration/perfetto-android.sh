#!/usr/bin/env bash
# tests/integration/perfetto-android.sh: Android events from a Perfetto trace load as from ftrace
# text. tests/fixtures/perfetto/android.textproto (encoded here with protoc) and android.txt are
# the same activity written by hand twice: every Android event of the catalogue that Perfetto's
# schema has, as its own message, and the catalogue's events it lacks plus one it does not know
# as GenericFtraceEvents. Both must give the same event tables (every row, field by field) and
# the same derived tables (kills, allocations, heap and GPU counters, fences and their waits,
# atrace slices and counters, anomalies); a few values are worked by hand from the textproto.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../perfetto-lib.sh"

FIX=$TOP/tests/fixtures/perfetto

if ! command -v protoc >/dev/null; then
	skip "Perfetto Android events against their text twin" \
		"protoc absent (Debian: protobuf-compiler)"
	finish
fi
need_shared "$PROTO" "the Perfetto schema" || finish

protoc --proto_path="$(dirname "$PROTO")" --encode=perfetto.protos.Trace \
	"$(basename "$PROTO")" <"$FIX/android.textproto" >"$TMP/a.pftrace"
ok "protoc encodes android.textproto" test -s "$TMP/a.pftrace"
"$TRAX" load "$TMP/a.pftrace" -o "$TMP/pf.db" >/dev/null 2>"$TMP/err"
is "$?" 0 "trax load reads the Perfetto trace"
"$TRAX" load "$FIX/android.txt" -o "$TMP/tx.db" >/dev/null 2>"$TMP/err"
is "$?" 0 "trax load reads its text twin"
is "$(q "$TMP/pf.db" "SELECT value FROM meta WHERE key = 'format'")" perfetto \
	"the trace is read as Perfetto"

# Events per name, counted by protoc's decoding of the trace (generic ones by event_name).
protoc --proto_path="$(dirname "$PROTO")" --decode=perfetto.protos.Trace \
	"$(basename "$PROTO")" <"$TMP/a.pftrace" >"$TMP/a.txt"
awk '/^    event \{$/ { ev = 1; next }
	ev && /^      generic \{$/ { gen = 1; next }
	ev && gen && /^        event_name: / { v = $2; gsub(/"/, "", v); print v; ev = gen = 0; next }
	ev && !gen && /^      [a-z_0-9]+ \{$/ { print $1; ev = 0 }' "$TMP/a.txt" |
	sort | uniq -c | awk '{ print $2 "|" $1 }' >"$TMP/n.want"
for d in pf tx; do
	q "$TMP/$d.db" "SELECT name || '|' || count AS r FROM event_type WHERE count > 0" |
		sort >"$TMP/n.$d"
done
ok "every event gets a table of its name, with protoc's count of it ($(grep -c '' \
	"$TMP/n.want") names)" diff "$TMP/n.want" "$TMP/n.pf"
ok "... as from the text twin" diff "$TMP/n.tx" "$TMP/n.pf"
ok "... under the same system" diff <(q "$TMP/tx.db" "SELECT system || '|' || name AS r FROM \
	event_type ORDER BY name") <(q "$TMP/pf.db" "SELECT system || '|' || name AS r FROM \
	event_type ORDER BY name")
is "$(q "$TMP/pf.db" "SELECT count(*) FROM raw_event")" 0 "no event is left to raw_event"

# Every row of every event table: "table|ts|cpu|pid|field=value|..." with the fields in name
# order and NULLs left out (a Perfetto message may have fields a kernel format lacks).
event_rows() { # db
	local db=$1 t sql c
	for t in $(q "$db" "SELECT table_name FROM event_type WHERE count > 0"); do
		sql="SELECT '$t|' || ts || '|' || cpu || '|' || common_pid"
		for c in $(q "$db" "SELECT f.name FROM event_field f JOIN event_type e ON e.id =
			f.type_id WHERE e.table_name = '$t' ORDER BY f.name"); do
			sql="$sql || coalesce('|$c=' || \"$c\", '')"
		done
		q "$db" "$sql AS r FROM \"$t\""
	done | sort
}
event_rows "$TMP/pf.db" >"$TMP/ev.pf"
event_rows "$TMP/tx.db" >"$TMP/ev.tx"
is "$(grep -c '' "$TMP/ev.pf")" "$(grep -c '^    event {$' "$TMP/a.txt")" \
	"a row for each of the trace's events"
ok "every event row equals its text twin's, field by field" diff "$TMP/ev.tx" "$TMP/ev.pf"

# The derived tables, threads by pid and name (thread ids are each load's own).
derived() { # db
	local db=$1 th="(SELECT pid || ':' || coalesce(comm, '') FROM thread WHERE utid = x.utid)"
	{
	q "$db" "SELECT 'kill', ts, source, pid, comm, oom_score_adj, reason, min_adj, rss_kb,
		$th FROM kill x"
	q "$db" "SELECT 'alloc', ts, dur, source, heap, client, len, ok, error, fallback, total,
		$th FROM alloc x"
	q "$db" "SELECT 'fence', driver, timeline, context, seqno, init_ts, emit_ts, enable_ts,
		signal_ts, destroy_ts, signal_count, waits_on_context, waits_on_seqno FROM fence"
	q "$db" "SELECT 'fence_wait', ts, dur, context, seqno, source, name, $th FROM fence_wait x"
	q "$db" "SELECT 'counter', c.ts, t.name, t.kind, t.cpu, t.zone, t.unit, c.value,
		$th FROM counter c JOIN track x ON x.id = c.track_id JOIN track t ON t.id = x.id"
	q "$db" "SELECT 'slice', ts, dur, name, depth, track, cookie, $th FROM slice x"
	q "$db" "SELECT 'instant', ts, name, track, $th FROM instant x"
	q "$db" "SELECT 'anomaly', ts, kind, detail, $th FROM anomaly x"
	} | sort
}
derived "$TMP/pf.db" >"$TMP/d.pf"
derived "$TMP/tx.db" >"$TMP/d.tx"
for k in kill alloc fence fence_wait counter slice anomaly; do
	grep "^$k," "$TMP/d.pf" >"$TMP/k.pf"
	grep "^$k," "$TMP/d.tx" >"$TMP/k.tx"
	n=$(grep -c '' "$TMP/k.pf")
	ok "$k: $n rows, each its text twin's" test "$n" -gt 0 -a -z "$(diff "$TMP/k.tx" "$TMP/k.pf")"
done
ok "every derived row equals its text twin's" diff "$TMP/d.tx" "$TMP/d.pf"

# Values worked by hand from the textproto (timestamps in us after 100 s).
T0=100000000000
is "$(q "$TMP/pf.db" "SELECT ((ts - $T0) / 1000) || ' ' || source || ' ' || pid || ' ' ||
	oom_score_adj || ' ' || reason AS r FROM kill ORDER BY ts" | tr '\n' ',')" \
	"200 lmkd 4000 905 low_mem_and_swap,310 lowmemory_kill 4100 950 lowmemorykiller,$(:
	)320 mark_victim 4200 100 oom," \
	"kills: lmkd's marker (adj 905), lowmemory_kill (adj 950 from its update), mark_victim (100)"
is "$(q "$TMP/pf.db" "SELECT heap || ' ' || len || ' ' || (dur / 1000) || ' ' || ok || ' ' ||
	fallback AS r FROM alloc WHERE source = 'ion' ORDER BY ts" | tr '\n' ',')" \
	"system 4096 12 1 0,qsecom 8192 30 0 1,system 8192 10 1 0," \
	"ION allocations: start to end 12, 30 (fell back) and 10 us"
is "$(q "$TMP/pf.db" "SELECT heap || ' ' || len || ' ' || error AS r FROM alloc
	WHERE source = 'ion_fail'")" "system 1048576 -12" "the failed allocation keeps its error"
is "$(q "$TMP/pf.db" "SELECT group_concat(total, ' ') FROM (SELECT total FROM alloc WHERE
	source IN ('ion_heap_grow', 'ion_heap_shrink', 'dma_heap_stat') ORDER BY ts)")" \
	"181116928 181112832 2228224" "heap totals of ion_heap_grow/shrink and dma_heap_stat"
is "$(q "$TMP/pf.db" "SELECT coalesce(th.pid, 'all') || ' ' || max(c.value) AS r FROM counter
	c JOIN track t ON t.id = c.track_id LEFT JOIN thread th ON th.utid = t.utid WHERE t.name =
	'gpu_mem_total' GROUP BY t.id ORDER BY th.pid" | tr '\n' ',')" "all 50000000,1000 12000000," \
	"gpu_mem_total: 50000000 B in all, at most 12000000 B for pid 1000"
# generic events fill the fence table: dma_fence_enable_signal at 615 and dma_fence_destroy
# at 700; fence_emit at 751; fence_annotate_wait_on: seqno 6 waits on context 3 seqno 9
is "$(q "$TMP/pf.db" "SELECT context || ' ' || seqno || ' ' || ((init_ts - $T0) / 1000) || ' ' ||
	coalesce(((emit_ts - $T0) / 1000), '-') || ' ' || coalesce(((enable_ts - $T0) / 1000), '-') ||
	' ' || coalesce(((signal_ts - $T0) / 1000), '-') || ' ' || coalesce(((destroy_ts - $T0) /
	1000), '-') || ' ' || coalesce(waits_on_context || ':' || waits_on_seqno, '-') AS r FROM
	fence WHERE driver != 'sync' ORDER BY context, seqno" | tr '\n' ',')" \
	"12 40 600 610 615 670 700 -,12 41 710 - - 740 - -,12 42 711 - - 730 - -,$(:
	)12 43 712 - - - - -,20 5 750 751 752 760 770 -,20 6 779 - - - - 3:9," \
	"fences, with the generic events' enable, emit, destroy and wait-on"
is "$(q "$TMP/pf.db" "SELECT ((ts - $T0) / 1000) || ' ' || (dur / 1000) || ' ' || source AS r
	FROM fence_wait ORDER BY ts" | tr '\n' ',')" \
	"620 60 dma_fence,753 8 fence,810 50 sync_wait," \
	"fence waits: dma_fence 60 us, fence 8 us (generic start and end), sync_wait 50 us"
is "$(q "$TMP/pf.db" "SELECT name || ' ' || busy || ' ' || delta AS r FROM mali_busy ORDER BY
	ts" | tr '\n' ',')" "gpu0 42 -3,gpu0 17 5," \
	"an event the catalogue does not know: a table of its own fields (signed and unsigned)"
is "$(q "$TMP/pf.db" "SELECT group_concat(e.system || ':' || f.name || ':' || f.sql_type, ' ') FROM
	event_field f JOIN event_type e ON e.id = f.type_id WHERE e.name = 'mali_busy'")" \
	"$(q "$TMP/tx.db" "SELECT group_concat(e.system || ':' || f.name || ':' || f.sql_type, ' ') FROM
	event_field f JOIN event_type e ON e.id = f.type_id WHERE e.name = 'mali_busy'")" \
	"... its columns named and typed as the text reader learns them"
is "$(q "$TMP/pf.db" "SELECT value FROM meta WHERE key = 'perfetto.ftrace.events.generic'")" \
	"$(grep -c '^      generic {$' "$TMP/a.txt")" "meta counts the generic events"
# Bytes 0-5: a packet 0a 04 | 40 01 (timestamp 1) 50 01 (sequence 1). Then a packet (6) with a
# bundle (8) of one event (10) whose generic field (FtraceEvent 327, LEN: tag ba 14) is at 12,
# its length at 14 and its body from 15.
good="0a 04 40 01 50 01"
# ---- corrupt generic events, written as bytes (offsets by hand) ----
# body 08 01: event_name as a varint
pf name.pftrace $good 0a 09 0a 07 12 05 ba 14 02 08 01
bad_load "a generic event's event_name of wire type 0: exit 2 at its offset (15)" name.pftrace \
	15 "event_name, field 1\): wire type 0, the schema's is 2"
# body 0a 01 65 (event_name "e") 12 02 | 22 00: a field whose int_value (at 20) is LEN
pf int.pftrace $good 0a 0e 0a 0c 12 0a ba 14 07 0a 01 65 12 02 22 00
bad_load "a generic field's int_value of wire type 2: exit 2 at its offset (20)" int.pftrace \
	20 "int_value, field 4\): wire type 2, the schema's is 0"
# body 0a 01 65 12 05: a field (at 18) of 5 bytes in the 2 left of its event
pf cut.pftrace $good 0a 0c 0a 0a 12 08 ba 14 05 0a 01 65 12 05
bad_load "a generic field running past its event: exit 2 at its offset (18)" cut.pftrace 18 \
	"generic ftrace event\): its length runs past the end"
finish
