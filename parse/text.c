/* parse/text.c: reading ftrace text: the tracefs `trace` file and `trace-cmd report` output. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/catalogue.h"
#include "parse/load.h"
#include "parse/sink.h"
#include "parse/text.h"
#include "util/grow.h"
#include "util/xalloc.h"

/*
 * How a text trace is read. Pass 1 walks every line once: it splits each event line, learns
 * the buffers (instance prefixes), the CPUs, the event types and, for events without a built-in
 * field list, their keys and whether every value is an integer; it also notes whether the
 * timestamps are sorted. The types are then registered, and pass 2 walks the lines again (in
 * file order when sorted, else through an index stably sorted by timestamp) and emits each
 * record. The file is mapped, lines are never copied, and the common path allocates nothing.
 */

static inline int is_blank(int c)
{
	return c == ' ' || c == '\t';
}

static inline int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static inline int is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int span_eq(const char *s, int len, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)len == n && !memcmp(s, lit, n);
}

static int starts_with(const char *s, int len, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)len >= n && !memcmp(s, lit, n);
}

static const char *find_span(const char *s, int len, const char *lit)
{
	return memmem(s, len, lit, strlen(lit));
}

/* Parse a timestamp token "SSSS.FFFFFF:" (or "CCCC:" for counter clocks); *after past ':'. */
static int parse_ts(const char *p, const char *end, uint64_t *ts, int *digits, const char **after)
{
	uint64_t sec = 0, frac = 0;
	int ni = 0, nd = 0, dot = 0;

	while (p < end && is_digit(*p)) {
		if (ni >= 19)
			return 0;
		sec = sec * 10 + (*p - '0');
		ni++;
		p++;
	}
	if (!ni)
		return 0;
	if (p < end && *p == '.') {
		dot = 1;
		p++;
		while (p < end && is_digit(*p)) {
			if (nd < 9)
				frac = frac * 10 + (*p - '0');
			nd++;
			p++;
		}
		if (!nd)
			return 0;
	}
	if (p >= end || *p != ':')
		return 0;
	if (p + 1 < end && !is_blank(p[1]))
		return 0;
	if (dot) {
		if (sec > UINT64_MAX / 1000000000ull - 1)
			return 0;
		for (int i = nd < 9 ? nd : 9; i < 9; i++)
			frac *= 10;
		*ts = sec * 1000000000ull + frac;
		*digits = nd;
	} else {
		*ts = sec;
		*digits = 0;
	}
	*after = p + 1;
	return 1;
}

/* After the "[CPU]" column: optional latency flags, then the timestamp. */
static int parse_after_cpu(const char *p, const char *end, struct text_line *o, const char **after)
{
	const char *tok, *tend;

	while (p < end && is_blank(*p))
		p++;
	tok = p;
	while (p < end && !is_blank(*p))
		p++;
	tend = p;
	if (tend > tok && parse_ts(tok, end, &o->ts, &o->ts_digits, after) && *after == tend)
		return 1;
	if (tend == tok || tend - tok > 8)
		return 0;
	o->flags = tok;
	o->flags_len = tend - tok;
	while (p < end && is_blank(*p))
		p++;
	if (parse_ts(p, end, &o->ts, &o->ts_digits, after))
		return 1;
	o->flags = NULL;
	o->flags_len = 0;
	return 0;
}

/*
 * Event names written in text that stand for another event, as that event's name. Old Android
 * kernels (3.x) print a trace marker as "0: B|pid|name": the tracefs form "SYM: msg" of the
 * print event with its ip unresolved, in place of "tracing_mark_write: ..." (catapult's
 * systrace importer reads event "0" as tracing_mark_write too).
 */
static const struct {
	const char *written, *event;
} event_alias[] = {
	{ "0", "tracing_mark_write" },
};

/* Replace an event name as written (*ev, *len) by the event it stands for, if it is an alias. */
static void text_event_canonical(const char **ev, int *len)
{
	for (size_t i = 0; i < sizeof(event_alias) / sizeof(event_alias[0]); i++) {
		if (span_eq(*ev, *len, event_alias[i].written)) {
			*ev = event_alias[i].event;
			*len = (int)strlen(event_alias[i].event);
			return;
		}
	}
}

int text_parse_line(const char *line, size_t len, struct text_line *o)
{
	const char *end = line + len, *p, *lb = NULL, *after = NULL, *le, *d, *cs, *cend;
	int pid = 0, nd = 0;

	memset(o, 0, sizeof(*o));
	o->tgid = -1;
	o->pid = -1;
	o->cpu = -1;
	while (end > line && (end[-1] == '\r' || end[-1] == '\n' || is_blank(end[-1])))
		end--;
	p = line;
	while (p < end && is_blank(*p))
		p++;
	if (p == end || *p == '#')
		return 0;

	/*
	 * The CPU column: the first "[digits]" followed by optional flags and a timestamp.
	 * trace-cmd report prints a counter clock's raw counts right after it ("[000]123456: ").
	 */
	for (const char *s = p; s < end && (s = memchr(s, '[', end - s)); s++) {
		const char *q = s + 1;
		int cpu = 0, n = 0;

		while (q < end && is_digit(*q) && n < 7) {
			cpu = cpu * 10 + (*q - '0');
			n++;
			q++;
		}
		if (!n || q >= end || *q != ']' || q + 1 >= end ||
		    !(is_blank(q[1]) || is_digit(q[1])))
			continue;
		if (parse_after_cpu(q + 1, end, o, &after)) {
			lb = s;
			o->cpu = cpu;
			break;
		}
	}
	if (!lb)
		return 0;

	/* The event name and its payload. */
	p = after;
	while (p < end && is_blank(*p))
		p++;
	o->event = p;
	while (p < end && *p != ':' && !is_blank(*p))
		p++;
	if (p == o->event || p >= end || *p != ':') {
		o->event = NULL;
		return -1;
	}
	o->event_len = p - o->event;
	text_event_canonical(&o->event, &o->event_len);
	p++;
	while (p < end && is_blank(*p))
		p++;
	o->payload = p;
	o->payload_len = end - p;

	/* Left of the CPU column: [prefix: ] comm-pid [(tgid)] */
	le = lb;
	while (le > line && is_blank(le[-1]))
		le--;
	if (le > line && le[-1] == ')') {
		const char *op = memrchr(line, '(', le - line), *a, *b;
		int dashes = 0, digits = 0, tgid = 0;

		if (!op)
			return -1;
		a = op + 1;
		b = le - 1;
		while (a < b && is_blank(*a))
			a++;
		while (b > a && is_blank(b[-1]))
			b--;
		for (const char *c = a; c < b; c++) {
			if (*c == '-') {
				dashes++;
			} else if (is_digit(*c) && digits < 9) {
				tgid = tgid * 10 + (*c - '0');
				digits++;
			} else {
				return -1;
			}
		}
		if ((dashes && digits) || (!dashes && !digits))
			return -1;
		o->tgid = digits ? tgid : -1;
		le = op;
		while (le > line && is_blank(le[-1]))
			le--;
	}
	d = le;
	while (d > line && is_digit(d[-1]))
		d--;
	if (d == le || le - d > 9 || d == line || d[-1] != '-')
		return -1;
	for (const char *c = d; c < le; c++, nd++)
		pid = pid * 10 + (*c - '0');
	o->pid = pid;
	cend = d - 1;
	cs = line;
	if (!is_blank(*line)) {
		/* `trace-cmd report` of a file with instances: "name:" then the padded comm */
		for (const char *c = line; c + 1 < cend; c++) {
			if (*c == ':' && is_blank(c[1])) {
				o->buffer = line;
				o->buffer_len = c - line;
				cs = c + 1;
				break;
			}
		}
	}
	while (cs < cend && is_blank(*cs))
		cs++;
	o->comm = cs;
	o->comm_len = cend - cs;
	return 1;
}

int text_parse_lost(const char *line, size_t len, struct text_lost *o)
{
	const char *end = line + len, *p = line, *q;
	int cpu = 0, n = 0;
	int64_t count = 0;

	memset(o, 0, sizeof(*o));
	while (end > p && (end[-1] == '\r' || is_blank(end[-1])))
		end--;
	if (starts_with(p, end - p, "##### CPU ")) {
		/* tracefs, after an overrun: the CPU's older records were overwritten */
		p += 10;
		while (p < end && is_digit(*p) && n < 7) {
			cpu = cpu * 10 + (*p - '0');
			n++;
			p++;
		}
		if (!n || !span_eq(p, end - p, " buffer started ####"))
			return 0;
		o->cpu = cpu;
		o->count = -1;
		return 1;
	}
	if (!starts_with(p, end - p, "CPU:")) {
		/* "name: CPU:N ..." */
		q = find_span(p, end - p, ": CPU:");
		if (!q || q == p)
			return 0;
		for (const char *c = p; c < q; c++)
			if (is_blank(*c))
				return 0;
		o->buffer = p;
		o->buffer_len = q - p;
		p = q + 2;
	}
	p += 4;
	while (p < end && is_digit(*p) && n < 7) {
		cpu = cpu * 10 + (*p - '0');
		n++;
		p++;
	}
	if (!n || p >= end || *p != ' ')
		return 0;
	p++;
	o->cpu = cpu;
	if (span_eq(p, end - p, "[EVENTS DROPPED]")) {
		o->count = -1;
		return 1;
	}
	if (starts_with(p, end - p, "[LOST ")) {
		p += 6;
		q = p;
		while (p < end && is_digit(*p) && p - q < 18)
			count = count * 10 + (*p++ - '0');
		if (p == q || !span_eq(p, end - p, " EVENTS]"))
			return 0;
		o->count = count;
		return 1;
	}
	if (*p == '[') {
		p++;
		q = p;
		while (p < end && is_digit(*p) && p - q < 18)
			count = count * 10 + (*p++ - '0');
		if (p == q || !span_eq(p, end - p, " EVENTS DROPPED]"))
			return 0;
		o->count = count;
		return 1;
	}
	return 0;
}

/* ---- payloads ---- */

/* Length of the key starting at p ("key=" or, for colon_keys, "key:"), 0 if none; *val after. */
static int key_at(const char *p, const char *end, const char *const *colon_keys,
		  const char **val)
{
	const char *q = p;

	if (q >= end || !(is_alpha(*q) || *q == '_'))
		return 0;
	q++;
	while (q < end && (is_alpha(*q) || is_digit(*q) || *q == '_' || *q == '-' || *q == '.'))
		q++;
	if (q < end && *q == '=') {
		*val = q + 1;
		return q - p;
	}
	if (colon_keys && q < end && *q == ':') {
		for (int i = 0; colon_keys[i]; i++) {
			if (span_eq(p, q - p, colon_keys[i])) {
				*val = q + 1;
				return q - p;
			}
		}
	}
	return 0;
}

static int is_arrow(const char *q, const char *end)
{
	return end - q >= 3 && q[0] == '=' && q[1] == '=' && q[2] == '>' &&
	       (q + 3 == end || is_blank(q[3]));
}

int text_split_kv(const char *p, int len, struct text_kv *kv, int max, const char *tail_key,
		  const char *const *colon_keys)
{
	const char *end = p + len, *s = p, *lead, *val = NULL, *lend;
	int n = 0, kl;

	while (s < end && is_blank(*s))
		s++;
	if (starts_with(s, end - s, "[FAILED TO PARSE]")) {
		s += strlen("[FAILED TO PARSE]");
		while (s < end && is_blank(*s))
			s++;
	}
	/* Text before the first key (a name printed bare, as clock_set_rate does). */
	lead = s;
	while (s < end && !key_at(s, end, colon_keys, &val)) {
		while (s < end && !is_blank(*s))
			s++;
		while (s < end && is_blank(*s))
			s++;
	}
	if (s >= end)
		return 0;
	lend = s;
	while (lend > lead && is_blank(lend[-1]))
		lend--;
	if (lend > lead && n < max)
		kv[n++] = (struct text_kv){ "text", 4, lead, (int)(lend - lead), 0 };
	while (s < end && n < max) {
		const char *key = s, *q, *vend, *next = end;

		kl = key_at(s, end, colon_keys, &val);
		if (!kl) {
			/* stray text between pairs (after "==>"): skip a token */
			while (s < end && !is_blank(*s))
				s++;
			while (s < end && is_blank(*s))
				s++;
			continue;
		}
		if ((tail_key && span_eq(key, kl, tail_key)) || n == max - 1) {
			/* the tail key, or the last slot: the value runs to the end */
			kv[n++] = (struct text_kv){ key, kl, val, (int)(end - val), 0 };
			break;
		}
		q = val;
		vend = val;
		for (;;) {
			const char *tmp;

			while (q < end && !is_blank(*q))
				q++;
			vend = q;
			while (q < end && is_blank(*q))
				q++;
			if (q >= end) {
				next = end;
				break;
			}
			if (is_arrow(q, end)) {
				q += 3;
				while (q < end && is_blank(*q))
					q++;
				next = q;
				break;
			}
			if (key_at(q, end, colon_keys, &tmp)) {
				next = q;
				break;
			}
		}
		kv[n++] = (struct text_kv){ key, kl, val, (int)(vend - val), 0 };
		s = next;
	}
	return n;
}

/* "COMM:PID [PRIO]" in [s, e): the comm runs to the last ':' before the last " [". */
static int split_task(const char *s, const char *e, const char **comm, int *comm_len,
		      const char **pid, int *pid_len, const char **prio, int *prio_len,
		      const char **rest)
{
	const char *lb = NULL, *colon, *rb;

	for (const char *c = e - 1; c > s; c--) {
		if (*c == '[' && is_blank(c[-1])) {
			lb = c;
			break;
		}
	}
	if (!lb)
		return 0;
	rb = memchr(lb, ']', e - lb);
	if (!rb)
		return 0;
	colon = memrchr(s, ':', lb - s);
	if (!colon)
		return 0;
	*comm = s;
	*comm_len = colon - s;
	*pid = colon + 1;
	*pid_len = lb - 1 - (colon + 1);
	while (*pid_len > 0 && is_blank((*pid)[*pid_len - 1]))
		(*pid_len)--;
	*prio = lb + 1;
	*prio_len = rb - (lb + 1);
	*rest = rb + 1;
	return *pid_len > 0;
}

/* sched plugin: "prev:1 [120] S ==> next:2 [120]" */
static int split_switch_plugin(const char *p, int len, struct text_kv *kv, int max)
{
	const char *end = p + len, *arrow = find_span(p, len, " ==> "), *c, *pid, *prio, *rest;
	int cl, pl, rl;

	if (!arrow || max < 7)
		return 0;
	if (!split_task(p, arrow, &c, &cl, &pid, &pl, &prio, &rl, &rest))
		return 0;
	kv[0] = (struct text_kv){ "prev_comm", 9, c, cl, 0 };
	kv[1] = (struct text_kv){ "prev_pid", 8, pid, pl, 0 };
	kv[2] = (struct text_kv){ "prev_prio", 9, prio, rl, 0 };
	while (rest < arrow && is_blank(*rest))
		rest++;
	kv[3] = (struct text_kv){ "prev_state", 10, rest, (int)(arrow - rest), TEXT_KV_PLUGIN_STATE };
	p = arrow + 5;
	while (p < end && is_blank(*p))
		p++;
	if (!split_task(p, end, &c, &cl, &pid, &pl, &prio, &rl, &rest))
		return 0;
	kv[4] = (struct text_kv){ "next_comm", 9, c, cl, 0 };
	kv[5] = (struct text_kv){ "next_pid", 8, pid, pl, 0 };
	kv[6] = (struct text_kv){ "next_prio", 9, prio, rl, 0 };
	return 7;
}

/* sched plugin: "comm:15 [120] [success=1 | failed] CPU:001" */
static int split_wakeup_plugin(const char *p, int len, struct text_kv *kv, int max)
{
	const char *end = p + len, *cpu = NULL, *c, *pid, *prio, *rest;
	int cl, pl, rl, n = 0;

	for (const char *q = end - 4; q > p; q--) {
		if (is_blank(q[-1]) && !memcmp(q, "CPU:", 4)) {
			cpu = q;
			break;
		}
	}
	if (!cpu || max < 5)
		return 0;
	if (!split_task(p, cpu, &c, &cl, &pid, &pl, &prio, &rl, &rest))
		return 0;
	kv[n++] = (struct text_kv){ "comm", 4, c, cl, 0 };
	kv[n++] = (struct text_kv){ "pid", 3, pid, pl, 0 };
	kv[n++] = (struct text_kv){ "prio", 4, prio, rl, 0 };
	while (rest < cpu && is_blank(*rest))
		rest++;
	if (starts_with(rest, cpu - rest, "success=")) {
		const char *v = rest + 8, *ve = v;

		while (ve < cpu && !is_blank(*ve))
			ve++;
		kv[n++] = (struct text_kv){ "success", 7, v, (int)(ve - v), 0 };
	} else if (starts_with(rest, cpu - rest, "failed")) {
		kv[n++] = (struct text_kv){ "success", 7, "0", 1, 0 };
	}
	kv[n++] = (struct text_kv){ "target_cpu", 10, cpu + 4, (int)(end - cpu - 4), 0 };
	return n;
}

/*
 * ftrace messages "SYM: msg": ip is SYM (a symbol, or "0x..." with the "s" that old
 * libtraceevent leaves after %ps); key gets msg, or the whole payload when whole is set (the
 * trace.dat reader stores bprint/bputs as their full formatted text).
 */
static int split_message(const char *p, int len, struct text_kv *kv, const char *key, int whole)
{
	const char *end = p + len, *colon = find_span(p, len, ": ");
	int n = 0;

	if (colon) {
		for (const char *c = p; c < colon; c++) {
			if (is_blank(*c)) {
				colon = NULL;
				break;
			}
		}
	}
	if (colon && colon > p) {
		int il = colon - p;

		if (il > 3 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && p[il - 1] == 's')
			il--;
		kv[n++] = (struct text_kv){ "ip", 2, p, il, 0 };
		if (!whole)
			p = colon + 2;
	}
	kv[n++] = (struct text_kv){ key, (int)strlen(key), p, (int)(end - p), 0 };
	return n;
}

static const char *const victim_colon_keys[] = { "file-rss", "shmem-rss", NULL };

/* lowmemory_kill: "%s (%d), page cache %ldkB (limit %ldkB), free %ldKb" */
static int split_lowmemory_kill(const char *p, int len, struct text_kv *kv)
{
	const char *end = p + len, *pc = find_span(p, len, "), page cache "), *op, *q, *e;
	static const char *const keys[] = { "pagecache_size", "pagecache_limit", "free" };
	static const char *const seps[] = { "), page cache ", "kB (limit ", "kB), free " };
	int n = 0;

	if (!pc)
		return 0;
	op = memrchr(p, '(', pc - p);
	if (!op || op == p)
		return 0;
	e = op;
	while (e > p && is_blank(e[-1]))
		e--;
	kv[n++] = (struct text_kv){ "comm", 4, p, (int)(e - p), 0 };
	kv[n++] = (struct text_kv){ "pid", 3, op + 1, (int)(pc - op - 1), 0 };
	q = pc;
	for (int i = 0; i < 3; i++) {
		const char *v, *ve;

		if (!starts_with(q, end - q, seps[i]))
			return n;
		v = q + strlen(seps[i]);
		ve = v;
		while (ve < end && (is_digit(*ve) || *ve == '-'))
			ve++;
		kv[n++] = (struct text_kv){ keys[i], (int)strlen(keys[i]), v, (int)(ve - v), 0 };
		q = ve;
	}
	return n;
}

/* fence_annotate_wait_on: "driver=.. context=.. seqno=.. waits on driver=.. seqno=.." */
static int split_annotate(const char *p, int len, struct text_kv *kv, int max)
{
	static const char *const waiting[] = { "waiting_driver", "waiting_timeline",
					       "waiting_context", "waiting_seqno" };
	const char *w = find_span(p, len, " waits on ");
	int n, m;

	if (!w)
		return text_split_kv(p, len, kv, max, NULL, NULL);
	n = text_split_kv(p, w - p, kv, max / 2, NULL, NULL);
	m = text_split_kv(w + 10, p + len - (w + 10), kv + n, max / 2, NULL, NULL);
	for (int i = n; i < n + m; i++) {
		for (int k = 0; k < 4; k++) {
			if (span_eq(kv[i].key, kv[i].key_len, waiting[k] + 8)) {
				kv[i].key = waiting[k];
				kv[i].key_len = (int)strlen(waiting[k]);
				break;
			}
		}
	}
	return n + m;
}

int text_split_payload(const char *ev, int evlen, const char *p, int len, struct text_kv *kv,
		       int max)
{
	int n;

	if (max < 8)
		return 0;
	if (span_eq(ev, evlen, "sched_switch")) {
		if (!starts_with(p, len, "prev_comm=")) {
			n = split_switch_plugin(p, len, kv, max);
			if (n)
				return n;
		}
	} else if (span_eq(ev, evlen, "sched_wakeup") || span_eq(ev, evlen, "sched_waking") ||
		   span_eq(ev, evlen, "sched_wakeup_new")) {
		if (!starts_with(p, len, "comm=")) {
			n = split_wakeup_plugin(p, len, kv, max);
			if (n)
				return n;
		}
	} else if (span_eq(ev, evlen, "tracing_mark_write")) {
		kv[0] = (struct text_kv){ "buf", 3, p, len, 0 };
		return 1;
	} else if (span_eq(ev, evlen, "print")) {
		int hex = 0;

		if (starts_with(p, len, "ip="))
			return text_split_kv(p, len, kv, max, "buf", NULL);
		/* 3.4 kernels print "%08lx %s": the ip in hex, a blank, the message */
		while (hex < len && hex < 16 && ((p[hex] >= '0' && p[hex] <= '9') ||
						 (p[hex] >= 'a' && p[hex] <= 'f')))
			hex++;
		if ((hex == 8 || hex == 16) && hex < len && p[hex] == ' ') {
			kv[0] = (struct text_kv){ "ip", 2, p, hex, 0 };
			kv[1] = (struct text_kv){ "buf", 3, p + hex + 1, len - hex - 1, 0 };
			return 2;
		}
		return split_message(p, len, kv, "buf", 0);
	} else if (span_eq(ev, evlen, "bprint")) {
		if (starts_with(p, len, "ip="))
			return text_split_kv(p, len, kv, max, "buf", NULL);
		return split_message(p, len, kv, "buf", 1);
	} else if (span_eq(ev, evlen, "bputs")) {
		if (starts_with(p, len, "ip="))
			return text_split_kv(p, len, kv, max, "str", NULL);
		return split_message(p, len, kv, "str", 1);
	} else if (span_eq(ev, evlen, "mark_victim")) {
		return text_split_kv(p, len, kv, max, NULL, victim_colon_keys);
	} else if (span_eq(ev, evlen, "lowmemory_kill")) {
		return split_lowmemory_kill(p, len, kv);
	} else if (span_eq(ev, evlen, "fence_annotate_wait_on")) {
		return split_annotate(p, len, kv, max);
	}
	return text_split_kv(p, len, kv, max, NULL, NULL);
}

/* ---- values ---- */

static int parse_uint(const char *p, const char *e, int base, uint64_t *out)
{
	uint64_t x = 0;

	if (p >= e)
		return 0;
	for (; p < e; p++) {
		int d;

		if (is_digit(*p))
			d = *p - '0';
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			return 0;
		if (x > (UINT64_MAX - d) / base)
			return 0;
		x = x * base + d;
	}
	*out = x;
	return 1;
}

int text_parse_int(const char *v, int len, int64_t *out)
{
	const char *p = v, *e = v + len, *b;
	uint64_t x;
	int neg = 0;

	while (p < e && is_blank(*p))
		p++;
	while (e > p && is_blank(e[-1]))
		e--;
	/* "123 [ns]": a bracketed annotation after the number */
	b = p;
	while (b < e && !is_blank(*b))
		b++;
	if (b < e) {
		const char *r = b;

		while (r < e && is_blank(*r))
			r++;
		if (*r != '[' || e[-1] != ']')
			return 0;
		e = b;
	}
	if (p < e && (*p == '-' || *p == '+')) {
		neg = *p == '-';
		p++;
	}
	if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		if (!parse_uint(p + 2, e, 16, &x))
			return 0;
	} else if (!parse_uint(p, e, 10, &x)) {
		return 0;
	}
	if (neg) {
		if (x > (uint64_t)INT64_MAX + 1)
			return 0;
		*out = (int64_t)(0 - x);
	} else {
		*out = (int64_t)x;
	}
	return 1;
}

int text_state_value(const char *s, int len, int plugin, int numbering, int64_t preempt,
		     int64_t *out)
{
	/* the plugin's table: bits 0-7 of the raw value, whatever the kernel */
	const char *table = plugin ? "SDTtZXxW" : ld_state_bits(numbering);
	int pre = !plugin && numbering == LD_STATE_PRE414;
	int64_t v = 0;
	int any = 0, noload = 0;

	for (int i = 0; i < len; i++) {
		char c = s[i];
		const char *hit;

		if (c == '|' || c == 'R') {
			any |= c == 'R';
			continue;
		}
		any = 1;
		if (c == '+') {
			v |= pre ? preempt : 0x100;
			continue;
		}
		hit = c ? strchr(table, c) : NULL;
		if (hit) {
			v |= 1 << (hit - table);
			continue;
		}
		/* letters the numbering has not: their nearest in it */
		switch (c) {
		case 'P': v |= 0x40; break;
		case 'I': v |= pre ? 0x402 : 0x80; break;	/* idle: D|N before 4.14 */
		case 'x': v |= 0x10; break;	/* TASK_DEAD: dead, X from 4.14 */
		case 'K': break;		/* wakekill: a modifier of D */
		case 'W': break;		/* waking */
		case 'n': break;		/* new */
		case 'N': noload = 1; break;	/* D|N is the idle state */
		default: return 0;
		}
	}
	if (!any)
		return 0;
	if (noload && (v & 2))
		v = (v & ~2) | 0x80;
	*out = v;
	return 1;
}

/*
 * ---- prev_state numbering (doc/db.md) ----
 * Pass 1 weighs what the sched_switch lines say about the numbering of their prev_state: values
 * one numbering cannot give, the letters of one numbering, and what became of tasks switched out
 * with 64 (x, dead, before 4.14; P, parked, from 4.14 on).
 */
/* What pass 1 reads of a type's lines for the numbering. */
enum { TT_OTHER, TT_SWITCH, TT_FORK, TT_NEWTASK };

enum {
	EV_HIGH, EV_MULTI, EV_LETTER_PRE, EV_DEAD64,	/* for kernels before 4.14 */
	EV_ALONE128, EV_ALONE256, EV_EXIT, EV_LIVE64, EV_LETTER_I,	/* for 4.14 on */
	EV__COUNT
};

static const struct {
	int pre;	/* evidence for kernels before 4.14, else for 4.14 on */
	int strong;	/* one numbering cannot give it; else only likely */
	const char *what;
} evidence[EV__COUNT] = {
	[EV_HIGH] = { 1, 1, "values above 511 (4.14+ has 9 bits)" },
	[EV_MULTI] = { 1, 1, "values of two states (4.14+ reports one)" },
	[EV_LETTER_PRE] = { 1, 1, "letters x, K, W or N (kernels before 4.14)" },
	[EV_DEAD64] = { 1, 0, "switch-outs with 64 of tasks never seen again (x, dead)" },
	[EV_ALONE128] = { 0, 1, "values 128 (4.14+ I; before, K never comes alone)" },
	[EV_ALONE256] = { 0, 1, "values 256 (4.14+ preempted; before, W: waking)" },
	[EV_EXIT] = { 0, 1, "values 16 or 32 (4.14+ X, Z; before, never a task's state)" },
	[EV_LIVE64] = { 0, 1, "switch-outs with 64 of tasks that ran again (P, parked; x never runs)" },
	[EV_LETTER_I] = { 0, 1, "letter I (4.14+)" },
};

struct state_ev {
	uint64_t n[EV__COUNT];
	uint64_t values;		/* sched_switch lines with a prev_state */
	int64_t top;			/* the highest bit of a numeric value */
	int top_alone;			/* top seen as a value alone */
	int letter_n;			/* letter N seen */
	unsigned char *pend;		/* bitmap: pids switched out with 64, not seen since */
	size_t npend;			/* bytes */
};

#define PID_LIMIT (1 << 22)	/* PID_MAX_LIMIT */

static int pend_test(struct state_ev *e, int64_t pid, int clear)
{
	int hit;

	if (pid <= 0 || (size_t)(pid >> 3) >= e->npend)
		return 0;
	hit = e->pend[pid >> 3] >> (pid & 7) & 1;
	if (clear)
		e->pend[pid >> 3] &= ~(1u << (pid & 7));
	return hit;
}

static void pend_set(struct state_ev *e, int64_t pid)
{
	if (pid <= 0 || pid >= PID_LIMIT)
		return;
	if ((size_t)(pid >> 3) >= e->npend) {
		size_t n = e->npend ? e->npend : 1024;

		while (n <= (size_t)(pid >> 3))
			n *= 2;
		e->pend = trax_realloc_array(e->pend, n, 1);
		memset(e->pend + e->npend, 0, n - e->npend);
		e->npend = n;
	}
	e->pend[pid >> 3] |= 1u << (pid & 7);
}

static const struct text_kv *kv_find(const struct text_kv *kv, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (span_eq(kv[i].key, kv[i].key_len, key))
			return &kv[i];
	return NULL;
}

static int kv_int(const struct text_kv *kv, int n, const char *key, int64_t *out)
{
	const struct text_kv *k = kv_find(kv, n, key);

	return k && text_parse_int(k->val, k->val_len, out);
}

/* One event line of pass 1: role is the type's (TT_*), kv its pairs. */
static void state_evidence(struct state_ev *e, int role, int pid, const struct text_kv *kv, int n)
{
	const struct text_kv *k;
	int64_t v, x;

	if (pend_test(e, pid, 1))	/* it ran: not dead */
		e->n[EV_LIVE64]++;
	if (role == TT_FORK || role == TT_NEWTASK) {
		/* the pid is born again: the task switched out with 64 was dead */
		if (kv_int(kv, n, role == TT_FORK ? "child_pid" : "pid", &x) && pend_test(e, x, 1))
			e->n[EV_DEAD64]++;
		return;
	}
	if (role != TT_SWITCH)
		return;
	if (kv_int(kv, n, "next_pid", &x) && pend_test(e, x, 1))
		e->n[EV_LIVE64]++;
	k = kv_find(kv, n, "prev_state");
	if (!k)
		return;
	if (text_parse_int(k->val, k->val_len, &v)) {
		int64_t hi = v > 0 ? (int64_t)1 << (63 - __builtin_clzll((unsigned long long)v)) : 0;

		if (v < 0)
			return;
		if (hi > e->top) {
			e->top = hi;
			e->top_alone = 0;
		}
		e->top_alone |= v == e->top;
	} else if (k->flags & TEXT_KV_PLUGIN_STATE) {
		if (!text_state_value(k->val, k->val_len, 1, LD_STATE_414, 0, &v))
			return;
	} else {
		int pre = 0, i = 0;

		for (int j = 0; j < k->val_len; j++) {
			pre |= strchr("xKWN", k->val[j]) && k->val[j];
			i |= k->val[j] == 'I';
			e->letter_n |= k->val[j] == 'N';
		}
		e->values++;
		e->n[EV_LETTER_PRE] += pre;
		e->n[EV_LETTER_I] += i;
		return;
	}
	/* a raw value (or its bits 0-7, from the plugin) */
	e->values++;
	if (v >= 0x200)
		e->n[EV_HIGH]++;
	else if (v & (v - 1))
		e->n[EV_MULTI]++;
	else if (v == 0x80)
		e->n[EV_ALONE128]++;
	else if (v == 0x100)
		e->n[EV_ALONE256]++;
	else if (v == 0x10 || v == 0x20)
		e->n[EV_EXIT]++;
	else if (v == 0x40 && kv_int(kv, n, "prev_pid", &x))
		pend_set(e, x);
}

/*
 * The numbering the evidence calls for, and why (into why). Values only one numbering can give
 * decide, the more of them if both kinds are seen; without any, tasks switched out with 64 and
 * never seen again are dying tasks of a kernel before 4.14; else 4.14 on.
 */
static int state_numbering(struct state_ev *e, int64_t *preempt, char *why, size_t whylen)
{
	uint64_t score[2] = { 0, 0 };
	int num, n = 0;

	for (size_t i = 0; i < e->npend; i++)	/* switched out with 64, never seen again */
		e->n[EV_DEAD64] += __builtin_popcount(e->pend[i]);
	for (int i = 0; i < EV__COUNT; i++)
		if (evidence[i].strong)
			score[evidence[i].pre] += e->n[i];
	if (score[0] || score[1])
		num = score[1] > score[0] ? LD_STATE_PRE414 : LD_STATE_414;
	else
		num = e->n[EV_DEAD64] ? LD_STATE_PRE414 : LD_STATE_414;
	why[0] = '\0';
	for (int against = 0; against < 2; against++) {
		const char *sep = against ? "; against: " : "";

		for (int i = 0; i < EV__COUNT; i++) {
			if (!e->n[i] || (evidence[i].pre != (num == LD_STATE_PRE414)) != against)
				continue;
			n += snprintf(why + n, n < (int)whylen ? whylen - n : 0, "%s%s: %llu",
				      n ? sep : "", evidence[i].what, (unsigned long long)e->n[i]);
			sep = "; ";
		}
	}
	if (!why[0])
		snprintf(why, whylen, "no value the numberings read differently: the default");
	/* before 4.14 the preempted flag is TASK_STATE_MAX, above every state bit: the top bit
	 * when seen alone (a preempted task has no other), else the bit above it */
	if (e->top >= 0x400 && e->top_alone)
		*preempt = e->top;
	else if (e->top >= 0x400)
		*preempt = e->top << 1;
	else
		*preempt = e->letter_n ? 0x800 : 0x400;
	return num;
}

/* ---- built-in text forms (parse/catalogue.c) ---- */

/* The row of an event name as a text trace writes it (no system), *spelling its spelling. */
static const struct ev_fact *builtin_find(const char *name, int len, int *spelling)
{
	const struct ev_fact *f;

	if (span_eq(name, len, "tracing_mark_write"))
		name = "print", len = 5;
	f = ev_fact_find(NULL, name, len, spelling);
	return f && f->text ? f : NULL;
}

/* ---- the reader ---- */

struct tfield {
	char *name;
	int len;
	const struct bfield *b;	/* built-in definition, NULL for a learnt key */
	int all_int;		/* learnt key: every value so far is an integer */
};

struct ttype {
	char *name;		/* the table's event name (canonical: "print") */
	const struct ev_fact *b;	/* its catalogue row when it has a text form, else NULL */
	int spell;			/* the spelling of b it is */
	struct tfield *f;
	int nf, cf;
	struct ld_type *t;	/* NULL: no field at all, lines go to raw_event */
	uint64_t lines;
	int role;		/* TT_* */
	struct ttype *next;
};

struct tname {			/* event name as written in the file -> type */
	char *name;
	int len;
	struct ttype *tt;
};

struct tbuf {
	char *name;
	int len;
};

struct tix {			/* unsorted files: a line and the timestamp it sorts by */
	uint64_t ts;
	uint64_t off;
};

struct text {
	struct loader *L;
	const char *path;
	const char *map;
	size_t size;
	int mapped;

	struct tname *names;	/* open addressing */
	size_t ncap, nused;
	struct ttype *types, **types_tail;

	struct tbuf *bufs;
	int nbufs, last_buf;
	int have_unprefixed;
	int *buf_index;		/* pass-1 buffer slot -> emitted buffer number */

	int max_cpu, hdr_cpus;
	int min_digits;
	uint64_t events, malformed, lost_lines, ignored, first_ignored;
	int tracefs, tracecmd;
	int have_entries;		/* tracefs header: entries in buffer / written */
	uint64_t entries_in, entries_written;
	int sorted;
	uint64_t last_ts;

	struct tix *ix;
	size_t nix, cix;
	size_t *pend_ix;	/* index entries waiting for the next event's timestamp */
	size_t npend, cpend;

	struct state_ev sev;		/* pass 1: the prev_state numbering */
	int numbering;			/* LD_STATE_* */
	int64_t preempt;		/* its '+' bit */

	int ncpus, nout;
	int64_t *lost_pend;	/* [buffer * ncpus + cpu]: pending lost count, INT64_MIN: none */
	struct ld_val *vals;
	int nvals;
};

static uint32_t hash_span(const char *s, int len)
{
	uint32_t h = 2166136261u;

	for (int i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static struct tname *name_slot(struct text *R, const char *s, int len)
{
	size_t i = hash_span(s, len) & (R->ncap - 1);

	while (R->names[i].name && !(R->names[i].len == len && !memcmp(R->names[i].name, s, len)))
		i = (i + 1) & (R->ncap - 1);
	return &R->names[i];
}

static void names_grow(struct text *R)
{
	struct tname *old = R->names;
	size_t ocap = R->ncap;

	R->ncap = ocap ? ocap * 2 : 256;
	R->names = xcalloc(R->ncap, sizeof(*R->names));
	for (size_t i = 0; i < ocap; i++)
		if (old[i].name)
			*name_slot(R, old[i].name, old[i].len) = old[i];
	free(old);
}

static struct ttype *type_by_canonical(struct text *R, const char *name)
{
	for (struct ttype *tt = R->types; tt; tt = tt->next)
		if (!strcmp(tt->name, name))
			return tt;
	return NULL;
}

static void field_add(struct ttype *tt, const char *name, int len, const struct bfield *b)
{
	TRAX_GROW(tt->f, tt->nf, tt->cf, 8);
	tt->f[tt->nf].name = xmemdup0(name, len);
	tt->f[tt->nf].len = len;
	tt->f[tt->nf].b = b;
	tt->f[tt->nf].all_int = 1;
	tt->nf++;
}

/* The type of an event name as written in a line, created on first sight. */
static struct ttype *type_get(struct text *R, const char *ev, int len)
{
	struct tname *slot;
	struct ttype *tt;
	const struct ev_fact *b;
	int sp = 0;

	if ((R->nused + 1) * 2 > R->ncap)
		names_grow(R);
	slot = name_slot(R, ev, len);
	if (slot->name)
		return slot->tt;
	b = builtin_find(ev, len, &sp);
	tt = b ? type_by_canonical(R, b->spell[sp].name) : NULL;
	if (!tt) {
		const char *name = b ? b->spell[sp].name : NULL;

		tt = xcalloc(1, sizeof(*tt));
		tt->b = b;
		tt->spell = sp;
		tt->name = b ? xmemdup0(name, strlen(name)) : xmemdup0(ev, len);
		tt->role = !b ? TT_OTHER : b->role == ROLE_SCHED_SWITCH ? TT_SWITCH :
			b->role == ROLE_PROCESS_FORK ? TT_FORK :
			b->role == ROLE_TASK_NEWTASK ? TT_NEWTASK : TT_OTHER;
		for (int i = 0; b && b->text[i].name; i++)
			field_add(tt, b->text[i].name, strlen(b->text[i].name), &b->text[i]);
		*R->types_tail = tt;
		R->types_tail = &tt->next;
	}
	slot->name = xmemdup0(ev, len);
	slot->len = len;
	slot->tt = tt;
	R->nused++;
	return tt;
}

/* The field a key fills; hint is the pair's position (fields usually come in order). */
static int field_find(const struct ttype *tt, int hint, const char *k, int kl)
{
	if (hint < tt->nf && tt->f[hint].len == kl && !memcmp(tt->f[hint].name, k, kl))
		return hint;
	for (int i = 0; i < tt->nf; i++) {
		const struct tfield *f = &tt->f[i];

		if ((f->len == kl && !memcmp(f->name, k, kl)) ||
		    (f->b && f->b->alias && span_eq(k, kl, f->b->alias)))
			return i;
	}
	return -1;
}

/* Buffer slot of an instance prefix (pass 1 learns them; NULL prefix: the unprefixed one). */
static int buffer_slot(struct text *R, const char *name, int len, int learn)
{
	if (!name) {
		name = "";
		len = 0;
	}
	if (R->last_buf >= 0 && R->bufs[R->last_buf].len == len &&
	    !memcmp(R->bufs[R->last_buf].name, name, len))
		return R->last_buf;
	for (int i = 0; i < R->nbufs; i++) {
		if (R->bufs[i].len == len && !memcmp(R->bufs[i].name, name, len)) {
			R->last_buf = i;
			return i;
		}
	}
	if (!learn)
		return -1;
	R->bufs = xrealloc(R->bufs, (R->nbufs + 1) * sizeof(*R->bufs));
	R->bufs[R->nbufs].name = xmemdup0(name, len);
	R->bufs[R->nbufs].len = len;
	if (!len)
		R->have_unprefixed = 1;
	R->last_buf = R->nbufs;
	return R->nbufs++;
}

/* Header lines that are neither events nor noise. */
static int header_line(struct text *R, const char *line, size_t len)
{
	const char *p = line, *end = line + len;
	int v;

	while (p < end && is_blank(*p))
		p++;
	while (end > p && (end[-1] == '\r' || is_blank(end[-1])))
		end--;
	if (p == end)
		return 1;
	if (*p == '#') {
		const char *q;

		if (starts_with(p, end - p, "# tracer:"))
			R->tracefs = 1;
		/* "# entries-in-buffer/entries-written: 1981/1981   #P:2" */
		q = find_span(p, end - p, "# entries-in-buffer/entries-written: ");
		if (q) {
			unsigned long long in, wr;

			if (sscanf(q + 37, "%llu/%llu", &in, &wr) == 2) {
				R->entries_in = in;
				R->entries_written = wr;
				R->have_entries = 1;
			}
		}
		q = find_span(p, end - p, "#P:");
		if (q && q > p && sscanf(q + 3, "%d", &v) == 1 && v > R->hdr_cpus && v < 1 << 16)
			R->hdr_cpus = v;
		return 1;
	}
	if (starts_with(p, end - p, "cpus=")) {
		if (sscanf(p + 5, "%d", &v) == 1 && v > R->hdr_cpus && v < 1 << 16)
			R->hdr_cpus = v;
		R->tracecmd = 1;
		return 1;
	}
	if (starts_with(p, end - p, "version = ")) {
		R->tracecmd = 1;
		return 1;
	}
	if (starts_with(p, end - p, "CPU ") && find_span(p, end - p, " is empty"))
		return 1;
	return 0;
}

static int is_message_event(const char *ev, int len)
{
	return span_eq(ev, len, "print") || span_eq(ev, len, "bprint") ||
	       span_eq(ev, len, "bputs") || span_eq(ev, len, "tracing_mark_write");
}

/*
 * `trace-cmd report` prints a lost-events line between a record's instance prefix and the
 * record ("name: CPU:0 [12 EVENTS DROPPED]\n" then the record without its prefix): an
 * unprefixed line right after such a line belongs to that instance.
 */
static void carried_prefix(const struct text *R, size_t off, struct text_line *tl)
{
	const char *start = R->map + off, *prev, *pe;
	struct text_lost lo;

	if (tl->buffer || off < 2 || start[-1] != '\n')
		return;
	pe = start - 1;
	if (pe > R->map && pe[-1] == '\r')
		pe--;
	if (pe <= R->map || pe[-1] != ']')
		return;
	prev = memrchr(R->map, '\n', pe - R->map);
	prev = prev ? prev + 1 : R->map;
	if (text_parse_lost(prev, pe - prev, &lo) && lo.buffer) {
		tl->buffer = lo.buffer;
		tl->buffer_len = lo.buffer_len;
	}
}

/*
 * The extent of the record starting at off: its line, plus, for ftrace messages, the lines
 * that continue a message holding newlines (lines that are neither events nor headers).
 * Returns the length; *next is the offset after it.
 */
static size_t record_extent(struct text *R, size_t off, const struct text_line *tl, int kind,
			    size_t len, size_t *next)
{
	size_t end = off + len;

	*next = end < R->size ? end + 1 : end;
	if (kind != 1 || !is_message_event(tl->event, tl->event_len))
		return len;
	while (*next < R->size) {
		const char *l = R->map + *next, *nl = memchr(l, '\n', R->size - *next);
		size_t ll = nl ? (size_t)(nl - l) : R->size - *next;
		struct text_line t2;
		struct text_lost lo;

		if (!ll || text_parse_line(l, ll, &t2) != 0 || text_parse_lost(l, ll, &lo) ||
		    header_line(R, l, ll))
			break;
		end = *next + ll;
		*next = nl ? end + 1 : end;
	}
	return end - off;
}

/* One record of the file: its first line parsed (text_parse_line()'s kind) and its extent. */
struct text_rec {
	const char *line;
	size_t len, next;	/* the record's length; the offset after it */
	int kind;
	struct text_line tl;
};

/* The record at off. */
static void record_at(struct text *R, size_t off, struct text_rec *rc)
{
	const char *nl;

	rc->line = R->map + off;
	nl = memchr(rc->line, '\n', R->size - off);
	rc->len = nl ? (size_t)(nl - rc->line) : R->size - off;
	rc->kind = text_parse_line(rc->line, rc->len, &rc->tl);
	rc->len = record_extent(R, off, &rc->tl, rc->kind, rc->len, &rc->next);
}

/* Pass 1: learn a record's type fields from its payload. */
static void learn_payload(struct text *R, struct ttype *tt, const struct text_line *tl)
{
	struct text_kv kv[TEXT_KV_MAX];
	int n = text_split_payload(tl->event, tl->event_len, tl->payload, tl->payload_len, kv,
				   TEXT_KV_MAX);

	for (int i = 0; i < n; i++) {
		int k = field_find(tt, i, kv[i].key, kv[i].key_len);
		struct tfield *f;
		int64_t x;

		if (k < 0) {
			field_add(tt, kv[i].key, kv[i].key_len, NULL);
			k = tt->nf - 1;
		}
		f = &tt->f[k];
		if (!f->b && f->all_int && !text_parse_int(kv[i].val, kv[i].val_len, &x))
			f->all_int = 0;
	}
	state_evidence(&R->sev, tt->role, tl->pid, kv, n);
}

static void ix_add(struct text *R, uint64_t ts, size_t off)
{
	if (R->nix == R->cix) {
		R->cix = R->cix ? R->cix * 2 : 4096;
		R->ix = xrealloc(R->ix, R->cix * sizeof(*R->ix));
	}
	R->ix[R->nix].ts = ts;
	R->ix[R->nix].off = off;
	R->nix++;
}

static void pend_add(struct text *R, size_t ix)
{
	if (R->npend == R->cpend) {
		R->cpend = R->cpend ? R->cpend * 2 : 64;
		R->pend_ix = xrealloc(R->pend_ix, R->cpend * sizeof(*R->pend_ix));
	}
	R->pend_ix[R->npend++] = ix;
}

/* Pass 1 over every line: buffers, CPUs, types and their fields, sortedness. */
static void pass1(struct text *R)
{
	struct text_rec rc;

	for (size_t off = 0; off < R->size; off = rc.next) {
		struct text_lost lo;

		record_at(R, off, &rc);
		if (rc.kind == 1) {
			struct ttype *tt;

			if (rc.tl.payload + rc.tl.payload_len < rc.line + rc.len)
				rc.tl.payload_len = rc.line + rc.len - rc.tl.payload;
			carried_prefix(R, off, &rc.tl);
			R->events++;
			buffer_slot(R, rc.tl.buffer, rc.tl.buffer_len, 1);
			if (rc.tl.cpu > R->max_cpu)
				R->max_cpu = rc.tl.cpu;
			if (R->events == 1 || rc.tl.ts_digits < R->min_digits)
				R->min_digits = rc.tl.ts_digits;
			if (rc.tl.ts < R->last_ts)
				R->sorted = 0;
			R->last_ts = rc.tl.ts;
			tt = type_get(R, rc.tl.event, rc.tl.event_len);
			tt->lines++;
			learn_payload(R, tt, &rc.tl);
		} else if (rc.kind < 0) {
			R->malformed++;
		} else if (text_parse_lost(rc.line, rc.len, &lo)) {
			R->lost_lines++;
		} else if (!header_line(R, rc.line, rc.len)) {
			if (!R->ignored)
				R->first_ignored = off;
			R->ignored++;
		}
	}
}

/*
 * For a file whose timestamps are not sorted: the index of records (event, malformed and
 * lost lines) with the timestamp each sorts by. A lost line takes the timestamp of the event
 * that follows it (the record after the loss); a malformed line that of the event before it.
 */
static void build_index(struct text *R)
{
	struct text_rec rc;
	uint64_t last = 0;

	for (size_t off = 0; off < R->size; off = rc.next) {
		struct text_lost lo;

		record_at(R, off, &rc);
		if (rc.kind == 1) {
			for (size_t i = 0; i < R->npend; i++)
				R->ix[R->pend_ix[i]].ts = rc.tl.ts;
			R->npend = 0;
			ix_add(R, rc.tl.ts, off);
			last = rc.tl.ts;
		} else if (rc.kind < 0) {
			ix_add(R, last, off);
		} else if (text_parse_lost(rc.line, rc.len, &lo)) {
			pend_add(R, R->nix);
			ix_add(R, last, off);
		}
	}
}

static int tix_cmp(const void *a, const void *b)
{
	const struct tix *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* Register the loader's types, in order of first appearance. */
static void register_types(struct text *R)
{
	int maxf = 1;

	for (struct ttype *tt = R->types; tt; tt = tt->next) {
		struct ld_field_def *defs;

		if (!tt->nf)
			continue;
		defs = xcalloc(tt->nf, sizeof(*defs));
		for (int i = 0; i < tt->nf; i++) {
			const struct tfield *f = &tt->f[i];

			defs[i].name = f->name;
			if (f->b) {
				unsigned fl = f->b->flags;

				defs[i].sql = fl & (BF_STR | BF_ARRAY) ? LD_TEXT : LD_INT;
				defs[i].is_string = !!(fl & BF_STR);
				defs[i].is_array = !!(fl & BF_ARRAY);
				defs[i].is_unsigned = !!(fl & BF_UNS);
			} else {
				defs[i].sql = f->all_int ? LD_INT : LD_TEXT;
				defs[i].is_string = !f->all_int;
			}
		}
		tt->t = ld_type_add(R->L, tt->b ? tt->b->spell[tt->spell].system : "", tt->name, tt->nf, defs);
		free(defs);
		if (tt->nf > maxf)
			maxf = tt->nf;
	}
	R->vals = xcalloc(maxf, sizeof(*R->vals));
	R->nvals = maxf;
}

/* A value of a field, typed as its column. Integers that do not parse keep their text. */
static void set_value(const struct text *R, struct ld_val *v, const struct tfield *f,
		      const struct text_kv *kv)
{
	unsigned fl = f->b ? f->b->flags : 0;
	const char *s = kv->val;
	int len = kv->val_len, ok = 0;
	int64_t x = 0;

	if ((fl & BF_COMMA) && len > 0 && s[len - 1] == ',')
		len--;
	v->kind = LD_STR;
	v->s = s;
	v->len = len;
	if (f->b ? (fl & (BF_STR | BF_ARRAY)) : !f->all_int)
		return;
	if ((fl & BF_BEGIN) && (span_eq(s, len, "begin") || span_eq(s, len, "end"))) {
		v->kind = LD_I64;
		v->i = s[0] == 'b';
		return;
	}
	if (kv->flags & TEXT_KV_PLUGIN_STATE) {
		ok = text_state_value(s, len, 1, LD_STATE_414, 0, &x);
	} else {
		ok = text_parse_int(s, len, &x);
		if (!ok && (fl & BF_STATE))
			ok = text_state_value(s, len, 0, R->numbering, R->preempt, &x);
	}
	if (fl & BF_HEX) {
		uint64_t u;

		if (!starts_with(s, len, "0x") && parse_uint(s, s + len, 16, &u)) {
			x = (int64_t)u;
			ok = 1;
		}
	}
	if (!ok && (fl & BF_BOOL)) {
		if (span_eq(s, len, "true") || span_eq(s, len, "handled"))
			x = 1, ok = 1;
		else if (span_eq(s, len, "false") || span_eq(s, len, "unhandled"))
			x = 0, ok = 1;
	}
	if (!ok && (fl & BF_UNIT)) {
		int n = len;

		while (n > 0 && is_alpha(s[n - 1]))
			n--;
		ok = n < len && text_parse_int(s, n, &x);
	}
	if (ok) {
		v->kind = LD_I64;
		v->i = x;
	}
}

static int emit_raw_line(struct text *R, const char *line, size_t len, const struct text_line *tl,
			 int buffer)
{
	const char *name = tl->event ? tl->event : NULL;
	char nbuf[64];

	if (name)
		snprintf(nbuf, sizeof(nbuf), "%.*s", tl->event_len, name);
	else
		snprintf(nbuf, sizeof(nbuf), "unparsed");
	if (!ld_wanted(R->L, "", nbuf))
		return 0;
	while (len && (line[len - 1] == '\r' || is_blank(line[len - 1])))
		len--;
	return ld_emit_raw(R->L, tl->ts, tl->cpu, tl->pid, buffer, nbuf, line, (int)len);
}

/* Pass 2: the record at off; *next is set past it. */
static int emit_record(struct text *R, size_t off, size_t *next)
{
	struct text_rec rc;
	struct text_lost lo;
	struct text_kv kv[TEXT_KV_MAX];
	struct ttype *tt;
	char comm[64];
	int b, n, ret;

	record_at(R, off, &rc);
	*next = rc.next;
	if (rc.kind == 0) {
		if (text_parse_lost(rc.line, rc.len, &lo)) {
			b = lo.buffer ? buffer_slot(R, lo.buffer, lo.buffer_len, 0) : -1;
			b = b >= 0 ? R->buf_index[b] : 0;
			if (lo.cpu < R->ncpus) {
				int64_t *p = &R->lost_pend[(size_t)b * R->ncpus + lo.cpu];

				if (*p == INT64_MIN)
					*p = lo.count;
				else if (*p >= 0 && lo.count >= 0)
					*p += lo.count;
				else
					*p = -1;
			}
		}
		return 0;
	}
	carried_prefix(R, off, &rc.tl);
	b = buffer_slot(R, rc.tl.buffer, rc.tl.buffer_len, 0);
	b = b >= 0 ? R->buf_index[b] : 0;
	if (rc.kind < 0)
		return emit_raw_line(R, rc.line, rc.len, &rc.tl, b);
	if (rc.tl.payload + rc.tl.payload_len < rc.line + rc.len)
		rc.tl.payload_len = rc.line + rc.len - rc.tl.payload;
	ld_seen(R->L, b, rc.tl.cpu, rc.tl.ts);
	R->last_ts = rc.tl.ts;
	if (rc.tl.cpu < R->ncpus) {
		int64_t *p = &R->lost_pend[(size_t)b * R->ncpus + rc.tl.cpu];

		if (*p != INT64_MIN) {
			ld_lost(R->L, rc.tl.ts, rc.tl.cpu, b, *p);
			*p = INT64_MIN;
		}
	}
	tt = type_get(R, rc.tl.event, rc.tl.event_len);
	if (tt->t && !ld_type_loaded(tt->t))
		return 0;
	n = tt->t ? text_split_payload(rc.tl.event, rc.tl.event_len, rc.tl.payload, rc.tl.payload_len, kv,
				       TEXT_KV_MAX) : 0;
	if (!n) {
		char nbuf[64];

		snprintf(nbuf, sizeof(nbuf), "%.*s", rc.tl.event_len, rc.tl.event);
		if (tt->t ? !ld_type_loaded(tt->t) : !ld_wanted(R->L, "", nbuf))
			return 0;
		return ld_emit_raw(R->L, rc.tl.ts, rc.tl.cpu, rc.tl.pid, b, nbuf, rc.tl.payload,
				   rc.tl.payload_len);
	}
	for (int i = 0; i < tt->nf; i++)
		R->vals[i].kind = LD_NULL;
	for (int i = 0; i < n; i++) {
		int k = field_find(tt, i, kv[i].key, kv[i].key_len);

		if (k >= 0)
			set_value(R, &R->vals[k], &tt->f[k], &kv[i]);
	}
	n = rc.tl.comm_len < (int)sizeof(comm) ? rc.tl.comm_len : (int)sizeof(comm) - 1;
	memcpy(comm, rc.tl.comm, n);
	comm[n] = '\0';
	ret = ld_emit(R->L, tt->t, rc.tl.ts, rc.tl.cpu, rc.tl.pid, b, comm, R->vals);
	if (!ret && rc.tl.tgid > 0)
		ld_tgid(R->L, rc.tl.pid, rc.tl.tgid);
	return ret;
}

static int map_file(struct text *R, struct trax_error *err)
{
	struct stat sb;
	int fd = open(R->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return trax_error_set(err, TRAX_E_IO, "%s: %s", R->path, strerror(errno));
	if (fstat(fd, &sb) < 0) {
		int e = errno;

		close(fd);
		return trax_error_set(err, TRAX_E_IO, "%s: %s", R->path, strerror(e));
	}
	R->size = sb.st_size;
	if (!R->size) {
		close(fd);
		return trax_error_set(err, TRAX_E_FORMAT, "%s: empty file", R->path);
	}
	R->map = mmap(NULL, R->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (R->map == MAP_FAILED) {
		R->map = NULL;
		return trax_error_set(err, TRAX_E_IO, "%s: cannot map: %s", R->path,
				      strerror(errno));
	}
	R->mapped = 1;
	madvise((void *)R->map, R->size, MADV_SEQUENTIAL);
	return 0;
}

static void text_release(struct text *R)
{
	struct ttype *tt, *next;

	if (R->mapped)
		munmap((void *)R->map, R->size);
	for (size_t i = 0; i < R->ncap; i++)
		free(R->names[i].name);
	free(R->names);
	for (tt = R->types; tt; tt = next) {
		next = tt->next;
		for (int i = 0; i < tt->nf; i++)
			free(tt->f[i].name);
		free(tt->f);
		free(tt->name);
		free(tt);
	}
	for (int i = 0; i < R->nbufs; i++)
		free(R->bufs[i].name);
	free(R->bufs);
	free(R->buf_index);
	free(R->ix);
	free(R->pend_ix);
	free(R->lost_pend);
	free(R->vals);
}

static int text_read_all(struct text *R, struct trax_error *err);

int text_read(struct loader *L, const char *path, struct trax_error *err)
{
	struct text R = { .L = L, .path = path, .last_buf = -1, .sorted = 1 };
	int ret;

	R.types_tail = &R.types;
	ret = map_file(&R, err);
	if (!ret)
		ret = text_read_all(&R, err);
	text_release(&R);
	return ret;
}

int text_read_mem(struct loader *L, const char *label, const char *buf, size_t size,
		  struct trax_error *err)
{
	struct text R = { .L = L, .path = label, .last_buf = -1, .sorted = 1 };
	int ret;

	R.types_tail = &R.types;
	R.map = buf;
	R.size = size;
	ret = text_read_all(&R, err);
	text_release(&R);
	return ret;
}

/* Both passes over R's text (mapped file or caller's memory). */
static int text_read_all(struct text *RR, struct trax_error *err)
{
	struct text R = *RR;
	struct loader *L = R.L;
	const char *path = R.path;
	int ret = 0, nb = 0;

	R.types_tail = &R.types;	/* R is a copy: its list starts here (empty) */

	names_grow(&R);
	pass1(&R);
	if (!R.events) {
		ret = trax_error_set(err, TRAX_E_FORMAT, "%s: no ftrace event lines", path);
		goto out;
	}
	if (!R.sorted) {
		build_index(&R);
		qsort(R.ix, R.nix, sizeof(*R.ix), tix_cmp);
	}

	/* Buffers: the unprefixed one first, then instances in order of first appearance. */
	R.buf_index = xcalloc(R.nbufs, sizeof(int));
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < R.nbufs; i++)
			if ((pass == 0) == (R.bufs[i].len == 0))
				R.buf_index[i] = nb++;
	R.ncpus = R.max_cpu + 1 > R.hdr_cpus ? R.max_cpu + 1 : R.hdr_cpus;
	ld_set_cpus(L, R.nbufs, R.ncpus);
	for (int i = 0; i < R.nbufs; i++)
		ld_set_buffer_name(L, R.buf_index[i], R.bufs[i].name);
	R.lost_pend = xmalloc((size_t)R.nbufs * R.ncpus * sizeof(int64_t));
	for (size_t i = 0; i < (size_t)R.nbufs * R.ncpus; i++)
		R.lost_pend[i] = INT64_MIN;
	register_types(&R);
	if (R.sev.values) {
		char why[512];

		R.numbering = state_numbering(&R.sev, &R.preempt, why, sizeof(why));
		ld_set_state_numbering(L, R.numbering, R.preempt);
		ld_meta(L, "sched.prev_state_numbering", "%s", ld_state_numbering_name(R.numbering));
		if (R.numbering == LD_STATE_PRE414)
			ld_meta(L, "sched.prev_state_preempted", "%lld", (long long)R.preempt);
		ld_meta(L, "sched.prev_state_numbering.reason", "%s", why);
	}
	free(R.sev.pend);
	R.sev.pend = NULL;
	R.sev.npend = 0;
	ld_meta(L, "cpus", "%d", R.ncpus);
	ld_meta(L, "text.form", "%s", R.tracefs ? "tracefs" : R.tracecmd ? "trace-cmd report" :
		"unknown");
	ld_meta(L, "text.timestamp_digits", "%d", R.min_digits);
	ld_meta(L, "text.event_lines", "%llu", (unsigned long long)R.events);
	ld_meta(L, "text.malformed_lines", "%llu", (unsigned long long)R.malformed);
	ld_meta(L, "text.ignored_lines", "%llu", (unsigned long long)R.ignored);
	if (R.ignored) {
		uint64_t line = 1;

		for (size_t i = 0; i < R.first_ignored; i++)
			line += R.map[i] == '\n';
		ld_meta(L, "text.first_ignored_line", "%llu", (unsigned long long)line);
	}
	ld_meta(L, "text.sorted", "%d", R.sorted);
	if (R.have_entries) {
		ld_meta(L, "text.entries_in_buffer", "%llu", (unsigned long long)R.entries_in);
		ld_meta(L, "text.entries_written", "%llu", (unsigned long long)R.entries_written);
	}

	R.last_ts = 0;
	if (R.sorted) {
		size_t off = 0, next;

		for (; off < R.size && !ret; off = next)
			ret = emit_record(&R, off, &next);
	} else {
		size_t next;

		for (size_t i = 0; i < R.nix && !ret; i++)
			ret = emit_record(&R, R.ix[i].off, &next);
	}
	/* Lost events announced after a CPU's last record. */
	for (int b = 0; b < R.nbufs && !ret; b++)
		for (int c = 0; c < R.ncpus; c++)
			if (R.lost_pend[(size_t)b * R.ncpus + c] != INT64_MIN)
				ld_lost(L, R.last_ts, c, b, R.lost_pend[(size_t)b * R.ncpus + c]);
out:
	*RR = R;
	return ret;
}

int text_looks_like_ftrace(const char *buf, size_t n)
{
	const char *p = buf, *end = buf + n;
	int lines = 0;

	while (p < end && lines < 512) {
		const char *nl = memchr(p, '\n', end - p);
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct text_line tl;

		/* a cut last line still tells when its start reads as an event */
		if (starts_with(p, len, "# tracer:") || text_parse_line(p, len, &tl) == 1)
			return 1;
		if (!lines && (starts_with(p, len, "cpus=") || starts_with(p, len, "version = ")))
			return 1;
		lines++;
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}
