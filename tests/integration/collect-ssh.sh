#!/usr/bin/env bash
# trax collect --target ssh://: a real OpenSSH server started here on 127.0.0.1 (a throwaway
# host key, a key authorized by the test, stopped at the end) is the board. The same pinned
# rt-app workload is captured through it and locally, and both are measured by hand from
# trace-cmd's report; the collector is pushed once and then found by its hash; what a cut
# connection leaves is fetched, and cleaned up by the next run; every error is one line.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/collect-lib.bash"
collect_needs trace-cmd rt-app ssh ssh-keygen
SSHD=/usr/sbin/sshd
if [ ! -x "$SSHD" ]; then
	skip "$(basename "$0")" "$SSHD is not installed (Debian's openssh-server; make check installs it)"
	finish
fi

d=$TMP/ssh
mkdir -p "$d" /run/sshd
sshd_pid=
small=
cleanup() {
	[ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null
	[ -n "$small" ] && umount "$small" 2>/dev/null
	rm -rf "$TMP" "$d"
}
trap cleanup EXIT

# The collector: the static one of `make static` when it is built (what a board gets), else
# a copy of the trax under test (this machine is the target).
static=$TOP/build-static/x86_64/trax
if [ -x "$static" ]; then
	echo "# collector: $static (static)"
else
	mkdir -p "$d/coll/x86_64"
	cp "$TRAX" "$d/coll/x86_64/trax"
	export TRAX_COLLECTORS=$d/coll
	echo "# collector: a copy of $TRAX (build-static/x86_64/trax is not built)"
fi

ssh-keygen -q -t ed25519 -N '' -f "$d/hostkey"
ssh-keygen -q -t ed25519 -N '' -f "$d/userkey"
ssh-keygen -q -t ed25519 -N '' -f "$d/strangerkey"
ssh-keygen -q -t ed25519 -N '' -f "$d/nobodykey"
cp "$d/userkey.pub" "$d/authorized_keys"
# a login with this key runs its command as uid 65534 (a user that is not root, with no sudo)
echo "command=\"exec setpriv --reuid=65534 --regid=65534 --clear-groups /bin/sh -c \\\"\$SSH_ORIGINAL_COMMAND\\\"\" $(cat "$d/nobodykey.pub")" >>"$d/authorized_keys"
# a free port: the first of a few random ones nothing listens on
port=
for _ in $(seq 20); do
	p=$((20000 + RANDOM % 30000))
	if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then port=$p; break; fi
done
cat >"$d/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $d/hostkey
AuthorizedKeysFile $d/authorized_keys
PidFile $d/sshd.pid
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
AcceptEnv TRAX_TRACEFS PATH
EOF
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$d/hostkey.pub")" >"$d/known_hosts"
for who in user stranger nobody; do
	cat >"$d/ssh_config.$who" <<EOF
Host *
  IdentityFile $d/${who}key
  IdentitiesOnly yes
  UserKnownHostsFile $d/known_hosts
  StrictHostKeyChecking yes
  ConnectTimeout 5
EOF
done
"$SSHD" -D -f "$d/sshd_config" -E "$d/sshd.log" &
sshd_pid=$!
export TRAX_SSH="ssh -F $d/ssh_config.user"
up=1
for _ in $(seq 50); do
	ssh -F "$d/ssh_config.user" -o BatchMode=yes -p "$port" root@127.0.0.1 true 2>/dev/null &&
		{ up=0; break; }
	sleep 0.1
done
_result $up "sshd answers on 127.0.0.1:$port" "$(cat "$d/sshd.log")"
if [ $up -ne 0 ]; then finish; fi
T=ssh://root@127.0.0.1:$port
# the board's folder for the collector and the runs (its default is /tmp; here the test's own)
TD=$d/target

# One task pinned to CPU 0, SCHED_FIFO: 16 ms period, 25 % duty, 1.6 s: 100 activations
cat >"$d/pinned.json" <<'EOF'
{ "tasks": [ { "name": "pinned", "cpus": [0], "policy": "SCHED_FIFO", "priority": 10,
               "period": "16ms", "duty_cycle": 25, "duration": "1600ms" } ] }
EOF
shape() { # dat: "off acts duty" by hand
	local rep=$1.report pid
	trace-cmd report "$1" 2>/dev/null >"$rep"
	pid=$(sed -n 's/^ *pinned-\([0-9]*\) .*tracing_mark_write: \[0\] starts$/\1/p' "$rep")
	if [ -z "$pid" ]; then echo "no-task"; return; fi
	rtapp_shape "$rep" "pinned:$pid" | head -n 1
}

"$TRAX" collect --target "$T" --target-dir "$TD" -p sched -o "$d/r.dat" -w "$d/pinned.json" >"$d/out" 2>"$d/err"
is "$?" 0 "collect over ssh exits 0" "$(cat "$d/err")"
grep -q "collector for x86_64 pushed to $TD/trax-[0-9a-f]\{16\}/trax (checked by SHA-256)" "$d/err"
_result $? "the first run pushes the collector, checked by hash" "$(cat "$d/err")"
grep -q "^trax collect: $T: root there: capturing with the collector $TD/trax-[0-9a-f]\{16\}/trax in a private tracefs instance$" "$d/err"
_result $? "it says which path it took (root, the collector)" "$(cat "$d/err")"
grep -q "^$d/r.dat: 2 CPUs, .*(captured on $T)$" "$d/out"
_result $? "the summary names the local trace and the target" "$(cat "$d/out")"
[ -s "$d/r.log" ] && grep -q '"pinned"' "$d/r.rtapp.json" 2>/dev/null
_result $? "the workload's log and its rt-app JSON come back beside the trace" "$(ls "$d")"
ok "no instance left on the target" bash -c "! ls $TRACEFS/instances | grep -q trax-collect"
remote_dir=$(sed -n "s|.*pushed to \($TD/trax-[0-9a-f]*\)/trax.*|\1|p" "$d/err")
ok "the run's files on the target are removed" bash -c "[ -z \"\$(ls $remote_dir | grep -v '^trax$')\" ]"

"$TRAX" collect -p sched -o "$d/l.dat" -w "$d/pinned.json" >/dev/null 2>&1
is "$?" 0 "the same workload captured locally"
read -r roff racts rduty <<<"$(shape "$d/r.dat")"
read -r loff lacts lduty <<<"$(shape "$d/l.dat")"
echo "# by hand: over ssh $racts activations, duty $rduty %; locally $lacts, $lduty %"
is "$roff" 0 "ssh capture, by hand: every switch-in of the pinned task on CPU 0"
is "$loff" 0 "local capture, by hand: every switch-in on CPU 0"
near "$racts" 100 4 "ssh capture, by hand: 100 activations (1.6 s / 16 ms; a loop whose timer is already past when its run ends does not sleep)"
near "$lacts" 100 4 "local capture, by hand: 100 activations"
near "$racts" "$lacts" 4 "ssh and local captures: the same activations within the workload's variation"
near "$rduty" 25 2 "ssh capture, by hand: duty cycle 25 %"
near "$rduty" "$lduty" 2 "ssh and local captures: the same duty cycle"
cat >"$d/rules.json" <<'EOF'
{ "windows": { "run": { "from_marker": "[0] begins loop 0 phase 0 step 0",
                        "to_marker": "[0] exiting" } },
  "rules": [
    { "id": "on-cpu0", "metric": "residency", "task": "pinned", "cpus": [0], "window": "run",
      "expect": "== 100 %" },
    { "id": "activations", "metric": "activations", "task": "pinned", "window": "run",
      "expect": "100 +- 4" } ] }
EOF
for x in r l; do
	"$TRAX" check "$d/rules.json" "$d/$x.dat" --format tap >"$d/$x.tap" 2>&1
	is "$?" 0 "trax check on the $([ $x = r ] && echo ssh || echo local) capture: pinned residency and activations pass" "$(cat "$d/$x.tap")"
done

# The second run finds the collector by its hash; a changed file is pushed again
"$TRAX" collect --target "$T" --target-dir "$TD" -e sched:sched_switch -o "$d/r2.dat" --db "$d/r2.db" -- sleep 0.2 \
	>"$d/out" 2>"$d/err"
is "$?" 0 "a second run exits 0" "$(cat "$d/err")"
is "$(grep -c pushed "$d/err")" 0 "the second run pushes nothing (the hash matches)"
n_report=$(trace-cmd report "$d/r2.dat" 2>/dev/null | grep -c 'sched_switch:')
is "$(q "$d/r2.db" "SELECT count FROM event_type WHERE name = 'sched_switch'")" "$n_report" \
	"--db over ssh: the database holds trace-cmd report's sched_switch count ($n_report)"
# The target's facts, read by the collector there (this machine is the board)
is "$(q "$d/r2.db" "SELECT value FROM meta WHERE key = 'target.kernel'")" "$(uname -r)" \
	"the target's kernel release is in the trace (uname -r there)"
is "$(q "$d/r2.db" "SELECT value FROM meta WHERE key = 'target.ncpus'")" \
	"$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)" "the target's CPU count (its sysfs cpuN folders)"

echo x >>"$remote_dir/trax"
"$TRAX" collect --target "$T" --target-dir "$TD" -e sched:sched_switch -o "$d/r3.dat" -- true >/dev/null 2>"$d/err"
grep -q "pushed to $remote_dir/trax" "$d/err"
_result $? "a collector whose hash differs is pushed again" "$(cat "$d/err")"

# Leftovers of a cut run: finished files never fetched, spill files of a dead collector
touch "$remote_dir/run-1-1.dat.incomplete" "$remote_dir/.run-1-1.dat.trax-999999999.cpu0"
"$TRAX" collect --target "$T" --target-dir "$TD" -e sched:sched_switch -o "$d/r4.dat" -- true >/dev/null 2>"$d/err"
grep -q "removed 2 files left in $remote_dir by an earlier run cut off" "$d/err"
_result $? "the next run removes what a cut run left, and says so" "$(cat "$d/err")"
ok "they are gone" bash -c "[ ! -e $remote_dir/run-1-1.dat.incomplete ]"

# Connection lost mid-capture: the session's sshd process is killed; the collector stops on
# its own (its stdin closed), its instance goes, the part captured so far comes back
run_bg "$d/out" "$d/err" "$TRAX" collect --target "$T" --target-dir "$TD" -e sched:sched_switch -o "$d/cut.dat" \
	-- sleep 30
cut=$bg_pid
sess=
for _ in $(seq 100); do
	sess=$(pgrep -P "$sshd_pid" | head -n 1)
	[ -n "$sess" ] && ls "$TRACEFS/instances" | grep -q trax-collect && break
	sleep 0.1
done
sleep 1
[ -n "$sess" ] && kill -9 $(pgrep -P "$sshd_pid")
wait $cut
is "$?" 2 "a lost connection: exit 2"
grep -q "^trax collect: $T: connection lost mid-capture; the part captured so far is in $d/cut.dat.incomplete$" "$d/err"
_result $? "a lost connection: one line naming the partial trace" "$(cat "$d/err")"
[ ! -e "$d/cut.dat" ] && [ "$(trace-cmd report "$d/cut.dat.incomplete" 2>/dev/null | grep -c 'sched_switch:')" -gt 0 ]
_result $? "a lost connection: no OUT, and OUT.incomplete is a trace trace-cmd reads"
gone=1
for _ in $(seq 100); do
	ls "$TRACEFS/instances" | grep -q trax-collect || { gone=0; break; }
	sleep 0.1
done
_result $gone "a lost connection: the collector removed its instance" "$(ls "$TRACEFS/instances")"

# Ctrl-C on the host: the capture on the target stops the same way, its part comes back
run_bg "$d/out" "$d/err" "$TRAX" collect --target "$T" --target-dir "$TD" -e sched:sched_switch \
	-o "$d/int.dat" -- sleep 30
intr=$bg_pid
for _ in $(seq 100); do
	ls "$TRACEFS/instances" | grep -q trax-collect && break
	sleep 0.1
done
sleep 0.5
kill -INT $intr
wait $intr
is "$?" 2 "Ctrl-C on the host: exit 2"
grep -q "^trax collect: $T: interrupted.*; the part captured so far is in $d/int.dat.incomplete$" "$d/err" &&
	[ "$(errlines "$d/err")" -eq 1 ] && [ ! -e "$d/int.dat" ] && [ -s "$d/int.dat.incomplete" ]
_result $? "Ctrl-C on the host: one line, and the part captured so far in OUT.incomplete" "$(cat "$d/err")"

# A workload that fails on the target: its trace and log come back, the trace as incomplete
"$TRAX" collect --target "$T" --target-dir "$TD" -e sched:sched_switch -o "$d/wf.dat" \
	-- sh -c 'echo failing; exit 3' >/dev/null 2>"$d/err"
is "$?" 2 "a workload failing on the target: exit 2"
grep -q "^trax collect: $T: workload 'sh' exited with status 3; the part captured so far is in $d/wf.dat.incomplete (workload log: $d/wf.log)$" "$d/err" &&
	[ "$(errlines "$d/err")" -eq 1 ] && [ ! -e "$d/wf.dat" ] && [ -s "$d/wf.dat.incomplete" ] &&
	[ "$(cat "$d/wf.log")" = failing ]
_result $? "a workload failing on the target: one line; OUT.incomplete and its log on the host" "$(cat "$d/err"; ls "$d")"

# Errors a user meets: one line each, exit 2, no trace
closed=$((port + 1))
err_case "unreachable (nothing listens)" "^trax collect: ssh://root@127.0.0.1:$closed: unreachable (ssh: .*Connection refused)$" \
	"$d/e1.dat" "$TRAX" collect --target "ssh://root@127.0.0.1:$closed" --target-dir "$TD" -o "$d/e1.dat" -- true
err_case "authentication refused (a key it does not know)" "^trax collect: $T: authentication refused (.*Permission denied" \
	"$d/e2.dat" env TRAX_SSH="ssh -F $d/ssh_config.stranger" "$TRAX" collect --target "$T" --target-dir "$TD" -o "$d/e2.dat" -- true
err_case "not root, and sudo -n refused" "^trax collect: $T: not root (uid 65534) and .sudo -n. is refused: capturing needs root on the target$" \
	"$d/e8.dat" env TRAX_SSH="ssh -F $d/ssh_config.nobody" "$TRAX" collect --target "$T" --target-dir "$TD" -o "$d/e8.dat" -- true
err_case "no tracefs on the target" "^trax collect: $T: TRAX_TRACEFS=/nonexistent: no tracefs there" \
	"$d/e3.dat" env TRAX_SSH="ssh -F $d/ssh_config.user -o SetEnv=TRAX_TRACEFS=/nonexistent" \
	"$TRAX" collect --target "$T" --target-dir "$TD" -o "$d/e3.dat" -- true
err_case "the workload's command is missing on the target" "^trax collect: $T: .*no-such-command" \
	"$d/e4.dat" "$TRAX" collect --target "$T" --target-dir "$TD" -o "$d/e4.dat" -- /usr/bin/no-such-command
err_case "a bad target" "^trax collect: --target 'ssh://': expected local" \
	"$d/e6.dat" "$TRAX" collect --target ssh:// -o "$d/e6.dat" -- true
# disk full: the target folder is a tmpfs with room for the collector and little more
small=$d/small
mkdir -p "$small"
csize=$(stat -c %s "${TRAX_COLLECTORS:-$TOP/build-static}/x86_64/trax")
if mount -t tmpfs -o size=$(( (csize + 262144) / 1024 ))k trax-test "$small"; then
	err_case "disk full on the target" "^trax collect: $T: .*No space left on device" \
		"$d/e7.dat" "$TRAX" collect --target "$T" --target-dir "$TD" --target-dir "$small" -e sched:sched_switch \
		-o "$d/e7.dat" -- sleep 0.2
	ok "disk full: the collector leaves no part of a trace on the target" \
		bash -c "[ -z \"\$(find $small -name '*run-*')\" ]"
	umount "$small" && small=
else
	skip "disk full on the target" "cannot mount a tmpfs here"
fi
finish
