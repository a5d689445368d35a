#!/usr/bin/env bash
# Install the Debian packages a make target needs, or say exactly how to.
#   scripts/deps.sh [all|demo|check|bench|fuzz|static]   (default: all)
# The package lists below are the only ones: one per target of the Makefile.
#   all    `make`: ./build/trax, the unit tests (cmocka) and the test tools
#   demo   `make demo`: ./build/trax only, and rt-app for its live capture
#   check  `make check`: everything the tests use (reference tools, workloads, validators)
#   bench  `make bench`: as check
#   fuzz   `make fuzz`, `make fuzz-build`: clang with libFuzzer (tests/fuzz/, doc/fuzz.md)
#   static `make static`: the static x86_64 and aarch64 collectors; the arm64 packages are
#          Debian's multiarch ones, so the arm64 architecture is added to dpkg first
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
# (tests/integration/collect-ssh.sh starts its own sshd on 127.0.0.1), and Chromium with
# Node.js to drive it over the DevTools protocol (tests/integration/report-browser.sh).
check=("${all[@]}" clang libclang-rt-14-dev trace-cmd rt-app stress-ng sqlite3 libxml2-utils jq
	poppler-utils perl zstd chromium nodejs linux-source-6.1 rsync man-db groff-base
	protobuf-compiler libprotobuf-dev openssh-server openssh-client adb)
bench=("${check[@]}")
# The fuzz targets: clang and its runtime (libFuzzer, the sanitizers), with the libraries of all.
fuzz=("${all[@]}" clang libclang-rt-14-dev)
# The static collectors (Makefile STATIC_PKGS): the x86_64 one links the -dev packages' static
# archives of trax; the aarch64 one the same of arm64, with the cross compiler and its C
# library; qemu-user-static with binfmt-support runs it here (tests/integration/static.sh).
static_libs=(libtracefs-dev libtraceevent-dev libsqlite3-dev libjansson-dev libssl-dev zlib1g-dev)
static=("${trax[@]}" gcc-aarch64-linux-gnu libc6-dev-arm64-cross "${static_libs[@]/%/:arm64}"
	qemu-user-static binfmt-support)

case "$target" in
all) want=("${all[@]}") ;;
demo) want=("${demo[@]}") ;;
check) want=("${check[@]}") ;;
bench) want=("${bench[@]}") ;;
fuzz) want=("${fuzz[@]}") ;;
static) want=("${static[@]}") ;;
*) echo "deps.sh: unknown target '$target' (all, demo, check, bench, fuzz, static)" >&2; exit 2 ;;
esac

# A name without :ARCH is the native package (or an Architecture: all one): once a foreign
# architecture is added, dpkg-query lists every architecture's instance of a name.
native=$(dpkg --print-architecture)
missing=()
for p in "${want[@]}"; do
	case "$p" in *:*) arch=${p##*:} ;; *) arch=$native ;; esac
	dpkg-query -W -f='${Status} ${Architecture}\n' "$p" 2>/dev/null |
		grep -qxE "install ok installed ($arch|all)" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

# Packages of a foreign architecture (NAME:ARCH) need that architecture in dpkg, and package
# lists fetched after it was added.
foreign=()
for p in "${missing[@]}"; do
	case "$p" in *:*) a=${p##*:}
		dpkg --print-foreign-architectures | grep -qx "$a" ||
			[[ " ${foreign[*]} " == *" $a "* ]] || foreign+=("$a") ;;
	esac
done

install=(apt-get install -y -q --no-install-recommends "${missing[@]}")
if [ "$(id -u)" -ne 0 ]; then
	echo "trax: missing Debian packages for 'make $target'; install them as root with:" >&2
	pre=
	for a in "${foreign[@]}"; do pre+="dpkg --add-architecture $a && "; done
	echo "  ${pre}apt-get update && ${install[*]}" >&2
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
for a in "${foreign[@]}"; do
	echo "trax: dpkg --add-architecture $a" >&2
	dpkg --add-architecture "$a" || exit 1
done
# A fresh machine has no package lists: nothing can be installed before an update. Nor can a
# foreign architecture's packages before its lists are fetched.
need_update=0
compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null || need_update=1
for p in "${missing[@]}"; do
	case "$p" in *:*)
		compgen -G "/var/lib/apt/lists/*binary-${p##*:}_Packages*" >/dev/null ||
			need_update=1 ;;
	esac
done
[ $need_update -eq 1 ] && update
echo "trax: installing ${missing[*]} (log: $log)" >&2
if ! "${install[@]}" >>"$log" 2>&1; then
	update
	"${install[@]}" >>"$log" 2>&1 || {
		echo "trax: apt-get install failed; see $log" >&2; tail -5 "$log" >&2; exit 1; }
fi
exit 0
