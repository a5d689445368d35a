/* assert/cache.c: per-thread slices and states read once per check and shared by its rules. */
#include <stdlib.h>
#include <string.h>

#include "assert/assert-local.h"
#include "util/strbuf.h"

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
	int slices_loaded, states_loaded;
};

struct acache *acache_alloc(sqlite3 *db, const int *want, int nwant, int full_scan)
{
	struct acache *c = calloc(1, sizeof(*c));

	if (!c)
		abort();
	c->db = db;
	c->full_scan = full_scan;
	c->buffer = -1;
	c->nwant = nwant;
	c->want = malloc((nwant ? nwant : 1) * sizeof(int));
	if (!c->want)
		abort();
	for (int i = 0; i < nwant; i++) {
		c->want[i] = want[i];
		if (want[i] > c->maxutid)
			c->maxutid = want[i];
	}
	c->wanted = calloc(c->maxutid + 1, 1);
	c->ser = calloc(c->maxutid + 1, sizeof(*c->ser));
	if (!c->wanted || !c->ser)
		abort();
	for (int i = 0; i < nwant; i++)
		if (want[i] >= 0)
			c->wanted[want[i]] = 1;
	return c;
}

static void drop_data(struct acache *c)
{
	for (int u = 0; u <= c->maxutid; u++) {
		free(c->ser[u].s);
		free(c->ser[u].t);
		memset(&c->ser[u], 0, sizeof(c->ser[u]));
	}
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

static int use_buffer(struct acache *c, int buffer)
{
	if (c->buffer != buffer) {
		drop_data(c);
		c->buffer = buffer;
	}
	return 0;
}

static int load_slices(struct acache *c, struct trax_error *err)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc;

	strbuf_addf(&sql, "SELECT utid, ts, dur, cpu, clipped, end_state FROM sched_slice WHERE "
		    "buffer = %d", c->buffer);
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

		if (u < 0 || u > c->maxutid || !c->wanted[u])
			continue;
		se = &c->ser[u];
		if (se->ns == se->cs) {
			se->cs = se->cs ? se->cs * 2 : 64;
			se->s = realloc(se->s, se->cs * sizeof(*se->s));
			if (!se->s)
				abort();
		}
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

static int load_states(struct acache *c, struct trax_error *err)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc;

	strbuf_addf(&sql, "SELECT utid, ts, dur, state FROM thread_state WHERE buffer = %d AND "
		    "state IN ('Running', 'R', 'R+')", c->buffer);
	where_utids(c, &sql);
	rc = sqlite3_prepare_v2(c->db, sql.buf, -1, &st, NULL);
	strbuf_release(&sql);
	if (rc != SQLITE_OK)
		return trax_error_set(err, TRAX_E_DB, "reading thread_state: %s",
				      sqlite3_errmsg(c->db));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int u = sqlite3_column_int(st, 0);
		const char *state = (const char *)sqlite3_column_text(st, 3);
		struct series *se;
		struct astate *t;

		if (u < 0 || u > c->maxutid || !c->wanted[u] || !state)
			continue;
		se = &c->ser[u];
		if (se->nt == se->ct) {
			se->ct = se->ct ? se->ct * 2 : 64;
			se->t = realloc(se->t, se->ct * sizeof(*se->t));
			if (!se->t)
				abort();
		}
		t = &se->t[se->nt++];
		t->ts = sqlite3_column_int64(st, 1);
		t->dur = sqlite3_column_int64(st, 2);
		t->code = state[0] == 'R' && state[1] == 'u' ? ASTATE_RUNNING :
			  state[1] == '+' ? ASTATE_RPLUS : ASTATE_R;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return trax_error_set(err, TRAX_E_DB, "reading thread_state: %s",
				      sqlite3_errmsg(c->db));
	for (int u = 0; u <= c->maxutid; u++) {
		struct series *se = &c->ser[u];

		for (int i = 1; i < se->nt; i++) {
			if (se->t[i].ts < se->t[i - 1].ts) {
				qsort(se->t, se->nt, sizeof(*se->t), cmp_state);
				break;
			}
		}
	}
	c->states_loaded = 1;
	return 0;
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
	if (!c->states_loaded && (ret = load_states(c, err)))
		return ret;
	if (utid < 0 || utid > c->maxutid || !c->wanted[utid])
		return trax_error_set(err, TRAX_E_EVAL, "internal: thread %d not cached", utid);
	*s = c->ser[utid].t;
	*n = c->ser[utid].nt;
	return 0;
}
