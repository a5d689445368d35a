/* parse/pbwire.h: internal to parse/: a streaming decoder of the protobuf wire format. */
#ifndef TRAX_PARSE_PBWIRE_H
#define TRAX_PARSE_PBWIRE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The protobuf wire format (protobuf.dev/programming-guides/encoding): a message is a run of
 * fields, each a tag varint (field number << 3 | wire type) and a value: a varint, 8 or 4
 * little-endian bytes, or a length varint and that many bytes (strings, bytes, sub-messages,
 * packed repeated numbers). A cursor walks a byte range one field at a time, never past its
 * end; it allocates and copies nothing (a field's bytes point into the caller's buffer), and
 * knows no schema: the caller says which wire type a field must have (pb_expect()).
 *
 * Offsets: a cursor knows the offset of its range's first byte in the caller's terms (the
 * file offset), and a sub-message's cursor continues them. An error leaves its code in
 * c->err and, in c->err_off, the offset of the item it is about: the tag of the field that is
 * bad, or where a bare read began.
 */

enum pb_wire {
	PB_VARINT = 0,		/* int32, int64, uint32, uint64, sint32, sint64, bool, enum */
	PB_I64 = 1,		/* fixed64, sfixed64, double */
	PB_LEN = 2,		/* string, bytes, messages, packed repeated fields */
	PB_SGROUP = 3,		/* groups (deprecated): refused */
	PB_EGROUP = 4,
	PB_I32 = 5,		/* fixed32, sfixed32, float */
};

/* The errors, once: PB_E_<name> (positive; functions return them negated), and their text. */
#define PB_ERRORS                                                                        \
	_PB(TRUNCATED, "the data ends inside it")                                         \
	_PB(OVERLONG, "a varint longer than 10 bytes or wider than 64 bits")              \
	_PB(LENGTH, "its length runs past the end of the enclosing data")                 \
	_PB(WIRE, "an invalid or unsupported wire type (groups, 6, 7)")                    \
	_PB(FIELD, "an invalid field number (0, or above 2^29 - 1)")                       \
	_PB(TYPE, "the wrong wire type for this field")

#define _PB(name, text) PB_E_##name,
enum pb_errno { PB_OK, PB_ERRORS PB_E__COUNT };
#undef _PB

struct pb_cursor {
	const uint8_t *p;	/* the next byte */
	const uint8_t *end;	/* one past the range's last byte */
	const uint8_t *base;	/* the range's first byte, at offset base_off */
	uint64_t base_off;
	int err;		/* 0, or the last error (enum pb_errno) */
	uint64_t err_off;	/* that error's offset */
};

/* One field, as pb_next() read it. */
struct pb_field {
	uint32_t num;		/* field number, 1 .. 2^29 - 1 */
	uint8_t wire;		/* enum pb_wire */
	uint64_t off;		/* offset of its tag */
	uint64_t val;		/* PB_VARINT, PB_I64, PB_I32 (zero-extended): the value */
	const uint8_t *data;	/* PB_LEN: its bytes (len of them), in the caller's buffer */
	size_t len;
};

/* A cursor over n bytes at buf, whose first byte is at offset off. buf must outlive it. */
void pb_init(struct pb_cursor *c, const void *buf, size_t n, uint64_t off);

/* The offset of the cursor's next byte. */
static inline uint64_t pb_offset(const struct pb_cursor *c)
{
	return c->base_off + (uint64_t)(c->p - c->base);
}

/* Whether the cursor is at the end of its range. */
static inline int pb_at_end(const struct pb_cursor *c)
{
	return c->p >= c->end;
}

/* pb_next() for every field its inline part leaves: the same contract. */
int pb_next_slow(struct pb_cursor *c, struct pb_field *f);

/*
 * The next field: 1 and *f filled, 0 at the end of the range, or a negative -PB_E_* (c->err
 * and c->err_off, the field's tag, set; the cursor is then left where it was).
 * Inline for what an ftrace bundle is made of (a one-byte tag, a varint of at most 9 bytes or
 * a length below 128); the rest, and every error, in pb_next_slow().
 */
static inline int pb_next(struct pb_cursor *c, struct pb_field *f)
{
	const uint8_t *p = c->p, *q;
	uint8_t tag;

	if (p >= c->end)
		return 0;
	tag = p[0];
	if (tag < 8 || tag >= 0x80 || c->end - p < 2)
		return pb_next_slow(c, f);
	q = p + 1;
	if ((tag & 7) == PB_VARINT) {
		uint64_t x = 0;

		for (int shift = 0; shift < 63 && q < c->end; shift += 7) {
			uint8_t b = *q++;

			x |= (uint64_t)(b & 0x7f) << shift;
			if (b < 0x80) {
				f->num = tag >> 3;
				f->wire = PB_VARINT;
				f->off = c->base_off + (uint64_t)(p - c->base);
				f->val = x;
				f->data = NULL;
				f->len = 0;
				c->p = q;
				return 1;
			}
		}
	} else if ((tag & 7) == PB_LEN && q[0] < 0x80 && (size_t)(c->end - q - 1) >= q[0]) {
		f->num = tag >> 3;
		f->wire = PB_LEN;
		f->off = c->base_off + (uint64_t)(p - c->base);
		f->val = 0;
		f->data = q + 1;
		f->len = q[0];
		c->p = q + 1 + q[0];
		return 1;
	}
	return pb_next_slow(c, f);
}

/* 0 when f has wire type w; else -PB_E_TYPE, with c->err_off at f's tag. */
int pb_expect(struct pb_cursor *c, const struct pb_field *f, enum pb_wire w);

/* A cursor over the bytes of c's PB_LEN field f (a sub-message or packed values). */
void pb_sub(const struct pb_cursor *c, const struct pb_field *f, struct pb_cursor *sub);

/* Bare values (packed repeated fields): 0 and *v, or -PB_E_* with c->err_off where it began. */
int pb_read_varint(struct pb_cursor *c, uint64_t *v);
int pb_read_fixed32(struct pb_cursor *c, uint32_t *v);
int pb_read_fixed64(struct pb_cursor *c, uint64_t *v);

/* sint32 and sint64 values (ZigZag: 0, -1, 1, -2, ... are 0, 1, 2, 3, ...). */
static inline int64_t pb_zigzag64(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline int32_t pb_zigzag32(uint32_t v)
{
	return (int32_t)(v >> 1) ^ -(int32_t)(v & 1);
}

/* The text of an error code (positive or negative). Never NULL; static. */
const char *pb_strerror(int code);

#endif
