#!/usr/bin/env bash
# tests/integration/android-standin.sh: the pieces of a capture on an Android device without
# root, as `trax collect --target adb` puts them together: the Perfetto config trax generates
# (trax collect --print-perfetto-config), checked against Perfetto's public schema with protoc
# and decoded back to the fields expected by hand; the adb and perfetto stand-ins
# (tests/stand-in/, doc/android.md) with adb 29.0.6's messages and exit statuses; and the flow
# adb devices, adb root (refused), adb shell perfetto, adb pull, trax load, whose rows are those
# of the textproto written here.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../perfetto-lib.sh"

STANDIN=$TOP/tests/stand-in
if ! command -v protoc >/dev/null; then
	skip "Perfetto configs and the stand-ins" "protoc absent (Debian: protobuf-compiler)"
	finish
fi
need_shared "$PROTO" "the Perfetto schema" || finish

pc() { # protoc MODE: TraceConfig text/binary of stdin
	protoc --proto_path="$(dirname "$PROTO")" "$1" "$(basename "$PROTO")"
}
config() { # name args...: the config into $TMP/name.txt, its limits into name.err, decoded
	local n=$1
	shift
	"$TRAX" collect --print-perfetto-config "$@" >"$TMP/$n.txt" 2>"$TMP/$n.err"
	is "$?" 0 "$n: trax collect --print-perfetto-config $* exits 0"
	pc --encode=perfetto.protos.TraceConfig <"$TMP/$n.txt" >"$TMP/$n.pb" 2>"$TMP/$n.perr"
	_result $? "$n: protoc encodes it as a perfetto.protos.TraceConfig" "$(cat "$TMP/$n.perr")"
	pc --decode=perfetto.protos.TraceConfig <"$TMP/$n.pb" >"$TMP/$n.dec"
}
field() { # name field: the values of a field in the decoded config, one line, space separated
	awk -v f="$2" '{ k = $1; sub(/:$/, "", k) } k == f && NF == 2 { v = $2; gsub(/"/, "", v);
		printf "%s%s", (n++ ? " " : ""), v }' "$TMP/$1.dec"
}

# ---- the config ----
SCHED="sched/sched_switch sched/sched_wakeup sched/sched_waking sched/sched_wakeup_new $(:
	)sched/sched_migrate_task sched/sched_process_fork sched/sched_process_exec $(:
	)sched/sched_process_exit sched/sched_process_free task/task_newtask task/task_rename"
config default
is "$(field default ftrace_events)" "$SCHED ftrace/print" \
	"default: the sched preset's events, and ftrace/print for markers"
is "$(field default size_kb)" "65536 4096" "default: a 64 MB trace buffer and a 4 MB one"
is "$(field default fill_policy)" "DISCARD DISCARD" "default: full buffers drop new data"
is "$(field default buffer_size_kb)" "" "default: the kernel's per-CPU buffer left to the device"
is "$(field default duration_ms)" 10000 "default: 10 s without -t or workload"
is "$(field default name)" "linux.ftrace linux.process_stats" "default: ftrace and process stats"
is "$(field default target_buffer)" "0 1" "default: process stats in their own buffer"
is "$(field default enabled)" true "default: compact_sched enabled"
is "$(field default scan_all_processes_on_start) $(field default record_thread_names)" \
	"true true" "default: every process named at the start, thread names recorded"
is "$(field default write_into_file) $(field default file_write_period_ms)" "true 1000" \
	"default: streamed into the file every second"
is "$(grep -c 'perfetto path: ' "$TMP/default.err")" 4 \
	"default: four limits of the path on stderr"
grep -q 'no private tracefs instance' "$TMP/default.err"
_result $? "default: the limits say there is no private tracefs instance" "$(cat "$TMP/default.err")"

config power -p power -b 8192 -t 2.5
is "$(field power ftrace_events)" "power/cpu_frequency power/cpu_frequency_limits $(:
	)power/cpu_idle power/suspend_resume ftrace/print" "power: the power preset's events"
is "$(field power buffer_size_kb)" 8192 "power: -b 8192 is the kernel's per-CPU buffer"
is "$(field power size_kb)" "131072 4096" "power: the trace buffer is 16 x 8192 KB"
is "$(field power duration_ms)" 2500 "power: -t 2.5 is 2500 ms"

config big -b 100000
is "$(field big size_kb)" "262144 4096" "big: the trace buffer stops at 256 MB"

config android -p android --atrace-apps com.example.app,com.other --atrace ss
ev=" $(field android ftrace_events) "
for e in oom/oom_score_adj_update lowmemorykiller/lowmemory_kill kmem/ion_heap_grow \
	ion/ion_heap_grow dma_fence/dma_fence_init fence/fence_init sync/sync_wait \
	sync_trace/sync_wait gpu_mem/gpu_mem_total dmabuf_heap/dma_heap_stat; do
	[[ "$ev" == *" $e "* ]]
	_result $? "android: $e (every spelling of a renamed event)" "$ev"
done
is "$(field android atrace_categories)" "gfx view input am wm dalvik binder_driver hal aidl $(:
	)res sched freq idle ss" "android: the preset's atrace categories, then --atrace's"
is "$(field android atrace_apps)" "com.example.app com.other" "android: --atrace-apps"

config events -e 'sched:sched_switch,irq:*,sync_wait,power,sched_blocked_reason' -- sleep 1
is "$(field events ftrace_events)" "sched/sched_switch irq/* sync/sync_wait $(:
	)sync_trace/sync_wait power/* sched_blocked_reason ftrace/print" \
	"events: SYSTEM:NAME, SYSTEM:*, a known name in each system, a system, an unknown name"
is "$(field events duration_ms)" 600000 "events: with a workload and no -t, a 10 min cap"
grep -q 'workload runs as the shell user' "$TMP/events.err"
_result $? "events: the limits say the workload runs as the shell user" "$(cat "$TMP/events.err")"

bad() { # desc pattern args...: exit 2, one line on stderr matching pattern, nothing on stdout
	local d=$1 p=$2
	shift 2
	"$TRAX" collect "$@" >"$TMP/bad.out" 2>"$TMP/bad.err"
	local rc=$? why=
	[ $rc -eq 2 ] || why="exit $rc;"
	[ "$(grep -c '' "$TMP/bad.err")" -eq 1 ] || why="$why not one line;"
	grep -qE -- "$p" "$TMP/bad.err" || why="$why not /$p/;"
	[ ! -s "$TMP/bad.out" ] || why="$why stdout not empty;"
	_result "$([ -z "$why" ] && echo 0 || echo 1)" "$d" "$why $(cat "$TMP/bad.err")"
}
bad "an unknown preset: exit 2, one line" "unknown preset 'sced'.*did you mean sched" \
	--print-perfetto-config -p sced
bad "an event with a quote: exit 2, one line" "malformed event 'a\"b'" \
	--print-perfetto-config -e 'a"b'
bad "a category with a space: exit 2, one line" "malformed atrace category 'g x'" \
	--print-perfetto-config --atrace 'g x'
bad "--atrace-apps without a Perfetto capture: exit 2" "apply to Perfetto captures" \
	-o "$TMP/x.dat" --atrace-apps com.x

# ---- the adb stand-in ----
chmod 0755 "$TMP"	# the device's shell user walks into it
export PATH="$STANDIN:$PATH" ADB_STANDIN_STATE=$TMP/adb PERFETTO_STANDIN_PROTO=$PROTO
export PERFETTO_STANDIN_TIME_SCALE=0.01
mkdir -p "$ADB_STANDIN_STATE"
run() { # adb args...: stdout into $TMP/o, stderr into $TMP/e, status into $rc
	adb "$@" >"$TMP/o" 2>"$TMP/e"
	rc=$?
}
run devices
is "$rc|$(cat "$TMP/o")|$(cat "$TMP/e")" "0|List of devices attached|" \
	"adb devices, none attached: the header and an empty line, exit 0"
is "$(tail -c 2 "$TMP/o" | od -An -c | tr -d ' ')" '\n\n' "... ending with an empty line"
run shell true
is "$rc|$(cat "$TMP/e")" "1|error: no devices/emulators found" \
	"adb shell, none attached: 'error: no devices/emulators found', exit 1"
run root
is "$rc|$(cat "$TMP/e")" "1|adb: unable to connect for root: no devices/emulators found" \
	"adb root, none attached: exit 1"
run push /etc/hostname /data/local/tmp/
is "$rc|$(cat "$TMP/o")" "1|adb: error: failed to get feature set: no devices/emulators found" \
	"adb push, none attached: the error on stdout, exit 1"

SER=R58M123ABC
adb _standin add $SER production
run devices
is "$rc|$(cat "$TMP/o")" "0|List of devices attached"$'\n'"$SER"$'\t'"device" \
	"adb devices: 'SERIAL<tab>device'"
run -s $SER get-state
is "$rc|$(cat "$TMP/o")" "0|device" "adb -s SERIAL get-state: device"
run -s emulator-5554 shell true
is "$rc|$(cat "$TMP/e")" "1|error: device 'emulator-5554' not found" \
	"adb -s with another serial: 'device ... not found', exit 1"
run -s $SER root
is "$rc|$(cat "$TMP/o")|$(cat "$TMP/e")" "0|adbd cannot run as root in production builds|" \
	"adb root on a production build: refused on stdout, yet exit 0 (as adb 29 does)"
run -s $SER shell 'exit 7'
is "$rc" 7 "adb shell returns the command's exit status"
run -s $SER shell echo a '&&' echo b
is "$(cat "$TMP/o" | tr '\n' ' ')" "a b " "adb shell joins its words for the device's sh"
if [ "$(id -u)" -eq 0 ]; then
	run -s $SER shell id -u
	is "$(cat "$TMP/o")" 2000 "adb shell on a production build runs as the shell user (2000)"
	if [ -e /sys/kernel/tracing/tracing_on ]; then
		run -s $SER shell cat /sys/kernel/tracing/tracing_on
		is "$rc" 1 "... and tracefs is out of its reach"
	else
		skip "... and tracefs is out of its reach" "no /sys/kernel/tracing here"
	fi
else
	skip "adb shell runs as the shell user" "the test is not run as root"
fi
printf 'payload\n' >"$TMP/pushme"
chmod 0644 "$TMP/pushme"
run -s $SER push "$TMP/pushme" /data/local/tmp/trax-x
is "$rc" 0 "adb push to /data/local/tmp: exit 0"
grep -qE "^$TMP/pushme: 1 file pushed\. [0-9.]+ MB/s \([0-9]+ bytes in [0-9.]+s\)$" "$TMP/o"
_result $? "... saying '1 file pushed.' with its rate" "$(cat "$TMP/o")"
is "$(adb -s $SER shell cat /data/local/tmp/trax-x)" payload "... and the device has the file"
run -s $SER push "$TMP/nothere" /data/local/tmp/
is "$rc|$(cat "$TMP/o")" "1|adb: error: cannot stat '$TMP/nothere': No such file or directory" \
	"adb push of a missing file: exit 1"
if [ "$(id -u)" -eq 0 ]; then
	run -s $SER push "$TMP/pushme" /data/trax-x
	is "$rc|$(cat "$TMP/o")" "1|adb: error: failed to copy '$TMP/pushme' to '/data/trax-x': $(:
		)remote couldn't create file: Permission denied" \
		"adb push where the shell user may not write: exit 1"
else
	skip "adb push where the shell user may not write" "the test is not run as root"
fi
run -s $SER pull /data/misc/perfetto-traces/none "$TMP/none"
is "$rc|$(cat "$TMP/o")" "1|adb: error: failed to stat remote object $(:
	)'/data/misc/perfetto-traces/none': No such file or directory" "adb pull of a missing file: exit 1"
ok "... and nothing is left locally" test ! -e "$TMP/none"

run -s $SER shell command -v perfetto
is "$rc" 0 "adb shell command -v perfetto: the device has perfetto"
adb _standin add $SER-2 userdebug
adb _standin set $SER-2 no-perfetto 1
run -s $SER-2 shell command -v perfetto
[ "$rc" -ne 0 ]
_result $? "... a device without it: non-zero (sh's status for a name not found)" "status $rc"
run -s $SER-2 root
is "$rc|$(cat "$TMP/o")" "0|restarting adbd as root" "adb root on a userdebug build: restarting"
run -s $SER-2 shell id -u
is "$(cat "$TMP/o")" 0 "... then adb shell runs as root"
run shell true
is "$rc|$(cat "$TMP/e")" "1|error: more than one device/emulator" \
	"two devices and no -s: 'more than one device/emulator', exit 1"
adb _standin remove $SER-2

# ---- the flow: config, perfetto on the device, pull, load ----
cp "$TOP/tests/fixtures/perfetto/device.textproto" "$TMP/device.textproto"
chmod 0644 "$TMP/device.textproto"
export PERFETTO_STANDIN_TRACE=$TMP/device.textproto
"$TRAX" collect --print-perfetto-config -p sched -t 1 >"$TMP/cfg.txt" 2>/dev/null
OUT=/data/misc/perfetto-traces/trax-1.pftrace
run -s $SER shell perfetto --txt -c - -o $OUT <"$TMP/cfg.txt"
is "$rc" 0 "adb shell perfetto --txt -c - -o $OUT < config: exit 0"
run -s $SER shell perfetto --txt -c - -o /data/local/tmp/trax-1.pftrace <"$TMP/cfg.txt"
[ $rc -eq 1 ] && grep -q 'Failed to open /data/local/tmp/trax-1.pftrace' "$TMP/e"
_result $? "perfetto -o outside /data/misc/perfetto-traces: 'Failed to open', exit 1" \
	"status $rc; $(cat "$TMP/e")"
printf 'buffers { size_kb: 1024 }\nduration_ms: 1\nno_such_field: 1\n' >"$TMP/badcfg.txt"
run -s $SER shell perfetto --txt -c - -o /data/misc/perfetto-traces/bad.pftrace <"$TMP/badcfg.txt"
[ $rc -eq 1 ] && grep -q 'The trace config is invalid' "$TMP/e"
_result $? "perfetto with a field the schema lacks: refused, exit 1" "status $rc; $(cat "$TMP/e")"
printf 'duration_ms: 1\n' >"$TMP/nobuf.txt"
run -s $SER shell perfetto --txt -c - -o /data/misc/perfetto-traces/nobuf.pftrace <"$TMP/nobuf.txt"
is "$rc" 0 "perfetto refused by the service (no buffers) still exits 0 ..."
run -s $SER pull /data/misc/perfetto-traces/nobuf.pftrace "$TMP/nobuf.pftrace"
is "$rc" 1 "... and leaves no trace to pull (trax must check the file)"

run -s $SER pull $OUT "$TMP/got.pftrace"
is "$rc" 0 "adb pull $OUT: exit 0"
grep -qE "^$OUT: 1 file pulled\. " "$TMP/o"
_result $? "... saying '1 file pulled.'" "$(cat "$TMP/o")"
pf_encode "$TMP/device.textproto" "$TMP/want.pftrace"
ok "the pulled trace is the textproto's" cmp "$TMP/want.pftrace" "$TMP/got.pftrace"
"$TRAX" load "$TMP/got.pftrace" -o "$TMP/got.db" >/dev/null 2>"$TMP/err"
is "$?" 0 "trax load reads the pulled trace"
is "$(q "$TMP/got.db" "SELECT count(*) FROM sched_switch")" 2 "two sched_switch rows"
is "$(q "$TMP/got.db" "SELECT pid || ' ' || tgid || ' ' || comm FROM thread WHERE pid = 1240")" \
	"1240 1234 RenderEngine" "thread 1240 of process 1234, named RenderEngine"
is "$(q "$TMP/got.db" "SELECT ts || ' ' || dur || ' ' || name FROM slice")" \
	"5000004000 3000 drawFrame" "the atrace slice drawFrame: 5000004000 for 3000 ns"
is "$(q "$TMP/got.db" "SELECT ts || ' ' || dur || ' ' || end_state FROM sched_slice WHERE
	pid = 1240")" "5000001000 8000 S" "RenderEngine ran 8000 ns and slept"

# --background, stopped by SIGTERM from another adb shell (duration_ms far off)
"$TRAX" collect --print-perfetto-config -p sched -- sleep 1 >"$TMP/cfg2.txt" 2>/dev/null
OUT2=/data/misc/perfetto-traces/trax-2.pftrace
pid=$(adb -s $SER shell perfetto --txt -c - -o $OUT2 --background <"$TMP/cfg2.txt")
[[ "$pid" =~ ^[0-9]+$ ]]
_result $? "perfetto --background prints its pid" "'$pid'"
run -s $SER shell kill -TERM "$pid"
is "$rc" 0 "adb shell kill -TERM PID: exit 0"
for i in $(seq 50); do
	adb -s $SER shell test -d /proc/"$pid" || break
	sleep 0.1
done
run -s $SER pull $OUT2 "$TMP/got2.pftrace"
ok "... the session ends at once and its trace is pulled" cmp "$TMP/want.pftrace" \
	"$TMP/got2.pftrace"
finish
