/* report/report.c: the report's content (summary, verdicts, charts), then HTML or PDF of it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cairo-pdf.h>

#include "assert/assert.h"
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
	if (ret)
		return ret;
	add(rp, B_H2, "Rule verdicts")->anchor = xstrdup("verdicts");
	addf(rp, B_P, "%s (sha256 %.16s...): %d results: %d failed, %d errors, %d warnings, "
	     "%d expected failures, %d unexpected passes, %d skipped, %d passed.",
	     o->rules->path ? o->rules->path : "rules", o->rules->sha256, rp->v.n, rp->v.fail,
	     rp->v.error, rp->v.warn, rp->v.xfail, rp->v.xpass, rp->v.skip, rp->v.pass);
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

			snprintf(prefix, sizeof(prefix), "c%d-", ++nfig);
			strbuf_adds(sb, "<figure>\n");
			ret = trax_plot_svg(rp->db, &b->ch->o, prefix, sb, &e);
			if (ret == -TRAX_E_EVAL) {
				strbuf_adds(sb, "<p class=\"note\">Not drawn: ");
				strbuf_add_xml(sb, e.msg);
				strbuf_adds(sb, "</p>");
			} else if (ret) {
				*rp->err = e;
				return ret;
			}
			strbuf_adds(sb, "\n<figcaption>");
			strbuf_add_xml(sb, b->text);
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

#define PW 842.0		/* A4 landscape, points */
#define PH 595.0
#define PM 36.0		/* margin */
#define ROW_H 12.5

struct pdf {
	cairo_t *cr;
	cairo_surface_t *s;
	double y;
	int page, used;		/* used: something below the top on this page */
	const char *title;
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

/* Show s at (x, baseline y) cut to width w with an ellipsis. */
static void text_fit(cairo_t *cr, double x, double y, double w, const char *s, int right)
{
	char buf[1040], cut[1040];
	double full;
	size_t n;

	snprintf(buf, sizeof(buf), "%.1000s", s ? s : "");
	full = text_w(cr, buf);
	if (full > w) {
		/* Start from a proportional guess, then shorten at UTF-8 boundaries. */
		n = (size_t)(strlen(buf) * (w / full)) + 1;
		if (n > strlen(buf))
			n = strlen(buf);
		for (;;) {
			while (n > 0 && ((unsigned char)buf[n] & 0xc0) == 0x80)
				n--;
			snprintf(cut, sizeof(cut), "%.*s...", (int)n, buf);
			if (n == 0 || text_w(cr, cut) <= w)
				break;
			n--;
		}
		memcpy(buf, cut, strlen(cut) + 1);
	}
	cairo_move_to(cr, right ? x + w - text_w(cr, buf) : x, y);
	cairo_show_text(cr, buf);
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

/* A paragraph wrapped on spaces. */
static void pdf_para(struct pdf *p, const char *s, double size, int bold, int note)
{
	struct strbuf line = STRBUF_INIT, trial = STRBUF_INIT;
	const char *w = s;
	double maxw = PW - 2 * PM - (note ? 12 : 0);

	pdf_font(p->cr, size, bold);
	while (*w) {
		const char *e = strchr(w, ' ');
		size_t n = e ? (size_t)(e - w) : strlen(w);

		strbuf_reset(&trial);
		strbuf_add(&trial, line.buf, line.len);
		if (line.len)
			strbuf_addch(&trial, ' ');
		strbuf_add(&trial, w, n);
		if (line.len && text_w(p->cr, trial.buf) > maxw) {
			pdf_line(p, line.buf, size, note, 0);
			strbuf_reset(&line);
			strbuf_add(&line, w, n);
		} else {
			strbuf_reset(&line);
			strbuf_add(&line, trial.buf, trial.len);
		}
		w += n;
		while (*w == ' ')
			w++;
	}
	if (line.len)
		pdf_line(p, line.buf, size, note, 1);
	p->y += 4;
	p->used = 1;
	strbuf_release(&line);
	strbuf_release(&trial);
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

static void pdf_row(struct pdf *p, const struct table *t, char *const *cells, const double *w,
		    int head)
{
	cairo_t *cr = p->cr;
	double x = PM;

	if (head) {
		cairo_set_source_rgb(cr, 0.93, 0.93, 0.93);
		cairo_rectangle(cr, PM, p->y, w[t->ncols], ROW_H);
		cairo_fill(cr);
	}
	for (int c = 0; c < t->ncols; c++) {
		int bold = head || (!t->head[0] && c == 0);

		if (!head && c == t->status_col) {
			double rgb[3];

			status_rgb(cells[c], rgb);
			cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
			cairo_rectangle(cr, x, p->y + 1, w[c] - 2, ROW_H - 2);
			cairo_fill(cr);
			cairo_set_source_rgb(cr, 1, 1, 1);
			bold = 1;
		} else {
			cairo_set_source_rgb(cr, 0.13, 0.13, 0.13);
		}
		pdf_font(cr, 8.5, bold);
		text_fit(cr, x + 3, p->y + ROW_H - 3.5, w[c] - 8, cells[c],
			 !head && ((t->right >> c) & 1));
		x += w[c];
	}
	cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
	cairo_set_line_width(cr, 0.5);
	cairo_move_to(cr, PM, p->y + ROW_H);
	cairo_line_to(cr, PM + w[t->ncols], p->y + ROW_H);
	cairo_stroke(cr);
	p->y += ROW_H;
}

static void pdf_table(struct pdf *p, const struct blk *b)
{
	const struct table *t = b->t;
	cairo_t *cr = p->cr;
	double w[9] = { 0 }, total = 0, avail = PW - 2 * PM;
	char *head[8];

	/* Column widths: the widest cell (capped), then scaled down to the page. */
	for (int c = 0; c < t->ncols; c++) {
		pdf_font(cr, 8.5, 1);
		head[c] = (char *)(t->head[c] ? t->head[c] : "");
		w[c] = text_w(cr, head[c]) + 12;
		pdf_font(cr, 8.5, !t->head[0] && c == 0);
		for (int r = 0; r < t->nrows; r++) {
			double x = text_w(cr, t->cells[(size_t)r * t->ncols + c]) + 12;

			if (x > w[c])
				w[c] = x < 420 ? x : 420;
		}
		total += w[c];
	}
	if (total > avail)
		for (int c = 0; c < t->ncols; c++)
			w[c] *= avail / total;
	w[t->ncols] = total > avail ? avail : total;
	if (b->text && *b->text) {
		pdf_need(p, 14 + 2 * ROW_H);
		pdf_font(cr, 10, 1);
		cairo_set_source_rgb(cr, 0.13, 0.13, 0.13);
		cairo_move_to(cr, PM, p->y + 10);
		cairo_show_text(cr, b->text);
		p->y += 15;
	}
	pdf_need(p, 2 * ROW_H);
	if (t->head[0])
		pdf_row(p, t, head, w, 1);
	for (int r = 0; r < t->nrows; r++) {
		if (p->y + ROW_H > PH - PM) {
			pdf_newpage(p);
			if (t->head[0])
				pdf_row(p, t, head, w, 1);
		}
		pdf_row(p, t, t->cells + (size_t)r * t->ncols, w, 0);
	}
	p->y += 10;
	p->used = 1;
}

static int pdf_chart(struct pdf *p, struct report *rp, const struct blk *b)
{
	struct trax_plot_opts o = b->ch->o;
	struct trax_error e = { 0 };
	double h;
	int ret;

	/* One chart per page; a heading just above stays with it. */
	if (p->used)
		pdf_newpage(p);
	pdf_para(p, b->text, 9, 0, 0);
	h = PH - PM - 14 - p->y;
	o.width = (int)(PW - 2 * PM);
	o.height = (int)h;
	cairo_save(p->cr);
	cairo_translate(p->cr, PM, p->y);
	ret = trax_plot_draw(rp->db, &o, p->cr, NULL, &e);
	cairo_restore(p->cr);
	if (ret == -TRAX_E_EVAL) {
		char msg[1100];

		snprintf(msg, sizeof(msg), "Not drawn: %s", e.msg);
		pdf_para(p, msg, 9.5, 0, 1);
	} else if (ret) {
		*rp->err = e;
		return ret;
	}
	p->used = 1;
	p->y = PH;	/* the page is full */
	return 0;
}

static int write_pdf(struct report *rp, cairo_surface_t *s)
{
	struct pdf p = { .s = s, .y = PM, .page = 1, .title = rp->title };
	int ret = 0;

	p.cr = cairo_create(s);
	{
		cairo_font_options_t *fo = cairo_font_options_create();

		cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
		cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
		cairo_set_font_options(p.cr, fo);
		cairo_font_options_destroy(fo);
	}
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
			p.used = i <= 2;	/* a section heading alone keeps the page open */
			break;
		case B_H3:
			/* Only charts follow these headings: start their page. */
			if (p.used)
				pdf_newpage(&p);
			pdf_para(&p, b->text, 11, 1, 0);
			p.used = 0;
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
			ret = pdf_chart(&p, rp, b);
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
