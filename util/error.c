/* util/error.c: error codes to text and the error-message helpers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/grow.h"
#include "util/xalloc.h"

#define _E(name, text) text,
static const char *const error_text[] = { TRAX_ERRORS };
#undef _E

const char *trax_strerror(int code)
{
	if (code < 0)
		code = -code;
	if (code >= TRAX_E__COUNT)
		return "unknown error";
	return error_text[code];
}

int trax_error_vset(struct trax_error *err, int code, const char *fmt, va_list ap)
{
	if (code < 0)
		code = -code;
	if (err) {
		err->code = code;
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		/* One line: a message never carries a newline into the output. */
		for (char *p = err->msg; *p; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
	}
	return -code;
}

int trax_error_set(struct trax_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = trax_error_vset(err, code, fmt, ap);
	va_end(ap);
	return ret;
}

void trax_error_clear(struct trax_error *err)
{
	if (err) {
		err->code = 0;
		err->msg[0] = '\0';
	}
}

void trax_error_list_add(struct trax_error_list *l, const char *msg)
{
	char *m = xstrdup(msg);

	for (char *p = m; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	TRAX_GROW(l->msg, l->n, l->cap, 8);
	l->msg[l->n++] = m;
}

void trax_error_list_release(struct trax_error_list *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->msg[i]);
	free(l->msg);
	l->msg = NULL;
	l->n = l->cap = 0;
}
