/* parse/parse.h: turning trace files (trace.dat, ftrace text, systrace) into trax databases. */
#ifndef TRAX_PARSE_H
#define TRAX_PARSE_H

#include <stdint.h>
#include <stdio.h>
#include <sqlite3.h>

#include "util/error.h"

/* The formats: TRAX_FMT_DAT (trace-cmd trace.dat v6, v7), TRAX_FMT_SYSTRACE (Android systrace,
 * atrace), TRAX_FMT_TEXT (ftrace text: tracefs `trace`, `trace-cmd report`): the rows of
 * parse/readers.h; and a trax SQLite database. */
enum trax_format {
	TRAX_FMT_UNKNOWN,
#define READER(id, name, sniff, read, text) TRAX_FMT_##id,
#include "parse/readers.h"
	TRAX_FMT_DB,		/* a trax SQLite database */
};

/* The name of a format ("trace.dat", "text", ...). Must not be freed. */
const char *trax_format_name(enum trax_format fmt);

/*
 * Detect a file's format from its content (never from its name). Returns 0 and sets *fmt, or
 * a negative error (missing file, directory, empty file, unknown content) with err filled.
 */
int trax_detect_format(const char *path, enum trax_format *fmt, struct trax_error *err);

struct trax_load_opts {
	const char *events;	/* NULL: every event; else a comma list of NAME, SYSTEM:NAME,
				 * SYSTEM:* (SYSTEM/NAME accepted too) */
	int threads;		/* 0: decode and insert on two threads; 1: one thread */
};

struct trax_load_stats {
	uint64_t records;	/* records read from the file */
	uint64_t event_rows;	/* rows in event tables and raw_event */
	uint64_t derived_rows;	/* rows in derived tables */
	double decode_s;	/* wall time of decode + insert (the streaming pass) */
	double event_insert_s;	/* writer time inserting event rows (overlaps decode) */
	double derived_s;	/* writer time inserting derived rows, plus finishing them */
	double index_s;		/* creating indexes */
	double total_s;
	double wait_s;		/* decoder time blocked on the writer */
	double idle_s;		/* writer time waiting for the decoder's rows */
};

/*
 * Load trace into a new database at db_path. The database is built in a temporary file beside
 * db_path and renamed into place only when complete, so a failed or interrupted load leaves
 * nothing that looks like a database. Returns 0 or a negative error with err filled
 * ("trace.dat: truncated: CPU 2 data ends at 81920 of 131072 bytes"). opts, stats may be NULL.
 */
int trax_load(const char *trace, const char *db_path, const struct trax_load_opts *opts,
	      struct trax_load_stats *stats, struct trax_error *err);

/*
 * Open a trax database read-only. path may be a database or a trace: a trace is loaded into
 * the cache (keyed by the file's identity and by `events`; NULL: every event) unless a cached
 * load exists. On success *db is open read-only; the caller closes it with sqlite3_close().
 */
int trax_db_open(const char *path, const char *events, sqlite3 **db, struct trax_error *err);

/* The first column of the first row of sql, whose one parameter is arg, as a string; NULL
 * when there is no row or it is NULL. The caller frees the string. */
char *trax_db_string(sqlite3 *db, const char *sql, const char *arg);

/*
 * Whether trax knows an event by name: one its readers decode or its derived tables read
 * (sched_switch, cpu_frequency, ion_alloc_buffer_start, ...). Returns 1 for one of them; else
 * 0, and *near (may be NULL) is set to the known event nearest to name when it is near enough
 * to be a typo of it (util/suggest.h), else to NULL. *near must not be freed.
 */
int trax_event_known(const char *name, const char **near);

/* ---- trax export: a database's events as a Perfetto trace (parse/pfexport.c) ---- */

struct trax_export_opts {
	int buffer;		/* the buffer to export (0: the first, or the only one) */
	const char *in_name;	/* names the input in messages (NULL: the database's file) */
	const char *out_name;	/* names the output in messages (NULL: "output") */
};

struct trax_export_stats {
	uint64_t events;	/* events written */
	uint64_t typed;		/* ... as the event's own message (parse/perfetto-fields.h) */
	uint64_t generic;	/* ... as GenericFtraceEvent */
	uint64_t bundles;	/* FtraceEventBundle packets */
	uint64_t lost;		/* bundles flagged lost_events */
	uint64_t threads, processes;	/* in the process_tree packets */
	uint64_t raw_rows;	/* raw_event rows of the buffer: not exported */
	int buffers;		/* buffers in the database (only one is exported) */
	char clock[32];		/* meta trace_clock ("" when absent) */
	int clock_mapped;	/* 1: boot, or written as its FtraceClock value; 0: written as boot */
};

/*
 * Write the events of one buffer of db (a trax database, read-only is enough) to out as a
 * Perfetto Trace (doc/db.md, "Export"): per-CPU FtraceEventBundle packets of at most about
 * 64 KiB, a process_tree from the thread table and a system_info from meta kernel. Rows are
 * read in a streaming merge of the event tables; memory is one bundle per CPU. Returns 0 (stats,
 * may be NULL, filled) or a negative error with err filled (a database that does not read, a
 * write that fails); out then holds part of a trace, and the caller discards it.
 */
int trax_export_perfetto(sqlite3 *db, FILE *out, const struct trax_export_opts *opts,
			 struct trax_export_stats *stats, struct trax_error *err);

/* The meta table: the one reader of it. */
/* The meta value of key, or NULL when absent; the caller frees the string. */
char *trax_db_meta(sqlite3 *db, const char *key);
/*
 * The meta value of key as an integer: 0 and *v when it is one (the whole value), 1 when it
 * is "unknown" (doc/db.md: a count the file does not give; *v untouched), -1 when it is
 * absent, NULL or not an integer (*v untouched).
 */
int trax_db_meta_int(sqlite3 *db, const char *key, int64_t *v);

#endif
