/* assert/metrics.c: the metrics of DESIGN.md, computed exactly from sched_slice, thread_state and
 * counter rows; windows and task selectors. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assert/assert.h"
#include "assert/assert-local.h"
#include "parse/parse.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- small helpers ---- */

static int db_fail(sqlite3 *db, struct trax_error *err, const char *what)
{
	return trax_error_set(err, TRAX_E_DB, "%s: %s", what, sqlite3_errmsg(db));
}

/* A meta integer; "unknown" reads as -1. Returns whether the key holds either. */
static int meta_i64(sqlite3 *db, const char *key, int64_t *v)
{
	int r = trax_db_meta_int(db, key, v);

	if (r == 1)
		*v = -1;
	return r >= 0;
}

int trax_trace_info_read(sqlite3 *db, struct trax_trace_info *ti, struct trax_error *err)
{
	int64_t v;
	sqlite3_stmt *st = NULL;

	memset(ti, 0, sizeof(*ti));
	if (!meta_i64(db, "trace.start_ts", &ti->start) || !meta_i64(db, "trace.end_ts", &ti->end))
		ti->start = ti->end = 0;	/* an empty trace */
	if (!meta_i64(db, "trace.complete_start_ts", &ti->complete_start))
		ti->complete_start = ti->start;
	ti->ncpus = meta_i64(db, "cpus", &v) ? (int)v : 0;
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM meta WHERE key LIKE '%cpu.%.lost_events' "
			       "AND value='unknown'", -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, err, "reading meta");
	if (sqlite3_step(st) == SQLITE_ROW)
		ti->has_lost_unknown = sqlite3_column_int(st, 0) > 0;
	sqlite3_finalize(st);
	if (ti->ncpus <= 0 &&
	    sqlite3_prepare_v2(db, "SELECT max(cpu) + 1 FROM sched_slice", -1, &st, NULL) ==
	    SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			ti->ncpus = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	return 0;
}

/* The table of an event, or NULL when absent or not loaded (caller frees). */
char *assert_event_table(sqlite3 *db, const char *name)
{
	return trax_db_string(db, "SELECT table_name FROM event_type WHERE name=? AND "
			      "table_name IS NOT NULL ORDER BY count DESC", name);
}

int assert_event_present(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st = NULL;
	const char *colon = strchr(name, ':');
	int found = 0;

	if (sqlite3_prepare_v2(db, colon ? "SELECT 1 FROM event_type WHERE system=?1 AND name=?2"
				       : "SELECT 1 FROM event_type WHERE name=?2",
			       -1, &st, NULL) == SQLITE_OK) {
		if (colon)
			sqlite3_bind_text(st, 1, name, colon - name, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, colon ? colon + 1 : name, -1, SQLITE_STATIC);
		found = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	return found;
}

/* ---- windows ---- */

static void set_reason(char *reason, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_reason(char *reason, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, len, fmt, ap);
	va_end(ap);
}

/* ts of the n-th print marker matching text (exactly, or by prefix) after `after`; -1: none. */
static int64_t find_marker(sqlite3 *db, const char *table, const char *text, int prefix, int n,
			   int64_t after)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int64_t found = -1;
	size_t tl = strlen(text);

	strbuf_addf(&sql, "SELECT ts, buf FROM \"%s\" WHERE ts >= ? ORDER BY ts, rowid", table);
	if (sqlite3_prepare_v2(db, sql.buf, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, after);
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *b = (const char *)sqlite3_column_text(st, 1);
			size_t bl;

			if (!b)
				continue;
			bl = strlen(b);
			while (bl && (b[bl - 1] == '\n' || b[bl - 1] == '\0'))
				bl--;
			if (prefix ? (bl >= tl && !strncmp(b, text, tl))
				   : (bl == tl && !strncmp(b, text, tl))) {
				if (--n == 0) {
					found = sqlite3_column_int64(st, 0);
					break;
				}
			}
		}
	}
	sqlite3_finalize(st);
	strbuf_release(&sql);
	return found;
}

int trax_window_resolve(sqlite3 *db, const struct trax_window *w, const struct trax_trace_info *ti,
			struct trax_span *out, char *reason, size_t rlen, struct trax_error *err)
{
	int64_t s = ti->start, e = ti->end;

	switch (w->kind) {
	case TRAX_WIN_ALL:
		break;
	case TRAX_WIN_COMPLETE:
		s = ti->complete_start;
		break;
	case TRAX_WIN_ABSOLUTE:
		if (w->has_start)
			s = w->start;
		if (w->has_end)
			e = w->end;
		break;
	case TRAX_WIN_RELATIVE:
		if (w->has_start)
			s = ti->start + w->start;
		if (w->has_end)
			e = ti->start + w->end;
		break;
	case TRAX_WIN_MARKERS: {
		char *table = assert_event_table(db, "print");

		if (!table) {
			set_reason(reason, rlen, "no trace markers in this trace (print events "
				   "absent)");
			return 2;
		}
		s = find_marker(db, table, w->from_marker, w->prefix, w->occurrence, INT64_MIN);
		if (s < 0) {
			set_reason(reason, rlen, "marker \"%s\" (occurrence %d) not found",
				   w->from_marker, w->occurrence);
			free(table);
			return 1;
		}
		e = find_marker(db, table, w->to_marker, w->prefix, 1, s);
		free(table);
		if (e < 0) {
			set_reason(reason, rlen, "marker \"%s\" not found after \"%s\"", w->to_marker,
				   w->from_marker);
			return 1;
		}
		break;
	}
	}
	/*
	 * A window that does not meet the trace (a missing bound is the trace's): say on which
	 * side, as the rule gave it, and what small absolute times were probably meant to be.
	 */
	if ((e <= ti->start && (s < e || !w->has_start)) ||
	    (s >= ti->end && (s < e || !w->has_end))) {
		int rel = w->kind == TRAX_WIN_RELATIVE, before = e <= ti->start;
		int64_t base = rel ? ti->start : 0, len = ti->end - ti->start;
		char lo[32], hi[32];

		if (w->has_start)
			snprintf(lo, sizeof(lo), "%.6f", (s - base) / 1e9);
		else
			snprintf(lo, sizeof(lo), "trace start");
		if (w->has_end)
			snprintf(hi, sizeof(hi), "%.6f", (e - base) / 1e9);
		else
			snprintf(hi, sizeof(hi), "trace end");
		set_reason(reason, rlen, "empty window [%s, %s] s%s: it lies %s the trace "
			   "(%.6f .. %.6f s)%s", lo, hi, rel ? " after the trace start" : "",
			   before ? "before" : "after", ti->start / 1e9, ti->end / 1e9,
			   /* absolute times that would fit as times from the start */
			   w->kind == TRAX_WIN_ABSOLUTE && before && e > 0 &&
			   (!w->has_start || s < len) ?
			   "; for seconds from the trace start, add \"relative\": true" : "");
		out->start = out->end = before ? ti->start : ti->end;
		return 1;
	}
	/* A window reaches no further than the trace. */
	if (s < ti->start)
		s = ti->start;
	if (e > ti->end)
		e = ti->end;
	out->start = s;
	out->end = e;
	if (e <= s) {
		set_reason(reason, rlen, "empty window [%.6f, %.6f] s (trace %.6f .. %.6f s)",
			   s / 1e9, e / 1e9, ti->start / 1e9, ti->end / 1e9);
		return 1;
	}
	(void)err;
	return 0;
}

/* ---- task selection ---- */

static int add_task(struct trax_task **tasks, int *n, int *cap, int utid, int pid,
		    const char *comm)
{
	for (int i = 0; i < *n; i++)
		if ((*tasks)[i].utid == utid)
			return 0;
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*tasks = xrealloc(*tasks, *cap * sizeof(**tasks));
	}
	(*tasks)[*n].utid = utid;
	(*tasks)[*n].pid = pid;
	snprintf((*tasks)[*n].comm, sizeof((*tasks)[*n].comm), "%s", comm ? comm : "?");
	(*n)++;
	return 0;
}

int trax_select_tasks(sqlite3 *db, const struct trax_selector *sel, struct trax_task **tasks,
		      int *n, struct trax_error *err)
{
	sqlite3_stmt *st = NULL;
	const char *sql;
	int cap = 0, rc;

	*tasks = NULL;
	*n = 0;
	switch (sel->kind) {
	case TRAX_SEL_GLOB:
		sql = "SELECT DISTINCT t.utid, t.pid, t.comm FROM thread t JOIN thread_comm c "
		      "USING(utid) WHERE c.comm GLOB ?1 AND t.pid != 0 ORDER BY t.start_ts, t.utid";
		break;
	case TRAX_SEL_REGEX:
		sql = "SELECT t.utid, t.pid, t.comm, c.comm FROM thread t JOIN thread_comm c "
		      "USING(utid) WHERE t.pid != 0 ORDER BY t.start_ts, t.utid";
		break;
	case TRAX_SEL_PID:
		sql = "SELECT utid, pid, comm FROM thread WHERE pid = ?1 ORDER BY start_ts, utid";
		break;
	case TRAX_SEL_TGID:
		sql = "SELECT utid, pid, comm FROM thread WHERE tgid = ?1 ORDER BY start_ts, utid";
		break;
	default:
		return 0;
	}
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, err, "selecting tasks");
	if (sel->kind == TRAX_SEL_GLOB)
		sqlite3_bind_text(st, 1, sel->pattern, -1, SQLITE_STATIC);
	else if (sel->kind == TRAX_SEL_PID || sel->kind == TRAX_SEL_TGID)
		sqlite3_bind_int64(st, 1, sel->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int utid = sqlite3_column_int(st, 0), pid = sqlite3_column_int(st, 1);
		const char *comm = (const char *)sqlite3_column_text(st, 2);

		if (sel->kind == TRAX_SEL_REGEX) {
			const char *name = (const char *)sqlite3_column_text(st, 3);

			if (!name || regexec(&sel->re, name, 0, NULL, 0))
				continue;
		}
		add_task(tasks, n, &cap, utid, pid, comm);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(*tasks);
		*tasks = NULL;
		*n = 0;
		return db_fail(db, err, "selecting tasks");
	}
	return 0;
}

/* ---- slices ---- */

struct slices {
	struct aslice *s;
	int n, cap;
};

static int64_t overlap(int64_t ts, int64_t dur, const struct trax_span *w)
{
	int64_t a = ts > w->start ? ts : w->start;
	int64_t b = ts + dur < w->end ? ts + dur : w->end;

	return b > a ? b - a : 0;
}

static int cmp_aslice(const void *a, const void *b)
{
	int64_t x = ((const struct aslice *)a)->ts, y = ((const struct aslice *)b)->ts;

	return x < y ? -1 : x > y;
}

/* The slices of the threads in buffer, in time order (edges: drop partial ones). */
static int get_slices(struct acache *c, const int *utids, int n, int buffer, int drop,
		      struct slices *out, struct trax_error *err)
{
	out->n = 0;
	for (int k = 0; k < n; k++) {
		const struct aslice *s;
		int ns, ret = acache_slices(c, utids[k], buffer, &s, &ns, err);

		if (ret)
			return ret;
		if (out->n + ns > out->cap) {
			out->cap = out->n + ns + 16;
			out->s = xrealloc(out->s, out->cap * sizeof(*out->s));
		}
		for (int i = 0; i < ns; i++)
			if (!(drop && (s[i].clipped & 3)))
				out->s[out->n++] = s[i];
	}
	if (n > 1)
		qsort(out->s, out->n, sizeof(*out->s), cmp_aslice);
	return 0;
}

static int in_cpus(const int *cpus, int n, int cpu)
{
	if (!cpus)
		return 1;
	for (int i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return 1;
	return 0;
}

/* ---- statistics ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Percentile p (0..100) of sorted samples, linear between closest ranks (numpy's default). */
double assert_percentile(const double *sorted, int n, double p)
{
	double rank, frac;
	int lo;

	if (n <= 0)
		return NAN;
	rank = p / 100.0 * (n - 1);
	lo = (int)floor(rank);
	if (lo >= n - 1)
		return sorted[n - 1];
	frac = rank - lo;
	return sorted[lo] + (sorted[lo + 1] - sorted[lo]) * frac;
}

void assert_sample_stat(const struct trax_rule *r, double *x, int n, struct trax_value *val,
			const char *what)
{
	double sum = 0;

	if (r->stat == TRAX_STAT_COUNT) {
		val->defined = 1;
		val->v = n;
		return;
	}
	if (!n) {
		set_reason(val->reason, sizeof(val->reason), "no %s in the window", what);
		return;
	}
	qsort(x, n, sizeof(double), cmp_double);
	for (int i = 0; i < n; i++)
		sum += x[i];
	val->defined = 1;
	switch (r->stat) {
	case TRAX_STAT_MIN: val->v = x[0]; break;
	case TRAX_STAT_MAX: val->v = x[n - 1]; break;
	case TRAX_STAT_SUM: val->v = sum; break;
	case TRAX_STAT_MEAN: val->v = sum / n; break;
	case TRAX_STAT_MEDIAN: val->v = assert_percentile(x, n, 50); break;
	case TRAX_STAT_PCT: val->v = assert_percentile(x, n, r->pct); break;
	default: val->v = x[n - 1]; break;
	}
}

/* ---- scheduler metrics ---- */

static int is_preempted(const char *state)
{
	return state[0] == 'R';
}

static int sched_metric(struct acache *c, const struct trax_rule *r, const int *utids, int n,
			const struct trax_span *w, const struct trax_trace_info *ti,
			struct trax_value *val, struct trax_error *err)
{
	struct slices sl = { 0 };
	int64_t run = 0, on = 0, wlen = w->end - w->start;
	int ret, first = -1, last = -1, count = 0;
	double *acts = NULL;
	int nacts = 0;

	ret = get_slices(c, utids, n, r->buffer, r->edges_drop, &sl, err);
	if (ret) {
		free(sl.s);
		return ret;
	}
	for (int i = 0; i < sl.n; i++) {
		const struct aslice *s = &sl.s[i];
		int64_t ov = overlap(s->ts, s->dur, w);
		/* A slice in the window: overlapping it, or starting in it (zero length). */
		int inside = ov > 0 || (s->ts >= w->start && s->ts <= w->end && s->dur == 0);

		run += ov;
		if (in_cpus(r->cpus, r->ncpus, s->cpu))
			on += ov;
		if (inside) {
			if (first < 0)
				first = i;
			last = i;
		}
	}
	switch (r->metric) {
	case TRAX_METRIC_RUNTIME:
		val->defined = 1;
		val->v = run;
		break;
	case TRAX_METRIC_RESIDENCY:
		if (r->expect.dim == TRAX_DIM_PERCENT) {
			if (!run) {
				set_reason(val->reason, sizeof(val->reason),
					   "no runtime in the window: residency %% undefined");
				break;
			}
			val->defined = 1;
			val->v = 100.0 * on / run;
		} else {
			val->defined = 1;
			val->v = on;
		}
		break;
	case TRAX_METRIC_DUTY_CYCLE:
		val->defined = 1;
		val->v = 100.0 * run / wlen;
		break;
	case TRAX_METRIC_ACTIVATIONS:
	case TRAX_METRIC_PERIOD:
		acts = xmalloc((sl.n + 1) * sizeof(double));
		for (int i = 0; i < sl.n; i++) {
			const struct aslice *s = &sl.s[i];

			if (s->clipped & 1)
				continue;	/* began at the trace start, not at a switch-in */
			if (i > 0 && is_preempted(sl.s[i - 1].state))
				continue;	/* back from preemption: not an activation */
			if (s->ts >= w->start && s->ts <= w->end)
				acts[nacts++] = s->ts;
		}
		if (r->metric == TRAX_METRIC_ACTIVATIONS) {
			val->defined = 1;
			val->v = nacts;
		} else if (nacts < 2) {
			set_reason(val->reason, sizeof(val->reason),
				   "%d activation%s in the window: a period needs two", nacts,
				   nacts == 1 ? "" : "s");
		} else {
			for (int i = 0; i + 1 < nacts; i++)
				acts[i] = acts[i + 1] - acts[i];
			qsort(acts, nacts - 1, sizeof(double), cmp_double);
			val->defined = 1;
			val->v = assert_percentile(acts, nacts - 1, 50);
		}
		break;
	case TRAX_METRIC_START_TIME:
	case TRAX_METRIC_END_TIME:
	case TRAX_METRIC_FIRST_CPU:
	case TRAX_METRIC_LAST_CPU:
		if (first < 0) {
			set_reason(val->reason, sizeof(val->reason), "the task did not run in the "
				   "window");
			break;
		}
		val->defined = 1;
		if (r->metric == TRAX_METRIC_START_TIME)
			val->v = (sl.s[first].ts > w->start ? sl.s[first].ts : w->start) - ti->start;
		else if (r->metric == TRAX_METRIC_END_TIME)
			val->v = (sl.s[last].ts + sl.s[last].dur < w->end ?
				  sl.s[last].ts + sl.s[last].dur : w->end) - ti->start;
		else if (r->metric == TRAX_METRIC_FIRST_CPU)
			val->v = sl.s[first].cpu;
		else
			val->v = sl.s[last].cpu;
		break;
	case TRAX_METRIC_MIGRATIONS:
	case TRAX_METRIC_SWITCH:
		for (int i = first; first >= 0 && i < last; i++) {
			int a = sl.s[i].cpu, b = sl.s[i + 1].cpu;

			if (a == b)
				continue;
			if (r->metric == TRAX_METRIC_MIGRATIONS ||
			    (in_cpus(r->from_cpus, r->nfrom, a) && in_cpus(r->to_cpus, r->nto, b)))
				count++;
		}
		val->defined = 1;
		val->v = count;
		break;
	default:
		break;
	}
	free(acts);
	free(sl.s);
	return 0;
}

/* busy(CPUs, tasks, W): runtime of the tasks (every non-idle thread when none) on the CPUs. */
static int busy_metric(struct acache *c, const struct trax_rule *r, const int *utids, int n,
		       const struct trax_span *w, const struct trax_trace_info *ti,
		       struct trax_value *val, struct trax_error *err)
{
	const struct abusy *s;
	int64_t busy = 0;
	int ncpus = r->cpus ? r->ncpus : ti->ncpus, ns, maxu = -1, ret;
	char *want = NULL;

	ret = acache_busy_slices(c, r->buffer, &s, &ns, err);
	if (ret)
		return ret;
	if (r->task.kind != TRAX_SEL_NONE) {
		for (int i = 0; i < n; i++)
			if (utids[i] > maxu)
				maxu = utids[i];
		want = xcalloc(maxu + 2, 1);
		for (int i = 0; i < n; i++)
			want[utids[i]] = 1;
	}
	for (int i = 0; i < ns; i++) {
		if (r->edges_drop && (s[i].clipped & 3))
			continue;
		if (want && (s[i].utid > maxu || !want[s[i].utid]))
			continue;
		if (in_cpus(r->cpus, r->ncpus, s[i].cpu))
			busy += overlap(s[i].ts, s[i].dur, w);
	}
	free(want);
	val->defined = 1;
	if (r->expect.dim == TRAX_DIM_PERCENT) {
		if (ncpus <= 0) {
			val->defined = 0;
			set_reason(val->reason, sizeof(val->reason), "the number of CPUs is unknown");
			return 0;
		}
		val->v = 100.0 * busy / ((double)(w->end - w->start) * ncpus);
	} else {
		val->v = busy;
	}
	return 0;
}

/* Whether one of a thread's slices (sorted by ts) starts exactly at ts. */
static int slice_starts_at(const struct aslice *s, int n, int64_t ts)
{
	int lo = 0, hi = n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (s[mid].ts == ts)
			return 1;
		if (s[mid].ts < ts)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return 0;
}

/*
 * wakeup_latency, runnable, preempted. A preemption is the gap after a slice that ended
 * runnable (R, R+) until the thread's next slice (or the trace end): thread_state's R+ intervals,
 * read from the slices. A wakeup latency is a woken interval (thread_state R, from the wakeup)
 * that ends where a slice of the thread starts.
 */
static int state_metric(struct acache *c, const struct trax_rule *r, const int *utids, int n,
			const struct trax_span *w, const struct trax_trace_info *ti,
			struct trax_value *val, struct trax_error *err)
{
	double *lat = NULL;
	int nlat = 0, clat = 0;
	int64_t total = 0;

	for (int k = 0; k < n; k++) {
		const struct astate *t = NULL;
		const struct aslice *s;
		int nt = 0, ns, ret;

		ret = acache_slices(c, utids[k], r->buffer, &s, &ns, err);
		if (!ret && r->metric != TRAX_METRIC_PREEMPTED)
			ret = acache_states(c, utids[k], r->buffer, &t, &nt, err);
		if (ret) {
			free(lat);
			return ret;
		}
		if (r->metric != TRAX_METRIC_WAKEUP_LATENCY) {
			for (int i = 0; i < ns; i++) {
				int64_t end = s[i].ts + s[i].dur;
				int64_t next = i + 1 < ns ? s[i + 1].ts : ti->end;

				if (s[i].state[0] == 'R' && next > end)
					total += overlap(end, next - end, w);
			}
		}
		for (int i = 0; i < nt; i++) {
			int64_t end = t[i].ts + t[i].dur;

			if (r->metric == TRAX_METRIC_RUNNABLE) {
				total += overlap(t[i].ts, t[i].dur, w);
			} else if (end >= w->start && end <= w->end && slice_starts_at(s, ns, end)) {
				TRAX_GROW(lat, nlat, clat, 256);
				lat[nlat++] = t[i].dur;
			}
		}
	}
	if (r->metric == TRAX_METRIC_WAKEUP_LATENCY) {
		assert_sample_stat(r, lat, nlat, val, "wakeups followed by a switch-in");
	} else {
		val->defined = 1;
		val->v = r->expect.dim == TRAX_DIM_PERCENT ?
			100.0 * total / (double)(w->end - w->start) : (double)total;
	}
	free(lat);
	return 0;
}

/* ---- counters ---- */

/* Samples of a track: each holds until the next one (the last until the trace end). */
struct sample {
	int64_t ts;
	double v;
};

static int load_track(sqlite3 *db, int track_id, struct sample **out, int *n,
		      struct trax_error *err)
{
	sqlite3_stmt *st = NULL;
	int cap = 0, rc;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, "SELECT ts, value FROM counter WHERE track_id = ? ORDER BY ts",
			       -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, err, "reading counter");
	sqlite3_bind_int(st, 1, track_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		TRAX_GROW(*out, *n, cap, 256);
		(*out)[*n].ts = sqlite3_column_int64(st, 0);
		(*out)[*n].v = sqlite3_column_double(st, 1);
		(*n)++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, err, "reading counter");
	return 0;
}

/*
 * The size of a track's unit (track.unit: "kHz" for cpu_frequency, "mC" for temperatures) in
 * its dimension's base unit (Hz, mC), by the rule language's unit table; 1 for a track without
 * a unit, or with one that table does not know. Samples are multiplied by it, and so are the
 * levels a rule gave as bare numbers (they are in the track's own unit).
 */
static double track_scale(sqlite3 *db, int track_id)
{
	sqlite3_stmt *st = NULL;
	double scale = 1;

	if (sqlite3_prepare_v2(db, "SELECT unit FROM track WHERE id = ?", -1, &st, NULL) ==
	    SQLITE_OK) {
		sqlite3_bind_int(st, 1, track_id);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
			enum trax_dim dim;

			if (trax_unit_lookup((const char *)sqlite3_column_text(st, 0), &dim,
					     &scale) < 0)
				scale = 1;
		}
	}
	sqlite3_finalize(st);
	return scale;
}

struct held {
	double v;
	int64_t dur;
};

static int cmp_held(const void *a, const void *b)
{
	return cmp_double(&((const struct held *)a)->v, &((const struct held *)b)->v);
}

/*
 * The intervals [ts_i, ts_{i+1}) clipped to w, with the value each holds; the last sample holds
 * until trace_end. Returns the count in *out (caller frees).
 */
static int held_intervals(const struct sample *s, int n, const struct trax_span *w,
			  int64_t trace_end, struct held **out)
{
	int m = 0;

	*out = xmalloc((n + 1) * sizeof(**out));
	for (int i = 0; i < n; i++) {
		int64_t end = i + 1 < n ? s[i + 1].ts : trace_end;
		int64_t ov = overlap(s[i].ts, end - s[i].ts, w);

		if (ov > 0) {
			(*out)[m].v = s[i].v;
			(*out)[m].dur = ov;
			m++;
		}
	}
	return m;
}

static int counter_metric(sqlite3 *db, const struct trax_rule *r, int track_id,
			  const struct trax_span *w, const struct trax_trace_info *ti,
			  struct trax_value *val, struct trax_error *err)
{
	struct sample *s = NULL;
	struct held *h = NULL;
	int n, m, ret;
	double scale = track_scale(db, track_id), covered = 0, acc = 0;
	double level = r->level_bare ? r->level * scale : r->level;

	ret = load_track(db, track_id, &s, &n, err);
	if (ret)
		return ret;
	for (int i = 0; i < n; i++)
		s[i].v *= scale;
	m = held_intervals(s, n, w, ti->end, &h);
	for (int i = 0; i < m; i++)
		covered += h[i].dur;
	if (r->stat == TRAX_STAT_COUNT) {
		int c = 0;

		for (int i = 0; i < n; i++)
			c += s[i].ts >= w->start && s[i].ts <= w->end;
		val->defined = 1;
		val->v = c;
		goto out;
	}
	if (!m) {
		set_reason(val->reason, sizeof(val->reason), "no value of the track in the window "
			   "(first sample %s)", n ? "after it" : "missing");
		goto out;
	}
	val->defined = 1;
	switch (r->stat) {
	case TRAX_STAT_MIN:
	case TRAX_STAT_MAX:
		val->v = h[0].v;
		for (int i = 1; i < m; i++)
			if (r->stat == TRAX_STAT_MIN ? h[i].v < val->v : h[i].v > val->v)
				val->v = h[i].v;
		break;
	case TRAX_STAT_FIRST:
		val->v = h[0].v;
		break;
	case TRAX_STAT_LAST:
		val->v = h[m - 1].v;
		break;
	case TRAX_STAT_MEAN:
	case TRAX_STAT_SUM:
		for (int i = 0; i < m; i++)
			acc += h[i].v * h[i].dur;
		val->v = r->stat == TRAX_STAT_MEAN ? acc / covered : acc / 1e9;
		break;
	case TRAX_STAT_MEDIAN:
	case TRAX_STAT_PCT: {
		/* time-weighted: the smallest value held for at least p% of the covered time */
		double p = r->stat == TRAX_STAT_MEDIAN ? 50 : r->pct;

		qsort(h, m, sizeof(*h), cmp_held);
		val->v = h[m - 1].v;
		for (int i = 0; i < m; i++) {
			acc += h[i].dur;
			if (acc >= p / 100.0 * covered - 1e-9) {
				val->v = h[i].v;
				break;
			}
		}
		break;
	}
	case TRAX_STAT_TIME_ABOVE:
	case TRAX_STAT_TIME_BELOW:
		for (int i = 0; i < m; i++)
			if (r->stat == TRAX_STAT_TIME_ABOVE ? h[i].v > level : h[i].v < level)
				acc += h[i].dur;
		val->v = r->stat_percent ? 100.0 * acc / covered : acc;
		break;
	default:
		val->defined = 0;
		set_reason(val->reason, sizeof(val->reason), "statistic not defined for counters");
	}
out:
	free(s);
	free(h);
	return 0;
}

/* thermal residency: time with lo <= temp <= hi, absolute or % of the time covered by samples. */
static int thermal_metric(sqlite3 *db, const struct trax_rule *r, int track_id,
			  const struct trax_span *w, const struct trax_trace_info *ti,
			  struct trax_value *val, struct trax_error *err)
{
	struct sample *s = NULL;
	struct held *h = NULL;
	double covered = 0, in = 0, scale = track_scale(db, track_id), lo, hi;
	int n, m, ret;

	ret = load_track(db, track_id, &s, &n, err);
	if (ret)
		return ret;
	lo = r->range_bare[0] ? r->range[0] * scale : r->range[0];
	hi = r->range_bare[1] ? r->range[1] * scale : r->range[1];
	for (int i = 0; i < n; i++)
		s[i].v *= scale;
	m = held_intervals(s, n, w, ti->end, &h);
	for (int i = 0; i < m; i++) {
		covered += h[i].dur;
		if (h[i].v >= lo && h[i].v <= hi)
			in += h[i].dur;
	}
	if (!m) {
		set_reason(val->reason, sizeof(val->reason), "no temperature sample of zone \"%s\" "
			   "holds in the window", r->zone);
	} else {
		val->defined = 1;
		val->v = r->expect.dim == TRAX_DIM_PERCENT ? 100.0 * in / covered : in;
	}
	free(s);
	free(h);
	return 0;
}

/* ---- sql ---- */

static int sql_authorizer(void *ctx, int action, const char *a, const char *b, const char *c,
			  const char *d)
{
	switch (action) {
	case SQLITE_SELECT:
	case SQLITE_READ:
	case SQLITE_FUNCTION:
	case SQLITE_RECURSIVE:
		return SQLITE_OK;
	default:
		return SQLITE_DENY;
	}
}

struct deadline {
	struct timespec end;
};

static int sql_progress(void *ctx)
{
	struct deadline *d = ctx;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > d->end.tv_sec ||
	       (now.tv_sec == d->end.tv_sec && now.tv_nsec > d->end.tv_nsec);
}

#define SQL_TIME_LIMIT_S 10
#define SQL_HEAP_LIMIT_MIB 512

static int sql_metric(sqlite3 *db, const struct trax_rule *r, struct trax_value *val,
		      struct trax_error *err)
{
	sqlite3_stmt *st = NULL, *next = NULL;
	const char *tail = NULL;
	struct deadline dl;
	sqlite3_int64 heap;
	int rc, ret = 0;

	/* The query's memory is bounded too: SQLite's heap limit while it runs, then the old one. */
	heap = sqlite3_hard_heap_limit64(-1);
	sqlite3_hard_heap_limit64((sqlite3_int64)SQL_HEAP_LIMIT_MIB << 20);
	clock_gettime(CLOCK_MONOTONIC, &dl.end);
	dl.end.tv_sec += SQL_TIME_LIMIT_S;
	sqlite3_set_authorizer(db, sql_authorizer, NULL);
	sqlite3_progress_handler(db, 10000, sql_progress, &dl);
	rc = sqlite3_prepare_v2(db, r->query, -1, &st, &tail);
	if (rc != SQLITE_OK) {
		ret = trax_error_set(err, TRAX_E_EVAL, "rule \"%s\": query: %s", r->id,
				     sqlite3_errmsg(db));
		goto out;
	}
	/* A second statement would be silently ignored: refuse it (only comments may follow). */
	if (sqlite3_prepare_v2(db, tail, -1, &next, NULL) != SQLITE_OK || next) {
		sqlite3_finalize(next);
		ret = trax_error_set(err, TRAX_E_EVAL, "rule \"%s\": query has more than one "
				     "statement", r->id);
		goto out;
	}
	if (!sqlite3_stmt_readonly(st)) {
		ret = trax_error_set(err, TRAX_E_EVAL, "rule \"%s\": query is not read-only", r->id);
		goto out;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if (sqlite3_column_count(st) != 1) {
			ret = trax_error_set(err, TRAX_E_EVAL, "rule \"%s\": query returns %d columns, "
					     "not one number", r->id, sqlite3_column_count(st));
		} else if (sqlite3_column_type(st, 0) == SQLITE_NULL) {
			set_reason(val->reason, sizeof(val->reason), "query returned NULL");
		} else if (sqlite3_column_type(st, 0) == SQLITE_TEXT ||
			   sqlite3_column_type(st, 0) == SQLITE_BLOB) {
			ret = trax_error_set(err, TRAX_E_EVAL, "rule \"%s\": query returns text, not a "
					     "number", r->id);
		} else {
			val->defined = 1;
			val->v = sqlite3_column_double(st, 0);
			if (sqlite3_step(st) == SQLITE_ROW) {
				ret = trax_error_set(err, TRAX_E_EVAL, "rule \"%s\": query returns "
						     "several rows, not one number", r->id);
			}
		}
	} else if (rc == SQLITE_DONE) {
		set_reason(val->reason, sizeof(val->reason), "query returned no row");
	} else if (rc == SQLITE_INTERRUPT) {
		ret = trax_error_set(err, TRAX_E_EVAL, "rule \"%s\": query stopped after %d s", r->id,
				     SQL_TIME_LIMIT_S);
	} else if (rc == SQLITE_NOMEM) {
		ret = trax_error_set(err, TRAX_E_EVAL, "rule \"%s\": query needs more than %d MiB",
				     r->id, SQL_HEAP_LIMIT_MIB);
	} else {
		ret = trax_error_set(err, TRAX_E_EVAL, "rule \"%s\": query: %s", r->id,
				     sqlite3_errmsg(db));
	}
out:
	sqlite3_finalize(st);
	sqlite3_set_authorizer(db, NULL, NULL);
	sqlite3_progress_handler(db, 0, NULL, NULL);
	sqlite3_hard_heap_limit64(heap);
	return ret;
}

/* The one track a counter or thermal rule names (track_id 0 in the library call). */
static int single_track(sqlite3 *db, const struct trax_rule *r, int *track_id,
			struct trax_error *err)
{
	sqlite3_stmt *st = NULL;
	int n = 0;

	if (sqlite3_prepare_v2(db, "SELECT id FROM track WHERE name = ?1 AND (?2 < 0 OR cpu = ?2) "
			       "AND (?3 IS NULL OR zone = ?3) AND buffer = ?4", -1, &st, NULL))
		return db_fail(db, err, "reading track");
	sqlite3_bind_text(st, 1, r->metric == TRAX_METRIC_COUNTER ? r->track :
			  "thermal_temperature", -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, r->track_cpu);
	if (r->zone)
		sqlite3_bind_text(st, 3, r->zone, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, r->buffer);
	while (sqlite3_step(st) == SQLITE_ROW) {
		*track_id = sqlite3_column_int(st, 0);
		n++;
	}
	sqlite3_finalize(st);
	if (n != 1)
		return trax_error_set(err, TRAX_E_EVAL, "rule \"%s\": %d tracks match, not one",
				      r->id, n);
	return 0;
}

/* ---- the eval column of rules/metrics.h ---- */

/* One evaluation's inputs. */
struct metric_call {
	struct acache *c;
	sqlite3 *db;
	const struct trax_rule *r;
	const int *utids;
	int n;
	const struct trax_span *span;
	const struct trax_trace_info *ti;
	int track_id;
};

typedef int metric_fn(const struct metric_call *m, struct trax_value *val,
		      struct trax_error *err);

static int metric_sched(const struct metric_call *m, struct trax_value *val,
			struct trax_error *err)
{
	return sched_metric(m->c, m->r, m->utids, m->n, m->span, m->ti, val, err);
}

static int metric_busy(const struct metric_call *m, struct trax_value *val,
		       struct trax_error *err)
{
	return busy_metric(m->c, m->r, m->utids, m->n, m->span, m->ti, val, err);
}

static int metric_state(const struct metric_call *m, struct trax_value *val,
			struct trax_error *err)
{
	return state_metric(m->c, m->r, m->utids, m->n, m->span, m->ti, val, err);
}

static int metric_thermal(const struct metric_call *m, struct trax_value *val,
			  struct trax_error *err)
{
	return thermal_metric(m->db, m->r, m->track_id, m->span, m->ti, val, err);
}

static int metric_counter(const struct metric_call *m, struct trax_value *val,
			  struct trax_error *err)
{
	return counter_metric(m->db, m->r, m->track_id, m->span, m->ti, val, err);
}

static int metric_sql(const struct metric_call *m, struct trax_value *val,
		      struct trax_error *err)
{
	return sql_metric(m->db, m->r, val, err);
}

static int metric_android(const struct metric_call *m, struct trax_value *val,
			  struct trax_error *err)
{
	return assert_android_eval(m->db, m->r, m->utids, m->n, m->span, m->ti, val, err);
}

static metric_fn *const metric_eval[TRAX_METRIC__COUNT] = {
#define TRAX_METRIC(id, name, family, takes, requires, dim, flags, eval, ...) \
	[TRAX_METRIC_##id] = eval,
#include "rules/metrics.h"
#undef TRAX_METRIC
};

int assert_metric_eval(struct acache *c, sqlite3 *db, const struct trax_rule *r,
		       const int *utids, int n, const struct trax_span *span,
		       const struct trax_trace_info *ti, int track_id, struct trax_value *val,
		       struct trax_error *err)
{
	struct metric_call m = { c, db, r, utids, n, span, ti, track_id };
	struct trax_rule own;

	memset(val, 0, sizeof(*val));
	if (trax_rule_needs_facts(r)) {
		/* a caller that did not resolve the rule's CPU groups (trax_metric_eval()) */
		int ret = assert_topology_resolve(db, r, &own, val->reason, sizeof(val->reason),
						  err);

		if (ret)
			return ret < 0 ? ret : 0;
		ret = assert_metric_eval(c, db, &own, utids, n, span, ti, track_id, val, err);
		assert_topology_release(r, &own);
		return ret;
	}
	/* a counter family metric reads one track: the rule's, when only one matches */
	if (!track_id && trax_metric_family(r->metric) == TRAX_FAMILY_COUNTER) {
		int ret = single_track(db, r, &m.track_id, err);

		if (ret)
			return ret;
	}
	return metric_eval[r->metric](&m, val, err);
}

int trax_metric_eval(sqlite3 *db, const struct trax_rule *r, const int *utids, int n,
		     const struct trax_span *span, const struct trax_trace_info *ti, int track_id,
		     struct trax_value *val, struct trax_error *err)
{
	struct acache *c = acache_alloc(db, utids, n, 0);
	int ret = assert_metric_eval(c, db, r, utids, n, span, ti, track_id, val, err);

	acache_free(c);
	return ret;
}
