/* cmd/cmd-collect.c: `trax collect`: capture ftrace while running a workload. */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "collect/collect.h"
#include "collect/target.h"
#include "util/outfile.h"
#include "collect/pfconfig.h"

const char cmd_collect_usage[] =
	"usage: trax collect -o OUT.dat [-e EVENTS] [-p PRESETS] [-b KB] [-C CLOCK] [-t SECS]\n"
	"                    [--cmdlines N] [--db DB] [--ignore-status] [--no-kallsyms]\n"
	"                    [--no-redirect] [-w WORKLOAD.json | -- CMD [ARGS...]]\n"
	"                    [--target TARGET [--target-dir DIR]]\n"
	"       trax collect --extract INSTANCE -o OUT.dat\n"
	"       trax collect --list-presets\n"
	"       trax collect --print-perfetto-config [-e EVENTS] [-p PRESETS] [-b KB] [-t SECS]\n"
	"                    [--atrace CATS] [--atrace-apps APPS]\n"
	"\n"
	"Capture ftrace events in a private tracefs instance while a workload runs, draining the\n"
	"per-CPU ring buffers as it goes, and write a trace.dat (version 6) that trace-cmd and\n"
	"trax read. Needs root. The instance is removed at the end, also on error or signal.\n"
	"\n"
	"  -o, --output OUT.dat  trace to write; the workload's stdout and stderr go to OUT.log\n"
	"  -e, --events LIST     events: NAME, SYSTEM, SYSTEM:NAME, SYSTEM:* (comma separated)\n"
	"  -p, --preset LIST     presets: sched, power, thermal, memory, fence, android; each\n"
	"                        takes the events this kernel has (default: sched)\n"
	"  -b, --buffer KB       ring buffer per CPU, in KB (default: the kernel's)\n"
	"  -C, --clock CLOCK     trace clock (default: local)\n"
	"  -t, --duration SECS   stop after SECS seconds (the workload is stopped); without a\n"
	"                        workload, capture until SECS or a signal (Ctrl-C)\n"
	"  -w, --workload FILE   run an rt-app JSON file, or a trax workload JSON (converted\n"
	"                        to rt-app JSON, kept as OUT.rtapp.json); needs rt-app\n"
	"  -- CMD [ARGS...]      run CMD (no shell)\n"
	"      --cmdlines N      saved_cmdlines_size during the capture (global; restored)\n"
	"      --db DB           also load the trace into the database DB\n"
	"      --ignore-status   a workload exiting non-zero is not an error\n"
	"      --no-kallsyms     leave /proc/kallsyms out of the trace\n"
	"      --no-redirect     do not show the instance as the workload's tracefs\n"
	"      --extract NAME    write the content of the existing instance NAME (tracing\n"
	"                        in it is turned off; the instance stays)\n"
	"      --target TARGET   capture there: local (default), ssh://[user@]host[:port],\n"
	"                        adb or adb:SERIAL; the workload runs there, the trace comes\n"
	"                        back to OUT (the target runs the static collector of\n"
	"                        `make static`, pushed on first use; see doc/devices.md)\n"
	"      --target-dir DIR  folder on the target (default /tmp; adb: /data/local/tmp)\n"
	"      --list-presets    print the presets and their events\n"
	"      --print-perfetto-config  print the Perfetto trace config (text) that a device\n"
	"                        without root records for these options, and on stderr what\n"
	"                        that path cannot record (doc/android.md)\n"
	"      --atrace CATS     Perfetto only: atrace categories to add (comma separated)\n"
	"      --atrace-apps APPS  Perfetto only: apps whose atrace markers to record\n"
	"  -h, --help            this help\n"
	"\n"
	"Exit status: 0 captured; 2 usage error, not root, no tracefs, unknown event, rt-app\n"
	"absent, workload failure, interruption or write error (no OUT.dat is left; a trace of\n"
	"a failed or interrupted run is kept as OUT.dat.incomplete).\n";

static struct trax_capture *running;

static void on_signal(int sig)
{
	trax_capture_interrupt(running, sig);
}

static void print_note(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "trax collect: %s\n", msg);
}

/* --tether (what a capture on a target runs): the capture ends when stdin closes, that is
 * when the connection that started it is gone. */
static void *tether_watch(void *arg)
{
	char buf[256];
	ssize_t n;

	(void)arg;
	while ((n = read(0, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		;
	trax_capture_interrupt(running, SIGHUP);
	return NULL;
}

static void on_signal_remote(int sig)
{
	(void)sig;
	trax_remote_interrupt();
}

static void print_warning(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "trax collect: warning: %s\n", msg);
}

static int list_presets(void)
{
	for (const char *const *p = trax_collect_presets(); *p; p++) {
		const char *const *ev = trax_collect_preset_events(*p);

		printf("%s:", *p);
		for (int i = 0; ev[i]; i++)
			printf(" %s", ev[i]);
		printf("\n");
	}
	return EXIT_OK;
}

/* The config on stdout, the path's limits on stderr (so that stdout is the config alone). */
static int print_perfetto_config(const struct trax_collect_opts *o)
{
	struct trax_error err = { 0 };
	char *text, **limits;

	if (trax_perfetto_config(o, &text, &err))
		return cmd_usage_error("collect", "%s", err.msg);
	fputs(text, stdout);
	free(text);
	limits = trax_perfetto_limits(o);
	for (char **p = limits; *p; p++)
		fprintf(stderr, "trax collect: perfetto path: %s\n", *p);
	trax_perfetto_limits_free(limits);
	return EXIT_OK;
}

static int parse_uint(const char *s, unsigned max, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || v == 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

/* --target: the capture runs on the target (collect/remote.c). */
static int collect_on_target(struct trax_collect_opts *o, const char *spec, const char *dir)
{
	struct trax_error err = { 0 };
	struct trax_target *t;
	struct sigaction sa;
	int ret;

	if (o->extract)
		return cmd_usage_error("collect", "--extract reads this machine's tracefs: not with "
				       "--target");
	if (o->argv && o->argv[0] && o->workload)
		return cmd_usage_error("collect", "either -w WORKLOAD or -- CMD, not both");
	if (o->presets && trax_collect_check_presets(o->presets, &err))
		return cmd_usage_error("collect", "%s", err.msg);
	if (target_parse(spec, &t, &err))
		return cmd_usage_error("collect", "%s", err.msg);
	{
		const char *in[] = { o->workload };
		char *inc = NULL;
		const char *outs[3] = { o->output, NULL, o->db };

		if (asprintf(&inc, "%s.incomplete", o->output) < 0)
			inc = NULL;
		outs[1] = inc;
		ret = trax_outfile_check(in, 1, outs, 3, &err);
		free(inc);
		if (!ret && trax_outfile_special(o->output))
			ret = trax_error_set(&err, TRAX_E_USAGE, "%s: not a regular file (a trace "
					     "is written to a file)", o->output);
		if (ret) {
			target_free(t);
			return cmd_usage_error("collect", "%s", err.msg);
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal_remote;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	ret = trax_collect_remote(o, t, dir, &err);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	target_free(t);
	if (ret)
		return cmd_fail("collect", &err);
	if (o->db)
		printf("database: %s\n", o->db);
	return EXIT_OK;
}

int cmd_collect(int argc, char **argv)
{
	enum { O_CMDLINES = 256, O_DB, O_IGNORE, O_NOKSYMS, O_NOREDIR, O_EXTRACT, O_LIST,
	       O_TARGET, O_TARGET_DIR, O_TETHER, O_PFCONFIG, O_ATRACE, O_ATRACE_APPS };
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "events", required_argument, NULL, 'e' },
		{ "preset", required_argument, NULL, 'p' },
		{ "buffer", required_argument, NULL, 'b' },
		{ "clock", required_argument, NULL, 'C' },
		{ "duration", required_argument, NULL, 't' },
		{ "workload", required_argument, NULL, 'w' },
		{ "cmdlines", required_argument, NULL, O_CMDLINES },
		{ "db", required_argument, NULL, O_DB },
		{ "ignore-status", no_argument, NULL, O_IGNORE },
		{ "no-kallsyms", no_argument, NULL, O_NOKSYMS },
		{ "no-redirect", no_argument, NULL, O_NOREDIR },
		{ "extract", required_argument, NULL, O_EXTRACT },
		{ "list-presets", no_argument, NULL, O_LIST },
		{ "target", required_argument, NULL, O_TARGET },
		{ "target-dir", required_argument, NULL, O_TARGET_DIR },
		{ "tether", no_argument, NULL, O_TETHER },
		{ "print-perfetto-config", no_argument, NULL, O_PFCONFIG },
		{ "atrace", required_argument, NULL, O_ATRACE },
		{ "atrace-apps", required_argument, NULL, O_ATRACE_APPS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct trax_collect_opts o = { .warn = print_warning, .note = print_note };
	const char *target = NULL, *target_dir = NULL;
	int tether = 0;
	struct trax_error err = { 0 };
	struct trax_capture *cap = NULL;
	const struct trax_capture_stats *st;
	struct sigaction sa;
	char *end;
	int c, ret, pfconfig = 0;

	if (cmd_wants_help(argc, argv, cmd_collect_usage))
		return EXIT_OK;
	optind = 1;
	/* '+': options stop at the first non-option (the workload's command) */
	while ((c = cmd_getopt("collect", argc, argv, "+o:e:p:b:C:t:w:h", opts)) != -1) {
		switch (c) {
		case 'o': o.output = optarg; break;
		case 'e': o.events = optarg; break;
		case 'p': o.presets = optarg; break;
		case 'b':
			if (parse_uint(optarg, 1u << 30, &o.buffer_kb))
				return cmd_usage_error("collect", "-b takes a size in KB, got '%s'",
						       optarg);
			break;
		case 'C': o.clock = optarg; break;
		case 't':
			o.duration = strtod(optarg, &end);
			if (end == optarg || *end || !(o.duration > 0))
				return cmd_usage_error("collect", "-t takes seconds, got '%s'",
						       optarg);
			break;
		case 'w': o.workload = optarg; break;
		case O_CMDLINES:
			if (parse_uint(optarg, 1u << 20, &o.cmdlines))
				return cmd_usage_error("collect", "--cmdlines takes a count, got "
						       "'%s'", optarg);
			break;
		case O_DB: o.db = optarg; break;
		case O_IGNORE: o.ignore_status = 1; break;
		case O_NOKSYMS: o.no_kallsyms = 1; break;
		case O_NOREDIR: o.no_redirect = 1; break;
		case O_EXTRACT: o.extract = optarg; break;
		case O_LIST: return list_presets();
		case O_TARGET: target = optarg; break;
		case O_TARGET_DIR: target_dir = optarg; break;
		case O_TETHER: tether = 1; break;
		case O_PFCONFIG: pfconfig = 1; break;
		case O_ATRACE: o.atrace_categories = optarg; break;
		case O_ATRACE_APPS: o.atrace_apps = optarg; break;
		case 'h':
			return EXIT_OK;
		default:
			return EXIT_INPUT;
		}
	}
	if (optind < argc)
		o.argv = argv + optind;
	if (pfconfig)
		return print_perfetto_config(&o);
	if ((o.atrace_categories || o.atrace_apps) && !(target && !strncmp(target, "adb", 3)))
		return cmd_usage_error("collect", "--atrace and --atrace-apps apply to Perfetto "
				       "captures: --target adb (see --print-perfetto-config)");
	if (!o.output)
		return cmd_usage_error("collect", "missing -o OUT.dat");
#ifdef TRAX_STATIC
	/* loading needs the trace.dat reader (static/none.c): said before anything is captured */
	if (o.db) {
		fprintf(stderr, "trax collect: --db %s: this static build of trax cannot load "
			"trace.dat files (it has no libtracecmd); capture without --db and load "
			"%s with a full trax\n", o.db, o.output);
		return EXIT_INPUT;
	}
#endif
	if (target && strcmp(target, "local"))
		return collect_on_target(&o, target, target_dir);
	if (target_dir)
		return cmd_usage_error("collect", "--target-dir goes with --target");
	ret = trax_capture_alloc(&o, &cap, &err);
	if (ret)
		return cmd_usage_error("collect", "%s", err.msg);
	if (tether) {
		pthread_t th;

		running = cap;
		if (pthread_create(&th, NULL, tether_watch, NULL) == 0)
			pthread_detach(th);
	}

	running = cap;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: the capture's waits return and see the stop */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	ret = trax_capture_run(cap, &err);
	st = trax_capture_get_stats(cap);
	if (!ret) {
		printf("%s: %d CPUs, %d event types, %llu events", st->output, st->ncpus,
		       st->nevents, (unsigned long long)st->events);
		if (st->seconds > 0)
			printf(" in %.1f s (%.0f/s)", st->seconds, st->events / st->seconds);
		printf(", %.1f MB; ", st->bytes / 1048576.0);
		if (st->overrun + st->commit_overrun + st->dropped + st->marked_lost)
			printf("%llu events lost\n", (unsigned long long)(st->overrun +
			       st->commit_overrun + st->dropped));
		else
			printf("none lost\n");
		if (st->log)
			printf("workload log: %s\n", st->log);
		if (o.db)
			printf("database: %s\n", o.db);
	}
	sa.sa_handler = SIG_DFL;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	running = NULL;
	trax_capture_free(cap);
	if (ret)
		return cmd_fail("collect", &err);
	return EXIT_OK;
}
