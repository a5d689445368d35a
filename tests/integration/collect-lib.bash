# tests/integration/collect-lib.bash: helpers of the collect-*.sh tests (sourced after lib.sh).
#   collect_needs [rt-app|trace-cmd|stress-ng|...]  SKIP the whole script (and finish) unless
#                     root with tracefs instances, and the named tools, are there
#   run_bg OUT ERR CMD...   run CMD in the background; $bg_pid is its pid
#   no_instance PID   passes when tracefs has no trax-collect-PID instance
#   report_counts DAT   "event count" lines from `trace-cmd report`, sorted
#   trax_counts DB      the same from the db's event_type table
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
