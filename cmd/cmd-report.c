/* cmd/cmd-report.c: `trax report`: an offline report of a trace (HTML or PDF). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert/gate.h"
#include "cmd/cmd.h"
#include "parse/parse.h"
#include "plot/plot.h"
#include "report/report.h"
#include "rules/rules.h"

const char cmd_report_usage[] =
	"usage: trax report TRACE|DB [--rules RULES.json [--baseline BASE.json]]\n"
	"                   -o OUT.html|OUT.pdf\n"
	"\n"
	"Write a report of a trace: its summary (source, time range, CPUs, event counts, lost\n"
	"events, busiest tasks), the verdicts of the rules (failures first, with measured values\n"
	"and thresholds, and the charts that explain each rule that did not pass), and charts:\n"
	"CPU timeline, counter tracks, residency, slice lengths and wakeup latency.\n"
	"The HTML is one self-contained file (inline SVG, nothing fetched) with an interactive\n"
	"timeline after the verdicts: wheel, W/S or +/- zoom, drag or A/D pan, 0 resets, the\n"
	"pointer shows the event under it, a click on a failed verdict zooms to its window.\n"
	"The PDF has the same content but the timeline, one chart per page.\n"
	"\n"
	"  -o, --output FILE   the report, .html or .pdf; written under a temporary name and\n"
	"                      renamed when complete\n"
	"  -r, --rules FILE    evaluate these rules (see trax check) and show their verdicts\n"
	"  -b, --baseline FILE with --rules: compare with a baseline trax check saved\n"
	"                      (a regression fails its rule, as in trax check); the rule\n"
	"                      charts show the baseline value beside the threshold\n"
	"      --title TEXT    the report's title\n"
	"  -h, --help          this help\n"
	"\n"
	"Exit status: 0 the report was written (whatever the verdicts: trax check is the gate);\n"
	"2 usage or input error (nothing is written).\n";

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "rules", required_argument, NULL, 'r' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "title", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct trax_report_opts ro = { 0 };
	struct trax_rules *rs = NULL;
	struct trax_error_list problems = { 0 };
	struct trax_error err = { 0 };
	enum trax_report_format fmt;
	const char *out = NULL, *rules = NULL, *base_path = NULL;
	struct trax_baseline *base = NULL;
	sqlite3 *db = NULL;
	int c, ret = EXIT_INPUT;

	if (cmd_wants_help(argc, argv, cmd_report_usage))
		return EXIT_OK;
	optind = 1;
	while ((c = cmd_getopt("report", argc, argv, "o:r:b:h", opts)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'r': rules = optarg; break;
		case 'b': base_path = optarg; break;
		case 'T': ro.title = optarg; break;
		case 'h':
			return EXIT_OK;
		default:
			return EXIT_INPUT;
		}
	}
	if (argc - optind != 1)
		return cmd_usage_error("report", optind >= argc ? "missing TRACE or DB" :
				       "expects one TRACE or DB");
	if (!out)
		return cmd_usage_error("report", "missing -o OUT.html|OUT.pdf");
	if (base_path && !rules)
		return cmd_usage_error("report", "--baseline needs --rules");
	if (trax_report_format_from_path(out, &fmt))
		return cmd_usage_error("report", "%s: unknown format (want .html or .pdf)", out);
	{
		const char *in[] = { argv[optind], rules, base_path }, *outs[] = { out };

		if (cmd_check_outputs("report", in, base_path ? 3 : 2, outs, 1))
			return EXIT_INPUT;
	}
	if (rules && trax_rules_load(rules, &rs, &problems, &err)) {
		cmd_fail_all("report", &problems, &err);
		trax_error_list_release(&problems);
		return EXIT_INPUT;
	}
	if (base_path && trax_baseline_load(base_path, &base, &err)) {
		ret = cmd_fail("report", &err);
		goto out;
	}
	if (trax_db_open(argv[optind], NULL, &db, &err)) {
		ret = cmd_fail("report", &err);
		goto out;
	}
	ro.rules = rs;
	ro.baseline = base;
	ro.trace_name = argv[optind];
	if (trax_report_write(db, &ro, fmt, out, &err)) {
		ret = cmd_fail("report", &err);
		goto out;
	}
	ret = EXIT_OK;
out:
	sqlite3_close(db);
	trax_rules_free(rs);
	trax_baseline_free(base);
	trax_plot_release_fonts();
	return ret;
}
