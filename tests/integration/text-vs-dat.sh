#!/usr/bin/env bash
# Text and binary forms of one capture give the same db: tests/fixtures/text holds a trace.dat
# recorded on this machine and, from the same buffer, the tracefs `trace` file (with and without
# the TGID column) and `trace-cmd report` with and without -R and -t (record.sh makes them).
#
# Precision: the tracefs file and `trace-cmd report` without -t print microseconds rounded to
# the nearest (the kernel's ns2usecs() adds 500 ns; trace-cmd does the same), so a µs form is
# compared with round(ns / 1000) of the binary; ns forms are compared exactly.
. "$(dirname "$0")/../lib.sh"
FIX=$TOP/tests/fixtures/text


if [ ! -f "$FIX/trace.dat" ]; then
	skip "text vs trace.dat" "$FIX/trace.dat missing (run tests/fixtures/text/record.sh)"
	finish
fi
dat=$TMP/dat.db
if ! "$TRAX" load "$FIX/trace.dat" -o "$dat" >/dev/null 2>"$TMP/err"; then
	_result 1 "trace.dat loads" "$(cat "$TMP/err")"
	finish
fi

# Event tables whose columns come from the kernel formats in both readers.
tables=$(q "$dat" "SELECT table_name FROM event_type WHERE count > 0 AND name != 'print' ORDER BY 1")

# form digits plugin: plugin = the sched plugin's sched_switch (prev_state R for 0 and 256)
for spec in "trace 6 0" "trace-tgid 6 0" "report 6 1" "report-R 6 0" "report-t 9 1" \
	"report-R-t 9 0"; do
	set -- $spec
	form=$1 digits=$2 plugin=$3
	db=$TMP/$form.db
	if ! "$TRAX" load "$FIX/$form.txt" -o "$db" >/dev/null 2>"$TMP/err"; then
		_result 1 "$form: loads" "$(cat "$TMP/err")"
		continue
	fi
	is "$(q "$db" "SELECT value FROM meta WHERE key = 'format'")" text "$form: detected as text"
	is "$(q "$db" "SELECT value FROM meta WHERE key = 'text.timestamp_digits'")" "$digits" \
		"$form: $digits timestamp digits"
	if [ "$digits" = 6 ]; then
		D="((ts + 500) / 1000)" T="(ts / 1000)"
		is "$(q "$db" "SELECT count(*) FROM sched_switch WHERE ts % 1000 != 0")" 0 \
			"$form: µs timestamps are whole µs in ns"
	else
		D="ts" T="ts"
	fi

	case $form in
	report*)	# the instance's name prefixes every line of the report
		same "$form: buffer count and names" \
			"$dat" "SELECT key, value FROM meta WHERE key = 'buffers' OR key GLOB 'buffer.*.name' ORDER BY key" \
			"$db" "SELECT key, value FROM meta WHERE key = 'buffers' OR key GLOB 'buffer.*.name' ORDER BY key" ;;
	esac
	same "$form: per-event counts" \
		"$dat" "SELECT name, count FROM event_type WHERE count > 0 ORDER BY name" \
		"$db" "SELECT name, count FROM event_type WHERE count > 0 ORDER BY name"
	is "$(q "$db" "SELECT count(*) FROM raw_event")" 0 "$form: no raw events"
	is "$(q "$db" "SELECT value FROM meta WHERE key = 'text.ignored_lines'")" 0 \
		"$form: no ignored lines"
	same "$form: CPUs, first and last record per CPU" \
		"$dat" "SELECT key, CASE WHEN key = 'cpus' THEN value ELSE ${D//ts/CAST(value AS INTEGER)} END FROM meta WHERE key = 'cpus' OR key GLOB 'cpu.*_ts' ORDER BY key" \
		"$db" "SELECT key, CASE WHEN key = 'cpus' THEN value ELSE ${T//ts/CAST(value AS INTEGER)} END FROM meta WHERE key = 'cpus' OR key GLOB 'cpu.*_ts' ORDER BY key"
	for t in $tables print; do
		same "$form: $t count, sum/min/max ts per CPU" \
			"$dat" "$(printf "SELECT '%s', cpu, count(*), sum(x), min(x), max(x) FROM (SELECT cpu, $D AS x FROM \"%s\") GROUP BY cpu" "$t" "$t")" \
			"$db" "$(printf "SELECT '%s', cpu, count(*), sum(x), min(x), max(x) FROM (SELECT cpu, $T AS x FROM \"%s\") GROUP BY cpu" "$t" "$t")"
	done

	# Every row of every typed table, field by field, in trace order.
	for t in $tables; do
		cols=$(q "$dat" "SELECT group_concat(name, ' ') FROM pragma_table_info('$t') WHERE name != 'ts'")
		# the plugin prints R for both 0 and 256 (preempted): compare without bit 8
		[ "$t" = sched_switch ] && [ "$plugin" = 1 ] && cols=${cols/prev_state/prev_state_low}
		cols=${cols// /, }
		cols=${cols/prev_state_low/prev_state - (prev_state \& 256)}
		same "$form: $t rows equal" \
			"$dat" "SELECT $D, $cols FROM \"$t\" ORDER BY rowid" \
			"$db" "SELECT $T, $cols FROM \"$t\" ORDER BY rowid"
	done
	if [ "$plugin" = 0 ]; then
		same "$form: sched_switch prev_state checksum" \
			"$dat" "SELECT count(*), sum(prev_state), sum(prev_state = 256), sum(prev_state = 0) FROM sched_switch" \
			"$db" "SELECT count(*), sum(prev_state), sum(prev_state = 256), sum(prev_state = 0) FROM sched_switch"
	else
		same "$form: plugin R stands for 0 and 256" \
			"$dat" "SELECT count(*), sum(prev_state IN (0, 256)) FROM sched_switch" \
			"$db" "SELECT count(*), sum(prev_state = 0) FROM sched_switch"
	fi
	same "$form: cpu_idle checksum" \
		"$dat" "SELECT count(*), sum(state), sum(cpu_id), sum($D * (state % 7)) FROM cpu_idle" \
		"$db" "SELECT count(*), sum(state), sum(cpu_id), sum($T * (state % 7)) FROM cpu_idle"
	same "$form: column types of the typed tables" \
		"$dat" "SELECT t.name, f.name, f.sql_type, f.is_array, f.is_string, f.is_unsigned FROM event_field f JOIN event_type t ON t.id = f.type_id WHERE t.count > 0 ORDER BY t.name, f.rowid" \
		"$db" "SELECT t.name, f.name, f.sql_type, f.is_array, f.is_string, f.is_unsigned FROM event_field f JOIN event_type t ON t.id = f.type_id WHERE t.count > 0 ORDER BY t.name, f.rowid"

	# print: the marker text; the kernel ends every marker with a newline, which both text
	# forms drop (trace-cmd cuts the last newline of each record's output).
	ex='phase 1: start load=51'
	is "$(q "$db" "SELECT buf FROM print ORDER BY ts LIMIT 1")" "$ex" "$form: first marker text"
	same "$form: print ip" \
		"$dat" "SELECT CASE WHEN '$form' LIKE 'trace%' THEN NULL ELSE ip END FROM print ORDER BY rowid" \
		"$db" "SELECT ip FROM print ORDER BY rowid"
	same "$form: print buf is trace.dat's less its final newline" \
		"$dat" "SELECT count(*), sum(buf GLOB '*' || char(10)) FROM print" \
		"$db" "SELECT count(*), count(*) FROM print"
	same "$form: print rows" \
		"$dat" "SELECT $D, cpu, common_pid, rtrim(buf, char(10)) FROM print ORDER BY rowid" \
		"$db" "SELECT $T, cpu, common_pid, buf FROM print ORDER BY rowid"

	# Derived tables.
	if [ "$digits" = 6 ]; then
		same "$form: sched_slice count and sum(dur) at µs" \
			"$dat" "SELECT count(*), sum(((ts + dur + 500) / 1000 - (ts + 500) / 1000) * 1000) FROM sched_slice" \
			"$db" "SELECT count(*), sum(dur) FROM sched_slice"
	else
		same "$form: sched_slice count and sum(dur), exact" \
			"$dat" "SELECT count(*), sum(dur) FROM sched_slice" \
			"$db" "SELECT count(*), sum(dur) FROM sched_slice"
	fi
	es="end_state"
	[ "$plugin" = 1 ] && es="replace(end_state, 'R+', 'R')"
	DE="((ts + dur + 500) / 1000 - (ts + 500) / 1000)" TE="((ts + dur) / 1000 - ts / 1000)"
	[ "$digits" = 9 ] && DE=dur TE=dur
	same "$form: sched_slice rows" \
		"$dat" "SELECT $D, $DE, cpu, utid, pid, prio, $es, clipped FROM sched_slice ORDER BY rowid" \
		"$db" "SELECT $T, $TE, cpu, utid, pid, prio, $es, clipped FROM sched_slice ORDER BY rowid"
	same "$form: thread names (pid, comm per lifetime)" \
		"$dat" "SELECT utid, pid, comm FROM thread ORDER BY utid" \
		"$db" "SELECT utid, pid, comm FROM thread ORDER BY utid"
	same "$form: thread_comm" \
		"$dat" "SELECT utid, $D, comm FROM thread_comm ORDER BY rowid" \
		"$db" "SELECT utid, $T, comm FROM thread_comm ORDER BY rowid"
	same "$form: thread_state" \
		"$dat" "SELECT $D, $DE, utid, state, cpu, waker_utid FROM thread_state ORDER BY rowid" \
		"$db" "SELECT $T, $TE, utid, state, cpu, waker_utid FROM thread_state ORDER BY rowid"
	same "$form: counter tracks" \
		"$dat" "SELECT c.track_id, t.name, t.cpu, count(*), sum(c.value) FROM counter c JOIN track t ON t.id = c.track_id GROUP BY 1 ORDER BY 1" \
		"$db" "SELECT c.track_id, t.name, t.cpu, count(*), sum(c.value) FROM counter c JOIN track t ON t.id = c.track_id GROUP BY 1 ORDER BY 1"
done

# The TGID column: every (pid, tgid) the column shows reaches the thread table.
db=$TMP/trace-tgid.db
if [ -f "$db" ]; then
	want=$(awk '$0 !~ /^#/ && match($0, /-[0-9]+ +\( *[0-9]+\) \[/) {
			s = substr($0, RSTART + 1, RLENGTH - 1); gsub(/[()[]/, " ", s)
			split(s, a, " "); print a[1] "|" a[2] }' "$FIX/trace-tgid.txt" | sort -u)
	got=$(q "$db" "SELECT DISTINCT pid || '|' || tgid FROM thread WHERE tgid IS NOT NULL" | sort -u)
	missing=$(comm -23 <(printf '%s\n' "$want") <(printf '%s\n' "$got"))
	ok "trace-tgid: the TGID column's tgids are in thread" test -n "$want" -a -z "$missing"
	ok "trace.txt (no TGID column) knows fewer tgids than trace-tgid.txt" test \
		"$(q "$TMP/trace.db" "SELECT count(*) FROM thread WHERE tgid IS NOT NULL")" -lt \
		"$(q "$db" "SELECT count(*) FROM thread WHERE tgid IS NOT NULL")"
fi
finish
