/* cmd/cmd-plot.c: `trax plot`: one chart of a trace or database as PNG, SVG or PDF. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "parse/parse.h"
#include "plot/plot.h"

const char cmd_plot_usage[] =
	"usage: trax plot KIND TRACE|DB -o OUT.{png,svg,pdf} [options]\n"
	"\n"
	"Draw one chart of a trace or trax database. KIND is one of:\n"
#define CH_KIND(id, name, draw, options, events, help) help
#include "plot/kinds.h"
	"\n"
	"  -o, --output FILE       the chart; its format comes from the extension\n"
	"  -w, --window A B        only [A, B], times after the trace start: seconds, or with a\n"
	"                          unit (s, ms, us, ns): 1.5, 250ms, 30us\n"
	"      --abs-window A B    only [A, B] in absolute trace time, in seconds\n"
	"  -c, --cpus LIST         CPUs to draw (0-3,6)\n"
	"  -t, --task COMM|PID     all kinds but counters: only this task, a comm glob (matches\n"
	"                          any name the thread had) or a pid; on a timeline other tasks\n"
	"                          are drawn grey\n"
	"  -s, --size WxH          size in pixels (PNG) or points (SVG, PDF); default 1200x600\n"
	"      --track NAME[:KEY]  counters: tracks to draw, a glob on the track name (without\n"
	"                          glob characters a prefix: cpu_freq) and on its CPU or zone\n"
	"                          (thermal_temperature:soc*); repeatable; default every track\n"
	"      --of WHAT           histogram, cdf: slices (default), wakeup (woken until\n"
	"                          running), runnable (woken or preempted until running)\n"
	"      --sql SELECT        histogram, cdf: durations in ns, the first column of a query\n"
	"      --bins N            histogram: number of bins (default automatic)\n"
	"      --log, --linear     histogram, cdf: a logarithmic or a linear time axis; default:\n"
	"                          log when a linear one would crowd most values into one bin\n"
	"      --group NAME=LIST   residency: one bar per CPU group (little=0-3); repeatable\n"
	"      --no-markers        timeline: leave out trace markers and kills\n"
	"      --title TEXT        the chart's title\n"
	"  -h, --help              this help\n"
	"\n"
	"The same input gives the same bytes in every format. The file is written under a\n"
	"temporary name and renamed when complete.\n"
	"\n"
	"Exit status: 0 written; 2 usage or input error, or nothing to draw: a window outside\n"
	"the trace, a --task that matches no thread, or none of what KIND draws (nothing is\n"
	"written then).\n";

#define MAX_REPEAT 64

/*
 * A time in ns from "1.5", "1.5s", "250ms", "30us", "100ns" (default unit: seconds), exactly
 * (decimal digits, no floating point). Returns 0 or -1.
 */
static int parse_time(const char *s, int64_t *ns)
{
	static const struct { const char *suffix; int64_t mult; int digits; } units[] = {
		{ "ns", 1, 0 }, { "us", 1000, 3 }, { "ms", 1000000, 6 }, { "s", 1000000000, 9 },
		{ "", 1000000000, 9 },
	};
	int64_t ip = 0, fp = 0;
	int fd = 0, neg = 0;
	const char *p = s;

	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (!isdigit((unsigned char)*p) && *p != '.')
		return -1;
	while (isdigit((unsigned char)*p)) {
		if (ip > INT64_MAX / 10 - 10)
			return -1;
		ip = ip * 10 + (*p++ - '0');
	}
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			if (fd < 18) {
				fp = fp * 10 + (*p - '0');
				fd++;
			}
			p++;
		}
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		int64_t f = fp;

		if (strcmp(p, units[i].suffix))
			continue;
		if (ip > INT64_MAX / units[i].mult)
			return -1;
		/* The fraction scaled to the unit's ns digits (truncated below 1 ns). */
		for (int d = fd; d < units[i].digits; d++)
			f *= 10;
		for (int d = units[i].digits; d < fd; d++)
			f /= 10;
		*ns = ip * units[i].mult + f;
		if (neg)
			*ns = -*ns;
		return 0;
	}
	return -1;
}

static int parse_size(const char *s, int *w, int *h)
{
	char *end;
	long a = strtol(s, &end, 10), b;

	if (end == s || (*end != 'x' && *end != 'X'))
		return -1;
	s = end + 1;
	b = strtol(s, &end, 10);
	if (end == s || *end || a < 200 || b < 150 || a > 20000 || b > 20000)
		return -1;
	*w = (int)a;
	*h = (int)b;
	return 0;
}

int cmd_plot(int argc, char **argv)
{
	enum { O_ABS = 256, O_TRACK, O_OF, O_SQL, O_BINS, O_LOG, O_LINEAR, O_GROUP, O_NOMARK,
	       O_TITLE };
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "window", required_argument, NULL, 'w' },
		{ "abs-window", required_argument, NULL, O_ABS },
		{ "cpus", required_argument, NULL, 'c' },
		{ "task", required_argument, NULL, 't' },
		{ "size", required_argument, NULL, 's' },
		{ "track", required_argument, NULL, O_TRACK },
		{ "of", required_argument, NULL, O_OF },
		{ "sql", required_argument, NULL, O_SQL },
		{ "bins", required_argument, NULL, O_BINS },
		{ "log", no_argument, NULL, O_LOG },
		{ "linear", no_argument, NULL, O_LINEAR },
		{ "group", required_argument, NULL, O_GROUP },
		{ "no-markers", no_argument, NULL, O_NOMARK },
		{ "title", required_argument, NULL, O_TITLE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct trax_plot_opts o;
	struct trax_plot_group groups[MAX_REPEAT];
	const char *tracks[MAX_REPEAT];
	const char *pos[2], *out = NULL, *wa = NULL, *wb = NULL;
	char *gbuf[MAX_REPEAT] = { 0 };
	struct trax_error err = { 0 };
	enum trax_plot_format fmt;
	sqlite3 *db = NULL;
	int npos = 0, abs_window = 0, ngroups = 0, ret = EXIT_INPUT, of_given = 0, c;
	int64_t a, b, start;

	if (cmd_wants_help(argc, argv, cmd_plot_usage))
		return EXIT_OK;
	trax_plot_opts_init(&o);
	o.tracks = tracks;
	o.groups = groups;
	optind = 1;
	while ((c = cmd_getopt("plot", argc, argv, "o:w:c:t:s:h", opts)) != -1) {
		const char *v = optarg;
		char *end, *eq;

		switch (c) {
		case 'o':
			out = v;
			break;
		case 'w':
		case O_ABS:
			/* two values: A is the option's, B the next argument */
			abs_window = c == O_ABS;
			if (optind >= argc) {
				ret = cmd_usage_error("plot", "%s takes two times: A B",
						      abs_window ? "--abs-window" : "--window");
				goto out;
			}
			wa = v;
			wb = argv[optind++];
			break;
		case 'c':
			o.cpus = v;
			break;
		case 't':
			o.task = v;
			break;
		case 's':
			if (parse_size(v, &o.width, &o.height)) {
				ret = cmd_usage_error("plot", "--size '%s': want WxH from 200x150 "
						      "to 20000x20000", v);
				goto out;
			}
			break;
		case O_TRACK:
			if (o.ntracks == MAX_REPEAT) {
				ret = cmd_usage_error("plot", "too many --track");
				goto out;
			}
			tracks[o.ntracks++] = v;
			break;
		case O_OF:
			of_given = 1;
			if (!strcmp(v, "slices"))
				o.durations = TRAX_DUR_SLICES;
			else if (!strcmp(v, "wakeup"))
				o.durations = TRAX_DUR_WAKEUP;
			else if (!strcmp(v, "runnable"))
				o.durations = TRAX_DUR_RUNNABLE;
			else {
				ret = cmd_usage_error("plot", "--of '%s': want slices, wakeup or "
						      "runnable", v);
				goto out;
			}
			break;
		case O_SQL:
			o.sql = v;
			o.durations = TRAX_DUR_SQL;
			break;
		case O_BINS:
			o.bins = (int)strtol(v, &end, 10);
			if (end == v || *end || o.bins < 1 || o.bins > 1000) {
				ret = cmd_usage_error("plot", "--bins '%s': want 1 to 1000", v);
				goto out;
			}
			break;
		case O_LOG:
		case O_LINEAR:
			if (o.logx && o.logx != (c == O_LOG ? TRAX_PLOT_LOGX_ON :
						     TRAX_PLOT_LOGX_OFF)) {
				ret = cmd_usage_error("plot", "--log and --linear: choose one");
				goto out;
			}
			o.logx = c == O_LOG ? TRAX_PLOT_LOGX_ON : TRAX_PLOT_LOGX_OFF;
			break;
		case O_GROUP:
			if (ngroups == MAX_REPEAT) {
				ret = cmd_usage_error("plot", "too many --group");
				goto out;
			}
			gbuf[ngroups] = strdup(v);
			eq = gbuf[ngroups] ? strchr(gbuf[ngroups], '=') : NULL;
			if (!eq || eq == gbuf[ngroups] || !eq[1]) {
				ret = cmd_usage_error("plot", "--group '%s': want NAME=CPULIST", v);
				goto out;
			}
			*eq = '\0';
			groups[ngroups].name = gbuf[ngroups];
			groups[ngroups].cpus = eq + 1;
			ngroups++;
			break;
		case O_NOMARK:
			o.markers = 0;
			break;
		case O_TITLE:
			o.title = v;
			break;
		case 'h':
			ret = EXIT_OK;
			goto out;
		default:
			goto out;
		}
	}
	for (int i = optind; i < argc; i++) {
		if (npos == 2) {
			ret = cmd_usage_error("plot", "unexpected argument '%s'", argv[i]);
			goto out;
		}
		pos[npos++] = argv[i];
	}
	o.ngroups = ngroups;
	if (npos < 2) {
		ret = cmd_usage_error("plot", npos ? "missing TRACE or DB" : "missing KIND");
		goto out;
	}
	if (trax_plot_kind_parse(pos[0], &o.kind)) {
		struct strbuf kinds = STRBUF_INIT;

		for (int k = 0; k < TRAX_PLOT_NKINDS; k++)
			strbuf_addf(&kinds, "%s%s", k ? ", " : "",
				    trax_plot_kind_name((enum trax_plot_kind)k));
		ret = cmd_usage_error("plot", "unknown chart kind '%s' (%s)", pos[0], kinds.buf);
		strbuf_release(&kinds);
		goto out;
	}
	if (!out) {
		ret = cmd_usage_error("plot", "missing -o OUT.{png,svg,pdf}");
		goto out;
	}
	if (trax_plot_format_from_path(out, &fmt)) {
		ret = cmd_usage_error("plot", "%s: unknown format (want .png, .svg or .pdf)", out);
		goto out;
	}
	{
		/* each option only where the kind's row (plot/kinds.h) takes it */
		const struct { unsigned opt; int given; const char *flags; } given[] = {
			{ TRAX_PLOT_OPT_OF, of_given || o.sql, "--of and --sql" },
			{ TRAX_PLOT_OPT_TASK, o.task != NULL, "--task" },
			{ TRAX_PLOT_OPT_LOG, o.logx != TRAX_PLOT_LOGX_AUTO,
			  o.logx == TRAX_PLOT_LOGX_OFF ? "--linear" : "--log" },
			{ TRAX_PLOT_OPT_BINS, o.bins != 0, "--bins" },
			{ TRAX_PLOT_OPT_TRACK, o.ntracks != 0, "--track" },
			{ TRAX_PLOT_OPT_GROUP, ngroups != 0, "--group" },
		};
		unsigned takes = trax_plot_kind_def(o.kind)->options;

		for (size_t i = 0; i < sizeof(given) / sizeof(given[0]); i++) {
			struct strbuf kinds = STRBUF_INIT;

			if (!given[i].given || (takes & given[i].opt))
				continue;
			trax_plot_kinds_taking(given[i].opt, &kinds);
			ret = cmd_usage_error("plot", "%s appl%s to %s", given[i].flags,
					      strstr(given[i].flags, " and ") ? "y" : "ies",
					      kinds.buf);
			strbuf_release(&kinds);
			goto out;
		}
	}
	if (o.sql && (o.task || o.cpus)) {
		ret = cmd_usage_error("plot", "--task and --cpus do not apply to --sql: filter in "
				      "the query");
		goto out;
	}
	if (wa && (parse_time(wa, &a) || parse_time(wb, &b))) {
		ret = cmd_usage_error("plot", "window '%s' '%s': want times like 1.5, 250ms, 30us",
				      wa, wb);
		goto out;
	}
	if (wa && b <= a) {
		ret = cmd_usage_error("plot", "window '%s' '%s': the end is not after the start",
				      wa, wb);
		goto out;
	}
	{
		const char *in[] = { pos[1] }, *outs[] = { out };

		if (cmd_check_outputs("plot", in, 1, outs, 1)) {
			ret = EXIT_INPUT;
			goto out;
		}
	}
	if (trax_db_open(pos[1], NULL, &db, &err)) {
		ret = cmd_fail("plot", &err);
		goto out;
	}
	if (wa) {
		start = 0;
		if (!abs_window && trax_db_meta_int(db, "trace.start_ts", &start))
			start = 0;
		o.start = start + a;
		o.end = start + b;
		if (o.start <= 0)
			o.start = 1;	/* 0 means "from the trace start" */
	}
	if (trax_plot_write(db, &o, fmt, out, NULL, &err)) {
		ret = cmd_fail("plot", &err);
		goto out;
	}
	ret = EXIT_OK;
out:
	sqlite3_close(db);
	for (int i = 0; i < MAX_REPEAT; i++)
		free(gbuf[i]);
	trax_plot_release_fonts();
	return ret;
}
