/* cmd/cmd-info.c: `trax info`: what a trace holds. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert/assert.h"
#include "cmd/cmd.h"
#include "parse/parse.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

const char cmd_info_usage[] =
	"usage: trax info TRACE|DB [--tasks N]\n"
	"\n"
	"Summarize a trace or trax database: source, time range, CPUs, the target's facts\n"
	"(topology), per-event counts, the busiest tasks, lost events and unparsed records.\n"
	"\n"
	"  -n, --tasks N   how many tasks to list (default 10; 0: none)\n"
	"  -h, --help      this help\n"
	"\n"
	"Exit status: 0 success, 2 usage or input error.\n";

static double secs(const char *ns)
{
	return ns ? strtoull(ns, NULL, 10) / 1e9 : 0;
}

/* Android derived tables (doc/db.md) when they have rows, and what could not be read. */
static void info_android(sqlite3 *db)
{
	static const char *const q[][2] = {
		{ "slices (atrace B/E, S/F)", "SELECT count(*) FROM slice" },
		{ "instants (markers)", "SELECT count(*) FROM instant" },
		{ "atrace counters", "SELECT count(*) FROM counter JOIN track ON track.id = "
		  "counter.track_id WHERE track.kind = 'atrace'" },
		{ "kills", "SELECT count(*) FROM kill" },
		{ "allocations (alloc)", "SELECT count(*) FROM alloc" },
		{ "fences", "SELECT count(*) FROM fence" },
		{ "fence waits", "SELECT count(*) FROM fence_wait" },
	};
	sqlite3_stmt *st = NULL;
	int first = 1;

	for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		if (sqlite3_prepare_v2(db, q[i][1], -1, &st, NULL) == SQLITE_OK &&
		    sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) > 0) {
			if (first)
				printf("android:\n");
			first = 0;
			printf("  %-40s %12lld\n", q[i][0], (long long)sqlite3_column_int64(st, 0));
		}
		sqlite3_finalize(st);
		st = NULL;
	}
	if (sqlite3_prepare_v2(db, "SELECT kind, count(*), min(ts) FROM anomaly GROUP BY kind "
			       "ORDER BY 2 DESC, 1", -1, &st, NULL) == SQLITE_OK) {
		first = 1;
		while (sqlite3_step(st) == SQLITE_ROW) {
			if (first)
				printf("malformed or unpaired (anomaly table):\n");
			first = 0;
			printf("  %-40s %12lld  first at %.6f s\n",
			       (const char *)sqlite3_column_text(st, 0),
			       (long long)sqlite3_column_int64(st, 1),
			       sqlite3_column_int64(st, 2) / 1e9);
		}
	}
	sqlite3_finalize(st);
}

/* Per-event row counts and records that could not be parsed. */
static void info_events(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int first = 1;

	printf("events:\n");
	if (sqlite3_prepare_v2(db, "SELECT system, name, count FROM event_type WHERE count > 0 "
			       "ORDER BY count DESC, name", -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			printf("  %-40s %12lld\n", (const char *)sqlite3_column_text(st, 1),
			       (long long)sqlite3_column_int64(st, 2));
			first = 0;
		}
	}
	sqlite3_finalize(st);
	st = NULL;
	if (first)
		printf("  (none)\n");
	if (sqlite3_prepare_v2(db, "SELECT name, count(*) FROM raw_event GROUP BY name ORDER BY 2 "
			       "DESC", -1, &st, NULL) == SQLITE_OK) {
		first = 1;
		while (sqlite3_step(st) == SQLITE_ROW) {
			if (first)
				printf("unparsed records (raw_event):\n");
			first = 0;
			printf("  %-40s %12lld\n", (const char *)sqlite3_column_text(st, 0),
			       (long long)sqlite3_column_int64(st, 1));
		}
	}
	sqlite3_finalize(st);
}

/* The thread count, then the ntasks busiest tasks (none when ntasks is 0). */
static void info_tasks(sqlite3 *db, int ntasks)
{
	sqlite3_stmt *st = NULL;
	int first = 1;

	/* threads: lifetimes other than the idle task; processes: distinct tgids */
	if (sqlite3_prepare_v2(db, "SELECT count(*), count(DISTINCT tgid), count(*) - count(tgid) "
			       "FROM thread WHERE pid != 0", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		long long unknown = sqlite3_column_int64(st, 2);

		printf("tasks:    %lld threads in %lld processes", (long long)sqlite3_column_int64(st, 0),
		       (long long)sqlite3_column_int64(st, 1));
		if (unknown)
			printf(" (%lld threads of unknown process)", unknown);
		printf("\n");
	}
	sqlite3_finalize(st);
	st = NULL;
	if (ntasks == 0 ||
	    sqlite3_prepare_v2(db, "SELECT t.pid, t.comm, sum(s.dur) AS run, count(*) FROM "
			       "sched_slice s JOIN thread t USING(utid) WHERE t.pid != 0 GROUP BY "
			       "s.utid ORDER BY run DESC LIMIT ?", -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int(st, 1, ntasks);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (first)
			printf("  %8s  %-20s %14s %8s\n", "pid", "comm", "runtime (s)", "slices");
		first = 0;
		printf("  %8lld  %-20s %14.6f %8lld\n", (long long)sqlite3_column_int64(st, 0),
		       sqlite3_column_text(st, 1) ? (const char *)sqlite3_column_text(st, 1) : "?",
		       sqlite3_column_int64(st, 2) / 1e9, (long long)sqlite3_column_int64(st, 3));
	}
	sqlite3_finalize(st);
}

/* Lost events per CPU, from meta. */
static void info_lost(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int first = 1;

	printf("lost events:");
	if (sqlite3_prepare_v2(db, "SELECT key, value FROM meta WHERE key LIKE '%cpu.%.lost_events' "
			       "AND value != '0' ORDER BY key", -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			printf("%s %s=%s", first ? "" : ",", (const char *)sqlite3_column_text(st, 0),
			       (const char *)sqlite3_column_text(st, 1));
			first = 0;
		}
	}
	sqlite3_finalize(st);
	printf("%s\n", first ? " none" : "");
	/* what the kernel's own counts say the ring buffers lost (trace.dat cpustats, Perfetto
	 * ftrace_stats): also where no record marks the place */
	first = 1;
	if (sqlite3_prepare_v2(db, "SELECT key, value FROM meta WHERE (key LIKE '%cpu.%.overrun' "
			       "OR key LIKE '%cpu.%.dropped_events') AND value != '0' ORDER BY key",
			       -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			printf("%s %s=%s", first ? "ring buffer counts:" : ",",
			       (const char *)sqlite3_column_text(st, 0),
			       (const char *)sqlite3_column_text(st, 1));
			first = 0;
		}
	}
	sqlite3_finalize(st);
	if (!first)
		printf("\n");
}

/* Switches that do not follow on from the CPU's last one, per CPU (parse/derive.c). */
static void info_unseen(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, "SELECT substr(key, 28), value FROM meta WHERE key LIKE "
			       "'sched.switch_out_unseen_in.%' ORDER BY length(key), key", -1, &st,
			       NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *where = (const char *)sqlite3_column_text(st, 0);
			int buf = 0, cpu = -1;

			if (sscanf(where, "cpu%d", &cpu) != 1 &&
			    sscanf(where, "buffer%d.cpu%d", &buf, &cpu) != 2)
				continue;
			if (buf)
				printf("buffer %d, ", buf);
			printf("CPU %d: %s switch-outs of tasks never seen switched in (slices bounded "
			       "from wakeups and migrations)\n", cpu,
			       (const char *)sqlite3_column_text(st, 1));
		}
	}
	sqlite3_finalize(st);
}

/*
 * What a Perfetto trace holds that trax did not read (parse/perfetto.c counts it in meta):
 * packets by kind, compact_sched bundles, ftrace events it does not decode (in raw_event).
 */
static void info_unread(sqlite3 *db)
{
	static const char *const sql[] = {
		"SELECT substr(key, 25), value FROM meta WHERE key LIKE 'perfetto.packets.unused.%' "
		"ORDER BY CAST(value AS INTEGER) DESC, key",
		"SELECT CASE substr(key, 32) WHEN 'other' THEN 'others' ELSE 'ftrace_event_' || "
		"substr(key, 32) END, value FROM meta WHERE key LIKE "
		"'perfetto.ftrace.events.unknown.%' ORDER BY CAST(value AS INTEGER) DESC, key",
	};
	static const char *const what[] = { "packets", "ftrace events (in raw_event)" };
	char *total = trax_db_meta(db, "perfetto.packets");

	if (!total)
		return;
	for (int i = 0; i < 2; i++) {
		sqlite3_stmt *st = NULL;
		int64_t sum = 0;
		struct strbuf sb = STRBUF_INIT;

		if (sqlite3_prepare_v2(db, sql[i], -1, &st, NULL) == SQLITE_OK) {
			while (sqlite3_step(st) == SQLITE_ROW) {
				strbuf_addf(&sb, "%s%s %s", sb.len ? ", " : "",
					    (const char *)sqlite3_column_text(st, 0),
					    (const char *)sqlite3_column_text(st, 1));
				sum += sqlite3_column_int64(st, 1);
			}
		}
		sqlite3_finalize(st);
		if (sum && !i)
			printf("not read: %lld of %s %s: %s\n", (long long)sum, total, what[i],
			       sb.buf);
		else if (sum)
			printf("not read: %lld %s: %s\n", (long long)sum, what[i], sb.buf);
		strbuf_release(&sb);
	}
	free(total);
}

/* How a Perfetto trace was compressed (parse/perfetto.c): the file gzip'd, packets in
 * compressed_packets. */
static void info_compression(sqlite3 *db)
{
	char *gz = trax_db_meta(db, "perfetto.gunzipped_size");
	char *n = trax_db_meta(db, "perfetto.compressed_packets");
	char *in = trax_db_meta(db, "perfetto.compressed_packets.inflated_size");
	int blobs = n && strcmp(n, "0");

	if (gz || blobs) {
		printf("compress: ");
		if (gz)
			printf("gzip (%s bytes gunzipped)%s", gz, blobs ? "; " : "");
		if (blobs)
			printf("%s compressed_packets (%s bytes inflated)", n, in ? in : "?");
		printf("\n");
	}
	free(gz);
	free(n);
	free(in);
}

/* Source, time range, CPUs, kernel, clock and what was loaded, from meta. */
static void info_meta(sqlite3 *db)
{
	char *v[8] = { 0 };

	v[0] = trax_db_meta(db, "source.path");
	v[1] = trax_db_meta(db, "format");
	v[2] = trax_db_meta(db, "source.size");
	printf("source:   %s (%s, %s bytes)\n", v[0] ? v[0] : "?", v[1] ? v[1] : "?",
	       v[2] ? v[2] : "?");
	info_compression(db);
	v[3] = trax_db_meta(db, "trace.start_ts");
	v[4] = trax_db_meta(db, "trace.end_ts");
	v[5] = trax_db_meta(db, "trace.complete_start_ts");
	printf("time:     %.6f .. %.6f s (%.6f s)", secs(v[3]), secs(v[4]),
	       secs(v[4]) - secs(v[3]));
	if (v[5] && v[3] && strcmp(v[5], v[3]))
		printf("; every CPU recorded from %.6f s", secs(v[5]));
	printf("\n");
	for (int i = 0; i < 6; i++) {
		free(v[i]);
		v[i] = NULL;
	}
	v[0] = trax_db_meta(db, "cpus");
	v[1] = trax_db_meta(db, "kernel");
	v[2] = trax_db_meta(db, "trace_clock");
	v[3] = trax_db_meta(db, "events");
	printf("cpus:     %s\n", v[0] ? v[0] : "?");
	if (v[1])
		printf("kernel:   %s\n", v[1]);
	if (v[2]) {
		char *rt = trax_db_meta(db, "clock.boot_to_realtime_ns");

		/* a Perfetto clock snapshot maps the boot clock to wall time */
		if (rt && !strcmp(v[2], "boot")) {
			long long ns = strtoll(rt, NULL, 10);
			unsigned long long a = ns < 0 ? 0ULL - (unsigned long long)ns :
					       (unsigned long long)ns;

			printf("clock:    %s (realtime = boot %c %llu.%09llu s, from the trace's "
			       "clock snapshot)\n", v[2], ns < 0 ? '-' : '+', a / 1000000000ULL,
			       a % 1000000000ULL);
		} else {
			printf("clock:    %s\n", v[2]);
		}
		free(rt);
	}
	if (v[3] && strcmp(v[3], "all"))
		printf("loaded:   only %s\n", v[3]);
	for (int i = 0; i < 4; i++)
		free(v[i]);
	/* how sched_switch's prev_state numbers were read (doc/db.md "prev_state numberings") */
	v[0] = trax_db_meta(db, "sched.prev_state_numbering");
	v[1] = trax_db_meta(db, "sched.prev_state_numbering.reason");
	v[2] = trax_db_meta(db, "sched.prev_state_preempted");
	if (v[0] && !strcmp(v[0], "format"))
		printf("states:   prev_state decoded with %s\n", v[1] ? v[1] : "the file's format");
	else if (v[0])
		printf("states:   prev_state in the %s numbering%s%s (no format in the file: "
		       "%s)\n", v[0], v[2] ? ", preempted = " : "", v[2] ? v[2] : "",
		       v[1] ? v[1] : "?");
	for (int i = 0; i < 3; i++)
		free(v[i]);
}

/* One CPU's facts (meta cpu.N.*, doc/db.md "Target facts"), as text. */
struct cpu_facts {
	int cpu;
	char *v[6];
};
static const char *const fact_keys[6] = { "capacity", "cluster", "freq_domain", "min_freq",
					  "max_freq", "idle_states" };

static void add_cpus(struct strbuf *sb, const int *cpus, int n)
{
	for (int i = 0; i < n; i++) {
		int e = i;

		while (e + 1 < n && cpus[e + 1] == cpus[e] + 1)
			e++;
		strbuf_addf(sb, "%s%d", i ? "," : "", cpus[i]);
		if (e > i)
			strbuf_addf(sb, "-%d", cpus[e]);
		i = e;
	}
}

static int same_facts(const struct cpu_facts *a, const struct cpu_facts *b)
{
	for (int k = 0; k < 6; k++)
		if (!a->v[k] != !b->v[k] || (a->v[k] && strcmp(a->v[k], b->v[k])))
			return 0;
	return 1;
}

/* The target's facts: a line for the machine, one per set of CPUs alike, the groups rules may
 * name from them. */
static void info_target(sqlite3 *db)
{
	static const char *const groups[] = { "little", "mid", "big" };
	struct cpu_facts *c = NULL;
	struct strbuf sb = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	char *kernel = trax_db_meta(db, "target.kernel"), *ncpus = trax_db_meta(db, "target.ncpus");
	char *online = trax_db_meta(db, "target.cpus_online");
	int n = 0, cap = 0, *done;

	if (sqlite3_prepare_v2(db, "SELECT key, value FROM meta WHERE key GLOB 'cpu.[0-9]*.*'",
			       -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *k = (const char *)sqlite3_column_text(st, 0);
			const char *v = (const char *)sqlite3_column_text(st, 1);
			char what[32];
			int cpu, i, f;

			if (!k || !v || sscanf(k, "cpu.%d.%31s", &cpu, what) != 2)
				continue;
			for (f = 0; f < 6 && strcmp(what, fact_keys[f]); f++)
				;
			if (f == 6)
				continue;
			for (i = 0; i < n && c[i].cpu != cpu; i++)
				;
			if (i == n) {
				/* in CPU order: meta is read in key order, cpu.10 before cpu.2 */
				TRAX_GROW(c, n, cap, 16);
				for (i = n; i > 0 && c[i - 1].cpu > cpu; i--)
					c[i] = c[i - 1];
				memset(&c[i], 0, sizeof(c[i]));
				c[i].cpu = cpu;
				n++;
			}
			free(c[i].v[f]);
			c[i].v[f] = xstrdup(v);
		}
	}
	sqlite3_finalize(st);
	if (!kernel && !ncpus && !n)
		goto out;
	printf("target:   %s%s%s%s CPUs", kernel ? "kernel " : "", kernel ? kernel : "",
	       kernel ? ", " : "", ncpus ? ncpus : "?");
	if (online)
		printf(" (online %s)", online);
	printf("\n");
	done = xcalloc(n + 1, sizeof(int));
	for (int i = 0; i < n; i++) {
		int *same = xmalloc(n * sizeof(int)), ns = 0;

		if (done[i]) {
			free(same);
			continue;
		}
		for (int j = i; j < n; j++)
			if (!done[j] && same_facts(&c[i], &c[j])) {
				done[j] = 1;
				same[ns++] = c[j].cpu;
			}
		strbuf_reset(&sb);
		add_cpus(&sb, same, ns);
		printf("  cpu%s %s:", ns > 1 ? "s" : "", sb.buf);
		if (c[i].v[0])
			printf(" capacity %s", c[i].v[0]);
		if (c[i].v[1])
			printf("%s cluster %s", c[i].v[0] ? "," : "", c[i].v[1]);
		if (c[i].v[2])
			printf(", frequency domain %s", c[i].v[2]);
		if (c[i].v[3] || c[i].v[4])
			printf(", %s..%s kHz", c[i].v[3] ? c[i].v[3] : "?",
			       c[i].v[4] ? c[i].v[4] : "?");
		if (c[i].v[5])
			printf(", idle %s", c[i].v[5]);
		if (!c[i].v[0] && !c[i].v[1] && !c[i].v[2] && !c[i].v[3] && !c[i].v[4] &&
		    !c[i].v[5])
			printf(" no facts");
		printf("\n");
		free(same);
	}
	free(done);
	/* the groups a rule may name without a topology of its own */
	strbuf_reset(&sb);
	for (int g = 0; g < 3; g++) {
		char reason[256];
		int *cpus = NULL, nc = 0;
		struct trax_error err = { 0 };

		if (!trax_topology_group(db, groups[g], &cpus, &nc, reason, sizeof(reason), &err)) {
			strbuf_addf(&sb, "%s%s = ", sb.len ? "; " : "", groups[g]);
			add_cpus(&sb, cpus, nc);
		}
		free(cpus);
	}
	if (sb.len)
		printf("  groups: %s\n", sb.buf);
out:
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 6; k++)
			free(c[i].v[k]);
	free(c);
	strbuf_release(&sb);
	free(kernel);
	free(ncpus);
	free(online);
}

int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tasks", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct trax_error err = { 0 };
	sqlite3 *db = NULL;
	int c, ntasks = 10;
	char *end;
	long n;

	if (cmd_wants_help(argc, argv, cmd_info_usage))
		return EXIT_OK;
	optind = 1;
	while ((c = cmd_getopt("info", argc, argv, "n:h", opts)) != -1) {
		switch (c) {
		case 'n':
			n = strtol(optarg, &end, 10);
			if (end == optarg || *end || n < 0 || n > 1000000)
				return cmd_usage_error("info", "--tasks '%s': want a count from 0 "
						       "(none) to 1000000", optarg);
			ntasks = (int)n;
			break;
		case 'h':
			return EXIT_OK;
		default:
			return EXIT_INPUT;
		}
	}
	if (argc - optind != 1)
		return cmd_usage_error("info", "expects one TRACE or DB");
	if (cmd_check_outputs("info", (const char **)argv + optind, 1, NULL, 0))
		return EXIT_INPUT;
	if (trax_db_open(argv[optind], NULL, &db, &err))
		return cmd_fail("info", &err);
	info_meta(db);
	info_target(db);
	info_events(db);
	info_tasks(db, ntasks);
	info_android(db);
	info_lost(db);
	info_unseen(db);
	info_unread(db);
	sqlite3_close(db);
	return EXIT_OK;
}
