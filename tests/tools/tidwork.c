/* tests/tools/tidwork.c: a workload whose threads report their own identity as trace markers. */
/*
 * usage: tidwork BLOCK_DEVICE   (one nobody else holds open, e.g. a fresh loop device;
 *                                its first 16 MiB are overwritten)
 *
 * Under `trax collect` the workload's tracefs is the capture's instance, so the markers land
 * in the capture. Each thread names itself, burns CPU, sleeps, burns again, and just before
 * it ends writes one line
 *
 *   tidwork: name=NAME pid=TID tgid=PID cpu_ns=N
 *
 * with gettid(), getpid() and its own CPU time (CLOCK_THREAD_CPUTIME_ID) until then. The
 * shape, so that a test knows what to expect without reading the trace:
 *
 *   tidwork          the first thread of process 1; starts, joins and reaps the others
 *   tw-thread-1..3   threads of process 1 (clone with CLONE_THREAD)
 *   tw-child         process 2 (fork)
 *   tw-child-thr     a thread of process 2
 *   tw-blocker       process 3 (fork): dirties 16 MiB of BLOCK_DEVICE's page cache and
 *                    exits, so its exit blocks (after sched_process_exit, state D) in the
 *                    last close's write-back, then runs again to its end
 *
 * 7 threads in 3 processes. Exit status 0, or 1 with a message when a step fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *marker_path = "/sys/kernel/tracing/trace_marker";

static void die(const char *what)
{
	fprintf(stderr, "tidwork: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void burn_ms(int ms)
{
	int64_t until = cpu_ns() + (int64_t)ms * 1000000;
	volatile unsigned x = 0;

	while (cpu_ns() < until)
		for (int i = 0; i < 1000; i++)
			x += i;
}

static void nap_ms(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

static void name_self(const char *name)
{
	if (prctl(PR_SET_NAME, name, 0, 0, 0))
		die("prctl");
}

/* The thread's report: its last action. */
static void report(const char *name)
{
	char line[200];
	int fd = open(marker_path, O_WRONLY | O_CLOEXEC), n;

	if (fd < 0)
		die(marker_path);
	n = snprintf(line, sizeof(line), "tidwork: name=%s pid=%d tgid=%d cpu_ns=%lld\n", name,
		     (int)gettid(), (int)getpid(), (long long)cpu_ns());
	if (write(fd, line, n) != n)
		die("write trace_marker");
	close(fd);
}

static void work(const char *name, int ms)
{
	name_self(name);
	burn_ms(ms);
	nap_ms(10);
	burn_ms(ms / 2);
}

static void *thread_main(void *arg)
{
	const char *name = arg;

	work(name, 40);
	report(name);
	return NULL;
}

static void child_process(void)
{
	pthread_t t;

	work("tw-child", 30);
	if (pthread_create(&t, NULL, thread_main, "tw-child-thr"))
		die("pthread_create");
	pthread_join(t, NULL);
	report("tw-child");
	_exit(0);
}

/*
 * Dirty the page cache of a block device nobody else holds open, then exit: the exit closes
 * the device (after sched_process_exit), and the last close writes the dirty pages back and
 * waits for them (state D) before the task runs on to its end.
 */
static void blocker_process(const char *dev)
{
	static char buf[1 << 20];
	int fd;

	name_self("tw-blocker");
	burn_ms(20);
	fd = open(dev, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		die(dev);
	memset(buf, 'x', sizeof(buf));
	for (int i = 0; i < 16; i++)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			die("write to the block device");
	report("tw-blocker");
	_exit(0);	/* the exit closes fd and waits for the write-back */
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "tw-thread-1", "tw-thread-2", "tw-thread-3" };
	pthread_t t[3];
	pid_t child, blocker;
	int st;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: tidwork BLOCK_DEVICE\n");
		return 2;
	}
	name_self("tidwork");

	burn_ms(20);
	/*
	 * Fork before starting threads: a fork while other threads run may copy a lock one of
	 * them holds (the sanitizers' allocator, say), and the child waits on it forever.
	 */
	child = fork();
	if (child < 0)
		die("fork");
	if (!child)
		child_process();
	blocker = fork();
	if (blocker < 0)
		die("fork");
	if (!blocker)
		blocker_process(argv[1]);
	for (int i = 0; i < 3; i++)
		if (pthread_create(&t[i], NULL, thread_main, (void *)names[i]))
			die("pthread_create");
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st))
		die("tw-child");
	if (waitpid(blocker, &st, 0) != blocker || !WIFEXITED(st) || WEXITSTATUS(st))
		die("tw-blocker");
	report("tidwork");
	return 0;
}
