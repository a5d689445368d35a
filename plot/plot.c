/* plot/plot.c: the chart frame (window, threads, text, axes, colours) and the file writers. */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>

#include "parse/parse.h"
#include "util/outfile.h"
#include "plot/plot-local.h"
#include "util/xalloc.h"

void trax_plot_opts_init(struct trax_plot_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->kind = TRAX_PLOT_TIMELINE;
	o->width = 1200;
	o->height = 600;
	o->markers = TRAX_PLOT_MARK_PRINT | TRAX_PLOT_MARK_KILL;
}

static const struct kind {
	struct trax_plot_kind_def def;
	int (*draw)(struct chart *c);
} kinds[] = {
#define CH_KIND(id, name, draw, options, events, help) \
	[TRAX_PLOT_##id] = { { name, options, events, help }, draw },
#include "plot/kinds.h"
};

int trax_plot_kind_parse(const char *s, enum trax_plot_kind *kind)
{
	for (int i = 0; i < TRAX_PLOT_NKINDS; i++) {
		if (!strcmp(s, kinds[i].def.name)) {
			*kind = (enum trax_plot_kind)i;
			return 0;
		}
	}
	return -1;
}

const struct trax_plot_kind_def *trax_plot_kind_def(enum trax_plot_kind kind)
{
	return (unsigned)kind < TRAX_PLOT_NKINDS ? &kinds[kind].def : NULL;
}

const char *trax_plot_kind_name(enum trax_plot_kind kind)
{
	return (unsigned)kind < TRAX_PLOT_NKINDS ? kinds[kind].def.name : "?";
}

void trax_plot_kinds_taking(unsigned opts, struct strbuf *out)
{
	int n = 0, k = 0;

	for (int i = 0; i < TRAX_PLOT_NKINDS; i++)
		n += (kinds[i].def.options & opts) == opts;
	for (int i = 0; i < TRAX_PLOT_NKINDS; i++) {
		if ((kinds[i].def.options & opts) != opts)
			continue;
		if (k)
			strbuf_adds(out, k == n - 1 ? " and " : ", ");
		strbuf_adds(out, kinds[i].def.name);
		k++;
	}
}

int trax_plot_format_from_path(const char *path, enum trax_plot_format *fmt)
{
	const char *dot = strrchr(path, '.');

	if (!dot || strchr(dot, '/'))
		return -1;
	if (!strcasecmp(dot, ".png"))
		*fmt = TRAX_PLOT_PNG;
	else if (!strcasecmp(dot, ".svg"))
		*fmt = TRAX_PLOT_SVG;
	else if (!strcasecmp(dot, ".pdf"))
		*fmt = TRAX_PLOT_PDF;
	else
		return -1;
	return 0;
}

void ch_info_name(struct trax_plot_info *info, const char *name)
{
	size_t have, n = strlen(name);

	if (!info)
		return;
	have = info->names ? strlen(info->names) : 0;
	info->names = xrealloc(info->names, have + n + 2);
	memcpy(info->names + have, name, n);
	memcpy(info->names + have + n, "\n", 2);
}

void trax_plot_info_release(struct trax_plot_info *info)
{
	if (!info)
		return;
	free(info->lanes);
	info->lanes = NULL;
	info->nlanes = 0;
	free(info->labels);
	info->labels = NULL;
	info->nlabels = 0;
	free(info->names);
	info->names = NULL;
	free(info->bins);
	info->bins = NULL;
	info->nbins = 0;
	free(info->refs);
	info->refs = NULL;
	info->nrefs = 0;
}

/* ---- database helpers ---- */

int ch_meta_int(sqlite3 *db, const char *key, int64_t *v)
{
	return trax_db_meta_int(db, key, v) == 0 ? 0 : -1;
}

int ch_table_exists(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st = NULL;
	int found = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type IN ('table','view') "
			       "AND name=?", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		found = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	return found;
}

int ch_column_exists(sqlite3 *db, const char *table, const char *column)
{
	sqlite3_stmt *st = NULL;
	int found = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_table_info(?) WHERE name=?", -1, &st,
			       NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, column, -1, SQLITE_STATIC);
		found = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	return found;
}

int ch_db_error(struct chart *c, const char *what)
{
	return trax_error_set(c->err, TRAX_E_DB, "%s: %s: %s", c->trace_name, what,
			      sqlite3_errmsg(c->db));
}

int ch_prepare(struct chart *c, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(c->db, sql, -1, st, NULL) != SQLITE_OK) {
		*st = NULL;
		return ch_db_error(c, "query");
	}
	return 0;
}

/* ---- threads and their names ---- */

static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

static int intern(struct ch_threads *th, const char *s)
{
	uint32_t i;

	if (th->ncomms * 2 >= th->hash_cap) {
		int cap = th->hash_cap ? th->hash_cap * 2 : 256;
		int *h = xmalloc(cap * sizeof(int));

		for (int k = 0; k < cap; k++)
			h[k] = -1;
		for (int k = 0; k < th->ncomms; k++) {
			i = fnv1a(th->comms[k]) & (cap - 1);
			while (h[i] >= 0)
				i = (i + 1) & (cap - 1);
			h[i] = k;
		}
		free(th->hash);
		th->hash = h;
		th->hash_cap = cap;
	}
	i = fnv1a(s) & (th->hash_cap - 1);
	while (th->hash[i] >= 0) {
		if (!strcmp(th->comms[th->hash[i]], s))
			return th->hash[i];
		i = (i + 1) & (th->hash_cap - 1);
	}
	if (th->ncomms == th->ccomms) {
		th->ccomms = th->ccomms ? th->ccomms * 2 : 64;
		th->comms = xrealloc(th->comms, th->ccomms * sizeof(*th->comms));
	}
	th->comms[th->ncomms] = xstrdup(s);
	th->hash[i] = th->ncomms;
	return th->ncomms++;
}

static void threads_release(struct ch_threads *th)
{
	for (int i = 0; i < th->ncomms; i++)
		free(th->comms[i]);
	free(th->comms);
	free(th->hash);
	free(th->pid);
	free(th->first);
	free(th->count);
	free(th->at);
	free(th->match);
	memset(th, 0, sizeof(*th));
}

static int is_number(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

int ch_threads_load(struct chart *c)
{
	struct ch_threads *th = &c->th;
	const char *task = c->o->task;
	sqlite3_stmt *st = NULL;
	int64_t max_utid = -1, n;
	int ret = 0, cat = 0;

	if (c->have_threads)
		return 0;
	if (ch_prepare(c, "SELECT max(utid), (SELECT count(*) FROM thread_comm) FROM thread", &st))
		return -TRAX_E_DB;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		max_utid = sqlite3_column_int64(st, 0);
	n = sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
	st = NULL;
	if (max_utid > 50000000 || n > 100000000)
		return trax_error_set(c->err, TRAX_E_FORMAT, "%s: implausible thread table",
				      c->trace_name);
	th->nutid = (int)(max_utid + 1);
	cat = (int)n + th->nutid;
	th->pid = xmalloc((th->nutid + 1) * sizeof(int));
	th->first = xcalloc(th->nutid + 1, sizeof(int));
	th->count = xcalloc(th->nutid + 1, sizeof(int));
	th->match = xcalloc(th->nutid + 1, 1);
	th->at = xmalloc((cat + 1) * sizeof(*th->at));
	for (int i = 0; i < th->nutid; i++)
		th->pid[i] = -1;
	th->any_filter = task && *task;

	/* Names over time first (ordered), then thread.comm for threads that have none. */
	if ((ret = ch_prepare(c, "SELECT utid, ts, comm FROM thread_comm WHERE utid >= 0 "
			      "ORDER BY utid, ts", &st)))
		goto out;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int utid = sqlite3_column_int(st, 0), k;
		const char *comm = (const char *)sqlite3_column_text(st, 2);

		if (utid >= th->nutid || th->nat >= cat)
			continue;
		k = intern(th, comm ? comm : "");
		if (!th->count[utid])
			th->first[utid] = th->nat;
		else if (th->first[utid] + th->count[utid] != th->nat)
			continue;	/* not contiguous: cannot happen with ORDER BY utid */
		th->at[th->nat].ts = sqlite3_column_type(st, 1) == SQLITE_NULL ? INT64_MIN :
				     sqlite3_column_int64(st, 1);
		th->at[th->nat].comm = k;
		th->nat++;
		th->count[utid]++;
	}
	sqlite3_finalize(st);
	st = NULL;
	if ((ret = ch_prepare(c, "SELECT utid, pid, comm FROM thread WHERE utid >= 0", &st)))
		goto out;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int utid = sqlite3_column_int(st, 0), k;
		const char *comm = (const char *)sqlite3_column_text(st, 2);

		if (utid >= th->nutid)
			continue;
		th->pid[utid] = sqlite3_column_int(st, 1);
		if (th->count[utid] || th->nat >= cat)
			continue;
		k = intern(th, comm ? comm : "");
		th->first[utid] = th->nat;
		th->at[th->nat].ts = INT64_MIN;
		th->at[th->nat].comm = k;
		th->nat++;
		th->count[utid] = 1;
	}
	sqlite3_finalize(st);
	st = NULL;

	for (int u = 0; u < th->nutid; u++) {
		if (!th->any_filter) {
			th->match[u] = 1;
		} else if (is_number(task)) {
			th->match[u] = th->pid[u] == atoi(task);
		} else {
			for (int k = 0; k < th->count[u] && !th->match[u]; k++) {
				int comm = th->at[th->first[u] + k].comm;

				th->match[u] = !fnmatch(task, th->comms[comm], 0);
			}
		}
	}
	c->have_threads = 1;
out:
	sqlite3_finalize(st);
	if (ret)
		threads_release(th);
	return ret;
}

int ch_comm_at(const struct ch_threads *th, int utid, int64_t ts)
{
	int lo, hi;
	const struct ch_comm_at *a;

	if (utid < 0 || utid >= th->nutid || !th->count[utid])
		return -1;
	a = th->at + th->first[utid];
	if (th->count[utid] == 1 || ts < a[0].ts)
		return a[0].comm;
	/* The last name taken at or before ts. */
	lo = 0;
	hi = th->count[utid] - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;

		if (a[mid].ts <= ts)
			lo = mid;
		else
			hi = mid - 1;
	}
	return a[lo].comm;
}

const char *ch_comm_name(const struct ch_threads *th, int comm)
{
	return comm >= 0 && comm < th->ncomms ? th->comms[comm] : "?";
}

/* ---- CPU lists ---- */

int ch_cpulist_parse(const char *s, unsigned char *set, int n, struct trax_error *err)
{
	const char *p = s;

	memset(set, 0, n);
	if (!strcmp(s, "all")) {
		memset(set, 1, n);
		return 0;
	}
	while (*p) {
		char *end;
		long a, b;

		errno = 0;
		a = strtol(p, &end, 10);
		if (end == p || a < 0 || errno)
			goto bad;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a || errno)
				goto bad;
			p = end;
		}
		if (b >= n)
			return trax_error_set(err, TRAX_E_USAGE, "CPU %ld is not in the trace "
					      "(%d CPUs)", b, n);
		for (long i = a; i <= b; i++)
			set[i] = 1;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	return 0;
bad:
	return trax_error_set(err, TRAX_E_USAGE, "'%s' is not a CPU list (like 0-3,6)", s);
}

/* ---- text ---- */

void ch_font(cairo_t *cr, double size, int bold)
{
	cairo_select_font_face(cr, CH_FONT, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

static const char *utf8_clean(const char *s, char *buf, size_t len);

double ch_text_width(cairo_t *cr, const char *s)
{
	cairo_text_extents_t te;
	char fix[1024];

	cairo_text_extents(cr, utf8_clean(s, fix, sizeof(fix)), &te);
	return te.x_advance;
}

/*
 * SVG text stays text. cairo's SVG surface draws glyphs as paths (<symbol>s used by <use>),
 * which cannot be searched, selected or copied; so on a surface the SVG writers mark with
 * svg_text_key, ch_text() draws nothing and appends a <text> element to the marked buffer
 * instead, which the writer puts on top of cairo's drawing. Position, size, weight, colour,
 * anchor and rotation are those cairo would have drawn with; the anchor is the text's own
 * (start, middle, end), so alignment holds in whatever sans-serif font the viewer has.
 */
static cairo_user_data_key_t svg_text_key;

/* The length of the UTF-8 character at p (a character XML allows), or 0 when it is not one. */
static int utf8_char(const unsigned char *p)
{
	int n = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 ? 2 : (*p & 0xf0) == 0xe0 ? 3 :
		(*p & 0xf8) == 0xf0 ? 4 : 0;
	uint32_t cp = n == 1 ? *p : n == 2 ? *p & 0x1f : n == 3 ? *p & 0x0f : *p & 0x07;

	for (int k = 1; k < n; k++) {
		if ((p[k] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[k] & 0x3f);
	}
	if (!n || (n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff) ||
	    cp == 0xfffe || cp == 0xffff || (cp < 0x20 && cp != '\t'))
		return 0;	/* overlong, surrogate, beyond Unicode, a control character */
	return n;
}

/*
 * s when it is valid UTF-8 without control characters, else a copy in buf (len bytes, cut at
 * a character) with U+FFFD for each byte that is not: a task name is any bytes the kernel was
 * given, and cairo refuses to draw or measure a string that is not UTF-8.
 */
static const char *utf8_clean(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;

	while (*p && utf8_char(p))
		p += utf8_char(p);
	if (!*p)
		return s;
	for (p = (const unsigned char *)s; *p;) {
		int n = utf8_char(p);

		if (o + (n ? n : 3) >= len)
			break;
		if (n) {
			memcpy(buf + o, p, n);
			o += n;
			p += n;
		} else {
			memcpy(buf + o, "\xef\xbf\xbd", 3);
			o += 3;
			p++;
		}
	}
	buf[o] = '\0';
	return buf;
}

/* s (valid UTF-8, utf8_clean) as XML character data. */
static void add_xml_text(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			strbuf_adds(out, "&lt;");
		else if (*s == '>')
			strbuf_adds(out, "&gt;");
		else if (*s == '&')
			strbuf_adds(out, "&amp;");
		else
			strbuf_addch(out, *s);
	}
}

static void svg_text(cairo_t *cr, struct strbuf *out, double x, double y, int halign,
		     const char *s)
{
	static const char *const anchor[] = { "start", "middle", "end" };
	cairo_font_face_t *face = cairo_get_font_face(cr);
	cairo_matrix_t fm;
	double r = 0, g = 0, b = 0, a = 1, dx = 1, dy = 0, size, angle;
	int bold = cairo_font_face_get_type(face) == CAIRO_FONT_TYPE_TOY &&
		   cairo_toy_font_face_get_weight(face) == CAIRO_FONT_WEIGHT_BOLD;

	cairo_pattern_get_rgba(cairo_get_source(cr), &r, &g, &b, &a);
	cairo_get_font_matrix(cr, &fm);
	cairo_user_to_device(cr, &x, &y);
	cairo_user_to_device_distance(cr, &dx, &dy);
	size = fm.yy * hypot(dx, dy);
	angle = atan2(dy, dx) * 180 / M_PI;
	strbuf_addf(out, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.2f\"", x, y, size);
	if (bold)
		strbuf_adds(out, " font-weight=\"bold\"");
	if (halign >= 1 && halign <= 2)
		strbuf_addf(out, " text-anchor=\"%s\"", anchor[halign]);
	strbuf_addf(out, " fill=\"#%02x%02x%02x\"", (int)lround(r * 255), (int)lround(g * 255),
		    (int)lround(b * 255));
	if (a < 1)
		strbuf_addf(out, " fill-opacity=\"%.3f\"", a);
	if (fabs(angle) > 0.01)
		strbuf_addf(out, " transform=\"rotate(%.2f %.2f %.2f)\"", angle, x, y);
	strbuf_addch(out, '>');
	add_xml_text(out, s);
	strbuf_adds(out, "</text>\n");
}

void ch_text(cairo_t *cr, double x, double y, int halign, int valign, const char *s)
{
	struct strbuf *svg = cairo_surface_get_user_data(cairo_get_target(cr), &svg_text_key);
	cairo_font_extents_t fe;
	char fix[1024];
	double w;

	s = utf8_clean(s, fix, sizeof(fix));
	w = ch_text_width(cr, s);

	cairo_font_extents(cr, &fe);
	if (valign == 1)
		y += (fe.ascent - fe.descent) / 2;
	else if (valign == 2)
		y += fe.ascent;
	if (svg) {
		svg_text(cr, svg, x, y, halign, s);
		return;
	}
	if (halign == 1)
		x -= w / 2;
	else if (halign == 2)
		x -= w;
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, s);
}

void ch_rgb(cairo_t *cr, const double rgb[3])
{
	cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
}

void ch_hex(cairo_t *cr, uint32_t rgb)
{
	cairo_set_source_rgb(cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
			     (rgb & 0xff) / 255.0);
}

/* ---- reference lines ---- */

static const struct {
	uint32_t rgb;
	double width, dash[2];	/* dash[0] 0: solid */
} ref_style[] = {
	[TRAX_PLOT_REF_THRESHOLD] = { 0xd62728, 1.5, { 0, 0 } },
	[TRAX_PLOT_REF_BASELINE] = { 0x1f77b4, 1.5, { 6, 3 } },
	[TRAX_PLOT_REF_LIMIT] = { 0xe08a00, 1.2, { 2, 2 } },
};

struct ref_box {
	double x, y, w, h;
};

static int box_hits(const struct ref_box *b, int n, const struct ref_box *r)
{
	for (int i = 0; i < n; i++)
		if (r->x < b[i].x + b[i].w && b[i].x < r->x + r->w && r->y < b[i].y + b[i].h &&
		    b[i].y < r->y + r->h)
			return 1;
	return 0;
}

void ch_refs_extend(const struct chart *c, double *lo, double *hi)
{
	for (int i = 0; i < c->o->nrefs; i++) {
		double v = c->o->refs[i].value;

		if (!isfinite(v))
			continue;
		*lo = v < *lo ? v : *lo;
		*hi = v > *hi ? v : *hi;
	}
}

/*
 * The labels keep clear of each other: each tries its places in turn (beside the line's end,
 * then further along it) and takes the first that overlaps no label drawn before it.
 */
void ch_refs(struct chart *c, int vertical, double x, double y, double w, double h,
	     double (*frac)(const void *ctx, double v), const void *ctx, int lane)
{
	const struct trax_plot_opts *o = c->o;
	cairo_t *cr = c->cr;
	struct ref_box placed[32];
	int nplaced = 0;
	cairo_font_extents_t fe;

	if (!o->nrefs)
		return;
	cairo_save(cr);
	ch_font(cr, CH_SMALL_SIZE, 1);
	cairo_font_extents(cr, &fe);
	for (int i = 0; i < o->nrefs; i++) {
		const struct trax_plot_ref *r = &o->refs[i];
		int st = r->style >= 0 && r->style <= TRAX_PLOT_REF_LIMIT ? r->style : 0;
		double f = frac(ctx, r->value), pos, tw, th = fe.ascent + fe.descent + 2;
		int inside = isfinite(f) && f >= -1e-9 && f <= 1 + 1e-9;
		char label[300];
		struct ref_box b;

		if (!isfinite(f))
			f = 0;
		f = f < 0 ? 0 : f > 1 ? 1 : f;
		pos = vertical ? floor(x + f * w) + 0.5 : floor(y + h - f * h) + 0.5;
		snprintf(label, sizeof(label), "%s%s", r->label ? r->label : "",
			 inside ? "" : vertical ? (f > 0.5 ? " (beyond, right)" : " (beyond, left)") :
			 (f > 0.5 ? " (beyond, above)" : " (beyond, below)"));
		ch_hex(cr, ref_style[st].rgb);
		cairo_set_line_width(cr, ref_style[st].width);
		cairo_set_dash(cr, ref_style[st].dash, ref_style[st].dash[0] > 0 ? 2 : 0, 0);
		if (inside) {
			if (vertical) {
				cairo_move_to(cr, pos, y);
				cairo_line_to(cr, pos, y + h);
			} else {
				cairo_move_to(cr, x, pos);
				cairo_line_to(cr, x + w, pos);
			}
			cairo_stroke(cr);
		} else {
			/* A wedge at the edge, pointing the way the value lies. */
			double d = vertical ? (f > 0.5 ? 1 : -1) : (f > 0.5 ? -1 : 1);

			cairo_set_dash(cr, NULL, 0, 0);
			if (vertical) {
				cairo_move_to(cr, pos + 6 * d, y + 6);
				cairo_line_to(cr, pos, y + 1);
				cairo_line_to(cr, pos, y + 11);
			} else {
				cairo_move_to(cr, x + w - 6, pos + 6 * d);
				cairo_line_to(cr, x + w - 11, pos);
				cairo_line_to(cr, x + w - 1, pos);
			}
			cairo_close_path(cr);
			cairo_fill(cr);
		}
		tw = ch_text_width(cr, label) + 4;
		b.w = tw;
		b.h = th;
		for (int k = 0; k < 12; k++) {
			if (vertical) {
				int left = pos + 4 + tw > x + w;

				b.x = left ? pos - 4 - tw : pos + 4;
				b.y = y + h * 0.2 + k * th;	/* below a CDF's p90, p99 labels */
			} else {
				int below = k & 1 || pos - 2 - th < y;

				b.x = x + w - 4 - tw - (k / 2) * (w / 6);
				b.y = below ? pos + 2 : pos - 2 - th;
			}
			if (!box_hits(placed, nplaced, &b))
				break;
		}
		if (nplaced < 32)
			placed[nplaced++] = b;
		cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
		cairo_rectangle(cr, b.x, b.y, b.w, b.h);
		cairo_fill(cr);
		ch_hex(cr, ref_style[st].rgb);
		ch_text(cr, b.x + 2, b.y + 1, 0, 2, label);	/* text in SVG, not glyphs */
		if (c->info) {
			struct trax_plot_info *in = c->info;

			in->refs = xrealloc(in->refs, (in->nrefs + 1) * sizeof(*in->refs));
			in->refs[in->nrefs++] = (struct trax_plot_refpos){ i, lane, vertical, pos,
									 inside };
		}
	}
	cairo_restore(cr);
}

/* Seconds with nanosecond digits, exactly: 106439.675571 s from 106439675571000 ns. */
void ch_fmt_abs_s(char *buf, size_t len, int64_t ns)
{
	int64_t s = ns / 1000000000, f = ns % 1000000000;

	if (f < 0) {
		s--;
		f += 1000000000;
	}
	if (f % 1000 == 0)
		snprintf(buf, len, "%lld.%06lld s", (long long)s, (long long)(f / 1000));
	else
		snprintf(buf, len, "%lld.%09lld s", (long long)s, (long long)f);
}

void ch_time_unit(double max_abs, double step, double *unit, int *decimals)
{
	double m = fabs(max_abs) > step ? fabs(max_abs) : step, r;

	*unit = m >= 1e9 ? 1e9 : m >= 1e6 ? 1e6 : m >= 1e3 ? 1e3 : 1;
	if (step <= 0) {
		r = m / *unit;
		*decimals = *unit == 1 ? 0 : r >= 100 ? 0 : r >= 10 ? 1 : 2;
		return;
	}
	r = step / *unit;
	*decimals = r >= 1 ? 0 : (int)ceil(-log10(r) - 1e-9);
	if (*decimals > 9)
		*decimals = 9;
}

void ch_fmt_time(char *buf, size_t len, double ns, double unit, int decimals)
{
	const char *u = unit == 1e9 ? "s" : unit == 1e6 ? "ms" : unit == 1e3 ? "µs" : "ns";
	double v = ns / unit;

	if (fabs(v) < 0.5 * pow(10, -decimals))
		v = 0;		/* no "-0.0" */
	snprintf(buf, len, "%.*f %s", decimals, v, u);
}

void trax_plot_fmt_duration(char *buf, size_t len, double ns, double step)
{
	double unit;
	int dec;

	ch_time_unit(ns, step, &unit, &dec);
	ch_fmt_time(buf, len, ns, unit, dec);
}

void ch_fmt_value(char *buf, size_t len, double v, const char *unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T" };
	double a;
	int k = 0;

	if (unit && !strcmp(unit, "mC")) {
		snprintf(buf, len, "%.1f °C", v / 1000);
		return;
	}
	if (unit && !strcmp(unit, "kHz")) {
		v *= 1000;
		unit = "Hz";
	}
	if (unit && (!strcmp(unit, "B") || !strcmp(unit, "KiB") || !strcmp(unit, "kB"))) {
		static const char *const bin[] = { "B", "KiB", "MiB", "GiB", "TiB" };

		if (strcmp(unit, "B"))
			v *= 1024;
		for (a = fabs(v); a >= 1024 && k < 4; a /= 1024)
			k++;
		snprintf(buf, len, "%.*f %s", k ? 1 : 0, v / pow(1024, k), bin[k]);
		return;
	}
	for (a = fabs(v); a >= 1000 && k < 4; a /= 1000)
		k++;
	a = v / pow(1000, k);
	if (k == 0 && a == floor(a))
		snprintf(buf, len, "%.0f%s%s", a, unit && *unit ? " " : "", unit ? unit : "");
	else
		snprintf(buf, len, "%.*f %s%s", fabs(a) >= 100 ? 0 : fabs(a) >= 10 ? 1 : 2, a,
			 si[k], unit ? unit : "");
}

/* 1, 2 or 5 times a power of ten, the smallest giving at most max_ticks intervals. */
double ch_nice_step(double range, int max_ticks)
{
	double raw, mag, f;

	if (max_ticks < 1)
		max_ticks = 1;
	if (range <= 0)
		return 1;
	raw = range / max_ticks;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

void ch_window_desc(struct chart *c, char *buf, size_t len)
{
	char a[64], b[64], s[64], t[64];
	double unit;
	int dec;
	int64_t r0 = c->t0 - c->trace_start, r1 = c->t1 - c->trace_start;

	ch_fmt_abs_s(s, sizeof(s), c->trace_start);
	if (c->t0 == c->trace_start && c->t1 == c->trace_end) {
		trax_plot_fmt_duration(t, sizeof(t), (double)(r1 - r0), 0);
		snprintf(buf, len, "whole trace: %s from %s", t, s);
		return;
	}
	ch_time_unit((double)(llabs(r0) > llabs(r1) ? r0 : r1), 0, &unit, &dec);
	dec = 6 - (unit == 1e9 ? 0 : unit == 1e6 ? 3 : unit == 1e3 ? 6 : 9);
	if (dec < 0)
		dec = 0;
	ch_fmt_time(a, sizeof(a), (double)r0, unit, dec);
	ch_fmt_time(b, sizeof(b), (double)r1, unit, dec);
	snprintf(buf, len, "window %s .. %s after the trace start (%s)%s", a, b, s,
		 c->window_cut ? ", cut to the trace" : "");
}

void ch_title(struct chart *c, const char *what, const char *subtitle)
{
	cairo_t *cr = c->cr;
	char buf[512], win[256];

	ch_hex(cr, CH_FG);
	ch_font(cr, CH_TITLE_SIZE, 1);
	if (c->o->title)
		snprintf(buf, sizeof(buf), "%s", c->o->title);
	else
		snprintf(buf, sizeof(buf), "%s · %s", what, c->trace_name);
	ch_text(cr, CH_MARGIN, CH_MARGIN, 0, 2, buf);
	ch_window_desc(c, win, sizeof(win));
	snprintf(buf, sizeof(buf), "%s%s%s", win, subtitle && *subtitle ? " · " : "",
		 subtitle ? subtitle : "");
	ch_font(cr, CH_SMALL_SIZE + 0.5, 0);
	ch_hex(cr, 0x555555);
	ch_text(cr, CH_MARGIN, CH_MARGIN + CH_TITLE_SIZE + 5, 0, 2, buf);
}

/* The time axis under a plot area from x to x + w at y: ticks relative to the trace start. */
void ch_time_axis(struct chart *c, double x, double y, double w)
{
	cairo_t *cr = c->cr;
	double r0 = (double)(c->t0 - c->trace_start), r1 = (double)(c->t1 - c->trace_start);
	double step = ch_nice_step(r1 - r0, (int)(w / 90) > 1 ? (int)(w / 90) : 1);
	double unit, last_right = -1e9;
	int dec;
	char buf[128], abs_s[64];

	ch_time_unit(fabs(r0) > fabs(r1) ? r0 : r1, step, &unit, &dec);
	ch_hex(cr, CH_FG);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, x, y + 0.5);
	cairo_line_to(cr, x + w, y + 0.5);
	cairo_stroke(cr);
	ch_font(cr, CH_SMALL_SIZE, 0);
	for (double t = ceil(r0 / step) * step; t <= r1 + step * 1e-9; t += step) {
		double px = floor(x + (t - r0) / (r1 - r0) * w) + 0.5, tw;

		cairo_move_to(cr, px, y);
		cairo_line_to(cr, px, y + 5);
		cairo_stroke(cr);
		ch_fmt_time(buf, sizeof(buf), t, unit, dec);
		tw = ch_text_width(cr, buf);
		if (px - tw / 2 > last_right + 4 && px + tw / 2 <= c->W) {
			ch_text(cr, px, y + 7, 1, 2, buf);
			last_right = px + tw / 2;
		}
	}
	ch_fmt_abs_s(abs_s, sizeof(abs_s), c->trace_start);
	snprintf(buf, sizeof(buf), "time since the trace start (%s)", abs_s);
	ch_hex(cr, 0x555555);
	ch_text(cr, x + w, y + 7 + CH_SMALL_SIZE + 6, 2, 2, buf);
}

/* ---- colours ---- */

static double hue2rgb(double p, double q, double t)
{
	if (t < 0)
		t += 1;
	if (t > 1)
		t -= 1;
	if (t < 1.0 / 6)
		return p + (q - p) * 6 * t;
	if (t < 0.5)
		return q;
	if (t < 2.0 / 3)
		return p + (q - p) * (2.0 / 3 - t) * 6;
	return p;
}

/*
 * A colour from the name alone (FNV-1a hash to hue, saturation and lightness), so a comm has
 * the same colour in every chart, trace and run. Quantized to 8 bits per channel so that
 * every surface shows exactly the same colour.
 */
void trax_plot_comm_colour(const char *comm, double rgb[3])
{
	uint32_t h = fnv1a(comm);
	double hue = (h % 360) / 360.0, s = 0.50 + ((h >> 9) % 25) / 100.0;
	double l = 0.40 + ((h >> 17) % 18) / 100.0;
	double q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q;

	rgb[0] = round(hue2rgb(p, q, hue + 1.0 / 3) * 255) / 255;
	rgb[1] = round(hue2rgb(p, q, hue) * 255) / 255;
	rgb[2] = round(hue2rgb(p, q, hue - 1.0 / 3) * 255) / 255;
}

/*
 * Task colours. The palette is Tableau 10 without its grey, in its order, and three more
 * picked to keep the smallest CIELAB distance of the set high (each one the sRGB colour of
 * lightness 30 to 85 farthest from the others by CIEDE2000): every pair is more than 29 apart
 * by CIE76 (18 by CIEDE2000), every colour more than 22 from the grey of the other tasks
 * (CH_OTHER), the lane background and the text colour. Ranks go by busyness, so the busiest
 * task is blue, the next orange, and so on.
 */
static const uint32_t task_palette[TRAX_PLOT_PALETTE_N] = {
	0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948,
	0xb07aa1, 0xff9da7, 0x9c755f, 0x7700aa, 0x005500, 0x773344,
};

struct trax_plot_palette {
	int n;
	char *comm[TRAX_PLOT_PALETTE_N];	/* by rank */
};

uint32_t trax_plot_palette_colour(int rank)
{
	return rank >= 0 && rank < TRAX_PLOT_PALETTE_N ? task_palette[rank] : CH_OTHER;
}

int trax_plot_palette_rank(const struct trax_plot_palette *p, const char *comm)
{
	for (int i = 0; p && comm && i < p->n; i++)
		if (!strcmp(p->comm[i], comm))
			return i;
	return -1;
}

int trax_plot_palette_rgb(const struct trax_plot_palette *p, const char *comm, double rgb[3])
{
	int rank = trax_plot_palette_rank(p, comm);
	uint32_t c = trax_plot_palette_colour(rank);

	rgb[0] = ((c >> 16) & 0xff) / 255.0;
	rgb[1] = ((c >> 8) & 0xff) / 255.0;
	rgb[2] = (c & 0xff) / 255.0;
	return rank;
}

void trax_plot_palette_free(struct trax_plot_palette *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->n; i++)
		free(p->comm[i]);
	free(p);
}

struct comm_ns {
	char *comm;
	int64_t ns;
};

static int cmp_comm_name(const void *a, const void *b)
{
	return strcmp(((const struct comm_ns *)a)->comm, ((const struct comm_ns *)b)->comm);
}

static int cmp_comm_busy(const void *a, const void *b)
{
	const struct comm_ns *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return strcmp(x->comm, y->comm);
}

static void comm_ns_add(struct comm_ns **v, int *n, int *cap, const char *comm, int64_t ns)
{
	if (ns <= 0)
		return;
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		*v = xrealloc(*v, *cap * sizeof(**v));
	}
	(*v)[*n].comm = xstrdup(comm);
	(*v)[(*n)++].ns = ns;
}

/* A thread's names in time order: from thread_comm, else thread.comm. */
struct name_row {
	int64_t utid, ts;
	char *comm;
};

/*
 * CPU time per name: a thread gives all its time to its last name (the name it is drawn and
 * listed under in every chart, whatever names it had before), one GROUP BY. With match, only
 * the utids below nmatch that it flags.
 */
static int palette_times(sqlite3 *db, int buffer, const unsigned char *match, int nmatch,
			 struct comm_ns **out, int *nout)
{
	sqlite3_stmt *st = NULL;
	struct comm_ns *v = NULL;
	struct name_row *r = NULL;
	int64_t *busy = NULL, max_utid = -1;
	int n = 0, cap = 0, nr = 0, cr = 0, rc, ret = -1;

	*out = NULL;
	*nout = 0;
	if (!ch_table_exists(db, "sched_slice") || !ch_table_exists(db, "thread"))
		return 0;
	if (sqlite3_prepare_v2(db, "SELECT max(utid) FROM thread", -1, &st, NULL) != SQLITE_OK)
		goto out;
	if (sqlite3_step(st) == SQLITE_ROW)
		max_utid = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	if (max_utid < 0 || max_utid > 50000000) {
		ret = 0;
		goto out;
	}
	busy = xcalloc(max_utid + 1, sizeof(*busy));
	if (sqlite3_prepare_v2(db, "SELECT utid, sum(dur) FROM sched_slice WHERE pid != 0 AND "
			       "buffer = ? GROUP BY utid", -1, &st, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_int(st, 1, buffer);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t u = sqlite3_column_int64(st, 0);

		if (u >= 0 && u <= max_utid && (!match || (u < nmatch && match[u])))
			busy[u] = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE)
		goto out;
	if (sqlite3_prepare_v2(db, "SELECT t.utid, c.ts, coalesce(c.comm, t.comm) FROM thread t "
			       "LEFT JOIN thread_comm c ON c.utid = t.utid ORDER BY t.utid, c.ts",
			       -1, &st, NULL) != SQLITE_OK)
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t u = sqlite3_column_int64(st, 0);
		const char *comm = (const char *)sqlite3_column_text(st, 2);

		if (u < 0 || u > max_utid || !busy[u])
			continue;
		if (nr == cr) {
			cr = cr ? cr * 2 : 256;
			r = xrealloc(r, cr * sizeof(*r));
		}
		r[nr].utid = u;
		r[nr].ts = sqlite3_column_type(st, 1) == SQLITE_NULL ? INT64_MIN :
			   sqlite3_column_int64(st, 1);
		r[nr++].comm = xstrdup(comm ? comm : "");
	}
	if (rc != SQLITE_DONE)
		goto out;
	for (int i = 0, j; i < nr; i = j) {
		for (j = i + 1; j < nr && r[j].utid == r[i].utid; j++)
			;
		comm_ns_add(&v, &n, &cap, r[j - 1].comm, busy[r[i].utid]);
	}
	*out = v;
	*nout = n;
	v = NULL;
	n = 0;
	ret = 0;
out:
	sqlite3_finalize(st);
	free(busy);
	for (int i = 0; i < nr; i++)
		free(r[i].comm);
	free(r);
	for (int i = 0; i < n; i++)
		free(v[i].comm);
	free(v);
	return ret;
}

/* One entry per name (a name of several threads sums their time), busiest first; returns
 * the number of entries left. */
static int names_by_busyness(struct comm_ns *v, int n)
{
	int m = 0;

	qsort(v, n, sizeof(*v), cmp_comm_name);
	for (int i = 0; i < n; i++) {
		if (m && !strcmp(v[m - 1].comm, v[i].comm)) {
			v[m - 1].ns += v[i].ns;
			free(v[i].comm);
		} else {
			v[m++] = v[i];
		}
	}
	qsort(v, m, sizeof(*v), cmp_comm_busy);
	return m;
}

int trax_plot_palette_new(sqlite3 *db, int buffer, struct trax_plot_palette **out,
			  struct trax_error *err)
{
	struct trax_plot_palette *p = xcalloc(1, sizeof(*p));
	struct comm_ns *v;
	int n, m = 0;

	*out = NULL;
	if (palette_times(db, buffer, NULL, 0, &v, &n)) {
		free(p);
		return trax_error_set(err, TRAX_E_DB, "task colours: %s", sqlite3_errmsg(db));
	}
	m = names_by_busyness(v, n);
	for (int i = 0; i < m; i++) {
		if (p->n < TRAX_PLOT_PALETTE_N)
			p->comm[p->n++] = v[i].comm;
		else
			free(v[i].comm);
	}
	free(v);
	*out = p;
	return 0;
}

/*
 * With --task, the trace's palette with the selected names it leaves grey moved in, busiest
 * first, at the ranks of names not selected (drawn grey or not at all in this chart): grey is
 * "not selected", so a selected task must never be grey. Names the palette ranks keep their
 * colour, as in the other charts of the trace.
 */
static int palette_selected(struct chart *c, const struct trax_plot_palette *base,
			    struct trax_plot_palette **out)
{
	struct trax_plot_palette *p = xcalloc(1, sizeof(*p));
	unsigned char sel[TRAX_PLOT_PALETTE_N] = { 0 };
	struct comm_ns *v;
	int n, m, r = 0;

	*out = NULL;
	if (palette_times(c->db, c->o->buffer, c->th.match, c->th.nutid, &v, &n)) {
		free(p);
		return trax_error_set(c->err, TRAX_E_DB, "task colours: %s",
				      sqlite3_errmsg(c->db));
	}
	m = names_by_busyness(v, n);
	for (int i = 0; base && i < base->n; i++)
		p->comm[p->n++] = xstrdup(base->comm[i]);
	for (int i = 0; i < m; i++) {
		int k = trax_plot_palette_rank(p, v[i].comm);

		if (k >= 0)
			sel[k] = 1;
	}
	for (int i = 0; i < m; i++) {
		if (trax_plot_palette_rank(p, v[i].comm) >= 0)
			continue;
		while (r < TRAX_PLOT_PALETTE_N && sel[r])
			r++;
		if (r == TRAX_PLOT_PALETTE_N)
			break;
		if (r < p->n)
			free(p->comm[r]);
		else
			p->n++;
		p->comm[r] = xstrdup(v[i].comm);
		sel[r] = 1;
	}
	for (int i = 0; i < m; i++)
		free(v[i].comm);
	free(v);
	*out = p;
	return 0;
}

/* The chart's palette: opts.palette, else built on first use (with --task, made to give the
 * selected tasks colours); a failure is the chart's error (trax_plot_draw returns it) and
 * leaves every task grey. */
static const struct trax_plot_palette *chart_palette(struct chart *c)
{
	struct trax_plot_palette *own = NULL;

	if (c->palette || c->palette_err)
		return c->palette;
	if (c->o->palette)
		c->palette = c->o->palette;
	else if ((c->palette_err = trax_plot_palette_new(c->db, c->o->buffer, &own,
							 c->err)) == 0)
		c->palette = own;
	if (c->palette && c->have_threads && c->th.any_filter) {
		struct trax_plot_palette *p;

		if ((c->palette_err = palette_selected(c, c->palette, &p)) == 0) {
			trax_plot_palette_free(own);
			own = p;
			c->palette = p;
		}
	}
	c->own_palette = own;
	return c->palette;
}

void ch_task_rgb(struct chart *c, const char *comm, double rgb[3])
{
	trax_plot_palette_rgb(chart_palette(c), comm, rgb);
}

int ch_task_rank(struct chart *c, const char *comm)
{
	return trax_plot_palette_rank(chart_palette(c), comm);
}

/* ---- drawing ---- */

static void basename_of(const char *path, char *buf, size_t len)
{
	const char *b = path ? strrchr(path, '/') : NULL;

	snprintf(buf, len, "%s", b ? b + 1 : path ? path : "trace");
}

int trax_plot_draw(sqlite3 *db, const struct trax_plot_opts *o, cairo_t *cr,
		   struct trax_plot_info *info, struct trax_error *err)
{
	struct trax_plot_opts dflt;
	struct chart c = { .db = db, .o = o, .cr = cr, .info = info, .err = err };
	cairo_font_options_t *fo;
	sqlite3_stmt *st = NULL;
	char *src;
	int64_t v;
	int ret = 0;

	if (!o) {
		trax_plot_opts_init(&dflt);
		c.o = o = &dflt;
	}
	if (info)
		memset(info, 0, sizeof(*info));
	c.W = o->width > 0 ? o->width : 1200;
	c.H = o->height > 0 ? o->height : 600;
	if (c.W < 200 || c.H < 150 || c.W > 20000 || c.H > 20000)
		return trax_error_set(err, TRAX_E_USAGE, "chart size %gx%g: want 200x150 to "
				      "20000x20000", c.W, c.H);
	src = trax_db_meta(db, "source.path");
	basename_of(src, c.trace_name, sizeof(c.trace_name));
	free(src);
	if (ch_meta_int(db, "trace.start_ts", &c.trace_start) ||
	    ch_meta_int(db, "trace.end_ts", &c.trace_end))
		return trax_error_set(err, TRAX_E_EVAL, "%s: the trace holds no records (no time "
				      "range in meta)", c.trace_name);
	c.t0 = o->start ? o->start : c.trace_start;
	c.t1 = o->end ? o->end : c.trace_end;
	if (c.t1 <= c.t0)
		return trax_error_set(err, TRAX_E_USAGE, "%s: empty window (%lld .. %lld ns)",
				      c.trace_name, (long long)c.t0, (long long)c.t1);
	if (ch_meta_int(db, "cpus", &v) || v < 1)
		v = 1;
	if (sqlite3_prepare_v2(db, "SELECT max(cpu) FROM sched_slice", -1, &st, NULL) ==
	    SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL && sqlite3_column_int64(st, 0) >= v)
		v = sqlite3_column_int64(st, 0) + 1;
	sqlite3_finalize(st);
	if (v > 4096)
		return trax_error_set(err, TRAX_E_FORMAT, "%s: %lld CPUs: too many", c.trace_name,
				      (long long)v);
	c.ncpus = (int)v;
	c.cpu_on = xmalloc(c.ncpus);
	if (o->cpus) {
		ret = ch_cpulist_parse(o->cpus, c.cpu_on, c.ncpus, err);
		if (ret)
			goto out;
	} else {
		memset(c.cpu_on, 1, c.ncpus);
	}
	/* Nothing to draw, the same for every kind: a window that misses the trace, a --task
	 * that selects no thread of it. */
	if (c.t1 <= c.trace_start || c.t0 >= c.trace_end) {
		ret = trax_error_set(err, TRAX_E_EVAL, "%s: the window (%.6f .. %.6f s from the "
				     "trace start; %.6f .. %.6f s absolute) does not overlap the "
				     "trace (0 .. %.6f s)", c.trace_name,
				     (c.t0 - c.trace_start) / 1e9, (c.t1 - c.trace_start) / 1e9,
				     c.t0 / 1e9, c.t1 / 1e9, (c.trace_end - c.trace_start) / 1e9);
		goto out;
	}
	/* A window reaches no further than the trace (as a rule's does): past its ends, blank
	 * lanes would read as idle CPUs. The subtitle says when it was cut. */
	if (c.t0 < c.trace_start || c.t1 > c.trace_end) {
		c.window_cut = 1;
		c.t0 = c.t0 > c.trace_start ? c.t0 : c.trace_start;
		c.t1 = c.t1 < c.trace_end ? c.t1 : c.trace_end;
	}
	if (o->task && *o->task) {
		int any = 0;

		ret = ch_threads_load(&c);
		if (ret)
			goto out;
		for (int u = 0; u < c.th.nutid && !any; u++)
			any = c.th.match[u];
		if (!any) {
			ret = trax_error_set(err, TRAX_E_EVAL, "%s: --task '%s' matches no task of "
					     "the trace", c.trace_name, o->task);
			goto out;
		}
	}
	if (info) {
		info->start = c.t0;
		info->end = c.t1;
	}

	cairo_save(cr);
	fo = cairo_font_options_create();
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_set_font_options(cr, fo);
	cairo_font_options_destroy(fo);
	cairo_rectangle(cr, 0, 0, c.W, c.H);
	cairo_clip(cr);
	ch_hex(cr, CH_BG);
	cairo_paint(cr);
	if ((unsigned)o->kind < TRAX_PLOT_NKINDS)
		ret = kinds[o->kind].draw(&c);
	else
		ret = trax_error_set(err, TRAX_E_USAGE, "unknown chart kind %d", (int)o->kind);
	cairo_restore(cr);
	if (!ret && c.palette_err)
		ret = c.palette_err;
	if (!ret && cairo_status(cr) != CAIRO_STATUS_SUCCESS)
		ret = trax_error_set(err, TRAX_E_IO, "drawing: %s",
				     cairo_status_to_string(cairo_status(cr)));
out:
	if (ret && info)
		trax_plot_info_release(info);
	threads_release(&c.th);
	trax_plot_palette_free(c.own_palette);
	free(c.cpu_on);
	return ret;
}

/* ---- surfaces and files ---- */

void trax_plot_pdf_metadata(cairo_surface_t *pdf, const char *title)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	char date[64] = "1970-01-01T00:00:00Z";

	if (sde && is_number(sde)) {
		time_t t = (time_t)strtoll(sde, NULL, 10);
		struct tm tm;

		if (gmtime_r(&t, &tm))
			strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
	if (title)
		cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_TITLE, title);
	cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_CREATOR, "trax " TRAX_VERSION);
	/* Without a date cairo writes the current time: the same input would differ by run. */
	cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_CREATE_DATE, date);
	cairo_pdf_surface_set_metadata(pdf, CAIRO_PDF_METADATA_MOD_DATE, date);
}

void trax_plot_release_fonts(void)
{
	cairo_debug_reset_static_data();
	FcFini();
}

static cairo_status_t write_file(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS :
						      CAIRO_STATUS_WRITE_ERROR;
}

static cairo_status_t write_strbuf(void *closure, const unsigned char *data, unsigned int len)
{
	strbuf_add(closure, data, len);
	return CAIRO_STATUS_SUCCESS;
}

/* The title of a chart for PDF metadata: "timeline of trace.dat". */
static void doc_title(sqlite3 *db, const struct trax_plot_opts *o, char *buf, size_t len)
{
	char *src = trax_db_meta(db, "source.path");
	char name[256];

	basename_of(src, name, sizeof(name));
	free(src);
	if (o->title)
		snprintf(buf, len, "%s", o->title);
	else
		snprintf(buf, len, "trax %s of %s", trax_plot_kind_name(o->kind), name);
}

/*
 * Make cairo's SVG text stable and embeddable. cairo numbers <g id="surfaceN"> from a counter
 * global to the process, so the second chart drawn by one process would differ from the first:
 * surface ids are renumbered by first appearance. With a prefix (charts inlined in one HTML
 * page, where ids share one namespace), every id and reference to it gets the prefix and the
 * XML declaration is dropped.
 */
static void svg_normalize(const char *in, size_t len, const char *prefix, struct strbuf *out)
{
	long map[256];
	int nmap = 0;
	const char *p = in, *end = in + len;

	if (prefix && !strncmp(p, "<?xml", 5)) {
		const char *nl = memchr(p, '\n', len);

		if (nl)
			p = nl + 1;
	}
	while (p < end) {
		const char *q = p;
		int ref = 0;

		/* Find the next id=" , href="# or url(# */
		while (q < end) {
			if (*q == 'i' && end - q > 4 && !memcmp(q, "id=\"", 4) &&
			    (q == in || q[-1] == ' ')) {
				ref = 4;
				break;
			}
			if (*q == 'h' && end - q > 6 && !memcmp(q, "href=\"#", 7)) {
				ref = 7;
				break;
			}
			if (*q == 'u' && end - q > 5 && !memcmp(q, "url(#", 5)) {
				ref = 5;
				break;
			}
			q++;
		}
		strbuf_add(out, p, q - p);
		if (q >= end)
			break;
		strbuf_add(out, q, ref);
		q += ref;
		if (prefix)
			strbuf_adds(out, prefix);
		if (end - q > 7 && !memcmp(q, "surface", 7) && q[7] >= '0' && q[7] <= '9') {
			char *e;
			long n = strtol(q + 7, &e, 10);
			int k;

			for (k = 0; k < nmap && map[k] != n; k++)
				;
			if (k == nmap && nmap < 256)
				map[nmap++] = n;
			strbuf_addf(out, "surface%d", k + 1);
			q = e;
		}
		p = q;
	}
}

/* An SVG surface writing into svg whose chart text goes to texts as <text> (ch_text). */
static cairo_surface_t *svg_surface(struct strbuf *svg, struct strbuf *texts, int w, int h)
{
	cairo_surface_t *s = cairo_svg_surface_create_for_stream(write_strbuf, svg, w, h);

	cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PX);
	cairo_surface_set_user_data(s, &svg_text_key, texts, NULL);
	return s;
}

/*
 * cairo's SVG, normalized (svg_normalize), with the chart's text on top of it before the
 * closing </svg>: one group giving the font (DejaVu Sans, the one the layout measured, then
 * what the viewer has) and keeping spaces. The text is added after the normalizing, which
 * must not touch what a task name holds ("url(#...").
 */
static void svg_finish(const char *in, size_t len, const char *prefix, const struct strbuf *texts,
		       struct strbuf *out)
{
	size_t start = out->len, end;

	svg_normalize(in, len, prefix, out);
	end = out->len;
	while (end > start + 6 && memcmp(out->buf + end - 6, "</svg>", 6))
		end--;
	if (!texts->len || end <= start + 6)
		return;
	end -= 6;
	{
		struct strbuf tail = STRBUF_INIT;

		strbuf_add(&tail, out->buf + end, out->len - end);
		out->len = end;
		out->buf[end] = '\0';
		strbuf_adds(out, "<g font-family=\"DejaVu Sans, Verdana, sans-serif\" "
			    "xml:space=\"preserve\">\n");
		strbuf_add(out, texts->buf, texts->len);
		strbuf_adds(out, "</g>\n");
		strbuf_add(out, tail.buf, tail.len);
		strbuf_release(&tail);
	}
}

int trax_plot_write(sqlite3 *db, const struct trax_plot_opts *o, enum trax_plot_format fmt,
		    const char *path, struct trax_plot_info *info, struct trax_error *err)
{
	struct trax_plot_opts dflt;
	struct strbuf svg = STRBUF_INIT, norm = STRBUF_INIT, texts = STRBUF_INIT;
	struct trax_outfile of = { 0 };
	cairo_surface_t *s = NULL;
	cairo_t *cr = NULL;
	FILE *f = NULL;
	char title[512];
	int ret = 0, w, h;
	cairo_status_t cs;

	if (!o) {
		trax_plot_opts_init(&dflt);
		o = &dflt;
	}
	w = o->width > 0 ? o->width : 1200;
	h = o->height > 0 ? o->height : 600;
	ret = trax_outfile_open(&of, path, err);
	if (ret)
		goto out;
	f = of.f;
	switch (fmt) {
	case TRAX_PLOT_PNG:
		s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
		break;
	case TRAX_PLOT_SVG:
		s = svg_surface(&svg, &texts, w, h);
		break;
	case TRAX_PLOT_PDF:
		s = cairo_pdf_surface_create_for_stream(write_file, f, w, h);
		doc_title(db, o, title, sizeof(title));
		trax_plot_pdf_metadata(s, title);
		break;
	}
	if (!s || cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		ret = trax_error_set(err, TRAX_E_IO, "%s: cannot create the surface: %s", path,
				     s ? cairo_status_to_string(cairo_surface_status(s)) : "?");
		goto out;
	}
	cr = cairo_create(s);
	ret = trax_plot_draw(db, o, cr, info, err);
	if (ret)
		goto out;
	cairo_destroy(cr);
	cr = NULL;
	if (fmt == TRAX_PLOT_PNG)
		cs = cairo_surface_write_to_png_stream(s, write_file, f);
	else {
		cairo_surface_finish(s);
		cs = cairo_surface_status(s);
	}
	if (cs != CAIRO_STATUS_SUCCESS) {
		ret = trax_error_set(err, TRAX_E_IO, "%s: %s", path, cairo_status_to_string(cs));
		goto out;
	}
	cairo_surface_destroy(s);
	s = NULL;
	if (fmt == TRAX_PLOT_SVG) {
		svg_finish(svg.buf, svg.len, NULL, &texts, &norm);
		fwrite(norm.buf, 1, norm.len, f);
	}
	ret = trax_outfile_commit(&of, err);
out:
	if (cr)
		cairo_destroy(cr);
	if (s)
		cairo_surface_destroy(s);
	trax_outfile_abort(&of);
	strbuf_release(&svg);
	strbuf_release(&norm);
	strbuf_release(&texts);
	return ret;
}

int trax_plot_svg(sqlite3 *db, const struct trax_plot_opts *o, const char *id_prefix,
		  struct strbuf *out, struct trax_error *err)
{
	struct trax_plot_opts dflt;
	struct strbuf sb = STRBUF_INIT, texts = STRBUF_INIT;
	cairo_surface_t *s;
	cairo_t *cr;
	int ret;

	if (!o) {
		trax_plot_opts_init(&dflt);
		o = &dflt;
	}
	s = svg_surface(&sb, &texts, o->width > 0 ? o->width : 1200,
			o->height > 0 ? o->height : 600);
	cr = cairo_create(s);
	ret = trax_plot_draw(db, o, cr, NULL, err);
	cairo_destroy(cr);
	cairo_surface_finish(s);
	if (!ret && cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
		ret = trax_error_set(err, TRAX_E_IO, "SVG: %s",
				     cairo_status_to_string(cairo_surface_status(s)));
	cairo_surface_destroy(s);
	if (!ret)
		svg_finish(sb.buf, sb.len, id_prefix, &texts, out);
	strbuf_release(&sb);
	strbuf_release(&texts);
	return ret;
}
