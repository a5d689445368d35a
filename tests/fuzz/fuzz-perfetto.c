/*
 * tests/fuzz/fuzz-perfetto.c: Perfetto protobuf traces through trax_load: parse/perfetto.c's
 * framing checks, its runs and merge, the events into the loader and the derivations. An
 * input that does not start like a packet (byte 0x0a, Trace.packet's tag) gets a small
 * well-formed first packet before it, so that mutations of the bytes after it reach the
 * reader and are not all lost to detection.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"

/* Trace.packet, 4 bytes: TracePacket.timestamp 1, trusted_packet_sequence_id 1 */
static const uint8_t first[] = { 0x0a, 0x04, 0x40, 0x01, 0x50, 0x01 };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init("perfetto");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf;

	if (size > 0 && data[0] == first[0]) {
		fuzz_load_check(fuzz_write("in.pftrace", data, size));
		return 0;
	}
	buf = malloc(sizeof(first) + size);
	if (!buf)
		abort();
	memcpy(buf, first, sizeof(first));
	if (size)
		memcpy(buf + sizeof(first), data, size);
	fuzz_load_check(fuzz_write("in.pftrace", buf, sizeof(first) + size));
	free(buf);
	return 0;
}
