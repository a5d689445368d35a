/* util/xalloc.c: allocation that cannot fail; out of memory says so and aborts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/xalloc.h"

void trax_oom(void)
{
	static const char msg[] = "trax: out of memory\n";

	/* write(2), not stdio: stdio may need the memory there is not */
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
		/* nothing more to say */
	}
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		trax_oom();
	return p;
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		trax_oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		trax_oom();
	return p;
}

char *xstrdup(const char *s)
{
	char *r = strdup(s ? s : "");

	if (!r)
		trax_oom();
	return r;
}

char *xstrndup(const char *s, size_t n)
{
	char *r = strndup(s ? s : "", n);

	if (!r)
		trax_oom();
	return r;
}

char *xmemdup0(const char *s, size_t n)
{
	char *r = xmalloc(s ? n + 1 : 1);

	if (s && n)
		memcpy(r, s, n);
	r[s ? n : 0] = '\0';
	return r;
}
