#!/usr/bin/env bash
# tests/bench/plot.sh BUILD: timeline render time and peak anonymous memory on synthetic
# databases of 200k and 2M sched slices (tests/tools/gen-slices), in PNG, SVG and PDF.
# Not a test: prints one line per run; the target is a 2M-slice timeline under 2 s with
# RssAnon that does not grow with the number of slices.
set -u
cd "$(dirname "$0")/../.."
build=${1:-build}
trax=$PWD/$build/trax
gen=$PWD/$build/tools/gen-slices
[ -x "$trax" ] && [ -x "$gen" ] || { echo "plot.sh: build first (make BUILD=$build)" >&2; exit 2; }
dir=${TRAX_BENCH_DIR:-/tmp/trax-bench-plot}
mkdir -p "$dir"

# Run a command, sampling /proc/PID/status every 5 ms; prints "seconds peak_rssanon_kib".
measure() {
	local start end pid peak=0 v
	start=$(date +%s.%N)
	"$@" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		v=$(awk '/^RssAnon:/ {print $2}' "/proc/$pid/status" 2>/dev/null)
		[ -n "$v" ] && [ "$v" -gt "$peak" ] && peak=$v
		sleep 0.005
	done
	wait "$pid" || return 1
	end=$(date +%s.%N)
	awk -v a="$start" -v b="$end" -v p="$peak" 'BEGIN { printf "%.3f %d\n", b - a, p }'
}

status=0
for n in 200000 2000000; do
	db=$dir/slices-$n.db
	if [ ! -s "$db" ]; then
		"$gen" "$db.tmp" "$n" 8 && mv "$db.tmp" "$db" || exit 2
	fi
	for fmt in png svg pdf; do
		r=$(measure "$trax" plot timeline "$db" -o "$dir/timeline-$n.$fmt" \
			--size 1600x800) || {
			echo "plot.sh: trax plot failed on $db" >&2; status=1; continue; }
		set -- $r
		printf 'plot timeline %8d slices %s: %6.3f s  peak RssAnon %6d KiB\n' \
			"$n" "$fmt" "$1" "$2"
	done
done
# A narrow window (1/100 of the trace): one index range scan per CPU.
db=$dir/slices-2000000.db
if r=$(measure "$trax" plot timeline "$db" -o "$dir/window.png" --size 1600x800 \
	--window 1 1.03); then
	set -- $r
	printf 'plot timeline  2000000 slices png, 1%% window: %6.3f s  peak RssAnon %6d KiB\n' \
		"$1" "$2"
fi
exit $status
