/* parse/dat.c: reading trace.dat (v6, v7, zstd, instance buffers) with libtracecmd. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "parse/datlayout.h"
#include "parse/load.h"
#include "parse/sink.h"
#include "parse/tracecmd-local.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define DAT_MAGIC "\x17\x08\x44tracing"

/* How to decode one field of an event from the record bytes. */
struct dfield {
	int offset, size, elsize;
	unsigned is_signed:1, is_string:1, is_array:1, is_dynamic:1, is_relative:1;
	unsigned is_ptrstr:1;	/* `const char *`: an address, printed as the string it names */
};

/* An event of our own in a buffer's tep that prints one pointer field with %s. */
struct ptrfmt {
	struct tep_handle *tep;
	int size;
	struct tep_event *ev;
};

struct dtype {
	struct ld_type *t;
	struct tep_event *ev;
	struct dfield *f;
	int nf;			/* fields of t */
	int msg_field;		/* bprint/bputs: the field the formatted message replaces, else -1 */
	/* prev_state decoding cache (sched_switch) */
	int64_t st_val[32];
	char st_str[32][24];
	int nst;
};

struct dat {
	struct loader *L;
	const char *path;
	struct tracecmd_input *top;
	struct tracecmd_input **handles;	/* buffers with data */
	int nhandles;
	struct tep_handle *tep;			/* of the first buffer */
	unsigned int page_size;			/* from the file header */
	struct dtype ***types;			/* [handle][tep event id] */
	int *ntypes;
	struct ld_val *vals;
	int nvals;
	struct strbuf arr;			/* scratch for array fields */
	struct strbuf *strs;			/* per-field scratch strings */
	int nstrs;
	int err;
	unsigned long long last_off;		/* file offset of the last record read */
	int last_cpu;				/* its CPU, -1 before the first */
	struct ptrfmt ptr[8];			/* per (tep, pointer size) */
	int nptr;
};

/* ---- the file header, read by hand for clear errors ---- */

struct dat_header {
	int version;
	unsigned int page_size;		/* of the ring buffer pages; 0 when unknown */
	char compression[32];
};

static int read_header(const char *path, struct dat_header *h, struct trax_error *err)
{
	unsigned char buf[128];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t off;

	memset(h, 0, sizeof(*h));
	if (fd < 0)
		return trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 10 || memcmp(buf, DAT_MAGIC, 10))
		return trax_error_set(err, TRAX_E_FORMAT, "%s: not a trace.dat file", path);
	buf[n] = 0;
	h->version = atoi((char *)buf + 10);
	if (h->version != 6 && h->version != 7) {
		char v[9];	/* printable, so that the message stays one line */
		size_t i;

		for (i = 0; i < 8 && buf[10 + i]; i++)
			v[i] = isprint(buf[10 + i]) ? buf[10 + i] : '?';
		v[i] = '\0';
		return trax_error_set(err, TRAX_E_UNSUPPORTED,
				      "%s: unsupported trace.dat version '%s'", path, v);
	}
	/* magic(10) "7\0" endian(1) long size(1) page size(4), then compression "name\0ver\0" */
	off = 10 + strlen((char *)buf + 10) + 1;
	if (off + 6 <= (size_t)n) {
		uint32_t ps;

		memcpy(&ps, buf + off + 2, 4);
		if (buf[off] != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__))
			ps = __builtin_bswap32(ps);
		h->page_size = ps;
		/* libtracecmd walks the data in pages of this size: a wrong one sends it past
		 * the end of its mapping (SIGBUS) */
		if (ps < 1024 || ps > (64u << 20) || (ps & (ps - 1)))
			return trax_error_set(err, TRAX_E_FORMAT, "%s: corrupt trace.dat: a page "
					      "size of %u bytes (not a power of two from 1 KiB to "
					      "64 MiB)", path, ps);
		if (buf[off + 1] != 4 && buf[off + 1] != 8)
			return trax_error_set(err, TRAX_E_FORMAT, "%s: corrupt trace.dat: a long "
					      "size of %u bytes (not 4 or 8)", path, buf[off + 1]);
	}
	off += 1 + 1 + 4;
	if (h->version >= 7 && off < (size_t)n)
		snprintf(h->compression, sizeof(h->compression), "%s", (char *)buf + off);
	for (char *c = h->compression; *c; c++)
		if (!isprint((unsigned char)*c))
			*c = '?';
	return 0;
}

/* trace-cmd's magic: 0x17 0x08 0x44 "tracing" (v6 and v7). */
int dat_sniff(const char *head, size_t n)
{
	return n >= 10 && !memcmp(head, "\x17\x08\x44tracing", 10);
}

int dat_check_header(const char *path, struct trax_error *err)
{
	struct dat_header h;

	return read_header(path, &h, err);
}

/* ---- types ---- */

/* bprint/bputs/print: their useful content is the formatted message. */
static int is_message_event(const struct dtype *dt)
{
	return !strcmp(ld_type_system(dt->t), "ftrace") &&
	       (!strcmp(ld_type_name(dt->t), "bprint") || !strcmp(ld_type_name(dt->t), "bputs"));
}

static struct dtype *dtype_new(struct dat *D, struct tep_event *ev, struct ld_type *t)
{
	struct tep_format_field **fields = tep_event_fields(ev);
	struct ld_field_def *defs;
	struct dtype *dt = xcalloc(1, sizeof(*dt));
	int n = 0;

	for (int i = 0; fields && fields[i]; i++)
		n++;
	defs = xcalloc(n ? n : 1, sizeof(*defs));
	dt->f = xcalloc(n ? n : 1, sizeof(*dt->f));
	for (int i = 0; i < n; i++) {
		struct tep_format_field *f = fields[i];
		struct dfield *df = &dt->f[i];
		unsigned long fl = f->flags;

		df->offset = f->offset;
		df->size = f->size;
		df->elsize = f->elementsize;
		df->is_signed = !!(fl & TEP_FIELD_IS_SIGNED);
		df->is_string = !!(fl & TEP_FIELD_IS_STRING);
		df->is_array = !!(fl & TEP_FIELD_IS_ARRAY) && !df->is_string;
		df->is_dynamic = !!(fl & TEP_FIELD_IS_DYNAMIC);
		df->is_relative = !!(fl & TEP_FIELD_IS_RELATIVE);
		/* names kept as pointers (old ION events): the string libtraceevent prints */
		if ((fl & TEP_FIELD_IS_POINTER) && !(fl & TEP_FIELD_IS_ARRAY) && f->type &&
		    strstr(f->type, "char") && (f->size == 4 || f->size == 8))
			df->is_ptrstr = 1, df->is_string = 1;
		/* char[] arrays that libtraceevent did not flag as strings are strings too */
		if ((fl & TEP_FIELD_IS_ARRAY) && f->type && strstr(f->type, "char") &&
		    f->elementsize == 1)
			df->is_string = 1, df->is_array = 0;
		/* old kernels declare print's message as `char buf; size:0`: also the rest */
		if (!(fl & TEP_FIELD_IS_ARRAY) && f->size == 0 && f->type &&
		    strstr(f->type, "char"))
			df->is_string = 1, df->is_array = 0;
		defs[i].name = f->name;
		defs[i].sql = (df->is_string || df->is_array) ? LD_TEXT : LD_INT;
		defs[i].is_array = df->is_array;
		defs[i].is_string = df->is_string;
		defs[i].is_unsigned = !df->is_signed && !df->is_string && !df->is_array;
	}
	dt->ev = ev;
	if (t && ld_type_nfields(t) == n) {
		dt->t = t;
	} else {
		dt->t = ld_type_add(D->L, ev->system ? ev->system : "", ev->name, n, defs);
		ld_type_set_priv(dt->t, dt);
	}
	/* what every record of the type needs, worked out once */
	dt->nf = ld_type_nfields(dt->t);
	dt->msg_field = -1;
	if (is_message_event(dt))
		for (int i = 0; i < dt->nf; i++)
			if (!strcmp(ld_type_field(dt->t, i)->name, "buf") ||
			    !strcmp(ld_type_field(dt->t, i)->name, "str"))
				dt->msg_field = i;
	free(defs);
	free(fields);
	if (n > D->nvals) {
		D->vals = xrealloc(D->vals, n * sizeof(*D->vals));
		D->strs = xrealloc(D->strs, n * sizeof(*D->strs));
		for (int i = D->nstrs; i < n; i++)
			D->strs[i] = (struct strbuf)STRBUF_INIT;
		D->nvals = D->nstrs = n;
	}
	return dt;
}

/* Types of one handle's tep; the same event in several buffers shares the loader's type. */
static int register_types(struct dat *D, int h)
{
	struct tep_handle *tep = tracecmd_get_tep(D->handles[h]);
	struct tep_event **evs = tep_list_events(tep, TEP_EVENT_SORT_ID);
	int max = 0;

	for (int i = 0; evs && evs[i]; i++)
		if (evs[i]->id > max)
			max = evs[i]->id;
	D->types[h] = xcalloc(max + 1, sizeof(struct dtype *));
	D->ntypes[h] = max + 1;
	for (int i = 0; evs && evs[i]; i++) {
		struct tep_event *ev = evs[i];
		/* An event already met in an earlier buffer keeps its loader type (one table);
		 * each buffer decodes with its own layout. */
		struct ld_type *t = h ? ld_type_find(D->L, ev->system ? ev->system : "", ev->name)
				      : NULL;
		struct dtype *dt = dtype_new(D, ev, t);

		D->types[h][ev->id] = dt;
	}
	return 0;
}

/* ---- prev_state decoding with the event's own print format ---- */

static const char *state_decode(void *ctx, struct ld_type *t, int64_t state)
{
	struct dat *D = ctx;
	struct dtype *dt = ld_type_priv(t);
	struct tep_format_field *f;
	struct tep_record rec;
	struct trace_seq s;
	unsigned char *data;
	const char *p, *e;
	char *out;
	int slot;

	if (!dt || !dt->ev)
		return NULL;
	for (int i = 0; i < dt->nst; i++)
		if (dt->st_val[i] == state)
			return dt->st_str[i];
	f = tep_find_field(dt->ev, "prev_state");
	if (!f)
		return NULL;
	/* A record with only common_type and prev_state set, printed by libtraceevent. */
	data = calloc(1, 4096);
	if (!data)
		return NULL;
	{
		struct tep_format_field *ct = tep_find_common_field(dt->ev, "common_type");
		unsigned short id = dt->ev->id;
		int64_t v = state;

		if (ct && ct->offset + 2 <= 4096)
			memcpy(data + ct->offset, &id, 2);
		if (f->offset + f->size <= 4096 && f->size <= 8)
			memcpy(data + f->offset, &v, f->size);	/* little-endian host and file */
	}
	memset(&rec, 0, sizeof(rec));
	rec.data = data;
	rec.size = 4096;
	trace_seq_init(&s);
	tep_print_event(dt->ev->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	p = strstr(s.buffer, "prev_state=");
	slot = dt->nst < 32 ? dt->nst++ : 31;
	out = dt->st_str[slot];
	dt->st_val[slot] = state;
	if (p) {
		p += strlen("prev_state=");
		e = strchr(p, ' ');
		snprintf(out, sizeof(dt->st_str[0]), "%.*s", (int)(e ? e - p : (long)strlen(p)), p);
	} else {
		out[0] = '\0';
	}
	trace_seq_destroy(&s);
	free(data);
	(void)D;
	return out[0] ? out : NULL;
}

/*
 * meta: prev_state is decoded with the file's own sched_switch format; which kernels' table it
 * holds shows in what it calls 64 (x, TASK_DEAD, before 4.14; P, parked, from 4.14 on).
 */
static void state_meta(struct dat *D)
{
	struct tep_event *ev = tep_find_event_by_name(D->tep, "sched", "sched_switch");
	struct dtype *dt = ev && ev->id < D->ntypes[0] ? D->types[0][ev->id] : NULL;
	const char *s64;

	if (!dt || !tep_find_field(ev, "prev_state"))
		return;
	s64 = state_decode(D, dt->t, 64);
	ld_meta(D->L, "sched.prev_state_numbering", "format");
	ld_meta(D->L, "sched.prev_state_numbering.reason", "the file's sched_switch format (64 is "
		"%s%s)", s64 ? s64 : "?", s64 && !strcmp(s64, "x") ? ": the table of kernels "
		"before 4.14" : s64 && !strcmp(s64, "P") ? ": the table of 4.14 on" : "");
}

/* ---- records ---- */

static void put_array(struct strbuf *sb, struct tep_handle *tep, const unsigned char *p, int len,
		      int elsize, int is_signed)
{
	strbuf_reset(sb);
	if (elsize != 1 && elsize != 2 && elsize != 4 && elsize != 8)
		elsize = 1;
	for (int i = 0; i + elsize <= len; i += elsize) {
		unsigned long long v = tep_read_number(tep, p + i, elsize);

		if (i)
			strbuf_addch(sb, ',');
		if (is_signed) {
			int shift = 64 - 8 * elsize;

			strbuf_addf(sb, "%lld", (long long)(v << shift) >> shift);
		} else {
			strbuf_addf(sb, "%llu", v);
		}
	}
}

/*
 * The text libtraceevent prints for a `const char *` field holding addr: the string of the
 * file's printk formats at that address, else the address in hex (as `trace-cmd report`).
 */
static void ptr_string(struct dat *D, struct tep_handle *tep, int size, uint64_t addr,
		       struct strbuf *out)
{
	struct ptrfmt *pf = NULL;
	struct tep_record rec;
	struct trace_seq s;
	unsigned char data[16] = { 0 };

	strbuf_reset(out);
	for (int i = 0; i < D->nptr; i++)
		if (D->ptr[i].tep == tep && D->ptr[i].size == size)
			pf = &D->ptr[i];
	if (!pf && D->nptr < (int)(sizeof(D->ptr) / sizeof(D->ptr[0]))) {
		struct strbuf fmt = STRBUF_INIT;
		int id = 65535 - D->nptr;

		strbuf_addf(&fmt, "name: trax_ptr_str_%d\nID: %d\nformat:\n"
			    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
			    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\t"
			    "signed:0;\n\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
			    "\tfield:const char * p;\toffset:8;\tsize:%d;\tsigned:0;\n\n"
			    "print fmt: \"%%s\", REC->p\n", id, id, size);
		pf = &D->ptr[D->nptr];
		pf->tep = tep;
		pf->size = size;
		if (tep_parse_event(tep, fmt.buf, fmt.len, "trax") == 0)
			pf->ev = tep_find_event(tep, id);
		D->nptr++;
		strbuf_release(&fmt);
	}
	if (!pf || !pf->ev) {
		strbuf_addf(out, "%llx", (unsigned long long)addr);
		return;
	}
	{
		unsigned short id = pf->ev->id;

		memcpy(data, &id, 2);
		memcpy(data + 8, &addr, size);	/* little-endian host and file */
	}
	memset(&rec, 0, sizeof(rec));
	rec.data = data;
	rec.size = sizeof(data);
	trace_seq_init(&s);
	tep_print_event(tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	strbuf_add(out, s.buffer, s.len);
	trace_seq_destroy(&s);
}

static void decode(struct dat *D, struct tep_handle *tep, struct dtype *dt,
		   struct tep_record *r)
{
	const unsigned char *data = r->data;
	int size = r->size;

	for (int i = 0; i < dt->nf; i++) {
		const struct dfield *f = &dt->f[i];
		struct ld_val *v = &D->vals[i];
		int off = f->offset, len = f->size;

		v->kind = LD_NULL;
		if (off < 0 || off + f->size > size)
			continue;
		if (f->is_dynamic) {
			unsigned int loc = tep_read_number(tep, data + off, f->size < 4 ? f->size : 4);

			len = loc >> 16;
			off = loc & 0xffff;
			if (f->is_relative)
				off += f->offset + f->size;
			if (off + len > size)
				continue;
		} else if (len == 0 && (f->is_string || f->is_array)) {
			/* a flexible array (print's `char buf[]`): the rest of the record */
			len = size - off;
		}
		if (f->is_ptrstr) {
			ptr_string(D, tep, f->size, tep_read_number(tep, data + off, f->size),
				   &D->strs[i]);
			v->kind = LD_STR;
			v->s = D->strs[i].buf;
			v->len = D->strs[i].len;
		} else if (f->is_string) {
			v->kind = LD_STR;
			v->s = (const char *)data + off;
			v->len = strnlen(v->s, len);
		} else if (f->is_array || f->is_dynamic) {
			put_array(&D->strs[i], tep, data + off, len, f->elsize, f->is_signed);
			v->kind = LD_STR;
			v->s = D->strs[i].buf;
			v->len = D->strs[i].len;
		} else if (len == 1 || len == 2 || len == 4 || len == 8) {
			unsigned long long x = tep_read_number(tep, data + off, len);

			if (f->is_signed && len < 8) {
				int shift = 64 - 8 * len;

				v->i = (int64_t)(x << shift) >> shift;
			} else {
				v->i = (int64_t)x;
			}
			v->kind = LD_I64;
		} else {
			put_array(&D->strs[i], tep, data + off, len, 1, 0);
			v->kind = LD_STR;
			v->s = D->strs[i].buf;
			v->len = D->strs[i].len;
		}
	}
}

/*
 * A record must lie in its ring-buffer page: a corrupt length would have the decoder read
 * past the page libtracecmd mapped.
 */
static int record_outside_page(unsigned long long psize, const struct tep_record *r)
{
	if (r->size < 0 || r->record_size < r->size)
		return 1;
	if (!psize || (psize & (psize - 1)))
		return 0;
	return (r->offset & (psize - 1)) + (unsigned long long)r->record_size > psize;
}

static int on_record(struct tracecmd_input *h, struct tep_record *r, int cpu, void *arg)
{
	struct dat *D = arg;
	struct tep_handle *tep = tracecmd_get_tep(h);
	int b = 0, id, pid, ret;
	struct dtype *dt;

	for (b = 0; b < D->nhandles; b++)
		if (D->handles[b] == h)
			break;
	if (b == D->nhandles)
		b = 0;
	cpu = r->cpu;
	D->last_off = r->offset;
	D->last_cpu = cpu;
	/* a buffer's own page size (sub-buffers) when libtraceevent knows it, else the file's */
	if (record_outside_page(D->page_size > (unsigned int)tep_get_page_size(tep) ?
				D->page_size : (unsigned int)tep_get_page_size(tep), r)) {
		D->err = trax_error_set(ld_error(D->L), TRAX_E_FORMAT,
					"%s: corrupt trace data: a record of %d bytes on CPU %d "
					"crosses its page", D->path, r->record_size, cpu);
		return 1;
	}
	ld_seen(D->L, b, cpu, r->ts);
	if (r->missed_events)
		ld_lost(D->L, r->ts, cpu, b, r->missed_events > 0 ? r->missed_events : -1);
	id = tep_data_type(tep, r);
	pid = tep_data_pid(tep, r);
	dt = id >= 0 && id < D->ntypes[b] ? D->types[b][id] : NULL;
	if (!dt) {
		struct strbuf sb = STRBUF_INIT;
		char name[32];

		snprintf(name, sizeof(name), "unknown_%d", id);
		put_array(&sb, tep, r->data, r->size, 1, 0);
		ret = ld_emit_raw(D->L, r->ts, cpu, pid, b, name, sb.buf, sb.len);
		strbuf_release(&sb);
		return ret ? (D->err = ret, 1) : 0;
	}
	if (!ld_type_loaded(dt->t))
		return 0;
	decode(D, tep, dt, r);
	if (dt->msg_field >= 0) {
		/* the message, formatted by the event's own format, replaces the raw buf */
		int bi = dt->msg_field;
		struct trace_seq s;

		trace_seq_init(&s);
		tep_print_event(tep, &s, r, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&s);
		strbuf_reset(&D->strs[bi]);
		strbuf_add(&D->strs[bi], s.buffer, s.len);
		D->vals[bi].kind = LD_STR;
		D->vals[bi].s = D->strs[bi].buf;
		D->vals[bi].len = D->strs[bi].len;
		trace_seq_destroy(&s);
	}
	ret = ld_emit(D->L, dt->t, r->ts, cpu, pid, b, tep_data_comm_from_pid(tep, pid), D->vals);
	if (ret) {
		D->err = ret;
		return 1;
	}
	return 0;
}

/* ---- metadata ---- */

/* cpustats text: "CPU: 0\nentries: 10\noverrun: 0\n..." per CPU. */
static void cpustats_meta(struct dat *D, const char *stats, int b)
{
	const char *p = stats;
	int cpu = -1;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		int len = nl ? nl - p : (int)strlen(p);
		char line[128], key[96];
		unsigned long long v;

		snprintf(line, sizeof(line), "%.*s", len, p);
		if (sscanf(line, "CPU: %d", &cpu) == 1) {
			/* next lines belong to this CPU */
		} else if (cpu >= 0 && sscanf(line, "overrun: %llu", &v) == 1) {
			snprintf(key, sizeof(key), "%scpu.%d.overrun", b ? "buffer.x." : "", cpu);
			if (b)
				snprintf(key, sizeof(key), "buffer.%d.cpu.%d.overrun", b, cpu);
			ld_meta(D->L, key, "%llu", v);
		} else if (cpu >= 0 && sscanf(line, "dropped events: %llu", &v) == 1) {
			if (b)
				snprintf(key, sizeof(key), "buffer.%d.cpu.%d.dropped_events", b, cpu);
			else
				snprintf(key, sizeof(key), "cpu.%d.dropped_events", cpu);
			ld_meta(D->L, key, "%llu", v);
		}
		p = nl ? nl + 1 : NULL;
	}
}

static void file_meta(struct dat *D, const struct dat_header *hdr)
{
	ld_meta(D->L, "dat.version", "%d", hdr->version);
	ld_meta(D->L, "dat.compression", "%s", hdr->compression[0] ? hdr->compression : "none");
#if TRAX_TRACECMD_ABI
	{
		const char *s;

		s = tracecmd_get_trace_clock(D->handles[0]);
		if (s) {
			/* "[local] global ..." lists clocks with the one in use in brackets */
			const char *o = strchr(s, '['), *c = o ? strchr(o, ']') : NULL;

			if (o && c)
				ld_meta(D->L, "trace_clock", "%.*s", (int)(c - o - 1), o + 1);
			else
				ld_meta(D->L, "trace_clock", "%s", s);
		}
		s = tracecmd_get_uname(D->top);
		if (s)
			ld_meta(D->L, "kernel", "%s", s);
		for (int b = 0; b < D->nhandles; b++) {
			s = tracecmd_get_cpustats(D->handles[b]);
			if (s)
				cpustats_meta(D, s, b);
		}
	}
#endif
	ld_meta(D->L, "cpus", "%d", tep_get_cpus(D->tep));
}

/*
 * The sanitizers' own interface (sanitizer/common_interface_defs.h): where their reports go.
 * Weak: in the plain build there is no sanitizer and the call is skipped.
 */
void __sanitizer_set_report_fd(void *fd) __attribute__((weak));

/* In the sanitizer build, reports go to fd even while stderr is muted. */
static void sanitizer_report_to(int fd)
{
	if (__sanitizer_set_report_fd && fd >= 0)
		__sanitizer_set_report_fd((void *)(intptr_t)fd);
}

/*
 * libtracecmd prints its own complaints (perror("mmap"), "Can not mmap file, will read
 * instead") on stderr while it opens a damaged file; trax's one-line error says what matters.
 * A sanitizer's report is not such a complaint: it still reaches the real stderr.
 */
static int mute_stderr(void)
{
	int saved, null;

	fflush(stderr);
	saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved >= 0 && null >= 0) {
		dup2(null, STDERR_FILENO);
		sanitizer_report_to(saved);
	}
	if (null >= 0)
		close(null);
	return saved;
}

static void unmute_stderr(int saved)
{
	if (saved < 0)
		return;
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	sanitizer_report_to(STDERR_FILENO);
	close(saved);
}

/*
 * libtracecmd 1.3 faults on some corrupt headers: when tracecmd_buffer_instance_handle()
 * cannot read an instance's headers, its error path closes a half-made handle (a bad
 * header_page format or a damaged compressed section is enough). A child process opens the
 * file first, as dat_read() does, while this process opens it too (the two run on two cores);
 * dat_read() waits for the child before it asks for instance handles. A child that dies
 * means a corrupt file, reported as one line and exit 2 instead of a crash. Exit 3:
 * libtracecmd refused the file, which the open in this process reports.
 *
 * The child execs this same program at once (argv[0] PROBE_ARGV0) and the probe runs from a
 * constructor, before main: a fork of a process whose other threads (the database writer, a
 * cache's prefetch) may hold a lock, the allocator's say, must not run anything but execve.
 * Its stderr (libtracecmd's own messages) goes nowhere, but for a sanitizer's report of a
 * memory error that does not fault (the sanitizer build), which goes to the stderr of trax; a
 * report ends the probe with a status other than 0 and 3, and the load with an error. A fault
 * kills the probe as in the plain build. Exit 4: it could not exec, and the open in
 * this process is the only check. dat_read() starts a probe only for a file whose sections
 * datlayout.c found sound: the probe catches what those checks do not know of.
 */
#define PROBE_ARGV0 "trax-dat-probe"
#define PROBE_TIMEOUT_MS 120000

static void probe_run(const char *path)
{
	struct tracecmd_input *h;
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	int real = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);

	if (null >= 0 && dup2(null, STDERR_FILENO) >= 0)
		sanitizer_report_to(real);
	/* a fault is what the probe is for (the parent says so in one line): the sanitizers'
	 * handlers, which would report it at length, give way to the default action */
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGILL, SIG_DFL);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h)
		_exit(3);
	for (int i = 0, n = tracecmd_buffer_instances(h); i < n; i++) {
		struct tracecmd_input *b = tracecmd_buffer_instance_handle(h, i);

		if (b)
			tracecmd_close(b);
	}
	tracecmd_close(h);
	_exit(0);
}

/* glibc passes main's arguments to constructors. */
__attribute__((constructor)) static void probe_main(int argc, char **argv, char **envp)
{
	(void)envp;
	if (argc == 2 && argv && argv[0] && !strcmp(argv[0], PROBE_ARGV0))
		probe_run(argv[1]);
}

static pid_t probe_start(const char *path)
{
	char *args[] = { PROBE_ARGV0, (char *)path, NULL };
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execv("/proc/self/exe", args);
		_exit(4);
	}
	return pid;		/* -1: cannot probe, the open in this process is the check */
}

/*
 * This process's own tracecmd_open(), which the child's cannot shield (they run at the same
 * time): a fault in it (libtraceevent on a damaged event format) jumps back here, and the
 * load ends with an error. Only this thread's faults: any other is left to kill the process.
 */
static sigjmp_buf open_jmp;
static pthread_t open_thread;
static volatile sig_atomic_t open_fault;

static void on_open_fault(int sig)
{
	if (!pthread_equal(pthread_self(), open_thread)) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	open_fault = sig;
	siglongjmp(open_jmp, 1);
}

/* Run fn(arg) with this thread's SIGSEGV and SIGBUS caught: fn's result, or -1 after a fault
 * (open_fault names the signal). */
static int guarded(int (*fn)(void *), void *arg)
{
	struct sigaction sa, old_segv, old_bus;
	volatile int ret = -1;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_open_fault;
	sigemptyset(&sa.sa_mask);
	open_thread = pthread_self();
	open_fault = 0;
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	if (!sigsetjmp(open_jmp, 1))
		ret = fn(arg);
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	return ret;
}

struct open_call {
	const char *path;
	struct tracecmd_input *h;
};

static int open_step(void *arg)
{
	struct open_call *o = arg;

	o->h = tracecmd_open(o->path, TRACECMD_FL_LOAD_NO_PLUGINS);
	return 0;
}

/* tracecmd_open() under the guard: NULL after a fault (what it had allocated stays: the load
 * ends here). */
static struct tracecmd_input *guarded_open(const char *path)
{
	struct open_call o = { path, NULL };

	return guarded(open_step, &o) ? NULL : o.h;
}

static int iterate_step(void *arg)
{
	struct dat *D = arg;

	return tracecmd_iterate_events_multi(D->handles, D->nhandles, on_record, D);
}

/*
 * The same guard around the iteration: libtraceevent's kbuffer trusts the page headers of
 * the CPU data (a few bytes inserted into the file are enough to have it read outside its
 * page). A fault ends the load with the file and where it was reading; what the library
 * had allocated stays (the process is about to exit with the error).
 */
static int guarded_iterate(struct dat *D)
{
	int ret = guarded(iterate_step, D);

	if (open_fault) {
		if (D->last_cpu < 0)
			return trax_error_set(ld_error(D->L), TRAX_E_FORMAT,
					      "%s: corrupt trace data: libtraceevent faults (%s) "
					      "reading the first ring-buffer page", D->path,
					      strsignal(open_fault));
		return trax_error_set(ld_error(D->L), TRAX_E_FORMAT,
				      "%s: corrupt trace data: libtraceevent faults (%s) reading "
				      "the ring-buffer pages after byte %llu (CPU %d's last good "
				      "record)", D->path, strsignal(open_fault), D->last_off,
				      D->last_cpu);
	}
	return ret;
}

static int probe_finish(pid_t pid, const char *path, struct trax_error *err)
{
	int st;

	if (pid < 0)
		return 0;
	/* bounded: a probe that never ends is a file libtracecmd cannot finish reading */
	for (int waited = 0;; waited++) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return 0;
		if (waited >= PROBE_TIMEOUT_MS / 5) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			return trax_error_set(err, TRAX_E_FORMAT,
					      "%s: corrupt trace.dat (libtracecmd did not finish "
					      "reading its headers in %d s)", path,
					      PROBE_TIMEOUT_MS / 1000);
		}
		usleep(5000);
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 4)	/* could not exec: no probe */
		return 0;
	if (WIFSIGNALED(st))
		return trax_error_set(err, TRAX_E_FORMAT,
				      "%s: corrupt trace.dat (libtracecmd faults reading its "
				      "headers: %s)", path, strsignal(WTERMSIG(st)));
	if (WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 3)	/* a sanitizer's report */
		return trax_error_set(err, TRAX_E_FORMAT,
				      "%s: corrupt trace.dat (libtracecmd faults reading its "
				      "headers)", path);
	return 0;
}

/* ---- the reader ---- */

/* Whether a buffer holds any record (an instance capture leaves the top buffer empty). */
static int buffer_has_data(struct tracecmd_input *h)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	int cpus = tep ? tep_get_cpus(tep) : 0, found = 0;

#if TRAX_TRACECMD_ABI
	for (int c = 0; c < cpus && !found; c++) {
		struct tep_record *r = tracecmd_read_cpu_first(h, c);

		if (r) {
			tracecmd_free_record(r);
			found = 1;
		}
	}
	/* reading consumed records: rewind every CPU to the start */
	tracecmd_set_all_cpus_to_timestamp(h, 0);
#else
	found = cpus > 0;	/* without the rewind, a buffer with CPUs counts as holding data */
#endif
	return found;
}

int dat_read(struct loader *L, const char *path, struct trax_error *err)
{
	struct dat D = { .L = L, .path = path };
	struct dat_header hdr;
	struct tracecmd_input **all = NULL;
	char **names = NULL;
	int nall = 0, ret, ncpus = 0, saved, bad = 0;
	pid_t probe;

	ret = read_header(path, &hdr, err);
	if (ret)
		return ret;
	D.page_size = hdr.page_size;
	if (hdr.compression[0] && strcmp(hdr.compression, "none") &&
	    strcmp(hdr.compression, "zstd"))
		return trax_error_set(err, TRAX_E_UNSUPPORTED,
				      "%s: unsupported compression '%s' (this libtracecmd reads "
				      "zstd only)", path, hdr.compression);
	/* libtracecmd maps CPU data without checking it against the file's size */
	ret = dat_check_layout(path, err);
	if (ret)
		return ret;
	probe = probe_start(path);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	saved = mute_stderr();
	D.top = guarded_open(path);
	ret = probe_finish(probe, path, err);
	if (!ret && open_fault)
		ret = trax_error_set(err, TRAX_E_FORMAT, "%s: corrupt trace.dat (libtracecmd "
				     "faults reading its headers: %s)", path, strsignal(open_fault));
	if (!D.top || ret) {
		unmute_stderr(saved);
		if (D.top)
			tracecmd_close(D.top);
		return ret ? ret : trax_error_set(err, TRAX_E_FORMAT,
						  "%s: corrupt or truncated trace.dat (libtracecmd "
						  "cannot open it)", path);
	}

	/* The top-level buffer and each instance buffer; keep those holding records. */
	nall = 1 + tracecmd_buffer_instances(D.top);
	all = xcalloc(nall, sizeof(*all));
	names = xcalloc(nall, sizeof(*names));
	D.handles = xcalloc(nall, sizeof(*D.handles));
	all[0] = D.top;
	names[0] = "";
	for (int i = 1; i < nall; i++) {
		all[i] = tracecmd_buffer_instance_handle(D.top, i - 1);
		names[i] = (char *)tracecmd_buffer_instance_name(D.top, i - 1);
		if (!all[i] && !bad)
			bad = i;
	}
	unmute_stderr(saved);
	if (bad) {
		ret = trax_error_set(err, TRAX_E_FORMAT,
				     "%s: corrupt trace.dat: libtracecmd cannot read buffer '%s'",
				     path, names[bad] ? names[bad] : "?");
		for (int i = 1; i < nall; i++)
			if (all[i])
				tracecmd_close(all[i]);
		tracecmd_close(D.top);
		free(all);
		free(names);
		free(D.handles);
		return ret;
	}
	for (int i = 0; i < nall; i++)
		if (all[i] && buffer_has_data(all[i]))
			D.handles[D.nhandles++] = all[i];
	if (!D.nhandles)
		D.handles[D.nhandles++] = D.top;	/* an empty trace: still its formats */
	D.tep = tracecmd_get_tep(D.handles[0]);
	for (int b = 0; b < D.nhandles; b++) {
		int c = tep_get_cpus(tracecmd_get_tep(D.handles[b]));

		if (c > ncpus)
			ncpus = c;
	}
	ld_set_cpus(L, D.nhandles, ncpus);
	for (int b = 0; b < D.nhandles; b++)
		for (int i = 0; i < nall; i++)
			if (all[i] == D.handles[b])
				ld_set_buffer_name(L, b, names[i] ? names[i] : "");
	D.types = xcalloc(D.nhandles, sizeof(*D.types));
	D.ntypes = xcalloc(D.nhandles, sizeof(*D.ntypes));
	for (int b = 0; b < D.nhandles; b++)
		register_types(&D, b);
	ld_set_state_decoder(L, state_decode, &D);
	state_meta(&D);
	file_meta(&D, &hdr);

	D.last_cpu = -1;
	ret = guarded_iterate(&D);
	if (open_fault)
		;	/* guarded_iterate() said where */
	else if (D.err)
		ret = D.err;
	else if (ret < 0)
		ret = trax_error_set(err, TRAX_E_FORMAT, "%s: corrupt trace data", path);
	else
		ret = 0;

	ld_set_state_decoder(L, NULL, NULL);
	for (int b = 0; b < D.nhandles; b++) {
		for (int k = 0; k < D.ntypes[b]; k++) {
			if (D.types[b][k]) {
				free(D.types[b][k]->f);
				if (ld_type_priv(D.types[b][k]->t) == D.types[b][k])
					ld_type_set_priv(D.types[b][k]->t, NULL);
				free(D.types[b][k]);
			}
		}
		free(D.types[b]);
	}
	free(D.types);
	free(D.ntypes);
	if (open_fault) {
		/* the library's state is unknown after a fault: none of it is touched, and
		 * it stays reachable (the process exits with the error; a process that loads
		 * again, such as the fuzz targets, keeps every one) */
		static struct tracecmd_input ***kept;
		static int nkept, capkept;

		TRAX_GROW(kept, nkept + 1, capkept, 8);
		kept[nkept++] = all;
		kept[nkept++] = D.handles;
		all = NULL;
		D.handles = NULL;
	} else {
		for (int i = 1; i < nall; i++)
			if (all[i])
				tracecmd_close(all[i]);
		tracecmd_close(D.top);
	}
	for (int i = 0; i < D.nstrs; i++)
		strbuf_release(&D.strs[i]);
	free(D.strs);
	free(D.vals);
	strbuf_release(&D.arr);
	free(D.handles);
	free(all);
	free(names);
	return ret;
}
