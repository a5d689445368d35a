/* tests/unit/test-initial.c: "trax: initial ..." markers: parsing, counter rows (no root). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "parse/initial.h"
#include "parse/derive.h"
#include "parse/load.h"

static int parse(const char *s, struct initial_value *v)
{
	return initial_parse(s, (int)strlen(s), v);
}

static void test_parse_each_kind(void **state)
{
	struct initial_value v;

	(void)state;
	assert_int_equal(parse("trax: initial cpu_frequency cpu_id=3 state=1800000\n", &v), 1);
	assert_int_equal(v.kind, INITIAL_CPU_FREQUENCY);
	assert_int_equal(v.cpu, 3);
	assert_int_equal(v.value, 1800000);

	/* cpu_idle's state is a u32: PWR_EVENT_EXIT reads as -1, as the events are stored */
	assert_int_equal(parse("trax: initial cpu_idle cpu_id=1 state=4294967295", &v), 1);
	assert_int_equal(v.kind, INITIAL_CPU_IDLE);
	assert_int_equal(v.cpu, 1);
	assert_int_equal(v.value, -1);
	assert_int_equal(parse("trax: initial cpu_idle cpu_id=0 state=2", &v), 1);
	assert_int_equal(v.value, 2);

	/* the zone is the rest of the line, spaces included */
	assert_int_equal(parse("trax: initial thermal_temperature id=4 temp=-5000 "
			       "thermal_zone=soc thermal 2\n", &v), 1);
	assert_int_equal(v.kind, INITIAL_THERMAL);
	assert_int_equal(v.value, -5000);
	assert_string_equal(v.zone, "soc thermal 2");

	assert_int_equal(parse("trax: initial oom_score_adj_update pid=1234 oom_score_adj=-1000",
			       &v), 1);
	assert_int_equal(v.kind, INITIAL_OOM_SCORE_ADJ);
	assert_int_equal(v.pid, 1234);
	assert_int_equal(v.value, -1000);
}

static void test_parse_rejects(void **state)
{
	static const char *const bad[] = {
		"trax: start",
		"trax: initial",
		"trax: initial cpu_frequency",
		"trax: initial cpu_frequency cpu_id=0",			/* no state */
		"trax: initial cpu_frequency cpu_id=x state=1",
		"trax: initial cpu_frequency cpu_id=0 state=12abc",
		"trax: initial cpu_frequency cpu_id=-1 state=1",
		"trax: initial cpu_frequencyX cpu_id=0 state=1",
		"trax: initial thermal_temperature id=0 temp=1",	/* no zone */
		"trax: initial oom_score_adj_update pid=0 oom_score_adj=0",
		"trax: initial voltage cpu_id=0 state=1",
		"xtrax: initial cpu_idle cpu_id=0 state=1",
		"",
	};
	struct initial_value v;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse(bad[i], &v)) {
			print_error("accepted: '%s'\n", bad[i]);
			fail();
		}
	}
	/* a key must be a whole word: prev_state= is not state= */
	assert_int_equal(parse("trax: initial cpu_idle cpu_id=0 prev_state=1", &v), 0);
}

/* ---- through the loader: markers become counter rows ---- */

static const struct ld_field_def print_fields[] = {
	{ "ip", LD_INT, 0, 0, 1 }, { "buf", LD_TEXT, 0, 1, 0 },
};
static const struct ld_field_def freq_fields[] = {
	{ "state", LD_INT, 0, 0, 1 }, { "cpu_id", LD_INT, 0, 0, 1 },
};

static char *q(sqlite3 *db, const char *sql)
{
	static char buf[4096];
	sqlite3_stmt *st = NULL;
	size_t n = 0;

	buf[0] = '\0';
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		for (int i = 0; i < sqlite3_column_count(st); i++) {
			const char *s = (const char *)sqlite3_column_text(st, i);

			n += snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? "," : (n ? ";" : ""),
				      s ? s : "NULL");
		}
	}
	sqlite3_finalize(st);
	return buf;
}

static void marker(struct loader *L, struct ld_type *t, uint64_t ts, int cpu, const char *text)
{
	struct ld_val v[2] = { { .kind = LD_I64, .i = 0 },
			       { .kind = LD_STR, .s = text, .len = (int)strlen(text) } };

	ld_seen(L, 0, cpu, ts);
	assert_int_equal(ld_emit(L, t, ts, cpu, 77, 0, "trax", v), 0);
}

/*
 * The trace starts at 100 (a cpu_frequency event on CPU 1: 500000 kHz from then on). The
 * markers come at 150..180: cpu_frequency, thermal and oom_score_adj values are the values at
 * the trace start (100), cpu_idle's holds from its marker (written on that CPU). Other
 * markers are left alone.
 */
static void test_loader_counters(void **state)
{
	struct trax_error err = { 0 };
	struct ld_type *pr, *freq;
	struct ld_val fv[2] = { { .kind = LD_I64, .i = 500000 }, { .kind = LD_I64, .i = 1 } };
	struct loader *L;
	sqlite3 *db;

	(void)state;
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
	L = ld_alloc(db, NULL, &err);
	assert_non_null(L);
	ld_set_cpus(L, 1, 2);
	pr = ld_type_add(L, "ftrace", "print", 2, print_fields);
	freq = ld_type_add(L, "power", "cpu_frequency", 2, freq_fields);
	ld_seen(L, 0, 1, 100);
	assert_int_equal(ld_emit(L, freq, 100, 1, 0, 0, NULL, fv), 0);
	marker(L, pr, 150, 0, "trax: initial cpu_frequency cpu_id=0 state=1800000\n");
	marker(L, pr, 160, 0, "trax: initial cpu_idle cpu_id=0 state=4294967295\n");
	marker(L, pr, 170, 1, "trax: initial thermal_temperature id=0 temp=45000 "
	       "thermal_zone=x86_pkg_temp\n");
	marker(L, pr, 180, 1, "trax: initial oom_score_adj_update pid=4242 oom_score_adj=200\n");
	marker(L, pr, 190, 1, "trax: start\n");
	marker(L, pr, 200, 1, "trax: initial bogus cpu_id=0\n");
	assert_int_equal(ld_finish(L, NULL), 0);

	assert_string_equal(q(db, "SELECT c.ts, t.name, t.cpu, t.zone, c.value FROM counter c "
				  "JOIN track t ON t.id = c.track_id ORDER BY c.ts, t.name, t.cpu"),
			    "100,cpu_frequency,0,NULL,1800000;"
			    "100,cpu_frequency,1,NULL,500000;"
			    "100,oom_score_adj,NULL,NULL,200;"
			    "100,thermal_temperature,NULL,x86_pkg_temp,45000;"
			    "160,cpu_idle,0,NULL,-1");
	/* the oom_score_adj track belongs to the thread of pid 4242 */
	assert_string_equal(q(db, "SELECT th.pid FROM track t JOIN thread th USING (utid) "
				  "WHERE t.name = 'oom_score_adj'"), "4242");
	/* the markers stay in print */
	assert_string_equal(q(db, "SELECT count(*) FROM print"), "6");
	ld_free(L);
	sqlite3_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_each_kind),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_loader_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
