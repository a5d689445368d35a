/* assert/eval.c: turning rules into verdicts on one trace database (SKIP, FAIL, ERROR reasons). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert/assert.h"
#include "assert/assert-local.h"
#include "parse/parse.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/xalloc.h"

const char *trax_verdict_name(enum trax_verdict v)
{
	static const char *const names[] = { "pass", "fail", "skip", "error", "xfail", "xpass" };

	return v <= TRAX_XPASS ? names[v] : "?";
}

static int metric_is_sched(enum trax_metric m)
{
	return trax_metric_family(m) == TRAX_FAMILY_SCHED;
}

/* The event a counter track comes from, or NULL when unknown. */
static const char *track_event(const char *track)
{
	static const char *const known[] = { "cpu_frequency", "cpu_idle", "thermal_temperature",
					     "cdev_update", NULL };

	for (int i = 0; known[i]; i++)
		if (!strcmp(known[i], track))
			return known[i];
	return NULL;
}

static void add_event_n(struct strbuf *sb, const char *ev, size_t n)
{
	/* a plain substring test is enough to avoid duplicates in this short list */
	struct strbuf probe = STRBUF_INIT;

	strbuf_addf(&probe, ",%.*s,", (int)n, ev);
	{
		struct strbuf cur = STRBUF_INIT;

		strbuf_addf(&cur, ",%s,", sb->buf);
		if (!strstr(cur.buf, probe.buf))
			strbuf_addf(sb, "%s%.*s", sb->len ? "," : "", (int)n, ev);
		strbuf_release(&cur);
	}
	strbuf_release(&probe);
}

static void add_event(struct strbuf *sb, const char *ev)
{
	add_event_n(sb, ev, strlen(ev));
}

char *trax_rules_events(const struct trax_rules *rs)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < rs->nrules; i++) {
		const struct trax_rule *r = &rs->rules[i];
		const char *loads = trax_metric_loads(r->metric);

		if (!loads)	/* a counter: its track's event, when the track is known */
			loads = track_event(r->track) ? track_event(r->track) : "*";
		if (!strcmp(loads, "*")) {
			strbuf_release(&sb);
			return NULL;
		}
		for (const char *p = loads; *p;) {
			size_t n = strcspn(p, ",");

			add_event_n(&sb, p, n);
			p += n + (p[n] == ',');
		}
		/* the markers: a window's, the target's facts ("trax: target ...") */
		if (r->window.kind == TRAX_WIN_MARKERS || trax_rule_needs_facts(r))
			add_event(&sb, "print");
		for (int k = 0; k < r->nrequires; k++)
			add_event(&sb, r->requires[k]);
	}
	return strbuf_detach(&sb);
}

/* ---- results ---- */

/* A new result of rule r, over span when its window is resolved (else NULL). */
static struct trax_result *result_new(struct trax_verdicts *out, const struct trax_rule *r,
				      const char *trace, const struct trax_trace_info *ti,
				      const struct trax_span *span)
{
	struct trax_result *res;

	TRAX_GROW(out->res, out->n, out->cap, 32);
	res = &out->res[out->n++];
	memset(res, 0, sizeof(*res));
	res->rule = r;
	res->trace = xstrdup(trace);
	res->dim = trax_rule_value_dim(r);
	res->trace_start = ti->start;
	res->name = xstrdup(r->id);
	if (span) {
		res->has_span = 1;
		res->span = *span;
	}
	return res;
}

static void result_reason(struct trax_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void result_reason(struct trax_result *res, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(res->reason);
	res->reason = strbuf_detach(&sb);
}

static void result_name(struct trax_result *res, const char *suffix, const char *task)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s[%s]", res->rule->id, suffix);
	free(res->name);
	res->name = strbuf_detach(&sb);
	if (task) {
		free(res->task);
		res->task = strdup(task);
	}
}

/*
 * A verdict as the rule expects it: a FAIL of an expected failure ("xfail") is XFAIL, with the
 * rule's reason for it, and its PASS is XPASS; a failing "severity": "warn" rule warns.
 */
static void expectation(struct trax_result *res)
{
	const struct trax_rule *r = res->rule;

	if (r->xfail) {
		if (res->verdict == TRAX_FAIL) {
			res->verdict = TRAX_XFAIL;
			if (r->xfail_reason)
				result_reason(res, "%s (known failure: %s)", res->reason,
					      r->xfail_reason);
		} else if (res->verdict == TRAX_PASS) {
			res->verdict = TRAX_XPASS;
		}
	} else if (res->verdict == TRAX_FAIL && r->warn) {
		res->warn = 1;
	}
}

/* Final verdict of a result whose value (or reason) is known. */
static void judge(struct trax_result *res, const struct trax_value *val)
{
	const struct trax_rule *r = res->rule;
	char got[64];

	if (val->defined) {
		res->has_value = 1;
		res->value = val->v;
		if (trax_threshold_met(&r->expect, val->v)) {
			res->verdict = TRAX_PASS;
		} else {
			res->verdict = TRAX_FAIL;
			trax_format_value(val->v, res->dim, r->expect.unit, got, sizeof(got));
			result_reason(res, "measured %s, expected %s", got, r->expect.text);
		}
	} else {
		res->verdict = TRAX_FAIL;
		result_reason(res, "%s", val->reason[0] ? val->reason : "no defined value");
	}
	expectation(res);
}

/*
 * A result of rule r decided before any value: its verdict and reason (a FAIL as the rule
 * expects it), and the window when it is resolved (span, else NULL).
 */
static struct trax_result *rule_verdict(struct trax_verdicts *out, const struct trax_rule *r,
					const char *trace, const struct trax_trace_info *ti,
					const struct trax_span *span, enum trax_verdict v,
					const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static struct trax_result *rule_verdict(struct trax_verdicts *out, const struct trax_rule *r,
					const char *trace, const struct trax_trace_info *ti,
					const struct trax_span *span, enum trax_verdict v,
					const char *fmt, ...)
{
	struct trax_result *res = result_new(out, r, trace, ti, span);
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	res->reason = strbuf_detach(&sb);
	res->verdict = v;
	expectation(res);
	return res;
}

/* ---- one rule ---- */

struct track_ref {
	int id;
	char label[96];
};

static int find_tracks(sqlite3 *db, const struct trax_rule *r, const char *name,
		       struct track_ref **tracks, int *n, struct trax_error *err)
{
	sqlite3_stmt *st = NULL;
	int cap = 0, rc;

	*tracks = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, "SELECT id, cpu, zone FROM track WHERE name = ?1 AND "
			       "(?2 < 0 OR cpu = ?2) AND (?3 IS NULL OR zone = ?3) AND buffer = ?4 "
			       "ORDER BY cpu, zone, id", -1, &st, NULL) != SQLITE_OK)
		return trax_error_set(err, TRAX_E_DB, "reading track: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, r->track_cpu);
	if (r->zone)
		sqlite3_bind_text(st, 3, r->zone, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 3);
	sqlite3_bind_int(st, 4, r->buffer);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct track_ref *t;

		TRAX_GROW(*tracks, *n, cap, 8);
		t = &(*tracks)[(*n)++];
		t->id = sqlite3_column_int(st, 0);
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			snprintf(t->label, sizeof(t->label), "%s:cpu%d", name,
				 sqlite3_column_int(st, 1));
		else if (sqlite3_column_text(st, 2))
			snprintf(t->label, sizeof(t->label), "%s:%s", name,
				 (const char *)sqlite3_column_text(st, 2));
		else
			snprintf(t->label, sizeof(t->label), "%s", name);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return trax_error_set(err, TRAX_E_DB, "reading track: %s", sqlite3_errmsg(db));
	return 0;
}

/* Names of the values a track name has (zones), for messages. */
static void list_zones(sqlite3 *db, const char *name, struct strbuf *sb)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, "SELECT DISTINCT zone FROM track WHERE name = ? AND zone IS NOT "
			       "NULL ORDER BY zone", -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW)
		strbuf_addf(sb, "%s%s", sb->len ? ", " : "", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

/*
 * Append " (did you mean NAME?)" when an event of the trace is near enough to name to be what a
 * "requires" entry with a typo meant (util/suggest.h).
 */
static void add_event_hint(struct strbuf *sb, sqlite3 *db, const char *name)
{
	sqlite3_stmt *st = NULL;
	char **names = NULL;
	int n = 0, cap = 0;
	const char *best;

	if (strchr(name, ':') || sqlite3_prepare_v2(db, "SELECT DISTINCT name FROM event_type "
						    "ORDER BY name", -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		TRAX_GROW(names, n, cap, 32);
		names[n++] = xstrdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	best = trax_suggest(name, (const char *const *)names, n);
	if (best)
		strbuf_addf(sb, " (did you mean %s?)", best);
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/*
 * One group of a metric's needs ("a|b|c", glen bytes): when the trace holds none of them (nor,
 * for an Android metric, the markers that stand in for them), "a, b or c" is added to sb.
 */
static void missing_group(sqlite3 *db, const struct trax_rule *r, const char *g, size_t glen,
			  struct strbuf *sb)
{
	const char *markers = NULL;
	char alt[8][64];
	int nalt = 0, found = 0;

	for (size_t i = 0; i < glen && nalt < 8;) {
		size_t n = strcspn(g + i, "|;");

		snprintf(alt[nalt++], sizeof(alt[0]), "%.*s", (int)n, g + i);
		i += n + 1;
	}
	for (int i = 0; i < nalt; i++)
		if (assert_event_present(db, alt[i]))
			return;
	if (trax_metric_family(r->metric) == TRAX_FAMILY_ANDROID)
		markers = assert_android_markers(db, r->metric, &found);
	if (found)
		return;
	strbuf_addf(sb, "%s", sb->len ? ", " : "");
	for (int i = 0; i < nalt; i++)
		strbuf_addf(sb, "%s%s", i ? (i + 1 < nalt ? ", " : " or ") : "", alt[i]);
	if (markers)
		strbuf_addf(sb, " (and no %s)", markers);
}

/* Events the rule needs, absent from the trace: returns a message, or NULL when all present. */
static char *missing_events(sqlite3 *db, const struct trax_rule *r)
{
	struct strbuf sb = STRBUF_INIT;
	const char *needs = trax_metric_needs(r->metric);

	if (!needs && r->metric == TRAX_METRIC_COUNTER)	/* its track's event, when known */
		needs = track_event(r->track);
	/* "a;b|c": a, and b or c */
	for (const char *g = needs; g && *g;) {
		size_t glen = strcspn(g, ";");

		missing_group(db, r, g, glen, &sb);
		g += glen + (g[glen] == ';');
	}
	for (int i = 0; i < r->nrequires; i++) {
		if (!assert_event_present(db, r->requires[i])) {
			strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", r->requires[i]);
			add_event_hint(&sb, db, r->requires[i]);
		}
	}
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

/* Events present in the trace but left out of this db's load. */
static char *unloaded_events(sqlite3 *db, const struct trax_rule *r)
{
	sqlite3_stmt *st = NULL;
	char *res = NULL;

	if (!metric_is_sched(r->metric))
		return NULL;
	if (sqlite3_prepare_v2(db, "SELECT name FROM event_type WHERE name = 'sched_switch' AND "
			       "count IS NULL", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		res = strdup("sched_switch");
	sqlite3_finalize(st);
	return res;
}

static int lost_in_window(sqlite3 *db, int buffer, const struct trax_span *w, char *msg,
			  size_t len)
{
	sqlite3_stmt *st = NULL;
	int found = 0;

	if (sqlite3_prepare_v2(db, "SELECT count(*), sum(count), min(ts), min(cpu), "
			       "sum(count IS NULL) FROM lost_event WHERE buffer = ? AND ts >= ? AND "
			       "ts <= ?", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int(st, 1, buffer);
	sqlite3_bind_int64(st, 2, w->start);
	sqlite3_bind_int64(st, 3, w->end);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0) {
		found = 1;
		if (sqlite3_column_int(st, 4))
			snprintf(msg, len, "events were lost in the window (%d places, first on CPU "
				 "%d at %.6f s): values would be wrong", sqlite3_column_int(st, 0),
				 sqlite3_column_int(st, 3), sqlite3_column_int64(st, 2) / 1e9);
		else
			snprintf(msg, len, "%lld events were lost in the window (first on CPU %d at "
				 "%.6f s): values would be wrong",
				 (long long)sqlite3_column_int64(st, 1), sqlite3_column_int(st, 3),
				 sqlite3_column_int64(st, 2) / 1e9);
	}
	sqlite3_finalize(st);
	return found;
}

/*
 * A scheduler result that rests on slices bounded from evidence (clipped & 8: their switch-in
 * was not recorded, parse/derive.c) says so: the value is the best bound, not a measurement.
 * utids NULL: every thread's slices.
 */
static void note_bounded(sqlite3 *db, struct trax_result *res, const struct trax_rule *r,
			 const struct trax_span *w, const int *utids, int n)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL;

	if (!metric_is_sched(r->metric))
		return;
	strbuf_adds(&sql, "SELECT count(*), group_concat(DISTINCT cpu), count(DISTINCT cpu), "
		    "sum(min(ts + dur, ?3) - max(ts, ?2)) FROM "
		    "sched_slice WHERE clipped & 8 AND buffer = ?1 AND ts < ?3 AND ts + dur > ?2");
	if (utids) {
		strbuf_adds(&sql, " AND utid IN (");
		for (int i = 0; i < n; i++)
			strbuf_addf(&sql, "%s%d", i ? "," : "", utids[i]);
		strbuf_adds(&sql, ")");
	}
	if (sqlite3_prepare_v2(db, sql.buf, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int(st, 1, r->buffer);
		sqlite3_bind_int64(st, 2, w->start);
		sqlite3_bind_int64(st, 3, w->end);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0) {
			struct strbuf sb = STRBUF_INIT;

			int k = sqlite3_column_int(st, 0);

			strbuf_addf(&sb, "rests on %d slice%s (%.6f s) whose switch-in was not "
				    "recorded (on CPU%s %s): bounded from wakeups, migrations and "
				    "the previous switch (see trax info)", k, k == 1 ? "" : "s",
				    sqlite3_column_int64(st, 3) / 1e9,
				    sqlite3_column_int(st, 2) == 1 ? "" : "s",
				    (const char *)sqlite3_column_text(st, 1));
			free(res->note);
			res->note = strbuf_detach(&sb);
		}
	}
	sqlite3_finalize(st);
	strbuf_release(&sql);
}

static int has_tgids(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int yes = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM thread WHERE tgid IS NOT NULL LIMIT 1", -1, &st,
			       NULL) == SQLITE_OK)
		yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

static double aggregate_values(enum trax_aggregate a, const double *v, int n)
{
	double x = v[0];

	for (int i = 1; i < n; i++) {
		if (a == TRAX_AGG_SUM || a == TRAX_AGG_MEAN)
			x += v[i];
		else if (a == TRAX_AGG_MAX && v[i] > x)
			x = v[i];
		else if (a == TRAX_AGG_MIN && v[i] < x)
			x = v[i];
	}
	return a == TRAX_AGG_MEAN ? x / n : x;
}

/* The result of a metric's evaluation: judged, or an error the run goes on from. */
static void evaluated(struct trax_result *res, const char *rules_path, int ret,
		      const struct trax_value *val, struct trax_error *err)
{
	if (ret) {
		res->verdict = TRAX_ERROR;
		result_reason(res, "%s: %s", rules_path, err->msg);
		trax_error_clear(err);
		return;
	}
	judge(res, val);
}

/* Several tasks taken together ("aggregate"): one result for them all. */
static int eval_aggregate(struct acache *c, sqlite3 *db, const struct trax_rule *r,
			  const char *trace, const struct trax_trace_info *ti,
			  const struct trax_span *span, const struct trax_task *tasks, int ntasks,
			  struct trax_verdicts *out, struct trax_error *err)
{
	double *vals = xmalloc(ntasks * sizeof(double));
	int *utids = xmalloc(ntasks * sizeof(int));
	struct strbuf bad = STRBUF_INIT;
	struct trax_result *agg;
	struct trax_value val;
	int ndef = 0, npass = 0, ret = 0;

	for (int i = 0; i < ntasks && !ret; i++) {
		utids[i] = tasks[i].utid;
		ret = assert_metric_eval(c, db, r, &tasks[i].utid, 1, span, ti, 0, &val, err);
		if (ret)
			break;
		if (val.defined) {
			vals[ndef++] = val.v;
			if (trax_threshold_met(&r->expect, val.v))
				npass++;
			else
				strbuf_addf(&bad, "%s%s:%d", bad.len ? ", " : "", tasks[i].comm,
					    tasks[i].pid);
		} else {
			strbuf_addf(&bad, "%s%s:%d (%s)", bad.len ? ", " : "", tasks[i].comm,
				    tasks[i].pid, val.reason);
		}
	}
	if (!ret) {
		agg = result_new(out, r, trace, ti, span);
		note_bounded(db, agg, r, span, utids, ntasks);
		memset(&val, 0, sizeof(val));
		if (r->aggregate == TRAX_AGG_ALL || r->aggregate == TRAX_AGG_ANY) {
			int ok = r->aggregate == TRAX_AGG_ALL ? npass == ntasks : npass > 0;

			agg->verdict = ok ? TRAX_PASS : TRAX_FAIL;
			if (!ok)
				result_reason(agg, "%d of %d tasks meet %s; not: %s", npass, ntasks,
					      r->expect.text, bad.buf);
			expectation(agg);
		} else if (ndef < ntasks) {
			snprintf(val.reason, sizeof(val.reason), "undefined for %s", bad.buf);
			judge(agg, &val);
		} else {
			val.defined = 1;
			val.v = aggregate_values(r->aggregate, vals, ndef);
			judge(agg, &val);
		}
	}
	free(vals);
	free(utids);
	strbuf_release(&bad);
	return ret;
}

static int eval_resolved(struct acache *c, sqlite3 *db, const struct trax_rule *r,
			 const char *trace, const struct trax_trace_info *ti,
			 struct trax_verdicts *out, struct trax_error *err)
{
	struct trax_result *res;
	struct trax_task *tasks = NULL;
	struct track_ref *tracks = NULL;
	struct trax_span span;
	struct trax_value val;
	char reason[512];
	char *missing;
	int ntasks = 0, ntracks = 0, ret = 0, rc;
	int takes_task = r->task.kind != TRAX_SEL_NONE;

	missing = missing_events(db, r);
	if (missing) {
		rule_verdict(out, r, trace, ti, NULL, TRAX_SKIP, "events absent from the trace: %s",
			     missing);
		free(missing);
		return 0;
	}
	missing = unloaded_events(db, r);
	if (missing) {
		rule_verdict(out, r, trace, ti, NULL, TRAX_ERROR, "%s is in the trace but was not "
			     "loaded into this database (loaded with --events)", missing);
		free(missing);
		return 0;
	}
	rc = trax_window_resolve(db, &r->window, ti, &span, reason, sizeof(reason), err);
	if (rc < 0)
		return rc;
	if (rc) {	/* 2: the window is not in this trace (SKIP); 1: it is wrong (FAIL) */
		rule_verdict(out, r, trace, ti, NULL, rc == 2 ? TRAX_SKIP : TRAX_FAIL, "%s",
			     reason);
		return 0;
	}
	if (r->metric != TRAX_METRIC_SQL &&
	    lost_in_window(db, r->buffer, &span, reason, sizeof(reason))) {
		rule_verdict(out, r, trace, ti, &span, TRAX_ERROR, "%s", reason);
		return 0;
	}

	if (takes_task) {
		if (r->task.kind == TRAX_SEL_TGID && !has_tgids(db)) {
			rule_verdict(out, r, trace, ti, &span, TRAX_SKIP, "the trace records no "
				     "tgids: cannot select by tgid");
			return 0;
		}
		ret = trax_select_tasks(db, &r->task, &tasks, &ntasks, err);
		if (ret)
			return ret;
		if (!ntasks) {
			rule_verdict(out, r, trace, ti, &span, TRAX_FAIL,
				     "no task matches %s in this trace", r->task.text);
			goto out;
		}
	}
	if (trax_metric_family(r->metric) == TRAX_FAMILY_COUNTER) {
		const char *name = r->metric == TRAX_METRIC_COUNTER ? r->track : "thermal_temperature";

		ret = find_tracks(db, r, name, &tracks, &ntracks, err);
		if (ret)
			goto out;
		if (!ntracks) {
			struct strbuf zones = STRBUF_INIT;

			list_zones(db, name, &zones);
			if (r->zone)
				rule_verdict(out, r, trace, ti, &span, TRAX_FAIL,
					     "no %s track for zone \"%s\"%s%s%s", name, r->zone,
					     zones.len ? " (zones: " : "", zones.buf,
					     zones.len ? ")" : "");
			else
				rule_verdict(out, r, trace, ti, &span, TRAX_FAIL, "no %s track%s",
					     name, r->track_cpu >= 0 ? " for that CPU" : "");
			strbuf_release(&zones);
			goto out;
		}
	}

	if (ntracks > 1) {
		/* one result per track */
		for (int i = 0; i < ntracks; i++) {
			res = result_new(out, r, trace, ti, &span);
			result_name(res, tracks[i].label, NULL);
			ret = assert_metric_eval(c, db, r, NULL, 0, &span, ti, tracks[i].id, &val, err);
			evaluated(res, out->rules_path, ret, &val, err);
		}
		ret = 0;
		goto out;
	}
	if (!takes_task || r->metric == TRAX_METRIC_BUSY || ntasks == 1) {
		/* one result: no task, busy of the tasks together, or the one task */
		int *utids = ntasks ? xmalloc(ntasks * sizeof(int)) : NULL;

		for (int i = 0; i < ntasks; i++)
			utids[i] = tasks[i].utid;
		res = result_new(out, r, trace, ti, &span);
		if (ntasks == 1 && r->metric != TRAX_METRIC_BUSY) {
			char t[96];

			snprintf(t, sizeof(t), "%s:%d", tasks[0].comm, tasks[0].pid);
			res->task = xstrdup(t);
		}
		ret = assert_metric_eval(c, db, r, utids, ntasks, &span, ti,
					 ntracks ? tracks[0].id : 0, &val, err);
		evaluated(res, out->rules_path, ret, &val, err);
		if (!ret)
			note_bounded(db, res, r, &span, utids, ntasks);
		free(utids);
		ret = 0;
		goto out;
	}
	if (r->aggregate) {
		ret = eval_aggregate(c, db, r, trace, ti, &span, tasks, ntasks, out, err);
		goto out;
	}
	/* several tasks: one result each */
	for (int i = 0; i < ntasks; i++) {
		char t[96];

		ret = assert_metric_eval(c, db, r, &tasks[i].utid, 1, &span, ti, 0, &val, err);
		if (ret)
			break;
		snprintf(t, sizeof(t), "%s:%d", tasks[i].comm, tasks[i].pid);
		res = result_new(out, r, trace, ti, &span);
		result_name(res, t, t);
		judge(res, &val);
		note_bounded(db, res, r, &span, &tasks[i].utid, 1);
	}
out:
	free(tasks);
	free(tracks);
	return ret;
}

/*
 * One rule: its CPU groups from the trace's facts first, when it names some the file's
 * topology lacks. A group the facts do not give FAILS the rule (never a pass on every CPU);
 * events absent from the trace still SKIP it first.
 */
static int eval_rule(struct acache *c, sqlite3 *db, const struct trax_rule *r,
		     const char *trace, const struct trax_trace_info *ti,
		     struct trax_verdicts *out, struct trax_error *err)
{
	struct trax_rule own;
	char reason[512], *missing;
	int rc, first = out->n;

	if (!trax_rule_needs_facts(r))
		return eval_resolved(c, db, r, trace, ti, out, err);
	missing = missing_events(db, r);
	if (missing) {
		free(missing);
		return eval_resolved(c, db, r, trace, ti, out, err);	/* SKIP */
	}
	rc = assert_topology_resolve(db, r, &own, reason, sizeof(reason), err);
	if (rc < 0)
		return rc;
	if (rc) {
		char *ev = trax_db_meta(db, "events");

		/* the facts are markers: a load without them cannot have them */
		if (ev && strcmp(ev, "all") && !strstr(ev, "print"))
			rule_verdict(out, r, trace, ti, NULL, TRAX_FAIL, "%s (this database was "
				     "loaded with --events %s: no markers, which hold the facts)",
				     reason, ev);
		else
			rule_verdict(out, r, trace, ti, NULL, TRAX_FAIL, "%s", reason);
		free(ev);
		return 0;
	}
	rc = eval_resolved(c, db, &own, trace, ti, out, err);
	/* the results outlive the copy: they name the rule itself */
	for (int i = first; i < out->n; i++)
		out->res[i].rule = r;
	assert_topology_release(r, &own);
	return rc;
}

static void count(struct trax_verdicts *out, const struct trax_result *r)
{
	switch (r->verdict) {
	case TRAX_PASS: out->pass++; break;
	case TRAX_FAIL:
		if (r->warn)
			out->warn++;
		else
			out->fail++;
		break;
	case TRAX_SKIP: out->skip++; break;
	case TRAX_ERROR: out->error++; break;
	case TRAX_XFAIL: out->xfail++; break;
	case TRAX_XPASS: out->xpass++; break;
	}
}

int trax_check_db(const struct trax_rules *rs, sqlite3 *db, const char *trace_name,
		  struct trax_verdicts *out, struct trax_error *err)
{
	struct trax_trace_info ti;
	struct acache *c;
	int *want = NULL, nwant = 0;
	int ret, first = out->n;

	if (!out->rules_path) {
		out->rules_path = strdup(rs->path);
		out->rules_sha256 = strdup(rs->sha256);
	}
	ret = trax_trace_info_read(db, &ti, err);
	if (ret)
		return ret;
	/* The threads any rule selects: their slices and states are read once, for all rules. */
	for (int i = 0; i < rs->nrules; i++) {
		const struct trax_rule *r = &rs->rules[i];
		struct trax_task *tasks = NULL;
		int ntasks = 0;

		if (r->task.kind == TRAX_SEL_NONE || r->metric == TRAX_METRIC_BUSY)
			continue;
		if (trax_select_tasks(db, &r->task, &tasks, &ntasks, err) == 0) {
			want = xrealloc(want, (nwant + ntasks + 1) * sizeof(int));
			for (int k = 0; k < ntasks; k++)
				want[nwant++] = tasks[k].utid;
		}
		free(tasks);
		trax_error_clear(err);
	}
	c = acache_alloc(db, want, nwant, 1);
	{
		int need_states = 0, need_busy = 0, buffer = -1;

		for (int i = 0; i < rs->nrules; i++) {
			const struct trax_rule *r = &rs->rules[i];

			if (!metric_is_sched(r->metric))
				continue;
			if (buffer < 0)
				buffer = r->buffer;
			if (r->buffer != buffer)
				continue;
			need_states |= r->metric == TRAX_METRIC_WAKEUP_LATENCY ||
				       r->metric == TRAX_METRIC_RUNNABLE;
			need_busy |= r->metric == TRAX_METRIC_BUSY;
		}
		if (buffer >= 0)
			acache_prepare(c, buffer, need_states, need_busy);
	}
	for (int i = 0; i < rs->nrules; i++) {
		ret = eval_rule(c, db, &rs->rules[i], trace_name, &ti, out, err);
		if (ret)
			break;
	}
	acache_free(c);
	free(want);
	if (ret)
		return ret;
	for (int i = first; i < out->n; i++)
		count(out, &out->res[i]);
	return 0;
}

void trax_verdicts_release(struct trax_verdicts *v)
{
	for (int i = 0; i < v->n; i++) {
		free(v->res[i].name);
		free(v->res[i].task);
		free(v->res[i].trace);
		free(v->res[i].reason);
		free(v->res[i].cmp_note);
		free(v->res[i].note);
	}
	free(v->res);
	free(v->rules_path);
	free(v->rules_sha256);
	for (int i = 0; i < v->nmissing; i++)
		free(v->missing[i]);
	free(v->missing);
	free(v->baseline_path);
	free(v->baseline_note);
	memset(v, 0, sizeof(*v));
}

int trax_verdicts_exit_status(const struct trax_verdicts *v)
{
	if (v->error)
		return 2;
	if (v->fail || v->regressed)
		return 1;
	if (v->n && v->skip == v->n)
		return 4;
	return 0;
}
