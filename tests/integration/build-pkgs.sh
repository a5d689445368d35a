#!/usr/bin/env bash
# tests/integration/build-pkgs.sh: the Makefile enforces the minimum package versions it lists
# (PKGS): a version required above the installed one stops the build before anything is
# compiled, with pkg-config's line naming the package and the way to install it.
. "$(dirname "$0")/../lib.sh"

if ! command -v make >/dev/null || ! command -v pkg-config >/dev/null; then
	skip "package versions" "make or pkg-config is not installed"
	finish
fi
have=$(pkg-config --modversion zlib)
b=$TMP/b
make -s -C "$TOP" BUILD="$b" PKGS="zlib >= 999 cairo >= 1.16" "$b/trax" >"$TMP/out" 2>&1
rc=$?
ok "zlib >= 999 required (installed: $have): the build stops" test "$rc" -ne 0
ok "pkg-config names the package and both versions" \
	grep -q "Package 'zlib' has version '$have', required version is '>= 999'" "$TMP/out"
ok "trax says how to install them" grep -q 'make deps installs them' "$TMP/out"
ok "nothing was compiled" test -z "$(find "$b" -name '*.o' 2>/dev/null)"
make -s -C "$TOP" BUILD="$b" "$b/.pkgs-ok" >"$TMP/out2" 2>&1
is "$?" 0 "the Makefile's own PKGS hold on this machine" "$(cat "$TMP/out2")"
finish
