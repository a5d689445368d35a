#!/usr/bin/env bash
# trax check's output formats, validated by independent parsers: TAP by prove (Test::Harness),
# JUnit XML by xmllint against the JUnit schema, JSON by jq; -o writes only complete files.
. "$(dirname "$0")/../lib.sh"
bart=$TRACES/bart/raw_trace.dat
need_shared "$bart" "check output formats on bart/raw_trace.dat" || finish
pass=$TOP/tests/rules/bart.json
cat >"$TMP/mixed.json" <<'JSON'
{ "rules": [
  { "id": "p", "metric": "runtime", "task": "ls", "expect": "> 1 ms" },
  { "id": "f", "metric": "runtime", "task": "ls", "expect": "> 1 s" },
  { "id": "s", "metric": "thermal_residency", "zone": "z", "range": [0, 1], "expect": "> 1 %" },
  { "id": "m", "metric": "runtime", "task": "trace-cmd", "expect": "> 0 ns" },
  { "id": "w", "metric": "runtime", "task": "ls", "expect": "< 1 us", "severity": "warn" },
  { "id": "x", "metric": "runtime", "task": "ls", "expect": "< 1 us", "xfail": true }
] }
JSON

# Results: one per rule, and rule m one per thread ever named trace-cmd (trace-cmd report's
# sched_switch fields: pids 4728..4734, 4734 before it execs ls): 5 + 7 = 12.
ntc=$(trace-cmd report -R "$bart" 2>/dev/null |
	grep -oE '(prev|next)_comm=trace-cmd (prev|next)_pid=[0-9]+' | sed 's/.*=//' | sort -u |
	wc -l)
nres=$((5 + ntc))

# TAP: prove parses it; all-pass rules give a passing harness, a failing rule a failing one.
"$TRAX" check "$pass" "$bart" --format tap >"$TMP/pass.tap"
ok "prove accepts the TAP of passing rules" prove --exec cat "$TMP/pass.tap"
"$TRAX" check "$TMP/mixed.json" "$bart" --format tap >"$TMP/mixed.tap"
is "$?" 1 "mixed rules: exit status 1"
prove --exec cat "$TMP/mixed.tap" >"$TMP/prove.out" 2>&1
is "$?" 1 "prove reports the failing rule as a failure"
ok "prove found no parse errors" bash -c "! grep -qi 'parse error' '$TMP/prove.out'"
ok "TAP 13 header and plan (1..$nres)" \
	bash -c "head -2 '$TMP/mixed.tap' | tr '\n' '|' | grep -qx 'TAP version 13|1..$nres|'"
ok "one result per matching task: m[trace-cmd:4729]" grep -q '^ok [0-9]* m\[trace-cmd:4729\]$' "$TMP/mixed.tap"
# the window: the trace's first and last records (trace-cmd report -t: 106439.675570920 and
# 106439.679363540), 0.00379262 s apart
ok "diagnostic with value, threshold and window" \
	grep -q '^# f: runtime 0.00349414 s (expect > 1 s) in \[0.000000, 0.003793\] s$' "$TMP/mixed.tap"

# JUnit: validates against the schema; counts match.
"$TRAX" check "$TMP/mixed.json" "$bart" --format junit -o "$TMP/out.xml"
ok "JUnit output validates against the JUnit schema" \
	xmllint --noout --schema "$TOP/tests/fixtures/junit.xsd" "$TMP/out.xml"
is "$(xmllint --xpath 'count(//testcase/failure)' "$TMP/out.xml")" 2 \
	"JUnit: two failures (f; and trace-cmd:4731, whose only slice is cut by CPU 1's first record)"
is "$(xmllint --xpath 'count(//testcase/skipped)' "$TMP/out.xml")" 1 "JUnit: one skipped"
is "$(xmllint --xpath 'string(//testsuites/@tests)' "$TMP/out.xml")" "$nres" "JUnit: $nres tests"

# JSON: parses; every result carries its value; totals agree with the results.
"$TRAX" check "$TMP/mixed.json" "$bart" --format json -o "$TMP/out.json"
ok "JSON parses" jq -e . "$TMP/out.json"
is "$(jq '[.results[] | select(.verdict != "skip" and .value == null)] | length' "$TMP/out.json")" 0 \
	"every evaluated result has a value"
is "$(jq -r '.totals | "\(.pass) \(.fail) \(.warn) \(.xfail) \(.skip) \(.error)"' "$TMP/out.json")" \
	"$(jq -r '[.results[]] | "\(map(select(.verdict=="pass"))|length) \(map(select(.verdict=="fail" and .severity=="error"))|length) \(map(select(.verdict=="fail" and .severity=="warn"))|length) \(map(select(.verdict=="xfail"))|length) \(map(select(.verdict=="skip"))|length) \(map(select(.verdict=="error"))|length)"' "$TMP/out.json")" \
	"JSON totals agree with its results"
is "$(jq -r '.results[] | select(.name == "p") | .value' "$TMP/out.json")" 3494140 \
	"ls runtime with clipped edges: 3494140 ns (3473720 complete + 20420 clipped at CPU 2's start)"

# Text: aligned, one line per result plus the totals.
"$TRAX" check "$TMP/mixed.json" "$bart" --format text >"$TMP/out.txt"
ok "text names each verdict" grep -q '^  FAIL   f ' "$TMP/out.txt"

# Given a trace, check loads only the events its rules need (a private cache folder here).
TRAX_CACHE_DIR=$TMP/cache "$TRAX" check "$pass" "$bart" --format tap >/dev/null
cached=$(ls "$TMP"/cache/*.db 2>/dev/null | head -1)
events=$(q "$cached" "SELECT value FROM meta WHERE key = 'events'" | tr -d '"')
case ",$events," in *,sched_switch,*) _result 0 "the cached load includes sched_switch" ;;
*) _result 1 "the cached load includes sched_switch" "events: $events" ;; esac
is "$(q "$cached" "SELECT count(*) FROM event_type WHERE name = 'bprint' AND count IS NULL")" 1 \
	"bprint, which no rule reads, is present but not loaded"

# -o is atomic: an input error leaves no file.
"$TRAX" check "$TMP/mixed.json" "$TMP/missing.dat" -o "$TMP/none.json" 2>/dev/null
is "$?" 2 "missing trace: exit status 2"
ok "no output file after an input error" test ! -e "$TMP/none.json"
finish
