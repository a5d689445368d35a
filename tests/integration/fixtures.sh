#!/usr/bin/env bash
# tests/integration/fixtures.sh: the recorded fixtures (tests/fixtures/*.dat) loaded by trax and
# compared with independent sources: `trace-cmd report` on the same files, the rt-app logs of
# the demo run, the demo workload's known shape and oom.expect (see tests/fixtures/record.sh).
. "$(dirname "$0")/../lib.sh"
FIX=$TOP/tests/fixtures
DATS="demo sched-v6 sched-v7-none sched-v7-zstd multi oom"

if ! command -v trace-cmd >/dev/null; then
	skip "recorded fixtures vs trace-cmd report" \
		"trace-cmd is not installed (scripts/deps.sh check)"
	finish
fi

# "BUFFER|EVENT|COUNT" per buffer and event from `trace-cmd report -R` (instance buffers print
# their name and a colon before the task; the top-level buffer prints nothing there).
report_counts() { # file
	trace-cmd report -R "$1" 2>/dev/null | awk '
		/\[[0-9]+\] +[0-9]+\.[0-9]+: / {
			buf = ""
			if ($1 ~ /:$/) buf = substr($1, 1, length($1) - 1)
			for (i = 2; i <= NF; i++)
				if ($(i-1) ~ /^[0-9]+\.[0-9]+:$/) {
					sub(/:$/, "", $i); n[buf "|" $i]++; break
				}
		}
		END { for (k in n) print k "|" n[k] }' | sort
}

# "EVENT|COUNT" over all buffers.
report_totals() { # file
	report_counts "$1" |
		awk -F'|' '{ n[$2] += $3 } END { for (e in n) print e "|" n[e] }' | sort
}

# Every row of an event table, in no particular order (sorted as text), as CSV.
table_rows() { # db table
	q "$1" "SELECT * FROM \"$2\"" | LC_ALL=C sort
}

# The db's content: every event and derived table, as sorted CSV (meta and catalog left out:
# they name the file).
db_content() { # db
	local t
	for t in $(q "$1" "SELECT table_name FROM event_type WHERE count > 0 ORDER BY 1") \
		raw_event thread thread_comm sched_slice thread_state track counter; do
		echo "== $t"
		table_rows "$1" "$t"
	done
}

meta() { # db key
	q "$1" "SELECT value FROM meta WHERE key = '$2'"
}

# ---- every fixture: loads, per-event counts and rows equal trace-cmd report's ----

for f in $DATS; do
	dat=$FIX/$f.dat
	if [ ! -f "$dat" ]; then
		_result 1 "$f.dat present" "missing $dat (tests/fixtures/record.sh writes it)"
		continue
	fi
	if ! "$TRAX" load "$dat" -o "$TMP/$f.db" >/dev/null 2>"$TMP/err"; then
		_result 1 "$f.dat loads" "$(cat "$TMP/err")"
		continue
	fi
	db=$TMP/$f.db
	want=$(report_totals "$dat")
	got=$(q "$db" "SELECT name || '|' || count FROM event_type WHERE count > 0" | sort)
	is "$got" "$want" "$f.dat: per-event counts (event_type) equal trace-cmd report's"
	rows=$(q "$db" "SELECT name || '|' || table_name FROM event_type WHERE count > 0" |
		while IFS='|' read -r name table; do
			echo "$name|$(q "$db" "SELECT count(*) FROM \"$table\"")"
		done | sort)
	is "$rows" "$want" "$f.dat: rows in each event table equal trace-cmd report's counts"
	is "$(q "$db" "SELECT count(*) FROM raw_event")" 0 "$f.dat: no undecodable records"
	total=$(echo "$want" | awk -F'|' '{ n += $2 } END { print n + 0 }')
	is "$(q "$db" "SELECT sum(count) FROM event_type")" "$total" \
		"$f.dat: $total records in all, as trace-cmd report prints"
	is "$(q "$db" "SELECT count(*) FROM meta
		WHERE key GLOB '*lost_events' AND value != '0'")" 0 \
		"$f.dat: no lost events (record.sh checked the ring buffers' overrun counters)"
done

# ---- v6, v7 and v7-zstd: the same trace in three file layouts ----

summary_field() { # file label: the value trace-cmd dump --summary prints before [label]
	trace-cmd dump --summary "$1" 2>/dev/null |
		awk -v l="[$2]" 'index($0, l) { print $1; exit }'
}
for f in sched-v6 sched-v7-none sched-v7-zstd; do
	[ -f "$TMP/$f.db" ] || continue
	is "$(meta "$TMP/$f.db" dat.version)" "$(summary_field "$FIX/$f.dat" Version)" \
		"$f.dat: meta dat.version is the file's (trace-cmd dump)"
	c=$(summary_field "$FIX/$f.dat" "Compression algorithm")
	is "$(meta "$TMP/$f.db" dat.compression)" "${c:-none}" \
		"$f.dat: meta dat.compression is the file's (trace-cmd dump)"
done
if [ -f "$TMP/sched-v6.db" ] && [ -f "$TMP/sched-v7-zstd.db" ] && [ -f "$TMP/sched-v7-none.db" ]
then
	db_content "$TMP/sched-v6.db" >"$TMP/v6.txt"
	db_content "$TMP/sched-v7-none.db" >"$TMP/v7n.txt"
	db_content "$TMP/sched-v7-zstd.db" >"$TMP/v7z.txt"
	ok "v6 and v7-zstd dbs hold the same rows (event and derived tables)" \
		diff "$TMP/v6.txt" "$TMP/v7z.txt"
	ok "v7 and v7-zstd dbs hold the same rows (event and derived tables)" \
		diff "$TMP/v7n.txt" "$TMP/v7z.txt"
	ok "the sched trace's db is not empty" test "$(grep -c . "$TMP/v6.txt")" -gt 500
fi

# ---- multi.dat: two instance buffers, a (sched) and b (power) ----

db=$TMP/multi.db
if [ -f "$db" ]; then
	is "$(meta "$db" buffers)" 2 "multi.dat: two buffers with data"
	is "$(q "$db" "SELECT value FROM meta WHERE key GLOB 'buffer.*.name' ORDER BY value" |
		tr '\n' ' ')" "trax-fx-a trax-fx-b " "multi.dat: buffer names are the instances'"
	bufidx() { # name: the buffer index that meta gives the instance
		q "$db" "SELECT substr(key, 8, length(key) - 12) FROM meta
			WHERE key GLOB 'buffer.*.name' AND value = '$1'"
	}
	ba=$(bufidx trax-fx-a)
	bb=$(bufidx trax-fx-b)
	ok "multi.dat: the two buffers have distinct indexes ($ba, $bb)" \
		test -n "$ba" -a -n "$bb" -a "$ba" != "$bb"
	# per buffer and event: the buffer column against trace-cmd report's instance prefixes
	want=$(report_counts "$FIX/multi.dat")
	got=$(q "$db" "SELECT name || '|' || table_name FROM event_type WHERE count > 0" |
		while IFS='|' read -r name table; do
			q "$db" "SELECT m.value || '|$name|' || count(*) FROM \"$table\" t
				JOIN meta m ON m.key = 'buffer.' || t.buffer || '.name'
				GROUP BY t.buffer"
		done | sort)
	is "$got" "$want" "multi.dat: per-buffer per-event counts equal trace-cmd report's"
	is "$(q "$db" "SELECT DISTINCT buffer FROM sched_switch")" "$ba" \
		"multi.dat: every sched_switch row is in buffer trax-fx-a"
	is "$(q "$db" "SELECT DISTINCT buffer FROM cpu_idle")" "$bb" \
		"multi.dat: every cpu_idle row is in buffer trax-fx-b"
	want=$(printf '%s\n' "$ba:in a" "$ba:in a" "$bb:in b" "$bb:in b" | sort -n | tr '\n' ' ')
	is "$(q "$db" "SELECT buffer || ':' || rtrim(buf, char(10)) FROM print
		ORDER BY buffer, ts" | tr '\n' ' ')" "$want" \
		 "multi.dat: markers in one print table, each in its own instance's buffer"
	is "$(q "$db" "SELECT count(*) FROM sched_slice WHERE buffer != $ba")" 0 \
		"multi.dat: sched_slice rows carry buffer trax-fx-a"
	is "$(q "$db" "SELECT count(*) FROM sched_slice")" \
		"$(q "$db" "SELECT count(*) FROM sched_slice WHERE buffer = $ba")" \
		"multi.dat: sched_slice counted once"
	ok "multi.dat: sched_slice has rows" \
		test "$(q "$db" "SELECT count(*) FROM sched_slice")" -gt 0
fi

# ---- field values against trace-cmd report -R -t ----

# sched_switch rows as "ts|cpu|prev_comm|prev_pid|prev_prio|prev_state|next_comm|next_pid|
# next_prio", every one of them, from the report's raw lines (ts: seconds and 9 digits of ns).
report_switches() { # file
	trace-cmd report -R -t "$1" 2>/dev/null | sed -E 's/\] +([0-9]+)\.([0-9]{9}): /] \1\2: /' |
		sed -nE 's/^.*\[0*([0-9]+)\] ([0-9]+): '\
'sched_switch: +prev_comm=(.*) prev_pid=(-?[0-9]+) prev_prio=(-?[0-9]+) prev_state=([0-9]+) '\
'next_comm=(.*) next_pid=(-?[0-9]+) next_prio=(-?[0-9]+) *$/\2|\1|\3|\4|\5|\6|\7|\8|\9|/p' |
		LC_ALL=C sort
}
report_idle() { # file: "ts|cpu|state|cpu_id"
	trace-cmd report -R -t "$1" 2>/dev/null |
		sed -nE 's/^.*\[0*([0-9]+)\] +([0-9]+)\.([0-9]{9}): '\
'cpu_idle: +state=([0-9]+) cpu_id=([0-9]+) *$/\2\3|\1|\4|\5/p' | LC_ALL=C sort
}

for f in demo multi; do
	db=$TMP/$f.db
	[ -f "$db" ] || continue
	want=$(report_switches "$FIX/$f.dat")
	got=$(q "$db" "SELECT ts || '|' || cpu || '|' || prev_comm || '|' || prev_pid || '|' ||
		prev_prio || '|' || prev_state || '|' || next_comm || '|' || next_pid || '|' ||
		next_prio || '|' AS r FROM sched_switch" | LC_ALL=C sort)
	ok "$f.dat: trace-cmd report -R -t shows sched_switch lines" test -n "$want"
	is "$(echo "$got" | md5sum)" "$(echo "$want" | md5sum)" \
		"$f.dat: every sched_switch row (ts, cpu, all fields) equals trace-cmd's -R -t"
	if [ "$got" != "$want" ]; then
		diff <(echo "$want") <(echo "$got") | head -5 | sed 's/^/# /'
	fi
	want=$(report_idle "$FIX/$f.dat")
	got=$(q "$db" "SELECT ts || '|' || cpu || '|' || state || '|' || cpu_id FROM cpu_idle" |
		LC_ALL=C sort)
	ok "$f.dat: trace-cmd report -R -t shows cpu_idle lines" test -n "$want"
	is "$(echo "$got" | md5sum)" "$(echo "$want" | md5sum)" \
		"$f.dat: every cpu_idle row (ts, cpu, state as u32, cpu_id) equals trace-cmd's"
done
db=$TMP/demo.db
if [ -f "$db" ]; then
	want=$(trace-cmd report -R -t "$FIX/demo.dat" 2>/dev/null |
		sed -nE 's/^.*\] +([0-9]+)\.([0-9]{9}): print: +ip=[0-9a-fx]+ buf=(.*)$/\1\2|\3/p')
	# the kernel ends a marker with a newline when it has none: the field holds it
	is "$(q "$db" "SELECT ts || '|' || rtrim(buf, char(10)) FROM print ORDER BY ts")" \
		"$want" "demo.dat: trace markers (ts, text) equal trace-cmd report -R -t's"
fi

# ---- oom.dat against oom.expect (what record.sh set up and saw) ----

db=$TMP/oom.db
exp=$FIX/oom.expect
if [ -f "$db" ] && [ -f "$exp" ]; then
	want=$(awk '!/^#/ && $4 == "killed" { print $2 "|" $3 }' "$exp" | sort)
	is "$(q "$db" "SELECT pid || '|' || oom_score_adj FROM mark_victim" | sort)" "$want" \
		"oom.dat: mark_victim pids and oom_score_adj are the processes seen killed"
	want=$(awk '!/^#/ && $4 == "killed" { print $3, $2 }' "$exp" | sort -rn | awk '{print $2}')
	is "$(q "$db" "SELECT pid FROM mark_victim ORDER BY ts")" "$want" \
		"oom.dat: victims in order of oom_score_adj, highest first (the badness order)"
	for pid in $(awk '!/^#/ && $4 != "killed" { print $2 }' "$exp"); do
		is "$(q "$db" "SELECT count(*) FROM mark_victim WHERE pid = $pid")" 0 \
			"oom.dat: pid $pid (not killed) is no victim"
	done
	want=$(awk '!/^#/ { print $2 "|" $3 }' "$exp" | sort)
	is "$(q "$db" "SELECT pid || '|' || oom_score_adj FROM oom_score_adj_update" | sort)" \
		"$want" "oom.dat: oom_score_adj_update rows are the adjustments record.sh made"
	want=$(awk '!/^#/ { print $2 }' "$exp" | sort -n)
	is "$(q "$db" "SELECT DISTINCT pid FROM sched_process_exit WHERE pid IN
		($(echo $want | tr ' ' ','))" | sort -n)" "$want" \
		"oom.dat: every process of oom.expect exits in the trace"
	want=$(awk '!/^#/ && $4 == "killed" { print $2 "|" $1 }' "$exp" | sort)
	is "$(q "$db" "SELECT pid || '|' || comm FROM mark_victim" | sort)" "$want" \
		"oom.dat: victims' comm as memhog named itself"
fi

# ---- demo.dat: the workload's known shape, against rt-app's own logs ----

db=$TMP/demo.db
logs=$FIX/demo-rtapp-logs
log_of() { ls "$logs"/rt-app-"$1"-*.log 2>/dev/null | head -1; }
if [ -f "$db" ] && [ -d "$logs" ]; then
	clock=$(trace-cmd dump --summary "$FIX/demo.dat" 2>/dev/null |
		sed -nE 's/.*buffer "trax-fx-demo", "([a-z_-]+)" clock.*/\1/p')
	is "$(meta "$db" trace_clock)" "${clock:-?}" "demo.dat: trace clock is the file's ($clock)"
	is "$(q "$db" "SELECT count(*) FROM sched_switch WHERE buffer != 0")" 0 \
		"demo.dat: one buffer with data: buffer column 0"
	is "$(q "$db" "SELECT rtrim(buf, char(10)) FROM print ORDER BY ts" | tr '\n' '/')" \
		"phase1 start/phase1 end/phase2 start/phase2 end/" \
		"demo.dat: the four phase markers"
	for task in small big mover; do
		log=$(log_of "$task")
		if [ -z "$log" ]; then
			_result 1 "demo: rt-app log of $task" "no rt-app-$task-*.log in $logs"
			continue
		fi
		utid=$(q "$db" "SELECT utid FROM thread WHERE comm = '$task'")
		is "$(echo "$utid" | grep -c .)" 1 "demo: one thread named $task"
		n=$(awk '!/^#/ { n++ } END { print n }' "$log")
		run_ns=$(awk '!/^#/ { r += $3 } END { printf "%.0f", r * 1000 }' "$log")
		first=$(awk '!/^#/ { printf "%.0f", $5 * 1000; exit }' "$log")
		got=$(q "$db" "SELECT sum(dur) FROM sched_slice
			WHERE utid = $utid AND ts + dur > $first")
		# trax's slices hold rt-app's run events plus the wakeup and sleep path around them:
		# at least the logged run time, at most 50 us more per activation
		ok "demo: $task ran $got ns after its first activation; rt-app logged $run_ns ns" \
			test "$got" -ge "$run_ns" -a "$got" -le $((run_ns + n * 50000))
		# the log's clock (CLOCK_MONOTONIC, us) is the trace clock (mono): each activation
		# after the first (which follows the thread's start, not a wakeup: it may begin in
		# the slice the thread was created in) starts within 200 us of a switch-in
		matched=$(q "$db" "SELECT ts FROM sched_slice WHERE utid = $utid" |
			awk -v lf="$log" 'BEGIN {
				while ((getline l < lf) > 0)
					if (l !~ /^#/) { split(l, a, " "); s[++n] = a[5] * 1000 }
			} { t[++m] = $1 } END {
				for (i = 2; i <= n; i++)
					for (j = 1; j <= m; j++) {
						d = t[j] - s[i]
						if (d <= 200000 && d >= -200000) { c++; break }
					}
				print c + 0
			}')
		is "$matched" "$((n - 1))" \
			"demo: $task's activations after the first each match a switch-in"
	done
	# residency: pinned tasks stay on their CPU once their phase started (log timestamps)
	for spec in small:0 big:1; do
		task=${spec%:*} cpu=${spec#*:}
		first=$(awk '!/^#/ { printf "%.0f", $5 * 1000; exit }' "$(log_of "$task")")
		is "$(q "$db" "SELECT count(*) FROM sched_slice s JOIN thread t USING (utid)
			WHERE t.comm = '$task' AND s.ts >= $first AND s.cpu != $cpu")" 0 \
			"demo: $task runs only on CPU $cpu (as pinned in demo-workload.json)"
	done
	log=$(log_of mover)
	b0=$(awk '!/^#/ { n++; if (n == 1 || n == 51) printf "%.0f ", $5 * 1000
		e = $6 } END { printf "%.0f", e * 1000 }' "$log")
	read -r m0 m1 m2 <<<"$b0"
	is "$(q "$db" "SELECT group_concat(DISTINCT s.cpu) FROM sched_slice s JOIN thread t
		USING (utid) WHERE t.comm = 'mover' AND s.ts >= $m0 AND s.ts < $m1 - 1000000")" 0 \
		"demo: mover runs on CPU 0 in its first phase"
	is "$(q "$db" "SELECT group_concat(DISTINCT s.cpu) FROM sched_slice s JOIN thread t
		USING (utid) WHERE t.comm = 'mover' AND s.ts >= $m1 AND s.ts < $m2")" 1 \
		"demo: mover runs on CPU 1 in its second phase"
	ok "demo: mover migrated to CPU 1 (sched_migrate_task)" test "$(q "$db" "SELECT count(*)
		FROM sched_migrate_task WHERE comm = 'mover' AND dest_cpu = 1")" -ge 1
	# duty cycle between the phase1 markers: trax's slices against the log's run/period
	w0=$(q "$db" "SELECT ts FROM print WHERE rtrim(buf, char(10)) = 'phase1 start'")
	w1=$(q "$db" "SELECT ts FROM print WHERE rtrim(buf, char(10)) = 'phase1 end'")
	for task in small big; do
		want=$(awk '!/^#/ { r += $3; p += $4 } END { printf "%.2f", 100 * r / p }' \
			"$(log_of "$task")")
		got=$(q "$db" "SELECT round(100.0 * sum(min(s.ts + s.dur, $w1) - max(s.ts, $w0)) /
			($w1 - $w0), 2) AS duty FROM sched_slice s JOIN thread t USING (utid)
			WHERE t.comm = '$task' AND s.ts < $w1 AND s.ts + s.dur > $w0")
		near "$got" "$want" 1.5 \
			"demo: $task's duty cycle in phase1 ($got %) is rt-app's ($want %)"
	done
fi
finish
