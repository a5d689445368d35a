#!/usr/bin/env bash
# tests/integration/man-pages.sh: the man pages render without a warning, their examples are
# whole (a \" in roff starts a comment and cuts the line), and every file of the repository they
# name exists.
. "$(dirname "$0")/../lib.sh"
pages=("$TOP"/doc/man/*.1)
have() { command -v "$1" >/dev/null 2>&1; }

# The text of a page as a reader sees it.
render() {
	if have man; then
		MANWIDTH=200 man -l "$1" 2>/dev/null
	else
		groff -man -Tascii -P-cbou "$1" 2>/dev/null
	fi
}

if have groff; then
	for p in "${pages[@]}"; do
		w=$(groff -man -Tutf8 -ww -z "$p" 2>&1)
		[ $? -eq 0 ] && [ -z "$w" ]
		_result $? "$(basename "$p"): groff -man -ww renders it without a warning" "$w"
	done
else
	skip "man pages render without warnings" "groff absent"
fi
if have man; then
	for p in "${pages[@]}"; do
		w=$(MANWIDTH=100 man --warnings -l "$p" 2>&1 >/dev/null)
		t=$(MANWIDTH=100 man -l "$p" 2>/dev/null)
		[ -z "$w" ] && [[ "$t" == *NAME* ]] && [[ "$t" == *"EXIT STATUS"* ]]
		_result $? "$(basename "$p"): man -l shows it, NAME to EXIT STATUS, no warning" "$w"
	done
else
	skip "man -l shows every page" "man absent"
fi

if have man || have groff; then
	# trax-query(1)'s example is a shell command: whole, it has a SQL argument whose JSON is the
	# one of `trax query --help`, and it runs.
	line=$(render "$TOP/doc/man/trax-query.1" | grep -m1 'trax query trace.dat' | sed 's/^ *//')
	printf '%s\n' "$line" | grep -q "}')\"\$"
	_result $? "trax-query.1: the example ends with }')\" (not cut at a roff comment)" "$line"
	eval "set -- $line" 2>/dev/null
	is "$#" 4 "trax-query.1: the example is four shell words: trax query TRACE SQL"
	sql=${4:-}
	json=$(printf '%s' "$sql" | sed -n "s/.*trax_metric('\\(.*\\)').*/\\1/p")
	want=$("$TRAX" query --help | sed -n "s/.*trax_metric('\\(.*\\)').*/\\1/p")
	[ -n "$want" ]
	_result $? "trax query --help has a trax_metric example"
	is "$json" "$want" "trax-query.1: the example's rule is the one of trax query --help"
	# Run on bart/raw_trace.dat (ls is pid 4734 there, one thread): the runtime of ls from
	# trace-cmd report's sched_switch records, a slice open at a CPU's first switch counted
	# from that CPU's first record (doc/rules.md), one still open from then to the last record.
	bart=$TRACES/bart/raw_trace.dat
	if [ -z "$sql" ]; then
		_result 1 "trax-query.1: the example's SQL runs" "no SQL argument in: $line"
	elif ! have trace-cmd; then
		skip "trax-query.1: the example run on bart/raw_trace.dat" "trace-cmd absent"
	elif need_shared "$bart" "trax-query.1: the example run on bart/raw_trace.dat"; then
		want=$(tc_report -t -R "$bart" | awk -v P=4734 '
		match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+:/) {
			f = substr($0, RSTART, RLENGTH); split(f, a, /[][ :]+/); cpu = a[2]
			split(a[3], t, "."); ns = t[1] * 1000000000 + t[2]; last = ns
			if (!(cpu in first)) first[cpu] = ns
			if ($0 !~ /sched_switch:/) next
			pp = $0; sub(/.*prev_pid=/, "", pp); sub(/ .*/, "", pp)
			np = $0; sub(/.*next_pid=/, "", np); sub(/ .*/, "", np)
			if (pp == P) {
				s = (cpu in start) ? start[cpu] : (seen[cpu] ? -1 : first[cpu])
				if (s >= 0) total += ns - s
				delete start[cpu]
			}
			seen[cpu] = 1
			if (np == P) start[cpu] = ns
		}
		END { for (c in start) total += last - start[c]; printf "%d\n", total }')
		got=$("$TRAX" query "$bart" "$sql" --format csv 2>&1 | tail -n +2 | tr -d '\r')
		is "$got" "$want" "trax-query.1: the example gives ls's runtime in ns on bart"
	fi
else
	skip "trax-query.1's example" "neither man nor groff"
fi

# Files of the repository named in the pages: any word whose first part is a top-level folder
# of the repository (rules/packs/android.json, doc/examples/...). A word in capitals is a
# placeholder (doc/man/trax-COMMAND.1) and stands for any name.
tops=$(cd "$TOP" && ls -d */ | tr -d / | paste -sd'|')
for p in "${pages[@]}"; do
	refs=$(sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\f(..//g' "$p" |
		grep -oE "(^|[^A-Za-z0-9_./-])($tops)/[A-Za-z0-9_.*/-]*[A-Za-z0-9_*]" |
		sed -E 's/^[^A-Za-z0-9_]//' | sort -u)
	for r in $refs; do
		glob=$(printf '%s' "$r" | sed -E 's/[A-Z][A-Z_]+/*/g')
		# shellcheck disable=SC2086
		found=$(cd "$TOP" && ls -d $glob 2>/dev/null | head -1)
		[ -n "$found" ]
		_result $? "$(basename "$p"): $r is in the repository"
	done
done
finish
