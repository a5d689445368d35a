#!/usr/bin/env bash
# tests/integration/info.sh: trax info on the recorded fixture: the busiest tasks and --tasks N
# (0: none), and bad values of --tasks.
. "$(dirname "$0")/../lib.sh"
demo=$TOP/tests/fixtures/demo.dat
if [ ! -f "$demo" ]; then
	skip "trax info on tests/fixtures/demo.dat" "not recorded yet"
	finish
fi

# The task table: the rows after the "pid comm runtime slices" header, up to the next section.
task_rows() {
	awk '/^ +pid +comm +runtime/ {on=1; next} on && /^ +[0-9]+ / {print; next} {on=0}'
}

# The workload (tests/fixtures/record.sh): big runs 6 ms of every 10 ms for 200 periods (1.2 s),
# filler fills CPU 1 for 2.1 s whenever big and mover (2 ms of 20 ms, 50 periods there) sleep
# (about 0.8 s), small runs 4 ms of every 16 ms for 125 periods (0.5 s), mover 2 ms x 100 (0.2 s).
out=$("$TRAX" info "$demo" --tasks 3)
is "$?" 0 "--tasks 3: exit 0"
rows=$(printf '%s\n' "$out" | task_rows)
is "$(printf '%s\n' "$rows" | awk '{print $2}' | tr '\n' ' ')" "big filler small " \
	"--tasks 3: big, filler, small, busiest first"
near "$(printf '%s\n' "$rows" | awk '$2 == "big" {print $3}')" 1.2 0.05 \
	"--tasks 3: big ran 200 x 6 ms"
near "$(printf '%s\n' "$rows" | awk '$2 == "small" {print $3}')" 0.5 0.05 \
	"--tasks 3: small ran 125 x 4 ms"
out=$("$TRAX" info "$demo")
is "$(printf '%s\n' "$out" | task_rows | wc -l)" 10 "default: ten tasks (rt-app, its shell and more ran)"
out=$("$TRAX" info "$demo" -n 1)
is "$(printf '%s\n' "$out" | task_rows | awk '{print $2}')" big "-n 1: only big"

# --tasks 0: "none" (it used to finalize a statement twice and die of SIGBUS).
out=$("$TRAX" info "$demo" --tasks 0 2>&1)
is "$?" 0 "--tasks 0: exit 0"
is "$(printf '%s\n' "$out" | task_rows | wc -l)" 0 "--tasks 0: no task listed"
printf '%s\n' "$out" | grep -q '^ *pid  *comm'
is "$?" 1 "--tasks 0: no task table header"
printf '%s\n' "$out" | grep -qE '^tasks: +[0-9]+ threads'
_result $? "--tasks 0: the thread count is still given" "$out"
# the lines after the task table (lost events, switch anomalies) are those of the default run
is "$(printf '%s\n' "$out" | sed -n '/^lost events:/,$p')" \
	"$("$TRAX" info "$demo" | sed -n '/^lost events:/,$p')" \
	"--tasks 0: the summary goes on to its last line"
printf '%s\n' "$out" | grep -qx "lost events: none"
_result $? "--tasks 0: the lost-events line is there" "$out"

# Bad values: one line naming --tasks, exit 2, nothing on stdout.
for v in -1 x 3x ''; do
	err=$("$TRAX" info "$demo" --tasks "$v" 2>&1 >"$TMP/stdout")
	rc=$?
	[ $rc -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
		[[ "$err" == *"--tasks"* ]] && [ ! -s "$TMP/stdout" ]
	_result $? "--tasks '$v': exit 2, one line naming --tasks" "rc $rc: $err"
done
finish
