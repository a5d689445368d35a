/* collect/drain.c: the reader thread moving every CPU's ring-buffer pages, and the writer. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "collect/collect-local.h"
#include "util/xalloc.h"

/*
 * Two threads. The reader polls every CPU's trace_pipe_raw (the kernel wakes it when a
 * quarter of a buffer is filled, the instance's buffer_percent) with a timeout, and splices
 * the full pages of each CPU into that CPU's pipe: a move of page references, no copy, no
 * I/O, so the reader never waits on the disk (a write can block for tens of milliseconds,
 * time in which a small ring buffer overflows). The writer splices each pipe into the CPU's
 * file. The pipes are large (16 MB where the kernel allows), so the disk may stall that long
 * before the reader has to leave pages in the ring buffer. After tracing is off, the reader
 * moves the remaining full pages, then reads the partial ones (tracefs_cpu_flush()) into the
 * pipe, and closes it; the writer ends at the pipes' end.
 */

#define POLL_MS 50
#define PIPE_BYTES (16 << 20)

struct drain_cpu {
	int raw_fd;			/* trace_pipe_raw, O_NONBLOCK */
	struct tracefs_cpu *tcpu;
	int pipe[2];			/* reader -> writer, both O_NONBLOCK */
	int stats_fd;			/* per_cpu/cpuN/stats */
	int out_fd;
	char *path;
	uint64_t moved;			/* bytes into the pipe (the reader's) */
	uint64_t bytes;			/* bytes into the file (the writer's) */
	uint64_t overrun;		/* as last read */
	struct drain_ckpt *ck;
	int nck, cck;
	int eof;			/* the writer met the pipe's end */
};

struct drain {
	int ncpus, page_size;
	const char *label;		/* the trace's name, for messages */
	struct drain_cpu *cpu;
	pthread_t reader, writer;
	int reader_started, writer_started;
	int wake[2];			/* a byte here ends the reader's poll */
	volatile int stop;
	volatile int failed;		/* set by a thread; err then holds the message */
	pthread_mutex_t lock;		/* err */
	struct trax_error err;
};

static void set_failed(struct drain *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_failed(struct drain *d, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&d->lock);
	if (!d->failed) {
		va_start(ap, fmt);
		trax_error_vset(&d->err, TRAX_E_IO, fmt, ap);
		va_end(ap);
		d->failed = 1;
	}
	pthread_mutex_unlock(&d->lock);
}

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
	if (!strncmp(buf, "overrun:", 8))
		p = buf;
	else if ((p = strstr(buf, "\noverrun:")))
		p++;
	else
		return;
	v = strtoull(p + 8, NULL, 10);
	if (v == c->overrun)
		return;
	c->overrun = v;
	if (c->nck == c->cck) {
		c->cck = c->cck ? 2 * c->cck : 16;
		c->ck = xrealloc(c->ck, c->cck * sizeof(*c->ck));
	}
	c->ck[c->nck].bytes = c->moved;
	c->ck[c->nck].overrun = v;
	c->nck++;
}

/* ---- the reader ---- */

/* Splice the CPU's full pages into its pipe until none is left or the pipe is full. */
static int move_pages(struct drain *d, struct drain_cpu *c, int cpu)
{
	for (int rounds = 0; rounds < 4096; rounds++) {
		/* tracefs_cpu_pipe() of libtracefs 1.6 splices 0 bytes (its pipe size is only
		 * set by tracefs_cpu_write()): the splice is done here */
		ssize_t n = splice(c->raw_fd, NULL, c->pipe[1], NULL, 1 << 20,
				   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

		if (n > 0) {
			c->moved += n;
			checkpoint(c);
			continue;
		}
		if (n == 0 || errno == EAGAIN || errno == EINTR)
			return 0;
		set_failed(d, "%s: reading CPU %d's ring buffer: %s", d->label, cpu,
			   strerror(errno));
		return -1;
	}
	return 0;
}

/* Write all of buf into the CPU's pipe, waiting for the writer to make room. */
static int pipe_put(struct drain *d, struct drain_cpu *c, const char *buf, size_t len)
{
	while (len && !d->failed) {
		ssize_t n = write(c->pipe[1], buf, len);

		if (n > 0) {
			buf += n;
			len -= n;
			c->moved += n;
		} else if (n < 0 && errno == EAGAIN) {
			struct pollfd p = { .fd = c->pipe[1], .events = POLLOUT };

			poll(&p, 1, POLL_MS);
		} else if (!(n < 0 && errno == EINTR)) {
			return -1;
		}
	}
	return d->failed ? -1 : 0;
}

/* Tracing is off: what is left, full pages first, then the partial ones (read()). */
static void final_pages(struct drain *d, struct drain_cpu *c, int cpu)
{
	char *buf = xmalloc(d->page_size);
	int n;

	for (;;) {
		struct pollfd p = { .fd = c->pipe[1], .events = POLLOUT };
		uint64_t before = c->moved;

		if (move_pages(d, c, cpu) || d->failed)
			break;
		if (c->moved == before) {
			/* nothing moved: no full page left, or the pipe is full */
			if (poll(&p, 1, 0) > 0)
				break;
			poll(&p, 1, POLL_MS);
		}
	}
	while (!d->failed && (n = tracefs_cpu_flush(c->tcpu, buf)) > 0) {
		if (pipe_put(d, c, buf, n))
			break;
		checkpoint(c);
	}
	free(buf);
}

static void *reader_thread(void *arg)
{
	struct drain *d = arg;
	struct pollfd *pfd = xcalloc(d->ncpus + 1, sizeof(*pfd));
	struct sched_param sp = { .sched_priority = 1 };

	/*
	 * The lowest real-time priority: above every normal task, so a busy system cannot
	 * starve the reader into overruns, and below any real-time workload.
	 */
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
			set_failed(d, "poll on trace_pipe_raw: %s", strerror(errno));
			break;
		}
		/* whatever woke us (or the timeout), move every CPU's full pages */
		for (int i = 0; i < d->ncpus && !d->failed; i++)
			move_pages(d, &d->cpu[i], i);
	}
	for (int i = 0; i < d->ncpus; i++) {
		if (!d->failed)
			final_pages(d, &d->cpu[i], i);
		close(d->cpu[i].pipe[1]);	/* the writer sees the end */
		d->cpu[i].pipe[1] = -1;
	}
	free(pfd);
	return NULL;
}

/* ---- the writer ---- */

static void *writer_thread(void *arg)
{
	struct drain *d = arg;
	struct pollfd *pfd = xcalloc(d->ncpus, sizeof(*pfd));
	struct sched_param sp = { .sched_priority = 1 };
	int open_pipes = d->ncpus;

	/* as the reader: a loaded system must not keep the pipes full (it mostly sleeps in I/O) */
	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	while (open_pipes && !d->failed) {
		for (int i = 0; i < d->ncpus; i++) {
			pfd[i].fd = d->cpu[i].eof ? -1 : d->cpu[i].pipe[0];
			pfd[i].events = POLLIN;
		}
		if (poll(pfd, d->ncpus, POLL_MS) < 0 && errno != EINTR)
			break;
		for (int i = 0; i < d->ncpus && !d->failed; i++) {
			struct drain_cpu *c = &d->cpu[i];

			while (!c->eof && !d->failed) {
				ssize_t n = splice(c->pipe[0], NULL, c->out_fd, NULL, 1 << 20,
						   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

				if (n > 0) {
					c->bytes += n;
				} else if (n == 0) {
					c->eof = 1;	/* the reader closed it: all written */
					open_pipes--;
				} else if (errno == EAGAIN || errno == EINTR) {
					break;
				} else {
					int e = errno;

					set_failed(d, "%s: %s%s (writing CPU %d's data to %s)",
						   d->label, strerror(e),
						   e == ENOSPC ? ", disk full" : "", i, c->path);
				}
			}
		}
	}
	free(pfd);
	return NULL;
}

/* ---- start, stop ---- */

int drain_start(struct tracefs_instance *inst, int ncpus, int page_size, const char *tmp_prefix,
		const char *label, struct drain **out, struct trax_error *err)
{
	struct drain *d = xcalloc(1, sizeof(*d));
	sigset_t all, old;
	int ret = 0;

	*out = d;
	d->ncpus = ncpus;
	d->page_size = page_size;
	d->label = label;
	d->wake[0] = d->wake[1] = -1;
	pthread_mutex_init(&d->lock, NULL);
	d->cpu = xcalloc(ncpus, sizeof(*d->cpu));
	for (int i = 0; i < ncpus; i++) {
		struct drain_cpu *c = &d->cpu[i];

		c->raw_fd = c->out_fd = c->stats_fd = c->pipe[0] = c->pipe[1] = -1;
	}
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
		if (pipe2(c->pipe, O_CLOEXEC | O_NONBLOCK))
			return trax_error_set(err, TRAX_E_IO, "pipe: %s", strerror(errno));
		/* as large as allowed (root may go past pipe-max-size), halving on refusal */
		for (int size = PIPE_BYTES; size >= 65536; size /= 2)
			if (fcntl(c->pipe[1], F_SETPIPE_SZ, size) >= 0)
				break;
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
	ret = pthread_create(&d->writer, NULL, writer_thread, d);
	if (!ret) {
		d->writer_started = 1;
		ret = pthread_create(&d->reader, NULL, reader_thread, d);
		d->reader_started = !ret;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		return trax_error_set(err, TRAX_E_IO, "cannot start the reader threads: %s",
				      strerror(ret));
	return 0;
}

int drain_failed(struct drain *d, struct trax_error *err)
{
	if (!d || !d->failed)
		return 0;
	if (err) {
		pthread_mutex_lock(&d->lock);
		*err = d->err;
		pthread_mutex_unlock(&d->lock);
	}
	return 1;
}

static void join_all(struct drain *d)
{
	char b = 1;

	d->stop = 1;
	if (d->wake[1] >= 0 && write(d->wake[1], &b, 1) < 0) {
		/* the reader sees stop at its next timeout */
	}
	if (d->reader_started)
		pthread_join(d->reader, NULL);
	else
		for (int i = 0; i < d->ncpus; i++)
			if (d->cpu[i].pipe[1] >= 0) {
				close(d->cpu[i].pipe[1]);
				d->cpu[i].pipe[1] = -1;
			}
	if (d->writer_started)
		pthread_join(d->writer, NULL);
	d->reader_started = d->writer_started = 0;
}

int drain_stop(struct drain *d, struct trax_error *err)
{
	if (!d || (!d->reader_started && !d->writer_started))
		return 0;
	join_all(d);
	if (!d->failed) {
		for (int i = 0; i < d->ncpus; i++)
			if (d->cpu[i].bytes != d->cpu[i].moved)
				set_failed(d, "%s: CPU %d: %llu bytes read, %llu written",
					   d->label, i, (unsigned long long)d->cpu[i].moved,
					   (unsigned long long)d->cpu[i].bytes);
	}
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
	if (d->reader_started || d->writer_started) {
		d->failed = 1;	/* no final flush: the capture is abandoned */
		join_all(d);
	}
	for (int i = 0; i < d->ncpus; i++) {
		struct drain_cpu *c = &d->cpu[i];

		if (c->tcpu)
			tracefs_cpu_free_fd(c->tcpu);
		if (c->raw_fd >= 0)
			close(c->raw_fd);
		if (c->stats_fd >= 0)
			close(c->stats_fd);
		for (int k = 0; k < 2; k++)
			if (c->pipe[k] >= 0)
				close(c->pipe[k]);
		if (c->out_fd >= 0)
			close(c->out_fd);
		if (c->path)
			unlink(c->path);
		free(c->path);
		free(c->ck);
	}
	if (d->wake[0] >= 0)
		close(d->wake[0]);
	if (d->wake[1] >= 0)
		close(d->wake[1]);
	pthread_mutex_destroy(&d->lock);
	free(d->cpu);
	free(d);
}
