/* tests/unit/test-readers.c: the table of trace formats (parse/readers.h) and its sniffers, on
 * heads written here by hand from each format's definition. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "parse/load.h"
#include "parse/parse.h"

/* Each row names one format once, and the format's name is the row's. */
static void test_table(void **state)
{
	(void)state;
	assert_int_equal(trax_nreaders, 4);
	for (int i = 0; i < trax_nreaders; i++) {
		const struct trax_reader *r = &trax_readers[i];

		assert_true(r->fmt != TRAX_FMT_UNKNOWN && r->fmt != TRAX_FMT_DB);
		assert_string_equal(trax_format_name(r->fmt), r->name);
		assert_non_null(r->sniff);
		assert_non_null(r->read);
		for (int j = 0; j < i; j++) {
			assert_int_not_equal(trax_readers[j].fmt, r->fmt);
			assert_string_not_equal(trax_readers[j].name, r->name);
		}
	}
	assert_string_equal(trax_format_name(TRAX_FMT_DB), "sqlite");
	assert_string_equal(trax_format_name(TRAX_FMT_UNKNOWN), "unknown");
}

/* Which sniffers claim a head: exactly the one of its format. */
static void test_sniffers(void **state)
{
	static const char dat[] = "\x17\x08\x44tracing6\0\0\0\0";
	static const char html[] = "  <!DOCTYPE html>\n<html><body>";
	static const char block[] = "<script class=\"trace-data\" type=\"application/text\">";
	static const char zlib[] = "capturing trace... done\nTRACE:\n\x78\x9c\0\0";
	static const char text[] = "# tracer: nop\n#\n"
		"          <idle>-0     [000] d..2  100.000001: sched_switch: prev_comm=swapper/0 "
		"prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=1 next_prio=120\n";
	/* a blank line first: 0x0a is also the tag of Trace.packet */
	static const char text_nl[] = "\n          <idle>-0     [000] d..2  100.000001: "
		"sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> "
		"next_comm=a next_pid=1 next_prio=120\n";
	/*
	 * Perfetto, encoded by hand: 0a 04 = Trace.packet (field 1, wire type 2), 4 bytes:
	 * 40 01 = TracePacket.timestamp (field 8, varint) 1, 50 01 = trusted_packet_sequence_id
	 * (field 10, varint) 1. No NUL byte in it.
	 */
	static const char pf[] = "\x0a\x04\x40\x01\x50\x01";
	/* ... then a second packet of 16 bytes, cut by the head after its first byte */
	static const char pf_cut[] = "\x0a\x04\x40\x01\x50\x01\x0a\x10\x40";
	/* one packet of 65536 bytes (80 80 04), longer than the head: its two fields in it */
	static const char pf_long[] = "\x0a\x80\x80\x04\x40\x01\x50\x01";
	const struct { const char *head; size_t n; enum trax_format fmt; } cases[] = {
		{ dat, sizeof(dat) - 1, TRAX_FMT_DAT },
		{ html, sizeof(html) - 1, TRAX_FMT_SYSTRACE },
		{ block, sizeof(block) - 1, TRAX_FMT_SYSTRACE },
		{ zlib, sizeof(zlib) - 1, TRAX_FMT_SYSTRACE },
		{ text, sizeof(text) - 1, TRAX_FMT_TEXT },
		{ text_nl, sizeof(text_nl) - 1, TRAX_FMT_TEXT },
		{ pf, sizeof(pf) - 1, TRAX_FMT_PERFETTO },
		{ pf_cut, sizeof(pf_cut) - 1, TRAX_FMT_PERFETTO },
		{ pf_long, sizeof(pf_long) - 1, TRAX_FMT_PERFETTO },
	};
	/*
	 * Not Perfetto: a packet of 4 bytes with 3 in the file (one whole field: too little to
	 * tell); a field of wire type 3 (0b: field 1, a group); a packet of a field TracePacket
	 * does not have (0xf8 0x07 = field 127, varint); a second top-level field that is not a
	 * packet (0x12: field 2).
	 */
	static const char *const not_pf[] = {
		"\x0a\x04\x40\x01\x50", "\x0a\x02\x0b\x01", "\x0a\x03\xf8\x07\x01",
		"\x0a\x02\x40\x01\x12\x00",
	};
	static const size_t not_pf_len[] = { 5, 4, 5, 6 };

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		for (int i = 0; i < trax_nreaders; i++) {
			int want = trax_readers[i].fmt == cases[c].fmt;

			if (!!trax_readers[i].sniff(cases[c].head, cases[c].n) != want)
				fail_msg("case %zu: %s's sniffer says %d", c, trax_readers[i].name,
					 !want);
		}
	}
	for (size_t c = 0; c < sizeof(not_pf) / sizeof(not_pf[0]); c++)
		for (int i = 0; i < trax_nreaders; i++)
			if (trax_readers[i].sniff(not_pf[c], not_pf_len[c]))
				fail_msg("not Perfetto %zu: %s's sniffer claims it", c,
					 trax_readers[i].name);
	/* "TRACE:" with no zlib stream after it is not atrace -z */
	for (int i = 0; i < trax_nreaders; i++)
		assert_false(trax_readers[i].fmt == TRAX_FMT_SYSTRACE &&
			     trax_readers[i].sniff("x\nTRACE:\nabc", 12));
}

/* Detection goes through the table: the format of each head above, from a file. */
static void test_detect(void **state)
{
	static const char *const heads[] = {
		"\x17\x08\x44tracing6", "<html>", "# tracer: nop\n#\n"
		"  a-1 [000] 1.000000: sched_waking: comm=b pid=2 prio=120 target_cpu=000\n",
		"\x01\x02\0\x03 binary", "\x0a\x04\x40\x01\x50\x01",
	};
	static const size_t lens[] = { 11, 0, 0, 11, 0 };	/* 0: a string */
	const enum trax_format want[] = { TRAX_FMT_DAT, TRAX_FMT_SYSTRACE, TRAX_FMT_TEXT,
					  TRAX_FMT_UNKNOWN, TRAX_FMT_PERFETTO };
	char path[] = "/tmp/trax-test-readers-XXXXXX";

	(void)state;
	for (size_t c = 0; c < sizeof(heads) / sizeof(heads[0]); c++) {
		struct trax_error err = { 0 };
		enum trax_format fmt;
		int fd = mkstemp(path);
		size_t n = lens[c] ? lens[c] : strlen(heads[c]);

		assert_true(fd >= 0);
		assert_int_equal(write(fd, heads[c], n), (ssize_t)n);
		close(fd);
		if (want[c] == TRAX_FMT_UNKNOWN) {
			assert_int_equal(trax_detect_format(path, &fmt, &err), -TRAX_E_FORMAT);
			assert_non_null(strstr(err.msg, "unrecognized binary content"));
		} else {
			assert_int_equal(trax_detect_format(path, &fmt, &err), 0);
			assert_int_equal(fmt, want[c]);
		}
		unlink(path);
		strcpy(path, "/tmp/trax-test-readers-XXXXXX");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_sniffers),
		cmocka_unit_test(test_detect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
