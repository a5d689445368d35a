/* parse/pbwrite.h: internal to parse/: a protobuf wire-format encoder into a growable buffer. */
#ifndef TRAX_PARSE_PBWRITE_H
#define TRAX_PARSE_PBWRITE_H

#include <stddef.h>
#include <stdint.h>

#include "parse/pbwire.h"

/*
 * The writing half of parse/pbwire.h (protobuf.dev/programming-guides/encoding): fields are
 * appended to a buffer that grows as needed (util/xalloc.h's out-of-memory policy). A nested
 * message is opened with pbw_begin(), which returns a mark, and closed with pbw_end(mark),
 * which writes its length as a minimal varint in front of it (moving its bytes when the length
 * takes more than one byte), so that what is written reads the same with any decoder. Marks
 * nest; each must be closed, innermost first, before the buffer is used.
 */
struct pbw {
	uint8_t *buf;		/* len bytes written; owned, freed by pbw_release() */
	size_t len, cap;
};

#define PBW_INIT { NULL, 0, 0 }

/* Free the buffer; w is left empty and may be reused. */
void pbw_release(struct pbw *w);

/* Forget what was written, keeping the allocation. */
static inline void pbw_reset(struct pbw *w)
{
	w->len = 0;
}

/* A bare varint. */
void pbw_varint(struct pbw *w, uint64_t v);

/* A field's tag: number num (1 .. 2^29 - 1), wire type wire. */
static inline void pbw_tag(struct pbw *w, uint32_t num, enum pb_wire wire)
{
	pbw_varint(w, (uint64_t)num << 3 | wire);
}

/* A varint field: uint32, uint64, bool, enum; int32 and int64 through pbw_int(). */
void pbw_uint(struct pbw *w, uint32_t num, uint64_t v);

/*
 * An int32 or int64 field: the value's two's complement as a 64-bit varint, so a negative
 * value takes 10 bytes whatever its declared width (as the schema's int32 requires).
 */
static inline void pbw_int(struct pbw *w, uint32_t num, int64_t v)
{
	pbw_uint(w, num, (uint64_t)v);
}

/* A length-delimited field of n bytes (string, bytes). */
void pbw_bytes(struct pbw *w, uint32_t num, const void *data, size_t n);

/* Open a sub-message field num; returns the mark that pbw_end() takes. */
size_t pbw_begin(struct pbw *w, uint32_t num);

/* Close the sub-message opened at mark: its length goes in front of its bytes. */
void pbw_end(struct pbw *w, size_t mark);

#endif
