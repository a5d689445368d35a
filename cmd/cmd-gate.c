/* cmd/cmd-gate.c: `trax gate`: compare several base runs with several new runs, statistically. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assert/assert.h"
#include "assert/gate.h"
#include "cmd/cmd.h"
#include "parse/parse.h"
#include "rules/rules.h"
#include "util/strbuf.h"

const char cmd_gate_usage[] =
	"usage: trax gate --rules RULES.json --base TRACE|DB... --new TRACE|DB...\n"
	"                 [--alpha P] [--format tap|junit|json|text] [-o FILE]\n"
	"\n"
	"Evaluate the rules on every run of both sides, then for each rule and task (keyed by\n"
	"rule id and task comm: pids differ between runs) compare the sides: the Mann-Whitney U\n"
	"test on the values and Fisher's exact test on the pass/fail counts, both two-sided.\n"
	"A significant shift (p < alpha) in the direction the rule calls worse, beyond the\n"
	"rule's \"regression\" bound when it has one, or a significantly higher failure rate,\n"
	"is a regression. Fewer than 5 runs per side is \"insufficient samples\" (doc/gate.md).\n"
	"\n"
	"  -r, --rules FILE     the rule file (doc/rules.md)\n"
	"      --base RUN...    the baseline runs: traces or databases\n"
	"      --new RUN...     the candidate runs\n"
	"  -a, --alpha P        significance level, 0 < P < 1 (default 0.05)\n"
	"  -f, --format FMT     text (a table: old and new medians, delta, p-values, verdict;\n"
	"                       the default on a terminal), tap (the default otherwise),\n"
	"                       junit, json\n"
	"  -o, --output FILE    write there instead of stdout (replaced only when complete)\n"
	"  -h, --help           this help\n"
	"\n"
	"Exit status: 0 no regression, 1 a regression, 2 usage, input or evaluation error,\n"
	"4 nothing could be compared (every result had insufficient samples or was skipped).\n";

/*
 * "--opt VALUE" or "--opt=VALUE" (or "-o VALUE"); advances *i. NULL when argv[*i] is not it,
 * or when its value is missing (then *missing is set).
 */
static const char *opt_value(int argc, char **argv, int *i, const char *lng, const char *shrt,
			     int *missing)
{
	const char *a = argv[*i];
	size_t l = strlen(lng);

	if (!strncmp(a, lng, l) && a[l] == '=')
		return a + l + 1;
	if (strcmp(a, lng) && (!shrt || strcmp(a, shrt)))
		return NULL;
	if (*i + 1 >= argc) {
		*missing = 1;
		return NULL;
	}
	return argv[++*i];
}

static int run_side(struct trax_gate *g, const struct trax_rules *rs, const char *events,
		    enum trax_gate_side side, char **runs, int n)
{
	struct trax_error err = { 0 };

	for (int i = 0; i < n; i++) {
		struct trax_verdicts v = { 0 };
		sqlite3 *db = NULL;

		if (trax_db_open(runs[i], events, &db, &err))
			return cmd_fail("gate", &err);
		if (trax_check_db(rs, db, runs[i], &v, &err) ||
		    trax_gate_add(g, side, runs[i], &v, &err)) {
			sqlite3_close(db);
			trax_verdicts_release(&v);
			return cmd_fail("gate", &err);
		}
		sqlite3_close(db);
		trax_verdicts_release(&v);
	}
	return 0;
}

int cmd_gate(int argc, char **argv)
{
	struct trax_error err = { 0 };
	struct trax_rules *rs = NULL;
	struct trax_gate *g = NULL;
	enum trax_out_format fmt = isatty(1) ? TRAX_OUT_TEXT : TRAX_OUT_TAP;
	const char *rules = NULL, *outpath = NULL;
	char **runs[2] = { NULL, NULL };
	char *events = NULL;
	struct cmd_out co = { .f = NULL };
	int nruns[2] = { 0, 0 }, side = -1, ret = EXIT_INPUT, only_runs = 0;
	double alpha = 0.05;

	if (cmd_wants_help(argc, argv, cmd_gate_usage))
		return EXIT_OK;
	for (int s = 0; s < 2; s++) {
		runs[s] = calloc(argc, sizeof(char *));
		if (!runs[s])
			abort();
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val;
		int missing = 0;

		if (!only_runs && !strcmp(a, "--")) {
			only_runs = 1;
			continue;
		}
		if (only_runs || a[0] != '-' || !a[1]) {
			if (side < 0) {
				cmd_usage_error("gate", "'%s': a run goes after --base or --new",
						a);
				goto out;
			}
			runs[side][nruns[side]++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--base")) {
			side = TRAX_GATE_BASE;
		} else if (!strcmp(a, "--new")) {
			side = TRAX_GATE_NEW;
		} else if ((val = opt_value(argc, argv, &i, "--rules", "-r", &missing))) {
			rules = val;
		} else if ((val = opt_value(argc, argv, &i, "--output", "-o", &missing))) {
			outpath = val;
		} else if ((val = opt_value(argc, argv, &i, "--alpha", "-a", &missing))) {
			char *end;

			errno = 0;
			alpha = strtod(val, &end);
			if (end == val || *end || errno || !(alpha > 0 && alpha < 1)) {
				cmd_usage_error("gate", "--alpha: expected a level between 0 "
						"and 1, got '%s'", val);
				goto out;
			}
		} else if ((val = opt_value(argc, argv, &i, "--format", "-f", &missing))) {
			if (!strcmp(val, "tap"))
				fmt = TRAX_OUT_TAP;
			else if (!strcmp(val, "junit"))
				fmt = TRAX_OUT_JUNIT;
			else if (!strcmp(val, "json"))
				fmt = TRAX_OUT_JSON;
			else if (!strcmp(val, "text"))
				fmt = TRAX_OUT_TEXT;
			else {
				cmd_usage_error("gate", "unknown format '%s'", val);
				goto out;
			}
		} else {
			cmd_usage_error("gate", missing ? "%s needs a value" :
					"unknown option '%s'", a);
			goto out;
		}
	}
	if (!rules) {
		cmd_usage_error("gate", "expects --rules RULES.json");
		goto out;
	}
	if (!nruns[0] || !nruns[1]) {
		cmd_usage_error("gate", "expects runs after both --base and --new");
		goto out;
	}
	if (trax_rules_load(rules, &rs, &err)) {
		cmd_fail("gate", &err);
		goto out;
	}
	events = trax_rules_events(rs);
	g = trax_gate_alloc(rs, alpha);
	if (run_side(g, rs, events, TRAX_GATE_BASE, runs[0], nruns[0]) ||
	    run_side(g, rs, events, TRAX_GATE_NEW, runs[1], nruns[1]))
		goto out;
	if (trax_gate_decide(g, &err)) {
		cmd_fail("gate", &err);
		goto out;
	}
	if (cmd_out_open(&co, "gate", outpath))
		goto out;
	if (trax_gate_write(g, fmt, co.f) < 0) {
		fprintf(stderr, "trax gate: %s: write error\n", outpath ? outpath : "stdout");
		goto out;
	}
	if (cmd_out_commit(&co, "gate"))
		goto out;
	ret = trax_gate_exit_status(g);
out:
	cmd_out_abort(&co);
	free(events);
	trax_gate_free(g);
	trax_rules_free(rs);
	free(runs[0]);
	free(runs[1]);
	return ret;
}
