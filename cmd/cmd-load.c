/* cmd/cmd-load.c: `trax load`: a trace file into a SQLite database. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "parse/parse.h"
#include "util/strbuf.h"

const char cmd_load_usage[] =
	"usage: trax load TRACE [-o DB] [--events LIST] [--stats] [--threads 1|2]\n"
	"\n"
	"Load a trace (trace.dat v6/v7, ftrace text, systrace HTML, Perfetto protobuf; detected\n"
	"from its content) into a SQLite database: one table per event type, thread lifetimes,\n"
	"sched_slice, thread_state and counter tracks (see doc/db.md). The database is written\n"
	"to a temporary file and renamed into place when complete. TRACE may be - (standard\n"
	"input) or a FIFO: it is copied to a temporary file first, within TRAX_PIPE_MAX bytes and\n"
	"TRAX_PIPE_TIMEOUT seconds without data (see trax-load(1)).\n"
	"\n"
	"  -o, --output DB     database to write (default: TRACE's name with .db, in the\n"
	"                      current folder)\n"
	"  -e, --events LIST   load only these events: NAME, SYSTEM:NAME or SYSTEM:*, comma\n"
	"                      separated (derived tables then come from those events only)\n"
	"  -s, --stats         print rows and time per phase\n"
	"  -t, --threads N     1: decode and insert on one thread; 2 (default): two threads\n"
	"  -h, --help          this help\n"
	"\n"
	"Exit status: 0 loaded, 2 usage or input error (nothing is left at DB).\n";

static char *default_output(const char *trace)
{
	const char *base = strrchr(trace, '/');
	struct strbuf sb = STRBUF_INIT;
	const char *dot;

	base = base ? base + 1 : trace;
	if (!strcmp(trace, "-"))
		base = "stdin";		/* a piped trace */
	dot = strrchr(base, '.');
	if (dot && dot != base)
		strbuf_add(&sb, base, dot - base);
	else
		strbuf_adds(&sb, base);
	strbuf_adds(&sb, ".db");
	return strbuf_detach(&sb);
}

int cmd_load(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "events", required_argument, NULL, 'e' },
		{ "stats", no_argument, NULL, 's' },
		{ "threads", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct trax_load_opts lo = { 0 };
	struct trax_load_stats st;
	struct trax_error err = { 0 };
	const char *out = NULL;
	char *def = NULL;
	int c, stats = 0, ret;

	if (cmd_wants_help(argc, argv, cmd_load_usage))
		return EXIT_OK;
	optind = 1;
	while ((c = cmd_getopt("load", argc, argv, "o:e:st:h", opts)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'e': lo.events = optarg; break;
		case 's': stats = 1; break;
		case 't':
			lo.threads = atoi(optarg);
			if (lo.threads != 1 && lo.threads != 2)
				return cmd_usage_error("load", "--threads takes 1 or 2");
			break;
		case 'h':
			return EXIT_OK;
		default:
			return EXIT_INPUT;
		}
	}
	if (optind != argc - 1)
		return cmd_usage_error("load", optind >= argc ? "missing TRACE" :
				       "one TRACE at a time");
	if (!out)
		out = def = default_output(argv[optind]);
	{
		const char *in[] = { argv[optind] }, *outs[] = { out };

		if (cmd_check_outputs("load", in, 1, outs, 1)) {
			free(def);
			return EXIT_INPUT;
		}
	}
	ret = trax_load(argv[optind], out, &lo, &st, &err);
	if (ret) {
		free(def);
		return cmd_fail("load", &err);
	}
	printf("%s: %llu records, %llu event rows, %llu derived rows in %.3f s\n", out,
	       (unsigned long long)st.records, (unsigned long long)st.event_rows,
	       (unsigned long long)st.derived_rows, st.total_s);
	if (stats) {
		printf("  decode+insert (streaming pass) %.3f s\n", st.decode_s);
		printf("    writer: event rows %.3f s, derived rows %.3f s; decoder waited %.3f s, "
		       "writer %.3f s\n", st.event_insert_s, st.derived_s, st.wait_s, st.idle_s);
		printf("  indexes                        %.3f s\n", st.index_s);
	}
	free(def);
	return EXIT_OK;
}
