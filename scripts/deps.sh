#!/usr/bin/env bash
# Install the Debian packages trax needs, or say exactly how to.
#   scripts/deps.sh [build|check|bench]   (default: build)
# As root, missing packages are installed with apt-get; otherwise the apt-get line is printed
# and the script fails, so `make demo` / `make check` stop before a confusing build error.
set -u
set_name=${1:-build}

build=(gcc make pkg-config libtracefs-dev libtraceevent-dev libtracecmd-dev libsqlite3-dev
	libcairo2-dev libjansson-dev libssl-dev fonts-dejavu-core libfontconfig-dev zlib1g-dev)
# Tests: cmocka, the reference tools trax is compared with, workloads, validators, and the
# kernel's kselftest runner (linux-source: runner.sh, lib.mk; lib.mk installs with rsync), and
# man-db with groff-base to render the man pages (tests/integration/man-pages.sh, help-man.sh).
check=("${build[@]}" libcmocka-dev trace-cmd rt-app stress-ng sqlite3 libxml2-utils jq
	poppler-utils perl zstd chromium linux-source-6.1 rsync man-db groff-base)
bench=("${check[@]}")

case "$set_name" in
build) want=("${build[@]}") ;;
check) want=("${check[@]}") ;;
bench) want=("${bench[@]}") ;;
*) echo "deps.sh: unknown package set '$set_name' (build, check, bench)" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
	s=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	[ "$s" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "trax: missing Debian packages; install them as root with:" >&2
	echo "  apt-get install -y ${missing[*]}" >&2
	exit 1
fi
echo "trax: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >/tmp/trax-apt.log 2>&1; then
	apt-get update -q >>/tmp/trax-apt.log 2>&1
	apt-get install -y -q --no-install-recommends "${missing[@]}" >>/tmp/trax-apt.log 2>&1 || {
		echo "trax: apt-get install failed; see /tmp/trax-apt.log" >&2; tail -5 /tmp/trax-apt.log >&2; exit 1; }
fi
exit 0
