/* tests/tools/memhog.c: a process that names itself and allocates memory until it is killed. */
/*
 * usage: memhog NAME CHUNK_KB INTERVAL_MS [MAX_KB]
 *
 * Sets its comm to NAME (a task_rename event), then every INTERVAL_MS allocates CHUNK_KB and
 * writes to every page of it, so that the memory is really charged to its cgroup. With MAX_KB
 * it stops growing at that size and sleeps until a signal ends it; without, it grows until the
 * kernel's OOM killer ends it. Used by tests/fixtures/record.sh to record an OOM trace.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static long arg_long(const char *s, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0) {
		fprintf(stderr, "memhog: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long chunk_kb, interval_ms, max_kb = 0, total_kb = 0;
	struct timespec ts;
	long page = sysconf(_SC_PAGESIZE);

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: memhog NAME CHUNK_KB INTERVAL_MS [MAX_KB]\n");
		return 2;
	}
	chunk_kb = arg_long(argv[2], "CHUNK_KB");
	interval_ms = arg_long(argv[3], "INTERVAL_MS");
	if (argc == 5)
		max_kb = arg_long(argv[4], "MAX_KB");
	if (chunk_kb == 0) {
		fprintf(stderr, "memhog: CHUNK_KB must be > 0\n");
		return 2;
	}
	prctl(PR_SET_NAME, argv[1], 0, 0, 0);
	ts.tv_sec = interval_ms / 1000;
	ts.tv_nsec = (interval_ms % 1000) * 1000000L;
	for (;;) {
		if (!max_kb || total_kb + chunk_kb <= max_kb) {
			char *p = malloc((size_t)chunk_kb * 1024);

			if (!p) {
				fprintf(stderr, "memhog: malloc failed at %ld KiB\n", total_kb);
				pause();
				continue;
			}
			for (long i = 0; i < chunk_kb * 1024; i += page)
				p[i] = (char)i | 1;
			total_kb += chunk_kb;
		}
		nanosleep(&ts, NULL);
	}
	return 0;
}
