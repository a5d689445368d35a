/* parse/android.c: the Android derived tables: their state and helpers, the dispatch of events
 * to their subject's file (parse/android-local.h), and the end of the trace. */
/*
 * Fed by derive.c while loading (events in trace order). What the subjects write (doc/db.md):
 *   slice, instant      atrace B/E, S/F, G/H, N/I markers; other markers are instants
 *   counter             atrace C markers, oom_score_adj, heap totals, GPU memory, sync timelines
 *   kill                lowmemory_kill, mark_victim, lmkd markers (merged per kill at the end)
 *   alloc               ION attempts (start/end[/fallback]), fails, ion_stat, dma_heap_stat,
 *                       heap grow/shrink
 *   fence, fence_wait   dma_fence_* and fence_* lifecycles, sync_wait/sync_pt/sync_timeline,
 *                       atrace "waiting for NAME N" slices and "NAME fence N has signaled" markers
 *   anomaly             whatever could not be read or paired; counted in meta (android.*)
 * Memory: open slices, waits and attempts per thread; live fences (signaled ones are written
 * out once more than FENCE_CAP are live); kills (few) until the end.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse/android-local.h"
#include "parse/schema.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *const anomaly_names[AN__COUNT] = {
	"marker_malformed", "marker_unmatched_end", "marker_unterminated", "marker_too_deep",
	"async_unmatched_end", "async_unterminated", "counter_bad_value",
	"kill_unknown_reason", "kill_malformed",
	"alloc_unmatched_end", "alloc_unterminated", "alloc_unmatched_fallback",
	"fence_signaled_twice", "fence_reinit", "fence_wait_unmatched_end",
	"fence_wait_unterminated", "sync_wait_unmatched_end", "sync_bad_value",
	"event_missing_field",
};

/* ---- a string-keyed hash map to int (tombstones on delete) ---- */

#define SMAP_TOMB ((char *)1)

static uint32_t hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

void smap_free(struct smap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i] && m->keys[i] != SMAP_TOMB)
			free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static void smap_grow(struct smap *m)
{
	struct smap old = *m;

	m->cap = old.cap ? old.cap * 2 : 256;
	/* mostly tombstones: rehash at the same size */
	if (old.cap) {
		size_t live = 0;

		for (size_t i = 0; i < old.cap; i++)
			live += old.keys[i] && old.keys[i] != SMAP_TOMB;
		if (live * 4 < old.cap)
			m->cap = old.cap;
	}
	m->keys = xcalloc(m->cap, sizeof(char *));
	m->vals = xcalloc(m->cap, sizeof(int));
	m->used = 0;
	for (size_t i = 0; i < old.cap; i++) {
		if (old.keys[i] && old.keys[i] != SMAP_TOMB) {
			smap_put(m, old.keys[i], old.vals[i]);
			free(old.keys[i]);
		}
	}
	free(old.keys);
	free(old.vals);
}

/* The slot holding key, or -1. */
long smap_find(const struct smap *m, const char *key)
{
	size_t mask = m->cap - 1, i;

	if (!m->cap)
		return -1;
	i = hash_bytes(key, strlen(key)) & mask;
	while (m->keys[i]) {
		if (m->keys[i] != SMAP_TOMB && !strcmp(m->keys[i], key))
			return (long)i;
		i = (i + 1) & mask;
	}
	return -1;
}

int smap_get(const struct smap *m, const char *key, int def)
{
	long i = smap_find(m, key);

	return i < 0 ? def : m->vals[i];
}

void smap_put(struct smap *m, const char *key, int val)
{
	long f = smap_find(m, key);
	size_t i;

	if (f >= 0) {
		m->vals[f] = val;
		return;
	}
	if ((m->used + 1) * 2 > m->cap)
		smap_grow(m);
	i = hash_bytes(key, strlen(key)) & (m->cap - 1);
	while (m->keys[i] && m->keys[i] != SMAP_TOMB)
		i = (i + 1) & (m->cap - 1);
	if (!m->keys[i])
		m->used++;
	m->keys[i] = xmemdup0(key, strlen(key));
	m->vals[i] = val;
}

void smap_del(struct smap *m, const char *key)
{
	long i = smap_find(m, key);

	if (i >= 0) {
		free(m->keys[i]);
		m->keys[i] = SMAP_TOMB;
	}
}

/* ---- helpers ---- */

/*
 * A name field: a string, or (trace.dat of kernels that store names as pointers and whose
 * address no printk entry resolves) the address as libtraceevent prints it, in hex.
 */
char *vname(const struct ld_type *t, const struct ld_val *v, int k)
{
	int i = t->ridx[k];
	char buf[32];

	if (i < 0)
		return NULL;
	if (v[i].kind == LD_STR)
		return xmemdup0(v[i].s, strnlen(v[i].s, v[i].len));
	if (v[i].kind == LD_I64) {
		snprintf(buf, sizeof(buf), "%llx", (unsigned long long)v[i].i);
		return xmemdup0(buf, strlen(buf));
	}
	return NULL;
}

/* An integer held in a string field ("7094"), as sync_pt/sync_timeline print their value. */
int vnum(const struct ld_type *t, const struct ld_val *v, int k, int64_t *out)
{
	int i = t->ridx[k];
	char buf[40], *end;

	if (i < 0)
		return 0;
	if (v[i].kind == LD_I64) {
		*out = v[i].i;
		return 1;
	}
	if (v[i].kind != LD_STR || v[i].len <= 0 || v[i].len >= (int)sizeof(buf))
		return 0;
	memcpy(buf, v[i].s, v[i].len);
	buf[v[i].len] = '\0';
	*out = strtoll(buf, &end, 10);
	return end != buf && *end == '\0';
}

/*
 * error values are negative errnos; a 32-bit kernel's `long` printed by libtraceevent as an
 * unsigned number (4294967284) is read back as its 32-bit signed value (-12).
 */
int64_t errno_value(int64_t e)
{
	if (e > 0x7fffffffLL && e <= 0xffffffffLL && e >= 0xfffff000LL)
		return (int32_t)(uint32_t)e;
	return e;
}

void anomaly(struct android *a, enum anomaly_kind k, uint64_t ts, int utid, int buffer,
	     const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	a->counts[k]++;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	dbw_row_begin(a->w, a->anomaly_stmt);
	dbw_int(a->w, (int64_t)ts);
	dbw_text(a->w, anomaly_names[k], -1);
	if (utid >= 0)
		dbw_int(a->w, utid);
	else
		dbw_null(a->w);
	dbw_text(a->w, sb.buf, (int)sb.len);
	dbw_int(a->w, buffer);
	dbw_row_end(a->w);
	a->rows++;
	strbuf_release(&sb);
}

struct thread_state *tstate(struct android *a, int utid, int buffer)
{
	size_t i;

	if (utid < 0 || buffer < 0 || buffer >= a->nbuffers)
		return NULL;
	i = (size_t)utid * a->nbuffers + buffer;
	if (i >= a->nts) {
		size_t n = a->nts ? a->nts : 256;

		while (n <= i)
			n *= 2;
		a->ts = xrealloc(a->ts, n * sizeof(*a->ts));
		memset(a->ts + a->nts, 0, (n - a->nts) * sizeof(*a->ts));
		a->nts = n;
	}
	return &a->ts[i];
}

/* ---- lifecycle ---- */

struct android *android_alloc(struct loader *L, struct derive *d, struct dbw *w, int nbuffers)
{
	struct android *a = xcalloc(1, sizeof(*a));

	a->L = L;
	a->d = d;
	a->w = w;
	a->nbuffers = nbuffers > 0 ? nbuffers : 1;
	a->slice_stmt = schema_insert(w, SCHEMA_SLICE, DBW_CAT_DERIVED);
	a->instant_stmt = schema_insert(w, SCHEMA_INSTANT, DBW_CAT_DERIVED);
	a->kill_stmt = schema_insert(w, SCHEMA_KILL, DBW_CAT_DERIVED);
	a->alloc_stmt = schema_insert(w, SCHEMA_ALLOC, DBW_CAT_DERIVED);
	a->fence_stmt = schema_insert(w, SCHEMA_FENCE, DBW_CAT_DERIVED);
	a->wait_stmt = schema_insert(w, SCHEMA_FENCE_WAIT, DBW_CAT_DERIVED);
	a->anomaly_stmt = schema_insert(w, SCHEMA_ANOMALY, DBW_CAT_DERIVED);
	a->evict_at = FENCE_CAP;
	return a;
}

void android_free(struct android *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nts; i++) {
		struct thread_state *s = &a->ts[i];

		for (int k = 0; k < s->depth; k++)
			free(s->stack[k].name);
		free(s->stack);
		free(s->wait_timeline);
		free(s->sync_name);
		free(s->ion_client);
		free(s->ion_heap);
	}
	free(a->ts);
	for (int i = 0; i < a->nasync; i++) {
		free(a->asyncs[i].name);
		free(a->asyncs[i].track);
	}
	free(a->asyncs);
	free(a->free_async);
	smap_free(&a->async);
	smap_free(&a->adj);
	smap_free(&a->adj_comm);
	for (int i = 0; i < a->ncomms; i++)
		free(a->comms[i]);
	free(a->comms);
	for (int i = 0; i < a->nfence; i++)
		fence_release(&a->fence[i]);
	free(a->fence);
	free(a->free_fence);
	smap_free(&a->fences);
	for (int i = 0; i < a->ntls; i++) {
		free(a->tls[i].name);
		free(a->tls[i].pending);
	}
	free(a->tls);
	smap_free(&a->tl_map);
	for (int i = 0; i < a->nkills; i++) {
		free(a->kills[i].comm);
		free(a->kills[i].reason);
	}
	free(a->kills);
	free(a);
}

/* ---- events ---- */

/* The subject reading each derivation's events (the by column of parse/events.h). */
static android_handler *const handlers[] = {
	[EV_KILLS] = kills_event,
	[EV_ALLOCS] = allocs_event,
	[EV_FENCES] = fences_event,
};

void android_event(struct android *a, struct ld_type *t, uint64_t ts, int cpu, int pid,
		   int buffer, const struct ld_val *v)
{
	int utid = pid >= 0 ? derive_thread(a->d, pid, ts) : -1;

	(void)cpu;
	if (ts > a->last_ts)
		a->last_ts = ts;
	if ((size_t)t->by < sizeof(handlers) / sizeof(handlers[0]) && handlers[t->by])
		handlers[t->by](a, t, ts, utid, buffer, v);
}

/* ---- the end ---- */

void android_finish(struct android *a, uint64_t end_ts)
{
	uint64_t total = 0;

	if (end_ts < a->last_ts)
		end_ts = a->last_ts;
	for (size_t i = 0; i < a->nts; i++) {
		struct thread_state *st = &a->ts[i];
		int utid = (int)(i / a->nbuffers), b = (int)(i % a->nbuffers);

		atrace_thread_end(a, st, utid, b, end_ts);
		fences_thread_end(a, st, utid, b);
		allocs_thread_end(a, st, utid, b);
	}
	atrace_end(a, end_ts);
	kills_end(a);
	fences_end(a);
	for (int k = 0; k < AN__COUNT; k++) {
		char key[64];

		total += a->counts[k];
		if (!a->counts[k])
			continue;
		snprintf(key, sizeof(key), "android.anomaly.%s", anomaly_names[k]);
		ld_meta(a->L, key, "%llu", (unsigned long long)a->counts[k]);
	}
	ld_meta(a->L, "android.anomalies", "%llu", (unsigned long long)total);
}
