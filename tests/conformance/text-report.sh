#!/usr/bin/env bash
# Every trace.dat in ../shared/traces and tests/fixtures printed by `trace-cmd report` (plain,
# -R, -t, -R -t) and loaded as text gives the db of the trace.dat itself: per-event counts, every
# row of the typed tables, sched_slice and thread names (at the text's precision: µs forms are
# round(ns / 1000)). Message events are checked where the text holds the same thing (a marker's
# text loses its final newline in print). Buffers are compared by name: a text names them by
# their prefixes and numbers them in order of first appearance, a trace.dat in file order.
. "$(dirname "$0")/../lib.sh"

if ! command -v trace-cmd >/dev/null; then
	skip "trace-cmd report forms" "trace-cmd is not installed"
	finish
fi
# without ../shared only the fixtures are checked: the reference traces' part is a skip
need_shared "$TRACES" "trace-cmd report forms of the reference traces"
found=0
while IFS= read -r -d '' f; do
	found=1
	name=${f#"$TRACES"/}
	name=${name#"$TOP"/}
	base=$TMP/$(echo "$name" | tr / _)
	if ! "$TRAX" load "$f" -o "$base.db" >/dev/null 2>"$TMP/err"; then
		_result 1 "$name loads" "$(cat "$TMP/err")"
		continue
	fi
	dat=$base.db
	tables=$(q "$dat" "SELECT table_name FROM event_type WHERE count > 0 AND name NOT IN ('print', 'bprint', 'bputs') ORDER BY 1")
	B="(SELECT value FROM meta WHERE key = 'buffer.' || buffer || '.name')"
	for opts in "" "-R" "-t" "-R -t"; do
		form="report${opts// /}"
		txt=$base$form.txt
		db=$base$form.db
		if ! tc_report $opts "$f" >"$txt" 2>"$TMP/err"; then
			_result 1 "$name $form: trace-cmd report prints seconds" "$(cat "$TMP/err")"
			continue
		fi
		if ! "$TRAX" load "$txt" -o "$db" >/dev/null 2>"$TMP/err"; then
			_result 1 "$name $form: loads" "$(cat "$TMP/err")"
			continue
		fi
		case "$opts" in
		*-t*) D=ts T=ts DE=dur TE=dur ;;
		*) D="((ts + 500) / 1000)" T="(ts / 1000)"
		   DE="((ts + dur + 500) / 1000 - (ts + 500) / 1000)" TE="((ts + dur) / 1000 - ts / 1000)" ;;
		esac
		same "$name $form: per-event counts" \
			"$dat" "SELECT name, count FROM event_type WHERE count > 0 ORDER BY name" \
			"$db" "SELECT name, count FROM event_type WHERE count > 0 ORDER BY name"
		is "$(q "$db" "SELECT count(*) FROM raw_event")" 0 "$name $form: no raw events"
		for t in $tables; do
			cols=$(q "$dat" "SELECT group_concat(name, ' ') FROM pragma_table_info('$t') WHERE name != 'ts'")
			# without -R, the sched plugin prints prev_state as letters of bits 0-7 only
			case "$t,$opts" in sched_switch,|sched_switch,-t) cols=${cols/prev_state/prev_state_low} ;; esac
			cols=${cols// /, }
			cols=${cols/prev_state_low/prev_state \& 255}
			cols=${cols/buffer/$B}
			same "$name $form: $t rows" \
				"$dat" "SELECT $D, $cols FROM \"$t\" ORDER BY rowid" \
				"$db" "SELECT $T, $cols FROM \"$t\" ORDER BY rowid"
		done
		if [ -n "$(q "$dat" "SELECT 1 FROM event_type WHERE name = 'print' AND count > 0")" ]; then
			# ip is left out: text may print it as a symbol (tracing_mark_write)
			pa="SELECT $D, cpu, common_pid, $B, rtrim(buf, char(10)) FROM print ORDER BY rowid"
			pb="SELECT $T, cpu, common_pid, $B, buf FROM print ORDER BY rowid"
			same "$name $form: print rows (markers)" "$dat" "$pa" "$db" "$pb"
		fi
		if [ -n "$(q "$dat" "SELECT 1 FROM event_type WHERE name = 'bprint' AND count > 0")" ]; then
			case "$opts" in
			*-R*) ;;	# -R prints bprint's raw words, not its message
			*) same "$name $form: bprint messages" \
				"$dat" "SELECT $D, buf FROM bprint ORDER BY rowid" \
				"$db" "SELECT $T, buf FROM bprint ORDER BY rowid" ;;
			esac
		fi
		same "$name $form: sched_slice rows" \
			"$dat" "SELECT $D, $DE, cpu, utid, pid, prio, clipped, $B FROM sched_slice ORDER BY rowid" \
			"$db" "SELECT $T, $TE, cpu, utid, pid, prio, clipped, $B FROM sched_slice ORDER BY rowid"
		same "$name $form: thread names" \
			"$dat" "SELECT utid, pid, comm FROM thread ORDER BY utid" \
			"$db" "SELECT utid, pid, comm FROM thread ORDER BY utid"
		same "$name $form: counters" \
			"$dat" "SELECT track_id, count(*), sum(value), sum($D) FROM counter GROUP BY 1 ORDER BY 1" \
			"$db" "SELECT track_id, count(*), sum(value), sum($T) FROM counter GROUP BY 1 ORDER BY 1"
	done
done < <({ find "$TRACES" -name '*.dat' -print0 2>/dev/null
	   find "$TOP/tests/fixtures" -maxdepth 1 -name '*.dat' -print0; } | sort -z)
[ $found = 1 ] || skip "trace-cmd report forms" "no trace.dat under $TRACES or tests/fixtures"
finish
