#!/usr/bin/env bash
# The HTML report's interactive timeline in a real browser: headless Chromium driven over the
# DevTools protocol (tests/tools/report-browser.js, --remote-debugging-pipe: no network) opens
# the report from file://, zooms with the wheel, reads the tooltip over known slices and states
# of a trace written here, highlights a task by name, clicks the failed verdict and checks the
# view is its rule's window. Redraw and open times are printed (not asserted: they depend on
# the machine); screenshots go to $TRAX_BUILD/shots/.
. "$(dirname "$0")/../lib.sh"
have() { command -v "$1" >/dev/null 2>&1; }
chromium=$(command -v chromium || true)
if [ -z "$chromium" ] || ! have node; then
	skip "report timeline in Chromium" "chromium or node absent (scripts/deps.sh check installs" \
		"chromium and nodejs)"
	finish
fi
shots=${TRAX_BUILD:-$(dirname "$TRAX")}/shots
mkdir -p "$shots"
stats=${TRAX_BUILD:-$(dirname "$TRAX")}/tools/png-stats

# The trace: CPU 0 runs alpha (101) from 100.001000 to 100.003500 (2.5 ms), then alpha sleeps
# until the trace ends at 100.600000; CPU 1 runs beta (202) from 100.000500 to 100.010000, with
# markers "phase start" at 100.004000 and "phase end" at 100.008000; CPU 2 alternates gamma
# (301) and delta (302) every 10 us from 100.000000 (gamma first) to 100.600000: 60000 switches,
# so that the exact events span several tiles; CPU 3 runs extra00 (400) .. extra29 (429) for
# 10 us each from 100.100000, one after the other, so that the thread lanes overflow the canvas
# and scroll. The trace starts at 100.000000.
# Task colours by hand (plot/plot.h: the 12 busiest names by CPU time get the palette by rank,
# the others grey): gamma and delta run 300 ms each (ranks 0 and 1), beta 9.5 ms (rank 2,
# 0xe15759), alpha 2.5 ms (rank 3, 0x76b7b2), extra00 .. extra29 10 us each, ties by name:
# extra00 .. extra07 take ranks 4 .. 11, extra08 and later are grey (0xb0b0b0).
awk -v N=60000 '
function sw(cpu, t, pc, pp, ps, nc, np) {
	printf "%.6f\t%16s-%-7d [%03d] d..2. %12.6f: sched_switch: prev_comm=%s prev_pid=%d " \
		"prev_prio=120 prev_state=%s ==> next_comm=%s next_pid=%d next_prio=120\n",
		t, pc, pp, cpu, t, pc, pp, ps, nc, np
}
function mark(cpu, t, c, p, s) {
	printf "%.6f\t%16s-%-7d [%03d] ...1. %12.6f: tracing_mark_write: %s\n", t, c, p, cpu, t, s
}
BEGIN {
	print "0\t# tracer: nop"
	sw(2, 100.000000, "swapper/2", 0, "R", "gamma", 301)
	sw(1, 100.000500, "swapper/1", 0, "R", "beta", 202)
	sw(0, 100.001000, "swapper/0", 0, "R", "alpha", 101)
	sw(0, 100.003500, "alpha", 101, "S", "swapper/0", 0)
	mark(1, 100.004000, "beta", 202, "phase start")
	mark(1, 100.008000, "beta", 202, "phase end")
	sw(1, 100.010000, "beta", 202, "S", "swapper/1", 0)
	prev = "swapper/3"; pp = 0
	for (i = 0; i < 30; i++) {
		nc = sprintf("extra%02d", i)
		sw(3, 100.100000 + i * 0.00001, prev, pp, "S", nc, 400 + i)
		prev = nc; pp = 400 + i
	}
	sw(3, 100.100300, prev, pp, "S", "swapper/3", 0)
	for (i = 1; i <= N; i++) {
		t = 100.000000 + i * 0.00001
		if (i % 2) sw(2, t, "gamma", 301, "R", "delta", 302)
		else sw(2, t, "delta", 302, "R", "gamma", 301)
	}
}' | sort -s -n -k1,1 | cut -f2- >"$TMP/t.txt"
# beta runs all of the phase: a duty cycle of 100 %, so "< 50 %" fails.
cat >"$TMP/rules.json" <<'EOF'
{ "windows": { "phase": { "from_marker": "phase start", "to_marker": "phase end" } },
  "rules": [
    { "id": "beta-duty", "metric": "duty_cycle", "task": "beta", "window": "phase",
      "expect": "< 50 %" },
    { "id": "gamma-runs", "metric": "runtime", "task": "gamma", "expect": "> 1 ms" } ] }
EOF
html=$TMP/report.html
ok "report with the timeline written" "$TRAX" report "$TMP/t.txt" --rules "$TMP/rules.json" \
	-o "$html"
[ -s "$html" ] || finish
ntiles=$(grep -o '"ntiles":[0-9]*' "$html" | cut -d: -f2)
[ "${ntiles:-0}" -ge 2 ]
_result $? "the exact events are cut into several tiles" "ntiles=$ntiles"
is "$(grep -o '<script[^>]*>' "$html" | grep -c ' src=')" 0 "the scripts are inline (no src)"

cat >"$TMP/job.json" <<EOF
{ "shots": "$shots", "zooms": 12, "search": "gam", "click": "beta-duty", "timeout_ms": 90000,
  "search_view": [100000000000, 100005000000],
  "search_strips": [ { "lane": "CPU 0", "t": [100001050000, 100001400000] },
    { "lane": "CPU 1", "t": [100000550000, 100000900000] } ],
  "probes": [
    { "lane": "CPU 0", "t": 100002000000, "window": [100000000000, 100005000000],
      "shot": "timeline-probe" },
    { "lane": "alpha 101", "t": 100004000000, "window": [100000000000, 100005000000] },
    { "lane": "CPU 2", "t": 100400005000, "window": [100399950000, 100400060000],
      "shot": "timeline-single-events" },
    { "lane": "CPU 3", "t": 100100209000, "window": [100100150000, 100100260000] } ],
  "scroll": { "window": [100000000000, 100005000000], "t": 100002000000, "dy": 300,
    "lanes": ["CPU 0", "CPU 1", "alpha 101"], "shot": "timeline-scrolled" } }
EOF
out=$(timeout 120 node "$TOP/tests/tools/report-browser.js" "$chromium" "$html" "$TMP/job.json")
rc=$?
is "$rc" 0 "the browser run completed"
printf '%s\n' "$out" >"$TMP/out.json"
get() { # JS expression on the result r
	node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
		const v = eval(process.argv[2]); process.stdout.write(typeof v === "string" ? v :
		JSON.stringify(v === undefined ? null : v));' "$TMP/out.json" "$1" 2>/dev/null
}
if [ $rc -ne 0 ]; then
	echo "# $out" | head -c 2000
	finish
fi
is "$(get 'r.errors.join("; ")')" "" "no script errors in the page"
is "$(get 'r.probes[0].mode')" exact "zoomed to 5 ms: exact events"
is "$(get 'r.probes[0].tooltip')" $'alpha (pid 101)\nstate running on CPU 0\nstart +0.001000000 s\nduration 2.500 ms (2500000 ns)' \
	"tooltip over CPU 0 at +2 ms: alpha, pid 101, running, from +1 ms for 2.5 ms"
is "$(get 'r.probes[1].tooltip')" $'alpha (pid 101)\nstate S (sleeping)\nstart +0.003500000 s\nduration 596.500 ms (596500000 ns)' \
	"tooltip over alpha's lane at +4 ms: sleeping from +3.5 ms to the end of the trace"
is "$(get 'r.probes[2].tooltip')" $'gamma (pid 301)\nstate running on CPU 2\nstart +0.400000000 s\nduration 10.000 µs (10000 ns)' \
	"tooltip over CPU 2 at +400.005 ms (a later tile): gamma's 40000th slice, 10 us"
is "$(get 'r.search_found')" "1 threads" "search 'gam' highlights one thread"
# The first 0.35 ms of alpha's and beta's slices hold their names ("alpha 101", "beta 202"):
# more than one colour along the lanes' middles; faded out by the search, one colour each.
is "$(get '[r.search_strips.before[0] > 1, r.search_strips.before[1] > 1]')" "[true,true]" \
	"before the search: the names of alpha and beta drawn on their CPU slices"
is "$(get 'r.search_strips.after')" "[1,1]" \
	"after the search for gamma: alpha's and beta's slices faded, their names not drawn"
is "$(get 'r.view_after_click')" "[100004000000,100008000000]" \
	"a click on the failed verdict zooms to its window (the phase markers)"
is "$(get 'r.probes[0].pixel')" "#76b7b2" \
	"alpha's slice on CPU 0 is drawn in the palette colour of rank 3 (0x76b7b2)"
is "$(get 'r.probes[3].pixel')" "#b0b0b0" \
	"extra20's slice on CPU 3 is drawn in the grey of tasks outside the palette"
is "$(get 'r.scroll.before.map((l) => l.pixel).slice(0, 2).join(" ")')" "#76b7b2 #e15759" \
	"before scrolling: alpha on CPU 0, beta (rank 2, 0xe15759) on CPU 1"
is "$(get 'r.scroll.after[0].y - r.scroll.before[0].y')" 0 \
	"shift+wheel scrolls the thread lanes, the CPU lanes stay where they were"
is "$(get 'r.scroll.after.map((l) => l.pixel).slice(0, 2).join(" ")')" "#76b7b2 #e15759" \
	"after scrolling: CPU 0 and CPU 1 still drawn there, in the same colours"
d=$(get 'r.scroll.before[2].y - r.scroll.after[2].y')
[ "${d%.*}" -ge 100 ] 2>/dev/null
_result $? "alpha's lane scrolled up (by at least 100 px)" "moved by $d px"
n=$(get 'r.redraw_ms.length')
is "$n" 16 "every redraw timed (12 wheel zooms, 4 probes)"
echo "# open: $(get 'Math.round(r.open_ms)') ms to the first drawing;" \
	"redraw: max $(get 'r.redraw_ms.reduce((a, b) => Math.max(a, b)).toFixed(1)') ms," \
	"median $(get 'r.redraw_ms.slice().sort((a, b) => a - b)[r.redraw_ms.length >> 1].toFixed(1)') ms" \
	"over $n redraws"
for s in timeline-whole timeline-probe timeline-single-events timeline-scrolled \
	timeline-failed-rule; do
	if [ -x "$stats" ]; then
		st=$("$stats" "$shots/$s.png" 2>&1)
		set -- $st
		[ "${1:-0}" = 1400 ] && [ "${3:-0}" -gt 10 ]
		_result $? "screenshot $s.png written and not blank" "png-stats: $st"
	else
		ok "screenshot $s.png written" test -s "$shots/$s.png"
	fi
done
finish
