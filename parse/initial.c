/* parse/initial.c: reading the "trax: initial ..." markers that start counters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/initial.h"

#define PREFIX "trax: initial "

/* The value of key= in s[0..len) (a space-separated list), or NULL; *vlen its length. */
static const char *field(const char *s, int len, const char *key, int to_end, int *vlen)
{
	size_t klen = strlen(key);

	for (int i = 0; i + (int)klen < len; i++) {
		if ((i == 0 || s[i - 1] == ' ') && !memcmp(s + i, key, klen) &&
		    s[i + klen] == '=') {
			const char *v = s + i + klen + 1;
			int n = 0;

			while (v + n < s + len && (to_end || v[n] != ' '))
				n++;
			*vlen = n;
			return v;
		}
	}
	return NULL;
}

static int number(const char *s, int len, int key_found, int64_t *out)
{
	char buf[32];
	char *end;

	if (!key_found || len <= 0 || len >= (int)sizeof(buf))
		return 0;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*out = strtoll(buf, &end, 10);
	return *end == '\0';
}

int initial_parse(const char *buf, int len, struct initial_value *v)
{
	const char *p, *f;
	int n, flen;
	int64_t a = 0, b = 0;

	memset(v, 0, sizeof(*v));
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\0'))
		len--;
	if (len < (int)strlen(PREFIX) || memcmp(buf, PREFIX, strlen(PREFIX)))
		return 0;
	p = buf + strlen(PREFIX);
	n = len - (p - buf);
#define IS(word) (n > (int)strlen(word) && !memcmp(p, word " ", strlen(word) + 1))
	if (IS("cpu_frequency") || IS("cpu_idle")) {
		int idle = IS("cpu_idle");

		f = field(p, n, "cpu_id", 0, &flen);
		if (!number(f, flen, !!f, &a))
			return 0;
		f = field(p, n, "state", 0, &flen);
		if (!number(f, flen, !!f, &b))
			return 0;
		v->kind = idle ? INITIAL_CPU_IDLE : INITIAL_CPU_FREQUENCY;
		v->cpu = (int)a;
		/* cpu_idle's state is a u32: PWR_EVENT_EXIT (4294967295) is -1, as in the events */
		v->value = idle ? (int64_t)(int32_t)(uint32_t)b : b;
		return v->cpu >= 0;
	}
	if (IS("thermal_temperature")) {
		f = field(p, n, "temp", 0, &flen);
		if (!number(f, flen, !!f, &b))
			return 0;
		f = field(p, n, "thermal_zone", 1, &flen);
		if (!f || !flen)
			return 0;
		snprintf(v->zone, sizeof(v->zone), "%.*s", flen, f);
		v->kind = INITIAL_THERMAL;
		v->value = b;
		return 1;
	}
	if (IS("oom_score_adj_update")) {
		f = field(p, n, "pid", 0, &flen);
		if (!number(f, flen, !!f, &a))
			return 0;
		f = field(p, n, "oom_score_adj", 0, &flen);
		if (!number(f, flen, !!f, &b))
			return 0;
		v->kind = INITIAL_OOM_SCORE_ADJ;
		v->pid = (int)a;
		v->value = b;
		return v->pid > 0;
	}
	if (IS("task")) {
		f = field(p, n, "pid", 0, &flen);
		if (!number(f, flen, !!f, &a))
			return 0;
		f = field(p, n, "tgid", 0, &flen);
		if (!number(f, flen, !!f, &b))
			return 0;
		f = field(p, n, "comm", 1, &flen);
		if (!f || !flen || flen >= (int)sizeof(v->name))
			return 0;
		snprintf(v->name, sizeof(v->name), "%.*s", flen, f);
		v->kind = INITIAL_TASK;
		v->pid = (int)a;
		v->value = b;
		return v->pid > 0 && b > 0 && b <= INT32_MAX && a <= INT32_MAX;
	}
#undef IS
	return 0;
}
