/* assert/cache.c: per-thread slices and states read once per check and shared by its rules. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "assert/assert-local.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct series {
	struct aslice *s;
	int ns, cs;
	struct astate *t;
	int nt, ct;
};

struct acache {
	sqlite3 *db;
	int full_scan;
	int *want;		/* wanted utids */
	int nwant;
	int maxutid;
	char *wanted;		/* [maxutid + 1] */
	struct series *ser;	/* [maxutid + 1] */
	int buffer;		/* the buffer loaded, -1: none */
	int need_busy;		/* keep every non-idle slice too, while reading slices */
	struct abusy *all;
	int nall, call;
	int slices_loaded, states_loaded;

	/* states read ahead on a second connection, while slices are read on the first */
	pthread_t ahead;
	int ahead_running, ahead_ret;
	struct trax_error ahead_err;
};

struct acache *acache_alloc(sqlite3 *db, const int *want, int nwant, int full_scan)
{
	struct acache *c = xcalloc(1, sizeof(*c));

	c->db = db;
	c->full_scan = full_scan;
	c->buffer = -1;
	c->nwant = nwant;
	c->want = xmalloc((nwant ? nwant : 1) * sizeof(int));
	for (int i = 0; i < nwant; i++) {
		c->want[i] = want[i];
		if (want[i] > c->maxutid)
			c->maxutid = want[i];
	}
	c->wanted = xcalloc(c->maxutid + 1, 1);
	c->ser = xcalloc(c->maxutid + 1, sizeof(*c->ser));
	for (int i = 0; i < nwant; i++)
		if (want[i] >= 0)
			c->wanted[want[i]] = 1;
	return c;
}

static void join_ahead(struct acache *c)
{
	if (c->ahead_running) {
		pthread_join(c->ahead, NULL);
		c->ahead_running = 0;
	}
}

static void drop_data(struct acache *c)
{
	join_ahead(c);
	for (int u = 0; u <= c->maxutid; u++) {
		free(c->ser[u].s);
		free(c->ser[u].t);
		memset(&c->ser[u], 0, sizeof(c->ser[u]));
	}
	free(c->all);
	c->all = NULL;
	c->nall = c->call = 0;
	c->slices_loaded = c->states_loaded = 0;
}

void acache_free(struct acache *c)
{
	if (!c)
		return;
	drop_data(c);
	free(c->ser);
	free(c->wanted);
	free(c->want);
	free(c);
}

static void where_utids(struct acache *c, struct strbuf *sql)
{
	if (c->full_scan)
		return;
	strbuf_adds(sql, " AND utid IN (");
	for (int i = 0; i < c->nwant; i++)
		strbuf_addf(sql, "%s%d", i ? "," : "", c->want[i]);
	strbuf_adds(sql, ")");
}

static int cmp_slice(const void *a, const void *b)
{
	int64_t x = ((const struct aslice *)a)->ts, y = ((const struct aslice *)b)->ts;

	return x < y ? -1 : x > y;
}

static int cmp_state(const void *a, const void *b)
{
	int64_t x = ((const struct astate *)a)->ts, y = ((const struct astate *)b)->ts;

	return x < y ? -1 : x > y;
}

static void use_buffer(struct acache *c, int buffer)
{
	if (c->buffer != buffer) {
		drop_data(c);
		c->buffer = buffer;
	}
}

/* One scan of sched_slice: the wanted threads' series, and every busy slice when asked. */
static int load_slices(struct acache *c, struct trax_error *err)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc;

	strbuf_addf(&sql, "SELECT utid, ts, dur, cpu, clipped, end_state, pid FROM sched_slice "
		    "WHERE buffer = %d", c->buffer);
	if (!c->need_busy)
		where_utids(c, &sql);
	rc = sqlite3_prepare_v2(c->db, sql.buf, -1, &st, NULL);
	strbuf_release(&sql);
	if (rc != SQLITE_OK)
		return trax_error_set(err, TRAX_E_DB, "reading sched_slice: %s",
				      sqlite3_errmsg(c->db));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int u = sqlite3_column_int(st, 0);
		const unsigned char *es;
		struct series *se;
		struct aslice *s;

		if (c->need_busy && sqlite3_column_int(st, 6) != 0) {
			struct abusy *b;

			TRAX_GROW(c->all, c->nall, c->call, 1024);
			b = &c->all[c->nall++];
			b->ts = sqlite3_column_int64(st, 1);
			b->dur = sqlite3_column_int64(st, 2);
			b->cpu = sqlite3_column_int(st, 3);
			b->utid = u;
			b->clipped = sqlite3_column_int(st, 4);
		}
		if (u < 0 || u > c->maxutid || !c->wanted[u])
			continue;
		se = &c->ser[u];
		TRAX_GROW(se->s, se->ns, se->cs, 64);
		s = &se->s[se->ns++];
		s->ts = sqlite3_column_int64(st, 1);
		s->dur = sqlite3_column_int64(st, 2);
		s->cpu = sqlite3_column_int(st, 3);
		s->clipped = sqlite3_column_int(st, 4);
		es = sqlite3_column_text(st, 5);
		if (es) {
			strncpy(s->state, (const char *)es, sizeof(s->state) - 1);
			s->state[sizeof(s->state) - 1] = '\0';
		} else {
			s->state[0] = '\0';
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return trax_error_set(err, TRAX_E_DB, "reading sched_slice: %s",
				      sqlite3_errmsg(c->db));
	/* a thread's slices are written when they end, so they come in order; make sure */
	for (int u = 0; u <= c->maxutid; u++) {
		struct series *se = &c->ser[u];

		for (int i = 1; i < se->ns; i++) {
			if (se->s[i].ts < se->s[i - 1].ts) {
				qsort(se->s, se->ns, sizeof(*se->s), cmp_slice);
				break;
			}
		}
	}
	c->slices_loaded = 1;
	return 0;
}

/* The woken intervals (thread_state R) of the wanted threads, read through db. */
static int load_states(struct acache *c, sqlite3 *db, struct trax_error *err)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc;

	strbuf_addf(&sql, "SELECT utid, ts, dur FROM thread_state WHERE buffer = %d AND "
		    "state = 'R'", c->buffer);
	where_utids(c, &sql);
	rc = sqlite3_prepare_v2(db, sql.buf, -1, &st, NULL);
	strbuf_release(&sql);
	if (rc != SQLITE_OK)
		return trax_error_set(err, TRAX_E_DB, "reading thread_state: %s",
				      sqlite3_errmsg(db));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int u = sqlite3_column_int(st, 0);
		struct series *se;
		struct astate *t;

		if (u < 0 || u > c->maxutid || !c->wanted[u])
			continue;
		se = &c->ser[u];
		TRAX_GROW(se->t, se->nt, se->ct, 64);
		t = &se->t[se->nt++];
		t->ts = sqlite3_column_int64(st, 1);
		t->dur = sqlite3_column_int64(st, 2);
		t->code = ASTATE_R;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return trax_error_set(err, TRAX_E_DB, "reading thread_state: %s",
				      sqlite3_errmsg(db));
	for (int u = 0; u <= c->maxutid; u++) {
		struct series *se = &c->ser[u];

		for (int i = 1; i < se->nt; i++) {
			if (se->t[i].ts < se->t[i - 1].ts) {
				qsort(se->t, se->nt, sizeof(*se->t), cmp_state);
				break;
			}
		}
	}
	return 0;
}

static void *ahead_main(void *arg)
{
	struct acache *c = arg;
	const char *file = sqlite3_db_filename(c->db, "main");
	sqlite3 *db = NULL;

	if (sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK)
		c->ahead_ret = trax_error_set(&c->ahead_err, TRAX_E_DB, "%s: %s", file,
					      sqlite3_errmsg(db));
	else
		c->ahead_ret = load_states(c, db, &c->ahead_err);
	sqlite3_close(db);
	return NULL;
}

void acache_prepare(struct acache *c, int buffer, int need_states, int need_busy)
{
	const char *file = sqlite3_db_filename(c->db, "main");

	use_buffer(c, buffer);
	c->need_busy = need_busy;
	/* a database in a file can be read on a second connection at the same time */
	if (need_states && c->full_scan && file && *file &&
	    pthread_create(&c->ahead, NULL, ahead_main, c) == 0) {
		c->ahead_running = 1;
		c->states_loaded = 1;
	}
}

int acache_slices(struct acache *c, int utid, int buffer, const struct aslice **s, int *n,
		  struct trax_error *err)
{
	int ret;

	*s = NULL;
	*n = 0;
	use_buffer(c, buffer);
	if (!c->slices_loaded && (ret = load_slices(c, err)))
		return ret;
	if (utid < 0 || utid > c->maxutid || !c->wanted[utid])
		return trax_error_set(err, TRAX_E_EVAL, "internal: thread %d not cached", utid);
	*s = c->ser[utid].s;
	*n = c->ser[utid].ns;
	return 0;
}

int acache_states(struct acache *c, int utid, int buffer, const struct astate **s, int *n,
		  struct trax_error *err)
{
	int ret;

	*s = NULL;
	*n = 0;
	use_buffer(c, buffer);
	if (c->ahead_running) {
		join_ahead(c);
		if (c->ahead_ret) {
			if (err)
				*err = c->ahead_err;
			c->states_loaded = 0;
			return c->ahead_ret;
		}
	}
	if (!c->states_loaded) {
		ret = load_states(c, c->db, err);
		if (ret)
			return ret;
		c->states_loaded = 1;
	}
	if (utid < 0 || utid > c->maxutid || !c->wanted[utid])
		return trax_error_set(err, TRAX_E_EVAL, "internal: thread %d not cached", utid);
	*s = c->ser[utid].t;
	*n = c->ser[utid].nt;
	return 0;
}

int acache_busy_slices(struct acache *c, int buffer, const struct abusy **s, int *n,
		       struct trax_error *err)
{
	int ret;

	use_buffer(c, buffer);
	if (!c->need_busy || !c->slices_loaded) {
		/* not read along with the threads' slices: read everything now */
		if (c->slices_loaded)
			drop_data(c);
		c->need_busy = 1;
		ret = load_slices(c, err);
		if (ret)
			return ret;
	}
	*s = c->all;
	*n = c->nall;
	return 0;
}
