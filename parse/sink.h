/* parse/sink.h: internal to parse/: the event sink every reader writes into (parse/loader.c). */
#ifndef TRAX_PARSE_SINK_H
#define TRAX_PARSE_SINK_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "parse/parse.h"

/*
 * A reader (parse/load.h) registers the event types it meets with ld_type_add(), then hands
 * every event to ld_emit() in trace order, one buffer's events in timestamp order. The sink
 * writes the event's row (when that type is loaded) and feeds the events that derived tables
 * need to the derivations (parse/derive.h). A type is opaque here: readers see it through
 * the ld_type_* accessors.
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

struct ld_type;
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
/* Run sql on db (no rows wanted); 0 or -TRAX_E_DB with err filled. */
int ld_exec_sql(sqlite3 *db, const char *sql, struct trax_error *err);

/* Register an event type; fields are copied. Returns the type (owned by the loader). */
struct ld_type *ld_type_add(struct loader *L, const char *system, const char *name,
			    int nfields, const struct ld_field_def *fields);
/* Find a registered type by name (system may be NULL: any). */
struct ld_type *ld_type_find(struct loader *L, const char *system, const char *name);

/* A type's names, its fields (copied at ld_type_add()) and whether its rows are written. */
const char *ld_type_system(const struct ld_type *t);
const char *ld_type_name(const struct ld_type *t);
int ld_type_nfields(const struct ld_type *t);
const struct ld_field_def *ld_type_field(const struct ld_type *t, int i);
int ld_type_loaded(const struct ld_type *t);
/* The reader's own data for a type (NULL until set). */
void *ld_type_priv(const struct ld_type *t);
void ld_type_set_priv(struct ld_type *t, void *priv);

/* Before the first event: the number of buffers and of CPUs (per buffer). */
void ld_set_cpus(struct loader *L, int nbuffers, int ncpus);

/*
 * Every record of the file, loaded or not, in trace order: keeps each CPU's first and last
 * record timestamps (the edges of its slices) and the record count.
 */
void ld_seen(struct loader *L, int buffer, int cpu, uint64_t ts);
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
/*
 * A task the trace says was alive at its start (process data: Perfetto's process_tree): its
 * process (tgid, 0 unknown) and name (len -1: NUL-terminated; NULL: none), given to the
 * lifetime of pid met without a birth (the name only when no event names it). Any time.
 */
void ld_task(struct loader *L, int pid, int tgid, const char *comm, int len);
/*
 * A trace marker that is no event row: what a reader knows in another form, written as the
 * atrace marker of the same meaning (Perfetto's track events: "B|pid|name", "C|pid|name|v",
 * ...) by the thread pid (-1: none) at ts, in time order with the events. Only the derived
 * tables see it (slice, instant, counter).
 */
void ld_marker(struct loader *L, uint64_t ts, int pid, int buffer, const char *buf, int len);

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

#endif
