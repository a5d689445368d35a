/* tests/unit/test-collect-rtapp.c: trax workload JSON to rt-app JSON, and its errors (no root). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "collect/collect.h"

static json_t *convert(const char *text, const char *dir, const char *base)
{
	struct trax_error err = { 0 };
	char *out = NULL;
	json_t *j;

	if (trax_workload_text_to_rtapp(text, "w.json", dir, base, &out, &err)) {
		print_error("conversion failed: %s\n", err.msg);
		fail();
	}
	j = json_loads(out, 0, NULL);
	assert_non_null(j);
	free(out);
	return j;
}

static long long get_int(json_t *root, const char *path)
{
	json_t *v = root;
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save)) {
		v = json_object_get(v, k);
		if (!v) {
			print_error("no %s\n", path);
			fail();
		}
	}
	assert_true(json_is_integer(v));
	return json_integer_value(v);
}

/*
 * One task, 16 ms period, 25 % duty, 2 s: 125 activations of a 4000 us "runtime" and a timer
 * of 16000 us on the thread's own timer; the thread runs its phases once. No "run" event: the
 * calibration is a number (rt-app's calibration step, seconds long, is skipped).
 */
static void test_single_phase(void **state)
{
	json_t *j = convert("{\"tasks\": [{\"name\": \"small\", \"cpus\": [1], \"period\": "
			    "\"16ms\", \"duty_cycle\": 25, \"duration\": \"2s\", \"policy\": "
			    "\"SCHED_FIFO\", \"priority\": 10}]}", "/tmp/out", "x");
	json_t *g = json_object_get(j, "global"), *t = json_object_get(json_object_get(j, "tasks"),
								      "small");

	(void)state;
	assert_non_null(t);
	assert_int_equal(get_int(j, "tasks.small.loop"), 1);
	assert_int_equal(get_int(j, "tasks.small.phases.p0.loop"), 125);
	assert_int_equal(get_int(j, "tasks.small.phases.p0.runtime"), 4000);
	assert_int_equal(get_int(j, "tasks.small.phases.p0.timer.period"), 16000);
	assert_string_equal(json_string_value(json_object_get(json_object_get(json_object_get(
		json_object_get(t, "phases"), "p0"), "timer"), "ref")), "unique");
	assert_int_equal(json_integer_value(json_array_get(json_object_get(t, "cpus"), 0)), 1);
	assert_string_equal(json_string_value(json_object_get(t, "policy")), "SCHED_FIFO");
	assert_int_equal(get_int(j, "tasks.small.priority"), 10);
	assert_true(json_is_integer(json_object_get(g, "calibration")));
	assert_int_equal(get_int(j, "global.duration"), -1);
	assert_true(json_is_true(json_object_get(g, "ftrace")));
	assert_string_equal(json_string_value(json_object_get(g, "logdir")), "/tmp/out");
	assert_string_equal(json_string_value(json_object_get(g, "log_basename")), "x");
	json_decref(j);
}

/* Phases in order, units mixed, 100 % duty (no timer), calibrated "run", markers off. */
static void test_phases(void **state)
{
	json_t *j = convert("{\"duration\": \"2.5s\", \"markers\": false, \"tasks\": [{\"name\": "
			    "\"big\", \"load\": \"run\", \"instances\": 2, \"delay\": \"100ms\", "
			    "\"phases\": [{\"period\": \"10ms\", \"duty_cycle\": 10, \"duration\": "
			    "\"500ms\"}, {\"period\": \"20000us\", \"duty_cycle\": 100, "
			    "\"duration\": \"1s\", \"cpus\": [0]}, {\"period\": \"1ms\", "
			    "\"duty_cycle\": 0, \"duration\": \"3ms\"}]}]}", NULL, NULL);
	json_t *g = json_object_get(j, "global");
	json_t *ph = json_object_get(json_object_get(json_object_get(j, "tasks"), "big"),
				     "phases");
	const char *k;
	json_t *v;
	int i = 0;

	(void)state;
	json_object_foreach(ph, k, v) {
		char want[16];

		snprintf(want, sizeof(want), "p%d", i++);
		assert_string_equal(k, want);
	}
	assert_int_equal(i, 3);
	assert_int_equal(get_int(j, "tasks.big.phases.p0.loop"), 50);
	assert_int_equal(get_int(j, "tasks.big.phases.p0.run"), 1000);
	assert_int_equal(get_int(j, "tasks.big.phases.p1.loop"), 50);
	assert_int_equal(get_int(j, "tasks.big.phases.p1.run"), 20000);
	assert_null(json_object_get(json_object_get(ph, "p1"), "timer"));
	assert_int_equal(json_integer_value(json_array_get(json_object_get(json_object_get(ph,
		"p1"), "cpus"), 0)), 0);
	assert_null(json_object_get(json_object_get(ph, "p2"), "run"));
	assert_int_equal(get_int(j, "tasks.big.phases.p2.timer.period"), 1000);
	assert_int_equal(get_int(j, "tasks.big.instance"), 2);
	assert_int_equal(get_int(j, "tasks.big.delay"), 100000);
	/* whole seconds, rounded up */
	assert_int_equal(get_int(j, "global.duration"), 3);
	/* "run" needs rt-app's calibration */
	assert_string_equal(json_string_value(json_object_get(g, "calibration")), "CPU0");
	assert_true(json_is_false(json_object_get(g, "ftrace")));
	assert_null(json_object_get(g, "logdir"));
	json_decref(j);
}

static void expect_error(const char *text, int code, const char *msg)
{
	struct trax_error err = { 0 };
	char *out = NULL;
	int ret = trax_workload_text_to_rtapp(text, "w.json", NULL, NULL, &out, &err);
	size_t n = strlen(msg);

	/* a message ending in "..." is a prefix (the rest is jansson's) */
	if (n > 3 && !strcmp(msg + n - 3, "..."))
		n -= 3;
	else
		n = strlen(err.msg) + 1;
	if (ret != -code || strncmp(err.msg, msg, n)) {
		print_error("input: %s\nret %d (want %d)\nmsg:  %s\nwant: %s\n", text, ret, -code,
			    err.msg, msg);
		fail();
	}
	assert_null(out);
}

static void test_errors(void **state)
{
	(void)state;
	/* not the trax form: rt-app files are run as they are */
	expect_error("{\"tasks\": {\"t\": {\"run\": 10}}}", TRAX_E_UNSUPPORTED,
		     "w.json: not a trax workload (no \"tasks\" array)");
	expect_error("{\"tasks\": [", TRAX_E_UNSUPPORTED,
		     "w.json:1:11: ...");
	expect_error("{\"tasks\": []}", TRAX_E_FORMAT, "w.json: tasks: no task");
	expect_error("{\"tasks\": [{}]}", TRAX_E_FORMAT,
		     "w.json: tasks[0]: missing \"name\" (the thread name)");
	expect_error("{\"tasks\": [{\"name\": \"a\", \"period\": 16, \"duty_cycle\": 5, "
		     "\"duration\": \"1s\"}]}", TRAX_E_FORMAT,
		     "w.json: tasks[0] (name \"a\").period: a time needs a unit, as a string such "
		     "as \"16ms\"");
	expect_error("{\"tasks\": [{\"name\": \"a\", \"period\": \"16 mss\", \"duty_cycle\": 5, "
		     "\"duration\": \"1s\"}]}", TRAX_E_FORMAT,
		     "w.json: tasks[0] (name \"a\").period: '16 mss' is not a time (a number and "
		     "a unit: ns, us, ms, s)");
	expect_error("{\"tasks\": [{\"name\": \"a\", \"period\": \"16ms\", \"duty_cycle\": 101, "
		     "\"duration\": \"1s\"}]}", TRAX_E_FORMAT,
		     "w.json: tasks[0] (name \"a\").duty_cycle: a number from 0 to 100 (percent)");
	expect_error("{\"tasks\": [{\"name\": \"a\", \"period\": \"16ms\", \"duty_cycle\": 10}]}",
		     TRAX_E_FORMAT, "w.json: tasks[0] (name \"a\").duration: missing (a time with "
		     "a unit: us, ms, s)");
	expect_error("{\"tasks\": [{\"name\": \"a\", \"period\": \"16ms\", \"duty_cycle\": 10, "
		     "\"duration\": \"1ms\"}]}", TRAX_E_FORMAT,
		     "w.json: tasks[0] (name \"a\"): duration is shorter than one period");
	expect_error("{\"tasks\": [{\"name\": \"a\", \"cpus\": [-1], \"period\": \"16ms\", "
		     "\"duty_cycle\": 10, \"duration\": \"1s\"}]}", TRAX_E_FORMAT,
		     "w.json: tasks[0] (name \"a\").cpus: element 0 is not a CPU number");
	expect_error("{\"tasks\": [{\"name\": \"a\", \"phases\": [{\"period\": \"1ms\", "
		     "\"duty_cycle\": 10, \"duration\": \"1s\"}, {\"period\": \"1ms\"}]}]}",
		     TRAX_E_FORMAT, "w.json: tasks[0] (name \"a\").phases[1].duration: missing "
		     "(a time with a unit: us, ms, s)");
	expect_error("{\"tasks\": [{\"name\": \"a\", \"period\": \"1ms\", \"phases\": []}]}",
		     TRAX_E_FORMAT, "w.json: tasks[0] (name \"a\"): either \"phases\" or "
		     "period/duty_cycle/duration, not both");
	expect_error("{\"tasks\": [{\"name\": \"a\", \"period\": \"1ms\", \"duty_cycle\": 1, "
		     "\"duration\": \"1s\"}, {\"name\": \"a\", \"period\": \"1ms\", "
		     "\"duty_cycle\": 1, \"duration\": \"1s\"}]}", TRAX_E_FORMAT,
		     "w.json: tasks[1] (name \"a\"): name: two tasks are named \"a\"");
	expect_error("{\"tasks\": [{\"name\": \"a_name_that_is_too_long\"}]}", TRAX_E_FORMAT,
		     "w.json: tasks[0] (name \"a_name_that_is_too_long\"): name: at most 15 "
		     "characters (the kernel's comm), no spaces or slashes");
	expect_error("{\"tasks\": [{\"name\": \"a\", \"policy\": \"SCHED_DEADLINE\"}]}",
		     TRAX_E_FORMAT, "w.json: tasks[0] (name \"a\"): policy: one of SCHED_OTHER, "
		     "SCHED_FIFO, SCHED_RR, SCHED_IDLE, SCHED_BATCH");
	expect_error("{\"tasks\": [{\"name\": \"a\", \"load\": \"spin\"}]}", TRAX_E_FORMAT,
		     "w.json: tasks[0] (name \"a\"): load: \"runtime\" (wall-clock busy time) or "
		     "\"run\" (calibrated loops)");
	expect_error("{\"tasks\": [{\"name\": \"a\", \"period\": \"1ms\", \"duty_cycle\": 1, "
		     "\"duration\": \"1s\"}], \"calibration\": \"CPUx\"}", TRAX_E_FORMAT,
		     "w.json: calibration: ns per loop (a positive integer) or \"CPUn\" (rt-app "
		     "calibrates on CPU n)");
	expect_error("{\"tasks\": [{\"name\": \"a\"}], \"global\": {}}", TRAX_E_FORMAT,
		     "w.json: global: unknown key (tasks, duration, calibration, markers)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_phase),
		cmocka_unit_test(test_phases),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
