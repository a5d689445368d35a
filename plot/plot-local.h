/* plot/plot-local.h: what the chart kinds share inside plot/ (not a public header). */
#ifndef TRAX_PLOT_LOCAL_H
#define TRAX_PLOT_LOCAL_H

#include <stdint.h>

#include "plot/plot.h"

/* Geometry and type sizes, in surface units (pixels for PNG, points for SVG and PDF). */
#define CH_FONT "DejaVu Sans"
#define CH_TITLE_SIZE 14.0
#define CH_LABEL_SIZE 11.0
#define CH_SMALL_SIZE 9.5
#define CH_MARGIN 12		/* outer margin */
#define CH_TITLE_H 40		/* title and subtitle band */
#define CH_AXIS_H 36		/* time axis: ticks, labels, caption */

/* Threads: names over time, interned comms, and which ones --task selects. */
struct ch_comm_at {
	int64_t ts;		/* from when the thread had this name */
	int comm;		/* index into threads.comms */
};

struct ch_threads {
	int nutid;		/* utids are 0 .. nutid-1 */
	int *pid;		/* per utid; -1 for a utid with no thread row */
	int *first, *count;	/* per utid: its names in at[first .. first+count-1], by ts */
	struct ch_comm_at *at;
	int nat;
	char **comms;		/* interned names */
	int ncomms, ccomms;
	int *hash;		/* open addressing over comms, -1 empty */
	int hash_cap;
	unsigned char *match;	/* per utid: 1 when opts.task selects it (all 1 without --task) */
	int any_filter;		/* opts.task was given */
};

/* One chart being drawn. */
struct chart {
	sqlite3 *db;
	const struct trax_plot_opts *o;
	cairo_t *cr;
	double W, H;
	int64_t trace_start, trace_end;	/* meta trace.start_ts / trace.end_ts */
	int64_t t0, t1;			/* the window */
	int window_cut;			/* the window asked for ran past the trace's ends */
	int ncpus;			/* meta cpus (at least max(cpu) + 1 of the data) */
	unsigned char *cpu_on;		/* ncpus flags: selected by opts.cpus */
	char trace_name[256];
	struct ch_threads th;
	int have_threads;
	struct trax_plot_info *info;
	struct trax_error *err;
	const struct trax_plot_palette *palette;	/* task colours: opts.palette or own */
	struct trax_plot_palette *own_palette;
	int palette_err;		/* building it failed: the chart's error */
};

/* plot.c */
int ch_meta_int(sqlite3 *db, const char *key, int64_t *v);
int ch_table_exists(sqlite3 *db, const char *name);
int ch_column_exists(sqlite3 *db, const char *table, const char *column);
int ch_prepare(struct chart *c, const char *sql, sqlite3_stmt **st);
int ch_db_error(struct chart *c, const char *what);
int ch_threads_load(struct chart *c);
int ch_comm_at(const struct ch_threads *th, int utid, int64_t ts);
const char *ch_comm_name(const struct ch_threads *th, int comm);
int ch_cpulist_parse(const char *s, unsigned char *set, int n, struct trax_error *err);

/* Text: halign 0 left, 1 centre, 2 right; valign 0 baseline, 1 middle, 2 top. */
void ch_font(cairo_t *cr, double size, int bold);
double ch_text_width(cairo_t *cr, const char *s);
void ch_text(cairo_t *cr, double x, double y, int halign, int valign, const char *s);
void ch_title(struct chart *c, const char *what, const char *subtitle);
void ch_window_desc(struct chart *c, char *buf, size_t len);

/*
 * Reference lines (opts.refs) over the rectangle (x, y, w, h): vertical at x + frac(v) * w, or
 * horizontal at y + h - frac(v) * h; a value whose frac is outside 0..1 is marked at the edge.
 * Recorded in info.refs with lane. refs_extend widens lo..hi to hold every ref value.
 */
void ch_refs(struct chart *c, int vertical, double x, double y, double w, double h,
	     double (*frac)(const void *ctx, double v), const void *ctx, int lane);
void ch_refs_extend(const struct chart *c, double *lo, double *hi);

/* Axes. */
double ch_nice_step(double range, int max_ticks);
void ch_fmt_time(char *buf, size_t len, double ns, double unit, int decimals);
void ch_time_unit(double max_abs, double step, double *unit, int *decimals);
void ch_fmt_abs_s(char *buf, size_t len, int64_t ns);
void ch_time_axis(struct chart *c, double x, double y, double w);
void ch_fmt_value(char *buf, size_t len, double v, const char *unit);
void ch_rgb(cairo_t *cr, const double rgb[3]);
/* A task's colour by its name: its rank's in the palette of the database (built on first use
 * unless opts.palette gives one), grey (CH_OTHER) beyond the busiest TRAX_PLOT_PALETTE_N. */
void ch_task_rgb(struct chart *c, const char *comm, double rgb[3]);
int ch_task_rank(struct chart *c, const char *comm);	/* its rank, or -1: grey */
void ch_hex(cairo_t *cr, uint32_t rgb);
/* Append a line to info->names (info may be NULL). */
void ch_info_name(struct trax_plot_info *info, const char *name);

/* The kinds' drawing functions (plot/kinds.h names them). */
#define CH_KIND(id, name, draw, options, events, help) int draw(struct chart *c);
#include "plot/kinds.h"

/* Colours. */
#define CH_BG 0xffffff
#define CH_LANE_BG 0xf4f4f4	/* an idle lane pixel */
#define CH_FG 0x222222
#define CH_GRID 0xdddddd
#define CH_OTHER 0xb0b0b0	/* tasks left out of a legend; non-selected tasks */

#endif
