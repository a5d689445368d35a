/* cmd/cmd-check.c: `trax check`: evaluate rules on traces, the regression gate. */
#include <errno.h>
#include <getopt.h>
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

const char cmd_check_usage[] =
	"usage: trax check RULES.json TRACE|DB... [--format tap|junit|json|text] [-o FILE]\n"
	"                  [--baseline FILE] [--save-baseline FILE]\n"
	"\n"
	"Evaluate every rule of RULES.json on every trace or database (doc/rules.md describes\n"
	"the rule language). A trace is loaded on the fly with only the events its rules need.\n"
	"\n"
	"  -f, --format FMT      tap (TAP 13, kselftest dialect; the default when stdout is not\n"
	"                        a terminal), junit (JUnit XML), json (every value), text\n"
	"                        (aligned; the default on a terminal)\n"
	"  -o, --output FILE     write there instead of stdout (replaced only when complete)\n"
	"  -b, --baseline FILE   compare every result with the run stored in FILE (by rule id\n"
	"                        and task comm): regressed, improved or same, by the rules'\n"
	"                        \"regression\" bounds (doc/gate.md); a regression fails\n"
	"  -s, --save-baseline FILE  store every value of this run in FILE (JSON, with the\n"
	"                        traces' sha256 and the rules' sha256) for later --baseline\n"
	"  -h, --help            this help\n"
	"\n"
	"Exit status: 0 every rule passed (warnings and expected failures allowed) and nothing\n"
	"regressed, 1 a rule failed or a result regressed from the baseline, 2 usage, input or\n"
	"evaluation error, 4 every rule was skipped.\n";

/*
 * `trax check TRACE RULES.json`: when the first argument, which is not a rule file, is a trace
 * and a later one is a rule file, say so (1) rather than why a trace is not a rule file.
 */
static int check_swapped(char **args, int n)
{
	struct trax_error err = { 0 };
	enum trax_format fmt;

	if (trax_detect_format(args[0], &fmt, &err) || fmt == TRAX_FMT_UNKNOWN)
		return 0;
	for (int i = 1; i < n; i++) {
		if (trax_rules_sniff(args[i])) {
			cmd_usage_error("check", "%s is a trace and %s a rule file: arguments "
					"swapped? usage: trax check RULES.json TRACE|DB...",
					args[0], args[i]);
			return 1;
		}
	}
	return 0;
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "save-baseline", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct trax_verdicts v = { 0 };
	struct trax_error_list problems = { 0 };
	struct trax_error err = { 0 };
	struct trax_rules *rs = NULL;
	enum trax_out_format fmt = isatty(1) ? TRAX_OUT_TEXT : TRAX_OUT_TAP;
	const char *outpath = NULL, *base_path = NULL, *save_path = NULL;
	struct trax_baseline *base = NULL;
	struct trax_trace_id *ids = NULL;
	char *events = NULL;
	struct cmd_out co = { .f = NULL };
	int c, ret = EXIT_INPUT, nids = 0;

	if (cmd_wants_help(argc, argv, cmd_check_usage))
		return EXIT_OK;
	optind = 1;
	while ((c = cmd_getopt("check", argc, argv, "f:o:b:s:h", opts)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "tap"))
				fmt = TRAX_OUT_TAP;
			else if (!strcmp(optarg, "junit"))
				fmt = TRAX_OUT_JUNIT;
			else if (!strcmp(optarg, "json"))
				fmt = TRAX_OUT_JSON;
			else if (!strcmp(optarg, "text"))
				fmt = TRAX_OUT_TEXT;
			else
				return cmd_usage_error("check", "unknown format '%s'", optarg);
			break;
		case 'o': outpath = optarg; break;
		case 'b': base_path = optarg; break;
		case 's': save_path = optarg; break;
		case 'h':
			return EXIT_OK;
		default:
			return EXIT_INPUT;
		}
	}
	if (argc - optind < 2)
		return cmd_usage_error("check", "expects RULES.json and at least one TRACE or DB");
	{
		/* RULES.json, the traces and the baseline; the report and the new baseline */
		const char **in = (const char **)argv + optind, *outs[] = { outpath, save_path };
		int nin = argc - optind;

		if (base_path) {
			in = xcalloc(nin + 1, sizeof(*in));
			memcpy(in, argv + optind, nin * sizeof(*in));
			in[nin++] = base_path;
		}
		ret = cmd_check_outputs("check", in, nin, outs, 2);
		if (base_path)
			free(in);
		if (ret)
			return ret;
		ret = EXIT_INPUT;
	}
	if (trax_rules_load(argv[optind], &rs, &problems, &err)) {
		ret = check_swapped(argv + optind, argc - optind) ? EXIT_INPUT :
			cmd_fail_all("check", &problems, &err);
		trax_error_list_release(&problems);
		return ret;
	}
	if (base_path && trax_baseline_load(base_path, &base, &err)) {
		cmd_fail("check", &err);
		goto out;
	}
	events = trax_rules_events(rs);
	ids = xcalloc(argc - optind, sizeof(*ids));
	for (int i = optind + 1; i < argc; i++) {
		struct trax_trace_id *id = &ids[nids];
		sqlite3 *db = NULL;
		int first = v.n;

		if (trax_db_open(argv[i], events, &db, &err)) {
			cmd_fail("check", &err);
			goto out;
		}
		if (trax_check_db(rs, db, argv[i], &v, &err) ||
		    trax_trace_id_read(db, argv[i], id, &err)) {
			sqlite3_close(db);
			cmd_fail("check", &err);
			goto out;
		}
		nids++;
		id->first = first;
		id->n = v.n - first;
		sqlite3_close(db);
	}
	if (base && trax_baseline_compare(base, rs, ids, nids, &v, &err)) {
		cmd_fail("check", &err);
		goto out;
	}
	if (save_path && trax_baseline_save(save_path, &v, ids, nids, &err)) {
		cmd_fail("check", &err);
		goto out;
	}
	if (cmd_out_open(&co, "check", outpath))
		goto out;
	if (trax_verdicts_write(&v, fmt, co.f) < 0) {
		fprintf(stderr, "trax check: %s: write error\n", outpath ? outpath : "stdout");
		goto out;
	}
	if (cmd_out_commit(&co, "check"))
		goto out;
	ret = trax_verdicts_exit_status(&v);
out:
	cmd_out_abort(&co);
	free(events);
	for (int i = 0; i < nids; i++)
		trax_trace_id_release(&ids[i]);
	free(ids);
	trax_baseline_free(base);
	trax_verdicts_release(&v);
	trax_rules_free(rs);
	return ret;
}
