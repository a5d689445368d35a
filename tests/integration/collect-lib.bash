# tests/integration/collect-lib.bash: helpers of the collect-*.sh tests (sourced after lib.sh).
#   collect_needs [rt-app|trace-cmd|stress-ng|...]  SKIP the whole script (and finish) unless
#                     root with tracefs instances, and the named tools, are there
#   run_bg OUT ERR CMD...   run CMD in the background; $bg_pid is its pid
#   no_instance PID   passes when tracefs has no trax-collect-PID instance
#   report_counts DAT   "event count" lines from `trace-cmd report`, sorted
#   trax_counts DB      the same from the db's event_type table
#   errlines FILE      the lines of a --target run's stderr that are not its notes ($NOTES:
#                     the collector pushed, the path taken, what the path cannot record)
#   err_case DESC PATTERN OUT CMD...   a --target error: CMD exits 2 with one line (notes
#                     aside) matching PATTERN, and leaves neither OUT nor OUT.incomplete
#   rtapp_shape REPORT COMM:PID   a periodic rt-app task's shape by hand from trace-cmd's
#                     report, between "[0] begins loop 0 phase 0 step 0" and "[0] exiting":
#                     "OFF_CPU0 ACTIVATIONS DUTY%", then the intervals between activations (ms)
TRACEFS=${TRAX_TRACEFS:-/sys/kernel/tracing}
DATSTAT=${TRAX_BUILD:-$TOP/build}/tools/datstat

collect_needs() {
	local why=
	if [ "$(id -u)" -ne 0 ]; then
		why="not root (trax collect needs root; CI runs as root)"
	elif [ ! -d "$TRACEFS/instances" ]; then
		why="no tracefs instances at $TRACEFS"
	else
		for tool in "$@"; do
			command -v "$tool" >/dev/null 2>&1 || { why="$tool is not installed"; break; }
		done
	fi
	if [ -n "$why" ]; then
		skip "$(basename "$0")" "$why"
		finish
	fi
}

run_bg() { # out err cmd...
	local out=$1 err=$2; shift 2
	"$@" >"$out" 2>"$err" &
	bg_pid=$!
}

no_instance() { # pid
	[ ! -e "$TRACEFS/instances/trax-collect-$1" ]
}

# trace-cmd report's lines "  COMM-PID [CPU] TIME: EVENT: ..." counted by EVENT
report_counts() {
	trace-cmd report "$1" 2>/dev/null |
		awk '$0 ~ /^ *cpus=/ { next }
		     { for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) { e = $(i + 2); break }
		       sub(/:$/, "", e); if (e != "") n[e]++ }
		     END { for (e in n) print e, n[e] }' | sort
}

trax_counts() {
	q "$1" "SELECT name || ' ' || count FROM event_type WHERE count > 0" | sort
}

# trace-cmd's sched_switch lines (prev:pid [prio] state ==> next:pid [prio]) of task $2: switch-
# ins off CPU 0, activations (switch-ins after a sleep, and the first), duty cycle
rtapp_shape() { # report comm:pid
	awk -v me="$2" '
	function t(s) { sub(/:$/, "", s); return s + 0 }
	function at() { for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) return t($(i + 1)) }
	/tracing_mark_write: \[0\] begins loop 0 phase 0 step 0$/ { ws = at() }
	/tracing_mark_write: \[0\] exiting$/ { we = at() }
	/sched_switch:/ && ws && !we {
		for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) { cpu = $i; ts = t($(i + 1)); break }
		for (i = 1; i <= NF; i++) if ($i == "==>") { prev = $(i - 3); st = $(i - 1); next_ = $(i + 1) }
		if (next_ == me) { start = ts; ins++; if (cpu != "[000]") off++
			if (slept || ins == 1) { acts[++na] = ts } ; slept = 0 }
		if (prev == me && start) { run += ts - start; start = 0; if (st ~ /^[SD]/) slept = 1 }
	}
	END {
		if (start) run += we - start
		printf "%d %d %.2f\n", off + 0, na, run / (we - ws) * 100
		for (i = 2; i <= na; i++) printf "%.6f\n", (acts[i] - acts[i - 1]) * 1000
	}' "$1"
}

NOTES=": collector for [a-z0-9_]* pushed to \|: root there\( (sudo -n)\)\?: capturing with \|: adbd cannot run as root (a production build): recording\|: this path cannot record: "
errlines() { grep -cv "$NOTES" "$1"; }

err_case() { # desc want-pattern out cmd...
	local desc=$1 want=$2 out=$3 rc
	shift 3
	"$@" >/dev/null 2>"$TMP/err_case.all"
	rc=$?
	# (the notes of a first push, or of the path taken, are not error lines)
	grep -v "$NOTES" "$TMP/err_case.all" >"$TMP/err_case"
	[ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/err_case")" -eq 1 ] && grep -q -- "$want" "$TMP/err_case" &&
		[ ! -e "$out" ] && [ ! -e "$out.incomplete" ]
	_result $? "$desc" "exit $rc: $(cat "$TMP/err_case.all")"
}
