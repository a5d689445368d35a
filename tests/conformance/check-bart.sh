#!/usr/bin/env bash
# BART's own SchedAssert expectations on bart/raw_trace.dat, as trax rules (tests/rules/bart.json).
# Expected values are BART's test constants (ARM-software/bart tests/test_sched_assert.py), with
# the topology little=[0,3,4,5], big=[1,2] and partial slices dropped, as BART does.
. "$(dirname "$0")/../lib.sh"
f=$TRACES/bart/raw_trace.dat
need_shared "$f" "BART SchedAssert conformance" || finish

"$TRAX" check "$TOP/tests/rules/bart.json" "$f" --format json -o "$TMP/out.json"
is "$?" 0 "every BART expectation holds (exit status 0)"
for id in ls-runtime ls-runtime-w1 ls-runtime-w2 ls-runtime-w3 ls-on-little ls-not-on-big \
	ls-first-cpu ls-last-cpu ls-by-pid; do
	v=$(jq -r --arg id "$id" '.results[] | select(.name == $id) | .verdict' "$TMP/out.json")
	is "$v" pass "$id passes"
done
# The values themselves, to the nanosecond where BART gives microseconds.
v=$(jq -r '.results[] | select(.name == "ls-runtime-w1") | .value' "$TMP/out.json")
near "$v" 125000 1000 "runtime of ls in [106439.678991, 106439.679116] is 0.000125 s"
v=$(jq -r '.results[] | select(.name == "ls-runtime") | .value' "$TMP/out.json")
near "$v" 3474000 1000 "runtime of ls is 0.003474 s"
v=$(jq -r '.results[] | select(.name == "ls-first-cpu") | .value' "$TMP/out.json")
is "$v" 5 "first_cpu of ls is 5"
finish
