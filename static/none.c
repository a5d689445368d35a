/*
 * static/none.c: what the static build (make static) has in place of the parts it leaves out.
 *
 * The static trax is the collector pushed to a device; it links only static archives. Debian
 * ships none for libtracecmd, which parse/dat.c (trace.dat reading) and parse/datlayout.c use,
 * and cairo's static link pulls X11, glib and fontconfig (with its configuration and fonts,
 * which a device lacks). So the static build compiles this file in place of parse/dat.c,
 * parse/datlayout.c, plot/, report/, cmd/cmd-plot.c and cmd/cmd-report.c: a trace.dat is still
 * recognised, and reading one, plot and report say in one line what this build lacks.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "parse/load.h"

#define LACKS_DAT "this static build of trax cannot read trace.dat files (it has no libtracecmd)"
#define LACKS_CAIRO "not in this static build of trax (it has no cairo)"
#define ELSEWHERE "; copy the trace to a machine with a full trax"

/* parse/readers.h's trace.dat row: the magic, as parse/dat.c's dat_sniff() */
int dat_sniff(const char *head, size_t n)
{
	return n >= 10 && !memcmp(head, "\x17\x08\x44tracing", 10);
}

int dat_check_header(const char *path, struct trax_error *err)
{
	return trax_error_set(err, TRAX_E_UNSUPPORTED, "%s: " LACKS_DAT ELSEWHERE, path);
}

int dat_read(struct loader *L, const char *path, struct trax_error *err)
{
	return dat_check_header(path, err);
}

const char cmd_plot_usage[] =
	"usage: trax plot KIND TRACE|DB -o OUT.{png,svg,pdf} [options]\n"
	"\n"
	"Charts are " LACKS_CAIRO ";\ncopy the trace to a machine with a full trax.\n";

const char cmd_report_usage[] =
	"usage: trax report TRACE|DB [--rules RULES.json] -o OUT.html|OUT.pdf\n"
	"\n"
	"Reports are " LACKS_CAIRO ";\ncopy the trace to a machine with a full trax.\n";

static int lacks_cairo(const char *cmd, int argc, char **argv, const char *usage)
{
	if (cmd_wants_help(argc, argv, usage))
		return EXIT_OK;
	fprintf(stderr, "trax %s: " LACKS_CAIRO ELSEWHERE "\n", cmd);
	return EXIT_INPUT;
}

int cmd_plot(int argc, char **argv)
{
	return lacks_cairo("plot", argc, argv, cmd_plot_usage);
}

int cmd_report(int argc, char **argv)
{
	return lacks_cairo("report", argc, argv, cmd_report_usage);
}
