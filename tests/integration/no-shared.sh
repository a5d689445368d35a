#!/usr/bin/env bash
# A clone without ../shared (what anyone who clones the repository has): every test that reads
# the reference traces reports SKIP, not a failure, and tests/run.sh counts those skips. The
# repository's tracked files are copied to a temporary folder with no ../shared beside it, and the
# copy's runner runs, against the build under test, each test that reads ../shared: the unit test
# test-plot (a cmocka skip, "not ok N # SKIP") and the scripts (lib.sh's need_shared).
. "$(dirname "$0")/../lib.sh"

if ! git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	skip "tests without ../shared" "$TOP is not a git work tree (its tracked files are copied)"
	finish
fi
repo=$TMP/repo
mkdir -p "$repo"
# the work tree's copy of each tracked file (as a clone of it would have, uncommitted edits too)
(cd "$TOP" && git ls-files -z | tar --null -T - -cf -) | tar -C "$repo" -xf -
ok "the copy has tests/run.sh and no ../shared" test -x "$repo/tests/run.sh" -a ! -e "$repo/../shared"

# The tests that read ../shared; the two slow ones (they check the fixtures too, at length)
# are left out under ASan.
scripts=() slow=()
for t in tests/integration/*.sh tests/conformance/*.sh; do
	case "$t" in tests/integration/no-shared.sh | tests/integration/runner.sh) continue ;; esac
	grep -q 'need_shared\|\$SHARED\|\$TRACES' "$TOP/$t" || continue
	case "$TRAX_SAN:$t" in
	1:tests/integration/plot.sh | 1:tests/conformance/text-report.sh) slow+=("$t"); continue ;;
	esac
	scripts+=("$t")
done
[ ${#slow[@]} -eq 0 ] || skip "${slow[*]} without ../shared" "too slow under ASan (the plain build runs them)"
ok "the scripts that read ../shared are found (${#scripts[@]})" test $((${#scripts[@]} + ${#slow[@]})) -ge 10
unit=()
[ -x "$TRAX_BUILD/tests/test-plot" ] && unit=("$TRAX_BUILD/tests/test-plot")

# the copy has no build-fuzz/: its fuzz.sh uses this checkout's targets, briefly
(cd "$repo" && env -u TRAX_SHARED TRAX_FUZZ_BUILD="${TRAX_FUZZ_BUILD:-$TOP/build-fuzz}" \
	TRAX_FUZZ_SECONDS=2 tests/run.sh "$TRAX_BUILD" -- "${unit[@]}" "${scripts[@]}") \
	>"$TMP/out" 2>&1
rc=$?
rm -rf "$(sed -n 's/^logs: //p' "$TMP/out")"
diag=$(cat "$TMP/out")
total=$(tail -1 "$TMP/out")
is "$rc" 0 "the runner passes without ../shared" "$diag"
is "$(echo "$total" | sed -nE 's/^[0-9]+ passed, ([0-9]+) failed, [0-9]+ skipped$/\1/p')" 0 \
	"the totals line shows 0 failed: $total"
# each test printed at least one skip, and the totals count every one of them
nskip=$(echo "$total" | sed -nE 's/^[0-9]+ passed, [0-9]+ failed, ([0-9]+) skipped$/\1/p')
per=$(awk -v b="$TRAX_BUILD: " 'index($0, b) == 1 && / [0-9]+ skipped / {
	for (i = 1; i < NF; i++) if ($(i + 1) == "skipped") { s += $i; if ($i == 0) z++ } }
	END { print s + 0, z + 0 }' "$TMP/out")
is "${per#* }" 0 "every test that reads ../shared reported a skip" "$diag"
is "$nskip" "${per% *}" "the totals count every skip ($nskip)"
ok "at least one skip per test" test "${nskip:-0}" -ge $((${#scripts[@]} + ${#unit[@]}))
if [ ${#unit[@]} -eq 1 ]; then
	is "$(awk -v l="$TRAX_BUILD: ${unit[0]} " 'index($0, l) == 1' "$TMP/out" |
		sed -E 's/.* ([0-9]+) failed +([0-9]+) skipped .*/\1 \2/')" "0 3" \
		"unit/test-plot: its three real-trace tests (a timeline, the juno histogram and palette) are skips, not failures" "$diag"
else
	skip "unit/test-plot without ../shared" "$TRAX_BUILD/tests/test-plot is not built"
fi
finish
