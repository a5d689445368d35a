/* cmd/trax.c: the `trax` command: dispatch to one subcommand per file (cmd/cmd-*.c). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/suggest.h"

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

/*
 * "trax[ CMD]: unknown WHAT 'word'; did you mean 'prefix+nearest'? (see 'trax[ CMD] --help')"
 * on stderr; the nearest of the n candidates (compared without prefix) is left out when none
 * is near. Returns EXIT_INPUT.
 */
static int unknown_name(const char *cmd, const char *what, const char *word, size_t wlen,
			const char *prefix, const char *const *cands, int n)
{
	char buf[128];
	const char *near;
	size_t plen = strlen(prefix);

	if (wlen >= plen && !strncmp(word, prefix, plen))
		snprintf(buf, sizeof(buf), "%.*s", (int)(wlen - plen), word + plen);
	else
		snprintf(buf, sizeof(buf), "%.*s", (int)wlen, word);
	near = trax_suggest(buf, cands, n);
	fprintf(stderr, "trax%s%s: unknown %s '%.*s'", cmd ? " " : "", cmd ? cmd : "", what,
		(int)wlen, word);
	if (near)
		fprintf(stderr, "; did you mean '%s%s'?", prefix, near);
	fprintf(stderr, " (see 'trax%s%s --help')\n", cmd ? " " : "", cmd ? cmd : "");
	return EXIT_INPUT;
}

static const struct trax_cmd *cmd_find(const char *name)
{
	for (const struct trax_cmd *c = trax_cmds; c->name; c++)
		if (!strcmp(name, c->name))
			return c;
	return NULL;
}

int cmd_getopt(const char *cmd, int argc, char **argv, const char *optstring,
	       const struct option *opts)
{
	const char *names[64], *arg;
	char shortopts[128], list[512] = "";
	size_t len, used = 0, lead = optstring[0] == '+' || optstring[0] == '-';
	int n = 0, c, prev = optind, nmatch = 0;

	/* ':' right after any '+' or '-': a missing value returns ':', not '?' */
	snprintf(shortopts, sizeof(shortopts), "%.*s:%s", (int)lead, optstring, optstring + lead);
	opterr = 0;
	c = getopt_long(argc, argv, shortopts, opts, NULL);
	if (c == 'h') {
		const struct trax_cmd *tc = cmd_find(cmd);

		if (tc)
			fputs(tc->usage, stdout);
		return 'h';
	}
	if (c != '?' && c != ':')
		return c;
	/* A long option moved optind past itself; a short one inside -abc may not have. */
	arg = optind > prev && optind <= argc ? argv[optind - 1] : NULL;
	if (!arg || strncmp(arg, "--", 2)) {
		cmd_usage_error(cmd, c == ':' ? "-%c needs a value" : "unknown option '-%c'",
				optopt);
		return '?';
	}
	len = strcspn(arg, "=");
	for (const struct option *o = opts; o->name && n < 64; o++) {
		names[n++] = o->name;
		if (!strncmp(o->name, arg + 2, len - 2)) {
			nmatch++;
			if (used < sizeof(list))
				used += snprintf(list + used, sizeof(list) - used, "%s--%s",
						 used ? ", " : "", o->name);
		}
	}
	if (c == ':')
		cmd_usage_error(cmd, "%.*s needs a value", (int)len, arg);
	else if (optopt)	/* a known option that takes no value, given one */
		cmd_usage_error(cmd, "%.*s takes no value (got '%s')", (int)len, arg,
				arg + len + (arg[len] == '='));
	else if (nmatch > 1)
		cmd_usage_error(cmd, "option '%.*s' is ambiguous: %s", (int)len, arg, list);
	else
		unknown_name(cmd, "option", arg, len, "--", names, n);
	return '?';
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
	static const char *const top_opts[] = { "help", "version" };
	const char *names[32];
	const struct trax_cmd *c;
	int n = 0;

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
	c = cmd_find(argv[1]);
	if (c)
		return c->fn(argc - 1, argv + 1);
	if (!strncmp(argv[1], "--", 2))
		return unknown_name(NULL, "option", argv[1], strcspn(argv[1], "="), "--",
				    top_opts, 2);
	if (argv[1][0] == '-')
		return unknown_name(NULL, "option", argv[1], strlen(argv[1]), "", NULL, 0);
	for (c = trax_cmds; c->name && n < 32; c++)
		names[n++] = c->name;
	return unknown_name(NULL, "command", argv[1], strlen(argv[1]), "", names, n);
}
