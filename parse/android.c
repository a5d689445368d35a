/* parse/android.c: Android derived tables: atrace markers, kills, ION/GPU memory, fences. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse/android.h"
#include "parse/schema.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * Fed by derive.c while loading (events in trace order). What it writes (doc/db.md):
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

#define STACK_MAX 256
#define FENCE_CAP 65536
#define LMKD_MERGE_NS 1000000000ull	/* lmkd markers of one pid within 1 s: one kill */

enum anomaly_kind {
	AN_MARKER_MALFORMED, AN_MARKER_UNMATCHED_END, AN_MARKER_UNTERMINATED, AN_MARKER_TOO_DEEP,
	AN_ASYNC_UNMATCHED_END, AN_ASYNC_UNTERMINATED, AN_COUNTER_BAD_VALUE,
	AN_KILL_UNKNOWN_REASON, AN_KILL_MALFORMED,
	AN_ALLOC_UNMATCHED_END, AN_ALLOC_UNTERMINATED, AN_ALLOC_UNMATCHED_FALLBACK,
	AN_FENCE_SIGNALED_TWICE, AN_FENCE_REINIT, AN_FENCE_WAIT_UNMATCHED_END,
	AN_FENCE_WAIT_UNTERMINATED, AN_SYNC_WAIT_UNMATCHED_END, AN_SYNC_BAD_VALUE,
	AN_EVENT_MISSING_FIELD,
	AN__COUNT
};

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

struct smap {
	char **keys;
	int *vals;
	size_t cap, used;	/* used counts tombstones too */
};

#define SMAP_TOMB ((char *)1)

static uint32_t hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static void smap_free(struct smap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i] && m->keys[i] != SMAP_TOMB)
			free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static void smap_put(struct smap *m, const char *key, int val);

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
static long smap_find(const struct smap *m, const char *key)
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

static int smap_get(const struct smap *m, const char *key, int def)
{
	long i = smap_find(m, key);

	return i < 0 ? def : m->vals[i];
}

static void smap_put(struct smap *m, const char *key, int val)
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

static void smap_del(struct smap *m, const char *key)
{
	long i = smap_find(m, key);

	if (i >= 0) {
		free(m->keys[i]);
		m->keys[i] = SMAP_TOMB;
	}
}

/* ---- state ---- */

struct open_slice {
	uint64_t ts;
	char *name;
	int fence_wait;		/* "waiting for NAME N": also a fence_wait row at its end */
};

struct thread_state {		/* per (utid, buffer) */
	struct open_slice *stack;
	int depth, cap;
	/* dma_fence / fence wait in progress */
	int waiting;
	uint64_t wait_ts;
	int64_t wait_context, wait_seqno;
	char *wait_timeline;
	int wait_fence_sys;	/* 1: dma_fence_*, 2: fence_* */
	/* sync_wait in progress */
	int sync_waiting;
	uint64_t sync_ts;
	char *sync_name;
	/* ION attempt: open (started, not ended) and done (ended, a fallback may follow) */
	int ion_open, ion_done;
	uint64_t ion_ts, ion_end_ts;
	char *ion_client, *ion_heap;
	int64_t ion_len;
};

struct async_open {
	uint64_t ts;
	int utid, buffer;
	char *name, *track;
	int64_t cookie;
};

struct fence_ent {
	int used;
	char *key, *driver, *timeline;
	int has_context;
	int64_t context, seqno;
	uint64_t ts[5];		/* init, emit, enable, signal, destroy; 0: none */
	int have[5];
	int signal_count;
	int has_wait_on;
	int64_t wait_on_context, wait_on_seqno;
	uint64_t first_ts, last_ts;
	int buffer;
};

enum { F_INIT, F_EMIT, F_ENABLE, F_SIGNAL, F_DESTROY };

struct sync_tl {
	char *name;
	int have;
	int64_t value;
	int *pending;		/* fence entries waiting for the timeline to reach them */
	int npending, cpending;
};

struct kill_ent {
	uint64_t ts;
	const char *source;	/* static */
	int64_t pid;		/* -1: unknown */
	char *comm;
	int has_adj, has_min_adj, has_rss;
	int64_t adj, min_adj, rss_kb;
	char *reason;
	int utid, buffer;
	int merged;
};

struct android {
	struct loader *L;
	struct derive *d;
	struct dbw *w;
	int nbuffers;
	int slice_stmt, instant_stmt, kill_stmt, alloc_stmt, fence_stmt, wait_stmt, anomaly_stmt;
	uint64_t rows;
	uint64_t counts[AN__COUNT];
	uint64_t last_ts;

	struct thread_state *ts;	/* [utid * nbuffers + buffer] */
	size_t nts;

	struct smap async;		/* "buffer|tgid|track|cookie" -> async index */
	struct async_open *asyncs;	/* slots; name NULL: free */
	int nasync, casync, *free_async, nfree_async;

	struct smap adj;		/* "pid" -> adj */
	struct smap adj_comm;		/* "pid" -> index in comms: the comm its adj update gave */
	char **comms;
	int ncomms;

	struct smap fences;		/* key -> fence index */
	struct fence_ent *fence;
	int nfence, cfence, nlive, *free_fence, nfree, evict_at;

	struct smap tl_map;		/* sync timeline name -> index */
	struct sync_tl *tls;
	int ntls;

	struct kill_ent *kills;
	int nkills, ckills;
};

/* ---- helpers ---- */

static int64_t vint(const struct ld_type *t, const struct ld_val *v, int k, int64_t def)
{
	int i = t->ridx[k];

	return i >= 0 && v[i].kind == LD_I64 ? v[i].i : def;
}

static int vhas(const struct ld_type *t, const struct ld_val *v, int k)
{
	int i = t->ridx[k];

	return i >= 0 && (v[i].kind == LD_I64 || v[i].kind == LD_STR);
}

/*
 * A name field: a string, or (trace.dat of kernels that store names as pointers and whose
 * address no printk entry resolves) the address as libtraceevent prints it, in hex.
 */
static char *vname(const struct ld_type *t, const struct ld_val *v, int k)
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
static int vnum(const struct ld_type *t, const struct ld_val *v, int k, int64_t *out)
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
static int64_t errno_value(int64_t e)
{
	if (e > 0x7fffffffLL && e <= 0xffffffffLL && e >= 0xfffff000LL)
		return (int32_t)(uint32_t)e;
	return e;
}

static void anomaly(struct android *a, enum anomaly_kind k, uint64_t ts, int utid, int buffer,
		    const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void anomaly(struct android *a, enum anomaly_kind k, uint64_t ts, int utid, int buffer,
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

static void put_opt_int(struct dbw *w, int have, int64_t v)
{
	if (have)
		dbw_int(w, v);
	else
		dbw_null(w);
}

static void put_opt_text(struct dbw *w, const char *s, int len)
{
	if (s)
		dbw_text(w, s, len);
	else
		dbw_null(w);
}

static struct thread_state *tstate(struct android *a, int utid, int buffer)
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

static void fence_release(struct fence_ent *f)
{
	free(f->key);
	free(f->driver);
	free(f->timeline);
	memset(f, 0, sizeof(*f));
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

/* ---- oom_score_adj ---- */

void android_adj(struct android *a, uint64_t ts, int pid, int64_t adj, int buffer)
{
	char key[24];

	snprintf(key, sizeof(key), "%d", pid);
	smap_put(&a->adj, key, (int)adj);
	if (buffer >= 0) {
		int utid = derive_thread(a->d, pid, ts);
		int track = derive_track(a->d, "oom_score_adj", "task", -1, utid, NULL, NULL, buffer);

		derive_counter(a->d, ts, track, (double)adj);
	}
}

/* The comm an oom_score_adj_update gave pid (the task's name then), or NULL. */
static const char *adj_comm(struct android *a, int64_t pid)
{
	char key[24];
	int i;

	snprintf(key, sizeof(key), "%lld", (long long)pid);
	i = smap_get(&a->adj_comm, key, -1);
	return i >= 0 ? a->comms[i] : NULL;
}

static void adj_comm_set(struct android *a, int64_t pid, char *comm)
{
	char key[24];
	int i;

	snprintf(key, sizeof(key), "%lld", (long long)pid);
	i = smap_get(&a->adj_comm, key, -1);
	if (i >= 0) {
		free(a->comms[i]);
		a->comms[i] = comm;
		return;
	}
	a->comms = xrealloc(a->comms, (a->ncomms + 1) * sizeof(char *));
	a->comms[a->ncomms] = comm;
	smap_put(&a->adj_comm, key, a->ncomms++);
}

static int adj_of(struct android *a, int64_t pid, int64_t *adj)
{
	char key[24];
	long i;

	snprintf(key, sizeof(key), "%lld", (long long)pid);
	i = smap_find(&a->adj, key);
	if (i < 0)
		return 0;
	*adj = a->adj.vals[i];
	return 1;
}

/* ---- kills ---- */

static struct kill_ent *kill_new(struct android *a, uint64_t ts, const char *source, int64_t pid,
				 int buffer)
{
	struct kill_ent *k;

	TRAX_GROW(a->kills, a->nkills, a->ckills, 16);
	k = &a->kills[a->nkills++];
	memset(k, 0, sizeof(*k));
	k->ts = ts;
	k->source = source;
	k->pid = pid;
	k->buffer = buffer;
	k->utid = pid > 0 ? derive_thread(a->d, (int)pid, ts) : -1;
	if (pid > 0)
		k->has_adj = adj_of(a, pid, &k->adj);
	if (k->utid >= 0 && derive_thread_comm(a->d, k->utid)) {
		const char *c = derive_thread_comm(a->d, k->utid);

		k->comm = xmemdup0(c, strlen(c));
	} else if (pid > 0 && adj_comm(a, pid)) {
		k->comm = xmemdup0(adj_comm(a, pid), strlen(adj_comm(a, pid)));
	}
	return k;
}

static void kill_set_comm(struct kill_ent *k, const char *s, size_t n)
{
	if (!s || !n)
		return;
	free(k->comm);
	k->comm = xmemdup0(s, n);
}

/* lmkd's kill reasons (enum kill_reasons in lmkd's statslog.h); -1 is "none". */
static const char *const lmk_reasons[] = {
	"pressure_after_kill", "not_responding", "low_swap_and_thrashing", "low_mem_and_swap",
	"low_mem_and_thrashing", "direct_recl_and_thrashing", "low_mem_and_swap_util",
	"low_filecache_after_thrashing", "low_mem", "direct_recl_stuck",
};

/* "lmk,<pid>,<reason>,<adj>[,<min_adj>[,...]]": lmkd's slice around a kill. */
static void lmk_marker(struct android *a, uint64_t ts, int utid, int buffer, const char *s,
		       int len)
{
	int64_t f[5];
	int n = 0;
	const char *p = s + 4, *end = s + len;
	struct kill_ent *k;
	char buf[32];

	while (p <= end && n < 5) {
		const char *c = memchr(p, ',', end - p);
		size_t fl = c ? (size_t)(c - p) : (size_t)(end - p);
		char *e;

		if (!fl || fl >= sizeof(buf))
			break;
		memcpy(buf, p, fl);
		buf[fl] = '\0';
		f[n] = strtoll(buf, &e, 10);
		if (*e)
			break;
		n++;
		if (!c)
			break;
		p = c + 1;
	}
	if (n < 3 || f[0] <= 0) {
		anomaly(a, AN_KILL_MALFORMED, ts, utid, buffer, "lmkd marker \"%.*s\"", len, s);
		return;
	}
	k = kill_new(a, ts, "lmkd", f[0], buffer);
	k->has_adj = 1;
	k->adj = f[2];
	if (n >= 4) {
		k->has_min_adj = 1;
		k->min_adj = f[3];
	}
	if (f[1] >= 0 && f[1] < (int64_t)(sizeof(lmk_reasons) / sizeof(lmk_reasons[0]))) {
		k->reason = xmemdup0(lmk_reasons[f[1]], strlen(lmk_reasons[f[1]]));
	} else if (f[1] == -1) {
		k->reason = xmemdup0("none", 4);
	} else {
		snprintf(buf, sizeof(buf), "unknown(%lld)", (long long)f[1]);
		k->reason = xmemdup0(buf, strlen(buf));
		anomaly(a, AN_KILL_UNKNOWN_REASON, ts, utid, buffer, "lmkd kill reason %lld in \"%.*s\"",
			(long long)f[1], len, s);
	}
}

/* The pid in a free-form kill description: "(1234)", "pid=1234" or "lmk,1234,...". */
static int64_t pid_in(const char *s, int len, const char **comm_end)
{
	for (int i = 0; i < len; i++) {
		int j = i + 1;
		int64_t v = 0;

		if (s[i] == '(' || (i + 4 <= len && !memcmp(s + i, "pid=", 4))) {
			if (s[i] != '(')
				j = i + 4;
			while (j < len && s[j] >= '0' && s[j] <= '9' && j - i < 12)
				v = v * 10 + (s[j++] - '0');
			if (j > i + 1 && v > 0 && (s[i] != '(' || (j < len && s[j] == ')'))) {
				*comm_end = s + i;
				return v;
			}
		}
	}
	*comm_end = s + len;
	return -1;
}

/* An N| instant on lmkd's "lowmemorykiller" track. */
static void lmk_instant(struct android *a, uint64_t ts, int utid, int buffer, const char *s,
			int len)
{
	const char *ce;
	int64_t pid;
	struct kill_ent *k;

	if (len > 4 && !memcmp(s, "lmk,", 4)) {
		lmk_marker(a, ts, utid, buffer, s, len);
		return;
	}
	pid = pid_in(s, len, &ce);
	k = kill_new(a, ts, "lmkd", pid, buffer);
	/* "Kill name (1234)": the name is the text before the pid */
	while (ce > s && ce[-1] == ' ')
		ce--;
	if (ce - s > 5 && !strncasecmp(s, "kill ", 5))
		s += 5;
	if (ce > s && (pid > 0 || !k->comm))
		kill_set_comm(k, s, ce - s);
}

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

/* A row of fence_wait (doc/db.md): from ts to end; utid < 0, !has_*, name NULL: NULL. */
struct wait_rec {
	uint64_t ts, end;
	int utid;
	int has_ctx, has_seqno;
	int64_t context, seqno;
	const char *source, *name;
	int buffer;
};

static void wait_write(struct android *a, const struct wait_rec *r)
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
static int waiting_for(const char *s, size_t len, size_t *nlen, int64_t *n)
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
static int fence_signaled_marker(const char *s, size_t len, size_t *nlen, int64_t *n)
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
static int named_fence(struct android *a, const char *kind, const char *driver,
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

/* ---- events ---- */

/*
 * A row of alloc (doc/db.md): an attempt at ts (lasting to end when has_dur); ok 1, 0, or -1
 * (NULL: it never ended); heap, client NULL, !has_*, utid < 0: NULL.
 */
struct alloc_rec {
	uint64_t ts, end;
	int has_dur;
	const char *source, *heap, *client;
	int has_len, ok, has_err, fallback, has_total;
	int64_t len, err, total;
	int utid, buffer;
};

static void alloc_write(struct android *a, const struct alloc_rec *r)
{
	dbw_row_begin(a->w, a->alloc_stmt);
	dbw_int(a->w, (int64_t)r->ts);
	put_opt_int(a->w, r->has_dur, (int64_t)(r->end >= r->ts ? r->end - r->ts : 0));
	dbw_text(a->w, r->source, -1);
	put_opt_text(a->w, r->heap, -1);
	put_opt_text(a->w, r->client, -1);
	put_opt_int(a->w, r->has_len, r->len);
	put_opt_int(a->w, r->ok >= 0, r->ok);
	put_opt_int(a->w, r->has_err, r->err);
	dbw_int(a->w, r->fallback);
	put_opt_int(a->w, r->has_total, r->total);
	put_opt_int(a->w, r->utid >= 0, r->utid);
	dbw_int(a->w, r->buffer);
	dbw_row_end(a->w);
	a->rows++;
}

static void ion_clear(struct thread_state *st)
{
	free(st->ion_client);
	free(st->ion_heap);
	st->ion_client = st->ion_heap = NULL;
	st->ion_open = st->ion_done = 0;
}

/* An ended attempt with no fallback after it: a success. */
static void ion_flush(struct android *a, struct thread_state *st, int utid, int buffer)
{
	if (st->ion_done)
		alloc_write(a, &(struct alloc_rec){ .ts = st->ion_ts, .has_dur = 1,
			.end = st->ion_end_ts, .source = "ion", .heap = st->ion_heap,
			.client = st->ion_client, .has_len = 1, .len = st->ion_len, .ok = 1,
			.utid = utid, .buffer = buffer });
	ion_clear(st);
}

static void on_ion(struct android *a, struct ld_type *t, uint64_t ts, int utid, int buffer,
		   const struct ld_val *v)
{
	struct thread_state *st = tstate(a, utid, buffer);
	char *client = vname(t, v, ION_CLIENT), *heap = vname(t, v, ION_HEAP);
	int64_t len = vint(t, v, ION_LEN, 0), err = errno_value(vint(t, v, ION_ERROR, 0));
	int has_err = vhas(t, v, ION_ERROR);

	if (!st)
		goto out;
	switch (t->role) {
	case ROLE_ION_ALLOC_START:
		ion_flush(a, st, utid, buffer);
		st->ion_open = 1;
		st->ion_ts = ts;
		st->ion_client = client;
		st->ion_heap = heap;
		st->ion_len = len;
		client = heap = NULL;
		break;
	case ROLE_ION_ALLOC_END:
		if (!st->ion_open) {
			ion_flush(a, st, utid, buffer);
			anomaly(a, AN_ALLOC_UNMATCHED_END, ts, utid, buffer, "ion_alloc_buffer_end "
				"heap %s len %lld without a start", heap ? heap : "?", (long long)len);
			alloc_write(a, &(struct alloc_rec){ .ts = ts, .source = "ion",
				.heap = heap, .client = client, .has_len = 1, .len = len, .ok = 1,
				.utid = utid, .buffer = buffer });
			break;
		}
		st->ion_open = 0;
		st->ion_done = 1;
		st->ion_end_ts = ts;
		break;
	case ROLE_ION_ALLOC_FALLBACK:
		if (st->ion_done) {
			alloc_write(a, &(struct alloc_rec){ .ts = st->ion_ts, .has_dur = 1,
				.end = st->ion_end_ts, .source = "ion", .heap = st->ion_heap,
				.client = st->ion_client, .has_len = 1, .len = st->ion_len,
				.has_err = has_err, .err = err, .fallback = 1, .utid = utid,
				.buffer = buffer });
			ion_clear(st);
		} else {
			ion_flush(a, st, utid, buffer);
			anomaly(a, AN_ALLOC_UNMATCHED_FALLBACK, ts, utid, buffer, "ion_alloc_buffer_"
				"fallback heap %s len %lld after no attempt", heap ? heap : "?",
				(long long)len);
			alloc_write(a, &(struct alloc_rec){ .ts = ts, .source = "ion",
				.heap = heap, .client = client, .has_len = 1, .len = len,
				.has_err = has_err, .err = err, .fallback = 1, .utid = utid,
				.buffer = buffer });
		}
		break;
	case ROLE_ION_ALLOC_FAIL:
		if (st->ion_open) {
			/* kernels that end a failed attempt with the fail event itself */
			alloc_write(a, &(struct alloc_rec){ .ts = st->ion_ts, .has_dur = 1,
				.end = ts, .source = "ion_fail", .heap = heap, .client = client,
				.has_len = 1, .len = len, .has_err = has_err, .err = err, .utid = utid,
				.buffer = buffer });
			ion_clear(st);
		} else {
			ion_flush(a, st, utid, buffer);
			alloc_write(a, &(struct alloc_rec){ .ts = ts, .source = "ion_fail",
				.heap = heap, .client = client, .has_len = 1, .len = len,
				.has_err = has_err, .err = err, .utid = utid, .buffer = buffer });
		}
		break;
	default:
		break;
	}
out:
	free(client);
	free(heap);
}

static void on_heap_stat(struct android *a, struct ld_type *t, uint64_t ts, int utid,
			 int buffer, const struct ld_val *v)
{
	const char *source = t->role == ROLE_ION_HEAP_GROW ? "ion_heap_grow" :
		t->role == ROLE_ION_HEAP_SHRINK ? "ion_heap_shrink" :
		t->role == ROLE_ION_STAT ? "ion_stat" : "dma_heap_stat";
	char *heap = NULL;
	const char *comm = derive_thread_comm(a->d, utid);
	int64_t len = vint(t, v, HS_LEN, 0), total = vint(t, v, HS_TOTAL, 0);
	int has_total = vhas(t, v, HS_TOTAL), track;

	if (!vhas(t, v, HS_LEN)) {
		anomaly(a, AN_EVENT_MISSING_FIELD, ts, utid, buffer, "%s without len", t->name);
		return;
	}
	if (t->role == ROLE_ION_HEAP_GROW || t->role == ROLE_ION_HEAP_SHRINK) {
		heap = vname(t, v, HS_ID);
		if (t->role == ROLE_ION_HEAP_SHRINK)
			len = -len;
		comm = NULL;
	}
	alloc_write(a, &(struct alloc_rec){ .ts = ts, .source = source, .heap = heap,
		.client = comm, .has_len = 1, .len = len, .ok = 1, .has_total = has_total,
		.total = total, .utid = utid, .buffer = buffer });
	if (has_total) {
		if (heap)
			track = derive_track(a->d, "ion_heap_total", "memory", -1, -1, heap, "B",
					     buffer);
		else
			track = derive_track(a->d, t->role == ROLE_ION_STAT ? "ion_total" :
					     "dma_heap_total", "memory", -1, -1, NULL, "B", buffer);
		derive_counter(a->d, ts, track, (double)total);
	}
	free(heap);
}

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

void android_event(struct android *a, struct ld_type *t, uint64_t ts, int cpu, int pid,
		   int buffer, const struct ld_val *v)
{
	int utid = pid >= 0 ? derive_thread(a->d, pid, ts) : -1;
	struct kill_ent *k;
	char *s;

	if (ts > a->last_ts)
		a->last_ts = ts;
	switch (t->role) {
	case ROLE_OOM_SCORE_ADJ:
		if (vhas(t, v, OA_PID) && vhas(t, v, OA_OOM_SCORE_ADJ)) {
			android_adj(a, ts, (int)vint(t, v, OA_PID, 0), vint(t, v, OA_OOM_SCORE_ADJ, 0),
				    buffer);
			s = vname(t, v, OA_COMM);
			if (s && *s)
				adj_comm_set(a, vint(t, v, OA_PID, 0), s);
			else
				free(s);
		} else
			anomaly(a, AN_EVENT_MISSING_FIELD, ts, utid, buffer, "%s without pid or "
				"oom_score_adj", t->name);
		break;
	case ROLE_MARK_VICTIM:
		if (!vhas(t, v, MV_PID)) {
			anomaly(a, AN_EVENT_MISSING_FIELD, ts, utid, buffer, "mark_victim without pid");
			break;
		}
		k = kill_new(a, ts, "mark_victim", vint(t, v, MV_PID, -1), buffer);
		k->reason = xmemdup0("oom", 3);
		s = vname(t, v, MV_COMM);
		if (s && *s)
			kill_set_comm(k, s, strlen(s));
		free(s);
		if (vhas(t, v, MV_OOM_SCORE_ADJ)) {
			k->has_adj = 1;
			k->adj = vint(t, v, MV_OOM_SCORE_ADJ, 0);
		}
		if (vhas(t, v, MV_ANON_RSS) || vhas(t, v, MV_FILE_RSS) ||
		    vhas(t, v, MV_SHMEM_RSS)) {
			k->has_rss = 1;
			k->rss_kb = vint(t, v, MV_ANON_RSS, 0) + vint(t, v, MV_FILE_RSS, 0) +
				    vint(t, v, MV_SHMEM_RSS, 0);
		}
		break;
	case ROLE_LOWMEMORY_KILL:
		if (!vhas(t, v, LK_PID)) {
			anomaly(a, AN_EVENT_MISSING_FIELD, ts, utid, buffer,
				"lowmemory_kill without pid");
			break;
		}
		k = kill_new(a, ts, "lowmemory_kill", vint(t, v, LK_PID, -1), buffer);
		k->reason = xmemdup0("lowmemorykiller", 15);
		s = vname(t, v, LK_COMM);
		if (s && *s)
			kill_set_comm(k, s, strlen(s));
		free(s);
		break;
	case ROLE_ION_ALLOC_START:
	case ROLE_ION_ALLOC_END:
	case ROLE_ION_ALLOC_FAIL:
	case ROLE_ION_ALLOC_FALLBACK:
		on_ion(a, t, ts, utid, buffer, v);
		break;
	case ROLE_ION_HEAP_GROW:
	case ROLE_ION_HEAP_SHRINK:
	case ROLE_ION_STAT:
	case ROLE_DMA_HEAP_STAT:
		on_heap_stat(a, t, ts, utid, buffer, v);
		break;
	case ROLE_GPU_MEM_TOTAL: {
		int64_t gpid = vint(t, v, GM_PID, -1);
		char zone[32];
		int track;

		if (gpid < 0 || !vhas(t, v, GM_SIZE)) {
			anomaly(a, AN_EVENT_MISSING_FIELD, ts, utid, buffer, "gpu_mem_total without "
				"pid or size");
			break;
		}
		snprintf(zone, sizeof(zone), "gpu%lld", (long long)vint(t, v, GM_GPU_ID, 0));
		track = derive_track(a->d, "gpu_mem_total", "gpu", -1,
				     gpid ? derive_thread(a->d, (int)gpid, ts) : -1, zone, "B",
				     buffer);
		derive_counter(a->d, ts, track, (double)vint(t, v, GM_SIZE, 0));
		break;
	}
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
	(void)cpu;
}

/* ---- the end ---- */

static int cmp_kill(const void *x, const void *y)
{
	const struct kill_ent *a = x, *b = y;

	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static void kills_write(struct android *a)
{
	if (a->nkills)
		qsort(a->kills, a->nkills, sizeof(*a->kills), cmp_kill);
	/* lmkd reports one kill several ways (kill_one_process, "lmk,..." slice, instant) */
	for (int i = 0; i < a->nkills; i++) {
		struct kill_ent *k = &a->kills[i];

		if (k->merged || strcmp(k->source, "lmkd") || k->pid <= 0)
			continue;
		for (int j = i + 1; j < a->nkills && a->kills[j].ts - k->ts <= LMKD_MERGE_NS; j++) {
			struct kill_ent *o = &a->kills[j];

			if (o->merged || strcmp(o->source, "lmkd") || o->pid != k->pid)
				continue;
			o->merged = 1;
			if (!k->reason && o->reason)
				k->reason = o->reason, o->reason = NULL;
			if (o->has_adj && (!k->has_adj || !k->has_min_adj))
				k->has_adj = 1, k->adj = o->adj;
			if (o->has_min_adj && !k->has_min_adj)
				k->has_min_adj = 1, k->min_adj = o->min_adj;
			if (!k->comm && o->comm)
				k->comm = o->comm, o->comm = NULL;
		}
	}
	for (int i = 0; i < a->nkills; i++) {
		struct kill_ent *k = &a->kills[i];

		if (k->merged)
			continue;
		if (!k->comm && k->utid >= 0 && derive_thread_comm(a->d, k->utid)) {
			const char *c = derive_thread_comm(a->d, k->utid);

			k->comm = xmemdup0(c, strlen(c));
		}
		dbw_row_begin(a->w, a->kill_stmt);
		dbw_int(a->w, (int64_t)k->ts);
		dbw_text(a->w, k->source, -1);
		put_opt_int(a->w, k->pid > 0, k->pid);
		put_opt_text(a->w, k->comm, -1);
		put_opt_int(a->w, k->has_adj, k->adj);
		put_opt_text(a->w, k->reason, -1);
		put_opt_int(a->w, k->has_min_adj, k->min_adj);
		put_opt_int(a->w, k->has_rss, k->rss_kb);
		put_opt_int(a->w, k->utid >= 0, k->utid);
		dbw_int(a->w, k->buffer);
		dbw_row_end(a->w);
		a->rows++;
	}
}

void android_finish(struct android *a, uint64_t end_ts)
{
	int *idx, n = 0;
	uint64_t total = 0;

	if (end_ts < a->last_ts)
		end_ts = a->last_ts;
	for (size_t i = 0; i < a->nts; i++) {
		struct thread_state *st = &a->ts[i];
		int utid = (int)(i / a->nbuffers), b = (int)(i % a->nbuffers);

		/* slices still open at the end run until it */
		while (st->depth) {
			struct open_slice *o = &st->stack[--st->depth];

			anomaly(a, AN_MARKER_UNTERMINATED, o->ts, utid, b, "B \"%s\" without its E",
				o->name);
			slice_write(a, &(struct slice_rec){ .ts = o->ts, .end = end_ts,
				.utid = utid, .name = o->name, .depth = st->depth,
				.clipped = 1, .buffer = b });
			free(o->name);
		}
		if (st->waiting)
			anomaly(a, AN_FENCE_WAIT_UNTERMINATED, st->wait_ts, utid, b, "wait on context "
				"%lld seqno %lld never ended", (long long)st->wait_context,
				(long long)st->wait_seqno);
		if (st->sync_waiting)
			anomaly(a, AN_FENCE_WAIT_UNTERMINATED, st->sync_ts, utid, b, "sync_wait \"%s\" "
				"never ended", st->sync_name ? st->sync_name : "");
		if (st->ion_open) {
			anomaly(a, AN_ALLOC_UNTERMINATED, st->ion_ts, utid, b, "ion allocation on "
				"heap %s never ended", st->ion_heap ? st->ion_heap : "?");
			alloc_write(a, &(struct alloc_rec){ .ts = st->ion_ts, .source = "ion",
				.heap = st->ion_heap, .client = st->ion_client, .has_len = 1,
				.len = st->ion_len, .ok = -1, .utid = utid, .buffer = b });
			ion_clear(st);
		}
		ion_flush(a, st, utid, b);
	}
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
	kills_write(a);
	idx = xcalloc(a->nfence, sizeof(int));
	for (int i = 0; i < a->nfence; i++)
		if (a->fence[i].used)
			idx[n++] = i;
	qsort_r(idx, n, sizeof(int), cmp_fence_first, a->fence);
	for (int i = 0; i < n; i++)
		fence_write(a, idx[i]);
	free(idx);
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
