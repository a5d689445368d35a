#!/usr/bin/env bash
# tests/run.sh itself: its counts of passed, failed and skipped test points for each TAP form
# (cmocka's "not ok N # SKIP name" for a skipped test, lib.sh's "ok N - desc # SKIP why", TODO,
# XFAIL, a whole-program skip, a crash), in the build under test; and a real cmocka skip.
. "$(dirname "$0")/../lib.sh"

fake=$TMP/fake
mkdir -p "$fake"
# cmocka 1.1's TAP, as it prints a failed, two skipped and an expected-to-fail test
cat >"$fake/cmocka" <<'T'
#!/bin/sh
cat <<'X'
1..6
ok 1 - test_pass
not ok 2 - test_fail
# SKIP /x absent (../shared/traces is not part of the repository)
not ok 3 # SKIP test_skipped
ok 4 # SKIP test_skipped_ok
ok 5 - test_pass_again
not ok 6 - test_todo # TODO not yet
# not ok - tests
X
exit 1
T
# the bug of issue 10: a program whose only non-pass is a cmocka skip, exiting 0
printf '#!/bin/sh\nprintf "1..2\\nok 1 - test_a\\nnot ok 2 # SKIP test_b\\n# ok - tests\\n"\n' \
	>"$fake/cmocka-skip"
chmod +x "$fake/cmocka" "$fake/cmocka-skip"
cat >"$fake/forms.sh" <<'T'
echo "ok 1 - plain"
echo "ok 2 - lower case # skip why"
echo "ok 3 - spelt out # Skipped: why"
echo "ok 4 - an escaped \# SKIP is part of the description"
echo "not ok 5 - kselftest's failure # exit=1"
echo "ok 6 - known failure # XFAIL measured 3"
echo "ok 7 selftests: trax: trax_sched.sh # SKIP"
echo "not ok 8 - failed # SKIP"
echo "not ok 9 - todo in lower case # todo later"
echo "    not ok 1 - nested TAP is a comment"
echo "1..9"
exit 1
T
printf 'echo "1..0 # SKIP no tracefs here"\nexit 4\n' >"$fake/plan-skip.sh"
printf 'echo "1..0 # SKIP no tracefs here"\nexit 1\n' >"$fake/plan-skip-rc1.sh"
printf 'echo "ok 1 - a"\nexit 3\n' >"$fake/crash.sh"
printf 'echo "ok 1 - a"\necho "Bail out! no disk"\n' >"$fake/bail.sh"
printf 'echo "ok 1 - a"\necho "ok 2 - b # SKIP c"\necho "1..2"\n' >"$fake/clean.sh"

# run the runner on the build under test; prints its output, status in $TMP/rc
runner() {
	TRAX_SHARED=${shared-} "$TOP/tests/run.sh" "$TRAX_BUILD" -- "$@" >"$TMP/out" 2>&1
	echo $? >"$TMP/rc"
	# it keeps the logs of a run with failures: ours are expected
	rm -rf "$(sed -n 's/^logs: //p' "$TMP/out")"
}
counts() { # test: "P F S" of the runner's line for that test (it starts with "BUILD: TEST ")
	awk -v l="$TRAX_BUILD: $1 " 'index($0, l) == 1 && / [0-9]+ ok +[0-9]+ failed +[0-9]+ skipped /' \
		"$TMP/out" |
		sed -E 's/.* ([0-9]+) ok +([0-9]+) failed +([0-9]+) skipped .*/\1 \2 \3/'
}
build=$TRAX_BUILD

runner "$fake/cmocka" "$fake/cmocka-skip" "$fake/forms.sh" "$fake/plan-skip.sh" \
	"$fake/plan-skip-rc1.sh" "$fake/crash.sh" "$fake/bail.sh" "$fake/clean.sh"
diag=$(cat "$TMP/out")
is "$(counts "$fake/cmocka")" "2 1 3" "cmocka: 2 passed, 1 failed, 2 skipped + 1 todo" "$diag"
is "$(counts "$fake/cmocka-skip")" "1 0 1" "cmocka's skipped test (not ok N, SKIP directive) exiting 0 is a skip, no failure"
is "$(counts "$fake/forms.sh")" "3 1 5" "TAP forms: skip in any case, escaped hash, exit=1, XFAIL, todo"
is "$(counts "$fake/plan-skip.sh")" "0 0 1" "a skipped plan (1..0, SKIP) exiting 4 (KSFT_SKIP) is one skip"
is "$(counts "$fake/plan-skip-rc1.sh")" "0 1 1" "a skipped plan (1..0, SKIP) exiting 1 is a failure"
is "$(counts "$fake/crash.sh")" "1 1 0" "non-zero exit without a 'not ok' is a failure"
is "$(counts "$fake/bail.sh")" "1 1 0" "Bail out! is a failure"
is "$(counts "$fake/clean.sh")" "1 0 1" "lib.sh's skip"
is "$(tail -1 "$TMP/out")" "9 passed, 5 failed, 12 skipped" "the total line"
is "$(cat "$TMP/rc")" 1 "the runner fails when a test failed"
is "$(sed -n 's/^failed: //p' "$TMP/out")" \
	"$(printf "$build: $fake/%s " cmocka forms.sh plan-skip-rc1.sh crash.sh bail.sh | sed 's/ $//')" \
	"the failed list names exactly the failing programs"

runner "$fake/cmocka-skip" "$fake/clean.sh" "$fake/plan-skip.sh"
is "$(tail -1 "$TMP/out")" "2 passed, 0 failed, 3 skipped" "only skips and passes: the total"
is "$(cat "$TMP/rc")" 0 "only skips and passes: the runner passes" "$(cat "$TMP/out")"

# Real cmocka skips: test-plot's three real-trace tests without ../shared (a clone without it)
if [ -x "$TRAX_BUILD/tests/test-plot" ]; then
	shared=$TMP/no-shared runner "$TRAX_BUILD/tests/test-plot"
	c=$(counts "$TRAX_BUILD/tests/test-plot")
	is "${c#* }" "0 3" "unit/test-plot without ../shared: 0 failed, 3 skipped" "$(cat "$TMP/out")"
	is "$(cat "$TMP/rc")" 0 "unit/test-plot without ../shared: the runner passes"
else
	skip "unit/test-plot without ../shared" "$TRAX_BUILD/tests/test-plot is not built"
fi
finish
