/* report/report.c: the report's content (summary, verdicts, charts), then HTML or PDF of it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cairo-pdf.h>

#include "assert/assert.h"
#include "assert/gate.h"
#include "plot/plot.h"
#include "parse/parse.h"
#include "report/lod.h"
#include "report/report.h"
#include "util/outfile.h"
#include "util/strbuf.h"
#include "util/grow.h"
#include "util/xalloc.h"

/*
 * A report is built once as a list of blocks (headings, paragraphs, tables, charts) and then
 * written by one of two writers, so the HTML and the PDF say the same things. Charts are
 * drawn by plot/ on demand: inline SVG in the HTML, straight onto the page in the PDF.
 */

enum blk_kind { B_TITLE, B_H2, B_H3, B_P, B_NOTE, B_TABLE, B_CHART, B_TIMELINE };

struct table {
	int ncols, nrows, cap;
	const char *head[8];
	unsigned right;		/* bit per column: right-aligned (numbers) */
	int status_col;		/* column holding a verdict (coloured), or -1 */
	char **cells;		/* nrows x ncols, owned */
};

struct chart {
	struct trax_plot_opts o;
	struct trax_plot_span span;
	const char *tracks[1];
	char task[32], track[192], title[256];
	char *caption;		/* owned, may be NULL */
	struct trax_plot_ref refs[6];	/* a rule's threshold, baseline value, limits */
	char ref_label[6][128];
};

struct blk {
	enum blk_kind kind;
	char *text;		/* owned */
	char *anchor;		/* owned, may be NULL */
	struct table *t;
	struct chart *ch;
};

struct report {
	sqlite3 *db;
	const struct trax_report_opts *o;
	struct trax_error *err;
	struct blk *b;
	int n, cap;
	char name[256];		/* the trace's file name */
	char title[320];
	int64_t start, end;
	int ncpus;
	int html;		/* the interactive timeline goes after the verdicts (report/lod.c) */
	struct trax_verdicts v;
};

#define REPORT_MAX_CHARTS_DEFAULT 12

/* ---- building ---- */

static struct blk *add(struct report *rp, enum blk_kind kind, const char *text)
{
	struct blk *b;

	TRAX_GROW(rp->b, rp->n, rp->cap, 32);
	b = &rp->b[rp->n++];
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->text = xstrdup(text);
	return b;
}

static void addf(struct report *rp, enum blk_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void addf(struct report *rp, enum blk_kind kind, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	add(rp, kind, sb.buf);
	strbuf_release(&sb);
}

static struct table *add_table(struct report *rp, const char *caption, int ncols,
			       const char *const *head, unsigned right)
{
	struct blk *b = add(rp, B_TABLE, caption);
	struct table *t = xcalloc(1, sizeof(*t));

	t->ncols = ncols;
	for (int i = 0; i < ncols && i < 8; i++)
		t->head[i] = head ? head[i] : NULL;
	t->right = right;
	t->status_col = -1;
	b->t = t;
	return t;
}

/* Append a row; cells are copied. */
static void row(struct report *rp, struct table *t, const char *const *cells)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->cells = xrealloc(t->cells, (size_t)t->cap * t->ncols * sizeof(char *));
	}
	for (int i = 0; i < t->ncols; i++)
		t->cells[(size_t)t->nrows * t->ncols + i] = xstrdup(cells[i]);
	t->nrows++;
}

static void kv(struct report *rp, struct table *t, const char *k, const char *v)
{
	const char *cells[2] = { k, v };

	row(rp, t, cells);
}

static struct chart *add_chart(struct report *rp, enum trax_plot_kind kind, int w, int h,
			       const char *caption)
{
	struct blk *b = add(rp, B_CHART, caption);
	struct chart *ch = xcalloc(1, sizeof(*ch));

	trax_plot_opts_init(&ch->o);
	ch->o.kind = kind;
	ch->o.width = w;
	ch->o.height = h;
	b->ch = ch;
	return ch;
}

static void report_release(struct report *rp)
{
	for (int i = 0; i < rp->n; i++) {
		struct blk *b = &rp->b[i];

		free(b->text);
		free(b->anchor);
		if (b->t) {
			for (size_t k = 0; k < (size_t)b->t->nrows * b->t->ncols; k++)
				free(b->t->cells[k]);
			free(b->t->cells);
			free(b->t);
		}
		if (b->ch) {
			free(b->ch->caption);
			free(b->ch);
		}
	}
	free(rp->b);
	trax_verdicts_release(&rp->v);
}

static int64_t meta_int(sqlite3 *db, const char *key, int64_t dflt)
{
	int64_t r = dflt;

	return trax_db_meta_int(db, key, &r) == 0 ? r : dflt;
}

static int table_exists(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st = NULL;
	int found = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", -1,
			       &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		found = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	return found;
}

static int64_t count(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int64_t n = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* Seconds with all their digits: "106439.675571 s". */
static void abs_s(char *buf, size_t len, int64_t ns)
{
	int64_t s = ns / 1000000000, f = ns % 1000000000;

	if (f < 0) {
		s--;
		f += 1000000000;
	}
	if (f % 1000 == 0)
		snprintf(buf, len, "%lld.%06lld s", (long long)s, (long long)(f / 1000));
	else
		snprintf(buf, len, "%lld.%09lld s", (long long)s, (long long)f);
}

static void rel_s(char *buf, size_t len, int64_t ns)
{
	snprintf(buf, len, "%s%lld.%06lld s", ns < 0 ? "-" : "+", llabs((long long)ns) / 1000000000,
		 (llabs((long long)ns) % 1000000000) / 1000);
}

static void build_summary(struct report *rp)
{
	static const char *const ev_head[] = { "event", "system", "records" };
	static const char *const cpu_head[] = { "CPU", "first record", "last record",
						"lost events" };
	static const char *const task_head[] = { "pid", "comm", "runtime", "of all CPU time",
						 "slices" };
	sqlite3 *db = rp->db;
	sqlite3_stmt *st = NULL;
	struct table *t;
	char a[64], b[64], d[64], buf[512];
	char *v;
	int64_t lost_total = 0, complete;
	int lost_unknown = 0;

	add(rp, B_H2, "Trace")->anchor = xstrdup("trace");
	t = add_table(rp, NULL, 2, NULL, 0);
	v = trax_db_meta(db, "source.path");
	kv(rp, t, "source", v ? v : "?");
	free(v);
	{
		char *fmt = trax_db_meta(db, "format"), *size = trax_db_meta(db, "source.size");

		snprintf(buf, sizeof(buf), "%s%s%s%s", fmt ? fmt : "?", size ? ", " : "",
			 size ? size : "", size ? " bytes" : "");
		kv(rp, t, "format", buf);
		free(fmt);
		free(size);
	}
	v = trax_db_meta(db, "source.sha256");
	if (v)
		kv(rp, t, "sha256", v);
	free(v);
	v = trax_db_meta(db, "kernel");
	if (v)
		kv(rp, t, "kernel", v);
	free(v);
	v = trax_db_meta(db, "trace_clock");
	if (v)
		kv(rp, t, "clock", v);
	free(v);
	abs_s(a, sizeof(a), rp->start);
	abs_s(b, sizeof(b), rp->end);
	trax_plot_fmt_duration(d, sizeof(d), (double)(rp->end - rp->start), 0);
	snprintf(buf, sizeof(buf), "%s .. %s (%s)", a, b, d);
	kv(rp, t, "time range", buf);
	complete = meta_int(db, "trace.complete_start_ts", rp->start);
	if (complete != rp->start) {
		abs_s(a, sizeof(a), complete);
		rel_s(b, sizeof(b), complete - rp->start);
		snprintf(buf, sizeof(buf), "every CPU recorded from %s (%s)", a, b);
		kv(rp, t, "complete from", buf);
	}
	snprintf(buf, sizeof(buf), "%d", rp->ncpus);
	kv(rp, t, "CPUs", buf);
	v = trax_db_meta(db, "events");
	kv(rp, t, "events loaded", v && strcmp(v, "all") ? v : "all");
	free(v);
	snprintf(buf, sizeof(buf), "%lld threads, %lld pids",
		 (long long)count(db, "SELECT count(*) FROM thread"),
		 (long long)count(db, "SELECT count(DISTINCT pid) FROM thread"));
	kv(rp, t, "tasks", buf);

	/* Per CPU: recorded range and lost events. */
	t = add_table(rp, "CPUs", 4, cpu_head, 0x9);
	for (int c = 0; c < rp->ncpus; c++) {
		char key[64], l[64];
		const char *cells[4];
		char cpu[16];
		int64_t f, e;

		snprintf(key, sizeof(key), "cpu.%d.first_ts", c);
		f = meta_int(db, key, INT64_MIN);
		snprintf(key, sizeof(key), "cpu.%d.last_ts", c);
		e = meta_int(db, key, INT64_MIN);
		snprintf(key, sizeof(key), "cpu.%d.lost_events", c);
		v = trax_db_meta(db, key);
		if (v && !strcmp(v, "unknown")) {
			lost_unknown = 1;
			snprintf(l, sizeof(l), "some (count unknown)");
		} else {
			int64_t n = v ? strtoll(v, NULL, 10) : 0;

			lost_total += n;
			snprintf(l, sizeof(l), "%lld", (long long)n);
		}
		free(v);
		snprintf(cpu, sizeof(cpu), "%d", c);
		if (f != INT64_MIN)
			rel_s(a, sizeof(a), f - rp->start);
		else
			snprintf(a, sizeof(a), "no records");
		if (e != INT64_MIN)
			rel_s(b, sizeof(b), e - rp->start);
		else
			snprintf(b, sizeof(b), "-");
		cells[0] = cpu;
		cells[1] = a;
		cells[2] = b;
		cells[3] = l;
		row(rp, t, cells);
	}
	if (lost_total || lost_unknown)
		addf(rp, B_NOTE, "Lost events: %lld%s. Rules whose window contains lost events "
		     "are errors, not passes.", (long long)lost_total,
		     lost_unknown ? " and more at unknown positions" : "");
	else
		add(rp, B_P, "Lost events: none.");

	/* Event counts. */
	t = add_table(rp, "Events", 3, ev_head, 0x4);
	if (sqlite3_prepare_v2(db, "SELECT name, system, count FROM event_type WHERE count > 0 "
			       "ORDER BY count DESC, name", -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *cells[3];
			char n[32];

			snprintf(n, sizeof(n), "%lld", (long long)sqlite3_column_int64(st, 2));
			cells[0] = (const char *)sqlite3_column_text(st, 0);
			cells[1] = (const char *)sqlite3_column_text(st, 1);
			cells[2] = n;
			row(rp, t, cells);
		}
	}
	sqlite3_finalize(st);
	st = NULL;
	if (table_exists(db, "raw_event") && count(db, "SELECT count(*) FROM raw_event") > 0 &&
	    sqlite3_prepare_v2(db, "SELECT name, count(*) FROM raw_event GROUP BY name ORDER BY 2 "
			       "DESC, 1", -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *cells[3];
			char n[32];

			snprintf(n, sizeof(n), "%lld", (long long)sqlite3_column_int64(st, 1));
			cells[0] = (const char *)sqlite3_column_text(st, 0);
			cells[1] = "(unparsed)";
			cells[2] = n;
			row(rp, t, cells);
		}
	}
	sqlite3_finalize(st);
	st = NULL;
	if (t && !t->nrows)
		add(rp, B_NOTE, "The trace holds no event records.");

	/* The busiest tasks. */
	if (count(db, "SELECT count(*) FROM (SELECT 1 FROM sched_slice WHERE pid != 0 "
		  "LIMIT 1)") > 0) {
		t = add_table(rp, "Busiest tasks", 5, task_head, 0x1d);
		/* a thread is one row, named by its earlier names and its last one */
		if (sqlite3_prepare_v2(db, "SELECT t.pid, coalesce((SELECT group_concat(comm, "
				       "' \u2192 ') FROM (SELECT comm FROM thread_comm c WHERE "
				       "c.utid = s.utid AND c.comm != t.comm GROUP BY comm ORDER "
				       "BY min(ts))) || ' \u2192 ' || t.comm, t.comm), sum(s.dur), "
				       "count(*) FROM "
				       "sched_slice s JOIN thread t USING(utid) WHERE s.pid != 0 "
				       "GROUP BY s.utid ORDER BY sum(s.dur) DESC, t.pid LIMIT 10",
				       -1, &st, NULL) == SQLITE_OK) {
			while (sqlite3_step(st) == SQLITE_ROW) {
				char pid[24], run[32], share[32], n[24];
				const char *cells[5] = { pid, NULL, run, share, n };
				double ns = (double)sqlite3_column_int64(st, 2);

				snprintf(pid, sizeof(pid), "%d", sqlite3_column_int(st, 0));
				cells[1] = (const char *)sqlite3_column_text(st, 1);
				trax_plot_fmt_duration(run, sizeof(run), ns, 0);
				snprintf(share, sizeof(share), "%.1f %%", rp->end > rp->start ?
					 ns / (double)(rp->end - rp->start) / rp->ncpus * 100 : 0);
				snprintf(n, sizeof(n), "%lld",
					 (long long)sqlite3_column_int64(st, 3));
				row(rp, t, cells);
			}
		}
		sqlite3_finalize(st);
	}
}

/* ---- verdicts ---- */

static int verdict_rank(const struct trax_result *r)
{
	switch (r->verdict) {
	case TRAX_ERROR: return 0;
	case TRAX_FAIL: return r->warn ? 2 : 1;
	case TRAX_XPASS: return 3;
	case TRAX_XFAIL: return 4;
	case TRAX_SKIP: return 5;
	default: return 6;
	}
}

static const char *verdict_text(const struct trax_result *r)
{
	if (r->verdict == TRAX_FAIL && r->warn)
		return "warn";
	return trax_verdict_name(r->verdict);
}

static int cmp_results(const void *a, const void *b)
{
	const struct trax_result *x = *(const struct trax_result *const *)a;
	const struct trax_result *y = *(const struct trax_result *const *)b;
	int rx = verdict_rank(x), ry = verdict_rank(y);

	if (rx != ry)
		return rx - ry;
	if (x->rule->index != y->rule->index)
		return x->rule->index - y->rule->index;
	return strcmp(x->name, y->name);
}

/* The charts that explain one result, by metric. */
/* The chart column of rules/metrics.h: what a rule's charts show after the timeline. */
enum { CHART_NONE = -1, CHART_TIMELINE_ONLY = -2 };
static const int rule_chart[TRAX_METRIC__COUNT] = {
#define NONE CHART_NONE
#define TIMELINE_ONLY CHART_TIMELINE_ONLY
#define COUNTERS TRAX_PLOT_COUNTERS
#define RESIDENCY TRAX_PLOT_RESIDENCY
#define CDF TRAX_PLOT_CDF
#define HISTOGRAM TRAX_PLOT_HISTOGRAM
#define TRAX_METRIC(id, name, family, takes, requires, dim, flags, eval, needs, loads, chart) \
	[TRAX_METRIC_##id] = chart,
#include "rules/metrics.h"
#undef TRAX_METRIC
#undef NONE
#undef TIMELINE_ONLY
#undef COUNTERS
#undef RESIDENCY
#undef CDF
#undef HISTOGRAM
};

static void add_ref(struct chart *ch, double v, int style, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void add_ref(struct chart *ch, double v, int style, const char *fmt, ...)
{
	int i = ch->o.nrefs;
	va_list ap;

	if (i >= 6 || !isfinite(v))
		return;
	va_start(ap, fmt);
	vsnprintf(ch->ref_label[i], sizeof(ch->ref_label[i]), fmt, ap);
	va_end(ap);
	ch->refs[i] = (struct trax_plot_ref){ v, ch->ref_label[i], style };
	ch->o.refs = ch->refs;
	ch->o.nrefs = i + 1;
}

/* Base units of a track's values: its unit's size (kHz: 1000 Hz), 1 without a known unit. */
static double track_unit_scale(sqlite3 *db, const char *track, char *unit, size_t len)
{
	sqlite3_stmt *st = NULL;
	double scale = 1;

	snprintf(unit, len, "%s", "");
	if (track && table_exists(db, "track") &&
	    sqlite3_prepare_v2(db, "SELECT unit FROM track WHERE name = ? AND unit IS NOT NULL "
			       "LIMIT 1", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, track, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW) {
			enum trax_dim dim;

			snprintf(unit, len, "%s", (const char *)sqlite3_column_text(st, 0));
			if (trax_unit_lookup((const char *)sqlite3_column_text(st, 0), &dim,
					     &scale) < 0 || scale <= 0)
				scale = 1;
		}
	}
	sqlite3_finalize(st);
	return scale;
}

/*
 * The lines a rule's chart shows on its value axis: the threshold (both bounds of a range),
 * and after a comparison with a baseline the baseline's value and the regression bounds
 * around it. Only where the chart's axis measures what the rule does: a counter statistic
 * of the track's values (in the track's unit), wakeup latency on its CDF (ns), busy CPUs in %
 * on the residency bars. Counter levels and thermal ranges are lines too: the value the
 * rule's time is measured above, below or between.
 */
static void rule_refs(struct report *rp, const struct trax_result *r, struct chart *ch)
{
	const struct trax_rule *rule = r->rule;
	const struct trax_threshold *t = &rule->expect;
	enum trax_plot_kind kind = ch->o.kind;
	double scale = 1, lv;
	char a[64], b[64], unit[16];
	int on_axis = 0;

	if (kind == TRAX_PLOT_COUNTERS && rule->metric == TRAX_METRIC_COUNTER) {
		scale = track_unit_scale(rp->db, rule->track, unit, sizeof(unit));
		lv = rule->level_bare ? rule->level : rule->level / scale;
		if (rule->stat == TRAX_STAT_TIME_ABOVE || rule->stat == TRAX_STAT_TIME_BELOW)
			add_ref(ch, lv, TRAX_PLOT_REF_LIMIT, "level %g%s%s: time %s it %s", lv,
				*unit ? " " : "", unit, rule->stat == TRAX_STAT_TIME_ABOVE ?
				"above" : "below", t->text ? t->text : "");
		else if (rule->stat != TRAX_STAT_COUNT && rule->stat != TRAX_STAT_SUM &&
			 r->dim != TRAX_DIM_PERCENT)
			on_axis = 1;
	} else if (kind == TRAX_PLOT_COUNTERS && rule->metric == TRAX_METRIC_THERMAL_RESIDENCY) {
		scale = track_unit_scale(rp->db, "thermal_temperature", unit, sizeof(unit));
		for (int k = 0; k < 2; k++) {
			lv = rule->range_bare[k] ? rule->range[k] : rule->range[k] / scale;
			add_ref(ch, lv, TRAX_PLOT_REF_LIMIT, "range %s %g%s%s", k ? "top" : "bottom",
				lv, *unit ? " " : "", unit);
		}
		scale = 1;
	} else if (kind == TRAX_PLOT_CDF && rule->metric == TRAX_METRIC_WAKEUP_LATENCY &&
		   r->dim == TRAX_DIM_TIME && rule->stat != TRAX_STAT_SUM) {
		on_axis = 1;
	} else if (kind == TRAX_PLOT_RESIDENCY && rule->metric == TRAX_METRIC_BUSY &&
		   r->dim == TRAX_DIM_PERCENT) {
		on_axis = 1;
	}
	if (!on_axis)
		return;
	if (t->op == TRAX_OP_RANGE) {
		trax_format_value(t->a, r->dim, t->unit, a, sizeof(a));
		trax_format_value(t->b, r->dim, t->unit, b, sizeof(b));
		add_ref(ch, t->a / scale, TRAX_PLOT_REF_THRESHOLD, "threshold %s: from %s",
			t->text ? t->text : "", a);
		add_ref(ch, t->b / scale, TRAX_PLOT_REF_THRESHOLD, "threshold %s: to %s",
			t->text ? t->text : "", b);
	} else if (t->op != TRAX_OP_IN) {
		add_ref(ch, t->a / scale, TRAX_PLOT_REF_THRESHOLD, "threshold %s",
			t->text ? t->text : "");
	}
	if (r->base_has_value) {
		const struct trax_tolerance *tol[2] = { &rule->max_increase, &rule->max_decrease };

		trax_format_value(r->base_value, r->dim, t->unit, a, sizeof(a));
		add_ref(ch, r->base_value / scale, TRAX_PLOT_REF_BASELINE, "baseline %s", a);
		for (int k = 0; k < 2; k++) {
			double d, v;

			if (!tol[k]->set)
				continue;
			d = tol[k]->relative ? fabs(r->base_value) * tol[k]->amount / 100 :
					       tol[k]->amount;
			v = k ? r->base_value - d : r->base_value + d;
			trax_format_value(v, r->dim, t->unit, b, sizeof(b));
			add_ref(ch, v / scale, TRAX_PLOT_REF_LIMIT, "regression bound %s %s: %s",
				k ? "-" : "+", tol[k]->text ? tol[k]->text : "", b);
		}
	}
}

static void rule_charts(struct report *rp, const struct trax_result *r, const char *caption)
{
	const struct trax_rule *rule = r->rule;
	enum trax_metric m = rule->metric;
	struct chart *ch;
	const char *colon = r->task ? strrchr(r->task, ':') : NULL;
	int64_t s = r->has_span ? r->span.start : rp->start;
	int64_t e = r->has_span ? r->span.end : rp->end;
	int64_t pad = (e - s) / 20;

	if (rule_chart[m] == CHART_NONE)
		return;
	if (rule_chart[m] == TRAX_PLOT_COUNTERS) {
		ch = add_chart(rp, TRAX_PLOT_COUNTERS, 1100, 300, caption);
		if (m == TRAX_METRIC_THERMAL_RESIDENCY)
			snprintf(ch->track, sizeof(ch->track), "thermal_temperature:%s",
				 rule->zone ? rule->zone : "*");
		else if (rule->track_cpu >= 0)
			snprintf(ch->track, sizeof(ch->track), "%s:%d", rule->track,
				 rule->track_cpu);
		else
			snprintf(ch->track, sizeof(ch->track), "%s",
				 rule->track ? rule->track : "*");
		ch->tracks[0] = ch->track;
		ch->o.tracks = ch->tracks;
		ch->o.ntracks = 1;
		ch->o.start = s;
		ch->o.end = e;
		rule_refs(rp, r, ch);
		return;
	}
	/* Scheduler metrics: the task's timeline over the rule's window (a little around it). */
	ch = add_chart(rp, TRAX_PLOT_TIMELINE, 1100, 120 + 46 * (rp->ncpus < 12 ? rp->ncpus : 12),
		       caption);
	if (colon)
		snprintf(ch->task, sizeof(ch->task), "%s", colon + 1);
	ch->o.task = colon ? ch->task : NULL;
	ch->o.start = s - pad > rp->start ? s - pad : rp->start;
	ch->o.end = e + pad < rp->end ? e + pad : rp->end;
	if (ch->o.end <= ch->o.start)
		ch->o.end = ch->o.start + 1;
	ch->span = (struct trax_plot_span){ s, e, "rule window" };
	if (r->has_span && (s > rp->start || e < rp->end)) {
		ch->o.spans = &ch->span;
		ch->o.nspans = 1;
	}
	if (rule_chart[m] == TRAX_PLOT_RESIDENCY) {
		ch = add_chart(rp, TRAX_PLOT_RESIDENCY, 1100, 360, caption);
		if (colon)
			snprintf(ch->task, sizeof(ch->task), "%s", colon + 1);
		ch->o.task = colon ? ch->task : NULL;
		ch->o.start = s;
		ch->o.end = e > s ? e : s + 1;
	} else if (rule_chart[m] == TRAX_PLOT_CDF) {
		ch = add_chart(rp, TRAX_PLOT_CDF, 1100, 360, caption);
		if (colon)
			snprintf(ch->task, sizeof(ch->task), "%s", colon + 1);
		ch->o.task = colon ? ch->task : NULL;
		ch->o.durations = m == TRAX_METRIC_WAKEUP_LATENCY ? TRAX_DUR_WAKEUP :
								 TRAX_DUR_RUNNABLE;
		ch->o.logx = 1;
		ch->o.start = s;
		ch->o.end = e > s ? e : s + 1;
	} else if (rule_chart[m] == TRAX_PLOT_HISTOGRAM) {
		ch = add_chart(rp, TRAX_PLOT_HISTOGRAM, 1100, 360, caption);
		if (colon)
			snprintf(ch->task, sizeof(ch->task), "%s", colon + 1);
		ch->o.task = colon ? ch->task : NULL;
		ch->o.logx = 1;
		ch->o.start = s;
		ch->o.end = e > s ? e : s + 1;
	}
	if (ch->o.kind != TRAX_PLOT_TIMELINE)
		rule_refs(rp, r, ch);
}

static int build_verdicts(struct report *rp)
{
	static const char *const head[] = { "verdict", "rule", "measured", "expected", "window",
					    "reason" };
	const struct trax_report_opts *o = rp->o;
	const struct trax_result **sorted = NULL;
	struct table *t;
	char *src = NULL;
	int ret, charts = 0, max = o->max_rule_charts > 0 ? o->max_rule_charts :
				      REPORT_MAX_CHARTS_DEFAULT, skipped = 0;

	src = trax_db_meta(rp->db, "source.path");
	ret = trax_check_db(o->rules, rp->db, o->trace_name ? o->trace_name :
			    src ? src : rp->name, &rp->v, rp->err);
	free(src);
	if (!ret && o->baseline) {
		struct trax_trace_id id = { 0 };

		ret = trax_trace_id_read(rp->db, o->trace_name ? o->trace_name : rp->name, &id,
					 rp->err);
		id.first = 0;
		id.n = rp->v.n;
		if (!ret)
			ret = trax_baseline_compare(o->baseline, o->rules, &id, 1, &rp->v, rp->err);
		trax_trace_id_release(&id);
	}
	if (ret)
		return ret;
	add(rp, B_H2, "Rule verdicts")->anchor = xstrdup("verdicts");
	addf(rp, B_P, "%s (sha256 %.16s...): %d results: %d failed, %d errors, %d warnings, "
	     "%d expected failures, %d unexpected passes, %d skipped, %d passed.",
	     o->rules->path ? o->rules->path : "rules", o->rules->sha256, rp->v.n, rp->v.fail,
	     rp->v.error, rp->v.warn, rp->v.xfail, rp->v.xpass, rp->v.skip, rp->v.pass);
	if (rp->v.compared)
		addf(rp, B_P, "Compared with the baseline %s: %d regressed (%d of them warnings), "
		     "%d improved, %d the same, %d new, %d not comparable, %d missing.%s%s",
		     rp->v.baseline_path ? rp->v.baseline_path : "", rp->v.regressed +
		     rp->v.regressed_warn, rp->v.regressed_warn, rp->v.improved, rp->v.same,
		     rp->v.added, rp->v.not_comparable, rp->v.nmissing,
		     rp->v.baseline_note ? " Note: " : "",
		     rp->v.baseline_note ? rp->v.baseline_note : "");
	if (!rp->v.n)
		return 0;
	sorted = xmalloc(rp->v.n * sizeof(*sorted));
	for (int i = 0; i < rp->v.n; i++)
		sorted[i] = &rp->v.res[i];
	qsort(sorted, rp->v.n, sizeof(*sorted), cmp_results);
	t = add_table(rp, NULL, 6, head, 0);
	if (t)
		t->status_col = 0;
	for (int i = 0; i < rp->v.n; i++) {
		const struct trax_result *r = sorted[i];
		char val[64] = "-", win[96] = "whole trace", a[32], b[32];
		const char *cells[6];

		if (r->has_value)
			trax_format_value(r->value, r->dim, r->rule->expect.unit, val, sizeof(val));
		if (r->has_span) {
			rel_s(a, sizeof(a), r->span.start - rp->start);
			rel_s(b, sizeof(b), r->span.end - rp->start);
			snprintf(win, sizeof(win), "%s .. %s", a, b);
		}
		cells[0] = verdict_text(r);
		cells[1] = r->name;
		cells[2] = val;
		cells[3] = r->rule->expect.text ? r->rule->expect.text : "";
		cells[4] = win;
		cells[5] = r->reason ? r->reason : "";
		row(rp, t, cells);
	}
	if (rp->html)
		add(rp, B_TIMELINE, "Timeline")->anchor = xstrdup("timeline");
	/* Charts for what did not pass, failures first. */
	for (int i = 0; i < rp->v.n; i++) {
		const struct trax_result *r = sorted[i];
		char val[64] = "no value", cap[512];

		if (r->verdict == TRAX_PASS || r->verdict == TRAX_SKIP)
			continue;
		if (r->rule->metric == TRAX_METRIC_SQL)
			continue;
		if (charts >= max) {
			skipped++;
			continue;
		}
		if (!charts)
			add(rp, B_H3, "Charts of the rules that did not pass");
		if (r->has_value)
			trax_format_value(r->value, r->dim, r->rule->expect.unit, val, sizeof(val));
		snprintf(cap, sizeof(cap), "%s: %s (measured %s, expected %s)", r->name,
			 verdict_text(r), val, r->rule->expect.text ? r->rule->expect.text : "?");
		rule_charts(rp, r, cap);
		charts++;
	}
	if (skipped)
		addf(rp, B_NOTE, "%d more rules did not pass; their charts are left out (see "
		     "trax plot).", skipped);
	free(sorted);
	return 0;
}

/* ---- the charts of every report ---- */

static void build_charts(struct report *rp)
{
	sqlite3_stmt *st = NULL;
	struct chart *ch;
	int lanes = rp->ncpus < 16 ? rp->ncpus : 16;

	add(rp, B_H2, "Charts")->anchor = xstrdup("charts");
	ch = add_chart(rp, TRAX_PLOT_TIMELINE, 1100, 150 + 48 * lanes,
		       "CPU timeline of the whole trace: lane height is the busy share of each "
		       "pixel column; ticks at the top are trace markers, rows under the CPUs "
		       "atrace slices per thread.");
	/* One counters chart of every track, grouped (CPU tracks first, then per process). */
	if (table_exists(rp->db, "track") &&
	    sqlite3_prepare_v2(rp->db, "SELECT count(*), count(DISTINCT CASE WHEN utid IS NULL "
			       "THEN name ELSE utid END) FROM track t WHERE EXISTS (SELECT 1 FROM "
			       "counter c WHERE c.track_id = t.id)", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0) {
		int n = sqlite3_column_int(st, 0), g = sqlite3_column_int(st, 1);

		n = n < 60 ? n : 60;
		g = g < 12 ? g : 12;
		add_chart(rp, TRAX_PLOT_COUNTERS, 1100, 160 + 16 * n + 19 * g,
			  "Counter tracks (step lines; a sample holds until the next): every "
			  "CPU's frequency and idle state, then the other tracks, then the "
			  "counters of each process.");
	}
	sqlite3_finalize(st);
	add_chart(rp, TRAX_PLOT_RESIDENCY, 1100, 380,
		  "Residency: the share of the trace's time each task ran on each CPU.");
	/* Distributions choose their axis (log for a long tail) and say it on the chart. */
	add_chart(rp, TRAX_PLOT_HISTOGRAM, 1100, 340,
		  "Slice lengths: how long tasks ran each time they got a CPU.");
	add_chart(rp, TRAX_PLOT_CDF, 1100, 340, "Slice lengths, cumulative.");
	if (table_exists(rp->db, "thread_state") &&
	    count(rp->db, "SELECT count(*) FROM (SELECT 1 FROM thread_state WHERE state = 'R' "
		  "LIMIT 1)") > 0) {
		ch = add_chart(rp, TRAX_PLOT_CDF, 1100, 340,
			       "Wakeup latency: from sched_waking (or sched_wakeup) to running, "
			       "every task.");
		if (ch)
			ch->o.durations = TRAX_DUR_WAKEUP;
	}
}

/* ---- HTML ---- */

static const char css[] =
	"body{font-family:'DejaVu Sans',Verdana,sans-serif;font-size:14px;color:#222;"
	"margin:24px auto;max-width:1180px;padding:0 16px;line-height:1.4}"
	"h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:32px 0 10px;"
	"border-bottom:1px solid #ccc;padding-bottom:4px}h3{font-size:16px;margin:22px 0 8px}"
	"p.sub{color:#555;margin:0 0 12px}p.note{background:#fff6df;border-left:4px solid #e0a000;"
	"padding:6px 10px}nav a{margin-right:14px}"
	"table{border-collapse:collapse;margin:6px 0 14px;font-size:13px}"
	"th,td{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}"
	"th{background:#f2f2f2}td.r{text-align:right;font-variant-numeric:tabular-nums}"
	"table.kv td:first-child{font-weight:bold;background:#fafafa;white-space:nowrap}"
	"td.v{font-weight:bold;text-transform:uppercase;white-space:nowrap}"
	"tr.fail td.v,tr.error td.v,tr.xpass td.v{background:#d9342b;color:#fff}"
	"tr.warn td.v{background:#e8a317;color:#fff}tr.xfail td.v{background:#8a6dc1;color:#fff}"
	"tr.skip td.v{background:#999;color:#fff}tr.pass td.v{background:#2e8b57;color:#fff}"
	"figure{margin:12px 0 26px}figure svg{width:100%;height:auto;display:block;"
	"border:1px solid #e4e4e4}figcaption{color:#444;font-size:13px;margin-top:4px}"
	"caption{text-align:left;font-weight:bold;padding:4px 0}"
	"footer{color:#777;font-size:12px;margin-top:30px;border-top:1px solid #ddd;"
	"padding-top:6px}"
	".tl{position:relative}.tl-bar{margin:4px 0;font-size:13px}#tl-canvas{width:100%;"
	"height:560px;display:block;border:1px solid #ccc;outline:none;cursor:grab}"
	".tl-tip{position:absolute;pointer-events:none;background:#fffff0;border:1px solid #888;"
	"padding:3px 6px;font-size:12px;white-space:pre;z-index:2}.tl-help{color:#555;"
	"font-size:12px;margin:2px 0}tr.tl-link{cursor:pointer}tr.tl-link:hover td{"
	"background:#fde8e6}";

static void html_table(struct strbuf *sb, const struct blk *b)
{
	const struct table *t = b->t;

	strbuf_addf(sb, "<table%s>", t->head[0] ? "" : " class=\"kv\"");
	if (b->text && *b->text) {
		strbuf_adds(sb, "<caption>");
		strbuf_add_xml(sb, b->text);
		strbuf_adds(sb, "</caption>");
	}
	if (t->head[0]) {
		strbuf_adds(sb, "<thead><tr>");
		for (int c = 0; c < t->ncols; c++) {
			strbuf_adds(sb, "<th>");
			strbuf_add_xml(sb, t->head[c]);
			strbuf_adds(sb, "</th>");
		}
		strbuf_adds(sb, "</tr></thead>");
	}
	strbuf_adds(sb, "<tbody>\n");
	for (int r = 0; r < t->nrows; r++) {
		char *const *cells = t->cells + (size_t)r * t->ncols;

		if (t->status_col >= 0)
			strbuf_addf(sb, "<tr class=\"%s\">", cells[t->status_col]);
		else
			strbuf_adds(sb, "<tr>");
		for (int c = 0; c < t->ncols; c++) {
			strbuf_adds(sb, c == t->status_col ? "<td class=\"v\">" :
				    (t->right >> c) & 1 ? "<td class=\"r\">" : "<td>");
			strbuf_add_xml(sb, cells[c]);
			strbuf_adds(sb, "</td>");
		}
		strbuf_adds(sb, "</tr>\n");
	}
	strbuf_adds(sb, "</tbody></table>\n");
}

/* The timeline with every result's window (the whole trace for those without one). */
static int html_timeline(struct report *rp, struct strbuf *sb)
{
	struct trax_tl_window *w = rp->v.n ? xcalloc(rp->v.n, sizeof(*w)) : NULL;
	int ret;

	for (int i = 0; i < rp->v.n; i++) {
		const struct trax_result *r = &rp->v.res[i];

		w[i].name = r->name;
		w[i].verdict = verdict_text(r);
		w[i].pid = r->task && strrchr(r->task, ':') ? atoi(strrchr(r->task, ':') + 1) : -1;
		w[i].start = r->has_span ? r->span.start : rp->start;
		w[i].end = r->has_span ? r->span.end : rp->end;
	}
	ret = trax_timeline_html(rp->db, w, rp->v.n, sb, rp->err);
	free(w);
	return ret;
}

static int write_html(struct report *rp, struct strbuf *sb)
{
	int nfig = 0, ret;

	strbuf_adds(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<meta name=\"generator\" content=\"trax " TRAX_VERSION "\">\n<title>");
	strbuf_add_xml(sb, rp->title);
	strbuf_addf(sb, "</title>\n<style>%s</style>\n</head>\n<body>\n", css);
	for (int i = 0; i < rp->n; i++) {
		const struct blk *b = &rp->b[i];

		switch (b->kind) {
		case B_TITLE:
			strbuf_adds(sb, "<h1>");
			strbuf_add_xml(sb, b->text);
			strbuf_adds(sb, "</h1>\n");
			break;
		case B_H2:
			strbuf_adds(sb, "<h2");
			if (b->anchor)
				strbuf_addf(sb, " id=\"%s\"", b->anchor);
			strbuf_adds(sb, ">");
			strbuf_add_xml(sb, b->text);
			strbuf_adds(sb, "</h2>\n");
			break;
		case B_H3:
			strbuf_adds(sb, "<h3>");
			strbuf_add_xml(sb, b->text);
			strbuf_adds(sb, "</h3>\n");
			break;
		case B_P:
		case B_NOTE:
			strbuf_adds(sb, b->kind == B_NOTE ? "<p class=\"note\">" : i == 1 ?
				    "<p class=\"sub\">" : "<p>");
			strbuf_add_xml(sb, b->text);
			strbuf_adds(sb, "</p>\n");
			if (i == 1) {
				strbuf_adds(sb, "<nav><a href=\"#trace\">Trace</a>");
				for (int k = 0; k < rp->n; k++)
					if (rp->b[k].anchor && strcmp(rp->b[k].anchor, "trace"))
						strbuf_addf(sb, "<a href=\"#%s\">%s</a>",
							    rp->b[k].anchor, rp->b[k].text);
				strbuf_adds(sb, "</nav>\n");
			}
			break;
		case B_TABLE:
			html_table(sb, b);
			break;
		case B_TIMELINE:
			ret = html_timeline(rp, sb);
			if (ret)
				return ret;
			break;
		case B_CHART: {
			struct trax_error e = { 0 };
			char prefix[32];

			struct strbuf svg = STRBUF_INIT;

			snprintf(prefix, sizeof(prefix), "c%d-", ++nfig);
			ret = trax_plot_svg(rp->db, &b->ch->o, prefix, &svg, &e);
			if (ret == -TRAX_E_EVAL) {
				/* Nothing to draw: one line, no empty figure. */
				strbuf_adds(sb, "<p class=\"note\">Not drawn: ");
				strbuf_add_xml(sb, b->text);
				strbuf_adds(sb, ": ");
				strbuf_add_xml(sb, e.msg);
				strbuf_adds(sb, "</p>\n");
				strbuf_release(&svg);
				break;
			} else if (ret) {
				strbuf_release(&svg);
				*rp->err = e;
				return ret;
			}
			strbuf_adds(sb, "<figure>\n");
			strbuf_add(sb, svg.buf, svg.len);
			strbuf_release(&svg);
			strbuf_adds(sb, "\n<figcaption>");
			strbuf_add_xml(sb, b->text);
			for (int k = 0; k < b->ch->o.nrefs; k++) {
				strbuf_adds(sb, k ? "; " : ". Lines: ");
				strbuf_add_xml(sb, b->ch->o.refs[k].label);
			}
			strbuf_adds(sb, "</figcaption>\n</figure>\n");
			break;
		}
		}
	}
	strbuf_adds(sb, "<footer>Written by trax " TRAX_VERSION " from the trace alone: every "
		    "figure comes from its records. The timeline's script and data are inline: "
		    "nothing is fetched."
		    "</footer>"
		    "\n</body>\n</html>\n");
	return 0;
}

/* ---- PDF ---- */

/*
 * Text is wrapped by its measured width, never cut: at spaces, and a word wider than the
 * column is broken between characters. A table that fits on a page is never split; a longer
 * one is split with at least TABLE_MIN_ROWS rows on each side of every break and its header
 * repeated. A chart with nothing to draw is one line under its section's heading, not a page.
 */

#define PW 842.0		/* A4 landscape, points */
#define PH 595.0
#define PM 36.0		/* margin */
#define ROW_H 12.5		/* a table row of one line */
#define CELL_LINE 10.5		/* each further line of a cell */
#define CELL_SIZE 8.5
#define TABLE_MIN_ROWS 3
#define CHART_SHARE 0.35	/* a chart shares a page whose text fills less than this */

struct pdf {
	cairo_t *cr;
	cairo_surface_t *s;
	double y;
	int page, used;		/* used: something below the top on this page */
	const char *title;
};

/* What a chart will be, decided before the page flow: drawn (rec) or why not (msg). */
struct pdf_chart {
	cairo_surface_t *rec;	/* drawn at a full page's size, or NULL */
	double w, h, cap_h;
	int failed;		/* nothing to draw: msg says why */
	char msg[1100];
};

static void pdf_font(cairo_t *cr, double size, int bold)
{
	cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

static double text_w(cairo_t *cr, const char *s)
{
	cairo_text_extents_t te;

	cairo_text_extents(cr, s, &te);
	return te.x_advance;
}

static double text_wn(cairo_t *cr, const char *s, size_t n)
{
	char buf[1024];

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
	return text_w(cr, buf);
}

/* The bytes of the longest prefix of s[0..n) at a character boundary that fits in w (at
 * least one character, so that every call makes progress). */
static size_t fit_prefix(cairo_t *cr, const char *s, size_t n, double w)
{
	size_t k = 0, next;

	while (k < n) {
		next = k + 1;
		while (next < n && ((unsigned char)s[next] & 0xc0) == 0x80)
			next++;
		if (k && text_wn(cr, s, next) > w)
			break;
		k = next;
	}
	return k;
}

/*
 * Break s into lines no wider than w in the current font, appended to out, each ending in
 * '\n'. Breaks at spaces (and at a '\n' of s); a word wider than w is broken between
 * characters. Returns the number of lines (at least 1).
 */
static int wrap_text(cairo_t *cr, const char *s, double w, struct strbuf *out)
{
	struct strbuf line = STRBUF_INIT;
	const char *p = s ? s : "";
	int n = 0;

	for (;;) {
		size_t len = strcspn(p, " \n");

		while (len) {
			size_t had = line.len;

			if (had)
				strbuf_addch(&line, ' ');
			strbuf_add(&line, p, len);
			if (text_w(cr, line.buf) <= w) {
				len = 0;
				break;
			}
			line.len = had;
			line.buf[had] = 0;
			if (had) {	/* the word starts the next line */
				strbuf_add(out, line.buf, line.len);
				strbuf_addch(out, '\n');
				n++;
				strbuf_reset(&line);
				continue;
			}
			/* Alone and too wide: as much as fits, the rest on the next lines. */
			{
				size_t k = fit_prefix(cr, p, len, w);

				strbuf_add(out, p, k);
				strbuf_addch(out, '\n');
				n++;
				p += k;
				len -= k;
			}
		}
		p += strcspn(p, " \n");
		if (*p == '\n' || !*p) {
			if (line.len || !n || *p == '\n') {
				strbuf_add(out, line.buf, line.len);
				strbuf_addch(out, '\n');
				n++;
			}
			strbuf_reset(&line);
			if (!*p)
				break;
		}
		p++;
	}
	strbuf_release(&line);
	return n;
}

static int wrap_count(cairo_t *cr, const char *s, double w)
{
	struct strbuf sb = STRBUF_INIT;
	int n = wrap_text(cr, s, w, &sb);

	strbuf_release(&sb);
	return n;
}

static void pdf_footer(struct pdf *p)
{
	char buf[64];

	pdf_font(p->cr, 8, 0);
	cairo_set_source_rgb(p->cr, 0.45, 0.45, 0.45);
	cairo_move_to(p->cr, PM, PH - 16);
	cairo_show_text(p->cr, p->title);
	snprintf(buf, sizeof(buf), "page %d", p->page);
	cairo_move_to(p->cr, PW - PM - text_w(p->cr, buf), PH - 16);
	cairo_show_text(p->cr, buf);
}

static void pdf_newpage(struct pdf *p)
{
	pdf_footer(p);
	cairo_show_page(p->cr);
	p->page++;
	p->y = PM;
	p->used = 0;
}

static void pdf_need(struct pdf *p, double h)
{
	if (p->y + h > PH - PM)
		pdf_newpage(p);
}

static void pdf_line(struct pdf *p, const char *s, double size, int note, int last)
{
	cairo_t *cr = p->cr;

	pdf_need(p, size + 4);
	if (note) {
		cairo_set_source_rgb(cr, 0.88, 0.63, 0.0);
		cairo_rectangle(cr, PM, p->y, 4, size + 4 + (last ? 0 : 1));
		cairo_fill(cr);
	}
	cairo_set_source_rgb(cr, 0.13, 0.13, 0.13);
	cairo_move_to(cr, PM + (note ? 12 : 0), p->y + size);
	cairo_show_text(cr, s);
	p->y += size + 4;
}

/* The height a paragraph takes. */
static double para_h(struct pdf *p, const char *s, double size, int bold, int note)
{
	pdf_font(p->cr, size, bold);
	return wrap_count(p->cr, s, PW - 2 * PM - (note ? 12 : 0)) * (size + 4) + 4;
}

/* A paragraph, wrapped. */
static void pdf_para(struct pdf *p, const char *s, double size, int bold, int note)
{
	struct strbuf lines = STRBUF_INIT;
	char *l, *nl;

	pdf_font(p->cr, size, bold);
	wrap_text(p->cr, s, PW - 2 * PM - (note ? 12 : 0), &lines);
	for (l = lines.buf; (nl = strchr(l, '\n')); l = nl + 1) {
		*nl = 0;
		pdf_line(p, l, size, note, !strchr(nl + 1, '\n'));
	}
	p->y += 4;
	p->used = 1;
	strbuf_release(&lines);
}

static void status_rgb(const char *v, double rgb[3])
{
	static const struct { const char *name; double r, g, b; } map[] = {
		{ "fail", 0.85, 0.20, 0.17 }, { "error", 0.85, 0.20, 0.17 },
		{ "xpass", 0.85, 0.20, 0.17 }, { "warn", 0.91, 0.64, 0.09 },
		{ "xfail", 0.54, 0.43, 0.76 }, { "skip", 0.6, 0.6, 0.6 },
		{ "pass", 0.18, 0.55, 0.34 },
	};

	rgb[0] = rgb[1] = rgb[2] = 0.5;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(v, map[i].name)) {
			rgb[0] = map[i].r;
			rgb[1] = map[i].g;
			rgb[2] = map[i].b;
		}
}

static int cell_bold(const struct table *t, int c, int head)
{
	return head || (!t->head[0] && c == 0) || c == t->status_col;
}

/* A row's height: its tallest cell, wrapped to its column. */
static double row_h(cairo_t *cr, const struct table *t, char *const *cells, const double *w,
		    int head)
{
	int lines = 1;

	for (int c = 0; c < t->ncols; c++) {
		int n;

		pdf_font(cr, CELL_SIZE, cell_bold(t, c, head));
		n = wrap_count(cr, cells[c], w[c] - 8);
		lines = n > lines ? n : lines;
	}
	return ROW_H + (lines - 1) * CELL_LINE;
}

static void pdf_row(struct pdf *p, const struct table *t, char *const *cells, const double *w,
		    double h, int head)
{
	cairo_t *cr = p->cr;
	struct strbuf lines = STRBUF_INIT;
	double x = PM;

	if (head) {
		cairo_set_source_rgb(cr, 0.93, 0.93, 0.93);
		cairo_rectangle(cr, PM, p->y, w[t->ncols], h);
		cairo_fill(cr);
	}
	for (int c = 0; c < t->ncols; c++) {
		int right = !head && ((t->right >> c) & 1), k = 0;
		char *l, *nl;

		if (!head && c == t->status_col) {
			double rgb[3];

			status_rgb(cells[c], rgb);
			cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
			cairo_rectangle(cr, x, p->y + 1, w[c] - 2, h - 2);
			cairo_fill(cr);
			cairo_set_source_rgb(cr, 1, 1, 1);
		} else {
			cairo_set_source_rgb(cr, 0.13, 0.13, 0.13);
		}
		pdf_font(cr, CELL_SIZE, cell_bold(t, c, head));
		strbuf_reset(&lines);
		wrap_text(cr, cells[c], w[c] - 8, &lines);
		for (l = lines.buf; (nl = strchr(l, '\n')); l = nl + 1, k++) {
			*nl = 0;
			cairo_move_to(cr, right ? x + w[c] - 5 - text_w(cr, l) : x + 3,
				      p->y + ROW_H - 3.5 + k * CELL_LINE);
			cairo_show_text(cr, l);
		}
		x += w[c];
	}
	cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
	cairo_set_line_width(cr, 0.5);
	cairo_move_to(cr, PM, p->y + h);
	cairo_line_to(cr, PM + w[t->ncols], p->y + h);
	cairo_stroke(cr);
	p->y += h;
	strbuf_release(&lines);
}

/*
 * Column widths: each column its widest cell when they all fit; else the narrow columns keep
 * theirs and the wide ones share what is left equally (their text wraps).
 */
static void col_widths(cairo_t *cr, const struct table *t, double avail, double *w)
{
	double nat[8], total = 0, left = avail;
	int fixed[8] = { 0 }, nfree = t->ncols, changed = 1;

	for (int c = 0; c < t->ncols; c++) {
		pdf_font(cr, CELL_SIZE, 1);
		nat[c] = text_w(cr, t->head[c] ? t->head[c] : "") + 12;
		pdf_font(cr, CELL_SIZE, cell_bold(t, c, 0));
		for (int r = 0; r < t->nrows; r++) {
			double x = text_w(cr, t->cells[(size_t)r * t->ncols + c]) + 12;

			nat[c] = x > nat[c] ? x : nat[c];
		}
		total += nat[c];
	}
	if (total <= avail) {
		memcpy(w, nat, t->ncols * sizeof(double));
		w[t->ncols] = total;
		return;
	}
	while (changed && nfree) {
		changed = 0;
		for (int c = 0; c < t->ncols; c++)
			if (!fixed[c] && nat[c] <= left / nfree) {
				fixed[c] = 1;
				w[c] = nat[c];
				left -= nat[c];
				nfree--;
				changed = 1;
			}
	}
	for (int c = 0; c < t->ncols; c++)
		if (!fixed[c])
			w[c] = left / nfree;
	w[t->ncols] = avail;
}

/*
 * Where a table's pages start: starts[0] = 0, starts[k] the first row on its (k+1)th part.
 * first_avail: room left on this page for rows; page_avail: on a new page; *new_first set
 * when even the first part goes to a new page. Returns the number of parts.
 */
static int table_breaks(const double *h, int n, double first_avail, double page_avail,
			int *new_first, int *starts)
{
	int nparts = 0, r = 0, k;
	double used, total = 0;

	for (int i = 0; i < n; i++)
		total += h[i];
	*new_first = 0;
	if (total <= first_avail) {
		starts[0] = 0;
		return 1;
	}
	if (total <= page_avail) {	/* whole, on the next page */
		*new_first = 1;
		starts[0] = 0;
		return 1;
	}
	for (k = 0, used = 0; k < n && used + h[k] <= first_avail; k++)
		used += h[k];
	if (k < TABLE_MIN_ROWS)
		*new_first = 1;
	while (r < n) {
		double room = nparts == 0 && !*new_first ? first_avail : page_avail;

		starts[nparts++] = r;
		used = 0;
		k = r;
		while (k < n && (used + h[k] <= room || k == r)) {
			used += h[k];
			k++;
		}
		r = k;
	}
	/* The last part takes rows from the one before so that neither is left short. */
	if (nparts > 1) {
		int last = n - starts[nparts - 1];
		int prev = starts[nparts - 1] - starts[nparts - 2];
		int move = TABLE_MIN_ROWS - last;

		if (move > 0 && prev - move >= TABLE_MIN_ROWS)
			starts[nparts - 1] -= move;
	}
	return nparts;
}

static void pdf_table(struct pdf *p, const struct blk *b)
{
	const struct table *t = b->t;
	cairo_t *cr = p->cr;
	double w[9] = { 0 }, head_h = 0, cap_h = 0, *h;
	char *head[8];
	int *starts, nparts, new_first;

	col_widths(cr, t, PW - 2 * PM, w);
	for (int c = 0; c < t->ncols; c++)
		head[c] = (char *)(t->head[c] ? t->head[c] : "");
	if (t->head[0])
		head_h = row_h(cr, t, head, w, 1);
	if (b->text && *b->text)
		cap_h = 15;
	h = xmalloc((t->nrows + 1) * sizeof(*h));
	starts = xmalloc((t->nrows + 1) * sizeof(*starts));
	for (int r = 0; r < t->nrows; r++)
		h[r] = row_h(cr, t, t->cells + (size_t)r * t->ncols, w, 0);
	nparts = table_breaks(h, t->nrows, PH - PM - p->y - cap_h - head_h,
			      PH - 2 * PM - cap_h - head_h, &new_first, starts);
	if (new_first && p->used)
		pdf_newpage(p);
	if (cap_h) {
		pdf_font(cr, 10, 1);
		cairo_set_source_rgb(cr, 0.13, 0.13, 0.13);
		cairo_move_to(cr, PM, p->y + 10);
		cairo_show_text(cr, b->text);
		p->y += cap_h;
	}
	for (int k = 0; k < nparts; k++) {
		int end = k + 1 < nparts ? starts[k + 1] : t->nrows;

		if (k)
			pdf_newpage(p);
		if (t->head[0])
			pdf_row(p, t, head, w, head_h, 1);
		for (int r = starts[k]; r < end; r++)
			pdf_row(p, t, t->cells + (size_t)r * t->ncols, w, h[r], 0);
	}
	free(h);
	free(starts);
	p->y += 10;
	p->used = 1;
}

/* Draw a chart into a recording surface of the size a page gives it, to learn before the page
 * flow whether it has anything to draw. */
static int pdf_chart_prepare(struct pdf *p, struct report *rp, const struct blk *b,
			     struct pdf_chart *pc)
{
	struct trax_plot_opts o = b->ch->o;
	struct trax_error e = { 0 };
	cairo_rectangle_t ext;
	cairo_t *cr;
	int ret;

	pc->cap_h = para_h(p, b->text, 9, 0, 0);
	pc->w = (int)(PW - 2 * PM);
	pc->h = (int)(PH - 2 * PM - 14 - pc->cap_h);
	ext = (cairo_rectangle_t){ 0, 0, pc->w, pc->h };
	pc->rec = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &ext);
	cr = cairo_create(pc->rec);
	o.width = (int)pc->w;
	o.height = (int)pc->h;
	ret = trax_plot_draw(rp->db, &o, cr, NULL, &e);
	cairo_destroy(cr);
	if (ret == -TRAX_E_EVAL) {
		pc->failed = 1;
		snprintf(pc->msg, sizeof(pc->msg), "Not drawn: %s: %s", b->text, e.msg);
		cairo_surface_destroy(pc->rec);
		pc->rec = NULL;
		return 0;
	}
	if (ret)
		*rp->err = e;
	return ret;
}

static int pdf_chart(struct pdf *p, struct report *rp, const struct blk *b, struct pdf_chart *pc)
{
	double full = PH - 2 * PM;

	if (pc->failed)
		return 0;	/* said under the section's heading */
	/* A page holding only a heading and a few lines keeps them above the chart. */
	if (p->used && (p->y - PM > CHART_SHARE * full || PH - PM - p->y - 14 - pc->cap_h < 150))
		pdf_newpage(p);
	pdf_para(p, b->text, 9, 0, 0);
	if (p->y == PM + pc->cap_h) {
		cairo_set_source_surface(p->cr, pc->rec, PM, p->y);
		cairo_paint(p->cr);
	} else {
		struct trax_plot_opts o = b->ch->o;
		struct trax_error e = { 0 };
		int ret;

		o.width = (int)(PW - 2 * PM);
		o.height = (int)(PH - PM - 14 - p->y);
		cairo_save(p->cr);
		cairo_translate(p->cr, PM, p->y);
		ret = trax_plot_draw(rp->db, &o, p->cr, NULL, &e);
		cairo_restore(p->cr);
		if (ret) {
			*rp->err = e;
			return ret;
		}
	}
	p->used = 1;
	p->y = PH;	/* the page is full */
	return 0;
}

/* Under a heading: one line for each chart of its section that has nothing to draw. */
static void pdf_not_drawn(struct pdf *p, struct report *rp, int i, struct pdf_chart *pcs)
{
	for (int k = i + 1; k < rp->n && rp->b[k].kind == B_CHART; k++)
		if (pcs[k].failed)
			pdf_para(p, pcs[k].msg, 9, 0, 1);
}

static int write_pdf(struct report *rp, cairo_surface_t *s)
{
	struct pdf p = { .s = s, .y = PM, .page = 1, .title = rp->title };
	struct pdf_chart *pcs = xcalloc(rp->n + 1, sizeof(*pcs));
	int ret = 0;

	p.cr = cairo_create(s);
	{
		cairo_font_options_t *fo = cairo_font_options_create();

		cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
		cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
		cairo_set_font_options(p.cr, fo);
		cairo_font_options_destroy(fo);
	}
	for (int i = 0; i < rp->n && !ret; i++)
		if (rp->b[i].kind == B_CHART)
			ret = pdf_chart_prepare(&p, rp, &rp->b[i], &pcs[i]);
	for (int i = 0; i < rp->n && !ret; i++) {
		const struct blk *b = &rp->b[i];

		switch (b->kind) {
		case B_TITLE:
			pdf_para(&p, b->text, 18, 1, 0);
			break;
		case B_H2:
			if (p.used && i > 2)
				pdf_newpage(&p);
			p.y += 4;
			pdf_para(&p, b->text, 14, 1, 0);
			pdf_not_drawn(&p, rp, i, pcs);
			p.used = i <= 2 || p.y > PM + 40;	/* a heading alone keeps the page open */
			break;
		case B_H3:
			/* Only charts follow these headings: start their page. */
			if (p.used)
				pdf_newpage(&p);
			pdf_para(&p, b->text, 11, 1, 0);
			pdf_not_drawn(&p, rp, i, pcs);
			p.used = p.y > PM + 30;
			break;
		case B_P:
			pdf_para(&p, b->text, 9.5, 0, 0);
			break;
		case B_NOTE:
			pdf_para(&p, b->text, 9.5, 0, 1);
			break;
		case B_TABLE:
			pdf_table(&p, b);
			break;
		case B_CHART:
			if (pcs[i].failed && (i == 0 || (rp->b[i - 1].kind != B_CHART &&
							 rp->b[i - 1].kind != B_H2 &&
							 rp->b[i - 1].kind != B_H3)))
				pdf_para(&p, pcs[i].msg, 9, 0, 1);	/* no heading to say it */
			ret = pdf_chart(&p, rp, b, &pcs[i]);
			break;
		case B_TIMELINE:	/* HTML only */
			break;
		}
	}
	if (!ret) {
		pdf_footer(&p);
		cairo_show_page(p.cr);
		if (cairo_status(p.cr) != CAIRO_STATUS_SUCCESS)
			ret = trax_error_set(rp->err, TRAX_E_IO, "PDF: %s",
					     cairo_status_to_string(cairo_status(p.cr)));
	}
	for (int i = 0; i < rp->n; i++)
		if (pcs[i].rec)
			cairo_surface_destroy(pcs[i].rec);
	free(pcs);
	cairo_destroy(p.cr);
	return ret;
}

/* ---- the file ---- */

int trax_report_format_from_path(const char *path, enum trax_report_format *fmt)
{
	const char *dot = strrchr(path, '.');

	if (!dot || strchr(dot, '/'))
		return -1;
	if (!strcasecmp(dot, ".html") || !strcasecmp(dot, ".htm"))
		*fmt = TRAX_REPORT_HTML;
	else if (!strcasecmp(dot, ".pdf"))
		*fmt = TRAX_REPORT_PDF;
	else
		return -1;
	return 0;
}

static cairo_status_t write_file(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS :
						      CAIRO_STATUS_WRITE_ERROR;
}

int trax_report_write(sqlite3 *db, const struct trax_report_opts *o, enum trax_report_format fmt,
		      const char *path, struct trax_error *err)
{
	static const struct trax_report_opts none;
	struct report rp = { .db = db, .o = o ? o : &none, .err = err };
	struct strbuf html = STRBUF_INIT;
	struct trax_outfile of = { 0 };
	cairo_surface_t *s = NULL;
	char *src, a[64], d[64];
	FILE *f = NULL;
	int ret = 0;

	o = rp.o;
	src = trax_db_meta(db, "source.path");
	snprintf(rp.name, sizeof(rp.name), "%s", src ? (strrchr(src, '/') ? strrchr(src, '/') + 1 :
								 src) : "trace");
	free(src);
	if (o->title)
		snprintf(rp.title, sizeof(rp.title), "%s", o->title);
	else
		snprintf(rp.title, sizeof(rp.title), "trax report · %s", rp.name);
	rp.start = meta_int(db, "trace.start_ts", INT64_MIN);
	rp.end = meta_int(db, "trace.end_ts", INT64_MIN);
	if (rp.start == INT64_MIN || rp.end == INT64_MIN)
		return trax_error_set(err, TRAX_E_EVAL, "%s: the trace holds no records (no time "
				      "range in meta)", rp.name);
	rp.ncpus = (int)meta_int(db, "cpus", 1);
	if (rp.ncpus < 1 || rp.ncpus > 4096)
		rp.ncpus = 1;

	add(&rp, B_TITLE, rp.title);
	abs_s(a, sizeof(a), rp.start);
	trax_plot_fmt_duration(d, sizeof(d), (double)(rp.end - rp.start), 0);
	addf(&rp, B_P, "%s, %d CPUs, from %s for %s. Written by trax %s.", rp.name, rp.ncpus, a,
	     d, TRAX_VERSION);
	rp.html = fmt == TRAX_REPORT_HTML;
	build_summary(&rp);
	if (o->rules) {
		ret = build_verdicts(&rp);
		if (ret)
			goto out;
	}
	if (rp.html && !(o->rules && rp.v.n))	/* else after the verdict table */
		add(&rp, B_TIMELINE, "Timeline")->anchor = xstrdup("timeline");
	build_charts(&rp);

	ret = trax_outfile_open(&of, path, err);
	if (ret)
		goto out;
	f = of.f;
	if (fmt == TRAX_REPORT_HTML) {
		ret = write_html(&rp, &html);
		if (ret)
			goto out;
		fwrite(html.buf, 1, html.len, f);
	} else {
		s = cairo_pdf_surface_create_for_stream(write_file, f, PW, PH);
		trax_plot_pdf_metadata(s, rp.title);
		ret = write_pdf(&rp, s);
		if (ret)
			goto out;
		cairo_surface_finish(s);
		if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
			ret = trax_error_set(err, TRAX_E_IO, "%s: %s", path,
					     cairo_status_to_string(cairo_surface_status(s)));
			goto out;
		}
	}
	cairo_surface_destroy(s);	/* NULL for HTML; a finished PDF writes nothing more */
	s = NULL;
	ret = trax_outfile_commit(&of, err);
out:
	if (s)
		cairo_surface_destroy(s);
	trax_outfile_abort(&of);
	strbuf_release(&html);
	report_release(&rp);
	return ret;
}
