/* tests/unit/test-plot.c: charts drawn from small databases whose slices are defined by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "parse/parse.h"
#include "plot/plot.h"

/*
 * Expected pixels come from the slices written below and DESIGN.md's rules (idle is blank, a
 * column is coloured when anything ran in it, the coloured height is the busy fraction of the
 * lane), worked out here by hand or by independent SQL, never from the plotting code itself.
 */

#define LANE_BG 0xf4f4f4u

/* CPU 0 at 500 MHz, then 1 GHz from the middle of the trace. */
#define FREQ_TRACK "INSERT INTO track VALUES(1,'cpu_frequency','cpu',0,NULL,NULL,'kHz',0);" \
	"INSERT INTO counter VALUES(1000000,1,500000),(1500000,1,1000000);"

static const char schema[] =
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
	"CREATE TABLE event_type(id INTEGER PRIMARY KEY, system TEXT, name TEXT, table_name TEXT,"
	" count INTEGER);"
	"CREATE TABLE thread(utid INTEGER PRIMARY KEY, pid INTEGER, tgid INTEGER, comm TEXT,"
	" start_ts INTEGER, end_ts INTEGER);"
	"CREATE TABLE thread_comm(utid INTEGER, ts INTEGER, comm TEXT);"
	"CREATE TABLE sched_slice(ts INTEGER, dur INTEGER, cpu INTEGER, utid INTEGER, pid INTEGER,"
	" prio INTEGER, end_state TEXT, clipped INTEGER, buffer INTEGER);"
	"CREATE TABLE thread_state(ts INTEGER, dur INTEGER, utid INTEGER, state TEXT, cpu INTEGER,"
	" waker_utid INTEGER, buffer INTEGER);"
	"CREATE TABLE track(id INTEGER PRIMARY KEY, name TEXT, kind TEXT, cpu INTEGER,"
	" utid INTEGER, zone TEXT, unit TEXT, buffer INTEGER);"
	"CREATE TABLE counter(ts INTEGER, track_id INTEGER, value NUMERIC);"
	"CREATE INDEX sched_slice_cpu ON sched_slice(cpu, ts);"
	"CREATE INDEX counter_track ON counter(track_id, ts);"
	"INSERT INTO meta VALUES('trax.version','test'),('source.path','/canned/hand.dat'),"
	"('cpus','2'),('trace.start_ts','1000000'),('trace.end_ts','2000000');"
	/* utid 0, 1: idle; 2: "alpha" pid 10; 3: "beta" pid 11, named "gamma" from 1500000. */
	"INSERT INTO thread VALUES(0,0,0,'swapper/0',NULL,NULL),(1,0,0,'swapper/1',NULL,NULL),"
	"(2,10,10,'alpha',1000000,2000000),(3,11,11,'gamma',1000000,2000000);"
	"INSERT INTO thread_comm VALUES(0,1000000,'swapper/0'),(1,1000000,'swapper/1'),"
	"(2,1000000,'alpha'),(3,1000000,'beta'),(3,1500000,'gamma');";

static sqlite3 *canned(const char *extra)
{
	sqlite3 *db = NULL;
	char *msg = NULL;

	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	if (sqlite3_exec(db, schema, NULL, NULL, &msg) != SQLITE_OK ||
	    (extra && sqlite3_exec(db, extra, NULL, NULL, &msg) != SQLITE_OK)) {
		fprintf(stderr, "# canned db: %s\n", msg);
		fail();
	}
	return db;
}

static void slice(sqlite3 *db, int cpu, int utid, int pid, int64_t ts, int64_t dur)
{
	char *sql = sqlite3_mprintf("INSERT INTO sched_slice VALUES(%lld,%lld,%d,%d,%d,120,'S',0,"
				    "0)", (long long)ts, (long long)dur, cpu, utid, pid);

	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_free(sql);
}

struct img {
	cairo_surface_t *s;
	unsigned char *data;
	int stride, w, h;
};

static int draw(sqlite3 *db, const struct trax_plot_opts *o, struct img *im,
		struct trax_plot_info *info, struct trax_error *err)
{
	cairo_t *cr;
	int ret;

	im->s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, o->width, o->height);
	cr = cairo_create(im->s);
	ret = trax_plot_draw(db, o, cr, info, err);
	cairo_destroy(cr);
	cairo_surface_flush(im->s);
	im->data = cairo_image_surface_get_data(im->s);
	im->stride = cairo_image_surface_get_stride(im->s);
	im->w = o->width;
	im->h = o->height;
	return ret;
}

static uint32_t px(const struct img *im, int x, int y)
{
	return *(const uint32_t *)(im->data + (size_t)y * im->stride + (size_t)x * 4) & 0xffffff;
}

/* The colour of a task of busyness rank r in its database (0: the busiest; ranks below are
 * worked out by hand from the slices each test writes). */
static uint32_t rank_px(int r)
{
	return trax_plot_palette_colour(r);
}

/* The colour of a counter track's line: the stable colour of its label. */
static uint32_t comm_px(const char *comm)
{
	double rgb[3];

	trax_plot_comm_colour(comm, rgb);
	return (uint32_t)(rgb[0] * 255 + 0.5) << 16 | (uint32_t)(rgb[1] * 255 + 0.5) << 8 |
	       (uint32_t)(rgb[2] * 255 + 0.5);
}

/* Pixels of column x in a lane, counted from the lane's bottom, of colour want; every pixel
 * above them must be the idle background (else returns -1). */
static int coloured_height(const struct img *im, const struct trax_plot_lane *l, int x,
			   uint32_t want)
{
	int y0 = (int)l->y, h = (int)l->h, n = 0;

	while (n < h && px(im, x, y0 + h - 1 - n) == want)
		n++;
	for (int k = n; k < h; k++)
		if (px(im, x, y0 + h - 1 - k) != LANE_BG)
			return -1;
	return n;
}

/* Width of the plot area at this chart size: drawn once to ask the layout. */
static int plot_width(sqlite3 *db, struct trax_plot_opts *o)
{
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	struct img im;
	int w;

	assert_int_equal(draw(db, o, &im, &info, &err), 0);
	w = (int)info.w;
	cairo_surface_destroy(im.s);
	trax_plot_info_release(&info);
	return w;
}

/*
 * Two CPUs, 1 us per pixel column: slices on column boundaries colour whole columns of their
 * task; idle slices (pid 0) and gaps stay blank; a 5 ns slice still colours its column (one
 * pixel high); slices covering 0.3 and half a column fill that part of the lane height.
 */
static void test_timeline_pixels(void **state)
{
	sqlite3 *db = canned(NULL);
	struct trax_plot_opts o;
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	struct img im;
	int64_t t0 = 1000000;
	int w;
	/* utid 3 is "beta", renamed "gamma" later: one thread, its last name's colour; its
	 * 99805 ns against alpha's 40000 make gamma the busiest */
	uint32_t alpha = rank_px(1), beta = rank_px(0);

	(void)state;
	trax_plot_opts_init(&o);
	o.width = 700;
	o.height = 300;
	slice(db, 0, 2, 10, t0 + 10000, 40000);		/* alpha: columns 10..49 */
	slice(db, 0, 0, 0, t0 + 50000, 50000);		/* idle: 50..99 blank */
	slice(db, 0, 3, 11, t0 + 100000, 5);		/* beta, 5 ns: column 100 */
	slice(db, 0, 3, 11, t0 + 110000, 300);		/* beta, 300 ns: column 110 */
	slice(db, 1, 3, 11, t0 + 200500, 99500);	/* beta from the middle of column 200 */
	w = plot_width(db, &o);
	assert_true(w > 300);
	o.start = t0;
	o.end = t0 + (int64_t)w * 1000;
	assert_int_equal(draw(db, &o, &im, &info, &err), 0);
	assert_int_equal(info.nlanes, 2);
	assert_int_equal(info.lanes[0].cpu, 0);
	assert_int_equal(info.lanes[1].cpu, 1);
	for (int l = 0; l < 2; l++) {
		const struct trax_plot_lane *ln = &info.lanes[l];
		int h = (int)ln->h;

		for (int k = 0; k < w; k++) {
			int x = (int)ln->x + k, got;

			if (l == 0 && k >= 10 && k < 50) {
				got = coloured_height(&im, ln, x, alpha);
				assert_int_equal(got, h);
			} else if (l == 0 && k == 100) {
				got = coloured_height(&im, ln, x, beta);
				assert_int_equal(got, 1);	/* 0.005 of a column: 1 px */
			} else if (l == 0 && k == 110) {
				got = coloured_height(&im, ln, x, beta);
				assert_true(got >= 0.3 * h - 1 && got <= 0.3 * h + 1);
			} else if (l == 1 && k == 200) {
				got = coloured_height(&im, ln, x, beta);
				assert_true(got == h / 2 || got == (h + 1) / 2);
			} else if (l == 1 && k > 200 && k < 300) {
				got = coloured_height(&im, ln, x, beta);
				assert_int_equal(got, h);
			} else {
				got = coloured_height(&im, ln, x, 0xffffffff);
				if (got != 0)
					fprintf(stderr, "# lane %d column %d not blank\n", l, k);
				assert_int_equal(got, 0);
			}
		}
	}
	/* The same pixels when the window is a small part of the trace (one index range scan
	 * per CPU instead of one pass over the table). */
	assert_int_equal(sqlite3_exec(db, "UPDATE meta SET value='100000000' WHERE "
				      "key='trace.end_ts'", NULL, NULL, NULL), SQLITE_OK);
	{
		struct img im2;
		struct trax_plot_info info2;

		assert_int_equal(draw(db, &o, &im2, &info2, &err), 0);
		assert_int_equal(im2.stride, im.stride);
		assert_memory_equal(im2.data, im.data, (size_t)im.stride * im.h);
		cairo_surface_destroy(im2.s);
		trax_plot_info_release(&info2);
	}
	cairo_surface_destroy(im.s);
	trax_plot_info_release(&info);
	sqlite3_close(db);
}

/*
 * Column k is busy (k % 11) / 10 of its time (capped at 1), made of five short slices; the
 * drawn height is that fraction of the lane height to within one pixel.
 */
static void test_timeline_coverage(void **state)
{
	sqlite3 *db = canned(NULL);
	struct trax_plot_opts o;
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	struct img im;
	int64_t t0 = 1000000;
	int w, h;
	uint32_t alpha = rank_px(0);	/* the only task */

	(void)state;
	trax_plot_opts_init(&o);
	o.width = 600;
	o.height = 400;
	o.cpus = "0";
	slice(db, 1, 2, 10, t0, 1000);	/* so that the layout can be asked */
	w = plot_width(db, &o);
	o.start = t0;
	o.end = t0 + (int64_t)w * 1000;
	sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	for (int k = 0; k < w; k++) {
		int64_t busy = (k % 11) * 100;	/* ns of 1000 */

		if (busy > 1000)
			busy = 1000;
		for (int i = 0; i < 5 && busy; i++)
			slice(db, 0, 2, 10, t0 + k * 1000 + i * 200, busy / 5);
	}
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	assert_int_equal(draw(db, &o, &im, &info, &err), 0);
	assert_int_equal(info.nlanes, 1);
	h = (int)info.lanes[0].h;
	for (int k = 0; k < w; k++) {
		double f = (k % 11) / 10.0 > 1 ? 1 : (k % 11) / 10.0;
		int got = coloured_height(&im, &info.lanes[0], (int)info.lanes[0].x + k, alpha);
		double want = f * h;

		if (f > 0 && want < 1)
			want = 1;
		assert_true(got >= 0);
		if (got < want - 1 || got > want + 1)
			fprintf(stderr, "# column %d: %d px, want %.1f\n", k, got, want);
		assert_true(got >= want - 1 && got <= want + 1);
	}
	cairo_surface_destroy(im.s);
	trax_plot_info_release(&info);
	sqlite3_close(db);
}

/*
 * A real trace (bart/raw_trace.dat, 6 CPUs): per lane and column, the coloured height matches
 * the busy fraction computed by SQL (sum of non-idle slice overlaps with the column) to within
 * one pixel, and a column is coloured exactly when that sum is positive.
 */
static void test_timeline_real_trace(void **state)
{
	const char *shared = getenv("TRAX_SHARED");
	char path[4096];
	struct trax_plot_opts o;
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	struct img im;
	double npc;

	(void)state;
	snprintf(path, sizeof(path), "%s/traces/bart/raw_trace.dat", shared ? shared : "../shared");
	if (access(path, R_OK)) {
		printf("# SKIP %s absent (../shared/traces is not part of the repository)\n", path);
		skip();
	}
	assert_int_equal(trax_db_open(path, NULL, &db, &err), 0);
	trax_plot_opts_init(&o);
	o.width = 1000;
	o.height = 500;
	o.markers = 0;
	assert_int_equal(draw(db, &o, &im, &info, &err), 0);
	assert_int_equal(info.nlanes, 6);
	npc = (double)(info.end - info.start) / info.w;
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT coalesce(sum(min(ts + dur, ?3) - "
					    "max(ts, ?2)), 0) FROM sched_slice WHERE cpu = ?1 AND "
					    "pid != 0 AND ts < ?3 AND ts + dur > ?2", -1, &st,
					    NULL),
			 SQLITE_OK);
	for (int l = 0; l < info.nlanes; l++) {
		const struct trax_plot_lane *ln = &info.lanes[l];
		int h = (int)ln->h;

		for (int k = 0; k < (int)info.w; k++) {
			double a = info.start + k * npc, b = info.start + (k + 1) * npc, f, want;
			int got = 0, x = (int)ln->x + k;

			sqlite3_bind_int(st, 1, ln->cpu);
			sqlite3_bind_double(st, 2, a);
			sqlite3_bind_double(st, 3, b);
			assert_int_equal(sqlite3_step(st), SQLITE_ROW);
			f = sqlite3_column_double(st, 0) / npc;
			sqlite3_reset(st);
			/* Count non-background pixels up from the bottom (any task colour). */
			while (got < h && px(&im, x, (int)ln->y + h - 1 - got) != LANE_BG)
				got++;
			want = f * h;
			if (f > 0 && want < 1)
				want = 1;
			if (got < want - 1 - 1e-6 || got > want + 1 + 1e-6)
				fprintf(stderr, "# CPU %d column %d: %d px, want %.2f\n", ln->cpu,
					k, got, want);
			assert_true(got >= want - 1 - 1e-6 && got <= want + 1 + 1e-6);
			assert_int_equal(got > 0, f > 0);
		}
	}
	sqlite3_finalize(st);
	cairo_surface_destroy(im.s);
	trax_plot_info_release(&info);
	sqlite3_close(db);
}

/* --task: the selected task keeps its colour (any of its names matches), others are grey;
 * a thread is one colour, its last name's (gamma, also before its rename from beta). */
static void test_timeline_task_and_rename(void **state)
{
	sqlite3 *db = canned(NULL);
	struct trax_plot_opts o;
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	struct img im;
	int64_t t0 = 1000000;
	int w;
	const struct trax_plot_lane *ln;

	(void)state;
	trax_plot_opts_init(&o);
	o.width = 700;
	o.height = 300;
	slice(db, 0, 3, 11, t0, 100000);		/* beta (renamed at +500000) */
	slice(db, 0, 3, 11, t0 + 500000, 50000);	/* gamma */
	slice(db, 1, 2, 10, t0, 100000);		/* alpha */
	w = plot_width(db, &o);
	o.start = t0;
	o.end = t0 + (int64_t)w * 1000;
	o.task = "gam*";
	assert_int_equal(draw(db, &o, &im, &info, &err), 0);
	ln = &info.lanes[0];
	/* one thread, gamma, 150000 ns; alpha 100000: gamma ranks 0 */
	assert_int_equal(coloured_height(&im, ln, (int)ln->x + 50, rank_px(0)), (int)ln->h);
	assert_int_equal(coloured_height(&im, ln, (int)ln->x + 520, rank_px(0)),
			 (int)ln->h);
	ln = &info.lanes[1];
	assert_int_equal(coloured_height(&im, ln, (int)ln->x + 50, 0xb0b0b0), (int)ln->h);
	cairo_surface_destroy(im.s);
	trax_plot_info_release(&info);
	sqlite3_close(db);
}

/* Residency: CPU 0 busy the whole window with alpha, CPU 1 a quarter of it with beta; the
 * bars are 100 % and 25 % of the plot height. */
static void test_residency_bars(void **state)
{
	sqlite3 *db = canned(NULL);
	struct trax_plot_opts o;
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	struct img im;
	/* alpha 1 ms; utid 3 0.25 ms, under its last name gamma */
	uint32_t want[2] = { rank_px(0), rank_px(1) };
	struct trax_plot_palette *pal = NULL;
	double frac[2] = { 1.0, 0.25 };

	(void)state;
	slice(db, 0, 2, 10, 1000000, 1000000);
	slice(db, 1, 3, 11, 1000000, 250000);
	slice(db, 1, 1, 0, 1250000, 750000);
	trax_plot_opts_init(&o);
	o.kind = TRAX_PLOT_RESIDENCY;
	o.width = 800;
	o.height = 400;
	for (int pass = 0; pass < 2; pass++) {
		assert_int_equal(draw(db, &o, &im, &info, &err), 0);
		for (int i = 0; i < 2; i++) {
			int x = (int)(info.x + info.w / 2 * i + info.w / 4);
			int bottom = (int)(info.y + info.h);
			int n = 0;

			while (n < bottom && px(&im, x, bottom - 1 - n) == want[i])
				n++;
			assert_true(n >= frac[i] * info.h - 1 && n <= frac[i] * info.h + 1);
		}
		cairo_surface_destroy(im.s);
		trax_plot_info_release(&info);
		if (pass == 0) {
			/* A palette passed in opts is the one used: from a database where beta
			 * is the busier, the colours swap. */
			sqlite3 *other = canned(NULL);

			slice(other, 0, 3, 11, 1000000, 500000);
			slice(other, 0, 2, 10, 1500000, 100000);
			assert_int_equal(trax_plot_palette_new(other, 0, &pal, &err), 0);
			sqlite3_close(other);
			o.palette = pal;
			want[0] = rank_px(1);
			want[1] = rank_px(0);
		}
	}
	trax_plot_palette_free(pal);
	sqlite3_close(db);
}

/* Counters: a frequency track at 500000 kHz, then 1000000 kHz from the middle: the line sits
 * at the bottom of the lane on the left and at its top on the right. */
static void test_counters_step(void **state)
{
	sqlite3 *db = canned(FREQ_TRACK);
	struct trax_plot_opts o;
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	struct img im;
	const struct trax_plot_lane *ln;
	int left_low = 0, right_high = 0;

	(void)state;
	trax_plot_opts_init(&o);
	o.kind = TRAX_PLOT_COUNTERS;
	o.width = 800;
	o.height = 300;
	assert_int_equal(draw(db, &o, &im, &info, &err), 0);
	assert_int_equal(info.nlanes, 1);
	ln = &info.lanes[0];
	for (int y = (int)ln->y; y < (int)(ln->y + ln->h); y++) {
		uint32_t a = px(&im, (int)(ln->x + ln->w / 4), y);
		uint32_t b = px(&im, (int)(ln->x + ln->w * 3 / 4), y);

		if (a != LANE_BG && y > ln->y + ln->h * 0.8)
			left_low = 1;
		if (b != LANE_BG && b != 0x222222 && y > ln->y + 12 && y < ln->y + ln->h * 0.4)
			right_high = 1;
	}
	assert_true(left_low);
	assert_true(right_high);
	cairo_surface_destroy(im.s);
	trax_plot_info_release(&info);
	sqlite3_close(db);
}

/* Distributions count what the filters select: 3 non-idle slices, 2 of them on CPU 0, 1 of
 * alpha; wakeup latency reads thread_state "R" rows; SQL gives its own values. */
static void test_distribution_counts(void **state)
{
	sqlite3 *db = canned("INSERT INTO thread_state VALUES(1100000,2000,2,'R',0,3,0),"
			     "(1200000,5000,2,'R+',0,NULL,0),(1300000,7000,3,'R',1,2,0);");
	struct trax_plot_opts o;
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	struct img im;
	static const struct { int kind; enum trax_plot_durations d; const char *cpus, *task;
			      const char *sql; int logx; uint64_t n; } cases[] = {
		{ TRAX_PLOT_HISTOGRAM, TRAX_DUR_SLICES, NULL, NULL, NULL, 0, 3 },
		{ TRAX_PLOT_CDF, TRAX_DUR_SLICES, "0", NULL, NULL, 0, 2 },
		{ TRAX_PLOT_CDF, TRAX_DUR_SLICES, NULL, "alpha", NULL, 1, 1 },
		{ TRAX_PLOT_HISTOGRAM, TRAX_DUR_WAKEUP, NULL, NULL, NULL, 1, 2 },
		{ TRAX_PLOT_CDF, TRAX_DUR_RUNNABLE, NULL, NULL, NULL, 0, 3 },
		{ TRAX_PLOT_HISTOGRAM, TRAX_DUR_SQL, NULL, NULL,
		  "SELECT value FROM (SELECT 5 AS value UNION ALL SELECT 7 UNION ALL SELECT NULL)",
		  0, 2 },
	};

	(void)state;
	slice(db, 0, 2, 10, 1000000, 1000);
	slice(db, 0, 3, 11, 1100000, 2000);
	slice(db, 1, 3, 11, 1200000, 3000);
	slice(db, 1, 1, 0, 1300000, 4000);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		trax_plot_opts_init(&o);
		o.kind = cases[i].kind;
		o.durations = cases[i].d;
		o.cpus = cases[i].cpus;
		o.task = cases[i].task;
		o.sql = cases[i].sql;
		o.logx = cases[i].logx;
		o.width = 600;
		o.height = 300;
		assert_int_equal(draw(db, &o, &im, &info, &err), 0);
		assert_int_equal(info.values, cases[i].n);
		cairo_surface_destroy(im.s);
		trax_plot_info_release(&info);
	}
	sqlite3_close(db);
}

#define BAR_PX 0x4078b5u	/* the histogram's bars: rgb(0.25, 0.47, 0.71) */

/* Height in pixels of the bar at column x: bar colour counted up from the plot's bottom. */
static int bar_height(const struct img *im, const struct trax_plot_info *info, int x)
{
	int y = (int)(info->y + info->h) - 1, n = 0;

	while (y - n >= (int)info->y && px(im, x, y - n) == BAR_PX)
		n++;
	return n;
}

#define HUNDRED "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99) "

/*
 * The value axis and the bins, counted by hand. 0 .. 10 in 5 bins over [0, 10]: 2, 2, 2, 2
 * and 3 (10 is in the last); a linear axis shows them, so it stays linear (and a
 * single decade is no tail). 40 x 1 us, 40 x 10 us, 20 x 1 ms: a linear axis crowds 80 of
 * the 100 into its first bin, so the axis is log over 1 us .. 1 ms (3 decades): 3 bins of a
 * decade hold 40, 40, 20; 10 automatic bins of 0.3 decades hold 40 in bin 0, 40 in bin 3
 * (10 us = 1/0.3 = 3.3 bins in) and 20 in bin 9 (the last, closed); forced linear, 3 bins
 * over [1 us, 1 ms] hold 80, 0, 20. The CDF chooses its axis by the same rule.
 */
static void test_distribution_axis(void **state)
{
	sqlite3 *db = canned(NULL);
	static const char *const small = "SELECT value FROM (" HUNDRED "SELECT i AS value FROM n "
					 "WHERE i <= 10)";
	static const char *const tail = HUNDRED "SELECT CASE WHEN i < 40 THEN 1000 WHEN i < 80 "
					"THEN 10000 ELSE 1000000 END FROM n";
	static const struct { int kind, tail, logx, bins, want_log, nb;
			      uint64_t want[10]; } cases[] = {
		{ TRAX_PLOT_HISTOGRAM, 0, TRAX_PLOT_LOGX_AUTO, 5, 0, 5, { 2, 2, 2, 2, 3 } },
		{ TRAX_PLOT_HISTOGRAM, 1, TRAX_PLOT_LOGX_AUTO, 3, 1, 3, { 40, 40, 20 } },
		{ TRAX_PLOT_HISTOGRAM, 1, TRAX_PLOT_LOGX_AUTO, 0, 1, 10,
		  { 40, 0, 0, 40, 0, 0, 0, 0, 0, 20 } },
		{ TRAX_PLOT_HISTOGRAM, 1, TRAX_PLOT_LOGX_OFF, 3, 0, 3, { 80, 0, 20 } },
		{ TRAX_PLOT_HISTOGRAM, 0, TRAX_PLOT_LOGX_ON, 5, 1, 0, { 0 } },
		{ TRAX_PLOT_CDF, 0, TRAX_PLOT_LOGX_AUTO, 0, 0, 0, { 0 } },
		{ TRAX_PLOT_CDF, 1, TRAX_PLOT_LOGX_AUTO, 0, 1, 0, { 0 } },
		{ TRAX_PLOT_CDF, 1, TRAX_PLOT_LOGX_OFF, 0, 0, 0, { 0 } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct trax_plot_opts o;
		struct trax_plot_info info;
		struct trax_error err = { 0 };
		struct img im;

		trax_plot_opts_init(&o);
		o.kind = cases[i].kind;
		o.durations = TRAX_DUR_SQL;
		o.sql = cases[i].tail ? tail : small;
		o.logx = cases[i].logx;
		o.bins = cases[i].bins;
		o.width = 800;
		o.height = 400;
		assert_int_equal(draw(db, &o, &im, &info, &err), 0);
		assert_int_equal(info.logx, cases[i].want_log);
		if (cases[i].kind == TRAX_PLOT_HISTOGRAM && cases[i].nb) {
			double bw = info.w / cases[i].nb;
			int h0 = 0;

			assert_int_equal(info.nbins, cases[i].nb);
			for (int k = 0; k < cases[i].nb; k++) {
				int h = bar_height(&im, &info, (int)(info.x + (k + 0.5) * bw));

				assert_int_equal(info.bins[k], cases[i].want[k]);
				/* the drawing: heights in proportion, bin 0 the reference */
				if (k == 0)
					h0 = h;
				else
					assert_true(abs(h * (int)cases[i].want[0] -
							h0 * (int)cases[i].want[k]) <=
						    (int)cases[i].want[0]);
				assert_int_equal(h > 0, cases[i].want[k] > 0);
			}
		}
		cairo_surface_destroy(im.s);
		trax_plot_info_release(&info);
	}
	sqlite3_close(db);
}

/*
 * The juno trace's 1431 slices run from 2 us to 2.5 s: a linear axis put them all in one bar;
 * the default histogram is on a log axis and no bar holds 90 % of them, in its bins and in its
 * pixels (bar area per bin, from the drawing).
 */
static void test_distribution_juno(void **state)
{
	const char *shared = getenv("TRAX_SHARED");
	char path[4096];
	struct trax_plot_opts o;
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	sqlite3 *db = NULL;
	struct img im;
	uint64_t max = 0, sum = 0;
	double area[200] = { 0 }, total = 0, amax = 0, bw;

	(void)state;
	snprintf(path, sizeof(path), "%s/traces/lisa/juno_sched_raw.txt",
		 shared ? shared : "../shared");
	if (access(path, R_OK)) {
		printf("# SKIP %s absent (../shared/traces is not part of the repository)\n", path);
		skip();
	}
	assert_int_equal(trax_db_open(path, NULL, &db, &err), 0);
	trax_plot_opts_init(&o);
	o.kind = TRAX_PLOT_HISTOGRAM;
	o.width = 1200;
	o.height = 600;
	assert_int_equal(draw(db, &o, &im, &info, &err), 0);
	assert_int_equal(info.values, 1431);
	assert_int_equal(info.logx, 1);
	assert_true(info.nbins > 5 && info.nbins <= 200);
	for (int k = 0; k < info.nbins; k++) {
		max = info.bins[k] > max ? info.bins[k] : max;
		sum += info.bins[k];
	}
	assert_int_equal(sum, 1431);
	assert_true(max * 10 < sum * 9);
	bw = info.w / info.nbins;
	for (int x = 0; x < (int)info.w; x++) {
		int k = (int)(x / bw);

		area[k] += bar_height(&im, &info, (int)info.x + x);
		total += bar_height(&im, &info, (int)info.x + x);
	}
	for (int k = 0; k < info.nbins; k++)
		amax = area[k] > amax ? area[k] : amax;
	assert_true(total > 0 && amax < 0.9 * total);
	cairo_surface_destroy(im.s);
	trax_plot_info_release(&info);
	sqlite3_close(db);
}

/* Errors: one line each, the right code, nothing left behind. */
static void test_errors(void **state)
{
	sqlite3 *db = canned(NULL);
	struct trax_plot_opts o;
	struct trax_error err = { 0 };
	char path[] = "/tmp/trax-test-plot-XXXXXX", out[128];
	struct stat sb;

	(void)state;
	assert_non_null(mkdtemp(path));
	snprintf(out, sizeof(out), "%s/x.png", path);
	trax_plot_opts_init(&o);
	/* No slices at all. */
	assert_int_equal(trax_plot_write(db, &o, TRAX_PLOT_PNG, out, NULL, &err), -TRAX_E_EVAL);
	assert_non_null(strstr(err.msg, "hand.dat"));
	assert_int_not_equal(stat(out, &sb), 0);
	slice(db, 0, 2, 10, 1000000, 1000);
	o.kind = TRAX_PLOT_COUNTERS;
	assert_int_equal(trax_plot_write(db, &o, TRAX_PLOT_SVG, out, NULL, &err), -TRAX_E_EVAL);
	assert_non_null(strstr(err.msg, "no counter tracks"));
	o.kind = TRAX_PLOT_TIMELINE;
	o.cpus = "0-7";
	assert_int_equal(trax_plot_write(db, &o, TRAX_PLOT_PDF, out, NULL, &err), -TRAX_E_USAGE);
	assert_non_null(strstr(err.msg, "CPU 7"));
	o.cpus = "zero";
	assert_int_equal(trax_plot_write(db, &o, TRAX_PLOT_PDF, out, NULL, &err), -TRAX_E_USAGE);
	o.cpus = NULL;
	o.kind = TRAX_PLOT_HISTOGRAM;
	o.durations = TRAX_DUR_SQL;
	o.sql = "DELETE FROM sched_slice";
	assert_int_equal(trax_plot_write(db, &o, TRAX_PLOT_PNG, out, NULL, &err), -TRAX_E_USAGE);
	o.sql = "SELECT 'x'";
	assert_int_equal(trax_plot_write(db, &o, TRAX_PLOT_PNG, out, NULL, &err), -TRAX_E_USAGE);
	assert_int_not_equal(stat(out, &sb), 0);
	/* A folder that does not exist. */
	o.kind = TRAX_PLOT_TIMELINE;
	assert_int_equal(trax_plot_write(db, &o, TRAX_PLOT_PNG, "/nonexistent/x.png", NULL, &err),
			 -TRAX_E_IO);
	assert_non_null(strstr(err.msg, "/nonexistent/x.png"));
	rmdir(path);
	sqlite3_close(db);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The table of kinds (plot/kinds.h): names round-trip, help lines are the kind's, every event
 * a kind needs is one the event catalogue knows, and the options read as --help says. */
static void test_kind_table(void **state)
{
	static const struct { unsigned opt; const char *kinds; } takes[] = {
		/* from `trax plot --help`, by hand */
		{ TRAX_PLOT_OPT_TASK, "timeline, residency, histogram and cdf" },
		{ TRAX_PLOT_OPT_TRACK, "counters" },
		{ TRAX_PLOT_OPT_OF, "histogram and cdf" },
		{ TRAX_PLOT_OPT_BINS, "histogram" },
		{ TRAX_PLOT_OPT_LOG, "histogram and cdf" },
		{ TRAX_PLOT_OPT_GROUP, "residency" },
		{ 0, "timeline, counters, residency, histogram and cdf" },
	};

	(void)state;
	assert_int_equal(TRAX_PLOT_NKINDS, 5);
	assert_null(trax_plot_kind_def(TRAX_PLOT_NKINDS));
	for (int k = 0; k < TRAX_PLOT_NKINDS; k++) {
		const struct trax_plot_kind_def *d = trax_plot_kind_def((enum trax_plot_kind)k);
		enum trax_plot_kind back;
		char prefix[32], *events, *save = NULL;

		assert_non_null(d);
		assert_string_equal(trax_plot_kind_name((enum trax_plot_kind)k), d->name);
		assert_int_equal(trax_plot_kind_parse(d->name, &back), 0);
		assert_int_equal(back, k);
		snprintf(prefix, sizeof(prefix), "  %-12s", d->name);
		assert_memory_equal(d->help, prefix, strlen(prefix));
		assert_int_equal(d->help[strlen(d->help) - 1], '\n');
		assert_true(d->events[0]);
		events = strdup(d->events);
		for (char *e = strtok_r(events, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
			if (!trax_event_known(e, NULL))
				fail_msg("%s needs %s, not in the event catalogue", d->name, e);
		}
		free(events);
	}
	assert_int_equal(trax_plot_kind_parse("pie", &(enum trax_plot_kind){ 0 }), -1);
	for (size_t i = 0; i < sizeof(takes) / sizeof(takes[0]); i++) {
		struct strbuf sb = STRBUF_INIT;

		trax_plot_kinds_taking(takes[i].opt, &sb);
		assert_string_equal(sb.buf, takes[i].kinds);
		strbuf_release(&sb);
	}
}

/* Every kind in every format: the PNG decodes at its size, and the same input gives the same
 * bytes twice (PNG, SVG, and PDF with its fixed metadata). */
static void test_formats_deterministic(void **state)
{
	sqlite3 *db = canned(FREQ_TRACK);
	static const char *const ext[] = { "png", "svg", "pdf" };
	char dir[] = "/tmp/trax-test-plot-XXXXXX", a[128], b[128];

	(void)state;
	unsetenv("SOURCE_DATE_EPOCH");
	assert_non_null(mkdtemp(dir));
	slice(db, 0, 2, 10, 1000000, 400000);
	slice(db, 1, 3, 11, 1200000, 300000);
	for (int k = 0; k < TRAX_PLOT_NKINDS; k++) {
		for (int f = 0; f < 3; f++) {
			struct trax_plot_opts o;
			struct trax_error err = { 0 };
			size_t la, lb;
			char *x, *y;

			trax_plot_opts_init(&o);
			o.kind = (enum trax_plot_kind)k;
			o.width = 640;
			o.height = 360;
			snprintf(a, sizeof(a), "%s/a.%s", dir, ext[f]);
			snprintf(b, sizeof(b), "%s/b.%s", dir, ext[f]);
			assert_int_equal(trax_plot_write(db, &o, (enum trax_plot_format)f, a, NULL,
							 &err), 0);
			if (f == 2)
				sleep(1);	/* a creation date from the clock would differ */
			assert_int_equal(trax_plot_write(db, &o, (enum trax_plot_format)f, b, NULL,
							 &err), 0);
			x = slurp(a, &la);
			y = slurp(b, &lb);
			assert_true(la > 100);
			assert_int_equal(la, lb);
			if (memcmp(x, y, la))
				fprintf(stderr, "# %s differs\n", a);
			assert_memory_equal(x, y, la);
			if (f == 0) {
				cairo_surface_t *s = cairo_image_surface_create_from_png(a);

				assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
				assert_int_equal(cairo_image_surface_get_width(s), 640);
				assert_int_equal(cairo_image_surface_get_height(s), 360);
				cairo_surface_destroy(s);
			} else if (f == 1) {
				assert_non_null(strstr(x, "<svg"));
				assert_non_null(strstr(x, "width=\"640"));
			} else {
				assert_memory_equal(x, "%PDF-", 5);
				/* Our date (cairo 1.16 writes it without "D:"), not today's. */
				assert_non_null(memmem(x, la, "/CreationDate (19700101000000Z)",
						       31));
				assert_non_null(memmem(x, la, "/Creator (trax", 14));
			}
			free(x);
			free(y);
			unlink(a);
			unlink(b);
		}
	}
	rmdir(dir);
	sqlite3_close(db);
}

/*
 * SVG text is text: a timeline's task names (from the thread table written here) and its axis
 * caption are <text> elements, and no glyph is drawn as a path (<symbol>). Names are XML
 * escaped, bytes that are not UTF-8 become U+FFFD (in PNG too), and with an id prefix (charts inlined in
 * one HTML page) cairo's ids get the prefix while text holding "url(#" is left as it is.
 */
static void test_svg_text(void **state)
{
	sqlite3 *db = canned("INSERT INTO thread VALUES(4,12,12,'a<b&c url(#x)',NULL,NULL),"
			     "(5,13,13,CAST(X'6F6BFF21' AS TEXT),NULL,NULL);");
	struct trax_plot_opts o;
	struct trax_error err = { 0 };
	struct strbuf sb = STRBUF_INIT;
	struct img im;

	(void)state;
	slice(db, 0, 2, 10, 1000000, 400000);
	slice(db, 1, 4, 12, 1200000, 300000);
	slice(db, 1, 5, 13, 1600000, 100000);
	trax_plot_opts_init(&o);
	o.width = 800;
	o.height = 400;
	if (trax_plot_svg(db, &o, NULL, &sb, &err))
		fail_msg("%s", err.msg);
	assert_memory_equal(sb.buf, "<?xml", 5);
	assert_non_null(strstr(sb.buf, "fill=\"#222222\">alpha (10)</text>"));
	assert_non_null(strstr(sb.buf, ">a&lt;b&amp;c url(#x) (12)</text>"));
	assert_non_null(strstr(sb.buf, ">ok\xef\xbf\xbd! (13)</text>"));
	assert_non_null(strstr(sb.buf, ">time since the trace start (0.001000 s)</text>"));
	assert_non_null(strstr(sb.buf, "font-family=\"DejaVu Sans, Verdana, sans-serif\""));
	assert_null(strstr(sb.buf, "<symbol"));
	assert_null(strstr(sb.buf, "glyph"));
	/* the text group is inside the document, before its end */
	assert_true(strstr(sb.buf, "</text>") < strstr(sb.buf, "</svg>"));
	assert_null(strstr(strstr(sb.buf, "</svg>"), "<text"));
	strbuf_release(&sb);
	assert_int_equal(trax_plot_svg(db, &o, "c7-", &sb, &err), 0);
	assert_null(strstr(sb.buf, "<?xml"));
	assert_non_null(strstr(sb.buf, "id=\"c7-surface1\""));
	assert_non_null(strstr(sb.buf, ">a&lt;b&amp;c url(#x) (12)</text>"));
	strbuf_release(&sb);
	/* cairo refuses strings that are not UTF-8: the PNG is drawn too */
	assert_int_equal(draw(db, &o, &im, NULL, &err), 0);
	cairo_surface_destroy(im.s);
	sqlite3_close(db);
}

/* sRGB 0xRRGGBB to CIELAB (D65), by the CIE formulas (not the code under test). */
static void lab(uint32_t c, double out[3])
{
	double rgb[3], xyz[3], f[3];
	static const double wp[3] = { 0.95047, 1.0, 1.08883 };

	for (int i = 0; i < 3; i++) {
		double v = ((c >> (16 - 8 * i)) & 0xff) / 255.0;

		rgb[i] = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
	}
	xyz[0] = 0.4124564 * rgb[0] + 0.3575761 * rgb[1] + 0.1804375 * rgb[2];
	xyz[1] = 0.2126729 * rgb[0] + 0.7151522 * rgb[1] + 0.0721750 * rgb[2];
	xyz[2] = 0.0193339 * rgb[0] + 0.1191920 * rgb[1] + 0.9503041 * rgb[2];
	for (int i = 0; i < 3; i++) {
		double t = xyz[i] / wp[i];

		f[i] = t > 216.0 / 24389 ? cbrt(t) : t * 24389.0 / 27 / 116 + 16.0 / 116;
	}
	out[0] = 116 * f[1] - 16;
	out[1] = 500 * (f[0] - f[1]);
	out[2] = 200 * (f[1] - f[2]);
}

static double delta_e76(uint32_t a, uint32_t b)
{
	double x[3], y[3];

	lab(a, x);
	lab(b, y);
	return sqrt((x[0] - y[0]) * (x[0] - y[0]) + (x[1] - y[1]) * (x[1] - y[1]) +
		    (x[2] - y[2]) * (x[2] - y[2]));
}

/*
 * The palette: every pair of its TRAX_PLOT_PALETTE_N colours is more than 25 apart (CIE76;
 * 2.3 is a just-noticeable difference, and the old hashed colours had pairs under 5), each
 * more than 20 from the grey of the other tasks, the lane background and the text; beyond the
 * palette, ranks are grey.
 */
static void test_palette_distance(void **state)
{
	static const uint32_t others[] = { 0xb0b0b0, LANE_BG, 0xffffff, 0x222222 };
	double min = 1e9;

	(void)state;
	assert_true(TRAX_PLOT_PALETTE_N >= 10);
	for (int i = 0; i < TRAX_PLOT_PALETTE_N; i++) {
		for (int j = i + 1; j < TRAX_PLOT_PALETTE_N; j++) {
			double d = delta_e76(rank_px(i), rank_px(j));

			if (d <= 25)
				fail_msg("ranks %d and %d: %06x and %06x, dE76 %.1f", i, j,
					 rank_px(i), rank_px(j), d);
			min = d < min ? d : min;
		}
		for (size_t k = 0; k < sizeof(others) / sizeof(others[0]); k++)
			assert_true(delta_e76(rank_px(i), others[k]) > 20);
	}
	printf("# smallest dE76 between two task colours: %.1f\n", min);
	assert_int_equal(rank_px(-1), 0xb0b0b0);
	assert_int_equal(rank_px(TRAX_PLOT_PALETTE_N), 0xb0b0b0);
	assert_int_equal(rank_px(1000), 0xb0b0b0);
}

/*
 * Ranks by busyness in the whole database, counted by hand: 14 tasks t00 .. t13 (utid 10 ..
 * 23) run 14000 .. 1000 ns, so t00 is rank 0 and t12, t13 are grey; the idle task (pid 0)
 * runs longest and has no rank; utid 3, "beta" renamed "gamma" at 1500000, gives all its
 * 5000 + 20000 ns to its last name, gamma, and none to beta; a name of two threads sums them
 * ("alpha" 2 x 6500 = 13000); ties go by name.
 */
static void test_palette_ranks(void **state)
{
	struct strbuf sql = STRBUF_INIT;
	struct trax_plot_palette *p = NULL;
	struct trax_error err = { 0 };
	sqlite3 *db;
	double rgb[3];

	(void)state;
	for (int i = 0; i < 14; i++)
		strbuf_addf(&sql, "INSERT INTO thread VALUES(%d,%d,%d,'t%02d',NULL,NULL);",
			    10 + i, 100 + i, 100 + i, i);
	strbuf_adds(&sql, "INSERT INTO thread VALUES(30,200,200,'alpha',NULL,NULL);");
	db = canned(sql.buf);
	strbuf_release(&sql);
	for (int i = 0; i < 14; i++)
		slice(db, 0, 10 + i, 100 + i, 1000000 + i * 20000, 14000 - i * 1000);
	slice(db, 1, 1, 0, 1000000, 900000);		/* idle */
	slice(db, 1, 3, 11, 1100000, 5000);		/* beta */
	slice(db, 1, 3, 11, 1600000, 20000);		/* gamma */
	slice(db, 1, 2, 10, 1700000, 6500);		/* alpha, utid 2 */
	slice(db, 1, 30, 200, 1800000, 6500);		/* alpha, utid 30 */
	assert_int_equal(trax_plot_palette_new(db, 0, &p, &err), 0);
	/* gamma 25000, t00 14000, alpha and t01 13000 (alpha first by name), t02 12000 (4) ..
	 * t08 6000 (10), t09 5000 (11), t10 4000 the 13th: grey; beta has no time of its own */
	assert_int_equal(trax_plot_palette_rank(p, "gamma"), 0);
	assert_int_equal(trax_plot_palette_rank(p, "t00"), 1);
	assert_int_equal(trax_plot_palette_rank(p, "alpha"), 2);
	assert_int_equal(trax_plot_palette_rank(p, "t01"), 3);
	assert_int_equal(trax_plot_palette_rank(p, "t08"), 10);
	assert_int_equal(trax_plot_palette_rank(p, "t09"), 11);
	assert_int_equal(trax_plot_palette_rank(p, "beta"), -1);
	assert_int_equal(trax_plot_palette_rank(p, "t10"), -1);
	assert_int_equal(trax_plot_palette_rank(p, "swapper/1"), -1);
	assert_int_equal(trax_plot_palette_rank(p, "no-such-task"), -1);
	assert_int_equal(trax_plot_palette_rgb(p, "t10", rgb), -1);
	assert_true(rgb[0] == 0xb0 / 255.0 && rgb[1] == 0xb0 / 255.0 && rgb[2] == 0xb0 / 255.0);
	assert_int_equal(trax_plot_palette_rgb(p, "gamma", rgb), 0);
	assert_int_equal((uint32_t)lround(rgb[0] * 255) << 16 |
			 (uint32_t)lround(rgb[1] * 255) << 8 | (uint32_t)lround(rgb[2] * 255),
			 rank_px(0));
	assert_int_equal(trax_plot_palette_rank(NULL, "gamma"), -1);
	trax_plot_palette_free(p);
	sqlite3_close(db);
}

/*
 * The juno trace's tasks (ramp, sh, scp and ksoftirqd were near-identical greens): the
 * palette ranks the names by CPU time (a thread's under its last name), which SQL counts here,
 * and the residency legend of the
 * whole trace lists them in that order; the
 * twelve busiest have the colours of ranks 0 .. 11 in their swatches, pairwise far apart, and
 * the rest is one grey row of others.
 */
static void test_palette_juno(void **state)
{
	const char *shared = getenv("TRAX_SHARED");
	char path[4096], want[12][64];
	struct trax_plot_opts o;
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	struct trax_plot_palette *p = NULL;
	struct img im;
	uint32_t sw[13];
	int n = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/traces/lisa/juno_sched_raw.txt",
		 shared ? shared : "../shared");
	if (access(path, R_OK)) {
		printf("# SKIP %s absent (../shared/traces is not part of the repository)\n", path);
		skip();
	}
	assert_int_equal(trax_db_open(path, NULL, &db, &err), 0);
	/* Each thread under its last name (renames are many here: sshd > sh > scp,
	 * rt-app > ramp). */
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT coalesce((SELECT comm FROM thread_comm c "
					    "WHERE c.utid = s.utid ORDER BY c.ts DESC LIMIT 1), "
					    "t.comm) AS name FROM sched_slice s JOIN thread t "
					    "USING (utid) WHERE s.pid != 0 GROUP BY name ORDER BY "
					    "sum(s.dur) DESC, name LIMIT 12", -1, &st, NULL),
			 SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW)
		snprintf(want[n++], sizeof(want[0]), "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	assert_int_equal(n, 12);
	assert_string_equal(want[0], "ramp");
	assert_int_equal(trax_plot_palette_new(db, 0, &p, &err), 0);
	for (int r = 0; r < 12; r++)
		assert_int_equal(trax_plot_palette_rank(p, want[r]), r);
	assert_int_equal(trax_plot_palette_rank(p, "ksoftirqd/0"), -1);
	trax_plot_palette_free(p);
	trax_plot_opts_init(&o);
	o.kind = TRAX_PLOT_RESIDENCY;
	o.width = 1200;
	o.height = 600;
	assert_int_equal(draw(db, &o, &im, &info, &err), 0);
	for (int r = 0; r < 13; r++) {
		/* the swatch of legend row r: 10 x 10 at (x + w + 16, y + 16 r + 2) */
		sw[r] = px(&im, (int)(info.x + info.w + 16 + 5), (int)(info.y + r * 16 + 7));
		if (r < 12)
			assert_int_equal(sw[r], rank_px(r));
		for (int k = 0; k < r && r < 12; k++)
			assert_true(delta_e76(sw[r], sw[k]) > 25);
	}
	assert_int_equal(sw[12], 0xb0b0b0);
	cairo_surface_destroy(im.s);
	trax_plot_info_release(&info);
	sqlite3_close(db);
}

/* The row (or column) where a colour runs longest across the plot area: a reference line. */
static int longest_run(const struct img *im, int vertical, int from, int to, int a0, int a1,
		       uint32_t want)
{
	int best = -1, bestn = 0;

	for (int k = from; k < to; k++) {
		int n = 0;

		for (int a = a0; a < a1; a++)
			n += (vertical ? px(im, k, a) : px(im, a, k)) == want;
		if (n > bestn) {
			bestn = n;
			best = k;
		}
	}
	return best;
}

#define REF_RED 0xd62728u

static int cdist(uint32_t a, uint32_t b)
{
	int d = 0;

	for (int sh = 0; sh < 24; sh += 8) {
		int x = (int)((a >> sh) & 0xff) - (int)((b >> sh) & 0xff);

		d += x * x;
	}
	return d;
}

/* Which of the lane background (0), a line colour (1) or other (2) a pixel is nearest. */
static int nearest(uint32_t p, uint32_t line, uint32_t other)
{
	int b = cdist(p, LANE_BG), l = cdist(p, line), o = cdist(p, other);

	return l < b && l < o ? 1 : o < b ? 2 : 0;
}
#define REF_BLUE 0x1f77b4u

/*
 * Reference lines: on residency bars, a 50 % threshold halfway up the axis (alpha fills CPU 0:
 * the axis runs 0 .. 100 %) and a 25 % baseline at the top of beta's bar; a 150 % line lies
 * beyond the axis (capped at 100 %) and is marked at its edge. On counters, a line at 750000 kHz
 * sits midway between the two steps (500000, 1000000); one at 1500000 widens the lane's range,
 * so the 1000000 step moves to the middle. On a linear CDF of 1, 2 and 3 us, a line at 2 us is
 * midway between lines at 1 and 3 us.
 */
static void test_ref_lines(void **state)
{
	struct trax_plot_ref res_refs[] = {
		{ 50, "threshold >= 50 %", TRAX_PLOT_REF_THRESHOLD },
		{ 25, "baseline 25 %", TRAX_PLOT_REF_BASELINE },
		{ 150, "far", TRAX_PLOT_REF_LIMIT },
	};
	struct trax_plot_ref cnt_refs[] = { { 750000, "threshold 750 MHz", 0 } };
	struct trax_plot_ref wide_refs[] = { { 1500000, "threshold 1.5 GHz", 0 } };
	struct trax_plot_ref cdf_refs[] = { { 1000, "a", 0 }, { 2000, "b", 1 }, { 3000, "c", 2 } };
	struct trax_plot_opts o;
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	struct img im;
	sqlite3 *db = canned(NULL);
	double want;
	int row, left, right, x;

	(void)state;
	slice(db, 0, 2, 10, 1000000, 1000000);
	slice(db, 1, 3, 11, 1000000, 250000);
	trax_plot_opts_init(&o);
	o.kind = TRAX_PLOT_RESIDENCY;
	o.width = 800;
	o.height = 400;
	o.refs = res_refs;
	o.nrefs = 3;
	assert_int_equal(draw(db, &o, &im, &info, &err), 0);
	assert_int_equal(info.nrefs, 3);
	want = info.y + info.h * 0.5;
	assert_true(info.refs[0].ref == 0 && !info.refs[0].vertical && info.refs[0].inside);
	assert_true(info.refs[0].pos >= want - 1 && info.refs[0].pos <= want + 1);
	want = info.y + info.h * 0.75;
	assert_true(info.refs[1].inside && info.refs[1].pos >= want - 1 &&
		    info.refs[1].pos <= want + 1);
	assert_false(info.refs[2].inside);
	assert_true(info.refs[2].pos >= info.y - 1 && info.refs[2].pos <= info.y + 1);
	/* The red line is drawn where info says: the longest red row of the plot area. */
	row = longest_run(&im, 0, (int)info.y, (int)(info.y + info.h), (int)info.x,
			  (int)(info.x + info.w), REF_RED);
	assert_int_equal(row, (int)info.refs[0].pos);
	row = longest_run(&im, 0, (int)info.y, (int)(info.y + info.h), (int)info.x,
			  (int)(info.x + info.w), REF_BLUE);
	assert_true(abs(row - (int)info.refs[1].pos) <= 1);
	cairo_surface_destroy(im.s);
	trax_plot_info_release(&info);
	sqlite3_close(db);

	/* Counters: rows of the step line at 1/4 and 3/4 of the lane's width. */
	db = canned(FREQ_TRACK);
	for (int wide = 0; wide < 2; wide++) {
		const struct trax_plot_lane *ln;
		uint32_t line;
		char name[128];
		int yl = -1, yr = -1;

		trax_plot_opts_init(&o);
		o.kind = TRAX_PLOT_COUNTERS;
		o.width = 800;
		o.height = 300;
		o.refs = wide ? wide_refs : cnt_refs;
		o.nrefs = 1;
		assert_int_equal(draw(db, &o, &im, &info, &err), 0);
		assert_int_equal(info.nrefs, 1);
		assert_int_equal(info.refs[0].lane, 0);
		/* the line's colour is its track's: the first lane's name */
		assert_non_null(info.names);
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(info.names, "\n"), info.names);
		line = comm_px(name);
		ln = &info.lanes[0];
		left = (int)(ln->x + ln->w / 4);
		right = (int)(ln->x + ln->w * 3 / 4);
		for (int y = (int)ln->y + 1; y < (int)(ln->y + ln->h); y++) {
			if (yl < 0 && nearest(px(&im, left, y), line, REF_RED) == 1)
				yl = y;
			if (yr < 0 && nearest(px(&im, right, y), line, REF_RED) == 1)
				yr = y;
		}
		assert_true(yl > 0 && yr > 0 && yl > yr);
		row = (int)info.refs[0].pos;
		if (!wide)
			assert_true(abs(2 * row - (yl + yr)) <= 3);
		else
			assert_true(abs(2 * yr - (yl + row)) <= 3);
		assert_int_equal(px(&im, (int)(ln->x + 3), row), REF_RED);
		cairo_surface_destroy(im.s);
		trax_plot_info_release(&info);
	}
	sqlite3_close(db);

	/* A linear CDF: vertical lines. */
	db = canned(NULL);
	slice(db, 0, 2, 10, 1000000, 1000);
	slice(db, 0, 3, 11, 1100000, 2000);
	slice(db, 1, 3, 11, 1200000, 3000);
	trax_plot_opts_init(&o);
	o.kind = TRAX_PLOT_CDF;
	o.width = 700;
	o.height = 300;
	o.refs = cdf_refs;
	o.nrefs = 3;
	assert_int_equal(draw(db, &o, &im, &info, &err), 0);
	assert_int_equal(info.nrefs, 3);
	for (int i = 0; i < 3; i++)
		assert_true(info.refs[i].vertical && info.refs[i].inside);
	assert_true(fabs(2 * info.refs[1].pos - info.refs[0].pos - info.refs[2].pos) <= 2);
	assert_true(info.refs[0].pos < info.refs[1].pos);
	x = (int)info.refs[0].pos;
	assert_int_equal(px(&im, x, (int)(info.y + info.h / 2)), REF_RED);
	cairo_surface_destroy(im.s);
	trax_plot_info_release(&info);
	sqlite3_close(db);
}

/*
 * The timeline's legend: the twelve threads with a palette colour are an entry each; the 13th
 * and 14th busiest (t12, t13: grey by rank, counted by hand) are one grey entry.
 */
static void test_legend_greys(void **state)
{
	struct strbuf sql = STRBUF_INIT;
	struct trax_plot_opts o;
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	struct img im;
	sqlite3 *db;

	(void)state;
	for (int i = 0; i < 14; i++)
		strbuf_addf(&sql, "INSERT INTO thread VALUES(%d,%d,%d,'t%02d',NULL,NULL);",
			    10 + i, 100 + i, 100 + i, i);
	db = canned(sql.buf);
	strbuf_release(&sql);
	for (int i = 0; i < 14; i++)
		slice(db, 0, 10 + i, 100 + i, 1000000 + i * 20000, 14000 - i * 1000);
	trax_plot_opts_init(&o);
	o.width = 2400;
	o.height = 400;
	assert_int_equal(draw(db, &o, &im, &info, &err), 0);
	assert_non_null(info.names);
	assert_non_null(strstr(info.names, "t00 (100)\n"));
	assert_non_null(strstr(info.names, "t11 (111)\n"));
	assert_null(strstr(info.names, "t12"));
	assert_null(strstr(info.names, "t13"));
	assert_non_null(strstr(info.names, "2 other threads\n"));
	cairo_surface_destroy(im.s);
	trax_plot_info_release(&info);
	sqlite3_close(db);
}

/*
 * --task on a task the palette leaves grey: twelve tasks t00..t11 (20 us each, ranks 0-11 by
 * name on the tie) take the palette, alpha (1 us) is grey. Selected, alpha must not be the grey
 * of "tasks not selected": it takes the first rank no selected name holds, rank 0, on the
 * timeline and in the residency bar. A second thread named alpha (pid 12) that --task 10 does
 * not select is not counted in alpha's legend entry ("alpha (10)", not "(2 threads)"), and
 * the atrace slices of a task not selected are grey as its CPU slices are.
 */
static void test_task_selected_colour(void **state)
{
	sqlite3 *db = canned(NULL);
	struct trax_plot_opts o;
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	struct img im;
	int64_t t0 = 1000000;
	const struct trax_plot_lane *ln;
	int w;

	(void)state;
	for (int i = 0; i < 12; i++) {
		char *sql = sqlite3_mprintf("INSERT INTO thread VALUES(%d,%d,%d,'t%02d',NULL,NULL);"
					    "INSERT INTO thread_comm VALUES(%d,%lld,'t%02d');",
					    4 + i, 20 + i, 20 + i, i, 4 + i, (long long)t0, i);

		assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
		sqlite3_free(sql);
		slice(db, 1, 4 + i, 20 + i, t0 + i * 20000, 20000);
	}
	assert_int_equal(sqlite3_exec(db, "INSERT INTO thread VALUES(16,12,12,'alpha',NULL,NULL);"
				      "INSERT INTO thread_comm VALUES(16,1000000,'alpha');",
				      NULL, NULL, NULL), SQLITE_OK);
	/* An atrace slice of t05 (not selected) over the whole window: grey like its lanes. */
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE slice(ts INTEGER, dur INTEGER, utid "
				      "INTEGER, depth INTEGER, name TEXT, buffer INTEGER);"
				      "INSERT INTO slice VALUES(1000000,1000000,9,0,'work',0);",
				      NULL, NULL, NULL), SQLITE_OK);
	slice(db, 0, 2, 10, t0, 1000);		/* alpha pid 10 */
	slice(db, 0, 16, 12, t0 + 500000, 1000);	/* alpha pid 12 */
	trax_plot_opts_init(&o);
	o.width = 700;
	o.height = 300;
	o.cpus = "0";
	w = plot_width(db, &o);
	o.start = t0;
	o.end = t0 + (int64_t)w * 1000;	/* 1 us per column: alpha fills column 0 */
	o.task = "10";
	assert_int_equal(draw(db, &o, &im, &info, &err), 0);
	ln = &info.lanes[0];
	assert_int_equal(coloured_height(&im, ln, (int)ln->x, rank_px(0)), (int)ln->h);
	assert_non_null(info.names);
	assert_non_null(strstr(info.names, "alpha (10)\n"));
	assert_null(strstr(info.names, "threads"));
	{
		int t05 = 0, grey = 0;

		for (int y = (int)(ln->y + ln->h); y < im.h; y++)
			for (int x = 0; x < im.w; x++) {
				t05 += px(&im, x, y) == rank_px(5);
				grey += px(&im, x, y) == 0xb0b0b0;
			}
		assert_int_equal(t05, 0);
		assert_true(grey > w / 2);	/* the slice row, most of the plot width */
	}
	cairo_surface_destroy(im.s);
	trax_plot_info_release(&info);

	o.kind = TRAX_PLOT_RESIDENCY;
	o.task = "alpha";
	o.start = o.end = 0;
	assert_int_equal(draw(db, &o, &im, &info, &err), 0);
	/* alpha ran 2 us of 1 ms on CPU 0: the bar is under a pixel, but the legend chip beside
	 * the bars is the task's colour; look for it anywhere right of the plot area. */
	{
		int found = 0;

		for (int y = 0; y < im.h && !found; y++)
			for (int x = (int)(info.x + info.w); x < im.w && !found; x++)
				found = px(&im, x, y) == rank_px(0);
		assert_true(found);
	}
	cairo_surface_destroy(im.s);
	trax_plot_info_release(&info);
	sqlite3_close(db);
}

/*
 * A window that runs past the trace's end (meta: 1000000 .. 2000000 ns) is cut to it: the
 * chart spans 1500000 .. 2000000, so a slice over the trace's last 100 us reaches the plot's
 * right edge and fills its last fifth (drawn to 3000000, it would end at a third).
 */
static void test_window_cut_to_trace(void **state)
{
	sqlite3 *db = canned(NULL);
	struct trax_plot_opts o;
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	struct img im;
	const struct trax_plot_lane *ln;
	int w;

	(void)state;
	slice(db, 0, 2, 10, 1900000, 100000);
	trax_plot_opts_init(&o);
	o.width = 700;
	o.height = 300;
	o.cpus = "0";
	o.start = 1500000;
	o.end = 3000000;
	assert_int_equal(draw(db, &o, &im, &info, &err), 0);
	assert_int_equal(info.start, 1500000);
	assert_int_equal(info.end, 2000000);
	ln = &info.lanes[0];
	w = (int)info.w;
	assert_int_equal(coloured_height(&im, ln, (int)ln->x + w - 1, rank_px(0)), (int)ln->h);
	assert_int_equal(coloured_height(&im, ln, (int)ln->x + w * 4 / 5 + 2, rank_px(0)),
			 (int)ln->h);
	assert_int_equal(coloured_height(&im, ln, (int)ln->x + w * 4 / 5 - 2, rank_px(0)), 0);
	cairo_surface_destroy(im.s);
	trax_plot_info_release(&info);
	sqlite3_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeline_pixels),
		cmocka_unit_test(test_timeline_coverage),
		cmocka_unit_test(test_timeline_real_trace),
		cmocka_unit_test(test_timeline_task_and_rename),
		cmocka_unit_test(test_residency_bars),
		cmocka_unit_test(test_counters_step),
		cmocka_unit_test(test_distribution_counts),
		cmocka_unit_test(test_distribution_axis),
		cmocka_unit_test(test_distribution_juno),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_kind_table),
		cmocka_unit_test(test_formats_deterministic),
		cmocka_unit_test(test_svg_text),
		cmocka_unit_test(test_palette_distance),
		cmocka_unit_test(test_palette_ranks),
		cmocka_unit_test(test_palette_juno),
		cmocka_unit_test(test_ref_lines),
		cmocka_unit_test(test_legend_greys),
		cmocka_unit_test(test_task_selected_colour),
		cmocka_unit_test(test_window_cut_to_trace),
	};

	int ret = cmocka_run_group_tests(tests, NULL, NULL);

	trax_plot_release_fonts();
	return ret;
}
