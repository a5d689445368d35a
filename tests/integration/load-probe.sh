#!/usr/bin/env bash
# tests/integration/load-probe.sh: the trace.dat probe (parse/dat.c) never hangs a load.
# The probe child used to be forked while the database writer thread ran and, under the
# sanitizers, could wait forever on the allocator's lock it copied (about 1 load in 25):
# it now execs at once. 50 consecutive loads, each bounded, must all finish, load the same
# rows and leave nothing behind; the unmodified repro from ../shared/repro too.
. "$(dirname "$0")/../lib.sh"

loads() { # label file n
	local label=$1 f=$2 n=$3 okc=0 rows= r
	for i in $(seq "$n"); do
		rm -f "$TMP/p.db"
		timeout -k 5 60 "$TRAX" load "$f" -o "$TMP/p.db" >/dev/null 2>"$TMP/err" || continue
		r=$(q "$TMP/p.db" "SELECT count(*) FROM sched_switch")
		[ -z "$rows" ] && rows=$r
		[ "$r" = "$rows" ] && okc=$((okc + 1))
	done
	is "$okc" "$n" "$label: $n consecutive loads finish, each with the same $rows switches"
}

loads "demo.dat" "$TOP/tests/fixtures/demo.dat" 25
loads "multi.dat" "$TOP/tests/fixtures/multi.dat" 25
r=$SHARED/repro/dat-917b03a02d.dat
if [ -f "$r" ]; then
	loads "repro dat-917b03a02d.dat" "$r" 25
else
	skip "repro dat-917b03a02d.dat" "$r missing"
fi
is "$(find "$TMP" -name '*.tmp-*' | wc -l)" 0 "no temporary database left behind"

# the probe is this same program run as trax-dat-probe: it still catches a fault in the
# headers (bad-input.sh damages them); given no such name it is an ordinary trax
"$TRAX" load "$TOP/tests/fixtures/demo.dat" -o "$TMP/a.db" >/dev/null 2>&1
is "$?" 0 "a load with the probe exits 0"
(exec -a trax-dat-probe "$TRAX" "$TOP/tests/fixtures/demo.dat") >/dev/null 2>&1
is "$?" 0 "trax run as trax-dat-probe FILE probes FILE and exits 0 (libtracecmd opens it)"
(exec -a trax-dat-probe "$TRAX" "$TMP/missing.dat") >/dev/null 2>&1
is "$?" 3 "trax run as trax-dat-probe on a missing file exits 3 (libtracecmd refused it)"
finish
