/* parse/schema.c: the fixed part of the trax data model (doc/db.md describes every column). */
#include <string.h>

#include "parse/schema.h"

static const char core_sql[] =
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
	"CREATE TABLE event_type(id INTEGER PRIMARY KEY, system TEXT, name TEXT, table_name TEXT,"
	" count INTEGER);"
	"CREATE TABLE event_field(type_id INTEGER, name TEXT, sql_type TEXT, is_array INTEGER,"
	" is_string INTEGER, is_unsigned INTEGER, field_name TEXT);"
	"CREATE TABLE raw_event(ts INTEGER, cpu INTEGER, common_pid INTEGER, buffer INTEGER,"
	" name TEXT, text TEXT);"
	"CREATE TABLE lost_event(ts INTEGER, cpu INTEGER, buffer INTEGER, count INTEGER);"
	"CREATE TABLE thread(utid INTEGER PRIMARY KEY, pid INTEGER, tgid INTEGER, comm TEXT,"
	" start_ts INTEGER, end_ts INTEGER);"
	"CREATE TABLE thread_comm(utid INTEGER, ts INTEGER, comm TEXT);"
	"CREATE TABLE sched_slice(ts INTEGER, dur INTEGER, cpu INTEGER, utid INTEGER, pid INTEGER,"
	" prio INTEGER, end_state TEXT, clipped INTEGER, buffer INTEGER);"
	"CREATE TABLE thread_state(ts INTEGER, dur INTEGER, utid INTEGER, state TEXT, cpu INTEGER,"
	" waker_utid INTEGER, buffer INTEGER);"
	"CREATE TABLE track(id INTEGER PRIMARY KEY, name TEXT, kind TEXT, cpu INTEGER,"
	" utid INTEGER, zone TEXT, unit TEXT, buffer INTEGER);"
	"CREATE TABLE counter(ts INTEGER, track_id INTEGER, value NUMERIC);"
	/* Android (parse/android.c) */
	"CREATE TABLE slice(ts INTEGER, dur INTEGER, utid INTEGER, name TEXT, depth INTEGER,"
	" track TEXT, cookie INTEGER, clipped INTEGER, buffer INTEGER);"
	"CREATE TABLE instant(ts INTEGER, utid INTEGER, name TEXT, track TEXT, buffer INTEGER);"
	"CREATE TABLE kill(ts INTEGER, source TEXT, pid INTEGER, comm TEXT, oom_score_adj INTEGER,"
	" reason TEXT, min_adj INTEGER, rss_kb INTEGER, utid INTEGER, buffer INTEGER);"
	"CREATE TABLE alloc(ts INTEGER, dur INTEGER, source TEXT, heap TEXT, client TEXT,"
	" len INTEGER, ok INTEGER, error INTEGER, fallback INTEGER, total INTEGER, utid INTEGER,"
	" buffer INTEGER);"
	"CREATE TABLE fence(driver TEXT, timeline TEXT, context INTEGER, seqno INTEGER,"
	" init_ts INTEGER, emit_ts INTEGER, enable_ts INTEGER, signal_ts INTEGER,"
	" destroy_ts INTEGER, signal_count INTEGER, waits_on_context INTEGER,"
	" waits_on_seqno INTEGER, buffer INTEGER);"
	"CREATE TABLE fence_wait(ts INTEGER, dur INTEGER, utid INTEGER, context INTEGER,"
	" seqno INTEGER, source TEXT, name TEXT, buffer INTEGER);"
	"CREATE TABLE anomaly(ts INTEGER, kind TEXT, utid INTEGER, detail TEXT, buffer INTEGER);";

static const char core_indexes[] =
	"CREATE INDEX sched_slice_utid ON sched_slice(utid, ts);"
	"CREATE INDEX sched_slice_cpu ON sched_slice(cpu, ts);"
	"CREATE INDEX thread_state_utid ON thread_state(utid, ts);"
	"CREATE INDEX counter_track ON counter(track_id, ts);"
	"CREATE INDEX thread_comm_utid ON thread_comm(utid, ts);"
	"CREATE INDEX thread_pid ON thread(pid);"
	"CREATE INDEX slice_utid ON slice(utid, ts);"
	"CREATE INDEX slice_ts ON slice(ts);"
	"CREATE INDEX fence_signal ON fence(signal_ts);"
	"CREATE INDEX fence_wait_ts ON fence_wait(ts);";

void schema_create_core(struct dbw *w)
{
	dbw_exec(w, core_sql);
}

const char *schema_core_indexes(void)
{
	return core_indexes;
}

int schema_is_index(const char *name)
{
	static const char kw[] = "CREATE INDEX ";
	size_t n = strlen(name);

	for (const char *p = strstr(core_indexes, kw); p; p = strstr(p, kw)) {
		p += sizeof(kw) - 1;
		if (!strncasecmp(p, name, n) && p[n] == ' ')
			return 1;
	}
	return 0;
}
