#!/usr/bin/env bash
# A signal that ends `trax load` (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE; issue 11 item 9 for
# the last two) while it builds the db: the process dies of that signal and leaves neither the
# db nor its temporary file. So does a file size limit (ulimit -f: SIGXFSZ).
. "$(dirname "$0")/../lib.sh"

# 600000 sched_switch lines, two tasks taking turns on CPU 0: a load that takes a while
awk 'BEGIN {
	for (i = 0; i < 600000; i++) {
		a = i % 2 ? "b-2" : "a-1"; p = i % 2 ? 2 : 1; n = i % 2 ? 1 : 2
		printf "%16s [000] d..2. %d.%06d: sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=%s next_pid=%d next_prio=120\n",
			a, 100 + int(i / 1000000), i % 1000000, a ~ /^a/ ? "a" : "b", p, a ~ /^a/ ? "b" : "a", n
	}
}' >"$TMP/big.txt"

ulimit -c 0	# SIGQUIT dumps core by default: none in the folder
for sig in INT TERM HUP QUIT PIPE; do
	out=$TMP/out-$sig
	mkdir -p "$out"
	# (a background job of a script starts with SIGINT and SIGQUIT ignored, and the runner
	# may ignore SIGPIPE: give them their default back)
	env --default-signal=INT,QUIT,PIPE "$TRAX" load "$TMP/big.txt" -o "$out/x.db" >/dev/null 2>&1 &
	pid=$!
	# wait for the temporary db to appear (the load is under way), then send the signal
	for _ in $(seq 1 200); do
		ls "$out" | grep -q '^x\.db\.tmp-' && break
		sleep 0.02
	done
	seen=$(ls "$out" | grep -c '^x\.db\.tmp-')
	kill -s "$sig" "$pid"
	wait "$pid" 2>/dev/null
	rc=$?
	is "$seen" 1 "SIG$sig: the load was under way (its temporary db existed)"
	is "$rc" $((128 + $(kill -l "$sig"))) "SIG$sig: trax died of the signal"
	is "$(ls -A "$out" | tr '\n' ' ')" "" "SIG$sig: no db and no temporary file left"
done

# a file size limit below the db's size: the kernel sends SIGXFSZ at the write that passes it
out=$TMP/out-XFSZ
mkdir -p "$out"
rc=$( { (ulimit -f 256; exec env --default-signal=XFSZ "$TRAX" load "$TMP/big.txt" \
	-o "$out/x.db") >/dev/null 2>&1; echo $?; } 2>/dev/null)
is "$rc" $((128 + $(kill -l XFSZ))) "ulimit -f 256: trax died of SIGXFSZ"
is "$(ls -A "$out" | tr '\n' ' ')" "" "SIGXFSZ: no db and no temporary file left"
finish
