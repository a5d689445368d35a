/* cmd/cmd.h: the `trax` subcommand table and helpers shared by the subcommands. */
#ifndef TRAX_CMD_H
#define TRAX_CMD_H

#include <getopt.h>
#include <stdio.h>

#include "util/error.h"
#include "util/outfile.h"

/* Exit statuses of every subcommand. */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* check: a rule failed; gate: a regression */
	EXIT_INPUT = 2,		/* usage, input or evaluation error */
	EXIT_SKIP = 4,		/* check: every rule skipped (KSFT_SKIP) */
};

struct trax_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);	/* returns the exit status */
	const char *summary;			/* one line for `trax --help` */
	const char *usage;			/* full help, printed by `trax CMD --help` */
};

/* The table, defined in cmd/trax.c. */
extern const struct trax_cmd trax_cmds[];

#define DECLARE_CMD(n) int cmd_##n(int argc, char **argv); extern const char cmd_##n##_usage[]
DECLARE_CMD(load);
DECLARE_CMD(info);
DECLARE_CMD(query);
DECLARE_CMD(check);
DECLARE_CMD(gate);
DECLARE_CMD(plot);
DECLARE_CMD(report);
DECLARE_CMD(collect);
DECLARE_CMD(export);

/*
 * Output of a subcommand: stdout, or a file written under a temporary name and renamed into
 * place only when complete (`-o FILE`), so a failed run leaves no file that looks complete.
 */
struct cmd_out {
	FILE *f;			/* where to write */
	struct trax_outfile file;	/* with -o FILE */
};
/* Open path (NULL: stdout); on failure prints "trax CMD: path: reason" and returns -1. */
int cmd_out_open(struct cmd_out *o, const char *cmd, const char *path);
/* Put the file in place (after a successful write); on failure prints and returns -1. */
int cmd_out_commit(struct cmd_out *o, const char *cmd);
/* Remove an uncommitted temporary file (a no-op after commit or for stdout). */
void cmd_out_abort(struct cmd_out *o);

/*
 * Before anything is written: refuse outputs that are one of the inputs or each other (the same
 * file by device and inode, so also through links; util/outfile.h), and a stdout redirected
 * into an input. Prints one line naming both paths and returns EXIT_INPUT, else returns 0.
 * NULL entries are skipped.
 */
int cmd_check_outputs(const char *cmd, const char *const *inputs, int nin,
		      const char *const *outputs, int nout);

/* Print "trax CMD: message" to stderr and return EXIT_INPUT. */
int cmd_fail(const char *cmd, const struct trax_error *err);
/* Print every problem as "trax CMD: problem" (err when the list is empty); EXIT_INPUT. */
int cmd_fail_all(const char *cmd, const struct trax_error_list *problems,
		 const struct trax_error *err);
/* Print a usage error and the command's usage line; returns EXIT_INPUT. */
int cmd_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* If argv[1] is --help or -h, print the usage to stdout and return 1. */
int cmd_wants_help(int argc, char **argv, const char *usage);

/*
 * getopt_long() for the subcommand cmd, with one error policy for every command. A bad option
 * (unknown, an ambiguous abbreviation, a value given to an option that takes none, a missing
 * value) prints one line naming it, with the nearest known option when one is a likely typo
 * ("unknown option '--windo'; did you mean '--window'?"), and returns '?': the caller returns
 * EXIT_INPUT. -h, --help (or an abbreviation) prints the command's usage from trax_cmds[] to
 * stdout and returns 'h': the caller returns EXIT_OK. Otherwise as getopt_long(): optstring may
 * start with '+' or '-'; getopt itself never prints. Set optind = 1 before the first call.
 */
int cmd_getopt(const char *cmd, int argc, char **argv, const char *optstring,
	       const struct option *opts);

#endif
