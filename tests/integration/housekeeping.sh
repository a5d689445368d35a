#!/usr/bin/env bash
# tests/integration/housekeeping.sh: what trax leaves on disk (issue 11 item 9). Databases and
# -o files get the umask's mode; a full disk is reported naming the output; the temporary db
# of a SIGKILLed load in the cache is removed by the next run, a live run's is not; and the
# spill files of a SIGKILLed `trax collect` are removed by the next collect into that folder,
# which says so (tested with a collect that stops at its tracefs check: nothing is recorded).
. "$(dirname "$0")/../lib.sh"
FIX=$TOP/tests/fixtures
TXT=$FIX/text/trace.txt

# N sched_switch lines, two tasks taking turns on CPU 0
gen() {
	awk -v n="$1" 'BEGIN {
		for (i = 0; i < n; i++) {
			a = i % 2 ? "b-2" : "a-1"; p = i % 2 ? 2 : 1; q = i % 2 ? 1 : 2
			printf "%16s [000] d..2. %d.%06d: sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=%s next_pid=%d next_prio=120\n",
				a, 100 + int(i / 1000000), i % 1000000, a ~ /^a/ ? "a" : "b", p,
				a ~ /^a/ ? "b" : "a", q
		}
	}'
}
mode() { stat -c %a "$1"; }

# --- modes: 0666 less the umask, as any file a program creates (was always 0600) ---
for m in 022:644 027:640 077:600 002:664; do
	u=${m%:*} want=${m#*:}
	d=$TMP/mode-$u
	mkdir -p "$d"
	(umask "$u" && TRAX_CACHE_DIR=$d/cache "$TRAX" load "$TXT" -o "$d/t.db" >/dev/null &&
		TRAX_CACHE_DIR=$d/cache "$TRAX" info "$TXT" >/dev/null &&
		"$TRAX" check "$FIX/demo-rules.json" "$d/t.db" -o "$d/v.tap" >/dev/null
		[ $? -le 1 ])
	is "$(mode "$d/t.db")" "$want" "umask $u: trax load -o DB has mode $want"
	is "$(mode "$(ls "$d"/cache/*.db)")" "$want" "umask $u: the cached db has mode $want"
	is "$(mode "$d/v.tap")" "$want" "umask $u: trax check -o FILE has mode $want"
done

# --- a full disk: a 256 KiB tmpfs (SQLite's pages are 64 KiB: the db does not fit) ---
gen 30000 >"$TMP/big.txt"
full=$TMP/full
mkdir -p "$full"
if [ "$(id -u)" -ne 0 ]; then
	skip "disk full names the output" "not root (a tmpfs mount is needed)"
elif ! mount -t tmpfs -o size=256k trax-test-full "$full" 2>/dev/null; then
	skip "disk full names the output" "cannot mount a tmpfs"
else
	trap 'umount "$full" 2>/dev/null; rm -rf "$TMP"' EXIT
	"$TRAX" load "$TMP/big.txt" -o "$full/x.db" >"$TMP/stdout" 2>"$TMP/stderr"
	rc=$?
	is "$rc" 2 "disk full: exit status 2"
	is "$(grep -c '' "$TMP/stderr")" 1 "disk full: one line on stderr"
	grep -q "^trax load: $full/x.db: database or disk is full" "$TMP/stderr"
	_result $? "disk full: the line names the output and says the disk is full" \
		"$(cat "$TMP/stderr")"
	is "$(ls -A "$full" | tr '\n' ' ')" "" "disk full: no db and no temporary file left"
	umount "$full"
	trap 'rm -rf "$TMP"' EXIT
fi

# --- stale temporary dbs in the cache ---
cache=$TMP/cache
mkdir -p "$cache"
gen 600000 >"$TMP/huge.txt"
# start_load NAME: a load of huge.txt into the cache, in the background, as $pid; waits for
# its temporary db to appear and sets tmpdb
start_load() {
	cp "$TMP/huge.txt" "$TMP/$1.txt"
	before=$(ls "$cache" | grep '\.db\.tmp-' | sort)
	TRAX_CACHE_DIR=$cache "$TRAX" info "$TMP/$1.txt" >/dev/null 2>&1 &
	pid=$!
	tmpdb=
	for _ in $(seq 1 300); do
		tmpdb=$(ls "$cache" | grep '\.db\.tmp-' | sort | comm -13 <(echo "$before") - |
			head -1)
		[ -n "$tmpdb" ] && break
		sleep 0.02
	done
}
start_load killed
killed_pid=$pid killed_db=$tmpdb
kill -KILL "$killed_pid"
wait "$killed_pid" 2>/dev/null
ok "SIGKILL: the killed load left its temporary db ($killed_db)" test -f "$cache/$killed_db"
# a live load, stopped so that it changes nothing: only its lock says it is alive
start_load live
live_pid=$pid live_db=$tmpdb
kill -STOP "$live_pid"
# a temporary db of another program, without a lock, and a file that is not a temporary db
: >"$cache/0123456789abcdef.db.tmp-Ab12Cd"
: >"$cache/notes.txt"
# past the grace a file gets between its creation and its lock
touch -d '-1 minute' "$cache/$killed_db" "$cache/$live_db" "$cache/0123456789abcdef.db.tmp-Ab12Cd"
TRAX_CACHE_DIR=$cache "$TRAX" info "$TXT" >/dev/null 2>"$TMP/stderr"
is "$?" 0 "the next run (trax info on another trace) works"
ok "the next run removed the killed load's temporary db" test ! -e "$cache/$killed_db"
ok "the next run removed an unlocked stale temporary db" \
	test ! -e "$cache/0123456789abcdef.db.tmp-Ab12Cd"
ok "the next run kept the live load's temporary db" test -f "$cache/$live_db"
ok "the next run kept a file that is not a temporary db" test -f "$cache/notes.txt"
kill -CONT "$live_pid"
wait "$live_pid"
is "$?" 0 "the live load went on to the end"
is "$(ls "$cache" | grep -c '\.tmp-')" 0 "no temporary db left in the cache"
# a fresh stale file (inside the grace) is spared by the next run
: >"$cache/fedcba9876543210.db.tmp-Zz99Yy"
TRAX_CACHE_DIR=$cache "$TRAX" info "$TXT" >/dev/null 2>&1
ok "a temporary db changed less than 2 s ago is spared" \
	test -e "$cache/fedcba9876543210.db.tmp-Zz99Yy"

# --- the spill files of a SIGKILLed collect ---
if [ "$(id -u)" -ne 0 ]; then
	skip "collect removes a killed collect's files" "not root (collect needs root)"
else
	d=$TMP/collect
	mkdir -p "$d"
	sh -c 'exit 0' &
	dead=$!
	wait "$dead"
	if kill -0 "$dead" 2>/dev/null; then
		skip "collect removes a killed collect's files" "pid $dead was reused at once"
	else
		for f in cpu0 cpu1 cpu12 tmp; do : >"$d/.out.dat.trax-$dead.$f"; done
		: >"$d/.out.dat.trax-$$.cpu0"		# a live process's: kept
		: >"$d/.other.dat.trax-$dead.cpu0"	# another output's: kept
		: >"$d/.out.dat.trax-$dead.cpu0x"	# not a spill file: kept
		# TRAX_TRACEFS without tracefs: collect stops before it records anything
		TRAX_TRACEFS=$TMP/no-tracefs "$TRAX" collect -o "$d/out.dat" -- true \
			>"$TMP/stdout" 2>"$TMP/stderr"
		rc=$?
		is "$rc" 2 "collect without tracefs: exit status 2"
		grep -q "no tracefs there" "$TMP/stderr"
		_result $? "collect stopped at its tracefs check" "$(cat "$TMP/stderr")"
		left=$(cd "$d" && ls -A | sort | tr '\n' ' ')
		# the names sorted as ls | sort sorts them (the two pids may sort either way)
		is "$left" "$(printf '%s\n' ".other.dat.trax-$dead.cpu0" ".out.dat.trax-$$.cpu0" \
			".out.dat.trax-$dead.cpu0x" | sort | tr '\n' ' ')" \
			"the killed collect's four files are gone, the others stay"
		for f in cpu0 cpu1 cpu12 tmp; do
			grep -qF "trax collect: warning: removed $d/.out.dat.trax-$dead.$f left by a killed trax (pid $dead)" "$TMP/stderr"
			_result $? "collect says it removed .out.dat.trax-$dead.$f" "$(cat "$TMP/stderr")"
		done
	fi
fi
finish
