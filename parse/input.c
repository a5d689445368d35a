/* parse/input.c: traces that arrive through a pipe, copied to a bounded temporary file first. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/input.h"
#include "parse/load.h"
#include "parse/parse.h"
#include "util/strbuf.h"
#include "util/tmpfiles.h"

#define PIPE_MAX_DEFAULT (4ULL << 30)
#define PIPE_TIMEOUT_DEFAULT 60
#define SNIFF_BYTES 65536	/* what trax_detect_format() reads */

int trax_input_is_stream(const char *path)
{
	struct stat st;

	if (!strcmp(path, "-"))
		return 1;
	return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* $name as a size ("512M", "4G", "100000"), or def when unset; -1 when it is no size. */
static long long env_size(const char *name, unsigned long long def)
{
	const char *v = getenv(name);
	unsigned long long n;
	char *end;

	if (!v || !*v)
		return def;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (end == v || errno || *v == '-')
		return -1;
	switch (*end) {
	case 'k': case 'K': n <<= 10; end++; break;
	case 'm': case 'M': n <<= 20; end++; break;
	case 'g': case 'G': n <<= 30; end++; break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	return *end || n > INT64_MAX ? -1 : (long long)n;
}

static void print_size(char *buf, size_t len, unsigned long long n)
{
	if (n >= (1ULL << 30) && !(n % (1ULL << 30)))
		snprintf(buf, len, "%llu GiB", n >> 30);
	else if (n >= (1ULL << 20) && !(n % (1ULL << 20)))
		snprintf(buf, len, "%llu MiB", n >> 20);
	else if (n >= 1024 && !(n % 1024))
		snprintf(buf, len, "%llu KiB", n >> 10);
	else
		snprintf(buf, len, "%llu bytes", n);
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= w;
	}
	return 0;
}

/* Copy fd into in->spool until end of file, within the bounds. */
static int spool(struct trax_input *in, int fd, struct trax_error *err)
{
	static char buf[65536];
	long long max = env_size("TRAX_PIPE_MAX", PIPE_MAX_DEFAULT);
	long long timeout = env_size("TRAX_PIPE_TIMEOUT", PIPE_TIMEOUT_DEFAULT);
	unsigned long long total = 0;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int sniffed = 0;
	char size[32];

	if (max < 0)
		return trax_error_set(err, TRAX_E_USAGE, "TRAX_PIPE_MAX=%s: not a size (want bytes, "
				      "or a number with K, M or G)", getenv("TRAX_PIPE_MAX"));
	if (timeout < 0 || timeout > 86400 * 365)
		return trax_error_set(err, TRAX_E_USAGE, "TRAX_PIPE_TIMEOUT=%s: not a number of "
				      "seconds", getenv("TRAX_PIPE_TIMEOUT"));
	for (;;) {
		ssize_t n;
		int pr = poll(&pfd, 1, timeout ? (int)(timeout * 1000) : -1);

		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0)
			return trax_error_set(err, TRAX_E_IO, "%s: %s", in->name, strerror(errno));
		if (pr == 0)
			return trax_error_set(err, TRAX_E_IO, "%s: nothing to read for %lld s (a FIFO "
					      "that no one writes to, or a stalled writer; "
					      "TRAX_PIPE_TIMEOUT sets the wait): pass the trace "
					      "as a file", in->name, timeout);
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return trax_error_set(err, TRAX_E_IO, "%s: %s", in->name, strerror(errno));
		if (n == 0)
			break;
		if (total + n > (unsigned long long)max) {
			print_size(size, sizeof(size), max);
			return trax_error_set(err, TRAX_E_IO, "%s: more than %s piped in (the bound "
					      "TRAX_PIPE_MAX sets): save the trace to a file and "
					      "pass the file", in->name, size);
		}
		if (write_all(in->spool_fd, buf, n) < 0)
			return trax_error_set(err, TRAX_E_IO, "%s: copying the piped trace to %s: %s",
					      in->name, in->spool, strerror(errno));
		total += n;
		if (!sniffed && total >= SNIFF_BYTES) {
			/* no trace at all: said now, not after the whole stream */
			enum trax_format fmt;

			sniffed = 1;
			if (trax_detect_format(in->spool, &fmt, err) ||
			    (fmt == TRAX_FMT_DAT && dat_check_header(in->spool, err))) {
				trax_input_rename_error(err, in->spool, in->name);
				return -err->code;
			}
		}
	}
	return 0;
}

int trax_input_open(struct trax_input *in, const char *path, const char *spool_base,
		    struct trax_error *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int fd, ret, own = 1;

	memset(in, 0, sizeof(*in));
	in->spool_fd = -1;
	in->name = strcmp(path, "-") ? path : "stdin";
	in->path = path;
	if (!strcmp(path, "-")) {
		fd = STDIN_FILENO;
		own = 0;
		in->path = "/dev/stdin";
	} else {
		/* non-blocking: opening a FIFO for reading would wait for a writer */
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			return 0;	/* detection says why, as for any file */
	}
	if (fstat(fd, &st) < 0) {
		ret = trax_error_set(err, TRAX_E_IO, "%s: %s", in->name, strerror(errno));
		goto out;
	}
	ret = 0;
	if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
		goto out;	/* read where it is (stdin from a file: through /dev/stdin) */
	if (isatty(fd)) {
		ret = trax_error_set(err, TRAX_E_USAGE, "%s: a terminal, not a trace: pipe a trace "
				     "in (ssh host cat trace.dat | trax load -) or pass a file",
				     in->name);
		goto out;
	}
	strbuf_addf(&sb, "%s.tmp-XXXXXX", spool_base);
	in->spool_fd = trax_tmpfile_create(sb.buf);
	if (in->spool_fd < 0) {
		ret = trax_error_set(err, TRAX_E_IO, "%s: cannot copy the piped trace: %s: %s",
				     in->name, sb.buf, strerror(errno));
		strbuf_release(&sb);
		goto out;
	}
	in->spool = strbuf_detach(&sb);
	in->path = in->spool;
	ret = spool(in, fd, err);
out:
	if (own)
		close(fd);
	return ret;
}

void trax_input_release(struct trax_input *in)
{
	if (in->spool) {
		unlink(in->spool);
		trax_tmpfile_forget(in->spool);
		free(in->spool);
		in->spool = NULL;
	}
	if (in->spool_fd >= 0)
		close(in->spool_fd);
	in->spool_fd = -1;
}

void trax_input_rename_error(struct trax_error *err, const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	size_t flen = strlen(from);
	const char *p, *q;

	if (!err || !flen || !strcmp(from, to) || !strstr(err->msg, from))
		return;
	for (p = err->msg; (q = strstr(p, from)); p = q + flen) {
		strbuf_add(&sb, p, q - p);
		strbuf_adds(&sb, to);
	}
	strbuf_adds(&sb, p);
	snprintf(err->msg, sizeof(err->msg), "%s", sb.buf);
	strbuf_release(&sb);
}
