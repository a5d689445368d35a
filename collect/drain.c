/* collect/drain.c: one reader thread moving every CPU's ring-buffer pages into files. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "collect/collect-local.h"

/*
 * The thread polls every CPU's trace_pipe_raw (the kernel wakes it when the instance's
 * buffer_percent of a buffer is filled) with a timeout, and splices the full pages of each
 * CPU into that CPU's file with tracefs_cpu_write(). After tracing is off, drain_stop() has
 * it splice what is left and read the last partial pages (tracefs_cpu_flush_write()).
 */

#define POLL_MS 50

struct drain_cpu {
	int raw_fd;			/* trace_pipe_raw, O_NONBLOCK */
	int stats_fd;			/* per_cpu/cpuN/stats */
	uint64_t overrun;		/* as last read */
	struct drain_ckpt *ck;
	int nck, cck;
	struct tracefs_cpu *tcpu;
	int out_fd;
	char *path;
	uint64_t bytes;
};

struct drain {
	int ncpus, page_size;
	const char *label;		/* the trace's name, for messages */
	struct drain_cpu *cpu;
	pthread_t thread;
	int started;
	int wake[2];			/* a byte here ends the poll */
	volatile int stop;
	volatile int failed;		/* set by the thread; err then holds the message */
	struct trax_error err;
};

/* Read the CPU's overrun; a change since the last read makes a checkpoint at the bytes moved. */
static void checkpoint(struct drain_cpu *c)
{
	char buf[512], *p;
	ssize_t n;
	uint64_t v;

	if (c->stats_fd < 0)
		return;
	n = pread(c->stats_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return;
	buf[n] = '\0';
	p = strstr(buf, "\noverrun:");
	if (!p && !strncmp(buf, "overrun:", 8))
		p = buf - 1;
	if (!p)
		return;
	v = strtoull(p + 9, NULL, 10);
	if (v == c->overrun)
		return;
	c->overrun = v;
	if (c->nck == c->cck) {
		c->cck = c->cck ? 2 * c->cck : 16;
		c->ck = realloc(c->ck, c->cck * sizeof(*c->ck));
		if (!c->ck)
			abort();
	}
	c->ck[c->nck].bytes = c->bytes;
	c->ck[c->nck].overrun = v;
	c->nck++;
}

/* A failed write: named after the trace (the temporary file is an implementation detail). */
static void write_error(struct drain *d, struct drain_cpu *c, int cpu)
{
	int e = errno;

	trax_error_set(&d->err, TRAX_E_IO, "%s: %s%s (writing CPU %d's data to %s)", d->label,
		       strerror(e), e == ENOSPC ? ", disk full" : "", cpu, c->path);
}

static int move_pages(struct drain *d, struct drain_cpu *c, int cpu)
{
	for (int rounds = 0; rounds < 1024; rounds++) {
		int n = tracefs_cpu_write(c->tcpu, c->out_fd, true);

		if (n > 0) {
			c->bytes += n;
			checkpoint(c);
			continue;
		}
		if (n == 0 || errno == EAGAIN || errno == EINTR)
			return 0;
		write_error(d, c, cpu);
		return -1;
	}
	return 0;
}

static int flush_partial(struct drain *d, struct drain_cpu *c, int cpu)
{
	/* each call reads one page: the rest of the ring buffer, full or partial */
	for (;;) {
		int n = tracefs_cpu_flush_write(c->tcpu, c->out_fd);

		if (n > 0) {
			c->bytes += n;
			checkpoint(c);
			continue;
		}
		if (n == 0 || errno == EAGAIN)
			return 0;
		if (errno == EINTR)
			continue;
		write_error(d, c, cpu);
		return -1;
	}
}

static void *drain_thread(void *arg)
{
	struct drain *d = arg;
	struct pollfd *pfd = calloc(d->ncpus + 1, sizeof(*pfd));

	struct sched_param sp = { .sched_priority = 1 };

	if (!pfd)
		abort();
	/*
	 * The lowest real-time priority: above every normal task, so a busy system cannot
	 * starve the drain into overruns, and below any real-time workload.
	 */
	if (getenv("TRAX_DRAIN_NORMAL") == NULL)
		pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	for (int i = 0; i < d->ncpus; i++) {
		pfd[i].fd = d->cpu[i].raw_fd;
		pfd[i].events = POLLIN;
	}
	pfd[d->ncpus].fd = d->wake[0];
	pfd[d->ncpus].events = POLLIN;
	while (!d->stop && !d->failed) {
		int r = poll(pfd, d->ncpus + 1, POLL_MS);

		if (r < 0 && errno != EINTR) {
			trax_error_set(&d->err, TRAX_E_IO, "poll on trace_pipe_raw: %s",
				       strerror(errno));
			d->failed = 1;
			break;
		}
		/* whatever woke us (or the timeout), move every CPU's full pages */
		for (int i = 0; i < d->ncpus && !d->failed; i++)
			if (move_pages(d, &d->cpu[i], i))
				d->failed = 1;
	}
	/* tracing is off: the full pages, then the partial ones */
	for (int i = 0; i < d->ncpus && !d->failed; i++)
		if (move_pages(d, &d->cpu[i], i) || flush_partial(d, &d->cpu[i], i))
			d->failed = 1;
	free(pfd);
	return NULL;
}

int drain_start(struct tracefs_instance *inst, int ncpus, int page_size, const char *tmp_prefix,
		const char *label, struct drain **out, struct trax_error *err)
{
	struct drain *d = calloc(1, sizeof(*d));
	sigset_t all, old;
	int ret = 0;

	if (!d)
		abort();
	*out = d;
	d->ncpus = ncpus;
	d->page_size = page_size;
	d->label = label;
	d->wake[0] = d->wake[1] = -1;
	d->cpu = calloc(ncpus, sizeof(*d->cpu));
	if (!d->cpu)
		abort();
	for (int i = 0; i < ncpus; i++)
		d->cpu[i].raw_fd = d->cpu[i].out_fd = d->cpu[i].stats_fd = -1;
	for (int i = 0; i < ncpus; i++) {
		struct drain_cpu *c = &d->cpu[i];
		char rel[64];
		struct strbuf sb = STRBUF_INIT;

		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/trace_pipe_raw", i);
		c->raw_fd = tracefs_instance_file_open(inst, rel, O_RDONLY | O_NONBLOCK);
		if (c->raw_fd < 0)
			return trax_error_set(err, TRAX_E_TRACEFS, "instance %s: cannot open %s: "
					      "%s", tracefs_instance_get_name(inst), rel,
					      strerror(errno));
		c->tcpu = tracefs_cpu_alloc_fd(c->raw_fd, page_size, true);
		if (!c->tcpu)
			return trax_error_set(err, TRAX_E_TRACEFS, "instance %s: cannot read %s",
					      tracefs_instance_get_name(inst), rel);
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", i);
		c->stats_fd = tracefs_instance_file_open(inst, rel, O_RDONLY);
		strbuf_addf(&sb, "%s.cpu%d", tmp_prefix, i);
		c->path = strbuf_detach(&sb);
		c->out_fd = open(c->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (c->out_fd < 0)
			return trax_error_set(err, TRAX_E_IO, "%s: %s", c->path, strerror(errno));
	}
	if (pipe2(d->wake, O_CLOEXEC | O_NONBLOCK))
		return trax_error_set(err, TRAX_E_IO, "pipe: %s", strerror(errno));
	/* signals are for the main thread: it stops the capture */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = pthread_create(&d->thread, NULL, drain_thread, d);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		return trax_error_set(err, TRAX_E_IO, "cannot start the reader thread: %s",
				      strerror(ret));
	d->started = 1;
	return 0;
}

int drain_failed(struct drain *d, struct trax_error *err)
{
	if (!d || !d->failed)
		return 0;
	if (err)
		*err = d->err;
	return 1;
}

int drain_stop(struct drain *d, struct trax_error *err)
{
	char b = 1;

	if (!d || !d->started)
		return 0;
	d->stop = 1;
	if (write(d->wake[1], &b, 1) < 0) {
		/* the thread sees stop at its next timeout */
	}
	pthread_join(d->thread, NULL);
	d->started = 0;
	if (d->failed) {
		if (err)
			*err = d->err;
		return -(d->err.code ? d->err.code : TRAX_E_IO);
	}
	return 0;
}

int drain_cpu_fd(const struct drain *d, int cpu)
{
	return d->cpu[cpu].out_fd;
}

uint64_t drain_cpu_bytes(const struct drain *d, int cpu)
{
	return d->cpu[cpu].bytes;
}

int drain_cpu_checkpoints(const struct drain *d, int cpu, const struct drain_ckpt **ck)
{
	*ck = d->cpu[cpu].ck;
	return d->cpu[cpu].nck;
}

void drain_free(struct drain *d)
{
	if (!d)
		return;
	if (d->started) {
		d->stop = 1;
		pthread_join(d->thread, NULL);
	}
	for (int i = 0; i < d->ncpus; i++) {
		struct drain_cpu *c = &d->cpu[i];

		if (c->tcpu)
			tracefs_cpu_free_fd(c->tcpu);
		if (c->raw_fd >= 0)
			close(c->raw_fd);
		if (c->stats_fd >= 0)
			close(c->stats_fd);
		free(c->ck);
		if (c->out_fd >= 0)
			close(c->out_fd);
		if (c->path)
			unlink(c->path);
		free(c->path);
	}
	if (d->wake[0] >= 0)
		close(d->wake[0]);
	if (d->wake[1] >= 0)
		close(d->wake[1]);
	free(d->cpu);
	free(d);
}
