/* tests/unit/test-pbwire.c: the protobuf wire-format cursor (parse/pbwire.h) on byte strings
 * encoded here by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "parse/pbwire.h"

/*
 * Every expected value is worked by hand from the encoding spec (protobuf.dev, "Encoding"): a
 * varint is 7-bit groups, least significant first, the top bit set on all but the last byte;
 * a tag is field_number << 3 | wire_type; fixed values are little-endian; ZigZag maps 0, -1, 1,
 * -2 to 0, 1, 2, 3. The spec's own examples are marked "(spec)".
 */

#define S(lit) (const uint8_t *)(lit), sizeof(lit) - 1

static void cursor(struct pb_cursor *c, const uint8_t *b, size_t n)
{
	pb_init(c, b, n, 0);
}

static void test_varint(void **state)
{
	static const struct {
		const char *b;
		size_t n;
		uint64_t want;
	} cases[] = {
		{ "\x00", 1, 0 },
		{ "\x01", 1, 1 },
		{ "\x7f", 1, 127 },
		{ "\x80\x01", 2, 128 },				/* 0 + 1 << 7 */
		{ "\x96\x01", 2, 150 },				/* (spec) 0x16 + 1 << 7 */
		{ "\xac\x02", 2, 300 },				/* 0x2c + 2 << 7 */
		{ "\x9e\xa7\x05", 3, 86942 },			/* (spec) 30 + 39 << 7 + 5 << 14 */
		{ "\xff\xff\xff\xff\x0f", 5, 0xffffffffu },	/* 4 * 7 bits of 1s + 4 bits */
		{ "\x80\x80\x80\x80\x10", 5, 1ull << 32 },
		{ "\x80\x00", 2, 0 },				/* not minimal, still 0 */
		{ "\x89\x80\x80\x00", 4, 9 },			/* Perfetto's padded lengths */
		/* 63 bits of 1s in 9 bytes, then bit 63: the largest value */
		{ "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10, UINT64_MAX },
		{ "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 10, 1ull << 63 },
		/* int64 -1 (and int32 -1, sign-extended): 2^64 - 1 */
		{ "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10, (uint64_t)-1 },
		/* int32 -2: 0xffff...fe: 0x7e, then 8 * 0x7f, then 1 */
		{ "\xfe\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10, (uint64_t)(int64_t)-2 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pb_cursor c;
		uint64_t v = 12345;

		pb_init(&c, cases[i].b, cases[i].n, 40);
		assert_int_equal(pb_read_varint(&c, &v), 0);
		if (v != cases[i].want)
			fail_msg("case %zu: %llu, want %llu", i, (unsigned long long)v,
				 (unsigned long long)cases[i].want);
		assert_true(pb_at_end(&c));
		assert_int_equal(pb_offset(&c), 40 + cases[i].n);
		assert_int_equal(c.err, 0);
	}
}

/* A varint cut after each of its bytes but the last: truncated, at the varint's start. */
static void test_varint_truncated(void **state)
{
	static const char *const whole[] = {
		"\x96\x01", "\x9e\xa7\x05", "\xff\xff\xff\xff\x0f",
		"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
	};
	static const size_t lens[] = { 2, 3, 5, 10 };

	(void)state;
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		for (size_t cut = 0; cut < lens[i]; cut++) {
			struct pb_cursor c;
			uint64_t v = 7;

			pb_init(&c, whole[i], cut, 100);
			assert_int_equal(pb_read_varint(&c, &v), -PB_E_TRUNCATED);
			assert_int_equal(c.err, PB_E_TRUNCATED);
			assert_int_equal(c.err_off, 100);
			assert_int_equal(v, 7);				/* untouched */
			assert_int_equal(pb_offset(&c), 100);		/* not moved */
		}
	}
}

static void test_varint_overlong(void **state)
{
	struct pb_cursor c;
	uint64_t v;

	(void)state;
	/* 11 bytes: ten with the continuation bit, then 0 */
	cursor(&c, S("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x00"));
	assert_int_equal(pb_read_varint(&c, &v), -PB_E_OVERLONG);
	assert_int_equal(c.err_off, 0);
	/* ten bytes whose tenth is 2: bit 64 */
	cursor(&c, S("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02"));
	assert_int_equal(pb_read_varint(&c, &v), -PB_E_OVERLONG);
	/* the tenth 0x7f: bits 63 to 69 */
	cursor(&c, S("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x7f"));
	assert_int_equal(pb_read_varint(&c, &v), -PB_E_OVERLONG);
	/* ten bytes, each with the continuation bit, and the data ends: over 10, not truncated */
	cursor(&c, S("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80"));
	assert_int_equal(pb_read_varint(&c, &v), -PB_E_OVERLONG);
	/* a tag that is overlong */
	cursor(&c, S("\x08\x01\x88\x80\x80\x80\x80\x80\x80\x80\x80\x80\x00\x01"));
	{
		struct pb_field f;

		assert_int_equal(pb_next(&c, &f), 1);
		assert_int_equal(pb_next(&c, &f), -PB_E_OVERLONG);
		assert_int_equal(c.err_off, 2);
	}
}

static void test_zigzag(void **state)
{
	(void)state;
	/* (spec): 0 0, 1 -1, 2 1, 3 -2, 0x7ffffffe 0x3fffffff, 0x7fffffff -0x40000000, ... */
	assert_int_equal(pb_zigzag32(0), 0);
	assert_int_equal(pb_zigzag32(1), -1);
	assert_int_equal(pb_zigzag32(2), 1);
	assert_int_equal(pb_zigzag32(3), -2);
	assert_int_equal(pb_zigzag32(0x7ffffffe), 0x3fffffff);
	assert_int_equal(pb_zigzag32(0x7fffffff), -0x40000000);
	assert_int_equal(pb_zigzag32(0xfffffffe), INT32_MAX);
	assert_int_equal(pb_zigzag32(0xffffffff), INT32_MIN);
	assert_true(pb_zigzag64(0) == 0);
	assert_true(pb_zigzag64(1) == -1);
	assert_true(pb_zigzag64(4) == 2);
	assert_true(pb_zigzag64(299) == -150);
	assert_true(pb_zigzag64(UINT64_MAX - 1) == INT64_MAX);
	assert_true(pb_zigzag64(UINT64_MAX) == INT64_MIN);
}

static void test_fixed(void **state)
{
	struct pb_cursor c;
	uint32_t v32 = 0;
	uint64_t v64 = 0;

	(void)state;
	cursor(&c, S("\x01\x02\x03\x04\x01\x02\x03\x04\x05\x06\x07\x08"));
	assert_int_equal(pb_read_fixed32(&c, &v32), 0);
	assert_int_equal(v32, 0x04030201);
	assert_int_equal(pb_read_fixed64(&c, &v64), 0);
	assert_true(v64 == 0x0807060504030201ull);
	assert_true(pb_at_end(&c));
	cursor(&c, S("\xff\xff\xff\xff\xff\xff\xff\xff"));
	assert_int_equal(pb_read_fixed64(&c, &v64), 0);
	assert_true(v64 == UINT64_MAX);
	/* cut anywhere: truncated where the value begins */
	for (size_t cut = 0; cut < 8; cut++) {
		pb_init(&c, "\x01\x02\x03\x04\x05\x06\x07\x08", cut, 9);
		assert_int_equal(pb_read_fixed64(&c, &v64), -PB_E_TRUNCATED);
		assert_int_equal(c.err_off, 9);
		if (cut < 4) {
			pb_init(&c, "\x01\x02\x03\x04", cut, 9);
			assert_int_equal(pb_read_fixed32(&c, &v32), -PB_E_TRUNCATED);
			assert_int_equal(c.err_off, 9);
		}
	}
}

/*
 * A message with a field of each wire type, and where each field begins:
 *   0  08 96 01                        field 1, varint 150 (spec)
 *   3  12 07 74 65 73 74 69 6e 67      field 2, LEN 7: "testing" (spec)
 *   12 19 01 02 03 04 05 06 07 08      field 3, I64: 0x0807060504030201
 *   21 25 ff ff ff ff                  field 4, I32: 0xffffffff (zero-extended)
 *   26 28 03                           field 5, varint 3: as sint, -2
 *   28 80 01 2a                        field 16 (tag 128 = 0x80 0x01), varint 42
 *   31 fa ff ff ff 0f 00               field 2^29 - 1 (tag 0xfffffffa), LEN 0
 *   37 22 86 80 00 03 8e 02 9e a7 05   field 4, LEN 6 (a padded 3-byte length): packed
 *                                      varints 3, 270, 86942 (spec)
 *   47 (end)
 */
static const char msg[] = "\x08\x96\x01" "\x12\x07testing"
	"\x19\x01\x02\x03\x04\x05\x06\x07\x08" "\x25\xff\xff\xff\xff" "\x28\x03" "\x80\x01\x2a"
	"\xfa\xff\xff\xff\x0f\x00" "\x22\x86\x80\x00\x03\x8e\x02\x9e\xa7\x05";
static const struct {
	uint32_t num;
	int wire;
	size_t off;
	size_t tag_len, len_len;	/* bytes of its tag, of its length (LEN) */
	uint64_t val;
	size_t len;
} fields[] = {
	{ 1, PB_VARINT, 0, 1, 0, 150, 0 },
	{ 2, PB_LEN, 3, 1, 1, 0, 7 },
	{ 3, PB_I64, 12, 1, 0, 0x0807060504030201ull, 0 },
	{ 4, PB_I32, 21, 1, 0, 0xffffffffull, 0 },
	{ 5, PB_VARINT, 26, 1, 0, 3, 0 },
	{ 16, PB_VARINT, 28, 2, 0, 42, 0 },
	{ 536870911, PB_LEN, 31, 5, 1, 0, 0 },
	{ 4, PB_LEN, 37, 1, 3, 0, 6 },
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))
#define MSG_LEN 47

static void test_fields(void **state)
{
	struct pb_cursor c, sub;
	struct pb_field f;
	uint64_t v;

	(void)state;
	assert_int_equal(sizeof(msg) - 1, MSG_LEN);
	pb_init(&c, msg, MSG_LEN, 1000);
	for (size_t i = 0; i < NFIELDS; i++) {
		assert_int_equal(pb_next(&c, &f), 1);
		assert_int_equal(f.num, fields[i].num);
		assert_int_equal(f.wire, fields[i].wire);
		assert_int_equal(f.off, 1000 + fields[i].off);
		if (f.wire == PB_LEN) {
			assert_int_equal(f.len, fields[i].len);
			assert_ptr_equal(f.data, msg + fields[i].off + fields[i].tag_len +
					 fields[i].len_len);
		} else {
			assert_true(f.val == fields[i].val);
			assert_null(f.data);
		}
		assert_int_equal(pb_offset(&c), 1000 + (i + 1 < NFIELDS ? fields[i + 1].off :
							 MSG_LEN));
	}
	assert_int_equal(pb_next(&c, &f), 0);
	assert_int_equal(pb_next(&c, &f), 0);
	assert_int_equal(c.err, 0);

	/* field 2's bytes, and the packed values of the last field through a sub-cursor */
	pb_init(&c, msg, MSG_LEN, 1000);
	assert_int_equal(pb_next(&c, &f), 1);
	assert_int_equal(pb_next(&c, &f), 1);
	assert_memory_equal(f.data, "testing", 7);
	while (pb_next(&c, &f) == 1 && !(f.num == 4 && f.wire == PB_LEN))
		;
	assert_int_equal(f.num, 4);
	pb_sub(&c, &f, &sub);
	assert_int_equal(pb_offset(&sub), 1000 + 37 + 4);
	assert_int_equal(pb_read_varint(&sub, &v), 0);
	assert_int_equal(v, 3);
	assert_int_equal(pb_read_varint(&sub, &v), 0);
	assert_int_equal(v, 270);				/* 0x0e + 2 << 7 */
	assert_int_equal(pb_read_varint(&sub, &v), 0);
	assert_int_equal(v, 86942);
	assert_true(pb_at_end(&sub));
	assert_int_equal(pb_read_varint(&sub, &v), -PB_E_TRUNCATED);
	assert_int_equal(sub.err_off, 1000 + 47);
	/* field 5 as a sint32 */
	assert_int_equal(pb_zigzag32((uint32_t)fields[4].val), -2);
}

/*
 * The message cut at every byte: the fields wholly before the cut come out, then the end
 * (a cut between fields) or an error at the cut field's tag: truncated inside its tag, its
 * length or a fixed or varint value, LENGTH inside a LEN field's bytes.
 */
static void test_fields_truncated(void **state)
{
	(void)state;
	for (size_t cut = 0; cut <= MSG_LEN; cut++) {
		struct pb_cursor c;
		struct pb_field f;
		size_t whole = 0, in = NFIELDS;
		int r, want = 0;

		for (size_t i = 0; i < NFIELDS; i++) {
			size_t end = i + 1 < NFIELDS ? fields[i + 1].off : MSG_LEN;

			if (end <= cut)
				whole++;
			else if (fields[i].off < cut)
				in = i;
		}
		if (in < NFIELDS) {
			size_t into = cut - fields[in].off;

			if (into < fields[in].tag_len + fields[in].len_len ||
			    fields[in].wire != PB_LEN)
				want = -PB_E_TRUNCATED;
			else
				want = -PB_E_LENGTH;
		}
		pb_init(&c, msg, cut, 500);
		for (size_t i = 0; i < whole; i++) {
			assert_int_equal(pb_next(&c, &f), 1);
			assert_int_equal(f.num, fields[i].num);
		}
		r = pb_next(&c, &f);
		if (r != want)
			fail_msg("cut at %zu: pb_next gives %d, want %d", cut, r, want);
		if (want) {
			assert_int_equal(c.err, -want);
			assert_int_equal(c.err_off, 500 + fields[in].off);
			/* the cursor stays at the bad field: the same error again */
			assert_int_equal(pb_offset(&c), 500 + fields[in].off);
			assert_int_equal(pb_next(&c, &f), want);
		}
	}
}

static void test_wire_types(void **state)
{
	/* tags 0x0b, 0x0c, 0x0e, 0x0f: field 1 with wire types 3, 4, 6, 7 */
	static const char bad[] = { 0x0b, 0x0c, 0x0e, 0x0f };
	struct pb_cursor c;
	struct pb_field f;

	(void)state;
	for (size_t i = 0; i < sizeof(bad); i++) {
		char b[3] = { 0x08, 0x01, bad[i] };

		pb_init(&c, b, sizeof(b), 10);
		assert_int_equal(pb_next(&c, &f), 1);
		assert_int_equal(pb_next(&c, &f), -PB_E_WIRE);
		assert_int_equal(c.err_off, 12);
	}
	/* field number 0, any wire type */
	cursor(&c, S("\x00\x01"));
	assert_int_equal(pb_next(&c, &f), -PB_E_FIELD);
	cursor(&c, S("\x02\x00"));
	assert_int_equal(pb_next(&c, &f), -PB_E_FIELD);
	/* a tag of 2^32 (0x80 0x80 0x80 0x80 0x10): field 2^29, past the largest */
	cursor(&c, S("\x80\x80\x80\x80\x10\x00"));
	assert_int_equal(pb_next(&c, &f), -PB_E_FIELD);
	assert_int_equal(c.err_off, 0);
	/* the wire type a field must have */
	cursor(&c, S("\x08\x96\x01\x12\x01x"));
	assert_int_equal(pb_next(&c, &f), 1);
	assert_int_equal(pb_expect(&c, &f, PB_VARINT), 0);
	assert_int_equal(pb_expect(&c, &f, PB_LEN), -PB_E_TYPE);
	assert_int_equal(c.err, PB_E_TYPE);
	assert_int_equal(c.err_off, 0);
	assert_int_equal(pb_next(&c, &f), 1);
	assert_int_equal(pb_expect(&c, &f, PB_I32), -PB_E_TYPE);
	assert_int_equal(c.err_off, 3);
}

static void test_lengths(void **state)
{
	struct pb_cursor c, sub;
	struct pb_field f;

	(void)state;
	/* field 2, LEN 5 with 3 bytes left */
	cursor(&c, S("\x12\x05" "abc"));
	assert_int_equal(pb_next(&c, &f), -PB_E_LENGTH);
	assert_int_equal(c.err_off, 0);
	/* 2^32 - 1 */
	cursor(&c, S("\x12\xff\xff\xff\xff\x0f" "abc"));
	assert_int_equal(pb_next(&c, &f), -PB_E_LENGTH);
	/* 2^63 and 2^64 - 1: no pointer overflow */
	cursor(&c, S("\x12\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01" "abc"));
	assert_int_equal(pb_next(&c, &f), -PB_E_LENGTH);
	cursor(&c, S("\x12\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01" "abc"));
	assert_int_equal(pb_next(&c, &f), -PB_E_LENGTH);
	/* exactly what is left, and 0 */
	cursor(&c, S("\x12\x03" "abc" "\x12\x00"));
	assert_int_equal(pb_next(&c, &f), 1);
	assert_int_equal(f.len, 3);
	assert_int_equal(pb_next(&c, &f), 1);
	assert_int_equal(f.len, 0);
	assert_int_equal(pb_next(&c, &f), 0);

	/*
	 * A sub-message is bounded by its own length, and its offsets continue the parent's:
	 *   0 0a 05        field 1, LEN 5
	 *   2 08 96 01     inside: field 1, varint 150
	 *   5 10 01        inside: field 2, varint 1
	 *   7 0a 02        field 1, LEN 2
	 *   9 12 05        inside: field 2, LEN 5: past the sub-message's end (two bytes)
	 *  11 61 62 63 64 65  ... though the parent has five more bytes
	 */
	pb_init(&c, "\x0a\x05\x08\x96\x01\x10\x01\x0a\x02\x12\x05" "abcde", 16, 2000);
	assert_int_equal(pb_next(&c, &f), 1);
	pb_sub(&c, &f, &sub);
	assert_int_equal(pb_next(&sub, &f), 1);
	assert_int_equal(f.off, 2002);
	assert_int_equal(f.val, 150);
	assert_int_equal(pb_next(&sub, &f), 1);
	assert_int_equal(f.off, 2005);
	assert_int_equal(f.val, 1);
	assert_int_equal(pb_next(&sub, &f), 0);
	assert_int_equal(pb_next(&c, &f), 1);
	assert_int_equal(f.off, 2007);
	pb_sub(&c, &f, &sub);
	assert_int_equal(pb_next(&sub, &f), -PB_E_LENGTH);
	assert_int_equal(sub.err_off, 2009);
	/* the parent then reads the five bytes as fields: 'a' is field 12, wire type 1 (I64),
	 * with 4 bytes left: truncated at offset 2011 */
	assert_int_equal(pb_next(&c, &f), -PB_E_TRUNCATED);
	assert_int_equal(c.err_off, 2011);

	/* a truncated varint inside a sub-message: at the inner tag's offset */
	pb_init(&c, "\x0a\x03\x08\x96\x96", 5, 7);
	assert_int_equal(pb_next(&c, &f), 1);
	pb_sub(&c, &f, &sub);
	assert_int_equal(pb_next(&sub, &f), -PB_E_TRUNCATED);
	assert_int_equal(sub.err_off, 9);
}

static void test_strerror(void **state)
{
	(void)state;
	for (int i = 1; i < PB_E__COUNT; i++) {
		assert_non_null(pb_strerror(i));
		assert_string_equal(pb_strerror(i), pb_strerror(-i));
		for (int j = 1; j < i; j++)
			assert_string_not_equal(pb_strerror(i), pb_strerror(j));
	}
	assert_string_equal(pb_strerror(PB_E__COUNT), "unknown error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_varint),
		cmocka_unit_test(test_varint_truncated),
		cmocka_unit_test(test_varint_overlong),
		cmocka_unit_test(test_zigzag),
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_fields_truncated),
		cmocka_unit_test(test_wire_types),
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_strerror),
	};

	return cmocka_run_group_tests_name("pbwire", tests, NULL, NULL);
}
