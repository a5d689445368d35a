/* cmd/cmd-export.c: `trax export`: a trace or database as a Perfetto protobuf trace. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "parse/parse.h"

const char cmd_export_usage[] =
	"usage: trax export TRACE|DB -o OUT.pftrace [--buffer N]\n"
	"\n"
	"Write the events of a trace (any format trax loads) or of a trax database as a Perfetto\n"
	"protobuf trace, which the Perfetto UI (ui.perfetto.dev) opens and trax load reads back:\n"
	"per-CPU ftrace event bundles, in time order, lost events flagged on the bundle that\n"
	"follows them, the thread names and processes, the kernel version. Events Perfetto has a\n"
	"message for (sched, power, task, print, ...) are written in it, the others as generic\n"
	"events. Derived tables (slices, thread states, counters) are not written: a load of the\n"
	"trace derives them again. See trax-export(1) for what is and is not exported.\n"
	"\n"
	"  -o, --output FILE   the Perfetto trace; written under a temporary name and renamed\n"
	"                      when complete\n"
	"  -b, --buffer N      export buffer N of a trace with several (default 0)\n"
	"  -h, --help          this help\n"
	"\n"
	"Exit status: 0 written, 2 usage or input error (nothing is left at FILE).\n";

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "buffer", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct trax_export_opts eo = { 0 };
	struct trax_export_stats st;
	struct trax_error err = { 0 };
	struct cmd_out o;
	const char *out = NULL;
	sqlite3 *db = NULL;
	char *end;
	int c, ret = EXIT_INPUT;

	if (cmd_wants_help(argc, argv, cmd_export_usage))
		return EXIT_OK;
	optind = 1;
	while ((c = cmd_getopt("export", argc, argv, "o:b:h", opts)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'b':
			eo.buffer = (int)strtol(optarg, &end, 10);
			if (!*optarg || *end || eo.buffer < 0)
				return cmd_usage_error("export", "--buffer takes a buffer number "
						       "(0, 1, ...), not '%s'", optarg);
			break;
		case 'h':
			return EXIT_OK;
		default:
			return EXIT_INPUT;
		}
	}
	if (argc - optind != 1)
		return cmd_usage_error("export", optind >= argc ? "missing TRACE or DB" :
				       "expects one TRACE or DB");
	if (!out)
		return cmd_usage_error("export", "missing -o OUT.pftrace");
	{
		const char *in[] = { argv[optind] }, *outs[] = { out };

		if (cmd_check_outputs("export", in, 1, outs, 1))
			return EXIT_INPUT;
	}
	if (trax_db_open(argv[optind], NULL, &db, &err))
		return cmd_fail("export", &err);
	{
		int64_t nbuf = 1;

		trax_db_meta_int(db, "buffers", &nbuf);
		if (eo.buffer > 0 && eo.buffer >= nbuf) {
			fprintf(stderr, "trax export: --buffer %d: %s has %lld buffer%s\n",
				eo.buffer, argv[optind], (long long)nbuf, nbuf == 1 ? "" : "s");
			goto out;
		}
	}
	if (cmd_out_open(&o, "export", out))
		goto out;
	eo.in_name = argv[optind];
	eo.out_name = out;
	if (trax_export_perfetto(db, o.f, &eo, &st, &err)) {
		cmd_out_abort(&o);
		cmd_fail("export", &err);
		goto out;
	}
	if (cmd_out_commit(&o, "export"))
		goto out;
	printf("%s: %llu events (%llu typed, %llu generic) in %llu bundles, %llu threads\n", out,
	       (unsigned long long)st.events, (unsigned long long)st.typed,
	       (unsigned long long)st.generic, (unsigned long long)st.bundles,
	       (unsigned long long)st.threads);
	/* what the trace does not carry over, said once */
	if (!st.clock_mapped)
		printf("  trace clock %s: Perfetto has no such ftrace clock; the timestamps are "
		       "written as they are, as the boot clock\n", st.clock);
	if (st.raw_rows)
		printf("  %llu raw_event rows (records trax could not decode) not exported\n",
		       (unsigned long long)st.raw_rows);
	if (st.buffers > 1)
		printf("  buffer %d of %d exported (--buffer N for another)\n", eo.buffer,
		       st.buffers);
	ret = EXIT_OK;
out:
	sqlite3_close(db);
	return ret;
}
