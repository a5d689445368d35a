#!/usr/bin/env bash
# Bounds of the sql metric: a query past its memory (512 MiB) or time (10 s) limit is an ERROR
# (exit status 2) naming the rule, not a FAIL.
. "$(dirname "$0")/../lib.sh"

"$TRAX" load "$TOP/tests/fixtures/demo.dat" -o "$TMP/demo.db" >/dev/null 2>&1 ||
	_result 1 "load the demo trace"

# 6e6 strings of 100 digits concatenated: 600 MB > 512 MiB in one string.
cat >"$TMP/mem.json" <<'JSON'
{ "rules": [ { "id": "mem", "metric": "sql", "expect": "> 1",
  "query": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 6000000) SELECT length(group_concat(printf('%0100d', x))) FROM c" } ] }
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
finish
