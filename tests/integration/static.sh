#!/usr/bin/env bash
# tests/integration/static.sh: the static collectors of `make static` (doc/static.md),
# build-static/x86_64/trax and build-static/aarch64/trax: fully static (no interpreter, no
# shared library) for the right machine; the aarch64 one under qemu-user (binfmt, else
# qemu-aarch64-static named explicitly). Both load text and Perfetto traces as build/trax
# does, with counts worked out by hand from a fixture written here; what they leave out
# (trace.dat reading, collect --db, plot, report) fails with one line and status 2, leaving
# nothing behind. As root with tracefs, each captures a workload of known shape (200 sleeps of
# 5 ms by a task named traxstatic), which `trace-cmd report` reads, with as many switches out
# to sleep as a capture by build/trax.
. "$(dirname "$0")/../lib.sh"

SB=${TRAX_STATIC_BUILD:-$TOP/build-static}
VERSION=$(sed -n 's/^VERSION := //p' "$TOP/Makefile")

if [ "${TRAX_SAN:-0}" = 1 ]; then
	skip "static collectors" "built without sanitizers and independent of this build: tested with the plain build"
	finish
fi
if ! command -v readelf >/dev/null; then
	skip "static collectors" "readelf is not installed (binutils)"
	finish
fi

# ---- the binaries: static, for their machine ----
# e_machine (ELF header offset 18, 2 bytes little-endian): EM_X86_64 62, EM_AARCH64 183
declare -A em=([x86_64]=62 [aarch64]=183)
have=()
for a in x86_64 aarch64; do
	b=$SB/$a/trax
	if [ ! -x "$b" ]; then
		skip "$a: static binary" "$b is absent (make static builds it)"
		continue
	fi
	have+=("$a")
	is "$(od -An -tu2 -j18 -N2 "$b" | tr -d ' ')" "${em[$a]}" "$a: e_machine is ${em[$a]}"
	is "$(head -c 5 "$b" | od -An -tx1 | tr -d ' ')" "7f454c4602" "$a: a 64-bit ELF file"
	ok "$a: no INTERP program header" bash -c "! readelf -lW '$b' | grep -q INTERP"
	ok "$a: no NEEDED shared library" bash -c "! readelf -dW '$b' | grep -q NEEDED"
done

# How to run each: x86_64 directly; aarch64 directly when binfmt runs it, else with
# qemu-aarch64-static.
declare -A run
run[x86_64]=
for a in "${have[@]}"; do
	[ "$a" = aarch64 ] || continue
	if "$SB/aarch64/trax" --version >/dev/null 2>&1; then
		run[aarch64]=
	elif command -v qemu-aarch64-static >/dev/null; then
		run[aarch64]=qemu-aarch64-static
	else
		skip "aarch64: runs" "neither binfmt nor qemu-aarch64-static runs it (make static installs qemu-user-static)"
		have=("${have[@]/aarch64}")
	fi
done
st() { # arch args...: run that static trax
	local a=$1; shift
	${run[$a]} "$SB/$a/trax" "$@"
}

# A hand-written text trace: 4 sched_switch, 2 sched_wakeup, 1 cpu_frequency. Task w (pid 50)
# runs on CPU 0 over [100.000, 100.003] and [100.005, 100.006]: 4 ms.
cat >"$TMP/t.txt" <<'EOF'
# tracer: nop
#
          <idle>-0     [000] d..2   100.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=w next_pid=50 next_prio=120
               w-50    [000] d..3   100.001000: sched_wakeup: comm=v pid=60 prio=120 target_cpu=001
               w-50    [000] d..2   100.003000: sched_switch: prev_comm=w prev_pid=50 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0     [001] d.h3   100.004000: sched_wakeup: comm=w pid=50 prio=120 target_cpu=000
          <idle>-0     [001] d..2   100.004500: cpu_frequency: state=1800000 cpu_id=1
          <idle>-0     [000] d..2   100.005000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=w next_pid=50 next_prio=120
               w-50    [000] d..2   100.006000: sched_switch: prev_comm=w prev_pid=50 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
EOF
printf 'cpu_frequency 1\nsched_switch 4\nsched_wakeup 2\n' >"$TMP/t.want"
# a trace.dat header (magic, version 6, little-endian, long size 8, page size 4096)
printf '\027\010\104tracing6\0\001\010\0\020\0\0' >"$TMP/h.dat"
JUNO=$TRACES/lisa/juno_sched_raw.txt
PERFETTO=$TRACES/perfetto/test_trace.perfetto-trace
RULES=$TOP/rules/packs/android.json

for a in "${have[@]}"; do
	[ -n "$a" ] || continue
	out=$(st "$a" --version 2>&1)
	is "$(head -1 <<<"$out")" "trax $VERSION" "$a: --version"
	ok "$a: --version says what the static build has" \
		grep -q "static build for $a: collect; load, info" <<<"$out"
	out=$(st "$a" --help 2>&1)
	ok "$a: --help says what it leaves out" grep -q "Not in it: reading trace.dat" <<<"$out"
	st "$a" collect --list-presets >"$TMP/$a.presets" 2>&1
	is "$?" 0 "$a: collect --list-presets"
	"$TRAX" collect --list-presets >"$TMP/host.presets" 2>&1
	ok "$a: the presets are build/trax's" cmp "$TMP/$a.presets" "$TMP/host.presets"

	# text: loaded into a db, counted by the static trax itself
	out=$(st "$a" load "$TMP/t.txt" -o "$TMP/$a.db" 2>&1 >/dev/null)
	_result $? "$a: loads the text fixture" "$out"
	st "$a" query "$TMP/$a.db" "SELECT name, count FROM event_type WHERE count > 0 ORDER BY name" \
		--format csv 2>&1 | tail -n +2 | tr -d "\r" | tr "," " " >"$TMP/$a.got"
	is "$(cat "$TMP/$a.got")" "$(cat "$TMP/t.want")" "$a: event counts of the fixture"
	is "$(st "$a" query "$TMP/$a.db" "SELECT sum(dur) FROM sched_slice WHERE pid = 50" \
		--format csv 2>&1 | tail -1 | tr -d "\r")" 4000000 "$a: w's runtime, 4 ms"

	# real traces: the same database as build/trax's
	if need_shared "$JUNO" "$a: a Juno text trace"; then
		st "$a" load "$JUNO" -o "$TMP/$a-juno.db" >/dev/null 2>&1
		"$TRAX" load "$JUNO" -o "$TMP/host-juno.db" >/dev/null 2>&1
		for sql in "SELECT name, count FROM event_type ORDER BY name" \
			"SELECT cpu, count(*), sum(dur) FROM sched_slice GROUP BY cpu" \
			"SELECT utid, state, count(*), sum(dur) FROM thread_state GROUP BY utid, state"; do
			same "$a: juno: $sql" "$TMP/$a-juno.db" "$sql" "$TMP/host-juno.db" "$sql"
		done
	fi
	if need_shared "$PERFETTO" "$a: a Perfetto trace"; then
		st "$a" load "$PERFETTO" -o "$TMP/$a-pf.db" >/dev/null 2>&1
		"$TRAX" load "$PERFETTO" -o "$TMP/host-pf.db" >/dev/null 2>&1
		for sql in "SELECT name, count FROM event_type ORDER BY name" \
			"SELECT cpu, count(*), sum(dur) FROM sched_slice GROUP BY cpu" \
			"SELECT count(*), sum(value) FROM counter"; do
			same "$a: perfetto: $sql" "$TMP/$a-pf.db" "$sql" "$TMP/host-pf.db" "$sql"
		done
	fi
	# check: the rule file's SHA-256 (libcrypto, linked statically) is sha256sum's
	st "$a" check "$RULES" "$TMP/t.txt" --format json >"$TMP/$a.json" 2>/dev/null
	is "$(sed -n 's/.*"rules_sha256": "\([0-9a-f]*\)".*/\1/p' "$TMP/$a.json")" \
		"$(sha256sum "$RULES" | cut -d' ' -f1)" "$a: check: the rules' SHA-256"

	# what the static build leaves out: one line, status 2, nothing written
	dats=("$TMP/h.dat")
	[ -e "$TRACES/lisa/juno_sched_load.dat" ] && dats+=("$TRACES/lisa/juno_sched_load.dat")
	for d in "${dats[@]}"; do
		st "$a" load "$d" -o "$TMP/$a-dat.db" >"$TMP/out" 2>"$TMP/err"
		is "$?" 2 "$a: load $(basename "$d"): status 2"
		is "$(cat "$TMP/err")" "trax load: $d: this static build of trax cannot read trace.dat files (it has no libtracecmd); copy the trace to a machine with a full trax" \
			"$a: load $(basename "$d"): the message"
		ok "$a: load $(basename "$d"): no database left" test ! -e "$TMP/$a-dat.db"
	done
	st "$a" info - <"$TMP/h.dat" >"$TMP/out" 2>"$TMP/err"
	is "$?:$(wc -l <"$TMP/err")" "2:1" "$a: a trace.dat on stdin: status 2, one line"
	(cd "$TMP" && st "$a" collect -o "$a-c.dat" --db "$a-c.db" -- true) >"$TMP/out" 2>"$TMP/err"
	is "$?" 2 "$a: collect --db: status 2"
	is "$(cat "$TMP/err")" "trax collect: --db $a-c.db: this static build of trax cannot load trace.dat files (it has no libtracecmd); capture without --db and load $a-c.dat with a full trax" \
		"$a: collect --db: the message, before any capture"
	ok "$a: collect --db: nothing written" \
		bash -c "! ls '$TMP/$a-c'.* 2>/dev/null | grep -q ."
	for c in plot report; do
		st "$a" $c timeline "$TMP/t.txt" -o "$TMP/$a.png" >"$TMP/out" 2>"$TMP/err"
		is "$?" 2 "$a: $c: status 2"
		is "$(cat "$TMP/err")" "trax $c: not in this static build of trax (it has no cairo); copy the trace to a machine with a full trax" \
			"$a: $c: the message"
	done
	ok "$a: plot: no chart" test ! -e "$TMP/$a.png"
done

# ---- a capture by each, compared with build/trax's ----
[ -n "${have[*]// }" ] || finish	# no static binary to compare (said above)
. "$TOP/tests/integration/collect-lib.bash"
collect_needs trace-cmd perl
# 200 sleeps of 5 ms by a task renamed traxstatic (perl sets its comm with $0): 200 switches out
# in state S, whatever the machine's load (a preemption is a switch out in R)
WORKLOAD=(perl -e '$0 = "traxstatic"; select(undef, undef, undef, 0.005) for 1 .. 200')
sleeps() { # dat: switches out of traxstatic to sleep, from trace-cmd report
	tc_report "$1" | awk '/sched_switch: +traxstatic:[0-9]+ \[[0-9]+\] S ==>/ { n++ }
		END { print n + 0 }'
}
capture() { # label trax...: capture the workload into $TMP/label.dat
	local label=$1; shift
	(cd "$TMP" && run_bg "$label.out" "$label.err" "$@" collect -e sched:sched_switch -t 30 \
		-o "$label.dat" -- "${WORKLOAD[@]}"; wait $bg_pid; echo $? >"$label.rc"
		echo $bg_pid >"$label.pid")
}
capture host "$TRAX"
is "$(cat "$TMP/host.rc")" 0 "host: build/trax captures" "$(cat "$TMP/host.err")"
host_n=$(sleeps "$TMP/host.dat")
near "$host_n" 200 4 "host: 200 sleeps of traxstatic"
host_cpus=$(trace-cmd report "$TMP/host.dat" 2>/dev/null | sed -n 's/^cpus=//p')
for a in "${have[@]}"; do
	[ -n "$a" ] || continue
	capture "$a" ${run[$a]} "$SB/$a/trax"
	is "$(cat "$TMP/$a.rc")" 0 "$a: captures this machine's tracefs" "$(cat "$TMP/$a.err")"
	ok "$a: trace-cmd report reads it" trace-cmd report "$TMP/$a.dat"
	is "$(trace-cmd report "$TMP/$a.dat" 2>/dev/null | sed -n 's/^cpus=//p')" "$host_cpus" \
		"$a: as many CPUs as build/trax's capture"
	n=$(sleeps "$TMP/$a.dat")
	near "$n" 200 4 "$a: 200 sleeps of traxstatic"
	near "$n" "$host_n" 4 "$a: as many as build/trax's capture"
	ok "$a: its tracefs instance is removed" no_instance "$(cat "$TMP/$a.pid")"
done
finish
