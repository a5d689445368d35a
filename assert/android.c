/* assert/android.c: Android metrics: allocations, heap totals, kills, fences, GPU memory. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fnmatch.h>

#include "assert/assert.h"
#include "assert/assert-local.h"
#include "util/grow.h"
#include "util/strbuf.h"

/*
 * Every metric reads the Android derived tables of parse/ (doc/db.md), rows of the rule's
 * buffer whose time is in the window: allocation attempts by their start, kills by their time,
 * fence latencies by their signal, waits by their start, unsignaled fences by their creation.
 * Definitions with examples: doc/rules.md.
 */

/*
 * Trace markers stand in for absent events when they hold what the metric reads: lmkd's kill
 * markers, atrace fence waits and signals. Returns the marker source's name for the SKIP
 * reason ("lmkd markers"), and sets *found when the trace has such markers.
 */
const char *assert_android_markers(sqlite3 *db, enum trax_metric m, int *found)
{
	const char *sql = NULL, *what = NULL;
	sqlite3_stmt *st = NULL;

	*found = 0;
	switch (m) {
	case TRAX_METRIC_KILLS:
	case TRAX_METRIC_KILL_ORDER:
		sql = "SELECT 1 FROM kill WHERE source = 'lmkd' LIMIT 1";
		what = "lmkd kill markers";
		break;
	case TRAX_METRIC_FENCE_LATENCY:
		sql = "SELECT 1 FROM fence WHERE driver = 'atrace' LIMIT 1";
		what = "atrace fence markers";
		break;
	case TRAX_METRIC_FENCE_WAIT:
		sql = "SELECT 1 FROM fence_wait WHERE source = 'atrace' LIMIT 1";
		what = "atrace fence waits";
		break;
	default:
		return NULL;
	}
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK)
		*found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return what;
}

/* ---- helpers ---- */

static void reason(struct trax_value *val, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void reason(struct trax_value *val, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(val->reason, sizeof(val->reason), fmt, ap);
	va_end(ap);
}

static int db_fail(sqlite3 *db, struct trax_error *err, const char *what)
{
	return trax_error_set(err, TRAX_E_DB, "%s: %s", what, sqlite3_errmsg(db));
}

/* Bind the usual parameters by name: :s :e (window), :b (buffer), :g1 :g2 (globs). */
static sqlite3_stmt *prepare(sqlite3 *db, const char *sql, const struct trax_rule *r,
			     const struct trax_span *w, const char *g1, const char *g2)
{
	sqlite3_stmt *st = NULL;
	int i;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	if ((i = sqlite3_bind_parameter_index(st, ":s")))
		sqlite3_bind_int64(st, i, w->start);
	if ((i = sqlite3_bind_parameter_index(st, ":e")))
		sqlite3_bind_int64(st, i, w->end);
	if ((i = sqlite3_bind_parameter_index(st, ":b")))
		sqlite3_bind_int(st, i, r->buffer);
	if ((i = sqlite3_bind_parameter_index(st, ":g1"))) {
		if (g1)
			sqlite3_bind_text(st, i, g1, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, i);
	}
	if ((i = sqlite3_bind_parameter_index(st, ":g2"))) {
		if (g2)
			sqlite3_bind_text(st, i, g2, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, i);
	}
	return st;
}

/* The first column of a one-row query as a double (NULL: 0). */
static int scalar(sqlite3 *db, const char *sql, const struct trax_rule *r,
		  const struct trax_span *w, const char *g1, const char *g2, double *out,
		  struct trax_error *err)
{
	sqlite3_stmt *st = prepare(db, sql, r, w, g1, g2);
	int rc;

	if (!st)
		return db_fail(db, err, "reading alloc");
	rc = sqlite3_step(st);
	*out = rc == SQLITE_ROW ? sqlite3_column_double(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return db_fail(db, err, "reading alloc");
	return 0;
}

/* Every first-column value of a query as samples. */
static int column(sqlite3 *db, sqlite3_stmt *st, double **x, int *n, struct trax_error *err)
{
	int cap = 0, rc;

	*x = NULL;
	*n = 0;
	if (!st)
		return db_fail(db, err, "reading samples");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		TRAX_GROW(*x, *n, cap, 256);
		(*x)[(*n)++] = sqlite3_column_double(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(*x);
		*x = NULL;
		return db_fail(db, err, "reading samples");
	}
	return 0;
}

/* ---- allocations ---- */

#define ALLOC_WHERE "buffer = :b AND ts >= :s AND ts <= :e AND (:g1 IS NULL OR heap GLOB :g1) " \
	"AND (:g2 IS NULL OR client GLOB :g2)"
/* a request that succeeded: an ION attempt that did not fall back, a heap stat's allocation */
#define ALLOC_OK "((source = 'ion' AND ok = 1) OR (source IN ('ion_stat', 'dma_heap_stat') " \
	"AND len > 0))"

static int alloc_metric(sqlite3 *db, const struct trax_rule *r, const struct trax_span *w,
			struct trax_value *val, struct trax_error *err)
{
	const char *sql = NULL;
	double *x = NULL;
	int n, ret;

	switch (r->metric) {
	case TRAX_METRIC_ALLOC_COUNT:
		sql = "SELECT count(*) FROM alloc WHERE " ALLOC_WHERE " AND (" ALLOC_OK
		      " OR source = 'ion_fail')";
		break;
	case TRAX_METRIC_ALLOC_BYTES:
		sql = "SELECT total(len) FROM alloc WHERE " ALLOC_WHERE " AND " ALLOC_OK;
		break;
	case TRAX_METRIC_ALLOC_FAILURES:
		sql = "SELECT count(*) FROM alloc WHERE " ALLOC_WHERE " AND source = 'ion_fail'";
		break;
	case TRAX_METRIC_ALLOC_FALLBACKS:
		sql = "SELECT count(*) FROM alloc WHERE " ALLOC_WHERE " AND source = 'ion' AND "
		      "fallback = 1";
		break;
	default:
		break;
	}
	if (sql) {
		ret = scalar(db, sql, r, w, r->heap, r->client, &val->v, err);
		val->defined = !ret;
		return ret;
	}
	ret = column(db, prepare(db, "SELECT dur FROM alloc WHERE " ALLOC_WHERE " AND source IN "
				 "('ion', 'ion_fail') AND dur IS NOT NULL", r, w, r->heap,
				 r->client), &x, &n, err);
	if (ret)
		return ret;
	assert_sample_stat(r, x, n, val, "ION allocation with a start and an end");
	free(x);
	return 0;
}

/*
 * A memory total's statistic in the window over the tracks the query lists (id): each sample
 * holds until the next; the value at the window start is the last sample before it. Several
 * tracks: the largest statistic (the smallest for min).
 */
static int total_metric(sqlite3 *db, const struct trax_rule *r, sqlite3_stmt *tracks,
			const struct trax_span *w, struct trax_value *val, const char *what,
			struct trax_error *err)
{
	sqlite3_stmt *st = NULL;
	int ntracks = 0, rc;

	if (!tracks)
		return db_fail(db, err, "reading track");
	if (sqlite3_prepare_v2(db, "SELECT ts, value FROM counter WHERE track_id = ?1 AND ts <= ?3 "
			       "AND ts >= coalesce((SELECT max(ts) FROM counter WHERE track_id = ?1 "
			       "AND ts <= ?2), ?2) ORDER BY ts", -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(tracks);
		return db_fail(db, err, "reading counter");
	}
	while ((rc = sqlite3_step(tracks)) == SQLITE_ROW) {
		int have = 0;
		double first = 0, last = 0, mn = 0, mx = 0, v;

		sqlite3_reset(st);
		sqlite3_bind_int(st, 1, sqlite3_column_int(tracks, 0));
		sqlite3_bind_int64(st, 2, w->start);
		sqlite3_bind_int64(st, 3, w->end);
		while (sqlite3_step(st) == SQLITE_ROW) {
			double x = sqlite3_column_double(st, 1);

			if (!have)
				first = mn = mx = x;
			have = 1;
			last = x;
			mn = x < mn ? x : mn;
			mx = x > mx ? x : mx;
		}
		if (!have)
			continue;
		v = r->stat == TRAX_STAT_MIN ? mn : r->stat == TRAX_STAT_FIRST ? first :
		    r->stat == TRAX_STAT_LAST ? last : mx;
		if (!ntracks++ || (r->stat == TRAX_STAT_MIN ? v < val->v : v > val->v))
			val->v = v;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(tracks);
	if (rc != SQLITE_DONE)
		return db_fail(db, err, "reading track");
	if (ntracks)
		val->defined = 1;
	else
		reason(val, "no %s sample holds in the window", what);
	return 0;
}

/* ---- kills ---- */

static int in_list(char **list, int n, const char *s)
{
	if (!n)
		return 1;
	for (int i = 0; i < n; i++)
		if (s && !strcmp(list[i], s))
			return 1;
	return 0;
}

static int kill_metric(sqlite3 *db, const struct trax_rule *r, const struct trax_span *w,
		       struct trax_value *val, struct trax_error *err)
{
	const struct trax_kill_where *wh = &r->where;
	sqlite3_stmt *st = prepare(db, "SELECT ts, pid, comm, oom_score_adj, reason, source FROM "
				   "kill WHERE buffer = :b AND ts >= :s AND ts <= :e ORDER BY ts",
				   r, w, NULL, NULL);
	struct strbuf unknown = STRBUF_INIT;
	int count = 0, nunknown = 0, disorder = 0, have_min = 0, rc;
	double min_adj = 0;

	if (!st)
		return db_fail(db, err, "reading kill");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *comm = (const char *)sqlite3_column_text(st, 2);
		const char *why = (const char *)sqlite3_column_text(st, 4);
		const char *src = (const char *)sqlite3_column_text(st, 5);
		int has_adj = sqlite3_column_type(st, 3) != SQLITE_NULL;
		double adj = sqlite3_column_double(st, 3);

		if (!in_list(wh->reasons, wh->nreasons, why) ||
		    !in_list(wh->sources, wh->nsources, src) ||
		    (wh->comm && (!comm || fnmatch(wh->comm, comm, 0))))
			continue;
		if ((wh->has_adj || r->metric == TRAX_METRIC_KILL_ORDER) && !has_adj) {
			if (nunknown++ < 3)
				strbuf_addf(&unknown, "%s%s pid %lld at %.6f s", unknown.len ? ", " : "",
					    comm ? comm : "?", (long long)sqlite3_column_int64(st, 1),
					    sqlite3_column_int64(st, 0) / 1e9);
			continue;
		}
		if (wh->has_adj && !trax_threshold_met(&wh->adj, adj))
			continue;
		count++;
		if (have_min && adj > min_adj)
			disorder++;
		if (!have_min || adj < min_adj)
			min_adj = adj;
		have_min = 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		strbuf_release(&unknown);
		return db_fail(db, err, "reading kill");
	}
	if (nunknown) {
		reason(val, "%d kill%s of unknown oom_score_adj (%s%s): cannot tell whether %s",
		       nunknown, nunknown == 1 ? "" : "s", unknown.buf, nunknown > 3 ? ", ..." : "",
		       r->metric == TRAX_METRIC_KILL_ORDER ? "the order holds" :
		       "they meet the condition");
	} else {
		val->defined = 1;
		val->v = r->metric == TRAX_METRIC_KILL_ORDER ? disorder : count;
	}
	strbuf_release(&unknown);
	return 0;
}

/* ---- fences ---- */

#define FENCE_FILTER "buffer = :b AND (:g1 IS NULL OR timeline GLOB :g1) AND " \
	"(:g2 IS NULL OR driver GLOB :g2)"

static int fence_metric(sqlite3 *db, const struct trax_rule *r, const int *utids, int n,
			const struct trax_span *w, struct trax_value *val, struct trax_error *err)
{
	sqlite3_stmt *st;
	double *x = NULL;
	int nx, ret, rc;

	switch (r->metric) {
	case TRAX_METRIC_FENCE_LATENCY:
		ret = column(db, prepare(db, "SELECT signal_ts - coalesce(emit_ts, init_ts) FROM "
					 "fence WHERE " FENCE_FILTER " AND signal_ts >= :s AND "
					 "signal_ts <= :e AND coalesce(emit_ts, init_ts) IS NOT NULL",
					 r, w, r->timeline, r->driver), &x, &nx, err);
		if (ret)
			return ret;
		assert_sample_stat(r, x, nx, val, "signaled fence with a known start");
		free(x);
		return 0;
	case TRAX_METRIC_FENCE_WAIT: {
		struct strbuf sql = STRBUF_INIT;

		strbuf_adds(&sql, "SELECT dur FROM fence_wait WHERE buffer = :b AND ts >= :s AND "
			    "ts <= :e AND (:g1 IS NULL OR name GLOB :g1)");
		if (n) {
			strbuf_adds(&sql, " AND utid IN (");
			for (int i = 0; i < n; i++)
				strbuf_addf(&sql, "%s%d", i ? "," : "", utids[i]);
			strbuf_adds(&sql, ")");
		}
		ret = column(db, prepare(db, sql.buf, r, w, r->timeline, NULL), &x, &nx, err);
		strbuf_release(&sql);
		if (ret)
			return ret;
		assert_sample_stat(r, x, nx, val, "fence wait");
		free(x);
		return 0;
	}
	case TRAX_METRIC_FENCE_UNSIGNALED:
		ret = scalar(db, "SELECT count(*) FROM fence WHERE " FENCE_FILTER " AND signal_ts IS "
			     "NULL AND coalesce(init_ts, emit_ts, enable_ts) >= :s AND "
			     "coalesce(init_ts, emit_ts, enable_ts) <= :e", r, w, r->timeline,
			     r->driver, &val->v, err);
		val->defined = !ret;
		return ret;
	case TRAX_METRIC_FENCE_SEQNO: {
		int64_t ctx = 0, max = 0;
		int first = 1, bad = 0;

		st = prepare(db, "SELECT context, seqno FROM fence WHERE " FENCE_FILTER " AND "
			     "context IS NOT NULL AND signal_ts >= :s AND signal_ts <= :e ORDER BY "
			     "context, signal_ts, seqno", r, w, r->timeline, r->driver);
		if (!st)
			return db_fail(db, err, "reading fence");
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int64_t c = sqlite3_column_int64(st, 0), s = sqlite3_column_int64(st, 1);

			if (first || c != ctx) {
				ctx = c;
				max = s;
				first = 0;
				continue;
			}
			if (s < max)
				bad++;
			else
				max = s;
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return db_fail(db, err, "reading fence");
		val->defined = 1;
		val->v = bad;
		return 0;
	}
	default:
		return trax_error_set(err, TRAX_E_EVAL, "metric %s: not a fence metric",
				      trax_metric_name(r->metric));
	}
}

int assert_android_eval(sqlite3 *db, const struct trax_rule *r, const int *utids, int n,
			const struct trax_span *w, const struct trax_trace_info *ti,
			struct trax_value *val, struct trax_error *err)
{
	(void)ti;
	switch (r->metric) {
	case TRAX_METRIC_ALLOC_COUNT:
	case TRAX_METRIC_ALLOC_BYTES:
	case TRAX_METRIC_ALLOC_FAILURES:
	case TRAX_METRIC_ALLOC_FALLBACKS:
	case TRAX_METRIC_ALLOC_LATENCY:
		return alloc_metric(db, r, w, val, err);
	case TRAX_METRIC_HEAP_TOTAL:
		return total_metric(db, r, prepare(db, "SELECT id FROM track WHERE buffer = :b AND "
					      "((name = 'ion_heap_total' AND (:g1 IS NULL OR zone "
					      "GLOB :g1)) OR (:g1 IS NULL AND name IN ('ion_total', "
					      "'dma_heap_total')))", r, w, r->heap, NULL), w, val,
				    r->heap ? "heap total of that heap" : "heap total", err);
	case TRAX_METRIC_GPU_MEM: {
		struct strbuf sql = STRBUF_INIT;
		int ret;

		strbuf_adds(&sql, "SELECT id FROM track WHERE buffer = :b AND name = "
			    "'gpu_mem_total' AND ");
		if (!n) {
			strbuf_adds(&sql, "utid IS NULL");
		} else {
			/* the process of each selected thread: its tgid's track */
			strbuf_adds(&sql, "utid IN (SELECT p.utid FROM thread p JOIN thread t ON "
				    "p.pid = coalesce(t.tgid, t.pid) WHERE t.utid IN (");
			for (int i = 0; i < n; i++)
				strbuf_addf(&sql, "%s%d", i ? "," : "", utids[i]);
			strbuf_adds(&sql, "))");
		}
		ret = total_metric(db, r, prepare(db, sql.buf, r, w, NULL, NULL), w, val,
				   n ? "GPU memory of the task's process" : "global GPU memory", err);
		strbuf_release(&sql);
		return ret;
	}
	case TRAX_METRIC_KILLS:
	case TRAX_METRIC_KILL_ORDER:
		return kill_metric(db, r, w, val, err);
	default:
		return fence_metric(db, r, utids, n, w, val, err);
	}
}
