#!/usr/bin/env bash
# The regression gate end to end: trax check --save-baseline/--baseline and trax gate.
#
# Without root: the baseline file and the tolerance logic on the shipped demo trace, against
# baselines edited by hand (jq), and usage errors. As root with tracefs and rt-app: a workload
# recorded with trax collect (tests/gate/duty20.json: dut runs 2 ms every 10 ms, pinned,
# SCHED_FIFO) and a deliberately changed one (duty40.json: 4 ms every 10 ms). By design duty
# cycle and runtime double; period, activations and placement do not: exactly those two
# metrics must regress, identical runs must not change, 5 runs per side must find the shift
# by the statistical tests (also with every "regression" bound removed), and 3 runs per side
# must say "insufficient samples".
. "$(dirname "$0")/../lib.sh"
G=$TOP/tests/gate
fx=$TOP/tests/fixtures
demo=$fx/demo.dat

jqr() { jq -r "$@"; }
cmp_of() { jqr --arg n "$2" '.results[] | select(.name == $n) | .baseline.comparison' "$1"; }
names_where() { # json comparison -> sorted names, space separated
	jqr --arg c "$2" '[.results[] | select(.baseline.comparison == $c) | .rule] | sort | join(" ")' "$1"
}
gate_names() { # json verdict -> sorted rule ids with that verdict
	jqr --arg v "$2" '[.results[] | select(.verdict == $v) | .rule] | sort | join(" ")' "$1"
}

# ---- baseline files on the demo trace (no root) ----
cat >"$TMP/demo-rules.json" <<'JSON'
{ "windows": { "phase1": { "from_marker": "phase1 start", "to_marker": "phase1 end" } },
  "rules": [
    { "id": "small-duty", "metric": "duty_cycle", "task": "small", "window": "phase1",
      "expect": "25 % +- 1.5 %", "regression": { "max_increase": "10 %" } },
    { "id": "big-period", "metric": "period", "task": "big", "window": "phase1",
      "expect": "10 ms +- 0.5 ms", "regression": { "max_decrease": "1 ms" } },
    { "id": "small-acts", "metric": "activations", "task": "small", "window": "phase1",
      "expect": "> 10", "regression": { "max_decrease": 2 } },
    { "id": "mover-cpu0", "metric": "residency", "task": "mover", "cpus": [0], "window": "phase1",
      "expect": "== 100 %", "regression": { "max_decrease": "1 pp" } },
    { "id": "big-duty-tight", "metric": "duty_cycle", "task": "big", "window": "phase1",
      "expect": "< 50 %" },
    { "id": "cpu1-busy", "metric": "busy", "cpus": [1], "window": "phase1", "expect": ">= 60 %" }
  ] }
JSON
"$TRAX" check "$TMP/demo-rules.json" "$demo" --save-baseline "$TMP/demo-base.json" \
	--format json -o "$TMP/demo.json"
is "$?" 1 "demo: check exits 1 (big-duty-tight fails: big runs 60 %) and saves a baseline"
is "$(jqr .trax_baseline "$TMP/demo-base.json")" 1 "baseline: format version 1"
is "$(jqr '.traces[0].sha256' "$TMP/demo-base.json")" "$(sha256sum <"$demo" | cut -d' ' -f1)" \
	"baseline: the trace's sha256 (as sha256sum computes it)"
is "$(jqr '.traces[0].size' "$TMP/demo-base.json")" "$(stat -c %s "$demo")" "baseline: its size"
is "$(jqr '.rules.sha256' "$TMP/demo-base.json")" \
	"$(sha256sum <"$TMP/demo-rules.json" | cut -d' ' -f1)" "baseline: the rules' sha256"
is "$(jqr '[.results[] | .value] | map(tostring) | join(" ")' "$TMP/demo-base.json")" \
	"$(jqr '[.results[] | .value] | map(tostring) | join(" ")' "$TMP/demo.json")" \
	"baseline: every value of the run, exactly as check reports it"
is "$(jqr '[.results[].key] | join(" ")' "$TMP/demo-base.json")" \
	"small-duty[small] big-period[big] small-acts[small] mover-cpu0[mover] big-duty-tight[big] cpu1-busy" \
	"baseline: keys are rule id and task comm (no pid)"

"$TRAX" check "$TMP/demo-rules.json" "$demo" --baseline "$TMP/demo-base.json" --format json \
	-o "$TMP/self.json"
is "$?" 1 "demo against its own baseline: exit 1 only for the failing rule"
is "$(jqr '.baseline | "\(.regressed) \(.improved) \(.same) \(.new)"' "$TMP/self.json")" \
	"0 0 6 0" "demo against its own baseline: everything the same"

# Edit the baseline by hand: small-duty was 20 % lower (now +25 % > max_increase 10 %:
# regressed); big-period was 2 ms longer (now 2 ms shorter > max_decrease 1 ms: regressed);
# small-acts had 5 fewer (up 5 with only max_decrease 2: improved); big-duty-tight passed
# (fails now: regressed by verdict); cpu1-busy failed (passes now: improved); mover-cpu0
# untouched (same); plus the entry of a task that is gone (missing) and one of a rule that
# is no longer in the file (ignored).
jq '(.results[] | select(.rule == "small-duty") | .value) |= . * 0.8
  | (.results[] | select(.rule == "big-period") | .value) |= . + 2000000
  | (.results[] | select(.rule == "small-acts") | .value) |= . - 5
  | (.results[] | select(.rule == "big-duty-tight") | .verdict) |= "pass"
  | (.results[] | select(.rule == "cpu1-busy") | .verdict) |= "fail"
  | .results += [{"trace": 0, "key": "mover-cpu0[ghost]", "rule": "mover-cpu0",
                  "verdict": "pass", "value": 100}]
  | .results += [{"trace": 0, "key": "gone-rule", "rule": "gone-rule", "verdict": "pass",
                  "value": 1}]' "$TMP/demo-base.json" >"$TMP/edited.json"
"$TRAX" check "$TMP/demo-rules.json" "$demo" --baseline "$TMP/edited.json" --format json \
	-o "$TMP/edited-out.json"
is "$?" 1 "edited baseline: exit 1"
is "$(names_where "$TMP/edited-out.json" regressed)" "big-duty-tight big-period small-duty" \
	"edited baseline: regressed exactly where the values moved beyond the bounds or the verdict fell"
is "$(names_where "$TMP/edited-out.json" improved)" "cpu1-busy small-acts" \
	"edited baseline: improved where the value moved the good way or the verdict rose"
is "$(names_where "$TMP/edited-out.json" same)" "mover-cpu0" "edited baseline: the rest the same"
is "$(jqr '.baseline.missing | join(" ")' "$TMP/edited-out.json")" "mover-cpu0[ghost]" \
	"edited baseline: a baseline task absent now is listed; a removed rule is not"
jq 'del(.results[] | select(.rule == "small-duty"))' "$TMP/demo-base.json" >"$TMP/nosd.json"
"$TRAX" check "$TMP/demo-rules.json" "$demo" --baseline "$TMP/nosd.json" --format json -o "$TMP/nosd-out.json"
is "$(cmp_of "$TMP/nosd-out.json" small-duty) $(jqr .baseline.new "$TMP/nosd-out.json")" "new 1" \
	"a result absent from the baseline is new"
"$TRAX" check "$TMP/demo-rules.json" "$demo" --baseline "$TMP/edited.json" --format tap \
	>"$TMP/edited.tap"
grep -q '^not ok 2 big-period$' "$TMP/edited.tap"
_result $? "TAP: a passing rule that regressed is 'not ok'" "$(cat "$TMP/edited.tap")"
grep -q '^# big-period: baseline: regressed: .*-2 ms.*beyond max_decrease 1 ms$' "$TMP/edited.tap"
_result $? "TAP: the diagnostic says by how much and which bound" "$(grep big-period "$TMP/edited.tap")"
"$TRAX" check "$TMP/demo-rules.json" "$demo" --baseline "$TMP/edited.json" --format junit \
	-o "$TMP/edited.xml"
if command -v xmllint >/dev/null; then
	xmllint --noout --schema "$fx/junit.xsd" "$TMP/edited.xml" 2>"$TMP/xsd.err"
	_result $? "JUnit with a baseline validates against the JUnit schema" "$(cat "$TMP/xsd.err")"
	is "$(xmllint --xpath 'count(//failure[@type="regression"])' "$TMP/edited.xml")" 2 \
		"JUnit: the two passing rules that regressed are failures of type regression"
else
	skip "JUnit with a baseline validates" "xmllint absent (libxml2-utils)"
fi

# a rule file changed since the baseline: said, and still compared by rule id
sed 's/"> 10"/"> 11"/' "$TMP/demo-rules.json" >"$TMP/demo-rules2.json"
"$TRAX" check "$TMP/demo-rules2.json" "$demo" --baseline "$TMP/demo-base.json" --format tap \
	>"$TMP/rules2.tap"
grep -q '^# baseline: the baseline was made with other rules' "$TMP/rules2.tap"
_result $? "another rule file than the baseline's is reported"

# bad baselines: exit 2, one line naming the file
printf '{"results": [' >"$TMP/trunc.json"
fails_with "truncated baseline: exit 2" 2 "$TRAX" check "$TMP/demo-rules.json" "$demo" --baseline "$TMP/trunc.json"
out=$("$TRAX" check "$TMP/demo-rules.json" "$demo" --baseline "$TMP/trunc.json" 2>&1 >/dev/null)
is "$(printf '%s\n' "$out" | wc -l) $(printf '%s' "$out" | grep -c "$TMP/trunc.json")" "1 1" \
	"truncated baseline: one line naming the file"
echo '{"trax_baseline": 7, "results": []}' >"$TMP/v7.json"
out=$("$TRAX" check "$TMP/demo-rules.json" "$demo" --baseline "$TMP/v7.json" 2>&1 >/dev/null)
is "$out" "trax check: $TMP/v7.json: baseline version 7; this trax reads version 1" \
	"a future baseline version is refused by name"
fails_with "missing baseline: exit 2" 2 "$TRAX" check "$TMP/demo-rules.json" "$demo" --baseline "$TMP/none.json"
mkdir "$TMP/ro" && chmod 555 "$TMP/ro"
if [ "$(id -u)" -ne 0 ]; then
	fails_with "unwritable --save-baseline: exit 2" 2 "$TRAX" check "$TMP/demo-rules.json" "$demo" \
		--save-baseline "$TMP/ro/b.json"
else
	skip "unwritable --save-baseline: exit 2" "root writes anywhere"
fi

# gate usage errors
fails_with "gate without --rules: exit 2" 2 "$TRAX" gate --base "$demo" --new "$demo"
fails_with "gate without --new runs: exit 2" 2 "$TRAX" gate --rules "$G/rules.json" --base "$demo"
is "$("$TRAX" gate --base "$demo" --new "$demo" --rules 2>&1)" \
	"trax gate: --rules needs a value (see 'trax gate --help')" "gate: a missing option value is named"
fails_with "gate --alpha 1.5: exit 2" 2 "$TRAX" gate --rules "$G/rules.json" --alpha 1.5 --base "$demo" --new "$demo"
fails_with "gate with an unreadable run: exit 2" 2 "$TRAX" gate --rules "$G/rules.json" --base "$demo" --new "$TMP/none.dat"

# ---- recorded workloads (root) ----
why=
if [ "$(id -u)" -ne 0 ]; then
	why="recording needs root"
elif [ ! -d /sys/kernel/tracing/events/sched/sched_switch ]; then
	why="no tracefs with sched events at /sys/kernel/tracing"
elif ! command -v rt-app >/dev/null; then
	why="rt-app is not installed"
fi
if [ -n "$why" ]; then
	for d in "baseline from a workload, candidate from the changed workload" \
		"identical runs report no change" "5 runs per side: the statistical tests" \
		"3 runs per side: insufficient samples"; do
		skip "$d" "$why"
	done
	finish
fi

# Under ASan the long part (5 runs per side) is left out: 10 captures of 1 s plus loads.
nruns=5
[ "$TRAX_SAN" = 1 ] && nruns=3
record() { # workload out
	"$TRAX" collect --no-kallsyms -w "$1" -o "$2" >"$2.out" 2>&1
}
okrec=0
for i in $(seq 1 $nruns); do
	record "$G/duty20.json" "$TMP/a$i.dat" && record "$G/duty40.json" "$TMP/b$i.dat" &&
		okrec=$((okrec + 1))
done
is "$okrec" "$nruns" "recorded $nruns runs of each workload with trax collect"
if [ "$okrec" -ne "$nruns" ]; then
	cat "$TMP"/*.dat.out | sed 's/^/# /'
	finish
fi
R=$G/rules.json

# The design, read back: 20 % and 40 % (+-3 % for the window's edges and timer slack).
"$TRAX" check "$R" "$TMP/a1.dat" --save-baseline "$TMP/a1-base.json" --format json -o "$TMP/a1.json"
is "$?" 0 "run A1 meets its rules (dut 20 % of 10 ms on CPU 0)"
near "$(jqr '.results[] | select(.rule == "dut-duty") | .value' "$TMP/a1.json")" 20 3 "A1: duty cycle 20 %"
"$TRAX" check "$R" "$TMP/b1.dat" --baseline "$TMP/a1-base.json" --format json -o "$TMP/b1.json"
is "$?" 1 "changed workload against the baseline: exit 1"
near "$(jqr '.results[] | select(.rule == "dut-duty") | .value' "$TMP/b1.json")" 40 3 "B1: duty cycle 40 %"
is "$(names_where "$TMP/b1.json" regressed)" "dut-duty dut-runtime" \
	"changed workload: regressed on exactly duty cycle and runtime"
is "$(names_where "$TMP/b1.json" same)" "dut-activations dut-on-cpu0 dut-period" \
	"changed workload: period, activations and placement the same"

"$TRAX" check "$R" "$TMP/a2.dat" --baseline "$TMP/a1-base.json" --format json -o "$TMP/a2.json"
is "$?" 0 "a second run of the same workload against the baseline: exit 0"
is "$(jqr '.baseline | "\(.regressed) \(.improved) \(.same)"' "$TMP/a2.json")" "0 0 5" \
	"identical runs report no change"

# Gate: 3 runs per side cannot decide.
"$TRAX" gate --rules "$R" --base "$TMP"/a[123].dat --new "$TMP"/b[123].dat --format json \
	-o "$TMP/g3.json"
is "$?" 4 "3 runs per side: exit 4 (nothing could be compared)"
is "$(gate_names "$TMP/g3.json" "insufficient samples")" \
	"dut-activations dut-duty dut-on-cpu0 dut-period dut-runtime" \
	"3 runs per side: every result says insufficient samples"
"$TRAX" gate --rules "$R" --base "$TMP"/a[123].dat --new "$TMP"/b[123].dat --format tap >"$TMP/g3.tap"
is "$(grep -c '^ok [0-9]* .* # SKIP insufficient samples: 3 base runs, 3 new runs' "$TMP/g3.tap")" 5 \
	"3 runs per side: TAP SKIP lines say so"

if [ "$nruns" -lt 5 ]; then
	skip "5 runs per side: the statistical tests" "left out under ASan (10 captures of 1 s and their loads)"
	finish
fi
"$TRAX" gate --rules "$R" --base "$TMP"/a?.dat --new "$TMP"/b?.dat --format json -o "$TMP/g5.json"
is "$?" 1 "5 runs per side: exit 1"
is "$(gate_names "$TMP/g5.json" regressed)" "dut-duty dut-runtime" "5 runs per side: duty cycle and runtime regressed"
is "$(gate_names "$TMP/g5.json" same)" "dut-activations dut-on-cpu0 dut-period" "5 runs per side: the rest the same"
# 20 % and 40 % never overlap: U = 25 (every new value above every old one), exact p = 2/252;
# the duty rule passes in 5 of 5 base runs and fails in 5 of 5 new ones: Fisher p = 2/252.
row() { jq --arg r "$1" '.results[] | select(.rule == $r)' "$TMP/g5.json"; }
is "$(row dut-duty | jqr '"\(.mann_whitney.u) \(.mann_whitney.method)"')" "25 exact" \
	"duty: U = 25, exact distribution"
near "$(row dut-duty | jqr .mann_whitney.p)" 0.0079365079365 1e-9 "duty: Mann-Whitney p = 2/252"
near "$(row dut-duty | jqr .fisher.p)" 0.0079365079365 1e-9 "duty: Fisher p = 2/252 (5/5 pass -> 0/5)"
near "$(row dut-runtime | jqr .mann_whitney.p)" 0.0079365079365 1e-9 "runtime: Mann-Whitney p = 2/252"
near "$(row dut-runtime | jqr .fisher.p)" 1 1e-12 "runtime: passes on both sides (Fisher p = 1)"

# Without any "regression" bound the tolerance path has nothing to go on (check --baseline
# compares verdicts only: runtime passes in both, "same"), the statistical path still finds it.
jq 'del(.rules[].regression)' "$R" >"$TMP/nobounds.json"
"$TRAX" check "$TMP/nobounds.json" "$TMP/a1.dat" --save-baseline "$TMP/nb-base.json" >/dev/null
"$TRAX" check "$TMP/nobounds.json" "$TMP/b1.dat" --baseline "$TMP/nb-base.json" --format json -o "$TMP/nb1.json"
is "$(cmp_of "$TMP/nb1.json" dut-runtime)" same "no bounds: check --baseline cannot see the runtime change"
"$TRAX" gate --rules "$TMP/nobounds.json" --base "$TMP"/a?.dat --new "$TMP"/b?.dat --format json -o "$TMP/gnb.json"
is "$?" 1 "no bounds: gate exit 1"
is "$(jqr '.results[] | select(.rule == "dut-runtime") | .verdict' "$TMP/gnb.json")" regressed \
	"no bounds: gate finds the runtime regression by the Mann-Whitney test alone"
is "$(jqr '.results[] | select(.rule == "dut-duty") | .verdict' "$TMP/gnb.json")" regressed \
	"no bounds: gate finds the duty cycle regression"

# Identical sides: the same 5 runs: no change (every pair ties: p = 1).
"$TRAX" gate --rules "$R" --base "$TMP"/a?.dat --new "$TMP"/a?.dat --format json -o "$TMP/gaa.json"
is "$?" 0 "identical sides: exit 0"
is "$(gate_names "$TMP/gaa.json" same)" "dut-activations dut-duty dut-on-cpu0 dut-period dut-runtime" \
	"identical sides: everything the same"

# The table and the JUnit form of the 5-run gate.
"$TRAX" gate --rules "$R" --base "$TMP"/a?.dat --new "$TMP"/b?.dat --format text >"$TMP/g5.txt"
head -3 "$TMP/g5.txt" | tail -1 | grep -q '^result  *old (median)  *new (median)  *delta  *p-value  *pass old -> new  *p (pass/fail)  *verdict$'
_result $? "table: result, old, new, delta, p-value, pass counts, verdict" "$(cat "$TMP/g5.txt")"
grep -q '^dut-duty\[dut\]  .* 0\.0079  *5/5 -> 0/5  *0\.0079  *regressed$' "$TMP/g5.txt"
_result $? "table: the duty row" "$(grep dut-duty "$TMP/g5.txt")"
"$TRAX" gate --rules "$R" --base "$TMP"/a?.dat --new "$TMP"/b?.dat --format junit -o "$TMP/g5.xml"
if command -v xmllint >/dev/null; then
	xmllint --noout --schema "$fx/junit.xsd" "$TMP/g5.xml" 2>"$TMP/xsd5.err"
	_result $? "gate JUnit validates against the JUnit schema" "$(cat "$TMP/xsd5.err")"
	is "$(xmllint --xpath 'count(//failure[@type="regression"])' "$TMP/g5.xml")" 2 "gate JUnit: two regressions"
else
	skip "gate JUnit validates" "xmllint absent (libxml2-utils)"
fi
finish
