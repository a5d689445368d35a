/* tests/tools/gen-slices.c: write a synthetic trax database of N sched slices (plot benchmark). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

/*
 * usage: gen-slices OUT.db NSLICES [NCPUS]
 * Each CPU runs back-to-back slices (1..200 us) of 64 tasks, one in three of them the idle
 * task (pid 0). Deterministic: the same arguments give the same database. The tables are those
 * of parse/schema.c that the charts read (meta, thread, thread_comm, sched_slice, track,
 * counter, event_type), with the same indexes.
 */

static uint64_t rng = 88172645463325252ull;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		fprintf(stderr, "gen-slices: %s: %s\n", sql, msg);
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int meta(sqlite3 *db, const char *key, const char *fmt, uint64_t v)
{
	char buf[64], *sql;
	int ret;

	snprintf(buf, sizeof(buf), fmt, v);
	sql = sqlite3_mprintf("INSERT INTO meta VALUES(%Q,%Q)", key, buf);
	ret = exec(db, sql);
	sqlite3_free(sql);
	return ret;
}

int main(int argc, char **argv)
{
	enum { NTASKS = 64 };
	const uint64_t t0 = 1000000000000ull;
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	uint64_t n, end = t0, *cpu_ts = NULL;
	int ncpus, ret = 1;
	char key[64];

	if (argc < 3) {
		fprintf(stderr, "usage: gen-slices OUT.db NSLICES [NCPUS]\n");
		return 2;
	}
	n = strtoull(argv[2], NULL, 10);
	ncpus = argc > 3 ? atoi(argv[3]) : 8;
	if (n == 0 || ncpus <= 0 || ncpus > 1024) {
		fprintf(stderr, "gen-slices: bad NSLICES or NCPUS\n");
		return 2;
	}
	unlink(argv[1]);
	if (sqlite3_open(argv[1], &db) != SQLITE_OK) {
		fprintf(stderr, "gen-slices: %s: %s\n", argv[1], sqlite3_errmsg(db));
		goto out;
	}
	if (exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;"
		 "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
		 "CREATE TABLE event_type(id INTEGER PRIMARY KEY, system TEXT, name TEXT,"
		 " table_name TEXT, count INTEGER);"
		 "CREATE TABLE lost_event(ts INTEGER, cpu INTEGER, buffer INTEGER, count INTEGER);"
		 "CREATE TABLE thread(utid INTEGER PRIMARY KEY, pid INTEGER, tgid INTEGER,"
		 " comm TEXT, start_ts INTEGER, end_ts INTEGER);"
		 "CREATE TABLE thread_comm(utid INTEGER, ts INTEGER, comm TEXT);"
		 "CREATE TABLE sched_slice(ts INTEGER, dur INTEGER, cpu INTEGER, utid INTEGER,"
		 " pid INTEGER, prio INTEGER, end_state TEXT, clipped INTEGER, buffer INTEGER);"
		 "CREATE TABLE thread_state(ts INTEGER, dur INTEGER, utid INTEGER, state TEXT,"
		 " cpu INTEGER, waker_utid INTEGER, buffer INTEGER);"
		 "CREATE TABLE track(id INTEGER PRIMARY KEY, name TEXT, kind TEXT, cpu INTEGER,"
		 " utid INTEGER, zone TEXT, unit TEXT, buffer INTEGER);"
		 "CREATE TABLE counter(ts INTEGER, track_id INTEGER, value NUMERIC);"))
		goto out;
	/* utid 0..ncpus-1: the idle task of each CPU (pid 0); then NTASKS tasks. */
	for (int i = 0; i < ncpus + NTASKS; i++) {
		char *sql = i < ncpus ?
			sqlite3_mprintf("INSERT INTO thread VALUES(%d,0,0,'swapper/%d',NULL,NULL);"
					"INSERT INTO thread_comm VALUES(%d,1000000000000,"
					"'swapper/%d')",
					i, i, i, i) :
			sqlite3_mprintf("INSERT INTO thread VALUES(%d,%d,%d,'task-%d',NULL,NULL);"
					"INSERT INTO thread_comm VALUES(%d,1000000000000,"
					"'task-%d')",
					i, 1000 + i, 1000 + i, i - ncpus, i, i - ncpus);
		int r = exec(db, sql);

		sqlite3_free(sql);
		if (r)
			goto out;
	}
	if (sqlite3_prepare_v2(db, "INSERT INTO sched_slice VALUES(?,?,?,?,?,120,'S',0,0)", -1,
			       &st, NULL) != SQLITE_OK)
		goto out;
	/* Rows in time order across CPUs, as the loader writes them. */
	cpu_ts = calloc(ncpus, sizeof(*cpu_ts));
	if (!cpu_ts)
		goto out;
	for (int c = 0; c < ncpus; c++)
		cpu_ts[c] = t0;
	for (uint64_t k = 0; k < n; k++) {
		int c = 0;
		uint64_t dur = 1000 + next_rand() % 199000;
		int task = next_rand() % 3 == 0 ? -1 : (int)(next_rand() % NTASKS);
		int utid;

		for (int i = 1; i < ncpus; i++)
			if (cpu_ts[i] < cpu_ts[c])
				c = i;
		utid = task < 0 ? c : ncpus + task;
		sqlite3_bind_int64(st, 1, (int64_t)cpu_ts[c]);
		sqlite3_bind_int64(st, 2, (int64_t)dur);
		sqlite3_bind_int(st, 3, c);
		sqlite3_bind_int(st, 4, utid);
		sqlite3_bind_int(st, 5, task < 0 ? 0 : 1000 + utid);
		if (sqlite3_step(st) != SQLITE_DONE) {
			fprintf(stderr, "gen-slices: %s\n", sqlite3_errmsg(db));
			goto out;
		}
		sqlite3_reset(st);
		cpu_ts[c] += dur;
	}
	for (int c = 0; c < ncpus; c++) {
		if (cpu_ts[c] > end)
			end = cpu_ts[c];
		snprintf(key, sizeof(key), "cpu.%d.first_ts", c);
		meta(db, key, "%" PRIu64, t0);
		snprintf(key, sizeof(key), "cpu.%d.last_ts", c);
		meta(db, key, "%" PRIu64, cpu_ts[c]);
		snprintf(key, sizeof(key), "cpu.%d.lost_events", c);
		meta(db, key, "%" PRIu64, 0);
	}
	if (meta(db, "trax.version", "synthetic", 0) || meta(db, "format", "synthetic", 0) ||
	    meta(db, "source.path", "gen-slices", 0) || meta(db, "cpus", "%" PRIu64, ncpus) ||
	    meta(db, "trace.start_ts", "%" PRIu64, t0) ||
	    meta(db, "trace.end_ts", "%" PRIu64, end) ||
	    meta(db, "trace.complete_start_ts", "%" PRIu64, t0) || meta(db, "events", "all", 0))
		goto out;
	{
		char *sql = sqlite3_mprintf("INSERT INTO event_type VALUES(1,'sched',"
					    "'sched_switch','sched_switch',%lld)", (long long)n);
		int r = exec(db, sql);

		sqlite3_free(sql);
		if (r)
			goto out;
	}
	if (exec(db, "CREATE INDEX sched_slice_utid ON sched_slice(utid, ts);"
		 "CREATE INDEX sched_slice_cpu ON sched_slice(cpu, ts);"
		 "CREATE INDEX thread_state_utid ON thread_state(utid, ts);"
		 "CREATE INDEX counter_track ON counter(track_id, ts);"
		 "CREATE INDEX thread_comm_utid ON thread_comm(utid, ts);"
		 "CREATE INDEX thread_pid ON thread(pid); COMMIT;"))
		goto out;
	ret = 0;
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(cpu_ts);
	if (ret)
		unlink(argv[1]);
	return ret;
}
