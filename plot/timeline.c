/* plot/timeline.c: one lane per CPU, task slices per pixel column, markers over the lanes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot-local.h"
#include "util/xalloc.h"

/*
 * Decimation: the cost follows pixels, not events. Slices are streamed from SQLite and folded
 * into one accumulator per lane and pixel column: the busy fraction of the column (an interval
 * covering part of a column adds its overlap) and the task that ran longest in it. A column
 * where anything ran is drawn at least one pixel high, however short the slice; its height is
 * the busy fraction of the lane height, so coverage is right to within one pixel.
 */

#define GREY_COMM (-2)		/* slices of tasks --task did not select */
#define LEGEND_ROW 16
#define LEGEND_ROWS 2
#define MARK_BAND 14

struct col {
	float busy;		/* fraction of the column's time something ran */
	float cur, best;	/* the run of the current task, the longest run so far */
	int cur_comm, best_comm;
};

struct lane_acc {
	int cpu;
	struct col *cols;
};

struct tl {
	struct chart *c;
	int pw;			/* plot width in columns */
	double npc;		/* ns per column */
	int *lane_of;		/* per CPU: lane index or -1 */
	struct lane_acc *lanes;
	int nlanes;
	double *comm_ns;	/* per comm: time drawn in the window (legend order) */
};

static void add_slice(struct tl *t, struct lane_acc *l, int64_t s, int64_t e, int comm)
{
	double fs = (double)(s - t->c->t0) / t->npc, fe = (double)(e - t->c->t0) / t->npc;
	int a = (int)floor(fs), b = (int)ceil(fe) - 1;

	if (a < 0)
		a = 0;
	if (b >= t->pw)
		b = t->pw - 1;
	for (int k = a; k <= b; k++) {
		struct col *col = &l->cols[k];
		double lo = fs > k ? fs : k, hi = fe < k + 1 ? fe : k + 1;
		float f = (float)(hi - lo);

		if (f <= 0)
			continue;
		col->busy += f;
		if (col->cur_comm == comm && col->cur > 0) {
			col->cur += f;
		} else {
			col->cur_comm = comm;
			col->cur = f;
		}
		if (col->cur > col->best || (col->cur == col->best && comm < col->best_comm)) {
			col->best = col->cur;
			col->best_comm = comm;
		}
	}
}

static int row(struct tl *t, sqlite3_stmt *st)
{
	struct chart *c = t->c;
	int cpu = sqlite3_column_int(st, 0), utid, comm;
	int64_t ts = sqlite3_column_int64(st, 1), dur = sqlite3_column_int64(st, 2);
	int64_t s = ts > c->t0 ? ts : c->t0, e = ts + dur < c->t1 ? ts + dur : c->t1;

	if (cpu < 0 || cpu >= c->ncpus || t->lane_of[cpu] < 0)
		return 0;
	if (sqlite3_column_int(st, 4) == 0 || e <= s)
		return 0;	/* the idle task: blank */
	utid = sqlite3_column_int(st, 3);
	comm = ch_comm_at(&c->th, utid, ts);
	if (comm < 0)
		comm = GREY_COMM;
	else if (!c->th.match[utid])
		comm = GREY_COMM;
	else
		t->comm_ns[comm] += (double)(e - s);
	add_slice(t, &t->lanes[t->lane_of[cpu]], s, e, comm);
	return 1;
}

/* Stream the slices of the window: one ordered range scan per CPU for narrow windows or few
 * CPUs (index sched_slice(cpu, ts)); one pass over the table otherwise, which is several times
 * faster than walking the index when most rows are wanted. */
static int stream(struct tl *t)
{
	struct chart *c = t->c;
	sqlite3_stmt *st = NULL, *lo = NULL;
	int64_t span = c->trace_end - c->trace_start;
	int ret = 0, rc;

	if ((c->t1 - c->t0) * 4 < span || t->nlanes * 4 <= c->ncpus) {
		if ((ret = ch_prepare(c, "SELECT max(ts) FROM sched_slice WHERE cpu = ?1 AND "
				      "ts <= ?2 AND buffer = ?3", &lo)) ||
		    (ret = ch_prepare(c, "SELECT cpu, ts, dur, utid, pid FROM sched_slice WHERE "
				      "cpu = ?1 AND ts >= ?2 AND ts < ?3 AND buffer = ?4 "
				      "ORDER BY ts", &st)))
			goto out;
		for (int i = 0; i < t->nlanes; i++) {
			int64_t from = c->t0;

			sqlite3_bind_int(lo, 1, t->lanes[i].cpu);
			sqlite3_bind_int64(lo, 2, c->t0);
			sqlite3_bind_int(lo, 3, c->o->buffer);
			if (sqlite3_step(lo) == SQLITE_ROW &&
			    sqlite3_column_type(lo, 0) != SQLITE_NULL)
				from = sqlite3_column_int64(lo, 0);
			sqlite3_reset(lo);
			sqlite3_bind_int(st, 1, t->lanes[i].cpu);
			sqlite3_bind_int64(st, 2, from);
			sqlite3_bind_int64(st, 3, c->t1);
			sqlite3_bind_int(st, 4, c->o->buffer);
			while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
				row(t, st);
				if (c->info)
					c->info->rows++;
			}
			if (rc != SQLITE_DONE) {
				ret = ch_db_error(c, "reading sched_slice");
				goto out;
			}
			sqlite3_reset(st);
		}
	} else {
		if ((ret = ch_prepare(c, "SELECT cpu, ts, dur, utid, pid FROM sched_slice WHERE "
				      "ts < ?1 AND ts + dur > ?2 AND buffer = ?3", &st)))
			goto out;
		sqlite3_bind_int64(st, 1, c->t1);
		sqlite3_bind_int64(st, 2, c->t0);
		sqlite3_bind_int(st, 3, c->o->buffer);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			row(t, st);
			if (c->info)
				c->info->rows++;
		}
		if (rc != SQLITE_DONE)
			ret = ch_db_error(c, "reading sched_slice");
	}
out:
	sqlite3_finalize(st);
	sqlite3_finalize(lo);
	return ret;
}

static void comm_rgb(struct chart *c, int comm, double rgb[3])
{
	if (comm < 0) {
		rgb[0] = ((CH_OTHER >> 16) & 0xff) / 255.0;
		rgb[1] = ((CH_OTHER >> 8) & 0xff) / 255.0;
		rgb[2] = (CH_OTHER & 0xff) / 255.0;
	} else {
		ch_task_rgb(c, ch_comm_name(&c->th, comm), rgb);
	}
}

static void draw_lane(struct tl *t, struct lane_acc *l, double x, double y, double h)
{
	cairo_t *cr = t->c->cr;
	int k = 0;

	ch_hex(cr, CH_LANE_BG);
	cairo_rectangle(cr, x, y, t->pw, h);
	cairo_fill(cr);
	while (k < t->pw) {
		struct col *col = &l->cols[k];
		int px, comm, run = 1;
		double rgb[3];

		if (col->busy <= 0) {
			k++;
			continue;
		}
		px = (int)lround((col->busy > 1 ? 1 : col->busy) * h);
		if (px < 1)
			px = 1;
		comm = col->best_comm;
		/* Merge columns of the same colour and height into one rectangle. */
		while (k + run < t->pw) {
			struct col *n = &l->cols[k + run];
			int npx;

			if (n->busy <= 0 || n->best_comm != comm)
				break;
			npx = (int)lround((n->busy > 1 ? 1 : n->busy) * h);
			if ((npx < 1 ? 1 : npx) != px)
				break;
			run++;
		}
		comm_rgb(t->c, comm, rgb);
		ch_rgb(cr, rgb);
		cairo_rectangle(cr, x + k, y + h - px, run, px);
		cairo_fill(cr);
		k += run;
	}
}

static int cmp_comm_ns(const void *a, const void *b, void *arg)
{
	const double *ns = arg;
	int x = *(const int *)a, y = *(const int *)b;

	if (ns[x] != ns[y])
		return ns[x] < ns[y] ? 1 : -1;
	return x - y;
}

static void draw_legend(struct tl *t, double x, double y, double w)
{
	struct chart *c = t->c;
	cairo_t *cr = c->cr;
	int n = 0, *order = malloc((c->th.ncomms + 1) * sizeof(int)), row = 0, shown = 0;
	double cx = x;
	char buf[128];

	if (!order)
		return;
	for (int i = 0; i < c->th.ncomms; i++)
		if (t->comm_ns[i] > 0)
			order[n++] = i;
	qsort_r(order, n, sizeof(int), cmp_comm_ns, t->comm_ns);
	ch_font(cr, CH_SMALL_SIZE, 0);
	for (int i = 0; i <= n; i++) {
		double rgb[3], iw;
		int comm = i < n ? order[i] : GREY_COMM;

		if (i == n && !c->th.any_filter)
			break;
		snprintf(buf, sizeof(buf), "%s", i < n ? ch_comm_name(&c->th, comm) :
			 "tasks not selected");
		iw = 14 + ch_text_width(cr, buf) + 12;
		if (cx + iw > x + w && cx > x) {
			if (++row >= LEGEND_ROWS)
				break;
			cx = x;
		}
		if (row == LEGEND_ROWS - 1 && i < n - 1 && cx + iw + 90 > x + w &&
		    n - i > 1) {
			/* Keep room on the last row for the count of the others. */
			if (cx + iw > x + w - 90)
				break;
		}
		comm_rgb(c, comm, rgb);
		ch_rgb(cr, rgb);
		cairo_rectangle(cr, cx, y + row * LEGEND_ROW + 2, 10, 10);
		cairo_fill(cr);
		ch_hex(cr, CH_FG);
		ch_text(cr, cx + 14, y + row * LEGEND_ROW + 7, 0, 1, buf);
		cx += iw;
		if (i < n)
			shown++;
	}
	if (shown < n) {
		snprintf(buf, sizeof(buf), "+%d more", n - shown);
		ch_hex(cr, 0x555555);
		ch_text(cr, x + w, y + (LEGEND_ROWS - 1) * LEGEND_ROW + 7, 2, 1, buf);
	}
	free(order);
}

/* X of an absolute time in the plot area. */
static double xof(struct tl *t, double x0, int64_t ts)
{
	return x0 + (double)(ts - t->c->t0) / t->npc;
}

static int count_rows(struct chart *c, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int n = 0;

	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, c->t0);
		sqlite3_bind_int64(st, 2, c->t1);
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int(st, 0);
	}
	sqlite3_finalize(st);
	return n;
}

/* Trace markers (print), kills and rule windows over the lanes [ytop, ybot]. */
static void draw_markers(struct tl *t, double x0, double ytop, double ybot, double band_y)
{
	struct chart *c = t->c;
	const struct trax_plot_opts *o = c->o;
	cairo_t *cr = c->cr;
	sqlite3_stmt *st = NULL;
	double last_label = -1e9, last_x = -1e9;
	static const double dash[2] = { 4, 3 };
	char buf[160];

	for (int i = 0; i < o->nspans; i++) {
		int64_t s = o->spans[i].start > c->t0 ? o->spans[i].start : c->t0;
		int64_t e = o->spans[i].end < c->t1 ? o->spans[i].end : c->t1;
		double xs, xe;

		if (e <= s)
			continue;
		xs = xof(t, x0, s);
		xe = xof(t, x0, e);
		cairo_set_source_rgba(cr, 0.95, 0.6, 0.1, 0.18);
		cairo_rectangle(cr, xs, ytop, xe - xs > 1 ? xe - xs : 1, ybot - ytop);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 0.8, 0.45, 0.0);
		cairo_set_line_width(cr, 1);
		cairo_rectangle(cr, xs, ytop, xe - xs > 1 ? xe - xs : 1, ybot - ytop);
		cairo_stroke(cr);
		if (o->spans[i].label) {
			ch_font(cr, CH_SMALL_SIZE, 1);
			ch_text(cr, xs + 3, ytop + 2, 0, 2, o->spans[i].label);
		}
	}
	if ((o->markers & TRAX_PLOT_MARK_PRINT) && ch_table_exists(c->db, "print") &&
	    sqlite3_prepare_v2(c->db, ch_column_exists(c->db, "print", "buf") ?
			       "SELECT ts, CAST(buf AS TEXT) FROM print WHERE ts >= ?1 AND "
			       "ts <= ?2 ORDER BY ts LIMIT 5000" :
			       "SELECT ts, NULL FROM print WHERE ts >= ?1 AND ts <= ?2 ORDER BY ts "
			       "LIMIT 5000", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, c->t0);
		sqlite3_bind_int64(st, 2, c->t1);
		ch_font(cr, CH_SMALL_SIZE - 1, 0);
		cairo_set_line_width(cr, 1);
		while (sqlite3_step(st) == SQLITE_ROW) {
			double x = floor(xof(t, x0, sqlite3_column_int64(st, 0))) + 0.5;
			const char *txt = (const char *)sqlite3_column_text(st, 1);
			size_t l;

			if (x == last_x)
				continue;	/* one line per pixel column */
			last_x = x;
			/* A dashed dark line over the lanes under a purple tick in the band. */
			cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, 0.85);
			cairo_set_dash(cr, dash, 2, 0);
			cairo_move_to(cr, x, ytop);
			cairo_line_to(cr, x, ybot);
			cairo_stroke(cr);
			cairo_set_dash(cr, NULL, 0, 0);
			cairo_set_source_rgb(cr, 0.45, 0.2, 0.7);
			cairo_move_to(cr, x - 4, band_y + MARK_BAND - 9);
			cairo_line_to(cr, x + 4, band_y + MARK_BAND - 9);
			cairo_line_to(cr, x, band_y + MARK_BAND - 2);
			cairo_close_path(cr);
			cairo_fill(cr);
			snprintf(buf, sizeof(buf), "%s", txt ? txt : "");
			l = strlen(buf);
			while (l && (buf[l - 1] == '\n' || buf[l - 1] == ' '))
				buf[--l] = '\0';
			if (l > 24)
				memcpy(buf + 21, "...", 4);
			if (l && x > last_label) {
				ch_text(cr, x + 6, band_y, 0, 2, buf);
				last_label = x + 6 + ch_text_width(cr, buf) + 6;
			}
		}
		sqlite3_finalize(st);
		st = NULL;
	}
	if ((o->markers & TRAX_PLOT_MARK_KILL) && ch_table_exists(c->db, "kill") &&
	    sqlite3_prepare_v2(c->db, "SELECT ts, comm, pid FROM kill WHERE ts >= ?1 AND ts <= ?2 "
			       "ORDER BY ts LIMIT 5000", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, c->t0);
		sqlite3_bind_int64(st, 2, c->t1);
		ch_font(cr, CH_SMALL_SIZE - 1, 1);
		while (sqlite3_step(st) == SQLITE_ROW) {
			double x = floor(xof(t, x0, sqlite3_column_int64(st, 0))) + 0.5;
			const char *comm = (const char *)sqlite3_column_text(st, 1);

			cairo_set_source_rgb(cr, 0.85, 0.1, 0.1);
			cairo_set_line_width(cr, 1.5);
			cairo_move_to(cr, x, ytop);
			cairo_line_to(cr, x, ybot);
			cairo_stroke(cr);
			cairo_move_to(cr, x - 5, band_y + MARK_BAND - 10);
			cairo_line_to(cr, x + 5, band_y + MARK_BAND - 10);
			cairo_line_to(cr, x, band_y + MARK_BAND - 2);
			cairo_close_path(cr);
			cairo_fill(cr);
			snprintf(buf, sizeof(buf), "kill %s:%d", comm ? comm : "?",
				 sqlite3_column_int(st, 2));
			if (x > last_label) {
				ch_text(cr, x + 6, band_y, 0, 2, buf);
				last_label = x + 6 + ch_text_width(cr, buf) + 6;
			}
		}
		sqlite3_finalize(st);
	}
}

int ch_timeline(struct chart *c)
{
	const struct trax_plot_opts *o = c->o;
	cairo_t *cr = c->cr;
	struct tl t = { .c = c };
	struct col *cols = NULL;
	double x0 = CH_MARGIN + 52, top, bottom, avail, lane_h, gap, ytop;
	int ret, marks = 0, step_label;
	char sub[256] = "", buf[64];

	ret = ch_threads_load(c);
	if (ret)
		return ret;
	if (!ch_table_exists(c->db, "sched_slice") ||
	    count_rows(c, "SELECT count(*) FROM (SELECT 1 FROM sched_slice LIMIT 1)") == 0)
		return trax_error_set(c->err, TRAX_E_EVAL, "%s: no scheduler slices to draw "
				      "(the trace has no sched_switch events)", c->trace_name);
	t.pw = (int)(c->W - x0 - CH_MARGIN);
	t.npc = (double)(c->t1 - c->t0) / t.pw;
	t.lane_of = xmalloc(c->ncpus * sizeof(int));
	t.lanes = xcalloc(c->ncpus, sizeof(*t.lanes));
	t.comm_ns = xcalloc(c->th.ncomms + 1, sizeof(double));
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		t.lane_of[cpu] = -1;
		if (c->cpu_on[cpu]) {
			t.lane_of[cpu] = t.nlanes;
			t.lanes[t.nlanes++].cpu = cpu;
		}
	}
	if (!t.nlanes) {
		ret = trax_error_set(c->err, TRAX_E_USAGE, "no CPU selected");
		goto out;
	}
	cols = xmalloc((size_t)t.nlanes * t.pw * sizeof(*cols));
	for (size_t i = 0; i < (size_t)t.nlanes * t.pw; i++)
		cols[i] = (struct col){ 0, 0, 0, GREY_COMM - 1, GREY_COMM - 1 };
	for (int i = 0; i < t.nlanes; i++)
		t.lanes[i].cols = cols + (size_t)i * t.pw;
	ret = stream(&t);
	if (ret)
		goto out;

	/* Layout: title, marker band, lanes, axis, legend. */
	if ((o->markers & TRAX_PLOT_MARK_PRINT) && ch_table_exists(c->db, "print"))
		marks += count_rows(c, "SELECT count(*) FROM print WHERE ts >= ?1 AND ts <= ?2");
	if ((o->markers & TRAX_PLOT_MARK_KILL) && ch_table_exists(c->db, "kill"))
		marks += count_rows(c, "SELECT count(*) FROM kill WHERE ts >= ?1 AND ts <= ?2");
	top = CH_TITLE_H + (marks ? MARK_BAND : 4);
	bottom = floor(c->H - CH_MARGIN - LEGEND_ROWS * LEGEND_ROW - 6 - CH_AXIS_H);
	avail = bottom - top;
	lane_h = avail / t.nlanes;
	gap = lane_h >= 14 ? 3 : lane_h >= 5 ? 1 : 0;
	lane_h = floor((avail - gap * (t.nlanes - 1)) / t.nlanes);
	if (lane_h < 1) {
		ret = trax_error_set(c->err, TRAX_E_USAGE, "%d CPU lanes do not fit in a %gx%g "
				     "chart: make it taller or select fewer CPUs", t.nlanes, c->W,
				     c->H);
		goto out;
	}
	if (o->task)
		snprintf(sub, sizeof(sub), "task %s", o->task);
	if (o->cpus)
		snprintf(sub + strlen(sub), sizeof(sub) - strlen(sub), "%sCPUs %s",
			 *sub ? ", " : "", o->cpus);
	ch_title(c, "CPU timeline", sub);

	if (c->info) {
		c->info->x = x0;
		c->info->y = top;
		c->info->w = t.pw;
		c->info->h = t.nlanes * (lane_h + gap) - gap;
		c->info->lanes = xcalloc(t.nlanes, sizeof(*c->info->lanes));
		c->info->nlanes = t.nlanes;
	}
	ch_font(cr, CH_SMALL_SIZE, 0);
	step_label = lane_h >= CH_SMALL_SIZE ? 1 : (int)ceil(CH_SMALL_SIZE / (lane_h + gap));
	for (int i = 0; i < t.nlanes; i++) {
		double y = top + i * (lane_h + gap);

		draw_lane(&t, &t.lanes[i], x0, y, lane_h);
		if (c->info)
			c->info->lanes[i] = (struct trax_plot_lane){ t.lanes[i].cpu, x0, y, t.pw,
								     lane_h };
		if (i % step_label == 0) {
			snprintf(buf, sizeof(buf), "CPU %d", t.lanes[i].cpu);
			ch_hex(cr, CH_FG);
			ch_text(cr, x0 - 6, y + lane_h / 2, 2, 1, buf);
		}
	}
	ytop = top;
	bottom = top + t.nlanes * (lane_h + gap) - gap;
	draw_markers(&t, x0, ytop, bottom, CH_TITLE_H);
	ch_time_axis(c, x0, bottom + 2, t.pw);
	draw_legend(&t, x0, bottom + 2 + CH_AXIS_H + 4, t.pw);
out:
	free(cols);
	free(t.lane_of);
	free(t.lanes);
	free(t.comm_ns);
	return ret;
}
