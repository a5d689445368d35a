/* parse/schema.c: the fixed part of the trax data model (doc/db.md describes every column). */
#include <string.h>

#include "parse/schema.h"
#include "util/strbuf.h"

static const struct {
	const char *name, *cols;
} tables[SCHEMA__COUNT] = {
#define SCHEMA_ROW(id, name, cols) [SCHEMA_##id] = { name, cols },
	SCHEMA_TABLES(SCHEMA_ROW)
#undef SCHEMA_ROW
};

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
	struct strbuf sb = STRBUF_INIT;

	for (int t = 0; t < SCHEMA__COUNT; t++)
		strbuf_addf(&sb, "CREATE TABLE %s(%s);", tables[t].name, tables[t].cols);
	dbw_exec(w, sb.buf);
	strbuf_release(&sb);
}

void schema_insert_sql(enum schema_table t, struct strbuf *sb)
{
	strbuf_addf(sb, "INSERT INTO %s VALUES(?", tables[t].name);
	for (const char *p = tables[t].cols; *p; p++)
		if (*p == ',')
			strbuf_adds(sb, ",?");
	strbuf_adds(sb, ")");
}

int schema_insert(struct dbw *w, enum schema_table t, enum dbw_cat cat)
{
	struct strbuf sb = STRBUF_INIT;
	int id;

	schema_insert_sql(t, &sb);
	id = dbw_prepare(w, sb.buf, cat);
	strbuf_release(&sb);
	return id;
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
