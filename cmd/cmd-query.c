/* cmd/cmd-query.c: `trax query`: read-only SQL on a trace or database. */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "assert/assert.h"
#include "cmd/cmd.h"
#include "parse/parse.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

const char cmd_query_usage[] =
	"usage: trax query TRACE|DB SQL [--format table|csv|json] [--events LIST]\n"
	"                  [--timeout SECONDS]\n"
	"\n"
	"Run SQL on a read-only connection to a trax database, or to a trace (loaded on the fly\n"
	"into the cache, see trax-load(1)). Every statement of SQL runs, in order, each result\n"
	"printed in turn (a blank line between them). Statements that would write, ATTACH,\n"
	"DETACH and PRAGMAs that set a value (query_only=0, writable_schema=1, ...) are refused\n"
	"before any runs. The whole text may take SECONDS (default 60) and SQLite 512 MiB of\n"
	"memory; past either it stops with an error. Tables are described in doc/db.md. The function\n"
	"trax_metric('{\"metric\": \"runtime\", \"task\": \"ls\"}') evaluates any rule metric\n"
	"of doc/rules.md and returns its value in base units (ns, %, Hz, mC) or NULL.\n"
	"\n"
	"  -f, --format FMT    table (default, aligned columns), csv (RFC 4180), json (array of\n"
	"                      objects)\n"
	"  -e, --events LIST   when TRACE is a trace file, load only these events\n"
	"  -t, --timeout SECONDS  stop the query after SECONDS (default 60; 0: no limit)\n"
	"  -h, --help          this help\n"
	"\n"
	"Exit status: 0 success, 2 usage, input or SQL error.\n";

enum fmt { F_TABLE, F_CSV, F_JSON };

static void csv_field(struct strbuf *sb, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		strbuf_adds(sb, s);
		return;
	}
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '"');
}

static void json_value(struct strbuf *sb, sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		strbuf_adds(sb, "null");
		break;
	case SQLITE_INTEGER:
		strbuf_addf(sb, "%lld", (long long)sqlite3_column_int64(st, i));
		break;
	case SQLITE_FLOAT:
		strbuf_addf(sb, "%.17g", sqlite3_column_double(st, i));
		break;
	default:
		strbuf_add_json(sb, (const char *)sqlite3_column_text(st, i));
	}
}

/* Aligned table: rows are buffered to size the columns. */
struct table {
	int ncols;
	char **cells;		/* row-major, including the header row */
	size_t n, cap;
};

static void table_add(struct table *t, const char *s)
{
	TRAX_GROW(t->cells, t->n, t->cap, 256);
	t->cells[t->n++] = strdup(s ? s : "NULL");
}

static void table_print(struct table *t)
{
	int *w = xcalloc(t->ncols, sizeof(int));
	size_t rows = t->ncols ? t->n / t->ncols : 0;

	for (size_t i = 0; i < t->n; i++) {
		int len = strlen(t->cells[i]);

		if (len > w[i % t->ncols])
			w[i % t->ncols] = len;
	}
	for (size_t r = 0; r < rows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			const char *s = t->cells[r * t->ncols + c];

			printf("%s%-*s", c ? "  " : "", c == t->ncols - 1 ? 0 : w[c], s);
		}
		printf("\n");
		if (r == 0) {
			for (int c = 0; c < t->ncols; c++) {
				printf("%s", c ? "  " : "");
				for (int k = 0; k < w[c]; k++)
					putchar('-');
			}
			printf("\n");
		}
	}
	for (size_t i = 0; i < t->n; i++)
		free(t->cells[i]);
	free(t->cells);
	free(w);
}

#define QUERY_HEAP_LIMIT_MIB 512
#define QUERY_MAX_STATEMENTS 64

/* PRAGMAs that take an argument and only read (the argument names a table or an index). */
static const char *const read_pragmas[] = {
	"table_info", "table_xinfo", "index_list", "index_info", "index_xinfo",
	"foreign_key_list", "foreign_key_check", "integrity_check", "quick_check", "table_list",
};

struct refusal {
	char what[128];		/* what the authorizer refused, "" when nothing */
};

/* The connection is read-only already; this refuses what would change the connection. */
static int query_authorizer(void *ctx, int action, const char *a1, const char *a2,
			    const char *db, const char *trigger)
{
	struct refusal *r = ctx;

	(void)db;
	(void)trigger;
	if (action == SQLITE_ATTACH || action == SQLITE_DETACH) {
		snprintf(r->what, sizeof(r->what), "%s", action == SQLITE_ATTACH ? "ATTACH" :
			 "DETACH");
		return SQLITE_DENY;
	}
	if (action == SQLITE_PRAGMA && a2) {
		for (size_t i = 0; i < sizeof(read_pragmas) / sizeof(read_pragmas[0]); i++)
			if (a1 && !strcasecmp(a1, read_pragmas[i]))
				return SQLITE_OK;
		snprintf(r->what, sizeof(r->what), "PRAGMA %s=%s", a1 ? a1 : "?", a2);
		return SQLITE_DENY;
	}
	return SQLITE_OK;
}

/* --timeout: a thread that interrupts the connection when the time is up. */
struct watchdog {
	sqlite3 *db;
	double seconds;
	pthread_mutex_t lock;
	pthread_cond_t done_cond;
	int done, fired;
	pthread_t thread;
};

static void *watchdog_run(void *arg)
{
	struct watchdog *w = arg;
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += (time_t)w->seconds;
	until.tv_nsec += (long)((w->seconds - (double)(time_t)w->seconds) * 1e9);
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&w->lock);
	while (!w->done)
		if (pthread_cond_timedwait(&w->done_cond, &w->lock, &until) == ETIMEDOUT) {
			if (!w->done) {
				w->fired = 1;
				sqlite3_interrupt(w->db);
			}
			break;
		}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static int watchdog_start(struct watchdog *w, sqlite3 *db, double seconds)
{
	memset(w, 0, sizeof(*w));
	w->db = db;
	w->seconds = seconds;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->done_cond, NULL);
	if (seconds <= 0)
		return 0;
	return pthread_create(&w->thread, NULL, watchdog_run, w) ? -1 : 1;
}

static void watchdog_stop(struct watchdog *w, int started)
{
	pthread_mutex_lock(&w->lock);
	w->done = 1;
	pthread_cond_signal(&w->done_cond);
	pthread_mutex_unlock(&w->lock);
	if (started > 0)
		pthread_join(w->thread, NULL);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->done_cond);
}

/* Run one prepared statement and print its rows; SQLITE_DONE or the error code. */
static int run_statement(sqlite3_stmt *st, enum fmt fmt)
{
	struct strbuf out = STRBUF_INIT;
	struct table tab = { 0 };
	int rc, nrows = 0;

	tab.ncols = sqlite3_column_count(st);
	if (fmt == F_TABLE) {
		for (int i = 0; i < tab.ncols; i++)
			table_add(&tab, sqlite3_column_name(st, i));
	} else if (fmt == F_CSV) {
		for (int i = 0; i < tab.ncols; i++) {
			if (i)
				strbuf_addch(&out, ',');
			csv_field(&out, sqlite3_column_name(st, i));
		}
		strbuf_adds(&out, "\r\n");
	} else {
		strbuf_addch(&out, '[');
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (fmt == F_TABLE) {
			for (int i = 0; i < tab.ncols; i++)
				table_add(&tab, (const char *)sqlite3_column_text(st, i));
		} else if (fmt == F_CSV) {
			for (int i = 0; i < tab.ncols; i++) {
				const char *s = (const char *)sqlite3_column_text(st, i);

				if (i)
					strbuf_addch(&out, ',');
				if (s)
					csv_field(&out, s);
			}
			strbuf_adds(&out, "\r\n");
		} else {
			strbuf_adds(&out, nrows ? ",\n {" : "\n {");
			for (int i = 0; i < tab.ncols; i++) {
				if (i)
					strbuf_adds(&out, ", ");
				strbuf_add_json(&out, sqlite3_column_name(st, i));
				strbuf_adds(&out, ": ");
				json_value(&out, st, i);
			}
			strbuf_addch(&out, '}');
		}
		nrows++;
		if (out.len > (1 << 16)) {
			fwrite(out.buf, 1, out.len, stdout);
			strbuf_reset(&out);
		}
	}
	if (rc == SQLITE_DONE) {
		if (fmt == F_JSON)
			strbuf_adds(&out, nrows ? "\n]\n" : "]\n");
		if (fmt == F_TABLE)
			table_print(&tab);
		else
			fwrite(out.buf, 1, out.len, stdout);
	} else {
		for (size_t i = 0; i < tab.n; i++)
			free(tab.cells[i]);
		free(tab.cells);
	}
	strbuf_release(&out);
	return rc;
}

/* The first line of a statement's text, cut at 60 characters, for messages. */
static void statement_label(const char *sql, char *buf, size_t len)
{
	size_t n = 0;

	while (*sql == ' ' || *sql == '\t' || *sql == '\n' || *sql == '\r')
		sql++;
	while (sql[n] && sql[n] != '\n' && n + 1 < len && n < 60)
		n++;
	snprintf(buf, len, "%.*s%s", (int)n, sql, sql[n] && sql[n] != '\n' ? "..." : "");
}

int cmd_query(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "events", required_argument, NULL, 'e' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct trax_error err = { 0 };
	const char *events = NULL, *sql, *tail, *path;
	sqlite3_stmt *sts[QUERY_MAX_STATEMENTS];
	struct refusal refused = { { 0 } };
	struct watchdog wd;
	enum fmt fmt = F_TABLE;
	sqlite3 *db = NULL;
	double timeout = 60;
	int c, rc, ret = EXIT_INPUT, nst = 0, wd_started = 0;
	sqlite3_int64 heap = -1;
	char label[80], *end;

	if (cmd_wants_help(argc, argv, cmd_query_usage))
		return EXIT_OK;
	optind = 1;
	while ((c = cmd_getopt("query", argc, argv, "f:e:t:h", opts)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "table"))
				fmt = F_TABLE;
			else if (!strcmp(optarg, "csv"))
				fmt = F_CSV;
			else if (!strcmp(optarg, "json"))
				fmt = F_JSON;
			else
				return cmd_usage_error("query", "unknown format '%s'", optarg);
			break;
		case 'e': events = optarg; break;
		case 't':
			errno = 0;
			timeout = strtod(optarg, &end);
			if (errno || end == optarg || *end || timeout < 0 || timeout > 1e6)
				return cmd_usage_error("query", "--timeout '%s': expects seconds "
						       "(0 to 1000000; 0: no limit)", optarg);
			break;
		case 'h':
			return EXIT_OK;
		default:
			return EXIT_INPUT;
		}
	}
	if (argc - optind != 2)
		return cmd_usage_error("query", "expects TRACE|DB and the SQL to run");
	if (cmd_check_outputs("query", (const char **)argv + optind, 1, NULL, 0))
		return EXIT_INPUT;
	path = argv[optind];
	if (trax_db_open(path, events, &db, &err))
		return cmd_fail("query", &err);
	if (trax_sql_functions_register(db, &err)) {
		sqlite3_close(db);
		return cmd_fail("query", &err);
	}
	sqlite3_set_authorizer(db, query_authorizer, &refused);
	heap = sqlite3_hard_heap_limit64(-1);
	sqlite3_hard_heap_limit64((sqlite3_int64)QUERY_HEAP_LIMIT_MIB << 20);
	/* every statement is prepared (and checked) before the first one runs */
	for (sql = argv[optind + 1]; *sql; sql = tail) {
		sqlite3_stmt *st = NULL;

		rc = sqlite3_prepare_v2(db, sql, -1, &st, &tail);
		statement_label(sql, label, sizeof(label));
		if (rc != SQLITE_OK) {
			if (refused.what[0])
				fprintf(stderr, "trax query: %s: %s: refused: %s (the connection is "
					"read-only)\n", path, label, refused.what);
			else
				fprintf(stderr, "trax query: %s: %s: %s\n", path, label,
					sqlite3_errmsg(db));
			goto out;
		}
		if (!st)	/* only a comment or white space was left */
			break;
		if (nst == QUERY_MAX_STATEMENTS) {
			sqlite3_finalize(st);
			fprintf(stderr, "trax query: %s: more than %d statements\n", path,
				QUERY_MAX_STATEMENTS);
			goto out;
		}
		sts[nst++] = st;
		if (!sqlite3_stmt_readonly(st)) {
			fprintf(stderr, "trax query: %s: %s: refused: only read-only statements are "
				"allowed\n", path, label);
			goto out;
		}
	}
	if (!nst) {
		fprintf(stderr, "trax query: %s: %s: empty statement\n", path, argv[optind + 1]);
		goto out;
	}
	wd_started = watchdog_start(&wd, db, timeout);
	if (wd_started < 0) {
		fprintf(stderr, "trax query: %s: cannot start the --timeout thread\n", path);
		goto out_wd;
	}
	for (int i = 0; i < nst; i++) {
		if (i)
			fputs(fmt == F_CSV ? "\r\n" : "\n", stdout);
		rc = run_statement(sts[i], fmt);
		if (rc != SQLITE_DONE) {
			statement_label(sqlite3_sql(sts[i]), label, sizeof(label));
			fflush(stdout);
			if (rc == SQLITE_INTERRUPT && wd.fired)
				fprintf(stderr, "trax query: %s: %s: stopped after %g s (--timeout)\n",
					path, label, timeout);
			else if (rc == SQLITE_NOMEM)
				fprintf(stderr, "trax query: %s: %s: needs more than %d MiB of memory\n",
					path, label, QUERY_HEAP_LIMIT_MIB);
			else
				fprintf(stderr, "trax query: %s: %s: %s\n", path, label,
					sqlite3_errmsg(db));
			goto out_wd;
		}
	}
	ret = EXIT_OK;
out_wd:
	watchdog_stop(&wd, wd_started);
out:
	for (int i = 0; i < nst; i++)
		sqlite3_finalize(sts[i]);
	sqlite3_hard_heap_limit64(heap);
	sqlite3_close(db);
	return ret;
}
