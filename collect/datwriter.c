/* collect/datwriter.c: the smallest correct trace.dat (version 6) writer, and a page scanner. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/collect-local.h"
#include "util/xalloc.h"

/*
 * Layout (trace-cmd.dat.v6(5)): magic, "6", endianness, long size, page size; header_page and
 * header_event; the ftrace formats; the event formats by system; kallsyms; printk formats;
 * saved cmdlines; the CPU count; options (trace clock, uname, version, per-CPU stats); then
 * "flyrecord": per CPU an (offset, size) pair, the trace_clock file (present because of the
 * TRACECLOCK option), padding to a page, and each CPU's ring-buffer pages as read from
 * trace_pipe_raw. libtracecmd's reader and `trace-cmd report` read exactly this.
 */

enum {
	OPT_DONE = 0,
	OPT_CPUSTAT = 2,
	OPT_TRACECLOCK = 4,
	OPT_UNAME = 5,
	OPT_VERSION = 9,
};

struct out {
	int fd;
	const char *path;
	uint64_t off;
	size_t len;
	int err;		/* errno of the first failure */
	char buf[1 << 16];
};

static void out_flush(struct out *o)
{
	size_t done = 0;

	while (!o->err && done < o->len) {
		ssize_t n = write(o->fd, o->buf + done, o->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			o->err = n < 0 ? errno : EIO;
		else
			done += n;
	}
	o->len = 0;
}

static void out_put(struct out *o, const void *data, size_t len)
{
	const char *p = data;

	o->off += len;
	while (len && !o->err) {
		size_t room = sizeof(o->buf) - o->len, n = len < room ? len : room;

		memcpy(o->buf + o->len, p, n);
		o->len += n;
		p += n;
		len -= n;
		if (o->len == sizeof(o->buf))
			out_flush(o);
	}
}

static void put_u16(struct out *o, uint16_t v) { out_put(o, &v, 2); }
static void put_u32(struct out *o, uint32_t v) { out_put(o, &v, 4); }
static void put_u64(struct out *o, uint64_t v) { out_put(o, &v, 8); }
static void put_str0(struct out *o, const char *s) { out_put(o, s, strlen(s) + 1); }

static void put_zeros(struct out *o, uint64_t n)
{
	static const char zero[4096];

	while (n) {
		size_t k = n < sizeof(zero) ? n : sizeof(zero);

		out_put(o, zero, k);
		n -= k;
	}
}

/* An option holding a NUL-terminated string. */
static void put_string_option(struct out *o, uint16_t id, const char *s)
{
	put_u16(o, id);
	put_u32(o, strlen(s) + 1);
	put_str0(o, s);
}

/* A CPU's bytes in the file: each split page adds one. */
static uint64_t cpu_size(const struct dat_info *in, int cpu)
{
	uint64_t size = in->cpu_sizes[cpu];

	for (int i = 0; i < in->nsplits; i++)
		if (in->splits[i].cpu == cpu &&
		    in->splits[i].off + in->page_size <= in->cpu_sizes[cpu])
			size += in->page_size;
	return size;
}

/* The bytes of the header up to and including the flyrecord table and the trace clock. */
static void put_header(struct out *o, const struct dat_info *in, const uint64_t *offsets)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	uint16_t one = 1;
	char c;
	int nsys = 0;

	out_put(o, magic, sizeof(magic));
	put_str0(o, "6");
	c = *(char *)&one ? 0 : 1;	/* 0: little endian */
	out_put(o, &c, 1);
	c = sizeof(long);
	out_put(o, &c, 1);
	put_u32(o, in->page_size);

	out_put(o, "header_page", 12);
	put_u64(o, in->header_page.len);
	out_put(o, in->header_page.data, in->header_page.len);
	out_put(o, "header_event", 13);
	put_u64(o, in->header_event.len);
	out_put(o, in->header_event.data, in->header_event.len);

	put_u32(o, in->nftrace);
	for (int i = 0; i < in->nftrace; i++) {
		put_u64(o, in->ftrace[i].len);
		out_put(o, in->ftrace[i].data, in->ftrace[i].len);
	}

	/* event formats grouped by system, systems in order of first appearance */
	for (int i = 0; i < in->nevents; i++) {
		int first = 1;

		for (int j = 0; j < i && first; j++)
			if (!strcmp(in->event_names[j].system, in->event_names[i].system))
				first = 0;
		nsys += first;
	}
	put_u32(o, nsys);
	for (int i = 0; i < in->nevents; i++) {
		const char *sys = in->event_names[i].system;
		int first = 1, count = 0;

		for (int j = 0; j < i && first; j++)
			if (!strcmp(in->event_names[j].system, sys))
				first = 0;
		if (!first)
			continue;
		for (int j = i; j < in->nevents; j++)
			count += !strcmp(in->event_names[j].system, sys);
		put_str0(o, sys);
		put_u32(o, count);
		for (int j = i; j < in->nevents; j++) {
			if (strcmp(in->event_names[j].system, sys))
				continue;
			put_u64(o, in->events[j].len);
			out_put(o, in->events[j].data, in->events[j].len);
		}
	}

	put_u32(o, in->kallsyms.len);
	out_put(o, in->kallsyms.data, in->kallsyms.len);
	put_u32(o, in->printk.len);
	out_put(o, in->printk.data, in->printk.len);
	put_u64(o, in->cmdlines.len);
	out_put(o, in->cmdlines.data, in->cmdlines.len);
	put_u32(o, in->ncpus);

	out_put(o, "options  ", 10);
	/*
	 * TRACECLOCK says the trace_clock file follows the CPU table. It carries that file too,
	 * NUL-terminated, as trace-cmd writes it: libtracecmd 1.3 parses the option's bytes
	 * with strtok_r whatever their size, so an empty option has it read the heap beyond,
	 * and a stray bracketed word there turns trace-cmd report's seconds into raw counts.
	 */
	put_u16(o, OPT_TRACECLOCK);
	put_u32(o, in->trace_clock.len ? in->trace_clock.len + 1 : 0);
	if (in->trace_clock.len) {
		out_put(o, in->trace_clock.data, in->trace_clock.len);
		out_put(o, "", 1);
	}
	if (in->uname)
		put_string_option(o, OPT_UNAME, in->uname);
	if (in->version)
		put_string_option(o, OPT_VERSION, in->version);
	for (int cpu = 0; in->cpustats && cpu < in->ncpus; cpu++) {
		struct strbuf sb = STRBUF_INIT;

		if (!in->cpustats[cpu])
			continue;
		strbuf_addf(&sb, "CPU: %d\n%s", cpu, in->cpustats[cpu]);
		put_string_option(o, OPT_CPUSTAT, sb.buf);
		strbuf_release(&sb);
	}
	put_u16(o, OPT_DONE);

	out_put(o, "flyrecord", 10);
	for (int cpu = 0; cpu < in->ncpus; cpu++) {
		put_u64(o, offsets ? offsets[cpu] : 0);
		put_u64(o, cpu_size(in, cpu));
	}
	put_u64(o, in->trace_clock.len);
	out_put(o, in->trace_clock.data, in->trace_clock.len);
}

/* Count the header's bytes without writing them. */
static uint64_t header_size(const struct dat_info *in)
{
	struct out *o = xcalloc(1, sizeof(*o));
	uint64_t n;

	o->fd = -1;
	o->err = EBADF;		/* nothing is written */
	put_header(o, in, NULL);
	n = o->off;
	free(o);
	return n;
}

/* Copy size bytes of src from offset start to the output's current end. */
static void copy_data(struct out *o, int src, uint64_t start, uint64_t size)
{
	loff_t in_off = start;
	int fallback = 0;

	out_flush(o);
	while (!o->err && size) {
		ssize_t n;

		if (!fallback) {
			n = copy_file_range(src, &in_off, o->fd, NULL, size, 0);
			if (n < 0 && (errno == EXDEV || errno == EINVAL || errno == ENOSYS ||
				      errno == EOPNOTSUPP)) {
				fallback = 1;	/* not between these files: read and write */
				continue;
			}
		} else {
			n = pread(src, o->buf, size < sizeof(o->buf) ? size : sizeof(o->buf),
				  in_off);
			if (n > 0) {
				o->len = n;
				out_flush(o);
				in_off += n;
			}
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->err = n < 0 ? errno : EIO;	/* 0: the source is shorter than said */
			break;
		}
		size -= n;
		o->off += n;
	}
}

int dat_write(const char *path, const struct dat_info *in, struct trax_error *err)
{
	struct out *o;
	uint64_t *offsets, hdr, pos;
	int ret = 0;

	if (in->page_size <= 0 || (in->page_size & (in->page_size - 1)))
		return trax_error_set(err, TRAX_E_USAGE, "%s: bad page size %d", path,
				      in->page_size);
	o = xcalloc(1, sizeof(*o));
	offsets = xcalloc(in->ncpus ? in->ncpus : 1, sizeof(*offsets));
	hdr = header_size(in);
	pos = (hdr + in->page_size - 1) / in->page_size * in->page_size;
	for (int cpu = 0; cpu < in->ncpus; cpu++) {
		offsets[cpu] = pos;
		pos += (cpu_size(in, cpu) + in->page_size - 1) / in->page_size * in->page_size;
	}
	o->path = path;
	o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (o->fd < 0) {
		ret = trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
		goto out;
	}
	put_header(o, in, offsets);
	for (int cpu = 0; cpu < in->ncpus && !o->err; cpu++) {
		uint64_t size = in->cpu_sizes[cpu], at = 0;

		put_zeros(o, offsets[cpu] - o->off);
		/* splits are in offset order within a CPU */
		for (int i = 0; i < in->nsplits && !o->err; i++) {
			const struct dat_split *sp = &in->splits[i];

			if (sp->cpu != cpu || sp->off < at || sp->off + in->page_size > size)
				continue;
			copy_data(o, in->cpu_fds[cpu], at, sp->off - at);
			out_put(o, sp->pages, 2 * in->page_size);
			out_flush(o);
			at = sp->off + in->page_size;
		}
		if (size > at)
			copy_data(o, in->cpu_fds[cpu], at, size - at);
	}
	out_flush(o);
	if (!o->err && fsync(o->fd))
		o->err = errno;
	if (close(o->fd) && !o->err)
		o->err = errno;
	o->fd = -1;
	if (o->err && in->label)
		ret = trax_error_set(err, TRAX_E_IO, "%s: %s%s (writing %s)", in->label,
				     strerror(o->err), o->err == ENOSPC ? ", disk full" : "", path);
	else if (o->err)
		ret = trax_error_set(err, TRAX_E_IO, "%s: %s%s", path, strerror(o->err),
				     o->err == ENOSPC ? ", disk full" : "");
out:
	if (o->fd >= 0)
		close(o->fd);
	free(o);
	free(offsets);
	return ret;
}

/* ---- page scan ---- */

#define RB_MISSED_EVENTS (1UL << 31)
#define RB_MISSED_STORED (1UL << 30)
#define RB_COMMIT_MASK ((1UL << 27) - 1)

int dat_scan_pages(int fd, uint64_t size, int page_size, int long_size,
		   struct dat_page_scan *scan)
{
	unsigned char *page = malloc(page_size);
	int hdr = 8 + long_size;

	memset(scan, 0, sizeof(*scan));
	if (!page)
		return -ENOMEM;
	for (uint64_t off = 0; off + page_size <= size; off += page_size) {
		uint64_t ts, commit = 0, len;
		ssize_t n = pread(fd, page, page_size, off);

		if (n != page_size) {
			free(page);
			return n < 0 ? -errno : -EIO;
		}
		memcpy(&ts, page, 8);
		memcpy(&commit, page + 8, long_size);
		len = commit & RB_COMMIT_MASK;
		scan->pages++;
		if (!scan->first_ts)
			scan->first_ts = ts;
		scan->last_page_ts = ts;
		if (!len)
			scan->empty_pages++;
		if (commit & RB_MISSED_EVENTS) {
			if ((commit & RB_MISSED_STORED) &&
			    hdr + len + long_size <= (uint64_t)page_size) {
				uint64_t missed = 0;

				memcpy(&missed, page + hdr + len, long_size);
				scan->marked_lost += missed;
			} else {
				scan->unknown_lost++;
				scan->unknown_off = off;
			}
		}
	}
	free(page);
	return 0;
}

/* Ring-buffer event header: type_len in the low 5 bits, time_delta in the upper 27. */
#define RB_TYPE_PADDING 29
#define RB_TYPE_TIME_EXTEND 30
#define RB_TYPE_TIME_STAMP 31

int dat_store_lost(int fd, uint64_t off, int page_size, int long_size, uint64_t count)
{
	unsigned char *page = malloc(page_size);
	int hdr = 8 + long_size, ret = -1;
	uint64_t commit = 0, len, pos = 0, newc;

	if (!page || pread(fd, page, page_size, off) != page_size)
		goto out;
	memcpy(&commit, page + 8, long_size);
	len = commit & RB_COMMIT_MASK;
	if (!(commit & RB_MISSED_EVENTS) || (commit & RB_MISSED_STORED) ||
	    hdr + len > (uint64_t)page_size)
		goto out;
	/* walk the events to the one that starts the tail padding */
	while (pos + 4 <= len) {
		uint32_t h, type, size;

		memcpy(&h, page + hdr + pos, 4);
		type = h & 31;
		if (type == RB_TYPE_PADDING && (h >> 5) == 0)
			break;		/* padding to the end of the page */
		if (type == RB_TYPE_PADDING || type == 0) {
			uint32_t a;

			if (pos + 8 > len)
				goto out;
			memcpy(&a, page + hdr + pos + 4, 4);
			size = 4 + a;	/* array[0]: the length after the header, itself included */
		} else if (type == RB_TYPE_TIME_EXTEND || type == RB_TYPE_TIME_STAMP) {
			size = 8;
		} else {
			size = 4 + type * 4;
		}
		pos += size;
	}
	if (pos >= len || pos + long_size > (uint64_t)page_size - hdr)
		goto out;	/* no tail padding, or no room for the count */
	newc = pos | RB_MISSED_EVENTS | RB_MISSED_STORED;
	memcpy(page + 8, &newc, long_size);
	memset(page + hdr + pos, 0, page_size - hdr - pos);
	memcpy(page + hdr + pos, &count, long_size);
	if (pwrite(fd, page, page_size, off) == page_size)
		ret = 0;
out:
	free(page);
	return ret;
}

int dat_split_lost(int fd, uint64_t off, int page_size, int long_size, uint64_t count,
		   unsigned char *out)
{
	unsigned char *page = malloc(page_size);
	unsigned char *a = out, *b = out + page_size;
	int hdr = 8 + long_size, ret = -1;
	uint64_t commit = 0, len, pos = 0, ts, c;

	if (!page || pread(fd, page, page_size, off) != page_size)
		goto out;
	memcpy(&ts, page, 8);
	memcpy(&commit, page + 8, long_size);
	len = commit & RB_COMMIT_MASK;
	if (!(commit & RB_MISSED_EVENTS) || (commit & RB_MISSED_STORED) ||
	    hdr + len > (uint64_t)page_size)
		goto out;
	/* the first data event, after the time extends that lead to it */
	for (;;) {
		uint32_t h, type, ext;

		if (pos + 4 > len)
			goto out;
		memcpy(&h, page + hdr + pos, 4);
		type = h & 31;
		if (type == RB_TYPE_TIME_EXTEND) {
			if (pos + 8 > len)
				goto out;
			memcpy(&ext, page + hdr + pos + 4, 4);
			ts += (h >> 5) + ((uint64_t)ext << 27);
			pos += 8;
			continue;
		}
		if (type == RB_TYPE_PADDING || type == RB_TYPE_TIME_STAMP)
			goto out;	/* not the plain case: left unmarked */
		ts += h >> 5;
		if (type == 0) {
			memcpy(&ext, page + hdr + pos + 4, 4);
			pos += 4 + ext;
		} else {
			pos += 4 + type * 4;
		}
		break;
	}
	if (pos >= len || pos + long_size > (uint64_t)page_size - hdr)
		goto out;	/* one event fills the page: nothing to split */
	/* a: the page's header time, its first event, the lost mark and count */
	memset(a, 0, page_size);
	memcpy(a, page, 8);
	c = pos | RB_MISSED_EVENTS | RB_MISSED_STORED;
	memcpy(a + 8, &c, long_size);
	memcpy(a + hdr, page + hdr, pos);
	memcpy(a + hdr + pos, &count, long_size);
	/* b: the other events, timed from the first one */
	memset(b, 0, page_size);
	memcpy(b, &ts, 8);
	c = len - pos;
	memcpy(b + 8, &c, long_size);
	memcpy(b + hdr, page + hdr + pos, len - pos);
	ret = 0;
out:
	free(page);
	return ret;
}

int dat_list_marks(int fd, uint64_t size, int page_size, int long_size, struct dat_mark **marks,
		   int *n)
{
	unsigned char *page = malloc(page_size);
	int hdr = 8 + long_size, cap = 0;

	*marks = NULL;
	*n = 0;
	if (!page)
		return -ENOMEM;
	for (uint64_t off = 0; off + page_size <= size; off += page_size) {
		uint64_t commit = 0, len, missed = 0;
		ssize_t r = pread(fd, page, hdr, off);

		if (r != hdr) {
			free(page);
			return r < 0 ? -errno : -EIO;
		}
		memcpy(&commit, page + 8, long_size);
		if (!(commit & RB_MISSED_EVENTS))
			continue;
		len = commit & RB_COMMIT_MASK;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			*marks = xrealloc(*marks, cap * sizeof(**marks));
		}
		(*marks)[*n].off = off;
		(*marks)[*n].count = -1;
		if ((commit & RB_MISSED_STORED) && hdr + len + long_size <= (uint64_t)page_size &&
		    pread(fd, &missed, long_size, off + hdr + len) == long_size)
			(*marks)[*n].count = (int64_t)missed;
		(*n)++;
	}
	free(page);
	return 0;
}
