/* assert/sqlfunc.c: the metrics as an SQL function for `trax query`: trax_metric(RULE_JSON). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert/assert.h"
#include "util/strbuf.h"

/*
 * trax_metric('{"metric": "runtime", "task": "ls"}'): the rule's value on this database. The
 * object may leave out "expect" (a neutral one is added so that the rule validates; its unit
 * follows the metric).
 */
static void metric_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sqlite3 *db = sqlite3_context_db_handle(ctx);
	const char *json = (const char *)sqlite3_value_text(argv[0]);
	struct strbuf sb = STRBUF_INIT;
	struct trax_error err = { 0 };
	struct trax_verdicts v = { 0 };
	struct trax_rules *rs = NULL;

	if (!json) {
		sqlite3_result_null(ctx);
		return;
	}
	/* a rule needs an expectation to validate: add one that fits any value */
	strbuf_addf(&sb, "{\"rules\": [%s]}", json);
	if (!strstr(json, "\"expect\"")) {
		const char *close = strrchr(json, '}');

		strbuf_reset(&sb);
		if (!close) {
			sqlite3_result_error(ctx, "trax_metric: expected a JSON rule object", -1);
			return;
		}
		strbuf_adds(&sb, "{\"rules\": [");
		strbuf_add(&sb, json, close - json);
		strbuf_adds(&sb, ", \"expect\": \"!= 0\"}]}");
	}
	if (trax_rules_parse(sb.buf, "trax_metric", &rs, NULL, &err)) {
		strbuf_release(&sb);
		sqlite3_result_error(ctx, err.msg, -1);
		return;
	}
	strbuf_release(&sb);
	if (trax_check_db(rs, db, "query", &v, &err)) {
		sqlite3_result_error(ctx, err.msg, -1);
	} else if (v.n != 1) {
		sqlite3_result_error(ctx, "trax_metric: the rule has one result per task or track; "
				     "add \"aggregate\" or narrow it", -1);
	} else if (v.res[0].verdict == TRAX_ERROR) {
		sqlite3_result_error(ctx, v.res[0].reason, -1);
	} else if (v.res[0].has_value && !isnan(v.res[0].value)) {
		double x = v.res[0].value;

		if (x == floor(x) && fabs(x) < 9e15)
			sqlite3_result_int64(ctx, (sqlite3_int64)x);
		else
			sqlite3_result_double(ctx, x);
	} else {
		sqlite3_result_null(ctx);
	}
	trax_verdicts_release(&v);
	trax_rules_free(rs);
}

int trax_sql_functions_register(sqlite3 *db, struct trax_error *err)
{
	if (sqlite3_create_function(db, "trax_metric", 1, SQLITE_UTF8, NULL, metric_fn, NULL,
				    NULL) != SQLITE_OK)
		return trax_error_set(err, TRAX_E_DB, "registering trax_metric: %s",
				      sqlite3_errmsg(db));
	return 0;
}
