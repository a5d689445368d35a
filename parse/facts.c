/* parse/facts.c: reading the "trax: target ..." markers into meta keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/facts.h"
#include "util/xalloc.h"

#define PREFIX "trax: target "
#define MAX_FIELDS 32

struct field {
	const char *k, *v;
	int klen, vlen;
};

static int key_ok(const char *k, int n)
{
	if (!n || n > 48)
		return 0;
	for (int i = 0; i < n; i++)
		if (!((k[i] >= 'a' && k[i] <= 'z') || (k[i] >= '0' && k[i] <= '9') || k[i] == '_'))
			return 0;
	return 1;
}

int facts_parse(const char *buf, int len, facts_set_fn set, void *ctx)
{
	struct field f[MAX_FIELDS];
	const char *p, *end;
	char key[96], *value;
	int n = 0, cpu = -1;

	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\0'))
		len--;
	if (len <= (int)strlen(PREFIX) || memcmp(buf, PREFIX, strlen(PREFIX)))
		return 0;
	p = buf + strlen(PREFIX);
	end = buf + len;
	/* every word is KEY=VALUE: a marker of another shape is left alone, whole */
	while (p < end) {
		const char *w = p, *eq;

		while (p < end && *p != ' ')
			p++;
		if (p > w) {
			eq = memchr(w, '=', p - w);
			if (!eq || n == MAX_FIELDS || !key_ok(w, eq - w) || eq + 1 == p)
				return 0;
			f[n++] = (struct field){ w, eq + 1, (int)(eq - w), (int)(p - eq - 1) };
		}
		while (p < end && *p == ' ')
			p++;
	}
	if (!n)
		return 0;
	if (f[0].klen == 3 && !memcmp(f[0].k, "cpu", 3)) {
		char num[8], *e;

		if (f[0].vlen >= (int)sizeof(num))
			return 0;
		memcpy(num, f[0].v, f[0].vlen);
		num[f[0].vlen] = '\0';
		cpu = (int)strtol(num, &e, 10);
		if (*e || e == num || cpu < 0 || cpu >= 4096)
			return 0;
	}
	for (int i = cpu >= 0; i < n; i++) {
		if (cpu >= 0)
			snprintf(key, sizeof(key), "cpu.%d.%.*s", cpu, f[i].klen, f[i].k);
		else
			snprintf(key, sizeof(key), "target.%.*s", f[i].klen, f[i].k);
		value = xstrndup(f[i].v, f[i].vlen);
		set(ctx, key, value);
		free(value);
	}
	return 1;
}
