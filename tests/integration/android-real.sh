#!/usr/bin/env bash
# tests/integration/android-real.sh: real Android inputs: systrace HTML, catapult and lmkd lines.
#
# Expected values come from the files themselves, counted here with grep/awk, or computed by
# hand from the lines (written out below), never from trax's output.
. "$(dirname "$0")/../lib.sh"

TT=$TRACES/trappy
AL=$TRACES/android/lines

# ---- trace_surfaceflinger.html: a real device's systrace ----
sf=$TT/trace_surfaceflinger.html
if need_shared "$sf" "trace_surfaceflinger.html"; then
	"$TRAX" load "$sf" -o "$TMP/sf.db" >/dev/null 2>&1
	ok "surfaceflinger: loads" test -s "$TMP/sf.db"
	# the ftrace text of its trace-data block, and the event name of each line
	awk '/<script class="trace-data"/ { on = 1; next } /<\/script>/ { on = 0 } on' "$sf" \
		>"$TMP/sf.txt"
	awk '!/^#/ { for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { print $(i + 1);
		break } }' "$TMP/sf.txt" | sed 's/:$//; s/^tracing_mark_write$/print/' |
		sort | uniq -c | awk '{ print $2 "," $1 }' >"$TMP/sf.want"
	{
		q "$TMP/sf.db" "SELECT name, count FROM event_type WHERE count > 0"
		q "$TMP/sf.db" "SELECT name, count(*) FROM raw_event GROUP BY name"
	} | sort >"$TMP/sf.got"
	is "$(cat "$TMP/sf.got")" "$(sort "$TMP/sf.want")" \
		"surfaceflinger: rows per event equal a count of its lines (lines without key=value in raw_event)"
	# B markers: (time, thread pid, name); C markers: (time, tgid, name, value)
	grep 'tracing_mark_write: B|' "$TMP/sf.txt" | awk '{
		for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) ts = $i
		 sub(/:$/, "", ts); match($0, /-[0-9]+ +\(/);
		pid = substr($0, RSTART + 1, RLENGTH - 1); gsub(/[ (]/, "", pid);
		m = $0; sub(/.*tracing_mark_write: B\|[0-9]+\|/, "", m); print ts "|" pid "|" m }' |
		sort >"$TMP/b.want"
	q "$TMP/sf.db" "SELECT printf('%.6f', s.ts / 1e9) AS t, th.pid AS p, s.name AS n FROM slice
		s JOIN thread th USING(utid)" | sed 's/^\([^,]*\),\([^,]*\),/\1|\2|/' | sort \
		>"$TMP/b.got"
	is "$(wc -l <"$TMP/b.got")" 70 "surfaceflinger: 70 B markers (grep count) make 70 slices"
	ok "surfaceflinger: each slice has its B marker's time, thread pid and name" \
		diff "$TMP/b.want" "$TMP/b.got"
	grep -c 'tracing_mark_write: E$' "$TMP/sf.txt" >"$TMP/e.count"
	is "$(q "$TMP/sf.db" "SELECT count(*) FROM slice WHERE clipped = 0")" "$(cat "$TMP/e.count")" \
		"surfaceflinger: every slice is closed by one of the $(cat "$TMP/e.count") E markers"
	grep 'tracing_mark_write: C|' "$TMP/sf.txt" | awk '{
		for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) ts = $i
		 sub(/:$/, "", ts); m = $0;
		sub(/.*tracing_mark_write: C\|/, "", m); n = split(m, f, "|");
		print ts "|" f[1] "|" f[2] "|" f[3] }' | sort >"$TMP/c.want"
	q "$TMP/sf.db" "SELECT printf('%.6f', c.ts / 1e9) || '|' || th.pid || '|' || t.name || '|'
		|| c.value AS r FROM counter c JOIN track t ON t.id = c.track_id JOIN thread th ON
		th.utid = t.utid WHERE t.kind = 'atrace'" | sort >"$TMP/c.got"
	ok "surfaceflinger: each C marker is a counter sample with its tgid, name and value" \
		diff "$TMP/c.want" "$TMP/c.got"
	is "$(q "$TMP/sf.db" "SELECT count(*) FROM anomaly")" 0 \
		"surfaceflinger: no malformed or unpaired marker"
	is "$(q "$TMP/sf.db" "SELECT count(*) FROM instant")" \
		"$(grep -c 'tracing_mark_write: trace_event_clock_sync' "$TMP/sf.txt")" \
		"surfaceflinger: its clock-sync markers are instants"
	is "$(q "$TMP/sf.db" "SELECT value FROM meta WHERE key = 'systrace.other_blocks'")" 1 \
		"surfaceflinger: its JSON trace-data block is counted, not read"
	# no kill or fence event, no lmkd or fence marker: the pack cannot judge, it skips
	fails_with "surfaceflinger: the Android rule pack skips every rule (exit 4)" 4 \
		"$TRAX" check "$TOP/rules/packs/android.json" "$TMP/sf.db"
	# the same text as `atrace -z` writes it: atrace's messages, "TRACE:", a zlib stream
	if perl -MCompress::Zlib -e 1 2>/dev/null; then
		{ printf 'capturing trace... done\nTRACE:\n'
		  perl -MCompress::Zlib -e 'undef $/; binmode STDOUT; print compress(<STDIN>)' \
			<"$TMP/sf.txt"; } >"$TMP/sf.atrace"
		"$TRAX" load "$TMP/sf.atrace" -o "$TMP/sfz.db" >/dev/null 2>&1
		is "$(q "$TMP/sfz.db" "SELECT count(*) || ' ' || sum(dur) AS s FROM slice")" \
			"$(q "$TMP/sf.db" "SELECT count(*) || ' ' || sum(dur) AS s FROM slice")" \
			"atrace -z dump of the same text: the same slices"
		is "$(q "$TMP/sfz.db" "SELECT sum(count) FROM event_type")" \
			"$(q "$TMP/sf.db" "SELECT sum(count) FROM event_type")" "... and the same events"
		head -c 20000 "$TMP/sf.atrace" >"$TMP/cut.atrace"
		fails_with "a truncated atrace -z dump is an input error" 2 \
			"$TRAX" load "$TMP/cut.atrace" -o "$TMP/cut.db"
		ok "... naming the problem" sh -c "'$TRAX' load '$TMP/cut.atrace' -o '$TMP/cut.db' \
			2>&1 | grep -q 'compressed atrace data is .*truncated'"
	else
		skip "atrace -z dumps" "perl's Compress::Zlib is missing"
	fi
fi

# ---- trace_systrace.html (TGID column; starts with an E whose B is before the capture) ----
st=$TT/trace_systrace.html
if need_shared "$st" "trace_systrace.html"; then
	"$TRAX" load "$st" -o "$TMP/st.db" >/dev/null 2>&1
	is "$(q "$TMP/st.db" "SELECT sum(count) FROM event_type")" 10 \
		"trace_systrace.html: its 10 event lines"
	# by hand: the leading E has no B; CPU 2 switches 0 ==> 1158 at .086339 and again
	# 0 ==> 1158 at .086424, so pid 0 is switched out there never seen switched in
	is "$(q "$TMP/st.db" "SELECT kind || ':' || count(*) FROM anomaly GROUP BY kind ORDER BY kind")" \
		"marker_unmatched_end:1
switch_out_unseen_in:1" "trace_systrace.html: the leading E is an unmatched end; CPU 2's repeated switch-in is seen"
	is "$(q "$TMP/st.db" "SELECT tgid FROM thread WHERE pid = 1143")" 611 \
		"trace_systrace.html: tgid from the TGID column (RenderThread-1143 ( 611))"
fi
lg=$TT/trace_legacy_systrace.html
if need_shared "$lg" "trace_legacy_systrace.html"; then
	"$TRAX" load "$lg" -o "$TMP/lg.db" >/dev/null 2>&1
	is "$(q "$TMP/lg.db" "SELECT sum(count) FROM event_type")" \
		"$(grep -c ': [a-z_]*: ' "$lg")" "legacy systrace (linuxPerfData): every event line"
fi

# ---- catapult's parser test lines (real captures) ----
cl=$AL/catapult_parser_test_lines.txt
if need_shared "$cl" "catapult_parser_test_lines.txt"; then
	# each importer's section alone (their timestamps come from different captures)
	section() { awk -v s="$1" '/^# from / { on = index($0, s) > 0; next } on' "$cl"; }
	section sync_parser >"$TMP/sync.txt"
	section dma_fence_parser >"$TMP/fence.txt"
	section memreclaim_parser >"$TMP/lmk.txt"
	# ion_heap_parser_test.html holds bare event bodies: give them a line prefix
	section ion_heap_parser | grep '^ion_heap' |
		awk '{ printf "kworker-7 (7) [000] ...1 1.%06d: %s\n", NR, $0 }' >"$TMP/ion.txt"
	for f in sync fence lmk ion; do "$TRAX" load "$TMP/$f.txt" -o "$TMP/$f.db" >/dev/null 2>&1; done

	is "$(q "$TMP/lmk.db" "SELECT pid || ' ' || comm || ' ' || source FROM kill")" \
		"10517 d.process.media lowmemory_kill" "lowmemory_kill line: one kill, its pid and comm"
	# sync_wait begin/end pairs: 7206.569027..569068, 586745..586760, 587193..591244
	is "$(q "$TMP/sync.db" "SELECT group_concat(dur / 1000, ' ') AS d FROM (SELECT dur FROM
		fence_wait ORDER BY ts)")" "41 15 4051" "sync_wait pairs: waits of 41, 15, 4051 us"
	# sync_pt malitl 7289 (seen 569038, timeline reaches 7290 at 584769): 15731 us;
	# exynos-gsc.0-src 25 (569056 -> 591133 value 27): 22077 us; -dst 27 (587198 -> 591152):
	# 3954 us; s3c-fb 7093 was already reached (7094) when waited on: no fence
	is "$(q "$TMP/sync.db" "SELECT group_concat(timeline || ':' || seqno || ':' || ((signal_ts -
		init_ts) / 1000), ' ') AS f FROM (SELECT * FROM fence ORDER BY init_ts)")" \
		"malitl_124_0x40b6406c:7289:15731 exynos-gsc.0-src:25:22077 exynos-gsc.0-dst:27:3954" \
		"sync_pt/sync_timeline: points signaled when their timeline reaches them"
	cat >"$TMP/fence.json" <<'EOF'
{ "rules": [
  { "id": "p50", "metric": "fence_latency", "stat": "median", "expect": ">= 0 ms" },
  { "id": "max", "metric": "fence_latency", "stat": "max", "expect": ">= 0 ms" },
  { "id": "p90", "metric": "fence_latency", "stat": "p90", "expect": ">= 0 ms" },
  { "id": "n", "metric": "fence_latency", "stat": "count", "expect": ">= 0" },
  { "id": "wait", "metric": "fence_wait", "expect": "< 16.6 ms" },
  { "id": "unsig", "metric": "fence_unsignaled", "expect": "== 1" } ] }
EOF
	# dma_fence: seqno 109779 emitted 505.064396, signaled 505.065121: 725 us; sde fence
	# init 584509.195956, signaled 584509.213897: 17941 us. Sorted [725, 17941] us: median
	# 9333 us, p90 = 725 + 0.9 * (17941 - 725) = 16219.4 us. The fence init'ed with seqno 0
	# never signals. The wait: 505.064467 -> 505.065206 = 739 us.
	"$TRAX" check "$TMP/fence.json" "$TMP/fence.db" --format json >"$TMP/fence.out" 2>&1
	val() { grep -o "\"name\": \"$1\".*\"value\": [-0-9.e+]*" "$TMP/fence.out" |
		sed 's/.*"value": //'; }
	near "$(val p50)" 9333000 1 "dma_fence lines: median signal latency 9333 us (hand)"
	near "$(val max)" 17941000 1 "dma_fence lines: max signal latency 17941 us (hand)"
	near "$(val p90)" 16219400 1 "dma_fence lines: p90 by linear interpolation 16219.4 us"
	near "$(val n)" 2 0 "dma_fence lines: two signaled fences with a start"
	near "$(val wait)" 739000 1 "dma_fence lines: the wait of 739 us"
	near "$(val unsig)" 1 0 "dma_fence lines: seqno 0 is never signaled"
	# the rule pack: fence-signal-p99 fails (p99 = 725 + 0.99 * 17216 = 17769.8 us > 16.6 ms),
	# the fence waits pass, kills and ION rules are skipped (no such events here)
	"$TRAX" check "$TOP/rules/packs/android.json" "$TMP/fence.db" >"$TMP/pack.out" 2>&1
	is "$?" 1 "rules/packs/android.json runs: a rule fails on the dma_fence lines"
	ok "... fence-signal-p99 is the failure" grep -q '^not ok [0-9]* fence-signal-p99$' \
		"$TMP/pack.out"
	is "$(grep -c '# SKIP' "$TMP/pack.out")" 6 "... the kill and ION rules are skipped"
	is "$(q "$TMP/fence.db" "SELECT count(*) FROM fence WHERE signal_ts < coalesce(emit_ts,
		init_ts)")" 0 "dma_fence lines: no fence signals before it is made"
	# ion_heap_shrink: len 20480, total 181116928; ion_heap_grow: len 17526784, total 181096448
	is "$(q "$TMP/ion.db" "SELECT group_concat(source || ':' || heap || ':' || len || ':' ||
		total, ' ') AS a FROM alloc")" \
		"ion_heap_shrink:system:-20480:181116928 ion_heap_grow:system:17526784:181096448" \
		"ion_heap lines: allocations with heap, signed length and heap total"
	is "$(q "$TMP/ion.db" "SELECT max(value) FROM counter JOIN track t ON t.id = track_id WHERE
		t.name = 'ion_heap_total' AND t.zone = 'system'")" 181116928 \
		"ion_heap lines: the system heap's total as a counter"
fi

# ---- lmkd's kill_one_process counter (a real device) ----
lm=$AL/lmkd_kill_one_process.txt
if need_shared "$lm" "lmkd_kill_one_process.txt"; then
	grep '^"' "$lm" | sed 's/^"//; s/"$//' | grep tracing_mark_write >"$TMP/lmkd.txt"
	"$TRAX" load "$TMP/lmkd.txt" -o "$TMP/lmkd.db" >/dev/null 2>&1
	want=$(grep -o 'kill_one_process|[1-9][0-9]*' "$TMP/lmkd.txt" | cut -d'|' -f2 | paste -sd' ')
	is "$(q "$TMP/lmkd.db" "SELECT group_concat(pid, ' ') AS p FROM (SELECT pid FROM kill ORDER BY
		ts)")" "$want" "lmkd kill_one_process: a kill per non-zero value ($want)"
	is "$(q "$TMP/lmkd.db" "SELECT count(*) FROM counter JOIN track t ON t.id = track_id WHERE
		t.name = 'kill_one_process'")" "$(wc -l <"$TMP/lmkd.txt")" \
		"lmkd kill_one_process: every marker is a counter sample"
fi
finish
