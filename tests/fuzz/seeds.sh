#!/usr/bin/env bash
# tests/fuzz/seeds.sh OUT: write the seed corpora of the fuzz targets into OUT/TARGET/.
#
# The seeds are the project's own fixtures (tests/fixtures), made small where mutation would
# otherwise spend its time on bulk: text traces are cut to their first lines, systrace seeds
# are built here from those lines (modern trace-data block, legacy linuxPerfData string, atrace
# -z zlib dump) with atrace markers added; Perfetto seeds are the small fixture of
# tests/fixtures/perfetto; rule seeds are every rule file of the project. When
# ../shared is beside the project, small reference traces are added too (never copied into the
# repository: they are read from there at run time).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
shared=${TRAX_SHARED:-$top/../shared}
mkdir -p "$out"/{dat,text,systrace,perfetto,rules}

# trace.dat: every fixture (17 to 70 KB)
cp "$top"/tests/fixtures/*.dat "$top"/tests/fixtures/text/trace.dat "$out/dat/"
n=0
for f in "$top"/tests/fixtures/text/*.txt; do
	n=$((n + 1))
	head -n 120 "$f" >"$out/text/fixture-$n.txt"
done
cp "$top"/tests/fixtures/text/case-collision.txt "$out/text/"
if [ -d "$shared/traces/trappy" ]; then
	for f in "$shared"/traces/trappy/*.txt "$shared"/traces/android/lines/*.txt; do
		head -n 120 "$f" >"$out/text/shared-$(basename "$f")"
	done
fi

# systrace: atrace markers of every kind in ftrace text with the TGID column
lines=$out/systrace/lines.txt
cat >"$lines" <<'TXT'
# tracer: nop
#
#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION
#              | |        |      |   ||||       |         |
     surfaceflinger-601   (  601) [001] ...1   100.000100: tracing_mark_write: B|601|onMessageReceived
     surfaceflinger-601   (  601) [001] ...1   100.000200: tracing_mark_write: C|601|VSYNC-sf|1
     surfaceflinger-601   (  601) [001] ...1   100.000300: tracing_mark_write: S|601|async|7
     surfaceflinger-601   (  601) [001] d..3   100.000400: sched_switch: prev_comm=surfaceflinger prev_pid=601 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
          <idle>-0     (-----) [001] d..3   100.000500: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=surfaceflinger next_pid=601 next_prio=120
     surfaceflinger-601   (  601) [001] ...1   100.000600: tracing_mark_write: F|601|async|7
     surfaceflinger-601   (  601) [001] ...1   100.000700: tracing_mark_write: E|601
     surfaceflinger-601   (  601) [001] ...1   100.000800: tracing_mark_write: I|601|frame
            lmkd-300   (  300) [000] ...1   100.000900: lowmemory_kill: pid=1234 comm=app oom_score_adj=900 min_adj=800
TXT
sed -n '5,$p' "$lines" | sed 's/ (  *[0-9-]*)//; s/(-----) //' >"$out/systrace/lines-notgid.txt"
{
	printf '<!DOCTYPE html>\n<html>\n<body>\n'
	printf '<script class="trace-data" type="application/text">\n'
	cat "$lines"
	printf '</script>\n</body>\n</html>\n'
} >"$out/systrace/modern.html"
{
	printf '<html><script>\nvar linuxPerfData = "\\\n'
	sed 's/$/\\n\\/' "$out/systrace/lines-notgid.txt"
	printf '";\n</script></html>\n'
} >"$out/systrace/legacy.html"
{
	printf '<!DOCTYPE html>\n<html>\n<body>\n'
	printf '<script class="trace-data" type="application/text">\n'
	printf 'capturing trace... done\nTRACE:\n'
	perl -MCompress::Zlib -0777 -ne 'print compress($_)' "$lines"
	printf '\n</script>\n</body>\n</html>\n'
} >"$out/systrace/zlib.html"
if [ -d "$shared/traces/trappy" ]; then
	cp "$shared"/traces/trappy/trace_systrace.html "$shared"/traces/trappy/trace_legacy_systrace.html \
		"$out/systrace/"
fi

# Perfetto: the small fixture (every event kind trax decodes but print's ip, lost events, a
# dropped packet, bundles out of order), and with ../shared the real trace's first packets
# (whole packets, up to 32 KiB: the packet walk is Trace.packet's tag and length)
cp "$top"/tests/fixtures/perfetto/small.pftrace "$out/perfetto/"
# the same in one compressed_packets (TracePacket field 50: tag 0x92 0x03), for the inflated
# packets' paths
perl -MCompress::Zlib -0777 -ne 'sub v { my $n = shift; my $s = "";
		while ($n > 127) { $s .= chr(($n & 127) | 128); $n >>= 7 } $s . chr($n) }
	my $z = compress($_); my $f = "\x92\x03" . v(length $z) . $z;
	print "\x0a" . v(length $f) . $f' "$top"/tests/fixtures/perfetto/small.pftrace \
	>"$out/perfetto/small-compressed.pftrace"
pt=$shared/traces/perfetto/test_trace.perfetto-trace
if [ -f "$pt" ]; then
	perl -e 'local $/; open(my $f, "<:raw", $ARGV[0]) or die; my $d = <$f>; my ($o, $end) = (0, 0);
		while ($o < length $d && ord(substr($d, $o, 1)) == 10) { my $p = $o + 1;
			my ($l, $s, $b) = (0, 0, 0x80);
			while ($b & 0x80) { $b = ord(substr($d, $p++, 1)); $l |= ($b & 0x7f) << $s; $s += 7 }
			last if $p + $l > 32768; $o = $p + $l }
		print substr($d, 0, $o)' "$pt" >"$out/perfetto/test_trace-head.pftrace"
fi

# rules: every rule file of the project
for f in "$top"/tests/fixtures/demo-rules.json "$top"/tests/gate/*.json "$top"/tests/rules/*.json \
	"$top"/rules/packs/*.json "$top"/doc/examples/*.json; do
	[ -f "$f" ] && cp "$f" "$out/rules/$(basename "$(dirname "$f")")-$(basename "$f")"
done
exit 0
