/*
 * parse/datlayout.c: checking a trace.dat before libtracecmd reads it: every section it declares
 * lies inside the file, and what libtracecmd and libtraceevent parse holds what they assume
 * (strings terminated, printk formats they can split, sane counts), compressed sections after
 * decompression.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/datlayout.h"
#include "parse/tracecmd-local.h"

/* Bounds on counts read from the file: beyond them the file is corrupt, not large. */
#define MAX_COUNT 1000000u
#define MAX_CPUS 65536u
#define MAX_BUFFERS 256
#define MAX_OPTION_SECTIONS 1024
/* a section's content read whole to be checked (printk formats, an option, a decompressed
 * section): larger than any kernel's */
#define MAX_CONTENT (256u << 20)

/* trace-cmd's option ids (trace-cmd-private.h, TRACECMD_OPTION_*): a stable file format */
enum {
	OPT_DONE, OPT_DATE, OPT_CPUSTAT, OPT_BUFFER, OPT_TRACECLOCK, OPT_UNAME, OPT_HOOK,
	OPT_OFFSET, OPT_CPUCOUNT, OPT_VERSION, OPT_PROCMAPS, OPT_TRACEID, OPT_TIME_SHIFT,
	OPT_GUEST, OPT_TSC2NSEC, OPT_STRINGS, OPT_HEADER_INFO, OPT_FTRACE_EVENTS,
	OPT_EVENT_FORMATS, OPT_KALLSYMS, OPT_PRINTK, OPT_CMDLINES, OPT_BUFFER_TEXT,
};

struct rd {
	int fd;
	const unsigned char *mem;	/* a decompressed section: read from here, not from fd */
	uint64_t sec;			/* mem: the file offset of that section */
	uint64_t size;			/* of the file (of mem) */
	int swap;			/* file endianness differs from ours */
	int v7;
	int zstd;			/* v7: the file's sections may be zstd-compressed */
	const char *path;
	struct trax_error *err;
	uint64_t max_end;		/* v7: the end of the furthest section seen */
};

static int truncated(struct rd *r, const char *what, uint64_t end)
{
	if (r->mem)
		return trax_error_set(r->err, TRAX_E_FORMAT,
				      "%s: corrupt trace.dat: %s ends at byte %llu of the section at "
				      "byte %llu, which decompresses to %llu bytes", r->path, what,
				      (unsigned long long)end, (unsigned long long)r->sec,
				      (unsigned long long)r->size);
	return trax_error_set(r->err, TRAX_E_FORMAT,
			      "%s: truncated: %s ends at byte %llu, the file has %llu bytes",
			      r->path, what, (unsigned long long)end, (unsigned long long)r->size);
}

static int corrupt(struct rd *r, const char *what, uint64_t off)
{
	if (r->mem)
		return trax_error_set(r->err, TRAX_E_FORMAT, "%s: corrupt trace.dat: %s at byte "
				      "%llu of the section at byte %llu (decompressed)", r->path,
				      what, (unsigned long long)off, (unsigned long long)r->sec);
	return trax_error_set(r->err, TRAX_E_FORMAT, "%s: corrupt trace.dat: %s at byte %llu",
			      r->path, what, (unsigned long long)off);
}

/* Read n bytes at off; a read past the end is a truncation of `what`. */
static int rd_at(struct rd *r, uint64_t off, void *buf, size_t n, const char *what)
{
	ssize_t got;

	if (off > r->size || n > r->size - off)
		return truncated(r, what, off + n);
	if (r->mem) {
		memcpy(buf, r->mem + off, n);
		return 0;
	}
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

/* n bytes at off into a new buffer with a NUL after them (*out: the caller frees it). */
static int rd_dup(struct rd *r, uint64_t off, uint64_t n, char **out, const char *what)
{
	int ret;

	*out = NULL;
	if (n > MAX_CONTENT)
		return corrupt(r, what, off);
	ret = span(r, off, n, what);
	if (ret)
		return ret;
	*out = malloc(n + 1);
	if (!*out)
		return trax_error_set(r->err, TRAX_E_NOMEM, "%s: out of memory", r->path);
	ret = rd_at(r, off, *out, n, what);
	if (ret) {
		free(*out);
		*out = NULL;
		return ret;
	}
	(*out)[n] = '\0';
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
		if (r->mem) {
			memcpy(buf, r->mem + off + n, want);
			got = want;
		} else {
			got = pread(r->fd, buf, want, (off_t)(off + n));
		}
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

/* ---- what the libraries parse ---- */

/*
 * One line of the printk formats, as libtraceevent's tep_parse_printk_formats() splits it:
 * the address up to the first ':', one character skipped (the space of " : "), then the
 * format, whose opening quote tep_register_print_string() drops before it looks at the last
 * three characters. A line without ':' or ending at it has the library read past the line
 * (past its buffer on the last line); a format shorter than three characters has it read
 * before its copy. Both are refused: the kernel writes `0xADDR : "FORMAT"`.
 */
static int check_printk_line(struct rd *r, const char *line, size_t len, uint64_t at)
{
	const char *colon = memchr(line, ':', len), *fmt;
	size_t i = 0, h, flen;
	char what[160];

	if (!colon)
		return corrupt(r, "the printk format section: a line without ':'", at);
	while (line + i < colon && line[i] == ' ')
		i++;
	if (line + i + 1 < colon && line[i] == '0' && (line[i + 1] == 'x' || line[i + 1] == 'X'))
		i += 2;
	for (h = i; line + i < colon && isxdigit((unsigned char)line[i]); i++)
		;
	while (line + i < colon && line[i] == ' ')
		i++;
	if (i == h || line + i != colon)
		return corrupt(r, "the printk format section: a line without a hex address before "
			       "its ':'", at);
	if ((size_t)(colon - line) + 1 >= len)
		return corrupt(r, "the printk format section: a line ending at its ':'", at);
	fmt = colon + 2;
	flen = len - (size_t)(fmt - line);
	if (flen && *fmt == '"')
		fmt++, flen--;
	if (flen < 3) {
		snprintf(what, sizeof(what), "the printk format section: a format of %zu "
			 "character%s (libtraceevent reads 3 from its end)", flen, flen == 1 ? "" : "s");
		return corrupt(r, what, at + (uint64_t)(fmt - line));
	}
	return 0;
}

/* The printk formats: n bytes at off (libtracecmd adds the NUL the parser needs). */
static int check_printk(struct rd *r, uint64_t off, uint64_t n)
{
	char *buf;
	uint64_t end, p = 0;
	int ret = rd_dup(r, off, n, &buf, "the printk format section");

	if (ret)
		return ret;
	end = strlen(buf);	/* where the parser stops */
	while (!ret && p < end) {
		uint64_t q = p;

		if (buf[p] == '\n') {
			p++;
			continue;
		}
		while (q < end && buf[q] != '\n')
			q++;
		ret = check_printk_line(r, buf + p, q - p, off + p);
		p = q;
	}
	/* what follows a NUL is never parsed: only NULs may */
	for (uint64_t k = end; k < n && !ret; k++)
		if (buf[k])
			ret = corrupt(r, "the printk format section: a NUL inside the formats",
				      off + end);
	free(buf);
	return ret;
}

/*
 * A trace clock option's sz bytes, as tracecmd_parse_trace_clock() reads them without a NUL
 * of its own: strtok_r() on spaces up to the first word in brackets, then that word split at
 * the brackets. A word that runs to the end of the option has it read past its buffer; a word of
 * brackets only has it pass NULL to sscanf(). Old trace-cmd writes the option empty (the clock
 * follows the CPU data, ended by libtracecmd): that form reads nothing it keeps, and is accepted.
 */
static int check_clock(struct rd *r, const char *buf, uint64_t sz, uint64_t at)
{
	uint64_t i = 0, w;

	if (!sz)
		return 0;
	for (;;) {
		while (i < sz && buf[i] == ' ')
			i++;
		if (i < sz && !buf[i])
			return 0;
		for (w = i; i < sz && buf[i] != ' ' && buf[i]; i++)
			;
		if (i >= sz)
			return corrupt(r, "the trace clock option: a word that does not end inside it",
				       at + w);
		if (buf[w] == '[') {
			for (uint64_t k = w; k < i; k++)
				if (buf[k] != '[' && buf[k] != ']')
					return 0;
			return corrupt(r, "the trace clock option: an empty clock name", at + w);
		}
		if (!buf[i])
			return 0;
		i++;
	}
}

/*
 * One option's data (sz bytes at off) against what handle_options() in libtracecmd does with
 * it: strdup() and strtoll() on strings (they must end inside the option), buf[size - 1],
 * four bytes of a CPU count, a guest's CPU ids used as indexes, a hook string it dereferences
 * the parse of, a trace clock it splits with strtok_r().
 */
static int check_option(struct rd *r, uint16_t id, uint64_t off, uint64_t sz)
{
	static const char *const names[] = {
		[OPT_DATE] = "the date option", [OPT_CPUSTAT] = "the CPU stats option",
		[OPT_BUFFER] = "a buffer option", [OPT_TRACECLOCK] = "the trace clock option",
		[OPT_UNAME] = "the uname option", [OPT_HOOK] = "a hook option",
		[OPT_OFFSET] = "the offset option", [OPT_CPUCOUNT] = "the CPU count option",
		[OPT_VERSION] = "the version option", [OPT_GUEST] = "a guest option",
		[OPT_BUFFER_TEXT] = "a buffer option",
	};
	const char *what = id < sizeof(names) / sizeof(names[0]) ? names[id] : NULL;
	char msg[160], *buf = NULL;
	const char *nul;
	int ret = 0;

	if (!what)
		return 0;
	snprintf(msg, sizeof(msg), "%s: too short (%llu bytes)", what, (unsigned long long)sz);
	if ((id == OPT_CPUSTAT && sz < 1) || (id == OPT_CPUCOUNT && sz < 4) ||
	    ((id == OPT_BUFFER || id == OPT_BUFFER_TEXT) && sz < 9))
		return corrupt(r, msg, off);
	if (id == OPT_CPUSTAT || id == OPT_CPUCOUNT)
		return 0;
	if (id == OPT_TRACECLOCK) {
		ret = rd_dup(r, off, sz, &buf, what);
		if (!ret)
			ret = check_clock(r, buf, sz, off);
		free(buf);
		return ret;
	}
	ret = rd_dup(r, off, sz, &buf, what);
	if (ret)
		return ret;
	snprintf(msg, sizeof(msg), "%s: a string not terminated inside it", what);
	switch (id) {
	case OPT_BUFFER:
	case OPT_BUFFER_TEXT:	/* offset, name, and in v7 the clock and more */
		nul = memchr(buf + 8, '\0', sz - 8);
		if (!nul || (r->v7 && !memchr(nul + 1, '\0', sz - (nul + 1 - buf))))
			ret = corrupt(r, msg, off);
		break;
	case OPT_GUEST: {	/* name, trace id (8), CPU count (4), (CPU id, pid) pairs */
		uint64_t p, count;

		nul = memchr(buf, '\0', sz);
		if (!nul) {
			ret = corrupt(r, msg, off);
			break;
		}
		p = (uint64_t)(nul + 1 - buf) + 8;
		if (p + 4 > sz)
			break;	/* libtracecmd refuses it */
		{
			uint32_t c32;

			memcpy(&c32, buf + p, 4);
			count = r->swap ? __builtin_bswap32(c32) : c32;
		}
		for (p += 4; p + 8 <= sz; p += 8) {
			uint32_t cpu;

			memcpy(&cpu, buf + p, 4);
			if (r->swap)
				cpu = __builtin_bswap32(cpu);
			if (cpu >= count) {
				ret = corrupt(r, "a guest option: a CPU id beyond its CPU count",
					      off + p);
				break;
			}
		}
		break;
	}
	default:	/* one string */
		nul = memchr(buf, '\0', sz);
		if (!nul) {
			ret = corrupt(r, msg, off);
			break;
		}
#if TRAX_TRACECMD_ABI
		if (id == OPT_HOOK) {
			struct hook_list *hook = tracecmd_create_event_hook(buf);

			if (!hook)
				ret = corrupt(r, "a hook option that libtracecmd cannot parse", off);
			else
				tracecmd_free_hooks(hook);
		}
#else
		if (id == OPT_HOOK)
			ret = corrupt(r, "a hook option (not checked with this libtracecmd)", off);
#endif
		break;
	}
	free(buf);
	return ret;
}

/* ---- the sections, one walker each: off is where the section starts, and is moved past it */

static int sec_header_info(struct rd *r, uint64_t *off)
{
	int ret = expect(r, *off, "header_page", 12, "the header_page section");

	if (ret)
		return ret;
	*off += 12;
	ret = skip_sized64(r, off, "the header_page section");
	if (!ret)
		ret = expect(r, *off, "header_event", 13, "the header_event section");
	if (ret)
		return ret;
	*off += 13;
	return skip_sized64(r, off, "the header_event section");
}

static int sec_ftrace(struct rd *r, uint64_t *off)
{
	uint32_t n;
	int ret = rd_u32(r, *off, &n, "the ftrace format section");

	if (ret)
		return ret;
	if (n > MAX_COUNT)
		return corrupt(r, "impossible count of ftrace formats", *off);
	*off += 4;
	for (uint32_t i = 0; i < n; i++) {
		ret = skip_sized64(r, off, "the ftrace format section");
		if (ret)
			return ret;
	}
	return 0;
}

static int sec_events(struct rd *r, uint64_t *off)
{
	uint32_t n, m;
	int ret = rd_u32(r, *off, &n, "the event format section");

	if (ret)
		return ret;
	if (n > MAX_COUNT)
		return corrupt(r, "impossible count of event systems", *off);
	*off += 4;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t len;

		ret = rd_str(r, *off, NULL, 0, &len, "the event format section");
		if (!ret)
			ret = rd_u32(r, *off + len, &m, "the event format section");
		if (ret)
			return ret;
		if (m > MAX_COUNT)
			return corrupt(r, "impossible count of events", *off + len);
		*off += len + 4;
		for (uint32_t j = 0; j < m; j++) {
			ret = skip_sized64(r, off, "the event format section");
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* kallsyms: libtracecmd ends it with a NUL and libtraceevent's sscanf() stays inside */
static int sec_kallsyms(struct rd *r, uint64_t *off)
{
	return skip_sized32(r, off, "the kallsyms section");
}

static int sec_printk(struct rd *r, uint64_t *off)
{
	uint32_t n;
	int ret = rd_u32(r, *off, &n, "the printk format section");

	if (!ret)
		ret = check_printk(r, *off + 4, n);
	if (!ret)
		*off += 4 + (uint64_t)n;
	return ret;
}

/* saved command lines: likewise ended with a NUL and read with sscanf() */
static int sec_cmdlines(struct rd *r, uint64_t *off)
{
	return skip_sized64(r, off, "the saved command line section");
}

typedef int (*sec_fn)(struct rd *r, uint64_t *off);

static const struct {
	const char *what;
	sec_fn walk;
} sections[] = {
	[OPT_HEADER_INFO] = { "the header section", sec_header_info },
	[OPT_FTRACE_EVENTS] = { "the ftrace format section", sec_ftrace },
	[OPT_EVENT_FORMATS] = { "the event format section", sec_events },
	[OPT_KALLSYMS] = { "the kallsyms section", sec_kallsyms },
	[OPT_PRINTK] = { "the printk format section", sec_printk },
	[OPT_CMDLINES] = { "the saved command line section", sec_cmdlines },
};

static int walk_v6(struct rd *r, uint64_t off)
{
	struct { uint64_t off; char name[64]; } bufs[MAX_BUFFERS];
	int nbufs = 0, ret = 0;
	uint32_t cpus;
	char tag[10];

	for (int id = OPT_HEADER_INFO; id <= OPT_CMDLINES && !ret; id++)
		ret = sections[id].walk(r, &off);
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
			if (!ret)
				ret = check_option(r, id, off + 4, sz);
			if (ret)
				return ret;
			if (id == OPT_BUFFER && nbufs < MAX_BUFFERS) {
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
 * v7: the data of a compressed section (size bytes at off: compressed size, decompressed
 * size, one zstd frame) decompressed into *out, as libtracecmd's in_uncompress_block() does,
 * with the zstd library libtracecmd itself uses (it is loaded with it).
 */
static int v7_inflate(struct rd *r, uint64_t off, uint64_t size, const char *what,
		      unsigned char **out, uint64_t *outlen)
{
	typedef size_t (*decompress_fn)(void *, size_t, const void *, size_t);
	typedef unsigned (*iserror_fn)(size_t);
	decompress_fn decompress = (decompress_fn)dlsym(RTLD_DEFAULT, "ZSTD_decompress");
	iserror_fn iserror = (iserror_fn)dlsym(RTLD_DEFAULT, "ZSTD_isError");
	uint32_t csz, usz;
	char *src = NULL;
	size_t got;
	int ret;

	*out = NULL;
	if (!r->zstd)
		return corrupt(r, "a compressed section in a file that names no compression", off);
	if (!decompress || !iserror)
		return trax_error_set(r->err, TRAX_E_UNSUPPORTED, "%s: cannot check compressed "
				      "sections (libzstd is not loaded with libtracecmd)", r->path);
	ret = rd_u32(r, off, &csz, what);
	if (!ret)
		ret = rd_u32(r, off + 4, &usz, what);
	if (ret)
		return ret;
	if (8 + (uint64_t)csz > size)
		return corrupt(r, "a compressed block larger than its section", off);
	if (usz > MAX_CONTENT)
		return corrupt(r, "an impossible decompressed size", off + 4);
	ret = rd_dup(r, off + 8, csz, &src, what);
	if (ret)
		return ret;
	*out = malloc(usz ? usz : 1);
	if (!*out) {
		free(src);
		return trax_error_set(r->err, TRAX_E_NOMEM, "%s: out of memory", r->path);
	}
	got = decompress(*out, usz, src, csz);
	free(src);
	if (iserror(got)) {
		free(*out);
		*out = NULL;
		return corrupt(r, "a compressed section that does not decompress", off);
	}
	*outlen = got;
	return 0;
}

/* A reader of a decompressed section of the file r reads. */
static struct rd rd_mem(const struct rd *r, const unsigned char *mem, uint64_t len, uint64_t sec)
{
	struct rd m = *r;

	m.mem = mem;
	m.size = len;
	m.sec = sec;
	return m;
}

/* v7: a metadata section (id 16 to 21) at so, its content walked (decompressed). */
static int v7_meta_section(struct rd *r, uint64_t so, uint16_t oid)
{
	const char *what = sections[oid].what;
	uint64_t size, at = so + 16, len = 0;
	unsigned char *mem;
	uint16_t sid, flags;
	struct rd m;
	int ret = v7_section(r, so, &sid, &flags, &size, what);

	if (ret)
		return ret;
	if (sid != oid)
		return corrupt(r, "an option pointing at a section of another kind", so);
	if (!(flags & 1))
		return sections[oid].walk(r, &at);
	ret = v7_inflate(r, so + 16, size, what, &mem, &len);
	if (ret)
		return ret;
	m = rd_mem(r, mem, len, so);
	at = 0;
	ret = sections[oid].walk(&m, &at);
	free(mem);
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

/* A buffer option (o reads the options, f the file): its data section and CPU data. */
static int v7_buffer(struct rd *o, struct rd *f, uint64_t p)
{
	char name[64], what[160];
	uint64_t bo, q, co, cs, len;
	uint32_t ncpu, cpu;
	uint16_t sid, sfl;
	int ret = rd_u64(o, p, &bo, "a buffer option");

	if (!ret)
		ret = rd_str(o, p + 8, name, sizeof(name), &len, "a buffer option");
	if (ret)
		return ret;
	snprintf(what, sizeof(what), "the data section of buffer '%s'", name);
	ret = v7_section(f, bo, &sid, &sfl, &q, what);
	if (ret)
		return ret;
	q = p + 8 + len;
	ret = rd_str(o, q, NULL, 0, &len, "a buffer option");	/* clock */
	if (!ret)
		ret = rd_u32(o, q + len + 4, &ncpu, "a buffer option");
	if (ret)
		return ret;
	if (ncpu > MAX_CPUS)
		return corrupt(o, "impossible CPU count", q + len + 4);
	q += len + 8;
	for (uint32_t c = 0; c < ncpu; c++, q += 20) {
		ret = rd_u32(o, q, &cpu, "a buffer option");
		if (!ret)
			ret = rd_u64(o, q + 4, &co, "a buffer option");
		if (!ret)
			ret = rd_u64(o, q + 12, &cs, "a buffer option");
		if (ret)
			return ret;
		snprintf(what, sizeof(what), "CPU %u data of buffer '%s'", cpu, name);
		ret = span(f, co, cs, what);
		if (ret)
			return ret;
	}
	return 0;
}

/* The options from p to end (o reads them, f the file); *next: the next options section. */
static int v7_options(struct rd *o, struct rd *f, uint64_t p, uint64_t end, uint64_t *next)
{
	int ret;

	*next = 0;
	while (p + 6 <= end) {
		uint16_t oid;
		uint32_t osz;

		ret = rd_u16(o, p, &oid, "an option");
		if (!ret)
			ret = rd_u32(o, p + 2, &osz, "an option");
		if (ret)
			return ret;
		if (osz > end - (p + 6))
			return corrupt(o, "an option larger than its section", p);
		if (oid == OPT_DONE) {		/* the next options section */
			if (osz >= 8 && (ret = rd_u64(o, p + 6, next, "an option")))
				return ret;
			return 0;
		}
		ret = check_option(o, oid, p + 6, osz);
		if (ret)
			return ret;
		if (oid >= OPT_HEADER_INFO && oid <= OPT_CMDLINES && osz >= 8) {
			uint64_t so;

			ret = rd_u64(o, p + 6, &so, "an option");
			if (!ret)
				ret = v7_meta_section(f, so, oid);
			if (ret)
				return ret;
		} else if (oid == OPT_BUFFER) {
			ret = v7_buffer(o, f, p + 6);
			if (ret)
				return ret;
		}
		p += 6 + osz;
	}
	return 0;
}

static int walk_v7(struct rd *r, uint64_t off)
{
	char comp[32];
	uint64_t opts, len;
	int ret;

	ret = rd_str(r, off, comp, sizeof(comp), &len, "the compression header");	/* name */
	if (ret)
		return ret;
	r->zstd = !strcmp(comp, "zstd");
	off += len;
	ret = rd_str(r, off, NULL, 0, &len, "the compression header");	/* version */
	if (!ret)
		ret = rd_u64(r, off + len, &opts, "the compression header");
	if (ret)
		return ret;
	for (int k = 0; opts; k++) {
		uint16_t id, flags;
		uint64_t size, next;

		if (k >= MAX_OPTION_SECTIONS)
			return corrupt(r, "endless chain of option sections", opts);
		ret = v7_section(r, opts, &id, &flags, &size, "an options section");
		if (ret)
			return ret;
		if (id != OPT_DONE)
			return corrupt(r, "not an options section", opts);
		if (flags & 1) {
			unsigned char *mem;
			struct rd m;

			ret = v7_inflate(r, opts + 16, size, "an options section", &mem, &len);
			if (ret)
				return ret;
			m = rd_mem(r, mem, len, opts);
			ret = v7_options(&m, r, 0, len, &next);
			free(mem);
		} else {
			ret = v7_options(r, r, opts + 16, opts + 16 + size, &next);
		}
		if (ret)
			return ret;
		opts = next;
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
		r.v7 = 1, ret = walk_v7(&r, 10 + len + 6);
out:
	close(r.fd);
	return ret;
}
