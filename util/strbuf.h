/* util/strbuf.h: a growable NUL-terminated string (after git's strbuf). */
#ifndef TRAX_UTIL_STRBUF_H
#define TRAX_UTIL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	size_t len, alloc;
	char *buf;		/* always NUL-terminated; points at a static "" until grown */
};

extern char strbuf_empty[];
#define STRBUF_INIT { 0, 0, strbuf_empty }

void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_adds(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Append s with XML/HTML special characters escaped. */
void strbuf_add_xml(struct strbuf *sb, const char *s);
/* Append s as a JSON string literal, quotes included. */
void strbuf_add_json(struct strbuf *sb, const char *s);
/* The same, or null for NULL. */
void strbuf_add_json_or_null(struct strbuf *sb, const char *s);
/* A JSON number: integral values without a fraction, non-finite ones as null. */
void strbuf_add_json_num(struct strbuf *sb, double v);
void strbuf_reset(struct strbuf *sb);
/* Give the buffer to the caller (free() it); sb is left empty. */
char *strbuf_detach(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);

#endif
