/* parse/fences.c: fences (dma_fence, fence, sync) and the waits on them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse/android-local.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- atrace's fence markers, fence_wait rows ---- */

void wait_write(struct android *a, const struct wait_rec *r)
{
	dbw_row_begin(a->w, a->wait_stmt);
	dbw_int(a->w, (int64_t)r->ts);
	dbw_int(a->w, (int64_t)(r->end >= r->ts ? r->end - r->ts : 0));
	put_opt_int(a->w, r->utid >= 0, r->utid);
	put_opt_int(a->w, r->has_ctx, r->context);
	put_opt_int(a->w, r->has_seqno, r->seqno);
	dbw_text(a->w, r->source, -1);
	put_opt_text(a->w, r->name, -1);
	dbw_int(a->w, r->buffer);
	dbw_row_end(a->w);
	a->rows++;
}

/* "waiting for NAME N" (FenceMonitor's slice): 1 with name and N. */
int waiting_for(const char *s, size_t len, size_t *nlen, int64_t *n)
{
	const char *sp;
	char *e;
	char buf[24];

	if (len <= 12 || memcmp(s, "waiting for ", 12))
		return 0;
	sp = memrchr(s, ' ', len);
	if (!sp || sp < s + 12 || (size_t)(s + len - sp - 1) >= sizeof(buf) || s + len - sp < 2)
		return 0;
	memcpy(buf, sp + 1, s + len - sp - 1);
	buf[s + len - sp - 1] = '\0';
	*n = strtoll(buf, &e, 10);
	if (*e || buf[0] == '-')
		return 0;
	*nlen = sp - (s + 12);
	return *nlen > 0;
}

/* "NAME fence N has signaled": 1 with NAME and N. */
int fence_signaled_marker(const char *s, size_t len, size_t *nlen, int64_t *n)
{
	static const char tail[] = " has signaled";
	const char *f, *e;
	char buf[24];
	size_t tl = sizeof(tail) - 1;

	if (len <= tl || memcmp(s + len - tl, tail, tl))
		return 0;
	e = s + len - tl;
	f = NULL;
	for (const char *p = s; p + 7 <= e; p++)
		if (!memcmp(p, " fence ", 7))
			f = p;
	if (!f || (size_t)(e - (f + 7)) >= sizeof(buf) || e == f + 7)
		return 0;
	memcpy(buf, f + 7, e - (f + 7));
	buf[e - (f + 7)] = '\0';
	*n = strtoll(buf, (char **)&e, 10);
	if (*e || buf[0] == '-')
		return 0;
	*nlen = f - s;
	return *nlen > 0;
}

/* ---- fences ---- */

/* What a fence entry owns, freed (the entry is unused after). */
void fence_release(struct fence_ent *f)
{
	free(f->key);
	free(f->driver);
	free(f->timeline);
	memset(f, 0, sizeof(*f));
}

static void fence_write(struct android *a, int idx)
{
	struct fence_ent *f = &a->fence[idx];

	dbw_row_begin(a->w, a->fence_stmt);
	put_opt_text(a->w, f->driver, -1);
	put_opt_text(a->w, f->timeline, -1);
	put_opt_int(a->w, f->has_context, f->context);
	dbw_int(a->w, f->seqno);
	for (int k = 0; k < 5; k++)
		put_opt_int(a->w, f->have[k], (int64_t)f->ts[k]);
	dbw_int(a->w, f->signal_count);
	put_opt_int(a->w, f->has_wait_on, f->wait_on_context);
	put_opt_int(a->w, f->has_wait_on, f->wait_on_seqno);
	dbw_int(a->w, f->buffer);
	dbw_row_end(a->w);
	a->rows++;
	smap_del(&a->fences, f->key);
	fence_release(f);
	a->nlive--;
	if (a->nfree % 64 == 0)
		a->free_fence = xrealloc(a->free_fence, (a->nfree + 64) * sizeof(int));
	a->free_fence[a->nfree++] = idx;
}

static int cmp_fence_first(const void *x, const void *y, void *ctx)
{
	const struct fence_ent *f = ctx;
	uint64_t a = f[*(const int *)x].first_ts, b = f[*(const int *)y].first_ts;

	return a < b ? -1 : a > b;
}

/* Too many live fences: write the signaled ones last touched over a second ago. */
static void fence_evict(struct android *a, uint64_t now)
{
	int *idx = xcalloc(a->nfence, sizeof(int)), n = 0;

	for (int i = 0; i < a->nfence; i++)
		if (a->fence[i].used && a->fence[i].have[F_SIGNAL] &&
		    a->fence[i].last_ts + 1000000000ull < now)
			idx[n++] = i;
	qsort_r(idx, n, sizeof(int), cmp_fence_first, a->fence);
	for (int i = 0; i < n; i++)
		fence_write(a, idx[i]);
	free(idx);
	a->evict_at = a->nlive * 2 > FENCE_CAP ? a->nlive * 2 : FENCE_CAP;
}

static int fence_new(struct android *a, const char *key, uint64_t ts, int buffer)
{
	struct fence_ent *f;
	int idx;

	if (a->nlive >= a->evict_at)
		fence_evict(a, ts);
	if (a->nfree) {
		idx = a->free_fence[--a->nfree];
	} else {
		TRAX_GROW(a->fence, a->nfence, a->cfence, 256);
		idx = a->nfence++;
	}
	f = &a->fence[idx];
	memset(f, 0, sizeof(*f));
	f->used = 1;
	f->key = xmemdup0(key, strlen(key));
	f->first_ts = f->last_ts = ts;
	f->buffer = buffer;
	smap_put(&a->fences, key, idx);
	a->nlive++;
	return idx;
}

static void fence_key(char *key, size_t n, int buffer, const char *kind, const char *name,
		      int64_t context, int64_t seqno)
{
	snprintf(key, n, "%d|%s|%s|%lld|%lld", buffer, kind, name ? name : "", (long long)context,
		 (long long)seqno);
}

/* A stage of a dma_fence / fence lifecycle. */
static void fence_stage(struct android *a, int stage, uint64_t ts, int utid, int buffer,
			char *driver, char *timeline, int64_t context, int64_t seqno)
{
	char key[96];
	int idx;
	struct fence_ent *f;

	fence_key(key, sizeof(key), buffer, "ctx", NULL, context, seqno);
	idx = smap_get(&a->fences, key, -1);
	if (idx >= 0 && stage == F_INIT) {
		f = &a->fence[idx];
		/* the same (context, seqno) made again: a new fence once the old one is done */
		if (!f->have[F_SIGNAL] && !f->have[F_DESTROY])
			anomaly(a, AN_FENCE_REINIT, ts, utid, buffer, "fence context %lld seqno %lld "
				"initialized again before it signaled", (long long)context,
				(long long)seqno);
		fence_write(a, idx);
		idx = -1;
	}
	if (idx < 0)
		idx = fence_new(a, key, ts, buffer);
	f = &a->fence[idx];
	if (!f->driver && driver) {
		f->driver = driver;
		driver = NULL;
	}
	if (!f->timeline && timeline) {
		f->timeline = timeline;
		timeline = NULL;
	}
	free(driver);
	free(timeline);
	f->has_context = 1;
	f->context = context;
	f->seqno = seqno;
	f->last_ts = ts;
	if (stage == F_SIGNAL) {
		f->signal_count++;
		if (f->signal_count > 1) {
			anomaly(a, AN_FENCE_SIGNALED_TWICE, ts, utid, buffer, "fence context %lld "
				"seqno %lld signaled again (first at %llu)", (long long)context,
				(long long)seqno, (unsigned long long)f->ts[F_SIGNAL]);
			return;
		}
	}
	if (!f->have[stage]) {
		f->have[stage] = 1;
		f->ts[stage] = ts;
	}
	if (stage == F_DESTROY)
		fence_write(a, idx);
}

/* A fence named by a string (sync timeline point, atrace fence); returns its index. */
int named_fence(struct android *a, const char *kind, const char *driver,
		       const char *timeline, int64_t seqno, uint64_t ts, int buffer, int create)
{
	char key[320];
	int idx;
	struct fence_ent *f;

	fence_key(key, sizeof(key), buffer, kind, timeline, -1, seqno);
	idx = smap_get(&a->fences, key, -1);
	if (idx >= 0 || !create)
		return idx;
	idx = fence_new(a, key, ts, buffer);
	f = &a->fence[idx];
	f->driver = xmemdup0(driver, strlen(driver));
	f->timeline = xmemdup0(timeline, strlen(timeline));
	f->seqno = seqno;
	return idx;
}

/* ---- events ---- */

static void on_wait(struct android *a, struct ld_type *t, uint64_t ts, int utid, int buffer,
		    const struct ld_val *v)
{
	struct thread_state *st = tstate(a, utid, buffer);
	int64_t ctx = vint(t, v, FN_CONTEXT, -1), seq = vint(t, v, FN_SEQNO, -1);
	int sys = !strcmp(t->name, "dma_fence_wait_start") || !strcmp(t->name, "dma_fence_wait_end")
		? 1 : 2;

	if (!st)
		return;
	if (t->role == ROLE_FENCE_WAIT_START) {
		if (st->waiting)
			anomaly(a, AN_FENCE_WAIT_UNTERMINATED, st->wait_ts, utid, buffer, "wait on "
				"context %lld seqno %lld never ended (another began)",
				(long long)st->wait_context, (long long)st->wait_seqno);
		free(st->wait_timeline);
		st->waiting = 1;
		st->wait_ts = ts;
		st->wait_context = ctx;
		st->wait_seqno = seq;
		st->wait_timeline = vname(t, v, FN_TIMELINE);
		st->wait_fence_sys = sys;
		return;
	}
	if (!st->waiting || st->wait_context != ctx || st->wait_seqno != seq) {
		anomaly(a, AN_FENCE_WAIT_UNMATCHED_END, ts, utid, buffer, "%s context %lld seqno %lld "
			"without its wait_start", t->name, (long long)ctx, (long long)seq);
		return;
	}
	wait_write(a, &(struct wait_rec){ .ts = st->wait_ts, .end = ts, .utid = utid,
		.has_ctx = 1, .context = ctx, .has_seqno = 1, .seqno = seq,
		.source = sys == 1 ? "dma_fence" : "fence", .name = st->wait_timeline,
		.buffer = buffer });
	st->waiting = 0;
	free(st->wait_timeline);
	st->wait_timeline = NULL;
}

static struct sync_tl *timeline_get(struct android *a, const char *name)
{
	int i = smap_get(&a->tl_map, name, -1);

	if (i < 0) {
		a->tls = xrealloc(a->tls, (a->ntls + 1) * sizeof(*a->tls));
		memset(&a->tls[a->ntls], 0, sizeof(a->tls[0]));
		a->tls[a->ntls].name = xmemdup0(name, strlen(name));
		i = a->ntls++;
		smap_put(&a->tl_map, name, i);
	}
	return &a->tls[i];
}

static void on_sync(struct android *a, struct ld_type *t, uint64_t ts, int utid, int buffer,
		    const struct ld_val *v)
{
	struct thread_state *st;
	char *name = NULL;
	int64_t value;
	struct sync_tl *tl;

	switch (t->role) {
	case ROLE_SYNC_WAIT:
		name = vname(t, v, SY_NAME);
		st = tstate(a, utid, buffer);
		if (!st)
			break;
		if (vint(t, v, SY_BEGIN, 0)) {
			free(st->sync_name);
			st->sync_waiting = 1;
			st->sync_ts = ts;
			st->sync_name = name;
			name = NULL;
		} else if (!st->sync_waiting) {
			anomaly(a, AN_SYNC_WAIT_UNMATCHED_END, ts, utid, buffer, "sync_wait end \"%s\" "
				"without a begin", name ? name : "");
		} else {
			wait_write(a, &(struct wait_rec){ .ts = st->sync_ts, .end = ts,
				.utid = utid, .source = "sync_wait", .name = st->sync_name,
				.buffer = buffer });
			st->sync_waiting = 0;
			free(st->sync_name);
			st->sync_name = NULL;
		}
		break;
	case ROLE_SYNC_PT:
		name = vname(t, v, PT_TIMELINE);
		if (!name || !vnum(t, v, PT_VALUE, &value)) {
			anomaly(a, AN_SYNC_BAD_VALUE, ts, utid, buffer, "%s without a numeric value",
				t->name);
			break;
		}
		tl = timeline_get(a, name);
		if (tl->have && tl->value >= value)
			break;	/* already signaled when waited on */
		if (named_fence(a, "sync", "sync", name, value, ts, buffer, 0) < 0) {
			int idx = named_fence(a, "sync", "sync", name, value, ts, buffer, 1);

			tl = timeline_get(a, name);
			a->fence[idx].have[F_INIT] = 1;
			a->fence[idx].ts[F_INIT] = ts;
			TRAX_GROW(tl->pending, tl->npending, tl->cpending, 8);
			tl->pending[tl->npending++] = idx;
		}
		break;
	case ROLE_SYNC_TIMELINE: {
		int track;

		name = vname(t, v, TL_NAME);
		if (!name || !vnum(t, v, TL_VALUE, &value)) {
			anomaly(a, AN_SYNC_BAD_VALUE, ts, utid, buffer, "%s without a numeric value",
				t->name);
			break;
		}
		track = derive_track(a->d, "sync_timeline", "fence", -1, -1, name, NULL, buffer);
		derive_counter(a->d, ts, track, (double)value);
		tl = timeline_get(a, name);
		tl->have = 1;
		tl->value = value;
		for (int i = 0; i < tl->npending;) {
			struct fence_ent *f = &a->fence[tl->pending[i]];

			if (f->used && f->seqno <= value) {
				f->have[F_SIGNAL] = 1;
				f->ts[F_SIGNAL] = ts;
				f->signal_count = 1;
				f->last_ts = ts;
				tl->pending[i] = tl->pending[--tl->npending];
			} else {
				i++;
			}
		}
		break;
	}
	default:
		break;
	}
	free(name);
}

/* The fence events (parse/events.h: by EV_FENCES). */
void fences_event(struct android *a, struct ld_type *t, uint64_t ts, int utid, int buffer,
	           const struct ld_val *v)
{
	switch (t->role) {
	case ROLE_FENCE_INIT:
	case ROLE_FENCE_EMIT:
	case ROLE_FENCE_ENABLE:
	case ROLE_FENCE_SIGNALED:
	case ROLE_FENCE_DESTROY: {
		int stage = t->role == ROLE_FENCE_INIT ? F_INIT : t->role == ROLE_FENCE_EMIT ? F_EMIT :
			t->role == ROLE_FENCE_ENABLE ? F_ENABLE :
			t->role == ROLE_FENCE_SIGNALED ? F_SIGNAL : F_DESTROY;

		if (!vhas(t, v, FN_CONTEXT) || !vhas(t, v, FN_SEQNO)) {
			anomaly(a, AN_EVENT_MISSING_FIELD, ts, utid, buffer, "%s without context or "
				"seqno", t->name);
			break;
		}
		fence_stage(a, stage, ts, utid, buffer, vname(t, v, FN_DRIVER),
			    vname(t, v, FN_TIMELINE), vint(t, v, FN_CONTEXT, 0),
			    vint(t, v, FN_SEQNO, 0));
		break;
	}
	case ROLE_FENCE_ANNOTATE: {
		char key[96];
		int idx;

		if (!vhas(t, v, FA_CONTEXT) || !vhas(t, v, FA_SEQNO) ||
		    !vhas(t, v, FA_WAITING_CONTEXT) || !vhas(t, v, FA_WAITING_SEQNO)) {
			anomaly(a, AN_EVENT_MISSING_FIELD, ts, utid, buffer, "%s without contexts or "
				"seqnos", t->name);
			break;
		}
		fence_key(key, sizeof(key), buffer, "ctx", NULL, vint(t, v, FA_CONTEXT, 0),
			  vint(t, v, FA_SEQNO, 0));
		idx = smap_get(&a->fences, key, -1);
		if (idx < 0) {
			idx = fence_new(a, key, ts, buffer);
			a->fence[idx].has_context = 1;
			a->fence[idx].context = vint(t, v, FA_CONTEXT, 0);
			a->fence[idx].seqno = vint(t, v, FA_SEQNO, 0);
			a->fence[idx].driver = vname(t, v, FA_DRIVER);
			a->fence[idx].timeline = vname(t, v, FA_TIMELINE);
		}
		a->fence[idx].has_wait_on = 1;
		a->fence[idx].wait_on_context = vint(t, v, FA_WAITING_CONTEXT, 0);
		a->fence[idx].wait_on_seqno = vint(t, v, FA_WAITING_SEQNO, 0);
		a->fence[idx].last_ts = ts;
		break;
	}
	case ROLE_FENCE_WAIT_START:
	case ROLE_FENCE_WAIT_END:
		on_wait(a, t, ts, utid, buffer, v);
		break;
	case ROLE_SYNC_WAIT:
	case ROLE_SYNC_PT:
	case ROLE_SYNC_TIMELINE:
		on_sync(a, t, ts, utid, buffer, v);
		break;
	default:
		break;
	}
}

/* Waits still open at the end of the trace: anomalies. */
void fences_thread_end(struct android *a, struct thread_state *st, int utid, int buffer)
{
	if (st->waiting)
		anomaly(a, AN_FENCE_WAIT_UNTERMINATED, st->wait_ts, utid, buffer, "wait on context "
			"%lld seqno %lld never ended", (long long)st->wait_context,
			(long long)st->wait_seqno);
	if (st->sync_waiting)
		anomaly(a, AN_FENCE_WAIT_UNTERMINATED, st->sync_ts, utid, buffer, "sync_wait \"%s\" "
			"never ended", st->sync_name ? st->sync_name : "");
}

/* The fences still live at the end, in order of first sight. */
void fences_end(struct android *a)
{
	int *idx, n = 0;

	idx = xcalloc(a->nfence, sizeof(int));
	for (int i = 0; i < a->nfence; i++)
		if (a->fence[i].used)
			idx[n++] = i;
	qsort_r(idx, n, sizeof(int), cmp_fence_first, a->fence);
	for (int i = 0; i < n; i++)
		fence_write(a, idx[i]);
	free(idx);
}
