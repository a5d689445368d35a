/* assert/baseline.c: result keys, tolerances, and baseline files (save, load, compare). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "assert/assert-local.h"
#include "assert/gate.h"
#include "parse/parse.h"
#include "util/outfile.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define BASELINE_VERSION 1

/* ---- trace identity ---- */

int trax_trace_id_read(sqlite3 *db, const char *name, struct trax_trace_id *id,
		       struct trax_error *err)
{
	char *sha, *size;

	memset(id, 0, sizeof(*id));
	id->name = xstrdup(name);
	id->size = -1;
	id->path = trax_db_meta(db, "source.path");
	sha = trax_db_meta(db, "source.sha256");
	if (sha) {
		snprintf(id->sha256, sizeof(id->sha256), "%s", sha);
		free(sha);
	}
	size = trax_db_meta(db, "source.size");
	if (size) {
		id->size = strtoll(size, NULL, 10);
		free(size);
	}
	(void)err;
	return 0;
}

void trax_trace_id_release(struct trax_trace_id *id)
{
	free(id->name);
	free(id->path);
	memset(id, 0, sizeof(*id));
}

/* ---- keys ---- */

char **trax_result_keys(const struct trax_verdicts *v, int first, int n)
{
	char **keys = xcalloc(n + 1, sizeof(char *));

	for (int i = 0; i < n; i++) {
		const struct trax_result *r = &v->res[first + i];
		struct strbuf sb = STRBUF_INIT;

		if (r->task) {
			const char *colon = strrchr(r->task, ':');
			size_t len = colon ? (size_t)(colon - r->task) : strlen(r->task);
			int dup = 1;

			/* earlier results of the same rule and comm */
			for (int j = 0; j < i; j++) {
				const struct trax_result *o = &v->res[first + j];
				const char *oc;

				if (o->rule != r->rule || !o->task)
					continue;
				oc = strrchr(o->task, ':');
				if ((oc ? (size_t)(oc - o->task) : strlen(o->task)) == len &&
				    !strncmp(o->task, r->task, len))
					dup++;
			}
			strbuf_addf(&sb, "%s[%.*s", r->rule->id, (int)len, r->task);
			if (dup > 1)
				strbuf_addf(&sb, "#%d", dup);
			strbuf_adds(&sb, "]");
		} else {
			strbuf_adds(&sb, r->name);
		}
		keys[i] = strbuf_detach(&sb);
	}
	return keys;
}

void trax_result_keys_free(char **keys, int n)
{
	if (!keys)
		return;
	for (int i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}

/* ---- tolerances ---- */

const char *trax_cmp_name(enum trax_cmp c)
{
	switch (c) {
	case TRAX_CMP_SAME: return "same";
	case TRAX_CMP_REGRESSED: return "regressed";
	case TRAX_CMP_IMPROVED: return "improved";
	case TRAX_CMP_NEW: return "new";
	case TRAX_CMP_NA: return "not comparable";
	default: return "-";
	}
}

static double tol_limit(const struct trax_tolerance *t, double old)
{
	return t->relative ? fabs(old) * t->amount / 100 : t->amount;
}

enum trax_cmp trax_tolerance_compare(const struct trax_rule *r, enum trax_dim dim, double old,
				     double now, char *note, size_t len)
{
	const struct trax_tolerance *inc = &r->max_increase, *dec = &r->max_decrease;
	double delta = now - old, eps = 1e-9 * (fabs(old) > 1 ? fabs(old) : 1);
	char o[64], nw[64], d[64], rel[32] = "";
	const char *unit = r->expect.unit;
	enum trax_cmp c = TRAX_CMP_SAME;
	const char *why = "";
	char whybuf[96];

	trax_format_value(old, dim, unit, o, sizeof(o));
	trax_format_value(now, dim, unit, nw, sizeof(nw));
	if (dim == TRAX_DIM_PERCENT)	/* a difference of percentages: percentage points */
		snprintf(d, sizeof(d), "%.6g pp", fabs(delta));
	else
		trax_format_value(fabs(delta), dim, unit, d, sizeof(d));
	if (old != 0)
		snprintf(rel, sizeof(rel), ", %+.3g %% rel.", 100 * delta / fabs(old));
	if (inc->set && delta > tol_limit(inc, old) + eps) {
		c = TRAX_CMP_REGRESSED;
		snprintf(whybuf, sizeof(whybuf), ": beyond max_increase %s", inc->text);
		why = whybuf;
	} else if (dec->set && -delta > tol_limit(dec, old) + eps) {
		c = TRAX_CMP_REGRESSED;
		snprintf(whybuf, sizeof(whybuf), ": beyond max_decrease %s", dec->text);
		why = whybuf;
	} else if (inc->set && !dec->set && -delta > tol_limit(inc, old) + eps) {
		c = TRAX_CMP_IMPROVED;
		snprintf(whybuf, sizeof(whybuf), ": down by more than max_increase %s", inc->text);
		why = whybuf;
	} else if (dec->set && !inc->set && delta > tol_limit(dec, old) + eps) {
		c = TRAX_CMP_IMPROVED;
		snprintf(whybuf, sizeof(whybuf), ": up by more than max_decrease %s", dec->text);
		why = whybuf;
	} else if (!inc->set && !dec->set) {
		why = ": no \"regression\" bound, verdicts compared only";
	} else {
		snprintf(whybuf, sizeof(whybuf), ": within %s%s%s%s%s",
			 inc->set ? "max_increase " : "", inc->set ? inc->text : "",
			 inc->set && dec->set ? ", " : "",
			 dec->set ? "max_decrease " : "", dec->set ? dec->text : "");
		why = whybuf;
	}
	if (note)
		snprintf(note, len, "%s -> %s (%s%s%s)%s", o, nw, delta < 0 ? "-" : "+", d, rel,
			 why);
	return c;
}

/* ---- save ---- */

static json_t *num_or_null(int has, double v)
{
	json_t *j = has && isfinite(v) ? json_real(v) : NULL;

	return j ? j : json_null();
}

int trax_baseline_save(const char *path, const struct trax_verdicts *v,
		       const struct trax_trace_id *ids, int nids, struct trax_error *err)
{
	json_t *root = json_object(), *traces = json_array(), *results = json_array(), *rules;
	struct trax_outfile of = { 0 };
	int ret = 0;

	if (!root || !traces || !results)
		trax_oom();
	json_object_set_new(root, "trax_baseline", json_integer(BASELINE_VERSION));
	json_object_set_new(root, "trax_version", json_string(TRAX_VERSION));
	rules = json_object();
	json_object_set_new(rules, "path", json_string(v->rules_path ? v->rules_path : ""));
	json_object_set_new(rules, "sha256", json_string(v->rules_sha256 ? v->rules_sha256 : ""));
	json_object_set_new(root, "rules", rules);
	for (int t = 0; t < nids; t++) {
		const struct trax_trace_id *id = &ids[t];
		json_t *jt = json_object();
		char **keys = trax_result_keys(v, id->first, id->n);

		json_object_set_new(jt, "name", json_string(id->name));
		json_object_set_new(jt, "path", id->path ? json_string(id->path) : json_null());
		json_object_set_new(jt, "sha256", id->sha256[0] ? json_string(id->sha256) :
				    json_null());
		json_object_set_new(jt, "size", id->size >= 0 ? json_integer(id->size) :
				    json_null());
		json_array_append_new(traces, jt);
		for (int i = 0; i < id->n; i++) {
			const struct trax_result *r = &v->res[id->first + i];
			json_t *jr = json_object();
			char disp[64];

			json_object_set_new(jr, "trace", json_integer(t));
			json_object_set_new(jr, "key", json_string(keys[i]));
			json_object_set_new(jr, "rule", json_string(r->rule->id));
			json_object_set_new(jr, "name", json_string(r->name));
			json_object_set_new(jr, "task", r->task ? json_string(r->task) :
					    json_null());
			json_object_set_new(jr, "metric",
					    json_string(trax_metric_name(r->rule->metric)));
			/* the rule's own verdict: a regression from an older baseline is not
			 * this run's result */
			json_object_set_new(jr, "verdict", json_string(trax_verdict_name(
					    r->regression ? r->rule_verdict : r->verdict)));
			json_object_set_new(jr, "severity",
					    json_string(r->rule->warn ? "warn" : "error"));
			json_object_set_new(jr, "value", num_or_null(r->has_value, r->value));
			json_object_set_new(jr, "unit", json_string(assert_dim_unit(r->dim)));
			json_object_set_new(jr, "display", r->has_value ?
					    json_string(trax_format_value(r->value, r->dim,
									  r->rule->expect.unit,
									  disp, sizeof(disp))) :
					    json_null());
			json_array_append_new(results, jr);
		}
		trax_result_keys_free(keys, id->n);
	}
	json_object_set_new(root, "traces", traces);
	json_object_set_new(root, "results", results);

	ret = trax_outfile_open(&of, path, err);
	if (!ret && json_dumpf(root, of.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			       JSON_REAL_PRECISION(17)) != 0) {
		ret = trax_error_set(err, TRAX_E_IO, "%s: cannot write the baseline: %s", path,
				     strerror(errno ? errno : EIO));
		trax_outfile_abort(&of);
	} else if (!ret) {
		ret = trax_outfile_commit(&of, err);
	}
	json_decref(root);
	return ret;
}

/* ---- load ---- */

struct bentry {
	int trace;
	char *key, *rule;
	enum trax_verdict verdict;
	int has_value;
	double value;
};

struct trax_baseline {
	char *path;
	char *rules_sha256;
	int ntraces;
	struct bentry *e;
	int n;
};

void trax_baseline_free(struct trax_baseline *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->n; i++) {
		free(b->e[i].key);
		free(b->e[i].rule);
	}
	free(b->e);
	free(b->path);
	free(b->rules_sha256);
	free(b);
}

static int verdict_parse(const char *s, enum trax_verdict *v)
{
	for (int i = TRAX_PASS; i <= TRAX_XPASS; i++) {
		if (!strcmp(s, trax_verdict_name(i))) {
			*v = i;
			return 0;
		}
	}
	return -1;
}

int trax_baseline_load(const char *path, struct trax_baseline **out, struct trax_error *err)
{
	struct trax_baseline *b = NULL;
	json_error_t jerr;
	json_t *root, *x, *res;
	size_t i;
	int ret = 0;

	*out = NULL;
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		FILE *f = fopen(path, "r");

		if (!f)
			return trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
		fclose(f);
		return trax_error_set(err, TRAX_E_FORMAT, "%s:%d:%d: not a baseline: %s", path,
				      jerr.line, jerr.column, jerr.text);
	}
	x = json_object_get(root, "trax_baseline");
	if (!json_is_object(root) || !json_is_integer(x)) {
		ret = trax_error_set(err, TRAX_E_FORMAT, "%s: not a trax baseline (no "
				     "\"trax_baseline\" version; write one with trax check "
				     "--save-baseline)", path);
		goto out;
	}
	if (json_integer_value(x) != BASELINE_VERSION) {
		ret = trax_error_set(err, TRAX_E_UNSUPPORTED, "%s: baseline version %lld; this "
				     "trax reads version %d", path,
				     (long long)json_integer_value(x), BASELINE_VERSION);
		goto out;
	}
	res = json_object_get(root, "results");
	if (!json_is_array(res)) {
		ret = trax_error_set(err, TRAX_E_FORMAT, "%s: \"results\" is missing or not a list",
				     path);
		goto out;
	}
	b = xcalloc(1, sizeof(*b));
	b->path = xstrdup(path);
	x = json_object_get(json_object_get(root, "rules"), "sha256");
	b->rules_sha256 = xstrdup(json_is_string(x) ? json_string_value(x) : "");
	x = json_object_get(root, "traces");
	b->ntraces = json_is_array(x) ? (int)json_array_size(x) : 0;
	b->e = xcalloc(json_array_size(res) + 1, sizeof(*b->e));
	json_array_foreach(res, i, x) {
		json_t *t = json_object_get(x, "trace"), *k = json_object_get(x, "key");
		json_t *r = json_object_get(x, "rule"), *vd = json_object_get(x, "verdict");
		json_t *val = json_object_get(x, "value");
		struct bentry *e = &b->e[b->n];

		if (!json_is_integer(t) || json_integer_value(t) < 0 || !json_is_string(k) ||
		    !json_is_string(r) || !json_is_string(vd) ||
		    verdict_parse(json_string_value(vd), &e->verdict) < 0 ||
		    (val && !json_is_null(val) && !json_is_number(val))) {
			ret = trax_error_set(err, TRAX_E_FORMAT, "%s: results[%zu]: expected "
					     "trace, key, rule, verdict and a numeric or null "
					     "value", path, i);
			goto out;
		}
		e->trace = json_integer_value(t);
		e->key = xstrdup(json_string_value(k));
		e->rule = xstrdup(json_string_value(r));
		e->has_value = val && json_is_number(val);
		e->value = e->has_value ? json_number_value(val) : 0;
		b->n++;
	}
out:
	json_decref(root);
	if (ret) {
		trax_baseline_free(b);
		return ret;
	}
	*out = b;
	return 0;
}

/* ---- compare ---- */

/* 1 the threshold was met, 0 it was not, -1 no verdict on the value (skip, error). */
static int met(enum trax_verdict v)
{
	switch (v) {
	case TRAX_PASS: case TRAX_XPASS: return 1;
	case TRAX_FAIL: case TRAX_XFAIL: return 0;
	default: return -1;
	}
}

static void set_note(struct trax_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_note(struct trax_result *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(r->cmp_note);
	r->cmp_note = strbuf_detach(&sb);
}

static void compare_one(struct trax_result *r, const struct bentry *e)
{
	int was = met(e->verdict), is = met(r->verdict);
	char o[64] = "-", nw[64] = "-", note[320];

	r->base_verdict = e->verdict;
	r->base_has_value = e->has_value;
	r->base_value = e->value;
	if (e->has_value)
		trax_format_value(e->value, r->dim, r->rule->expect.unit, o, sizeof(o));
	if (r->has_value)
		trax_format_value(r->value, r->dim, r->rule->expect.unit, nw, sizeof(nw));
	if (was < 0 || is < 0) {
		r->cmp = e->verdict == r->verdict ? TRAX_CMP_SAME : TRAX_CMP_NA;
		set_note(r, "%s in the baseline, %s now", trax_verdict_name(e->verdict),
			 trax_verdict_name(r->verdict));
		return;
	}
	if (was && !is) {
		r->cmp = TRAX_CMP_REGRESSED;
		set_note(r, "met %s in the baseline (%s), not now (%s)", r->rule->expect.text, o,
			 nw);
		return;
	}
	if (!was && is) {
		r->cmp = TRAX_CMP_IMPROVED;
		set_note(r, "missed %s in the baseline (%s), met now (%s)", r->rule->expect.text,
			 o, nw);
		return;
	}
	if (!e->has_value || !r->has_value) {
		r->cmp = TRAX_CMP_SAME;
		set_note(r, "%s in the baseline, %s now; no value to compare (%s -> %s)",
			 trax_verdict_name(e->verdict), trax_verdict_name(r->verdict), o, nw);
		return;
	}
	r->cmp = trax_tolerance_compare(r->rule, r->dim, e->value, r->value, note, sizeof(note));
	set_note(r, "%s", note);
}

/*
 * A result that regressed fails, whatever its rule's threshold said (a "warn" rule's warns):
 * the verdict, its reason and the counts change here, once, for every output and the exit
 * status. The rule's own verdict is kept in rule_verdict (stored by --save-baseline).
 */
static void fail_regressed(struct trax_verdicts *v, struct trax_result *r)
{
	struct strbuf sb = STRBUF_INIT;

	if (r->cmp != TRAX_CMP_REGRESSED || r->verdict == TRAX_FAIL)
		return;
	switch (r->verdict) {
	case TRAX_PASS: v->pass--; break;
	case TRAX_XPASS: v->xpass--; break;
	case TRAX_XFAIL: v->xfail--; break;
	default: return;	/* skip and error are never compared by value */
	}
	strbuf_addf(&sb, "regressed from the baseline: %s", r->cmp_note ? r->cmp_note : "");
	if (r->reason)
		strbuf_addf(&sb, "; the rule: %s", r->reason);
	free(r->reason);
	r->reason = strbuf_detach(&sb);
	r->rule_verdict = r->verdict;
	r->regression = 1;
	r->verdict = TRAX_FAIL;
	if (r->rule->warn) {
		r->warn = 1;
		v->warn++;
	} else {
		v->fail++;
	}
}

static const struct trax_rule *rule_by_id(const struct trax_rules *rs, const char *id)
{
	for (int i = 0; i < rs->nrules; i++)
		if (!strcmp(rs->rules[i].id, id))
			return &rs->rules[i];
	return NULL;
}

int trax_baseline_compare(const struct trax_baseline *b, const struct trax_rules *rs,
			  const struct trax_trace_id *ids, int nids, struct trax_verdicts *v,
			  struct trax_error *err)
{
	char *used = xcalloc(b->n + 1, 1);
	struct strbuf note = STRBUF_INIT;

	(void)err;
	v->compared = 1;
	free(v->baseline_path);
	v->baseline_path = xstrdup(b->path);
	for (int t = 0; t < nids; t++) {
		const struct trax_trace_id *id = &ids[t];
		char **keys = trax_result_keys(v, id->first, id->n);

		for (int i = 0; i < id->n; i++) {
			struct trax_result *r = &v->res[id->first + i];
			int k;

			for (k = 0; k < b->n; k++)
				if (!used[k] && b->e[k].trace == t && !strcmp(b->e[k].key, keys[i]))
					break;
			if (k == b->n) {
				r->cmp = TRAX_CMP_NEW;
				set_note(r, "not in the baseline");
				v->added++;
				continue;
			}
			used[k] = 1;
			compare_one(r, &b->e[k]);
			switch (r->cmp) {
			case TRAX_CMP_REGRESSED:
				if (r->rule->warn)
					v->regressed_warn++;
				else
					v->regressed++;
				break;
			case TRAX_CMP_IMPROVED: v->improved++; break;
			case TRAX_CMP_NA: v->not_comparable++; break;
			default: v->same++; break;
			}
			fail_regressed(v, r);
		}
		trax_result_keys_free(keys, id->n);
	}
	for (int k = 0; k < b->n; k++) {
		struct strbuf sb = STRBUF_INIT;

		if (used[k] || b->e[k].trace >= nids || !rule_by_id(rs, b->e[k].rule))
			continue;
		if (nids > 1)
			strbuf_addf(&sb, "trace#%d ", b->e[k].trace + 1);
		strbuf_adds(&sb, b->e[k].key);
		v->missing = xrealloc(v->missing, (v->nmissing + 1) * sizeof(char *));
		v->missing[v->nmissing++] = strbuf_detach(&sb);
	}
	if (b->rules_sha256[0] && v->rules_sha256 && strcmp(b->rules_sha256, v->rules_sha256))
		strbuf_addf(&note, "the baseline was made with other rules (sha256 %.16s, now "
			    "%.16s)", b->rules_sha256, v->rules_sha256);
	if (b->ntraces != nids)
		strbuf_addf(&note, "%sthe baseline has %d trace%s, this run %d",
			    note.len ? "; " : "", b->ntraces, b->ntraces == 1 ? "" : "s", nids);
	free(v->baseline_note);
	v->baseline_note = note.len ? strbuf_detach(&note) : NULL;
	strbuf_release(&note);
	free(used);
	return 0;
}
