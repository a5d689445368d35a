#!/usr/bin/env bash
# trax plot and trax report end to end: every chart kind in every format on the reference traces
# and the recorded fixture; the report in HTML (rendered by headless Chromium) and PDF.
. "$(dirname "$0")/../lib.sh"
stats=${TRAX_BUILD:-$(dirname "$TRAX")}/tools/png-stats
if [ ! -x "$stats" ]; then
	_result 1 "tests/tools/png-stats is built" "$stats missing: make all"
	finish
fi
have() { command -v "$1" >/dev/null 2>&1; }

# One chart: it must be written and decode (PNG: size and something drawn; SVG: well-formed
# XML; PDF: one page of the asked size), or, where the trace lacks what the kind needs, fail
# with status 2, a one-line message naming the trace, and no file.
chart() { # trace label kind fmt want(ok|none) [extra args]
	local trace=$1 label=$2 kind=$3 fmt=$4 want=$5
	shift 5
	local out=$TMP/chart.$fmt rc msg
	rm -f "$out"
	msg=$("$TRAX" plot "$kind" "$trace" -o "$out" --size 900x500 "$@" 2>&1)
	rc=$?
	if [ "$want" = none ]; then
		[ $rc -eq 2 ] && [ ! -e "$out" ] && [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ] &&
			[[ "$msg" == *"$(basename "$trace")"* ]]
		_result $? "$label $kind $fmt: nothing to draw, exit 2, one line" "rc $rc: $msg"
		return
	fi
	if [ $rc -ne 0 ] || [ ! -s "$out" ]; then
		_result 1 "$label $kind $fmt written" "rc $rc: $msg"
		return
	fi
	case $fmt in
	png)
		local s
		s=$("$stats" "$out")
		set -- $s
		[ "$1 $2" = "900 500" ] && [ "$3" -gt 5 ] && [ "$4" -gt 10 ]
		_result $? "$label $kind png: decodes at 900x500 with a drawing" "png-stats: $s"
		;;
	svg)
		if have xmllint; then
			ok "$label $kind svg: well-formed XML" xmllint --noout "$out"
		else
			skip "$label $kind svg: well-formed XML" "xmllint absent (libxml2-utils)"
		fi
		;;
	pdf)
		if have pdfinfo; then
			local info
			info=$(pdfinfo "$out" 2>&1)
			[[ "$info" == *"Pages:           1"* ]] &&
				[[ "$info" == *"900 x 500 pts"* ]]
			_result $? "$label $kind pdf: one page of 900x500 pt" "$info"
		else
			skip "$label $kind pdf: one page" "pdfinfo absent (poppler-utils)"
		fi
		;;
	esac
}

# What each trace holds, from traces/README.md and the fixture's recording: sched_switch for
# timeline, residency and slice lengths; counter tracks (cpu_idle, cpu_frequency, thermal).
run_trace() { # path label kinds-that-draw
	local trace=$1 label=$2 draws=" $3 "
	for kind in timeline counters residency histogram cdf; do
		for fmt in png svg pdf; do
			if [[ "$draws" == *" $kind "* ]]; then
				chart "$trace" "$label" "$kind" "$fmt" ok
			else
				chart "$trace" "$label" "$kind" "$fmt" none
			fi
		done
	done
}

bart=$TRACES/bart/raw_trace.dat
if need_shared "$bart" "charts of bart/raw_trace.dat"; then
	run_trace "$bart" bart "timeline residency histogram cdf"
	chart "$bart" bart timeline png ok --cpus 1,5 --task ls
	chart "$bart" bart timeline svg ok --task 4734 --window 3ms 3.8ms
	chart "$bart" bart timeline pdf ok --abs-window 106439.6760 106439.6780
	chart "$bart" bart residency png ok --group little=0,3-5 --group big=1,2
	chart "$bart" bart cdf png ok --log --task 'trace-cmd'
	chart "$bart" bart histogram svg ok --bins 7 --cpus 5
	chart "$bart" bart histogram png ok --sql "SELECT dur FROM sched_slice WHERE cpu = 1"
fi
f=$TRACES/trappy/thermal_trace.dat
need_shared "$f" "charts of trappy/thermal_trace.dat" &&
	run_trace "$f" thermal "counters" &&
	chart "$f" thermal counters png ok --track 'thermal_temperature:exynos*'
f=$TRACES/trappy/trace_idle.dat
need_shared "$f" "charts of trappy/trace_idle.dat" &&
	run_trace "$f" idle "timeline counters residency histogram cdf"
f=$TRACES/lisa/juno_sched_load.dat
need_shared "$f" "charts of lisa/juno_sched_load.dat" &&
	run_trace "$f" lisa "timeline counters residency histogram cdf" &&
	chart "$f" lisa counters svg ok --track cpu_frequency:0 --track 'cpu_idle:[45]'
demo=$TOP/tests/fixtures/demo.dat
if [ -f "$demo" ]; then
	run_trace "$demo" demo "timeline counters residency histogram cdf"
	chart "$demo" demo cdf pdf ok --of wakeup --log
	chart "$demo" demo histogram png ok --of runnable --task small
else
	skip "charts of tests/fixtures/demo.dat" "not recorded yet"
fi

# Nothing to draw is the same for every kind: a window that misses the trace, a --task that
# matches no thread. The trace's first and last records come from trace-cmd report; the demo
# workload runs about 2 s (tests/fixtures/record.sh), so 1000 s after its start is past it;
# no pid reaches 4194304 (the kernel's PID_MAX_LIMIT).
if [ -f "$demo" ] && have trace-cmd; then
	span=$(tc_report "$demo" | awk 'match($0, /\] +[0-9]+\.[0-9]+:/) {
		t = substr($0, RSTART, RLENGTH); gsub(/[] :]/, "", t)
		if (first == "") first = t; last = t }
		END { print first, last }')
	set -- $span
	first=$1 last=$2
	before_a=$(awk -v t="$first" 'BEGIN { printf "%.6f", t - 2 }')
	before_b=$(awk -v t="$first" 'BEGIN { printf "%.6f", t - 1 }')
	after_a=$(awk -v t="$last" 'BEGIN { printf "%.6f", t + 1 }')
	after_b=$(awk -v t="$last" 'BEGIN { printf "%.6f", t + 2 }')
	part_a=$(awk -v t="$last" 'BEGIN { printf "%.6f", t - 0.5 }')
	for kind in timeline counters residency histogram cdf; do
		chart "$demo" "demo window after the trace:" "$kind" svg none --window 1000 1001
		chart "$demo" "demo abs window before the trace:" "$kind" svg none \
			--abs-window "$before_a" "$before_b"
		chart "$demo" "demo abs window after the trace:" "$kind" svg none \
			--abs-window "$after_a" "$after_b"
		chart "$demo" "demo window over the trace's end:" "$kind" svg ok \
			--abs-window "$part_a" "$after_b"
	done
	for kind in timeline residency histogram cdf; do
		chart "$demo" "demo --task no-such-comm:" "$kind" svg none --task no-such-comm
		chart "$demo" "demo --task 4194304:" "$kind" svg none --task 4194304
	done
	fails_with "demo counters --task: not a counters option" 2 \
		"$TRAX" plot counters "$demo" -o "$TMP/x.svg" --task small
	fails_with "demo histogram --sql --task: the query filters" 2 \
		"$TRAX" plot histogram "$demo" -o "$TMP/x.svg" --task small --sql "SELECT 1"
else
	skip "nothing to draw, the same for every kind" "tests/fixtures/demo.dat or trace-cmd absent"
fi

# Usage errors: status 2, nothing written.
src=$demo
[ -f "$src" ] || src=$bart
if [ -f "$src" ]; then
	fails_with "unknown kind" 2 "$TRAX" plot pie "$src" -o "$TMP/x.png"
	fails_with "unknown output format" 2 "$TRAX" plot timeline "$src" -o "$TMP/x.gif"
	fails_with "missing -o" 2 "$TRAX" plot timeline "$src"
	fails_with "window end before start" 2 "$TRAX" plot timeline "$src" -o "$TMP/x.png" \
		--window 2 1
	fails_with "bad window time" 2 "$TRAX" plot timeline "$src" -o "$TMP/x.png" --window 1 2x
	fails_with "CPU not in the trace" 2 "$TRAX" plot timeline "$src" -o "$TMP/x.png" --cpus 99
	fails_with "--track on a timeline" 2 "$TRAX" plot timeline "$src" -o "$TMP/x.png" \
		--track cpu_idle
	fails_with "non-SELECT --sql" 2 "$TRAX" plot histogram "$src" -o "$TMP/x.png" \
		--sql "DELETE FROM sched_slice"
	fails_with "too small --size" 2 "$TRAX" plot timeline "$src" -o "$TMP/x.png" --size 10x10
	fails_with "output folder missing" 2 "$TRAX" plot timeline "$src" -o "$TMP/no/x.png"
	[ ! -e "$TMP/x.png" ] && [ -z "$(ls "$TMP" | grep -e '\.tmp-')" ]
	_result $? "failed plots leave no file behind"
	# The same input gives the same bytes, in every format.
	for fmt in png svg pdf; do
		"$TRAX" plot timeline "$src" -o "$TMP/a.$fmt" 2>/dev/null
		sleep 1
		"$TRAX" plot timeline "$src" -o "$TMP/b.$fmt" 2>/dev/null
		ok "timeline $fmt: the same bytes twice" cmp "$TMP/a.$fmt" "$TMP/b.$fmt"
	done
fi
fails_with "missing trace" 2 "$TRAX" plot timeline "$TMP/nope.dat" -o "$TMP/x.png"

# ---- the report ----
if [ ! -f "$src" ]; then
	skip "trax report" "neither tests/fixtures/demo.dat nor the shared traces are present"
	finish
fi
label=$(basename "$src")
ok "report $label: HTML written" "$TRAX" report "$src" -o "$TMP/r.html"
ok "report $label: PDF written" "$TRAX" report "$src" -o "$TMP/r.pdf"

# The charts a report holds, counted from the database: the timeline, one counters chart (all
# tracks, grouped) when a track has samples, residency, slice-length histogram and CDF, wakeup
# CDF when the trace has wakeups (thread_state "R").
ntracks=$(q "$src" "SELECT count(*) > 0 FROM track t WHERE EXISTS
	(SELECT 1 FROM counter c WHERE c.track_id = t.id)")
nwake=$(q "$src" "SELECT count(*) > 0 FROM thread_state WHERE state = 'R'")
charts=$((1 + ntracks + 3 + nwake))
html=$TMP/r.html
is "$(grep -c '<figure>' "$html")" "$charts" "report HTML: $charts charts"
is "$(grep -o '<svg' "$html" | wc -l)" "$charts" "report HTML: every chart is inline SVG"
is "$(grep -o '<script[^>]*>' "$html" | grep -v '^<script\( type="[a-z/]*" id="tl-[a-z0-9]*"\)\?>$')" \
	"" "report HTML: the only scripts are the timeline's, inline"
is "$(grep -Eo '(src|href)="[a-z]+:|url\((https?|//)|@import' "$html" | wc -l)" 0 \
	"report HTML: nothing fetched (no external src, href, url() or @import)"
is "$(grep -o ' id="[^"]*"' "$html" | sort | uniq -d | head -3)" "" \
	"report HTML: ids are unique across the inline SVG charts"
grep -q "time range" "$html" && grep -q "lost events" "$html" && grep -q "sched_switch" "$html"
_result $? "report HTML: the summary has the time range, lost events and event counts"
if have xmllint; then
	# HTML5 tags are unknown to libxml2's HTML parser; anything else is a real error.
	errs=$(xmllint --html --noout "$html" 2>&1 | grep 'error' | grep -v 'Tag .* invalid')
	is "$errs" "" "report HTML: parses (libxml2 HTML parser)"
fi
"$TRAX" report "$src" -o "$TMP/r2.html" && "$TRAX" report "$src" -o "$TMP/r2.pdf"
ok "report HTML: the same bytes twice" cmp "$html" "$TMP/r2.html"
ok "report PDF: the same bytes twice" cmp "$TMP/r.pdf" "$TMP/r2.pdf"

# PDF: the same content, one chart per page after the summary.
titles='^(CPU timeline|Counters|Residency|Histogram|Cumulative distribution) ·'
chart_pages() { # pdf: the pages holding a chart title
	local n=$1 p
	p=$(pdfinfo "$n" | awk '/^Pages:/ {print $2}')
	for i in $(seq 1 "$p"); do
		pdftotext -f "$i" -l "$i" "$n" - 2>/dev/null | grep -qE "$titles" && echo "$i"
	done
}
if have pdfinfo && have pdftotext; then
	pages=$(pdfinfo "$TMP/r.pdf" | awk '/^Pages:/ {print $2}')
	cp=$(chart_pages "$TMP/r.pdf" | tr '\n' ' ')
	first=${cp%% *}
	is "$(echo $cp | wc -w)" "$charts" "report PDF: $charts chart pages"
	is "$pages" "$((first - 1 + charts))" \
		"report PDF: $pages pages: the summary, then one chart per page"
	pdftotext -f 1 -l 1 "$TMP/r.pdf" - | grep -q "time range"
	_result $? "report PDF: page 1 holds the summary"
else
	skip "report PDF pages" "pdfinfo/pdftotext absent (poppler-utils)"
fi

# Rules: from the demo workload's shape (tests/fixtures/demo-workload.json pins "small" to
# CPU 0 and "big" to CPU 1), small-on-0 passes and big-on-0 fails.
if [ "$src" = "$demo" ]; then
	cat >"$TMP/rules.json" <<-'EOF'
	{ "rules": [
	  { "id": "small-on-0", "metric": "residency", "task": "small", "cpus": [0],
	    "expect": ">= 90 %" },
	  { "id": "big-on-0", "metric": "residency", "task": "big", "cpus": [0],
	    "expect": ">= 50 %" }
	] }
	EOF
	ok "report with rules: HTML written" "$TRAX" report "$src" --rules "$TMP/rules.json" \
		-o "$TMP/rr.html"
	is "$(grep -o '<tr class="[a-z]*"><td class="v">[a-z]*</td><td>[a-z0-9-]*' "$TMP/rr.html" |
		sed 's/.*class="v">//; s/<\/td><td>/ /' | tr '\n' ',')" \
	"fail big-on-0,pass small-on-0," \
		"report with rules: verdicts, failures first"
	grep -q "Charts of the rules that did not pass" "$TMP/rr.html"
	_result $? "report with rules: charts explain the failed rule"
	is "$(grep -c '<figure>' "$TMP/rr.html")" "$((charts + 2))" \
		"report with rules: a timeline and residency bars for the residency rule"
	ok "report with rules: PDF written" "$TRAX" report "$src" --rules "$TMP/rules.json" \
		-o "$TMP/rr.pdf"
	if have pdftotext; then
		is "$(chart_pages "$TMP/rr.pdf" | wc -l)" "$((charts + 2))" \
			"report with rules PDF: the rule charts too, one per page"
	fi
	echo '{ "rules": [ { "id": "x", "metric": "residencey", "expect": "> 1" } ] }' \
		>"$TMP/bad.json"
	fails_with "report with an invalid rule file: exit 2" 2 "$TRAX" report "$src" \
		--rules "$TMP/bad.json" -o "$TMP/bad.html"
	[ ! -e "$TMP/bad.html" ]
	_result $? "report with an invalid rule file: nothing written"
else
	skip "report with rules" "tests/fixtures/demo.dat absent"
fi
fails_with "report: unknown output format" 2 "$TRAX" report "$src" -o "$TMP/r.txt"

# Headless Chromium renders the HTML without errors and the screenshot is not blank. (The
# timeline's script is tested in tests/integration/report-browser.sh.)
if have chromium; then
	prof=$TMP/chromium-profile
	mkdir -p "$prof"
	log=$TMP/chromium.log
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
		--enable-logging=stderr --v=0 \
		--window-size=1280,2000 --screenshot="$TMP/shot.png" "file://$html" >"$log" 2>&1
	rc=$?
	is "$rc" 0 "chromium renders the report (exit 0)"
	is "$(grep -E 'CONSOLE|Uncaught|net::ERR|Failed to load' "$log" | head -3)" "" \
		"chromium: no console, script or loading errors"
	s=$("$stats" "$TMP/shot.png" 2>&1)
	set -- $s
	[ "${1:-0}" = 1280 ] && [ "${3:-0}" -gt 50 ] && [ "${4:-0}" -gt 30 ]
	_result $? "chromium screenshot is not blank (many colours, >3% drawn)" "png-stats: $s"
else
	skip "chromium renders the report" "chromium absent (scripts/deps.sh check installs it)"
fi
finish
