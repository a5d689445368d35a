/* tests/unit/test-metrics.c: the metrics library (assert/assert.h) on a canned trace, by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "assert/assert.h"
#include "parse/derive.h"
#include "parse/load.h"
#include "tests/unit/canned.h"

/*
 * The canned trace (times in us, one CPU unless said; T = task "t", pid 10, woken by pid 0):
 *   0     first record (cpu_frequency 1000000 kHz on CPU 0)
 *   100   waking T                         |  T's wakeups: 100, 1100, 2100 (latency 50 each)
 *   150   idle -> T        (T runs 150-400, then sleeps)
 *   400   T -> idle (S)
 *   1000  cpu_frequency 2000000 kHz
 *   1100  waking T, 1150 idle -> T (runs 1150-1300, preempted), 1300 T -> U (R+), U pid 20
 *   1400  U -> T (1400-1500 on CPU 0), 1500 T -> idle (S)
 *   2100  waking T, 2150 idle -> T on CPU 1 (2150-2400), 2400 T -> idle (S) on CPU 1
 *   3000  last record (CPU 1)
 * Worked by hand:
 *   runtime(T) = 250 + 150 + 100 + 250 = 750 us; on CPU 0: 500 us -> residency 66.667 %
 *   activations = 3 (150, 1150, 2150; 1400 follows a preemption); period = median(1000, 1000)
 *   = 1000 us; wakeup latency: 50, 50, 50; preempted = 1300-1400 = 100 us; migrations = 1
 *   cpu_frequency on CPU 0: 1 GHz over [0, 1000), 2 GHz over [1000, 3000]:
 *   time-weighted mean = (1*1000 + 2*2000)/3000 GHz = 1.6667 GHz; p50 = 2 GHz; min 1 GHz;
 *   time_above 1.5 GHz = 2000 us = 66.667 % of the 3000 us covered.
 */
struct fx {
	sqlite3 *db;
	struct trax_trace_info ti;
};

#define US 1000

static struct loader *L;
static struct ld_type *tsw, *twk, *tfq;

static void sw(uint64_t us, int cpu, const char *pc, int pp, int64_t st, const char *nc, int np)
{
	struct ld_val v[7] = { S(pc), I(pp), I(120), I(st), S(nc), I(np), I(120) };

	ld_seen(L, 0, cpu, us * US);
	ld_emit(L, tsw, us * US, cpu, pp, 0, NULL, v);
}

static void wk(uint64_t us, int cpu, int target)
{
	struct ld_val v[4] = { S("t"), I(10), I(120), I(target) };

	ld_seen(L, 0, cpu, us * US);
	ld_emit(L, twk, us * US, cpu, 0, 0, NULL, v);
}

static void fq(uint64_t us, int64_t khz)
{
	struct ld_val v[2] = { I(khz), I(0) };

	ld_seen(L, 0, 0, us * US);
	ld_emit(L, tfq, us * US, 0, 0, 0, NULL, v);
}

static int setup(void **state)
{
	static struct fx f;
	struct trax_error err = { 0 };

	memset(&f, 0, sizeof(f));
	assert_int_equal(sqlite3_open(":memory:", &f.db), SQLITE_OK);
	sqlite3_exec(f.db, "BEGIN", NULL, NULL, NULL);
	L = ld_alloc(f.db, NULL, &err);
	ld_set_cpus(L, 1, 2);
	ld_meta(L, "cpus", "2");
	tsw = ld_type_add(L, "sched", "sched_switch", 7, switch_fields);
	twk = ld_type_add(L, "sched", "sched_waking", 4, waking_fields);
	tfq = ld_type_add(L, "power", "cpu_frequency", 2, cpu_state_fields);
	fq(0, 1000000);
	ld_seen(L, 0, 1, 50 * US);
	wk(100, 0, 0);
	sw(150, 0, "swapper/0", 0, 0, "t", 10);
	sw(400, 0, "t", 10, 1, "swapper/0", 0);
	fq(1000, 2000000);
	wk(1100, 0, 0);
	sw(1150, 0, "swapper/0", 0, 0, "t", 10);
	sw(1300, 0, "t", 10, 256, "u", 20);
	sw(1400, 0, "u", 20, 1, "t", 10);
	sw(1500, 0, "t", 10, 1, "swapper/0", 0);
	wk(2100, 0, 1);
	sw(2150, 1, "swapper/1", 0, 0, "t", 10);
	sw(2400, 1, "t", 10, 1, "swapper/1", 0);
	ld_seen(L, 0, 1, 3000 * US);
	assert_int_equal(ld_finish(L, NULL), 0);
	ld_free(L);
	sqlite3_exec(f.db, "COMMIT", NULL, NULL, NULL);
	assert_int_equal(trax_trace_info_read(f.db, &f.ti, &err), 0);
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	sqlite3_close(f->db);
	return 0;
}

/* The value of the only rule in json for the task with pid 10 over the whole trace. */
static double value(struct fx *f, const char *rule)
{
	char json[1024];
	struct trax_rules *rs = NULL;
	struct trax_error err = { 0 };
	struct trax_task *tasks = NULL;
	struct trax_span span;
	struct trax_value v;
	char reason[128];
	int n = 0, utid = -1;

	snprintf(json, sizeof(json), "{\"rules\": [%s]}", rule);
	if (trax_rules_parse(json, "t.json", &rs, NULL, &err))
		fail_msg("%s", err.msg);
	if (rs->rules[0].task.kind != TRAX_SEL_NONE) {
		assert_int_equal(trax_select_tasks(f->db, &rs->rules[0].task, &tasks, &n, &err), 0);
		assert_int_equal(n, 1);
		utid = tasks[0].utid;
	}
	assert_int_equal(trax_window_resolve(f->db, &rs->rules[0].window, &f->ti, &span, reason,
					     sizeof(reason), &err), 0);
	assert_int_equal(trax_metric_eval(f->db, &rs->rules[0], &utid, utid >= 0, &span, &f->ti,
					  0, &v, &err), 0);
	if (!v.defined)
		fail_msg("undefined: %s", v.reason);
	free(tasks);
	trax_rules_free(rs);
	return v.v;
}

#define T "\"task\": \"t\""

static void test_sched(void **state)
{
	struct fx *f = *state;

	assert_true(fabs(value(f, "{\"metric\": \"runtime\", " T ", \"expect\": \"> 0 s\"}") -
			 750 * US) < 1e-6);
	assert_true(fabs(value(f, "{\"metric\": \"residency\", " T ", \"cpus\": [0], \"expect\": "
			       "\"> 0 %\"}") - 100.0 * 500 / 750) < 1e-9);
	assert_true(value(f, "{\"metric\": \"residency\", " T ", \"cpus\": [1], \"expect\": "
			  "\"> 0 ms\"}") == 250 * US);
	assert_true(value(f, "{\"metric\": \"activations\", " T ", \"expect\": \"> 0\"}") == 3);
	assert_true(value(f, "{\"metric\": \"period\", " T ", \"expect\": \"> 0 s\"}") == 1000 * US);
	assert_true(value(f, "{\"metric\": \"wakeup_latency\", " T ", \"stat\": \"max\", "
			  "\"expect\": \"> 0 s\"}") == 50 * US);
	assert_true(value(f, "{\"metric\": \"wakeup_latency\", " T ", \"stat\": \"count\", "
			  "\"expect\": \"> 0\"}") == 3);
	assert_true(value(f, "{\"metric\": \"preempted\", " T ", \"expect\": \"> 0 s\"}") ==
		    100 * US);
	assert_true(value(f, "{\"metric\": \"migrations\", " T ", \"expect\": \"> 0\"}") == 1);
	assert_true(value(f, "{\"metric\": \"first_cpu\", " T ", \"expect\": \"== 0\"}") == 0);
	assert_true(value(f, "{\"metric\": \"last_cpu\", " T ", \"expect\": \"== 1\"}") == 1);
	assert_true(value(f, "{\"metric\": \"start_time\", " T ", \"expect\": \"> 0 s\"}") ==
		    150 * US);
	assert_true(value(f, "{\"metric\": \"end_time\", " T ", \"expect\": \"> 0 s\"}") == 2400 * US);
	/* duty cycle over the whole 3000 us trace: 750 / 3000 */
	assert_true(fabs(value(f, "{\"metric\": \"duty_cycle\", " T ", \"expect\": \"> 0 %\"}") -
			 25.0) < 1e-9);
	/* a window cuts slices: [200, 1200] us holds 200 + 50 us of T */
	assert_true(value(f, "{\"metric\": \"runtime\", " T ", \"window\": {\"start\": \"0.0002\", "
			  "\"end\": \"0.0012\"}, \"expect\": \"> 0 s\"}") == 250 * US);
	/* busy on CPU 0 (every task but idle): T 500 + U 100 over 3000 us */
	assert_true(fabs(value(f, "{\"metric\": \"busy\", \"cpus\": [0], \"expect\": \"> 0 %\"}") -
			 100.0 * 600 / 3000) < 1e-9);
}

static void test_counters(void **state)
{
	struct fx *f = *state;

	assert_true(fabs(value(f, "{\"metric\": \"counter\", \"track\": \"cpu_frequency\", \"stat\": "
			       "\"mean\", \"expect\": \"> 0 Hz\"}") - 5e9 / 3) < 1);
	assert_true(value(f, "{\"metric\": \"counter\", \"track\": \"cpu_frequency\", \"stat\": "
			  "\"p50\", \"expect\": \"> 0 Hz\"}") == 2e9);
	assert_true(value(f, "{\"metric\": \"counter\", \"track\": \"cpu_frequency\", \"stat\": "
			  "\"min\", \"expect\": \"> 0 Hz\"}") == 1e9);
	assert_true(fabs(value(f, "{\"metric\": \"counter\", \"track\": \"cpu_frequency\", \"stat\": "
			       "\"time_above\", \"level\": \"1.5 GHz\", \"expect\": \"> 0 %\"}") -
			 100.0 * 2 / 3) < 1e-9);
	assert_true(value(f, "{\"metric\": \"counter\", \"track\": \"cpu_frequency\", \"stat\": "
			  "\"time_above\", \"level\": \"1.5 GHz\", \"expect\": \"> 0 s\"}") ==
		    2000 * US);
	assert_true(value(f, "{\"metric\": \"counter\", \"track\": \"cpu_frequency\", \"stat\": "
			  "\"count\", \"expect\": \"> 0\"}") == 2);
}

/* numpy.percentile([1, 2, 3, 4], q) for q = 0, 25, 50, 90, 100: 1, 1.75, 2.5, 3.7, 4 */
static void test_check_db(void **state)
{
	struct fx *f = *state;
	struct trax_rules *rs = NULL;
	struct trax_error err = { 0 };
	struct trax_verdicts v = { 0 };

	assert_int_equal(trax_rules_parse("{\"rules\": ["
		"{\"id\": \"a\", \"metric\": \"runtime\", \"task\": \"t\", \"expect\": \"== 750 us\"},"
		"{\"id\": \"b\", \"metric\": \"runtime\", \"task\": \"nobody\", \"expect\": \">= 0 s\"},"
		"{\"id\": \"c\", \"metric\": \"thermal_residency\", \"zone\": \"z\", \"range\": [0, 1],"
		" \"expect\": \"> 0 %\"}]}", "t.json", &rs, NULL, &err), 0);
	assert_int_equal(trax_check_db(rs, f->db, "canned", &v, &err), 0);
	assert_int_equal(v.n, 3);
	assert_int_equal(v.res[0].verdict, TRAX_PASS);
	assert_int_equal(v.res[1].verdict, TRAX_FAIL);
	assert_string_equal(v.res[1].reason, "no task matches nobody in this trace");
	assert_int_equal(v.res[2].verdict, TRAX_SKIP);
	assert_int_equal(trax_verdicts_exit_status(&v), 1);
	trax_verdicts_release(&v);
	trax_rules_free(rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sched),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_check_db),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
