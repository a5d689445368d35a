#!/usr/bin/env bash
# Every trace.dat in ../shared/traces: per-event counts in the db equal `trace-cmd report`'s.
. "$(dirname "$0")/../lib.sh"

# Counts from trace-cmd report -R (raw: one line per record, the event name before the fields).
report_counts() {
	tc_report -R "$1" | awk '
		/^ *[^ ].*\[[0-9]+\] +[0-9]+\.[0-9]+: / {
			for (i = 2; i <= NF; i++) if ($(i-1) ~ /^[0-9]+\.[0-9]+:$/) { sub(/:$/, "", $i); n[$i]++; break }
		}
		END { for (e in n) print e "|" n[e] }' | sort
}

found=0
while IFS= read -r -d '' f; do
	found=1
	name=${f#"$TRACES"/}
	db=$TMP/$(echo "$name" | tr / _).db
	if ! "$TRAX" load "$f" -o "$db" >/dev/null 2>"$TMP/err"; then
		_result 1 "$name loads" "$(cat "$TMP/err")"
		continue
	fi
	want=$(report_counts "$f")
	got=$(q "$db" "SELECT name || '|' || count FROM event_type WHERE count > 0 ORDER BY name" | sort)
	is "$got" "$want" "$name: per-event counts equal trace-cmd report's"
	# raw_event holds what could not be decoded: nothing in these files.
	is "$(q "$db" "SELECT count(*) FROM raw_event")" 0 "$name: no undecodable records"
	# The trace clock: the bracketed name in the clock section that follows a v6 file's CPU
	# table, or else in its TRACECLOCK option (v7); none when the file has neither.
	want=$( { trace-cmd dump --summary "$f" 2>/dev/null | sed -n '/\[Tracing clock\]/{n;p;q}'
		  trace-cmd dump --options "$f" 2>/dev/null |
			sed -n '/Option TRACECLOCK, [1-9]/{n;p;q}'; } |
		grep -o '\[[a-z0-9_-]*\]' | head -1 | tr -d '[]')
	is "$(q "$db" "SELECT value FROM meta WHERE key = 'trace_clock'")" "$want" \
		"$name: trace clock '$want', as the file names it"
done < <(find "$TRACES" -name '*.dat' -print0 2>/dev/null | sort -z)
[ $found = 1 ] || skip "trace.dat conformance" "no trace.dat under $TRACES"
finish
