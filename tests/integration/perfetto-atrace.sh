#!/usr/bin/env bash
# tests/integration/perfetto-atrace.sh: atrace markers in a Perfetto trace (ftrace print events)
# become the slices, counters and instants a systrace of the same markers gives. Input:
# tests/fixtures/perfetto/atrace.textproto encoded with protoc, its ftrace text twin
# atrace-text.txt, and values worked by hand from the markers.
. "$(dirname "$0")/../lib.sh"

PROTO=$SHARED/perfetto/perfetto_trace.proto
FIX=$TOP/tests/fixtures/perfetto

if ! command -v protoc >/dev/null; then
	skip "atrace markers encoded by protoc" "protoc absent (Debian: protobuf-compiler)"
	finish
fi
need_shared "$PROTO" "the Perfetto schema" || finish

protoc --proto_path="$(dirname "$PROTO")" --encode=perfetto.protos.Trace \
	"$(basename "$PROTO")" <"$FIX/atrace.textproto" >"$TMP/a.pftrace"
ok "trax loads the Perfetto trace" "$TRAX" load "$TMP/a.pftrace" -o "$TMP/p.db"
ok "... and its ftrace text twin" "$TRAX" load "$FIX/atrace-text.txt" -o "$TMP/t.db"

for t in slice instant counter track thread anomaly; do
	same "$t: the Perfetto trace gives its text twin's rows" \
		"$TMP/p.db" "SELECT * FROM $t ORDER BY 1, 2, 3" "$TMP/t.db" "SELECT * FROM $t ORDER BY 1, 2, 3"
done
# the print rows: the same markers (a print event's buf keeps the kernel's newline, as in a
# trace.dat; the text form has none)
same "print: the same markers at the same times" \
	"$TMP/p.db" "SELECT ts, cpu, common_pid, rtrim(buf, char(10)) FROM print ORDER BY ts" \
	"$TMP/t.db" "SELECT ts, cpu, common_pid, buf FROM print ORDER BY ts"

# by hand: draw 100-400 (depth 0) holds measure 150-200 (depth 1); load is the async slice
# S at 300 to F at 600, cookie 7, on its own track
is "$(q "$TMP/p.db" "SELECT group_concat(name || ':' || ts || '+' || dur || ':' || depth || ':' ||
	coalesce(track, '-') || ':' || coalesce(cookie, '-'), ' ') AS r FROM (SELECT * FROM slice
	ORDER BY ts)")" \
	"draw:1000000100+300:0:-:- measure:1000000150+50:1:-:- load:1000000300+300:0:load:7" \
	"slices: B/E nested by depth, S/F by name and cookie across threads"
is "$(q "$TMP/p.db" "SELECT group_concat(t.name || '@' || c.ts || '=' || c.value, ' ') AS r FROM
	(SELECT * FROM counter ORDER BY ts) c JOIN track t ON t.id = c.track_id")" \
	"queued@1000000250=3 queued@1000000500=0" "C markers: the counter queued 3, then 0"
is "$(q "$TMP/p.db" "SELECT t.pid FROM track k JOIN thread t USING (utid) WHERE
	k.name = 'queued'")" 300 "... on a track of process 300 (the marker's pid field)"
is "$(q "$TMP/p.db" "SELECT group_concat(name || '@' || ts, ' ') AS r FROM (SELECT * FROM instant
	ORDER BY ts)")" "tick@1000000450 plain marker@1000000700" \
	"instants: the I marker, and a plain marker"
is "$(q "$TMP/p.db" "SELECT tgid FROM thread WHERE pid = 301")" 300 \
	"the marking thread's process is the markers' pid field"

finish
