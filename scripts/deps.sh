#!/usr/bin/env bash
# Install the Debian packages a make target needs, or say exactly how to.
#   scripts/deps.sh [all|demo|check|bench|fuzz]   (default: all)
# The package lists below are the only ones: one per target of the Makefile.
#   all    `make`: ./build/trax, the unit tests (cmocka) and the test tools
#   demo   `make demo`: ./build/trax only, and rt-app for its live capture
#   check  `make check`: everything the tests use (reference tools, workloads, validators)
#   bench  `make bench`: as check
#   fuzz   `make fuzz`, `make fuzz-build`: clang with libFuzzer (tests/fuzz/, doc/fuzz.md)
# As root, missing packages are installed with apt-get (after apt-get update when the package
# lists are absent, as on a fresh machine, or when the install fails on stale lists); otherwise
# the exact apt-get line is printed and the script fails, so that make stops before a confusing
# build error.
set -u
target=${1:-all}

# The trax binary: compiler and the libraries it links (Makefile PKGS), fonts for the charts.
trax=(gcc make pkg-config libtracefs-dev libtraceevent-dev libtracecmd-dev libsqlite3-dev
	libcairo2-dev libjansson-dev libssl-dev fonts-dejavu-core libfontconfig-dev zlib1g-dev)
all=("${trax[@]}" libcmocka-dev)
demo=("${trax[@]}" rt-app)
# Tests: cmocka, clang for the fuzz targets, the reference tools trax is compared with, workloads, validators, and the
# kernel's kselftest runner (linux-source: runner.sh, lib.mk; lib.mk installs with rsync), and
# man-db with groff-base to render the man pages (tests/integration/man-pages.sh, help-man.sh),
# protoc with protobuf's descriptor.proto to decode Perfetto traces and the reference schema
# (tests/integration/perfetto-*.sh), and OpenSSH's server and client for the board over ssh
# (tests/integration/collect-ssh.sh starts its own sshd on 127.0.0.1).
check=("${all[@]}" clang libclang-rt-14-dev trace-cmd rt-app stress-ng sqlite3 libxml2-utils jq
	poppler-utils perl zstd chromium linux-source-6.1 rsync man-db groff-base
	protobuf-compiler libprotobuf-dev openssh-server openssh-client)
bench=("${check[@]}")
# The fuzz targets: clang and its runtime (libFuzzer, the sanitizers), with the libraries of all.
fuzz=("${all[@]}" clang libclang-rt-14-dev)

case "$target" in
all) want=("${all[@]}") ;;
demo) want=("${demo[@]}") ;;
check) want=("${check[@]}") ;;
bench) want=("${bench[@]}") ;;
fuzz) want=("${fuzz[@]}") ;;
*) echo "deps.sh: unknown target '$target' (all, demo, check, bench, fuzz)" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
	s=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	[ "$s" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

install=(apt-get install -y -q --no-install-recommends "${missing[@]}")
if [ "$(id -u)" -ne 0 ]; then
	echo "trax: missing Debian packages for 'make $target'; install them as root with:" >&2
	echo "  apt-get update && ${install[*]}" >&2
	exit 1
fi

log=/tmp/trax-apt.log
: >"$log"
export DEBIAN_FRONTEND=noninteractive
update() {
	echo "trax: apt-get update" >&2
	apt-get update -q >>"$log" 2>&1 ||
		{ echo "trax: apt-get update failed; see $log" >&2; tail -5 "$log" >&2; exit 1; }
}
# A fresh machine has no package lists: nothing can be installed before an update.
compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null || update
echo "trax: installing ${missing[*]} (log: $log)" >&2
if ! "${install[@]}" >>"$log" 2>&1; then
	update
	"${install[@]}" >>"$log" 2>&1 || {
		echo "trax: apt-get install failed; see $log" >&2; tail -5 "$log" >&2; exit 1; }
fi
exit 0
