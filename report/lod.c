/* report/lod.c: the data of the report's interactive timeline, precomputed from the db. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "parse/parse.h"
#include "plot/plot.h"
#include "report/lod.h"
#include "util/grow.h"
#include "util/xalloc.h"

/*
 * The browser never sees the whole trace at once. Every lane (a CPU, a thread, one atrace
 * slice track of a thread) is streamed once from SQLite, in time order, and folded into:
 *
 *  - levels of detail: per lane, per column of LOD_COLS[l] equal columns over the trace, the
 *    busy share of the column (a), the runnable share for thread lanes (b) and the key (task,
 *    state or slice name) with the longest run in it, as in plot/timeline.c. Columns are
 *    run-length coded (equal neighbours merged) and the level deflated;
 *  - exact events cut into time tiles of about TILE_EVENTS events each: an event is written
 *    into every tile it overlaps, as varints in columns per lane (gaps after the previous
 *    event's end and durations, both in the greatest unit that divides them all, keys,
 *    depths: like values side by side deflate best), one
 *    deflated blob per tile, which the script inflates only when the view is narrower than the
 *    finest level's columns and the tile is in view.
 *
 * Counter tracks and markers are small and go as plain JSON (bounded, see below). Everything
 * is base64 in <script> blocks of the page: the report stays one file that works from file://.
 */

#define LOD_LEVELS 3
static const int lod_cols[LOD_LEVELS] = { 1024, 8192, 65536 };
#define TILE_EVENTS 50000
#define MAX_TILES 4096
#define MAX_MARKERS 20000		/* markers written; the rest are counted */
#define MAX_TRACK_SAMPLES 20000		/* exact counter samples a track; above: decimated */
#define DECIM_COLS 4096			/* decimated tracks: first, min, max per column */

enum lane_kind { L_CPU, L_THREAD, L_SLICE };
static const char *const kind_name[] = { "cpu", "thread", "slice" };

struct col {
	float a, b, cur, best;
	int cur_key, best_key;
};

struct lod {
	struct col *c;
	int lo, hi;		/* columns touched by the current lane: [lo, hi) */
	struct strbuf out;	/* the level's runs, every lane so far */
};

struct tile {
	struct strbuf out;	/* every lane's segment so far */
	struct strbuf seg[4];	/* the current lane's keys and depths (in seg[2], seg[3]) */
	int64_t *gap, *dur;	/* the current lane's gaps and durations, in ns */
	int n, cap;		/* events in seg */
	int64_t last;		/* end of the last event in seg */
	uint64_t unit;		/* gcd of the lane's gaps and durations in this tile (0: none) */
};

struct dict {
	char **s;
	int n;
};

struct tl {
	sqlite3 *db;
	struct trax_error *err;
	int64_t t0, t1;
	int ntiles;
	double tile_ns;
	struct tile *tiles;
	struct lod lod[LOD_LEVELS];
	int lane, has_depth, nlanes;
	int64_t exact;		/* events written into tiles (with their copies) */
	struct strbuf lanes;	/* JSON array body */
	struct dict states, names;
	unsigned char *state_class;	/* per state: 1 running, 2 runnable, 0 other */
	struct trax_plot_palette *palette;	/* the static charts' task colours */
};

/* ---- small encoders ---- */

static void put_varint(struct strbuf *sb, uint64_t v)
{
	unsigned char b[10];
	int n = 0;

	do {
		b[n] = v & 0x7f;
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	strbuf_add(sb, b, n);
}

static void put_zigzag(struct strbuf *sb, int64_t v)
{
	put_varint(sb, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

static void add_base64(struct strbuf *sb, const unsigned char *p, size_t n)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	strbuf_grow(sb, (n + 2) / 3 * 4 + 1);
	for (i = 0; i + 2 < n; i += 3) {
		char q[4] = { a[p[i] >> 2], a[((p[i] & 3) << 4) | (p[i + 1] >> 4)],
			      a[((p[i + 1] & 15) << 2) | (p[i + 2] >> 6)], a[p[i + 2] & 63] };

		strbuf_add(sb, q, 4);
	}
	if (i < n) {
		char q[4] = { a[p[i] >> 2], '=', '=', '=' };

		if (i + 1 < n) {
			q[1] = a[((p[i] & 3) << 4) | (p[i + 1] >> 4)];
			q[2] = a[(p[i + 1] & 15) << 2];
		} else {
			q[1] = a[(p[i] & 3) << 4];
		}
		strbuf_add(sb, q, 4);
	}
}

/* data deflated (zlib format: the browser's DecompressionStream("deflate")), as base64. */
static int add_deflated(struct tl *t, struct strbuf *sb, const struct strbuf *data)
{
	uLongf n = compressBound(data->len);
	unsigned char *z = xmalloc(n);
	int rc = compress2(z, &n, (const Bytef *)(data->len ? data->buf : ""), data->len, 6);

	if (rc == Z_OK)
		add_base64(sb, z, n);
	free(z);
	return rc == Z_OK ? 0 : trax_error_set(t->err, TRAX_E_NOMEM, "timeline: deflate "
						"failed (%d)", rc);
}

/* A JSON string that cannot end the <script> block it sits in. */
static void add_json_str(struct strbuf *sb, const char *s)
{
	size_t from = sb->len;

	strbuf_add_json(sb, s ? s : "");
	for (size_t i = from; i + 1 < sb->len; i++)
		if (sb->buf[i] == '<') {
			strbuf_grow(sb, 5);
			memmove(sb->buf + i + 6, sb->buf + i + 1, sb->len - i - 1);
			memcpy(sb->buf + i, "\\u003c", 6);
			sb->len += 5;
			sb->buf[sb->len] = 0;
		}
}

/* ---- dictionaries: the distinct values of a column, looked up by bsearch ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int dict_load(struct tl *t, struct dict *d, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int cap = 0;

	if (sqlite3_prepare_v2(t->db, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;	/* no such table: an empty dictionary */
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(st, 0);

		TRAX_GROW(d->s, d->n, cap, 16);
		d->s[d->n++] = xstrdup(s ? s : "");
	}
	sqlite3_finalize(st);
	if (d->n)
		qsort(d->s, d->n, sizeof(*d->s), cmp_str);
	return 0;
}

static int dict_find(const struct dict *d, const char *s)
{
	char **p;

	if (!d->n)
		return 0;
	if (!s)
		s = "";
	p = bsearch(&s, d->s, d->n, sizeof(*d->s), cmp_str);
	return p ? (int)(p - d->s) : 0;
}

static void dict_json(struct strbuf *sb, const struct dict *d)
{
	strbuf_addch(sb, '[');
	for (int i = 0; i < d->n; i++) {
		if (i)
			strbuf_addch(sb, ',');
		add_json_str(sb, d->s[i]);
	}
	strbuf_addch(sb, ']');
}

static void dict_release(struct dict *d)
{
	for (int i = 0; i < d->n; i++)
		free(d->s[i]);
	free(d->s);
}

/* ---- lanes ---- */

static void lane_begin(struct tl *t, enum lane_kind k, int has_depth, const char *json_fields)
{
	t->lane = t->nlanes++;
	t->has_depth = has_depth;
	if (t->lane)
		strbuf_addch(&t->lanes, ',');
	strbuf_addf(&t->lanes, "{\"k\":\"%s\",%s}", kind_name[k], json_fields);
	for (int l = 0; l < LOD_LEVELS; l++) {
		t->lod[l].lo = lod_cols[l];
		t->lod[l].hi = 0;
	}
	for (int i = 0; i < t->ntiles; i++) {
		for (int f = 0; f < 4; f++)
			strbuf_reset(&t->tiles[i].seg[f]);
		t->tiles[i].n = 0;
		t->tiles[i].last = 0;
		t->tiles[i].unit = 0;
	}
}

static void lod_add(struct lod *lv, int ncols, double npc, int64_t s, int64_t e, int key,
		    int cls)
{
	double fs = s / npc, fe = e / npc;
	int a = (int)floor(fs), b = (int)ceil(fe) - 1;

	if (a < 0)
		a = 0;
	if (b >= ncols)
		b = ncols - 1;
	if (a < lv->lo)
		lv->lo = a;
	if (b + 1 > lv->hi)
		lv->hi = b + 1;
	for (int k = a; k <= b; k++) {
		struct col *c = &lv->c[k];
		double lo = fs > k ? fs : k, hi = fe < k + 1 ? fe : k + 1;
		float f = (float)(hi - lo);

		if (f <= 0)
			continue;
		if (cls == 1)
			c->a += f;
		else if (cls == 2)
			c->b += f;
		if (c->cur_key == key && c->cur > 0) {
			c->cur += f;
		} else {
			c->cur_key = key;
			c->cur = f;
		}
		if (c->cur > c->best || (c->cur == c->best && key < c->best_key)) {
			c->best = c->cur;
			c->best_key = key;
		}
	}
}

/*
 * One event of the current lane: [ts, ts + dur), its key, its depth (slice lanes), its class
 * for the summaries (1: counts as busy, 2: as runnable, 0: neither, -1: exact only).
 */
static void lane_event(struct tl *t, int64_t ts, int64_t dur, int key, int depth, int cls)
{
	int64_t s = ts - t->t0, e = s + (dur > 0 ? dur : 0), span = t->t1 - t->t0;
	int k0, k1;

	if (e < 0 || s > span)
		return;
	for (int l = 0; l < LOD_LEVELS && cls >= 0; l++)
		lod_add(&t->lod[l], lod_cols[l], (double)span / lod_cols[l], s < 0 ? 0 : s,
			e > span ? span : e, key, cls);
	k0 = s <= 0 ? 0 : (int)(s / t->tile_ns);
	k1 = e <= s ? k0 : (int)((e - 1) / t->tile_ns);
	if (k0 >= t->ntiles)
		k0 = t->ntiles - 1;
	if (k1 >= t->ntiles)
		k1 = t->ntiles - 1;
	for (int k = k0; k <= k1; k++) {
		struct tile *ti = &t->tiles[k];

		/* The start as the gap after the previous event's end: 0 for back-to-back
		 * slices and states, which is most of them, and deflates to almost nothing. */
		int64_t gap = s - ti->last, d = dur > 0 ? dur : 0;

		if (ti->n >= ti->cap) {
			TRAX_GROW(ti->gap, ti->n, ti->cap, 256);
			ti->dur = trax_realloc_array(ti->dur, (size_t)ti->cap, sizeof(*ti->dur));
		}
		ti->gap[ti->n] = gap;
		ti->dur[ti->n] = d;
		ti->unit = gcd(gcd(ti->unit, (uint64_t)(gap < 0 ? -gap : gap)), (uint64_t)d);
		put_varint(&ti->seg[2], (uint64_t)key);
		if (t->has_depth)
			put_varint(&ti->seg[3], (uint64_t)(depth > 0 ? depth : 0));
		ti->last = s + (dur > 0 ? dur : 0);
		ti->n++;
		t->exact++;
	}
}

static int q255(float f)
{
	int v = (int)ceilf((f > 1 ? 1 : f) * 255);

	return v < 0 ? 0 : v;
}

static void lane_end(struct tl *t)
{
	for (int l = 0; l < LOD_LEVELS; l++) {
		struct lod *lv = &t->lod[l];
		struct strbuf runs = STRBUF_INIT;
		int nruns = 0, prev_end = 0;

		for (int k = lv->lo; k < lv->hi;) {
			struct col *c = &lv->c[k];
			int a = q255(c->a), b = q255(c->b), key = c->best_key, n = 1;

			if (c->best <= 0) {
				k++;
				continue;
			}
			while (k + n < lv->hi) {
				struct col *d = &lv->c[k + n];

				if (d->best <= 0 || q255(d->a) != a || q255(d->b) != b ||
				    d->best_key != key)
					break;
				n++;
			}
			put_varint(&runs, (uint64_t)(k - prev_end));
			put_varint(&runs, (uint64_t)n);
			strbuf_addch(&runs, a);
			strbuf_addch(&runs, b);
			put_varint(&runs, (uint64_t)key);
			nruns++;
			k += n;
			prev_end = k;
		}
		if (nruns) {
			put_varint(&lv->out, (uint64_t)t->lane);
			put_varint(&lv->out, (uint64_t)nruns);
			strbuf_add(&lv->out, runs.buf, runs.len);
		}
		strbuf_release(&runs);
		if (lv->hi > lv->lo)
			memset(lv->c + lv->lo, 0, (size_t)(lv->hi - lv->lo) * sizeof(*lv->c));
	}
	for (int i = 0; i < t->ntiles; i++) {
		struct tile *ti = &t->tiles[i];

		if (!ti->n)
			continue;
		/* Times in the segment's unit: a text trace's are whole microseconds, which
		 * then take a byte or two instead of three and deflate far better. */
		uint64_t unit = ti->unit ? ti->unit : 1;

		put_varint(&ti->out, (uint64_t)t->lane);
		put_varint(&ti->out, (uint64_t)ti->n);
		put_varint(&ti->out, unit);
		for (int i2 = 0; i2 < ti->n; i2++)
			put_zigzag(&ti->out, ti->gap[i2] / (int64_t)unit);
		for (int i2 = 0; i2 < ti->n; i2++)
			put_varint(&ti->out, (uint64_t)ti->dur[i2] / unit);
		for (int f = 2; f < 4; f++)
			if (ti->seg[f].len)
				strbuf_add(&ti->out, ti->seg[f].buf, ti->seg[f].len);
	}
}

static int db_error(struct tl *t, const char *what)
{
	return trax_error_set(t->err, TRAX_E_DB, "timeline: %s: %s", what,
			      sqlite3_errmsg(t->db));
}

static int64_t count1(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int64_t n = 0;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static int has_table(sqlite3 *db, const char *name)
{
	char sql[160];

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM sqlite_master WHERE type='table' AND "
		 "name='%s'", name);
	return count1(db, sql) > 0;
}

/* The CPU lanes: every slice but the idle task's, the key its utid. */
static int cpu_lanes(struct tl *t, int ncpus)
{
	sqlite3_stmt *st = NULL;
	int cpu = -1, rc, ret = 0;

	if (sqlite3_prepare_v2(t->db, "SELECT cpu, ts, dur, utid FROM sched_slice WHERE pid != 0 "
			       "AND buffer = 0 AND cpu >= 0 AND cpu < ?1 ORDER BY cpu, ts", -1,
			       &st, NULL) != SQLITE_OK)
		return db_error(t, "reading sched_slice");
	sqlite3_bind_int(st, 1, ncpus);
	for (;;) {
		int c;

		rc = sqlite3_step(st);
		c = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : ncpus;
		while (cpu < c) {
			char f[48];

			if (cpu >= 0)
				lane_end(t);
			if (++cpu >= ncpus)
				break;
			snprintf(f, sizeof(f), "\"cpu\":%d,\"name\":\"CPU %d\"", cpu, cpu);
			lane_begin(t, L_CPU, 0, f);
		}
		if (rc != SQLITE_ROW)
			break;
		lane_event(t, sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
			   sqlite3_column_int(st, 3), 0, 1);
	}
	if (rc != SQLITE_DONE)
		ret = db_error(t, "reading sched_slice");
	sqlite3_finalize(st);
	return ret;
}

/* A thread's state lane, then its atrace slice lanes (one per track, rows by depth). */
static int thread_lanes(struct tl *t)
{
	sqlite3_stmt *th = NULL, *ts = NULL, *sg = NULL, *sl = NULL;
	int ret = 0, slices = has_table(t->db, "slice");

	if (sqlite3_prepare_v2(t->db,
			       "SELECT t.utid, t.pid, t.comm FROM thread t WHERE t.pid != 0 AND "
			       "(EXISTS (SELECT 1 FROM thread_state s WHERE s.utid = t.utid) OR "
			       "EXISTS (SELECT 1 FROM slice s WHERE s.utid = t.utid)) ORDER BY "
			       "(SELECT sum(dur) FROM sched_slice s WHERE s.utid = t.utid) DESC "
			       "NULLS LAST, t.pid, t.utid", -1, &th, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(t->db, "SELECT ts, dur, state FROM thread_state WHERE utid = ?1 "
			       "AND buffer = 0 ORDER BY ts", -1, &ts, NULL) != SQLITE_OK)
		return db_error(t, "reading thread_state");
	if (slices &&
	    (sqlite3_prepare_v2(t->db, "SELECT track, max(depth) FROM slice WHERE utid = ?1 AND "
				"buffer = 0 GROUP BY track ORDER BY track", -1, &sg, NULL) ||
	     sqlite3_prepare_v2(t->db, "SELECT ts, dur, name, depth FROM slice WHERE utid = ?1 "
				"AND track IS ?2 AND buffer = 0 ORDER BY ts", -1, &sl, NULL))) {
		ret = db_error(t, "reading slice");
		goto out;
	}
	while (sqlite3_step(th) == SQLITE_ROW) {
		int utid = sqlite3_column_int(th, 0);
		struct strbuf f = STRBUF_INIT;

		strbuf_addf(&f, "\"u\":%d,\"name\":", utid);
		add_json_str(&f, (const char *)sqlite3_column_text(th, 2));
		lane_begin(t, L_THREAD, 0, f.buf);
		strbuf_release(&f);
		sqlite3_bind_int(ts, 1, utid);
		while (sqlite3_step(ts) == SQLITE_ROW) {
			int key = dict_find(&t->states, (const char *)sqlite3_column_text(ts, 2));

			lane_event(t, sqlite3_column_int64(ts, 0), sqlite3_column_int64(ts, 1), key,
				   0, t->state_class[key]);
		}
		sqlite3_reset(ts);
		lane_end(t);
		if (!sg)
			continue;
		sqlite3_bind_int(sg, 1, utid);
		while (sqlite3_step(sg) == SQLITE_ROW) {
			const char *track = (const char *)sqlite3_column_text(sg, 0);
			struct strbuf g = STRBUF_INIT;

			strbuf_addf(&g, "\"u\":%d,\"rows\":%d,\"name\":", utid,
				    sqlite3_column_int(sg, 1) + 1);
			add_json_str(&g, track ? track : "slices");
			lane_begin(t, L_SLICE, 1, g.buf);
			strbuf_release(&g);
			sqlite3_bind_int(sl, 1, utid);
			sqlite3_bind_value(sl, 2, sqlite3_column_value(sg, 0));
			while (sqlite3_step(sl) == SQLITE_ROW) {
				int depth = sqlite3_column_int(sl, 3);

				lane_event(t, sqlite3_column_int64(sl, 0),
					   sqlite3_column_int64(sl, 1),
					   dict_find(&t->names, (const char *)
						     sqlite3_column_text(sl, 2)),
					   depth, depth == 0 ? 1 : -1);
			}
			sqlite3_reset(sl);
			lane_end(t);
		}
		sqlite3_reset(sg);
	}
out:
	sqlite3_finalize(th);
	sqlite3_finalize(ts);
	sqlite3_finalize(sg);
	sqlite3_finalize(sl);
	return ret;
}

/* Counter tracks as JSON: exact samples, or first/min/max per column of a long track. */
static void counters_json(struct tl *t, struct strbuf *sb)
{
	sqlite3_stmt *tr = NULL, *st = NULL;
	int first = 1;

	strbuf_adds(sb, "[");
	if (!has_table(t->db, "track") ||
	    sqlite3_prepare_v2(t->db, "SELECT k.id, k.name, k.cpu, k.zone, k.unit, k.utid, "
			       "(SELECT comm FROM thread h WHERE h.utid = k.utid), "
			       "(SELECT count(*) FROM counter c WHERE c.track_id = k.id) FROM track "
			       "k WHERE EXISTS (SELECT 1 FROM counter c WHERE c.track_id = k.id) "
			       "ORDER BY k.name NOT GLOB 'cpu_*', k.name, k.cpu, k.id", -1, &tr,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(t->db, "SELECT ts, value FROM counter WHERE track_id = ?1 ORDER "
			       "BY ts", -1, &st, NULL) != SQLITE_OK)
		goto out;
	while (sqlite3_step(tr) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(tr, 1);
		const char *zone = (const char *)sqlite3_column_text(tr, 3);
		const char *unit = (const char *)sqlite3_column_text(tr, 4);
		const char *comm = (const char *)sqlite3_column_text(tr, 6);
		int64_t n = sqlite3_column_int64(tr, 7), span = t->t1 - t->t0;
		int decim = n > MAX_TRACK_SAMPLES, col = -1;
		double lo = 0, hi = 0;
		int64_t lo_ts = 0, hi_ts = 0;
		struct strbuf label = STRBUF_INIT, ts = STRBUF_INIT, v = STRBUF_INIT;
		int nout = 0;

		strbuf_adds(&label, name ? name : "?");
		if (sqlite3_column_type(tr, 2) != SQLITE_NULL)
			strbuf_addf(&label, " cpu%d", sqlite3_column_int(tr, 2));
		if (zone)
			strbuf_addf(&label, " %s", zone);
		if (comm)
			strbuf_addf(&label, " %s", comm);
		sqlite3_bind_int64(st, 1, sqlite3_column_int64(tr, 0));
		/* In a decimated track each column keeps its first sample and its extremes, in
		 * time order: the step line keeps its range and where it moved. */
#define OUT(tsv, val) do { strbuf_addf(&ts, "%s%lld", nout ? "," : "", (long long)(tsv)); \
		strbuf_adds(&v, nout ? "," : ""); strbuf_add_json_num(&v, (val)); nout++; } while (0)
		while (sqlite3_step(st) == SQLITE_ROW) {
			int64_t s = sqlite3_column_int64(st, 0) - t->t0;
			double val = sqlite3_column_double(st, 1);
			int c = span > 0 ? (int)((double)s / span * DECIM_COLS) : 0;

			if (!decim) {
				OUT(s, val);
				continue;
			}
			if (c != col) {
				if (col >= 0 && lo_ts != hi_ts) {
					if (lo_ts < hi_ts) {
						OUT(lo_ts, lo);
						OUT(hi_ts, hi);
					} else {
						OUT(hi_ts, hi);
						OUT(lo_ts, lo);
					}
				}
				OUT(s, val);
				col = c;
				lo = hi = val;
				lo_ts = hi_ts = s;
				continue;
			}
			if (val < lo) {
				lo = val;
				lo_ts = s;
			}
			if (val > hi) {
				hi = val;
				hi_ts = s;
			}
		}
		if (decim && col >= 0 && lo_ts != hi_ts) {
			OUT(lo_ts < hi_ts ? lo_ts : hi_ts, lo_ts < hi_ts ? lo : hi);
			OUT(lo_ts < hi_ts ? hi_ts : lo_ts, lo_ts < hi_ts ? hi : lo);
		}
#undef OUT
		sqlite3_reset(st);
		strbuf_adds(sb, first ? "{\"name\":" : ",{\"name\":");
		first = 0;
		add_json_str(sb, label.buf);
		if (sqlite3_column_type(tr, 5) != SQLITE_NULL)
			strbuf_addf(sb, ",\"u\":%d", sqlite3_column_int(tr, 5));
		strbuf_adds(sb, ",\"unit\":");
		add_json_str(sb, unit ? unit : "");
		strbuf_addf(sb, ",\"n\":%lld,\"decimated\":%d,\"ts\":[%s],\"v\":[%s]}",
			    (long long)n, decim, ts.buf ? ts.buf : "", v.buf ? v.buf : "");
		strbuf_release(&label);
		strbuf_release(&ts);
		strbuf_release(&v);
	}
out:
	strbuf_adds(sb, "]");
	sqlite3_finalize(tr);
	sqlite3_finalize(st);
}

/* Trace markers that are not atrace slice or counter records (those are tracks). */
static void markers_json(struct tl *t, struct strbuf *sb)
{
	static const char where[] = "FROM print WHERE buffer = 0 AND substr(CAST(buf AS TEXT), 1, "
		"2) NOT IN ('B|', 'E|', 'C|', 'S|', 'F|') AND rtrim(CAST(buf AS TEXT), "
		"char(10)) != 'E'";
	sqlite3_stmt *st = NULL;
	char sql[400];
	int n = 0;
	int64_t total = 0;

	strbuf_adds(sb, "[");
	if (has_table(t->db, "print") &&
	    (snprintf(sql, sizeof(sql), "SELECT count(*) %s", where),
	     total = count1(t->db, sql),
	     snprintf(sql, sizeof(sql), "SELECT ts, rtrim(CAST(buf AS TEXT), char(10)) %s ORDER "
		      "BY ts LIMIT %d", where, MAX_MARKERS),
	     sqlite3_prepare_v2(t->db, sql, -1, &st, NULL) == SQLITE_OK)) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			strbuf_addf(sb, "%s[%lld,", n++ ? "," : "",
				    (long long)(sqlite3_column_int64(st, 0) - t->t0));
			add_json_str(sb, (const char *)sqlite3_column_text(st, 1));
			strbuf_addch(sb, ']');
		}
	}
	sqlite3_finalize(st);
	strbuf_addf(sb, "],\"markers_total\":%lld", (long long)total);
}

/*
 * utid -> [pid, tgid, last name, earlier names, colour]. The colour is the static charts'
 * (trax_plot_palette_*): that of the thread's last name, as plot/timeline.c draws it, so a
 * task looks the same in the interactive timeline and in every chart of the report.
 */
static void threads_json(struct tl *t, struct strbuf *sb)
{
	sqlite3_stmt *st = NULL;
	int n = 0;

	strbuf_adds(sb, "{");
	if (sqlite3_prepare_v2(t->db, "SELECT t.utid, t.pid, t.tgid, t.comm, (SELECT "
			       "group_concat(comm, ', ') FROM (SELECT DISTINCT c.comm FROM "
			       "thread_comm c WHERE c.utid = t.utid AND c.comm IS NOT t.comm)), "
			       "coalesce((SELECT c.comm FROM thread_comm c WHERE c.utid = t.utid "
			       "ORDER BY c.ts DESC LIMIT 1), t.comm) FROM thread t ORDER BY t.utid",
			       -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *last = (const char *)sqlite3_column_text(st, 5);
			uint32_t rgb = trax_plot_palette_colour(trax_plot_palette_rank(t->palette,
										       last));

			strbuf_addf(sb, "%s\"%d\":[%d,", n++ ? "," : "", sqlite3_column_int(st, 0),
				    sqlite3_column_int(st, 1));
			if (sqlite3_column_type(st, 2) == SQLITE_NULL)
				strbuf_adds(sb, "null");
			else
				strbuf_addf(sb, "%d", sqlite3_column_int(st, 2));
			strbuf_addch(sb, ',');
			add_json_str(sb, (const char *)sqlite3_column_text(st, 3));
			strbuf_addch(sb, ',');
			add_json_str(sb, (const char *)sqlite3_column_text(st, 4));
			strbuf_addf(sb, ",\"#%06x\"]", (unsigned)rgb);
		}
	}
	sqlite3_finalize(st);
	strbuf_adds(sb, "}");
}

static const char timeline_js[] = {
#include "timeline-js.inc"
	0
};

static const char section_html[] =
	"<h2 id=\"timeline\">Timeline</h2>\n"
	"<div class=\"tl\" id=\"tl\"><div class=\"tl-bar\">"
	"<input id=\"tl-search\" type=\"search\" placeholder=\"highlight tasks: name or pid\" "
	"size=\"28\"> <span id=\"tl-found\"></span> <button id=\"tl-reset\" type=\"button\">"
	"whole trace</button> <span id=\"tl-view\"></span></div>"
	"<canvas id=\"tl-canvas\" tabindex=\"0\"></canvas>"
	"<div id=\"tl-tip\" class=\"tl-tip\" hidden></div>"
	"<p class=\"tl-help\">Wheel or W/S, +/-: zoom at the pointer. Drag or A/D: pan; "
	"shift+wheel or drag up/down: scroll the lanes. 0: the whole trace. Click a failed "
	"verdict above to zoom to its rule's window.</p></div>\n"
	"<noscript><p class=\"note\">The interactive timeline needs JavaScript; the charts "
	"below do not.</p></noscript>\n";

int trax_timeline_html(sqlite3 *db, const struct trax_tl_window *w, int nw, struct strbuf *sb,
		       struct trax_error *err)
{
	struct tl t = { .db = db, .err = err };
	struct strbuf meta = STRBUF_INIT, blob = STRBUF_INIT;
	int64_t nev, ncpus = 1;
	int ret = 0;

	trax_db_meta_int(db, "trace.start_ts", &t.t0);
	trax_db_meta_int(db, "trace.end_ts", &t.t1);
	trax_db_meta_int(db, "cpus", &ncpus);
	if (ncpus < 1 || ncpus > 4096)
		ncpus = 1;
	if (t.t1 <= t.t0)
		t.t1 = t.t0 + 1;
	nev = count1(db, "SELECT count(*) FROM sched_slice") +
	      count1(db, "SELECT count(*) FROM thread_state");
	if (has_table(db, "slice"))
		nev += count1(db, "SELECT count(*) FROM slice");
	t.ntiles = (int)(nev / TILE_EVENTS) + 1;
	if (t.ntiles > MAX_TILES)
		t.ntiles = MAX_TILES;
	t.tile_ns = (double)(t.t1 - t.t0) / t.ntiles;
	t.tiles = xcalloc(t.ntiles, sizeof(*t.tiles));
	for (int l = 0; l < LOD_LEVELS; l++)
		t.lod[l].c = xcalloc(lod_cols[l], sizeof(struct col));
	dict_load(&t, &t.states, "SELECT DISTINCT state FROM thread_state");
	dict_load(&t, &t.names, "SELECT DISTINCT name FROM slice");
	t.state_class = xcalloc(t.states.n + 1, 1);
	for (int i = 0; i < t.states.n; i++)
		t.state_class[i] = !strcmp(t.states.s[i], "Running") ? 1 :
				   t.states.s[i][0] == 'R' ? 2 : 0;

	if ((ret = trax_plot_palette_new(db, 0, &t.palette, err)) ||
	    (ret = cpu_lanes(&t, (int)ncpus)) || (ret = thread_lanes(&t)))
		goto out;

	/* The small part, as JSON. */
	strbuf_addf(&meta, "{\"v\":2,\"t0\":%lld,\"span\":%lld,\"ncpus\":%d,\"levels\":[",
		    (long long)t.t0, (long long)(t.t1 - t.t0), (int)ncpus);
	for (int l = 0; l < LOD_LEVELS; l++)
		strbuf_addf(&meta, "%s%d", l ? "," : "", lod_cols[l]);
	strbuf_addf(&meta, "],\"ntiles\":%d,\"exact\":%lld,\"lanes\":[%s],\"states\":", t.ntiles,
		    (long long)t.exact, t.lanes.buf ? t.lanes.buf : "");
	dict_json(&meta, &t.states);
	strbuf_adds(&meta, ",\"names\":");
	dict_json(&meta, &t.names);
	strbuf_adds(&meta, ",\"threads\":");
	threads_json(&t, &meta);
	strbuf_adds(&meta, ",\"counters\":");
	counters_json(&t, &meta);
	strbuf_adds(&meta, ",\"markers\":");
	markers_json(&t, &meta);
	strbuf_adds(&meta, ",\"windows\":[");
	for (int i = 0; i < nw; i++) {
		strbuf_addf(&meta, "%s{\"name\":", i ? "," : "");
		add_json_str(&meta, w[i].name);
		strbuf_adds(&meta, ",\"verdict\":");
		add_json_str(&meta, w[i].verdict);
		strbuf_addf(&meta, ",\"pid\":%d,\"start\":%lld,\"end\":%lld}", w[i].pid,
			    (long long)(w[i].start - t.t0), (long long)(w[i].end - t.t0));
	}
	strbuf_adds(&meta, "]}");

	strbuf_adds(sb, section_html);
	strbuf_adds(sb, "<script type=\"application/json\" id=\"tl-meta\">");
	strbuf_add(sb, meta.buf, meta.len);
	strbuf_adds(sb, "</script>\n");
	for (int l = 0; l < LOD_LEVELS; l++) {
		strbuf_addf(sb, "<script type=\"text/plain\" id=\"tl-lod%d\">", l);
		if ((ret = add_deflated(&t, sb, &t.lod[l].out)))
			goto out;
		strbuf_adds(sb, "</script>\n");
	}
	/* One tile a line. */
	strbuf_adds(sb, "<script type=\"text/plain\" id=\"tl-tiles\">");
	for (int i = 0; i < t.ntiles; i++) {
		if (i)
			strbuf_addch(sb, '\n');
		if ((ret = add_deflated(&t, sb, &t.tiles[i].out)))
			goto out;
	}
	strbuf_adds(sb, "</script>\n<script>");
	strbuf_adds(sb, timeline_js);
	strbuf_adds(sb, "</script>\n");
out:
	for (int i = 0; i < t.ntiles; i++) {
		strbuf_release(&t.tiles[i].out);
		for (int f = 0; f < 4; f++)
			strbuf_release(&t.tiles[i].seg[f]);
		free(t.tiles[i].gap);
		free(t.tiles[i].dur);
	}
	free(t.tiles);
	for (int l = 0; l < LOD_LEVELS; l++) {
		free(t.lod[l].c);
		strbuf_release(&t.lod[l].out);
	}
	dict_release(&t.states);
	dict_release(&t.names);
	free(t.state_class);
	trax_plot_palette_free(t.palette);
	strbuf_release(&t.lanes);
	strbuf_release(&meta);
	strbuf_release(&blob);
	return ret;
}
