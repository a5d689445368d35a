/* parse/derive.h: internal to parse/: the derived tables (derive.c), fed by the sink (loader.c)
 * with the events of the catalogue's roles; the Android ones are behind parse/android.h. */
#ifndef TRAX_PARSE_DERIVE_H
#define TRAX_PARSE_DERIVE_H

#include "parse/catalogue.h"
#include "parse/dbw.h"
#include "parse/sink.h"

/* An event type as the sink and the derivations see it (readers: the ld_type_* accessors). */
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
	enum ev_by by;			/* the derivation reading its records */
	int ridx[LD_ROLE_FIELDS];	/* field index per role field, -1 when absent */
	void *priv;			/* reader's per-type data */
	struct ld_type *next;
};

/* Derived tables (derive.c). */
struct derive;
struct derive *derive_alloc(struct loader *L, struct dbw *w);
void derive_free(struct derive *d);
void derive_set_cpus(struct derive *d, int nbuffers, int ncpus, const uint64_t *first);
void derive_event(struct derive *d, struct ld_type *t, uint64_t ts, int cpu, int pid,
		  int buffer, const char *comm, const struct ld_val *v);
void derive_lost(struct derive *d, uint64_t ts, int cpu, int buffer);
void derive_tgid(struct derive *d, int pid, int tgid);
/* A task alive at the trace start (collect's markers, a Perfetto trace's process data): its
 * process (tgid, 0 unknown) and name (len -1: NUL-terminated), for the lifetime of pid met
 * without a birth. */
void derive_task(struct derive *d, int pid, int tgid, const char *comm, int len);
/* A marker with no event row (ld_marker()): to the Android tables as a trace marker. */
void derive_marker(struct derive *d, uint64_t ts, int pid, int buffer, const char *buf, int len);
/* Close open intervals at the end of the trace and write thread, track tables. */
void derive_finish(struct derive *d, uint64_t end_ts);
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

#endif
