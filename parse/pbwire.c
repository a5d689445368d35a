/* parse/pbwire.c: the protobuf wire-format cursor of pbwire.h. */
#include <string.h>

#include "parse/pbwire.h"

void pb_init(struct pb_cursor *c, const void *buf, size_t n, uint64_t off)
{
	c->base = buf;
	c->p = buf;
	c->end = c->base + n;
	c->base_off = off;
	c->err = 0;
	c->err_off = 0;
}

static int fail(struct pb_cursor *c, int code, const uint8_t *at)
{
	c->err = code;
	c->err_off = c->base_off + (uint64_t)(at - c->base);
	return -code;
}

/*
 * A varint at *pp (before end): 0 with *v and *pp past it, or -PB_E_TRUNCATED (the range ends
 * first) or -PB_E_OVERLONG (an 11th byte, or a 10th above 1: bits past 64).
 */
static inline int varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *pp;
	uint64_t x = 0;

	if (p < end && *p < 0x80) {
		*v = *p;
		*pp = p + 1;
		return 0;
	}
	for (int shift = 0; shift < 70; shift += 7) {
		uint8_t b;

		if (p == end)
			return -PB_E_TRUNCATED;
		b = *p++;
		if (shift == 63 && b > 1)
			return -PB_E_OVERLONG;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (b < 0x80) {
			*v = x;
			*pp = p;
			return 0;
		}
	}
	return -PB_E_OVERLONG;
}

int pb_read_varint(struct pb_cursor *c, uint64_t *v)
{
	const uint8_t *p = c->p;
	int r = varint(&p, c->end, v);

	if (r)
		return fail(c, -r, c->p);
	c->p = p;
	return 0;
}

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t x = 0;

	for (int i = n - 1; i >= 0; i--)
		x = x << 8 | p[i];
	return x;
}

int pb_read_fixed32(struct pb_cursor *c, uint32_t *v)
{
	if (c->end - c->p < 4)
		return fail(c, PB_E_TRUNCATED, c->p);
	*v = (uint32_t)le(c->p, 4);
	c->p += 4;
	return 0;
}

int pb_read_fixed64(struct pb_cursor *c, uint64_t *v)
{
	if (c->end - c->p < 8)
		return fail(c, PB_E_TRUNCATED, c->p);
	*v = le(c->p, 8);
	c->p += 8;
	return 0;
}

int pb_next_slow(struct pb_cursor *c, struct pb_field *f)
{
	const uint8_t *start = c->p, *p = c->p;
	uint64_t tag, n;
	int r;

	if (p >= c->end)
		return 0;
	r = varint(&p, c->end, &tag);
	if (r)
		return fail(c, -r, start);
	if (tag > UINT32_MAX || tag >> 3 == 0)
		return fail(c, PB_E_FIELD, start);
	f->num = (uint32_t)(tag >> 3);
	f->wire = tag & 7;
	f->off = c->base_off + (uint64_t)(start - c->base);
	f->val = 0;
	f->data = NULL;
	f->len = 0;
	switch (f->wire) {
	case PB_VARINT:
		r = varint(&p, c->end, &f->val);
		if (r)
			return fail(c, -r, start);
		break;
	case PB_I64:
		if (c->end - p < 8)
			return fail(c, PB_E_TRUNCATED, start);
		f->val = le(p, 8);
		p += 8;
		break;
	case PB_I32:
		if (c->end - p < 4)
			return fail(c, PB_E_TRUNCATED, start);
		f->val = le(p, 4);
		p += 4;
		break;
	case PB_LEN:
		r = varint(&p, c->end, &n);
		if (r)
			return fail(c, -r, start);
		if (n > (uint64_t)(c->end - p))
			return fail(c, PB_E_LENGTH, start);
		f->data = p;
		f->len = (size_t)n;
		p += n;
		break;
	default:
		return fail(c, PB_E_WIRE, start);
	}
	c->p = p;
	return 1;
}

int pb_expect(struct pb_cursor *c, const struct pb_field *f, enum pb_wire w)
{
	if (f->wire == w)
		return 0;
	c->err = PB_E_TYPE;
	c->err_off = f->off;
	return -PB_E_TYPE;
}

void pb_sub(const struct pb_cursor *c, const struct pb_field *f, struct pb_cursor *sub)
{
	pb_init(sub, f->data, f->len, c->base_off + (uint64_t)(f->data - c->base));
}

const char *pb_strerror(int code)
{
#define _PB(name, text) text,
	static const char *const msgs[] = { "success", PB_ERRORS };
#undef _PB
	if (code < 0)
		code = -code;
	if (code >= PB_E__COUNT)
		return "unknown error";
	return msgs[code];
}
