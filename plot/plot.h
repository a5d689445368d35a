/* plot/plot.h: charts of a trax database drawn with cairo onto PNG, SVG and PDF surfaces. */
#ifndef TRAX_PLOT_H
#define TRAX_PLOT_H

#include <stdint.h>

#include <cairo.h>
#include <sqlite3.h>

#include "util/error.h"
#include "util/strbuf.h"

/*
 * Every chart is drawn by one code path, trax_plot_draw(), onto any cairo context: the file
 * writers below only choose the surface. Coordinates are in pixels for PNG and in points for
 * SVG and PDF (one unit each way), so a chart of W x H looks the same in all three formats.
 */

/* The options a chart kind may take (its row in plot/kinds.h); the others are refused. */
enum {
	TRAX_PLOT_OPT_TASK = 1 << 0,	/* opts.task */
	TRAX_PLOT_OPT_TRACK = 1 << 1,	/* opts.tracks */
	TRAX_PLOT_OPT_OF = 1 << 2,	/* opts.durations, opts.sql */
	TRAX_PLOT_OPT_BINS = 1 << 3,	/* opts.bins */
	TRAX_PLOT_OPT_LOG = 1 << 4,	/* opts.logx */
	TRAX_PLOT_OPT_GROUP = 1 << 5,	/* opts.groups */
};

/* The chart kinds: TRAX_PLOT_TIMELINE, _COUNTERS, _RESIDENCY, _HISTOGRAM, _CDF (plot/kinds.h). */
enum trax_plot_kind {
#define CH_KIND(id, name, draw, options, events, help) TRAX_PLOT_##id,
#include "plot/kinds.h"
	TRAX_PLOT_NKINDS
};

/* A chart kind's row of plot/kinds.h. */
struct trax_plot_kind_def {
	const char *name;	/* "timeline" */
	unsigned options;	/* TRAX_PLOT_OPT_* */
	const char *events;	/* what it needs loaded: event names, comma separated */
	const char *help;	/* its lines of `trax plot --help` */
};

enum trax_plot_format {
	TRAX_PLOT_PNG,
	TRAX_PLOT_SVG,
	TRAX_PLOT_PDF,
};

/* The durations a histogram or CDF shows. */
enum trax_plot_durations {
	TRAX_DUR_SLICES,	/* sched_slice lengths of non-idle tasks */
	TRAX_DUR_WAKEUP,	/* wakeup latency: thread_state "R" (woken, not yet running) */
	TRAX_DUR_RUNNABLE,	/* every runnable interval, woken ("R") or preempted ("R+") */
	TRAX_DUR_SQL,		/* the first column of opts.sql, in nanoseconds */
};

/* Markers overlaid on timelines (bit mask). */
enum {
	TRAX_PLOT_MARK_PRINT = 1,	/* trace markers: the print and bprint tables */
	TRAX_PLOT_MARK_KILL = 2,	/* the kill table (low-memory and OOM kills) */
};

/*
 * The value axis of histograms and CDFs (opts.logx). AUTO: logarithmic when a linear one
 * would crowd most values into one bin (a long tail; plot/dist.c's want_log() has the rule),
 * else linear; the axis caption says which ("... (log scale)").
 */
enum {
	TRAX_PLOT_LOGX_AUTO = 0,
	TRAX_PLOT_LOGX_ON = 1,
	TRAX_PLOT_LOGX_OFF = -1,
};

/* A window to shade on a timeline (a rule's window), absolute ns. */
struct trax_plot_span {
	int64_t start, end;
	const char *label;	/* may be NULL */
};

/*
 * A reference line across a chart (a rule's threshold, a baseline value), in the unit of the
 * chart's value axis: counters, the track's own unit (track.unit; a line on every lane);
 * residency, percent; histogram and cdf, ns. Other kinds leave them out.
 */
struct trax_plot_ref {
	double value;
	const char *label;	/* drawn beside the line: "threshold < 500 us" */
	int style;		/* TRAX_PLOT_REF_* */
};

enum { TRAX_PLOT_REF_THRESHOLD, TRAX_PLOT_REF_BASELINE, TRAX_PLOT_REF_LIMIT };

/* A named group of CPUs for residency bars ("little", "0,3-5"). */
struct trax_plot_group {
	const char *name;
	const char *cpus;
};

struct trax_plot_opts {
	enum trax_plot_kind kind;
	int width, height;		/* 0: 1200 x 600 */
	int64_t start, end;		/* window, absolute ns; end == 0: up to the trace end,
					 * start == 0: from the trace start */
	const char *cpus;		/* CPU list "0-3,6"; NULL: every CPU */
	const char *task;		/* comm glob (any name the thread had) or pid; NULL: all */
	const char *const *tracks;	/* counters: NAME or NAME:KEY globs (KEY: cpu or zone) */
	int ntracks;			/* 0: every track */
	enum trax_plot_durations durations;
	const char *sql;		/* TRAX_DUR_SQL: a read-only SELECT of durations (ns) */
	int bins;			/* histogram bins; 0: automatic */
	int logx;			/* histogram, cdf: the value axis, TRAX_PLOT_LOGX_* */
	const struct trax_plot_group *groups;	/* residency per group instead of per CPU */
	int ngroups;
	const struct trax_plot_span *spans;	/* windows shaded on timelines */
	int nspans;
	unsigned markers;		/* TRAX_PLOT_MARK_* overlaid on timelines */
	const struct trax_plot_ref *refs;	/* reference lines */
	int nrefs;
	const char *title;		/* NULL: the kind, the trace's name and the window */
	int buffer;			/* trace buffer (0: the top buffer) */
	const struct trax_plot_palette *palette;	/* task colours shared by several charts
					 * (trax_plot_palette_new); NULL: built per chart */
};

/* One timeline lane: a CPU and its rectangle on the surface. */
struct trax_plot_lane {
	int cpu;
	double x, y, w, h;
};

/* A rectangle on the surface. */
struct trax_plot_rect {
	double x, y, w, h;
};

/* A reference line as drawn: opts.refs[ref] at x (vertical line) or y (horizontal). */
struct trax_plot_refpos {
	int ref;		/* index into opts.refs */
	int lane;		/* counters: its lane; else -1 */
	int vertical;
	double pos;		/* x or y on the surface */
	int inside;		/* 0: off the axis, marked at its edge (pos is the edge) */
};

/* What a drawing did: where it drew (for tests and reports) and how much it read. */
struct trax_plot_info {
	double x, y, w, h;		/* the plot area */
	int64_t start, end;		/* the window drawn, absolute ns */
	int nlanes;
	struct trax_plot_lane *lanes;	/* timeline and counters lanes; caller frees with
					 * trax_plot_info_release() */
	uint64_t rows;			/* rows read from the database */
	uint64_t values;		/* durations in a distribution, samples in counters */
	/* Timeline overlays: ticks of plain trace markers and kills, their labels (each box
	 * inside the plot area, none overlapping), atrace slice rectangles and the slices of
	 * threads that had no row left. Freed by trax_plot_info_release(). */
	int nticks;
	int nlabels;
	struct trax_plot_rect *labels;
	int nslices, nslices_hidden;
	/* What the chart names, one per line: a timeline's legend entries, a counters chart's
	 * lanes ("group · strip"). Freed by trax_plot_info_release(). */
	char *names;
	int logx;			/* histogram, cdf: 1 when the value axis drawn is log */
	int nbins;			/* histogram: the bins drawn, left to right, and */
	uint64_t *bins;			/* the values in each (trax_plot_info_release) */
	int nrefs;
	struct trax_plot_refpos *refs;	/* the reference lines drawn (freed with lanes) */
};

/* Defaults: timeline, 1200 x 600, whole trace, every CPU and task, print and kill markers. */
void trax_plot_opts_init(struct trax_plot_opts *o);

/* "timeline", "counters", "residency", "histogram", "cdf" <-> kinds. Parse returns 0 or -1. */
int trax_plot_kind_parse(const char *s, enum trax_plot_kind *kind);
const char *trax_plot_kind_name(enum trax_plot_kind kind);
/* The row of a kind (0 .. TRAX_PLOT_NKINDS-1); NULL for any other value. */
const struct trax_plot_kind_def *trax_plot_kind_def(enum trax_plot_kind kind);
/*
 * The names of the kinds that take every option of opts (TRAX_PLOT_OPT_*), in table order,
 * as prose: "histogram and cdf", "timeline, residency, histogram and cdf"; opts 0: every
 * kind. Appended to out.
 */
void trax_plot_kinds_taking(unsigned opts, struct strbuf *out);

/* The format named by a path's extension (.png, .svg, .pdf, any case): 0, or -1 when none. */
int trax_plot_format_from_path(const char *path, enum trax_plot_format *fmt);

/*
 * Draw the chart o describes onto cr, in the rectangle (0, 0, o->width, o->height). info may
 * be NULL. Returns 0 or a negative error with err filled: a bad option (TRAX_E_USAGE), a
 * database error (TRAX_E_DB), or nothing to draw (TRAX_E_EVAL: "no counter tracks ..."); on
 * error the surface may hold a partial drawing.
 */
int trax_plot_draw(sqlite3 *db, const struct trax_plot_opts *o, cairo_t *cr,
		   struct trax_plot_info *info, struct trax_error *err);

/*
 * Draw the chart into a new file at path in format fmt. The file is written beside path under
 * a temporary name and renamed into place when complete: on error nothing is left at path.
 * PDF metadata (title, creator, creation date) is fixed so that the same input gives the
 * same bytes. Returns 0 or a negative error with err filled.
 */
int trax_plot_write(sqlite3 *db, const struct trax_plot_opts *o, enum trax_plot_format fmt,
		    const char *path, struct trax_plot_info *info, struct trax_error *err);

/*
 * Draw the chart as SVG appended to out (the caller owns out). With id_prefix (for several
 * charts inlined in one HTML page) every id and reference gets the prefix and the XML
 * declaration is left out; with NULL, a standalone document. Returns 0 or a negative error
 * with err filled (out is then unchanged).
 */
int trax_plot_svg(sqlite3 *db, const struct trax_plot_opts *o, const char *id_prefix,
		  struct strbuf *out, struct trax_error *err);

/* Set the fixed metadata of a PDF surface (title, creator, creation date). The date is
 * $SOURCE_DATE_EPOCH when set, else 1970-01-01T00:00:00Z, never the current time. */
void trax_plot_pdf_metadata(cairo_surface_t *pdf, const char *title);


/*
 * Release the font caches cairo and fontconfig keep for the whole process, so that a leak
 * checker sees every byte freed. Call once at exit, when no cairo object is alive: no chart
 * can be drawn after it.
 */
void trax_plot_release_fonts(void);

/* Free what trax_plot_draw() allocated in info (not info itself). */
void trax_plot_info_release(struct trax_plot_info *info);

/*
 * Helpers shared with report/: a duration in readable units ("1.25 ms", "3 s"), with the
 * decimals a step needs (step 0: three significant digits); a colour from a name alone (the
 * same in every chart, trace and run; for lines that are not tasks: tasks take the palette
 * below).
 */
void trax_plot_fmt_duration(char *buf, size_t len, double ns, double step);
void trax_plot_comm_colour(const char *comm, double rgb[3]);

/*
 * Task colours of one database, the same in every chart of it. The TRAX_PLOT_PALETTE_N
 * busiest task names (CPU time of their slices over the whole trace in one buffer, the idle
 * task left out; a renamed thread's time goes to its last name; ties by name)
 * get the colours of a categorical palette by rank, chosen to stay apart (CIE76 distance over
 * 29 between any two); every other task is grey (0xb0b0b0). Timelines and residency bars use
 * it; a caller drawing several charts of one database (a report) may build it once and pass
 * it in opts.palette. trax_plot_palette_new() returns 0 or a negative error (TRAX_E_DB).
 */
#define TRAX_PLOT_PALETTE_N 12
struct trax_plot_palette;
int trax_plot_palette_new(sqlite3 *db, int buffer, struct trax_plot_palette **out,
			  struct trax_error *err);
void trax_plot_palette_free(struct trax_plot_palette *p);
/* A name's rank (0 = busiest), or -1 for grey (not among them, or p NULL). */
int trax_plot_palette_rank(const struct trax_plot_palette *p, const char *comm);
/* A name's colour into rgb (0 .. 1, exact 8-bit steps); returns its rank or -1. */
int trax_plot_palette_rgb(const struct trax_plot_palette *p, const char *comm, double rgb[3]);
/* The colour of rank 0 .. TRAX_PLOT_PALETTE_N - 1 as 0xRRGGBB; any other rank: the grey. */
uint32_t trax_plot_palette_colour(int rank);

#endif
