/* parse/input.h: internal to parse/: traces that arrive through a pipe, copied to a file first. */
#ifndef TRAX_PARSE_INPUT_H
#define TRAX_PARSE_INPUT_H

#include "util/error.h"

/*
 * A trace named by a path that is not a regular file -- a pipe (`-` or /dev/stdin), a FIFO, a
 * socket, a character device -- can be read only once and not mapped, while detecting and
 * loading read a file several times: it is copied ("spooled") to a temporary file first. The
 * copy is bounded: TRAX_PIPE_MAX bytes (default 4 GiB; suffixes K, M, G), and
 * TRAX_PIPE_TIMEOUT seconds without data (default 60; 0: wait for ever), so that a FIFO nobody
 * writes to, an endless stream or a stalled writer ends with an error, never a hang. A stream
 * whose first 64 KiB are no trace (or a trace.dat header with impossible fields) is refused
 * as soon as they are in. A FIFO is opened non-blocking, so the open never waits for a writer.
 */
struct trax_input {
	const char *name;	/* for messages and meta: the path, or "stdin" for "-" */
	const char *path;	/* where to read it: the path, or the copy */
	char *spool;		/* the copy (removed by trax_input_release()), or NULL */
	int spool_fd;		/* holds the copy's lock (util/tmpfiles.h) */
};

/* Whether path names a stream (is "-" or exists and is neither a file nor a folder). */
int trax_input_is_stream(const char *path);

/*
 * Make path readable as a file: a regular file (or anything that is no stream: detection then
 * says what it is) is used where it is; a stream is copied to "<spool_base>.tmp-XXXXXX". Returns
 * 0, or a negative error with err naming in->name ("stdin: more than 4 GiB piped in ...").
 * Release with trax_input_release(), also after an error.
 */
int trax_input_open(struct trax_input *in, const char *path, const char *spool_base,
		    struct trax_error *err);
void trax_input_release(struct trax_input *in);

/* In err's message, every occurrence of from becomes to (the copy's path becomes the name). */
void trax_input_rename_error(struct trax_error *err, const char *from, const char *to);

#endif
