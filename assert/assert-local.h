/* assert/assert-local.h: helpers shared inside assert/. */
#ifndef TRAX_ASSERT_LOCAL_H
#define TRAX_ASSERT_LOCAL_H

#include <sqlite3.h>

/* The table of an event that is present and loaded, or NULL (caller frees). */
char *assert_event_table(sqlite3 *db, const char *name);
/* Whether an event's format is in the trace ("name" or "system:name"). */
int assert_event_present(sqlite3 *db, const char *name);
/*
 * The rule's statistic (min, max, mean, median, pNN, sum, count) over n samples, sorted here;
 * none: val undefined with "no WHAT in the window".
 */
struct trax_rule;
struct trax_value;
void assert_sample_stat(const struct trax_rule *r, double *x, int n, struct trax_value *val,
			const char *what);
/* Percentile p (0..100) of n sorted samples, linear between closest ranks. */
double assert_percentile(const double *sorted, int n, double p);



#include <stdint.h>

#include "assert/assert.h"

/* A slice of one thread (sched_slice), and a thread_state interval of interest to metrics. */
struct aslice {
	int64_t ts, dur;
	int32_t cpu;
	uint8_t clipped;
	char state[11];		/* end_state, "" when unknown */
};

enum { ASTATE_RUNNING, ASTATE_R, ASTATE_RPLUS };

/* A woken interval (thread_state 'R': from the wakeup to the switch-in). */
struct astate {
	int64_t ts, dur;
	uint8_t code;		/* ASTATE_R */
};

/* A slice of any thread but idle, for busy. */
struct abusy {
	int64_t ts, dur;
	int32_t cpu, utid;
	uint8_t clipped;
};

/*
 * Per-thread slices and runnable/running states of one database, read once and shared by every
 * rule of a check. With full_scan, the first request reads each table once in storage order and
 * keeps the threads in want; without, it reads the threads in want through the (utid, ts)
 * indexes (cheap for a few light threads). want may list utids in any order.
 */
struct acache;
struct acache *acache_alloc(sqlite3 *db, const int *want, int nwant, int full_scan);
void acache_free(struct acache *c);
/*
 * What the rules will ask of buffer: woken intervals (read ahead on a second connection while
 * slices are read, when the database is a file) and every busy slice (read with the slices).
 */
void acache_prepare(struct acache *c, int buffer, int need_states, int need_busy);
/* A thread's slices/states in buffer, in time order; valid until acache_free(). */
int acache_slices(struct acache *c, int utid, int buffer, const struct aslice **s, int *n,
		  struct trax_error *err);
int acache_states(struct acache *c, int utid, int buffer, const struct astate **s, int *n,
		  struct trax_error *err);
/* Every non-idle slice of buffer (read once, for busy rules); valid until acache_free(). */
int acache_busy_slices(struct acache *c, int buffer, const struct abusy **s, int *n,
		       struct trax_error *err);

/* The Android metrics (assert/android.c), the family TRAX_FAMILY_ANDROID of rules/metrics.h. */
/* Markers that stand in for absent events (lmkd kills, atrace fences): their name for the SKIP
 * reason, or NULL when the metric has none; *found: the trace holds some. */
const char *assert_android_markers(sqlite3 *db, enum trax_metric m, int *found);
int assert_android_eval(sqlite3 *db, const struct trax_rule *r, const int *utids, int n,
			const struct trax_span *w, const struct trax_trace_info *ti,
			struct trax_value *val, struct trax_error *err);

/* trax_metric_eval() with a shared cache (c must cover utids). */
int assert_metric_eval(struct acache *c, sqlite3 *db, const struct trax_rule *r,
		       const int *utids, int n, const struct trax_span *span,
		       const struct trax_trace_info *ti, int track_id, struct trax_value *val,
		       struct trax_error *err);

/*
 * The CPU groups of r that the trace's facts define (trax_rule_needs_facts(), topology.c),
 * from db's meta: *out is a copy of r with those sets filled. Returns 0 (release *out with
 * assert_topology_release()); 1 when the facts do not give one (reason names the group and
 * the fact missing: the rule FAILS with it; nothing to release); negative on a db error. A
 * rule naming none is copied as it is.
 */
int assert_topology_resolve(sqlite3 *db, const struct trax_rule *r, struct trax_rule *out,
			    char *reason, size_t rlen, struct trax_error *err);
void assert_topology_release(const struct trax_rule *r, struct trax_rule *out);

/* The base unit of a dimension as written in JSON outputs ("ns", "%", ...). */
const char *assert_dim_unit(enum trax_dim d);
#endif
