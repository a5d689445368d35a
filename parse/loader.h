/* parse/loader.h: internal to parse/: the event sink shared by every input format. */
#ifndef TRAX_PARSE_LOADER_H
#define TRAX_PARSE_LOADER_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "parse/catalogue.h"
#include "parse/dbw.h"
#include "parse/parse.h"

/*
 * An input reader (dat.c, text.c, systrace.c) registers the event types it meets with
 * ld_type_add(), then hands every event to ld_emit() in trace order, one buffer's events in
 * timestamp order. The loader writes the event's row (when that type is loaded) and feeds the
 * events that derived tables need to derive.c.
 */

enum ld_sql { LD_INT, LD_TEXT };

struct ld_field_def {
	const char *name;
	enum ld_sql sql;
	unsigned is_array:1, is_string:1, is_unsigned:1;
};

enum ld_kind { LD_NULL, LD_I64, LD_STR };

/* One decoded value; strings point into the reader's memory, valid during ld_emit(). */
struct ld_val {
	uint8_t kind;
	int len;		/* LD_STR: bytes, no NUL needed */
	int64_t i;
	const char *s;
};

struct ld_type {
	int id;				/* event_type.id */
	char *system, *name;
	char *table;			/* NULL until a table is chosen */
	int nfields;
	struct ld_field_def *fields;	/* names owned by the type */
	char **colnames;		/* SQL column per field (renamed when it clashes) */
	int loaded;			/* rows of this type are written */
	int has_table;
	int stmt;			/* dbw statement id, -1 before the table exists */
	uint64_t count;
	enum ld_role role;
	int ridx[LD_ROLE_FIELDS];	/* field index per role field, -1 when absent */
	void *priv;			/* reader's per-type data */
	struct ld_type *next;
};

struct loader;

/*
 * A loader writing into db, inside the caller's transaction (trax_load() opens it). err
 * receives the messages of every later call. Free with ld_free().
 */
struct loader *ld_alloc(sqlite3 *db, const struct trax_load_opts *opts, struct trax_error *err);
void ld_free(struct loader *L);
/*
 * After the last event: finish derived tables, wait for the writer, write meta, event_type
 * and event_field, create indexes. st (may be NULL) gets rows and phase times; st->decode_s
 * must hold minus the pass's start time on entry. 0 or a negative error.
 */
int ld_finish(struct loader *L, struct trax_load_stats *st);

/* Register an event type; fields are copied. Returns the type (owned by the loader). */
struct ld_type *ld_type_add(struct loader *L, const char *system, const char *name,
			    int nfields, const struct ld_field_def *fields);
/* Find a registered type by name (system may be NULL: any). */
struct ld_type *ld_type_find(struct loader *L, const char *system, const char *name);

/* Before the first event: the number of buffers and of CPUs (per buffer). */
void ld_set_cpus(struct loader *L, int nbuffers, int ncpus);

/*
 * Every record of the file, loaded or not, in trace order: keeps each CPU's first and last
 * record timestamps (the edges of its slices) and the record count.
 */
void ld_seen(struct loader *L, int buffer, int cpu, uint64_t ts);
uint64_t ld_records(struct loader *L);
/* A buffer's name (top level: ""); call for each buffer index. */
void ld_set_buffer_name(struct loader *L, int buffer, const char *name);

/* Lost events on a CPU just before ts; count < 0 when unknown. */
void ld_lost(struct loader *L, uint64_t ts, int cpu, int buffer, int64_t count);

/*
 * One event. comm is the task name the reader has for pid (NULL when none); it is only
 * a fallback name for threads never named by an event. Returns 0 or a negative error.
 */
int ld_emit(struct loader *L, struct ld_type *t, uint64_t ts, int cpu, int pid, int buffer,
	    const char *comm, const struct ld_val *vals);

/* An event that could not be parsed: written to raw_event with its text. */
int ld_emit_raw(struct loader *L, uint64_t ts, int cpu, int pid, int buffer, const char *name,
		const char *text, int len);

/* A tgid learnt by the reader (TGID column of text traces). */
void ld_tgid(struct loader *L, int pid, int tgid);

/* A meta key/value. */
void ld_meta(struct loader *L, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Decode a prev_state value with a type's own format; set by the reader (NULL: default). */
typedef const char *(*ld_state_fn)(void *ctx, struct ld_type *t, int64_t state);
void ld_set_state_decoder(struct loader *L, ld_state_fn fn, void *ctx);

/*
 * prev_state numberings of traces without a format (doc/db.md): which task state each bit is.
 * The default is LD_STATE_414. ld_state_bits() gives the letter of each bit, bit 0 first
 * ("SDTtXZPI"); LD_STATE_PRE414's preempted flag ('+') varies with the kernel (1024 to 4096):
 * the reader passes it (ignored for LD_STATE_414, 256). The strings are static.
 */
enum { LD_STATE_414, LD_STATE_PRE414 };
void ld_set_state_numbering(struct loader *L, int numbering, int64_t preempt);
const char *ld_state_bits(int numbering);
const char *ld_state_numbering_name(int numbering);

/* Whether events of this type should be written (the --events filter). */
int ld_wanted(struct loader *L, const char *system, const char *name);

/* The reader's error slot. */
struct trax_error *ld_error(struct loader *L);
struct dbw *ld_dbw(struct loader *L);

/* Derived tables (derive.c). */
struct derive;
struct derive *derive_alloc(struct loader *L, struct dbw *w);
void derive_free(struct derive *d);
void derive_set_cpus(struct derive *d, int nbuffers, int ncpus, const uint64_t *first);
void derive_event(struct derive *d, struct ld_type *t, uint64_t ts, int cpu, int pid,
		  int buffer, const char *comm, const struct ld_val *v);
void derive_lost(struct derive *d, uint64_t ts, int cpu, int buffer);
void derive_tgid(struct derive *d, int pid, int tgid);
/* Close open intervals at the end of the trace and write thread, track tables. */
void derive_finish(struct derive *d, uint64_t end_ts);
uint64_t derive_rows(struct derive *d);
const char *derive_state_letters(struct loader *L, struct ld_type *t, int64_t state);

/* For android.c: the thread pid denotes at ts (created on first sight), its current name
 * (NULL when unnamed; valid until the next event), its tgid; a counter track keyed by every
 * argument (utid -1, cpu -1, zone NULL: none), ids from 1; a counter sample. */
int derive_thread(struct derive *d, int pid, uint64_t ts);
const char *derive_thread_comm(struct derive *d, int utid);
void derive_thread_tgid(struct derive *d, int utid, int tgid);
int derive_track(struct derive *d, const char *name, const char *kind, int cpu, int utid,
		 const char *zone, const char *unit, int buffer);
void derive_counter(struct derive *d, uint64_t ts, int track, double value);

/*
 * Android derived tables (android.c): slice, instant and atrace counters from trace markers;
 * kill, alloc, fence, fence_wait; the anomaly table for malformed input. derive.c owns one
 * and feeds it the events of the Android roles and every trace marker that is not trax's own.
 */
struct android;
struct android *android_alloc(struct loader *L, struct derive *d, struct dbw *w, int nbuffers);
void android_free(struct android *a);
void android_event(struct android *a, struct ld_type *t, uint64_t ts, int cpu, int pid,
		   int buffer, const struct ld_val *v);
/* A trace marker (print buf, len bytes, trailing newline allowed) written by pid. */
void android_marker(struct android *a, uint64_t ts, int cpu, int pid, int buffer,
		    const char *buf, int len);
/* oom_score_adj of pid from ts on (oom_score_adj_update, task_newtask, trax's initial marker). */
void android_adj(struct android *a, uint64_t ts, int pid, int64_t adj, int buffer);
/* Write what is still open at the end of the trace (end_ts) and the anomaly counts to meta. */
void android_finish(struct android *a, uint64_t end_ts);
uint64_t android_rows(struct android *a);



/* Readers: each reads one file into the loader; 0 or a negative error with err filled. */
int dat_read(struct loader *L, const char *path, struct trax_error *err);
int text_read(struct loader *L, const char *path, struct trax_error *err);
/* ftrace text held in memory (size bytes at buf); label names it in messages. */
int text_read_mem(struct loader *L, const char *label, const char *buf, size_t size,
		  struct trax_error *err);
/* Android systrace/atrace HTML: the ftrace text of its trace-data blocks (systrace.c). */
int systrace_read(struct loader *L, const char *path, struct trax_error *err);

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
