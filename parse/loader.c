/* parse/loader.c: the event sink (parse/sink.h): event tables, raw events, metadata. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse/derive.h"
#include "parse/schema.h"
#include "util/clock.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/xalloc.h"

struct meta_kv {
	char *key, *value;
};

struct loader {
	sqlite3 *db;
	struct dbw *w;
	struct derive *d;
	struct trax_error *err;

	char **ev_filter;		/* --events patterns, NULL: all */
	int nev_filter;

	struct ld_type *types, **types_tail;
	int ntypes;

	int raw_stmt, lost_stmt;
	uint64_t raw_count, lost_records, records;

	int nbuffers, ncpus;
	uint64_t *cpu_first, *cpu_last;	/* [buffer * ncpus + cpu] */
	char *cpu_seen;			/* a record was seen on (buffer, cpu) */
	int64_t *cpu_lost;		/* lost events per (buffer, cpu); -1: unknown count */
	char **buffer_names;
	int started;

	struct meta_kv *meta;
	int nmeta, cmeta;

	ld_state_fn state_fn;
	void *state_ctx;
	int numbering;			/* LD_STATE_*: prev_state bits when no format decodes them */
	int64_t preempt;		/* the bit of a preempted task ('+') in that numbering */
};

/* Names that event tables must not take (derived and bookkeeping tables). */
static const char *const reserved_tables[] = {
	"meta", "event_type", "event_field", "raw_event", "lost_event", "thread", "thread_comm",
	"sched_slice", "thread_state", "counter", "track", "slice", "instant", "kill", "alloc",
	"fence", "fence_wait", "anomaly", NULL,
};

/* Columns every event table starts with; a field of the same name gets a trailing '_'. */
static const char *const common_cols[] = { "ts", "cpu", "common_pid", "buffer", NULL };

int trax_event_known(const char *name, const char **near)
{
	/* every spelling of the catalogue */
	const char **names;
	int n = 0, known = 0;

	for (const struct ev_fact *f = ev_catalogue; f->spell[0].name; f++)
		n += EV_SPELLINGS;
	names = xcalloc(n + 1, sizeof(*names));
	n = 0;
	for (const struct ev_fact *f = ev_catalogue; f->spell[0].name; f++)
		for (int k = 0; k < EV_SPELLINGS && f->spell[k].name; k++) {
			names[n++] = f->spell[k].name;
			known |= !strcmp(f->spell[k].name, name);
		}
	if (near)
		*near = known ? NULL : trax_suggest(name, names, n);
	free(names);
	return known;
}

const char *ld_type_system(const struct ld_type *t)
{
	return t->system;
}

const char *ld_type_name(const struct ld_type *t)
{
	return t->name;
}

int ld_type_nfields(const struct ld_type *t)
{
	return t->nfields;
}

const struct ld_field_def *ld_type_field(const struct ld_type *t, int i)
{
	return &t->fields[i];
}

int ld_type_loaded(const struct ld_type *t)
{
	return t->loaded;
}

void *ld_type_priv(const struct ld_type *t)
{
	return t->priv;
}

void ld_type_set_priv(struct ld_type *t, void *priv)
{
	t->priv = priv;
}

struct trax_error *ld_error(struct loader *L)
{
	return L->err;
}

static void parse_filter(struct loader *L, const char *events)
{
	const char *p = events;

	if (!events || !*events || !strcmp(events, "all"))
		return;
	while (*p) {
		size_t n = strcspn(p, ", ");
		char *item;

		if (n) {
			item = xstrndup(p, n);
			for (char *q = item; *q; q++)
				if (*q == '/')
					*q = ':';
			L->ev_filter = xrealloc(L->ev_filter, (L->nev_filter + 1) * sizeof(char *));
			L->ev_filter[L->nev_filter++] = item;
		}
		p += n;
		if (*p)
			p++;
	}
}

int ld_wanted(struct loader *L, const char *system, const char *name)
{
	if (!L->ev_filter)
		return 1;
	for (int i = 0; i < L->nev_filter; i++) {
		const char *pat = L->ev_filter[i], *colon = strchr(pat, ':');

		if (!colon) {
			if (!strcmp(pat, name))
				return 1;
			continue;
		}
		if (system && (size_t)(colon - pat) == strlen(system) &&
		    !strncmp(pat, system, colon - pat) &&
		    (!strcmp(colon + 1, "*") || !strcmp(colon + 1, name)))
			return 1;
	}
	return 0;
}

struct loader *ld_alloc(sqlite3 *db, const struct trax_load_opts *opts, struct trax_error *err)
{
	struct loader *L = xcalloc(1, sizeof(*L));

	L->db = db;
	L->err = err;
	L->types_tail = &L->types;
	ld_set_state_numbering(L, LD_STATE_414, 0);
	parse_filter(L, opts ? opts->events : NULL);
	L->w = dbw_alloc(db, !(opts && opts->threads == 1));
	if (!L->w) {
		free(L);
		return NULL;
	}
	schema_create_core(L->w);
	L->raw_stmt = schema_insert(L->w, SCHEMA_RAW_EVENT, DBW_CAT_EVENT);
	L->lost_stmt = schema_insert(L->w, SCHEMA_LOST_EVENT, DBW_CAT_EVENT);
	L->d = derive_alloc(L, L->w);
	return L;
}

void ld_free(struct loader *L)
{
	struct ld_type *t, *next;

	if (!L)
		return;
	if (L->w)
		dbw_finish(L->w, NULL, NULL);
	derive_free(L->d);
	for (t = L->types; t; t = next) {
		next = t->next;
		for (int i = 0; i < t->nfields; i++) {
			free((char *)t->fields[i].name);
			free(t->colnames[i]);
		}
		free(t->fields);
		free(t->colnames);
		free(t->system);
		free(t->name);
		free(t->table);
		free(t);
	}
	for (int i = 0; i < L->nev_filter; i++)
		free(L->ev_filter[i]);
	free(L->ev_filter);
	for (int i = 0; i < L->nmeta; i++) {
		free(L->meta[i].key);
		free(L->meta[i].value);
	}
	free(L->meta);
	for (int i = 0; i < L->nbuffers; i++)
		free(L->buffer_names ? L->buffer_names[i] : NULL);
	free(L->buffer_names);
	free(L->cpu_first);
	free(L->cpu_last);
	free(L->cpu_lost);
	free(L->cpu_seen);
	free(L);
}

/* The type's row of the event catalogue (its system must match when the reader knows it). */
static void resolve_role(struct ld_type *t)
{
	const struct ev_fact *r = ev_fact_find(t->system, t->name, strlen(t->name), NULL);

	for (int k = 0; k < LD_ROLE_FIELDS; k++)
		t->ridx[k] = -1;
	if (!r)
		return;
	t->role = r->role;
	t->by = r->by;
	for (int k = 0; r->fields && k < LD_ROLE_FIELDS && r->fields[k]; k++) {
		/* "a|b": the first alternative the type has */
		for (const char *alt = r->fields[k]; *alt && t->ridx[k] < 0;) {
			size_t n = strcspn(alt, "|");

			for (int i = 0; i < t->nfields && t->ridx[k] < 0; i++)
				if (strlen(t->fields[i].name) == n &&
				    !strncmp(t->fields[i].name, alt, n))
					t->ridx[k] = i;
			alt += n + (alt[n] == '|');
		}
	}
}

/* SQLite's identifiers ignore ASCII case: "State" and "state" name one column. */
static int ident_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		unsigned char x = *a, y = *b;

		if (x >= 'A' && x <= 'Z')
			x += 'a' - 'A';
		if (y >= 'A' && y <= 'Z')
			y += 'a' - 'A';
		if (x != y)
			return 0;
	}
	return *a == *b;
}

/*
 * The column of field i (doc/db.md): its own name; a trailing '_' when it is one of the
 * common columns; then "_2", "_3"... while it equals (ignoring case) a column before it.
 */
static char *column_name(const struct ld_type *t, int i)
{
	const char *name = t->fields[i].name;
	struct strbuf base = STRBUF_INIT, sb = STRBUF_INIT;
	int taken = 1;

	strbuf_adds(&base, name);
	for (int c = 0; common_cols[c]; c++)
		if (ident_eq(common_cols[c], name))
			strbuf_addch(&base, '_');
	strbuf_adds(&sb, base.buf);
	for (int k = 2; taken; k++) {
		taken = 0;
		for (int c = 0; common_cols[c] && !taken; c++)
			taken = ident_eq(common_cols[c], sb.buf);
		for (int j = 0; j < i && !taken; j++)
			taken = ident_eq(t->colnames[j], sb.buf);
		if (taken) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s_%d", base.buf, k);
		}
	}
	strbuf_release(&base);
	return strbuf_detach(&sb);
}

struct ld_type *ld_type_add(struct loader *L, const char *system, const char *name,
			    int nfields, const struct ld_field_def *fields)
{
	struct ld_type *t = xcalloc(1, sizeof(*t));

	t->id = ++L->ntypes;
	t->system = xstrdup(system);
	t->name = xstrdup(name);
	t->nfields = nfields;
	t->fields = xcalloc(nfields ? nfields : 1, sizeof(*t->fields));
	t->colnames = xcalloc(nfields ? nfields : 1, sizeof(char *));
	for (int i = 0; i < nfields; i++) {
		t->fields[i] = fields[i];
		t->fields[i].name = xstrdup(fields[i].name);
		t->colnames[i] = column_name(t, i);
	}
	t->stmt = -1;
	t->loaded = ld_wanted(L, system, name);
	resolve_role(t);
	*L->types_tail = t;
	L->types_tail = &t->next;
	return t;
}

struct ld_type *ld_type_find(struct loader *L, const char *system, const char *name)
{
	for (struct ld_type *t = L->types; t; t = t->next)
		if (!strcmp(t->name, name) && (!system || !strcmp(t->system, system)))
			return t;
	return NULL;
}

void ld_set_cpus(struct loader *L, int nbuffers, int ncpus)
{
	size_t n;

	if (nbuffers < 1)
		nbuffers = 1;
	if (ncpus < 1)
		ncpus = 1;
	n = (size_t)nbuffers * ncpus;
	L->nbuffers = nbuffers;
	L->ncpus = ncpus;
	L->cpu_first = xcalloc(n, sizeof(uint64_t));
	L->cpu_last = xcalloc(n, sizeof(uint64_t));
	L->cpu_lost = xcalloc(n, sizeof(int64_t));
	L->cpu_seen = xcalloc(n, 1);
	L->buffer_names = xcalloc(nbuffers, sizeof(char *));
}

void ld_seen(struct loader *L, int buffer, int cpu, uint64_t ts)
{
	size_t i;

	L->records++;
	if (buffer < 0 || buffer >= L->nbuffers || cpu < 0 || cpu >= L->ncpus)
		return;
	i = (size_t)buffer * L->ncpus + cpu;
	if (!L->cpu_seen[i] || ts < L->cpu_first[i])
		L->cpu_first[i] = ts;
	L->cpu_seen[i] = 1;
	if (ts > L->cpu_last[i])
		L->cpu_last[i] = ts;
}

void ld_set_buffer_name(struct loader *L, int buffer, const char *name)
{
	if (buffer < 0 || buffer >= L->nbuffers)
		return;
	free(L->buffer_names[buffer]);
	L->buffer_names[buffer] = xstrdup(name);
}

void ld_set_state_decoder(struct loader *L, ld_state_fn fn, void *ctx)
{
	L->state_fn = fn;
	L->state_ctx = ctx;
}

/*
 * The task state of each bit of sched_switch's prev_state (bit 0 first), for traces without a
 * format (text), from the kernels' own tables: 4.14 on (TASK_REPORT), and 3.10 to 4.13 (with N,
 * TASK_NOLOAD, from 4.2); the preempted flag, '+', is a bit above them (doc/db.md).
 */
static const struct {
	const char *name, *bits;
	int64_t preempt;	/* 0: the reader says */
} numberings[] = {
	[LD_STATE_414] = { "4.14+", "SDTtXZPI", 0x100 },
	[LD_STATE_PRE414] = { "pre-4.14", "SDTtZXxKWPN", 0 },
};

const char *ld_state_bits(int numbering)
{
	return numberings[numbering].bits;
}

const char *ld_state_numbering_name(int numbering)
{
	return numberings[numbering].name;
}

void ld_set_state_numbering(struct loader *L, int numbering, int64_t preempt)
{
	L->numbering = numbering;
	L->preempt = numberings[numbering].preempt ? numberings[numbering].preempt : preempt;
}

/* The letters the kernel's print fmt of that numbering gives: "S", "D|K", "R", "R+". */
static const char *table_state_letters(const struct loader *L, int64_t state)
{
	const char *bits = numberings[L->numbering].bits;
	static char buf[8][48];	/* 11 letters, |0x and 16 digits, +, NUL */
	static int slot;
	char *out = buf[slot++ & 7];
	int64_t rest = state & (L->preempt - 1);
	int n = 0;

	for (int b = 0; bits[b] && rest; b++) {
		if (rest & (1ll << b)) {
			if (n)
				out[n++] = '|';
			out[n++] = bits[b];
			rest &= ~(1ll << b);
		}
	}
	if (rest)	/* bits the table does not name: as libtraceevent prints them */
		n += snprintf(out + n, sizeof(buf[0]) - 2 - n, "%s0x%llx", n ? "|" : "", (unsigned long long)rest);
	if (!n)
		out[n++] = 'R';
	if (state & L->preempt)
		out[n++] = '+';
	out[n] = '\0';
	return out;
}

const char *derive_state_letters(struct loader *L, struct ld_type *t, int64_t state)
{
	if (L->state_fn) {
		const char *s = L->state_fn(L->state_ctx, t, state);

		if (s)
			return s;
	}
	return table_state_letters(L, state);
}

static int is_reserved(const char *name)
{
	/* SQLite keeps every name starting with "sqlite_" (any case) for itself */
	if (!strncasecmp(name, "sqlite_", 7))
		return 1;
	for (int i = 0; reserved_tables[i]; i++)
		if (ident_eq(reserved_tables[i], name))
			return 1;
	return 0;
}

/* Whether a table (or index) name is taken, ignoring case as SQLite does. */
static int table_taken(struct loader *L, const struct ld_type *t, const char *name)
{
	if (is_reserved(name) || schema_is_index(name))
		return 1;
	for (struct ld_type *o = L->types; o; o = o->next)
		if (o != t && o->table && ident_eq(o->table, name))
			return 1;
	return 0;
}

static void sanitize_ident(char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			*s = '_';
}

static void choose_table_name(struct loader *L, struct ld_type *t)
{
	int clash = is_reserved(t->name);
	struct strbuf sb = STRBUF_INIT;

	for (struct ld_type *o = L->types; o && !clash; o = o->next)
		if (o != t && !strcmp(o->name, t->name) && strcmp(o->system, t->system))
			clash = 1;
	if (clash && t->system[0])
		strbuf_addf(&sb, "%s__%s", t->system, t->name);
	else if (clash)
		strbuf_addf(&sb, "unknown__%s", t->name);
	else
		strbuf_adds(&sb, t->name);
	sanitize_ident(sb.buf);
	/* names that differ only in case (or in the characters made '_') get "_2", "_3"... in
	 * the order their tables are made */
	if (table_taken(L, t, sb.buf)) {
		struct strbuf base = STRBUF_INIT;

		strbuf_adds(&base, sb.buf);
		for (int k = 2; table_taken(L, t, sb.buf); k++) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s_%d", base.buf, k);
		}
		strbuf_release(&base);
	}
	t->table = strbuf_detach(&sb);
}

static void create_table(struct loader *L, struct ld_type *t)
{
	struct strbuf sb = STRBUF_INIT;

	if (!t->table)
		choose_table_name(L, t);
	strbuf_addf(&sb, "CREATE TABLE \"%s\"(ts INTEGER, cpu INTEGER, common_pid INTEGER, "
		    "buffer INTEGER", t->table);
	for (int i = 0; i < t->nfields; i++)
		strbuf_addf(&sb, ", \"%s\" %s", t->colnames[i],
			    t->fields[i].sql == LD_TEXT ? "TEXT" : "INTEGER");
	strbuf_adds(&sb, ")");
	dbw_exec(L->w, sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "INSERT INTO \"%s\" VALUES(?,?,?,?", t->table);
	for (int i = 0; i < t->nfields; i++)
		strbuf_adds(&sb, ",?");
	strbuf_adds(&sb, ")");
	t->stmt = dbw_prepare(L->w, sb.buf, DBW_CAT_EVENT);
	t->has_table = 1;
	strbuf_release(&sb);
}

static void start(struct loader *L)
{
	if (!L->cpu_first)
		ld_set_cpus(L, 1, 1);
	derive_set_cpus(L->d, L->nbuffers, L->ncpus, L->cpu_first);
	L->started = 1;
}

int ld_emit(struct loader *L, struct ld_type *t, uint64_t ts, int cpu, int pid, int buffer,
	    const char *comm, const struct ld_val *vals)
{
	if (!L->started)
		start(L);
	if (t->loaded) {
		struct dbw *w = L->w;

		if (t->stmt < 0)
			create_table(L, t);
		dbw_row_begin(w, t->stmt);
		dbw_int(w, (int64_t)ts);
		dbw_int(w, cpu);
		dbw_int(w, pid);
		dbw_int(w, buffer);
		for (int i = 0; i < t->nfields; i++) {
			const struct ld_val *v = &vals[i];

			if (v->kind == LD_I64)
				dbw_int(w, v->i);
			else if (v->kind == LD_STR)
				dbw_text(w, v->s, v->len);
			else
				dbw_null(w);
		}
		dbw_row_end(w);
		t->count++;
		derive_event(L->d, t, ts, cpu, pid, buffer, comm, vals);
	}
	return dbw_failed(L->w) ? -TRAX_E_DB : 0;
}

int ld_emit_raw(struct loader *L, uint64_t ts, int cpu, int pid, int buffer, const char *name,
		const char *text, int len)
{
	if (!L->started)
		start(L);
	dbw_row_begin(L->w, L->raw_stmt);
	dbw_int(L->w, (int64_t)ts);
	dbw_int(L->w, cpu);
	dbw_int(L->w, pid);
	dbw_int(L->w, buffer);
	dbw_text(L->w, name, -1);
	dbw_text(L->w, text, len);
	dbw_row_end(L->w);
	L->raw_count++;
	return dbw_failed(L->w) ? -TRAX_E_DB : 0;
}

void ld_lost(struct loader *L, uint64_t ts, int cpu, int buffer, int64_t count)
{
	if (!L->started)
		start(L);
	dbw_row_begin(L->w, L->lost_stmt);
	dbw_int(L->w, (int64_t)ts);
	dbw_int(L->w, cpu);
	dbw_int(L->w, buffer);
	if (count >= 0)
		dbw_int(L->w, count);
	else
		dbw_null(L->w);
	dbw_row_end(L->w);
	L->lost_records++;
	if (buffer >= 0 && buffer < L->nbuffers && cpu >= 0 && cpu < L->ncpus) {
		int64_t *slot = &L->cpu_lost[(size_t)buffer * L->ncpus + cpu];

		if (count < 0 || *slot < 0)
			*slot = -1;
		else
			*slot += count;
	}
	derive_lost(L->d, ts, cpu, buffer);
}

void ld_task(struct loader *L, int pid, int tgid, const char *comm, int len)
{
	derive_task(L->d, pid, tgid, comm, len);
}

void ld_marker(struct loader *L, uint64_t ts, int pid, int buffer, const char *buf, int len)
{
	if (!L->started)
		start(L);
	derive_marker(L->d, ts, pid, buffer, buf, len);
}

void ld_tgid(struct loader *L, int pid, int tgid)
{
	derive_tgid(L->d, pid, tgid);
}

void ld_meta(struct loader *L, const char *key, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	for (int i = 0; i < L->nmeta; i++) {
		if (!strcmp(L->meta[i].key, key)) {
			free(L->meta[i].value);
			L->meta[i].value = strbuf_detach(&sb);
			return;
		}
	}
	TRAX_GROW(L->meta, L->nmeta, L->cmeta, 32);
	L->meta[L->nmeta].key = xstrdup(key);
	L->meta[L->nmeta].value = strbuf_detach(&sb);
	L->nmeta++;
}

/*
 * Systems whose zero-row event types still get an (empty) table, so that rules and users'
 * SQL can count "none" without special cases. Other zero-row types are listed in event_type
 * without a table: a trace-cmd capture carries every format of the kernel (thousands), and an
 * empty table per format would cost more than the events themselves. When a file holds few
 * formats (a trax capture saves only the enabled ones), every type gets its table.
 */
static const char *const empty_table_systems[] = {
	"sched", "power", "thermal", "thermal_power_allocator", "oom", "kmem", "ion", "dmabuf_heap",
	"dma_fence", "fence", "sync", "lowmemorykiller", "gpu_mem", "irq", "task", "ftrace",
	"cpuhp", "devfreq", NULL,
};
#define EMPTY_TABLES_ALL_LIMIT 256

static int wants_empty_table(struct loader *L, struct ld_type *t)
{
	if (L->ntypes <= EMPTY_TABLES_ALL_LIMIT)
		return 1;
	for (int i = 0; empty_table_systems[i]; i++)
		if (!strcmp(t->system, empty_table_systems[i]))
			return 1;
	return 0;
}

/* Finish the streaming pass: empty tables, derived tables, then the writer. */
static int ld_finish_stream(struct loader *L, struct trax_load_stats *st)
{
	struct dbw_stats ws;
	uint64_t last = 0;
	int ret;

	if (!L->started)
		start(L);
	for (struct ld_type *t = L->types; t; t = t->next)
		if (t->loaded && t->stmt < 0 && wants_empty_table(L, t))
			create_table(L, t);
	for (int i = 0; i < L->nbuffers * L->ncpus; i++)
		if (L->cpu_last[i] > last)
			last = L->cpu_last[i];
	derive_finish(L->d, last);
	ret = dbw_finish(L->w, &ws, L->err);
	L->w = NULL;
	if (st) {
		st->records = L->records;
		st->event_rows = ws.rows[DBW_CAT_EVENT];
		st->derived_rows = ws.rows[DBW_CAT_DERIVED];
		st->event_insert_s = ws.busy_s[DBW_CAT_EVENT];
		st->derived_s = ws.busy_s[DBW_CAT_DERIVED];
		st->wait_s = ws.wait_s;
		st->idle_s = ws.idle_s;
	}
	return ret;
}

int ld_exec_sql(sqlite3 *db, const char *sql, struct trax_error *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		trax_error_set(err, TRAX_E_DB, "%s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -TRAX_E_DB;
	}
	return 0;
}

/* meta, event_type and event_field, written once the streaming pass is over. */
/* A statement inserting one row into the fixed table t. */
static int prepare_insert(sqlite3 *db, enum schema_table t, sqlite3_stmt **st)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	schema_insert_sql(t, &sb);
	rc = sqlite3_prepare_v2(db, sb.buf, -1, st, NULL);
	strbuf_release(&sb);
	return rc;
}

static int write_catalog(struct loader *L, struct trax_error *err)
{
	sqlite3_stmt *st = NULL;
	uint64_t tmin = 0, tmax = 0, complete = 0;
	int have = 0, ret = -TRAX_E_DB;

	for (int b = 0; b < L->nbuffers; b++) {
		for (int c = 0; c < L->ncpus; c++) {
			size_t i = (size_t)b * L->ncpus + c;
			char key[64];
			const char *pre = "";
			char prebuf[32];

			if (b) {
				snprintf(prebuf, sizeof(prebuf), "buffer.%d.", b);
				pre = prebuf;
			}
			if (!L->cpu_seen[i])
				continue;
			snprintf(key, sizeof(key), "%scpu.%d.first_ts", pre, c);
			ld_meta(L, key, "%llu", (unsigned long long)L->cpu_first[i]);
			snprintf(key, sizeof(key), "%scpu.%d.last_ts", pre, c);
			ld_meta(L, key, "%llu", (unsigned long long)L->cpu_last[i]);
			snprintf(key, sizeof(key), "%scpu.%d.lost_events", pre, c);
			if (L->cpu_lost[i] < 0)
				ld_meta(L, key, "unknown");
			else
				ld_meta(L, key, "%lld", (long long)L->cpu_lost[i]);
			if (!have || L->cpu_first[i] < tmin)
				tmin = L->cpu_first[i];
			if (L->cpu_last[i] > tmax)
				tmax = L->cpu_last[i];
			/* where every CPU of buffer 0 (the one rules read by default) was recording */
			if (b == 0 && L->cpu_first[i] > complete)
				complete = L->cpu_first[i];
			have = 1;
		}
	}
	if (have) {
		ld_meta(L, "trace.start_ts", "%llu", (unsigned long long)tmin);
		ld_meta(L, "trace.end_ts", "%llu", (unsigned long long)tmax);
		ld_meta(L, "trace.complete_start_ts", "%llu", (unsigned long long)complete);
	}
	ld_meta(L, "buffers", "%d", L->nbuffers);
	for (int b = 0; b < L->nbuffers; b++) {
		char key[48];

		snprintf(key, sizeof(key), "buffer.%d.name", b);
		ld_meta(L, key, "%s", L->buffer_names[b] ? L->buffer_names[b] : "");
	}
	ld_meta(L, "raw_events", "%llu", (unsigned long long)L->raw_count);
	ld_meta(L, "lost_event_records", "%llu", (unsigned long long)L->lost_records);
	if (!L->ev_filter) {
		ld_meta(L, "events", "all");
	} else {
		struct strbuf sb = STRBUF_INIT;

		for (int i = 0; i < L->nev_filter; i++)
			strbuf_addf(&sb, "%s%s", i ? "," : "", L->ev_filter[i]);
		ld_meta(L, "events", "%s", sb.buf);
		strbuf_release(&sb);
	}

	if (sqlite3_prepare_v2(L->db, "INSERT OR REPLACE INTO meta VALUES(?,?)", -1, &st, NULL))
		goto out;
	for (int i = 0; i < L->nmeta; i++) {
		sqlite3_bind_text(st, 1, L->meta[i].key, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, L->meta[i].value, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			goto out;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	if (prepare_insert(L->db, SCHEMA_EVENT_TYPE, &st))
		goto out;
	for (struct ld_type *t = L->types; t; t = t->next) {
		sqlite3_bind_int(st, 1, t->id);
		sqlite3_bind_text(st, 2, t->system, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, t->name, -1, SQLITE_STATIC);
		if (t->has_table)
			sqlite3_bind_text(st, 4, t->table, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 4);
		if (t->loaded)
			sqlite3_bind_int64(st, 5, (int64_t)t->count);
		else
			sqlite3_bind_null(st, 5);
		if (sqlite3_step(st) != SQLITE_DONE)
			goto out;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	if (prepare_insert(L->db, SCHEMA_EVENT_FIELD, &st))
		goto out;
	for (struct ld_type *t = L->types; t; t = t->next) {
		if (!t->has_table)
			continue;
		for (int i = 0; i < t->nfields; i++) {
			const struct ld_field_def *f = &t->fields[i];

			sqlite3_bind_int(st, 1, t->id);
			sqlite3_bind_text(st, 2, t->colnames[i], -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 3, f->sql == LD_TEXT ? "TEXT" : "INTEGER", -1,
					  SQLITE_STATIC);
			sqlite3_bind_int(st, 4, f->is_array);
			sqlite3_bind_int(st, 5, f->is_string);
			sqlite3_bind_int(st, 6, f->is_unsigned);
			sqlite3_bind_text(st, 7, f->name, -1, SQLITE_STATIC);
			if (sqlite3_step(st) != SQLITE_DONE)
				goto out;
			sqlite3_reset(st);
		}
	}
	ret = 0;
out:
	if (ret)
		trax_error_set(err, TRAX_E_DB, "writing the catalog: %s", sqlite3_errmsg(L->db));
	sqlite3_finalize(st);
	return ret;
}

static int create_indexes(struct loader *L, struct trax_error *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	/*
	 * Derived tables are indexed for the rules' queries. Event tables are written in trace
	 * order (rowid order is time order), so they get no time index of their own, but for
	 * the trace markers that windows look up.
	 */
	/* The index sorter takes up to the cache size per thread: keep the sum bounded. */
	strbuf_adds(&sb, "PRAGMA cache_size=-16384;");
	strbuf_adds(&sb, schema_core_indexes());
	for (struct ld_type *t = L->types; t; t = t->next)
		if (t->has_table && t->count && t->role == ROLE_PRINT)
			strbuf_addf(&sb, "CREATE INDEX \"%s_ts\" ON \"%s\"(ts);", t->table,
				    t->table);
	ret = ld_exec_sql(L->db, sb.buf, err);
	strbuf_release(&sb);
	return ret;
}

int ld_finish(struct loader *L, struct trax_load_stats *st)
{
	double t1;
	int ret;

	ret = ld_finish_stream(L, st);
	if (ret)
		return ret;
	if (st)
		st->decode_s += trax_now_s();
	ret = write_catalog(L, L->err);
	if (ret)
		return ret;
	t1 = trax_now_s();
	ret = create_indexes(L, L->err);
	if (st)
		st->index_s = trax_now_s() - t1;
	return ret;
}
