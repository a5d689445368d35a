#!/usr/bin/env bash
# tests/bench/run.sh BUILD: `make bench`: trax load against trace-cmd report and the SQLite
# ceiling, on a large trace recorded on this machine (v6 uncompressed and v7 zstd).
#
# The trace (at least $TRAX_BENCH_EVENTS events, default 2000000) is recorded once into
# bench-out/ (git-ignored) and reused while it exists: sched and task events in a private
# tracefs instance with a 256 MiB per-CPU buffer in non-overwrite mode, while
# `stress-ng --switch 2` runs; the ring buffers must report no overrun and no dropped event.
# Recording needs root, tracefs, stress-ng and trace-cmd; remove bench-out/ to record anew.
# `trace-cmd extract` writes v7 zstd; `trace-cmd convert` makes the v6 uncompressed copy. As
# in tests/fixtures/record.sh, extract runs in a mount namespace that shows it only the
# formats of the enabled events and an empty kallsyms (what `trace-cmd record -e` stores).
#
# For each file, measured in the same run (best of $TRAX_BENCH_REPEAT, default 2, for the
# wall times; the file is read once beforehand so that the page cache is warm):
#   trace-cmd report FILE > /dev/null
#   trax load FILE (full default load: all events, derived tables, indexes), with --stats
#   trax load --threads 1
#   build/tools/ceiling: the same rows (every table of the db trax wrote, held in memory
#     first) inserted into a new db with prepared statements in one transaction, the same
#     indexes and the pragmas of parse/load.c and parse/loader.c; single-row and 32-row statements, the faster
#     is the ceiling
# Memory: build/tools/memwatch polls /proc/PID/status every 2 ms: peak RssAnon (anonymous
# memory) and peak VmRSS (also the mapped trace file) of each command.
# Perfetto: big-v6.dat exported with `trax export` (bench-out/big.pftrace) and four copies of
# it end to end (big-x4.pftrace), loaded by trax in turns with a load of big-v6.dat, best of
# max(5, REPEAT) rounds: events/s against the trace.dat load of
# the same run (target: at least as fast), and peak RssAnon at both sizes (target: flat,
# under 150 MiB). The four copies cover the same time span, so the derived tables (slices,
# thread states) do not grow fourfold with the events: big-x4 shows that memory stays flat
# over 8.7 M events; big against big-v6.dat is the throughput comparison.
# TRAX_BENCH_ONLY=perfetto runs the Perfetto part alone (with its own trace.dat loads).
# TRAX_BENCH_PERF=1 adds a `perf record` of one trax load and prints its top symbols.
set -euo pipefail
cd "$(dirname "$0")/../.."
top=$(pwd)
build=${1:-build}
trax=$top/$build/trax
tools=$top/$build/tools
out=$top/bench-out
min_events=${TRAX_BENCH_EVENTS:-2000000}
repeat=${TRAX_BENCH_REPEAT:-2}
T=/sys/kernel/tracing
inst=
tmpd=

die() { echo "bench: $*" >&2; exit 2; }
cleanup() {
	set +e
	if [ -n "$inst" ] && [ -d "$T/instances/$inst" ]; then
		echo 0 >"$T/instances/$inst/tracing_on"
		rmdir "$T/instances/$inst"
	fi
	[ -n "$tmpd" ] && rm -rf "$tmpd"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for x in "$trax" "$tools/ceiling" "$tools/memwatch"; do
	[ -x "$x" ] || die "$x is missing: build first (make bench builds it)"
done
command -v trace-cmd >/dev/null || die "trace-cmd is missing (scripts/deps.sh bench)"
mkdir -p "$out"
tmpd=$(mktemp -d /tmp/trax-bench.XXXXXX)

EVENTS="sched/sched_switch sched/sched_wakeup sched/sched_waking sched/sched_wakeup_new
	sched/sched_migrate_task sched/sched_process_fork sched/sched_process_exec
	sched/sched_process_exit sched/sched_process_free task/task_newtask task/task_rename"

# trace-cmd extract of instance $inst into $1, storing only the enabled events' formats.
extract() { # out events...
	local o=$1 ns=$tmpd/events ev
	shift
	mkdir -p "$ns" "$tmpd/mnt"
	for ev in "$@" ftrace/print; do
		mkdir -p "$ns/$ev"
		cp "$T/events/$ev/format" "$ns/$ev/format"
	done
	cp "$T/events/header_page" "$T/events/header_event" "$ns/"
	unshare -m bash -c '
		set -e
		mount --make-rprivate /
		mount -t tmpfs trax-bench "$1"
		cp -r "$2"/. "$1"/
		mount --bind "$1" "$3/events"
		mount --bind /dev/null /proc/kallsyms
		shift 3
		exec trace-cmd extract "$@"
	' extract "$tmpd/mnt" "$ns" "$T" -B "$inst" -o "$o" >"$tmpd/extract.log" 2>&1 ||
		{ cat "$tmpd/extract.log" >&2; die "trace-cmd extract failed"; }
}

# Record the big trace; sets nothing, writes bench-out/big-v7-zstd.dat, big-v6.dat, big.count.
record() {
	local secs=2 d entries ev evs f n
	[ "$(id -u)" -eq 0 ] || die "recording the benchmark trace needs root"
	[ -d "$T/instances" ] || mount -t tracefs nodev "$T" || die "no tracefs at $T"
	command -v stress-ng >/dev/null || die "stress-ng is missing (scripts/deps.sh bench)"
	while :; do
		inst=trax-bench-$$
		d=$T/instances/$inst
		mkdir "$d"
		echo 0 >"$d/tracing_on"
		echo 0 >"$d/options/overwrite"
		echo 262144 >"$d/buffer_size_kb"
		evs=
		for ev in $EVENTS; do
			[ -e "$d/events/$ev/enable" ] || continue
			echo 1 >"$d/events/$ev/enable"
			evs="$evs $ev"
		done
		echo "bench: recording stress-ng --switch 2 for $secs s in instance $inst" >&2
		echo 1 >"$d/tracing_on"
		stress-ng --switch 2 --timeout "${secs}s" --quiet
		echo 0 >"$d/tracing_on"
		entries=$(awk '/^entries:/ { n += $2 } END { print n + 0 }' "$d"/per_cpu/cpu*/stats)
		if awk '/^(overrun|dropped events):/ && $NF != 0 { bad = 1 } END { exit !bad }' \
			"$d"/per_cpu/cpu*/stats; then
			die "the ring buffer lost events:" \
				"$(cat "$d"/per_cpu/cpu*/stats | tr '\n' ' ')"
		fi
		if [ "$entries" -ge "$min_events" ]; then
			break
		fi
		echo "bench: only $entries events: again, longer" >&2
		rmdir "$d"
		secs=$((secs * 2))
		[ $secs -le 32 ] || die "fewer than $min_events events in 32 s"
	done
	# shellcheck disable=SC2086
	extract "$out/big-v7-zstd.dat.tmp" $evs
	[ -d "$d" ] && die "instance $inst still present after extract"
	inst=
	trace-cmd convert -i "$out/big-v7-zstd.dat.tmp" -o "$out/big-v6.dat.tmp" \
		--file-version 6 --compression none >/dev/null 2>&1 ||
		die "trace-cmd convert failed"
	for f in big-v7-zstd big-v6; do
		n=$(trace-cmd report "$out/$f.dat.tmp" 2>/dev/null | grep -c '\] *[0-9]*\.[0-9]*: ')
		echo "bench: $f.dat: $n events (trace-cmd report)" >&2
		[ "$n" -ge "$min_events" ] || die "$f.dat: $n events, want $min_events"
		echo "$n" >"$out/$f.count"
		mv "$out/$f.dat.tmp" "$out/$f.dat"
	done
}

have_trace() {
	local f
	only=${TRAX_BENCH_ONLY:-}
dats="big-v6 big-v7-zstd"
[ "$only" = perfetto ] && dats=
for f in $dats; do
		[ -s "$out/$f.dat" ] && [ -s "$out/$f.count" ] || return 1
		[ "$(cat "$out/$f.count")" -ge "$min_events" ] || return 1
	done
}
have_trace || record

# memwatch field: wall_s, rss_anon_peak_kb, rss_peak_kb
mw() { sed -nE "s/.*$2=([0-9.]+).*/\\1/p" "$1"; }

# Run a command $repeat times under memwatch (polling every 5 ms), its stdout to STDOUT; keep
# the report (and stdout) of the fastest run in REPORT (REPORT.stdout).
best_of() { # report stdout cmd...
	local rep=$1 so=$2 i
	shift 2
	for ((i = 0; i < repeat; i++)); do
		"$tools/memwatch" -i 5 -o "$tmpd/mw" -- "$@" >"$so" 2>"$tmpd/stderr" ||
			{ cat "$tmpd/stderr" >&2; die "failed: $*"; }
		if [ $i -eq 0 ] || awk -v a="$(mw "$tmpd/mw" wall_s)" -v b="$(mw "$rep" wall_s)" \
			'BEGIN { exit !(a < b) }'; then
			cp "$tmpd/mw" "$rep"
			[ "$so" = /dev/null ] || cp "$so" "$rep.stdout"
		fi
	done
}

# The pragmas trax_load() sets (parse/load.c) and those before the indexes (parse/loader.c),
# for the ceiling.
pragmas=$(sed -n '/exec_sql(db, "PRAGMA page_size/,/BEGIN"/p' parse/load.c |
	grep -o 'PRAGMA [a-z_]*=[^;]*;' | tr '\n' ' ' || true)
[ -n "$pragmas" ] || pragmas="PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
ipragmas=$(sed -n '/^static int create_indexes/,/^}/p' parse/loader.c |
	grep -o 'PRAGMA [a-z_]*=[^;]*;' | tr '\n' ' ' || true)
echo "bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine" \
	"skews every figure; the fastest of $repeat runs is kept)"
echo "bench: ceiling pragmas (from parse/load.c): $pragmas"
echo "bench: before the indexes: ${ipragmas:-none}"

mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", n / s }'; }

# ceiling field: cf FILE MODE KEY (mode single|multi; key rows, insert_s, index_s, total_s)
cf() { sed -nE "s/^mode=$2 .*$3=([0-9.]+).*/\\1/p" "$1"; }
div() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { printf f, a / b }'; }

summary=()
verdict=()
only=${TRAX_BENCH_ONLY:-}
dats="big-v6 big-v7-zstd"
[ "$only" = perfetto ] && dats=
for f in $dats; do
	dat=$out/$f.dat
	n=$(cat "$out/$f.count")
	cat "$dat" >/dev/null
	echo
	echo "== $f.dat: $n events, $(mb $(($(stat -c %s "$dat") / 1024))) MiB"
	best_of "$tmpd/$f.report" /dev/null trace-cmd report "$dat"
	rm -f "$out/$f.db"
	best_of "$tmpd/$f.trax" "$tmpd/stdout" "$trax" load "$dat" -o "$out/$f.db" --stats
	best_of "$tmpd/$f.trax1" "$tmpd/stdout" "$trax" load "$dat" -o "$out/$f.db" --stats \
		--threads 1
	c=$tmpd/$f.ceiling
	"$tools/ceiling" -r "$repeat" -p "$pragmas" ${ipragmas:+-P "$ipragmas"} "$out/$f.db" \
		"$out/ceiling.db" >"$c"

	rw=$(mw "$tmpd/$f.report" wall_s)
	tw=$(mw "$tmpd/$f.trax" wall_s)
	t1w=$(mw "$tmpd/$f.trax1" wall_s)
	cbest=$(awk -v a="$(cf "$c" single total_s)" -v b="$(cf "$c" multi total_s)" \
		'BEGIN { print (a < b ? a : b) }')
	anon=$(mb "$(mw "$tmpd/$f.trax" rss_anon_peak_kb)")
	printf '%-30s %9s %12s %14s %12s\n' "" "wall s" "events/s" "RssAnon peak" "RSS peak"
	for k in report:"trace-cmd report" trax:"trax load" trax1:"trax load --threads 1"; do
		r=$tmpd/$f.${k%%:*}
		printf '%-30s %9s %12s %10s MiB %8s MiB\n' "${k#*:}" "$(mw "$r" wall_s)" \
			"$(rate "$n" "$(mw "$r" wall_s)")" "$(mb "$(mw "$r" rss_anon_peak_kb)")" \
			"$(mb "$(mw "$r" rss_peak_kb)")"
	done
	for m in single:"1 row/statement" multi:"32 rows/statement"; do
		t=$(cf "$c" "${m%%:*}" total_s)
		printf '%-30s %9s %12s   (insert %s s, indexes %s s)\n' "ceiling, ${m#*:}" "$t" \
			"$(rate "$n" "$t")" "$(cf "$c" "${m%%:*}" insert_s)" \
			"$(cf "$c" "${m%%:*}" index_s)"
	done
	echo "(ceiling: the $(cf "$c" single rows) rows of every table of the db trax wrote," \
		"held in memory, then inserted and indexed; its events/s: trace events per second)"
	echo "trax load --stats (fastest run):"
	sed 's/^/    /' "$tmpd/$f.trax.stdout"
	echo "trax load --threads 1 --stats:"
	sed 's/^/    /' "$tmpd/$f.trax1.stdout"
	pct=$(awk -v c="$cbest" -v t="$tw" 'BEGIN { printf "%.0f", 100 * c / t }')
	summary+=("$(printf '%-14s %9s %8s %8s %9s %9s %8s %8s %9s' "$f" "$n" "$rw" "$tw" \
		"$(div "$rw" "$tw" %.2fx)" "$t1w" "$cbest" "$pct%" "$anon")")
	v="$f: report/trax $(div "$rw" "$tw" %.2f) (target >= 1 on v6),"
	v="$v ceiling/trax $pct% (target >= 70%), RssAnon peak $anon MiB (target < 150;"
	v="$v trace-cmd report's own: $(mb "$(mw "$tmpd/$f.report" rss_anon_peak_kb)") MiB)"
	verdict+=("$v")
done
rm -f "$out/ceiling.db"

# ---- Perfetto: the same events as a Perfetto trace (trax export of big-v6.dat), and four
# copies of it end to end (a Trace is its packets: the concatenation is a valid trace, each
# copy another run of every CPU for the reader's merge), against trax load of big-v6.dat in
# the same run. Events/s counts the events of the bundles (meta perfetto.ftrace.events).
echo
pf=$out/big.pftrace
pf4=$out/big-x4.pftrace
if [ ! -s "$pf" ] || [ "$pf" -ot "$out/big-v6.dat" ]; then
	"$trax" export "$out/big-v6.dat" -o "$pf.tmp" >/dev/null || die "trax export failed"
	mv "$pf.tmp" "$pf"
	cat "$pf" "$pf" "$pf" "$pf" >"$pf4.tmp"
	mv "$pf4.tmp" "$pf4"
fi
sync	# the files just written are not flushed while the loads below are timed
# The three loads take turns, $repeat rounds (at least 5), so that the trace.dat load they are
# compared with ran under the same conditions; the fastest run of each is kept.
keep_best() { # report stdout cmd...
	local rep=$1 so=$2
	shift 2
	"$tools/memwatch" -i 5 -o "$tmpd/mw" -- "$@" >"$so" 2>"$tmpd/stderr" ||
		{ cat "$tmpd/stderr" >&2; die "failed: $*"; }
	if [ ! -s "$rep" ] || awk -v a="$(mw "$tmpd/mw" wall_s)" -v b="$(mw "$rep" wall_s)" \
		'BEGIN { exit !(a < b) }'; then
		cp "$tmpd/mw" "$rep"
	fi
}
cat "$out/big-v6.dat" "$pf" "$pf4" >/dev/null
rounds=$((repeat < 5 ? 5 : repeat))
rm -f "$tmpd/pf-dat" "$tmpd/pf-big" "$tmpd/pf-big-x4"
# Each database is removed as soon as it is written and the next load starts after a sync,
# so that no load is timed while the kernel writes back the one before it.
pf_events() { # db: the events of its bundles
	"$trax" query "$1" "SELECT value FROM meta WHERE key = 'perfetto.ftrace.events'" \
		--format csv | tail -n 1 | tr -d '\r'
}
for ((r = 0; r < rounds; r++)); do
	rm -f "$out/big-v6.db" "$out/big.db" "$out/big-x4.db"
	sync
	keep_best "$tmpd/pf-dat" /dev/null "$trax" load "$out/big-v6.dat" -o "$out/big-v6.db"
	rm -f "$out/big-v6.db"
	sync
	keep_best "$tmpd/pf-big" /dev/null "$trax" load "$pf" -o "$out/big.db"
	[ "$r" -gt 0 ] || pf_events "$out/big.db" >"$tmpd/n-big"
	rm -f "$out/big.db"
	sync
	keep_best "$tmpd/pf-big-x4" /dev/null "$trax" load "$pf4" -o "$out/big-x4.db"
	[ "$r" -gt 0 ] || pf_events "$out/big-x4.db" >"$tmpd/n-big-x4"
	rm -f "$out/big-x4.db"
done
dat_w=$(mw "$tmpd/pf-dat" wall_s)
dat_n=$(cat "$out/big-v6.count")
dat_anon=$(mb "$(mw "$tmpd/pf-dat" rss_anon_peak_kb)")
echo "(each the fastest of $rounds rounds in which the three loads take turns)"
printf '%-34s %9s %9s %12s %14s %12s\n' "" events "wall s" "events/s" "RssAnon peak" "RSS peak"
printf '%-34s %9s %9s %12s %10s MiB %8s MiB\n' "trax load big-v6.dat" "$dat_n" "$dat_w" \
	"$(rate "$dat_n" "$dat_w")" "$dat_anon" "$(mb "$(mw "$tmpd/pf-dat" rss_peak_kb)")"
pverdict=
for p in "$pf" "$pf4"; do
	b=$(basename "$p" .pftrace)
	pn=$(cat "$tmpd/n-$b")
	pw=$(mw "$tmpd/pf-$b" wall_s)
	panon=$(mb "$(mw "$tmpd/pf-$b" rss_anon_peak_kb)")
	printf '%-34s %9s %9s %12s %10s MiB %8s MiB\n' "trax load $b.pftrace" "$pn" "$pw" \
		"$(rate "$pn" "$pw")" "$panon" "$(mb "$(mw "$tmpd/pf-$b" rss_peak_kb)")"
	pverdict="$pverdict $b: events/s $(awk -v a="$pn" -v b="$pw" -v c="$dat_n" -v d="$dat_w" \
		'BEGIN { printf "%.2f", (a / b) / (c / d) }')x trace.dat's (target >= 1), RssAnon peak"
	pverdict="$pverdict $panon MiB (target < 150);"
done
verdict+=("perfetto:$pverdict")

if [ "${TRAX_BENCH_PERF:-0}" = 1 ] && command -v perf >/dev/null; then
	echo
	echo "== perf: trax load big-v6.dat (self time by library, then the top 25 symbols)"
	perf record -q -g -o "$tmpd/perf.data" -- "$trax" load "$out/big-v6.dat" \
		-o "$tmpd/perf.db" >/dev/null 2>&1 || true
	{ perf report -i "$tmpd/perf.data" --stdio --no-children --sort dso 2>/dev/null |
		grep -E '^ +[0-9.]+%' | head -8; } || true
	echo "-- by symbol"
	{ perf report -i "$tmpd/perf.data" --stdio --no-children --sort dso,symbol 2>/dev/null |
		grep -E '^ +[0-9.]+%' | head -25; } || true
fi

echo
echo "== summary (wall seconds; ceiling: its faster statement form; RssAnon: trax load's peak)"
printf '%-14s %9s %8s %8s %9s %9s %8s %8s %9s\n' trace events report trax \
	report/trax threads=1 ceiling ceil/trax "RssAnon MB"
printf '%s\n' "${summary[@]}"
echo
printf '%s\n' "${verdict[@]}"
echo "(libtracecmd 1.3 maps uncompressed CPU data, file-backed, but decompresses zstd CPU data"
echo " into anonymous memory: on zstd files RssAnon follows the trace size for trace-cmd too)"
[ "$only" = perfetto ] && exit 0
echo
echo "== trax check: 20 rules on the loaded v6 database"
[ -s "$out/big-v6.db" ] || "$trax" load "$out/big-v6.dat" -o "$out/big-v6.db" >/dev/null ||
	die "trax load of big-v6.dat failed"
"$top/tests/bench/check.sh" "$build" "$out/big-v6.db"
echo
echo "== trax plot: timelines of 200k and 2M slices (tests/bench/plot.sh)"
"$top/tests/bench/plot.sh" "$build"
echo "bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
