#!/usr/bin/env bash
# trax collect --target adb: through the adb stand-in (tests/stand-in/adb, doc/android.md),
# whose devices are this machine. A userdebug device: `adb root` works, the static collector is
# pushed to /data/local/tmp and captures this machine's tracefs (a pinned rt-app workload,
# measured by hand from trace-cmd's report). A production device: adbd cannot be root, so the
# device's perfetto (the stand-in, which checks the config against Perfetto's schema) records;
# the pulled Perfetto trace gives the textproto's rows. Every error is one line, exit 2.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/collect-lib.bash"
. "$(dirname "$0")/../perfetto-lib.sh"
collect_needs trace-cmd rt-app protoc setpriv perl
need_shared "$PROTO" "the Perfetto schema (the perfetto stand-in checks configs with it)" || finish

d=$TMP/adb
mkdir -p "$d"
chmod 0755 "$TMP" "$d"	# the device's shell user walks into it
export PATH="$TOP/tests/stand-in:$PATH" ADB_STANDIN_STATE=$d/state PERFETTO_STANDIN_PROTO=$PROTO
export PERFETTO_STANDIN_TIME_SCALE=0.05
mkdir -p "$ADB_STANDIN_STATE"
static=$TOP/build-static/x86_64/trax
if [ -x "$static" ]; then
	echo "# collector: $static (static)"
else
	mkdir -p "$d/coll/x86_64"
	cp "$TRAX" "$d/coll/x86_64/trax"
	export TRAX_COLLECTORS=$d/coll
	echo "# collector: a copy of $TRAX (build-static/x86_64/trax is not built)"
fi

# ---- a userdebug device: adb root, the collector, a real capture ----
adb _standin add DEV1 userdebug
fs=$(adb _standin root DEV1)
cat >"$d/pinned.json" <<'EOF'
{ "tasks": [ { "name": "pinned", "cpus": [0], "policy": "SCHED_FIFO", "priority": 10,
               "period": "16ms", "duty_cycle": 25, "duration": "1600ms" } ] }
EOF
"$TRAX" collect --target adb:DEV1 -p sched -o "$d/r.dat" -w "$d/pinned.json" >"$d/out" 2>"$d/err"
is "$?" 0 "adb (userdebug): collect exits 0" "$(cat "$d/err")"
grep -q "^trax collect: adb:DEV1: collector for x86_64 pushed to /data/local/tmp/trax-[0-9a-f]\{16\}/trax (checked by SHA-256)$" "$d/err"
_result $? "adb (userdebug): the collector goes to /data/local/tmp, checked by hash" "$(cat "$d/err")"
ls "$fs"/data/local/tmp/trax-*/trax >/dev/null 2>&1
_result $? "adb (userdebug): it is on the device" "$(find "$fs" | head)"
[ -f "$fs/adbd-root" ] || [ -f "$ADB_STANDIN_STATE/devices/DEV1/adbd-root" ]
_result $? "adb (userdebug): trax ran adb root"
grep -q "^trax collect: adb:DEV1: root there: capturing with the collector /data/local/tmp/trax-[0-9a-f]\{16\}/trax in a private tracefs instance$" "$d/err"
_result $? "adb (userdebug): it says which path it took" "$(cat "$d/err")"
grep -q "^$d/r.dat: 2 CPUs, .*(captured on adb:DEV1)$" "$d/out"
_result $? "adb (userdebug): the summary names the trace and the device" "$(cat "$d/out")"
trace-cmd report "$d/r.dat" 2>/dev/null >"$d/report"
pid=$(sed -n 's/^ *pinned-\([0-9]*\) .*tracing_mark_write: \[0\] starts$/\1/p' "$d/report")
read -r off acts duty <<<"$(rtapp_shape "$d/report" "pinned:${pid:-none}" | head -n 1)"
is "$off" 0 "adb (userdebug), by hand: every switch-in of the pinned task on CPU 0"
near "$acts" 100 4 "adb (userdebug), by hand: 100 activations (1.6 s / 16 ms)"
near "$duty" 25 2 "adb (userdebug), by hand: duty cycle 25 %"
ok "adb (userdebug): no instance left" bash -c "! ls $TRACEFS/instances | grep -q trax-collect"
is "$(find "$fs/data/local/tmp" -name 'run-*' | wc -l)" 0 "adb (userdebug): the run's files on the device are removed"

# ---- a production device: the device's perfetto ----
adb _standin add PHONE production
cp "$TOP/tests/fixtures/perfetto/device.textproto" "$d/device.textproto"
chmod 0644 "$d/device.textproto"
export PERFETTO_STANDIN_TRACE=$d/device.textproto
"$TRAX" collect --target adb:PHONE -p sched -t 1 -o "$d/p.pftrace" --db "$d/p.db" >"$d/out" 2>"$d/err"
is "$?" 0 "adb (production): collect exits 0" "$(cat "$d/err")"
grep -q "^trax collect: adb:PHONE: adbd cannot run as root (a production build): recording with the device's perfetto" "$d/err"
_result $? "adb (production): it says which path it took" "$(cat "$d/err")"
grep -q "^trax collect: adb:PHONE: this path cannot record: .*no private tracefs instance" "$d/err"
_result $? "adb (production): and what that path cannot record" "$(cat "$d/err")"
ok "adb (production): nothing was pushed (no collector without root)" \
	bash -c "! ls $(adb _standin root PHONE)/data/local/tmp | grep -q trax-"
pf_encode "$d/device.textproto" "$d/want.pftrace"
ok "adb (production): the pulled trace is what the device's perfetto wrote" cmp "$d/want.pftrace" "$d/p.pftrace"
is "$(q "$d/p.db" "SELECT count(*) FROM sched_switch")" 2 "adb (production): --db: two sched_switch rows (the textproto's)"
is "$(q "$d/p.db" "SELECT ts || ' ' || dur || ' ' || name FROM slice")" "5000004000 3000 drawFrame" \
	"adb (production): the atrace slice drawFrame, 5000004000 for 3000 ns"
is "$(ls "$(adb _standin root PHONE)/data/misc/perfetto-traces" | wc -l)" 0 \
	"adb (production): the trace is removed from the device"
"$TRAX" collect --target adb:PHONE -p sched -o "$d/w.pftrace" -- sh -c 'echo ran; sleep 0.3' \
	>"$d/out" 2>"$d/err"
is "$?" 0 "adb (production) with a workload: exit 0" "$(cat "$d/err")"
is "$(cat "$d/w.log" 2>/dev/null)" ran "adb (production) with a workload: its output in OUT.log"
ok "adb (production) with a workload: perfetto was stopped and its trace pulled" cmp "$d/want.pftrace" "$d/w.pftrace"

# ---- errors: one line each, exit 2, nothing written ----
err_case "a serial no device has" "^trax collect: adb:NOPE: no such device (adb: error: device 'NOPE' not found)$" \
	"$d/e1.dat" "$TRAX" collect --target adb:NOPE -o "$d/e1.dat" -- true
adb _standin set PHONE state unauthorized
err_case "an unauthorized device" "^trax collect: adb:PHONE: device unauthorized" \
	"$d/e2.dat" "$TRAX" collect --target adb:PHONE -o "$d/e2.dat" -- true
adb _standin set PHONE state device
adb _standin set PHONE no-perfetto 1
err_case "no root and no perfetto" "^trax collect: adb:PHONE: adbd cannot run as root (a production build) and the device has no perfetto command" \
	"$d/e3.dat" "$TRAX" collect --target adb:PHONE -o "$d/e3.dat" -t 1
adb _standin set PHONE no-perfetto 0
err_case "perfetto's tracing service is not running" "^trax collect: adb:PHONE: perfetto failed (status 1): .*Could not connect to the traced service" \
	"$d/e4.pftrace" env PERFETTO_STANDIN_NO_TRACED=1 "$TRAX" collect --target adb:PHONE -o "$d/e4.pftrace" -t 1
err_case "the workload is missing on the device" "^trax collect: adb:DEV1: cannot run '/no/such/cmd'" \
	"$d/e5.dat" "$TRAX" collect --target adb:DEV1 -o "$d/e5.dat" -- /no/such/cmd
adb _standin remove PHONE
adb _standin remove DEV1
err_case "no device attached" "^trax collect: adb: no device attached (adb: error: no devices/emulators found)$" \
	"$d/e6.dat" "$TRAX" collect --target adb -o "$d/e6.dat" -- true
err_case "adb is not installed" "^trax collect: .*adb-missing is not installed" \
	"$d/e7.dat" env TRAX_ADB=adb-missing "$TRAX" collect --target adb -o "$d/e7.dat" -- true
# Debian's own adb, no device attached: its server on a port of the test's, stopped after
if [ -x /usr/bin/adb ]; then
	export ANDROID_ADB_SERVER_PORT=$((20000 + RANDOM % 30000))
	err_case "Debian's adb, no device attached" "^trax collect: adb: no device attached (adb: error: no devices/emulators found)$" \
		"$d/e8.dat" env TRAX_ADB=/usr/bin/adb "$TRAX" collect --target adb -o "$d/e8.dat" -- true
	err_case "Debian's adb, a serial it does not know" "^trax collect: adb:XYZ: no such device (adb: error: device 'XYZ' not found)$" \
		"$d/e9.dat" env TRAX_ADB=/usr/bin/adb "$TRAX" collect --target adb:XYZ -o "$d/e9.dat" -- true
	/usr/bin/adb kill-server >/dev/null 2>&1
else
	skip "Debian's adb, no device attached" "adb is not installed (Debian's adb; make check installs it)"
fi
finish
