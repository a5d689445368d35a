#!/usr/bin/env bash
# tests/integration/case-names.sh: event and field names that differ only in case (issue 11
# item 6). SQLite's identifiers ignore case, so such names are given "_2", "_3"... in order of
# first appearance (doc/db.md); event_type and event_field keep each original name. Expected
# tables, columns and rows are counted by hand from the files.
. "$(dirname "$0")/../lib.sh"
FIX=$TOP/tests/fixtures/text

# load FILE DB: one TAP line (exit 0, nothing on stderr but the summary)
load() {
	local out
	out=$("$TRAX" load "$1" -o "$2" 2>&1 >/dev/null)
	_result $? "$(basename "$1"): loads" "$out"
}

# ---- tests/fixtures/text/case-collision.txt ----
d=$TMP/c.db
load "$FIX/case-collision.txt" "$d"
is "$(q "$d" "SELECT name || ':' || table_name || ':' || count FROM event_type ORDER BY id" | tr '\n' ' ')" \
	"my_event:my_event:2 My_Event:My_Event_2:2 MY_EVENT:MY_EVENT_3:1 cols:cols:1 Thread:unknown__Thread:1 Thread_PID:Thread_PID_2:1 " \
	"case-collision: one table per spelling, suffixed in order of appearance; reserved names (thread, the thread_pid index) ignoring case"
is "$(q "$d" "SELECT a FROM my_event ORDER BY ts" | tr '\n' ' ')" "1 5 " "case-collision: my_event's rows"
is "$(q "$d" "SELECT a FROM My_Event_2 ORDER BY ts" | tr '\n' ' ')" "3 7 " "case-collision: My_Event's rows"
is "$(q "$d" "SELECT a, cpu FROM MY_EVENT_3")" "4,1" "case-collision: MY_EVENT's row"
is "$(q "$d" "SELECT n FROM unknown__Thread")" 1 "case-collision: Thread's row"
is "$(q "$d" "SELECT n FROM Thread_PID_2")" 2 "case-collision: Thread_PID's row"
is "$(q "$d" "SELECT a, A_2, b FROM my_event ORDER BY ts" | tr '\n' ' ')" "1,2,x 5,6,y " \
	"case-collision: fields a and A are columns a and A_2"
is "$(q "$d" "SELECT cpu, CPU_, Ts_, cpu__2, cpu__3 FROM cols")" "0,9,10,11,12" \
	"case-collision: CPU and Ts take the trailing _ of the common columns, then cpu_ and cpu count on"
is "$(q "$d" "SELECT f.name || '=' || f.field_name FROM event_field f JOIN event_type t ON t.id = f.type_id WHERE t.name IN ('my_event', 'cols') ORDER BY t.id, f.rowid" | tr '\n' ' ')" \
	"a=a A_2=A b=b CPU_=CPU Ts_=Ts cpu__2=cpu_ cpu__3=cpu " \
	"case-collision: event_field maps each column to the field's own name"
is "$(q "$d" "SELECT t.table_name || '.' || f.name FROM event_field f JOIN event_type t ON t.id = f.type_id WHERE t.name = 'my_event' AND f.field_name = 'A'")" \
	"my_event.A_2" "case-collision: the catalogue finds field A of my_event"
is "$(q "$d" "SELECT count(*) FROM raw_event")" 0 "case-collision: nothing in raw_event"

# ---- the reproducers ----
r=$SHARED/repro/min-text-event-case-collision.txt
if [ -f "$r" ]; then
	d=$TMP/re.db
	load "$r" "$d"
	is "$(q "$d" "SELECT name || ':' || table_name || ':' || count FROM event_type ORDER BY id" | tr '\n' ' ')" \
		"cpu_idle:cpu_idle:1 Cpu_idle:Cpu_idle_2:1 " "repro event case: cpu_idle and Cpu_idle_2"
	is "$(q "$d" "SELECT ts, state, cpu_id FROM Cpu_idle_2")" "100000002000,1,0" \
		"repro event case: Cpu_idle's line in Cpu_idle_2"
	is "$(q "$d" "SELECT ts, state, cpu_id FROM cpu_idle")" "100000001000,1,0" \
		"repro event case: cpu_idle's line in cpu_idle"
else
	skip "repro min-text-event-case-collision.txt" "$r missing"
fi
r=$SHARED/repro/min-text-field-case-collision.txt
if [ -f "$r" ]; then
	d=$TMP/rf.db
	load "$r" "$d"
	is "$(q "$d" "SELECT state, cpu_id, State_2 FROM cpu_idle")" "1,0,2" \
		"repro field case: state=1 and State=2 in state and State_2"
	is "$(q "$d" "SELECT f.field_name FROM event_field f JOIN event_type t ON t.id = f.type_id WHERE t.name = 'cpu_idle' AND f.name = 'State_2'")" \
		State "repro field case: event_field names State_2's field State"
	is "$(q "$d" "SELECT count(*) FROM counter c JOIN track k ON k.id = c.track_id WHERE k.name LIKE '%idle%'")" 1 \
		"repro field case: cpu_idle still feeds its counter from state"
else
	skip "repro min-text-field-case-collision.txt" "$r missing"
fi
is "$(find "$TMP" -name '*.tmp-*' | wc -l)" 0 "no temporary database left behind"
finish
