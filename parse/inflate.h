/* parse/inflate.h: internal to parse/: zlib and gzip streams inflated into temporary files. */
#ifndef TRAX_PARSE_INFLATE_H
#define TRAX_PARSE_INFLATE_H

#include <stddef.h>
#include <stdint.h>

/*
 * A compressed trace (gzip, atrace -z's zlib stream, Perfetto's compressed_packets) is
 * inflated into a temporary file that is unlinked as soon as it is created: nothing of it
 * outlives its descriptor, whatever ends the process, and the reader then maps it, so that
 * anonymous memory does not grow with the trace. The inflating itself uses a fixed buffer.
 */

/* What the stream may be, and what may follow it. */
enum {
	TRAX_Z_ZLIB = 1,	/* a zlib stream (RFC 1950) */
	TRAX_Z_GZIP = 2,	/* gzip members (RFC 1952), one after another as gzip -d reads them */
	TRAX_Z_TRAILING_OK = 4,	/* bytes after the stream are not its (atrace -z in HTML) */
};

enum trax_zstatus {
	TRAX_Z_OK,
	TRAX_Z_CORRUPT,		/* not a valid stream (zlib's message says why) */
	TRAX_Z_TRUNCATED,	/* the data ends before the stream does */
	TRAX_Z_TRAILING,	/* bytes after the stream's end */
	TRAX_Z_TOO_BIG,		/* it inflates to more than the bound */
	TRAX_Z_WRITE,		/* writing the output failed (err_no) */
	TRAX_Z_NOMEM,		/* zlib could not start */
};

struct trax_zresult {
	enum trax_zstatus status;
	uint64_t in_off;	/* the input read before the problem: where it is */
	uint64_t out_len;	/* the bytes written */
	int err_no;		/* TRAX_Z_WRITE: errno */
	char msg[80];		/* zlib's word on a corrupt stream */
};

/* A new temporary file in $TMPDIR (or /tmp), already unlinked: its descriptor, or -1 and errno. */
int trax_tmp_anon(void);

/*
 * Inflate the stream of n bytes at p (flags: the forms above; ZLIB | GZIP tells them apart by
 * their headers), appending the output to fd at its offset; more than max bytes (0: no bound)
 * is TRAX_Z_TOO_BIG. Returns res->status, res filled.
 */
enum trax_zstatus trax_inflate_fd(const void *p, size_t n, int flags, uint64_t max, int fd,
				  struct trax_zresult *res);

/*
 * The same into a new temporary file, mapped read-only at *map (*len bytes, at least one: an
 * empty output is TRAX_Z_CORRUPT with msg "no data"); a failed map is TRAX_Z_WRITE.
 */
enum trax_zstatus trax_inflate_map(const void *p, size_t n, int flags, uint64_t max,
				   void **map, size_t *len, struct trax_zresult *res);

/* What status says, for messages ("corrupt (zlib: invalid distance too far back)", ...). */
const char *trax_zstrerror(const struct trax_zresult *res, char *buf, size_t len);

/*
 * The first bytes of a stream whose start only is at hand (a format's sniffed head): up to cap
 * bytes into out, as much as the n bytes give before they end or turn out corrupt.
 */
size_t trax_inflate_head(const void *p, size_t n, int flags, void *out, size_t cap);

#endif
