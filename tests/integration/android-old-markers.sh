#!/usr/bin/env bash
# tests/integration/android-old-markers.sh: trace markers printed as event "0:" are markers.
#
# Old Android kernels (3.x) print a trace marker as "0: B|pid|name" (the print event's "SYM: msg"
# with its ip unresolved) where newer ones print "tracing_mark_write: B|pid|name"; catapult's
# systrace importer reads event "0" as tracing_mark_write. A text trace written here in that
# form, its twin spelled tracing_mark_write, and the first wrapped as a systrace HTML file must
# give the same slices and counters: the ones counted by hand below, and none in raw_event.
. "$(dirname "$0")/../lib.sh"

cat >"$TMP/zero.txt" <<'TXT'
# tracer: nop
#
#           TASK-PID    CPU#    TIMESTAMP  FUNCTION
#              | |       |          |         |
  surfaceflinger-300   [000] ...1  1000.000100: 0: B|300|onMessageReceived
  surfaceflinger-300   [000] ...1  1000.000300: 0: B|300|handleMessageRefresh
  surfaceflinger-300   [000] ...1  1000.000700: 0: E
  surfaceflinger-300   [000] ...1  1000.001100: 0: E
  surfaceflinger-300   [000] ...1  1000.001200: 0: C|300|VSYNC-sf|1
    RenderThread-401   [001] ...1  1000.002000: 0: B|400|DrawFrame
    RenderThread-401   [001] ...1  1000.002500: 0: C|400|dequeueBuffer|42
    RenderThread-401   [001] ...1  1000.005000: 0: E|400
  surfaceflinger-300   [000] ...1  1000.017800: 0: C|300|VSYNC-sf|0
TXT
sed 's/ 0: / tracing_mark_write: /' "$TMP/zero.txt" >"$TMP/named.txt"
{
	printf '<!DOCTYPE html>\n<html><head><title>old</title></head><body>\n'
	printf '<script class="trace-data" type="application/text">\n'
	cat "$TMP/zero.txt"
	printf '</script>\n</body></html>\n'
} >"$TMP/zero.html"

# by hand, from the lines above: B at .000100 closed by the second E (.001100): 1000 us, depth
# 0; B at .000300 closed by the first E (.000700): 400 us, depth 1; pid 401's B at .002000
# closed by E|400 at .005000: 3000 us. Counters: VSYNC-sf 1 at .001200 and 0 at .017800,
# dequeueBuffer 42 at .002500. All 9 lines are markers: 9 print rows, none in raw_event.
slices="1000.000100|1000|onMessageReceived|0|300
1000.000300|400|handleMessageRefresh|1|300
1000.002000|3000|DrawFrame|0|401"
counters="VSYNC-sf|1000.001200|1
dequeueBuffer|1000.002500|42
VSYNC-sf|1000.017800|0"
SL="SELECT printf('%.6f', s.ts / 1e9) || '|' || (s.dur / 1000) || '|' || s.name || '|' ||
	s.depth || '|' || t.pid AS r FROM slice s JOIN thread t ON t.utid = s.utid ORDER BY s.ts"
CN="SELECT k.name || '|' || printf('%.6f', c.ts / 1e9) || '|' || c.value AS r FROM counter c
	JOIN track k ON k.id = c.track_id WHERE k.kind = 'atrace' ORDER BY c.ts"

for f in zero.txt zero.html named.txt; do
	db=$TMP/${f%.*}-${f#*.}.db
	"$TRAX" load "$TMP/$f" -o "$db" >"$TMP/load.out" 2>&1
	if ! is "$?" 0 "$f: loads"; then
		sed 's/^/# /' "$TMP/load.out"
		continue
	fi
	is "$(q "$db" "$SL")" "$slices" "$f: B/E markers are the slices counted by hand"
	is "$(q "$db" "$CN")" "$counters" "$f: C markers are the counter samples counted by hand"
	is "$(q "$db" "SELECT count(*) FROM print")" 9 "$f: all 9 markers are print rows"
	is "$(q "$db" "SELECT count(*) FROM raw_event")" 0 "$f: none of them is in raw_event"
done
same "'0:' and 'tracing_mark_write:' give the same print table" \
	"$TMP/zero-txt.db" "SELECT ts, cpu, common_pid, buf FROM print ORDER BY ts" \
	"$TMP/named-txt.db" "SELECT ts, cpu, common_pid, buf FROM print ORDER BY ts"
"$TRAX" info "$TMP/zero.txt" >"$TMP/info.out" 2>&1
ok "trax info lists no unparsed records" sh -c "! grep -q 'raw_event' '$TMP/info.out'"
finish
