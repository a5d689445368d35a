#!/usr/bin/env bash
# scripts/tracefs.sh: as root, mount tracefs at /sys/kernel/tracing when nothing is mounted there,
# so that the capture tests and the demo's live part run instead of skipping.
# `make check`, `make test` and scripts/demo.sh call it (and so .ci/run, through make check).
# Never fails: without root, or where the kernel has no tracefs, the capture tests say why they
# skip. TRAX_TRACEFS names another mount point (as for the tests).
set -u
T=${TRAX_TRACEFS:-/sys/kernel/tracing}
[ "$(id -u)" -eq 0 ] || exit 0
mountpoint -q "$T" 2>/dev/null && exit 0
if [ ! -d "$T" ]; then
	echo "trax: no $T in this kernel's sysfs; captures (trax collect and its tests) will skip" >&2
elif err=$(mount -t tracefs nodev "$T" 2>&1); then
	echo "trax: mounted tracefs at $T" >&2
else
	echo "trax: could not mount tracefs at $T ($err); captures (trax collect and its tests) will skip" >&2
fi
exit 0
