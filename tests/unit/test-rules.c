/* tests/unit/test-rules.c: rule-file parsing, thresholds, units and located errors. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

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

static const struct trax_threshold *expect_of(struct trax_rules **rs, const char *metric,
					      const char *extra, const char *expect)
{
	char json[512];

	snprintf(json, sizeof(json), "{\"rules\": [{\"id\": \"r\", \"metric\": \"%s\"%s, "
		 "\"expect\": \"%s\"}]}", metric, extra, expect);
	*rs = parse_ok(json);
	return &(*rs)->rules[0].expect;
}

static void test_seconds(void **state)
{
	int64_t ns;

	assert_int_equal(trax_parse_seconds("106439.678991", &ns), 0);
	assert_int_equal(ns, 106439678991000LL);
	assert_int_equal(trax_parse_seconds("0.000000001", &ns), 0);
	assert_int_equal(ns, 1);
	assert_int_equal(trax_parse_seconds("12", &ns), 0);
	assert_int_equal(ns, 12000000000LL);
	assert_int_equal(trax_parse_seconds("1.5s", &ns), 0);
	assert_int_equal(ns, 1500000000LL);
	assert_int_equal(trax_parse_seconds("-0.5", &ns), 0);
	assert_int_equal(ns, -500000000LL);
	assert_int_equal(trax_parse_seconds("1.2.3", &ns), -1);
	assert_int_equal(trax_parse_seconds("abc", &ns), -1);
	assert_int_equal(trax_parse_seconds("", &ns), -1);
}

static void test_thresholds(void **state)
{
	struct trax_rules *rs;
	const struct trax_threshold *t;

	t = expect_of(&rs, "runtime", ", \"task\": \"x\"", "< 500 us");
	assert_int_equal(t->op, TRAX_OP_LT);
	assert_true(t->a == 500000.0);
	assert_int_equal(t->dim, TRAX_DIM_TIME);
	assert_true(trax_threshold_met(t, 499999));
	assert_false(trax_threshold_met(t, 500000));
	trax_rules_free(rs);

	t = expect_of(&rs, "residency", ", \"task\": \"x\", \"cpus\": [0]", ">= 75 %");
	assert_int_equal(t->dim, TRAX_DIM_PERCENT);
	assert_true(trax_threshold_met(t, 75.0));
	assert_false(trax_threshold_met(t, 74.999));
	assert_int_equal(trax_rule_value_dim(&rs->rules[0]), TRAX_DIM_PERCENT);
	trax_rules_free(rs);

	/* residency with a time unit is the absolute time on those CPUs */
	t = expect_of(&rs, "residency", ", \"task\": \"x\", \"cpus\": [0]", "> 2 ms");
	assert_int_equal(trax_rule_value_dim(&rs->rules[0]), TRAX_DIM_TIME);
	trax_rules_free(rs);

	t = expect_of(&rs, "runtime", ", \"task\": \"x\"", "3.474 ms +- 1 us");
	assert_int_equal(t->op, TRAX_OP_RANGE);
	assert_true(fabs(t->a - 3473000.0) < 1e-6 && fabs(t->b - 3475000.0) < 1e-6);
	trax_rules_free(rs);

	t = expect_of(&rs, "period", ", \"task\": \"x\"", "between 15 ms and 17 ms");
	assert_true(t->a == 15e6 && t->b == 17e6);
	assert_true(trax_threshold_met(t, 16e6));
	trax_rules_free(rs);

	t = expect_of(&rs, "activations", ", \"task\": \"x\"", "== 0");
	assert_int_equal(t->op, TRAX_OP_EQ);
	assert_true(trax_threshold_met(t, 0));
	trax_rules_free(rs);

	/* a bare 0 fits a time */
	t = expect_of(&rs, "runtime", ", \"task\": \"x\"", "== 0");
	assert_true(trax_threshold_met(t, 0));
	trax_rules_free(rs);

	t = expect_of(&rs, "counter", ", \"track\": \"cpu_frequency\", \"stat\": \"max\"", ">= 1.2 GHz");
	assert_int_equal(t->dim, TRAX_DIM_FREQ);
	assert_true(t->a == 1.2e9);
	trax_rules_free(rs);
}

/* A bare level is in the track's own unit (converted at evaluation); one with a unit is not. */
static void test_levels(void **state)
{
	struct trax_rules *rs = parse_ok(
		"{\"rules\": ["
		"{\"id\": \"a\", \"metric\": \"counter\", \"track\": \"cpu_frequency\", "
		"\"stat\": \"time_above\", \"level\": 800000, \"expect\": \"> 1 %\"},"
		"{\"id\": \"b\", \"metric\": \"counter\", \"track\": \"cpu_frequency\", "
		"\"stat\": \"time_above\", \"level\": \"800 MHz\", \"expect\": \"> 1 %\"},"
		"{\"id\": \"c\", \"metric\": \"thermal_residency\", \"zone\": \"z\", "
		"\"range\": [0, \"75 C\"], \"expect\": \"> 1 %\"},"
		"{\"id\": \"d\", \"metric\": \"activations\", \"task\": \"x\", \"expect\": 3}]}");

	assert_true(rs->rules[0].level == 800000 && rs->rules[0].level_bare);
	assert_true(rs->rules[1].level == 800e6 && !rs->rules[1].level_bare);
	assert_true(rs->rules[2].range[0] == 0 && rs->rules[2].range_bare[0]);
	assert_true(rs->rules[2].range[1] == 75000 && !rs->rules[2].range_bare[1]);
	/* a JSON number is "== N": a count */
	assert_int_equal(rs->rules[3].expect.op, TRAX_OP_EQ);
	assert_true(rs->rules[3].expect.a == 3);
	trax_rules_free(rs);
}

static void test_in_group(void **state)
{
	struct trax_rules *rs = parse_ok(
		"{\"topology\": {\"big\": [1, 2]}, \"rules\": [{\"id\": \"r\", \"metric\": "
		"\"first_cpu\", \"task\": \"x\", \"expect\": \"in big\"}]}");

	assert_int_equal(rs->rules[0].expect.op, TRAX_OP_IN);
	assert_true(trax_threshold_met(&rs->rules[0].expect, 2));
	assert_false(trax_threshold_met(&rs->rules[0].expect, 0));
	trax_rules_free(rs);
}

/* Groups the trace's facts give: parsed with no CPUs, resolved when evaluated; the file's own
 * topology first. */
static void test_fact_groups(void **state)
{
	static const char *const yes[] = { "little", "big", "mid", "cluster0", "cluster12" };
	static const char *const no[] = { "Little", "bigger", "cluster", "cluster01", "cluster-1",
					  "cluster1a", "cluster123456", "gold" };
	struct trax_rules *rs = parse_ok(
		"{\"topology\": {\"big\": [3]}, \"rules\": ["
		"{\"id\": \"a\", \"metric\": \"residency\", \"task\": \"x\", \"cpus\": \"little\", "
		"\"expect\": \"> 1 %\"},"
		"{\"id\": \"b\", \"metric\": \"residency\", \"task\": \"x\", \"cpus\": \"big\", "
		"\"expect\": \"> 1 %\"},"
		"{\"id\": \"c\", \"metric\": \"switch\", \"task\": \"x\", \"from\": \"cluster1\", "
		"\"to\": [0], \"expect\": \"> 0\"},"
		"{\"id\": \"d\", \"metric\": \"first_cpu\", \"task\": \"x\", \"expect\": \"in mid\"}]}");

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		assert_true(trax_topology_fact_name(yes[i]));
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		assert_false(trax_topology_fact_name(no[i]));
	assert_int_equal(rs->rules[0].facts, TRAX_FACTS_CPUS);
	assert_null(rs->rules[0].cpus);
	assert_string_equal(rs->rules[0].cpus_name, "little");
	/* the file's "big" */
	assert_int_equal(rs->rules[1].facts, 0);
	assert_int_equal(rs->rules[1].ncpus, 1);
	assert_int_equal(rs->rules[1].cpus[0], 3);
	assert_false(trax_rule_needs_facts(&rs->rules[1]));
	assert_int_equal(rs->rules[2].facts, TRAX_FACTS_FROM);
	assert_true(rs->rules[3].expect.group_facts);
	assert_string_equal(rs->rules[3].expect.group, "mid");
	assert_true(trax_rule_needs_facts(&rs->rules[3]));
	trax_rules_free(rs);
}

static void test_windows_and_selectors(void **state)
{
	struct trax_rules *rs = parse_ok(
		"{\"windows\": {\"steady\": {\"from_marker\": \"a\", \"to_marker\": \"b\", "
		"\"occurrence\": 2, \"match\": \"prefix\"}}, \"rules\": ["
		"{\"id\": \"m\", \"metric\": \"runtime\", \"task\": {\"regex\": \"^k.*\"}, \"window\": "
		"\"steady\", \"expect\": \"> 0 ns\"},"
		"{\"id\": \"a\", \"metric\": \"runtime\", \"task\": {\"pid\": 7}, \"window\": {\"start\": "
		"\"106439.678991\", \"end\": \"106439.679116\"}, \"expect\": \"> 0 ns\"},"
		"{\"id\": \"r\", \"metric\": \"runtime\", \"task\": \"x\", \"window\": {\"start\": \"1\", "
		"\"relative\": true}, \"expect\": \"> 0 ns\"},"
		"{\"id\": \"c\", \"metric\": \"runtime\", \"task\": \"x\", \"window\": \"complete\", "
		"\"expect\": \"> 0 ns\"}]}");

	assert_int_equal(rs->rules[0].window.kind, TRAX_WIN_MARKERS);
	assert_int_equal(rs->rules[0].window.occurrence, 2);
	assert_true(rs->rules[0].window.prefix);
	assert_int_equal(rs->rules[0].task.kind, TRAX_SEL_REGEX);
	assert_int_equal(rs->rules[1].window.kind, TRAX_WIN_ABSOLUTE);
	assert_int_equal(rs->rules[1].window.start, 106439678991000LL);
	assert_int_equal(rs->rules[1].window.end, 106439679116000LL);
	assert_int_equal(rs->rules[1].task.kind, TRAX_SEL_PID);
	assert_int_equal(rs->rules[1].task.id, 7);
	assert_int_equal(rs->rules[2].window.kind, TRAX_WIN_RELATIVE);
	assert_false(rs->rules[2].window.has_end);
	assert_int_equal(rs->rules[3].window.kind, TRAX_WIN_COMPLETE);
	trax_rules_free(rs);
}

static void test_errors(void **state)
{
	parse_err("{\"rules\": [\n  {\"id\": \"a\",}\n]}", "t.json:2:");
	parse_err("{\"rules\": []}", "t.json: rules: no rules");
	parse_err("{\"rulez\": []}", "t.json: rulez: unknown key");
	parse_err("{\"rules\": [{\"id\": \"a\", \"metric\": \"runtime\", \"task\": \"x\", \"expect\": "
		  "\"> 1 parsecs\"}]}", "rules[0] (id \"a\").expect: unknown unit \"parsecs\"");
	parse_err("{\"rules\": [{\"id\": \"a\", \"metric\": \"runtime\", \"task\": \"x\", \"expect\": "
		  "\"> 1\"}]}", "rules[0] (id \"a\").expect: \"> 1\" needs a unit");
	/* a JSON number is not a time: it needs a unit like any other threshold */
	parse_err("{\"rules\": [{\"id\": \"a\", \"metric\": \"runtime\", \"task\": \"x\", \"expect\": "
		  "5}]}", "rules[0] (id \"a\").expect: \"5\" needs a unit: the value is a time");
	parse_err("{\"rules\": [{\"id\": \"a\", \"metric\": \"counter\", \"track\": "
		  "\"cpu_frequency\", \"stat\": \"max\", \"expect\": 800000}]}",
		  "\"800000\" needs a unit: the value is a frequency (Hz, kHz, MHz, GHz)");
	parse_err("{\"rules\": [{\"id\": \"a\", \"metric\": \"counter\", \"track\": "
		  "\"cpu_frequency\", \"stat\": \"time_above\", \"level\": \"1 C\", \"expect\": "
		  "\"> 1 %\"}]}", ".level: unit \"C\" does not fit: expected a frequency");
	parse_err("{\"rules\": [{\"id\": \"a\", \"metric\": \"duty_cycle\", \"task\": \"x\", "
		  "\"expect\": \"> 1 ms\"}]}", "unit \"ms\" does not fit");
	parse_err("{\"rules\": [{\"id\": \"a\", \"metric\": \"thermal_residency\", \"zone\": \"z\", "
		  "\"range\": [10, 5], \"expect\": \"> 1 %\"}]}", "rules[0] (id \"a\").range: low is above");
	parse_err("{\"rules\": [{\"id\": \"a\", \"metric\": \"counter\", \"track\": \"cpu_idle\", "
		  "\"stat\": \"time_above\", \"expect\": \"> 1 %\"}]}", ".level: missing");
	parse_err("{\"rules\": [{\"id\": \"a\", \"metric\": \"wakeup_latency\", \"task\": \"x\", "
		  "\"stat\": \"p999x\", \"expect\": \"> 1 ms\"}]}", ".stat: unknown statistic");
	parse_err("{\"rules\": [{\"metric\": \"runtime\", \"task\": \"x\", \"expect\": \"> 1 ms\", "
		  "\"severity\": \"fatal\"}]}", "t.json: rules[0].severity: expected");
	parse_err("{\"rules\": [{\"id\": \"a\", \"metric\": \"runtime\", \"task\": \"x\", \"window\": "
		  "{\"start\": \"5\", \"end\": \"4\"}, \"expect\": \"> 1 ms\"}]}", "end is before start");
}

/* Every problem of a file, one line each; err holds the first and says how many more. */
static void test_every_problem(void **state)
{
	struct trax_error_list problems = { 0 };
	struct trax_rules *rs = NULL;
	struct trax_error err = { 0 };

	assert_int_equal(trax_rules_parse(
		"{\"rules\": ["
		"{\"id\": \"a\", \"metric\": \"runtme\", \"task\": \"x\", \"expect\": \"> 1 ms\"},"
		"{\"id\": \"b\", \"metric\": \"runtime\", \"task\": \"x\", \"expect\": \"> 1 ms\"},"
		"{\"id\": \"c\", \"metric\": \"runtime\", \"tsk\": \"x\", \"expect\": \"> 1 parsecs\"}"
		"]}", "t.json", &rs, &problems, &err), -TRAX_E_RULES);
	assert_null(rs);
	/* the misspelt "tsk" is not said to be a missing "task" as well */
	assert_int_equal(problems.n, 3);
	assert_string_equal(problems.msg[0], "t.json: rules[0] (id \"a\").metric: unknown metric "
			    "\"runtme\" (did you mean \"runtime\"?)");
	assert_string_equal(problems.msg[1], "t.json: rules[2] (id \"c\").tsk: unknown key "
			    "(did you mean \"task\"?)");
	assert_string_equal(problems.msg[2], "t.json: rules[2] (id \"c\").expect: unknown unit "
			    "\"parsecs\"");
	assert_non_null(strstr(err.msg, "unknown metric \"runtme\""));
	assert_non_null(strstr(err.msg, "(and 2 more problems)"));
	trax_error_list_release(&problems);

	/* a syntax error is all there is to say */
	assert_int_equal(trax_rules_parse("{\"rules\": [,]}", "t.json", &rs, &problems, &err),
			 -TRAX_E_RULES);
	assert_int_equal(problems.n, 1);
	assert_non_null(strstr(problems.msg[0], "t.json:1:"));
	trax_error_list_release(&problems);

	/*
	 * an event trax knows is taken as it is; one edit away from one is not; real events two
	 * edits or more from a known one are (clk:clk_enable, rpm:rpm_idle, sched:sched_process_hang
	 * of Linux 6.x beside clock_enable, cpu_idle, sched_process_wait); SYSTEM:NAME always is
	 */
	assert_int_equal(trax_rules_parse(
		"{\"rules\": [{\"id\": \"a\", \"metric\": \"sql\", \"requires\": [\"sched_waking\", "
		"\"sched_wakeup\", \"sched_process_free\", \"my_vendor_event\", \"sched:sched_wakeupp\", "
		"\"clk_enable\", \"rpm_idle\", \"sched_process_hang\"],"
		" \"query\": \"SELECT 1\", \"expect\": \"== 1\"}]}", "t.json", &rs, &problems, &err), 0);
	assert_int_equal(rs->rules[0].nrequires, 8);
	trax_rules_free(rs);
	parse_err("{\"rules\": [{\"id\": \"a\", \"metric\": \"sql\", \"requires\": \"cpu_frequncy\", "
		  "\"query\": \"SELECT 1\", \"expect\": \"== 1\"}]}",
		  "requires: unknown event \"cpu_frequncy\" (did you mean \"cpu_frequency\"?)");
}

static void test_format_value(void **state)
{
	char buf[64];

	assert_string_equal(trax_format_value(125000, TRAX_DIM_TIME, "us", buf, sizeof(buf)),
			    "125 us");
	assert_string_equal(trax_format_value(3473720, TRAX_DIM_TIME, "", buf, sizeof(buf)),
			    "3.47372 ms");
	assert_string_equal(trax_format_value(NAN, TRAX_DIM_TIME, "", buf, sizeof(buf)),
			    "undefined");
	assert_string_equal(trax_format_value(5, TRAX_DIM_CPU, "", buf, sizeof(buf)), "CPU 5");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_in_group),
		cmocka_unit_test(test_fact_groups),
		cmocka_unit_test(test_windows_and_selectors),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_every_problem),
		cmocka_unit_test(test_format_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
