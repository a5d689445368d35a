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

#define GROUP_GAP 6		/* between groups */
#define GROUP_HEAD 13		/* a group's name above its strips */
#define STRIP_GAP 1
#define STRIP_MIN 12		/* a track's strip: height range */
#define STRIP_MAX 80

/*
 * Tracks are drawn in groups, each a block of strips under its name: every CPU's
 * cpu_frequency, then every CPU's cpu_idle, then the other tracks keyed by CPU or zone (a
 * group per name), tracks of nothing, and last the tracks of a thread or process (atrace
 * counters, oom_score_adj, ...), a group per process named by it ("surfaceflinger 594"), each
 * strip by the track and, when not the process's main thread, the thread.
 */
struct track {
	int id, cpu, group;
	char label[320];	/* the whole name: colours, single-track charts */
	char strip[160];	/* the name inside its group */
	char unit[16];
};

struct ccol {
	double first, min, max, last;
	int has;
};

static int has_glob(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '*' || s[i] == '?' || s[i] == '[')
			return 1;
	return 0;
}

/*
 * --track NAME[:KEY]: NAME a glob on the track name; without glob characters, a prefix of it
 * (cpu_freq selects cpu_frequency). KEY a glob on the CPU number or the zone.
 */
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
		size_t n = colon ? (size_t)(colon - o->tracks[i]) : strlen(o->tracks[i]);
		char pat[256];

		snprintf(pat, sizeof(pat), "%.*s", (int)n, o->tracks[i]);
		if (has_glob(pat, strlen(pat)) ? fnmatch(pat, name, 0) != 0 :
						 strncmp(pat, name, strlen(pat)) != 0)
			continue;
		if (!colon || !fnmatch(colon + 1, key, 0))
			return 1;
	}
	return 0;
}

/*
 * Why nothing was selected, naming what the trace has: "no counter track matches --track
 * thermal_temperature:soc (the trace has thermal_temperature of zone soc_thermal, cdev_update
 * of zones devfreq, ...)".
 */
static int no_tracks(struct chart *c)
{
	const struct trax_plot_opts *o = c->o;
	struct strbuf sel = STRBUF_INIT, have = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int n = 0, ret;

	if (ch_table_exists(c->db, "track") &&
	    sqlite3_prepare_v2(c->db, "SELECT name, CASE WHEN count(cpu) THEN 'CPU' || "
			       "CASE WHEN count(DISTINCT cpu) > 1 THEN 's ' ELSE ' ' END || "
			       "group_concat(DISTINCT cpu) WHEN count(zone) THEN 'zone' || CASE "
			       "WHEN count(DISTINCT zone) > 1 THEN 's ' ELSE ' ' END || "
			       "group_concat(DISTINCT zone) WHEN count(utid) THEN count(DISTINCT "
			       "utid) || ' thread(s)' END FROM track WHERE coalesce(buffer, 0) = ?1 "
			       "GROUP BY name ORDER BY name", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int(st, 1, o->buffer);
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *name = (const char *)sqlite3_column_text(st, 0);
			const char *keys = (const char *)sqlite3_column_text(st, 1);

			if (n++ == 8) {
				strbuf_adds(&have, ", ...");
				continue;
			}
			if (n > 8)
				continue;
			strbuf_addf(&have, "%s%s%s%s", n > 1 ? ", " : "", name ? name : "?",
				    keys ? " of " : "", keys ? keys : "");
		}
	}
	sqlite3_finalize(st);
	for (int i = 0; i < o->ntracks; i++)
		strbuf_addf(&sel, "%s%s", i ? ", " : "", o->tracks[i]);
	if (!n)
		ret = trax_error_set(c->err, TRAX_E_EVAL, "%s: no counter tracks (the trace has no "
				     "cpu_frequency, cpu_idle, thermal_temperature or other counter "
				     "events)", c->trace_name);
	else if (o->ntracks)
		ret = trax_error_set(c->err, TRAX_E_EVAL, "%s: no counter track matches "
				     "%s%s%s (the trace has %s)", c->trace_name, sel.buf,
				     o->cpus ? " on CPUs " : "", o->cpus ? o->cpus : "", have.buf);
	else
		ret = trax_error_set(c->err, TRAX_E_EVAL, "%s: no counter track on CPUs %s (the "
				     "trace has %s)", c->trace_name, o->cpus ? o->cpus : "?",
				     have.buf);
	strbuf_release(&sel);
	strbuf_release(&have);
	return ret;
}

static int load_tracks(struct chart *c, struct track **out, int *n, int *ngroups)
{
	sqlite3_stmt *st = NULL;
	struct track *tr = NULL;
	int cap = 0, ret;
	char last_group[128] = "", group[128];

	*n = 0;
	*ngroups = 0;
	if (!ch_table_exists(c->db, "track"))
		return 0;
	/* The process of a thread's track: its tgid's main thread (the track's own thread when
	 * the tgid is unknown). */
	ret = ch_prepare(c, "SELECT t.id, t.name, t.cpu, t.zone, t.unit, t.utid, h.pid, h.comm, "
			 "coalesce(h.tgid, h.pid), (SELECT p.comm FROM thread p WHERE p.pid = "
			 "coalesce(h.tgid, h.pid) ORDER BY p.utid DESC LIMIT 1) FROM track t LEFT "
			 "JOIN thread h ON h.utid = t.utid WHERE coalesce(t.buffer, 0) = ?1 ORDER BY "
			 "t.utid IS NOT NULL, CASE t.name WHEN 'cpu_frequency' THEN 0 WHEN "
			 "'cpu_idle' THEN 1 ELSE 2 END, t.cpu IS NULL, t.zone IS NULL, "
			 "coalesce(h.tgid, h.pid), h.pid, t.name, t.cpu, t.zone, t.id", &st);
	if (ret)
		return ret;
	sqlite3_bind_int(st, 1, c->o->buffer);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const char *zone = (const char *)sqlite3_column_text(st, 3);
		const char *unit = (const char *)sqlite3_column_text(st, 4);
		const char *comm = (const char *)sqlite3_column_text(st, 7);
		const char *pcomm = (const char *)sqlite3_column_text(st, 9);
		int cpu = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 :
			  sqlite3_column_int(st, 2);
		int has_utid = sqlite3_column_type(st, 5) != SQLITE_NULL;
		int pid = sqlite3_column_int(st, 6), tgid = sqlite3_column_int(st, 8);
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
		if (cpu >= 0) {
			snprintf(group, sizeof(group), "%.120s", name);
			snprintf(t->strip, sizeof(t->strip), "CPU %d", cpu);
		} else if (zone && *zone) {
			snprintf(group, sizeof(group), "%.120s", name);
			snprintf(t->strip, sizeof(t->strip), "%.150s", zone);
		} else if (has_utid && sqlite3_column_type(st, 6) != SQLITE_NULL) {
			snprintf(group, sizeof(group), "%.100s %d", pcomm ? pcomm : comm ? comm : "?",
				 tgid);
			if (pid == tgid)
				snprintf(t->strip, sizeof(t->strip), "%s", name);
			else
				snprintf(t->strip, sizeof(t->strip), "%.40s %d: %.100s", comm ? comm : "?",
					 pid, name);
		} else {
			snprintf(group, sizeof(group), "%.120s", name);
			t->strip[0] = '\0';
		}
		if (has_utid && sqlite3_column_type(st, 6) != SQLITE_NULL && pid != tgid)
			snprintf(t->label, sizeof(t->label), "%s/%.60s · %.120s", group, comm ? comm : "?",
				 name);
		else if (*t->strip)
			snprintf(t->label, sizeof(t->label), "%s · %.160s", group, t->strip);
		else
			snprintf(t->label, sizeof(t->label), "%s", group);
		if (*n == 1 || strcmp(group, last_group))
			(*ngroups)++;
		snprintf(last_group, sizeof(last_group), "%s", group);
		t->group = *ngroups - 1;
		snprintf(t->unit, sizeof(t->unit), "%s", unit ? unit : "");
	}
	sqlite3_finalize(st);
	*out = tr;
	return 0;
}

/* Text on a light box at (x, y): readable over the line. */
static void boxed_text(cairo_t *cr, double x, double y, int halign, const char *s)
{
	double w = ch_text_width(cr, s);

	if (halign == 2)
		x -= w;
	cairo_set_source_rgba(cr, 0.957, 0.957, 0.957, 0.8);
	cairo_rectangle(cr, x - 1, y, w + 2, CH_SMALL_SIZE + 1);
	cairo_fill(cr);
	ch_hex(cr, CH_FG);
	ch_text(cr, x, y, 0, 2, s);
}

/* The track's name at the strip's top left, its value range (short strips) at the right. */
static void strip_label(struct chart *c, const struct track *t, double x0, double y, double h,
			const char *range)
{
	cairo_t *cr = c->cr;
	double ty = y + (h >= 30 ? 2 : (h - CH_SMALL_SIZE - 1) / 2);
	ch_font(cr, h >= 16 ? CH_SMALL_SIZE : CH_SMALL_SIZE - 1.5, 1);
	if (*t->strip)
		boxed_text(cr, x0 + 4, ty, 0, t->strip);
	if (range) {
		ch_font(cr, CH_SMALL_SIZE - 1.5, 0);
		boxed_text(cr, c->W - CH_MARGIN - 4, ty, 2, range);
	}
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
	char buf[80], ra[36], rb[36];
	double room;

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
	if (lo > hi) {
		ch_font(cr, CH_SMALL_SIZE - 1, 0);
		ch_hex(cr, 0x777777);
		ch_text(cr, x0 + pw / 2.0, y + h / 2, 1, 1, "no samples in the window");
		strip_label(c, t, x0, y, h, NULL);
		return 0;
	}
	*drawn = 1;
	ch_fmt_value(ra, sizeof(ra), lo, t->unit);
	ch_fmt_value(rb, sizeof(rb), hi, t->unit);
	if (lo == hi)
		snprintf(buf, sizeof(buf), "%s", ra);
	else
		snprintf(buf, sizeof(buf), "%s \u2013 %s", ra, rb);
	/* the axis also holds the rule's reference lines, the label only the data */
	ch_refs_extend(c, &lo, &hi);
	if (lo == hi) {
		double pad = fabs(lo) > 0 ? fabs(lo) * 0.05 : 1;

		lo -= pad;
		hi += pad;
	}
	if (h >= 24) {
		ch_font(cr, CH_SMALL_SIZE, 0);
		ch_hex(cr, 0x555555);
		ch_fmt_value(ra, sizeof(ra), hi, t->unit);
		ch_text(cr, x0 - 5, y + 1, 2, 2, ra);
		ch_fmt_value(ra, sizeof(ra), lo, t->unit);
		ch_text(cr, x0 - 5, y + h - 1, 2, 0, ra);
	}

	/* The line keeps 2 units of room at the top and bottom of the strip, and the label's
	 * height at the top in a tall strip. */
	room = h >= 30 ? CH_SMALL_SIZE + 2 : 0;
#define YV(v) (y + h - 2 - ((v) - lo) / (hi - lo) * (h - 4 - room))
	trax_plot_comm_colour(t->label, rgb);
	ch_rgb(cr, rgb);
	cairo_set_line_width(cr, h >= 24 ? 1.5 : 1);
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
		/* the reference lines on the value scale of the line (YV above) */
		struct span sp = { lo, hi };
		double ph = h - 4 - room;

		ch_refs(c, 0, x0, y + h - 2 - ph, pw, ph, span_frac, &sp, lane);
	}
	strip_label(c, t, x0, y, h, h < 24 ? buf : NULL);
	return 0;
}

int ch_counters(struct chart *c)
{
	cairo_t *cr = c->cr;
	struct track *tr = NULL;
	struct ccol *cols = NULL;
	double x0 = CH_MARGIN + 76, top = CH_TITLE_H + 4, bottom, strip_h, y;
	int n = 0, ng = 0, shown, gshown, pw, ret, g;
	char sub[256];

	ret = load_tracks(c, &tr, &n, &ng);
	if (ret)
		return ret;
	if (!n) {
		ret = no_tracks(c);
		goto out;
	}
	pw = (int)(c->W - x0 - CH_MARGIN);
	bottom = floor(c->H - CH_MARGIN - CH_AXIS_H);
	/* As many whole tracks as fit at STRIP_MIN, in order; strips share what is left. */
	shown = 0;
	gshown = 0;
	for (int i = 0; i < n; i++) {
		int ng2 = gshown + (!i || tr[i].group != tr[i - 1].group);

		if (top + ng2 * (GROUP_HEAD + GROUP_GAP) + (i + 1) * (STRIP_MIN + STRIP_GAP) >
		    bottom + GROUP_GAP)
			break;
		shown = i + 1;
		gshown = ng2;
	}
	if (shown < 1) {
		ret = trax_error_set(c->err, TRAX_E_USAGE, "the chart is too small for a counter "
				     "lane");
		goto out;
	}
	strip_h = floor((bottom - top + GROUP_GAP - gshown * (GROUP_HEAD + GROUP_GAP)) / shown -
			STRIP_GAP);
	if (strip_h > STRIP_MAX)
		strip_h = STRIP_MAX;
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
		c->info->lanes = xcalloc(shown, sizeof(*c->info->lanes));
		c->info->nlanes = shown;
	}
	y = top;
	g = -1;
	for (int i = 0; i < shown; i++) {
		int drawn;

		if (tr[i].group != g) {
			char head[320];

			if (g >= 0)
				y += GROUP_GAP - STRIP_GAP;
			g = tr[i].group;
			/* the group's name: the track's without its strip part */
			snprintf(head, sizeof(head), "%s", tr[i].label);
			if (*tr[i].strip) {
				char *dot = strstr(head, " · ");

				if (dot)
					*dot = '\0';
				if ((dot = strchr(head, '/')) && strchr(tr[i].strip, ':'))
					*dot = '\0';
			}
			ch_font(cr, CH_SMALL_SIZE, 1);
			ch_hex(cr, CH_FG);
			ch_text(cr, x0, y, 0, 2, head);
			y += GROUP_HEAD;
		}
		ch_info_name(c->info, tr[i].label);
		ret = draw_track(c, &tr[i], cols, pw, x0, y, strip_h, i, &drawn);
		if (ret)
			goto out;
		if (c->info)
			c->info->lanes[i] = (struct trax_plot_lane){ tr[i].cpu, x0, y, pw,
								     strip_h };
		y += strip_h + STRIP_GAP;
	}
	if (c->info)
		c->info->h = y - STRIP_GAP - top;
	ch_time_axis(c, x0, y - STRIP_GAP + 2, pw);
out:
	free(cols);
	free(tr);
	return ret;
}
