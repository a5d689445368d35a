/* parse/inflate.c: zlib and gzip streams inflated into unlinked temporary files. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "parse/inflate.h"
#include "util/strbuf.h"

int trax_tmp_anon(void)
{
	const char *dir = getenv("TMPDIR");
	struct strbuf name = STRBUF_INIT;
	char tmpl[] = "/tmp/trax-inflate-XXXXXX";
	int fd, e;

	strbuf_addf(&name, "%s/trax-inflate-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkostemp(name.buf, O_CLOEXEC);
	if (fd >= 0) {
		unlink(name.buf);
	} else {
		/* $TMPDIR unusable: /tmp */
		fd = mkostemp(tmpl, O_CLOEXEC);
		if (fd >= 0)
			unlink(tmpl);
	}
	e = errno;
	strbuf_release(&name);
	errno = e;
	return fd;
}

/* zlib's windowBits for the forms flags allows: 15, plus 16 for gzip only, 32 for either. */
static int window_bits(int flags)
{
	if ((flags & (TRAX_Z_ZLIB | TRAX_Z_GZIP)) == TRAX_Z_GZIP)
		return 15 + 16;
	if ((flags & (TRAX_Z_ZLIB | TRAX_Z_GZIP)) == TRAX_Z_ZLIB)
		return 15;
	return 15 + 32;
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static enum trax_zstatus fail(struct trax_zresult *res, enum trax_zstatus st, const z_stream *z,
			      uint64_t in_off)
{
	res->status = st;
	res->in_off = in_off;
	if (st == TRAX_Z_CORRUPT)
		snprintf(res->msg, sizeof(res->msg), "%s", z && z->msg ? z->msg : "error");
	return st;
}

enum trax_zstatus trax_inflate_fd(const void *p, size_t n, int flags, uint64_t max, int fd,
				  struct trax_zresult *res)
{
	const unsigned char *in = p, *end = in + n;
	unsigned char buf[65536];
	z_stream z;
	int zr = Z_OK;

	memset(res, 0, sizeof(*res));
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, window_bits(flags)) != Z_OK)
		return fail(res, TRAX_Z_NOMEM, NULL, 0);
	for (;;) {
		/* zlib counts in uInt: the input goes in 1 GiB at a time */
		if (!z.avail_in) {
			size_t left = (size_t)(end - in);

			if (!left)
				break;
			z.next_in = (unsigned char *)in;
			z.avail_in = left > (1u << 30) ? 1u << 30 : (uInt)left;
			in += z.avail_in;
		}
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		zr = inflate(&z, Z_NO_FLUSH);
		if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
			fail(res, TRAX_Z_CORRUPT, &z, (uint64_t)(in - (const unsigned char *)p) -
			     z.avail_in);
			break;
		}
		if (sizeof(buf) - z.avail_out) {
			size_t got = sizeof(buf) - z.avail_out;

			if (max && res->out_len + got > max) {
				fail(res, TRAX_Z_TOO_BIG, &z, (uint64_t)(in - (const unsigned char *)p) -
				     z.avail_in);
				break;
			}
			if (write_all(fd, buf, got) < 0) {
				res->err_no = errno;
				fail(res, TRAX_Z_WRITE, &z, 0);
				break;
			}
			res->out_len += got;
		}
		if (zr == Z_STREAM_END) {
			const unsigned char *rest = in - z.avail_in;

			/* gzip: another member may follow, as with `cat a.gz b.gz` */
			if ((flags & TRAX_Z_GZIP) && end - rest >= 2 && rest[0] == 0x1f &&
			    rest[1] == 0x8b && inflateReset(&z) == Z_OK) {
				zr = Z_OK;
				continue;
			}
			if (rest < end && !(flags & TRAX_Z_TRAILING_OK))
				fail(res, TRAX_Z_TRAILING, &z, (uint64_t)(rest - (const unsigned char *)p));
			break;
		}
		if (zr == Z_BUF_ERROR && z.avail_in) {
			/* no progress with input and room for output: cannot happen, but no loop */
			fail(res, TRAX_Z_CORRUPT, &z, (uint64_t)(in - (const unsigned char *)p) -
			     z.avail_in);
			break;
		}
	}
	if (res->status == TRAX_Z_OK && zr != Z_STREAM_END)
		fail(res, TRAX_Z_TRUNCATED, &z, n);
	inflateEnd(&z);
	return res->status;
}

enum trax_zstatus trax_inflate_map(const void *p, size_t n, int flags, uint64_t max,
				   void **map, size_t *len, struct trax_zresult *res)
{
	int fd = trax_tmp_anon();

	*map = NULL;
	*len = 0;
	if (fd < 0) {
		memset(res, 0, sizeof(*res));
		res->err_no = errno;
		return res->status = TRAX_Z_WRITE;
	}
	if (trax_inflate_fd(p, n, flags, max, fd, res) == TRAX_Z_OK) {
		if (!res->out_len) {
			res->status = TRAX_Z_CORRUPT;
			snprintf(res->msg, sizeof(res->msg), "no data");
		} else {
			*map = mmap(NULL, res->out_len, PROT_READ, MAP_PRIVATE, fd, 0);
			if (*map == MAP_FAILED) {
				*map = NULL;
				res->err_no = errno;
				res->status = TRAX_Z_WRITE;
			} else {
				*len = res->out_len;
			}
		}
	}
	close(fd);
	return res->status;
}

const char *trax_zstrerror(const struct trax_zresult *res, char *buf, size_t len)
{
	switch (res->status) {
	case TRAX_Z_OK:
		snprintf(buf, len, "no error");
		break;
	case TRAX_Z_CORRUPT:
		snprintf(buf, len, "corrupt (zlib: %s)", res->msg);
		break;
	case TRAX_Z_TRUNCATED:
		snprintf(buf, len, "truncated: the data ends inside the compressed stream");
		break;
	case TRAX_Z_TRAILING:
		snprintf(buf, len, "corrupt: data after the end of the compressed stream");
		break;
	case TRAX_Z_TOO_BIG:
		snprintf(buf, len, "too big: it inflates to more than the bound");
		break;
	case TRAX_Z_WRITE:
		snprintf(buf, len, "writing the inflated data to a temporary file ($TMPDIR or "
			 "/tmp): %s", strerror(res->err_no));
		break;
	case TRAX_Z_NOMEM:
		snprintf(buf, len, "zlib cannot start: out of memory");
		break;
	}
	return buf;
}

size_t trax_inflate_head(const void *p, size_t n, int flags, void *out, size_t cap)
{
	z_stream z;
	int zr;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, window_bits(flags)) != Z_OK)
		return 0;
	z.next_in = (unsigned char *)p;
	z.avail_in = n > (1u << 30) ? 1u << 30 : (uInt)n;
	z.next_out = out;
	z.avail_out = cap > (1u << 30) ? 1u << 30 : (uInt)cap;
	/* what came out before a corruption is the stream's: the reader says where it is bad */
	zr = inflate(&z, Z_SYNC_FLUSH);
	n = zr == Z_NEED_DICT || zr == Z_MEM_ERROR || zr == Z_STREAM_ERROR ? 0 : z.total_out;
	inflateEnd(&z);
	return n;
}
