#!/usr/bin/env bash
# Bounds of the sql metric: a query past its memory (512 MiB) or time (10 s) limit is an ERROR
# (exit status 2) naming the rule, not a FAIL.
. "$(dirname "$0")/../lib.sh"

"$TRAX" load "$TOP/tests/fixtures/demo.dat" -o "$TMP/demo.db" >/dev/null 2>&1 ||
	_result 1 "load the demo trace"

# 6000 strings of 100000 digits concatenated: 600 MB > 512 MiB in one string.
cat >"$TMP/mem.json" <<'JSON'
{ "rules": [ { "id": "mem", "metric": "sql", "expect": "> 1",
  "query": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 6000) SELECT length(group_concat(printf('%0100000d', x))) FROM c" } ] }
JSON
"$TRAX" check "$TMP/mem.json" "$TMP/demo.db" >"$TMP/mem.tap" 2>&1
is "$?" 2 "sql metric past the heap limit: exit status 2"
ok "an ERROR naming the rule and the limit" \
	grep -q '^not ok 1 mem # error: rule "mem": query needs more than 512 MiB' "$TMP/mem.tap"

cat >"$TMP/time.json" <<'JSON'
{ "rules": [ { "id": "slow", "metric": "sql", "expect": "> 1",
  "query": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c" } ] }
JSON
"$TRAX" check "$TMP/time.json" "$TMP/demo.db" >"$TMP/time.tap" 2>&1
is "$?" 2 "sql metric past the time limit: exit status 2"
ok "an ERROR naming the rule and the limit" \
	grep -q '^not ok 1 slow # error: rule "slow": query stopped after 10 s' "$TMP/time.tap"
# ---- regex limits, checked before regcomp (5000 nested groups took 25 s there) ----
rex() { # name regex expected-reason
	printf '{"rules": [{"id": "%s", "metric": "runtime", "task": {"regex": "%s"}, "expect": "< 1 s"}]}' \
		"$1" "$2" >"$TMP/$1.json"
	SECONDS=0
	out=$("$TRAX" check "$TMP/$1.json" "$TMP/demo.db" 2>&1 >/dev/null)
	is "$?" 2 "$1: exit status 2"
	ok "$1: refused within 3 s" test "$SECONDS" -le 3
	is "$out" "trax check: $TMP/$1.json: rules[0] (id \"$1\").task.regex: $3" "$1: one line, file, rule"
}
deep=$(printf '%5000s' '' | tr ' ' '(')a$(printf '%5000s' '' | tr ' ' ')')
rex deep "$deep" "regex has too many characters (limit 256)"
rex groups "$(printf '(a)%.0s' $(seq 33))" "regex has too many groups (limit 32)"
# 40 escaped parentheses are no groups: accepted (40 * 4 = 160 characters).
printf '{"rules": [{"id": "esc", "metric": "runtime", "task": {"regex": "%s"}, "expect": "< 1 s"}]}' \
	"$(printf '\\\\(a%.0s' $(seq 40))" >"$TMP/esc.json"
"$TRAX" check "$TMP/esc.json" "$TMP/demo.db" >"$TMP/esc.out" 2>&1
rc=$?
ok "escaped parentheses are not counted as groups (exit $rc)" test "$rc" -ne 2
finish
