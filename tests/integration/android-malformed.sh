#!/usr/bin/env bash
# tests/integration/android-malformed.sh: malformed markers and events are counted, never lost.
#
# A text trace written here with one case per line; the anomaly counts below are counted by
# hand from it. Nothing may crash, every line stays in its event table (or raw_event), and
# `trax info` shows the anomalies by kind.
. "$(dirname "$0")/../lib.sh"

cat >"$TMP/bad.txt" <<'EOF'
# tracer: nop
 app-100 (100) [000] ...1 100.000001: tracing_mark_write: B|100|frame
 app-100 (100) [000] ...1 100.000002: tracing_mark_write: E|100
 app-100 (100) [000] ...1 100.000003: tracing_mark_write: E|100
 app-100 (100) [000] ...1 100.000004: tracing_mark_write: B|100
 app-100 (100) [000] ...1 100.000005: tracing_mark_write: C|100|fps|abc
 app-100 (100) [000] ...1 100.000006: tracing_mark_write: C|100|fps
 app-100 (100) [000] ...1 100.000007: tracing_mark_write: S|100|load
 app-100 (100) [000] ...1 100.000008: tracing_mark_write: F|100|load|9
 app-100 (100) [000] ...1 100.000009: tracing_mark_write: S|100|io|3
 lmkd-50 (50) [000] ...1 100.000010: tracing_mark_write: B|50|lmk,200,42,900,0
 lmkd-50 (50) [000] ...1 100.000011: tracing_mark_write: E|50
 lmkd-50 (50) [000] ...1 100.000012: tracing_mark_write: B|50|lmk,abc
 lmkd-50 (50) [000] ...1 100.000013: tracing_mark_write: E|50
 k-9 (9) [001] d..1 100.000014: dma_fence_signaled: driver=d timeline=t context=1 seqno=5
 k-9 (9) [001] d..1 100.000015: dma_fence_signaled: driver=d timeline=t context=1 seqno=5
 k-9 (9) [001] d..1 100.000016: dma_fence_wait_end: driver=d timeline=t context=1 seqno=6
 k-9 (9) [001] d..1 100.000017: lowmemory_kill: trunc
 k-9 (9) [001] d..1 100.000018: sync_wait: end name=x state=1
 k-9 (9) [001] d..1 100.000019: ion_alloc_buffer_end: client_name=c heap_name=system len=4096 mask=0x1 flags=0x0
 k-9 (9) [001] d..1 100.000020: sync_pt: name=tl value=abc
 app-100 (100) [000] ...1 100.000021: tracing_mark_write: E
EOF
# by hand: malformed markers: "B|100" (no name), "C|100|fps" (no value), "S|100|load" (no
# cookie): 3; counter with a bad value "abc": 1; E without B: the second E|100 (the "B|100"
# slice takes the last E): 1; B without E: "B|100" is closed by the last "E", and
# "frame" by the first E|100: 0; async end without begin: F load 9: 1; async never ended:
# S io 3: 1; unknown lmkd kill reason 42: 1; malformed lmkd marker "lmk,abc": 1; fence
# signaled twice: 1; fence wait end without start: 1; sync_wait end without begin: 1; ION end
# without start: 1; sync_pt value not a number: 1. lowmemory_kill "trunc" cannot be read: raw.
"$TRAX" load "$TMP/bad.txt" -o "$TMP/bad.db" >"$TMP/load.out" 2>&1
is "$?" 0 "a trace full of malformed Android events loads"
got=$(q "$TMP/bad.db" "SELECT kind || ' ' || count(*) AS k FROM anomaly GROUP BY kind ORDER BY kind")
want="alloc_unmatched_end 1
async_unmatched_end 1
async_unterminated 1
counter_bad_value 1
fence_signaled_twice 1
fence_wait_unmatched_end 1
kill_malformed 1
kill_unknown_reason 1
marker_malformed 3
marker_unmatched_end 1
sync_bad_value 1
sync_wait_unmatched_end 1"
is "$got" "$want" "every malformed or unpaired case is counted by kind"
is "$(q "$TMP/bad.db" "SELECT value FROM meta WHERE key = 'android.anomalies'")" 14 \
	"meta android.anomalies totals them"
is "$(q "$TMP/bad.db" "SELECT count(*) AS n FROM print")" 14 "every marker (14 lines) stays in print"
is "$(q "$TMP/bad.db" "SELECT name FROM raw_event")" lowmemory_kill \
	"the truncated lowmemory_kill is kept in raw_event"
is "$(q "$TMP/bad.db" "SELECT pid || ' ' || oom_score_adj || ' ' || reason AS k FROM kill")" \
	"200 900 unknown(42)" "a kill with an unknown reason is still a kill"
is "$(q "$TMP/bad.db" "SELECT signal_count FROM fence")" 2 "a fence signaled twice: counted"
"$TRAX" info "$TMP/bad.db" >"$TMP/info.out" 2>&1
ok "trax info lists the anomalies" grep -q '^malformed or unpaired (anomaly table):' \
	"$TMP/info.out"
ok "trax info shows the malformed markers' count" grep -qE '^  marker_malformed +3 ' \
	"$TMP/info.out"

# cut-off lines and bytes: never a crash
head -c 700 "$TMP/bad.txt" >"$TMP/cut.txt"
"$TRAX" load "$TMP/cut.txt" -o "$TMP/cut.db" >/dev/null 2>&1
is "$?" 0 "a trace cut in the middle of a line loads"
printf '<html><script class="trace-data" type="application/text">\n{"traceEvents": []}\n</script></html>\n' \
	>"$TMP/json.html"
fails_with "a systrace with no ftrace block is an input error" 2 \
	"$TRAX" load "$TMP/json.html" -o "$TMP/json.db"
ok "... and leaves no database" test ! -e "$TMP/json.db"

# well-formed markers of the newer atrace forms, beside the bad ones
cat >"$TMP/good.txt" <<'EOF'
 app-100 (100) [000] ...1 200.000010: tracing_mark_write: G|100|net|fetch|5
 app-101 (100) [001] ...1 200.000030: tracing_mark_write: H|100|net|5
 app-100 (100) [000] ...1 200.000040: tracing_mark_write: I|100|tick
 app-100 (100) [000] ...1 200.000050: tracing_mark_write: C|100|load|0.75
EOF
"$TRAX" load "$TMP/good.txt" -o "$TMP/good.db" >/dev/null 2>&1
is "$(q "$TMP/good.db" "SELECT name || ' ' || track || ' ' || cookie || ' ' || dur AS s FROM
	slice")" "fetch net 5 20000" "G/H: an async slice on its named track, ended by another thread"
is "$(q "$TMP/good.db" "SELECT name FROM instant")" "tick" "I: an instant"
is "$(q "$TMP/good.db" "SELECT value FROM counter JOIN track t ON t.id = track_id WHERE
	t.name = 'load'")" "0.75" "C: a counter value that is not an integer"
is "$(q "$TMP/good.db" "SELECT count(*) FROM anomaly")" 0 "... and nothing is an anomaly"

# rule files: the Android keys are checked like the others (rule id and key in the message)
bad_rule() { # desc json message-part
	printf '{ "rules": [ %s ] }\n' "$2" >"$TMP/r.json"
	"$TRAX" check "$TMP/r.json" "$TMP/bad.db" >"$TMP/r.out" 2>&1
	local rc=$?
	[ $rc -eq 2 ] && grep -qF "$3" "$TMP/r.out"
	_result $? "$1" "exit $rc: $(cat "$TMP/r.out")"
}
bad_rule "unknown key in where" '{ "id": "k", "metric": "kills", "where": { "adj": "< 2" },
	"expect": "== 0" }' 'rules[0] (id "k").where.adj: unknown key (oom_score_adj, reason, source, comm)'
bad_rule "a unit on oom_score_adj" '{ "id": "k", "metric": "kills", "where":
	{ "oom_score_adj": "< 2 ms" }, "expect": "== 0" }' '(id "k").where.oom_score_adj: unit "ms"'
bad_rule "unknown kill source" '{ "id": "k", "metric": "kills", "where": { "source": "x" },
	"expect": "== 0" }' 'unknown source "x"'
bad_rule "heap on a fence metric" '{ "id": "f", "metric": "fence_wait", "heap": "system",
	"expect": "< 1 ms" }' '(id "f").heap: not a parameter of metric "fence_wait"'
bad_rule "a byte unit on a latency" '{ "id": "a", "metric": "alloc_latency",
	"expect": "< 1 MiB" }' 'unit "MiB" does not fit: the value is a time'
bad_rule "a time unit on bytes" '{ "id": "b", "metric": "alloc_bytes", "expect": "< 1 ms" }' \
	'unit "ms" does not fit: the value is a size'
bad_rule "first of a latency" '{ "id": "l", "metric": "fence_latency", "stat": "first",
	"expect": "< 1 ms" }' 'not a statistic of a latency distribution'
bad_rule "p99 of a memory total" '{ "id": "g", "metric": "gpu_mem", "stat": "p99",
	"expect": "< 1 MiB" }' 'a memory total takes max, min, first or last'
bad_rule "an empty heap glob" '{ "id": "h", "metric": "heap_total", "heap": "",
	"expect": "< 1 MiB" }' '(id "h").heap: expected a name or a glob'
finish
