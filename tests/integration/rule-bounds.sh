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
ok "an ERROR naming the rules file, the rule and the limit" \
	grep -qF "not ok 1 mem # error: $TMP/mem.json: rule \"mem\": query needs more than 512 MiB" "$TMP/mem.tap"

cat >"$TMP/time.json" <<'JSON'
{ "rules": [ { "id": "slow", "metric": "sql", "expect": "> 1",
  "query": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c" } ] }
JSON
"$TRAX" check "$TMP/time.json" "$TMP/demo.db" >"$TMP/time.tap" 2>&1
is "$?" 2 "sql metric past the time limit: exit status 2"
ok "an ERROR naming the rules file, the rule and the limit" \
	grep -qF "not ok 1 slow # error: $TMP/time.json: rule \"slow\": query stopped after 10 s" "$TMP/time.tap"
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
rex deep "$deep" "regex of more than 256 characters"
rex groups "$(printf '(a)%.0s' $(seq 33))" "regex has more than 32 groups"
# (a{100}){100} is 10000 copies of a; {,40} is {0,40} (glibc), so 40 * 40 = 1600 > 1024
rex repeat "(a{100}){100}" "regex repeats more than 1024 times (the product of its {m,n} bounds)"
rex repeat2 "x{,40}y{2,40}" "regex repeats more than 1024 times (the product of its {m,n} bounds)"
# 32 groups and bounds of product 1000 are within the limits: the rule runs (no error)
printf '{"rules": [{"id": "fits", "metric": "runtime", "task": {"regex": "%s"}, "expect": "< 1 s"}]}' \
	"$(printf '(s)%.0s' $(seq 31))(m{10}){10}a{,10}" >"$TMP/fits.json"
"$TRAX" check "$TMP/fits.json" "$TMP/demo.db" >"$TMP/fits.out" 2>&1
rc=$?
ok "32 groups, bounds of product 1000: accepted (exit $rc)" test "$rc" -ne 2

# ---- globs: SQLite's GLOB gives up on long patterns; refused first, naming file and rule ----
long=$(printf '%300s' '' | tr ' ' '[')
for key in task task.comm where.comm heap; do
	case $key in
	task) body="\"metric\": \"activations\", \"task\": \"$long\"" ;;
	task.comm) body="\"metric\": \"activations\", \"task\": {\"comm\": \"$long\"}" ;;
	where.comm) body="\"metric\": \"kills\", \"where\": {\"comm\": \"$long\"}" ;;
	heap) body="\"metric\": \"alloc_count\", \"heap\": \"$long\"" ;;
	esac
	printf '{"rules": [{"id": "g", %s, "expect": "< 1"}]}' "$body" >"$TMP/glob.json"
	out=$("$TRAX" check "$TMP/glob.json" "$TMP/demo.db" 2>&1 >/dev/null)
	is "$?" 2 "a glob of 300 characters in $key: exit status 2"
	is "$out" "trax check: $TMP/glob.json: rules[0] (id \"g\").$key: glob of 300 characters (limit 256)" \
		"a glob of 300 characters in $key: one line naming file, rule and key"
done

# ---- the reproducers of ../shared/repro: quick, one line, file and rule named ----
for f in json-98e28ff6b3.json hand-regex-5000-groups.json; do
	r=$SHARED/repro/$f
	need_shared "$r" "repro $f" || continue
	SECONDS=0
	out=$("$TRAX" check "$r" "$TMP/demo.db" 2>&1 >/dev/null)
	rc=$?
	is "$rc" 2 "repro $f: exit status 2"
	ok "repro $f: within 3 s" test "$SECONDS" -le 3
	is "$(printf '%s\n' "$out" | wc -l)" 1 "repro $f: one line"
	ok "repro $f: names the file and a rule id, not SQLite's message" \
		sh -c 'printf "%s\n" "$1" | grep -q "^trax check: $2: rules\[[0-9]*\] (id \"" &&
		! printf "%s\n" "$1" | grep -q "pattern too complex"' - "$out" "$r"
done
# 40 escaped parentheses are no groups: accepted (40 * 4 = 160 characters).
printf '{"rules": [{"id": "esc", "metric": "runtime", "task": {"regex": "%s"}, "expect": "< 1 s"}]}' \
	"$(printf '\\\\(a%.0s' $(seq 40))" >"$TMP/esc.json"
"$TRAX" check "$TMP/esc.json" "$TMP/demo.db" >"$TMP/esc.out" 2>&1
rc=$?
ok "escaped parentheses are not counted as groups (exit $rc)" test "$rc" -ne 2
finish
