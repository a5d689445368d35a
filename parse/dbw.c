/* parse/dbw.c: serialized SQL actions replayed on a writer thread (see dbw.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "parse/dbw.h"
#include "util/clock.h"
#include "util/xalloc.h"

#define DBW_CHUNK	(1u << 20)
#define DBW_QUEUE	8
#define DBW_SAMPLE	16
#define DBW_BATCH	32

enum { OP_EXEC = 'X', OP_PREP = 'P', OP_ROW = 'R' };
enum { V_INT = 'i', V_REAL = 'r', V_TEXT = 't', V_NULL = 'n', V_END = 'e' };

struct chunk {
	struct chunk *next;
	size_t len, cap;
	unsigned char data[];
};

/*
 * A prepared INSERT on the writer side. Rows are kept (encoded) until DBW_BATCH of them are
 * there, then inserted by one multi-row statement (INSERT ... VALUES (...), (...), ...): SQLite
 * runs about twice as many rows per second that way as with one statement per row.
 */
struct wstmt {
	sqlite3_stmt *st;	/* one row */
	sqlite3_stmt *bst;	/* DBW_BATCH rows, NULL when the SQL is not a plain VALUES(...) */
	int cat;
	unsigned char *pend;	/* encoded rows waiting */
	size_t plen, pcap;
	int npend;
};

struct dbw {
	sqlite3 *db;
	int threaded;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* signalled on queue change */
	struct chunk *head, *tail;	/* full chunks waiting for the writer */
	int queued;
	struct chunk *free_list;
	int done;			/* producer finished */
	atomic_int failed;
	struct trax_error err;		/* first failure, owned by the writer */

	/* producer side */
	struct chunk *cur;
	size_t row_start;
	int nstmt_ids;

	/* writer side */
	struct wstmt *stmts;
	int nstmts;
	struct dbw_stats stats;
};

static struct chunk *chunk_new(struct dbw *w, size_t need)
{
	struct chunk *c = NULL;
	size_t cap = need > DBW_CHUNK ? need : DBW_CHUNK;

	if (cap == DBW_CHUNK) {
		pthread_mutex_lock(&w->lock);
		c = w->free_list;
		if (c)
			w->free_list = c->next;
		pthread_mutex_unlock(&w->lock);
	}
	if (!c) {
		c = xmalloc(sizeof(*c) + cap);
		c->cap = cap;
	}
	c->next = NULL;
	c->len = 0;
	return c;
}

static void chunk_release(struct dbw *w, struct chunk *c)
{
	if (c->cap != DBW_CHUNK) {
		free(c);
		return;
	}
	pthread_mutex_lock(&w->lock);
	c->next = w->free_list;
	w->free_list = c;
	pthread_mutex_unlock(&w->lock);
}

static void writer_fail(struct dbw *w, const char *what)
{
	if (!atomic_load(&w->failed)) {
		trax_error_set(&w->err, TRAX_E_DB, "%s: %s", what, sqlite3_errmsg(w->db));
		atomic_store(&w->failed, 1);
	}
}

static uint32_t rd32(const unsigned char **p)
{
	uint32_t v;

	memcpy(&v, *p, 4);
	*p += 4;
	return v;
}

/* The end of an encoded row (after its V_END). */
static const unsigned char *row_end(const unsigned char *p)
{
	int v;

	while ((v = *p++) != V_END) {
		if (v == V_INT || v == V_REAL)
			p += 8;
		else if (v == V_TEXT) {
			uint32_t len = rd32(&p);

			p += len;
		}
	}
	return p;
}

/* Bind nrows encoded rows to st's parameters in order, then step it once. */
static void insert_rows(struct dbw *w, struct wstmt *ws, sqlite3_stmt *st,
			const unsigned char *p, int nrows)
{
	int i = 1, v, sampled;
	double t0;

	for (int r = 0; r < nrows; r++) {
		while ((v = *p++) != V_END) {
			if (v == V_INT) {
				int64_t x;

				memcpy(&x, p, 8);
				p += 8;
				sqlite3_bind_int64(st, i++, x);
			} else if (v == V_REAL) {
				double x;

				memcpy(&x, p, 8);
				p += 8;
				sqlite3_bind_double(st, i++, x);
			} else if (v == V_TEXT) {
				uint32_t len = rd32(&p);

				sqlite3_bind_text(st, i++, (const char *)p, len, SQLITE_STATIC);
				p += len;
			} else {
				sqlite3_bind_null(st, i++);
			}
		}
	}
	/* Time one statement in DBW_SAMPLE: the clock costs more than it tells. */
	sampled = !(w->stats.steps[ws->cat]++ % DBW_SAMPLE);
	t0 = sampled ? trax_now_s() : 0;
	if (sqlite3_step(st) != SQLITE_DONE)
		writer_fail(w, "inserting rows");
	sqlite3_reset(st);
	if (sampled)
		w->stats.busy_s[ws->cat] += (trax_now_s() - t0) * DBW_SAMPLE;
	w->stats.rows[ws->cat] += nrows;
}

/* Insert the rows still waiting for a full batch, one statement each. */
static void flush_pending(struct dbw *w)
{
	for (int id = 0; id < w->nstmts; id++) {
		struct wstmt *ws = &w->stmts[id];
		const unsigned char *p = ws->pend;

		for (int r = 0; r < ws->npend; r++) {
			const unsigned char *e = row_end(p);

			insert_rows(w, ws, ws->st, p, 1);
			p = e;
		}
		ws->plen = 0;
		ws->npend = 0;
	}
}

/* "INSERT INTO t VALUES(?,?)" -> "INSERT INTO t VALUES(?,?),(?,?),..." (DBW_BATCH groups). */
static void prepare_batch(struct dbw *w, struct wstmt *ws, const char *sql)
{
	const char *values = strstr(sql, "VALUES(");
	size_t glen, plen;
	char *batch, *q;

	if (!values || strchr(values, ';'))
		return;
	plen = values + 6 - sql;
	glen = strlen(values + 6);
	batch = xmalloc(plen + DBW_BATCH * (glen + 1) + 1);
	memcpy(batch, sql, plen);
	q = batch + plen;
	for (int i = 0; i < DBW_BATCH; i++) {
		if (i)
			*q++ = ',';
		memcpy(q, values + 6, glen);
		q += glen;
	}
	*q = '\0';
	if (sqlite3_prepare_v3(w->db, batch, -1, SQLITE_PREPARE_PERSISTENT, &ws->bst, NULL) !=
	    SQLITE_OK)
		ws->bst = NULL;	/* too many parameters: rows go one by one */
	free(batch);
}

/* Replay one chunk on the connection. */
static void replay(struct dbw *w, struct chunk *c)
{
	const unsigned char *p = c->data, *end = c->data + c->len;

	while (p < end && !atomic_load(&w->failed)) {
		int op = *p++;

		if (op == OP_EXEC) {
			uint32_t len = rd32(&p);

			flush_pending(w);
			if (sqlite3_exec(w->db, (const char *)p, NULL, NULL, NULL) != SQLITE_OK)
				writer_fail(w, (const char *)p);
			p += len;
		} else if (op == OP_PREP) {
			uint32_t id = rd32(&p);
			int cat = *p++;
			uint32_t len = rd32(&p);

			if ((int)id >= w->nstmts) {
				int n = w->nstmts ? w->nstmts * 2 : 64;

				while (n <= (int)id)
					n *= 2;
				w->stmts = xrealloc(w->stmts, n * sizeof(*w->stmts));
				memset(w->stmts + w->nstmts, 0, (n - w->nstmts) * sizeof(*w->stmts));
				w->nstmts = n;
			}
			w->stmts[id].cat = cat;
			if (sqlite3_prepare_v3(w->db, (const char *)p, -1, SQLITE_PREPARE_PERSISTENT,
					       &w->stmts[id].st, NULL) != SQLITE_OK)
				writer_fail(w, (const char *)p);
			else
				prepare_batch(w, &w->stmts[id], (const char *)p);
			p += len;
		} else if (op == OP_ROW) {
			uint32_t id = rd32(&p);
			const unsigned char *start = p;
			struct wstmt *ws = &w->stmts[id];

			p = row_end(p);
			if (!ws->bst) {
				insert_rows(w, ws, ws->st, start, 1);
				continue;
			}
			if (ws->plen + (p - start) > ws->pcap) {
				ws->pcap = (ws->plen + (p - start)) * 2 + 256;
				ws->pend = xrealloc(ws->pend, ws->pcap);
			}
			memcpy(ws->pend + ws->plen, start, p - start);
			ws->plen += p - start;
			if (++ws->npend == DBW_BATCH) {
				insert_rows(w, ws, ws->bst, ws->pend, DBW_BATCH);
				ws->plen = 0;
				ws->npend = 0;
			}
		} else {
			trax_error_set(&w->err, TRAX_E_DB, "internal: bad writer op %d", op);
			atomic_store(&w->failed, 1);
		}
	}
}

static void *writer_main(void *arg)
{
	struct dbw *w = arg;

	for (;;) {
		struct chunk *c;

		pthread_mutex_lock(&w->lock);
		if (!w->head && !w->done) {
			double t0 = trax_now_s();

			while (!w->head && !w->done)
				pthread_cond_wait(&w->cond, &w->lock);
			w->stats.idle_s += trax_now_s() - t0;
		}
		c = w->head;
		if (c) {
			w->head = c->next;
			if (!w->head)
				w->tail = NULL;
			w->queued--;
			pthread_cond_broadcast(&w->cond);
		}
		pthread_mutex_unlock(&w->lock);
		if (!c)
			break;
		replay(w, c);
		chunk_release(w, c);
	}
	return NULL;
}

static void submit(struct dbw *w, struct chunk *c)
{
	if (!w->threaded) {
		replay(w, c);
		chunk_release(w, c);
		return;
	}
	pthread_mutex_lock(&w->lock);
	if (w->queued >= DBW_QUEUE) {
		double t0 = trax_now_s();

		while (w->queued >= DBW_QUEUE)
			pthread_cond_wait(&w->cond, &w->lock);
		w->stats.wait_s += trax_now_s() - t0;
	}
	if (w->tail)
		w->tail->next = c;
	else
		w->head = c;
	w->tail = c;
	w->queued++;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

struct dbw *dbw_alloc(sqlite3 *db, int threaded)
{
	struct dbw *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->db = db;
	w->threaded = threaded;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	w->cur = chunk_new(w, DBW_CHUNK);
	if (threaded && pthread_create(&w->thread, NULL, writer_main, w) != 0)
		w->threaded = 0;
	return w;
}

/* Make room for n more bytes in the current chunk, moving a partial row along if needed. */
/* The current chunk is full: the row begun in it moves to a new one (kept out of reserve()'s
 * fast path, which runs for every value). */
static __attribute__((noinline, cold)) struct chunk *chunk_next(struct dbw *w, size_t n)
{
	struct chunk *c = w->cur;
	size_t partial = c->len - w->row_start;
	struct chunk *nc = chunk_new(w, partial + n);

	memcpy(nc->data, c->data + w->row_start, partial);
	nc->len = partial;
	c->len = w->row_start;
	w->row_start = 0;
	w->cur = nc;
	if (c->len)
		submit(w, c);
	else
		chunk_release(w, c);
	return nc;
}

static unsigned char *reserve(struct dbw *w, size_t n)
{
	struct chunk *c = w->cur;

	if (c->len + n > c->cap)
		c = chunk_next(w, n);
	return c->data + c->len;
}

static void put(struct dbw *w, const void *src, size_t n)
{
	unsigned char *p = reserve(w, n);

	memcpy(p, src, n);
	w->cur->len += n;
}

static void put8(struct dbw *w, int b)
{
	unsigned char c = b;

	put(w, &c, 1);
}

static void put32(struct dbw *w, uint32_t v)
{
	put(w, &v, 4);
}

static void put_sql(struct dbw *w, const char *sql)
{
	uint32_t len = strlen(sql) + 1;

	put32(w, len);
	put(w, sql, len);
}

void dbw_exec(struct dbw *w, const char *sql)
{
	w->row_start = w->cur->len;
	reserve(w, 5 + strlen(sql) + 1);
	put8(w, OP_EXEC);
	put_sql(w, sql);
	w->row_start = w->cur->len;
}

int dbw_prepare(struct dbw *w, const char *sql, enum dbw_cat cat)
{
	int id = w->nstmt_ids++;

	w->row_start = w->cur->len;
	reserve(w, 10 + strlen(sql) + 1);
	put8(w, OP_PREP);
	put32(w, id);
	put8(w, cat);
	put_sql(w, sql);
	w->row_start = w->cur->len;
	return id;
}

void dbw_row_begin(struct dbw *w, int stmt)
{
	w->row_start = w->cur->len;
	put8(w, OP_ROW);
	put32(w, stmt);
}

void dbw_int(struct dbw *w, int64_t v)
{
	unsigned char *p = reserve(w, 9);

	p[0] = V_INT;
	memcpy(p + 1, &v, 8);
	w->cur->len += 9;
}

void dbw_real(struct dbw *w, double v)
{
	unsigned char *p = reserve(w, 9);

	p[0] = V_REAL;
	memcpy(p + 1, &v, 8);
	w->cur->len += 9;
}

void dbw_text(struct dbw *w, const char *s, int len)
{
	uint32_t n = len < 0 ? strlen(s) : (size_t)len;
	unsigned char *p = reserve(w, 5 + n);

	p[0] = V_TEXT;
	memcpy(p + 1, &n, 4);
	memcpy(p + 5, s, n);
	w->cur->len += 5 + n;
}

void dbw_null(struct dbw *w)
{
	put8(w, V_NULL);
}

void dbw_row_end(struct dbw *w)
{
	put8(w, V_END);
	w->row_start = w->cur->len;
}

int dbw_failed(struct dbw *w)
{
	return atomic_load(&w->failed);
}

int dbw_finish(struct dbw *w, struct dbw_stats *stats, struct trax_error *err)
{
	int ret = 0;

	if (w->cur->len)
		submit(w, w->cur);
	else
		chunk_release(w, w->cur);
	w->cur = NULL;
	if (w->threaded) {
		pthread_mutex_lock(&w->lock);
		w->done = 1;
		pthread_cond_broadcast(&w->cond);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
	}
	if (!atomic_load(&w->failed))
		flush_pending(w);
	for (int i = 0; i < w->nstmts; i++) {
		sqlite3_finalize(w->stmts[i].st);
		sqlite3_finalize(w->stmts[i].bst);
		free(w->stmts[i].pend);
	}
	free(w->stmts);
	while (w->free_list) {
		struct chunk *c = w->free_list;

		w->free_list = c->next;
		free(c);
	}
	if (atomic_load(&w->failed)) {
		if (err)
			*err = w->err;
		ret = -TRAX_E_DB;
	}
	if (stats)
		*stats = w->stats;
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
	return ret;
}
