/* plot/counters.c: step lines of counter tracks (frequency, temperature, memory), one lane each. */
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot-local.h"
#include "util/xalloc.h"

/*
 * A counter sample holds until the next sample of its track (the last one until the trace
 * end), so each track is a step line. Samples are folded per pixel column (first, min, max,
 * last): a column with many samples becomes one vertical stroke over their range, and the
 * cost follows the width, not the sample count.
 */

#define LANE_MIN_H 28
#define LANE_GAP 6

struct track {
	int id, cpu;
	char label[160];
	char unit[16];
};

struct ccol {
	double first, min, max, last;
	int has;
};

static int track_selected(struct chart *c, const char *name, int cpu, const char *zone)
{
	const struct trax_plot_opts *o = c->o;
	char key[64];

	if (cpu >= 0 && (cpu >= c->ncpus || !c->cpu_on[cpu]))
		return 0;
	if (!o->ntracks)
		return 1;
	if (cpu >= 0)
		snprintf(key, sizeof(key), "%d", cpu);
	else
		snprintf(key, sizeof(key), "%s", zone ? zone : "");
	for (int i = 0; i < o->ntracks; i++) {
		const char *colon = strchr(o->tracks[i], ':');
		char pat[256];

		snprintf(pat, sizeof(pat), "%.*s",
			 colon ? (int)(colon - o->tracks[i]) : (int)strlen(o->tracks[i]),
			 o->tracks[i]);
		if (fnmatch(pat, name, 0))
			continue;
		if (!colon || !fnmatch(colon + 1, key, 0))
			return 1;
	}
	return 0;
}

static int load_tracks(struct chart *c, struct track **out, int *n)
{
	sqlite3_stmt *st = NULL;
	struct track *tr = NULL;
	int cap = 0, ret;

	*n = 0;
	if (!ch_table_exists(c->db, "track"))
		return 0;
	ret = ch_prepare(c, "SELECT id, name, cpu, zone, unit, utid FROM track WHERE "
			 "coalesce(buffer, 0) = ?1 ORDER BY name, cpu, zone, utid, id", &st);
	if (ret)
		return ret;
	sqlite3_bind_int(st, 1, c->o->buffer);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const char *zone = (const char *)sqlite3_column_text(st, 3);
		const char *unit = (const char *)sqlite3_column_text(st, 4);
		int cpu = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 :
			  sqlite3_column_int(st, 2);
		struct track *t;

		if (!name || !track_selected(c, name, cpu, zone))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			tr = xrealloc(tr, cap * sizeof(*tr));
		}
		t = &tr[(*n)++];
		t->id = sqlite3_column_int(st, 0);
		t->cpu = cpu;
		if (cpu >= 0)
			snprintf(t->label, sizeof(t->label), "%s · CPU %d", name, cpu);
		else if (zone && *zone)
			snprintf(t->label, sizeof(t->label), "%s · %s", name, zone);
		else if (sqlite3_column_type(st, 5) != SQLITE_NULL)
			snprintf(t->label, sizeof(t->label), "%s · utid %d", name,
				 sqlite3_column_int(st, 5));
		else
			snprintf(t->label, sizeof(t->label), "%s", name);
		snprintf(t->unit, sizeof(t->unit), "%s", unit ? unit : "");
	}
	sqlite3_finalize(st);
	*out = tr;
	return 0;
}

/* One lane: read the track into per-column accumulators, then draw the step line. */
struct span {
	double lo, hi;
};

static double span_frac(const void *sp, double v)
{
	const struct span *s = sp;

	return (v - s->lo) / (s->hi - s->lo);
}

static int draw_track(struct chart *c, const struct track *t, struct ccol *cols, int pw,
		      double x0, double y, double h, int lane, int *drawn)
{
	cairo_t *cr = c->cr;
	sqlite3_stmt *st = NULL;
	double npc = (double)(c->t1 - c->t0) / pw, hold = 0, lo = INFINITY, hi = -INFINITY;
	double cur, xend, rgb[3];
	int has_hold = 0, started = 0, ret, rc;
	int64_t end = c->t1 < c->trace_end ? c->t1 : c->trace_end;
	char buf[64];

	*drawn = 0;
	memset(cols, 0, pw * sizeof(*cols));
	ret = ch_prepare(c, "SELECT value FROM counter WHERE track_id = ?1 AND ts <= ?2 "
			 "ORDER BY ts DESC LIMIT 1", &st);
	if (ret)
		return ret;
	sqlite3_bind_int(st, 1, t->id);
	sqlite3_bind_int64(st, 2, c->t0);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		hold = sqlite3_column_double(st, 0);
		has_hold = 1;
		lo = hi = hold;
	}
	sqlite3_finalize(st);
	ret = ch_prepare(c, "SELECT ts, value FROM counter WHERE track_id = ?1 AND ts > ?2 AND "
			 "ts <= ?3 ORDER BY ts", &st);
	if (ret)
		return ret;
	sqlite3_bind_int(st, 1, t->id);
	sqlite3_bind_int64(st, 2, c->t0);
	sqlite3_bind_int64(st, 3, c->t1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int k = (int)floor((double)(sqlite3_column_int64(st, 0) - c->t0) / npc);
		double v = sqlite3_column_double(st, 1);

		if (sqlite3_column_type(st, 1) == SQLITE_NULL)
			continue;
		if (k >= pw)
			k = pw - 1;
		if (k < 0)
			k = 0;
		if (!cols[k].has) {
			cols[k].first = cols[k].min = cols[k].max = v;
			cols[k].has = 1;
		}
		cols[k].min = v < cols[k].min ? v : cols[k].min;
		cols[k].max = v > cols[k].max ? v : cols[k].max;
		cols[k].last = v;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		if (c->info) {
			c->info->rows++;
			c->info->values++;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return ch_db_error(c, "reading counter");

	ch_hex(cr, CH_LANE_BG);
	cairo_rectangle(cr, x0, y, pw, h);
	cairo_fill(cr);
	ch_font(cr, CH_SMALL_SIZE, 1);
	ch_hex(cr, CH_FG);
	ch_text(cr, x0 + 4, y + 2, 0, 2, t->label);
	if (lo > hi) {
		ch_font(cr, CH_SMALL_SIZE, 0);
		ch_hex(cr, 0x777777);
		ch_text(cr, x0 + pw / 2.0, y + h / 2, 1, 1, "no samples in the window");
		return 0;
	}
	*drawn = 1;
	ch_refs_extend(c, &lo, &hi);
	if (lo == hi) {
		double pad = fabs(lo) > 0 ? fabs(lo) * 0.05 : 1;

		lo -= pad;
		hi += pad;
	}
	ch_font(cr, CH_SMALL_SIZE, 0);
	ch_hex(cr, 0x555555);
	ch_fmt_value(buf, sizeof(buf), hi, t->unit);
	ch_text(cr, x0 - 5, y + 1, 2, 2, buf);
	ch_fmt_value(buf, sizeof(buf), lo, t->unit);
	ch_text(cr, x0 - 5, y + h - 1, 2, 0, buf);

	/* The line keeps 3 units of room at the top and bottom of the lane (and the label). */
#define YV(v) (y + h - 3 - ((v) - lo) / (hi - lo) * (h - 6 - CH_SMALL_SIZE - 2))
	trax_plot_comm_colour(t->label, rgb);
	ch_rgb(cr, rgb);
	cairo_set_line_width(cr, 1.5);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
	cur = hold;
	if (has_hold) {
		cairo_move_to(cr, x0, YV(cur));
		started = 1;
	}
	for (int k = 0; k < pw; k++) {
		double xc = x0 + k + 0.5;

		if (!cols[k].has)
			continue;
		if (started)
			cairo_line_to(cr, xc, YV(cur));
		else
			cairo_move_to(cr, xc, YV(cols[k].first));
		started = 1;
		cairo_line_to(cr, xc, YV(cols[k].first));
		cairo_line_to(cr, xc, YV(cols[k].min));
		cairo_line_to(cr, xc, YV(cols[k].max));
		cairo_line_to(cr, xc, YV(cols[k].last));
		cur = cols[k].last;
	}
	xend = x0 + (double)(end - c->t0) / npc;
	if (started && xend > x0) {
		cairo_line_to(cr, xend, YV(cur));
	}
	cairo_stroke(cr);
#undef YV
	{
		struct span sp = { lo, hi };
		double ph = h - 6 - CH_SMALL_SIZE - 2;

		ch_refs(c, 0, x0, y + h - 3 - ph, pw, ph, span_frac, &sp, lane);
	}
	return 0;
}

int ch_counters(struct chart *c)
{
	cairo_t *cr = c->cr;
	struct track *tr = NULL;
	struct ccol *cols = NULL;
	double x0 = CH_MARGIN + 76, top = CH_TITLE_H + 4, bottom, lane_h;
	int n = 0, shown, pw, ret, any = 0;
	char sub[256];

	ret = load_tracks(c, &tr, &n);
	if (ret)
		return ret;
	if (!n) {
		ret = trax_error_set(c->err, TRAX_E_EVAL, "%s: no counter tracks%s (cpu_frequency, "
				     "cpu_idle, thermal_temperature, ... are not in the trace)",
				     c->trace_name, c->o->ntracks || c->o->cpus ?
				     " match the selection" : "");
		goto out;
	}
	pw = (int)(c->W - x0 - CH_MARGIN);
	bottom = floor(c->H - CH_MARGIN - CH_AXIS_H);
	shown = (int)((bottom - top + LANE_GAP) / (LANE_MIN_H + LANE_GAP));
	if (shown > n)
		shown = n;
	if (shown < 1) {
		ret = trax_error_set(c->err, TRAX_E_USAGE, "the chart is too small for a counter "
				     "lane");
		goto out;
	}
	lane_h = floor((bottom - top - LANE_GAP * (shown - 1)) / shown);
	cols = xmalloc(pw * sizeof(*cols));
	if (shown < n)
		snprintf(sub, sizeof(sub), "%d of %d tracks (select with --track)", shown, n);
	else
		snprintf(sub, sizeof(sub), "%d track%s", n, n > 1 ? "s" : "");
	ch_title(c, "Counters", sub);
	if (c->info) {
		c->info->x = x0;
		c->info->y = top;
		c->info->w = pw;
		c->info->h = shown * (lane_h + LANE_GAP) - LANE_GAP;
		c->info->lanes = xcalloc(shown, sizeof(*c->info->lanes));
		c->info->nlanes = shown;
	}
	for (int i = 0; i < shown; i++) {
		double y = top + i * (lane_h + LANE_GAP);
		int drawn;

		ret = draw_track(c, &tr[i], cols, pw, x0, y, lane_h, i, &drawn);
		if (ret)
			goto out;
		any |= drawn;
		if (c->info)
			c->info->lanes[i] = (struct trax_plot_lane){ tr[i].cpu, x0, y, pw, lane_h };
	}
	ch_time_axis(c, x0, top + shown * (lane_h + LANE_GAP) - LANE_GAP + 2, pw);
	(void)cr;
	(void)any;
out:
	free(cols);
	free(tr);
	return ret;
}
