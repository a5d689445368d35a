/* tests/unit/test-derive.c: derived tables from canned events fed to the loader (no root). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "parse/derive.h"
#include "parse/load.h"
#include "tests/unit/canned.h"

struct fx {
	sqlite3 *db;
	struct loader *L;
	struct trax_error err;
	struct ld_type *sw, *waking, *exec, *cpu_idle;
};

static const struct ld_field_def exec_fields[] = {
	{ "filename", LD_TEXT, 0, 1, 0 }, { "pid", LD_INT, 0, 0, 0 }, { "old_pid", LD_INT, 0, 0, 0 },
};
static int setup(void **state)
{
	static struct fx f;

	memset(&f, 0, sizeof(f));
	assert_int_equal(sqlite3_open(":memory:", &f.db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(f.db, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
	f.L = ld_alloc(f.db, NULL, &f.err);
	assert_non_null(f.L);
	ld_set_cpus(f.L, 1, 2);
	f.sw = ld_type_add(f.L, "sched", "sched_switch", 7, switch_fields);
	f.waking = ld_type_add(f.L, "sched", "sched_waking", 4, waking_fields);
	f.exec = ld_type_add(f.L, "sched", "sched_process_exec", 3, exec_fields);
	f.cpu_idle = ld_type_add(f.L, "power", "cpu_idle", 2, cpu_state_fields);
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	ld_free(f->L);
	sqlite3_close(f->db);
	return 0;
}

static void sw(struct fx *f, uint64_t ts, int cpu, const char *pc, int pp, int64_t pstate,
	       const char *nc, int np)
{
	struct ld_val v[7] = { S(pc), I(pp), I(120), I(pstate), S(nc), I(np), I(120) };

	ld_seen(f->L, 0, cpu, ts);
	assert_int_equal(ld_emit(f->L, f->sw, ts, cpu, pp, 0, NULL, v), 0);
}

static void seen(struct fx *f, uint64_t ts, int cpu, struct ld_type *t, int pid,
		 struct ld_val *v)
{
	ld_seen(f->L, 0, cpu, ts);
	if (t)
		assert_int_equal(ld_emit(f->L, t, ts, cpu, pid, 0, NULL, v), 0);
}

static char *q(struct fx *f, const char *sql)
{
	static char buf[4096];
	sqlite3_stmt *st = NULL;
	size_t n = 0;

	buf[0] = '\0';
	assert_int_equal(sqlite3_prepare_v2(f->db, sql, -1, &st, NULL), SQLITE_OK);
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

/*
 * CPU 0: first record at 100 (an idle event), a switches out preempted at 200 (b runs),
 * b sleeps at 500 (idle runs), b is woken at 700 by pid 0 and runs at 800, the last record of the
 * trace is at 1000 on CPU 1. Slices, worked by hand from DESIGN.md's semantics:
 *   a   [100, 200)  clipped 1 (counted from CPU 0's first record), end R+
 *   b   [200, 500)  end S
 *   idle[500, 800)  end R
 *   b   [800, 1000) clipped 2 (still running at the end)
 */
static void test_slices_and_states(void **state)
{
	struct fx *f = *state;
	struct ld_val idle[2] = { I(1), I(0) };
	struct ld_val wk[4] = { S("b"), I(20), I(120), I(0) };

	seen(f, 100, 0, f->cpu_idle, 0, idle);
	sw(f, 200, 0, "a", 10, 256, "b", 20);		/* 256: preempted (R+) */
	sw(f, 500, 0, "b", 20, 1, "swapper/0", 0);	/* 1: S */
	seen(f, 700, 0, f->waking, 0, wk);
	sw(f, 800, 0, "swapper/0", 0, 0, "b", 20);
	seen(f, 1000, 1, NULL, 0, NULL);
	assert_int_equal(ld_finish(f->L, NULL), 0);

	assert_string_equal(q(f, "SELECT ts, dur, pid, end_state, clipped FROM sched_slice "
				 "ORDER BY ts"),
			    "100,100,10,R+,1;200,300,20,S,0;500,300,0,R,0;800,200,20,NULL,2");
	/* b: running 200-500, sleeping 500-700, woken (runnable, waker idle) 700-800, running */
	assert_string_equal(q(f, "SELECT s.ts, s.dur, s.state, s.cpu FROM thread_state s JOIN thread "
				 "t USING(utid) WHERE t.pid = 20 ORDER BY s.ts"),
			    "200,300,Running,0;500,200,S,NULL;700,100,R,0;800,200,Running,0");
	/* a: preempted from 200 to the end */
	assert_string_equal(q(f, "SELECT s.ts, s.dur, s.state FROM thread_state s JOIN thread t "
				 "USING(utid) WHERE t.pid = 10"), "200,800,R+");
	assert_string_equal(q(f, "SELECT value FROM meta WHERE key = 'cpu.0.first_ts'"), "100");
	assert_string_equal(q(f, "SELECT value FROM meta WHERE key = 'trace.end_ts'"), "1000");
	/* cpu_idle counter keyed by cpu_id, unit none */
	assert_string_equal(q(f, "SELECT t.name, t.cpu, c.ts, c.value FROM counter c JOIN track t "
				 "ON t.id = c.track_id"), "cpu_idle,0,100,1");
}

/* pid 30 exits (switched out dead, X = 16) and the pid comes back: two thread lifetimes. */
static void test_pid_reuse_and_exec(void **state)
{
	struct fx *f = *state;
	struct ld_val ex[3] = { S("/usr/bin/ls"), I(30), I(30) };

	seen(f, 50, 0, NULL, 0, NULL);
	sw(f, 100, 0, "swapper/0", 0, 0, "sh", 30);
	seen(f, 150, 0, f->exec, 30, ex);
	sw(f, 200, 0, "ls", 30, 16, "swapper/0", 0);
	sw(f, 300, 0, "swapper/0", 0, 0, "worker", 30);
	sw(f, 400, 0, "worker", 30, 1, "swapper/0", 0);
	assert_int_equal(ld_finish(f->L, NULL), 0);

	assert_string_equal(q(f, "SELECT count(*) FROM thread WHERE pid = 30"), "2");
	assert_string_equal(q(f, "SELECT group_concat(c.comm, '>') FROM (SELECT c.comm FROM "
				 "thread_comm c JOIN thread t USING(utid) WHERE t.pid = 30 ORDER BY "
				 "t.utid, c.ts) c"), "sh>ls>worker");
	assert_string_equal(q(f, "SELECT t.comm, t.start_ts, t.end_ts FROM thread t WHERE pid = 30 "
				 "ORDER BY utid"), "ls,100,200;worker,300,400");
	assert_string_equal(q(f, "SELECT count(DISTINCT utid) FROM sched_slice WHERE pid = 30"), "2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_slices_and_states, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pid_reuse_and_exec, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
