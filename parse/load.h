/* parse/load.h: internal to parse/: the readers (parse/readers.h) and the load driver (load.c). */
#ifndef TRAX_PARSE_LOAD_H
#define TRAX_PARSE_LOAD_H

#include <stddef.h>

#include "parse/parse.h"
#include "util/error.h"

struct loader;

/* A row of parse/readers.h. */
struct trax_reader {
	enum trax_format fmt;
	const char *name;
	int (*sniff)(const char *head, size_t n);
	int (*read)(struct loader *L, const char *path, struct trax_error *err);
	int text;
};

/* The readers, in detection order (TRAX_FMT_DAT .. the last reader's format). */
extern const struct trax_reader trax_readers[];
extern const int trax_nreaders;

/* Each reader's sniff and read functions (in its own file). */
#define READER(id, name, sniff, read, text) \
	int sniff(const char *head, size_t n); \
	int read(struct loader *L, const char *path, struct trax_error *err);
#include "parse/readers.h"

/* ftrace text held in memory (size bytes at buf); label names it in messages (text.c). */
int text_read_mem(struct loader *L, const char *label, const char *buf, size_t size,
		  struct trax_error *err);

/*
 * The fixed fields of a trace.dat's header (version, page size, long size: dat.c), read
 * before anything else; 0 or a negative error naming path.
 */
int dat_check_header(const char *path, struct trax_error *err);

/*
 * trax_load() of the file trace known to the user as name (messages and meta source.path say
 * name; NULL: trace): a piped trace that trax_db_open() copied to trace. A trace that is a
 * stream itself is copied beside db_path first (parse/input.h).
 */
int ld_load_named(const char *trace, const char *name, const char *db_path,
		  const struct trax_load_opts *opts, struct trax_load_stats *stats,
		  struct trax_error *err);

#endif
