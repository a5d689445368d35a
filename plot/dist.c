/* plot/dist.c: histogram and CDF of a set of durations (slice lengths, wakeup latency, SQL). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot-local.h"
#include "util/xalloc.h"

/*
 * Values are streamed twice and never held: a first pass for their count and range, a second
 * one to bin them (histogram) or, sorted by SQLite, to accumulate the CDF per pixel column and
 * pick exact percentiles (linear interpolation between closest ranks, as numpy does).
 */

struct src {
	struct chart *c;
	char *sql;		/* owned */
	int filtered;		/* rows carry (value, utid, cpu) to filter in C */
	const char *what;	/* "slice lengths", ... */
};

struct stats {
	uint64_t n, nulls, nonpos;
	double min, max, sum, min_pos;	/* min_pos: the smallest value > 0 (log axes) */
};

static const double pcts[] = { 0.50, 0.90, 0.99 };
#define NPCT 3

static int build_source(struct chart *c, struct src *s)
{
	const struct trax_plot_opts *o = c->o;
	const char *table = "sched_slice", *cond = "pid != 0";

	s->c = c;
	switch (o->durations) {
	case TRAX_DUR_SLICES:
		s->what = "slice lengths";
		break;
	case TRAX_DUR_WAKEUP:
		s->what = "wakeup latency";
		table = "thread_state";
		cond = "state = 'R'";
		break;
	case TRAX_DUR_RUNNABLE:
		s->what = "runnable time";
		table = "thread_state";
		cond = "state IN ('R', 'R+')";
		break;
	case TRAX_DUR_SQL:
		if (!o->sql || !*o->sql)
			return trax_error_set(c->err, TRAX_E_USAGE, "no SQL for the durations");
		if (o->task || o->cpus)
			return trax_error_set(c->err, TRAX_E_USAGE, "--task and --cpus do not "
					      "apply to durations from SQL: filter in the query");
		s->what = "durations from SQL";
		s->sql = xstrdup(o->sql);
		return 0;
	}
	if (!ch_table_exists(c->db, table))
		return trax_error_set(c->err, TRAX_E_EVAL, "%s: no %s table", c->trace_name, table);
	s->filtered = 1;
	s->sql = sqlite3_mprintf("SELECT dur, utid, cpu FROM %s WHERE %s AND buffer = %d AND "
				 "ts >= %lld AND ts < %lld", table, cond, o->buffer,
				 (long long)c->t0, (long long)c->t1);
	if (!s->sql)
		return trax_error_set(c->err, TRAX_E_NOMEM, "out of memory");
	return 0;
}

static void source_release(struct src *s)
{
	if (s->c && s->c->o->durations == TRAX_DUR_SQL)
		free(s->sql);
	else
		sqlite3_free(s->sql);
	s->sql = NULL;
}

/* Prepare one statement of the source, optionally sorted by its first column. */
static int source_open(struct src *s, int sorted, sqlite3_stmt **st)
{
	struct chart *c = s->c;
	const char *tail = NULL;
	char *sql = sorted ? sqlite3_mprintf("SELECT * FROM (%s) ORDER BY 1", s->sql) :
			     sqlite3_mprintf("%s", s->sql);
	int ret = 0;

	if (!sql)
		return trax_error_set(c->err, TRAX_E_NOMEM, "out of memory");
	if (sqlite3_prepare_v2(c->db, sql, -1, st, &tail) != SQLITE_OK) {
		ret = trax_error_set(c->err, s->filtered ? TRAX_E_DB : TRAX_E_USAGE, "%s: %s",
				     s->filtered ? c->trace_name : "SQL", sqlite3_errmsg(c->db));
		*st = NULL;
		goto out;
	}
	while (tail && (isspace((unsigned char)*tail) || *tail == ';'))
		tail++;
	if (!*st || (tail && *tail) || !sqlite3_stmt_readonly(*st) ||
	    sqlite3_column_count(*st) < 1) {
		ret = trax_error_set(c->err, TRAX_E_USAGE, "SQL: want one read-only SELECT whose "
				     "first column is a duration in ns");
		sqlite3_finalize(*st);
		*st = NULL;
	}
out:
	sqlite3_free(sql);
	return ret;
}

/* The next value of the source: 1 and *v, 0 at the end, negative on error. */
static int source_next(struct src *s, sqlite3_stmt *st, double *v, struct stats *stt)
{
	struct chart *c = s->c;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int type = sqlite3_column_type(st, 0);

		if (c->info)
			c->info->rows++;
		if (s->filtered) {
			int utid = sqlite3_column_int(st, 1);

			if (utid < 0 || utid >= c->th.nutid || !c->th.match[utid])
				continue;
			if (c->o->cpus) {
				int cpu = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 :
					  sqlite3_column_int(st, 2);

				if (cpu < 0 || cpu >= c->ncpus || !c->cpu_on[cpu])
					continue;
			}
		}
		if (type == SQLITE_NULL) {
			if (stt)
				stt->nulls++;
			continue;
		}
		if (type != SQLITE_INTEGER && type != SQLITE_FLOAT)
			return trax_error_set(c->err, TRAX_E_USAGE, "SQL: the first column holds "
					      "'%s', not a number", sqlite3_column_text(st, 0));
		*v = sqlite3_column_double(st, 0);
		return 1;
	}
	if (rc != SQLITE_DONE)
		return trax_error_set(c->err, s->filtered ? TRAX_E_DB : TRAX_E_USAGE, "%s: %s",
				      s->filtered ? c->trace_name : "SQL", sqlite3_errmsg(c->db));
	return 0;
}

static int first_pass(struct src *s, struct stats *stt)
{
	sqlite3_stmt *st = NULL;
	double v;
	int ret;

	memset(stt, 0, sizeof(*stt));
	stt->min = INFINITY;
	stt->max = -INFINITY;
	stt->min_pos = INFINITY;
	ret = source_open(s, 0, &st);
	if (ret)
		return ret;
	while ((ret = source_next(s, st, &v, stt)) == 1) {
		stt->n++;
		stt->sum += v;
		stt->min = v < stt->min ? v : stt->min;
		stt->max = v > stt->max ? v : stt->max;
		if (v > 0 && v < stt->min_pos)
			stt->min_pos = v;
		if (v <= 0)
			stt->nonpos++;
	}
	sqlite3_finalize(st);
	return ret;
}

/* The value axis: linear over [lo, hi], or logarithmic over decades [10^lo, 10^hi]. */
struct vaxis {
	int log;
	double lo, hi;		/* values; log10 of values on a log axis */
	double step;		/* linear tick step */
};

/* Where v falls on the axis, 0 .. 1 (values <= 0 sit at the left end of a log axis). */
static double vfrac(const struct vaxis *ax, double v)
{
	if (ax->log)
		v = v > 0 ? log10(v) : ax->lo;
	return (v - ax->lo) / (ax->hi - ax->lo);
}

/* vfrac for ch_refs(). */
static double ref_frac(const void *ax, double v)
{
	return vfrac(ax, v);
}

static void axis_setup(struct vaxis *ax, const struct stats *stt, int log, double pw)
{
	ax->log = log;
	if (log) {
		double mn = stt->min_pos > 0 ? stt->min_pos : 1, mx = stt->max > mn ? stt->max : mn;

		ax->lo = floor(log10(mn));
		ax->hi = ceil(log10(mx));
		if (ax->hi <= ax->lo)
			ax->hi = ax->lo + 1;
		return;
	}
	ax->lo = stt->min;
	ax->hi = stt->max;
	if (ax->hi - ax->lo < 1) {
		ax->lo -= 1;
		ax->hi += 1;
	}
	ax->step = ch_nice_step(ax->hi - ax->lo, (int)(pw / 90) > 1 ? (int)(pw / 90) : 1);
	ax->lo = floor(ax->lo / ax->step) * ax->step;
	ax->hi = ceil(ax->hi / ax->step) * ax->step;
	if (ax->lo > 0 && ax->lo <= ax->step)
		ax->lo = 0;
}

/* Largest 1, 2 or 5 x 10^k not above x: histogram bins no wider than asked. */
static double nice_floor(double x)
{
	double mag = pow(10, floor(log10(x))), f = x / mag;

	return (f >= 5 ? 5 : f >= 2 ? 2 : 1) * mag;
}

/* Bins over an axis: nb bins of width (axis units: values, or decades on a log axis). */
struct binning {
	struct vaxis ax;
	double width;
	int nb;
	uint64_t *cnt;
};

/* The automatic number of bins: sqrt(n), 10 to 100, at most one per 2 units of width. */
static uint64_t auto_bins(const struct stats *stt, double pw)
{
	uint64_t nbins = (uint64_t)ceil(sqrt((double)stt->n));

	if (nbins < 10)
		nbins = 10;
	if (nbins > 100)
		nbins = 100;
	if (nbins > pw / 2)
		nbins = (uint64_t)(pw / 2);
	return nbins ? nbins : 1;
}

/*
 * Bins for a histogram on a linear (log 0) or log axis; bins > 0: exactly that many (over
 * [min, max] on a linear axis), else automatic, of a 1-2-5 width on a linear axis.
 */
static void binning_setup(struct binning *b, const struct stats *stt, int log, int bins,
			  double pw)
{
	uint64_t nbins = bins > 0 ? (uint64_t)bins : auto_bins(stt, pw);

	if (nbins > pw / 2)
		nbins = (uint64_t)(pw / 2);
	if (nbins < 1)
		nbins = 1;
	axis_setup(&b->ax, stt, log, pw);
	if (bins > 0 && !log) {
		/* Exactly the bins asked for, over [min, max]. */
		b->ax.lo = stt->min;
		b->ax.hi = stt->max > stt->min ? stt->max : stt->min + 1;
		b->ax.step = ch_nice_step(b->ax.hi - b->ax.lo, (int)(pw / 90) > 1 ?
					  (int)(pw / 90) : 1);
		b->width = (b->ax.hi - b->ax.lo) / nbins;
	} else if (log) {
		b->width = (b->ax.hi - b->ax.lo) / nbins;	/* in decades */
	} else {
		b->width = nice_floor((b->ax.hi - b->ax.lo) / nbins);
	}
	b->nb = (int)ceil((b->ax.hi - b->ax.lo) / b->width - 1e-9);
	if (b->nb < 1)
		b->nb = 1;
	b->cnt = xcalloc(b->nb, sizeof(*b->cnt));
}

static void binning_add(struct binning *b, double v)
{
	double f = vfrac(&b->ax, v) * (b->ax.hi - b->ax.lo) / b->width;
	int64_t k = (int64_t)floor(f);

	b->cnt[k < 0 ? 0 : k >= b->nb ? b->nb - 1 : k]++;
}

static uint64_t binning_max(const struct binning *b)
{
	uint64_t m = 0;

	for (int k = 0; k < b->nb; k++)
		m = b->cnt[k] > m ? b->cnt[k] : m;
	return m;
}

/*
 * The value axis when the caller does not choose (opts.logx TRAX_PLOT_LOGX_AUTO), the one
 * rule of histograms and CDFs: logarithmic when a linear axis would not show the
 * distribution, i.e. more than half of the values fall into one bin of the automatic linear
 * histogram (a long tail squeezes the rest into one bar), provided the values are positive
 * (fewer than 1 in 10 at or below 0) and span more than a decade. rule: the automatic linear
 * bins, filled.
 */
static int want_log(int logx, const struct stats *stt, const struct binning *rule)
{
	if (logx != TRAX_PLOT_LOGX_AUTO)
		return logx == TRAX_PLOT_LOGX_ON;
	return stt->nonpos * 10 < stt->n && stt->min_pos > 0 && stt->max > 10 * stt->min_pos &&
	       binning_max(rule) * 2 > stt->n;
}

static void tick(struct chart *c, double px, double y, double len, const char *label,
		 double *last_right)
{
	cairo_t *cr = c->cr;
	double tw;

	cairo_move_to(cr, px, y);
	cairo_line_to(cr, px, y + len);
	cairo_stroke(cr);
	if (!label)
		return;
	tw = ch_text_width(cr, label);
	if (px + tw / 2 > c->W - 2)
		px = c->W - 2 - tw / 2;	/* keep the last label inside */
	if (px - tw / 2 > *last_right + 4) {
		ch_text(cr, px, y + 7, 1, 2, label);
		*last_right = px + tw / 2;
	}
}

/* The value axis under the plot area: durations in readable units. */
static void value_axis(struct chart *c, const struct vaxis *ax, double x0, double y, double pw,
		       const char *caption)
{
	cairo_t *cr = c->cr;
	double unit, last_right = -1e9;
	int dec;
	char buf[64];

	ch_hex(cr, CH_FG);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, x0, y + 0.5);
	cairo_line_to(cr, x0 + pw, y + 0.5);
	cairo_stroke(cr);
	ch_font(cr, CH_SMALL_SIZE, 0);
	if (ax->log) {
		for (double d = ax->lo; d <= ax->hi + 1e-9; d++) {
			double v = pow(10, d);

			ch_time_unit(v, v, &unit, &dec);
			ch_fmt_time(buf, sizeof(buf), v, unit, dec);
			tick(c, floor(x0 + vfrac(ax, v) * pw) + 0.5, y, 5, buf, &last_right);
			for (int m = 2; m <= 5 && d < ax->hi; m += 3)
				tick(c, floor(x0 + vfrac(ax, v * m) * pw) + 0.5, y, 3, NULL, NULL);
		}
	} else {
		ch_time_unit(fabs(ax->lo) > fabs(ax->hi) ? ax->lo : ax->hi, ax->step, &unit, &dec);
		for (double v = ceil(ax->lo / ax->step - 1e-9) * ax->step;
		     v <= ax->hi + ax->step * 1e-9; v += ax->step) {
			ch_fmt_time(buf, sizeof(buf), v, unit, dec);
			tick(c, floor(x0 + vfrac(ax, v) * pw) + 0.5, y, 5, buf, &last_right);
		}
	}
	ch_hex(cr, 0x555555);
	ch_text(cr, x0 + pw, y + 7 + CH_SMALL_SIZE + 6, 2, 2, caption);
}

static void y_axis(struct chart *c, double x0, double top, double bottom, double pw, double ymax,
		   double step, int percent)
{
	cairo_t *cr = c->cr;
	char buf[64];

	ch_font(cr, CH_SMALL_SIZE, 0);
	cairo_set_line_width(cr, 1);
	for (double v = 0; v <= ymax + step * 1e-9; v += step) {
		double y = floor(bottom - v / ymax * (bottom - top)) + 0.5;

		ch_hex(cr, CH_GRID);
		cairo_move_to(cr, x0, y);
		cairo_line_to(cr, x0 + pw, y);
		cairo_stroke(cr);
		if (percent)
			snprintf(buf, sizeof(buf), "%g %%", v * 100);
		else
			snprintf(buf, sizeof(buf), "%.0f", v);
		ch_hex(cr, 0x555555);
		ch_text(cr, x0 - 5, y, 2, 1, buf);
	}
}

/* The caption's scale and the subtitle's note of values a log axis puts at its left end. */
static void scale_notes(const struct stats *stt, int log, char *caption, size_t caplen,
			char *sub, size_t sublen)
{
	snprintf(caption + strlen(caption), caplen - strlen(caption), " (%s scale)",
		 log ? "log" : "linear");
	if (log && stt->nonpos)
		snprintf(sub + strlen(sub), sublen - strlen(sub), " (%llu <= 0 at the left)",
			 (unsigned long long)stt->nonpos);
}

static void info_axis(struct chart *c, int log, const struct binning *b)
{
	if (!c->info)
		return;
	c->info->logx = log;
	if (b) {
		c->info->nbins = b->nb;
		c->info->bins = xmalloc(b->nb * sizeof(*c->info->bins));
		memcpy(c->info->bins, b->cnt, b->nb * sizeof(*c->info->bins));
	}
}

static int histogram(struct chart *c, struct src *s, const struct stats *stt, double x0,
		     double top, double bottom, double pw, char *caption, size_t caplen,
		     char *sub, size_t sublen)
{
	const struct trax_plot_opts *o = c->o;
	cairo_t *cr = c->cr;
	sqlite3_stmt *st = NULL;
	struct binning rule = { 0 }, lin = { 0 }, lg = { 0 }, *b;
	double ymax = 0, ystep, v;
	int ret, log;
	char w[32];

	/* Every binning in one pass: the rule's (automatic, linear), and the two axes'. */
	binning_setup(&rule, stt, 0, 0, pw);
	if (o->bins > 0)
		binning_setup(&lin, stt, 0, o->bins, pw);
	binning_setup(&lg, stt, 1, o->bins, pw);
	ret = source_open(s, 0, &st);
	if (ret)
		goto out;
	while ((ret = source_next(s, st, &v, NULL)) == 1) {
		binning_add(&rule, v);
		if (lin.cnt)
			binning_add(&lin, v);
		binning_add(&lg, v);
	}
	if (ret)
		goto out;
	log = want_log(o->logx, stt, &rule);
	b = log ? &lg : lin.cnt ? &lin : &rule;
	info_axis(c, log, b);
	scale_notes(stt, log, caption, caplen, sub, sublen);
	ymax = (double)binning_max(b);
	ystep = ch_nice_step(ymax, 5);
	if (ystep < 1)
		ystep = 1;
	ymax = ceil(ymax / ystep) * ystep;
	if (log)
		snprintf(w, sizeof(w), "%.0f per decade", 1 / b->width);
	else
		trax_plot_fmt_duration(w, sizeof(w), b->width, 0);
	snprintf(sub + strlen(sub), sublen - strlen(sub), "; %d bins%s%s", b->nb,
		 log ? ", " : " of ", w);
	ch_title(c, "Histogram", sub);
	y_axis(c, x0, top, bottom, pw, ymax, ystep, 0);
	cairo_set_source_rgb(cr, 0.25, 0.47, 0.71);
	for (int k = 0; k < b->nb; k++) {
		double span = b->ax.hi - b->ax.lo;
		double xa = x0 + k * b->width / span * pw;
		double xb = x0 + (k + 1) * b->width / span * pw;
		double hh = b->cnt[k] / ymax * (bottom - top);

		if (!b->cnt[k])
			continue;
		if (hh < 1)
			hh = 1;
		cairo_rectangle(cr, xa, bottom - hh, xb - xa > 1.5 ? xb - xa - 0.5 : 1, hh);
	}
	cairo_fill(cr);
	ch_font(cr, CH_SMALL_SIZE, 0);
	ch_hex(cr, 0x555555);
	ch_text(cr, x0 - 5, top - 12, 2, 0, "count");
	value_axis(c, &b->ax, x0, bottom, pw, caption);
	ch_refs(c, 1, x0, top, pw, bottom - top, ref_frac, &b->ax, -1);
out:
	sqlite3_finalize(st);
	free(rule.cnt);
	free(lin.cnt);
	free(lg.cnt);
	return ret;
}

static int cdf(struct chart *c, struct src *s, const struct stats *stt, double x0, double top,
	       double bottom, double pw, char *caption, size_t caplen, char *sub, size_t sublen)
{
	cairo_t *cr = c->cr;
	struct vaxis axes[2], *ax;
	struct binning rule = { 0 };
	sqlite3_stmt *st = NULL;
	double pval[NPCT] = { 0 }, pa[NPCT] = { 0 }, rgb[3] = { 0.25, 0.47, 0.71 }, v;
	uint64_t *cnts[2], *cnt, cum = 0, i = 0, plo[NPCT];
	int cols = (int)pw, ret, log;

	/* Both axes' columns in one pass, and the automatic linear bins the choice reads. */
	binning_setup(&rule, stt, 0, 0, pw);
	for (int a = 0; a < 2; a++) {
		axis_setup(&axes[a], stt, a, pw);
		cnts[a] = xcalloc(cols + 1, sizeof(*cnts[a]));
	}
	for (int k = 0; k < NPCT; k++) {
		double r = pcts[k] * (double)(stt->n - 1);

		plo[k] = (uint64_t)floor(r);
		pa[k] = r - floor(r);
	}
	ret = source_open(s, 1, &st);
	if (ret)
		goto out;
	while ((ret = source_next(s, st, &v, NULL)) == 1) {
		binning_add(&rule, v);
		for (int a = 0; a < 2; a++) {
			int k = (int)floor(vfrac(&axes[a], v) * cols);

			cnts[a][k < 0 ? 0 : k >= cols ? cols - 1 : k]++;
		}
		for (int p = 0; p < NPCT; p++) {
			if (i == plo[p])
				pval[p] = v;
			else if (i == plo[p] + 1)
				pval[p] += pa[p] * (v - pval[p]);
		}
		i++;
	}
	if (ret)
		goto out;
	log = want_log(c->o->logx, stt, &rule);
	ax = &axes[log];
	cnt = cnts[log];
	info_axis(c, log, NULL);
	scale_notes(stt, log, caption, caplen, sub, sublen);
	for (int p = 0; p < NPCT; p++) {
		char t[32];

		trax_plot_fmt_duration(t, sizeof(t), pval[p], 0);
		snprintf(sub + strlen(sub), sublen - strlen(sub), "; p%g %s", pcts[p] * 100, t);
	}
	ch_title(c, "Cumulative distribution", sub);
	y_axis(c, x0, top, bottom, pw, 1, 0.1, 1);
	/* Percentile guides. */
	cairo_set_line_width(cr, 1);
	ch_font(cr, CH_SMALL_SIZE, 0);
	for (int p = 0; p < NPCT; p++) {
		double px = floor(x0 + vfrac(ax, pval[p]) * pw) + 0.5;
		double py = bottom - pcts[p] * (bottom - top);
		char t[48], d[32];
		int right;

		cairo_set_source_rgb(cr, 0.85, 0.45, 0.1);
		cairo_move_to(cr, px, bottom);
		cairo_line_to(cr, px, py);
		cairo_stroke(cr);
		trax_plot_fmt_duration(d, sizeof(d), pval[p], 0);
		snprintf(t, sizeof(t), "p%g %s", pcts[p] * 100, d);
		right = px + 3 + ch_text_width(cr, t) > x0 + pw;
		ch_text(cr, right ? px - 3 : px + 3, py + 3, right ? 2 : 0, 2, t);
	}
	ch_rgb(cr, rgb);
	cairo_set_line_width(cr, 1.5);
	cairo_move_to(cr, x0, bottom);
	for (int k = 0; k < cols; k++) {
		if (!cnt[k])
			continue;
		cairo_line_to(cr, x0 + k, bottom - (double)cum / stt->n * (bottom - top));
		cum += cnt[k];
		cairo_line_to(cr, x0 + k, bottom - (double)cum / stt->n * (bottom - top));
	}
	cairo_line_to(cr, x0 + pw, bottom - (double)cum / stt->n * (bottom - top));
	cairo_stroke(cr);
	value_axis(c, ax, x0, bottom, pw, caption);
	ch_refs(c, 1, x0, top, pw, bottom - top, ref_frac, ax, -1);
out:
	sqlite3_finalize(st);
	free(rule.cnt);
	free(cnts[0]);
	free(cnts[1]);
	return ret;
}

static int distribution(struct chart *c, int is_cdf)
{
	const struct trax_plot_opts *o = c->o;
	struct src s = { 0 };
	struct stats stt;
	double x0 = CH_MARGIN + 56, top = CH_TITLE_H + 22, bottom, pw;
	int ret;
	char sub[512], a[32], b[32], m[32], caption[160];

	ret = ch_threads_load(c);
	if (!ret)
		ret = build_source(c, &s);
	if (!ret)
		ret = first_pass(&s, &stt);
	if (ret)
		goto out;
	if (!stt.n) {
		ret = trax_error_set(c->err, TRAX_E_EVAL, "%s: no %s%s", c->trace_name, s.what,
				     s.filtered ? " in the window" : "");
		goto out;
	}
	if (c->info)
		c->info->values = stt.n;
	bottom = floor(c->H - CH_MARGIN - 36);
	pw = floor(c->W - x0 - CH_MARGIN);
	trax_plot_fmt_duration(a, sizeof(a), stt.min, 0);
	trax_plot_fmt_duration(m, sizeof(m), stt.sum / stt.n, 0);
	trax_plot_fmt_duration(b, sizeof(b), stt.max, 0);
	snprintf(caption, sizeof(caption), "%s%s%s", s.what, o->task ? " of task " : "",
		 o->task ? o->task : "");
	snprintf(sub, sizeof(sub), "n = %llu, min %s, mean %s, max %s",
		 (unsigned long long)stt.n, a, m, b);
	if (c->info) {
		c->info->x = x0;
		c->info->y = top;
		c->info->w = pw;
		c->info->h = bottom - top;
	}
	if (is_cdf)
		ret = cdf(c, &s, &stt, x0, top, bottom, pw, caption, sizeof(caption), sub,
			  sizeof(sub));
	else
		ret = histogram(c, &s, &stt, x0, top, bottom, pw, caption, sizeof(caption), sub,
				sizeof(sub));
out:
	source_release(&s);
	return ret;
}

int ch_histogram(struct chart *c)
{
	return distribution(c, 0);
}

int ch_cdf(struct chart *c)
{
	return distribution(c, 1);
}
