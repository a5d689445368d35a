/* tests/tools/ceiling.c: the SQLite insert ceiling for the rows of a trax database. */
/*
 * usage: ceiling [-p PRAGMAS] [-P INDEX_PRAGMAS] [-m single|multi|both] [-r N] SOURCE.db OUT.db
 *
 * Reads every table of SOURCE (a db written by `trax load`: event tables, raw_event, derived
 * tables, catalog) into memory first, then, timed, writes the same rows into a new database
 * OUT: the same CREATE TABLE statements, all rows with prepared statements in one transaction,
 * then the same CREATE INDEX statements, COMMIT. Nothing but SQLite's own work is timed: this
 * is what a loader that had every row already decoded would need, the ceiling for trax load.
 *
 * PRAGMAS (default below; tests/bench/run.sh passes the ones parse/load.c uses) run first;
 * page_size is taken from SOURCE unless PRAGMAS sets it; INDEX_PRAGMAS run before the indexes
 * are created. Modes: single: one row per INSERT statement; multi: 32 rows per statement
 * (INSERT ... VALUES (...),(...)...); both (default) runs each, OUT being rewritten. Each mode
 * runs N times (default 1) and the fastest run is printed. One line per mode on stdout:
 *   mode=single rows=4123456 insert_s=3.210 index_s=0.812 total_s=4.100 rows_per_s=1005720
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "util/strbuf.h"

#define MULTI_ROWS 32

static const char default_pragmas[] =
	"PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE;"
	"PRAGMA cache_size=-32768; PRAGMA temp_store=FILE;";

struct cell {
	int64_t i;		/* integer, double bits, or offset of text/blob in the arena */
	uint32_t len;
	uint8_t type;		/* SQLITE_INTEGER, _FLOAT, _TEXT, _BLOB, _NULL */
};

struct table {
	char *name, *sql;
	int ncols;
	size_t nrows, cap;
	struct cell *cells;	/* nrows * ncols */
	struct strbuf arena;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what, sqlite3 *db)
{
	fprintf(stderr, "ceiling: %s: %s\n", what, db ? sqlite3_errmsg(db) : "failed");
	exit(2);
}

static void read_table(sqlite3 *db, struct table *t)
{
	struct strbuf q = STRBUF_INIT;
	sqlite3_stmt *st;
	int rc;

	strbuf_addf(&q, "SELECT * FROM \"%s\"", t->name);
	if (sqlite3_prepare_v2(db, q.buf, -1, &st, NULL))
		die(q.buf, db);
	t->ncols = sqlite3_column_count(st);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct cell *row;

		if (t->nrows == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 1024;
			t->cells = realloc(t->cells, t->cap * t->ncols * sizeof(*t->cells));
			if (!t->cells)
				die("out of memory", NULL);
		}
		row = t->cells + t->nrows * t->ncols;
		for (int c = 0; c < t->ncols; c++) {
			struct cell *x = &row[c];
			double d;

			x->type = sqlite3_column_type(st, c);
			x->len = 0;
			x->i = 0;
			switch (x->type) {
			case SQLITE_INTEGER:
				x->i = sqlite3_column_int64(st, c);
				break;
			case SQLITE_FLOAT:
				d = sqlite3_column_double(st, c);
				memcpy(&x->i, &d, sizeof(d));
				break;
			case SQLITE_TEXT:
			case SQLITE_BLOB: {
				const void *p = x->type == SQLITE_TEXT ?
					(const void *)sqlite3_column_text(st, c) :
					sqlite3_column_blob(st, c);

				x->len = sqlite3_column_bytes(st, c);
				x->i = t->arena.len;
				strbuf_add(&t->arena, p ? p : "", x->len);
				break;
			}
			default:
				break;
			}
		}
		t->nrows++;
	}
	if (rc != SQLITE_DONE)
		die(q.buf, db);
	sqlite3_finalize(st);
	strbuf_release(&q);
}

static void bind_row(sqlite3_stmt *st, int base, const struct table *t, size_t r)
{
	const struct cell *row = t->cells + r * t->ncols;

	for (int c = 0; c < t->ncols; c++) {
		const struct cell *x = &row[c];
		int k = base + c + 1;
		double d;

		switch (x->type) {
		case SQLITE_INTEGER:
			sqlite3_bind_int64(st, k, x->i);
			break;
		case SQLITE_FLOAT:
			memcpy(&d, &x->i, sizeof(d));
			sqlite3_bind_double(st, k, d);
			break;
		case SQLITE_TEXT:
			sqlite3_bind_text(st, k, t->arena.buf + x->i, x->len, SQLITE_STATIC);
			break;
		case SQLITE_BLOB:
			sqlite3_bind_blob(st, k, t->arena.buf + x->i, x->len, SQLITE_STATIC);
			break;
		default:
			sqlite3_bind_null(st, k);
		}
	}
}

static sqlite3_stmt *prepare_insert(sqlite3 *db, const struct table *t, int rows)
{
	struct strbuf q = STRBUF_INIT;
	sqlite3_stmt *st;

	strbuf_addf(&q, "INSERT INTO \"%s\" VALUES ", t->name);
	for (int r = 0; r < rows; r++) {
		strbuf_adds(&q, r ? ",(" : "(");
		for (int c = 0; c < t->ncols; c++)
			strbuf_adds(&q, c ? ",?" : "?");
		strbuf_addch(&q, ')');
	}
	if (sqlite3_prepare_v2(db, q.buf, -1, &st, NULL))
		die(q.buf, db);
	strbuf_release(&q);
	return st;
}

static void step(sqlite3 *db, sqlite3_stmt *st)
{
	if (sqlite3_step(st) != SQLITE_DONE)
		die("insert", db);
	sqlite3_reset(st);
}

static void exec(sqlite3 *db, const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL))
		die(sql, db);
}

struct timing {
	size_t rows;
	double insert_s, index_s, total_s;
};

static void run(const char *mode, const char *out, const char *pragmas, const char *ipragmas,
		int page_size, struct table *tabs, int ntabs, char **idx, int nidx,
		struct timing *tm)
{
	int multi = !strcmp(mode, "multi");
	double t0, t1, t2;
	size_t rows = 0;
	sqlite3 *db;
	char ps[64];

	unlink(out);
	t0 = now_s();
	if (sqlite3_open_v2(out, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL))
		die(out, db);
	if (!strstr(pragmas, "page_size")) {
		snprintf(ps, sizeof(ps), "PRAGMA page_size=%d;", page_size);
		exec(db, ps);
	}
	exec(db, pragmas);
	exec(db, "BEGIN");
	for (int i = 0; i < ntabs; i++)
		exec(db, tabs[i].sql);
	for (int i = 0; i < ntabs; i++) {
		struct table *t = &tabs[i];
		sqlite3_stmt *one = prepare_insert(db, t, 1), *many = NULL;
		size_t r = 0;

		if (multi && t->nrows >= MULTI_ROWS && t->ncols * MULTI_ROWS <= 32766) {
			many = prepare_insert(db, t, MULTI_ROWS);
			for (; r + MULTI_ROWS <= t->nrows; r += MULTI_ROWS) {
				for (int k = 0; k < MULTI_ROWS; k++)
					bind_row(many, k * t->ncols, t, r + k);
				step(db, many);
			}
		}
		for (; r < t->nrows; r++) {
			bind_row(one, 0, t, r);
			step(db, one);
		}
		rows += t->nrows;
		sqlite3_finalize(one);
		sqlite3_finalize(many);
	}
	t1 = now_s();
	if (ipragmas)
		exec(db, ipragmas);
	for (int i = 0; i < nidx; i++)
		exec(db, idx[i]);
	exec(db, "COMMIT");
	if (sqlite3_close(db))
		die("close", db);
	t2 = now_s();
	tm->rows = rows;
	tm->insert_s = t1 - t0;
	tm->index_s = t2 - t1;
	tm->total_s = t2 - t0;
}

static void best_of(const char *mode, int repeat, const char *out, const char *pragmas,
		    const char *ipragmas, int page_size, struct table *tabs, int ntabs,
		    char **idx, int nidx)
{
	struct timing best = { 0 }, tm;

	for (int i = 0; i < repeat; i++) {
		run(mode, out, pragmas, ipragmas, page_size, tabs, ntabs, idx, nidx, &tm);
		if (!i || tm.total_s < best.total_s)
			best = tm;
	}
	unlink(out);
	printf("mode=%s rows=%zu insert_s=%.3f index_s=%.3f total_s=%.3f rows_per_s=%.0f\n", mode,
	       best.rows, best.insert_s, best.index_s, best.total_s, best.rows / best.total_s);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *pragmas = default_pragmas, *ipragmas = NULL, *mode = "both";
	struct table *tabs = NULL;
	char **idx = NULL;
	int ntabs = 0, nidx = 0, page_size = 4096, opt, repeat = 1;
	sqlite3 *src;
	sqlite3_stmt *st;

	while ((opt = getopt(argc, argv, "p:P:m:r:")) != -1) {
		if (opt == 'p')
			pragmas = optarg;
		else if (opt == 'P')
			ipragmas = optarg;
		else if (opt == 'm')
			mode = optarg;
		else if (opt == 'r' && atoi(optarg) > 0)
			repeat = atoi(optarg);
		else
			goto usage;
	}
	if (argc - optind != 2 || (strcmp(mode, "single") && strcmp(mode, "multi") &&
				   strcmp(mode, "both")))
		goto usage;
	if (sqlite3_open_v2(argv[optind], &src, SQLITE_OPEN_READONLY, NULL))
		die(argv[optind], src);
	if (sqlite3_prepare_v2(src, "PRAGMA page_size", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		page_size = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(src, "SELECT type, name, sql FROM sqlite_master WHERE sql NOT NULL "
			       "AND name NOT LIKE 'sqlite_%' ORDER BY rowid", -1, &st, NULL))
		die("sqlite_master", src);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(st, 0);
		const char *sql = (const char *)sqlite3_column_text(st, 2);

		if (!strcmp(type, "table")) {
			tabs = realloc(tabs, (ntabs + 1) * sizeof(*tabs));
			if (!tabs)
				die("out of memory", NULL);
			memset(&tabs[ntabs], 0, sizeof(*tabs));
			tabs[ntabs].name = strdup((const char *)sqlite3_column_text(st, 1));
			tabs[ntabs].sql = strdup(sql);
			tabs[ntabs].arena = (struct strbuf)STRBUF_INIT;
			ntabs++;
		} else if (!strcmp(type, "index")) {
			idx = realloc(idx, (nidx + 1) * sizeof(*idx));
			if (!idx)
				die("out of memory", NULL);
			idx[nidx++] = strdup(sql);
		}
	}
	sqlite3_finalize(st);
	for (int i = 0; i < ntabs; i++)
		read_table(src, &tabs[i]);
	sqlite3_close(src);

	if (strcmp(mode, "multi"))
		best_of("single", repeat, argv[optind + 1], pragmas, ipragmas, page_size, tabs,
			ntabs, idx, nidx);
	if (strcmp(mode, "single"))
		best_of("multi", repeat, argv[optind + 1], pragmas, ipragmas, page_size, tabs,
			ntabs, idx, nidx);

	for (int i = 0; i < ntabs; i++) {
		free(tabs[i].name);
		free(tabs[i].sql);
		free(tabs[i].cells);
		strbuf_release(&tabs[i].arena);
	}
	free(tabs);
	for (int i = 0; i < nidx; i++)
		free(idx[i]);
	free(idx);
	return 0;
usage:
	fprintf(stderr, "usage: ceiling [-p PRAGMAS] [-P INDEX_PRAGMAS] [-m single|multi|both] "
		"[-r N] SOURCE.db OUT.db\n");
	return 2;
}
