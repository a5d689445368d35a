/* parse/atrace.c: trace markers: atrace slices (B/E, S/F, G/H), instants (N, I, other text) and
 * counters (C); kills and fences named by markers go to kills.c and fences.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse/android-local.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define STACK_MAX 256

/* ---- slices and instants ---- */

/* A row of slice (doc/db.md): from ts to end; utid < 0, track NULL, !has_cookie: NULL. */
struct slice_rec {
	uint64_t ts, end;
	int utid;
	const char *name;
	int depth;
	const char *track;
	int has_cookie;
	int64_t cookie;
	int clipped, buffer;
};

static void slice_write(struct android *a, const struct slice_rec *r)
{
	dbw_row_begin(a->w, a->slice_stmt);
	dbw_int(a->w, (int64_t)r->ts);
	dbw_int(a->w, (int64_t)(r->end >= r->ts ? r->end - r->ts : 0));
	put_opt_int(a->w, r->utid >= 0, r->utid);
	dbw_text(a->w, r->name ? r->name : "", -1);
	dbw_int(a->w, r->depth);
	put_opt_text(a->w, r->track, -1);
	put_opt_int(a->w, r->has_cookie, r->cookie);
	dbw_int(a->w, r->clipped);
	dbw_int(a->w, r->buffer);
	dbw_row_end(a->w);
	a->rows++;
}

static void instant_row(struct android *a, uint64_t ts, int utid, const char *name, int nlen,
			const char *track, int tlen, int buffer)
{
	dbw_row_begin(a->w, a->instant_stmt);
	dbw_int(a->w, (int64_t)ts);
	put_opt_int(a->w, utid >= 0, utid);
	dbw_text(a->w, name, nlen);
	put_opt_text(a->w, track, tlen);
	dbw_int(a->w, buffer);
	dbw_row_end(a->w);
	a->rows++;
}

/* ---- trace markers ---- */

/* The pid after "X|"; *rest is after its '|' (NULL when none). 1 when it is a number. */
static int marker_pid(const char *s, int len, int *pid, const char **rest)
{
	int i = 2, v = 0, nd = 0;

	*rest = NULL;
	while (i < len && s[i] >= '0' && s[i] <= '9' && nd < 9) {
		v = v * 10 + (s[i++] - '0');
		nd++;
	}
	*pid = v;
	if (i < len && s[i] == '|')
		*rest = s + i + 1;
	return nd > 0 && (i == len || s[i] == '|');
}

static void marker_begin(struct android *a, uint64_t ts, int utid, int buffer, const char *name,
			 int nlen)
{
	struct thread_state *st = tstate(a, utid, buffer);
	struct open_slice *o;
	size_t fl;
	int64_t n;

	if (!st)
		return;
	if (st->depth >= STACK_MAX) {
		anomaly(a, AN_MARKER_TOO_DEEP, ts, utid, buffer, "slice \"%.*s\" nested deeper than %d",
			nlen, name, STACK_MAX);
		return;
	}
	TRAX_GROW(st->stack, st->depth, st->cap, 8);
	o = &st->stack[st->depth++];
	o->ts = ts;
	o->name = xmemdup0(name, nlen);
	o->fence_wait = waiting_for(name, nlen, &fl, &n);
	if (nlen > 4 && !memcmp(name, "lmk,", 4))
		lmk_marker(a, ts, utid, buffer, name, nlen);
	if (o->fence_wait) {
		/* the fence N of NAME is waited for from here: its atrace fence starts */
		char *nm = xmemdup0(name + 12, fl);
		int idx = named_fence(a, "atrace", "atrace", nm, n, ts, buffer, 1);

		if (!a->fence[idx].have[F_INIT]) {
			a->fence[idx].have[F_INIT] = 1;
			a->fence[idx].ts[F_INIT] = ts;
		}
		free(nm);
	}
}

static void marker_end(struct android *a, uint64_t ts, int utid, int buffer)
{
	struct thread_state *st = tstate(a, utid, buffer);
	struct open_slice *o;

	if (!st)
		return;
	if (!st->depth) {
		anomaly(a, AN_MARKER_UNMATCHED_END, ts, utid, buffer, "E without a B on this thread");
		return;
	}
	o = &st->stack[--st->depth];
	slice_write(a, &(struct slice_rec){ .ts = o->ts, .end = ts, .utid = utid,
		.name = o->name, .depth = st->depth, .buffer = buffer });
	if (o->fence_wait) {
		size_t fl;
		int64_t n;
		char *nm;

		waiting_for(o->name, strlen(o->name), &fl, &n);
		nm = xmemdup0(o->name + 12, fl);
		wait_write(a, &(struct wait_rec){ .ts = o->ts, .end = ts, .utid = utid,
			.has_seqno = 1, .seqno = n, .source = "atrace", .name = nm, .buffer = buffer });
		free(nm);
	}
	free(o->name);
}

static void async_begin(struct android *a, uint64_t ts, int utid, int buffer, int tgid,
			const char *track, int tlen, const char *name, int nlen, int64_t cookie)
{
	struct strbuf key = STRBUF_INIT;
	struct async_open *o;
	int idx;

	strbuf_addf(&key, "%d|%d|%.*s|%lld", buffer, tgid, tlen, track, (long long)cookie);
	idx = smap_get(&a->async, key.buf, -1);
	if (idx >= 0) {
		/* begun again before its end: the first one ends unterminated here */
		o = &a->asyncs[idx];
		anomaly(a, AN_ASYNC_UNTERMINATED, o->ts, o->utid, buffer, "async \"%s\" cookie %lld "
			"begun again before its end", o->name, (long long)cookie);
		slice_write(a, &(struct slice_rec){ .ts = o->ts, .end = ts, .utid = o->utid,
			.name = o->name, .track = o->track, .has_cookie = 1, .cookie = o->cookie,
			.clipped = 1, .buffer = buffer });
		free(o->name);
		free(o->track);
	} else if (a->nfree_async) {
		idx = a->free_async[--a->nfree_async];
		smap_put(&a->async, key.buf, idx);
	} else {
		if (a->nasync == a->casync) {
			TRAX_GROW(a->asyncs, a->nasync, a->casync, 16);
			a->free_async = trax_realloc_array(a->free_async, a->casync, sizeof(int));
		}
		idx = a->nasync++;
		smap_put(&a->async, key.buf, idx);
	}
	o = &a->asyncs[idx];
	o->ts = ts;
	o->utid = utid;
	o->buffer = buffer;
	o->name = xmemdup0(name, nlen);
	o->track = xmemdup0(track, tlen);
	o->cookie = cookie;
	strbuf_release(&key);
}

static void async_end(struct android *a, uint64_t ts, int utid, int buffer, int tgid,
		      const char *track, int tlen, int64_t cookie)
{
	struct strbuf key = STRBUF_INIT;
	struct async_open *o;
	int idx;

	strbuf_addf(&key, "%d|%d|%.*s|%lld", buffer, tgid, tlen, track, (long long)cookie);
	idx = smap_get(&a->async, key.buf, -1);
	if (idx < 0) {
		anomaly(a, AN_ASYNC_UNMATCHED_END, ts, utid, buffer, "async end \"%.*s\" cookie %lld "
			"without a begin", tlen, track, (long long)cookie);
	} else {
		o = &a->asyncs[idx];
		slice_write(a, &(struct slice_rec){ .ts = o->ts, .end = ts, .utid = o->utid,
			.name = o->name, .track = o->track, .has_cookie = 1, .cookie = o->cookie,
			.buffer = buffer });
		free(o->name);
		free(o->track);
		o->name = o->track = NULL;
		smap_del(&a->async, key.buf);
		a->free_async[a->nfree_async++] = idx;
	}
	strbuf_release(&key);
}

/* The last '|'-separated field of s as an integer (async cookies). */
static int last_int_field(const char *s, int len, int *field_start, int64_t *v)
{
	const char *bar = memrchr(s, '|', len);
	char buf[24], *e;
	int n;

	if (!bar)
		return 0;
	n = s + len - bar - 1;
	if (n <= 0 || n >= (int)sizeof(buf))
		return 0;
	memcpy(buf, bar + 1, n);
	buf[n] = '\0';
	*v = strtoll(buf, &e, 10);
	*field_start = bar - s;
	return *e == '\0';
}

void android_marker(struct android *a, uint64_t ts, int cpu, int pid, int buffer,
		    const char *s, int len)
{
	int utid = pid >= 0 ? derive_thread(a->d, pid, ts) : -1;
	int tgid = 0, ok, end;
	const char *rest, *bar;
	int64_t cookie;
	size_t fl;
	int64_t n;

	if (ts > a->last_ts)
		a->last_ts = ts;
	while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\0'))
		len--;
	if (len == 1 && s[0] == 'E') {
		marker_end(a, ts, utid, buffer);
		return;
	}
	if (len < 2 || s[1] != '|' || !strchr("BECSFGHNI", s[0])) {
		/* a marker of some other kind: an instant named by its text */
		instant_row(a, ts, utid, s, len, NULL, 0, buffer);
		if (fence_signaled_marker(s, len, &fl, &n)) {
			char *nm = xmemdup0(s, fl);
			int idx = named_fence(a, "atrace", "atrace", nm, n, ts, buffer, 1);

			if (a->fence[idx].signal_count++)
				anomaly(a, AN_FENCE_SIGNALED_TWICE, ts, utid, buffer,
					"\"%.*s\" again", len, s);
			else
				a->fence[idx].have[F_SIGNAL] = 1, a->fence[idx].ts[F_SIGNAL] = ts;
			free(nm);
		}
		return;
	}
	ok = marker_pid(s, len, &tgid, &rest);
	if (ok && tgid > 0 && utid >= 0)
		derive_thread_tgid(a->d, utid, tgid);
	end = len;
	switch (s[0]) {
	case 'B':
		if (!ok || !rest) {
			anomaly(a, AN_MARKER_MALFORMED, ts, utid, buffer, "\"%.*s\"", len, s);
			/* still a slice (its E will come): named by what follows "B|" */
			marker_begin(a, ts, utid, buffer, s + 2, len - 2);
			return;
		}
		marker_begin(a, ts, utid, buffer, rest, s + len - rest);
		return;
	case 'E':
		if (!ok)
			anomaly(a, AN_MARKER_MALFORMED, ts, utid, buffer, "\"%.*s\"", len, s);
		marker_end(a, ts, utid, buffer);
		return;
	case 'C': {
		char name[256], vbuf[40], *e;
		double v;
		int track, vs;

		/* C|pid|name|value[|category] */
		if (!ok || !rest || !(bar = memchr(rest, '|', s + len - rest))) {
			anomaly(a, AN_MARKER_MALFORMED, ts, utid, buffer, "\"%.*s\"", len, s);
			return;
		}
		vs = bar + 1 - s;
		{
			const char *ve = memchr(s + vs, '|', len - vs);

			end = ve ? ve - s : len;
		}
		if (end - vs <= 0 || end - vs >= (int)sizeof(vbuf)) {
			anomaly(a, AN_COUNTER_BAD_VALUE, ts, utid, buffer, "\"%.*s\"", len, s);
			return;
		}
		memcpy(vbuf, s + vs, end - vs);
		vbuf[end - vs] = '\0';
		v = strtod(vbuf, &e);
		if (*e || e == vbuf) {
			anomaly(a, AN_COUNTER_BAD_VALUE, ts, utid, buffer, "\"%.*s\"", len, s);
			return;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(bar - rest), rest);
		track = derive_track(a->d, name, "atrace", -1, derive_thread(a->d, tgid, ts), NULL,
				     NULL, buffer);
		derive_counter(a->d, ts, track, v);
		if (!strcmp(name, "kill_one_process") && v > 0) {
			struct kill_ent *k = kill_new(a, ts, "lmkd", (int64_t)v, buffer);

			(void)k;
		}
		return;
	}
	case 'S':
	case 'F': {
		int cs;

		/* S|pid|name|cookie, F|pid|name|cookie */
		if (!ok || !rest || !last_int_field(rest, s + len - rest, &cs, &cookie) || !cs) {
			anomaly(a, AN_MARKER_MALFORMED, ts, utid, buffer, "\"%.*s\"", len, s);
			return;
		}
		if (s[0] == 'S')
			async_begin(a, ts, utid, buffer, tgid, rest, cs, rest, cs, cookie);
		else
			async_end(a, ts, utid, buffer, tgid, rest, cs, cookie);
		return;
	}
	case 'G':
	case 'H': {
		const char *b2;
		int cs;

		/* G|pid|track|name|cookie, H|pid|track|cookie */
		if (!ok || !rest || !last_int_field(rest, s + len - rest, &cs, &cookie) ||
		    !(b2 = memchr(rest, '|', s + len - rest)) || (s[0] == 'G' && b2 - rest >= cs)) {
			anomaly(a, AN_MARKER_MALFORMED, ts, utid, buffer, "\"%.*s\"", len, s);
			return;
		}
		if (s[0] == 'G')
			async_begin(a, ts, utid, buffer, tgid, rest, b2 - rest, b2 + 1,
				    rest + cs - (b2 + 1), cookie);
		else
			async_end(a, ts, utid, buffer, tgid, rest, b2 - rest, cookie);
		return;
	}
	case 'N':
		/* N|pid|track|name */
		if (!ok || !rest || !(bar = memchr(rest, '|', s + len - rest))) {
			anomaly(a, AN_MARKER_MALFORMED, ts, utid, buffer, "\"%.*s\"", len, s);
			return;
		}
		instant_row(a, ts, utid, bar + 1, s + len - bar - 1, rest, bar - rest, buffer);
		if (bar - rest == 15 && !memcmp(rest, "lowmemorykiller", 15))
			lmk_instant(a, ts, utid, buffer, bar + 1, s + len - bar - 1);
		return;
	case 'I':
		/* I|pid|name */
		if (!ok || !rest) {
			anomaly(a, AN_MARKER_MALFORMED, ts, utid, buffer, "\"%.*s\"", len, s);
			return;
		}
		instant_row(a, ts, utid, rest, s + len - rest, NULL, 0, buffer);
		return;
	}
	(void)cpu;
}

/* ---- the end ---- */

/* Slices still open at the end run until it. */
void atrace_thread_end(struct android *a, struct thread_state *st, int utid, int buffer,
		       uint64_t end_ts)
{
	/* slices still open at the end run until it */
	while (st->depth) {
		struct open_slice *o = &st->stack[--st->depth];

		anomaly(a, AN_MARKER_UNTERMINATED, o->ts, utid, buffer, "B \"%s\" without its E",
			o->name);
		slice_write(a, &(struct slice_rec){ .ts = o->ts, .end = end_ts,
			.utid = utid, .name = o->name, .depth = st->depth,
			.clipped = 1, .buffer = buffer });
		free(o->name);
	}
}

/* Async slices still open at the end run until it. */
void atrace_end(struct android *a, uint64_t end_ts)
{
	for (int i = 0; i < a->nasync; i++) {
		struct async_open *o = &a->asyncs[i];

		if (!o->name)
			continue;
		anomaly(a, AN_ASYNC_UNTERMINATED, o->ts, o->utid, o->buffer, "async \"%s\" cookie %lld "
			"without its end", o->name, (long long)o->cookie);
		slice_write(a, &(struct slice_rec){ .ts = o->ts, .end = end_ts, .utid = o->utid,
			.name = o->name, .track = o->track, .has_cookie = 1, .cookie = o->cookie,
			.clipped = 1, .buffer = o->buffer });
	}
}
