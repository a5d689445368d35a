/*
 * util/xalloc.h: allocation that cannot fail (git's xmalloc family). The one out-of-memory
 * policy of trax: a line "trax: out of memory" on stderr, then abort(). A half-written
 * output is never renamed into place (util/outfile.h), so nothing that looks complete is left.
 */
#ifndef TRAX_UTIL_XALLOC_H
#define TRAX_UTIL_XALLOC_H

#include <stddef.h>

/* Say "trax: out of memory" and abort(). */
void trax_oom(void) __attribute__((noreturn));

void *xmalloc(size_t n);
/* n or sz 0: still a unique pointer (calloc of one element). */
void *xcalloc(size_t n, size_t sz);
/* n 0: a one-byte block, never NULL. */
void *xrealloc(void *p, size_t n);
/* s NULL: "". */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Exactly n bytes of s and a NUL (a span of damaged text may hold a NUL); s NULL: "". */
char *xmemdup0(const char *s, size_t n);

#endif
