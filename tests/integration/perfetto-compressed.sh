#!/usr/bin/env bash
# tests/integration/perfetto-compressed.sh: compressed Perfetto traces (parse/perfetto.c,
# parse/inflate.c): a whole trace gzip'd, and packets in compressed_packets (a zlib stream of
# a Trace's packets, what a config's compression_type DEFLATE writes), each form alone and
# both together, load the rows of the plain trace. Inputs: the fixtures'
# textproto encoded by protoc, and the real Android trace; gzip -c compresses, Python's zlib
# builds compressed_packets (the wrapper checked by protoc --decode). The plain form is the
# reference (perfetto-load.sh checks it against protoc); event counts come from protoc. Bad
# input: gzip cut short or with bytes flipped, compressed_packets flipped, cut, inflating to
# a malformed Trace, too big or nested: exit 2, one line naming the file and the byte offset
# (worked out here from how the input was built), no db and no temporary file left.
. "$(dirname "$0")/../lib.sh"

PROTO=$SHARED/perfetto/perfetto_trace.proto
PT=$TRACES/perfetto/test_trace.perfetto-trace
FIX=$TOP/tests/fixtures/perfetto

encode() { # textproto file, trace to $2
	grep -v '^#' "$1" | protoc --proto_path="$(dirname "$PROTO")" \
		--encode=perfetto.protos.Trace "$(basename "$PROTO")" >"$2"
}
decode() { # trace file: protoc's text
	protoc --proto_path="$(dirname "$PROTO")" --decode=perfetto.protos.Trace \
		"$(basename "$PROTO")" <"$1"
}

if ! command -v protoc >/dev/null; then
	skip "compressed Perfetto traces" "protoc absent (Debian: protobuf-compiler)"
	finish
fi
need_shared "$PROTO" "the Perfetto schema" || finish
if ! command -v gzip >/dev/null || ! python3 -c 'import zlib' 2>/dev/null; then
	skip "compressed Perfetto traces" "gzip or python3 (with zlib) absent"
	finish
fi

# Temporary files go here: it must stay empty (trax unlinks its own at once).
export TMPDIR=$TMP/tmpdir
mkdir -p "$TMPDIR"

# pz.py wrap IN OUT GROUP: IN's first packet as it is, then every GROUP packets (0: all the
# rest) zlib-compressed into one compressed_packets packet; prints per wrapper "packet_offset
# field_offset data_offset data_length inflated_length".
# pz.py one OUT INNER [CUT]: a plain packet (6 bytes), then one compressed_packets of INNER's
# bytes (@big: a packet and a 65 MiB one), its last CUT compressed bytes cut off; prints
# "field_offset data_offset data_length".
cat >"$TMP/pz.py" <<'PY'
import sys, zlib
def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7f; v >>= 7; out.append(b | (0x80 if v else 0))
        if not v: return bytes(out)
def rdvarint(d, o):
    v = s = 0
    while True:
        b = d[o]; o += 1; v |= (b & 0x7f) << s; s += 7
        if not b & 0x80: return v, o
def packet(body): return b'\x0a' + varint(len(body)) + body
def wrapper(out, blob):
    field = varint(50 << 3 | 2) + varint(len(blob))
    start = len(out); lv = varint(len(field) + len(blob))
    tag = start + 1 + len(lv)
    out += b'\x0a' + lv + field + blob
    return start, tag, tag + len(field)
cmd = sys.argv[1]
if cmd == 'wrap':
    d = open(sys.argv[2], 'rb').read(); group = int(sys.argv[4])
    pk = []; o = 0
    while o < len(d):
        st = o; l, o = rdvarint(d, o + 1); o += l; pk.append(d[st:o])
    out = bytearray(pk[0]); rest = pk[1:]; group = group or max(len(rest), 1)
    for i in range(0, len(rest), group):
        raw = b''.join(rest[i:i + group]); blob = zlib.compress(raw)
        s, t, dat = wrapper(out, blob)
        print(s, t, dat, len(blob), len(raw))
    open(sys.argv[3], 'wb').write(out)
elif cmd == 'one':
    if sys.argv[3] == '@big':
        filler = b'\0' * (65 << 20)
        inner = packet(b'\x40\x01\x50\x01') + packet(varint(36 << 3 | 2) + varint(len(filler)) + filler)
    else:
        inner = open(sys.argv[3], 'rb').read()
    blob = zlib.compress(inner)
    if len(sys.argv) > 4: blob = blob[:len(blob) - int(sys.argv[4])]
    out = bytearray(packet(b'\x40\x01\x50\x01'))
    s, t, dat = wrapper(out, blob)
    print(t, dat, len(blob))
    open(sys.argv[2], 'wb').write(out)
PY
pz() { python3 "$TMP/pz.py" "$@"; }

dump() { # db: every row of every table but meta, table by table
	local t
	for t in $(q "$1" "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'meta'
		AND name NOT LIKE 'sqlite_%' ORDER BY name"); do
		echo "== $t"
		q "$1" "SELECT * FROM \"$t\" ORDER BY rowid"
	done
}
meta() { q "$1" "SELECT value FROM meta WHERE key = '$2'"; }
load() { # trace db
	"$TRAX" load "$1" -o "$2" >/dev/null 2>"$TMP/load.err" || { cat "$TMP/load.err"; return 1; }
}

# ---- the fixtures: each form gives the plain form's rows ----
for fx in "$FIX"/*.textproto; do
	n=$(basename "$fx" .textproto)
	encode "$fx" "$TMP/$n.pftrace"
	gzip -c "$TMP/$n.pftrace" >"$TMP/$n.gz"
	pz wrap "$TMP/$n.pftrace" "$TMP/$n.c2.pftrace" 2 >"$TMP/$n.c2.blobs"
	pz wrap "$TMP/$n.pftrace" "$TMP/$n.c0.pftrace" 0 >"$TMP/$n.c0.blobs"
	gzip -c "$TMP/$n.c2.pftrace" >"$TMP/$n.c2.gz"
	nblobs=$(grep -c '' "$TMP/$n.c2.blobs")
	is "$(decode "$TMP/$n.c2.pftrace" | grep -c '^  compressed_packets: "')" "$nblobs" \
		"$n: protoc reads the $nblobs compressed_packets the test wrote"
	load "$TMP/$n.pftrace" "$TMP/$n.db"
	dump "$TMP/$n.db" >"$TMP/$n.want"
	# rows: events, or (track events only) slices
	ok "$n: the plain form has event or slice rows" \
		test "$(q "$TMP/$n.db" "SELECT (SELECT coalesce(sum(count), 0) FROM event_type) +
			(SELECT count(*) FROM slice) AS n")" -gt 0
	for form in gz c2.pftrace c0.pftrace c2.gz; do
		if load "$TMP/$n.$form" "$TMP/$n.$form.db"; then
			dump "$TMP/$n.$form.db" >"$TMP/$n.$form.got"
			ok "$n.$form: every table's rows as the plain form's" \
				diff "$TMP/$n.want" "$TMP/$n.$form.got"
		else
			_result 1 "$n.$form: loads" "$(cat "$TMP/load.err")"
		fi
	done
	is "$(meta "$TMP/$n.c2.pftrace.db" perfetto.compression)|$(meta "$TMP/$n.c2.pftrace.db" \
		perfetto.compressed_packets)|$(meta "$TMP/$n.c2.pftrace.db" perfetto.packets)" \
		"$([ "$nblobs" -gt 0 ] && echo compressed_packets || echo none)|$nblobs|$(meta \
		"$TMP/$n.db" perfetto.packets)" \
		"$n: meta says compressed_packets, $nblobs of them, and the packets as plain"
	is "$(meta "$TMP/$n.gz.db" perfetto.compression)|$(meta "$TMP/$n.gz.db" \
		perfetto.gunzipped_size)" "gzip|$(gzip -dc "$TMP/$n.gz" | wc -c | tr -d ' ')" \
		"$n: meta says gzip and the gunzipped size"
done
[ -z "$(ls -A "$TMPDIR")" ]
_result $? "no temporary file left by the loads" "$(ls -A "$TMPDIR")"

# trax info names the compression (sizes: gzip -dc, and the wrapper's inflated lengths)
n=small
inflated=$(awk '{ s += $5 } END { print s }' "$TMP/$n.c2.blobs")
is "$("$TRAX" info "$TMP/$n.c2.gz.db" | grep '^compress:')" \
	"compress: gzip ($(gzip -dc "$TMP/$n.c2.gz" | wc -c | tr -d ' ') bytes gunzipped); \
$(grep -c '' "$TMP/$n.c2.blobs") compressed_packets ($inflated bytes inflated)" \
	"trax info: compress: gzip and compressed_packets, with their sizes"
is "$("$TRAX" info "$TMP/$n.db" | grep -c '^compress:')" 0 "trax info: no compress line for a plain trace"

# ---- the real trace ----
if need_shared "$PT" "the real Perfetto trace"; then
	want=$(decode "$PT" | grep -c '^    event {$')
	gzip -c "$PT" >"$TMP/real.gz"
	pz wrap "$PT" "$TMP/real.c.pftrace" 50 >"$TMP/real.blobs"
	gzip -c "$TMP/real.c.pftrace" >"$TMP/real.c.gz"
	load "$PT" "$TMP/real.db"
	dump "$TMP/real.db" >"$TMP/real.want"
	is "$(q "$TMP/real.db" "SELECT sum(count) FROM event_type")" "$want" \
		"real trace, plain: protoc's $want events"
	for form in gz c.pftrace c.gz; do
		if load "$TMP/real.$form" "$TMP/real.$form.db"; then
			is "$(q "$TMP/real.$form.db" "SELECT sum(count) FROM event_type")" "$want" \
				"real.$form: protoc's $want events"
			dump "$TMP/real.$form.db" >"$TMP/real.$form.got"
			ok "real.$form: every table's rows as the plain form's" \
				diff "$TMP/real.want" "$TMP/real.$form.got"
		else
			_result 1 "real.$form: loads" "$(cat "$TMP/load.err")"
		fi
	done
	is "$(cat "$TMP/real.gz" | "$TRAX" load - -o "$TMP/pipe.db" >/dev/null 2>&1 &&
		q "$TMP/pipe.db" "SELECT sum(count) FROM event_type")" "$want" \
		"the gzip'd trace piped in: $want events"
fi

# ---- bad input ----
# bad DESC FILE MIN MAX REGEX: exit 2, one line naming the file, a "byte offset N" with
# MIN <= N <= MAX (the first one), REGEX in the message, no db, no temporary file
bad() {
	local desc=$1 f=$2 lo=$3 hi=$4 re=$5 out=$TMP/bad.$RANDOM why= off
	mkdir -p "$out"
	"$TRAX" load "$f" -o "$out/x.db" >/dev/null 2>"$TMP/err"
	local rc=$?
	[ $rc -eq 2 ] || why="exit $rc;"
	[ "$(grep -c '' "$TMP/err")" -eq 1 ] || why="$why not one line;"
	grep -qF "$f: " "$TMP/err" || why="$why no file name;"
	off=$(grep -oE 'byte offset [0-9]+' "$TMP/err" | head -1 | awk '{ print $3 }')
	{ [ -n "$off" ] && [ "$off" -ge "$lo" ] && [ "$off" -le "$hi" ]; } ||
		why="$why offset '$off' not in $lo..$hi;"
	grep -qE -- "$re" "$TMP/err" || why="$why not /$re/;"
	[ -z "$(ls -A "$out")" ] || why="$why left $(ls -A "$out");"
	[ -z "$(ls -A "$TMPDIR")" ] || why="$why left $(ls -A "$TMPDIR") in TMPDIR;"
	_result "$([ -z "$why" ] && echo 0 || echo 1)" "$desc" "$why $(cat "$TMP/err")"
}
flip() { # in out offset: byte offset flipped (xor 0x55)
	python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); d[int(sys.argv[3])] ^= 0x55
open(sys.argv[2], "wb").write(d)' "$@"
}

# gzip cut short (after its first kilobyte: before, the head may not show a trace) and flipped
gz=$TMP/small.c2.gz
[ -f "$TMP/real.gz" ] && gz=$TMP/real.gz
gsize=$(wc -c <"$gz")
for k in 1000 $((gsize / 3)) $((gsize / 2)) $((gsize - 8)) $((gsize - 3)) $((gsize - 1)); do
	[ "$k" -ge 1000 ] || k=$((gsize - 2))
	head -c "$k" "$gz" >"$TMP/cut$k.gz"
	bad "gzip cut at $k of $gsize bytes: exit 2 at the cut" "$TMP/cut$k.gz" "$k" "$k" \
		"gzip'd Perfetto trace at byte offset $k: truncated"
done
for k in 600 $((gsize / 2)) $((gsize - 6)); do
	flip "$gz" "$TMP/flip$k.gz" "$k"
	bad "gzip with byte $k flipped: exit 2 at or after it" "$TMP/flip$k.gz" "$k" "$gsize" \
		"gzip'd Perfetto trace at byte offset [0-9]+: corrupt"
done

# compressed_packets flipped: at or after the flip, within the stream, naming the field
read -r s tag dat len inl <"$TMP/small.c0.blobs"
for k in $((dat + 1)) $((dat + len / 2)) $((dat + len - 2)); do
	flip "$TMP/small.c0.pftrace" "$TMP/cflip$k.pftrace" "$k"
	bad "compressed_packets with byte $k flipped: exit 2 within its data, naming it" \
		"$TMP/cflip$k.pftrace" "$k" $((dat + len)) \
		"\\(the compressed_packets at byte offset $tag, $len bytes\\): corrupt"
done
# cut: its last 5 bytes (the end of its deflate data and the adler32)
read -r tag dat len < <(pz one "$TMP/ccut.pftrace" "$TMP/small.pftrace" 5)
bad "a compressed_packets cut short: exit 2 at its end" "$TMP/ccut.pftrace" $((dat + len)) \
	$((dat + len)) "compressed_packets at byte offset $tag.*truncated"
# inflating to a malformed Trace: the small trace less its last 3 bytes; its last packet's
# start is the offset (in the inflated packets) of what runs past their end
head -c -3 "$TMP/small.pftrace" >"$TMP/inner-cut"
last=$(perl -e 'local $/; open(my $f, "<:raw", $ARGV[0]) or die; my $d = <$f>; my ($o, $p) = (0, 0);
	while ($o < length $d) { $p = $o; $o++; my ($l, $s, $b) = (0, 0, 0x80);
		while ($b & 0x80) { $b = ord(substr($d, $o++, 1)); $l |= ($b & 0x7f) << $s; $s += 7 }
		$o += $l } print $p' "$TMP/inner-cut")
read -r tag dat len < <(pz one "$TMP/mal.pftrace" "$TMP/inner-cut")
bad "compressed_packets of a cut Trace: exit 2 at its last packet ($last), in its packets" \
	"$TMP/mal.pftrace" "$last" "$last" \
	"byte offset $last of the packets inflated from the compressed_packets at byte offset $tag runs past"
gzip -c "$TMP/mal.pftrace" >"$TMP/mal.gz"
bad "... the same gzip'd: the offsets are of the gunzipped data" "$TMP/mal.gz" "$last" "$last" \
	"byte offset $last of the packets inflated from the compressed_packets at byte offset $tag of the gunzipped data"
# a bundle's cpu with wire type 2 (0a 04 | 0a 02 | 0a 00: the cpu's tag at offset 4)
printf '\x0a\x04\x0a\x02\x0a\x00' >"$TMP/inner-wire"
read -r tag dat len < <(pz one "$TMP/wire.pftrace" "$TMP/inner-wire")
bad "compressed_packets with a bad wire type inside: exit 2 at its inner offset (4)" \
	"$TMP/wire.pftrace" 4 4 \
	"byte offset 4 of the packets inflated from the compressed_packets at byte offset $tag .*wire type"
# too big: a packet of 65 MiB inside (the bound is 64 MiB)
read -r tag dat len < <(pz one "$TMP/big.pftrace" @big)
bad "compressed_packets inflating past 64 MiB: exit 2 within it" "$TMP/big.pftrace" "$dat" \
	$((dat + len)) "compressed_packets at byte offset $tag.*more than 64 MiB"
# nested: the inner packets hold a compressed_packets of their own (its field at offset t1)
read -r t1 d1 l1 < <(pz one "$TMP/inner-nest" "$TMP/small.pftrace")
read -r tag dat len < <(pz one "$TMP/nest.pftrace" "$TMP/inner-nest")
bad "a compressed_packets inside another's packets: exit 2 at its inner offset ($t1)" \
	"$TMP/nest.pftrace" "$t1" "$t1" "byte offset $t1 of the packets inflated from the \
compressed_packets at byte offset $tag: a compressed_packets inside"
# the file cut inside its second wrapper: the plain reader's message, at that packet
if [ -f "$TMP/real.blobs" ]; then
	p2=$(sed -n 2p "$TMP/real.blobs" | awk '{ print $1 }')
	head -c $((p2 + 100)) "$TMP/real.c.pftrace" >"$TMP/realcut.pftrace"
	bad "the compressed file cut inside a wrapper: exit 2 at its packet ($p2)" \
		"$TMP/realcut.pftrace" "$p2" "$p2" "truncated Perfetto trace: the packet at byte offset $p2 runs past the end of the file"
fi
finish
