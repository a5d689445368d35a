#!/usr/bin/env bash
# ftrace text traces of TRAPpy, BART and LISA (../shared/traces): per-event counts equal an awk
# count of the event lines, and spot-checked field values equal what the lines say.
. "$(dirname "$0")/../lib.sh"

# Event lines counted by awk: a "[CPU]" column, optional flags, "secs.frac:", then "event:".
# The tracefs form of trace_marker writes ("tracing_mark_write: msg") is the ftrace print event.
awk_counts() {
	awk '{
		for (i = 2; i < NF; i++) {
			if ($i !~ /^[0-9]+\.[0-9]+:$/) continue
			if ($(i-1) !~ /^\[[0-9]+\]$/ && $(i-2) !~ /^\[[0-9]+\]$/) continue
			e = $(i+1)
			if (e !~ /:$/) break
			sub(/:$/, "", e)
			if (e == "tracing_mark_write") e = "print"
			n[e]++
			break
		}
	} END { for (e in n) print e "|" n[e] }' "$1" | sort
}

# Rows per event name in the db: typed tables plus raw_event (lines kept unparsed).
db_counts() {
	q "$1" "SELECT name, sum(c) FROM (SELECT name, count AS c FROM event_type WHERE count > 0
		UNION ALL SELECT name, count(*) FROM raw_event GROUP BY name) GROUP BY name" |
		tr ',' '|' | sort
}

found=0
for f in "$TRACES"/trappy/*.txt "$TRACES"/bart/trace*.txt "$TRACES"/lisa/juno_sched_raw.txt; do
	[ -f "$f" ] || continue
	found=1
	name=${f#"$TRACES"/}
	db=$TMP/$(echo "$name" | tr / _).db
	if ! "$TRAX" load "$f" -o "$db" >/dev/null 2>"$TMP/err"; then
		_result 1 "$name loads" "$(cat "$TMP/err")"
		continue
	fi
	is "$(db_counts "$db")" "$(awk_counts "$f")" "$name: per-event counts equal the awk count"
	is "$(q "$db" "SELECT value FROM meta WHERE key = 'text.malformed_lines'")" 0 \
		"$name: no malformed event lines"
done
if [ $found = 0 ]; then
	skip "text conformance" "no text traces under $TRACES"
	finish
fi

db() { echo "$TMP/$(echo "$1" | tr / _).db"; }
# loaded NAME: sets d to NAME's db; when there is none, a trace absent from ../shared gives
# a SKIP line for its spot checks (a trace that failed to load is already a 'not ok' above)
loaded() {
	d=$(db "$1")
	[ -f "$d" ] && return 0
	[ -f "$TRACES/$1" ] || skip "$1: spot checks" "$TRACES/$1 absent"
	return 1
}

# thermal_trace.txt: the counts the traces README gives, and the first lines' values.
if loaded trappy/thermal_trace.txt; then
	is "$(q "$d" "SELECT name || '=' || count FROM event_type WHERE count > 0 ORDER BY name" | tr '\n' ' ')" \
		"cdev_update=201 thermal_power_allocator=67 thermal_power_allocator_pid=67 thermal_power_cpu_get_power=134 thermal_power_cpu_limit=134 thermal_power_devfreq_get_power=67 thermal_power_devfreq_limit=67 thermal_temperature=67 " \
		"thermal_trace.txt: counts per the traces README"
	is "$(q "$d" "SELECT ts, cpu, common_pid, thermal_zone, id, temp_prev, temp FROM thermal_temperature ORDER BY ts LIMIT 1")" \
		"1583765274000,4,51,soc_thermal,0,68794,68786" "thermal_trace.txt: first thermal_temperature"
	is "$(q "$d" "SELECT cpus, freq, load, dynamic_power, static_power FROM thermal_power_cpu_get_power ORDER BY ts LIMIT 1 OFFSET 1")" \
		'"00000000,00000039",850000,{36 49 48 7},166,131' "thermal_trace.txt: a get_power row (mask, braces)"
	is "$(q "$d" "SELECT type, target FROM cdev_update ORDER BY ts LIMIT 1")" "devfreq,1" \
		"thermal_trace.txt: first cdev_update"
	is "$(q "$d" "SELECT count(*) FROM counter c JOIN track t ON t.id = c.track_id WHERE t.name = 'thermal_temperature' AND t.zone = 'soc_thermal'")" \
		67 "thermal_trace.txt: soc_thermal temperature track"
fi

# trace_equals.txt: '=' inside values; bputs keeps the whole formatted text.
if loaded trappy/trace_equals.txt; then
	is "$(q "$d" "SELECT str FROM bputs ORDER BY ts LIMIT 1 OFFSET 2")" \
		"0xffff0000080feeb8s: equals_event: my_field=foo=bar=baz" "trace_equals.txt: value with '='"
	is "$(q "$d" "SELECT DISTINCT ip FROM bputs")" "$((0xffff0000080feeb8))" \
		"trace_equals.txt: bputs ip from the address"
fi

# trace_failed_to_parse.txt: the key=value pairs after [FAILED TO PARSE] are kept.
if loaded trappy/trace_failed_to_parse.txt; then
	is "$(q "$d" "SELECT group_concat(freq, ' ') FROM (SELECT freq FROM thermal_power_cpu_get_power ORDER BY ts)")" \
		"$((0x82208)) $((0x240a90))" "trace_failed_to_parse.txt: hex freq after [FAILED TO PARSE]"
	is "$(q "$d" "SELECT req_power, current_temp, delta_temp FROM thermal_power_allocator")" \
		'"ARRAY[00, 00, 00, 00, 7d, 00, 00, 00]",79553,-4553' \
		"trace_failed_to_parse.txt: allocator fields"
fi

# trace_idle_unsorted.txt: records sorted by timestamp before loading.
if loaded trappy/trace_idle_unsorted.txt; then
	is "$(q "$d" "SELECT group_concat(state, ' ') FROM (SELECT state FROM cpu_idle WHERE cpu_id = 6 ORDER BY rowid)")" \
		"0 1 4294967295" "trace_idle_unsorted.txt: cpu 6 idle states in time order"
	is "$(q "$d" "SELECT count(*) FROM sched_switch s JOIN sched_switch t ON t.rowid = s.rowid + 1 WHERE t.ts < s.ts")" \
		0 "trace_idle_unsorted.txt: sched_switch rows in time order"
	is "$(q "$d" "SELECT value FROM meta WHERE key = 'text.sorted'")" 0 \
		"trace_idle_unsorted.txt: noted as unsorted"
fi

# trace_no_trailing_line.txt: the last line, without its newline, is loaded.
if loaded trappy/trace_no_trailing_line.txt; then
	is "$(q "$d" "SELECT ts, state, cpu_id FROM cpu_idle ORDER BY ts DESC LIMIT 1")" \
		"1136097721000,4294967295,0" "trace_no_trailing_line.txt: last line"
	is "$(q "$d" "SELECT prev_comm, prev_pid, prev_prio, prev_state, next_comm FROM sched_switch")" \
		"chrome,2804,112,1,swapper/3" "trace_no_trailing_line.txt: prev_state S is 1"
fi

# trace_empty.txt: values with units, comms with spaces, keys beyond the built-in list.
f=$TRACES/trappy/trace_empty.txt
if loaded trappy/trace_empty.txt; then
	is "$(q "$d" "SELECT comm, pid, runtime, vruntime FROM sched_stat_runtime ORDER BY ts LIMIT 1")" \
		"trace-cmd,2461,7778999,6087430069" "trace_empty.txt: runtime=7778999 [ns] as an integer"
	is "$(q "$d" "SELECT count(*) FROM sched_stat_runtime WHERE comm = 'rs:main Q:Reg'")" \
		"$(grep -c 'sched_stat_runtime: *comm=rs:main Q:Reg pid' "$f")" "trace_empty.txt: comm with a space"
	is "$(q "$d" "SELECT delay FROM sched_stat_sleep ORDER BY ts LIMIT 1")" 1802051076 \
		"trace_empty.txt: sched_stat_sleep delay"
fi

# trace_sched.txt and trace_common_clk.txt: old kernels' fields, a bare clock name.
if loaded trappy/trace_sched.txt; then
	is "$(q "$d" "SELECT comm, pid, prio, success, target_cpu FROM sched_wakeup_new ORDER BY ts LIMIT 1")" \
		"shutils,19428,120,1,2" "trace_sched.txt: sched_wakeup_new"
	is "$(q "$d" "SELECT state, cpu_id FROM cpu_frequency")" "600000,0" "trace_sched.txt: cpu_frequency"
fi
if loaded trappy/trace_common_clk.txt; then
	is "$(q "$d" "SELECT name, state, cpu_id FROM clock_set_rate ORDER BY ts LIMIT 1")" \
		"video_subcore0_clk_src,200000000,7" "trace_common_clk.txt: clock_set_rate"
fi

# trace_filesystem.txt: payloads without key=value pairs go to raw_event, whole.
if loaded trappy/trace_filesystem.txt; then
	is "$(q "$d" "SELECT count(*) FROM raw_event")" \
		"$(grep -c '\] *[0-9.]*: [a-z0-9_]*:' "$TRACES/trappy/trace_filesystem.txt")" \
		"trace_filesystem.txt: every line in raw_event"
	is "$(q "$d" "SELECT text FROM raw_event ORDER BY rowid LIMIT 1")" \
		'"dev 8,13 ino 5898483 pos 0 len 4096 copied 4096"' "trace_filesystem.txt: raw text"
fi

# BART: the sched plugin form and the raw form of the same three switches.
if loaded bart/trace.txt; then
	is "$(q "$d" "SELECT prev_comm, prev_pid, prev_prio, prev_state, next_comm, next_pid, next_prio FROM sched_switch ORDER BY ts" | tr '\n' ' ')" \
		"trace-cmd,4734,120,0,migration/2,18,0 migration/2,18,0,1,trace-cmd,4732,120 trace-cmd,4731,120,1,trace-cmd,4730,120 " \
		"bart/trace.txt: plugin-form sched_switch"
fi
if loaded bart/trace.raw.txt; then
	is "$(q "$d" "SELECT prev_state FROM sched_switch ORDER BY ts LIMIT 1")" 1024 \
		"bart/trace.raw.txt: numeric prev_state kept"
fi

# LISA: trace-cmd report -R of a Juno run.
if loaded lisa/juno_sched_raw.txt; then
	is "$(q "$d" "SELECT buf FROM print ORDER BY ts LIMIT 1")" TRACE_MARKER_START \
		"juno_sched_raw.txt: first marker"
	is "$(q "$d" "SELECT buf FROM print ORDER BY ts DESC LIMIT 1")" TRACE_MARKER_STOP \
		"juno_sched_raw.txt: last marker"
	is "$(q "$d" "SELECT group_concat(overutilized, ' ') FROM (SELECT overutilized FROM sched_overutilized ORDER BY ts)")" \
		"1 0 1" "juno_sched_raw.txt: sched_overutilized values"
	is "$(q "$d" "SELECT prev_comm, prev_pid, prev_state, next_comm, next_pid FROM sched_switch ORDER BY ts, rowid LIMIT 1")" \
		"trace-cmd,1701,64,swapper/1,0" "juno_sched_raw.txt: first sched_switch"
	is "$(q "$d" "SELECT count(*) FROM sched_wakeup WHERE success != 1")" 0 \
		"juno_sched_raw.txt: success=1 kept on every wakeup"
fi
finish
