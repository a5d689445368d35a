/* parse/schema.h: the fixed tables of a trax database (event tables are made per trace). */
#ifndef TRAX_PARSE_SCHEMA_H
#define TRAX_PARSE_SCHEMA_H

#include "parse/dbw.h"

/*
 * The fixed tables, one row each: T(ID, "name", "columns"). doc/db.md describes every column.
 * The CREATE TABLE statements and the INSERT statements of the writers both come from here,
 * so a column added here is one the INSERT binds (its writer adds the value).
 */
#define SCHEMA_TABLES(T) \
	T(META, "meta", "key TEXT PRIMARY KEY, value TEXT") \
	T(EVENT_TYPE, "event_type", "id INTEGER PRIMARY KEY, system TEXT, name TEXT," \
	  " table_name TEXT, count INTEGER") \
	T(EVENT_FIELD, "event_field", "type_id INTEGER, name TEXT, sql_type TEXT," \
	  " is_array INTEGER, is_string INTEGER, is_unsigned INTEGER, field_name TEXT") \
	T(RAW_EVENT, "raw_event", "ts INTEGER, cpu INTEGER, common_pid INTEGER," \
	  " buffer INTEGER, name TEXT, text TEXT") \
	T(LOST_EVENT, "lost_event", "ts INTEGER, cpu INTEGER, buffer INTEGER, count INTEGER") \
	T(THREAD, "thread", "utid INTEGER PRIMARY KEY, pid INTEGER, tgid INTEGER, comm TEXT," \
	  " start_ts INTEGER, end_ts INTEGER") \
	T(THREAD_COMM, "thread_comm", "utid INTEGER, ts INTEGER, comm TEXT") \
	T(SCHED_SLICE, "sched_slice", "ts INTEGER, dur INTEGER, cpu INTEGER, utid INTEGER," \
	  " pid INTEGER, prio INTEGER, end_state TEXT, clipped INTEGER, buffer INTEGER") \
	T(THREAD_STATE, "thread_state", "ts INTEGER, dur INTEGER, utid INTEGER, state TEXT," \
	  " cpu INTEGER, waker_utid INTEGER, buffer INTEGER") \
	T(TRACK, "track", "id INTEGER PRIMARY KEY, name TEXT, kind TEXT, cpu INTEGER," \
	  " utid INTEGER, zone TEXT, unit TEXT, buffer INTEGER") \
	T(COUNTER, "counter", "ts INTEGER, track_id INTEGER, value NUMERIC") \
	T(SLICE, "slice", "ts INTEGER, dur INTEGER, utid INTEGER, name TEXT, depth INTEGER," \
	  " track TEXT, cookie INTEGER, clipped INTEGER, buffer INTEGER") \
	T(INSTANT, "instant", "ts INTEGER, utid INTEGER, name TEXT, track TEXT, buffer INTEGER") \
	T(KILL, "kill", "ts INTEGER, source TEXT, pid INTEGER, comm TEXT," \
	  " oom_score_adj INTEGER, reason TEXT, min_adj INTEGER, rss_kb INTEGER, utid INTEGER," \
	  " buffer INTEGER") \
	T(ALLOC, "alloc", "ts INTEGER, dur INTEGER, source TEXT, heap TEXT, client TEXT," \
	  " len INTEGER, ok INTEGER, error INTEGER, fallback INTEGER, total INTEGER," \
	  " utid INTEGER, buffer INTEGER") \
	T(FENCE, "fence", "driver TEXT, timeline TEXT, context INTEGER, seqno INTEGER," \
	  " init_ts INTEGER, emit_ts INTEGER, enable_ts INTEGER, signal_ts INTEGER," \
	  " destroy_ts INTEGER, signal_count INTEGER, waits_on_context INTEGER," \
	  " waits_on_seqno INTEGER, buffer INTEGER") \
	T(FENCE_WAIT, "fence_wait", "ts INTEGER, dur INTEGER, utid INTEGER, context INTEGER," \
	  " seqno INTEGER, source TEXT, name TEXT, buffer INTEGER") \
	T(ANOMALY, "anomaly", "ts INTEGER, kind TEXT, utid INTEGER, detail TEXT, buffer INTEGER") \
	/* end */

#define SCHEMA_ID(id, name, cols) SCHEMA_##id,
enum schema_table { SCHEMA_TABLES(SCHEMA_ID) SCHEMA__COUNT };
#undef SCHEMA_ID

/* Queue the creation of the bookkeeping and derived tables (see doc/db.md). */
void schema_create_core(struct dbw *w);

/* "INSERT INTO name VALUES(?,...)" with one parameter per column of table t, into sb. */
struct strbuf;
void schema_insert_sql(enum schema_table t, struct strbuf *sb);

/* The writer's prepared INSERT into table t (dbw_prepare()). */
int schema_insert(struct dbw *w, enum schema_table t, enum dbw_cat cat);

/* SQL creating the indexes of the fixed tables. Must not be freed. */
const char *schema_core_indexes(void);

/* Whether name (ignoring ASCII case, as SQLite does) is one of those indexes. */
int schema_is_index(const char *name);

#endif
