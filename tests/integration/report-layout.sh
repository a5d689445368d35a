#!/usr/bin/env bash
# trax report's PDF layout and the rule charts' reference lines, on the juno trace of
# ../shared/traces with rule files written here: long rule ids and reasons are wrapped, never
# cut; a table split over pages keeps at least 3 rows on each side; a chart with nothing to
# draw is one line under its heading, never a page; a failing rule's chart draws its threshold,
# and a rule compared with a baseline the baseline value and its regression bound. Read back
# with pdftotext (poppler-utils) and from the HTML.
. "$(dirname "$0")/../lib.sh"
have() { command -v "$1" >/dev/null 2>&1; }

juno=$TRACES/lisa/juno_sched_raw.txt
if [ ! -f "$juno" ]; then
	skip "report layout" "$juno absent (../shared/traces)"
	finish
fi
if ! have pdftotext || ! have pdfinfo; then
	skip "report layout" "pdftotext/pdfinfo absent (poppler-utils; scripts/deps.sh check)"
	finish
fi

# A word-wrapped reason with 40 distinct words, and a 160-character id without a space.
reason="known: ramp runs for seconds on this board"
for i in $(seq -w 1 40); do reason+=" word$i"; done
longid=$(printf 'x%.0s' $(seq 1 40))-$(printf 'very-long-rule-id-%.0s' 1 2 3 4 5 6)end
# The juno trace: sh (pid 1642) has 12 wakeups, the longest 12 us; sh 1702, 1717 and 1718
# have none (trax query "SELECT utid, max(dur) FROM thread_state WHERE state = 'R'"); the
# CPUs are 10 % busy over the trace.
rules() { # N [REASON]: N xfail rows r01.., then the rules with charts
	local n=$1 reason=${2:-$reason}
	echo '{ "rules": ['
	for i in $(seq -w 1 "$n"); do
		printf '{ "id": "r%s-ramp", "metric": "runtime", "task": "ramp", "expect": "< 1 ms",
		  "xfail": "%s" },\n' "$i" "$reason"
	done
	cat <<-EOF
	{ "id": "$longid", "metric": "runtime", "task": "ramp", "expect": "< 2 ms" },
	{ "id": "sh-lat", "metric": "wakeup_latency", "task": "sh", "stat": "max", "expect": "< 10 us" },
	{ "id": "busy-all", "metric": "busy", "expect": "< 5 %" }
	] }
	EOF
}

pages() { pdfinfo "$1" | awk '/^Pages:/ {print $2}'; }
page_text() { pdftotext -raw -f "$2" -l "$2" "$1" - 2>/dev/null; }

# Rows of the verdict table per page ("3 12 5": pages with none left out); each row starts
# with its verdict.
rows_per_page() {
	local f=$1 n
	for i in $(seq 1 "$(pages "$f")"); do
		n=$(page_text "$f" "$i" | grep -cE '^(fail|xfail|xpass|pass|warn|error|skip) ')
		[ "$n" -gt 0 ] && printf '%s ' "$n"
	done
}

# sh-lat gives one result per thread that was ever named sh.
nsh=$(q "$juno" "SELECT count(DISTINCT utid) FROM thread_comm WHERE comm = 'sh'")
split_seen=0
# 36 rows of one line: laid out row after row, 2 of them would be left on a third page.
for n in 12 30 36 44; do
	case $n in 12|36) rules "$n" "short" ;; *) rules "$n" ;; esac >"$TMP/r$n.json"
	ok "N=$n: PDF written" "$TRAX" report "$juno" --rules "$TMP/r$n.json" -o "$TMP/r$n.pdf"
	per=$(rows_per_page "$TMP/r$n.pdf")
	sum=0 min=999
	for k in $per; do sum=$((sum + k)); [ "$k" -lt "$min" ] && min=$k; done
	# The n xfail rows, the long id's, sh-lat's and busy-all's.
	is "$sum" "$((n + 2 + nsh))" "N=$n: every row is in the PDF once (per page: $per)"
	if [ "$n" = 12 ]; then
		is "$(echo $per | wc -w)" 1 "N=$n: a table that fits on a page is not split"
	else
		[ "$(echo $per | wc -w)" -gt 1 ] && split_seen=1
		[ "$min" -ge 3 ]
		_result $? "N=$n: no page holds fewer than 3 rows of the split table ($per)"
	fi
done
is "$split_seen" 1 "a long table was split over pages (so the rows-per-page checks bite)"

# The summary's busiest-tasks table (10 rows) does not fit under the events table of page 1: it
# moves whole to page 2.
bp=$(for i in $(seq 1 "$(pages "$TMP/r12.pdf")"); do
	page_text "$TMP/r12.pdf" "$i" | grep -q '^Busiest tasks' && echo "$i"; done)
is "$(page_text "$TMP/r12.pdf" "${bp:-1}" | grep -cE '^[0-9]+ [^ ]+( → [^ ]+)* [0-9.]+ (s|ms|us|µs) ')" 10 \
	"the busiest-tasks table is whole on the page of its caption (page ${bp:-?})"

pdf=$TMP/r44.pdf
raw=$(pdftotext -raw "$pdf" - | tr '\n' ' ' | tr -s ' ')
# The one thing cut with "…" is a trace marker's label on a timeline (room between ticks):
# every line with one is the start of a print event's text in the trace.
cut=0
while IFS= read -r l; do
	grep -F 'print:' "$juno" | grep -qF -- "${l%%…*}" || { cut=$((cut + 1)); echo "# cut: $l"; }
done < <(pdftotext "$pdf" - | grep '…')
is "$cut" 0 "no ellipsis in the PDF but in timeline marker labels"
n=$(grep -oF "$reason" <<<"$raw" | wc -l)
is "$n" 44 "the 44 long reasons are there in full, each word in order"
# The long id is broken between characters: its pieces end and start lines; joined, it is whole.
grep -qF "$longid" <(pdftotext -raw "$pdf" - | tr -d '\n')
_result $? "the 160-character rule id is there in full (wrapped, not cut)"

# Charts with nothing to draw: the three sh tasks without wakeups. One line each, under the
# heading of the rule charts; no page of "Not drawn" alone.
is "$(pdftotext "$pdf" - | grep -c '^Not drawn: sh-lat\[sh:1[0-9]*\]')" 3 \
	"three 'Not drawn' lines, one per sh task without wakeups"
lonely=""
for i in $(seq 1 "$(pages "$pdf")"); do
	t=$(pdftotext -f "$i" -l "$i" "$pdf" - | grep -v -e '^trax report ·' -e '^page [0-9]*$' \
		-e '^[[:space:]]*$' -e '^\f')
	if grep -q '^Not drawn' <<<"$t" &&
		! grep -qE '^(Charts|Cumulative distribution|Residency|CPU timeline|Histogram)' <<<"$t"
	then
		lonely+="$i "
	fi
done
is "$lonely" "" "no page holds only 'Not drawn' lines"

# Thresholds: on sh 1642's latency CDF and on the busy CPUs' residency bars.
cdf_page=$(for i in $(seq 1 "$(pages "$pdf")"); do
	page_text "$pdf" "$i" | grep -q '^Cumulative distribution' &&
		page_text "$pdf" "$i" | grep -q 'sh-lat\[sh:1642\]' && echo "$i"; done | head -1)
[ -n "$cdf_page" ] && page_text "$pdf" "$cdf_page" | grep -qF 'threshold < 10 us'
_result $? "sh-lat's CDF is labelled with its threshold (< 10 us)"
res_page=$(for i in $(seq 1 "$(pages "$pdf")"); do
	page_text "$pdf" "$i" | grep -q '^Residency' &&
		page_text "$pdf" "$i" | grep -q '^busy-all' && echo "$i"; done | head -1)
[ -n "$res_page" ] && page_text "$pdf" "$res_page" | grep -qF 'threshold < 5 %'
_result $? "busy-all's residency bars are labelled with its threshold (< 5 %)"

# A baseline, written here: the CPUs were 5 % busy. 10 % now is beyond max_increase 10 %
# (5.5 %), so the rule fails by regression; its chart shows the threshold, the baseline value
# and the bound.
cat >"$TMP/b.json" <<'EOF'
{ "rules": [ { "id": "busy-reg", "metric": "busy", "expect": "< 50 %",
  "regression": { "max_increase": "10 %" } } ] }
EOF
cat >"$TMP/base.json" <<EOF
{ "trax_baseline": 1, "trax_version": "0.1.0", "rules": { "path": "b.json", "sha256": "" },
  "traces": [ { "name": "$juno", "path": "$juno", "sha256": "", "size": 0 } ],
  "results": [ { "trace": 0, "key": "busy-reg", "rule": "busy-reg", "name": "busy-reg",
    "task": null, "metric": "busy", "verdict": "pass", "severity": "error", "value": 5,
    "unit": "%", "display": "5 %" } ] }
EOF
ok "report --baseline: PDF written" "$TRAX" report "$juno" --rules "$TMP/b.json" \
	--baseline "$TMP/base.json" -o "$TMP/b.pdf"
ok "report --baseline: HTML written" "$TRAX" report "$juno" --rules "$TMP/b.json" \
	--baseline "$TMP/base.json" -o "$TMP/b.html"
bt=$(pdftotext -raw "$TMP/b.pdf" -)
grep -q 'regressed from the baseline' <<<"$bt"
_result $? "report --baseline: the rule fails by regression"
for l in 'threshold < 50 %' 'baseline 5 %' 'regression bound + 10 %: 5.5 %'; do
	grep -qF "$l" <<<"$bt"
	_result $? "report --baseline PDF: the chart is labelled '$l'"
	grep -F "$(sed 's/</\&lt;/g' <<<"$l")" "$TMP/b.html" | grep -q 'figcaption'
	_result $? "report --baseline HTML: the figure names '$l'"
done
if grep -q '<text' "$TMP/b.html"; then
	grep -qF 'baseline 5 %' <(sed -n '/<svg/,/<\/svg>/p' "$TMP/b.html")
	_result $? "report --baseline HTML: the SVG's text holds the baseline label"
else
	skip "SVG label text" "the SVG draws text as glyph outlines"
fi
fails_with "report --baseline without --rules: exit 2" 2 "$TRAX" report "$juno" \
	--baseline "$TMP/base.json" -o "$TMP/x.pdf"
fails_with "report --baseline of a missing file: exit 2" 2 "$TRAX" report "$juno" \
	--rules "$TMP/b.json" --baseline "$TMP/nope.json" -o "$TMP/x.pdf"
[ ! -e "$TMP/x.pdf" ]
_result $? "report --baseline errors: nothing written"
finish
