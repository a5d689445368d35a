/* parse/datlayout.c: checking that every section a trace.dat declares lies inside the file. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/datlayout.h"

/* Bounds on counts read from the file: beyond them the file is corrupt, not large. */
#define MAX_COUNT 1000000u
#define MAX_CPUS 65536u
#define MAX_BUFFERS 256
#define MAX_OPTION_SECTIONS 1024

struct rd {
	int fd;
	uint64_t size;		/* of the file */
	int swap;		/* file endianness differs from ours */
	const char *path;
	struct trax_error *err;
	uint64_t max_end;	/* v7: the end of the furthest section seen */
};

static int truncated(struct rd *r, const char *what, uint64_t end)
{
	return trax_error_set(r->err, TRAX_E_FORMAT,
			      "%s: truncated: %s ends at byte %llu, the file has %llu bytes",
			      r->path, what, (unsigned long long)end, (unsigned long long)r->size);
}

static int corrupt(struct rd *r, const char *what, uint64_t off)
{
	return trax_error_set(r->err, TRAX_E_FORMAT, "%s: corrupt trace.dat: %s at byte %llu",
			      r->path, what, (unsigned long long)off);
}

/* Read n bytes at off; a read past the end is a truncation of `what`. */
static int rd_at(struct rd *r, uint64_t off, void *buf, size_t n, const char *what)
{
	ssize_t got;

	if (off > r->size || n > r->size - off)
		return truncated(r, what, off + n);
	got = pread(r->fd, buf, n, (off_t)off);
	if (got < 0)
		return trax_error_set(r->err, TRAX_E_IO, "%s: %s", r->path, strerror(errno));
	if ((size_t)got != n)
		return truncated(r, what, off + n);
	return 0;
}

/* The span [off, off + len) must lie in the file. */
static int span(struct rd *r, uint64_t off, uint64_t len, const char *what)
{
	if (off > r->size || len > r->size - off)
		return truncated(r, what, off + len);
	return 0;
}

static int rd_u16(struct rd *r, uint64_t off, uint16_t *v, const char *what)
{
	int ret = rd_at(r, off, v, 2, what);

	if (!ret && r->swap)
		*v = __builtin_bswap16(*v);
	return ret;
}

static int rd_u32(struct rd *r, uint64_t off, uint32_t *v, const char *what)
{
	int ret = rd_at(r, off, v, 4, what);

	if (!ret && r->swap)
		*v = __builtin_bswap32(*v);
	return ret;
}

static int rd_u64(struct rd *r, uint64_t off, uint64_t *v, const char *what)
{
	int ret = rd_at(r, off, v, 8, what);

	if (!ret && r->swap)
		*v = __builtin_bswap64(*v);
	return ret;
}

/* A NUL-terminated string at off (at most cap - 1 bytes kept); *len: its bytes with the NUL. */
static int rd_str(struct rd *r, uint64_t off, char *out, size_t cap, uint64_t *len,
		  const char *what)
{
	char buf[256];
	uint64_t n = 0;

	for (;;) {
		size_t want = sizeof(buf);
		ssize_t got;
		char *nul;

		if (off + n >= r->size)
			return truncated(r, what, off + n + 1);
		if (want > r->size - (off + n))
			want = r->size - (off + n);
		got = pread(r->fd, buf, want, (off_t)(off + n));
		if (got <= 0)
			return truncated(r, what, off + n + 1);
		nul = memchr(buf, '\0', got);
		if (out && n < cap) {
			snprintf(out + n, cap - n, "%.*s", (int)(nul ? nul - buf : got), buf);
			for (char *c = out + n; *c; c++)	/* messages stay one line */
				if (!isprint((unsigned char)*c))
					*c = '?';
		}
		if (nul) {
			*len = n + (nul - buf) + 1;
			return 0;
		}
		n += got;
		if (n > 65536)
			return corrupt(r, "unterminated string", off);
	}
}

/* A u64 size then that many bytes (v6 header sections). Returns the offset after them. */
static int skip_sized64(struct rd *r, uint64_t *off, const char *what)
{
	uint64_t sz;
	int ret = rd_u64(r, *off, &sz, what);

	if (ret)
		return ret;
	ret = span(r, *off + 8, sz, what);
	if (ret)
		return ret;
	*off += 8 + sz;
	return 0;
}

static int skip_sized32(struct rd *r, uint64_t *off, const char *what)
{
	uint32_t sz;
	int ret = rd_u32(r, *off, &sz, what);

	if (ret)
		return ret;
	ret = span(r, *off + 4, sz, what);
	if (ret)
		return ret;
	*off += 4 + sz;
	return 0;
}

/* cpus pairs of (offset, size) at off: each CPU's data must lie in the file. */
static int check_cpu_pairs(struct rd *r, uint64_t off, uint32_t cpus, const char *buffer)
{
	char what[160];

	for (uint32_t c = 0; c < cpus; c++) {
		uint64_t o, s;
		int ret;

		snprintf(what, sizeof(what), "the CPU data table%s%s%s", *buffer ? " of buffer '" :
			 "", buffer, *buffer ? "'" : "");
		ret = rd_u64(r, off + 16 * c, &o, what);
		if (!ret)
			ret = rd_u64(r, off + 16 * c + 8, &s, what);
		if (ret)
			return ret;
		snprintf(what, sizeof(what), "CPU %u data%s%s%s", c, *buffer ? " of buffer '" : "",
			 buffer, *buffer ? "'" : "");
		ret = span(r, o, s, what);
		if (ret)
			return ret;
	}
	return 0;
}

static int expect(struct rd *r, uint64_t off, const char *s, size_t n, const char *what)
{
	char buf[16];
	int ret = rd_at(r, off, buf, n, what);

	if (ret)
		return ret;
	if (memcmp(buf, s, n))
		return corrupt(r, what, off);
	return 0;
}

static int walk_v6(struct rd *r, uint64_t off)
{
	struct { uint64_t off; char name[64]; } bufs[MAX_BUFFERS];
	int nbufs = 0, ret;
	uint32_t n, m, cpus;
	char tag[10];

	ret = expect(r, off, "header_page", 12, "the header_page section");
	if (ret)
		return ret;
	off += 12;
	ret = skip_sized64(r, &off, "the header_page section");
	if (!ret)
		ret = expect(r, off, "header_event", 13, "the header_event section");
	if (ret)
		return ret;
	off += 13;
	ret = skip_sized64(r, &off, "the header_event section");
	if (!ret)
		ret = rd_u32(r, off, &n, "the ftrace format section");
	if (ret)
		return ret;
	if (n > MAX_COUNT)
		return corrupt(r, "impossible count of ftrace formats", off);
	off += 4;
	for (uint32_t i = 0; i < n; i++) {
		ret = skip_sized64(r, &off, "the ftrace format section");
		if (ret)
			return ret;
	}
	ret = rd_u32(r, off, &n, "the event format section");
	if (ret)
		return ret;
	if (n > MAX_COUNT)
		return corrupt(r, "impossible count of event systems", off);
	off += 4;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t len;

		ret = rd_str(r, off, NULL, 0, &len, "the event format section");
		if (!ret)
			ret = rd_u32(r, off + len, &m, "the event format section");
		if (ret)
			return ret;
		if (m > MAX_COUNT)
			return corrupt(r, "impossible count of events", off + len);
		off += len + 4;
		for (uint32_t j = 0; j < m; j++) {
			ret = skip_sized64(r, &off, "the event format section");
			if (ret)
				return ret;
		}
	}
	ret = skip_sized32(r, &off, "the kallsyms section");
	if (!ret)
		ret = skip_sized32(r, &off, "the printk format section");
	if (!ret)
		ret = skip_sized64(r, &off, "the saved command line section");
	if (!ret)
		ret = rd_u32(r, off, &cpus, "the CPU count");
	if (ret)
		return ret;
	if (cpus > MAX_CPUS)
		return corrupt(r, "impossible CPU count", off);
	off += 4;
	ret = rd_at(r, off, tag, 10, "the option section");
	if (ret)
		return ret;
	if (!memcmp(tag, "options  \0", 10)) {
		off += 10;
		for (int k = 0;; k++) {
			uint16_t id;
			uint32_t sz;

			if (k > (int)MAX_COUNT)
				return corrupt(r, "endless options", off);
			ret = rd_u16(r, off, &id, "the option section");
			if (ret)
				return ret;
			off += 2;
			if (!id)
				break;
			ret = rd_u32(r, off, &sz, "the option section");
			if (!ret)
				ret = span(r, off + 4, sz, "the option section");
			if (ret)
				return ret;
			if (id == 3 && sz >= 8 && nbufs < MAX_BUFFERS) {	/* BUFFER */
				uint64_t len;

				ret = rd_u64(r, off + 4, &bufs[nbufs].off, "the option section");
				if (!ret)
					ret = rd_str(r, off + 12, bufs[nbufs].name,
						     sizeof(bufs[nbufs].name), &len,
						     "the option section");
				if (ret)
					return ret;
				nbufs++;
			}
			off += 4 + sz;
		}
		ret = rd_at(r, off, tag, 10, "the option section");
		if (ret)
			return ret;
	}
	if (!memcmp(tag, "latency  \0", 10))
		return 0;		/* text follows to the end of the file */
	if (memcmp(tag, "flyrecord\0", 10))
		return corrupt(r, "no flyrecord section", off);
	ret = check_cpu_pairs(r, off + 10, cpus, "");
	for (int b = 0; !ret && b < nbufs; b++) {
		ret = expect(r, bufs[b].off, "flyrecord", 10, "a buffer's flyrecord section");
		if (!ret)
			ret = check_cpu_pairs(r, bufs[b].off + 10, cpus, bufs[b].name);
	}
	return ret;
}

/* v7: a section header (id, flags, string id, size) at off; its data must lie in the file. */
static int v7_section(struct rd *r, uint64_t off, uint16_t *id, uint16_t *flags, uint64_t *size,
		      const char *what)
{
	uint32_t strid;
	int ret = rd_u16(r, off, id, what);

	if (!ret)
		ret = rd_u16(r, off + 2, flags, what);
	if (!ret)
		ret = rd_u32(r, off + 4, &strid, what);
	if (!ret)
		ret = rd_u64(r, off + 8, size, what);
	if (!ret)
		ret = span(r, off + 16, *size, what);
	if (!ret && off + 16 + *size > r->max_end)
		r->max_end = off + 16 + *size;
	return ret;
}

/*
 * Sections that no option points at (the strings section trace-cmd writes last) follow the
 * furthest section seen, one after the other up to the end of the file.
 */
static int v7_trailing_sections(struct rd *r)
{
	uint64_t off = r->max_end, size;
	uint16_t id, flags;
	int ret;

	for (int k = 0; off < r->size; k++) {
		if (k >= (int)MAX_COUNT)
			return corrupt(r, "endless sections", off);
		ret = v7_section(r, off, &id, &flags, &size, "a section after the trace data");
		if (ret)
			return ret;
		off += 16 + size;
	}
	return 0;
}

static int walk_v7(struct rd *r, uint64_t off)
{
	static const char *const sect_names[] = {
		[16] = "the header section", [17] = "the ftrace format section",
		[18] = "the event format section", [19] = "the kallsyms section",
		[20] = "the printk format section", [21] = "the saved command line section",
	};
	uint64_t opts, len;
	int ret;

	ret = rd_str(r, off, NULL, 0, &len, "the compression header");	/* name */
	if (ret)
		return ret;
	off += len;
	ret = rd_str(r, off, NULL, 0, &len, "the compression header");	/* version */
	if (!ret)
		ret = rd_u64(r, off + len, &opts, "the compression header");
	if (ret)
		return ret;
	for (int k = 0; opts; k++) {
		uint16_t id, flags;
		uint64_t size, p, end;

		if (k >= MAX_OPTION_SECTIONS)
			return corrupt(r, "endless chain of option sections", opts);
		ret = v7_section(r, opts, &id, &flags, &size, "an options section");
		if (ret)
			return ret;
		if (id != 0)
			return corrupt(r, "not an options section", opts);
		if (flags & 1)
			return 0;	/* compressed options: left to libtracecmd */
		p = opts + 16;
		end = p + size;
		opts = 0;
		while (p + 6 <= end) {
			uint16_t oid;
			uint32_t osz;

			ret = rd_u16(r, p, &oid, "an option");
			if (!ret)
				ret = rd_u32(r, p + 2, &osz, "an option");
			if (ret)
				return ret;
			if (osz > end - (p + 6))
				return corrupt(r, "an option larger than its section", p);
			if (oid == 0) {			/* DONE: the next options section */
				if (osz >= 8 && (ret = rd_u64(r, p + 6, &opts, "an option")))
					return ret;
				break;
			}
			if (oid >= 16 && oid <= 21 && osz >= 8) {	/* a metadata section */
				uint64_t so, ssz;
				uint16_t sid, sfl;

				ret = rd_u64(r, p + 6, &so, "an option");
				if (!ret)
					ret = v7_section(r, so, &sid, &sfl, &ssz, sect_names[oid]);
				if (ret)
					return ret;
			} else if (oid == 3 && osz >= 8) {	/* BUFFER */
				char name[64], what[160];
				uint64_t bo, q, co, cs;
				uint32_t ncpu, cpu;
				uint16_t sid, sfl;

				ret = rd_u64(r, p + 6, &bo, "a buffer option");
				if (!ret)
					ret = rd_str(r, p + 14, name, sizeof(name), &len,
						     "a buffer option");
				if (ret)
					return ret;
				snprintf(what, sizeof(what), "the data section of buffer '%s'",
					 name);
				ret = v7_section(r, bo, &sid, &sfl, &q, what);
				if (ret)
					return ret;
				q = p + 14 + len;
				ret = rd_str(r, q, NULL, 0, &len, "a buffer option");	/* clock */
				if (!ret)
					ret = rd_u32(r, q + len + 4, &ncpu, "a buffer option");
				if (ret)
					return ret;
				if (ncpu > MAX_CPUS)
					return corrupt(r, "impossible CPU count", q + len + 4);
				q += len + 8;
				for (uint32_t c = 0; c < ncpu; c++, q += 20) {
					ret = rd_u32(r, q, &cpu, "a buffer option");
					if (!ret)
						ret = rd_u64(r, q + 4, &co, "a buffer option");
					if (!ret)
						ret = rd_u64(r, q + 12, &cs, "a buffer option");
					if (ret)
						return ret;
					snprintf(what, sizeof(what), "CPU %u data of buffer '%s'",
						 cpu, name);
					ret = span(r, co, cs, what);
					if (ret)
						return ret;
				}
			}
			p += 6 + osz;
		}
	}
	return v7_trailing_sections(r);
}

int dat_check_layout(const char *path, struct trax_error *err)
{
	struct rd r = { .path = path, .err = err };
	unsigned char head[10];
	char version[16];
	uint64_t len;
	struct stat sb;
	uint8_t endian;
	int ret;

	r.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r.fd < 0)
		return trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
	if (fstat(r.fd, &sb) < 0) {
		ret = trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
		goto out;
	}
	r.size = sb.st_size;
	ret = rd_at(&r, 0, head, sizeof(head), "the file header");
	if (!ret)
		ret = rd_str(&r, 10, version, sizeof(version), &len, "the file header");
	if (!ret)
		ret = rd_at(&r, 10 + len, &endian, 1, "the file header");
	/* then the long size (1 byte) and the page size (4 bytes) */
	if (!ret)
		ret = span(&r, 10 + len + 1, 5, "the file header");
	if (ret)
		goto out;
	r.swap = (endian != 0) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	if (!strcmp(version, "6"))
		ret = walk_v6(&r, 10 + len + 6);
	else if (!strcmp(version, "7"))
		ret = walk_v7(&r, 10 + len + 6);
out:
	close(r.fd);
	return ret;
}
