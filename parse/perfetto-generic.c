/* parse/perfetto-generic.c: Perfetto's GenericFtraceEvent into the table of its event name. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "parse/catalogue.h"
#include "parse/load.h"
#include "parse/perfetto-fields.h"
#include "parse/perfetto-generic.h"
#include "util/grow.h"
#include "util/xalloc.h"

/*
 * Limits against a crafted file (each distinct name is a table; each field a column): past
 * them an event goes to raw_event, a field is counted as unknown.
 */
#define PFG_MAX_NAMES 1024
#define PFG_MAX_NAME 255
#define PFG_MAX_FIELDS 64

struct pfg_type {
	char *name;
	int len;
	struct ld_type *t;
};

struct pf_generic {
	struct loader *L;
	const char *path;
	struct pfg_type *types;
	int n, cap;
	int *hash;		/* open addressing: index into types, -1 empty */
	size_t hcap;
	struct ld_val vals[PFG_MAX_FIELDS];
	uint64_t events;
};

/* One Field of an event: its name, and its value (kind LD_NULL when it has none). */
struct pfg_field {
	const char *name;
	int len;
	struct ld_val v;
	int is_unsigned;
};

struct pf_generic *pf_generic_new(struct loader *L, const char *path)
{
	struct pf_generic *G = xcalloc(1, sizeof(*G));

	G->L = L;
	G->path = path;
	return G;
}

void pf_generic_free(struct pf_generic *G)
{
	if (!G)
		return;
	for (int i = 0; i < G->n; i++)
		free(G->types[i].name);
	free(G->types);
	free(G->hash);
	free(G);
}

uint64_t pf_generic_events(const struct pf_generic *G)
{
	return G->events;
}

int pf_generic_names(const struct pf_generic *G)
{
	return G->n;
}

static int fail(struct pf_generic *G, const struct pb_cursor *c)
{
	const char *kind = c->err == PB_E_TRUNCATED || c->err == PB_E_LENGTH ?
		"truncated or corrupt" : "corrupt";

	return trax_error_set(ld_error(G->L), TRAX_E_FORMAT, "%s: %s Perfetto trace at byte "
			      "offset %llu (a generic ftrace event): %s", G->path, kind,
			      (unsigned long long)c->err_off, pb_strerror(c->err));
}

static int bad_wire(struct pf_generic *G, const struct pb_field *f, const char *what,
		    enum pb_wire w)
{
	return trax_error_set(ld_error(G->L), TRAX_E_FORMAT, "%s: corrupt Perfetto trace at byte "
			      "offset %llu (a generic ftrace event's %s, field %u): wire type %d, "
			      "the schema's is %d", G->path, (unsigned long long)f->off, what,
			      f->num, f->wire, w);
}

static int bad_string(struct pf_generic *G, const struct pb_field *f)
{
	return trax_error_set(ld_error(G->L), TRAX_E_FORMAT, "%s: corrupt Perfetto trace at byte "
			      "offset %llu (a generic ftrace event): a string of %zu bytes",
			      G->path, (unsigned long long)f->off, f->len);
}

/* A Field message f of cursor c into *out; 0 or a negative error. */
static int field_parse(struct pf_generic *G, const struct pb_cursor *c, const struct pb_field *f,
		       struct pfg_field *out)
{
	struct pb_cursor fc;
	struct pb_field x;
	int r;

	memset(out, 0, sizeof(*out));
	out->v.kind = LD_NULL;
	pb_sub(c, f, &fc);
	while ((r = pb_next(&fc, &x)) > 0) {
		switch (x.num) {
		case PF_GENERIC_FIELD_NAME:
		case PF_GENERIC_FIELD_STR:
			if (x.wire != PB_LEN)
				return bad_wire(G, &x, x.num == PF_GENERIC_FIELD_NAME ?
						"field name" : "str_value", PB_LEN);
			if (x.len > INT_MAX)
				return bad_string(G, &x);
			if (x.num == PF_GENERIC_FIELD_NAME) {
				out->name = (const char *)x.data;
				out->len = (int)x.len;
				break;
			}
			/* the oneof value: the last one written is the value */
			out->v = (struct ld_val){ .kind = LD_STR, .s = (const char *)x.data,
						  .len = (int)x.len };
			out->is_unsigned = 0;
			break;
		case PF_GENERIC_FIELD_INT:
		case PF_GENERIC_FIELD_UINT:
			if (x.wire != PB_VARINT)
				return bad_wire(G, &x, x.num == PF_GENERIC_FIELD_INT ? "int_value" :
						"uint_value", PB_VARINT);
			out->v = (struct ld_val){ .kind = LD_I64, .i = (int64_t)x.val };
			out->is_unsigned = x.num == PF_GENERIC_FIELD_UINT;
			break;
		default:
			break;
		}
	}
	return r < 0 ? fail(G, &fc) : 0;
}

static uint32_t hash_name(const char *s, int len)
{
	uint32_t h = 2166136261u;

	for (int i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static int *hash_slot(struct pf_generic *G, const char *s, int len)
{
	size_t i = hash_name(s, len) & (G->hcap - 1);

	while (G->hash[i] >= 0) {
		const struct pfg_type *ty = &G->types[G->hash[i]];

		if (ty->len == len && !memcmp(ty->name, s, (size_t)len))
			break;
		i = (i + 1) & (G->hcap - 1);
	}
	return &G->hash[i];
}

/* The field list of the event's first instance (its Field messages in cursor bc), typed by
 * their values; a name met twice keeps its first column. */
static struct ld_type *type_make(struct pf_generic *G, const char *system, const char *name,
				 struct pb_cursor bc)
{
	struct ld_field_def defs[PFG_MAX_FIELDS];
	char *names[PFG_MAX_FIELDS];
	struct ld_type *t;
	struct pb_field f;
	struct pfg_field pf;
	int n = 0;

	/* the body was read once already: it parses */
	while (pb_next(&bc, &f) > 0 && n < PFG_MAX_FIELDS) {
		int dup = 0;

		if (f.num != PF_GENERIC_FIELD || field_parse(G, &bc, &f, &pf) || !pf.len)
			continue;
		for (int i = 0; i < n && !dup; i++)
			dup = (int)strlen(names[i]) == pf.len && !memcmp(names[i], pf.name, pf.len);
		if (dup)
			continue;
		names[n] = xstrndup(pf.name, (size_t)pf.len);
		defs[n] = (struct ld_field_def){
			.name = names[n],
			.sql = pf.v.kind == LD_STR ? LD_TEXT : LD_INT,
			.is_string = pf.v.kind == LD_STR,
			.is_unsigned = (unsigned)pf.is_unsigned,
		};
		n++;
	}
	t = ld_type_add(G->L, system, name, n, defs);
	for (int i = 0; i < n; i++)
		free(names[i]);
	return t;
}

/* The type of an event name (made at its first event); NULL past the limit of names. */
static struct ld_type *type_of(struct pf_generic *G, const char *s, int len,
			       const struct pb_cursor *bc)
{
	const struct ev_fact *fact;
	const char *system = "";
	struct pfg_type *ty;
	int *slot, spelling = 0;
	char *name;

	if (G->hcap && *(slot = hash_slot(G, s, len)) >= 0)
		return G->types[*slot].t;
	if (G->n >= PFG_MAX_NAMES)
		return NULL;
	if ((size_t)(G->n + 1) * 2 > G->hcap) {
		size_t cap = G->hcap ? G->hcap * 2 : 64;

		free(G->hash);
		G->hash = xcalloc(cap, sizeof(*G->hash));
		memset(G->hash, -1, cap * sizeof(*G->hash));
		G->hcap = cap;
		for (int i = 0; i < G->n; i++)
			*hash_slot(G, G->types[i].name, G->types[i].len) = i;
	}
	name = xstrndup(s, (size_t)len);
	fact = ev_fact_find(NULL, name, (size_t)len, &spelling);
	if (fact)
		system = fact->spell[spelling].system;
	TRAX_GROW(G->types, G->n, G->cap, 16);
	ty = &G->types[G->n];
	ty->name = name;
	ty->len = len;
	/* an event the reader decodes from its own message, recorded generic elsewhere, shares
	 * that table: its fields by name */
	ty->t = ld_type_find(G->L, system, name);
	if (!ty->t)
		ty->t = type_make(G, system, name, *bc);
	*hash_slot(G, s, len) = G->n++;
	return ty->t;
}

/* The column of a field name in t, tried first at hint (events repeat their field order). */
static int column_of(struct ld_type *t, const struct pfg_field *pf, int hint)
{
	int n = ld_type_nfields(t);

	for (int k = 0; k < n; k++) {
		int i = (hint + k) % n;
		const char *name = ld_type_field(t, i)->name;

		if ((int)strlen(name) == pf->len && !memcmp(name, pf->name, (size_t)pf->len))
			return i;
	}
	return -1;
}

int pf_generic_emit(struct pf_generic *G, const struct pb_cursor *ec, const struct pb_field *body,
		    uint64_t ts, int cpu, int pid, uint64_t *unknown)
{
	struct pb_cursor bc, c;
	struct pb_field f;
	struct pfg_field pf;
	const char *name = NULL;
	struct ld_type *t;
	int len = 0, r, nf, k = 0;

	/* the name may follow the fields: find it first, checking the framing */
	pb_sub(ec, body, &bc);
	c = bc;
	while ((r = pb_next(&c, &f)) > 0) {
		if (f.num == PF_GENERIC_EVENT_NAME) {
			if (f.wire != PB_LEN)
				return bad_wire(G, &f, "event_name", PB_LEN);
			name = (const char *)f.data;
			len = f.len > PFG_MAX_NAME ? 0 : (int)f.len;
		} else if (f.num == PF_GENERIC_FIELD) {
			if (f.wire != PB_LEN)
				return bad_wire(G, &f, "field", PB_LEN);
			if ((r = field_parse(G, &c, &f, &pf)) < 0)
				return r;
		}
	}
	if (r < 0)
		return fail(G, &c);
	if (!name || !len || memchr(name, 0, (size_t)len) || !(t = type_of(G, name, len, &bc)))
		return 1;
	nf = ld_type_nfields(t);
	if (nf > PFG_MAX_FIELDS)	/* no type of this reader has as many */
		return 1;
	G->events++;
	if (!ld_type_loaded(t))
		return 0;
	for (int i = 0; i < nf; i++)
		G->vals[i].kind = LD_NULL;
	while (pb_next(&bc, &f) > 0) {
		int col;

		if (f.num != PF_GENERIC_FIELD)
			continue;
		field_parse(G, &bc, &f, &pf);	/* parsed above */
		if (!pf.len || (col = column_of(t, &pf, k)) < 0) {
			(*unknown)++;
			continue;
		}
		G->vals[col] = pf.v;
		k = col + 1 < nf ? col + 1 : 0;
	}
	return ld_emit(G->L, t, ts, cpu, pid, 0, NULL, G->vals);
}
