/* parse/pfexport.c: a trax database's events as a Perfetto protobuf trace (trax export). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/parse.h"
#include "parse/pbwrite.h"
#include "parse/perfetto-fields.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * What the Perfetto reader (parse/perfetto.c) reads, written back: the event tables of one
 * buffer (event_type and event_field say which table and columns each event has), merged into
 * time order, go into per-CPU FtraceEventBundle packets of one packet sequence. An event of the
 * table in perfetto-fields.h is written as its own message, its fields by number with the
 * schema's types (a column its message lacks is not written; a field its table lacks or a NULL
 * is left out); any other event as GenericFtraceEvent, a Field per column. lost_event rows set
 * the lost_events flag of the CPU's next bundle. A process_tree names the threads of the thread
 * table and a system_info carries meta kernel. Derived tables are not written: a load of the
 * trace derives them again.
 *
 * Streaming: each event table is read in rowid order (rowid order is time order, doc/db.md),
 * one statement each, merged by a heap on (ts, table); ties keep event_type's order, and a
 * loss at ts comes before the events at ts. Memory is one bundle buffer per CPU; a bundle is
 * written as soon as it reaches EX_BUNDLE_MAX bytes.
 */

#define EX_BUNDLE_MAX (64 * 1024)
#define EX_SEQ 1		/* trusted_packet_sequence_id of every packet */
#define EX_MAX_CPUS 8192	/* as the reader's limit */
#define EX_TREE_MAX 4096	/* threads per process_tree packet */

enum ex_type { EX_T_STR, EX_T_I32, EX_T_I64, EX_T_U32, EX_T_U64 };

struct ex_fdef {
	uint32_t num;
	const char *name;
	enum ex_type type;
};

struct ex_evdef {
	uint32_t num;
	const char *system, *name;
	const struct ex_fdef *f;
	int nf;
};

/* The reader's table, every row of it (parse/perfetto-fields.h). */
#define PF_F(num, name, type) { num, name, EX_T_##type },
#define PF_EVENT(id, num, system, name, fields) \
	static const struct ex_fdef ex_fields_##id[] = { fields };
#include "parse/perfetto-fields.h"

#define PF_F(num, name, type)
#define PF_EVENT(id, num, system, name, fields) \
	{ num, system, name, ex_fields_##id, sizeof(ex_fields_##id) / sizeof(ex_fields_##id[0]) },
static const struct ex_evdef ex_events[] = {
#include "parse/perfetto-fields.h"
};
#define EX_NEVENTS (int)(sizeof(ex_events) / sizeof(ex_events[0]))

/* One source of the merge: an event table, or the lost_event table (lost = 1). */
struct ex_src {
	sqlite3_stmt *st;	/* ts, cpu, common_pid, then the table's columns */
	int lost;
	const struct ex_evdef *def;	/* its message, or NULL: written as generic */
	int *col;		/* def: per field of the message, its statement column or -1 */
	char *name;		/* the event's name */
	char **fname;		/* generic: each column's field name and whether it is unsigned */
	int *funsigned, ncols;
	int64_t ts;
	int cpu;
};

struct ex_cpu {
	struct pbw w;		/* the open packet, Trace.packet field and all */
	size_t pkt, bundle;	/* its marks */
	int open;
	int lost;		/* events were lost before the next one: the next bundle says so */
};

struct ex {
	sqlite3 *db;
	FILE *out;
	const char *in, *outname;
	struct trax_error *err;
	struct trax_export_stats *st;
	int buffer;
	struct ex_src *src;
	int nsrc, srccap;
	int *heap, nheap;
	struct ex_cpu *cpus;
	int ncpus;
	int clock;		/* FtraceClock value written in each bundle; 0: none (boot) */
	int pair_done;		/* the clock pair went into the first bundle */
	struct pbw pkt;		/* the other packets */
};

static int db_fail(struct ex *X, const char *what)
{
	return trax_error_set(X->err, TRAX_E_DB, "%s: %s: %s", X->in, what,
			      sqlite3_errmsg(X->db));
}

static int write_out(struct ex *X, const struct pbw *w)
{
	if (w->len && fwrite(w->buf, 1, w->len, X->out) != w->len)
		return trax_error_set(X->err, TRAX_E_IO, "%s: %s", X->outname,
				      strerror(errno ? errno : EIO));
	return 0;
}

/* A SQL identifier in double quotes, inner quotes doubled. */
static void add_ident(struct strbuf *sb, const char *name)
{
	strbuf_addch(sb, '"');
	for (const char *p = name; *p; p++) {
		if (*p == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '"');
}

/* ---- the packets that are not ftrace ---- */

/* FtraceClock of a meta trace_clock: 0 for boot (the default, not written), -1 when none. */
static int clock_value(const char *name)
{
	static const struct {
		const char *name;
		int value;
	} map[] = {
		{ "boot", PF_CLOCK_UNSPECIFIED }, { "global", PF_CLOCK_GLOBAL },
		{ "local", PF_CLOCK_LOCAL }, { "mono_raw", PF_CLOCK_MONO_RAW },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(name, map[i].name))
			return map[i].value;
	return -1;
}

/*
 * meta kernel is uname's "sysname nodename release [version...] machine" (trax collect and
 * trace-cmd write it so; version has spaces): a system_info packet with its Utsname.
 */
static int write_system_info(struct ex *X, const char *kernel)
{
	const char *tok[64];
	size_t len[64], pm, pu, pn;
	int n = 0;

	for (const char *p = kernel; *p && n < 64;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		tok[n] = p;
		while (*p && *p != ' ')
			p++;
		len[n] = (size_t)(p - tok[n]);
		n++;
	}
	if (n < 3)
		return 0;	/* not a uname: nothing to say */
	pbw_reset(&X->pkt);
	pm = pbw_begin(&X->pkt, PF_TRACE_PACKET);
	pbw_uint(&X->pkt, PF_PACKET_TRUSTED_SEQUENCE_ID, EX_SEQ);
	pu = pbw_begin(&X->pkt, PF_PACKET_system_info);
	pn = pbw_begin(&X->pkt, PF_SYSINFO_UTSNAME);
	pbw_bytes(&X->pkt, PF_UTS_SYSNAME, tok[0], len[0]);
	pbw_bytes(&X->pkt, PF_UTS_RELEASE, tok[2], len[2]);
	if (n >= 5)	/* the words between release and machine */
		pbw_bytes(&X->pkt, PF_UTS_VERSION, tok[3],
			  (size_t)(tok[n - 2] + len[n - 2] - tok[3]));
	if (n >= 4)
		pbw_bytes(&X->pkt, PF_UTS_MACHINE, tok[n - 1], len[n - 1]);
	pbw_end(&X->pkt, pn);
	pbw_end(&X->pkt, pu);
	pbw_end(&X->pkt, pm);
	return write_out(X, &X->pkt);
}

/* Close the process_tree packet under construction and write it. */
static int tree_flush(struct ex *X, size_t pm, size_t pt)
{
	pbw_end(&X->pkt, pt);
	pbw_end(&X->pkt, pm);
	return write_out(X, &X->pkt);
}

static void tree_open(struct ex *X, int64_t ts, size_t *pm, size_t *pt)
{
	pbw_reset(&X->pkt);
	*pm = pbw_begin(&X->pkt, PF_TRACE_PACKET);
	if (ts >= 0)
		pbw_uint(&X->pkt, PF_PACKET_TIMESTAMP, (uint64_t)ts);
	pbw_uint(&X->pkt, PF_PACKET_TRUSTED_SEQUENCE_ID, EX_SEQ);
	*pt = pbw_begin(&X->pkt, PF_PACKET_process_tree);
}

/*
 * The threads (one per pid: its first lifetime's tgid and name; not the idle task) and their
 * processes (a tgid, its main thread's name as cmdline, flagged cmdline_is_comm), at the
 * trace start, EX_TREE_MAX threads a packet.
 */
static int write_process_tree(struct ex *X, int64_t start)
{
	static const char *const sql[2] = {
		"SELECT pid, tgid, comm, min(utid) FROM thread WHERE pid > 0 GROUP BY pid "
		"ORDER BY pid",
		"SELECT t.tgid, (SELECT comm FROM thread m WHERE m.pid = t.tgid ORDER BY m.utid "
		"LIMIT 1) FROM thread t WHERE t.tgid > 0 GROUP BY t.tgid ORDER BY t.tgid",
	};
	int ret = 0;

	for (int pass = 0; pass < 2 && !ret; pass++) {
		sqlite3_stmt *st;
		size_t pm = 0, pt = 0;
		int n = 0, r;

		if (sqlite3_prepare_v2(X->db, sql[pass], -1, &st, NULL) != SQLITE_OK)
			return db_fail(X, "the thread table");
		while ((r = sqlite3_step(st)) == SQLITE_ROW) {
			const unsigned char *name = sqlite3_column_text(st, pass ? 1 : 2);
			int nlen = sqlite3_column_bytes(st, pass ? 1 : 2);
			size_t m;

			if (!n)
				tree_open(X, start, &pm, &pt);
			if (pass == 0) {
				m = pbw_begin(&X->pkt, PF_PTREE_THREADS);
				pbw_int(&X->pkt, PF_PTREE_THREAD_TID, (int32_t)sqlite3_column_int64(st, 0));
				if (sqlite3_column_type(st, 1) != SQLITE_NULL)
					pbw_int(&X->pkt, PF_PTREE_THREAD_TGID,
						(int32_t)sqlite3_column_int64(st, 1));
				if (name)
					pbw_bytes(&X->pkt, PF_PTREE_THREAD_NAME, name, (size_t)nlen);
				X->st->threads++;
			} else {
				m = pbw_begin(&X->pkt, PF_PTREE_PROCESSES);
				pbw_int(&X->pkt, PF_PTREE_PROC_PID, (int32_t)sqlite3_column_int64(st, 0));
				if (name) {
					pbw_bytes(&X->pkt, PF_PTREE_PROC_CMDLINE, name, (size_t)nlen);
					pbw_uint(&X->pkt, PF_PROCESS_CMDLINE_IS_COMM, 1);
				}
				X->st->processes++;
			}
			pbw_end(&X->pkt, m);
			if (++n == EX_TREE_MAX) {
				if ((ret = tree_flush(X, pm, pt)) < 0)
					break;
				n = 0;
			}
		}
		if (!ret && r != SQLITE_DONE && r != SQLITE_ROW)
			ret = db_fail(X, "the thread table");
		if (!ret && n)
			ret = tree_flush(X, pm, pt);
		sqlite3_finalize(st);
	}
	return ret;
}

/* ---- the sources ---- */

static const struct ex_evdef *find_def(const char *system, const char *name)
{
	for (int e = 0; e < EX_NEVENTS; e++)
		if (!strcmp(ex_events[e].name, name) && (!*system ||
							 !strcmp(ex_events[e].system, system)))
			return &ex_events[e];
	return NULL;
}

static void src_free(struct ex_src *s)
{
	sqlite3_finalize(s->st);
	free(s->col);
	free(s->name);
	for (int i = 0; i < s->ncols; i++)
		free(s->fname[i]);
	free(s->fname);
	free(s->funsigned);
}

/* One event table: its statement and, for an event of the table, where each field is. */
static int add_event_source(struct ex *X, int64_t type_id, const char *system, const char *name,
			    const char *table)
{
	struct strbuf sb = STRBUF_INIT;
	sqlite3_stmt *fs;
	struct ex_src *s;
	int r, fcap = 0, ret = 0, unmatched = 0;

	TRAX_GROW(X->src, X->nsrc, X->srccap, 16);
	s = &X->src[X->nsrc++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->def = find_def(system, name);
	if (s->def) {
		s->col = xmalloc(sizeof(*s->col) * (size_t)s->def->nf);
		for (int i = 0; i < s->def->nf; i++)
			s->col[i] = -1;
	}
	strbuf_adds(&sb, "SELECT ts, cpu, common_pid");
	if (sqlite3_prepare_v2(X->db, "SELECT name, field_name, is_unsigned FROM event_field "
			       "WHERE type_id = ? ORDER BY rowid", -1, &fs, NULL) != SQLITE_OK) {
		strbuf_release(&sb);
		return db_fail(X, "event_field");
	}
	sqlite3_bind_int64(fs, 1, type_id);
	while ((r = sqlite3_step(fs)) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(fs, 0);
		const char *field = (const char *)sqlite3_column_text(fs, 1);
		int k = 3 + s->ncols, used = 0;

		if (!col)
			continue;
		if (!field)
			field = col;
		strbuf_adds(&sb, ", ");
		add_ident(&sb, col);
		for (int i = 0; s->def && i < s->def->nf; i++) {
			if (!strcmp(s->def->f[i].name, field)) {
				s->col[i] = k;
				used = 1;
			}
		}
		if (s->def && !used)
			unmatched++;
		TRAX_GROW(s->fname, s->ncols, fcap, 8);
		s->funsigned = trax_realloc_array(s->funsigned, (size_t)fcap, sizeof(int));
		s->fname[s->ncols] = xstrdup(field);
		s->funsigned[s->ncols] = sqlite3_column_int(fs, 2);
		s->ncols++;
	}
	if (r != SQLITE_DONE)
		ret = db_fail(X, "event_field");
	sqlite3_finalize(fs);
	/* a column the message has no field for (mark_victim's rss of recent kernels): the
	 * event goes as generic, every column by name, so that nothing is lost on the way */
	if (s->def && unmatched) {
		free(s->col);
		s->col = NULL;
		s->def = NULL;
	}
	if (!ret) {
		strbuf_adds(&sb, " FROM ");
		add_ident(&sb, table);
		strbuf_adds(&sb, " WHERE buffer = ? ORDER BY rowid");
		if (sqlite3_prepare_v2(X->db, sb.buf, -1, &s->st, NULL) != SQLITE_OK)
			ret = db_fail(X, table);
		else
			sqlite3_bind_int(s->st, 1, X->buffer);
	}
	strbuf_release(&sb);
	return ret;
}

static int add_sources(struct ex *X)
{
	sqlite3_stmt *st;
	int r, ret = 0;

	/* the losses first: at a tie they come before the events they precede */
	TRAX_GROW(X->src, X->nsrc, X->srccap, 16);
	memset(&X->src[0], 0, sizeof(X->src[0]));
	X->src[0].lost = 1;
	X->nsrc = 1;
	if (sqlite3_prepare_v2(X->db, "SELECT ts, cpu FROM lost_event WHERE buffer = ? ORDER BY "
			       "ts, cpu", -1, &X->src[0].st, NULL) != SQLITE_OK)
		return db_fail(X, "lost_event");
	sqlite3_bind_int(X->src[0].st, 1, X->buffer);
	if (sqlite3_prepare_v2(X->db, "SELECT id, coalesce(system, ''), name, table_name FROM "
			       "event_type WHERE table_name IS NOT NULL AND count > 0 ORDER BY id",
			       -1, &st, NULL) != SQLITE_OK)
		return db_fail(X, "event_type");
	while (!ret && (r = sqlite3_step(st)) == SQLITE_ROW) {
		const char *sys = (const char *)sqlite3_column_text(st, 1);
		const char *name = (const char *)sqlite3_column_text(st, 2);
		const char *table = (const char *)sqlite3_column_text(st, 3);

		if (name && table)
			ret = add_event_source(X, sqlite3_column_int64(st, 0), sys ? sys : "", name,
					       table);
	}
	if (!ret && r != SQLITE_DONE)
		ret = db_fail(X, "event_type");
	sqlite3_finalize(st);
	return ret;
}

/* The source's next row: 1, 0 at its end, or a negative error. */
static int src_next(struct ex *X, struct ex_src *s)
{
	int r = sqlite3_step(s->st);
	int64_t cpu;

	if (r == SQLITE_DONE)
		return 0;
	if (r != SQLITE_ROW)
		return db_fail(X, s->lost ? "lost_event" : s->name);
	s->ts = sqlite3_column_int64(s->st, 0);
	cpu = sqlite3_column_int64(s->st, 1);
	if (cpu < 0 || cpu >= EX_MAX_CPUS)
		return trax_error_set(X->err, TRAX_E_FORMAT, "%s: %s: a row of CPU %lld (at most "
				      "%d)", X->in, s->lost ? "lost_event" : s->name,
				      (long long)cpu, EX_MAX_CPUS - 1);
	s->cpu = (int)cpu;
	return 1;
}

/* ---- the heap of sources, by (ts, source order) ---- */

static int src_less(const struct ex *X, int a, int b)
{
	const struct ex_src *x = &X->src[a], *y = &X->src[b];

	return x->ts != y->ts ? x->ts < y->ts : a < b;
}

static void heap_push(struct ex *X, int s)
{
	int i = X->nheap++;

	X->heap[i] = s;
	while (i > 0) {
		int parent = (i - 1) / 2;

		if (!src_less(X, X->heap[i], X->heap[parent]))
			break;
		X->heap[i] = X->heap[parent];
		X->heap[parent] = s;
		i = parent;
	}
}

static int heap_pop(struct ex *X)
{
	int top = X->heap[0], i = 0;

	X->heap[0] = X->heap[--X->nheap];
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i, t;

		if (l < X->nheap && src_less(X, X->heap[l], X->heap[m]))
			m = l;
		if (r < X->nheap && src_less(X, X->heap[r], X->heap[m]))
			m = r;
		if (m == i)
			break;
		t = X->heap[i];
		X->heap[i] = X->heap[m];
		X->heap[m] = t;
		i = m;
	}
	return top;
}

/* ---- bundles ---- */

static struct ex_cpu *cpu_get(struct ex *X, int cpu)
{
	if (cpu >= X->ncpus) {
		X->cpus = trax_realloc_array(X->cpus, (size_t)cpu + 1, sizeof(*X->cpus));
		memset(X->cpus + X->ncpus, 0, sizeof(*X->cpus) * (size_t)(cpu + 1 - X->ncpus));
		X->ncpus = cpu + 1;
	}
	return &X->cpus[cpu];
}

/* Open CPU c's next bundle; ts is its first event's (for the clock pair). */
static void bundle_open(struct ex *X, struct ex_cpu *c, int cpu, int64_t ts)
{
	c->pkt = pbw_begin(&c->w, PF_TRACE_PACKET);
	pbw_uint(&c->w, PF_PACKET_TRUSTED_SEQUENCE_ID, EX_SEQ);
	c->bundle = pbw_begin(&c->w, PF_PACKET_ftrace_events);
	pbw_uint(&c->w, PF_BUNDLE_CPU, (uint64_t)cpu);
	if (X->clock > 0) {
		pbw_uint(&c->w, PF_BUNDLE_FTRACE_CLOCK, (uint64_t)X->clock);
		/*
		 * Perfetto places a non-boot ftrace clock on the boot clock through a pair of
		 * readings; trax has none, so the first bundle says they are equal at its first
		 * event: the UI then shows the timestamps as recorded.
		 */
		if (!X->pair_done) {
			pbw_int(&c->w, PF_BUNDLE_FTRACE_TIMESTAMP, ts);
			pbw_int(&c->w, PF_BUNDLE_BOOT_TIMESTAMP, ts);
			X->pair_done = 1;
		}
	}
	if (c->lost) {
		pbw_uint(&c->w, PF_BUNDLE_LOST_EVENTS, 1);
		X->st->lost++;
		c->lost = 0;
	}
	c->open = 1;
}

static int bundle_flush(struct ex *X, struct ex_cpu *c)
{
	int ret;

	if (!c->open)
		return 0;
	pbw_end(&c->w, c->bundle);
	pbw_end(&c->w, c->pkt);
	ret = write_out(X, &c->w);
	pbw_reset(&c->w);
	c->open = 0;
	X->st->bundles++;
	return ret;
}

/* A column's value as a GenericFtraceEvent.Field (NULL: none). */
static void generic_field(struct pbw *w, sqlite3_stmt *st, int k, const char *name, int isu)
{
	int t = sqlite3_column_type(st, k);
	size_t m;

	if (t == SQLITE_NULL)
		return;
	m = pbw_begin(w, PF_GENERIC_FIELD);
	pbw_bytes(w, PF_GENERIC_FIELD_NAME, name, strlen(name));
	if (t == SQLITE_INTEGER && isu)
		pbw_uint(w, PF_GENERIC_FIELD_UINT, (uint64_t)sqlite3_column_int64(st, k));
	else if (t == SQLITE_INTEGER)
		pbw_int(w, PF_GENERIC_FIELD_INT, sqlite3_column_int64(st, k));
	else
		pbw_bytes(w, PF_GENERIC_FIELD_STR, sqlite3_column_text(st, k),
			  (size_t)sqlite3_column_bytes(st, k));
	pbw_end(w, m);
}

/* A typed field: the schema's type decides the encoding (int32 sign-extended to 64 bits). */
static void typed_field(struct pbw *w, sqlite3_stmt *st, int k, const struct ex_fdef *f)
{
	int64_t v;

	if (sqlite3_column_type(st, k) == SQLITE_NULL)
		return;
	if (f->type == EX_T_STR) {
		pbw_bytes(w, f->num, sqlite3_column_text(st, k), (size_t)sqlite3_column_bytes(st, k));
		return;
	}
	v = sqlite3_column_int64(st, k);
	switch (f->type) {
	case EX_T_I32:
		pbw_int(w, f->num, (int32_t)v);
		break;
	case EX_T_U32:
		pbw_uint(w, f->num, (uint32_t)v);
		break;
	default:	/* int64, uint64: the stored bit pattern */
		pbw_uint(w, f->num, (uint64_t)v);
		break;
	}
}

static int write_event(struct ex *X, struct ex_src *s)
{
	struct ex_cpu *c = cpu_get(X, s->cpu);
	size_t ev, body;

	if (!c->open)
		bundle_open(X, c, s->cpu, s->ts);
	ev = pbw_begin(&c->w, PF_BUNDLE_EVENT);
	pbw_uint(&c->w, PF_EVENT_TIMESTAMP, (uint64_t)s->ts);
	pbw_uint(&c->w, PF_EVENT_PID, (uint32_t)sqlite3_column_int64(s->st, 2));
	if (s->def) {
		body = pbw_begin(&c->w, s->def->num);
		for (int i = 0; i < s->def->nf; i++)
			if (s->col[i] >= 0)
				typed_field(&c->w, s->st, s->col[i], &s->def->f[i]);
		X->st->typed++;
	} else {
		body = pbw_begin(&c->w, PF_EVENT_GENERIC);
		pbw_bytes(&c->w, PF_GENERIC_EVENT_NAME, s->name, strlen(s->name));
		for (int i = 0; i < s->ncols; i++)
			generic_field(&c->w, s->st, 3 + i, s->fname[i], s->funsigned[i]);
		X->st->generic++;
	}
	pbw_end(&c->w, body);
	pbw_end(&c->w, ev);
	X->st->events++;
	return c->w.len >= EX_BUNDLE_MAX ? bundle_flush(X, c) : 0;
}

/* A loss before the CPU's next event: its open bundle ends, the next one carries the flag. */
static int write_loss(struct ex *X, struct ex_src *s)
{
	struct ex_cpu *c = cpu_get(X, s->cpu);
	int ret = bundle_flush(X, c);

	c->lost = 1;
	return ret;
}

static int merge(struct ex *X)
{
	int r;

	X->heap = xcalloc((size_t)X->nsrc, sizeof(*X->heap));
	for (int i = 0; i < X->nsrc; i++) {
		if ((r = src_next(X, &X->src[i])) < 0)
			return r;
		if (r)
			heap_push(X, i);
	}
	while (X->nheap) {
		int top = heap_pop(X);
		struct ex_src *s = &X->src[top];

		r = s->lost ? write_loss(X, s) : write_event(X, s);
		if (r < 0)
			return r;
		if ((r = src_next(X, s)) < 0)
			return r;
		if (r)
			heap_push(X, top);
	}
	for (int c = 0; c < X->ncpus; c++) {
		struct ex_cpu *u = &X->cpus[c];

		/* a loss after the CPU's last event: an empty bundle says so */
		if (u->lost && !u->open)
			bundle_open(X, u, c, 0);
		if ((r = bundle_flush(X, u)) < 0)
			return r;
	}
	return 0;
}

/* ---- the export ---- */

static int count_rows(struct ex *X, const char *sql, int bind, uint64_t *n)
{
	sqlite3_stmt *st;
	int r;

	if (sqlite3_prepare_v2(X->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_fail(X, sql);
	if (bind)
		sqlite3_bind_int(st, 1, X->buffer);
	r = sqlite3_step(st);
	if (r == SQLITE_ROW)
		*n = (uint64_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return r == SQLITE_ROW ? 0 : db_fail(X, sql);
}

static int export_all(struct ex *X)
{
	char *clock = trax_db_meta(X->db, "trace_clock");
	char *kernel = trax_db_meta(X->db, "kernel");
	int64_t start = -1, nbuf = 1;
	uint64_t n = 0;
	int ret, cv;

	if (clock) {
		snprintf(X->st->clock, sizeof(X->st->clock), "%s", clock);
		cv = clock_value(clock);
		X->clock = cv > 0 ? cv : 0;
		X->st->clock_mapped = cv >= 0;
	} else {
		X->st->clock_mapped = 1;	/* no clock named: nothing to lose */
	}
	trax_db_meta_int(X->db, "trace.start_ts", &start);
	trax_db_meta_int(X->db, "buffers", &nbuf);
	X->st->buffers = (int)nbuf;
	ret = count_rows(X, "SELECT count(*) FROM raw_event WHERE buffer = ?", 1, &n);
	X->st->raw_rows = n;
	if (!ret && kernel)
		ret = write_system_info(X, kernel);
	if (!ret)
		ret = write_process_tree(X, start);
	if (!ret)
		ret = add_sources(X);
	if (!ret)
		ret = merge(X);
	free(clock);
	free(kernel);
	return ret;
}

int trax_export_perfetto(sqlite3 *db, FILE *out, const struct trax_export_opts *opts,
			 struct trax_export_stats *stats, struct trax_error *err)
{
	struct trax_export_stats local;
	struct ex X = { 0 };
	const char *fn = sqlite3_db_filename(db, "main");
	int ret;

	X.db = db;
	X.out = out;
	X.err = err;
	X.st = stats ? stats : &local;
	memset(X.st, 0, sizeof(*X.st));
	X.buffer = opts ? opts->buffer : 0;
	X.in = opts && opts->in_name ? opts->in_name : fn && *fn ? fn : "database";
	X.outname = opts && opts->out_name ? opts->out_name : "output";
	ret = export_all(&X);
	if (!ret && fflush(out))
		ret = trax_error_set(err, TRAX_E_IO, "%s: %s", X.outname,
				     strerror(errno ? errno : EIO));
	for (int i = 0; i < X.nsrc; i++)
		src_free(&X.src[i]);
	free(X.src);
	free(X.heap);
	for (int c = 0; c < X.ncpus; c++)
		pbw_release(&X.cpus[c].w);
	free(X.cpus);
	pbw_release(&X.pkt);
	return ret;
}
