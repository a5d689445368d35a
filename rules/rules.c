/* rules/rules.c: loading rule files (JSON, via jansson) and validating them, with located errors. */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "rules/rules.h"
#include "parse/parse.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/xalloc.h"

/* ---- the metric catalogue (rules/metrics.h) ---- */

enum { K_TASK = 1, K_CPUS = 2, K_STAT = 4, K_ZONE = 8, K_RANGE = 16, K_TRACK = 32, K_FROMTO = 64,
       K_QUERY = 128, K_LEVEL = 256, K_CPU = 512, K_AGG = 1024, K_HEAP = 2048, K_CLIENT = 4096,
       K_WHERE = 8192, K_TIMELINE = 16384, K_DRIVER = 32768 };

enum { MF_PERCENT = 1, MF_SAMPLES = 2, MF_MEMTRACK = 4 };

struct metric_spec {
	const char *name;
	enum trax_family family;
	unsigned allowed, required;
	enum trax_dim dim;	/* the natural dimension */
	unsigned flags;		/* MF_* */
	const char *needs, *loads;
};

static const struct metric_spec specs[TRAX_METRIC__COUNT] = {
#define TRAX_METRIC(id, name, family, takes, requires, dim, flags, eval, needs, loads, chart) \
	[TRAX_METRIC_##id] = { name, TRAX_FAMILY_##family, takes, requires, dim, flags, needs, \
			       loads },
#include "rules/metrics.h"
#undef TRAX_METRIC
};

static const char *const metric_names[] = {
#define TRAX_METRIC(id, name, ...) name,
#include "rules/metrics.h"
#undef TRAX_METRIC
};

const char *trax_metric_name(enum trax_metric m)
{
	return m < TRAX_METRIC__COUNT ? specs[m].name : "?";
}

enum trax_family trax_metric_family(enum trax_metric m)
{
	return specs[m].family;
}

const char *trax_metric_needs(enum trax_metric m)
{
	return specs[m].needs;
}

const char *trax_metric_loads(enum trax_metric m)
{
	return specs[m].loads;
}

/* Metrics whose value is a statistic of a distribution of samples (a time). */
static int metric_is_distribution(enum trax_metric m)
{
	return specs[m].flags & MF_SAMPLES;
}

/* Metrics whose value is a statistic of a memory counter (bytes). */
static int metric_is_memory_track(enum trax_metric m)
{
	return specs[m].flags & MF_MEMTRACK;
}

static const struct {
	const char *key;
	unsigned flag;
} metric_keys[] = {
	{ "task", K_TASK }, { "cpus", K_CPUS }, { "stat", K_STAT }, { "zone", K_ZONE },
	{ "range", K_RANGE }, { "track", K_TRACK }, { "from", K_FROMTO }, { "to", K_FROMTO },
	{ "query", K_QUERY }, { "level", K_LEVEL }, { "cpu", K_CPU }, { "aggregate", K_AGG },
	{ "heap", K_HEAP }, { "client", K_CLIENT }, { "where", K_WHERE },
	{ "timeline", K_TIMELINE }, { "driver", K_DRIVER },
	{ NULL, 0 },
};

static const char *const common_keys[] = {
	"id", "metric", "description", "window", "expect", "edges", "severity", "xfail",
	"requires", "buffer", "regression", NULL,
};

/* ---- units ---- */

static const struct {
	const char *name;
	enum trax_dim dim;
	double scale;
} units[] = {
	{ "ns", TRAX_DIM_TIME, 1 }, { "us", TRAX_DIM_TIME, 1e3 }, { "\xc2\xb5s", TRAX_DIM_TIME, 1e3 },
	{ "ms", TRAX_DIM_TIME, 1e6 }, { "s", TRAX_DIM_TIME, 1e9 },
	{ "%", TRAX_DIM_PERCENT, 1 },
	{ "B", TRAX_DIM_BYTES, 1 }, { "KiB", TRAX_DIM_BYTES, 1024 },
	{ "MiB", TRAX_DIM_BYTES, 1048576 }, { "GiB", TRAX_DIM_BYTES, 1073741824 },
	{ "kB", TRAX_DIM_BYTES, 1e3 }, { "MB", TRAX_DIM_BYTES, 1e6 }, { "GB", TRAX_DIM_BYTES, 1e9 },
	{ "Hz", TRAX_DIM_FREQ, 1 }, { "kHz", TRAX_DIM_FREQ, 1e3 }, { "MHz", TRAX_DIM_FREQ, 1e6 },
	{ "GHz", TRAX_DIM_FREQ, 1e9 },
	{ "mC", TRAX_DIM_TEMP, 1 }, { "C", TRAX_DIM_TEMP, 1e3 },
	{ NULL, 0, 0 },
};

static const char *dim_name(enum trax_dim d)
{
	switch (d) {
	case TRAX_DIM_TIME: return "a time (ns, us, ms, s)";
	case TRAX_DIM_PERCENT: return "a percentage (%)";
	case TRAX_DIM_BYTES: return "a size (B, KiB, MiB, GiB)";
	case TRAX_DIM_FREQ: return "a frequency (Hz, kHz, MHz, GHz)";
	case TRAX_DIM_TEMP: return "a temperature (mC, C)";
	case TRAX_DIM_CPU: return "a CPU number";
	default: return "a count (no unit)";
	}
}

/* ---- error context ---- */

struct ctx {
	const char *path;
	struct trax_error_list problems;	/* every problem found, one line each */
	const struct trax_rules *rs;
	int index;		/* -1 outside "rules" */
	const char *id;
};

/* Record a problem at key ("expect", "windows.w.start", NULL: the rule itself); -TRAX_E_RULES. */
static int fail(struct ctx *c, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct ctx *c, const char *key, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addf(&sb, "%s: ", c->path);
	if (c->index >= 0) {
		strbuf_addf(&sb, "rules[%d]", c->index);
		if (c->id)
			strbuf_addf(&sb, " (id \"%s\")", c->id);
		if (key)
			strbuf_addf(&sb, ".%s", key);
		strbuf_adds(&sb, ": ");
	} else if (key) {
		strbuf_addf(&sb, "%s: ", key);
	}
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	trax_error_list_add(&c->problems, sb.buf);
	strbuf_release(&sb);
	return -TRAX_E_RULES;
}

/* " (did you mean \"NAME\"?)" for the name nearest to word (util/suggest.h), or "". */
struct hint {
	char s[192];
};

static const char *hint(struct hint *h, const char *word, const char *const *names, int n)
{
	const char *best = trax_suggest(word, names, n);

	h->s[0] = '\0';
	if (best)
		snprintf(h->s, sizeof(h->s), " (did you mean \"%s\"?)", best);
	return h->s;
}

/* ---- numbers ---- */

int trax_parse_seconds(const char *s, int64_t *ns)
{
	int neg = 0;
	int64_t whole = 0, frac = 0;
	int digits = 0;
	const char *p = s;

	while (*p == ' ')
		p++;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (!(*p >= '0' && *p <= '9') && *p != '.')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > (INT64_MAX / 10 - 10) / 1000000000)
			return -1;
		whole = whole * 10 + (*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (digits < 9) {
				frac = frac * 10 + (*p - '0');
				digits++;
			}
		}
	}
	while (*p == ' ')
		p++;
	if (*p == 's' && !p[1])
		p++;
	if (*p)
		return -1;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = whole * 1000000000 + frac;
	if (neg)
		*ns = -*ns;
	return 0;
}

/* A time in seconds given as a JSON string or number. */
static int json_seconds(struct ctx *c, const char *key, json_t *v, int64_t *ns)
{
	if (json_is_string(v)) {
		if (trax_parse_seconds(json_string_value(v), ns) < 0)
			return fail(c, key, "not a time in seconds: \"%s\"", json_string_value(v));
		return 0;
	}
	if (json_is_number(v)) {
		*ns = llround(json_number_value(v) * 1e9);
		return 0;
	}
	return fail(c, key, "expected seconds as a string (\"106439.678991\") or a number");
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* NUM [UNIT] at *pp; fills value (as written) and unit. */
static int parse_quantity(const char **pp, double *v, char *unit, size_t ulen)
{
	const char *p = skip_ws(*pp);
	char *end;
	size_t n = 0;

	errno = 0;
	*v = strtod(p, &end);
	if (end == p || errno)
		return -1;
	p = skip_ws(end);
	while (p[n] && p[n] != ' ' && p[n] != '\t' && n + 1 < ulen)
		n++;
	/* a following keyword is not a unit */
	if ((n == 3 && !strncmp(p, "and", 3)) || (n == 2 && !strncmp(p, "+-", 2)) ||
	    (n >= 2 && !strncmp(p, "\xc2\xb1", 2)))
		n = 0;
	memcpy(unit, p, n);
	unit[n] = '\0';
	*pp = p + n;
	return 0;
}

int trax_unit_lookup(const char *unit, enum trax_dim *dim, double *scale)
{
	for (int i = 0; units[i].name; i++) {
		if (!strcmp(units[i].name, unit)) {
			*dim = units[i].dim;
			*scale = units[i].scale;
			return 0;
		}
	}
	return -1;
}

/* The hint for a misspelt unit: the nearest unit name. */
static const char *unit_hint(struct hint *h, const char *unit)
{
	const char *names[sizeof(units) / sizeof(units[0])];
	int n = 0;

	for (int i = 0; units[i].name; i++)
		names[n++] = units[i].name;
	return hint(h, unit, names, n);
}

/* The groups the trace's facts define (clusterN aside). */
static const char *const fact_groups[] = { "little", "big", "mid", NULL };

int trax_topology_fact_name(const char *name)
{
	const char *p;

	for (int i = 0; fact_groups[i]; i++)
		if (!strcmp(name, fact_groups[i]))
			return 1;
	/* "cluster0", "cluster12": digits, without a leading zero that would read two ways */
	if (strncmp(name, "cluster", 7) || !name[7] || (name[7] == '0' && name[8]))
		return 0;
	for (p = name + 7; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return p - (name + 7) <= 5;
}

int trax_rule_needs_facts(const struct trax_rule *r)
{
	return r->facts || r->expect.group_facts;
}

/* The hint for a misspelt topology group: the nearest group of the file or of the facts. */
static const char *group_hint(struct hint *h, const struct trax_rules *rs, const char *name)
{
	const char **names = xcalloc(rs->ngroups + 4, sizeof(*names));
	int n = 0;

	for (int i = 0; i < rs->ngroups; i++)
		names[n++] = rs->groups[i].name;
	for (int i = 0; fact_groups[i]; i++)
		names[n++] = fact_groups[i];
	hint(h, name, names, n);
	free(names);
	return h->s;
}

static int group_cpus(const struct trax_rules *rs, const char *name, int **cpus, int *n)
{
	for (int i = 0; i < rs->ngroups; i++) {
		if (!strcmp(rs->groups[i].name, name)) {
			*n = rs->groups[i].ncpus;
			*cpus = xmalloc(*n * sizeof(int) + 1);
			memcpy(*cpus, rs->groups[i].cpus, *n * sizeof(int));
			return 0;
		}
	}
	return -1;
}

/*
 * Parse an expectation at key for a value of dimension dim (percent_ok: % allowed as well;
 * any_unit: a value of any dimension, the threshold's unit says which: sql, counters of tracks
 * of unknown unit). The threshold's own dimension follows its unit; a bare number is a count,
 * or 0 of anything.
 */
static int parse_expect(struct ctx *c, const char *key, const char *text, enum trax_dim dim,
			int percent_ok, int any_unit, struct trax_threshold *t)
{
	struct hint h;
	static const struct {
		const char *s;
		enum trax_op op;
	} ops[] = {
		{ "<=", TRAX_OP_LE }, { ">=", TRAX_OP_GE }, { "==", TRAX_OP_EQ }, { "!=", TRAX_OP_NE },
		{ "<", TRAX_OP_LT }, { ">", TRAX_OP_GT }, { "=", TRAX_OP_EQ }, { NULL, 0 },
	};
	const char *p = skip_ws(text);
	char unit[16] = "", unit2[16] = "";
	double v1 = 0, v2 = 0;
	int have2 = 0, tol = 0;

	memset(t, 0, sizeof(*t));
	t->text = xstrdup(text);
	if (!strncmp(p, "in ", 3)) {
		const char *g = skip_ws(p + 3);

		if (dim != TRAX_DIM_CPU)
			return fail(c, key, "\"in GROUP\" applies to CPU metrics only");
		t->op = TRAX_OP_IN;
		t->dim = TRAX_DIM_CPU;
		t->group = xstrdup(g);
		if (group_cpus(c->rs, g, &t->cpus, &t->ncpus) < 0) {
			if (!trax_topology_fact_name(g))
				return fail(c, key, "unknown topology group \"%s\"%s", g,
					    group_hint(&h, c->rs, g));
			t->group_facts = 1;
		}
		return 0;
	}
	if (!strncmp(p, "between ", 8)) {
		p += 8;
		if (parse_quantity(&p, &v1, unit, sizeof(unit)) < 0)
			return fail(c, key, "expected a number after \"between\" in \"%s\"",
				    text);
		p = skip_ws(p);
		if (strncmp(p, "and", 3))
			return fail(c, key, "expected \"between A and B\" in \"%s\"", text);
		p += 3;
		if (parse_quantity(&p, &v2, unit2, sizeof(unit2)) < 0)
			return fail(c, key, "expected a number after \"and\" in \"%s\"", text);
		t->op = TRAX_OP_RANGE;
		have2 = 1;
	} else {
		int i;

		for (i = 0; ops[i].s; i++)
			if (!strncmp(p, ops[i].s, strlen(ops[i].s)))
				break;
		if (ops[i].s) {
			t->op = ops[i].op;
			p += strlen(ops[i].s);
		} else {
			t->op = TRAX_OP_EQ;	/* "25 % +- 1 %" */
		}
		if (parse_quantity(&p, &v1, unit, sizeof(unit)) < 0)
			return fail(c, key, "expected \"OP NUMBER [UNIT]\", got \"%s\"", text);
		p = skip_ws(p);
		if (!strncmp(p, "+-", 2) || !strncmp(p, "\xc2\xb1", 2)) {
			p += 2;
			if (t->op != TRAX_OP_EQ)
				return fail(c, key, "a tolerance goes with == (\"%s\")", text);
			if (parse_quantity(&p, &v2, unit2, sizeof(unit2)) < 0)
				return fail(c, key, "expected a tolerance after +- in \"%s\"",
					    text);
			t->op = TRAX_OP_RANGE;
			have2 = tol = 1;
		}
	}
	p = skip_ws(p);
	if (*p)
		return fail(c, key, "unexpected \"%s\" in \"%s\"", p, text);
	if (have2 && !unit2[0])
		snprintf(unit2, sizeof(unit2), "%s", unit);
	if (have2 && !unit[0] && !tol)
		snprintf(unit, sizeof(unit), "%s", unit2);	/* "between 2 and 3 ms" */

	if (!unit[0]) {
		t->scale = 1;
		if (dim == TRAX_DIM_COUNT || dim == TRAX_DIM_CPU || (v1 == 0 && !have2))
			t->dim = dim;
		else
			return fail(c, key, "\"%s\" needs a unit: the value is %s", text,
				    dim_name(dim));
	} else {
		enum trax_dim udim;

		if (trax_unit_lookup(unit, &udim, &t->scale) < 0)
			return fail(c, key, "unknown unit \"%s\"%s", unit, unit_hint(&h, unit));
		if (udim == TRAX_DIM_PERCENT && percent_ok)
			t->dim = TRAX_DIM_PERCENT;
		else if (any_unit)
			t->dim = udim;	/* the number is in the unit's base */
		else if (udim != dim && !(dim == TRAX_DIM_COUNT && udim == TRAX_DIM_PERCENT))
			return fail(c, key, "unit \"%s\" does not fit: the value is %s", unit,
				    dim_name(dim));
		else
			t->dim = udim;
		snprintf(t->unit, sizeof(t->unit), "%s", unit);
	}
	t->a = v1 * t->scale;
	t->b = v2 * t->scale;
	if (have2 && unit2[0]) {
		enum trax_dim d2;
		double s2;

		if (trax_unit_lookup(unit2, &d2, &s2) < 0)
			return fail(c, key, "unknown unit \"%s\"%s", unit2, unit_hint(&h, unit2));
		if (d2 != t->dim)
			return fail(c, key, "\"%s\" and \"%s\" measure different things in \"%s\"",
				    unit, unit2, text);
		t->b = v2 * s2;
	}
	if (tol) {
		double centre = t->a, d = t->b;

		t->a = centre - d;
		t->b = centre + d;
	}
	if (t->op == TRAX_OP_RANGE && t->a > t->b)
		return fail(c, key, "empty range in \"%s\"", text);
	return 0;
}

int trax_threshold_met(const struct trax_threshold *t, double v)
{
	/* Values equal up to rounding of the printed unit count as equal. */
	double eps = 1e-9 * (fabs(t->a) > 1 ? fabs(t->a) : 1);

	switch (t->op) {
	case TRAX_OP_LT: return v < t->a - eps;
	case TRAX_OP_LE: return v <= t->a + eps;
	case TRAX_OP_GT: return v > t->a + eps;
	case TRAX_OP_GE: return v >= t->a - eps;
	case TRAX_OP_EQ: return fabs(v - t->a) <= eps;
	case TRAX_OP_NE: return fabs(v - t->a) > eps;
	case TRAX_OP_RANGE: return v >= t->a - eps && v <= t->b + eps;
	case TRAX_OP_IN:
		for (int i = 0; i < t->ncpus; i++)
			if ((double)t->cpus[i] == v)
				return 1;
		return 0;
	}
	return 0;
}

char *trax_format_value(double v, enum trax_dim dim, const char *unit, char *buf, size_t len)
{
	enum trax_dim ud;
	double scale = 1;

	if (isnan(v)) {
		snprintf(buf, len, "undefined");
		return buf;
	}
	if (unit && *unit && trax_unit_lookup(unit, &ud, &scale) == 0 && ud == dim) {
		/* in the rule's own unit; a large count of it in full, not as 3.06621e+08 */
		snprintf(buf, len, fabs(v / scale) >= 1e6 ? "%.15g %s" : "%.6g %s", v / scale, unit);
		return buf;
	}
	switch (dim) {
	case TRAX_DIM_TIME:
		if (fabs(v) >= 1e9)
			snprintf(buf, len, "%.9g s", v / 1e9);
		else if (fabs(v) >= 1e6)
			snprintf(buf, len, "%.6g ms", v / 1e6);
		else if (fabs(v) >= 1e3)
			snprintf(buf, len, "%.6g us", v / 1e3);
		else
			snprintf(buf, len, "%.6g ns", v);
		break;
	case TRAX_DIM_PERCENT: snprintf(buf, len, "%.6g %%", v); break;
	case TRAX_DIM_BYTES: snprintf(buf, len, "%.0f B", v); break;
	case TRAX_DIM_FREQ: snprintf(buf, len, "%.6g Hz", v); break;
	case TRAX_DIM_TEMP: snprintf(buf, len, "%.6g mC", v); break;
	case TRAX_DIM_CPU: snprintf(buf, len, "CPU %.0f", v); break;
	default: snprintf(buf, len, "%.10g", v); break;
	}
	return buf;
}

/* ---- pieces of a rule ---- */

/*
 * A CPU set: a list, or a group name (name non-NULL). A group of the file's topology gives its
 * CPUs now; a name only the trace's facts can give (trax_topology_fact_name()) sets *facts and
 * leaves *cpus NULL, resolved when the rule is evaluated; any other name is an error here.
 */
static int parse_cpu_list(struct ctx *c, const char *key, json_t *v, int **cpus, int *n,
			  char **name, int *facts)
{
	size_t i;
	json_t *e;

	*cpus = NULL;
	*n = 0;
	if (json_is_string(v) && name) {
		const char *g = json_string_value(v);
		struct hint h;

		if (group_cpus(c->rs, g, cpus, n) < 0) {
			if (!trax_topology_fact_name(g))
				return fail(c, key, "unknown topology group \"%s\"%s", g,
					    group_hint(&h, c->rs, g));
			*facts = 1;
		}
		*name = xstrdup(g);
		return 0;
	}
	if (!json_is_array(v) || !json_array_size(v))
		return fail(c, key, "expected a topology group name or a list of CPUs");
	*cpus = xcalloc(json_array_size(v) + 1, sizeof(int));
	json_array_foreach(v, i, e) {
		if (!json_is_integer(e) || json_integer_value(e) < 0 ||
		    json_integer_value(e) > 4095)
			return fail(c, key, "item %zu: expected a CPU number", i);
		(*cpus)[(*n)++] = json_integer_value(e);
	}
	return 0;
}

/*
 * Key k, at path (k itself, or "windows.w.k"), is none of names (NULL-terminated): say so, with
 * the nearest name when one is near, else with the list of them when list is set.
 */
static int unknown_key(struct ctx *c, const char *path, const char *k, const char *const *names,
		       int list)
{
	struct strbuf sb = STRBUF_INIT;
	struct hint h;

	if (!*hint(&h, k, names, -1) && list) {
		strbuf_adds(&sb, " (");
		for (int i = 0; names[i]; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "", names[i]);
		strbuf_adds(&sb, ")");
	}
	fail(c, path, "unknown key%s", h.s[0] ? h.s : sb.buf);
	strbuf_release(&sb);
	return -TRAX_E_RULES;
}

/* A window object (or "complete"); every problem is recorded, not only the first. */
static int parse_window_obj(struct ctx *c, const char *key, json_t *o, struct trax_window *w)
{
	static const char *const keys[] = { "start", "end", "relative", "from_marker", "to_marker",
					    "occurrence", "match", NULL };
	const char *k;
	json_t *v;
	int bad = 0;

	if (json_is_string(o)) {
		static const char *const complete[] = { "complete", NULL };
		struct hint h;

		if (!strcmp(json_string_value(o), "complete")) {
			w->kind = TRAX_WIN_COMPLETE;
			return 0;
		}
		return fail(c, key, "unknown window \"%s\"%s", json_string_value(o),
			    hint(&h, json_string_value(o), complete, -1));
	}
	if (!json_is_object(o))
		return fail(c, key, "expected a window name, \"complete\" or an object");
	w->kind = TRAX_WIN_ABSOLUTE;
	w->occurrence = 1;
	json_object_foreach(o, k, v) {
		char sub[160];

		snprintf(sub, sizeof(sub), "%s.%s", key, k);
		if (!strcmp(k, "start") || !strcmp(k, "end")) {
			int64_t ns;

			if (json_seconds(c, sub, v, &ns)) {
				bad = 1;
				continue;
			}
			if (k[0] == 's')
				w->start = ns, w->has_start = 1;
			else
				w->end = ns, w->has_end = 1;
		} else if (!strcmp(k, "relative")) {
			if (!json_is_boolean(v))
				bad = fail(c, sub, "expected true or false");
			else if (json_is_true(v))
				w->kind = TRAX_WIN_RELATIVE;
		} else if (!strcmp(k, "from_marker") || !strcmp(k, "to_marker")) {
			if (!json_is_string(v) || !*json_string_value(v))
				bad = fail(c, sub, "expected the marker text");
			else if (k[0] == 'f')
				w->from_marker = xstrdup(json_string_value(v));
			else
				w->to_marker = xstrdup(json_string_value(v));
		} else if (!strcmp(k, "occurrence")) {
			if (!json_is_integer(v) || json_integer_value(v) < 1)
				bad = fail(c, sub, "expected a number >= 1");
			else
				w->occurrence = json_integer_value(v);
		} else if (!strcmp(k, "match")) {
			if (!json_is_string(v) || (strcmp(json_string_value(v), "exact") &&
						   strcmp(json_string_value(v), "prefix")))
				bad = fail(c, sub, "expected \"exact\" or \"prefix\"");
			else
				w->prefix = !strcmp(json_string_value(v), "prefix");
		} else {
			bad = unknown_key(c, sub, k, keys, 1);
		}
	}
	if (bad)
		return -TRAX_E_RULES;	/* the checks below would only repeat a problem */
	if (w->from_marker || w->to_marker) {
		if (!w->from_marker || !w->to_marker)
			return fail(c, key, "from_marker and to_marker go together");
		if (w->has_start || w->has_end)
			return fail(c, key, "a marker window has no start/end");
		w->kind = TRAX_WIN_MARKERS;
	} else if (!w->has_start && !w->has_end) {
		return fail(c, key, "a window needs start and/or end, or markers");
	}
	if (w->has_start && w->has_end && w->end < w->start)
		return fail(c, key, "end is before start");
	return 0;
}

static void window_copy(struct trax_window *dst, const struct trax_window *src)
{
	*dst = *src;
	dst->name = src->name ? xstrdup(src->name) : NULL;
	dst->from_marker = src->from_marker ? xstrdup(src->from_marker) : NULL;
	dst->to_marker = src->to_marker ? xstrdup(src->to_marker) : NULL;
}

static void window_release(struct trax_window *w)
{
	free(w->name);
	free(w->from_marker);
	free(w->to_marker);
}

struct named_window {
	char *name;
	struct trax_window w;
	int bad;		/* it had a problem (already recorded) */
};

/* regcomp of a long or deeply grouped regex can take seconds (5000 nested groups: 25 s), and
 * counted repetitions multiply its size ((a{100}){100}): refuse them first. Groups are counted
 * as '(' outside brackets and not escaped; the bounds of {m}, {m,}, {m,n} and {,n} multiply
 * (over all of them, nested or not). */
#define REGEX_MAX_LEN 256
#define REGEX_MAX_GROUPS 32
#define REGEX_MAX_REPEAT 1024
/* A task or name glob is matched with SQLite's GLOB, which gives up on long patterns
 * ("LIKE or GLOB pattern too complex", SQLITE_LIMIT_LIKE_PATTERN_LENGTH): a bound here first. */
#define GLOB_MAX_LEN 256

enum { RE_OK, RE_LONG, RE_GROUPS, RE_REPEAT };

static int regex_too_big(const char *re)
{
	int groups = 0, bracket = 0;
	double repeat = 1;

	if (strlen(re) > REGEX_MAX_LEN)
		return RE_LONG;
	for (const char *p = re; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
		} else if (bracket && *p == ']') {
			bracket = 0;
		} else if (!bracket && *p == '[') {
			bracket = 1;
			if (p[1] == '^')
				p++;
			if (p[1] == ']')	/* a ']' first in a bracket is a member */
				p++;
		} else if (!bracket && *p == '(') {
			groups++;
		} else if (!bracket && *p == '{') {
			long lo = 0, hi;
			char *end;

			lo = strtol(p + 1, &end, 10);
			hi = lo;
			if (*end == ',')
				hi = end[1] == '}' ? lo : strtol(end + 1, &end, 10);
			if (hi < lo)
				hi = lo;
			if (hi > 1)
				repeat *= (double)hi;
		}
	}
	if (groups > REGEX_MAX_GROUPS)
		return RE_GROUPS;
	return repeat > REGEX_MAX_REPEAT ? RE_REPEAT : RE_OK;
}

/* A glob's value: a name or glob of at most GLOB_MAX_LEN characters. */
static int glob_bad(struct ctx *c, const char *key, const char *glob)
{
	if (strlen(glob) <= GLOB_MAX_LEN)
		return 0;
	return fail(c, key, "glob of %zu characters (limit %d)", strlen(glob), GLOB_MAX_LEN);
}

static int parse_selector(struct ctx *c, json_t *v, struct trax_selector *s)
{
	const char *k;
	json_t *x;

	if (json_is_string(v)) {
		s->kind = TRAX_SEL_GLOB;
		s->pattern = xstrdup(json_string_value(v));
		s->text = xstrdup(s->pattern);
		if (!*s->pattern)
			return fail(c, "task", "empty task name");
		return glob_bad(c, "task", s->pattern);
	}
	if (json_is_integer(v)) {
		s->kind = TRAX_SEL_PID;
		s->id = json_integer_value(v);
	} else if (json_is_object(v) && json_object_size(v) != 1) {
		static const char *const sels[] = { "comm", "regex", "pid", "tgid", NULL };
		int unknown = 0;

		json_object_foreach(v, k, x) {
			int i;

			for (i = 0; sels[i] && strcmp(sels[i], k); i++)
				;
			if (!sels[i]) {
				char sub[160];

				snprintf(sub, sizeof(sub), "task.%s", k);
				unknown = unknown_key(c, sub, k, sels, 1);
			}
		}
		if (unknown)
			return unknown;
		return fail(c, "task", "expected one selector: {\"comm\": ...}, {\"regex\": ...}, "
			    "{\"pid\": N} or {\"tgid\": N}");
	} else if (json_is_object(v)) {
		json_object_foreach(v, k, x) {
			if (!strcmp(k, "comm")) {
				if (!json_is_string(x) || !*json_string_value(x))
					return fail(c, "task.comm", "expected a name or glob");
				if (glob_bad(c, "task.comm", json_string_value(x)))
					return -TRAX_E_RULES;
				s->kind = TRAX_SEL_GLOB;
				s->pattern = xstrdup(json_string_value(x));
			} else if (!strcmp(k, "regex")) {
				int rc;

				if (!json_is_string(x))
					return fail(c, "task.regex", "expected a regular expression");
				rc = regex_too_big(json_string_value(x));
				if (rc == RE_LONG)
					return fail(c, "task.regex", "regex of more than %d characters",
						    REGEX_MAX_LEN);
				if (rc == RE_GROUPS)
					return fail(c, "task.regex", "regex has more than %d groups",
						    REGEX_MAX_GROUPS);
				if (rc == RE_REPEAT)
					return fail(c, "task.regex", "regex repeats more than %d times "
						    "(the product of its {m,n} bounds)",
						    REGEX_MAX_REPEAT);
				s->kind = TRAX_SEL_REGEX;
				s->pattern = xstrdup(json_string_value(x));
				rc = regcomp(&s->re, s->pattern, REG_EXTENDED | REG_NOSUB);
				if (rc) {
					char msg[128];

					regerror(rc, &s->re, msg, sizeof(msg));
					s->kind = TRAX_SEL_NONE;
					return fail(c, "task.regex", "%s", msg);
				}
			} else if (!strcmp(k, "pid") || !strcmp(k, "tgid")) {
				if (!json_is_integer(x) || json_integer_value(x) < 0)
					return fail(c, k[0] == 'p' ? "task.pid" : "task.tgid",
						    "expected a number");
				s->kind = k[0] == 'p' ? TRAX_SEL_PID : TRAX_SEL_TGID;
				s->id = json_integer_value(x);
			} else {
				static const char *const sels[] = { "comm", "regex", "pid", "tgid",
								    NULL };
				char sub[160];

				snprintf(sub, sizeof(sub), "task.%s", k);
				return unknown_key(c, sub, k, sels, 1);
			}
		}
	} else {
		return fail(c, "task", "expected a comm glob, a pid, or one of {\"comm\": ...}, "
			    "{\"regex\": ...}, {\"pid\": N}, {\"tgid\": N}");
	}
	{
		struct strbuf sb = STRBUF_INIT;

		if (s->kind == TRAX_SEL_PID || s->kind == TRAX_SEL_TGID)
			strbuf_addf(&sb, "%s %lld", s->kind == TRAX_SEL_PID ? "pid" : "tgid",
				    (long long)s->id);
		else
			strbuf_addf(&sb, "%s%s", s->kind == TRAX_SEL_REGEX ? "regex " : "",
				    s->pattern);
		s->text = strbuf_detach(&sb);
	}
	return 0;
}

static int parse_stat(struct ctx *c, const char *s, struct trax_rule *r)
{
	static const struct {
		const char *name;
		enum trax_stat st;
	} stats[] = {
		{ "min", TRAX_STAT_MIN }, { "max", TRAX_STAT_MAX }, { "mean", TRAX_STAT_MEAN },
		{ "avg", TRAX_STAT_MEAN }, { "median", TRAX_STAT_MEDIAN }, { "count", TRAX_STAT_COUNT },
		{ "sum", TRAX_STAT_SUM }, { "time_above", TRAX_STAT_TIME_ABOVE },
		{ "time_below", TRAX_STAT_TIME_BELOW }, { "first", TRAX_STAT_FIRST },
		{ "last", TRAX_STAT_LAST }, { NULL, 0 },
	};

	for (int i = 0; stats[i].name; i++) {
		if (!strcmp(stats[i].name, s)) {
			r->stat = stats[i].st;
			return 0;
		}
	}
	if (s[0] == 'p' && s[1]) {
		char *end;
		double p = strtod(s + 1, &end);

		if (!*end && p >= 0 && p <= 100) {
			r->stat = TRAX_STAT_PCT;
			r->pct = p;
			return 0;
		}
	}
	{
		const char *names[sizeof(stats) / sizeof(stats[0])];
		struct hint h;
		int n = 0;

		for (int i = 0; stats[i].name; i++)
			names[n++] = stats[i].name;
		if (*hint(&h, s, names, n))
			return fail(c, "stat", "unknown statistic \"%s\"%s", s, h.s);
	}
	return fail(c, "stat", "unknown statistic \"%s\" (min, max, mean, median, pNN, count, sum, "
		    "time_above, time_below, first, last)", s);
}

enum trax_dim trax_rule_value_dim(const struct trax_rule *r)
{
	const struct metric_spec *sp = &specs[r->metric];

	if (r->expect.dim == TRAX_DIM_PERCENT && (sp->flags & MF_PERCENT))
		return TRAX_DIM_PERCENT;
	if (metric_is_distribution(r->metric) && r->stat == TRAX_STAT_COUNT)
		return TRAX_DIM_COUNT;
	if (r->metric == TRAX_METRIC_COUNTER || r->metric == TRAX_METRIC_SQL)
		return r->expect.dim;
	return sp->dim;
}

/* The natural dimension of a counter track's values. */
static enum trax_dim track_dim(const struct trax_rule *r)
{
	if (r->stat == TRAX_STAT_TIME_ABOVE || r->stat == TRAX_STAT_TIME_BELOW)
		return TRAX_DIM_TIME;
	if (r->stat == TRAX_STAT_COUNT)
		return TRAX_DIM_COUNT;
	if (!strcmp(r->track, "cpu_frequency"))
		return TRAX_DIM_FREQ;
	if (!strcmp(r->track, "thermal_temperature"))
		return TRAX_DIM_TEMP;
	return TRAX_DIM_COUNT;
}

/*
 * A level for time_above/below, or a thermal range bound: a quantity with a unit ("75 C",
 * "800 MHz"), stored in the base unit of dim, or a bare number ("800000", 800000), which is a
 * value as the track stores it (kHz for cpu_frequency, mC for temperatures: what `trace-cmd
 * report` prints) and is converted with each track's unit when the rule is evaluated (*bare).
 */
static int parse_level(struct ctx *c, const char *key, json_t *v, enum trax_dim dim, double *out,
		       int *bare)
{
	struct hint h;

	*bare = 0;
	if (json_is_number(v)) {
		*out = json_number_value(v);
		*bare = 1;
		return 0;
	}
	if (json_is_string(v)) {
		const char *p = json_string_value(v);
		char unit[16];
		double x, scale;
		enum trax_dim ud;

		if (parse_quantity(&p, &x, unit, sizeof(unit)) < 0 || *skip_ws(p))
			return fail(c, key, "expected a number with an optional unit");
		if (!unit[0]) {
			*out = x;
			*bare = 1;
			return 0;
		}
		if (trax_unit_lookup(unit, &ud, &scale) < 0)
			return fail(c, key, "unknown unit \"%s\"%s", unit, unit_hint(&h, unit));
		if (dim != TRAX_DIM_COUNT && ud != dim)
			return fail(c, key, "unit \"%s\" does not fit: expected %s", unit,
				    dim_name(dim));
		*out = x * scale;
		return 0;
	}
	return fail(c, key, "expected a number or a string with a unit");
}

/*
 * One bound of "regression": "10 %" (relative to the baseline value), an amount in the value's
 * unit ("2 ms"), "5 pp" (percentage points, for values that are percentages), or a number
 * (counts and CPU numbers; 0 fits anything).
 */
static int parse_tolerance(struct ctx *c, const char *key, json_t *v, enum trax_dim dim,
			   struct trax_tolerance *t)
{
	char unit[16] = "", text[64];
	const char *p;
	double x, scale;
	enum trax_dim ud;
	struct hint h;

	if (json_is_number(v)) {
		snprintf(text, sizeof(text), "%.17g", json_number_value(v));
		p = text;
	} else if (json_is_string(v)) {
		p = json_string_value(v);
	} else {
		return fail(c, key, "expected \"10 %%\" (relative), an amount with the value's unit "
			    "(\"2 ms\") or a number");
	}
	t->text = xstrdup(p);
	if (parse_quantity(&p, &x, unit, sizeof(unit)) < 0 || *skip_ws(p))
		return fail(c, key, "expected \"NUMBER [UNIT]\", got \"%s\"", t->text);
	if (!(x >= 0) || isinf(x))
		return fail(c, key, "a tolerance is a non-negative amount, got \"%s\"", t->text);
	t->set = 1;
	if (!strcmp(unit, "%")) {
		t->relative = 1;
		t->amount = x;
		return 0;
	}
	if (!strcmp(unit, "pp")) {
		if (dim != TRAX_DIM_PERCENT)
			return fail(c, key, "\"pp\" (percentage points) fits values that are "
				    "percentages; the value is %s", dim_name(dim));
		t->amount = x;
		return 0;
	}
	if (!unit[0]) {
		if (x != 0 && dim != TRAX_DIM_COUNT && dim != TRAX_DIM_CPU)
			return fail(c, key, "\"%s\" needs a unit (\"%%\" for relative): the value "
				    "is %s", t->text, dim_name(dim));
		t->amount = x;
		return 0;
	}
	if (trax_unit_lookup(unit, &ud, &scale) < 0)
		return fail(c, key, "unknown unit \"%s\"%s", unit, unit_hint(&h, unit));
	if (ud != dim)
		return fail(c, key, "unit \"%s\" does not fit: the value is %s", unit,
			    dim_name(dim));
	t->amount = x * scale;
	return 0;
}

static int parse_regression(struct ctx *c, json_t *o, struct trax_rule *r)
{
	static const char *const keys[] = { "max_increase", "max_decrease", NULL };
	enum trax_dim dim = trax_rule_value_dim(r);
	const char *k;
	json_t *v;
	int ret = 0;

	if (!json_is_object(o) || !json_object_size(o))
		return fail(c, "regression", "expected {\"max_increase\": ..., \"max_decrease\": "
			    "...} (one or both)");
	json_object_foreach(o, k, v) {
		char sub[160];

		snprintf(sub, sizeof(sub), "regression.%s", k);
		if (!strcmp(k, "max_increase")) {
			if (parse_tolerance(c, sub, v, dim, &r->max_increase))
				ret = -TRAX_E_RULES;
		} else if (!strcmp(k, "max_decrease")) {
			if (parse_tolerance(c, sub, v, dim, &r->max_decrease))
				ret = -TRAX_E_RULES;
		} else {
			ret = unknown_key(c, sub, k, keys, 1);
		}
	}
	return ret;
}

/* A string or a list of strings into a NULL-terminated array. */
static int string_list(struct ctx *c, const char *key, json_t *v, char ***out, int *n)
{
	size_t i;
	json_t *e;

	if (json_is_string(v)) {
		*out = xcalloc(2, sizeof(char *));
		(*out)[(*n)++] = xstrdup(json_string_value(v));
		return 0;
	}
	if (!json_is_array(v) || !json_array_size(v))
		return fail(c, key, "expected a name or a list of names");
	*out = xcalloc(json_array_size(v) + 1, sizeof(char *));
	json_array_foreach(v, i, e) {
		if (!json_is_string(e))
			return fail(c, key, "item %zu: expected a name", i);
		(*out)[(*n)++] = xstrdup(json_string_value(e));
	}
	return 0;
}

/* "where": {"oom_score_adj": "< 200", "reason": [...], "source": "lmkd", "comm": "glob"} */
static int parse_where(struct ctx *c, json_t *o, struct trax_kill_where *w)
{
	static const char *const keys[] = { "oom_score_adj", "reason", "source", "comm", NULL };
	const char *k;
	json_t *v;
	int ret = 0;

	if (!json_is_object(o) || !json_object_size(o))
		return fail(c, "where", "expected {\"oom_score_adj\": \"< 200\", \"reason\": ..., "
			    "\"source\": ..., \"comm\": ...}");
	json_object_foreach(o, k, v) {
		if (!strcmp(k, "oom_score_adj")) {
			char buf[64];
			const char *text = buf;

			if (json_is_integer(v))
				snprintf(buf, sizeof(buf), "== %lld", (long long)json_integer_value(v));
			else if (json_is_string(v))
				text = json_string_value(v);
			else {
				ret = fail(c, "where.oom_score_adj", "expected a condition such as "
					   "\"< 200\" or a number");
				continue;
			}
			if (parse_expect(c, "where.oom_score_adj", text, TRAX_DIM_COUNT, 0, 0,
					 &w->adj))
				ret = -TRAX_E_RULES;
			else if (w->adj.dim != TRAX_DIM_COUNT)
				ret = fail(c, "where.oom_score_adj", "oom_score_adj takes no unit");
			else
				w->has_adj = 1;
		} else if (!strcmp(k, "reason")) {
			if (string_list(c, "where.reason", v, &w->reasons, &w->nreasons))
				ret = -TRAX_E_RULES;
		} else if (!strcmp(k, "source")) {
			static const char *const known[] = { "lowmemory_kill", "mark_victim", "lmkd",
							     NULL };

			if (string_list(c, "where.source", v, &w->sources, &w->nsources)) {
				ret = -TRAX_E_RULES;
				continue;
			}
			for (int i = 0; i < w->nsources; i++) {
				struct hint h;
				int ok = 0;

				for (int j = 0; known[j]; j++)
					ok |= !strcmp(known[j], w->sources[i]);
				if (!ok)
					ret = fail(c, "where.source", "unknown source \"%s\"%s",
						   w->sources[i],
						   *hint(&h, w->sources[i], known, -1) ? h.s :
						   " (lowmemory_kill, mark_victim, lmkd)");
			}
		} else if (!strcmp(k, "comm")) {
			if (!json_is_string(v) || !*json_string_value(v))
				ret = fail(c, "where.comm", "expected a name or a glob");
			else if (glob_bad(c, "where.comm", json_string_value(v)))
				ret = -TRAX_E_RULES;
			else
				w->comm = xstrdup(json_string_value(v));
		} else {
			char sub[160];

			snprintf(sub, sizeof(sub), "where.%s", k);
			ret = unknown_key(c, sub, k, keys, 1);
		}
	}
	return ret;
}

/* Every key a rule may have (for hints): the common ones, then the metrics' parameters. */
static const char **rule_key_names(const struct metric_spec *sp)
{
	size_t n = sizeof(common_keys) / sizeof(common_keys[0]) +
		   sizeof(metric_keys) / sizeof(metric_keys[0]);
	const char **names = xcalloc(n + 1, sizeof(*names));
	int m = 0;

	for (int i = 0; common_keys[i]; i++)
		names[m++] = common_keys[i];
	for (int i = 0; metric_keys[i].key; i++)
		if (!sp || (sp->allowed & metric_keys[i].flag))
			names[m++] = metric_keys[i].key;
	return names;
}

/*
 * Check that every key of rule o is known, and a parameter of its metric (sp; NULL when the
 * metric is unknown: only keys no rule has are reported). Returns the parameters present;
 * *hinted gets those suggested for a misspelt key (they need not be said missing as well).
 */
static unsigned check_rule_keys(struct ctx *c, json_t *o, const struct metric_spec *sp,
				const char *mname, unsigned *hinted)
{
	unsigned seen = 0;
	const char *k;
	json_t *v;

	json_object_foreach(o, k, v) {
		int known = 0, i;

		for (i = 0; common_keys[i]; i++)
			if (!strcmp(common_keys[i], k))
				known = 1;
		for (i = 0; !known && metric_keys[i].key; i++) {
			if (strcmp(metric_keys[i].key, k))
				continue;
			known = 1;
			if (sp && !(sp->allowed & metric_keys[i].flag))
				fail(c, k, "not a parameter of metric \"%s\"", mname);
			else
				seen |= metric_keys[i].flag;
		}
		if (!known) {
			/* the nearest key this metric takes, else the nearest of any rule */
			const char **mine = rule_key_names(sp), **all = rule_key_names(NULL);
			const char **names = sp && trax_suggest(k, mine, -1) ? mine : all;
			const char *near = trax_suggest(k, names, -1);

			unknown_key(c, k, k, names, 0);
			for (i = 0; near && metric_keys[i].key; i++)
				if (!strcmp(metric_keys[i].key, near))
					*hinted |= metric_keys[i].flag;
			free(mine);
			free(all);
		}
	}
	return seen;
}

/* "requires": event names; a likely typo of an event trax knows is an error. */
static int parse_requires(struct ctx *c, json_t *v, struct trax_rule *r)
{
	size_t n, i;
	int ret = 0;

	if (!json_is_string(v) && !json_is_array(v))
		return fail(c, "requires", "expected an event name or a list of them");
	n = json_is_array(v) ? json_array_size(v) : 1;
	r->requires = xcalloc(n + 1, sizeof(char *));
	for (i = 0; i < n; i++) {
		json_t *e = json_is_array(v) ? json_array_get(v, i) : v;
		const char *name, *near = NULL;

		if (!json_is_string(e) || !*json_string_value(e)) {
			ret = fail(c, "requires", "item %zu: expected an event name", i);
			continue;
		}
		name = json_string_value(e);
		/*
		 * Any event may be required, known to trax or not; but one edit away from a known
		 * one (sched_swich) is a typo that would skip the rule on every trace. Further
		 * ones are real events as often as not (clk_enable is not clock_enable, rpm_idle
		 * not cpu_idle): taken as written, the SKIP names the trace's nearest event.
		 * SYSTEM:NAME is always taken as written.
		 */
		if (!strchr(name, ':') && !trax_event_known(name, &near) && near &&
		    trax_edit_distance(name, near) <= 1) {
			ret = fail(c, "requires", "unknown event \"%s\" (did you mean \"%s\"?); "
				   "write SYSTEM:NAME for an event trax does not know", name, near);
			continue;
		}
		r->requires[r->nrequires++] = xstrdup(name);
	}
	return ret;
}

/* "window": a name from "windows", "complete", or an inline window. */
static int parse_rule_window(struct ctx *c, json_t *v, struct trax_rule *r,
			     const struct named_window *wins, int nwins)
{
	const char *name = json_is_string(v) ? json_string_value(v) : NULL;
	const char **names;
	struct hint h;
	int i;

	if (!name || !strcmp(name, "complete"))
		return parse_window_obj(c, "window", v, &r->window);
	for (i = 0; i < nwins; i++) {
		if (!strcmp(wins[i].name, name)) {
			if (wins[i].bad)
				return -TRAX_E_RULES;	/* said at windows.NAME */
			window_copy(&r->window, &wins[i].w);
			return 0;
		}
	}
	names = xcalloc(nwins + 2, sizeof(*names));
	for (i = 0; i < nwins; i++)
		names[i] = wins[i].name;
	names[i] = "complete";
	hint(&h, name, names, nwins + 1);
	free(names);
	return fail(c, "window", "unknown window \"%s\"%s", name, h.s);
}

/* A string key whose value is one of names (NULL-terminated); its index, or -1 (recorded). */
static int parse_choice(struct ctx *c, const char *key, json_t *v, const char *const *names,
			const char *what)
{
	struct hint h;

	if (!json_is_string(v))
		return fail(c, key, "expected %s", what), -1;
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], json_string_value(v)))
			return i;
	return fail(c, key, "expected %s, not \"%s\"%s", what, json_string_value(v),
		    hint(&h, json_string_value(v), names, -1)), -1;
}

/* Which keys of a rule failed, so that what depends on them is not checked again. */
enum { BAD_STAT = 1, BAD_TRACK = 2, BAD_EXPECT = 4 };

/*
 * One rule. Every problem is recorded (fail()), not only the first; a key that depends on
 * another one that failed (expect on stat or track, regression on expect) is not checked.
 * Returns 0, or -TRAX_E_RULES when anything was wrong.
 */
static int parse_rule(struct ctx *c, json_t *o, struct trax_rule *r,
		      const struct named_window *wins, int nwins)
{
	const struct metric_spec *sp = NULL;
	const char *mname = NULL;
	int first = c->problems.n, i;
	unsigned seen, bad = 0, hinted = 0;
	int facts[3] = { 0 };
	struct hint h;
	json_t *v;

	r->track_cpu = -1;
	if (!json_is_object(o))
		return fail(c, NULL, "expected an object");
	v = json_object_get(o, "id");
	if (v && json_is_string(v) && *json_string_value(v)) {
		r->id = xstrdup(json_string_value(v));
		c->id = r->id;
		for (const char *p = r->id; *p; p++) {
			if (*p == '#' || *p == '\n' || *p == ' ') {
				fail(c, "id", "ids may not contain spaces or '#'");
				break;
			}
		}
		for (i = 0; i < c->index; i++)
			if (!strcmp(c->rs->rules[i].id, r->id))
				fail(c, "id", "duplicate id (also rules[%d])", i);
	} else {
		char buf[32];

		if (v)
			fail(c, "id", "expected a non-empty string");
		snprintf(buf, sizeof(buf), "rule-%d", c->index + 1);
		r->id = xstrdup(buf);
	}
	v = json_object_get(o, "metric");
	if (!v) {
		fail(c, "metric", "missing");
	} else if (!json_is_string(v)) {
		fail(c, "metric", "expected a metric name");
	} else {
		mname = json_string_value(v);
		for (i = 0; i < TRAX_METRIC__COUNT; i++)
			if (!strcmp(metric_names[i], mname))
				break;
		if (i == TRAX_METRIC__COUNT) {
			fail(c, "metric", "unknown metric \"%s\"%s", mname,
			     hint(&h, mname, metric_names, TRAX_METRIC__COUNT));
		} else {
			r->metric = i;
			sp = &specs[r->metric];
		}
	}

	seen = check_rule_keys(c, o, sp, mname, &hinted);
	if (sp)
		for (i = 0; metric_keys[i].key; i++)
			if ((sp->required & metric_keys[i].flag) && !(hinted & metric_keys[i].flag) &&
			    !json_object_get(o, metric_keys[i].key))
				fail(c, metric_keys[i].key, "missing (metric \"%s\" needs it)", mname);

	/* keys of every rule */
	if ((v = json_object_get(o, "description"))) {
		if (!json_is_string(v))
			fail(c, "description", "expected a string");
		else
			r->description = xstrdup(json_string_value(v));
	}
	if ((v = json_object_get(o, "window")))
		parse_rule_window(c, v, r, wins, nwins);
	if ((v = json_object_get(o, "edges"))) {
		static const char *const edges[] = { "clip", "drop", NULL };

		r->edges_drop = parse_choice(c, "edges", v, edges, "\"clip\" or \"drop\"") == 1;
	}
	if ((v = json_object_get(o, "severity"))) {
		static const char *const sev[] = { "error", "warn", NULL };

		r->warn = parse_choice(c, "severity", v, sev, "\"error\" or \"warn\"") == 1;
	}
	if ((v = json_object_get(o, "xfail"))) {
		if (json_is_boolean(v)) {
			r->xfail = json_is_true(v);
		} else if (json_is_string(v)) {
			r->xfail = 1;
			r->xfail_reason = xstrdup(json_string_value(v));
		} else {
			fail(c, "xfail", "expected true/false or the reason");
		}
	}
	if ((v = json_object_get(o, "requires")))
		parse_requires(c, v, r);
	if ((v = json_object_get(o, "buffer"))) {
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			fail(c, "buffer", "expected a buffer number");
		else
			r->buffer = json_integer_value(v);
	}
	if (!json_object_get(o, "expect"))
		fail(c, "expect", "missing");
	if (!sp)
		goto out;	/* the rest depends on the metric */

	/* the metric's parameters (only those it takes: seen) */
	if ((seen & K_TASK) && (v = json_object_get(o, "task")))
		parse_selector(c, v, &r->task);
	if ((seen & K_CPUS) && (v = json_object_get(o, "cpus")))
		parse_cpu_list(c, "cpus", v, &r->cpus, &r->ncpus, &r->cpus_name, &facts[0]);
	if ((seen & K_FROMTO) && (v = json_object_get(o, "from")))
		parse_cpu_list(c, "from", v, &r->from_cpus, &r->nfrom, &r->from_name, &facts[1]);
	if ((seen & K_FROMTO) && (v = json_object_get(o, "to")))
		parse_cpu_list(c, "to", v, &r->to_cpus, &r->nto, &r->to_name, &facts[2]);
	r->facts = (facts[0] ? TRAX_FACTS_CPUS : 0) | (facts[1] ? TRAX_FACTS_FROM : 0) |
		   (facts[2] ? TRAX_FACTS_TO : 0);
	if ((seen & K_STAT) && (v = json_object_get(o, "stat"))) {
		if (!json_is_string(v))
			bad |= BAD_STAT, fail(c, "stat", "expected a statistic name");
		else if (parse_stat(c, json_string_value(v), r))
			bad |= BAD_STAT;
	}
	if ((metric_is_distribution(r->metric) || metric_is_memory_track(r->metric)) && !r->stat)
		r->stat = TRAX_STAT_MAX;
	if (!(bad & BAD_STAT) && metric_is_distribution(r->metric) &&
	    (r->stat == TRAX_STAT_TIME_ABOVE || r->stat == TRAX_STAT_TIME_BELOW ||
	     r->stat == TRAX_STAT_FIRST || r->stat == TRAX_STAT_LAST))
		bad |= BAD_STAT, fail(c, "stat", "not a statistic of a latency distribution");
	if (!(bad & BAD_STAT) && metric_is_memory_track(r->metric) && r->stat != TRAX_STAT_MAX &&
	    r->stat != TRAX_STAT_MIN && r->stat != TRAX_STAT_FIRST && r->stat != TRAX_STAT_LAST)
		bad |= BAD_STAT, fail(c, "stat", "a memory total takes max, min, first or last");
	{
		static const struct {
			const char *key;
			unsigned flag;
			size_t off;
		} globs[] = {
			{ "heap", K_HEAP, offsetof(struct trax_rule, heap) },
			{ "client", K_CLIENT, offsetof(struct trax_rule, client) },
			{ "timeline", K_TIMELINE, offsetof(struct trax_rule, timeline) },
			{ "driver", K_DRIVER, offsetof(struct trax_rule, driver) },
		};

		for (i = 0; i < (int)(sizeof(globs) / sizeof(globs[0])); i++) {
			if (!(seen & globs[i].flag) || !(v = json_object_get(o, globs[i].key)))
				continue;
			if (!json_is_string(v) || !*json_string_value(v))
				fail(c, globs[i].key, "expected a name or a glob");
			else if (!glob_bad(c, globs[i].key, json_string_value(v)))
				*(char **)((char *)r + globs[i].off) = xstrdup(json_string_value(v));
		}
	}
	if ((seen & K_WHERE) && (v = json_object_get(o, "where")))
		parse_where(c, v, &r->where);
	if ((seen & K_ZONE) && (v = json_object_get(o, "zone"))) {
		if (!json_is_string(v) || !*json_string_value(v))
			fail(c, "zone", "expected a thermal zone name");
		else
			r->zone = xstrdup(json_string_value(v));
	}
	if ((seen & K_TRACK) && (v = json_object_get(o, "track"))) {
		if (!json_is_string(v) || !*json_string_value(v))
			bad |= BAD_TRACK, fail(c, "track", "expected a track name (cpu_frequency, "
					      "cpu_idle, thermal_temperature, cdev_update, ...)");
		else
			r->track = xstrdup(json_string_value(v));
	}
	if (r->metric == TRAX_METRIC_COUNTER && !r->track)
		bad |= BAD_TRACK;	/* missing: said above */
	if ((seen & K_CPU) && (v = json_object_get(o, "cpu"))) {
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			fail(c, "cpu", "expected a CPU number");
		else
			r->track_cpu = json_integer_value(v);
	}
	if ((seen & K_QUERY) && (v = json_object_get(o, "query"))) {
		if (!json_is_string(v) || !*json_string_value(v))
			fail(c, "query", "expected an SQL SELECT");
		else
			r->query = xstrdup(json_string_value(v));
	}
	if ((seen & K_RANGE) && (v = json_object_get(o, "range"))) {
		if (!json_is_array(v) || json_array_size(v) != 2) {
			fail(c, "range", "expected [low, high] (numbers in mC, or strings with a "
			     "unit: [\"0 C\", \"75 C\"])");
		} else {
			int ok = 1;

			for (i = 0; i < 2; i++) {
				char key[16];

				snprintf(key, sizeof(key), "range[%d]", i);
				if (parse_level(c, key, json_array_get(v, i), TRAX_DIM_TEMP,
						&r->range[i], &r->range_bare[i]))
					ok = 0;
			}
			/* bounds of the same kind compare here; a bare one and one with a unit
			 * only once the track's unit is known */
			if (ok && r->range_bare[0] == r->range_bare[1] && r->range[0] > r->range[1])
				fail(c, "range", "low is above high");
		}
	}
	if (r->metric == TRAX_METRIC_COUNTER && !(bad & (BAD_STAT | BAD_TRACK))) {
		if ((r->stat == TRAX_STAT_TIME_ABOVE || r->stat == TRAX_STAT_TIME_BELOW) &&
		    !(seen & K_LEVEL))
			fail(c, "level", "missing (stat \"%s\" needs it)",
			     r->stat == TRAX_STAT_TIME_ABOVE ? "time_above" : "time_below");
		if ((seen & K_LEVEL) && (v = json_object_get(o, "level"))) {
			enum trax_dim d = !strcmp(r->track, "cpu_frequency") ? TRAX_DIM_FREQ :
				!strcmp(r->track, "thermal_temperature") ? TRAX_DIM_TEMP :
				TRAX_DIM_COUNT;

			parse_level(c, "level", v, d, &r->level, &r->level_bare);
		}
	}
	if ((seen & K_AGG) && (v = json_object_get(o, "aggregate"))) {
		static const char *const aggs[] = { "none", "sum", "max", "min", "mean", "all",
						    "any", NULL };

		i = parse_choice(c, "aggregate", v, aggs, "sum, max, min, mean, all or any");
		r->aggregate = i < 0 ? TRAX_AGG_NONE : (enum trax_aggregate)i;
	}

	/* expect, last: its unit decides between time and percent */
	v = json_object_get(o, "expect");
	if (!v || (bad & (BAD_STAT | BAD_TRACK))) {
		bad |= BAD_EXPECT;	/* missing (said above), or its dimension is unknown */
	} else if (json_is_number(v) || json_is_string(v)) {
		/* a number N is "== N": a count, or 0 of anything; any other value needs a unit */
		char buf[64];
		const char *text = buf;
		enum trax_dim d = sp->dim;
		int pct = !!(sp->flags & MF_PERCENT), any = r->metric == TRAX_METRIC_SQL;

		if (json_is_number(v))
			snprintf(buf, sizeof(buf), "%.17g", json_number_value(v));
		else
			text = json_string_value(v);
		if (r->metric == TRAX_METRIC_COUNTER) {
			d = track_dim(r);
			/* a counter of a track of unknown unit takes the expectation's own */
			any = d == TRAX_DIM_COUNT && r->stat != TRAX_STAT_COUNT;
		}
		if (metric_is_distribution(r->metric) && r->stat == TRAX_STAT_COUNT)
			d = TRAX_DIM_COUNT;
		if (r->metric == TRAX_METRIC_COUNTER &&
		    r->stat != TRAX_STAT_TIME_ABOVE && r->stat != TRAX_STAT_TIME_BELOW)
			pct = 0;
		if (parse_expect(c, "expect", text, d, pct, any, &r->expect))
			bad |= BAD_EXPECT;
	} else {
		bad |= BAD_EXPECT;
		fail(c, "expect", "expected a string such as \">= 75 %%\"");
	}
	if (!(bad & BAD_EXPECT) && r->metric == TRAX_METRIC_COUNTER &&
	    (r->stat == TRAX_STAT_TIME_ABOVE || r->stat == TRAX_STAT_TIME_BELOW))
		r->stat_percent = r->expect.dim == TRAX_DIM_PERCENT;
	/* after expect: the value's dimension (time or percent) follows it */
	if (!(bad & BAD_EXPECT) && (v = json_object_get(o, "regression")))
		parse_regression(c, v, r);
out:
	return c->problems.n > first ? -TRAX_E_RULES : 0;
}

static void rule_release(struct trax_rule *r)
{
	free(r->id);
	free(r->description);
	free(r->task.pattern);
	free(r->task.text);
	if (r->task.kind == TRAX_SEL_REGEX)
		regfree(&r->task.re);
	free(r->cpus);
	free(r->cpus_name);
	window_release(&r->window);
	free(r->expect.text);
	free(r->expect.cpus);
	free(r->expect.group);
	free(r->xfail_reason);
	for (int i = 0; i < r->nrequires; i++)
		free(r->requires[i]);
	free(r->requires);
	free(r->zone);
	free(r->track);
	free(r->from_cpus);
	free(r->to_cpus);
	free(r->from_name);
	free(r->to_name);
	free(r->query);
	free(r->heap);
	free(r->client);
	free(r->timeline);
	free(r->driver);
	free(r->where.adj.text);
	free(r->where.adj.cpus);
	for (int i = 0; i < r->where.nreasons; i++)
		free(r->where.reasons[i]);
	free(r->where.reasons);
	for (int i = 0; i < r->where.nsources; i++)
		free(r->where.sources[i]);
	free(r->where.sources);
	free(r->where.comm);
	free(r->max_increase.text);
	free(r->max_decrease.text);
}

void trax_rules_free(struct trax_rules *rs)
{
	if (!rs)
		return;
	for (int i = 0; i < rs->nrules; i++)
		rule_release(&rs->rules[i]);
	free(rs->rules);
	for (int i = 0; i < rs->ngroups; i++) {
		free(rs->groups[i].name);
		free(rs->groups[i].cpus);
	}
	free(rs->groups);
	free(rs->path);
	free(rs);
}

/* The root's "topology": groups of CPUs by name. */
static void parse_topology(struct ctx *c, json_t *v, struct trax_rules *rs)
{
	const char *k;
	json_t *x;

	if (!json_is_object(v)) {
		fail(c, "topology", "expected {\"name\": [cpus], ...}");
		return;
	}
	rs->groups = xcalloc(json_object_size(v) + 1, sizeof(*rs->groups));
	json_object_foreach(v, k, x) {
		/* a group with a problem keeps its name: rules naming it are not wrong too */
		struct trax_group *g = &rs->groups[rs->ngroups++];
		char key[160];

		g->name = xstrdup(k);
		snprintf(key, sizeof(key), "topology.%s", k);
		if (json_is_string(x))
			fail(c, key, "expected a list of CPUs");
		else
			parse_cpu_list(c, key, x, &g->cpus, &g->ncpus, NULL, NULL);
	}
}

/* The root's "windows": named windows; one with a problem is marked bad. */
static void parse_windows(struct ctx *c, json_t *v, struct named_window **wins, int *nwins)
{
	const char *k;
	json_t *x;

	if (!json_is_object(v)) {
		fail(c, "windows", "expected {\"name\": {...}, ...}");
		return;
	}
	*wins = xcalloc(json_object_size(v) + 1, sizeof(**wins));
	json_object_foreach(v, k, x) {
		struct named_window *nw = &(*wins)[(*nwins)++];
		char key[160];

		snprintf(key, sizeof(key), "windows.%s", k);
		nw->name = xstrdup(k);
		if (parse_window_obj(c, key, x, &nw->w))
			nw->bad = 1;
		else
			nw->w.name = xstrdup(k);
	}
}

int trax_rules_parse(const char *text, const char *path, struct trax_rules **out,
		     struct trax_error_list *problems, struct trax_error *err)
{
	static const char *const root_keys[] = { "topology", "windows", "rules", "description",
						 "version", NULL };
	struct ctx c = { .path = path, .index = -1 };
	struct named_window *wins = NULL;
	struct trax_rules *rs;
	json_error_t jerr;
	json_t *root, *v, *x;
	const char *k;
	int nwins = 0;
	size_t i;

	*out = NULL;
	root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		/* jansson stops at the first syntax error: that one is all there is to say */
		trax_error_set(err, TRAX_E_RULES, "%s:%d:%d: %s", path, jerr.line, jerr.column,
			       jerr.text);
		if (problems) {
			struct trax_error e = { 0 };

			trax_error_set(&e, TRAX_E_RULES, "%s:%d:%d: %s", path, jerr.line,
				       jerr.column, jerr.text);
			trax_error_list_add(problems, e.msg);
		}
		return -TRAX_E_RULES;
	}
	rs = xcalloc(1, sizeof(*rs));
	rs->path = xstrdup(path);
	sha256_hex(text, strlen(text), rs->sha256);
	c.rs = rs;
	if (!json_is_object(root)) {
		fail(&c, NULL, "expected an object with \"rules\"");
		goto out;
	}
	json_object_foreach(root, k, v) {
		int known = 0;

		for (int j = 0; root_keys[j]; j++)
			known |= !strcmp(root_keys[j], k);
		if (!known)
			unknown_key(&c, k, k, root_keys, 1);
	}
	if ((v = json_object_get(root, "topology")))
		parse_topology(&c, v, rs);
	if ((v = json_object_get(root, "windows")))
		parse_windows(&c, v, &wins, &nwins);
	v = json_object_get(root, "rules");
	if (!v || !json_is_array(v)) {
		fail(&c, "rules", v ? "expected a list of rules" : "missing");
		goto out;
	}
	if (!json_array_size(v)) {
		fail(&c, "rules", "no rules");
		goto out;
	}
	rs->rules = xcalloc(json_array_size(v), sizeof(*rs->rules));
	json_array_foreach(v, i, x) {
		c.index = i;
		c.id = NULL;
		rs->rules[i].index = i;
		rs->nrules = i + 1;
		parse_rule(&c, x, &rs->rules[i], wins, nwins);
	}
out:
	for (int w = 0; w < nwins; w++) {
		free(wins[w].name);
		window_release(&wins[w].w);
	}
	free(wins);
	json_decref(root);
	if (c.problems.n) {
		int n = c.problems.n;

		if (n > 1)
			trax_error_set(err, TRAX_E_RULES, "%s (and %d more problem%s)",
				       c.problems.msg[0], n - 1, n > 2 ? "s" : "");
		else
			trax_error_set(err, TRAX_E_RULES, "%s", c.problems.msg[0]);
		for (int j = 0; problems && j < n; j++)
			trax_error_list_add(problems, c.problems.msg[j]);
		trax_error_list_release(&c.problems);
		trax_rules_free(rs);
		return -TRAX_E_RULES;
	}
	*out = rs;
	return 0;
}

int trax_rules_load(const char *path, struct trax_rules **out, struct trax_error_list *problems,
		    struct trax_error *errp)
{
	struct trax_error local = { 0 }, *err = errp ? errp : &local;
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	FILE *f;
	size_t n;
	int ret;

	*out = NULL;
	f = fopen(path, "r");
	if (!f) {
		ret = trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
		goto fail;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	if (ferror(f)) {
		ret = trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
		fclose(f);
		goto fail;
	}
	fclose(f);
	if (memchr(sb.buf, '\0', sb.len)) {
		ret = trax_error_set(err, TRAX_E_RULES, "%s: not a text file", path);
		goto fail;
	}
	ret = trax_rules_parse(sb.buf, path, out, problems, err);
	strbuf_release(&sb);
	return ret;
fail:
	if (problems)
		trax_error_list_add(problems, err->msg);
	strbuf_release(&sb);
	return ret;
}

int trax_rules_sniff(const char *path)
{
	json_t *root = json_load_file(path, 0, NULL);
	int yes = json_is_object(root) && json_is_array(json_object_get(root, "rules"));

	json_decref(root);
	return yes;
}
