/* cmd/trax.c: the `trax` command: dispatch to one subcommand per file (cmd/cmd-*.c). */
#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
	{ "export", cmd_export, "write a trace as a Perfetto protobuf trace", cmd_export_usage },
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

int cmd_check_outputs(const char *cmd, const char *const *inputs, int nin,
		      const char *const *outputs, int nout)
{
	struct trax_error err = { 0 };

	if (trax_outfile_check(inputs, nin, outputs, nout, &err))
		return cmd_fail(cmd, &err);
	for (int i = 0; i < nin; i++)
		if (inputs[i] && trax_outfile_same_fd(inputs[i], STDOUT_FILENO)) {
			fprintf(stderr, "trax %s: stdout is redirected into the input %s (the same "
				"file); refusing to write over it\n", cmd, inputs[i]);
			return EXIT_INPUT;
		}
	return 0;
}

int cmd_fail(const char *cmd, const struct trax_error *err)
{
	fprintf(stderr, "trax %s: %s\n", cmd, err->msg[0] ? err->msg : trax_strerror(err->code));
	return EXIT_INPUT;
}

int cmd_fail_all(const char *cmd, const struct trax_error_list *problems,
		 const struct trax_error *err)
{
	if (!problems->n)
		return cmd_fail(cmd, err);
	for (int i = 0; i < problems->n; i++)
		fprintf(stderr, "trax %s: %s\n", cmd, problems->msg[i]);
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

#ifdef TRAX_STATIC
/* make static: the collector for a device, built from static archives only (static/none.c) */
static const char static_note[] =
	"static build for " TRAX_STATIC ": collect; load, info, query, check, gate and export of\n"
	"text, systrace and Perfetto traces. Not in it: reading trace.dat (no libtracecmd: load,\n"
	"collect --db), plot and report (no cairo).\n";
#endif

static void usage(FILE *f)
{
	fprintf(f, "usage: trax COMMAND [ARGS]\n       trax help COMMAND\n       trax --version\n"
		"\ntrace-driven behavioural analysis (version %s)\n\ncommands:\n", TRAX_VERSION);
	for (const struct trax_cmd *c = trax_cmds; c->name; c++)
		fprintf(f, "  %-9s %s\n", c->name, c->summary);
	fprintf(f, "\n'trax COMMAND --help' lists a command's options; 'trax help COMMAND' shows its\n"
		"manual page.\n");
#ifdef TRAX_STATIC
	fprintf(f, "\n%s", static_note);
#endif
}

/*
 * The manual page NAME.1 that goes with this binary: doc/man/ of the source tree it was built
 * in (BUILD/trax), else share/man/man1/ of the prefix it was installed in (PREFIX/bin/trax).
 * Returns 0 with the path in buf, or -1.
 */
static int man_page_beside_binary(const char *name, char *buf, size_t len)
{
	static const char *const dirs[] = { "../doc/man", "../share/man/man1" };
	char exe[4096], cand[4352], *slash, *real;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if ((size_t)snprintf(cand, sizeof(cand), "%s/%s/%s.1", exe, dirs[i], name) >=
		    sizeof(cand) || access(cand, R_OK))
			continue;
		real = realpath(cand, NULL);
		n = snprintf(buf, len, "%s", real ? real : cand);
		free(real);
		if ((size_t)n < len)
			return 0;
	}
	return -1;
}

/* Run argv[0] (found in PATH) with argv; its exit status, or -1 when it could not be run. */
static int run_prog(char *const argv[])
{
	extern char **environ;
	pid_t pid;
	int st;

	fflush(stdout);
	if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ))
		return -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st) == 127 ? -1 : WEXITSTATUS(st);
}

/*
 * The NAME line of the page at path as a reader sees it ("trax-check - evaluate ..."), on f;
 * nothing when the page has none.
 */
static void print_page_name(FILE *f, const char *path)
{
	char line[512];
	FILE *in = fopen(path, "r");
	int in_name = 0;

	if (!in)
		return;
	while (fgets(line, sizeof(line), in)) {
		if (!strncmp(line, ".SH", 3)) {
			in_name = strstr(line, "NAME") != NULL;
			continue;
		}
		if (!in_name || line[0] == '.')
			continue;
		for (const char *p = line; *p; p++) {
			if (p[0] == '\\' && (p[1] == '-' || p[1] == 'e'))
				fputc(*++p == 'e' ? '\\' : '-', f);
			else
				fputc(*p, f);
		}
		break;
	}
	fclose(in);
}

/*
 * trax help [COMMAND]: the manual page of COMMAND ("trax": trax(1)), as git help does. With
 * man(1): man -l on the page beside the binary, else man trax-COMMAND (MANPATH, an install).
 * Without man, or when man has no such page: the page rendered by groff on stdout, else its
 * NAME line and the command's usage, with a note on stderr. A command that does not exist is
 * a usage error (status 2) with the nearest command named.
 */
static int help_command(int argc, char **argv)
{
	const struct trax_cmd *c = NULL;
	const char *names[32];
	char page[64], path[4352];
	char *margv[4] = { "man", NULL, NULL, NULL };
	char *gargv[7] = { "groff", "-man", "-rcR=1", "-Tutf8", "-P-cbou", path, NULL };
	int n = 0, st, have_path;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc > 2) {
		fprintf(stderr, "trax help: expects one COMMAND (see 'trax --help')\n");
		return EXIT_INPUT;
	}
	if (strcmp(argv[1], "trax")) {
		c = cmd_find(argv[1]);
		if (!c) {
			for (c = trax_cmds; c->name && n < 32; c++)
				names[n++] = c->name;
			return unknown_name("help", "command", argv[1], strlen(argv[1]), "",
					    names, n);
		}
		snprintf(page, sizeof(page), "trax-%s", c->name);
	} else {
		snprintf(page, sizeof(page), "trax");
	}
	have_path = !man_page_beside_binary(page, path, sizeof(path));
	if (have_path) {
		margv[1] = "-l";
		margv[2] = path;
	} else {
		margv[1] = page;
	}
	st = run_prog(margv);
	if (st == 0)
		return EXIT_OK;
	if (st > 0 && st != 16) {	/* 16: man-db's "no such page"; man said why */
		fprintf(stderr, "trax help: 'man %s%s%s' exited with status %d\n", margv[1],
			margv[2] ? " " : "", margv[2] ? margv[2] : "", st);
		return EXIT_INPUT;
	}
	if (have_path && run_prog(gargv) == 0)
		return EXIT_OK;
	if (have_path) {
		print_page_name(stdout, path);
		fputc('\n', stdout);
	}
	if (c)
		fputs(c->usage, stdout);
	else
		usage(stdout);
	if (st < 0)
		fprintf(stderr, "trax help: man(1) is not installed");
	else
		fprintf(stderr, "trax help: man has no page %s", page);
	fprintf(stderr, "; this is 'trax%s%s --help'", c ? " " : "", c ? c->name : "");
	if (have_path)
		fprintf(stderr, "; the page is %s", path);
	fputc('\n', stderr);
	return EXIT_OK;
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
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "help"))
		return help_command(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") ||
	    !strcmp(argv[1], "version")) {
		printf("trax %s\n", TRAX_VERSION);
#ifdef TRAX_STATIC
		fputs(static_note, stdout);
#endif
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
	for (c = trax_cmds; c->name && n < 30; c++)
		names[n++] = c->name;
	names[n++] = "help";
	names[n++] = "version";
	return unknown_name(NULL, "command", argv[1], strlen(argv[1]), "", names, n);
}
