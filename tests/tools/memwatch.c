/* tests/tools/memwatch.c: run a command, poll its memory, report wall time and peak RSS. */
/*
 * usage: memwatch [-i INTERVAL_MS] [-o REPORT] -- COMMAND [ARGS...]
 *
 * Runs COMMAND (its stdout and stderr are memwatch's), reads /proc/PID/status every
 * INTERVAL_MS (default 2) while it runs, and writes one line to REPORT (default stderr):
 *   wall_s=1.234 rss_anon_peak_kb=51234 rss_peak_kb=412345 status=0
 * RssAnon is the anonymous part of the resident set (heap, stacks); RSS also counts file
 * pages mapped by the process (libtracecmd maps the trace). Exits with COMMAND's status.
 * Used by tests/bench/run.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* RssAnon and VmRSS of pid, in kB; 0 when gone. */
static void sample(const char *path, long *anon, long *rss)
{
	char buf[4096], *p;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*anon = *rss = 0;
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	p = strstr(buf, "\nRssAnon:");
	if (p)
		*anon = strtol(p + 9, NULL, 10);
	p = strstr(buf, "\nVmRSS:");
	if (p)
		*rss = strtol(p + 7, NULL, 10);
}

int main(int argc, char **argv)
{
	const char *report = NULL;
	long interval_ms = 2, anon, rss, anon_peak = 0, rss_peak = 0;
	char path[64];
	struct timespec iv;
	double t0, wall;
	int i = 1, status = 0, code;
	pid_t pid;
	FILE *out = stderr;

	while (i < argc && strcmp(argv[i], "--")) {
		if (!strcmp(argv[i], "-i") && i + 1 < argc) {
			interval_ms = strtol(argv[i + 1], NULL, 10);
			i += 2;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			report = argv[i + 1];
			i += 2;
		} else {
			break;
		}
	}
	if (i >= argc || strcmp(argv[i], "--") || i + 1 >= argc || interval_ms <= 0) {
		fprintf(stderr,
			"usage: memwatch [-i INTERVAL_MS] [-o REPORT] -- COMMAND [ARGS...]\n");
		return 2;
	}
	argv += i + 1;
	t0 = now_s();
	pid = fork();
	if (pid < 0) {
		perror("memwatch: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "memwatch: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	iv.tv_sec = interval_ms / 1000;
	iv.tv_nsec = (interval_ms % 1000) * 1000000L;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			perror("memwatch: waitpid");
			return 2;
		}
		sample(path, &anon, &rss);
		if (anon > anon_peak)
			anon_peak = anon;
		if (rss > rss_peak)
			rss_peak = rss;
		nanosleep(&iv, NULL);
	}
	wall = now_s() - t0;
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (report) {
		out = fopen(report, "w");
		if (!out) {
			fprintf(stderr, "memwatch: %s: %s\n", report, strerror(errno));
			return 2;
		}
	}
	fprintf(out, "wall_s=%.3f rss_anon_peak_kb=%ld rss_peak_kb=%ld status=%d\n", wall,
		anon_peak, rss_peak, code);
	if (report)
		fclose(out);
	return code;
}
