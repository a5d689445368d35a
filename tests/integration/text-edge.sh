#!/usr/bin/env bash
# ftrace text edge cases on small hand-written files: garbage, malformed and unparsable lines,
# lost events, instance buffers, messages holding newlines, CRLF, --events, detection by content.
. "$(dirname "$0")/../lib.sh"
FIX=$TOP/tests/fixtures/text

# load NAME: load $TMP/NAME.txt into $TMP/NAME.db, one TAP line
load() {
	local out
	out=$("$TRAX" load "$TMP/$1.txt" -o "$TMP/$1.db" 2>&1 >/dev/null)
	_result $? "$1: loads" "$out"
}

# ---- no event lines: an input error, not an empty db ----
printf 'hello world\nthis is not a trace\n' >"$TMP/garbage.txt"
printf '# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:2\n#\n' >"$TMP/empty.txt"
for n in garbage empty; do
	out=$("$TRAX" load "$TMP/$n.txt" -o "$TMP/$n.db" 2>&1)
	rc=$?
	is "$rc" 2 "$n: exit status 2"
	case "$out" in *"$TMP/$n.txt"*"no ftrace event lines"*) _result 0 "$n: says no ftrace event lines" ;;
	*) _result 1 "$n: says no ftrace event lines" "got: $out" ;; esac
	is "$(printf '%s\n' "$out" | wc -l)" 1 "$n: one line"
	ok "$n: no db left" test ! -e "$TMP/$n.db"
	is "$(ls "$TMP" | grep -c "^$n.db")" 0 "$n: no temporary db left"
done

# ---- some lines unparsable: they are kept, not dropped ----
cat >"$TMP/mixed.txt" <<'EOF'
# tracer: nop
          <idle>-0     [000] d..2  100.000001: cpu_idle: state=1 cpu_id=0
   this line is garbage
          nopid [001] d..2  100.000002: cpu_idle: state=1 cpu_id=1
            bash-12    [001] d..2  100.000003: my_event: a=1 b=hello
            bash-12    [001] d..2  100.000004: my_event: a=2 b=big world c=0x10
            bash-12    [001] d..2  100.000005: my_event: a=x3
            bash-12    [001] d..2  100.000006: no_pairs: just some words
EOF
load mixed
d=$TMP/mixed.db
is "$(q "$d" "SELECT count(*) FROM cpu_idle")" 1 "mixed: the good cpu_idle line"
is "$(q "$d" "SELECT name, cpu, ts FROM raw_event ORDER BY ts" | tr '\n' ' ')" \
	"cpu_idle,1,100000002000 no_pairs,1,100000006000 " "mixed: malformed and pair-less lines in raw_event"
is "$(q "$d" "SELECT text FROM raw_event WHERE name = 'no_pairs'")" "just some words" \
	"mixed: raw text is the payload"
is "$(q "$d" "SELECT group_concat(name || ':' || sql_type, ' ') FROM (SELECT f.name, f.sql_type FROM event_field f JOIN event_type t ON t.id = f.type_id WHERE t.name = 'my_event' ORDER BY f.rowid)")" \
	"a:TEXT b:TEXT c:INTEGER" "mixed: inferred columns, in order, typed by their values"
is "$(q "$d" "SELECT a, b, c FROM my_event ORDER BY ts" | tr '\n' ' ')" \
	'1,hello, 2,big world,16 x3,, ' "mixed: inferred values"
is "$(q "$d" "SELECT value FROM meta WHERE key = 'text.ignored_lines'")" 1 "mixed: one ignored line"
is "$(q "$d" "SELECT value FROM meta WHERE key = 'text.first_ignored_line'")" 3 \
	"mixed: the ignored line's number"
is "$(q "$d" "SELECT value FROM meta WHERE key = 'text.malformed_lines'")" 1 "mixed: one malformed line"
out=$("$TRAX" info "$d" 2>&1)
case "$out" in *raw_event*no_pairs*) _result 0 "mixed: trax info lists raw_event counts" ;;
*) _result 1 "mixed: trax info lists raw_event counts" "$out" ;; esac

# ---- lost events and buffer-start lines ----
cat >"$TMP/lost.txt" <<'EOF'
cpus=2
       a-1 [000] 10.000001: ev: x=1
CPU:1 [LOST 7 EVENTS]
       a-1 [001] 10.000002: ev: x=2
##### CPU 0 buffer started ####
       a-1 [000] 10.000003: ev: x=3
CPU:0 [EVENTS DROPPED]
EOF
load lost
d=$TMP/lost.db
# "buffer started": CPU 0's older records were overwritten (count unknown), before 10.000003;
# the last line announces a loss after CPU 0's last record: it is placed at the trace's end.
is "$(q "$d" "SELECT ts, cpu, buffer, count FROM lost_event ORDER BY rowid" | tr '\n' ' ')" \
	"10000002000,1,0,7 10000003000,0,0, 10000003000,0,0, " \
	"lost: lost_event rows (at the next record, or the end)"
is "$(q "$d" "SELECT value FROM meta WHERE key = 'cpu.1.lost_events'")" 7 "lost: cpu 1 lost 7"
is "$(q "$d" "SELECT value FROM meta WHERE key = 'cpu.0.lost_events'")" unknown "lost: cpu 0 unknown"
is "$(q "$d" "SELECT value FROM meta WHERE key = 'text.ignored_lines'")" 0 "lost: nothing ignored"

# ---- several instance buffers (`trace-cmd report` prefixes) ----
cat >"$TMP/bufs.txt" <<'EOF'
cpus=2
beta:              b-2     [001]    10.000001: ev: x=1
alpha:             a-1     [000]    10.000002: ev: x=2
beta:              b-2     [001]    10.000003: ev: x=3
EOF
load bufs
d=$TMP/bufs.db
is "$(q "$d" "SELECT key, value FROM meta WHERE key GLOB 'buffer.*.name' OR key = 'buffers' ORDER BY key" | tr '\n' ' ')" \
	"buffer.0.name,beta buffer.1.name,alpha buffers,2 " "bufs: two buffers, numbered by first appearance"
is "$(q "$d" "SELECT x, buffer, common_pid FROM ev ORDER BY ts" | tr '\n' ' ')" \
	"1,0,2 2,1,1 3,0,2 " "bufs: rows carry their buffer"

# ---- NUL bytes in buffer prefixes, event names and keys (a damaged file) ----
# Names are kept by their length, not strlen: two prefixes that differ only after a NUL stay
# two buffers (the sanitizer build also checks nothing is read past a copy).
# (Detection reads the first 64 KiB: the damage comes after as many event lines.)
awk 'BEGIN { for (i = 0; i < 2500; i++) printf "  a-1  [000]  9.%06d: ev: x=0\n", i }' >"$TMP/nul.txt"
printf 'al\0a:  a-1  [000]  10.000001: ev: x=1\nal\0b:  a-1  [000]  10.000002: ev: x=2\n' \
	>>"$TMP/nul.txt"
printf '  a-1  [000]  10.000003: e\0v: k\0y=1\n  a-1  [000]  10.000004: e\0w: k\0z=2\n' \
	>>"$TMP/nul.txt"
load nul
is "$(q "$TMP/nul.db" "SELECT value FROM meta WHERE key = 'buffers'")" 3 \
	"nul: prefixes differing after a NUL are two buffers (and the unprefixed one)"
is "$(q "$TMP/nul.db" "SELECT (SELECT sum(count) FROM event_type) || ' ' || (SELECT count(*) FROM raw_event)")" \
	"2502 2" "nul: 2502 events, and the 2 lines whose event names hold a NUL kept as raw rows"

# ---- a message holding a newline (bart raw_trace.dat's bprint, as trace-cmd prints it) ----
cat >"$TMP/msg.txt" <<'EOF'
version = 6
cpus=6
              ls-4734  [002] 106439.675571: bprint:               select_task_rq_fair: fig: cpu=0
 gid=4
              ls-4734  [002] 106439.675578: bprint:               select_task_rq_fair: fig: cpu=5
 gid=1
EOF
load msg
d=$TMP/msg.db
is "$(q "$d" "SELECT count(*), sum(buf = 'select_task_rq_fair: fig: cpu=0' || char(10) || ' gid=4') FROM bprint")" \
	"2,1" "msg: continuation line joined to its message"
is "$(q "$d" "SELECT value FROM meta WHERE key = 'text.ignored_lines'")" 0 "msg: nothing ignored"

# ---- CRLF line endings and a missing final newline ----
if [ -f "$FIX/trace.txt" ]; then
	sed 's/$/\r/' "$FIX/trace.txt" | head -c -2 >"$TMP/crlf.txt"
	load crlf
	cp "$FIX/trace.txt" "$TMP/lf.txt"
	load lf
	is "$(q "$TMP/crlf.db" "SELECT name, count FROM event_type WHERE count > 0 ORDER BY 1")" \
		"$(q "$TMP/lf.db" "SELECT name, count FROM event_type WHERE count > 0 ORDER BY 1")" \
		"crlf: same counts as LF"
	is "$(q "$TMP/crlf.db" "SELECT count(*) FROM sched_switch WHERE next_comm GLOB '*'||char(13)||'*' OR prev_comm GLOB '*'||char(13)||'*'")" \
		0 "crlf: no carriage return in values"

	# --events: only the listed event is written, the others are not turned into raw rows
	"$TRAX" load "$FIX/trace.txt" -o "$TMP/only.db" --events sched_switch >/dev/null 2>&1
	is "$(q "$TMP/only.db" "SELECT group_concat(name) FROM event_type WHERE count > 0")" \
		sched_switch "events: only sched_switch rows"
	is "$(q "$TMP/only.db" "SELECT count(*) FROM raw_event")" 0 "events: no raw rows"
	# the switches alone give the same slices, except those bounded from wakeups and
	# migrations (clipped 8), which --events sched_switch leaves out
	is "$(q "$TMP/only.db" "SELECT count(*), sum(dur) FROM sched_slice WHERE clipped & 8 = 0")" \
		"$(q "$TMP/lf.db" "SELECT count(*), sum(dur) FROM sched_slice WHERE clipped & 8 = 0")" \
		"events: same sched_slice where the switches agree"
	is "$(q "$TMP/only.db" "SELECT count(*) FROM anomaly WHERE kind = 'switch_out_unseen_in'")" \
		"$(q "$TMP/lf.db" "SELECT count(*) FROM anomaly WHERE kind = 'switch_out_unseen_in'")" \
		"events: the same switch-outs never seen switched in"

	# the format is told by content: a text trace named .dat, a trace.dat named .txt
	cp "$FIX/report.txt" "$TMP/named.dat"
	cp "$FIX/trace.dat" "$TMP/named.txt"
	"$TRAX" load "$TMP/named.dat" -o "$TMP/named-text.db" >/dev/null 2>&1
	"$TRAX" load "$TMP/named.txt" -o "$TMP/named-bin.db" >/dev/null 2>&1
	is "$(q "$TMP/named-text.db" "SELECT value FROM meta WHERE key = 'format'")" text \
		"detect: text named .dat is text"
	is "$(q "$TMP/named-bin.db" "SELECT value FROM meta WHERE key = 'format'")" trace.dat \
		"detect: trace.dat named .txt is trace.dat"
else
	skip "crlf, --events, detection" "$FIX/trace.txt missing"
fi
# ---- a counter clock: trace-cmd report prints raw counts right after the CPU column ----
# sched-v6.dat with the clock in its TRACECLOCK option renamed to counter (the clock section
# after the CPU table keeps [local]: libtracecmd has by then stopped printing seconds).
v6=$TOP/tests/fixtures/sched-v6.dat
if command -v trace-cmd >/dev/null && command -v perl >/dev/null && [ -f "$v6" ]; then
	perl -0777 -pe 's/\[local\] global counter/local global [counter]/' "$v6" >"$TMP/counter.dat"
	trace-cmd report -t "$TMP/counter.dat" >"$TMP/counter.txt" 2>/dev/null
	ok "counter: trace-cmd report prints raw counts ([000]123456:)" \
		grep -qE '^ *[^ ].*\[[0-9]+\][0-9]+: sched_switch: ' "$TMP/counter.txt"
	load counter
	"$TRAX" load "$v6" -o "$TMP/counter-dat.db" >/dev/null 2>&1
	is "$(q "$TMP/counter.db" "SELECT value FROM meta WHERE key = 'text.timestamp_digits'")" 0 \
		"counter: timestamp digits 0"
	same "counter: sched_switch rows as in the trace.dat, counts as they are" \
		"$TMP/counter-dat.db" "SELECT ts, cpu, common_pid, prev_pid, next_pid FROM sched_switch ORDER BY rowid" \
		"$TMP/counter.db" "SELECT ts, cpu, common_pid, prev_pid, next_pid FROM sched_switch ORDER BY rowid"
else
	skip "counter clock text" "trace-cmd, perl or $v6 missing"
fi
finish
