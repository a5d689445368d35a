/* plot/residency.c: stacked bars of each task's share of each CPU or CPU group in the window. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot-local.h"
#include "util/xalloc.h"

#define LEGEND_W 200

struct group {
	char name[64];
	unsigned char *cpus;	/* ncpus flags */
	int ncpus;
	double busy;		/* ns of non-idle time in the window */
	double *ns;		/* per comm */
};

static int cmp_total(const void *a, const void *b, void *arg)
{
	const double *tot = arg;
	int x = *(const int *)a, y = *(const int *)b;

	if (tot[x] != tot[y])
		return tot[x] < tot[y] ? 1 : -1;
	return x - y;
}

static void fill_rgb(struct chart *c, int comm, double rgb[3])
{
	if (comm < 0) {
		rgb[0] = ((CH_OTHER >> 16) & 0xff) / 255.0;
		rgb[1] = ((CH_OTHER >> 8) & 0xff) / 255.0;
		rgb[2] = (CH_OTHER & 0xff) / 255.0;
	} else {
		ch_task_rgb(c, ch_comm_name(&c->th, comm), rgb);
	}
}

static double pct_frac(const void *ymax, double v)
{
	return v / *(const double *)ymax;
}

int ch_residency(struct chart *c)
{
	const struct trax_plot_opts *o = c->o;
	cairo_t *cr = c->cr;
	struct group *g = NULL;
	sqlite3_stmt *st = NULL;
	double *total = NULL, win = (double)(c->t1 - c->t0), ymax = 0, step;
	int *order = NULL, ng = 0, nc, ntop, ncol, ret, rc;
	double x0 = CH_MARGIN + 50, top = CH_TITLE_H + 10, bottom, pw, slot, bw;
	char buf[128], sub[256] = "";

	ret = ch_threads_load(c);
	if (ret)
		return ret;
	nc = c->th.ncomms;
	g = xcalloc(o->ngroups ? o->ngroups : c->ncpus, sizeof(*g));
	total = xcalloc(nc + 1, sizeof(double));
	order = xmalloc((nc + 1) * sizeof(int));
	if (o->ngroups) {
		for (int i = 0; i < o->ngroups; i++) {
			g[ng].cpus = xmalloc(c->ncpus);
			snprintf(g[ng].name, sizeof(g[ng].name), "%s", o->groups[i].name);
			ret = ch_cpulist_parse(o->groups[i].cpus, g[ng].cpus, c->ncpus, c->err);
			ng++;
			if (ret)
				goto out;
		}
	} else {
		for (int cpu = 0; cpu < c->ncpus; cpu++) {
			if (!c->cpu_on[cpu])
				continue;
			g[ng].cpus = xcalloc(c->ncpus, 1);
			g[ng].cpus[cpu] = 1;
			snprintf(g[ng].name, sizeof(g[ng].name), "CPU %d", cpu);
			ng++;
		}
	}
	for (int i = 0; i < ng; i++) {
		for (int cpu = 0; cpu < c->ncpus; cpu++)
			g[i].ncpus += g[i].cpus[cpu];
		g[i].ns = xcalloc(nc + 1, sizeof(double));
	}
	if (!ng) {
		ret = trax_error_set(c->err, TRAX_E_USAGE, "no CPU selected");
		goto out;
	}
	if (!ch_table_exists(c->db, "sched_slice")) {
		ret = trax_error_set(c->err, TRAX_E_EVAL, "%s: no scheduler slices (the trace has "
				     "no sched_switch events)", c->trace_name);
		goto out;
	}

	/* Sum each task's time per group; the order of rows does not matter. */
	ret = ch_prepare(c, "SELECT cpu, ts, dur, utid, pid FROM sched_slice WHERE ts < ?1 AND "
			 "ts + dur > ?2 AND buffer = ?3", &st);
	if (ret)
		goto out;
	sqlite3_bind_int64(st, 1, c->t1);
	sqlite3_bind_int64(st, 2, c->t0);
	sqlite3_bind_int(st, 3, o->buffer);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int cpu = sqlite3_column_int(st, 0), utid = sqlite3_column_int(st, 3), comm;
		int64_t ts = sqlite3_column_int64(st, 1), e = ts + sqlite3_column_int64(st, 2);
		double ov;

		if (c->info)
			c->info->rows++;
		if (sqlite3_column_int(st, 4) == 0 || cpu < 0 || cpu >= c->ncpus)
			continue;
		if (utid < 0 || utid >= c->th.nutid || !c->th.match[utid])
			continue;
		/* a thread is one entry, under its last name (as on the timeline) */
		comm = ch_comm_at(&c->th, utid, INT64_MAX);
		if (comm < 0)
			continue;
		ov = (double)((e < c->t1 ? e : c->t1) - (ts > c->t0 ? ts : c->t0));
		total[comm] += ov;
		for (int i = 0; i < ng; i++) {
			if (!g[i].cpus[cpu])
				continue;
			g[i].ns[comm] += ov;
			g[i].busy += ov;
		}
	}
	if (rc != SQLITE_DONE) {
		ret = ch_db_error(c, "reading sched_slice");
		goto out;
	}

	ntop = 0;
	for (int k = 0; k < nc; k++)
		if (total[k] > 0)
			order[ntop++] = k;
	if (!ntop) {
		ret = trax_error_set(c->err, TRAX_E_EVAL, "%s: no task ran%s in the window",
				     c->trace_name, o->task ? " that matches --task" : "");
		goto out;
	}
	qsort_r(order, ntop, sizeof(int), cmp_total, total);
	/* The tasks of the palette (the trace's busiest) have their own colour and stack first;
	 * the rest, grey, stack together as "others". */
	ncol = 0;
	for (int k = 0; k < ntop; k++) {
		int comm = order[k];

		if (ch_task_rank(c, ch_comm_name(&c->th, comm)) < 0)
			continue;
		memmove(order + ncol + 1, order + ncol, (k - ncol) * sizeof(int));
		order[ncol++] = comm;
	}
	for (int i = 0; i < ng; i++) {
		double pct = g[i].ncpus ? g[i].busy / (win * g[i].ncpus) * 100 : 0;

		ymax = pct > ymax ? pct : ymax;
	}
	{
		double lo = 0;	/* the axis holds the reference lines too */

		ch_refs_extend(c, &lo, &ymax);
	}
	step = ch_nice_step(ymax > 0 ? ymax : 1, 5);
	ymax = ceil((ymax > 0 ? ymax : 1) / step - 1e-9) * step;
	if (ymax > 100)
		ymax = 100;

	if (o->task)
		snprintf(sub, sizeof(sub), "task %s; ", o->task);
	snprintf(sub + strlen(sub), sizeof(sub) - strlen(sub),
		 "share of the window's time per %s", o->ngroups ? "CPU group" : "CPU");
	ch_title(c, "Residency", sub);
	bottom = floor(c->H - CH_MARGIN - 34);
	pw = c->W - x0 - CH_MARGIN - LEGEND_W;
	slot = pw / ng;
	bw = slot * 0.7 < 80 ? slot * 0.7 : 80;
	if (c->info) {
		c->info->x = x0;
		c->info->y = top;
		c->info->w = pw;
		c->info->h = bottom - top;
	}

	/* Y axis: percent of the window. */
	ch_font(cr, CH_SMALL_SIZE, 0);
	cairo_set_line_width(cr, 1);
	for (double v = 0; v <= ymax + step * 1e-9; v += step) {
		double y = floor(bottom - v / ymax * (bottom - top)) + 0.5;

		ch_hex(cr, CH_GRID);
		cairo_move_to(cr, x0, y);
		cairo_line_to(cr, x0 + pw, y);
		cairo_stroke(cr);
		snprintf(buf, sizeof(buf), "%g %%", v);
		ch_hex(cr, 0x555555);
		ch_text(cr, x0 - 5, y, 2, 1, buf);
	}
	for (int i = 0; i < ng; i++) {
		double x = x0 + slot * i + (slot - bw) / 2, y = bottom, den = win * g[i].ncpus;
		double other = g[i].busy, rgb[3];

		for (int r = 0; r <= ncol; r++) {
			int comm = r < ncol ? order[r] : -1;
			double v = comm >= 0 ? g[i].ns[comm] : other, hh;

			if (comm >= 0)
				other -= v;
			if (v <= den * 1e-9 || den <= 0)
				continue;
			hh = v / den * 100 / ymax * (bottom - top);
			fill_rgb(c, comm, rgb);
			ch_rgb(cr, rgb);
			cairo_rectangle(cr, x, y - hh, bw, hh);
			cairo_fill(cr);
			y -= hh;
			if (comm < 0)
				break;
		}
		ch_hex(cr, CH_FG);
		ch_font(cr, CH_SMALL_SIZE, 0);
		snprintf(buf, sizeof(buf), "%.1f %%", den > 0 ? g[i].busy / den * 100 : 0);
		if (bw >= ch_text_width(cr, buf) * 0.8)
			ch_text(cr, x + bw / 2, y - 3, 1, 0, buf);
		if (ng <= 32 || i % ((ng + 31) / 32) == 0)
			ch_text(cr, x + bw / 2, bottom + 5, 1, 2, g[i].name);
	}
	ch_hex(cr, CH_FG);
	cairo_move_to(cr, x0, bottom + 0.5);
	cairo_line_to(cr, x0 + pw, bottom + 0.5);
	cairo_stroke(cr);
	ch_refs(c, 0, x0, top, pw, bottom - top, pct_frac, &ymax, -1);

	/* Legend: the tasks with their time in the window. */
	{
		double lx = x0 + pw + 16, ly = top;
		int rows = (int)((bottom - top) / 16);

		for (int r = 0; r < ntop && r <= ncol && r < rows; r++) {
			int comm = r < ncol ? order[r] : -1;
			double v = 0, rgb[3];
			char t[64];

			if (comm >= 0)
				v = total[comm];
			else
				for (int k = ncol; k < ntop; k++)
					v += total[order[k]];
			fill_rgb(c, comm, rgb);
			ch_rgb(cr, rgb);
			cairo_rectangle(cr, lx, ly + r * 16 + 2, 10, 10);
			cairo_fill(cr);
			trax_plot_fmt_duration(t, sizeof(t), v, 0);
			if (comm >= 0)
				snprintf(buf, sizeof(buf), "%.22s  %s",
					 ch_comm_name(&c->th, comm), t);
			else
				snprintf(buf, sizeof(buf), "%d other%s  %s", ntop - ncol,
					 ntop - ncol == 1 ? "" : "s", t);
			ch_hex(cr, CH_FG);
			ch_text(cr, lx + 14, ly + r * 16 + 7, 0, 1, buf);
		}
	}
out:
	sqlite3_finalize(st);
	if (g)
		for (int i = 0; i < (o->ngroups ? o->ngroups : c->ncpus); i++) {
			free(g[i].cpus);
			free(g[i].ns);
		}
	free(g);
	free(total);
	free(order);
	return ret;
}
