#!/usr/bin/env bash
# kselftest/trax under the kernel's own kselftest runner: lib.mk, kselftest/runner.sh and
# run_kselftest.sh taken from Debian's linux-source-6.1 tarball (scripts/deps.sh installs it),
# with kselftest/trax dropped in as tools/testing/selftests/trax. The runner must print
# "ok N selftests: trax: trax_sched.sh", "not ok ... # exit=1" or "ok ... # SKIP", with the
# test's own TAP (from trax check) nested under it, prefixed "# ".
. "$(dirname "$0")/../lib.sh"
ver=6.1
tarball=/usr/src/linux-source-$ver.tar.xz
if [ ! -r "$tarball" ]; then
	skip "kselftest runner from linux-source-$ver" "$tarball absent (apt-get install linux-source-$ver)"
	finish
fi

# Extract only the runner's files (a pass over the whole 140 MB archive: cached per test run).
cache=${TRAX_CACHE_DIR:-$TMP}/kselftest-$ver-$(stat -c %s-%Y "$tarball")
st=linux-source-$ver/tools/testing/selftests
if [ ! -f "$cache/done" ]; then
	mkdir -p "$cache.tmp.$$"
	tar -xJf "$tarball" -C "$cache.tmp.$$" "$st/lib.mk" "$st/kselftest/runner.sh" \
		"$st/kselftest/prefix.pl" "$st/run_kselftest.sh" 2>"$TMP/tar.err" &&
		touch "$cache.tmp.$$/done" && mv -T "$cache.tmp.$$" "$cache" 2>/dev/null
	rm -rf "$cache.tmp.$$"
fi
[ -f "$cache/done" ]
_result $? "runner.sh, prefix.pl, lib.mk and run_kselftest.sh extracted from $tarball" "$(cat "$TMP/tar.err" 2>/dev/null)"

# A selftests tree holding only what the runner needs, and our folder.
tree=$TMP/linux/tools/testing/selftests
mkdir -p "$tree/kselftest"
cp "$cache/$st/lib.mk" "$cache/$st/run_kselftest.sh" "$tree/"
cp "$cache/$st/kselftest/runner.sh" "$cache/$st/kselftest/prefix.pl" "$tree/kselftest/"
cp -r "$TOP/kselftest/trax" "$tree/trax"
bindir=$(dirname "$TRAX")

# Every line the runner prints is TAP: a version, a plan, a test point or a "#" line.
tap_clean() { ! grep -v -E '^(TAP version 13|1\.\.[0-9]+|(not )?ok [0-9]+ .*|#.*)$' "$1"; }

run_tests() { # out env...: make run_tests in the trax folder with trax in PATH
	local out=$1; shift
	env PATH="$bindir:$PATH" "$@" make -s -C "$tree/trax" run_tests >"$out" 2>&1
}

# Skip: tracefs elsewhere (TRAX_TRACEFS points trax collect and the wrapper at it).
run_tests "$TMP/skip.out" TRAX_TRACEFS="$TMP/no-tracefs"
is "$(grep -c '^ok 1 selftests: trax: trax_sched.sh # SKIP$' "$TMP/skip.out")" 1 \
	"no tracefs: the runner reports the test skipped (exit 4)"
grep -q "^# 1\.\.0 # SKIP tracefs is not mounted at $TMP/no-tracefs" "$TMP/skip.out"
_result $? "no tracefs: the nested plan says why" "$(cat "$TMP/skip.out")"
tap_clean "$TMP/skip.out"
_result $? "no tracefs: every line is TAP" "$(cat "$TMP/skip.out")"

why=
if [ "$(id -u)" -ne 0 ]; then
	why="capturing needs root"
elif [ ! -d /sys/kernel/tracing/events/sched/sched_switch ]; then
	why="no tracefs with sched events at /sys/kernel/tracing"
elif ! command -v rt-app >/dev/null; then
	why="rt-app is not installed"
fi
if [ -n "$why" ]; then
	run_tests "$TMP/noroot.out"
	is "$(grep -c '^ok 1 selftests: trax: trax_sched.sh # SKIP$' "$TMP/noroot.out")" 1 \
		"without root, tracefs or rt-app the test is skipped ($why)"
	skip "the workload meets its rules under the runner" "$why"
	skip "a failing rule is 'not ok' under the runner" "$why"
	finish
fi

# Pass: the shipped rules on the shipped workload.
run_tests "$TMP/pass.out"
head -3 "$TMP/pass.out" | tr '\n' '|' >"$TMP/head"
is "$(cat "$TMP/head")" "TAP version 13|1..1|# selftests: trax: trax_sched.sh|" \
	"the runner's header: its own TAP version, plan and test name"
is "$(grep -c '^ok 1 selftests: trax: trax_sched.sh$' "$TMP/pass.out")" 1 \
	"the workload meets its rules: 'ok 1 selftests: trax: trax_sched.sh'"
is "$(grep -E '^# (TAP version 13|1\.\.4|ok [1-4] dut-[a-z-]+)$' "$TMP/pass.out" | tr '\n' '|')" \
	"# TAP version 13|# 1..4|# ok 1 dut-duty-cycle|# ok 2 dut-period|# ok 3 dut-activations|# ok 4 dut-pinned|" \
	"trax check's TAP is nested under the runner, each line prefixed with a hash and a space"
grep -q '^# # dut-duty-cycle: duty_cycle [0-9.]* % (expect 20 % +- 3 %)' "$TMP/pass.out"
_result $? "the measured values are in the nested diagnostics" "$(cat "$TMP/pass.out")"
tap_clean "$TMP/pass.out"
_result $? "pass: every line is TAP" "$(cat "$TMP/pass.out")"

# Fail: a rule the workload cannot meet; KSFT_TAP_LEVEL drops the nested version line.
cat >"$TMP/fail.json" <<'JSON'
{ "rules": [
  { "id": "dut-runs", "metric": "runtime", "task": "dut", "expect": "> 0 ms" },
  { "id": "dut-busy", "metric": "duty_cycle", "task": "dut", "expect": "> 90 %" } ] }
JSON
run_tests "$TMP/fail.out" TRAX_RULES="$TMP/fail.json" KSFT_TAP_LEVEL=1
is "$(grep -c '^not ok 1 selftests: trax: trax_sched.sh # exit=1$' "$TMP/fail.out")" 1 \
	"a failing rule: the runner's test point is not ok, exit=1"
is "$(grep -E '^# (not )?ok [12] ' "$TMP/fail.out" | tr '\n' '|')" "# ok 1 dut-runs|# not ok 2 dut-busy|" \
	"a failing rule: the nested TAP says which"
is "$(grep -c '^# TAP version' "$TMP/fail.out")" 0 "KSFT_TAP_LEVEL set: no nested TAP version line"
tap_clean "$TMP/fail.out"
_result $? "fail: every line is TAP" "$(cat "$TMP/fail.out")"

# Installed like the other selftests (lib.mk's install copies TEST_PROGS, TEST_FILES and
# settings), listed with emit_tests, run by run_kselftest.sh.
inst=$TMP/installed
make -s -C "$tree/trax" install INSTALL_PATH="$inst/trax" >"$TMP/install.out" 2>&1
is "$(cd "$inst/trax" && ls | tr '\n' ' ')" "rules.json settings trax_sched.sh workload.json " \
	"make install copies the script, its files and the settings"
make -s -C "$tree/trax" emit_tests COLLECTION=trax >"$inst/kselftest-list.txt" 2>&1
is "$(cat "$inst/kselftest-list.txt")" "trax:trax_sched.sh" "emit_tests lists trax:trax_sched.sh"
cp "$tree/run_kselftest.sh" "$inst/" && cp -r "$tree/kselftest" "$inst/"
env PATH="$bindir:$PATH" "$inst/run_kselftest.sh" -c trax >"$TMP/installed.out" 2>&1
is "$(grep -c '^ok 1 selftests: trax: trax_sched.sh$' "$TMP/installed.out")" 1 \
	"run_kselftest.sh -c trax: ok"
grep -q '^timeout=' "$inst/trax/settings"
_result $? "the settings file gives the runner a timeout"
finish
