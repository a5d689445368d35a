/*
 * plot/timeline.c: one lane per CPU, task slices per pixel column; atrace slices in one row per
 * thread under the lanes; plain trace markers and kills as ticks with labels over the lanes.
 */
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
#define LABEL_H 11		/* a row of marker labels */
#define TICK_H 7		/* the tick under the labels */
#define MAX_MARKS 5000		/* markers read per chart */
#define SROW_MIN 10		/* an atrace slice row: height range */
#define SROW_MAX 26
#define SROW_GAP 2
#define SLICE_LEVELS 4		/* nesting levels drawn per row; deeper ones share the last */
#define SLICE_EXACT 20000	/* up to this many slices in the window: one rectangle each */

/*
 * Thread identity: a thread is one entry of the legend whatever names it had, coloured by its
 * last name. Its names in the order it took them (each once, the last name last) are the key:
 * threads with the same names share an entry, "sh → rt-app (1234)", or "(3 threads)" when
 * they are several pids.
 */
struct ident {
	int *names, n;		/* comm indices, names[n - 1] the last name */
	int pid, nthreads, multi;
	unsigned hash;
};

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
	int *ident_of;		/* per utid: index into ids, -1 not yet known */
	struct ident *ids;
	int nids, cids;
	int *ihash, ihash_cap;	/* open addressing over ids, -1 empty */
	double *id_ns;		/* per ident: time drawn in the window (legend order) */
};

static unsigned names_hash(const int *v, int n)
{
	unsigned h = 2166136261u;

	for (int i = 0; i < n; i++)
		h = (h ^ (unsigned)v[i]) * 16777619u;
	return h;
}

static void ihash_put(struct tl *t, int id)
{
	unsigned k = t->ids[id].hash & (unsigned)(t->ihash_cap - 1);

	while (t->ihash[k] >= 0)
		k = (k + 1) & (unsigned)(t->ihash_cap - 1);
	t->ihash[k] = id;
}

/* The identity of a thread (an index into t->ids), made on first use. */
static int ident_of(struct tl *t, int utid)
{
	const struct ch_threads *th = &t->c->th;
	const struct ch_comm_at *at;
	int *v, n = 0, last, id;
	unsigned h, k;

	if (utid < 0 || utid >= th->nutid || !th->count[utid])
		return GREY_COMM;
	if (t->ident_of[utid] >= 0)
		return t->ident_of[utid];
	at = th->at + th->first[utid];
	last = at[th->count[utid] - 1].comm;
	v = xmalloc(th->count[utid] * sizeof(int));
	for (int i = 0; i < th->count[utid]; i++) {
		int seen = at[i].comm == last;

		for (int j = 0; j < n && !seen; j++)
			seen = v[j] == at[i].comm;
		if (!seen)
			v[n++] = at[i].comm;
	}
	v[n++] = last;
	h = names_hash(v, n);
	for (k = h & (unsigned)(t->ihash_cap - 1); t->ihash_cap && t->ihash[k] >= 0;
	     k = (k + 1) & (unsigned)(t->ihash_cap - 1)) {
		struct ident *e = &t->ids[t->ihash[k]];

		if (e->hash == h && e->n == n && !memcmp(e->names, v, n * sizeof(int))) {
			free(v);
			id = t->ihash[k];
			e->nthreads++;
			e->multi |= e->pid != th->pid[utid];
			return t->ident_of[utid] = id;
		}
	}
	if (t->nids == t->cids) {
		t->cids = t->cids ? t->cids * 2 : 64;
		t->ids = xrealloc(t->ids, t->cids * sizeof(*t->ids));
		t->id_ns = xrealloc(t->id_ns, t->cids * sizeof(double));
	}
	id = t->nids++;
	t->ids[id] = (struct ident){ v, n, th->pid[utid], 1, 0, h };
	t->id_ns[id] = 0;
	if (t->nids * 2 > t->ihash_cap) {
		t->ihash_cap = t->ihash_cap ? t->ihash_cap * 2 : 128;
		free(t->ihash);
		t->ihash = xmalloc(t->ihash_cap * sizeof(int));
		for (int i = 0; i < t->ihash_cap; i++)
			t->ihash[i] = -1;
		for (int i = 0; i < t->nids; i++)
			ihash_put(t, i);
	} else {
		ihash_put(t, id);
	}
	return t->ident_of[utid] = id;
}

/* "sh → rt-app (1234)", "kworker/0:1 (3 threads)". */
static void ident_label(struct tl *t, int id, char *buf, size_t len)
{
	const struct ident *e = &t->ids[id];
	size_t l = 0;

	buf[0] = '\0';
	for (int i = 0; i < e->n && l + 1 < len; i++) {
		snprintf(buf + l, len - l, "%s%s", i ? " \u2192 " : "",
			 ch_comm_name(&t->c->th, e->names[i]));
		l = strlen(buf);
	}
	if (e->multi)
		snprintf(buf + l, len - l, " (%d threads)", e->nthreads);
	else if (e->pid >= 0)
		snprintf(buf + l, len - l, " (%d)", e->pid);
}

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
	int cpu = sqlite3_column_int(st, 0), utid, id;
	int64_t ts = sqlite3_column_int64(st, 1), dur = sqlite3_column_int64(st, 2);
	int64_t s = ts > c->t0 ? ts : c->t0, e = ts + dur < c->t1 ? ts + dur : c->t1;

	if (cpu < 0 || cpu >= c->ncpus || t->lane_of[cpu] < 0)
		return 0;
	if (sqlite3_column_int(st, 4) == 0 || e <= s)
		return 0;	/* the idle task: blank */
	utid = sqlite3_column_int(st, 3);
	/* A thread --task did not select joins no identity: it is not counted in the legend's
	 * "(N threads)" of a selected one with the same names. */
	id = utid >= 0 && utid < c->th.nutid && c->th.match[utid] ? ident_of(t, utid) : GREY_COMM;
	if (id >= 0)
		t->id_ns[id] += (double)(e - s);
	add_slice(t, &t->lanes[t->lane_of[cpu]], s, e, id);
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

/* An identity's colour: the one of its last name. */
static void comm_rgb(struct tl *t, int id, double rgb[3])
{
	if (id < 0) {
		rgb[0] = ((CH_OTHER >> 16) & 0xff) / 255.0;
		rgb[1] = ((CH_OTHER >> 8) & 0xff) / 255.0;
		rgb[2] = (CH_OTHER & 0xff) / 255.0;
	} else {
		const struct ident *e = &t->ids[id];

		ch_task_rgb(t->c, ch_comm_name(&t->c->th, e->names[e->n - 1]), rgb);
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
		comm_rgb(t, comm, rgb);
		ch_rgb(cr, rgb);
		cairo_rectangle(cr, x + k, y + h - px, run, px);
		cairo_fill(cr);
		k += run;
	}
}

static int elide(cairo_t *cr, char *s, size_t len, double maxw);

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
	int n = 0, *order = malloc((t->nids + 1) * sizeof(int)), row = 0, shown = 0, grey = 0;
	double cx = x;
	char buf[160];

	if (!order)
		return;
	/* the threads with a colour of their own, busiest first; the grey ones are one entry */
	for (int i = 0; i < t->nids; i++) {
		const struct ident *e = &t->ids[i];

		if (t->id_ns[i] <= 0)
			continue;
		if (ch_task_rank(c, ch_comm_name(&c->th, e->names[e->n - 1])) < 0)
			grey++;
		else
			order[n++] = i;
	}
	qsort_r(order, n, sizeof(int), cmp_comm_ns, t->id_ns);
	ch_font(cr, CH_SMALL_SIZE, 0);
	for (int i = 0; i <= n + 1; i++) {
		double rgb[3], iw;
		int comm = i < n ? order[i] : GREY_COMM;

		if (i == n && !grey)
			continue;
		if (i == n + 1 && !c->th.any_filter)
			break;
		if (i < n)
			ident_label(t, comm, buf, sizeof(buf));
		else if (i == n)
			snprintf(buf, sizeof(buf), "%d other thread%s", grey, grey == 1 ? "" : "s");
		else
			snprintf(buf, sizeof(buf), "tasks not selected");
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
		if (!elide(cr, buf, sizeof(buf), w - 26))
			break;
		iw = 14 + ch_text_width(cr, buf) + 12;
		comm_rgb(t, comm, rgb);
		ch_rgb(cr, rgb);
		ch_info_name(c->info, buf);
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

/*
 * Shorten s (of size len) with a trailing "…" until it is at most maxw wide, cutting between
 * UTF-8 characters. Returns 0 when not even one character and the ellipsis fit.
 */
static int elide(cairo_t *cr, char *s, size_t len, double maxw)
{
	char tmp[256];
	size_t l = strlen(s);

	if (ch_text_width(cr, s) <= maxw)
		return 1;
	if (l >= sizeof(tmp) - 4)
		l = sizeof(tmp) - 4;
	while (l > 0) {
		do
			l--;
		while (l > 0 && ((unsigned char)s[l] & 0xc0) == 0x80);
		if (!l)
			break;
		memcpy(tmp, s, l);
		memcpy(tmp + l, "\u2026", sizeof("\u2026"));
		if (ch_text_width(cr, tmp) <= maxw && l + sizeof("\u2026") <= len) {
			memcpy(s, tmp, l + sizeof("\u2026"));
			return 1;
		}
	}
	return 0;
}

/* ---- trace markers and kills: ticks with labels ---- */

struct mark {
	int64_t ts;
	int kill;
	char text[112];
};

/* atrace's markers, as the loader reads them (parse/atrace.c): "E", or one of B C E F G H I N S
 * followed by '|'. They are drawn as slices (and counters go to the counters chart). */
static int is_atrace(const char *s)
{
	size_t l = s ? strlen(s) : 0;

	while (l && (s[l - 1] == '\n' || s[l - 1] == '\0'))
		l--;
	if (l == 1 && s[0] == 'E')
		return 1;
	return l >= 2 && s[1] == '|' && strchr("BECSFGHNI", s[0]);
}

/* trax's own bookkeeping markers (the initial state of a capture, its target): not events. */
static int is_trax_note(const char *s)
{
	return !strncmp(s, "trax: initial ", 14) || !strncmp(s, "trax: target ", 13);
}

static int cmp_mark(const void *a, const void *b)
{
	const struct mark *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->kill - y->kill;
}

/* One table's markers of the window into m (up to MAX_MARKS in all). */
static void read_marks_of(struct chart *c, const char *table, struct mark **m, int *n, int *cap)
{
	char sql[256];
	sqlite3_stmt *st = NULL;
	int kill = !strcmp(table, "kill");

	if (!ch_table_exists(c->db, table) || (!kill && !ch_column_exists(c->db, table, "buf")))
		return;
	if (kill)
		snprintf(sql, sizeof(sql), "SELECT ts, comm, pid FROM kill WHERE ts >= ?1 AND "
			 "ts <= ?2 AND coalesce(buffer, 0) = ?3 ORDER BY ts LIMIT %d", MAX_MARKS);
	else
		snprintf(sql, sizeof(sql), "SELECT ts, CAST(buf AS TEXT) FROM %s WHERE ts >= ?1 "
			 "AND ts <= ?2 AND coalesce(buffer, 0) = ?3 ORDER BY ts", table);
	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return;
	}
	sqlite3_bind_int64(st, 1, c->t0);
	sqlite3_bind_int64(st, 2, c->t1);
	sqlite3_bind_int(st, 3, c->o->buffer);
	while (*n < MAX_MARKS && sqlite3_step(st) == SQLITE_ROW) {
		const char *txt = (const char *)sqlite3_column_text(st, 1);
		struct mark *k;
		char *nl;
		size_t l;

		if (!kill && txt && (is_atrace(txt) || is_trax_note(txt)))
			continue;
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 64;
			*m = xrealloc(*m, *cap * sizeof(**m));
		}
		k = &(*m)[(*n)++];
		k->ts = sqlite3_column_int64(st, 0);
		k->kill = kill;
		if (kill)
			snprintf(k->text, sizeof(k->text), "kill %s:%d", txt ? txt : "?",
				 sqlite3_column_int(st, 2));
		else
			snprintf(k->text, sizeof(k->text), "%s", txt ? txt : "");
		/* the first line, without trailing blanks */
		if ((nl = strchr(k->text, '\n')))
			*nl = '\0';
		l = strlen(k->text);
		while (l && (k->text[l - 1] == ' ' || k->text[l - 1] == '\t'))
			k->text[--l] = '\0';
	}
	sqlite3_finalize(st);
}

static struct mark *read_marks(struct chart *c, int *n)
{
	struct mark *m = NULL;
	int cap = 0;

	*n = 0;
	if (c->o->markers & TRAX_PLOT_MARK_PRINT) {
		read_marks_of(c, "print", &m, n, &cap);
		read_marks_of(c, "bprint", &m, n, &cap);
	}
	if (c->o->markers & TRAX_PLOT_MARK_KILL)
		read_marks_of(c, "kill", &m, n, &cap);
	if (*n > 1)
		qsort(m, *n, sizeof(*m), cmp_mark);
	return m;
}

static void add_label(struct chart *c, double x, double y, double w, double h)
{
	struct trax_plot_info *info = c->info;

	if (!info)
		return;
	info->labels = xrealloc(info->labels, (info->nlabels + 1) * sizeof(*info->labels));
	info->labels[info->nlabels++] = (struct trax_plot_rect){ x, y, w, h };
}

/*
 * Each marker a tick under the label rows at band_y (kills also a red line over the lanes,
 * plain markers a faint one when there are few); then the labels, in time order, each in the
 * first row where it does not touch the label before it, shifted left to end inside the plot
 * area, cut with "…" when longer than a quarter of it; a label that fits in no row is left out.
 */
static void draw_marks(struct tl *t, const struct mark *m, int n, int nrows, double x0,
		       double band_y, double ytop, double ybot)
{
	struct chart *c = t->c;
	cairo_t *cr = c->cr;
	double right = x0 + t->pw, row_end[2] = { -1e9, -1e9 }, tick_y = band_y + nrows * LABEL_H;
	int lines = n <= t->pw / 8;
	char buf[sizeof(m->text)];

	for (int i = 0; i < n; i++) {
		double x = floor(xof(t, x0, m[i].ts)) + 0.5;

		if (x > right - 0.5)
			x = right - 0.5;
		if (m[i].kill || lines) {
			if (m[i].kill) {
				cairo_set_source_rgb(cr, 0.85, 0.1, 0.1);
				cairo_set_line_width(cr, 1.5);
			} else {
				cairo_set_source_rgba(cr, 0.45, 0.2, 0.7, 0.3);
				cairo_set_line_width(cr, 1);
			}
			cairo_move_to(cr, x, ytop);
			cairo_line_to(cr, x, ybot);
			cairo_stroke(cr);
		}
		if (m[i].kill)
			cairo_set_source_rgb(cr, 0.85, 0.1, 0.1);
		else
			cairo_set_source_rgb(cr, 0.45, 0.2, 0.7);
		cairo_move_to(cr, x - 4, tick_y + 1);
		cairo_line_to(cr, x + 4, tick_y + 1);
		cairo_line_to(cr, x, tick_y + TICK_H);
		cairo_close_path(cr);
		cairo_fill(cr);
		if (c->info)
			c->info->nticks++;
	}
	for (int i = 0; i < n; i++) {
		double x = floor(xof(t, x0, m[i].ts)) + 0.5, lx, w;

		snprintf(buf, sizeof(buf), "%s", m[i].text);
		if (!*buf)
			continue;
		ch_font(cr, CH_SMALL_SIZE - 1, m[i].kill);
		if (!elide(cr, buf, sizeof(buf), t->pw / 4.0 > 60 ? t->pw / 4.0 : 60))
			continue;
		w = ch_text_width(cr, buf);
		lx = x + 3;
		if (lx + w > right)
			lx = right - w;
		if (lx < x0)
			continue;
		for (int r = 0; r < nrows; r++) {
			if (lx < row_end[r] + 6)
				continue;
			ch_hex(cr, m[i].kill ? 0xb01010 : 0x4a2080);
			ch_text(cr, lx, band_y + r * LABEL_H, 0, 2, buf);
			add_label(c, lx, band_y + r * LABEL_H, w, LABEL_H);
			row_end[r] = lx + w;
			break;
		}
	}
}

/* Rule windows shaded over the lanes [ytop, ybot], labels kept inside the plot area. */
static void draw_spans(struct tl *t, double x0, double ytop, double ybot)
{
	struct chart *c = t->c;
	const struct trax_plot_opts *o = c->o;
	cairo_t *cr = c->cr;

	for (int i = 0; i < o->nspans; i++) {
		int64_t s = o->spans[i].start > c->t0 ? o->spans[i].start : c->t0;
		int64_t e = o->spans[i].end < c->t1 ? o->spans[i].end : c->t1;
		double xs, xe, lx;
		char buf[160];

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
			snprintf(buf, sizeof(buf), "%s", o->spans[i].label);
			if (!elide(cr, buf, sizeof(buf), t->pw - 6))
				continue;
			lx = xs + 3;
			if (lx + ch_text_width(cr, buf) > x0 + t->pw)
				lx = x0 + t->pw - ch_text_width(cr, buf);
			ch_text(cr, lx, ytop + 2, 0, 2, buf);
		}
	}
}

/* ---- atrace slices: one row per thread ---- */

struct srow {
	int utid, levels;
	double y, h;
};

/* "RenderThread 7591": the thread's last name and its pid. */
static void thread_label(struct chart *c, int utid, char *buf, size_t len)
{
	const struct ch_threads *th = &c->th;
	int comm = utid >= 0 && utid < th->nutid && th->count[utid] ?
		   th->at[th->first[utid] + th->count[utid] - 1].comm : -1;

	snprintf(buf, len, "%s %d", comm >= 0 ? ch_comm_name(th, comm) : "?",
		 utid >= 0 && utid < th->nutid ? th->pid[utid] : -1);
}

/* The threads with slices in the window, by process then thread; the slice count in *nslices. */
static int slice_rows(struct chart *c, struct srow **rows, int *n, int *nslices)
{
	sqlite3_stmt *st = NULL;
	int cap = 0, ret, rc;

	*rows = NULL;
	*n = 0;
	*nslices = 0;
	if (!ch_table_exists(c->db, "slice"))
		return 0;
	ret = ch_prepare(c, "SELECT s.utid, max(s.depth), count(*) FROM slice s LEFT JOIN thread "
			 "h USING(utid) WHERE s.ts <= ?2 AND s.ts + coalesce(s.dur, 0) >= ?1 AND "
			 "coalesce(s.buffer, 0) = ?3 GROUP BY s.utid ORDER BY coalesce(max(h.tgid), "
			 "max(h.pid)), max(h.pid), s.utid", &st);
	if (ret)
		return ret;
	sqlite3_bind_int64(st, 1, c->t0);
	sqlite3_bind_int64(st, 2, c->t1);
	sqlite3_bind_int(st, 3, c->o->buffer);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int levels = sqlite3_column_int(st, 1) + 1;

		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			*rows = xrealloc(*rows, cap * sizeof(**rows));
		}
		(*rows)[(*n)++] = (struct srow){ sqlite3_column_int(st, 0),
						 levels < SLICE_LEVELS ? levels : SLICE_LEVELS, 0, 0 };
		*nslices += sqlite3_column_int(st, 2);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return ch_db_error(c, "reading slice");
	return 0;
}

/*
 * The slices of the rows shown: nesting levels stacked in each row (depth 0 on top), in the
 * thread's colour, lighter with depth, named inside when the name fits. Up to SLICE_EXACT
 * slices each is its own rectangle (at least one pixel wide); beyond, a slice inside pixels
 * its level already painted is left out.
 */
static int draw_slices(struct tl *t, struct srow *rows, int nrows, int shown, int total,
		       double x0)
{
	struct chart *c = t->c;
	cairo_t *cr = c->cr;
	sqlite3_stmt *st = NULL;
	int *row_of = xmalloc((c->th.nutid + 1) * sizeof(int)), ret, rc;
	double *done = xmalloc((size_t)(shown + 1) * SLICE_LEVELS * sizeof(double));
	char buf[160];

	for (int i = 0; i <= c->th.nutid; i++)
		row_of[i] = -1;
	for (int i = 0; i < nrows; i++)
		if (rows[i].utid >= 0 && rows[i].utid < c->th.nutid)
			row_of[rows[i].utid] = i;
	for (int i = 0; i < shown * SLICE_LEVELS; i++)
		done[i] = -1;
	for (int i = 0; i < shown; i++) {
		ch_hex(cr, CH_LANE_BG);
		cairo_rectangle(cr, x0, rows[i].y, t->pw, rows[i].h);
		cairo_fill(cr);
		ch_font(cr, CH_SMALL_SIZE, 0);
		ch_hex(cr, CH_FG);
		thread_label(c, rows[i].utid, buf, sizeof(buf));
		if (elide(cr, buf, sizeof(buf), x0 - CH_MARGIN - 6))
			ch_text(cr, x0 - 6, rows[i].y + rows[i].h / 2, 2, 1, buf);
	}
	ret = ch_prepare(c, "SELECT utid, ts, dur, depth, name FROM slice WHERE ts <= ?2 AND "
			 "ts + coalesce(dur, 0) >= ?1 AND coalesce(buffer, 0) = ?3 ORDER BY utid, "
			 "depth, ts", &st);
	if (ret)
		goto out;
	sqlite3_bind_int64(st, 1, c->t0);
	sqlite3_bind_int64(st, 2, c->t1);
	sqlite3_bind_int(st, 3, c->o->buffer);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int utid = sqlite3_column_int(st, 0), r, lvl, id;
		int64_t ts = sqlite3_column_int64(st, 1);
		int64_t dur = sqlite3_column_type(st, 2) == SQLITE_NULL ? c->t1 - ts :
			      sqlite3_column_int64(st, 2);
		const char *name = (const char *)sqlite3_column_text(st, 4);
		double xs, xe, lh, y, h, rgb[3];

		if (c->info)
			c->info->rows++;
		r = utid >= 0 && utid < c->th.nutid ? row_of[utid] : -1;
		if (r < 0)
			continue;
		if (r >= shown) {
			if (c->info)
				c->info->nslices_hidden++;
			continue;
		}
		lvl = sqlite3_column_int(st, 3);
		lvl = lvl < 0 ? 0 : lvl >= rows[r].levels ? rows[r].levels - 1 : lvl;
		xs = xof(t, x0, ts > c->t0 ? ts : c->t0);
		xe = xof(t, x0, ts + dur < c->t1 ? ts + dur : c->t1);
		if (xe - xs < 1)
			xe = xs + 1;
		if (xe > x0 + t->pw) {
			xe = x0 + t->pw;
			xs = xs < xe - 1 ? xs : xe - 1;
		}
		if (total > SLICE_EXACT && ceil(xe) <= done[r * SLICE_LEVELS + lvl])
			continue;
		done[r * SLICE_LEVELS + lvl] = ceil(xe);
		lh = rows[r].h / rows[r].levels;
		y = rows[r].y + lvl * lh;
		h = lh >= 4 ? lh - 1 : lh;
		id = c->th.match[utid] ? ident_of(t, utid) : GREY_COMM;	/* as on the lanes */
		comm_rgb(t, id, rgb);
		for (int k = 0; k < 3; k++)
			rgb[k] += (1 - rgb[k]) * 0.22 * lvl;
		ch_rgb(cr, rgb);
		cairo_rectangle(cr, xs, y, xe - xs > 2 ? xe - xs - 0.5 : xe - xs, h);
		cairo_fill(cr);
		if (c->info)
			c->info->nslices++;
		if (name && xe - xs >= 24 && h >= 8) {
			snprintf(buf, sizeof(buf), "%s", name);
			ch_font(cr, h - 1 < CH_SMALL_SIZE - 1 ? h - 1 : CH_SMALL_SIZE - 1, 0);
			if (!elide(cr, buf, sizeof(buf), xe - xs - 4))
				continue;
			if (0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] > 0.55)
				ch_hex(cr, CH_FG);
			else
				ch_hex(cr, 0xffffff);
			ch_text(cr, xs + 2, y + h / 2, 0, 1, buf);
		}
	}
	if (rc != SQLITE_DONE)
		ret = ch_db_error(c, "reading slice");
out:
	sqlite3_finalize(st);
	free(row_of);
	free(done);
	return ret;
}

int ch_timeline(struct chart *c)
{
	const struct trax_plot_opts *o = c->o;
	cairo_t *cr = c->cr;
	struct tl t = { .c = c };
	struct col *cols = NULL;
	struct mark *marks = NULL;
	struct srow *srows = NULL;
	double x0 = CH_MARGIN + 52, top, bottom, avail, lane_h, gap, sband = 0, srow_h = 0;
	int ret, nmarks = 0, mrows = 0, nsrows = 0, sshown = 0, nslices = 0, step_label;
	char sub[256] = "", buf[160];

	ret = ch_threads_load(c);
	if (ret)
		return ret;
	if (!ch_table_exists(c->db, "sched_slice") ||
	    count_rows(c, "SELECT count(*) FROM (SELECT 1 FROM sched_slice LIMIT 1)") == 0)
		return trax_error_set(c->err, TRAX_E_EVAL, "%s: no scheduler slices to draw "
				      "(the trace has no sched_switch events)", c->trace_name);
	marks = read_marks(c, &nmarks);
	mrows = nmarks > 1 ? 2 : nmarks;
	ret = slice_rows(c, &srows, &nsrows, &nslices);
	if (ret)
		goto out;
	if (nsrows) {
		/* a gutter wide enough for the thread names, within reason */
		double wmax = 0;

		ch_font(cr, CH_SMALL_SIZE, 0);
		for (int i = 0; i < nsrows; i++) {
			double w;

			thread_label(c, srows[i].utid, buf, sizeof(buf));
			w = ch_text_width(cr, buf);
			wmax = w > wmax ? w : wmax;
		}
		x0 = CH_MARGIN + (wmax + 10 < 52 ? 52 : wmax + 10 > 150 ? 150 : ceil(wmax + 10));
	}
	t.pw = (int)(c->W - x0 - CH_MARGIN);
	t.npc = (double)(c->t1 - c->t0) / t.pw;
	t.lane_of = xmalloc(c->ncpus * sizeof(int));
	t.lanes = xcalloc(c->ncpus, sizeof(*t.lanes));
	t.ident_of = xmalloc((c->th.nutid + 1) * sizeof(int));
	for (int i = 0; i <= c->th.nutid; i++)
		t.ident_of[i] = -1;
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

	/* Layout: title, marker labels and ticks, CPU lanes, slice rows, axis, legend. */
	top = CH_TITLE_H + (nmarks ? mrows * LABEL_H + TICK_H + 2 : 4);
	bottom = floor(c->H - CH_MARGIN - LEGEND_ROWS * LEGEND_ROW - 6 - CH_AXIS_H);
	avail = bottom - top;
	if (nsrows) {
		/* at most 40 % of the height, rows of SROW_MIN .. SROW_MAX */
		double budget = floor(avail * 0.4) - 6;

		sshown = nsrows;
		srow_h = floor(budget / nsrows) - SROW_GAP;
		if (srow_h > SROW_MAX)
			srow_h = SROW_MAX;
		if (srow_h < SROW_MIN) {
			srow_h = SROW_MIN;
			sshown = (int)(budget / (SROW_MIN + SROW_GAP));
		}
		if (sshown > 0)
			sband = 6 + sshown * (srow_h + SROW_GAP) - SROW_GAP;
		else
			sshown = 0;
		avail -= sband;
	}
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
	if (nsrows > sshown)
		snprintf(sub + strlen(sub), sizeof(sub) - strlen(sub), "%sslices of %d more "
			 "threads not drawn", *sub ? ", " : "", nsrows - sshown);
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
			ch_font(cr, CH_SMALL_SIZE, 0);
			ch_hex(cr, CH_FG);
			ch_text(cr, x0 - 6, y + lane_h / 2, 2, 1, buf);
		}
	}
	bottom = top + t.nlanes * (lane_h + gap) - gap;
	if (sshown) {
		for (int i = 0; i < sshown; i++) {
			srows[i].y = bottom + 6 + i * (srow_h + SROW_GAP);
			srows[i].h = srow_h;
		}
		ret = draw_slices(&t, srows, nsrows, sshown, nslices, x0);
		if (ret)
			goto out;
	}
	draw_spans(&t, x0, top, bottom + sband);
	draw_marks(&t, marks, nmarks, mrows, x0, CH_TITLE_H, top, bottom + sband);
	bottom += sband;
	ch_time_axis(c, x0, bottom + 2, t.pw);
	draw_legend(&t, x0, bottom + 2 + CH_AXIS_H + 4, t.pw);
out:
	free(cols);
	free(marks);
	free(srows);
	free(t.lane_of);
	free(t.lanes);
	free(t.ident_of);
	for (int i = 0; i < t.nids; i++)
		free(t.ids[i].names);
	free(t.ids);
	free(t.id_ns);
	free(t.ihash);
	return ret;
}
