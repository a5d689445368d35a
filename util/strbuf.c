/* util/strbuf.c: growable strings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

char strbuf_empty[1];

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	char *nb;

	if (need <= sb->alloc)
		return;
	if (need < sb->alloc * 2)
		need = sb->alloc * 2;
	if (need < 64)
		need = 64;
	nb = xrealloc(sb->alloc ? sb->buf : NULL, need);
	if (!sb->alloc)
		nb[0] = '\0';
	sb->buf = nb;
	sb->alloc = need;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	char ch = c;

	strbuf_add(sb, &ch, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	strbuf_grow(sb, n);
	vsnprintf(sb->buf + sb->len, n + 1, fmt, ap);
	sb->len += n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_add_xml(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': strbuf_adds(sb, "&lt;"); break;
		case '>': strbuf_adds(sb, "&gt;"); break;
		case '&': strbuf_adds(sb, "&amp;"); break;
		case '"': strbuf_adds(sb, "&quot;"); break;
		case '\'': strbuf_adds(sb, "&#39;"); break;
		default:
			/* XML 1.0 forbids most control characters. */
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t' && *s != '\r')
				strbuf_addch(sb, '?');
			else
				strbuf_addch(sb, *s);
		}
	}
}

void strbuf_add_json(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\') {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, c);
		} else if (c == '\n') {
			strbuf_adds(sb, "\\n");
		} else if (c == '\t') {
			strbuf_adds(sb, "\\t");
		} else if (c < 0x20) {
			strbuf_addf(sb, "\\u%04x", c);
		} else {
			strbuf_addch(sb, c);
		}
	}
	strbuf_addch(sb, '"');
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

char *strbuf_detach(struct strbuf *sb)
{
	char *r = sb->alloc ? sb->buf : xstrdup("");

	sb->buf = strbuf_empty;
	sb->len = sb->alloc = 0;
	return r;
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	sb->buf = strbuf_empty;
	sb->len = sb->alloc = 0;
}

void strbuf_add_json_or_null(struct strbuf *sb, const char *s)
{
	if (s)
		strbuf_add_json(sb, s);
	else
		strbuf_adds(sb, "null");
}

void strbuf_add_json_num(struct strbuf *sb, double v)
{
	if (isnan(v) || isinf(v))
		strbuf_adds(sb, "null");
	else if (v == floor(v) && fabs(v) < 9e15)
		strbuf_addf(sb, "%.0f", v);
	else
		strbuf_addf(sb, "%.17g", v);
}
