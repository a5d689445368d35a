/* tests/unit/test-android.c: Android derived tables from canned events fed to the loader. */
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

/*
 * Each case feeds events through ld_emit() (as a reader does) and reads the derived tables
 * back. Expected rows are worked out by hand from doc/db.md's definitions.
 */

struct fx {
	sqlite3 *db;
	struct loader *L;
	struct trax_error err;
	struct ld_type *print, *adj, *lmk, *victim, *init, *emit, *sig, *ion_start, *ion_end,
		*ion_fb, *ion_fail, *sync_wait, *sync_pt, *sync_tl;
};

static const struct ld_field_def print_f[] = {
	{ "ip", LD_INT, 0, 0, 1 }, { "buf", LD_TEXT, 0, 1, 0 },
};
static const struct ld_field_def adj_f[] = {
	{ "pid", LD_INT, 0, 0, 0 }, { "comm", LD_TEXT, 0, 1, 0 },
	{ "oom_score_adj", LD_INT, 0, 0, 0 },
};
static const struct ld_field_def lmk_f[] = {
	{ "comm", LD_TEXT, 0, 1, 0 }, { "pid", LD_INT, 0, 0, 0 },
	{ "pagecache_size", LD_INT, 0, 0, 0 }, { "pagecache_limit", LD_INT, 0, 0, 0 },
	{ "free", LD_INT, 0, 0, 0 },
};
static const struct ld_field_def victim_f[] = { { "pid", LD_INT, 0, 0, 0 } };
static const struct ld_field_def fence_f[] = {
	{ "driver", LD_TEXT, 0, 1, 0 }, { "timeline", LD_TEXT, 0, 1, 0 },
	{ "context", LD_INT, 0, 0, 1 }, { "seqno", LD_INT, 0, 0, 1 },
};
/* 3.4's ION: names as pointers (integers in a trace.dat no printk entry resolves) */
static const struct ld_field_def ion_f[] = {
	{ "client_name", LD_TEXT, 0, 1, 0 }, { "heap_name", LD_INT, 0, 0, 1 },
	{ "len", LD_INT, 0, 0, 1 }, { "mask", LD_INT, 0, 0, 1 }, { "flags", LD_INT, 0, 0, 1 },
	{ "error", LD_INT, 0, 0, 0 },
};
static const struct ld_field_def sync_wait_f[] = {
	{ "name", LD_TEXT, 0, 1, 0 }, { "status", LD_INT, 0, 0, 0 }, { "begin", LD_INT, 0, 0, 1 },
};
static const struct ld_field_def sync_pt_f[] = {
	{ "timeline", LD_TEXT, 0, 1, 0 }, { "value", LD_TEXT, 0, 1, 0 },
};
static const struct ld_field_def sync_tl_f[] = {
	{ "name", LD_TEXT, 0, 1, 0 }, { "value", LD_TEXT, 0, 1, 0 },
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
	f.print = ld_type_add(f.L, "ftrace", "print", 2, print_f);
	f.adj = ld_type_add(f.L, "oom", "oom_score_adj_update", 3, adj_f);
	f.lmk = ld_type_add(f.L, "lowmemorykiller", "lowmemory_kill", 5, lmk_f);
	f.victim = ld_type_add(f.L, "oom", "mark_victim", 1, victim_f);
	f.init = ld_type_add(f.L, "dma_fence", "dma_fence_init", 4, fence_f);
	f.emit = ld_type_add(f.L, "dma_fence", "dma_fence_emit", 4, fence_f);
	f.sig = ld_type_add(f.L, "dma_fence", "dma_fence_signaled", 4, fence_f);
	f.ion_start = ld_type_add(f.L, "kmem", "ion_alloc_buffer_start", 5, ion_f);
	f.ion_end = ld_type_add(f.L, "kmem", "ion_alloc_buffer_end", 5, ion_f);
	f.ion_fb = ld_type_add(f.L, "kmem", "ion_alloc_buffer_fallback", 6, ion_f);
	f.ion_fail = ld_type_add(f.L, "kmem", "ion_alloc_buffer_fail", 6, ion_f);
	f.sync_wait = ld_type_add(f.L, "sync", "sync_wait", 3, sync_wait_f);
	f.sync_pt = ld_type_add(f.L, "sync", "sync_pt", 2, sync_pt_f);
	f.sync_tl = ld_type_add(f.L, "sync", "sync_timeline", 2, sync_tl_f);
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

static void ev(struct fx *f, uint64_t ts, int pid, struct ld_type *t, const struct ld_val *v)
{
	ld_seen(f->L, 0, 0, ts);
	assert_int_equal(ld_emit(f->L, t, ts, 0, pid, 0, NULL, v), 0);
}

static void mark(struct fx *f, uint64_t ts, int pid, const char *text)
{
	struct ld_val v[2] = { I(0), S(text) };

	ev(f, ts, pid, f->print, v);
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

/* Nested B/E on two threads of one process, an unterminated B, async S/F. */
static void test_markers(void **state)
{
	struct fx *f = *state;

	mark(f, 100, 11, "B|10|outer\n");
	mark(f, 110, 12, "B|10|other thread");
	mark(f, 120, 11, "B|10|inner");
	mark(f, 150, 11, "E|10");
	mark(f, 160, 12, "E");
	mark(f, 170, 11, "E|10\n");
	mark(f, 180, 11, "S|10|job|3");
	mark(f, 190, 13, "F|10|job|3");
	mark(f, 200, 11, "B|10|open");
	mark(f, 300, 11, "hello");
	assert_int_equal(ld_finish(f->L, NULL), 0);
	/* "open" runs to the trace's last record (300): clipped */
	assert_string_equal(q(f, "SELECT s.ts, s.dur, t.pid, s.name, s.depth, coalesce(s.track, '-'),"
			      " s.clipped FROM slice s JOIN thread t USING(utid) ORDER BY s.ts"),
			    "100,70,11,outer,0,-,0;110,50,12,other thread,0,-,0;"
			    "120,30,11,inner,1,-,0;180,10,11,job,0,job,0;200,100,11,open,0,-,1");
	assert_string_equal(q(f, "SELECT DISTINCT tgid FROM thread WHERE pid IN (11, 12, 13)"), "10");
	assert_string_equal(q(f, "SELECT name FROM instant"), "hello");
	assert_string_equal(q(f, "SELECT kind, count(*) FROM anomaly GROUP BY kind"),
			    "marker_unterminated,1");
}

/* lmkd's counter and slice of one kill merge; LMK and OOM kills take the adj of the pid. */
static void test_kills(void **state)
{
	struct fx *f = *state;
	struct ld_val a1[3] = { I(500), S("bg"), I(900) }, a2[3] = { I(600), S("svc"), I(300) };
	struct ld_val lmk[5] = { S("bg"), I(500), I(1), I(2), I(3) }, vic[1] = { I(600) };

	mark(f, 100, 50, "C|50|kill_one_process|700");
	mark(f, 101, 50, "B|50|lmk,700,8,950,900,0");
	mark(f, 120, 50, "E|50");
	mark(f, 121, 50, "C|50|kill_one_process|0");
	ev(f, 200, 1, f->adj, a1);
	ev(f, 210, 1, f->adj, a2);
	ev(f, 220, 1, f->lmk, lmk);
	ev(f, 230, 1, f->victim, vic);
	assert_int_equal(ld_finish(f->L, NULL), 0);
	assert_string_equal(q(f, "SELECT ts, source, pid, coalesce(comm, '-'), oom_score_adj, reason,"
			      " coalesce(min_adj, '-') FROM kill ORDER BY ts"),
			    "100,lmkd,700,-,950,low_mem,900;220,lowmemory_kill,500,bg,900,"
			    "lowmemorykiller,-;230,mark_victim,600,svc,300,oom,-");
	assert_string_equal(q(f, "SELECT count(*) FROM counter c JOIN track t ON t.id = c.track_id "
			      "WHERE t.name = 'oom_score_adj'"), "2");
}

/* A fence initialized, emitted, signaled twice; one never signaled. */
static void test_fences(void **state)
{
	struct fx *f = *state;
	struct ld_val a[4] = { S("gpu"), S("gfx"), I(3), I(7) }, b[4] = { S("gpu"), S("gfx"), I(3),
									I(8) };

	ev(f, 100, 1, f->init, a);
	ev(f, 110, 1, f->emit, a);
	ev(f, 150, 2, f->sig, a);
	ev(f, 160, 2, f->sig, a);
	ev(f, 170, 1, f->init, b);
	assert_int_equal(ld_finish(f->L, NULL), 0);
	assert_string_equal(q(f, "SELECT seqno, init_ts, coalesce(emit_ts, '-'), "
			      "coalesce(signal_ts, '-'), signal_count FROM fence ORDER BY seqno"),
			    "7,100,110,150,2;8,170,-,-,0");
	assert_string_equal(q(f, "SELECT kind FROM anomaly"), "fence_signaled_twice");
}

/* ION: success, an attempt that falls back, a failure; heap names held as pointers. */
static void test_ion(void **state)
{
	struct fx *f = *state;
	struct ld_val s1[6] = { S("c"), I(0xc0001000), I(4096), I(1), I(0), { LD_NULL } };
	struct ld_val fb[6] = { S("c"), I(0xc0001000), I(4096), I(1), I(0), I(4294967284LL) };
	struct ld_val fl[6] = { S("c"), I(0xc0002000), I(4096), I(1), I(0), I(-12) };

	ev(f, 100, 9, f->ion_start, s1);
	ev(f, 130, 9, f->ion_end, s1);
	ev(f, 200, 9, f->ion_start, s1);
	ev(f, 260, 9, f->ion_end, s1);
	ev(f, 261, 9, f->ion_fb, fb);
	ev(f, 300, 9, f->ion_fail, fl);
	assert_int_equal(ld_finish(f->L, NULL), 0);
	/* the address prints as libtraceevent prints an unresolved pointer: hex */
	assert_string_equal(q(f, "SELECT ts, coalesce(dur, '-'), source, heap, len, ok, "
			      "coalesce(error, '-'), fallback FROM alloc ORDER BY ts"),
			    "100,30,ion,c0001000,4096,1,-,0;200,60,ion,c0001000,4096,0,-12,1;"
			    "300,-,ion_fail,c0002000,4096,0,-12,0");
}

/* sync: a wait on a point that its timeline reaches later. */
static void test_sync(void **state)
{
	struct fx *f = *state;
	struct ld_val b[3] = { S("fence"), I(1), I(1) }, e[3] = { S("fence"), I(1), I(0) };
	struct ld_val pt[2] = { S("tl"), S("5") }, tl[2] = { S("tl"), S("5") };

	ev(f, 100, 4, f->sync_wait, b);
	ev(f, 101, 4, f->sync_pt, pt);
	ev(f, 140, 5, f->sync_tl, tl);
	ev(f, 150, 4, f->sync_wait, e);
	assert_int_equal(ld_finish(f->L, NULL), 0);
	assert_string_equal(q(f, "SELECT ts, dur, source, name FROM fence_wait"),
			    "100,50,sync_wait,fence");
	assert_string_equal(q(f, "SELECT driver, timeline, seqno, init_ts, signal_ts FROM fence"),
			    "sync,tl,5,101,140");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_markers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kills, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fences, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ion, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sync, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
