/* tests/unit/test-pbwrite.c: the protobuf wire-format encoder (parse/pbwrite.h) against bytes
 * worked by hand, and read back with the decoder (parse/pbwire.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "parse/pbwire.h"
#include "parse/pbwrite.h"

/*
 * Expected bytes from the encoding spec (protobuf.dev, "Encoding"): a varint is 7-bit groups,
 * least significant first, the top bit set on all but the last; a tag is number << 3 | wire
 * type; int32 and int64 negatives are their 64-bit two's complement (10 bytes).
 */

#define S(lit) (const uint8_t *)(lit), sizeof(lit) - 1

static void expect_bytes(const struct pbw *w, const uint8_t *want, size_t n)
{
	assert_int_equal(w->len, n);
	assert_memory_equal(w->buf, want, n);
}

static void test_scalars(void **state)
{
	struct pbw w = PBW_INIT;

	(void)state;
	pbw_uint(&w, 1, 150);			/* (spec) 08 96 01 */
	expect_bytes(&w, S("\x08\x96\x01"));
	pbw_reset(&w);
	pbw_int(&w, 2, -1);			/* 10, then 2^64 - 1: nine ff and 01 */
	expect_bytes(&w, S("\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"));
	pbw_reset(&w);
	pbw_int(&w, 4, (int32_t)-1000);		/* 0xfffffffffffffc18: 98 f8, seven ff, 01 */
	expect_bytes(&w, S("\x20\x98\xf8\xff\xff\xff\xff\xff\xff\xff\x01"));
	pbw_reset(&w);
	pbw_uint(&w, 327, 0);			/* tag 327 << 3 = 2616: b8 14 */
	expect_bytes(&w, S("\xb8\x14\x00"));
	pbw_reset(&w);
	pbw_bytes(&w, 2, "testing", 7);		/* (spec) 12 07 74 65 73 74 69 6e 67 */
	expect_bytes(&w, S("\x12\x07testing"));
	pbw_reset(&w);
	pbw_uint(&w, 1, UINT64_MAX);
	expect_bytes(&w, S("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"));
	pbw_release(&w);
}

/* Nested messages: the length in front, one byte or more, inner ones closed first. */
static void test_nested(void **state)
{
	struct pbw w = PBW_INIT;
	size_t a, b;
	char big[200];

	(void)state;
	a = pbw_begin(&w, 3);			/* (spec) 1a 03 08 96 01 */
	pbw_uint(&w, 1, 150);
	pbw_end(&w, a);
	expect_bytes(&w, S("\x1a\x03\x08\x96\x01"));
	pbw_reset(&w);
	a = pbw_begin(&w, 1);
	b = pbw_begin(&w, 2);
	pbw_end(&w, b);				/* empty: 12 00 */
	pbw_uint(&w, 3, 1);
	pbw_end(&w, a);
	expect_bytes(&w, S("\x0a\x04\x12\x00\x18\x01"));
	pbw_reset(&w);
	/* 203 bytes inside (tag, length 200 as c8 01, the bytes): the length is cb 01 */
	memset(big, 'x', sizeof(big));
	a = pbw_begin(&w, 1);
	pbw_bytes(&w, 2, big, sizeof(big));
	pbw_end(&w, a);
	assert_int_equal(w.len, 1 + 2 + 203);	/* tag, length, the message */
	assert_memory_equal(w.buf, "\x0a\xcb\x01\x12\xc8\x01", 6);
	assert_int_equal(w.buf[w.len - 1], 'x');
	pbw_release(&w);
}

/* Many fields and a deep nesting read back with the decoder. */
static void test_read_back(void **state)
{
	struct pbw w = PBW_INIT;
	struct pb_cursor c, sub;
	struct pb_field f;
	size_t m[3];

	(void)state;
	m[0] = pbw_begin(&w, 1);
	m[1] = pbw_begin(&w, 2);
	for (int i = 0; i < 1000; i++)
		pbw_int(&w, 5, -i);
	m[2] = pbw_begin(&w, 6);
	pbw_bytes(&w, 7, "end", 3);
	pbw_end(&w, m[2]);
	pbw_end(&w, m[1]);
	pbw_end(&w, m[0]);
	pb_init(&c, w.buf, w.len, 0);
	assert_int_equal(pb_next(&c, &f), 1);
	assert_int_equal(f.num, 1);
	assert_true(pb_at_end(&c));
	pb_sub(&c, &f, &sub);
	assert_int_equal(pb_next(&sub, &f), 1);
	assert_int_equal(f.num, 2);
	pb_sub(&sub, &f, &c);
	for (int i = 0; i < 1000; i++) {
		assert_int_equal(pb_next(&c, &f), 1);
		assert_int_equal(f.num, 5);
		assert_int_equal((int64_t)f.val, -i);
	}
	assert_int_equal(pb_next(&c, &f), 1);
	assert_int_equal(f.num, 6);
	pb_sub(&c, &f, &sub);
	assert_int_equal(pb_next(&sub, &f), 1);
	assert_int_equal(f.len, 3);
	assert_memory_equal(f.data, "end", 3);
	assert_int_equal(pb_next(&c, &f), 0);
	pbw_release(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scalars),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_read_back),
	};

	return cmocka_run_group_tests_name("pbwrite", tests, NULL, NULL);
}
