#!/usr/bin/env bash
# tests/integration/android-synthetic.sh: synthetic traces from the real Android event formats.
#
# For each device dump of ../shared/traces/android/formats (3.4 to 5.10 kernels; the 64-bit ones
# with perfetto's synthetic formats added), tools/gen-android writes a trace.dat whose records
# follow those formats byte for byte, its text twin and the known answers (.expect). The twin
# must be exactly what `trace-cmd report` prints for the trace.dat (so the generator's layout
# and trax's readers cannot share a misreading); then trax loads both, and every derived row
# (slice, instant, atrace counters, kill, alloc, heap totals, GPU memory, fence, fence_wait,
# anomalies) must equal the known answers, from the trace.dat and from the text alike.
. "$(dirname "$0")/../lib.sh"

F=$TRACES/android/formats
gen=${TRAX_BUILD:-$TOP/build}/tools/gen-android
need_shared "$F" "Android format dumps" || finish
if [ ! -x "$gen" ]; then
	skip "synthetic Android traces" "$gen not built"
	finish
fi

# A time column as seconds with 6 decimals, '' when NULL.
t() { echo "CASE WHEN $1 IS NULL THEN '' ELSE printf('%.6f', $1 / 1e9) END"; }

# What the derived tables hold, in the .expect form (KIND|values), sorted.
rows() { # db
	local db=$1
	{
	q "$db" "SELECT 'slice' AS k, $(t ts) AS a, dur / 1000 AS b, name AS c, depth AS d
		FROM slice"
	q "$db" "SELECT 'counter' AS k, t.name AS a, th.pid AS b, c.value AS c FROM counter c
		JOIN track t ON t.id = c.track_id JOIN thread th ON th.utid = t.utid
		WHERE t.kind = 'atrace'"
	q "$db" "SELECT 'counter' AS k, t.name AS a, t.zone AS b, (SELECT value FROM counter
		WHERE track_id = t.id ORDER BY ts LIMIT 1) AS c, (SELECT value FROM counter WHERE
		track_id = t.id ORDER BY ts DESC LIMIT 1) AS d FROM track t
		WHERE t.name = 'sync_timeline'"
	q "$db" "SELECT 'instant' AS k, $(t ts) AS a, name AS b, coalesce(track, '') AS c
		FROM instant"
	q "$db" "SELECT 'fence_wait' AS k, $(t ts) AS a, dur / 1000 AS b, coalesce(context, '')
		AS c, coalesce(seqno, '') AS d, source AS e, coalesce(name, '') AS f FROM fence_wait"
	q "$db" "SELECT 'fence' AS k, driver AS a, timeline AS b, coalesce(context, '') AS c,
		seqno AS d, $(t init_ts) AS e, $(t emit_ts) AS f, $(t enable_ts) AS g,
		$(t signal_ts) AS h, $(t destroy_ts) AS i FROM fence"
	q "$db" "SELECT 'waits_on' AS k, context AS a, seqno AS b, waits_on_context AS c,
		waits_on_seqno AS d FROM fence WHERE waits_on_context IS NOT NULL"
	q "$db" "SELECT 'kill' AS k, $(t ts) AS a, source AS b, pid AS c,
		coalesce(oom_score_adj, '') AS d, reason AS e, coalesce(min_adj, '') AS f FROM kill"
	q "$db" "SELECT 'alloc' AS k, $(t ts) AS a, coalesce(dur / 1000, '') AS b, source AS c,
		coalesce(heap, '') AS d, coalesce(client, '') AS e, len AS f, ok AS g,
		coalesce(error, '') AS h, fallback AS i FROM alloc"
	q "$db" "SELECT 'heap' AS k, t.name AS a, coalesce(t.zone, '') AS b, (SELECT value FROM
		counter WHERE track_id = t.id ORDER BY ts LIMIT 1) AS c, (SELECT value FROM counter
		WHERE track_id = t.id ORDER BY ts DESC LIMIT 1) AS d FROM track t WHERE t.name IN
		('ion_heap_total', 'ion_total', 'dma_heap_total')"
	q "$db" "SELECT 'gpu' AS k, coalesce(th.pid, '') AS a, (SELECT max(value) FROM counter
		WHERE track_id = t.id) AS b FROM track t LEFT JOIN thread th ON th.utid = t.utid
		WHERE t.name = 'gpu_mem_total'"
	q "$db" "SELECT 'anomaly' AS k, kind AS a, count(*) AS b FROM anomaly GROUP BY kind"
	}
}

# csv output quotes fields with commas: compare without the quotes and with ',' as '|' both
norm() { tr ',' '|' | sed 's/"//g' | sort; }

# A kernel whose Android sync events are in system sync_trace (collect's fence and android
# presets enable sync_trace:sync_wait where sync:sync_wait is absent): walleye's formats with
# events/sync renamed, so its known answers (the sync wait of 50 us among them) must hold from
# the sync_trace spelling too.
st=$TMP/formats-sync_trace
mkdir -p "$st/events"
for e in "$F/android_walleye_OPM5.171019.017.A1_4.4.88"/events/*; do
	b=${e##*/}
	[ "$b" = sync ] && b=sync_trace
	ln -s "$e" "$st/events/$b"
done

for dev in raven:android_raven_AOSP.MASTER_5.10.43:synthetic \
	walleye:android_walleye_OPM5.171019.017.A1_4.4.88:synthetic \
	flounder:android_flounder_lte_LRX16F_3.10.40:synthetic \
	seed:android_seed_N2F62_3.10.49: hammerhead:android_hammerhead_MRA59G_3.4.0: \
	sync_trace:"$st":synthetic; do
	IFS=: read -r name dir extra <<<"$dev"
	case $dir in /*) dirs=("$dir") ;; *) dirs=("$F/$dir") ;; esac
	[ -n "$extra" ] && dirs+=("$F/$extra")
	out=$TMP/$name
	if ! "$gen" "$out" "${dirs[@]}" 2>"$TMP/gen.err"; then
		_result 1 "$name: gen-android writes the trace" "$(cat "$TMP/gen.err")"
		continue
	fi
	if command -v trace-cmd >/dev/null; then
		trace-cmd report "$out.dat" >"$out.rep" 2>&1
		ok "$name: trace-cmd report of the trace.dat is its text twin, line for line" \
			diff "$out.rep" "$out.txt"
	else
		skip "$name: trace-cmd report of the trace.dat" "trace-cmd missing"
	fi
	"$TRAX" load "$out.dat" -o "$out-dat.db" >/dev/null 2>&1
	"$TRAX" load "$out.txt" -o "$out-txt.db" >/dev/null 2>&1
	grep -v '^#' "$out.expect" | norm >"$out.want"
	rows "$out-dat.db" | norm >"$out.got-dat"
	rows "$out-txt.db" | norm >"$out.got-txt"
	ok "$name: derived tables of the trace.dat hold the known answers" \
		diff "$out.want" "$out.got-dat"
	ok "$name: derived tables of the text twin hold the same" diff "$out.want" "$out.got-txt"
	is "$(q "$out-dat.db" "SELECT count(*) FROM fence WHERE signal_ts < coalesce(emit_ts,
		init_ts)")" 0 "$name: no fence signals before it was made"
done

# The trace.dat of the sync_trace kernel: its events are sync_trace's, and give the wait
# gen-android made (sync_wait begin at 100.000810, end 50 us later).
if [ -f "$TMP/sync_trace-dat.db" ]; then
	is "$(q "$TMP/sync_trace-dat.db" "SELECT group_concat(name, '|') AS n FROM (SELECT name
		FROM event_type WHERE system = 'sync_trace' AND count > 0 ORDER BY name)")" \
		"sync_pt|sync_timeline|sync_wait" "sync_trace: the sync events are system sync_trace's"
	is "$(q "$TMP/sync_trace-dat.db" "SELECT printf('%.6f', ts / 1e9) || '|' || dur || '|' ||
		name AS w FROM fence_wait WHERE source = 'sync_wait'")" "100.000810|50000|SurfaceView:6" \
		"sync_trace: sync_trace:sync_wait gives its fence_wait row"
fi

# The rule metrics on walleye's trace (every kind of event), against values worked out by hand
# from gen-android's scenario: ION attempts of 12 us (system, 4096 B), 30 us (qsecom, 8192 B,
# falls back) and 10 us (system, 8192 B), a failure, an ion_stat allocation of 65536 B and a
# dma_heap_stat one of 131072 B; kills of adj 905 (lmkd), 950 (lowmemory_kill), 100
# (mark_victim); fence signal latencies 30 us (atrace), 60 us (seqno 40, from its emit),
# 30 us (41), 19 us (42, before 41), 39 us (sync point); waits of 32, 60 and 50 us; seqno 43
# never signals; GPU memory 50000000 B in all, 12000000 B at most for pid 1000 (app).
w=$TMP/walleye
if [ -f "$w-dat.db" ]; then
	cat >"$TMP/android-rules.json" <<'EOF'
{ "rules": [
  { "id": "count", "metric": "alloc_count", "expect": "== 5" },
  { "id": "bytes", "metric": "alloc_bytes", "expect": "== 208896 B" },
  { "id": "failures", "metric": "alloc_failures", "expect": "== 1" },
  { "id": "fallbacks", "metric": "alloc_fallbacks", "expect": "== 1" },
  { "id": "lat-max", "metric": "alloc_latency", "expect": "== 30 us" },
  { "id": "lat-system", "metric": "alloc_latency", "heap": "system", "expect": "== 12 us" },
  { "id": "lat-p50", "metric": "alloc_latency", "stat": "median", "expect": "== 12 us" },
  { "id": "client", "metric": "alloc_count", "client": "surface*", "expect": "== 3" },
  { "id": "heap", "metric": "heap_total", "heap": "system", "expect": "== 181116928 B" },
  { "id": "kills", "metric": "kills", "expect": "== 3" },
  { "id": "fg", "metric": "kills", "where": { "oom_score_adj": "< 200" }, "expect": "== 1" },
  { "id": "lmkd", "metric": "kills", "where": { "source": "lmkd", "reason": "low_mem_and_swap" },
    "expect": "== 1" },
  { "id": "order", "metric": "kill_order", "expect": "== 1" },
  { "id": "fl-max", "metric": "fence_latency", "expect": "== 60 us" },
  { "id": "fl-med", "metric": "fence_latency", "stat": "median", "expect": "== 30 us" },
  { "id": "fl-drv", "metric": "fence_latency", "driver": "msm_drm", "stat": "min",
    "expect": "== 19 us" },
  { "id": "fl-tl", "metric": "fence_latency", "timeline": "mali", "expect": "== 39 us" },
  { "id": "wait", "metric": "fence_wait", "expect": "== 60 us" },
  { "id": "wait-n", "metric": "fence_wait", "stat": "count", "expect": "== 3" },
  { "id": "wait-task", "metric": "fence_wait", "task": "RenderThread", "expect": "== 60 us" },
  { "id": "unsig", "metric": "fence_unsignaled", "expect": "== 1" },
  { "id": "seq", "metric": "fence_seqno_violations", "expect": "== 1" },
  { "id": "gpu", "metric": "gpu_mem", "expect": "== 50000000 B" },
  { "id": "gpu-app", "metric": "gpu_mem", "task": "app", "expect": "== 12000000 B" } ] }
EOF
	for f in dat txt; do
		"$TRAX" check "$TMP/android-rules.json" "$w-$f.db" >"$TMP/check-$f.out" 2>&1
		ok "walleye ($f): every Android metric has its hand-worked value" \
			grep -q '^# Totals: pass:24 fail:0' "$TMP/check-$f.out"
	done
	grep -E '^not ok|measured' "$TMP/check-dat.out" | sed 's/^/# /'
fi
finish
