/* tests/unit/test-gate.c: "regression" bounds, result keys, baseline files and trax gate decisions. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "assert/gate.h"
#include "rules/rules.h"

static struct trax_rules *parse_ok(const char *json)
{
	struct trax_rules *rs = NULL;
	struct trax_error err = { 0 };

	if (trax_rules_parse(json, "t.json", &rs, NULL, &err))
		fail_msg("unexpected error: %s", err.msg);
	return rs;
}

static void parse_err(const char *json, const char *want)
{
	struct trax_rules *rs = NULL;
	struct trax_error err = { 0 };

	assert_int_equal(trax_rules_parse(json, "t.json", &rs, NULL, &err), -TRAX_E_RULES);
	assert_null(rs);
	if (!strstr(err.msg, want))
		fail_msg("message \"%s\" lacks \"%s\"", err.msg, want);
}

/* One rule with a "regression" object. */
static struct trax_rules *one(const char *metric, const char *extra, const char *expect,
			      const char *regression)
{
	char json[512];

	snprintf(json, sizeof(json), "{\"rules\": [{\"id\": \"r\", \"metric\": \"%s\"%s, "
		 "\"expect\": \"%s\", \"regression\": %s}]}", metric, extra, expect, regression);
	return parse_ok(json);
}

static void test_regression_key(void **state)
{
	struct trax_rules *rs;
	const struct trax_rule *r;

	(void)state;
	rs = one("runtime", ", \"task\": \"a\"", "< 1 s", "{\"max_increase\": \"10 %\"}");
	r = &rs->rules[0];
	assert_true(r->max_increase.set && r->max_increase.relative);
	assert_true(r->max_increase.amount == 10);
	assert_false(r->max_decrease.set);
	assert_string_equal(r->max_increase.text, "10 %");
	trax_rules_free(rs);

	rs = one("runtime", ", \"task\": \"a\"", "< 1 s", "{\"max_decrease\": \"2 ms\"}");
	r = &rs->rules[0];
	assert_true(r->max_decrease.set && !r->max_decrease.relative);
	assert_true(r->max_decrease.amount == 2e6);	/* ns */
	trax_rules_free(rs);

	/* a percentage value: "pp" is absolute percentage points, "%" relative */
	rs = one("duty_cycle", ", \"task\": \"a\"", "< 30 %",
		 "{\"max_increase\": \"5 pp\", \"max_decrease\": \"10%\"}");
	r = &rs->rules[0];
	assert_true(!r->max_increase.relative && r->max_increase.amount == 5);
	assert_true(r->max_decrease.relative && r->max_decrease.amount == 10);
	trax_rules_free(rs);

	/* counts take bare numbers, JSON numbers too; 0 fits anything */
	rs = one("activations", ", \"task\": \"a\"", "> 0", "{\"max_decrease\": 3}");
	assert_true(rs->rules[0].max_decrease.amount == 3);
	trax_rules_free(rs);
	rs = one("period", ", \"task\": \"a\"", "> 0 ms", "{\"max_increase\": \"0\"}");
	assert_true(rs->rules[0].max_increase.set && rs->rules[0].max_increase.amount == 0);
	trax_rules_free(rs);

	parse_err("{\"rules\": [{\"id\": \"x\", \"metric\": \"runtime\", \"task\": \"a\", "
		  "\"expect\": \"> 0 ms\", \"regression\": {\"max_increase\": \"5\"}}]}",
		  "rules[0] (id \"x\").regression.max_increase: \"5\" needs a unit");
	parse_err("{\"rules\": [{\"id\": \"x\", \"metric\": \"runtime\", \"task\": \"a\", "
		  "\"expect\": \"> 0 ms\", \"regression\": {\"max_increase\": \"5 MHz\"}}]}",
		  "unit \"MHz\" does not fit");
	parse_err("{\"rules\": [{\"id\": \"x\", \"metric\": \"runtime\", \"task\": \"a\", "
		  "\"expect\": \"> 0 ms\", \"regression\": {\"max_increase\": \"5 pp\"}}]}",
		  "\"pp\" (percentage points) fits values that are percentages");
	parse_err("{\"rules\": [{\"id\": \"x\", \"metric\": \"runtime\", \"task\": \"a\", "
		  "\"expect\": \"> 0 ms\", \"regression\": {\"max_increase\": \"-1 %\"}}]}",
		  "non-negative");
	parse_err("{\"rules\": [{\"id\": \"x\", \"metric\": \"runtime\", \"task\": \"a\", "
		  "\"expect\": \"> 0 ms\", \"regression\": {\"max_rise\": \"1 %\"}}]}",
		  "regression.max_rise: unknown key (max_increase, max_decrease)");
	parse_err("{\"rules\": [{\"id\": \"x\", \"metric\": \"runtime\", \"task\": \"a\", "
		  "\"expect\": \"> 0 ms\", \"regression\": \"10 %\"}]}",
		  "regression: expected {\"max_increase\"");
}

static void test_tolerance(void **state)
{
	struct trax_rules *rs;
	char note[256];

	(void)state;
	/* max_increase 10 %: 100 -> 111 regressed, 100 -> 109 same, 100 -> 80 improved */
	rs = one("runtime", ", \"task\": \"a\"", "< 1 s", "{\"max_increase\": \"10 %\"}");
	assert_int_equal(trax_tolerance_compare(&rs->rules[0], TRAX_DIM_TIME, 100e6, 111e6, note,
						sizeof(note)), TRAX_CMP_REGRESSED);
	assert_non_null(strstr(note, "beyond max_increase 10 %"));
	assert_int_equal(trax_tolerance_compare(&rs->rules[0], TRAX_DIM_TIME, 100e6, 109e6, note,
						sizeof(note)), TRAX_CMP_SAME);
	assert_int_equal(trax_tolerance_compare(&rs->rules[0], TRAX_DIM_TIME, 100e6, 110e6, note,
						sizeof(note)), TRAX_CMP_SAME);	/* the bound itself */
	assert_int_equal(trax_tolerance_compare(&rs->rules[0], TRAX_DIM_TIME, 100e6, 80e6, note,
						sizeof(note)), TRAX_CMP_IMPROVED);
	/* relative to a baseline of 0: any increase is beyond it */
	assert_int_equal(trax_tolerance_compare(&rs->rules[0], TRAX_DIM_TIME, 0, 1, note,
						sizeof(note)), TRAX_CMP_REGRESSED);
	trax_rules_free(rs);

	/* both directions bounded: never "improved" by value */
	rs = one("period", ", \"task\": \"a\"", "> 0 ms",
		 "{\"max_increase\": \"1 ms\", \"max_decrease\": \"1 ms\"}");
	assert_int_equal(trax_tolerance_compare(&rs->rules[0], TRAX_DIM_TIME, 10e6, 11.5e6, NULL,
						0), TRAX_CMP_REGRESSED);
	assert_int_equal(trax_tolerance_compare(&rs->rules[0], TRAX_DIM_TIME, 10e6, 8.5e6, NULL,
						0), TRAX_CMP_REGRESSED);
	assert_int_equal(trax_tolerance_compare(&rs->rules[0], TRAX_DIM_TIME, 10e6, 9.5e6, NULL,
						0), TRAX_CMP_SAME);
	trax_rules_free(rs);

	/* percentage points: 20 % -> 26 % is 6 pp > 5 pp */
	rs = one("duty_cycle", ", \"task\": \"a\"", "< 30 %", "{\"max_increase\": \"5 pp\"}");
	assert_int_equal(trax_tolerance_compare(&rs->rules[0], TRAX_DIM_PERCENT, 20, 26, note,
						sizeof(note)), TRAX_CMP_REGRESSED);
	assert_non_null(strstr(note, "+6 pp"));
	assert_int_equal(trax_tolerance_compare(&rs->rules[0], TRAX_DIM_PERCENT, 20, 24, NULL, 0),
			 TRAX_CMP_SAME);
	trax_rules_free(rs);
}

/* ---- canned verdicts ---- */

static void add(struct trax_verdicts *v, const struct trax_rule *r, const char *name,
		const char *task, const char *trace, enum trax_verdict verdict, int has_value,
		double value)
{
	struct trax_result *res;

	v->res = realloc(v->res, (v->n + 1) * sizeof(*v->res));
	assert_non_null(v->res);
	res = &v->res[v->n++];
	memset(res, 0, sizeof(*res));
	res->rule = r;
	res->name = strdup(name);
	res->task = task ? strdup(task) : NULL;
	res->trace = strdup(trace);
	res->verdict = verdict;
	res->has_value = has_value;
	res->value = value;
	res->dim = trax_rule_value_dim(r);
	switch (verdict) {
	case TRAX_PASS: v->pass++; break;
	case TRAX_FAIL: v->fail++; break;
	case TRAX_SKIP: v->skip++; break;
	default: v->error++; break;
	}
}

static void test_keys(void **state)
{
	struct trax_rules *rs = parse_ok(
		"{\"rules\": [{\"id\": \"d\", \"metric\": \"duty_cycle\", \"task\": \"w*\", "
		"\"expect\": \"< 50 %\"}, {\"id\": \"f\", \"metric\": \"counter\", \"track\": "
		"\"cpu_frequency\", \"stat\": \"max\", \"expect\": \"> 0 Hz\"}, {\"id\": \"s\", "
		"\"metric\": \"duty_cycle\", \"task\": \"x\", \"expect\": \"< 50 %\"}]}");
	struct trax_verdicts v = { 0 };
	char **keys;

	(void)state;
	/* pids differ between runs: keys use the comm; the second "w1" is "w1#2" */
	add(&v, &rs->rules[0], "d[w1:100]", "w1:100", "t", TRAX_PASS, 1, 1);
	add(&v, &rs->rules[0], "d[w2:101]", "w2:101", "t", TRAX_PASS, 1, 1);
	add(&v, &rs->rules[0], "d[w1:102]", "w1:102", "t", TRAX_PASS, 1, 1);
	add(&v, &rs->rules[1], "f[cpu_frequency:cpu0]", NULL, "t", TRAX_PASS, 1, 1);
	add(&v, &rs->rules[2], "s", "x:7", "t", TRAX_PASS, 1, 1);
	/* a comm with a colon in it */
	add(&v, &rs->rules[2], "s[a:b:9]", "a:b:9", "t", TRAX_PASS, 1, 1);
	keys = trax_result_keys(&v, 0, v.n);
	assert_string_equal(keys[0], "d[w1]");
	assert_string_equal(keys[1], "d[w2]");
	assert_string_equal(keys[2], "d[w1#2]");
	assert_string_equal(keys[3], "f[cpu_frequency:cpu0]");
	assert_string_equal(keys[4], "s[x]");
	assert_string_equal(keys[5], "s[a:b]");
	trax_result_keys_free(keys, v.n);
	trax_verdicts_release(&v);
	trax_rules_free(rs);
}

static const char gate_rules[] =
	"{\"rules\": ["
	"{\"id\": \"lat\", \"metric\": \"runtime\", \"task\": \"t\", \"expect\": \"< 1 s\"},"
	"{\"id\": \"acts\", \"metric\": \"activations\", \"task\": \"t\", \"expect\": \">= 10\"},"
	"{\"id\": \"tol\", \"metric\": \"runtime\", \"task\": \"t\", \"expect\": \"< 1 s\", "
	" \"regression\": {\"max_increase\": \"50 %\"}},"
	"{\"id\": \"warn\", \"metric\": \"runtime\", \"task\": \"t\", \"expect\": \"< 1 s\", "
	" \"severity\": \"warn\"},"
	"{\"id\": \"pf\", \"metric\": \"runtime\", \"task\": \"t\", \"expect\": \"< 1 s\"},"
	"{\"id\": \"sk\", \"metric\": \"runtime\", \"task\": \"t\", \"expect\": \"< 1 s\"}"
	"]}";

static void test_baseline_roundtrip(void **state)
{
	struct trax_rules *rs = parse_ok(gate_rules);
	struct trax_verdicts base = { 0 }, now = { 0 };
	struct trax_baseline *b = NULL;
	struct trax_error err = { 0 };
	struct trax_trace_id id = { .name = (char *)"a.dat", .path = (char *)"/x/a.dat",
				    .sha256 = "00ff", .size = 42 };
	char path[] = "/tmp/trax-test-baseline-XXXXXX";
	json_t *j;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	base.rules_path = strdup("r.json");
	base.rules_sha256 = strdup("aaaa");
	add(&base, &rs->rules[0], "lat", "t:1", "a.dat", TRAX_PASS, 1, 100e6);
	add(&base, &rs->rules[1], "acts", "t:1", "a.dat", TRAX_PASS, 1, 20);
	add(&base, &rs->rules[2], "tol", "t:1", "a.dat", TRAX_PASS, 1, 100e6);
	add(&base, &rs->rules[3], "warn", "t:1", "a.dat", TRAX_PASS, 1, 100e6);
	add(&base, &rs->rules[4], "pf", "t:1", "a.dat", TRAX_FAIL, 0, 0);
	add(&base, &rs->rules[5], "sk[t:1]", "t:1", "a.dat", TRAX_PASS, 1, 5);
	id.first = 0;
	id.n = base.n;
	assert_int_equal(trax_baseline_save(path, &base, &id, 1, &err), 0);

	/* the file: versioned, the trace's identity, the rules' hash, every value exactly */
	j = json_load_file(path, 0, NULL);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "trax_baseline")), 1);
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "rules"),
							      "sha256")), "aaaa");
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(j, "traces"), 0), "sha256")), "00ff");
	assert_true(json_number_value(json_object_get(json_array_get(json_object_get(j, "results"),
								     0), "value")) == 100e6);
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(j, "results"), 4),
						 "value")));
	json_decref(j);

	assert_int_equal(trax_baseline_load(path, &b, &err), 0);
	now.rules_path = strdup("r.json");
	now.rules_sha256 = strdup("bbbb");
	add(&now, &rs->rules[0], "lat", "t:9", "b.dat", TRAX_PASS, 1, 300e6);  /* no bound */
	add(&now, &rs->rules[1], "acts", "t:9", "b.dat", TRAX_FAIL, 1, 5);     /* pass -> fail */
	add(&now, &rs->rules[2], "tol", "t:9", "b.dat", TRAX_PASS, 1, 160e6);  /* +60 % > 50 % */
	add(&now, &rs->rules[3], "warn", "t:9", "b.dat", TRAX_FAIL, 1, 2e9);   /* warn regressed */
	add(&now, &rs->rules[4], "pf", "t:9", "b.dat", TRAX_PASS, 1, 1);       /* fail -> pass */
	add(&now, &rs->rules[5], "sk[u:3]", "u:3", "b.dat", TRAX_PASS, 1, 5);  /* new; t missing */
	now.res[3].warn = 1;
	id.n = now.n;
	assert_int_equal(trax_baseline_compare(b, rs, &id, 1, &now, &err), 0);
	assert_int_equal(now.res[0].cmp, TRAX_CMP_SAME);
	assert_true(now.res[0].base_value == 100e6);
	assert_int_equal(now.res[1].cmp, TRAX_CMP_REGRESSED);
	assert_int_equal(now.res[2].cmp, TRAX_CMP_REGRESSED);
	assert_non_null(strstr(now.res[2].cmp_note, "+60 % rel."));
	assert_int_equal(now.res[3].cmp, TRAX_CMP_REGRESSED);
	assert_int_equal(now.res[4].cmp, TRAX_CMP_IMPROVED);
	assert_int_equal(now.res[5].cmp, TRAX_CMP_NEW);
	assert_int_equal(now.regressed, 2);
	assert_int_equal(now.regressed_warn, 1);
	assert_int_equal(now.improved, 1);
	assert_int_equal(now.added, 1);
	assert_int_equal(now.nmissing, 1);
	assert_string_equal(now.missing[0], "sk[t]");
	assert_non_null(strstr(now.baseline_note, "other rules"));
	/* tol passed its threshold and regressed: it fails now, the reason is the comparison,
	 * and the counts moved (4 passed and 2 failed as added above: 3 and 3) */
	assert_int_equal(now.res[2].verdict, TRAX_FAIL);
	assert_int_equal(now.res[2].regression, 1);
	assert_int_equal(now.res[2].rule_verdict, TRAX_PASS);
	assert_non_null(strstr(now.res[2].reason, "regressed from the baseline: "));
	assert_non_null(strstr(now.res[2].reason, "beyond max_increase 50 %"));
	assert_int_equal(now.pass, 3);
	assert_int_equal(now.fail, 3);
	/* acts failed its threshold already: unchanged */
	assert_int_equal(now.res[1].verdict, TRAX_FAIL);
	assert_int_equal(now.res[1].regression, 0);
	/* a baseline saved from this run keeps the rules' own verdicts */
	id.first = 0;
	assert_int_equal(trax_baseline_save(path, &now, &id, 1, &err), 0);
	j = json_load_file(path, 0, NULL);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(j, "results"), 2), "verdict")), "pass");
	json_decref(j);
	/* a regression fails the check even where every rule passes */
	now.fail = 0;
	assert_int_equal(trax_verdicts_exit_status(&now), 1);
	now.regressed = 0;
	assert_int_equal(trax_verdicts_exit_status(&now), 0);

	trax_baseline_free(b);
	trax_verdicts_release(&base);
	trax_verdicts_release(&now);
	trax_rules_free(rs);

	/* bad files: one line naming the file */
	{
		FILE *f = fopen(path, "w");

		fputs("{\"trax_baseline\": 2, \"results\": []}", f);
		fclose(f);
		assert_int_equal(trax_baseline_load(path, &b, &err), -TRAX_E_UNSUPPORTED);
		assert_non_null(strstr(err.msg, "baseline version 2"));
		f = fopen(path, "w");
		fputs("{\"results\": [", f);
		fclose(f);
		assert_int_equal(trax_baseline_load(path, &b, &err), -TRAX_E_FORMAT);
		assert_non_null(strstr(err.msg, path));
	}
	unlink(path);
	assert_int_equal(trax_baseline_load(path, &b, &err), -TRAX_E_IO);
}

/* ---- gate ---- */

/* One run: for each rule of gate_rules, a verdict and value. */
static void run(struct trax_gate *g, const struct trax_rules *rs, enum trax_gate_side side,
		double lat, double acts, double tol, double warn, int pf_pass, int sk_skip)
{
	struct trax_verdicts v = { 0 };
	struct trax_error err = { 0 };

	add(&v, &rs->rules[0], "lat", "t:1", "x", TRAX_PASS, 1, lat);
	add(&v, &rs->rules[1], "acts", "t:1", "x", TRAX_PASS, 1, acts);
	add(&v, &rs->rules[2], "tol", "t:1", "x", TRAX_PASS, 1, tol);
	add(&v, &rs->rules[3], "warn", "t:1", "x", TRAX_PASS, 1, warn);
	add(&v, &rs->rules[4], "pf", "t:1", "x", pf_pass ? TRAX_PASS : TRAX_FAIL, pf_pass, 1);
	add(&v, &rs->rules[5], "sk", "t:1", "x", sk_skip ? TRAX_SKIP : TRAX_PASS, !sk_skip, 1);
	assert_int_equal(trax_gate_add(g, side, "x", &v, &err), 0);
	trax_verdicts_release(&v);
}

static json_t *gate_json(struct trax_gate *g)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_error_t jerr;
	json_t *j;

	assert_non_null(f);
	assert_int_equal(trax_gate_write(g, TRAX_OUT_JSON, f), 0);
	fclose(f);
	j = json_loads(buf, 0, &jerr);
	if (!j)
		fail_msg("gate JSON does not parse: %s", jerr.text);
	free(buf);
	return j;
}

static json_t *row(json_t *j, const char *key)
{
	size_t i;
	json_t *r;

	json_array_foreach(json_object_get(j, "results"), i, r)
		if (!strcmp(json_string_value(json_object_get(r, "key")), key))
			return r;
	fail_msg("no row %s", key);
	return NULL;
}

static const char *verdict_of(json_t *j, const char *key)
{
	return json_string_value(json_object_get(row(j, key), "verdict"));
}

static void test_gate(void **state)
{
	struct trax_rules *rs = parse_ok(gate_rules);
	struct trax_gate *g = trax_gate_alloc(rs, 0.05);
	struct trax_error err = { 0 };
	json_t *j;

	(void)state;
	/*
	 * 5 runs per side. lat ("< 1 s": up is worse) 100 ms -> 200 ms: regressed. acts
	 * (">= 10": down is worse) goes up 20 -> 30: improved. tol ("< 1 s", max_increase 50 %)
	 * 100 ms -> 120 ms: significant, within the bound: same. warn: up, a warning. pf passes
	 * in every base run and fails without a value in every new run: Fisher 2/252. sk is
	 * skipped everywhere.
	 */
	for (int i = 0; i < 5; i++)
		run(g, rs, TRAX_GATE_BASE, 100e6 + i, 20 + i * 0.1, 100e6 + i, 100e6 + i, 1, 1);
	for (int i = 0; i < 5; i++)
		run(g, rs, TRAX_GATE_NEW, 200e6 + i, 30 + i * 0.1, 120e6 + i, 300e6 + i, 0, 1);
	assert_int_equal(trax_gate_decide(g, &err), 0);
	j = gate_json(g);
	assert_string_equal(verdict_of(j, "lat[t]"), "regressed");
	assert_true(fabs(json_number_value(json_object_get(json_object_get(row(j, "lat[t]"),
		"mann_whitney"), "p")) - 2.0 / 252) < 1e-12);
	assert_string_equal(verdict_of(j, "acts[t]"), "improved");
	assert_string_equal(verdict_of(j, "tol[t]"), "same");
	assert_string_equal(verdict_of(j, "warn[t]"), "regressed");
	assert_string_equal(verdict_of(j, "pf[t]"), "regressed");
	assert_true(json_is_null(json_object_get(row(j, "pf[t]"), "mann_whitney")));
	assert_true(fabs(json_number_value(json_object_get(json_object_get(row(j, "pf[t]"),
		"fisher"), "p")) - 2.0 / 252) < 1e-12);
	assert_string_equal(verdict_of(j, "sk[t]"), "skipped");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "totals"),
							   "regressed")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "totals"),
							   "regressed_warn")), 1);
	assert_int_equal(trax_gate_exit_status(g), 1);
	json_decref(j);
	trax_gate_free(g);

	/* 3 runs per side: insufficient samples everywhere: exit 4 */
	g = trax_gate_alloc(rs, 0.05);
	for (int i = 0; i < 3; i++) {
		run(g, rs, TRAX_GATE_BASE, 100e6 + i, 20, 100e6, 100e6, 1, 0);
		run(g, rs, TRAX_GATE_NEW, 200e6 + i, 30, 120e6, 300e6, 0, 0);
	}
	assert_int_equal(trax_gate_decide(g, &err), 0);
	j = gate_json(g);
	assert_string_equal(verdict_of(j, "lat[t]"), "insufficient samples");
	assert_string_equal(verdict_of(j, "pf[t]"), "insufficient samples");
	assert_int_equal(trax_gate_exit_status(g), 4);
	json_decref(j);
	trax_gate_free(g);

	/* interleaved values: no significant shift: same, exit 0 */
	g = trax_gate_alloc(rs, 0.05);
	for (int i = 0; i < 5; i++) {
		run(g, rs, TRAX_GATE_BASE, 100e6 + 2 * i, 20, 100e6, 100e6, 1, 0);
		run(g, rs, TRAX_GATE_NEW, 100e6 + 2 * i + 1, 20, 100e6, 100e6, 1, 0);
	}
	assert_int_equal(trax_gate_decide(g, &err), 0);
	j = gate_json(g);
	assert_string_equal(verdict_of(j, "lat[t]"), "same");
	assert_string_equal(verdict_of(j, "acts[t]"), "same");
	assert_int_equal(trax_gate_exit_status(g), 0);
	json_decref(j);
	trax_gate_free(g);
	trax_rules_free(rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regression_key),
		cmocka_unit_test(test_tolerance),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_baseline_roundtrip),
		cmocka_unit_test(test_gate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
