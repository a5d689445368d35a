/* parse/android.h: internal to parse/: the Android derived tables (android.c and its subjects:
 * atrace.c, kills.c, allocs.c, fences.c), fed by derive.c. */
#ifndef TRAX_PARSE_ANDROID_H
#define TRAX_PARSE_ANDROID_H

#include "parse/derive.h"

/*
 * Android derived tables: slice, instant and atrace counters from trace markers;
 * kill, alloc, fence, fence_wait; the anomaly table for malformed input. derive.c owns one
 * and feeds it the events of the Android roles and every trace marker that is not trax's own.
 */
struct android;
struct android *android_alloc(struct loader *L, struct derive *d, struct dbw *w, int nbuffers);
void android_free(struct android *a);
void android_event(struct android *a, struct ld_type *t, uint64_t ts, int cpu, int pid,
		   int buffer, const struct ld_val *v);
/* A trace marker (print buf, len bytes, trailing newline allowed) written by pid. */
void android_marker(struct android *a, uint64_t ts, int cpu, int pid, int buffer,
		    const char *buf, int len);
/* oom_score_adj of pid from ts on (oom_score_adj_update, task_newtask, trax's initial marker). */
void android_adj(struct android *a, uint64_t ts, int pid, int64_t adj, int buffer);
/* Write what is still open at the end of the trace (end_ts) and the anomaly counts to meta. */
void android_finish(struct android *a, uint64_t end_ts);

#endif
