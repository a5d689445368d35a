#!/usr/bin/env bash
# Charts people can read: the value axis of distributions chosen from the data and named on the
# chart, and SVG text kept as <text> (searchable, copyable), read back with libxml2 (xmllint).
# The expected strings come from the traces (task names in their sched_switch lines) and from
# what the options ask, not from trax's output.
. "$(dirname "$0")/../lib.sh"
have() { command -v "$1" >/dev/null 2>&1; }

# The strings of every <text> element of an SVG, one a line (libxml2's XPath, not a grep).
texts() { # svg
	xmllint --xpath '//*[local-name()="text"]' "$1" 2>/dev/null |
		sed 's/<\/text>/&\n/g' | sed -n 's/^<text[^>]*>\(.*\)<\/text>$/\1/p'
}
has_text() { # svg string desc
	texts "$1" | grep -qxF -- "$2"
	_result $? "$3" "no <text> holding '$2' in $1"
}

juno=$TRACES/lisa/juno_sched_raw.txt
if ! have xmllint; then
	skip "SVG text and distribution axes" "xmllint absent (libxml2-utils)"
	finish
fi
if need_shared "$juno" "charts of lisa/juno_sched_raw.txt"; then
	# Slices from 2 us to 2.5 s (the trace's own lines): a long tail, so the default axis is
	# log, and the caption says it; --linear and --log choose.
	"$TRAX" plot histogram "$juno" -o "$TMP/h.svg"
	ok "juno histogram: well-formed SVG" xmllint --noout "$TMP/h.svg"
	has_text "$TMP/h.svg" "slice lengths (log scale)" \
		"juno histogram: log axis by default, said"
	"$TRAX" plot cdf "$juno" -o "$TMP/c.svg"
	has_text "$TMP/c.svg" "slice lengths (log scale)" "juno cdf: the same rule, log"
	"$TRAX" plot histogram "$juno" -o "$TMP/l.svg" --linear
	has_text "$TMP/l.svg" "slice lengths (linear scale)" "juno histogram --linear: linear, said"
	"$TRAX" plot cdf "$juno" -o "$TMP/l.svg" --linear --task ramp
	has_text "$TMP/l.svg" "slice lengths of task ramp (linear scale)" \
		"juno cdf --linear --task: linear, said"
	fails_with "--log and --linear together: exit 2" 2 \
		"$TRAX" plot histogram "$juno" -o "$TMP/x.svg" --log --linear
	fails_with "--linear on a timeline: exit 2" 2 \
		"$TRAX" plot timeline "$juno" -o "$TMP/x.svg" --linear
	[ ! -e "$TMP/x.svg" ]
	_result $? "refused options write nothing"

	# The timeline's text: task names of the trace's sched_switch lines, the axis caption.
	"$TRAX" plot timeline "$juno" -o "$TMP/t.svg"
	ok "juno timeline: well-formed SVG" xmllint --noout "$TMP/t.svg"
	for comm in ramp sshd scp; do
		grep -q "next_comm=$comm " "$juno" || grep -q "prev_comm=$comm " "$juno"
		_result $? "juno: $comm runs in the trace"
		# a legend entry names a thread by its names in order: "rt-app → ramp (1706)"
		texts "$TMP/t.svg" | grep -qE "^([^ ]+ → )*$comm( → [^ ]+)* \\("
		_result $? "juno timeline: '$comm' is a name in a <text> of the legend" \
			"no <text> naming '$comm' in $TMP/t.svg"
	done
	texts "$TMP/t.svg" | grep -q '^time since the trace start (76\.211'
	_result $? "juno timeline: the axis caption is a <text>"
	is "$(grep -c '<symbol' "$TMP/t.svg")" 0 "juno timeline: no glyph <symbol>s"
	is "$(grep -c '<use' "$TMP/t.svg")" 0 "juno timeline: no glyphs drawn by <use>"
	title='a<b & "c" url(#x) ü'
	"$TRAX" plot residency "$juno" -o "$TMP/r.svg" --title "$title"
	ok "a title with markup characters: well-formed SVG" xmllint --noout "$TMP/r.svg"
	is "$(xmllint --xpath 'string((//*[local-name()="text"])[1])' "$TMP/r.svg")" "$title" \
		"the title is the first <text>, as given"
fi

# The report inlines every chart's SVG: their text is text there too.
demo=$TOP/tests/fixtures/demo.dat
if [ -f "$demo" ]; then
	"$TRAX" report "$demo" -o "$TMP/r.html"
	n=$(grep -o '<svg' "$TMP/r.html" | wc -l)
	[ "$n" -gt 3 ] && [ "$(grep -c '<symbol' "$TMP/r.html")" -eq 0 ] &&
		grep -q '<text[^>]*>time since the trace start' "$TMP/r.html"
	_result $? "report HTML: $n inline charts, their text as <text>, no glyph symbols"
	is "$(grep -o ' id="[^"]*"' "$TMP/r.html" | sort | uniq -d | head -3)" "" \
		"report HTML: ids unique across the charts"
else
	skip "report HTML text" "tests/fixtures/demo.dat absent"
fi
finish
