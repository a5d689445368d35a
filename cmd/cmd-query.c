/* cmd/cmd-query.c: `trax query`: read-only SQL on a trace or database. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert/assert.h"
#include "cmd/cmd.h"
#include "parse/parse.h"
#include "util/strbuf.h"

const char cmd_query_usage[] =
	"usage: trax query TRACE|DB SQL [--format table|csv|json] [--events LIST]\n"
	"\n"
	"Run SQL on a read-only connection to a trax database, or to a trace (loaded on the fly\n"
	"into the cache, see trax-load(1)). Tables are described in doc/db.md. The function\n"
	"trax_metric('{\"metric\": \"runtime\", \"task\": \"ls\"}') evaluates any rule metric\n"
	"of doc/rules.md and returns its value in base units (ns, %, Hz, mC) or NULL.\n"
	"\n"
	"  -f, --format FMT    table (default, aligned columns), csv (RFC 4180), json (array of\n"
	"                      objects)\n"
	"  -e, --events LIST   when TRACE is a trace file, load only these events\n"
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
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->cells = realloc(t->cells, t->cap * sizeof(char *));
		if (!t->cells)
			abort();
	}
	t->cells[t->n++] = strdup(s ? s : "NULL");
}

static void table_print(struct table *t)
{
	int *w = calloc(t->ncols, sizeof(int));
	size_t rows = t->ncols ? t->n / t->ncols : 0;

	if (!w)
		abort();
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

int cmd_query(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "events", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct trax_error err = { 0 };
	const char *events = NULL, *tail;
	struct strbuf out = STRBUF_INIT;
	struct table tab = { 0 };
	enum fmt fmt = F_TABLE;
	sqlite3_stmt *st = NULL;
	sqlite3 *db = NULL;
	int c, rc, ret = EXIT_INPUT, nrows = 0;

	if (cmd_wants_help(argc, argv, cmd_query_usage))
		return EXIT_OK;
	optind = 1;
	while ((c = cmd_getopt("query", argc, argv, "f:e:h", opts)) != -1) {
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
		case 'h':
			return EXIT_OK;
		default:
			return EXIT_INPUT;
		}
	}
	if (argc - optind != 2)
		return cmd_usage_error("query", "expects TRACE|DB and one SQL statement");
	if (cmd_check_outputs("query", (const char **)argv + optind, 1, NULL, 0))
		return EXIT_INPUT;
	if (trax_db_open(argv[optind], events, &db, &err))
		return cmd_fail("query", &err);
	if (trax_sql_functions_register(db, &err)) {
		sqlite3_close(db);
		return cmd_fail("query", &err);
	}
	rc = sqlite3_prepare_v2(db, argv[optind + 1], -1, &st, &tail);
	if (rc != SQLITE_OK || !st) {
		fprintf(stderr, "trax query: %s: %s\n", argv[optind + 1],
			st ? sqlite3_errmsg(db) : rc == SQLITE_OK ? "empty statement" :
			sqlite3_errmsg(db));
		goto out;
	}
	if (!sqlite3_stmt_readonly(st)) {
		fprintf(stderr, "trax query: only read-only statements are allowed\n");
		goto out;
	}
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
	if (rc != SQLITE_DONE) {
		fprintf(stderr, "trax query: %s\n", sqlite3_errmsg(db));
		goto out;
	}
	if (fmt == F_JSON)
		strbuf_adds(&out, nrows ? "\n]\n" : "]\n");
	if (fmt == F_TABLE)
		table_print(&tab);
	else
		fwrite(out.buf, 1, out.len, stdout);
	ret = EXIT_OK;
out:
	if (fmt == F_TABLE && tab.cells) {
		for (size_t i = 0; ret && i < tab.n; i++)
			free(tab.cells[i]);
		if (ret)
			free(tab.cells);
	}
	strbuf_release(&out);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return ret;
}
