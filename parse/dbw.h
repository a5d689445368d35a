/* parse/dbw.h: the database writer: rows queued by the decoder, inserted by a writer thread. */
#ifndef TRAX_PARSE_DBW_H
#define TRAX_PARSE_DBW_H

#include <stdint.h>
#include <sqlite3.h>

#include "util/error.h"

/*
 * The loader decodes events on the calling thread and describes every SQL action (DDL,
 * prepared statements, rows) to a struct dbw. With threads enabled, the actions are
 * serialized into bounded chunks and replayed on a writer thread that owns the SQLite
 * connection until dbw_finish(); the decoder never touches the connection meanwhile. Without
 * threads, chunks are replayed inline when full. Memory: at most DBW_QUEUE chunks in flight.
 */
struct dbw;

/* Statement categories, for the time-per-phase figures. */
enum dbw_cat { DBW_CAT_EVENT, DBW_CAT_DERIVED, DBW_CAT__N };

struct dbw_stats {
	uint64_t rows[DBW_CAT__N];
	uint64_t steps[DBW_CAT__N];	/* statements run (a statement inserts up to 32 rows) */
	double busy_s[DBW_CAT__N];	/* writer time spent in sqlite3_step per category */
	double wait_s;			/* decoder time blocked on a full queue */
	double idle_s;			/* writer time waiting for rows (an empty queue), from
					 * its start to the last chunk */
};

/* Start a writer on db (the caller keeps ownership of db). Returns NULL on allocation failure. */
struct dbw *dbw_alloc(sqlite3 *db, int threaded);

/* Queue DDL or other SQL without results. */
void dbw_exec(struct dbw *w, const char *sql);

/* Queue the preparation of an INSERT; returns the statement id for dbw_row_begin(). */
int dbw_prepare(struct dbw *w, const char *sql, enum dbw_cat cat);

/* One row for statement id: begin, one value per parameter in order, end. */
void dbw_row_begin(struct dbw *w, int stmt);
void dbw_int(struct dbw *w, int64_t v);
void dbw_real(struct dbw *w, double v);
void dbw_text(struct dbw *w, const char *s, int len);	/* len < 0: strlen */
void dbw_null(struct dbw *w);
void dbw_row_end(struct dbw *w);

/* Nonzero once the writer has failed; the loader may stop decoding early. */
int dbw_failed(struct dbw *w);

/*
 * Wait for every queued action, stop the writer, finalize statements and free w. Returns 0
 * or a negative error with err filled from the first failure. stats may be NULL.
 */
int dbw_finish(struct dbw *w, struct dbw_stats *stats, struct trax_error *err);

#endif
