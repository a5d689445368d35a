#!/usr/bin/env bash
# tests/bench/timeline.sh BUILD [TRACE|DB]: the HTML report's interactive timeline on a big
# trace, in headless Chromium (tests/tools/report-browser.js): the report's size, the time to
# its first drawing and the redraw times of 30 wheel zooms in, 12 out and 8 jumps to windows
# of single events spread over the trace. Not a test (make check does not run it): prints the
# figures; the targets (issue 15) are a 5M-event trace open in under 2 s, every redraw under
# 100 ms, the file under 20 MB. Without TRACE: a synthetic ftrace text trace of about 5.1M
# sched_switch and sched_wakeup events (8 CPUs, 400 tasks, 9.2 s), written once to the
# bench folder ($TRAX_BENCH_DIR, default /tmp/trax-bench-timeline).
set -u
cd "$(dirname "$0")/../.."
build=${1:-build}
trax=$PWD/$build/trax
chromium=$(command -v chromium || true)
[ -x "$trax" ] || { echo "timeline.sh: build first (make BUILD=$build)" >&2; exit 2; }
[ -n "$chromium" ] && command -v node >/dev/null ||
	{ echo "timeline.sh: needs chromium and node (scripts/deps.sh check)" >&2; exit 2; }
dir=${TRAX_BENCH_DIR:-/tmp/trax-bench-timeline}
mkdir -p "$dir"

src=${2:-}
if [ -z "$src" ]; then
	src=$dir/sched-5m.txt
	# Each CPU has its own 50 tasks (the lower ones picked more often: distinct busyness)
	# and switches every 20 us with 2-17 us of jitter; a task switched out sleeps 40 % of
	# the time and is woken 1 us before it runs again.
	[ -s "$src" ] || { awk -v S=460000 -v NC=8 -v NT=50 '
	function ts(us) { return sprintf("%d.%06d", 1000 + int(us / 1000000), us % 1000000) }
	BEGIN {
		srand(15);
		print "# tracer: nop"
		for (c = 0; c < NC; c++) cur[c] = -1
		for (s = 0; s < S; s++) {
			n = 0
			for (c = 0; c < NC; c++) {
				t = s * 20 + 2 + int(rand() * 16)
				do j = int(NT * rand() * rand()); while (j == cur[c])
				np = 1000 + c * NT + j
				pp = cur[c] < 0 ? 0 : 1000 + c * NT + cur[c]
				pc = pp ? "task" pp : "swapper/" c
				if (sleeping[np]) {
					line[n] = t - 1; txt[n++] = sprintf("%16s-%-7d [%03d] dn.4 %s: " \
						"sched_wakeup: comm=task%d pid=%d prio=120 target_cpu=%03d",
						pc, pp, c, ts(t - 1), np, np, c)
					sleeping[np] = 0
				}
				st = "R"
				if (pp && rand() < 0.4) { st = "S"; sleeping[pp] = 1 }
				line[n] = t; txt[n++] = sprintf("%16s-%-7d [%03d] d..2. %s: sched_switch: " \
					"prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> " \
					"next_comm=task%d next_pid=%d next_prio=120", pc, pp, c, ts(t), pc,
					pp, st, np, np)
				cur[c] = j
			}
			for (a = 1; a < n; a++)	# this step in time order
				for (b = a; b > 0 && line[b - 1] > line[b]; b--) {
					x = line[b]; line[b] = line[b - 1]; line[b - 1] = x
					y = txt[b]; txt[b] = txt[b - 1]; txt[b - 1] = y
				}
			for (a = 0; a < n; a++)
				print txt[a]
		}
	}' >"$src.tmp" && mv "$src.tmp" "$src"; } ||
		{ rm -f "$src.tmp"; echo "timeline.sh: cannot write $src" >&2; exit 2; }
fi
case $src in
*.db) db=$src ;;
*)
	db=$dir/$(basename "$src").db
	if [ ! -s "$db" ] || [ "$db" -ot "$src" ]; then
		"$trax" load "$src" -o "$db" --stats | head -1 || exit 2
	fi ;;
esac
html=$dir/$(basename "$db" .db).html
start=$(date +%s.%N)
"$trax" report "$db" -o "$html" || exit 2
end=$(date +%s.%N)
events=$(sqlite3 "$db" "SELECT sum(count) FROM event_type" 2>/dev/null || echo "?")
rows=$(sqlite3 "$db" "SELECT (SELECT count(*) FROM sched_slice) || ' slices, ' || \
	(SELECT count(*) FROM thread_state) || ' states'" 2>/dev/null || echo "?")
# Windows of single events (1/100000 of the trace) at eight places over the trace.
span=$(sqlite3 "$db" "SELECT (SELECT value FROM meta WHERE key = 'trace.start_ts') || ' ' || \
	(SELECT value FROM meta WHERE key = 'trace.end_ts')")
set -- $span
probes=$(awk -v a="$1" -v b="$2" 'BEGIN { w = (b - a) / 100000; for (i = 0; i < 8; i++) {
	t = a + (b - a) * (i + 0.37) / 8; printf "%s{\"lane\":\"CPU %d\",\"t\":%.0f,\"window\":" \
	"[%.0f,%.0f]}", i ? "," : "", i % 2, t, t - w / 2, t + w / 2 } }')
cat >"$dir/job.json" <<JOB
{ "zooms": 30, "zoom_out": 12, "timeout_ms": 300000, "open_timeout_ms": 120000,
  "probes": [$probes] }
JOB
out=$(timeout 320 node tests/tools/report-browser.js "$chromium" "$html" "$dir/job.json") ||
	{ echo "timeline.sh: browser run failed: $out" | head -c 2000 >&2; exit 1; }
printf '%s\n' "$out" >"$dir/result.json"
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const [html, size, secs, events, rows] = process.argv.slice(2);
const st = (a) => { const s = a.slice().sort((x, y) => x - y);
	return "max " + s[s.length - 1].toFixed(1) + " ms, median " + s[s.length >> 1].toFixed(1) +
		" ms over " + s.length; };
console.log(html + ": " + events + " events, " + rows + "; report " +
	(size / 1048576).toFixed(1) + " MB written in " + (+secs).toFixed(1) + " s");
console.log("open: first drawing " + Math.round(r.open_ms) + " ms after navigation (load + " +
	"draw: " + r.open_wall_ms + " ms wall)");
console.log("redraw: " + st(r.redraw_ms));
console.log("wheel to settled view (tiles inflated, DevTools round trips): " + st(r.settle_ms));
console.log("probe modes: " + r.probes.map((p) => p.mode).join(" ") +
	(r.errors.length ? "; page errors: " + r.errors.join("; ") : ""));
' "$dir/result.json" "$html" "$(stat -c %s "$html")" "$(awk -v a="$start" -v b="$end" \
	'BEGIN { print b - a }')" "$events" "$rows"
