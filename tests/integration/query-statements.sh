#!/usr/bin/env bash
# The sql metric of a rule runs exactly one statement: a second one is refused, not ignored.
. "$(dirname "$0")/../lib.sh"

"$TRAX" load "$TOP/tests/fixtures/demo.dat" -o "$TMP/demo.db" >/dev/null 2>&1 ||
	_result 1 "load the demo trace"

# ---- sql metric: two statements are an ERROR naming the rule; a trailing comment is fine ----
cat >"$TMP/two.json" <<'JSON'
{ "rules": [
  { "id": "two", "metric": "sql", "query": "SELECT 1; SELECT 2", "expect": "== 1" },
  { "id": "one", "metric": "sql", "query": "SELECT 1; -- a comment", "expect": "== 1" }
] }
JSON
"$TRAX" check "$TMP/two.json" "$TMP/demo.db" >"$TMP/two.tap" 2>&1
is "$?" 2 "sql metric with two statements: exit status 2 (an error)"
ok "the error names the rule and says why" \
	grep -q '^not ok 1 two # error: rule "two": query has more than one statement' "$TMP/two.tap"
ok "one statement and a trailing comment: the rule passes" grep -q '^ok 2 one$' "$TMP/two.tap"
finish
