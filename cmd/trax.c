/* cmd/trax.c: the `trax` command: dispatch to one subcommand per file (cmd/cmd-*.c). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"

const struct trax_cmd trax_cmds[] = {
	{ "load", cmd_load, "load a trace into a SQLite database", cmd_load_usage },
	{ "info", cmd_info, "time range, CPUs, event counts, tasks, lost events", cmd_info_usage },
	{ "query", cmd_query, "run read-only SQL on a trace or database", cmd_query_usage },
	{ "check", cmd_check, "evaluate behaviour rules: the regression gate", cmd_check_usage },
	{ "gate", cmd_gate, "compare base runs with new runs, statistically", cmd_gate_usage },
	{ "plot", cmd_plot, "draw a chart of a trace as PNG, SVG or PDF", cmd_plot_usage },
	{ "report", cmd_report, "write an HTML or PDF report of a trace", cmd_report_usage },
	{ "collect", cmd_collect, "capture ftrace while a workload runs", cmd_collect_usage },
	{ NULL, NULL, NULL, NULL },
};

int cmd_out_open(struct cmd_out *o, const char *cmd, const char *path)
{
	struct trax_error err = { 0 };

	memset(o, 0, sizeof(*o));
	o->f = stdout;
	if (!path)
		return 0;
	if (trax_outfile_open(&o->file, path, &err)) {
		cmd_fail(cmd, &err);
		return -1;
	}
	o->f = o->file.f;
	return 0;
}

int cmd_out_commit(struct cmd_out *o, const char *cmd)
{
	struct trax_error err = { 0 };

	if (o->f == stdout)
		return fflush(stdout) ? -1 : 0;
	o->f = stdout;
	if (trax_outfile_commit(&o->file, &err)) {
		cmd_fail(cmd, &err);
		return -1;
	}
	return 0;
}

void cmd_out_abort(struct cmd_out *o)
{
	trax_outfile_abort(&o->file);
	o->f = stdout;
}

int cmd_fail(const char *cmd, const struct trax_error *err)
{
	fprintf(stderr, "trax %s: %s\n", cmd, err->msg[0] ? err->msg : trax_strerror(err->code));
	return EXIT_INPUT;
}

int cmd_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "trax %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'trax %s --help')\n", cmd);
	return EXIT_INPUT;
}

int cmd_wants_help(int argc, char **argv, const char *usage)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 1;
		}
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: trax COMMAND [ARGS]\n\ntrace-driven behavioural analysis (version %s)\n\n"
		"commands:\n", TRAX_VERSION);
	for (const struct trax_cmd *c = trax_cmds; c->name; c++)
		fprintf(f, "  %-9s %s\n", c->name, c->summary);
	fprintf(f, "\n'trax COMMAND --help' describes a command; 'man trax-COMMAND' too.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_INPUT;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("trax %s\n", TRAX_VERSION);
		return EXIT_OK;
	}
	for (const struct trax_cmd *c = trax_cmds; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->fn(argc - 1, argv + 1);
	fprintf(stderr, "trax: unknown command '%s' (see 'trax --help')\n", argv[1]);
	return EXIT_INPUT;
}
