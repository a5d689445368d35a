# tests/lib.sh: TAP helpers for the shell tests (sourced). Each check prints one TAP line.
#   ok CMD...            passes when CMD succeeds
#   is GOT WANT DESC     string equality
#   near GOT WANT TOL DESC   |GOT - WANT| <= TOL (numbers)
#   same DESC DBA SQLA DBB SQLB   two queries give the same output
#   skip DESC REASON     a SKIP line with its reason
#   tc_report ARGS...    trace-cmd report ARGS, again when it printed raw counts by mistake
#   finish               prints the plan; exits 1 when anything failed
set -u
: "${TRAX:?TRAX must point at the trax binary (tests/run.sh sets it)}"
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${TRAX_SHARED:-$TOP/../shared}
TRACES=$SHARED/traces
_n=0
_failed=0
TMP=$(mktemp -d /tmp/trax-t.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

_result() { # status desc [diag]
	_n=$((_n+1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_n - $2"
	else
		echo "not ok $_n - $2"
		[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/# /'
		_failed=$((_failed+1))
	fi
	return 0
}

ok() { # desc cmd...
	local desc=$1; shift
	local out
	out=$("$@" 2>&1)
	_result $? "$desc" "$out"
}

fails_with() { # desc status cmd...: cmd exits with status
	local desc=$1 want=$2; shift 2
	local out rc
	out=$("$@" 2>&1)
	rc=$?
	[ "$rc" -eq "$want" ]
	_result $? "$desc" "exit status $rc, wanted $want; output: $out"
}

is() { # got want desc
	[ "$1" = "$2" ]
	_result $? "$3" "got:  '$1'"$'\n'"want: '$2'"
}

near() { # got want tol desc
	# an empty GOT or WANT (a failed query, an awk that died) never passes as 0
	awk -v g="$1" -v w="$2" -v t="$3" \
		'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && w != "" && d <= t) }'
	_result $? "$4" "got $1, want $2 +- $3"
}

skip() { # desc reason
	_n=$((_n+1))
	echo "ok $_n - $1 # SKIP $2"
}

need_shared() { # path: 0 when present, else prints a SKIP line for desc and returns 1
	if [ -e "$1" ]; then return 0; fi
	skip "${2:-$1}" "$1 absent (../shared/traces is not part of the repository)"
	return 1
}

q() { # db sql: query as CSV without header; returns trax query's exit status (its error on
	# stderr), so that a caller can tell a failed query from an empty result
	local f rc
	f=$(mktemp "$TMP/q.XXXXXX")
	"$TRAX" query "$1" "$2" --format csv >"$f"
	rc=$?
	[ $rc -eq 0 ] && tail -n +2 "$f" | tr -d '\r'
	rm -f "$f"
	return $rc
}

same() { # desc dba sqla dbb sqlb: the two queries give identical output
	local a b
	# a query that fails on both sides must not pass as two equal empty results
	if ! a=$(q "$2" "$3"); then
		_result 1 "$1" "query failed on $2: $3"
		return
	fi
	if ! b=$(q "$4" "$5"); then
		_result 1 "$1" "query failed on $4: $5"
		return
	fi
	if [ "$a" = "$b" ]; then
		_result 0 "$1"
	else
		_result 1 "$1" "$(diff <(printf '%s\n' "$a") <(printf '%s\n' "$b") | head -8)"
	fi
}

# trace-cmd report ARGS... on stdout. A v6 trace.dat may carry an empty TRACECLOCK option (it
# says the clock list follows the CPU table: bart's raw_trace.dat, trappy's thermal_trace.dat).
# libtracecmd 1.3 parses that option's empty copy anyway, reading the heap bytes after it. Now
# and then those bytes hold a bracketed word, an unknown clock to libtracecmd, and the report
# prints raw counts ("[000]106439675591:") in place of seconds. That report is not the
# reference; the heap differs from run to run, so run it again. Status 1 when every attempt
# printed raw counts.
tc_report() {
	local out=$TMP/tc_report.$$ i
	for i in 1 2 3 4 5; do
		trace-cmd report "$@" >"$out" 2>/dev/null
		if ! grep -m1 -qE '\[[0-9]+\][0-9]+: ' "$out"; then
			cat "$out"
			rm -f "$out"
			return 0
		fi
		echo "# tc_report: trace-cmd report $*: raw counts in place of seconds (attempt $i)" >&2
	done
	cat "$out"
	rm -f "$out"
	return 1
}

finish() {
	echo "1..$_n"
	[ "$_failed" -eq 0 ]
	exit $?
}
