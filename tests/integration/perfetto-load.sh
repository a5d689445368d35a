#!/usr/bin/env bash
# tests/integration/perfetto-load.sh: Perfetto protobuf traces (parse/perfetto.c).
#
# Expected values come from protoc decoding the trace with the public schema
# (../shared/perfetto/perfetto_trace.proto), counted here with awk, or from inputs written by
# hand (as textproto, encoded with protoc --encode, or as bytes), never from trax's output.
# A real Android trace: every ftrace event with its fields, the packets trax does not use, the
# per-CPU edges and losses; small traces: the merge of bundles into time order, lost events,
# packet loss, an event trax does not decode; bad input: the trace cut at many offsets, wrong
# wire types, huge lengths, over-long varints.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../perfetto-lib.sh"

PT=$TRACES/perfetto/test_trace.perfetto-trace
FIX=$TOP/tests/fixtures/perfetto

have_proto=0
if ! command -v protoc >/dev/null; then
	skip "Perfetto traces decoded by protoc" "protoc absent (Debian: protobuf-compiler)"
elif need_shared "$PROTO" "the Perfetto schema"; then
	have_proto=1
fi

decode() { # file: the trace as protoc's text format
	protoc --proto_path="$(dirname "$PROTO")" --decode=perfetto.protos.Trace \
		"$(basename "$PROTO")" <"$1"
}
encode() { # textproto on stdin, trace to $1
	protoc --proto_path="$(dirname "$PROTO")" --encode=perfetto.protos.Trace \
		"$(basename "$PROTO")" >"$1"
}
meta() { # db key
	q "$1" "SELECT value FROM meta WHERE key = '$2'"
}

# Every ftrace event of protoc's text as "name|ts|cpu|pid|field=value|...", its fields in the
# order protoc prints them (the schema's), strings unquoted.
events_of_text() {
	awk '
		/^  ftrace_events \{$/ { fe = 1; cpu = 0; next }
		fe && /^  \}$/ { fe = 0; next }
		fe && /^    cpu: / { cpu = $2; next }
		fe && /^    event \{$/ { ev = 1; name = ""; f = ""; ts = 0; pid = 0; next }
		ev && /^      timestamp: / { ts = $2; next }
		ev && /^      pid: / { pid = $2; next }
		ev && /^      [a-z_0-9]+ \{$/ { name = $1; next }
		ev && /^        [a-z_0-9]+: / {
			k = $1; sub(/:$/, "", k); v = $0; sub(/^ *[a-z_0-9]+: /, "", v)
			if (v ~ /^".*"$/) v = substr(v, 2, length(v) - 2)
			f = f "|" k "=" v; next }
		ev && /^    \}$/ { print name "|" ts "|" cpu "|" pid f; ev = 0 }
	'
}

# The same from a db: every row of every event table, NULL columns left out.
events_of_db() {
	local db=$1 t sql cols
	for t in $(q "$db" "SELECT table_name FROM event_type WHERE count > 0"); do
		cols=$(q "$db" "SELECT f.name || ':' || f.field_name FROM event_field f JOIN event_type
			e ON e.id = f.type_id WHERE e.table_name = '$t' ORDER BY f.rowid")
		sql="SELECT '$(q "$db" "SELECT name FROM event_type WHERE table_name = '$t'")' || '|'
			|| ts || '|' || cpu || '|' || common_pid"
		for c in $cols; do
			sql="$sql || coalesce('|${c#*:}=' || \"${c%%:*}\", '')"
		done
		q "$db" "$sql AS r FROM \"$t\""
	done
}

# Where each packet of a trace begins (Trace.packet's tag 0x0a and its length varint, walked
# here), then the file's size.
packet_starts() {
	perl -e 'local $/; open(my $f, "<:raw", $ARGV[0]) or die; my $d = <$f>; my $o = 0;
		while ($o < length $d) { print "$o\n"; die "tag at $o\n" if ord(substr($d, $o, 1)) != 10;
			$o++; my ($l, $s, $b) = (0, 0, 0x80);
			while ($b & 0x80) { $b = ord(substr($d, $o++, 1)); $l |= ($b & 0x7f) << $s; $s += 7 }
			$o += $l } print length($d), "\n"' "$1"
}

# Rows of every event table in time order: the rows a later one precedes ("" when none).
out_of_order() {
	local t
	for t in $(q "$1" "SELECT table_name FROM event_type WHERE count > 0") raw_event; do
		q "$1" "SELECT '$t', a.rowid, a.ts, b.ts FROM \"$t\" a JOIN \"$t\" b ON b.rowid =
			a.rowid + 1 WHERE b.ts < a.ts LIMIT 3"
	done
}

# ---- a real Android trace ----
if [ $have_proto -eq 1 ] && need_shared "$PT" "test_trace.perfetto-trace"; then
	decode "$PT" >"$TMP/pt.txt"
	ok "protoc decodes the trace" test -s "$TMP/pt.txt"
	"$TRAX" load "$PT" -o "$TMP/pt.db" >/dev/null 2>"$TMP/err"
	is "$?" 0 "trax load reads it"
	is "$(meta "$TMP/pt.db" format)" perfetto "meta format: perfetto"

	events_of_text <"$TMP/pt.txt" | sort >"$TMP/ev.want"
	events_of_db "$TMP/pt.db" | sort >"$TMP/ev.got"
	cut -d'|' -f1 "$TMP/ev.want" | sort | uniq -c | awk '{ print $2 "," $1 }' >"$TMP/n.want"
	{
		q "$TMP/pt.db" "SELECT name, count FROM event_type WHERE count > 0"
		q "$TMP/pt.db" "SELECT name, count(*) FROM raw_event GROUP BY name"
	} | sort >"$TMP/n.got"
	is "$(cat "$TMP/n.got")" "$(cat "$TMP/n.want")" \
		"rows per event equal protoc's count of each event ($(grep -c '' "$TMP/ev.want") events)"
	is "$(meta "$TMP/pt.db" perfetto.ftrace.events)" "$(grep -c '^    event {$' "$TMP/pt.txt")" \
		"meta perfetto.ftrace.events: every event of the bundles"
	ok "every event has protoc's timestamp, CPU, pid and field values" \
		diff "$TMP/ev.want" "$TMP/ev.got"

	# packets: all, and by the data they hold (the fields that are not a packet's own)
	is "$(meta "$TMP/pt.db" perfetto.packets)" "$(grep -c '^packet {$' "$TMP/pt.txt")" \
		"meta perfetto.packets: every packet"
	own='^(timestamp|timestamp_clock_id|trusted_uid|trusted_packet_sequence_id|trusted_pid'
	own="$own|sequence_flags|incremental_state_cleared|previous_packet_dropped"
	own="$own|first_packet_on_sequence|machine_id)\$"
	awk '/^  [a-z_0-9]+( \{|:)/ { k = $1; sub(/:$/, "", k); print k }' "$TMP/pt.txt" |
		grep -Ev "$own" | sort | uniq -c | awk '{ print $2 "," $1 }' >"$TMP/k.want"
	# the kinds the reader reads (parse/perfetto.c, parse/pfinfo.c), counted as
	# perfetto.packets.KIND; every other kind as perfetto.packets.unused.KIND
	read_kinds='ftrace_events process_tree process_descriptor thread_descriptor track_descriptor'
	read_kinds="$read_kinds system_info ftrace_stats trace_stats clock_snapshot track_event"
	read_kinds="$read_kinds interned_data trace_packet_defaults"
	{
		q "$TMP/pt.db" "SELECT substr(key, 25), value FROM meta WHERE key LIKE
			'perfetto.packets.unused.%'"
		for k in $read_kinds; do
			v=$(meta "$TMP/pt.db" "perfetto.packets.$k")
			[ -n "$v" ] && echo "$k,$v"
		done
	} | sort >"$TMP/k.got"
	is "$(cat "$TMP/k.got")" "$(cat "$TMP/k.want")" \
		"each kind of packet is counted: those read in perfetto.packets.KIND, the others in perfetto.packets.unused.KIND"

	unread=$(grep -Ev "^(${read_kinds// /|})," "$TMP/k.want" | awk -F, '{ n += $2 } END { print n }')
	TRAX_CACHE_DIR=$TMP/cache "$TRAX" info "$TMP/pt.db" >"$TMP/info" 2>&1
	ok "trax info says which packets were not read: $unread of $(grep -c '^packet {$' \
		"$TMP/pt.txt")" grep -q "^not read: $unread of $(grep -c '^packet {$' "$TMP/pt.txt") packets: " \
		"$TMP/info"

	# per CPU: first and last event
	awk '/^  ftrace_events \{$/ { fe = 1 } /^  \}$/ { fe = 0 }
		fe && /^    cpu: / { cpu = $2 }
		fe && /^      timestamp: / { if (!(cpu in lo) || $2 < lo[cpu]) lo[cpu] = $2
			if ($2 > hi[cpu]) hi[cpu] = $2 }
		END { for (c in lo) print c "," lo[c] "," hi[c] }' "$TMP/pt.txt" | sort >"$TMP/c.want"
	q "$TMP/pt.db" "SELECT substr(a.key, 5, length(a.key) - 13), a.value, b.value FROM meta a
		JOIN meta b ON b.key = replace(a.key, 'first_ts', 'last_ts') WHERE a.key LIKE
		'cpu.%.first_ts'" | sort >"$TMP/c.got"
	is "$(cat "$TMP/c.got")" "$(cat "$TMP/c.want")" "per CPU: first and last timestamp"

	# losses: bundles flagged lost_events, packets dropped on a sequence already seen (on a
	# sequence's first packet previous_packet_dropped only says that nothing came before)
	lost=$(grep -c '^    lost_events: true$' "$TMP/pt.txt")
	drops=$(awk '/^packet \{$/ { d = 0; s = 0 } /^  previous_packet_dropped: / { d = $2 }
		/^  trusted_packet_sequence_id: / { s = $2 }
		/^\}$/ { if (d && (s in seen)) n++; seen[s] = 1 } END { print n + 0 }' "$TMP/pt.txt")
	is "$(meta "$TMP/pt.db" perfetto.ftrace.bundles.lost_events)" "$lost" \
		"bundles with lost events: $lost, as protoc says"
	is "$(meta "$TMP/pt.db" perfetto.sequences.packets_dropped)" "$drops" \
		"packets dropped on a sequence already seen: $drops, as protoc says"
	[ "$lost" -eq 0 ] && [ "$drops" -eq 0 ] &&
		is "$(q "$TMP/pt.db" "SELECT count(*) FROM lost_event")" 0 "... so no lost_event rows"

	# the threads: every (pid, name) of a sched_switch is a thread's name (but pid 0's: the
	# idle task of every CPU, swapper/N, is one thread, doc/db.md)
	awk '/^      sched_switch \{$/ { sw = 1; next } sw && /^      \}$/ { sw = 0 }
		sw && /_comm: / { c = $0; sub(/^ *[a-z_]+: "/, "", c); sub(/"$/, "", c) }
		sw && /_pid: / && $2 != 0 { print $2 "|" c }' "$TMP/pt.txt" | sort -u >"$TMP/t.want"
	q "$TMP/pt.db" "SELECT DISTINCT t.pid || '|' || c.comm FROM thread t JOIN thread_comm c
		USING (utid)" | sort -u >"$TMP/t.got"
	is "$(comm -23 "$TMP/t.want" "$TMP/t.got" | head -5)" "" \
		"every thread name of the sched_switch events ($(grep -c '' "$TMP/t.want") pairs) is in thread_comm"
	is "$(out_of_order "$TMP/pt.db")" "" "every event table's rows are in time order"
	is "$(q "$TMP/pt.db" "SELECT count(*) FROM anomaly")" 0 \
		"the bundles of 6 CPUs and 3 ftrace sequences merge into time order (no switch anomaly)"

	# --events: only those rows; the per-CPU edges still cover every event
	"$TRAX" load "$PT" -o "$TMP/ev.db" --events sched_switch >/dev/null 2>&1
	is "$(q "$TMP/ev.db" "SELECT group_concat(name) FROM event_type WHERE count > 0")" \
		sched_switch "--events sched_switch: only its rows"
	same "--events: the per-CPU edges are the full load's" "$TMP/ev.db" \
		"SELECT key, value FROM meta WHERE key LIKE 'cpu.%'" "$TMP/pt.db" \
		"SELECT key, value FROM meta WHERE key LIKE 'cpu.%'"

	# ---- truncated: the trace cut at many offsets ----
	packet_starts "$PT" >"$TMP/starts"
	size=$(stat -c %s "$PT")
	is "$(tail -1 "$TMP/starts")" "$size" "the packets' lengths add up to the file's size"
	# offsets after the first packet (a trace cut inside its first packet is not told from
	# other bytes: "unrecognized content"), and the starts of two packets (valid traces)
	first_end=$(sed -n 2p "$TMP/starts")
	cuts="$((first_end + 1)) $((first_end + 2)) 200 1000 4096 65535 65536 100000 333333
		$((size / 2)) $((size - 100)) $((size - 2)) $((size - 1))
		$(sed -n 10p "$TMP/starts") $(sed -n 1000p "$TMP/starts")"
	ncut=0 nbad=0 bad=
	for k in $cuts; do
		ncut=$((ncut + 1))
		head -c "$k" "$PT" >"$TMP/cut.pftrace"
		mkdir -p "$TMP/out.$k"
		want=0
		decode "$TMP/cut.pftrace" >/dev/null 2>&1 || want=2
		"$TRAX" load "$TMP/cut.pftrace" -o "$TMP/out.$k/cut.db" >/dev/null 2>"$TMP/err"
		rc=$?
		start=$(awk -v k="$k" '$1 < k { s = $1 } END { print s }' "$TMP/starts")
		why=
		[ "$rc" -eq "$want" ] || why="exit $rc, protoc says $want;"
		if [ "$want" -eq 2 ]; then
			nbad=$((nbad + 1))
			[ "$(grep -c '' "$TMP/err")" -eq 1 ] || why="$why not one line;"
			grep -qF "$TMP/cut.pftrace: truncated Perfetto trace: the packet at byte offset $start " \
				"$TMP/err" || why="$why not the packet at $start;"
			[ -z "$(ls -A "$TMP/out.$k")" ] || why="$why left: $(ls -A "$TMP/out.$k");"
		fi
		[ -z "$why" ] || bad="$bad cut at $k: $why $(head -1 "$TMP/err")"$'\n'
	done
	is "$bad" "" "cut at $ncut offsets: the $nbad that protoc refuses exit 2 with one line \
naming the file and the cut packet's offset, and leave no db; the others load"
	is "$nbad" $((ncut - 2)) "... (all but the two cuts at packet starts)"

	# thread names: every (pid, comm) of the decoded sched_switch events (prev and next) is a
	# name of that pid's thread in thread_comm, and no other name is (pid 0, the idle task of
	# every CPU, is one thread named by its first: left out)
	awk '/^  ftrace_events \{$/ { fe = 1 } /^  \}$/ { fe = 0 }
		function str(   v) { v = substr($0, index($0, "\"") + 1); sub(/"$/, "", v); return v }
		fe && /^        prev_comm: / { pc = str() } fe && /^        next_comm: / { nc = str() }
		fe && /^        prev_pid: / && $2 != 0 { print $2 "," pc }
		fe && /^        next_pid: / && $2 != 0 { print $2 "," nc }' "$TMP/pt.txt" |
		sort -u >"$TMP/names.want"
	q "$TMP/pt.db" "SELECT DISTINCT t.pid, c.comm FROM thread_comm c JOIN thread t USING (utid)
		WHERE t.pid != 0 AND t.pid IN (SELECT prev_pid FROM sched_switch UNION
		SELECT next_pid FROM sched_switch)" | tr -d '"' | sort -u >"$TMP/names.got"
	ok "thread names of the sched_switch tasks are the decoded text's ($(grep -c '' \
		"$TMP/names.want") pid-name pairs)" diff "$TMP/names.want" "$TMP/names.got"

	# a residency rule, worked from the decoded text for traced_probes (pid 1137) on CPUs 0-3:
	# its runs from each switch in to the CPU's next switch; a run under way at a CPU's first
	# switch counts from the CPU's first event, one under way at the end until the trace's
	# last event (doc/db.md, sched_slice)
	awk '/^  ftrace_events \{$/ { fe = 1 } /^  \}$/ { fe = 0 }
		fe && /^    cpu: / { cpu = $2 } fe && /^      timestamp: / { print cpu, $2, NR, "e" }
		fe && /^        prev_pid: / { pp = $2 }
		fe && /^        next_pid: / { print cpu, ts, NR, "s", pp, $2 }
		fe && /^      timestamp: / { ts = $2 }' "$TMP/pt.txt" |
		sort -k2,2n -k3,3n >"$TMP/events.txt"
	want=$(awk -v P=1137 '
		{ if (!($1 in first)) first[$1] = $2; if ($2 > last) last = $2 }
		$4 == "s" && $1 <= 3 {
			if (!($1 in seen) && $5 == P) tot += $2 - first[$1]
			seen[$1] = 1
			if ($1 in on) { tot += $2 - on[$1]; delete on[$1] }
			if ($6 == P) on[$1] = $2
		}
		END { for (c in on) tot += last - on[c]; printf "%d\n", tot }' "$TMP/events.txt")
	cat >"$TMP/res.json" <<EOF2
{ "topology": { "little": [0, 1, 2, 3] },
  "rules": [ { "id": "tp-little", "metric": "residency", "task": "traced_probes",
               "cpus": "little", "expect": "== $want ns" } ] }
EOF2
	"$TRAX" check "$TMP/res.json" "$TMP/pt.db" --format tap >"$TMP/res.tap" 2>&1
	ok "a residency rule: traced_probes ran $want ns on CPUs 0-3, as worked from the text" \
		grep -q '^ok 1 tp-little$' "$TMP/res.tap"
fi

# ---- a small trace written as text (tests/fixtures/perfetto/small.textproto) ----
if [ $have_proto -eq 1 ]; then
	encode "$TMP/s.pftrace" <"$FIX/small.textproto"
	ok "small.pftrace is protoc's encoding of small.textproto" cmp "$TMP/s.pftrace" \
		"$FIX/small.pftrace"
fi
# What trax loads from it (no protoc needed). Bundles out of time order in the file:
#   file order: seq 1 cpu 1 (200, 400), seq 2 cpu 1 (300), seq 1 cpu 0 lost_events (100, 150,
#   250: an event trax does not decode), a clock snapshot (seq 3), seq 1 again with
#   previous_packet_dropped: cpu 0 (500), then seq 4 cpu 2 (350, 450) and seq 4 cpu 2 again,
#   earlier (120). Time order: 100 b's B marker, 120 idle, 150 b wakes a, 200 a switched in on
#   CPU 1, 250 a priority change, 300 frequency, 350 idle, 400 a switched out (S), 450 idle, 500 b's E
#   marker.
{
	"$TRAX" load "$FIX/small.pftrace" -o "$TMP/s.db" >/dev/null 2>"$TMP/err"
	is "$?" 0 "trax load reads it"
	is "$(out_of_order "$TMP/s.db")" "" "every event table's rows are in time order"
	is "$(q "$TMP/s.db" "SELECT ts || ' ' || cpu || ' ' || prev_pid || ' ' || next_pid FROM
		sched_switch" | tr '\n' ',')" "200 1 0 10,400 1 10 0," "sched_switch: both, in time order"
	is "$(q "$TMP/s.db" "SELECT ts || ' ' || dur || ' ' || cpu || ' ' || end_state FROM
		sched_slice WHERE pid = 10")" "200 200 1 S" "a's slice: 200 to 400 on CPU 1, then S"
	is "$(q "$TMP/s.db" "SELECT s.ts || ' ' || s.dur || ' ' || s.name || ' ' || t.pid FROM slice
		s JOIN thread t USING (utid)")" "100 400 work 20" \
		"the B/E markers of print events are a slice of 400 ns on b (pid 20)"
	# a: woken at 150 by b (R until its switch-in), running 200 to 400, then asleep until
	# the trace end (500): only in time order across CPUs and sequences
	is "$(q "$TMP/s.db" "SELECT s.ts || ' ' || s.dur || ' ' || s.state || ' ' ||
		coalesce(w.pid, '-') AS r FROM thread_state s JOIN thread t USING (utid) LEFT JOIN
		thread w ON w.utid = s.waker_utid WHERE t.pid = 10 ORDER BY s.ts" | tr '\n' ',')" \
		"150 50 R 20,200 200 Running -,400 100 S -," \
		"a's states: woken by b on CPU 0 at 150, then its slice on CPU 1"
	is "$(q "$TMP/s.db" "SELECT ts || ' ' || cpu || ' ' || state || ' ' || cpu_id FROM
		cpu_frequency")" "300 1 1800000 1" "cpu_frequency from the second sequence"
	is "$(q "$TMP/s.db" "SELECT ts || ' ' || state FROM cpu_idle" | tr '\n' ',')" \
		"120 0,350 1,450 4294967295," \
		"cpu_idle: a later bundle of the same CPU and sequence that starts earlier, merged in"
	# (as CSV: the field quoted, its quotes doubled)
	is "$(q "$TMP/s.db" "SELECT ts || ' ' || cpu || ' ' || common_pid || ' ' || name || ' ' ||
		text AS r FROM raw_event")" '"250 0 20 ftrace_event_353 1=""a"" 2=100 3=120 4=10"' \
		"an event trax does not decode (sched_pi_setprio, 353) is a raw_event with its fields"
	is "$(meta "$TMP/s.db" perfetto.ftrace.events.unknown.353)" 1 "... counted in meta"
	ok "... and named by trax info (ftrace_event_353)" sh -c \
		"'$TRAX' info '$FIX/small.pftrace' | grep -q 'ftrace events (in raw_event): ftrace_event_353 1'"
	# lost: cpu 0 before 100 (lost_events); after the drop on sequence 1 (not its first
	# packet): cpu 0 before 500, cpu 1 after its last event (500, the trace end)
	is "$(q "$TMP/s.db" "SELECT ts || ' ' || cpu || ' ' || coalesce(count, 'NULL') FROM
		lost_event ORDER BY ts, cpu" | tr '\n' ',')" "100 0 NULL,500 0 NULL,500 1 NULL," \
		"lost events: lost_events before its bundle, a dropped packet on every CPU"
	is "$(meta "$TMP/s.db" perfetto.sequences.packets_dropped)" 1 \
		"one packet dropped (the first packet's flag is not a loss)"
	is "$(meta "$TMP/s.db" perfetto.packets.clock_snapshot)" 1 "the clock snapshot is counted (and read)"
	# A drop reported by a packet whose bundles are the first of their CPU (a CPU seen for the
	# first time there, or no bundle before on the sequence) is still a loss on those CPUs:
	# before the bundle's first event; on a CPU seen before, at the trace end (its last event).
	if [ $have_proto -eq 1 ]; then
		sw='sched_switch { prev_comm: "x" prev_pid: 0 prev_prio: 120 prev_state: 0
			next_comm: "y" next_pid: 7 next_prio: 120 }'
		encode "$TMP/d1.pftrace" <<EOT
packet { trusted_packet_sequence_id: 1 timestamp: 5 }
packet { trusted_packet_sequence_id: 1 previous_packet_dropped: 1 ftrace_events { cpu: 0
  event { timestamp: 10 pid: 0 $sw } } }
EOT
		"$TRAX" load "$TMP/d1.pftrace" -o "$TMP/d1.db" >/dev/null 2>&1
		is "$(q "$TMP/d1.db" "SELECT ts || ' ' || cpu FROM lost_event" | tr '\n' ',')" \
			"10 0," "a drop before the sequence's first bundle: a loss on that bundle's CPU"
		encode "$TMP/d2.pftrace" <<EOT
packet { trusted_packet_sequence_id: 1 ftrace_events { cpu: 0
  event { timestamp: 10 pid: 0 $sw } } }
packet { trusted_packet_sequence_id: 1 previous_packet_dropped: 1 ftrace_events { cpu: 1
  event { timestamp: 20 pid: 0 $sw } } }
EOT
		"$TRAX" load "$TMP/d2.pftrace" -o "$TMP/d2.db" >/dev/null 2>&1
		is "$(q "$TMP/d2.db" "SELECT ts || ' ' || cpu FROM lost_event ORDER BY cpu" |
			tr '\n' ',')" "20 0,20 1," \
			"a drop in the packet of a CPU's first bundle: a loss on it, and on the CPU before"
	fi
	is "$(meta "$TMP/s.db" trace.start_ts) $(meta "$TMP/s.db" trace.end_ts)" "100 500" \
		"the trace runs from 100 to 500"
	is "$(meta "$TMP/s.db" cpus) $(meta "$TMP/s.db" trace_clock)" "3 boot" \
		"3 CPUs; no ftrace_clock: the boot clock"
}

# ---- the small trace cut at every byte ----
# A cut at a packet start is a shorter, well-formed trace: it loads. Any other cut: exit 2, one
# line naming the file, no db; after the first packet the line names the offset of the packet
# cut short (inside the first packet the bytes are not told from others: "unrecognized").
packet_starts "$FIX/small.pftrace" >"$TMP/s.starts"
ssize=$(stat -c %s "$FIX/small.pftrace")
sfirst=$(sed -n 2p "$TMP/s.starts")
bad= nload=0
for k in $(seq 1 $((ssize - 1))); do
	head -c "$k" "$FIX/small.pftrace" >"$TMP/c.pftrace"
	rm -rf "$TMP/cout"
	mkdir -p "$TMP/cout"
	"$TRAX" load "$TMP/c.pftrace" -o "$TMP/cout/c.db" >/dev/null 2>"$TMP/err"
	rc=$?
	why=
	if grep -qx "$k" "$TMP/s.starts"; then
		nload=$((nload + 1))
		[ $rc -eq 0 ] || why="exit $rc at a packet start;"
	else
		start=$(awk -v k="$k" '$1 < k { s = $1 } END { print s }' "$TMP/s.starts")
		[ $rc -eq 2 ] || why="exit $rc;"
		[ "$(grep -c '' "$TMP/err")" -eq 1 ] || why="$why not one line;"
		grep -qF "$TMP/c.pftrace: " "$TMP/err" || why="$why no file name;"
		[ "$k" -lt "$sfirst" ] || grep -qF "the packet at byte offset $start " "$TMP/err" ||
			why="$why not the packet at $start;"
		[ -z "$(ls -A "$TMP/cout")" ] || why="$why left $(ls -A "$TMP/cout");"
	fi
	[ -z "$why" ] || bad="$bad cut at $k: $why $(head -1 "$TMP/err")"$'\n'
done
is "$bad" "" "small.pftrace cut at each of its $((ssize - 1)) bytes: $nload cuts at packet \
starts load; every other exits 2 with one line naming the file (and the cut packet), no db"

# ---- corrupt traces, written as bytes (offsets by hand) ----
# A first packet that is fine: 0a 04 | 40 01 (timestamp 1) 50 01 (sequence 1): bytes 0-5.
good="0a 04 40 01 50 01"
# 6: 0a 04 | 0a 02 (ftrace_events, 2 bytes) | 0a 00: the bundle's cpu (field 1) as LEN
pf wire.pftrace $good 0a 04 0a 02 0a 00
bad_load "a bundle's cpu with wire type 2: exit 2 at its offset (10)" wire.pftrace 10 \
	"cpu, field 1\): wire type 2, the schema's is 0"
# 6: 0a 06 | 0a 04 | 12 02 (event, 2 bytes) | 0b 00: a field of wire type 3 in the event
pf group.pftrace $good 0a 06 0a 04 12 02 0b 00
bad_load "a group (wire type 3) in an event: exit 2 at its offset (12)" group.pftrace 12 \
	"wire type"
# 6: 0a 07 | 0a 05 | 12 ff ff ff 0f: an event of 2^32 - 1 bytes in a 5-byte bundle
pf huge.pftrace $good 0a 07 0a 05 12 ff ff ff 0f
bad_load "an event of 2^32 - 1 bytes in a bundle of 5: exit 2 at its offset (10)" huge.pftrace 10 \
	"length runs past the end"
# 6: 0a 10 | 0a 0e | 12 0c | 08 + 11 bytes: an event's timestamp varint of 11 bytes
pf long.pftrace $good 0a 10 0a 0e 12 0c 08 80 80 80 80 80 80 80 80 80 80 00
bad_load "an event timestamp of 11 varint bytes: exit 2 at its offset (12)" long.pftrace 12 \
	"longer than 10 bytes"
# 6: 0a ff ff ff ff 0f: a packet of 2^32 - 1 bytes
pf bigpkt.pftrace $good 0a ff ff ff ff 0f 00
bad_load "a packet of 2^32 - 1 bytes: exit 2 at its offset (6)" bigpkt.pftrace 6 \
	"truncated Perfetto trace: the packet at byte offset 6 runs past the end"
# 6: 0a 08 | 0a 06 | 08 80 80 01 (cpu: 0 + 0 << 7 + 1 << 14 = 16384) 12 00 (an empty event)
pf cpu.pftrace $good 0a 08 0a 06 08 80 80 01 12 00
bad_load "a bundle's CPU 16384: exit 2 at its offset (8)" cpu.pftrace 8 "CPU 16384"
finish
