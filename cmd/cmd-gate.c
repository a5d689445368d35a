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
#include "util/xalloc.h"

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
	enum { O_BASE = 256, O_NEW };
	static const struct option opts[] = {
		{ "rules", required_argument, NULL, 'r' },
		{ "base", no_argument, NULL, O_BASE },
		{ "new", no_argument, NULL, O_NEW },
		{ "alpha", required_argument, NULL, 'a' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct trax_error_list problems = { 0 };
	struct trax_error err = { 0 };
	struct trax_rules *rs = NULL;
	struct trax_gate *g = NULL;
	enum trax_out_format fmt = isatty(1) ? TRAX_OUT_TEXT : TRAX_OUT_TAP;
	const char *rules = NULL, *outpath = NULL;
	char **runs[2] = { NULL, NULL };
	char *events = NULL, *end;
	struct cmd_out co = { .f = NULL };
	int nruns[2] = { 0, 0 }, side = -1, ret = EXIT_INPUT, c;
	double alpha = 0.05;

	if (cmd_wants_help(argc, argv, cmd_gate_usage))
		return EXIT_OK;
	for (int s = 0; s < 2; s++)
		runs[s] = xcalloc(argc, sizeof(char *));
	optind = 1;
	/* '-': runs come back in order (as 1), each to the side named last; after "--" every
	 * argument is a run */
	while ((c = cmd_getopt("gate", argc, argv, "-r:a:f:o:h", opts)) != -1) {
		switch (c) {
		case 1:
			if (side < 0) {
				cmd_usage_error("gate", "'%s': a run goes after --base or --new",
						optarg);
				goto out;
			}
			runs[side][nruns[side]++] = optarg;
			break;
		case O_BASE:
			side = TRAX_GATE_BASE;
			break;
		case O_NEW:
			side = TRAX_GATE_NEW;
			break;
		case 'r':
			rules = optarg;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'a':
			errno = 0;
			alpha = strtod(optarg, &end);
			if (end == optarg || *end || errno || !(alpha > 0 && alpha < 1)) {
				cmd_usage_error("gate", "--alpha: expected a level between 0 "
						"and 1, got '%s'", optarg);
				goto out;
			}
			break;
		case 'f':
			if (!strcmp(optarg, "tap"))
				fmt = TRAX_OUT_TAP;
			else if (!strcmp(optarg, "junit"))
				fmt = TRAX_OUT_JUNIT;
			else if (!strcmp(optarg, "json"))
				fmt = TRAX_OUT_JSON;
			else if (!strcmp(optarg, "text"))
				fmt = TRAX_OUT_TEXT;
			else {
				cmd_usage_error("gate", "unknown format '%s'", optarg);
				goto out;
			}
			break;
		case 'h':
			ret = EXIT_OK;
			goto out;
		default:
			goto out;
		}
	}
	for (int i = optind; i < argc; i++) {
		if (side < 0) {
			cmd_usage_error("gate", "'%s': a run goes after --base or --new", argv[i]);
			goto out;
		}
		runs[side][nruns[side]++] = argv[i];
	}
	if (!rules) {
		cmd_usage_error("gate", "expects --rules RULES.json");
		goto out;
	}
	if (!nruns[0] || !nruns[1]) {
		cmd_usage_error("gate", "expects runs after both --base and --new");
		goto out;
	}
	{
		const char **in = xcalloc(nruns[0] + nruns[1] + 1, sizeof(*in)), *outs[] = { outpath };
		int nin = 0, bad;

		in[nin++] = rules;
		for (int s = 0; s < 2; s++)
			for (int i = 0; i < nruns[s]; i++)
				in[nin++] = runs[s][i];
		bad = cmd_check_outputs("gate", in, nin, outs, 1);
		free(in);
		if (bad)
			goto out;
	}
	if (trax_rules_load(rules, &rs, &problems, &err)) {
		cmd_fail_all("gate", &problems, &err);
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
	trax_error_list_release(&problems);
	free(runs[0]);
	free(runs[1]);
	return ret;
}
