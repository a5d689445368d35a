/*
 * parse/android-local.h: internal to the Android derivations: the state they share and what
 * each subject's file offers the others. parse/android.c holds the state, the helpers and the
 * dispatch; atrace.c the trace markers (slices, instants, atrace counters), kills.c the kills
 * and oom_score_adj, allocs.c ION, dma-heap and GPU memory, fences.c fences and their waits.
 * Which file reads an event is its row's `by` column in parse/events.h.
 */
#ifndef TRAX_PARSE_ANDROID_LOCAL_H
#define TRAX_PARSE_ANDROID_LOCAL_H

#include <stdint.h>

#include "parse/android.h"
#include "parse/dbw.h"

#define FENCE_CAP 65536

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

/* ---- a string-keyed hash map to int (tombstones on delete) ---- */

struct smap {
	char **keys;
	int *vals;
	size_t cap, used;	/* used counts tombstones too */
};

long smap_find(const struct smap *m, const char *key);
int smap_get(const struct smap *m, const char *key, int def);
void smap_put(struct smap *m, const char *key, int val);
void smap_del(struct smap *m, const char *key);
void smap_free(struct smap *m);

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

/* ---- helpers (android.c) ---- */

/* Field slot k of the record as a number, or def. */
static inline int64_t vint(const struct ld_type *t, const struct ld_val *v, int k, int64_t def)
{
	int i = t->ridx[k];

	return i >= 0 && v[i].kind == LD_I64 ? v[i].i : def;
}

/* Whether the record has field slot k. */
static inline int vhas(const struct ld_type *t, const struct ld_val *v, int k)
{
	int i = t->ridx[k];

	return i >= 0 && (v[i].kind == LD_I64 || v[i].kind == LD_STR);
}

/* A name field, a copy (a string, or an unresolved pointer in hex); NULL when absent. */
char *vname(const struct ld_type *t, const struct ld_val *v, int k);
/* An integer held in a string field ("7094"): 1 with *out. */
int vnum(const struct ld_type *t, const struct ld_val *v, int k, int64_t *out);
/* An error field's negative errno, a 32-bit kernel's unsigned print read back as signed. */
int64_t errno_value(int64_t e);
/* An anomaly row (and its count): what could not be read or paired. */
void anomaly(struct android *a, enum anomaly_kind k, uint64_t ts, int utid, int buffer,
	     const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The per-thread state of utid in buffer, or NULL (no thread). */
struct thread_state *tstate(struct android *a, int utid, int buffer);

static inline void put_opt_int(struct dbw *w, int have, int64_t v)
{
	if (have)
		dbw_int(w, v);
	else
		dbw_null(w);
}

static inline void put_opt_text(struct dbw *w, const char *s, int len)
{
	if (s)
		dbw_text(w, s, len);
	else
		dbw_null(w);
}

/*
 * The subjects. Each reads the events of its rows of parse/events.h (*_event), closes what a
 * thread left open at the end of the trace (*_thread_end, in this order: atrace, fences,
 * allocs) and writes what it kept to the end (*_end).
 */
typedef void android_handler(struct android *a, struct ld_type *t, uint64_t ts, int utid,
			     int buffer, const struct ld_val *v);

/* atrace.c */
void atrace_thread_end(struct android *a, struct thread_state *st, int utid, int buffer,
		       uint64_t end_ts);
void atrace_end(struct android *a, uint64_t end_ts);

/* kills.c: the kill of a lmkd marker or instant; a kill (lmkd's C| kill_one_process) */
android_handler kills_event;
void lmk_marker(struct android *a, uint64_t ts, int utid, int buffer, const char *s, int len);
void lmk_instant(struct android *a, uint64_t ts, int utid, int buffer, const char *s, int len);
struct kill_ent *kill_new(struct android *a, uint64_t ts, const char *source, int64_t pid,
			  int buffer);
void kills_end(struct android *a);

/* allocs.c */
android_handler allocs_event;
void allocs_thread_end(struct android *a, struct thread_state *st, int utid, int buffer);

/* fences.c: the atrace markers of fences ("waiting for NAME N", "NAME fence N has signaled")
 * and their fence (created when asked: create), and the fence_wait row of a slice */
android_handler fences_event;
int waiting_for(const char *s, size_t len, size_t *nlen, int64_t *n);
int fence_signaled_marker(const char *s, size_t len, size_t *nlen, int64_t *n);
int named_fence(struct android *a, const char *kind, const char *driver, const char *timeline,
		int64_t seqno, uint64_t ts, int buffer, int create);

/* A row of fence_wait (doc/db.md): from ts to end; utid < 0, !has_*, name NULL: NULL. */
struct wait_rec {
	uint64_t ts, end;
	int utid;
	int has_ctx, has_seqno;
	int64_t context, seqno;
	const char *source, *name;
	int buffer;
};
void wait_write(struct android *a, const struct wait_rec *r);
void fence_release(struct fence_ent *f);
void fences_thread_end(struct android *a, struct thread_state *st, int utid, int buffer);
void fences_end(struct android *a);

#endif
