#!/usr/bin/env bash
# tests/integration/load-faults.sh: a fault inside libtraceevent while iterating a damaged
# trace.dat's records (kbuffer trusts the ring-buffer page headers) ends the load with one
# line naming the file and where it was reading, exit 2, and nothing left behind.
. "$(dirname "$0")/../lib.sh"

check_fault() { # label file
	local label=$1 f=$2
	rm -rf "$TMP/out" && mkdir -p "$TMP/out"
	timeout -k 5 60 "$TRAX" load "$f" -o "$TMP/out/x.db" >"$TMP/stdout" 2>"$TMP/err"
	is "$?" 2 "$label: exit 2"
	is "$(wc -l <"$TMP/err")" 1 "$label: one line on stderr"
	grep -qE "^trax load: $f: corrupt trace data: libtraceevent faults \(Segmentation fault\) reading the ring-buffer pages after byte [0-9]+ \(CPU [0-9]+'s last good record\)$" "$TMP/err"
	_result $? "$label: the line names the file, the fault and where" "$(cat "$TMP/err")"
	is "$(ls -A "$TMP/out" | wc -l)" 0 "$label: no database, no temporary file"
}

# sched-v6.dat with 3 bytes inserted inside CPU 0's data (byte 45105): the pages after
# it are shifted and a page header sends kbuffer outside the page
f=$TOP/tests/fixtures/sched-v6.dat
{ head -c 45105 "$f"; printf 'abc'; tail -c +45106 "$f"; } >"$TMP/ins3.dat"
check_fault "sched-v6.dat + 3 bytes" "$TMP/ins3.dat"
cmp -s <(head -c 45105 "$f") <(head -c 45105 "$TMP/ins3.dat")
_result $? "the input is untouched up to the insertion (no input is rewritten)"

r=$SHARED/repro/dat-81643c00de.dat
if [ -f "$r" ]; then
	sum=$(md5sum <"$r")
	check_fault "repro dat-81643c00de.dat" "$r"
	is "$(md5sum <"$r")" "$sum" "repro dat-81643c00de.dat: the input is unchanged"
else
	skip "repro dat-81643c00de.dat" "$r missing"
fi

# the same through the cache of trax check and trax info
printf '{"rules": [{"id": "r", "metric": "runtime", "task": 0, "expect": ">= 0 s"}]}\n' >"$TMP/r.json"
"$TRAX" check "$TMP/r.json" "$TMP/ins3.dat" >/dev/null 2>"$TMP/err"
is "$?" 2 "trax check on it: exit 2"
grep -q "corrupt trace data: libtraceevent faults" "$TMP/err"
_result $? "trax check on it: says why" "$(cat "$TMP/err")"
"$TRAX" info "$TMP/ins3.dat" >/dev/null 2>"$TMP/err"
is "$?" 2 "trax info on it: exit 2"
finish
