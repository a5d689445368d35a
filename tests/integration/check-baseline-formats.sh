#!/usr/bin/env bash
# trax check --baseline: a result that regressed fails in every output format, and the counts
# of every format agree with the exit status.
#
# On bart/raw_trace.dat, whose task ls (pid 4734) runs 3473720 ns with partial slices dropped
# (BART's SchedAssert: 3.474 ms; tests/rules/bart.json), against baselines written by hand:
# 3 ms for ls's runtime is +0.47372 ms, +15.8 % (473720 / 3000000), beyond max_increase 10 %
# (0.3 ms): regressed, though 3.47 ms meets "< 10 ms". 3.2 ms is +8.55 %: within, not regressed.
. "$(dirname "$0")/../lib.sh"
bart=$TRACES/bart/raw_trace.dat
need_shared "$bart" "check --baseline output formats on bart/raw_trace.dat" || finish

cat >"$TMP/rules.json" <<'JSON'
{ "topology": { "little": [0, 3, 4, 5], "big": [1, 2] },
  "rules": [
    { "id": "ls-runtime", "metric": "runtime", "task": "ls", "edges": "drop",
      "expect": "< 10 ms", "regression": { "max_increase": "10 %" } },
    { "id": "ls-on-little", "metric": "residency", "task": "ls", "cpus": "little",
      "edges": "drop", "expect": "== 100 %", "regression": { "max_decrease": "1 pp" } },
    { "id": "ls-first-cpu", "metric": "first_cpu", "task": "ls", "edges": "drop",
      "expect": "== 5" },
    { "id": "ls-runtime-big", "metric": "runtime", "task": "ls", "edges": "drop",
      "expect": "> 1 s" },
    { "id": "ls-runtime-warn", "metric": "runtime", "task": "ls", "edges": "drop",
      "expect": "< 10 ms", "severity": "warn", "regression": { "max_increase": "10 %" } }
  ] }
JSON
base() { # file ls-runtime-baseline-ns
	cat >"$1" <<JSON
{ "trax_baseline": 1,
  "traces": [ { "name": "raw_trace.dat" } ],
  "results": [
    { "trace": 0, "key": "ls-runtime[ls]", "rule": "ls-runtime", "verdict": "pass", "value": $2 },
    { "trace": 0, "key": "ls-on-little[ls]", "rule": "ls-on-little", "verdict": "pass",
      "value": 100 },
    { "trace": 0, "key": "ls-first-cpu[ls]", "rule": "ls-first-cpu", "verdict": "pass",
      "value": 5 },
    { "trace": 0, "key": "ls-runtime-big[ls]", "rule": "ls-runtime-big", "verdict": "fail",
      "value": 3473720 },
    { "trace": 0, "key": "ls-runtime-warn[ls]", "rule": "ls-runtime-warn", "verdict": "pass",
      "value": $2 }
  ] }
JSON
}
base "$TMP/base.json" 3000000
base "$TMP/near.json" 3200000
check() { # format out [baseline]
	"$TRAX" check "$TMP/rules.json" "$bart" --baseline "${3:-$TMP/base.json}" --format "$1" \
		-o "$2" 2>"$2.err"
}
# What every format must say, by hand: ls-runtime fails (regressed), ls-runtime-big fails (its
# threshold: 3.47 ms is not > 1 s; the same as in the baseline), ls-runtime-warn warns (a
# regression of a warn rule), the other two pass: 2 passed, 2 failed, 1 warned; exit 1.
why='3 ms -> 3.47372 ms (+0.47372 ms, +15.8 % rel.): beyond max_increase 10 %'

# text
check text "$TMP/out.txt"
is "$?" 1 "text: exit status 1"
is "$(awk '$2 == "ls-runtime" { print $1 }' "$TMP/out.txt")" FAIL \
	"text: the regressed rule's verdict column says FAIL"
ok "text: its line gives the baseline value, the value now and the bound" \
	grep -qF "  regressed from the baseline: $why" "$TMP/out.txt"
is "$(awk '$2 == "ls-runtime-warn" { print $1 }' "$TMP/out.txt")" WARN \
	"text: a warn rule's regression says WARN"
is "$(awk '$2 ~ /^ls-(on-little|first-cpu)$/ { print $1 }' "$TMP/out.txt" | sort -u)" PASS \
	"text: the results that did not regress pass"
is "$(tail -1 "$TMP/out.txt")" \
	"2 passed, 2 failed, 1 warned, 0 skipped, 0 errors, 0 xfail, 0 xpass" \
	"text: the summary counts the regression as a failure"

# TAP
check tap "$TMP/out.tap"
is "$?" 1 "TAP: exit status 1"
ok "TAP: the regressed rule is 'not ok'" grep -qx 'not ok 1 ls-runtime' "$TMP/out.tap"
ok "TAP: its diagnostic gives the baseline value, the value now and the bound" \
	grep -qxF "# ls-runtime: baseline: regressed: $why" "$TMP/out.tap"
ok "TAP: the warn rule's regression is a TODO" \
	grep -qxF "not ok 5 ls-runtime-warn # TODO warn: regressed from the baseline: $why" \
	"$TMP/out.tap"
is "$(grep -c '^ok ' "$TMP/out.tap")" 2 "TAP: two 'ok' lines"
is "$(grep '^# Totals:' "$TMP/out.tap")" \
	"# Totals: pass:2 fail:3 xfail:0 xpass:0 skip:0 error:0" \
	"TAP: Totals count the regression as a failure (fail includes the TODO warning)"
if command -v prove >/dev/null; then
	prove --exec cat "$TMP/out.tap" >"$TMP/prove.out" 2>&1
	is "$?" 1 "TAP: prove (Test::Harness) fails it"
	ok "TAP: prove counts 2 failed tests" grep -q 'Failed 2/5 subtests' "$TMP/prove.out"
else
	skip "TAP: prove fails it" "prove absent (perl)"
fi

# JUnit
check junit "$TMP/out.xml"
is "$?" 1 "JUnit: exit status 1"
if command -v xmllint >/dev/null; then
	x() { xmllint --xpath "$1" "$TMP/out.xml"; }
	ok "JUnit: validates against the JUnit schema" \
		xmllint --noout --schema "$TOP/tests/fixtures/junit.xsd" "$TMP/out.xml"
	is "$(x 'string(/testsuites/@failures)') $(x 'string(//testsuite/@failures)')" "2 2" \
		"JUnit: 2 failures in the totals of testsuites and testsuite"
	is "$(x 'count(//testcase/failure)')" 2 "JUnit: 2 testcases with a <failure>"
	is "$(x 'string(//testcase[@name="ls-runtime"]/failure/@type)')" regression \
		"JUnit: the regressed rule is a failure of type regression"
	is "$(x 'string(//testcase[@name="ls-runtime"]/failure/@message)')" \
		"regressed from the baseline: $why" "JUnit: its message gives the values and the bound"
	is "$(x 'string(//testcase[@name="ls-runtime-big"]/failure/@type)')" fail \
		"JUnit: the rule that fails its threshold is of type fail"
	is "$(x 'count(//testcase[@name="ls-runtime-warn"]/failure)')" 0 \
		"JUnit: a warn rule's regression is no failure"
else
	skip "JUnit output" "xmllint absent (libxml2-utils)"
fi

# JSON
check json "$TMP/out.json"
is "$?" 1 "JSON: exit status 1"
if command -v jq >/dev/null; then
	j() { jq -r "$@" "$TMP/out.json"; }
	is "$(j '.results[] | select(.rule == "ls-runtime") |
		"\(.verdict) \(.rule_verdict) \(.baseline.comparison) \(.baseline.value) \(.value)"')" \
		"fail pass regressed 3000000 3473720" \
		"JSON: the regressed rule's verdict is fail (its rule's own: pass), with both values"
	is "$(j '.results[] | select(.rule == "ls-runtime") | .reason')" \
		"regressed from the baseline: $why" "JSON: its reason gives the values and the bound"
	is "$(j '.results[] | select(.rule == "ls-runtime-warn") | "\(.verdict) \(.severity)"')" \
		"fail warn" "JSON: the warn rule's regression is a warning"
	is "$(j '.totals | "\(.pass) \(.fail) \(.warn) \(.xfail) \(.skip) \(.error)"')" \
		"2 2 1 0 0 0" "JSON: totals count the regression as a failure"
	is "$(j '[.results[]] | "\(map(select(.verdict=="pass"))|length) \(map(select(.verdict=="fail" and .severity=="error"))|length) \(map(select(.verdict=="fail" and .severity=="warn"))|length)"')" \
		"2 2 1" "JSON: the results' verdicts agree with the totals"
	is "$(j '"\(.exit_status) \(.baseline.regressed) \(.baseline.regressed_warn)"')" "1 1 1" \
		"JSON: exit_status 1, one regression and one of a warn rule"
else
	skip "JSON output" "jq absent"
fi

# A rolling baseline saved from this run keeps the rules' own verdicts: ls-runtime passed.
"$TRAX" check "$TMP/rules.json" "$bart" --baseline "$TMP/base.json" \
	--save-baseline "$TMP/saved.json" --format tap >/dev/null 2>&1
if command -v jq >/dev/null; then
	is "$(jq -r '.results[] | select(.rule == "ls-runtime") | .verdict' "$TMP/saved.json")" \
		pass "--save-baseline with --baseline stores the rule's verdict, not the regression"
fi

# Within the bound (3.2 ms: +8.55 % <= 10 %): no regression, ls-runtime passes everywhere; the
# threshold failure of ls-runtime-big still fails the check.
check text "$TMP/near.txt" "$TMP/near.json"
is "$?" 1 "within the bound: exit 1 for the threshold failure only"
is "$(awk '$2 == "ls-runtime" || $2 == "ls-runtime-warn" { print $1 }' "$TMP/near.txt" |
	tr '\n' ' ')" "PASS PASS " "within the bound: text PASS"
is "$(tail -1 "$TMP/near.txt")" \
	"4 passed, 1 failed, 0 warned, 0 skipped, 0 errors, 0 xfail, 0 xpass" \
	"within the bound: text summary"
check tap "$TMP/near.tap" "$TMP/near.json"
ok "within the bound: TAP ok" grep -qx 'ok 1 ls-runtime' "$TMP/near.tap"
finish
