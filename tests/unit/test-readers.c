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
	assert_int_equal(trax_nreaders, 3);
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
	const struct { const char *head; size_t n; enum trax_format fmt; } cases[] = {
		{ dat, sizeof(dat) - 1, TRAX_FMT_DAT },
		{ html, sizeof(html) - 1, TRAX_FMT_SYSTRACE },
		{ block, sizeof(block) - 1, TRAX_FMT_SYSTRACE },
		{ zlib, sizeof(zlib) - 1, TRAX_FMT_SYSTRACE },
		{ text, sizeof(text) - 1, TRAX_FMT_TEXT },
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		for (int i = 0; i < trax_nreaders; i++) {
			int want = trax_readers[i].fmt == cases[c].fmt;

			if (!!trax_readers[i].sniff(cases[c].head, cases[c].n) != want)
				fail_msg("case %zu: %s's sniffer says %d", c, trax_readers[i].name,
					 !want);
		}
	}
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
		"\x01\x02\0\x03 binary",
	};
	static const size_t lens[] = { 11, 0, 0, 11 };	/* 0: a string */
	const enum trax_format want[] = { TRAX_FMT_DAT, TRAX_FMT_SYSTRACE, TRAX_FMT_TEXT,
					  TRAX_FMT_UNKNOWN };
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
