/* assert/gate.c: trax gate: several runs per side compared with Fisher and Mann-Whitney. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert/assert-local.h"
#include "assert/gate.h"
#include "assert/stats.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum gverdict { GV_SAME, GV_REGRESSED, GV_IMPROVED, GV_INSUFFICIENT, GV_SKIPPED };

static const char *const gv_names[] = { "same", "regressed", "improved", "insufficient samples",
					"skipped" };

/* One (rule, task) over every run. */
struct grow {
	char *key;
	const struct trax_rule *rule;
	enum trax_dim dim;
	double *vals[2];
	int nvals[2], cap[2];
	int pass[2], fail[2], skip[2], error[2];
	char *skip_reason;
	/* the decision */
	double med[2];
	int has_mw, has_fisher;
	struct trax_mwu mw;	/* new against base: u counts pairs new > base */
	double p_fisher;
	enum gverdict verdict;
	char *note;
};

struct trax_gate {
	const struct trax_rules *rs;
	double alpha;
	char **traces[2];
	int ntraces[2];
	struct grow *rows;
	int n, cap;
	int regressed, regressed_warn, improved, same, insufficient, skipped;
};

struct trax_gate *trax_gate_alloc(const struct trax_rules *rs, double alpha)
{
	struct trax_gate *g = xcalloc(1, sizeof(*g));

	g->rs = rs;
	g->alpha = alpha;
	return g;
}

void trax_gate_free(struct trax_gate *g)
{
	if (!g)
		return;
	for (int i = 0; i < g->n; i++) {
		free(g->rows[i].key);
		free(g->rows[i].vals[0]);
		free(g->rows[i].vals[1]);
		free(g->rows[i].skip_reason);
		free(g->rows[i].note);
	}
	free(g->rows);
	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < g->ntraces[s]; i++)
			free(g->traces[s][i]);
		free(g->traces[s]);
	}
	free(g);
}

static struct grow *row_get(struct trax_gate *g, const char *key, const struct trax_result *r)
{
	struct grow *w;

	for (int i = 0; i < g->n; i++)
		if (!strcmp(g->rows[i].key, key))
			return &g->rows[i];
	TRAX_GROW(g->rows, g->n, g->cap, 16);
	w = &g->rows[g->n++];
	memset(w, 0, sizeof(*w));
	w->key = xstrdup(key);
	w->rule = r->rule;
	w->dim = r->dim;
	return w;
}

static void add_value(struct grow *w, int side, double v)
{
	if (w->nvals[side] == w->cap[side]) {
		w->cap[side] = w->cap[side] ? w->cap[side] * 2 : 8;
		w->vals[side] = xrealloc(w->vals[side], w->cap[side] * sizeof(double));
	}
	w->vals[side][w->nvals[side]++] = v;
}

int trax_gate_add(struct trax_gate *g, enum trax_gate_side side, const char *trace,
		  const struct trax_verdicts *v, struct trax_error *err)
{
	char **keys = trax_result_keys(v, 0, v->n);

	(void)err;
	g->traces[side] = xrealloc(g->traces[side], (g->ntraces[side] + 1) * sizeof(char *));
	g->traces[side][g->ntraces[side]++] = xstrdup(trace);
	for (int i = 0; i < v->n; i++) {
		const struct trax_result *r = &v->res[i];
		struct grow *w = row_get(g, keys[i], r);

		switch (r->verdict) {
		case TRAX_PASS: case TRAX_XPASS:
			w->pass[side]++;
			break;
		case TRAX_FAIL: case TRAX_XFAIL:
			w->fail[side]++;
			break;
		case TRAX_SKIP:
			w->skip[side]++;
			if (!w->skip_reason && r->reason)
				w->skip_reason = xstrdup(r->reason);
			continue;
		default:
			w->error[side]++;
			continue;
		}
		if (r->has_value && isfinite(r->value))
			add_value(w, side, r->value);
	}
	trax_result_keys_free(keys, v->n);
	return 0;
}

/* Which way a value moving is worse: by the "regression" bounds, else by the expectation. */
static void worse_ways(const struct trax_rule *r, int *up, int *down)
{
	if (r->max_increase.set || r->max_decrease.set) {
		*up = r->max_increase.set;
		*down = r->max_decrease.set;
		return;
	}
	switch (r->expect.op) {
	case TRAX_OP_LT: case TRAX_OP_LE: *up = 1; *down = 0; break;
	case TRAX_OP_GT: case TRAX_OP_GE: *up = 0; *down = 1; break;
	default: *up = *down = 1; break;
	}
}

static void fmt_val(const struct grow *w, double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		trax_format_value(v, w->dim, w->rule->expect.unit, buf, len);
}

static void fmt_delta(const struct grow *w, char *buf, size_t len)
{
	double d = w->med[1] - w->med[0];
	char a[64];

	if (isnan(d)) {
		snprintf(buf, len, "-");
		return;
	}
	if (w->dim == TRAX_DIM_PERCENT)
		snprintf(a, sizeof(a), "%.6g pp", fabs(d));
	else
		trax_format_value(fabs(d), w->dim, w->rule->expect.unit, a, sizeof(a));
	if (w->med[0] != 0)
		snprintf(buf, len, "%s%s (%+.3g %%)", d < 0 ? "-" : "+", a,
			 100 * d / fabs(w->med[0]));
	else
		snprintf(buf, len, "%s%s", d < 0 ? "-" : "+", a);
}

static void decide_row(struct trax_gate *g, struct grow *w)
{
	int pf[2] = { w->pass[0] + w->fail[0], w->pass[1] + w->fail[1] };
	int enough_v = w->nvals[0] >= TRAX_GATE_MIN_RUNS && w->nvals[1] >= TRAX_GATE_MIN_RUNS;
	int enough_f = pf[0] >= TRAX_GATE_MIN_RUNS && pf[1] >= TRAX_GATE_MIN_RUNS;
	int worse_up, worse_down, v_reg = 0, v_imp = 0, f_reg = 0, f_imp = 0;
	struct strbuf note = STRBUF_INIT;

	w->med[0] = trax_median(w->vals[0], w->nvals[0]);
	w->med[1] = trax_median(w->vals[1], w->nvals[1]);
	worse_ways(w->rule, &worse_up, &worse_down);
	if (!pf[0] && !pf[1]) {
		w->verdict = GV_SKIPPED;
		strbuf_addf(&note, "no verdict in any run (skipped %d, error %d)%s%s",
			    w->skip[0] + w->skip[1], w->error[0] + w->error[1],
			    w->skip_reason ? ": " : "", w->skip_reason ? w->skip_reason : "");
		goto out;
	}
	if (!enough_v && !enough_f) {
		w->verdict = GV_INSUFFICIENT;
		strbuf_addf(&note, "%d base run%s, %d new run%s with a verdict; %d per side needed",
			    pf[0], pf[0] == 1 ? "" : "s", pf[1], pf[1] == 1 ? "" : "s",
			    TRAX_GATE_MIN_RUNS);
		goto out;
	}
	if (enough_v && trax_mann_whitney(w->vals[1], w->nvals[1], w->vals[0], w->nvals[0],
					  TRAX_MWU_AUTO, &w->mw) == 0) {
		double mn = (double)w->nvals[0] * w->nvals[1];
		int up = w->mw.u > mn / 2, down = w->mw.u < mn / 2;

		w->has_mw = 1;
		strbuf_addf(&note, "values: p %.3g (Mann-Whitney U, %s)", w->mw.p,
			    w->mw.exact ? "exact" : w->mw.ties ?
			    "normal approximation, tie and continuity corrected" :
			    "normal approximation, continuity corrected");
		if (w->mw.p < g->alpha) {
			int bad = (up && worse_up) || (down && worse_down);

			strbuf_addf(&note, ", shifted %s", up ? "up" : "down");
			if (bad && (w->rule->max_increase.set || w->rule->max_decrease.set)) {
				char tn[256];

				if (trax_tolerance_compare(w->rule, w->dim, w->med[0],
							   w->med[1], tn, sizeof(tn)) ==
				    TRAX_CMP_REGRESSED) {
					v_reg = 1;
				} else {
					strbuf_adds(&note, " but the medians stay within the "
						    "rule's \"regression\" bound");
					bad = 0;
				}
			} else {
				v_reg = bad;
			}
			if (!bad && !((up && worse_up) || (down && worse_down)))
				v_imp = 1;
		}
	} else if (!enough_v) {
		strbuf_addf(&note, "values: %d base, %d new (%d per side needed)", w->nvals[0],
			    w->nvals[1], TRAX_GATE_MIN_RUNS);
	}
	if (enough_f) {
		w->has_fisher = 1;
		w->p_fisher = trax_fisher_exact(w->pass[0], w->fail[0], w->pass[1], w->fail[1]);
		strbuf_addf(&note, "%spassed %d of %d -> %d of %d, p %.3g (Fisher)",
			    note.len ? "; " : "", w->pass[0], pf[0], w->pass[1], pf[1],
			    w->p_fisher);
		if (w->p_fisher < g->alpha) {
			/* compare failure rates: fail1 / pf1 against fail0 / pf0 */
			double r0 = (double)w->fail[0] / pf[0], r1 = (double)w->fail[1] / pf[1];

			f_reg = r1 > r0;
			f_imp = r1 < r0;
		}
	}
	if (w->error[0] || w->error[1])
		strbuf_addf(&note, "; runs in error left out: %d base, %d new", w->error[0],
			    w->error[1]);
	w->verdict = v_reg || f_reg ? GV_REGRESSED : v_imp || f_imp ? GV_IMPROVED : GV_SAME;
out:
	w->note = strbuf_detach(&note);
}

int trax_gate_decide(struct trax_gate *g, struct trax_error *err)
{
	(void)err;
	g->regressed = g->regressed_warn = g->improved = g->same = 0;
	g->insufficient = g->skipped = 0;
	for (int i = 0; i < g->n; i++) {
		struct grow *w = &g->rows[i];

		free(w->note);
		w->note = NULL;
		decide_row(g, w);
		switch (w->verdict) {
		case GV_REGRESSED:
			if (w->rule->warn)
				g->regressed_warn++;
			else
				g->regressed++;
			break;
		case GV_IMPROVED: g->improved++; break;
		case GV_SAME: g->same++; break;
		case GV_INSUFFICIENT: g->insufficient++; break;
		case GV_SKIPPED: g->skipped++; break;
		}
	}
	return 0;
}

int trax_gate_exit_status(const struct trax_gate *g)
{
	if (g->regressed)
		return 1;
	if (g->regressed_warn + g->improved + g->same == 0)
		return 4;
	return 0;
}

/* ---- output ---- */

static void p_text(double p, int has, char *buf, size_t len)
{
	if (!has)
		snprintf(buf, len, "-");
	else if (p < 1e-4)
		snprintf(buf, len, "%.2e", p);
	else
		snprintf(buf, len, "%.4f", p);
}

static int write_tap(const struct trax_gate *g, FILE *f)
{
	int pass = 0, fail = 0, skip = 0;

	fprintf(f, "TAP version 13\n1..%d\n", g->n);
	fprintf(f, "# trax gate: rules %s (sha256 %.16s), %d base runs, %d new runs, alpha %g\n",
		g->rs->path, g->rs->sha256, g->ntraces[0], g->ntraces[1], g->alpha);
	for (int i = 0; i < g->n; i++) {
		const struct grow *w = &g->rows[i];
		char o[64], nw[64], d[96];

		switch (w->verdict) {
		case GV_REGRESSED:
			if (w->rule->warn) {
				fprintf(f, "not ok %d %s # TODO warn: regressed\n", i + 1, w->key);
				skip++;
			} else {
				fprintf(f, "not ok %d %s\n", i + 1, w->key);
				fail++;
			}
			break;
		case GV_INSUFFICIENT: case GV_SKIPPED:
			fprintf(f, "ok %d %s # SKIP %s: %s\n", i + 1, w->key, gv_names[w->verdict],
				w->note);
			skip++;
			if (w->verdict == GV_SKIPPED)
				continue;
			break;
		default:
			fprintf(f, "ok %d %s\n", i + 1, w->key);
			pass++;
			break;
		}
		fmt_val(w, w->med[0], o, sizeof(o));
		fmt_val(w, w->med[1], nw, sizeof(nw));
		fmt_delta(w, d, sizeof(d));
		fprintf(f, "# %s: %s: median %s -> %s (%s); %s\n", w->key, gv_names[w->verdict], o,
			nw, d, w->note);
	}
	fprintf(f, "# Gate: regressed:%d improved:%d same:%d insufficient:%d skipped:%d "
		"warn-regressed:%d\n", g->regressed, g->improved, g->same, g->insufficient,
		g->skipped, g->regressed_warn);
	fprintf(f, "# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n", pass, fail,
		skip);
	return 0;
}

static void xml_attr(FILE *f, const char *name, const char *value)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_xml(&sb, value ? value : "");
	fprintf(f, " %s=\"%s\"", name, sb.buf);
	strbuf_release(&sb);
}

static int write_junit(const struct trax_gate *g, FILE *f)
{
	int fails = 0, skips = 0;

	for (int i = 0; i < g->n; i++) {
		fails += g->rows[i].verdict == GV_REGRESSED && !g->rows[i].rule->warn;
		skips += g->rows[i].verdict == GV_INSUFFICIENT || g->rows[i].verdict == GV_SKIPPED;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
	xml_attr(f, "name", "trax gate");
	fprintf(f, " tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n", g->n, fails,
		skips);
	fprintf(f, "  <testsuite");
	xml_attr(f, "name", g->rs->path);
	fprintf(f, " tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\" time=\"0\">\n", g->n,
		fails, skips);
	fprintf(f, "    <properties>\n      <property name=\"rules_sha256\"");
	xml_attr(f, "value", g->rs->sha256);
	fprintf(f, "/>\n      <property name=\"alpha\" value=\"%g\"/>\n", g->alpha);
	fprintf(f, "      <property name=\"base_runs\" value=\"%d\"/>\n", g->ntraces[0]);
	fprintf(f, "      <property name=\"new_runs\" value=\"%d\"/>\n    </properties>\n",
		g->ntraces[1]);
	for (int i = 0; i < g->n; i++) {
		const struct grow *w = &g->rows[i];
		struct strbuf out = STRBUF_INIT;
		char o[64], nw[64], d[96];

		fmt_val(w, w->med[0], o, sizeof(o));
		fmt_val(w, w->med[1], nw, sizeof(nw));
		fmt_delta(w, d, sizeof(d));
		strbuf_addf(&out, "%s: median %s -> %s (%s); %s", gv_names[w->verdict], o, nw, d,
			    w->note);
		fprintf(f, "    <testcase");
		xml_attr(f, "name", w->key);
		xml_attr(f, "classname", trax_metric_name(w->rule->metric));
		fprintf(f, " time=\"0\">\n");
		if (w->verdict == GV_REGRESSED && !w->rule->warn) {
			fprintf(f, "      <failure");
			xml_attr(f, "message", out.buf);
			xml_attr(f, "type", "regression");
			fprintf(f, "/>\n");
		} else if (w->verdict == GV_INSUFFICIENT || w->verdict == GV_SKIPPED) {
			fprintf(f, "      <skipped");
			xml_attr(f, "message", out.buf);
			fprintf(f, "/>\n");
		}
		fprintf(f, "      <system-out>");
		{
			struct strbuf x = STRBUF_INIT;

			strbuf_add_xml(&x, out.buf);
			fputs(x.buf, f);
			strbuf_release(&x);
		}
		fprintf(f, "</system-out>\n    </testcase>\n");
		strbuf_release(&out);
	}
	fprintf(f, "  </testsuite>\n</testsuites>\n");
	return 0;
}

static void json_side(struct strbuf *sb, const struct grow *w, int s)
{
	strbuf_addf(sb, "{\"pass\": %d, \"fail\": %d, \"skip\": %d, \"error\": %d, \"median\": ",
		    w->pass[s], w->fail[s], w->skip[s], w->error[s]);
	strbuf_add_json_num(sb, w->med[s]);
	strbuf_adds(sb, ", \"values\": [");
	for (int i = 0; i < w->nvals[s]; i++) {
		strbuf_adds(sb, i ? ", " : "");
		strbuf_add_json_num(sb, w->vals[s][i]);
	}
	strbuf_adds(sb, "]}");
}

static int write_json(const struct trax_gate *g, FILE *f)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "{\n  \"trax_version\": \"%s\",\n  \"rules\": ", TRAX_VERSION);
	strbuf_add_json_or_null(&sb, g->rs->path);
	strbuf_adds(&sb, ",\n  \"rules_sha256\": ");
	strbuf_add_json_or_null(&sb, g->rs->sha256);
	strbuf_adds(&sb, ",\n  \"alpha\": ");
	strbuf_add_json_num(&sb, g->alpha);
	strbuf_addf(&sb, ",\n  \"min_runs\": %d", TRAX_GATE_MIN_RUNS);
	for (int s = 0; s < 2; s++) {
		strbuf_addf(&sb, ",\n  \"%s\": [", s ? "new" : "base");
		for (int i = 0; i < g->ntraces[s]; i++) {
			strbuf_adds(&sb, i ? ", " : "");
			strbuf_add_json_or_null(&sb, g->traces[s][i]);
		}
		strbuf_adds(&sb, "]");
	}
	strbuf_adds(&sb, ",\n  \"results\": [");
	for (int i = 0; i < g->n; i++) {
		const struct grow *w = &g->rows[i];

		strbuf_adds(&sb, i ? ",\n    {" : "\n    {");
		strbuf_adds(&sb, "\"key\": ");
		strbuf_add_json_or_null(&sb, w->key);
		strbuf_adds(&sb, ", \"rule\": ");
		strbuf_add_json_or_null(&sb, w->rule->id);
		strbuf_adds(&sb, ", \"metric\": ");
		strbuf_add_json_or_null(&sb, trax_metric_name(w->rule->metric));
		strbuf_adds(&sb, ", \"unit\": ");
		strbuf_add_json_or_null(&sb, assert_dim_unit(w->dim));
		strbuf_addf(&sb, ", \"severity\": \"%s\", \"base\": ", w->rule->warn ? "warn" :
			    "error");
		json_side(&sb, w, 0);
		strbuf_adds(&sb, ", \"new\": ");
		json_side(&sb, w, 1);
		strbuf_adds(&sb, ", \"delta\": ");
		strbuf_add_json_num(&sb, w->med[1] - w->med[0]);
		strbuf_adds(&sb, ", \"mann_whitney\": ");
		if (w->has_mw) {
			strbuf_adds(&sb, "{\"u\": ");
			strbuf_add_json_num(&sb, w->mw.u);
			strbuf_adds(&sb, ", \"p\": ");
			strbuf_add_json_num(&sb, w->mw.p);
			strbuf_addf(&sb, ", \"method\": \"%s\", \"ties\": %s, \"z\": ",
				    w->mw.exact ? "exact" : "normal",
				    w->mw.ties ? "true" : "false");
			strbuf_add_json_num(&sb, w->mw.z);
			strbuf_adds(&sb, "}");
		} else {
			strbuf_adds(&sb, "null");
		}
		strbuf_adds(&sb, ", \"fisher\": ");
		if (w->has_fisher) {
			strbuf_adds(&sb, "{\"p\": ");
			strbuf_add_json_num(&sb, w->p_fisher);
			strbuf_adds(&sb, "}");
		} else {
			strbuf_adds(&sb, "null");
		}
		strbuf_adds(&sb, ", \"verdict\": ");
		strbuf_add_json_or_null(&sb, gv_names[w->verdict]);
		strbuf_adds(&sb, ", \"note\": ");
		strbuf_add_json_or_null(&sb, w->note);
		strbuf_adds(&sb, "}");
	}
	strbuf_addf(&sb, "\n  ],\n  \"totals\": {\"regressed\": %d, \"regressed_warn\": %d, "
		    "\"improved\": %d, \"same\": %d, \"insufficient\": %d, \"skipped\": %d},\n"
		    "  \"exit_status\": %d\n}\n", g->regressed, g->regressed_warn, g->improved,
		    g->same, g->insufficient, g->skipped, trax_gate_exit_status(g));
	fwrite(sb.buf, 1, sb.len, f);
	strbuf_release(&sb);
	return 0;
}

static int write_text(const struct trax_gate *g, FILE *f)
{
	static const char *const head[] = { "result", "old (median)", "new (median)", "delta",
					    "p-value", "pass old -> new", "p (pass/fail)",
					    "verdict" };
	enum { NC = 8 };
	char *cell[NC];
	int width[NC];

	for (int c = 0; c < NC; c++)
		width[c] = strlen(head[c]);
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			fprintf(f, "rules %s (sha256 %.16s): %d base runs, %d new runs, "
				"alpha %g\n\n", g->rs->path, g->rs->sha256, g->ntraces[0],
				g->ntraces[1], g->alpha);
			for (int c = 0; c < NC; c++)
				fprintf(f, "%-*s%s", c == NC - 1 ? 0 : width[c], head[c],
					c == NC - 1 ? "\n" : "  ");
		}
		for (int i = 0; i < g->n; i++) {
			const struct grow *w = &g->rows[i];
			char buf[NC][128];

			snprintf(buf[0], sizeof(buf[0]), "%s", w->key);
			fmt_val(w, w->med[0], buf[1], sizeof(buf[1]));
			fmt_val(w, w->med[1], buf[2], sizeof(buf[2]));
			fmt_delta(w, buf[3], sizeof(buf[3]));
			p_text(w->mw.p, w->has_mw, buf[4], sizeof(buf[4]));
			snprintf(buf[5], sizeof(buf[5]), "%d/%d -> %d/%d", w->pass[0],
				 w->pass[0] + w->fail[0], w->pass[1], w->pass[1] + w->fail[1]);
			p_text(w->p_fisher, w->has_fisher, buf[6], sizeof(buf[6]));
			snprintf(buf[7], sizeof(buf[7]), "%s%s", gv_names[w->verdict],
				 w->verdict == GV_REGRESSED && w->rule->warn ? " (warn)" : "");
			for (int c = 0; c < NC; c++) {
				cell[c] = buf[c];
				if (!pass && (int)strlen(cell[c]) > width[c])
					width[c] = strlen(cell[c]);
			}
			if (!pass)
				continue;
			for (int c = 0; c < NC; c++)
				fprintf(f, "%-*s%s", c == NC - 1 ? 0 : width[c], cell[c],
					c == NC - 1 ? "\n" : "  ");
			if (w->verdict != GV_SAME)
				fprintf(f, "    %s\n", w->note);
		}
	}
	fprintf(f, "\n%d regressed, %d improved, %d same, %d insufficient samples, %d skipped",
		g->regressed + g->regressed_warn, g->improved, g->same, g->insufficient,
		g->skipped);
	if (g->regressed_warn)
		fprintf(f, " (%d regressions are warnings)", g->regressed_warn);
	fprintf(f, "\n");
	return 0;
}

int trax_gate_write(const struct trax_gate *g, enum trax_out_format fmt, FILE *out)
{
	int ret;

	switch (fmt) {
	case TRAX_OUT_TAP: ret = write_tap(g, out); break;
	case TRAX_OUT_JUNIT: ret = write_junit(g, out); break;
	case TRAX_OUT_JSON: ret = write_json(g, out); break;
	default: ret = write_text(g, out); break;
	}
	if (fflush(out) || ferror(out))
		return -1;
	return ret;
}
