#!/usr/bin/env bash
# tests/integration/target-facts.sh: the target's facts ("trax: target ..." markers, doc/db.md)
# loaded into meta from ftrace text, systrace HTML and Perfetto's cpu_info; rules naming
# "little", "big", "mid" and "clusterN" resolved from them (doc/rules.md), the rule file's own
# topology first; a trace without the facts FAILS such a rule with the reason. The traces are
# written here; the expected values are worked by hand from them.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../perfetto-lib.sh"

# ---- a Juno r0 trace: CPUs 1-2 big (capacity 1024, cluster 0), 0 and 3-5 little (446, 1) ----
juno_markers() {
	echo "trax: target kernel=4.4.0-juno ncpus=6 cpus_possible=0-5 cpus_online=0-5"
	for c in 0 1 2 3 4 5; do
		case $c in
		1|2) echo "trax: target cpu=$c online=1 capacity=1024 cluster=0 freq_domain=1-2" \
			"min_freq=450000 max_freq=1100000 freqs=450000,625000,800000,950000,1100000" \
			"idle_states=WFI:1:1,cpu-sleep-0:800:2000" ;;
		*) echo "trax: target cpu=$c online=1 capacity=446 cluster=1 freq_domain=0,3-5" \
			"min_freq=450000 max_freq=850000 freqs=450000,575000,700000,775000,850000" \
			"idle_states=WFI:1:1,cpu-sleep-0:300:500" ;;
		esac
	done
}

# work (pid 100) runs 300 us on CPU 0, 1000 us on CPU 1, 200 us on CPU 3, 500 us on CPU 2:
# 2000 us in all; little (0, 3) 500 us = 25 %, big (1, 2) 1500 us = 75 %; migrations 0->1, 1->3,
# 3->2: two from little to big, one from big to little. Its first CPU is 0 (little).
sw() { # ts cpu prev_comm prev_pid prev_state next_comm next_pid
	printf '%16s-%-7s [%03d] d..2.  %s: sched_switch: prev_comm=%s prev_pid=%s prev_prio=120 prev_state=%s ==> next_comm=%s next_pid=%s next_prio=120\n' \
		"$3" "$4" "$2" "$1" "$3" "$4" "$5" "$6" "$7"
}
trace_text() { # MARKERS-FUNCTION or "": the ftrace text (tracefs `trace` layout)
	printf '# tracer: nop\n#\n# entries-in-buffer/entries-written: 20/20   #P:6\n#\n'
	printf '#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n'
	printf '#              | |         |   |||||     |         |\n'
	if [ -n "$1" ]; then
		"$1" | while read -r m; do
			printf '          <idle>-0       [000] d..1.     1.000000: tracing_mark_write: %s\n' "$m"
		done
	fi
	sw 1.000100 0 swapper/0 0 R work 100
	sw 1.000400 0 work 100 S swapper/0 0
	sw 1.000500 1 swapper/1 0 R work 100
	sw 1.001500 1 work 100 S swapper/1 0
	sw 1.002000 3 swapper/3 0 R work 100
	sw 1.002200 3 work 100 S swapper/3 0
	sw 1.003000 2 swapper/2 0 R work 100
	sw 1.003500 2 work 100 S swapper/2 0
}
trace_text juno_markers >"$TMP/juno.txt"
trace_text "" >"$TMP/bare.txt"
equal_markers() {
	echo "trax: target kernel=6.1.0 ncpus=6"
	for c in 0 1 2 3 4 5; do echo "trax: target cpu=$c capacity=1024 cluster=0"; done
}
trace_text equal_markers >"$TMP/equal.txt"

# ---- meta: every key of the markers, as written ----
ok "the trace with facts loads" "$TRAX" load "$TMP/juno.txt" -o "$TMP/juno.db"
is "$(meta "$TMP/juno.db" target.kernel):$(meta "$TMP/juno.db" target.ncpus)" "4.4.0-juno:6" \
	"meta target.kernel and target.ncpus"
is "$(meta "$TMP/juno.db" target.cpus_possible):$(meta "$TMP/juno.db" target.cpus_online)" \
	"0-5:0-5" "meta target.cpus_possible and target.cpus_online"
want=$(juno_markers | awk 'NR > 1 { sub(/^trax: target cpu=/, ""); c = $1
	for (i = 2; i <= NF; i++) { split($i, kv, "="); print "cpu." c "." kv[1] "=" kv[2] } }' |
	tr , / | sort)
# (commas made / on both sides: CSV would quote them)
got=$(q "$TMP/juno.db" "SELECT key || '=' || replace(value, ',', '/') FROM meta WHERE key GLOB
	'cpu.[0-9]*.*' AND key NOT GLOB '*_ts' AND key NOT GLOB '*.lost_events' ORDER BY 1" | sort)
is "$got" "$want" "meta cpu.N.KEY: each CPU's marker, key by key (48 rows)"
is "$(q "$TMP/juno.db" "SELECT count(*) FROM print WHERE buf LIKE 'trax: target%'")" 7 \
	"the markers stay in print"
is "$(q "$TMP/juno.db" "SELECT count(*) FROM instant")" 0 "... and make no instants"

# ---- rules: the groups from the facts ----
cat >"$TMP/facts.json" <<'JSON'
{ "rules": [
  { "id": "little-pct", "metric": "residency", "task": "work", "cpus": "little", "expect": "== 25 %" },
  { "id": "big-pct", "metric": "residency", "task": "work", "cpus": "big", "expect": "== 75 %" },
  { "id": "little-us", "metric": "residency", "task": "work", "cpus": "little", "expect": "== 500 us" },
  { "id": "cluster0", "metric": "residency", "task": "work", "cpus": "cluster0", "expect": "== 1500 us" },
  { "id": "cluster1", "metric": "residency", "task": "work", "cpus": "cluster1", "expect": "== 500 us" },
  { "id": "up", "metric": "switch", "task": "work", "from": "little", "to": "big", "expect": "== 2" },
  { "id": "down", "metric": "switch", "task": "work", "from": "big", "to": [0, 3, 4, 5], "expect": "== 1" },
  { "id": "first", "metric": "first_cpu", "task": "work", "expect": "in little" }
] }
JSON
"$TRAX" check "$TMP/facts.json" "$TMP/juno.txt" --format tap >"$TMP/facts.tap" 2>&1
is "$?" 0 "rules naming little, big, cluster0, cluster1 pass on the Juno trace (exit 0)"
is "$(grep -c '^ok ' "$TMP/facts.tap")" 8 "... all 8 of them" 
"$TRAX" check "$TMP/facts.json" "$TMP/juno.txt" --format json >"$TMP/facts.out"
vals=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s=%g" % (r["rule"], r["value"]) for r in d["results"]))' "$TMP/facts.out" 2>&1)
is "$vals" "little-pct=25 big-pct=75 little-us=500000 cluster0=1.5e+06 cluster1=500000 up=2 down=1 first=0" \
	"the values (ns, %, counts, CPU), worked by hand"

# the file's own topology wins: its "big" is CPU 3 (200 us of 2000: 10 %)
cat >"$TMP/own.json" <<'JSON'
{ "topology": { "big": [3] },
  "rules": [
  { "id": "big-own", "metric": "residency", "task": "work", "cpus": "big", "expect": "== 10 %" },
  { "id": "little-facts", "metric": "residency", "task": "work", "cpus": "little", "expect": "== 25 %" }
] }
JSON
ok "a rule file whose topology defines \"big\" uses its own (10 %); \"little\" still from the facts" \
	"$TRAX" check "$TMP/own.json" "$TMP/juno.txt"

# ---- the groups the facts cannot give: FAIL with the reason, never a pass ----
fail_reason() { # desc rules trace reason
	local out rc
	out=$("$TRAX" check "$2" "$3" --format tap 2>&1)
	rc=$?
	is "$rc" 1 "$1: exit 1"
	case "$out" in *"not ok 1 "*"$4"*) _result 0 "$1: not ok, says '$4'" ;;
	*) _result 1 "$1: not ok, says '$4'" "$out" ;; esac
}
cat >"$TMP/little.json" <<'JSON'
{ "rules": [ { "id": "l", "metric": "residency", "task": "work", "cpus": "little", "expect": ">= 0 %" } ] }
JSON
fail_reason "a trace without facts" "$TMP/little.json" "$TMP/bare.txt" \
	'CPU group "little": the trace has no CPU capacities (meta cpu.N.capacity'
fail_reason "every CPU of capacity 1024" "$TMP/little.json" "$TMP/equal.txt" \
	'CPU group "little": every CPU of the trace has capacity 1024'
cat >"$TMP/mid.json" <<'JSON'
{ "rules": [ { "id": "m", "metric": "residency", "task": "work", "cpus": "mid", "expect": ">= 0 %" } ] }
JSON
fail_reason "mid with two capacity levels" "$TMP/mid.json" "$TMP/juno.txt" \
	'"mid" needs three capacity levels; the trace'"'"'s CPUs have 2 (446, 1024)'
cat >"$TMP/c7.json" <<'JSON'
{ "rules": [ { "id": "c", "metric": "residency", "task": "work", "cpus": "cluster7", "expect": ">= 0 %" } ] }
JSON
fail_reason "a cluster no CPU is in" "$TMP/c7.json" "$TMP/juno.txt" \
	'no CPU of the trace is in cluster 7'
fail_reason "a cluster without cluster ids" "$TMP/c7.json" "$TMP/bare.txt" \
	'the trace has no cluster ids'
cat >"$TMP/in.json" <<'JSON'
{ "rules": [ { "id": "f", "metric": "first_cpu", "task": "work", "expect": "in big" } ] }
JSON
fail_reason "first_cpu in big (it is CPU 0)" "$TMP/in.json" "$TMP/juno.txt" "CPU 0"
fail_reason "\"in big\" without facts" "$TMP/in.json" "$TMP/bare.txt" 'CPU group "big"'
# a db loaded without the markers cannot have the facts: the reason says so
ok "a load of sched_switch only" "$TRAX" load "$TMP/juno.txt" --events sched_switch \
	-o "$TMP/nomark.db"
fail_reason "a db loaded without print" "$TMP/little.json" "$TMP/nomark.db" \
	'loaded with --events sched_switch: no markers'

# trax query's trax_metric() resolves them too
is "$(q "$TMP/juno.db" "SELECT trax_metric('{\"metric\": \"residency\", \"task\": \"work\", \"cpus\": \"big\", \"expect\": \">= 0 %\"}') AS v")" \
	75 "trax_metric(): big from the facts"

# ---- trax info: the topology summary ----
"$TRAX" info "$TMP/juno.db" >"$TMP/info.txt" 2>&1
is "$(grep -E '^target:|^  cpus? |^  groups:' "$TMP/info.txt")" \
"target:   kernel 4.4.0-juno, 6 CPUs (online 0-5)
  cpus 0,3-5: capacity 446, cluster 1, frequency domain 0,3-5, 450000..850000 kHz, idle WFI:1:1,cpu-sleep-0:300:500
  cpus 1-2: capacity 1024, cluster 0, frequency domain 1-2, 450000..1100000 kHz, idle WFI:1:1,cpu-sleep-0:800:2000
  groups: little = 0,3-5; big = 1-2" "trax info: the target's facts, CPUs alike together"
"$TRAX" info "$TMP/bare.txt" >"$TMP/info-bare.txt" 2>&1
is "$(grep -c '^target:' "$TMP/info-bare.txt")" 0 "trax info: no target line without facts"

# ---- the same markers in a systrace HTML file ----
{
	printf '<!DOCTYPE html>\n<html><head><title>juno</title></head><body>\n'
	printf '<script class="trace-data" type="application/text">\n'
	cat "$TMP/juno.txt"
	printf '</script>\n</body></html>\n'
} >"$TMP/juno.html"
ok "the systrace HTML loads" "$TRAX" load "$TMP/juno.html" -o "$TMP/html.db"
same "systrace: the same target meta as the text" "$TMP/html.db" \
	"SELECT key, value FROM meta WHERE key GLOB 'target.*' OR key GLOB 'cpu.[0-9]*.*' AND
	 key NOT GLOB '*_ts' AND key NOT GLOB '*.lost_events' ORDER BY key" \
	"$TMP/juno.db" "SELECT key, value FROM meta WHERE key GLOB 'target.*' OR key GLOB
	 'cpu.[0-9]*.*' AND key NOT GLOB '*_ts' AND key NOT GLOB '*.lost_events' ORDER BY key"
ok "systrace: the little and big rules pass" "$TRAX" check "$TMP/facts.json" "$TMP/juno.html"

# ---- Perfetto: cpu_info (CpuInfo: per CPU, frequencies and capacity) ----
if ! command -v protoc >/dev/null; then
	skip "Perfetto cpu_info encoded by protoc" "protoc absent (Debian: protobuf-compiler)"
elif need_shared "$PROTO" "the Perfetto schema"; then
	{
		echo 'packet { system_info { utsname { sysname: "Linux" release: "5.10.43-android12"'
		echo '  version: "#1 SMP PREEMPT" machine: "aarch64" } } }'
		echo 'packet { cpu_info {'
		for c in 0 1 2 3; do
			echo "  cpus { processor: \"AArch64 Processor rev 13 (aarch64)\""
			echo "    frequencies: 300000 frequencies: 1800000 capacity: 160 }"
		done
		for c in 4 5; do
			echo "  cpus { processor: \"AArch64 Processor rev 13 (aarch64)\""
			echo "    frequencies: 400000 frequencies: 2200000 capacity: 1024 }"
		done
		echo '} }'
		# work runs 100 us on CPU 0 and 300 us on CPU 4: big 75 %
		echo 'packet { trusted_packet_sequence_id: 1 ftrace_events { cpu: 0'
		echo '  event { timestamp: 1000 pid: 0 sched_switch { prev_comm: "swapper/0" prev_pid: 0'
		echo '    prev_prio: 120 prev_state: 0 next_comm: "work" next_pid: 100 next_prio: 120 } }'
		echo '  event { timestamp: 101000 pid: 100 sched_switch { prev_comm: "work" prev_pid: 100'
		echo '    prev_prio: 120 prev_state: 1 next_comm: "swapper/0" next_pid: 0 next_prio: 120 } } } }'
		echo 'packet { trusted_packet_sequence_id: 1 ftrace_events { cpu: 4'
		echo '  event { timestamp: 200000 pid: 0 sched_switch { prev_comm: "swapper/4" prev_pid: 0'
		echo '    prev_prio: 120 prev_state: 0 next_comm: "work" next_pid: 100 next_prio: 120 } }'
		echo '  event { timestamp: 500000 pid: 100 sched_switch { prev_comm: "work" prev_pid: 100'
		echo '    prev_prio: 120 prev_state: 1 next_comm: "swapper/4" next_pid: 0 next_prio: 120 } } } }'
	} >"$TMP/cpuinfo.textproto"
	pf_encode "$TMP/cpuinfo.textproto" "$TMP/cpuinfo.pftrace"
	ok "a Perfetto trace with cpu_info loads" "$TRAX" load "$TMP/cpuinfo.pftrace" -o "$TMP/pf.db"
	is "$(q "$TMP/pf.db" "SELECT group_concat(key || '=' || replace(value, ',', '/'), ' ') FROM (SELECT key, value
		FROM meta WHERE key GLOB 'target.*' OR key GLOB 'cpu.[0-9]*.capacity' OR key GLOB
		'cpu.[0-9]*.freqs' ORDER BY key)")" \
		"cpu.0.capacity=160 cpu.0.freqs=300000/1800000 cpu.1.capacity=160 cpu.1.freqs=300000/1800000 cpu.2.capacity=160 cpu.2.freqs=300000/1800000 cpu.3.capacity=160 cpu.3.freqs=300000/1800000 cpu.4.capacity=1024 cpu.4.freqs=400000/2200000 cpu.5.capacity=1024 cpu.5.freqs=400000/2200000 target.kernel=5.10.43-android12 target.ncpus=6" \
		"cpu_info and system_info: the facts' meta keys"
	cat >"$TMP/pf.json" <<'JSON'
{ "rules": [
  { "id": "big", "metric": "residency", "task": "work", "cpus": "big", "expect": "== 75 %" },
  { "id": "little", "metric": "residency", "task": "work", "cpus": "little", "expect": "== 100 us" }
] }
JSON
	ok "Perfetto: big and little from cpu_info" "$TRAX" check "$TMP/pf.json" "$TMP/pf.db"
	is "$(meta "$TMP/pf.db" perfetto.packets.cpu_info)" 1 "cpu_info counted as read"
fi

# ---- a real Juno trace (bart: clusters [[1,2],[0,3,4,5]]) with the facts written ahead ----
bart=$TRACES/bart/raw_trace.dat
if need_shared "$bart" "bart's Juno trace"; then
	# its `ls` (pid 4734): big and little residency from the file's topology on the trace.dat,
	# and from facts markers put ahead of its `trace-cmd report -R -t` text (ns timestamps: the
	# text's µs would move the slices)
	if tc_report -R -t "$bart" >"$TMP/bart.txt" 2>/dev/null && [ "$(head -1 "$TMP/bart.txt")" = cpus=6 ]; then
		# at CPU 0's first record: its first slice is counted from there (edges clip)
		first=$(grep -m1 '\[000\]' "$TMP/bart.txt" | sed 's/.*\] *\([0-9]*\.[0-9]*\):.*/\1/')
		{
			echo cpus=6
			juno_markers | while read -r m; do
				printf '          <idle>-0     [000] %s: print:                ip=0 buf=%s\n' "$first" "$m"
			done
			tail -n +2 "$TMP/bart.txt"
		} >"$TMP/bart-facts.txt"
		rules='"rules": [
  { "id": "b", "metric": "residency", "task": "ls", "cpus": "big", "aggregate": "sum", "expect": ">= 0 %" },
  { "id": "l", "metric": "residency", "task": "ls", "cpus": "little", "aggregate": "sum", "expect": ">= 0 %" } ]'
		echo "{ \"topology\": { \"big\": [1, 2], \"little\": [0, 3, 4, 5] }, $rules }" >"$TMP/bart-own.json"
		echo "{ $rules }" >"$TMP/bart-facts.json"
		values() { python3 -c 'import json, sys
print(" ".join("%.6f" % r["value"] for r in json.load(sys.stdin)["results"]))'; }
		v_own=$("$TRAX" check "$TMP/bart-own.json" "$bart" --format json | values)
		v_facts=$("$TRAX" check "$TMP/bart-facts.json" "$TMP/bart-facts.txt" --format json | values)
		[ -n "$v_own" ]
		_result $? "bart's Juno trace: ls's residencies by the file's topology" "none"
		is "$v_facts" "$v_own" "... the same from the trace's facts (big and little)"
	else
		skip "bart's Juno trace with facts" "trace-cmd report -R -t could not read it"
	fi
fi
finish
