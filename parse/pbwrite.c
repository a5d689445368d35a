/* parse/pbwrite.c: a protobuf wire-format encoder (parse/pbwrite.h). */
#include <string.h>

#include "parse/pbwrite.h"
#include "util/grow.h"

static void reserve(struct pbw *w, size_t n)
{
	size_t cap = w->cap ? w->cap : 256;

	if (n <= w->cap - w->len)
		return;
	while (cap - w->len < n)
		cap *= 2;
	w->buf = trax_realloc_array(w->buf, cap, 1);
	w->cap = cap;
}

void pbw_release(struct pbw *w)
{
	free(w->buf);
	w->buf = NULL;
	w->len = w->cap = 0;
}

static size_t varint_put(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	do {
		p[n++] = (uint8_t)(v & 0x7f) | (v > 0x7f ? 0x80 : 0);
		v >>= 7;
	} while (v);
	return n;
}

void pbw_varint(struct pbw *w, uint64_t v)
{
	reserve(w, 10);
	w->len += varint_put(w->buf + w->len, v);
}

void pbw_uint(struct pbw *w, uint32_t num, uint64_t v)
{
	pbw_tag(w, num, PB_VARINT);
	pbw_varint(w, v);
}

void pbw_bytes(struct pbw *w, uint32_t num, const void *data, size_t n)
{
	pbw_tag(w, num, PB_LEN);
	pbw_varint(w, n);
	reserve(w, n);
	if (n)
		memcpy(w->buf + w->len, data, n);
	w->len += n;
}

/* The mark is where the message's bytes begin; one byte before it is kept for the length. */
size_t pbw_begin(struct pbw *w, uint32_t num)
{
	pbw_tag(w, num, PB_LEN);
	reserve(w, 1);
	w->buf[w->len++] = 0;
	return w->len;
}

void pbw_end(struct pbw *w, size_t mark)
{
	uint8_t tmp[10];
	size_t n = w->len - mark, k = varint_put(tmp, n);

	if (k > 1) {
		reserve(w, k - 1);
		memmove(w->buf + mark + k - 1, w->buf + mark, n);
		w->len += k - 1;
	}
	memcpy(w->buf + mark - 1, tmp, k);
}
