#!/usr/bin/env bash
# tests/integration/query-statements.sh: what SQL trax runs (issue 11 items 7 and 8).
# trax query runs every statement of its text, in order, and refuses before running any one
# that writes, ATTACH/DETACH and PRAGMAs that set a value; it stops at --timeout and at its
# heap limit with one line and exit 2. The sql metric of a rule runs exactly one statement: a
# second one is refused, not ignored.
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
ok "the error names the rules file and the rule and says why" \
	grep -qF "not ok 1 two # error: $TMP/two.json: rule \"two\": query has more than one statement" "$TMP/two.tap"
ok "one statement and a trailing comment: the rule passes" grep -q '^ok 2 one$' "$TMP/two.tap"
# ---- trax query: every statement, in order; the expected output is worked by hand ----
db=$TMP/demo.db
out=$("$TRAX" query --format csv "$db" "SELECT 1 AS a; SELECT 2 AS b, 'x' AS c" 2>&1)
is "$out" "$(printf 'a\r\n1\r\n\r\nb,c\r\n2,x\r')" "two SELECTs: both result sets, in order, a blank line between"
out=$("$TRAX" query --format csv "$db" "SELECT 7 AS n; -- trailing comment" 2>&1)
is "$out" "$(printf 'n\r\n7\r')" "a trailing comment is no statement"
out=$("$TRAX" query --format json "$db" "SELECT 1 AS a; SELECT 2 AS b" 2>&1)
is "$out" "$(printf '[\n {"a": 1}\n]\n\n[\n {"b": 2}\n]')" "json: one array per statement"

before=$("$TRAX" query --format csv "$db" "SELECT count(*) FROM meta")
refused() { # desc sql what
	local out rc
	out=$("$TRAX" query "$db" "$2" 2>&1 >"$TMP/refused.out")
	rc=$?
	is "$rc" 2 "$1: exit status 2"
	is "$(printf '%s\n' "$out" | wc -l)" 1 "$1: one line"
	ok "$1: names the database and says what was refused ($out)" \
		sh -c 'printf "%s\n" "$1" | grep -q "^trax query: $2: .*refused: $3"' - "$out" "$db" "$3"
	is "$(wc -c <"$TMP/refused.out")" 0 "$1: nothing runs (no output)"
}
refused "SELECT then DELETE" "SELECT 1; DELETE FROM meta" "only read-only"
refused "PRAGMA query_only=0" "PRAGMA query_only=0" "PRAGMA query_only=0"
refused "PRAGMA writable_schema=1" "SELECT 1; PRAGMA writable_schema=1" "PRAGMA writable_schema=1"
refused "ATTACH" "ATTACH '$TMP/other.db' AS o" "ATTACH"
refused "DETACH" "DETACH main" "DETACH"
ok "ATTACH made no file" test ! -e "$TMP/other.db"
is "$("$TRAX" query --format csv "$db" "SELECT count(*) FROM meta")" "$before" "meta unchanged"
out=$("$TRAX" query --format csv "$db" "PRAGMA table_info(meta)" 2>&1)
is "$(printf '%s\n' "$out" | sed -n 1p)" "$(printf 'cid,name,type,notnull,dflt_value,pk\r')" \
	"PRAGMA table_info (reads) is allowed"
ok "PRAGMA table_info lists meta's key column" sh -c 'printf "%s\n" "$1" | grep -q "^0,key,"' - "$out"

# ---- trax query: bounded in time and memory ----
SECONDS=0
out=$("$TRAX" query --timeout 1 "$db" \
	"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c" 2>&1)
rc=$?
is "$rc" 2 "an endless query with --timeout 1: exit status 2"
ok "it stops within 5 s ($SECONDS s)" test "$SECONDS" -le 5
ok "one line naming the database and the limit ($out)" \
	sh -c 'printf "%s\n" "$1" | grep -q "^trax query: $2: WITH RECURSIVE.*: stopped after 1 s (--timeout)$"' \
	- "$out" "$db"
out=$("$TRAX" query --timeout 1x "$db" "SELECT 1" 2>&1)
is "$?" 2 "--timeout 1x: a usage error"
# 10 000 strings of 100 000 digits concatenated: about 1 GB, over the 512 MiB heap limit (few
# rows: quick under the sanitizers too)
out=$("$TRAX" query --timeout 0 "$db" "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1
	FROM c LIMIT 10000) SELECT length(group_concat(printf('%0100000d', x))) FROM c" 2>&1)
rc=$?
is "$rc" 2 "a query needing 1 GB: exit status 2"
ok "one line naming the database and the heap limit ($out)" \
	sh -c 'printf "%s\n" "$1" | grep -q "^trax query: $2: .*: needs more than 512 MiB of memory$"' \
	- "$out" "$db"
# the same shape at 1000 strings (100 MB) fits: the limit is not a refusal of group_concat
out=$("$TRAX" query --format csv "$db" "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1
	FROM c LIMIT 1000) SELECT length(group_concat(printf('%0100000d', x), '')) AS n FROM c" 2>&1)
is "$out" "$(printf 'n\r\n100000000\r')" \
	"100 MB fits: 1000 times 100 000 digits"
finish
