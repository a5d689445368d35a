/* parse/perfetto.c: Perfetto protobuf traces (plain, gzip'd or with compressed_packets): the ftrace
 * events of their bundles. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/inflate.h"
#include "parse/load.h"
#include "parse/pbwire.h"
#include "parse/perfetto-fields.h"
#include "parse/perfetto-generic.h"
#include "parse/pfinfo.h"
#include "parse/pftrack.h"
#include "parse/sink.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * A Perfetto trace is a Trace message: a run of TracePacket fields (parse/perfetto-fields.h).
 * The file is mapped and walked in place with parse/pbwire.h; nothing of it is copied.
 *
 * ftrace data comes in FtraceEventBundle packets, each one CPU's events in time order, from
 * one or several packet sequences (one per ftrace data source), interleaved in the file in
 * roughly, not exactly, time order (a sequence's packets may even come all before another's).
 * The sink wants trace order, so the reader makes two passes. The first checks the whole
 * file's framing and sorts the bundles with events into runs: the bundles of one CPU and
 * sequence, in file order, whose events are in time order (a bundle that starts before the
 * run's latest event starts a new run), each bundle kept as two varints, its distance from
 * the run's previous bundle and its length (a few bytes a bundle). The second merges the runs'
 * events into time order, a heap holding each run's next event. Anonymous memory is those
 * lists and a few hundred bytes a run (runs: about one per CPU and sequence); the mapping is
 * file-backed.
 *
 * Events of the table in perfetto-fields.h become rows of their kernel format's table (the
 * schema's field names are the kernel's), generic events rows of the table of their name
 * (parse/perfetto-generic.c); other ftrace events go to raw_event, their fields written as
 * number=value. Lost events: a bundle's lost_events flag is a lost_event row (count
 * unknown) before its first event, on its CPU (an empty bundle's, before that CPU's next
 * event); previous_packet_dropped on a sequence already seen (on the first packet of a
 * sequence it only says that nothing came before) is a loss on every CPU when the sequence
 * carries ftrace data, since the dropped packets may have been any CPU's. Every packet kind
 * the reader does not use is counted in meta (perfetto.packets.unused.KIND), and so are
 * compact_sched bundles, unknown events and fields.
 *
 * Compression, in two forms that may come together. A gzip'd file (`gzip trace`: detected by
 * its magic) is gunzipped into an unlinked temporary file (parse/inflate.h) that is then the
 * file, mapped. compressed_packets (a trace config's compression_type DEFLATE) are packets
 * whose one field is a zlib stream of a Trace's packets, read as if they stood in the file
 * in its place: before pass 1, unpack() inflates them all, in file order, into one more
 * temporary file, mapped right after the file's pages, so that one mapping holds both and a
 * bundle is an offset in it whichever it is in. Errors say offsets in that space; at the end,
 * locate_error() says them in the user's terms (the offset in the packets inflated from the
 * compressed_packets at a file offset; of the gunzipped data).
 */

#define PF_MAX_CPUS 8192
#define PF_KIND_DIRECT 2048	/* packet field numbers counted in a flat table */

enum pf_type { PF_T_STR, PF_T_I32, PF_T_I64, PF_T_U32, PF_T_U64 };

struct pf_fdef {
	uint32_t num;
	const char *name;
	enum pf_type type;
};

struct pf_evdef {
	uint32_t num;
	const char *system, *name;
	const struct pf_fdef *f;
	int nf;
};

#define PF_F(num, name, type) { num, name, PF_T_##type },
#define PF_EVENT(id, num, system, name, fields) \
	static const struct pf_fdef pf_fields_##id[] = { fields };
#include "parse/perfetto-fields.h"

#define PF_F(num, name, type)
#define PF_EVENT(id, num, system, name, fields) \
	{ num, system, name, pf_fields_##id, sizeof(pf_fields_##id) / sizeof(pf_fields_##id[0]) },
static const struct pf_evdef pf_events[] = {
#include "parse/perfetto-fields.h"
};
#define PF_NEVENTS (int)(sizeof(pf_events) / sizeof(pf_events[0]))
#define PF_MAX_FIELDS 16
#define PF_EV_DIRECT 1024	/* FtraceEvent field numbers looked up in a flat table */

static const struct {
	uint32_t num;
	const char *name;
} pf_kinds[] = {
#define PF_PACKET_KIND(name, number) { number, #name },
	PF_PACKET_KINDS
#undef PF_PACKET_KIND
};

/*
 * A bundle holds up to three streams of events, each in time order but not in time order with
 * the others: its events, and its compact_sched's sched_switch and sched_waking columns.
 */
/* the streams of a bundle; and track events (a packet each, parse/pftrack.c) */
enum pf_stream { PF_S_EVENTS, PF_S_SWITCH, PF_S_WAKING, PF_S_COUNT, PF_S_TRACK = PF_S_COUNT };

/*
 * compact_sched: per stream, packed columns of one value per event; the timestamps are deltas
 * (the first absolute), comms indexes into the bundle's intern table. Column 0 is the
 * timestamp; a column absent from a bundle gives no value (NULL).
 */
#define CS_NCOLS 6
enum { CS_TS, CS_SW_PREV_STATE, CS_SW_NEXT_PID, CS_SW_NEXT_PRIO, CS_SW_COMM };
enum { CS_WK_PID = 1, CS_WK_TARGET_CPU, CS_WK_PRIO, CS_WK_COMM, CS_WK_FLAGS };
static const uint32_t cs_fields[2][CS_NCOLS] = {
	{ PF_CS_SWITCH_TIMESTAMP, PF_CS_SWITCH_PREV_STATE, PF_CS_SWITCH_NEXT_PID,
	  PF_CS_SWITCH_NEXT_PRIO, PF_CS_SWITCH_NEXT_COMM_INDEX, 0 },
	{ PF_CS_WAKING_TIMESTAMP, PF_CS_WAKING_PID, PF_CS_WAKING_TARGET_CPU, PF_CS_WAKING_PRIO,
	  PF_CS_WAKING_COMM_INDEX, PF_CS_WAKING_COMMON_FLAGS },
};
static const char *const cs_names[2] = { "a compact_sched sched_switch",
					 "a compact_sched sched_waking" };

struct pf_cols {
	struct pb_cursor c[CS_NCOLS];
	uint8_t present[CS_NCOLS];
	uint64_t ts;		/* the running sum of the timestamp deltas */
	uint64_t v[CS_NCOLS];	/* the current event's values */
};

/* A bundle's intern table (pass 2: its strings, in the mapping). */
struct pf_intern {
	const uint8_t **s;
	uint32_t *len;
	uint32_t n, cap;
};

/*
 * A run: bundles of one CPU, sequence and stream whose events are in time order, in file
 * order. Pass 1 lists them; pass 2 walks the list, one bundle and one event at a time.
 */
struct pf_run {
	uint32_t seq;
	int cpu;
	enum pf_stream kind;
	uint64_t last_ts;	/* pass 1: its latest event */
	uint64_t end;		/* where its last bundle (pass 2: the current one) ends */
	uint8_t *list;		/* per bundle: varint (offset - end), varint (length << 1 | lost) */
	size_t nlist, listcap;
	struct pb_cursor lc;	/* pass 2: the list */
	struct pb_cursor bc;	/* the bundle, past the event below */
	struct pb_cursor ec;	/* the event */
	struct pb_field body;	/* the event's oneof field (body.num 0: none) */
	uint64_t ts;
	int pid;
	int first;		/* the event is its bundle's first */
	int lost;		/* events were lost before the bundle */
	struct pf_cols cols;	/* compact streams: the bundle's columns */
	struct pf_intern in;
	struct pftrack_event te;	/* track streams: the next event */
};

/* The run that bundles of a CPU, sequence and stream join. */
struct pf_key {
	uint32_t seq;
	int cpu, run;
	enum pf_stream kind;
};

/* The task a CPU runs, as the last sched_switch on it said: compact_sched leaves the task
 * switched out and the waker to be inferred from it. */
struct pf_cur {
	int known, pid, prio, len;
	const char *comm;	/* in the mapping */
	int nlost;		/* places the CPU's bundles mark a loss (the trailing one included) */
	int seen;		/* an event of the CPU was emitted */
	int64_t stats_lost;	/* events ftrace_stats says the CPU lost; -1 unknown */
};

struct pf_seq {
	uint32_t id;
	int ftrace;		/* it carried ftrace bundles */
	uint32_t gen;		/* generation of its incremental state (interned data) */
};

struct pf_count {
	uint32_t num;
	uint64_t n;
};

/* A compressed_packets: its field's offset, and where its packets are in the mapping. */
struct pf_blob {
	uint64_t outer, off, len;
};

/* What one compressed_packets may inflate to (Perfetto writes them under 512 KiB): a bound on
 * the work a crafted few bytes can ask for (a zlib stream inflates 1000 times at most). */
#define PF_BLOB_MAX (64ULL << 20)

struct pf {
	struct loader *L;
	const char *path;
	const uint8_t *map;
	size_t size;		/* the file's, or its gunzipped data's (the mapping's first part) */
	size_t maplen;		/* the mapping's: size, or the file's pages and the blobs */
	int fd;			/* until unpack(): what map maps */
	uint64_t gz_size;	/* a gzip'd file: its size */
	struct pf_blob *blobs;	/* compressed_packets, in file order */
	int nblobs, blobcap, next_blob, in_blob;
	uint64_t blob_base, blob_bytes;	/* where the first blob is mapped; their total size */

	struct pf_run *runs;
	int nruns, runcap;
	struct pf_key *keys;
	int nkeys, keycap, last_key;
	struct pf_seq *seqs;
	int nseqs, seqcap, last_seq;
	uint8_t *pend_lost;	/* per CPU: a loss waits for the CPU's next bundle */
	struct pf_cur *cur;	/* per CPU */
	struct pfinfo *info;	/* process data, system_info, stats, clocks (parse/pfinfo.c) */
	struct pftrack *track;	/* track events (parse/pftrack.c) */
	int ncpus, pend_cap;
	int clock, clock_mixed, clock_set;

	uint64_t packets, kinds[PF_KIND_DIRECT];
	struct pf_count *kinds_far, *unknown_ev;
	int nkinds_far, kfcap, nunknown_ev, uecap;
	uint64_t kinds_other, unknown_other;	/* beyond PF_COUNT_MAX distinct numbers */
	uint64_t bundles, events, empty_bundles, lost_bundles, compact_bundles, dropped;
	uint64_t compact_events[2], compact_unknown_prev;
	int ev_switch, ev_waking;	/* pf_events rows of sched_switch and sched_waking */
	uint64_t unknown_fields, unsorted, empty_packets, trace_unknown, last_ts;
	uint64_t ev_count[PF_NEVENTS];

	int16_t ev_index[PF_EV_DIRECT];	/* FtraceEvent field number -> pf_events row, or -1 */
	int8_t slot[PF_NEVENTS][PF_MAX_FIELDS];	/* event field number -> its slot, or -1 */
	struct ld_type *types[PF_NEVENTS];
	struct ld_val vals[PF_MAX_FIELDS];

	uint64_t generic;	/* GenericFtraceEvents (pass 1) */
	struct pf_generic *gen;	/* pass 2: their tables (parse/perfetto-generic.h) */

	int *heap;		/* pass 2: runs by their next event */
	int nheap;
	struct strbuf raw;
};

static const char *kind_name(uint32_t num)
{
	for (size_t i = 0; i < sizeof(pf_kinds) / sizeof(pf_kinds[0]); i++)
		if (pf_kinds[i].num == num)
			return pf_kinds[i].name;
	return NULL;
}

static int is_header_field(uint32_t num)
{
	switch (num) {
	case PF_PACKET_TIMESTAMP:
	case PF_PACKET_TIMESTAMP_CLOCK_ID:
	case PF_PACKET_TRUSTED_UID:
	case PF_PACKET_TRUSTED_SEQUENCE_ID:
	case PF_PACKET_TRUSTED_PID:
	case PF_PACKET_SEQUENCE_FLAGS:
	case PF_PACKET_INCREMENTAL_STATE_CLEARED:
	case PF_PACKET_PREVIOUS_PACKET_DROPPED:
	case PF_PACKET_FIRST_PACKET_ON_SEQUENCE:
	case PF_PACKET_MACHINE_ID:
		return 1;
	}
	return 0;
}

/* Distinct numbers counted one by one; the rest of a crafted file's are counted together (each
 * becomes a meta row, and a file of distinct numbers would cost time in their square). */
#define PF_COUNT_MAX 64

static void count_add(struct pf_count **v, int *n, int *cap, uint64_t *other, uint32_t num)
{
	for (int i = 0; i < *n; i++) {
		if ((*v)[i].num == num) {
			(*v)[i].n++;
			return;
		}
	}
	if (*n >= PF_COUNT_MAX) {
		(*other)++;
		return;
	}
	TRAX_GROW(*v, *n, *cap, 8);
	(*v)[*n].num = num;
	(*v)[*n].n = 1;
	(*n)++;
}

/* A pbwire error of cursor c, in a message naming the file, where, and what was being read. */
static int pb_fail(struct pf *R, const struct pb_cursor *c, const char *what)
{
	const char *kind = c->err == PB_E_TRUNCATED || c->err == PB_E_LENGTH ?
		"truncated or corrupt" : "corrupt";

	return trax_error_set(ld_error(R->L), TRAX_E_FORMAT,
			      "%s: %s Perfetto trace at byte offset %llu (%s): %s", R->path, kind,
			      (unsigned long long)c->err_off, what, pb_strerror(c->err));
}

/* A field with the wrong wire type. */
static int expect_fail(struct pf *R, struct pb_cursor *c, const struct pb_field *f,
		       enum pb_wire w, const char *what)
{
	pb_expect(c, f, w);
	return trax_error_set(ld_error(R->L), TRAX_E_FORMAT,
			      "%s: corrupt Perfetto trace at byte offset %llu (%s, field %u): wire "
			      "type %d, the schema's is %d", R->path, (unsigned long long)f->off,
			      what, f->num, f->wire, w);
}

static inline int expect(struct pf *R, struct pb_cursor *c, const struct pb_field *f,
			 enum pb_wire w, const char *what)
{
	return f->wire == w ? 0 : expect_fail(R, c, f, w, what);
}

static struct pf_seq *seq_get(struct pf *R, uint32_t id, int *is_new)
{
	*is_new = 0;
	if (R->last_seq >= 0 && R->seqs[R->last_seq].id == id)
		return &R->seqs[R->last_seq];
	for (int i = 0; i < R->nseqs; i++) {
		if (R->seqs[i].id == id) {
			R->last_seq = i;
			return &R->seqs[i];
		}
	}
	TRAX_GROW(R->seqs, R->nseqs, R->seqcap, 16);
	R->seqs[R->nseqs].id = id;
	R->seqs[R->nseqs].ftrace = 0;
	R->seqs[R->nseqs].gen = 0;
	R->last_seq = R->nseqs++;
	*is_new = 1;
	return &R->seqs[R->last_seq];
}

static void cpus_grow(struct pf *R, int cpu)
{
	if (cpu < R->ncpus)
		return;
	if (cpu >= R->pend_cap) {
		int cap = R->pend_cap ? R->pend_cap : 16;

		while (cap <= cpu)
			cap *= 2;
		R->pend_lost = trax_realloc_array(R->pend_lost, cap, 1);
		memset(R->pend_lost + R->pend_cap, 0, cap - R->pend_cap);
		R->cur = trax_realloc_array(R->cur, cap, sizeof(*R->cur));
		memset(R->cur + R->pend_cap, 0, (size_t)(cap - R->pend_cap) * sizeof(*R->cur));
		R->pend_cap = cap;
	}
	R->ncpus = cpu + 1;
}

/*
 * An FtraceEvent's fields: its timestamp, pid and event body (body->num 0 when it has none).
 * 0 or a negative error.
 */
static int event_fields(struct pf *R, struct pb_cursor *ec, uint64_t *ts, int *pid,
			struct pb_field *body, uint64_t *unknown)
{
	struct pb_field f;
	int r;

	*ts = 0;
	*pid = 0;
	body->num = 0;
	while ((r = pb_next(ec, &f)) > 0) {
		switch (f.num) {
		case PF_EVENT_TIMESTAMP:
			if (expect(R, ec, &f, PB_VARINT, "an ftrace event's timestamp"))
				return -TRAX_E_FORMAT;
			*ts = f.val;
			break;
		case PF_EVENT_PID:
			if (expect(R, ec, &f, PB_VARINT, "an ftrace event's pid"))
				return -TRAX_E_FORMAT;
			*pid = (int)(uint32_t)f.val;
			break;
		case PF_EVENT_COMMON_FLAGS:
			break;
		default:
			/* the oneof event: every member is a message */
			if (f.wire == PB_LEN && !body->num)
				*body = f;
			else if (unknown)
				(*unknown)++;
			break;
		}
	}
	return r < 0 ? pb_fail(R, ec, "an ftrace event") : 0;
}

/* ---- compact_sched ---- */

/*
 * A bundle's compact_sched message f: the columns of both streams into cols[0] (sched_switch)
 * and cols[1] (sched_waking), the intern table into *in (NULL: only counted, into *nintern).
 * A column is a packed field, written once; 0 or a negative error.
 */
static int compact_parse(struct pf *R, const struct pb_cursor *bc, const struct pb_field *cf,
			 struct pf_cols cols[2], struct pf_intern *in, uint32_t *nintern)
{
	struct pb_cursor c;
	struct pb_field f;
	int r;

	memset(cols, 0, 2 * sizeof(*cols));
	*nintern = 0;
	if (in)
		in->n = 0;
	pb_sub(bc, cf, &c);
	while ((r = pb_next(&c, &f)) > 0) {
		int st = -1, col = -1;

		if (f.num == PF_CS_INTERN_TABLE) {
			if (expect(R, &c, &f, PB_LEN, "a compact_sched intern_table string"))
				return -TRAX_E_FORMAT;
			if (in) {
				if (in->n == in->cap) {
					in->cap = in->cap ? 2 * in->cap : 64;
					in->s = trax_realloc_array(in->s, in->cap, sizeof(*in->s));
					in->len = trax_realloc_array(in->len, in->cap,
								     sizeof(*in->len));
				}
				in->s[in->n] = f.data;
				in->len[in->n++] = f.len > 4096 ? 4096 : (uint32_t)f.len;
			}
			(*nintern)++;
			continue;
		}
		for (int k = 0; k < 2 && st < 0; k++)
			for (int i = 0; i < CS_NCOLS; i++)
				if (cs_fields[k][i] && cs_fields[k][i] == f.num) {
					st = k;
					col = i;
					break;
				}
		if (st < 0) {
			R->unknown_fields++;
			continue;
		}
		if (expect(R, &c, &f, PB_LEN, "a compact_sched column (packed)"))
			return -TRAX_E_FORMAT;
		if (cols[st].present[col])
			return trax_error_set(ld_error(R->L), TRAX_E_FORMAT, "%s: corrupt Perfetto "
					      "trace at byte offset %llu (%s): column %u written "
					      "twice", R->path, (unsigned long long)f.off,
					      cs_names[st], f.num);
		pb_sub(&c, &f, &cols[st].c[col]);
		cols[st].present[col] = 1;
	}
	return r < 0 ? pb_fail(R, &c, "a compact_sched") : 0;
}

/* The next event of a stream's columns into cols->v and cols->ts: 1, 0 at their end, or a
 * negative error. */
static int compact_read(struct pf *R, struct pf_cols *cols, int st)
{
	uint64_t delta;

	if (!cols->present[CS_TS] || pb_at_end(&cols->c[CS_TS]))
		return 0;
	if (pb_read_varint(&cols->c[CS_TS], &delta))
		return pb_fail(R, &cols->c[CS_TS], cs_names[st]);
	cols->ts += delta;
	for (int i = 1; i < CS_NCOLS; i++) {
		if (!cols->present[i])
			continue;
		if (pb_at_end(&cols->c[i]))
			return trax_error_set(ld_error(R->L), TRAX_E_FORMAT, "%s: corrupt Perfetto "
					      "trace at byte offset %llu (%s): column %u has fewer "
					      "values than its timestamps", R->path,
					      (unsigned long long)pb_offset(&cols->c[i]),
					      cs_names[st], cs_fields[st][i]);
		if (pb_read_varint(&cols->c[i], &cols->v[i]))
			return pb_fail(R, &cols->c[i], cs_names[st]);
	}
	return 1;
}

/* The number of varints of a packed column (pass 1), or a negative error. */
static int64_t column_count(struct pf *R, struct pb_cursor c, int st)
{
	int64_t n = 0;
	uint64_t v;

	while (!pb_at_end(&c)) {
		if (pb_read_varint(&c, &v))
			return pb_fail(R, &c, cs_names[st]);
		n++;
	}
	return n;
}

/*
 * Pass 1: a compact_sched's framing, column lengths and comm indexes, its event counts, and
 * each stream's first and last timestamps (n[st] 0: the stream is empty).
 */
static int compact_index(struct pf *R, const struct pb_cursor *bc, const struct pb_field *cf,
			 uint64_t n[2], uint64_t first[2], uint64_t last[2])
{
	struct pf_cols cols[2];
	uint32_t nintern;
	int r;

	if ((r = compact_parse(R, bc, cf, cols, NULL, &nintern)) < 0)
		return r;
	for (int st = 0; st < 2; st++) {
		struct pf_cols *c = &cols[st];
		int comm = st ? CS_WK_COMM : CS_SW_COMM;
		int64_t nts = c->present[CS_TS] ? column_count(R, c->c[CS_TS], st) : 0, k;

		if (nts < 0)
			return (int)nts;
		for (int i = 1; i < CS_NCOLS; i++) {
			if (!c->present[i])
				continue;
			if ((k = column_count(R, c->c[i], st)) < 0)
				return (int)k;
			if (k != nts)
				return trax_error_set(ld_error(R->L), TRAX_E_FORMAT, "%s: corrupt "
						      "Perfetto trace at byte offset %llu (%s): "
						      "column %u has %lld values, its timestamps %lld",
						      R->path, (unsigned long long)c->c[i].base_off,
						      cs_names[st], cs_fields[st][i], (long long)k,
						      (long long)nts);
		}
		if (nts && !c->present[st ? CS_WK_PID : CS_SW_NEXT_PID])
			return trax_error_set(ld_error(R->L), TRAX_E_FORMAT, "%s: corrupt "
					      "Perfetto trace at byte offset %llu (%s): timestamps "
					      "without pids", R->path, (unsigned long long)cf->off,
					      cs_names[st]);
		n[st] = (uint64_t)nts;
		for (int64_t e = 0; (r = compact_read(R, c, st)) > 0; e++) {
			if (!e)
				first[st] = c->ts;
			if (c->present[comm] && c->v[comm] >= nintern)
				return trax_error_set(ld_error(R->L), TRAX_E_FORMAT, "%s: corrupt "
						      "Perfetto trace at byte offset %llu (%s): comm "
						      "index %llu of an intern table of %u",
						      R->path, (unsigned long long)cf->off,
						      cs_names[st], (unsigned long long)c->v[comm],
						      nintern);
			last[st] = c->ts;
		}
		if (r < 0)
			return r;
	}
	return 0;
}

/* ---- pass 1: framing, counts and the runs ---- */

static void list_varint(struct pf_run *u, uint64_t v)
{
	TRAX_GROW(u->list, u->nlist + 10, u->listcap, 64);
	do {
		u->list[u->nlist++] = (uint8_t)(v & 0x7f) | (v > 0x7f ? 0x80 : 0);
		v >>= 7;
	} while (v);
}

/* A bundle with events (first and last the earliest and latest) into its run. */
static void run_add(struct pf *R, uint32_t seq, int cpu, enum pf_stream kind, uint64_t first,
		    uint64_t last, uint64_t off, size_t len, int lost)
{
	struct pf_key *k = NULL, *lk = R->last_key >= 0 ? &R->keys[R->last_key] : NULL;
	struct pf_run *u;

	if (lk && lk->seq == seq && lk->cpu == cpu && lk->kind == kind)
		k = lk;
	for (int i = 0; !k && i < R->nkeys; i++)
		if (R->keys[i].seq == seq && R->keys[i].cpu == cpu && R->keys[i].kind == kind)
			k = &R->keys[i];
	if (!k) {
		TRAX_GROW(R->keys, R->nkeys, R->keycap, 16);
		k = &R->keys[R->nkeys++];
		k->seq = seq;
		k->cpu = cpu;
		k->kind = kind;
		k->run = -1;
	}
	R->last_key = (int)(k - R->keys);
	if (k->run < 0 || first < R->runs[k->run].last_ts) {
		TRAX_GROW(R->runs, R->nruns, R->runcap, 16);
		memset(&R->runs[R->nruns], 0, sizeof(R->runs[0]));
		R->runs[R->nruns].seq = seq;
		R->runs[R->nruns].cpu = cpu;
		R->runs[R->nruns].kind = kind;
		k->run = R->nruns++;
	}
	u = &R->runs[k->run];
	list_varint(u, off - u->end);
	list_varint(u, (uint64_t)len << 1 | !!lost);
	u->end = off + len;
	u->last_ts = last;
	if (lost)
		R->cur[cpu].nlost++;
}

static int index_bundle(struct pf *R, struct pb_cursor *pc, const struct pb_field *bf,
			uint32_t seq_id, int dropped)
{
	struct pb_cursor bc, ec;
	struct pb_field f, body;
	uint64_t cpu = 0, prev = 0, ts, nev = 0;
	/* per stream: events, the earliest and latest */
	uint64_t n[PF_S_COUNT] = { 0 }, first[PF_S_COUNT] = { 0 }, last[PF_S_COUNT] = { 0 };
	int lost = 0, pid, r, is_new, compact = 0, earliest = -1;

	R->bundles++;
	seq_get(R, seq_id, &is_new)->ftrace = 1;
	pb_sub(pc, bf, &bc);
	while ((r = pb_next(&bc, &f)) > 0) {
		switch (f.num) {
		case PF_BUNDLE_CPU:
			if (expect(R, &bc, &f, PB_VARINT, "an ftrace bundle's cpu"))
				return -TRAX_E_FORMAT;
			cpu = f.val;
			break;
		case PF_BUNDLE_LOST_EVENTS:
			if (expect(R, &bc, &f, PB_VARINT, "an ftrace bundle's lost_events"))
				return -TRAX_E_FORMAT;
			lost = f.val != 0;
			break;
		case PF_BUNDLE_FTRACE_CLOCK:
			if (expect(R, &bc, &f, PB_VARINT, "an ftrace bundle's ftrace_clock"))
				return -TRAX_E_FORMAT;
			if (R->clock_set && R->clock != (int)f.val)
				R->clock_mixed = 1;
			R->clock = (int)f.val;
			R->clock_set = 1;
			break;
		case PF_BUNDLE_COMPACT_SCHED:
			if (compact++)
				return trax_error_set(ld_error(R->L), TRAX_E_FORMAT, "%s: corrupt "
						      "Perfetto trace at byte offset %llu (an ftrace "
						      "bundle): a second compact_sched", R->path,
						      (unsigned long long)f.off);
			if (expect(R, &bc, &f, PB_LEN, "a compact_sched"))
				return -TRAX_E_FORMAT;
			if ((r = compact_index(R, &bc, &f, n + PF_S_SWITCH, first + PF_S_SWITCH,
					       last + PF_S_SWITCH)) < 0)
				return r;
			R->compact_bundles++;
			break;
		case PF_BUNDLE_EVENT:
			if (expect(R, &bc, &f, PB_LEN, "an ftrace event"))
				return -TRAX_E_FORMAT;
			pb_sub(&bc, &f, &ec);
			if (event_fields(R, &ec, &ts, &pid, &body, &R->unknown_fields))
				return -TRAX_E_FORMAT;
			if (!nev)
				first[PF_S_EVENTS] = ts;
			else if (ts < prev)
				R->unsorted++;
			prev = ts;
			if (ts > last[PF_S_EVENTS])
				last[PF_S_EVENTS] = ts;
			nev++;
			if (body.num < PF_EV_DIRECT && R->ev_index[body.num] >= 0)
				R->ev_count[R->ev_index[body.num]]++;
			else if (body.num == PF_EVENT_GENERIC)
				R->generic++;
			else
				count_add(&R->unknown_ev, &R->nunknown_ev, &R->uecap, &R->unknown_other,
					  body.num);
			break;
		default:
			break;
		}
	}
	if (r < 0)
		return pb_fail(R, &bc, "an ftrace bundle");
	if (cpu >= PF_MAX_CPUS)
		return trax_error_set(ld_error(R->L), TRAX_E_FORMAT, "%s: corrupt Perfetto trace "
				      "at byte offset %llu (an ftrace bundle): CPU %llu (at most "
				      "%d)", R->path, (unsigned long long)bf->off,
				      (unsigned long long)cpu, PF_MAX_CPUS - 1);
	cpus_grow(R, (int)cpu);
	n[PF_S_EVENTS] = nev;
	R->events += nev;
	R->lost_bundles += lost;
	for (int st = PF_S_SWITCH; st < PF_S_COUNT; st++) {
		R->compact_events[st - PF_S_SWITCH] += n[st];
		R->ev_count[st == PF_S_SWITCH ? R->ev_switch : R->ev_waking] += n[st];
	}
	/* a loss before the bundle is before its earliest event, in whichever stream */
	for (int st = 0; st < PF_S_COUNT; st++)
		if (n[st] && (earliest < 0 || first[st] < first[earliest]))
			earliest = st;
	if (earliest < 0) {
		R->empty_bundles++;
		if (lost || dropped)
			R->pend_lost[cpu] = 1;
		return 0;
	}
	for (int st = 0; st < PF_S_COUNT; st++)
		if (n[st])
			run_add(R, seq_id, (int)cpu, (enum pf_stream)st, first[st], last[st],
				(uint64_t)(bf->data - R->map), bf->len,
				st == earliest && (lost || dropped || R->pend_lost[cpu]));
	R->pend_lost[cpu] = 0;
	return 0;
}

static void count_kind(struct pf *R, uint32_t num)
{
	if (num < PF_KIND_DIRECT)
		R->kinds[num]++;
	else
		count_add(&R->kinds_far, &R->nkinds_far, &R->kfcap, &R->kinds_other, num);
}

/*
 * A packet's track event data (sequence s, its generation current): interned names and
 * defaults to parse/pftrack.c now; the packet of a track event into the sequence's track run
 * (read again in pass 2, when every descriptor is known).
 */
static int index_track(struct pf *R, struct pb_cursor *tc, const struct pb_field *pf,
		       struct pf_seq *s, uint64_t ts, int has_ts)
{
	struct pb_cursor pc, bad;
	struct pb_field f;
	const char *what;
	int r, event = 0;

	pb_sub(tc, pf, &pc);
	while ((r = pb_next(&pc, &f)) > 0) {
		if (f.num == PF_PACKET_interned_data)
			r = pftrack_interned(R->track, s->id, s->gen, &pc, &f, &bad, &what);
		else if (f.num == PF_PACKET_trace_packet_defaults)
			r = pftrack_defaults(R->track, s->id, &pc, &f, &bad, &what);
		else if (f.num == PF_PACKET_track_event)
			event = 1;
		if (r < 0)
			return pb_fail(R, &bad, what);
	}
	if (!event)
		return 0;
	if (!has_ts) {
		pftrack_untimed(R->track);
		return 0;
	}
	run_add(R, s->id, 0, PF_S_TRACK, ts, ts, (uint64_t)(pf->data - R->map), pf->len, 0);
	list_varint(&R->runs[R->keys[R->last_key].run], s->gen);
	return 0;
}

static int index_compressed(struct pf *R, const struct pb_field *f);

static int index_packet(struct pf *R, struct pb_cursor *tc, const struct pb_field *pf)
{
	struct pb_cursor pc;
	struct pb_field f;
	uint64_t dropped = 0, ts = 0;
	uint32_t seq_id = 0;
	int r, nbundles = 0, ndata = 0, is_new, drop_here, wrapper = 0;
	int cleared = 0, has_ts = 0, ntrack = 0;
	struct pf_seq *s;
	struct pb_cursor bad;
	const char *what;

	R->packets++;
	pb_sub(tc, pf, &pc);
	while ((r = pb_next(&pc, &f)) > 0) {
		if (is_header_field(f.num)) {
			if (expect(R, &pc, &f, PB_VARINT, "a packet's own fields"))
				return -TRAX_E_FORMAT;
			if (f.num == PF_PACKET_TRUSTED_SEQUENCE_ID)
				seq_id = (uint32_t)f.val;
			else if (f.num == PF_PACKET_PREVIOUS_PACKET_DROPPED)
				dropped = f.val;
			else if (f.num == PF_PACKET_TIMESTAMP)
				ts = f.val, has_ts = 1;
			else if ((f.num == PF_PACKET_SEQUENCE_FLAGS &&
				  (f.val & PF_SEQ_INCREMENTAL_STATE_CLEARED)) ||
				 (f.num == PF_PACKET_INCREMENTAL_STATE_CLEARED && f.val))
				cleared = 1;
			continue;
		}
		if (f.num == PF_PACKET_compressed_packets) {
			if (expect(R, &pc, &f, PB_LEN, "a packet's compressed_packets"))
				return -TRAX_E_FORMAT;
			if ((r = index_compressed(R, &f)) < 0)
				return r;
			wrapper = 1;
			continue;
		}
		ndata++;
		if (f.num == PF_PACKET_ftrace_events) {
			if (expect(R, &pc, &f, PB_LEN, "a packet's ftrace_events"))
				return -TRAX_E_FORMAT;
			nbundles++;
		} else {
			count_kind(R, f.num);
			if (pfinfo_kind(f.num) && pfinfo_packet(R->info, &pc, &f, &bad, &what) < 0)
				return pb_fail(R, &bad, what);
			if (f.num == PF_PACKET_track_descriptor &&
			    pftrack_descriptor(R->track, &pc, &f, &bad, &what) < 0)
				return pb_fail(R, &bad, what);
			if (f.num == PF_PACKET_track_event || f.num == PF_PACKET_interned_data ||
			    f.num == PF_PACKET_trace_packet_defaults) {
				if (expect(R, &pc, &f, PB_LEN, "a packet's data"))
					return -TRAX_E_FORMAT;
				ntrack++;
			}
		}
	}
	if (r < 0)
		return pb_fail(R, &pc, "a packet");
	if (wrapper && !ndata) {
		/* only the wrapper of packets (counted, as they were, in their place) */
		R->packets--;
		return 0;
	}
	if (!ndata)
		R->empty_packets++;
	s = seq_get(R, seq_id, &is_new);
	/* packets lost before this one: every CPU seen so far may have lost a bundle, and so
	 * have the CPUs of this packet's own bundles (possibly seen here first) */
	drop_here = dropped && !is_new && (s->ftrace || nbundles);
	if (dropped && !is_new)
		R->dropped++;
	if (drop_here && R->ncpus)
		memset(R->pend_lost, 1, (size_t)R->ncpus);
	if (cleared)
		s->gen++;
	if (ntrack && (r = index_track(R, tc, pf, s, ts, has_ts)) < 0)
		return r;
	if (nbundles) {
		R->kinds[PF_PACKET_ftrace_events]++;
		/* the sequence is known now (it may follow the bundle): walk the packet again */
		pb_sub(tc, pf, &pc);
		while (pb_next(&pc, &f) > 0) {
			if (f.num == PF_PACKET_ftrace_events &&
			    (r = index_bundle(R, &pc, &f, seq_id, drop_here)) < 0)
				return r;
		}
	}
	return 0;
}

/* The packets of the file, or those inflated from compressed_packets b, at offset off. */
static int index_packets(struct pf *R, uint64_t off, size_t len, const struct pf_blob *b)
{
	struct pb_cursor tc;
	struct pb_field f;
	int r;

	pb_init(&tc, R->map + off, len, off);
	while ((r = pb_next(&tc, &f)) > 0) {
		if (f.num != PF_TRACE_PACKET) {
			R->trace_unknown++;	/* Trace has no other field */
			continue;
		}
		if (expect(R, &tc, &f, PB_LEN, "a packet"))
			return -TRAX_E_FORMAT;
		if ((r = index_packet(R, &tc, &f)) < 0)
			return r;
	}
	if (r < 0) {
		if (b && (tc.err == PB_E_LENGTH || tc.err == PB_E_TRUNCATED))
			return trax_error_set(ld_error(R->L), TRAX_E_FORMAT, "%s: corrupt "
					      "Perfetto trace: the packet at byte offset %llu runs "
					      "past the end of its compressed_packets' data (%zu "
					      "bytes)", R->path, (unsigned long long)tc.err_off, len);
		if (tc.err == PB_E_LENGTH || tc.err == PB_E_TRUNCATED)
			return trax_error_set(ld_error(R->L), TRAX_E_FORMAT, "%s: truncated "
					      "Perfetto trace: the packet at byte offset %llu runs "
					      "past the end of the file (%zu bytes)", R->path,
					      (unsigned long long)tc.err_off, R->size);
		return pb_fail(R, &tc, "a packet");
	}
	return 0;
}

/* A compressed_packets (pass 1): its packets, which unpack() inflated, as the file's. */
static int index_compressed(struct pf *R, const struct pb_field *f)
{
	const struct pf_blob *b = R->next_blob < R->nblobs ? &R->blobs[R->next_blob] : NULL;
	int r;

	if (R->in_blob)
		return trax_error_set(ld_error(R->L), TRAX_E_FORMAT, "%s: corrupt Perfetto trace "
				      "at byte offset %llu: a compressed_packets inside the packets "
				      "of another", R->path, (unsigned long long)f->off);
	if (!b || b->outer != f->off)	/* unpack() walked the same packets */
		return trax_error_set(ld_error(R->L), TRAX_E_FORMAT, "%s: corrupt Perfetto trace "
				      "at byte offset %llu: a compressed_packets not unpacked",
				      R->path, (unsigned long long)f->off);
	R->next_blob++;
	R->in_blob = 1;
	r = index_packets(R, b->off, (size_t)b->len, b);
	R->in_blob = 0;
	return r;
}

static int index_file(struct pf *R)
{
	return index_packets(R, 0, R->size, NULL);
}

/* ---- pass 2: the events, merged into time order ---- */

static int run_less(const struct pf *R, int a, int b)
{
	const struct pf_run *x = &R->runs[a], *y = &R->runs[b];

	return x->ts != y->ts ? x->ts < y->ts : a < b;
}

static void heap_push(struct pf *R, int run)
{
	int i = R->nheap++;

	R->heap[i] = run;
	while (i > 0) {
		int parent = (i - 1) / 2;

		if (!run_less(R, R->heap[i], R->heap[parent]))
			break;
		R->heap[i] = R->heap[parent];
		R->heap[parent] = run;
		i = parent;
	}
}

static int heap_pop(struct pf *R)
{
	int top = R->heap[0], i = 0;

	R->heap[0] = R->heap[--R->nheap];
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i, t;

		if (l < R->nheap && run_less(R, R->heap[l], R->heap[m]))
			m = l;
		if (r < R->nheap && run_less(R, R->heap[r], R->heap[m]))
			m = r;
		if (m == i)
			break;
		t = R->heap[i];
		R->heap[i] = R->heap[m];
		R->heap[m] = t;
		i = m;
	}
	return top;
}

/* A compact stream's bundle (pass 1 checked it): its columns and intern table. */
static int compact_load(struct pf *R, struct pf_run *u)
{
	struct pf_cols cols[2];
	struct pb_field f;
	uint32_t nintern;
	int r;

	while ((r = pb_next(&u->bc, &f)) > 0) {
		if (f.num != PF_BUNDLE_COMPACT_SCHED)
			continue;
		if ((r = compact_parse(R, &u->bc, &f, cols, &u->in, &nintern)) < 0)
			return r;
		u->cols = cols[u->kind - PF_S_SWITCH];
		return 0;
	}
	return r < 0 ? pb_fail(R, &u->bc, "an ftrace bundle") : 0;
}

/* The run's next event: 1 when there is one, 0 at the run's end, or a negative error. */
/* The next track event of a track run: 1, or 0 at the end of the run. */
static int track_next(struct pf *R, struct pf_run *u)
{
	uint64_t delta, len, gen;
	int r;

	while (!pb_at_end(&u->lc)) {
		pb_read_varint(&u->lc, &delta);
		pb_read_varint(&u->lc, &len);
		pb_read_varint(&u->lc, &gen);
		u->end += delta;
		r = pftrack_read(R->track, R->path, R->map + u->end, (size_t)(len >> 1), u->end,
				 u->seq, (uint32_t)gen, &u->te);
		u->ts = u->te.ts;
		u->end += len >> 1;
		if (r)
			return r;
	}
	return 0;
}

static int run_next(struct pf *R, struct pf_run *u)
{
	struct pb_field f;
	uint64_t delta, len;
	int r;

	if (u->kind == PF_S_TRACK)
		return track_next(R, u);
	for (;;) {
		if (u->kind != PF_S_EVENTS) {
			if ((r = compact_read(R, &u->cols, u->kind - PF_S_SWITCH)) != 0) {
				u->ts = u->cols.ts;
				return r;
			}
		} else {
			while ((r = pb_next(&u->bc, &f)) > 0) {
				if (f.num != PF_BUNDLE_EVENT)
					continue;
				pb_sub(&u->bc, &f, &u->ec);
				if (event_fields(R, &u->ec, &u->ts, &u->pid, &u->body, NULL))
					return -TRAX_E_FORMAT;
				return 1;
			}
			if (r < 0)
				return pb_fail(R, &u->bc, "an ftrace bundle");
		}
		if (pb_at_end(&u->lc))
			return 0;
		/* the list is trax's own: it reads */
		pb_read_varint(&u->lc, &delta);
		pb_read_varint(&u->lc, &len);
		u->end += delta;
		pb_init(&u->bc, R->map + u->end, (size_t)(len >> 1), u->end);
		u->end += len >> 1;
		u->lost = (int)(len & 1);
		u->first = 1;
		if (u->kind != PF_S_EVENTS && (r = compact_load(R, u)) < 0)
			return r;
	}
}

/* An event trax does not decode: raw_event, named by its number, its fields as N=value. */
static int emit_unknown(struct pf *R, struct pf_run *u, int cpu)
{
	struct pb_cursor c;
	struct pb_field f;
	char name[48];
	int r;

	snprintf(name, sizeof(name), "ftrace_event_%u", u->body.num);
	if (!ld_wanted(R->L, "", name))
		return 0;
	strbuf_reset(&R->raw);
	if (!u->body.num)	/* an event without a body */
		return ld_emit_raw(R->L, u->ts, cpu, u->pid, 0, name, "", 0);
	pb_sub(&u->ec, &u->body, &c);
	while ((r = pb_next(&c, &f)) > 0 && R->raw.len < 1024) {
		if (R->raw.len)
			strbuf_addch(&R->raw, ' ');
		if (f.wire == PB_LEN) {
			int print = 1;

			for (size_t i = 0; i < f.len && print; i++)
				print = f.data[i] >= 0x20 && f.data[i] < 0x7f;
			if (print)
				strbuf_addf(&R->raw, "%u=\"%.*s\"", f.num,
					    (int)(f.len < 256 ? f.len : 256), (const char *)f.data);
			else
				strbuf_addf(&R->raw, "%u=<%zu bytes>", f.num, f.len);
		} else {
			strbuf_addf(&R->raw, "%u=%llu", f.num, (unsigned long long)f.val);
		}
	}
	if (r < 0)
		return pb_fail(R, &c, name);
	return ld_emit_raw(R->L, u->ts, cpu, u->pid, 0, name, R->raw.buf, (int)R->raw.len);
}

/* The value of field number num of event row ev in R->vals. */
static struct ld_val *val_of(struct pf *R, int ev, uint32_t num)
{
	return &R->vals[R->slot[ev][num]];
}

static void val_int(struct ld_val *v, int64_t i)
{
	v->kind = LD_I64;
	v->i = i;
}

static void val_str(struct ld_val *v, const void *s, int len)
{
	v->kind = LD_STR;
	v->s = s;
	v->len = len;
}

/* A sched_switch (of either form) in R->vals: the CPU runs its next task now. */
static void cur_switch(struct pf *R, int cpu)
{
	struct pf_cur *c = &R->cur[cpu];
	const struct ld_val *pid = val_of(R, R->ev_switch, 6), *prio = val_of(R, R->ev_switch, 7);
	const struct ld_val *comm = val_of(R, R->ev_switch, 5);

	c->known = pid->kind == LD_I64;
	c->pid = (int)pid->i;
	c->prio = prio->kind == LD_I64 ? (int)prio->i : 0;
	c->comm = comm->kind == LD_STR ? comm->s : NULL;
	c->len = comm->kind == LD_STR ? comm->len : 0;
}

/* An event of the table: its fields into R->vals, then the sink. */
static int emit_known(struct pf *R, struct pf_run *u, int ev, int cpu)
{
	const struct pf_evdef *d = &pf_events[ev];
	struct pb_cursor c;
	struct pb_field f;
	int r;

	/* a sched_switch not loaded still says which task the CPU runs (compact_sched needs it) */
	if (!ld_type_loaded(R->types[ev]) && ev != R->ev_switch)
		return 0;
	for (int i = 0; i < d->nf; i++)
		R->vals[i].kind = LD_NULL;
	pb_sub(&u->ec, &u->body, &c);
	while ((r = pb_next(&c, &f)) > 0) {
		int k = f.num < PF_MAX_FIELDS ? R->slot[ev][f.num] : -1;
		struct ld_val *v;

		if (k < 0) {
			R->unknown_fields++;
			continue;
		}
		v = &R->vals[k];
		if (d->f[k].type == PF_T_STR) {
			if (expect(R, &c, &f, PB_LEN, d->name))
				return -TRAX_E_FORMAT;
			if (f.len > INT_MAX)
				return trax_error_set(ld_error(R->L), TRAX_E_FORMAT, "%s: corrupt "
						      "Perfetto trace at byte offset %llu (%s): a "
						      "string of %zu bytes", R->path,
						      (unsigned long long)f.off, d->name, f.len);
			v->kind = LD_STR;
			v->s = (const char *)f.data;
			v->len = (int)f.len;
			continue;
		}
		if (expect(R, &c, &f, PB_VARINT, d->name))
			return -TRAX_E_FORMAT;
		v->kind = LD_I64;
		switch (d->f[k].type) {
		case PF_T_I32:
			v->i = (int32_t)(uint32_t)f.val;
			break;
		case PF_T_U32:
			v->i = (uint32_t)f.val;
			break;
		default:
			v->i = (int64_t)f.val;
			break;
		}
	}
	if (r < 0)
		return pb_fail(R, &c, d->name);
	if (ev == R->ev_switch)
		cur_switch(R, cpu);
	if (!ld_type_loaded(R->types[ev]))
		return 0;
	return ld_emit(R->L, R->types[ev], u->ts, cpu, u->pid, 0, NULL, R->vals);
}

/*
 * A compact_sched event as the row of its plain form. sched_switch has no prev_* columns: the
 * task switched out is the one the CPU's last switch switched in (unknown, NULL, on a CPU's
 * first), and so is the event's pid; sched_waking's pid (the waker) is the CPU's task too,
 * and its success is not recorded.
 */
static int emit_compact(struct pf *R, struct pf_run *u)
{
	int ev = u->kind == PF_S_SWITCH ? R->ev_switch : R->ev_waking;
	const struct pf_evdef *d = &pf_events[ev];
	const struct pf_cur *c = &R->cur[u->cpu];
	const uint64_t *v = u->cols.v;
	const uint8_t *present = u->cols.present;

	for (int i = 0; i < d->nf; i++)
		R->vals[i].kind = LD_NULL;
	if (u->kind == PF_S_SWITCH) {
		if (c->known) {
			if (c->comm)
				val_str(val_of(R, ev, 1), c->comm, c->len);
			val_int(val_of(R, ev, 2), c->pid);
			val_int(val_of(R, ev, 3), c->prio);
		} else {
			R->compact_unknown_prev++;
		}
		if (present[CS_SW_PREV_STATE])
			val_int(val_of(R, ev, 4), (int64_t)v[CS_SW_PREV_STATE]);
		if (present[CS_SW_COMM])
			val_str(val_of(R, ev, 5), u->in.s[v[CS_SW_COMM]],
				(int)u->in.len[v[CS_SW_COMM]]);
		val_int(val_of(R, ev, 6), (int32_t)(uint32_t)v[CS_SW_NEXT_PID]);
		if (present[CS_SW_NEXT_PRIO])
			val_int(val_of(R, ev, 7), (int32_t)(uint32_t)v[CS_SW_NEXT_PRIO]);
	} else {
		if (present[CS_WK_COMM])
			val_str(val_of(R, ev, 1), u->in.s[v[CS_WK_COMM]],
				(int)u->in.len[v[CS_WK_COMM]]);
		val_int(val_of(R, ev, 2), (int32_t)(uint32_t)v[CS_WK_PID]);
		if (present[CS_WK_PRIO])
			val_int(val_of(R, ev, 3), (int32_t)(uint32_t)v[CS_WK_PRIO]);
		if (present[CS_WK_TARGET_CPU])
			val_int(val_of(R, ev, 5), (int32_t)(uint32_t)v[CS_WK_TARGET_CPU]);
	}
	u->pid = c->known ? c->pid : -1;
	if (u->kind == PF_S_SWITCH)
		cur_switch(R, u->cpu);
	if (!ld_type_loaded(R->types[ev]))
		return 0;
	return ld_emit(R->L, R->types[ev], u->ts, u->cpu, u->pid, 0, NULL, R->vals);
}

static int emit_event(struct pf *R, struct pf_run *u)
{
	uint32_t num = u->body.num;
	int ev = num < PF_EV_DIRECT ? R->ev_index[num] : -1;
	struct pf_cur *c;

	if (u->kind == PF_S_TRACK) {
		pftrack_emit(R->track, &u->te);
		return 0;
	}
	c = &R->cur[u->cpu];

	if (!c->seen) {
		c->seen = 1;
		/* a loss ftrace_stats counts but no bundle marks: before the CPU's first event
		 * (the place a ring buffer in overwrite mode loses its oldest events) */
		if (!c->nlost && c->stats_lost > 0)
			ld_lost(R->L, u->ts, u->cpu, 0, c->stats_lost);
	}
	if (u->first && u->lost)
		ld_lost(R->L, u->ts, u->cpu, 0, c->nlost == 1 && c->stats_lost > 0 ?
			c->stats_lost : -1);
	u->first = 0;
	ld_seen(R->L, 0, u->cpu, u->ts);
	R->last_ts = u->ts;
	if (u->kind != PF_S_EVENTS)
		return emit_compact(R, u);
	if (ev >= 0)
		return emit_known(R, u, ev, u->cpu);
	if (num == PF_EVENT_GENERIC) {
		int r = pf_generic_emit(R->gen, &u->ec, &u->body, u->ts, u->cpu, u->pid,
					&R->unknown_fields);

		if (r <= 0)
			return r;
	}
	return emit_unknown(R, u, u->cpu);
}

static int merge(struct pf *R)
{
	int r;

	R->heap = xcalloc(R->nruns ? R->nruns : 1, sizeof(*R->heap));
	for (int i = 0; i < R->nruns; i++) {
		struct pf_run *u = &R->runs[i];

		pb_init(&u->lc, u->list, u->nlist, 0);
		u->end = 0;
		pb_init(&u->bc, R->map, 0, 0);
		if ((r = run_next(R, u)) < 0)
			return r;
		if (r)
			heap_push(R, i);
	}
	while (R->nheap) {
		int top = heap_pop(R);
		struct pf_run *u = &R->runs[top];

		if ((r = emit_event(R, u)) < 0)
			return r;
		if ((r = run_next(R, u)) < 0)
			return r;
		if (r)
			heap_push(R, top);
	}
	/* losses announced after a CPU's last bundle */
	for (int c = 0; c < R->ncpus; c++)
		if (R->pend_lost[c])
			ld_lost(R->L, R->last_ts, c, 0, R->cur[c].nlost == 1 &&
				R->cur[c].stats_lost > 0 ? R->cur[c].stats_lost : -1);
	return 0;
}

/* ---- the reader ---- */

static void register_types(struct pf *R)
{
	struct ld_field_def defs[PF_MAX_FIELDS];

	for (int e = 0; e < PF_NEVENTS; e++) {
		const struct pf_evdef *d = &pf_events[e];

		if (!R->ev_count[e])
			continue;
		for (int i = 0; i < d->nf; i++) {
			enum pf_type t = d->f[i].type;

			defs[i] = (struct ld_field_def){
				.name = d->f[i].name,
				.sql = t == PF_T_STR ? LD_TEXT : LD_INT,
				.is_string = t == PF_T_STR,
				.is_unsigned = t == PF_T_U32 || t == PF_T_U64,
			};
		}
		R->types[e] = ld_type_add(R->L, d->system, d->name, d->nf, defs);
	}
}

static void write_meta(struct pf *R)
{
	static const char *const clocks[] = {
		[PF_CLOCK_UNSPECIFIED] = "boot", [PF_CLOCK_UNKNOWN] = "unknown",
		[PF_CLOCK_GLOBAL] = "global", [PF_CLOCK_LOCAL] = "local",
		[PF_CLOCK_MONO_RAW] = "mono_raw",
	};
	char key[96];
	uint64_t unused = 0;

	ld_meta(R->L, "cpus", "%d", R->ncpus ? R->ncpus : 1);
	/* the clock of the ftrace timestamps, when there are any */
	if (R->bundles && R->clock_mixed)
		ld_meta(R->L, "trace_clock", "mixed");
	else if (R->bundles && R->clock >= 0 && R->clock < (int)(sizeof(clocks) / sizeof(*clocks)))
		ld_meta(R->L, "trace_clock", "%s", clocks[R->clock]);
	else if (R->bundles)
		ld_meta(R->L, "trace_clock", "ftrace_clock %d", R->clock);
	ld_meta(R->L, "perfetto.compression", "%s", R->gz_size && R->nblobs ?
		"gzip, compressed_packets" : R->gz_size ? "gzip" : R->nblobs ?
		"compressed_packets" : "none");
	if (R->gz_size)
		ld_meta(R->L, "perfetto.gunzipped_size", "%zu", R->size);
	ld_meta(R->L, "perfetto.compressed_packets", "%d", R->nblobs);
	if (R->nblobs)
		ld_meta(R->L, "perfetto.compressed_packets.inflated_size", "%llu",
			(unsigned long long)R->blob_bytes);
	ld_meta(R->L, "perfetto.packets", "%llu", (unsigned long long)R->packets);
	ld_meta(R->L, "perfetto.packets.ftrace_events", "%llu",
		(unsigned long long)R->kinds[PF_PACKET_ftrace_events]);
	for (uint32_t n = 1; n < PF_KIND_DIRECT; n++) {
		const char *name = kind_name(n);

		if (!R->kinds[n] || n == PF_PACKET_ftrace_events)
			continue;
		if (pfinfo_kind(n) || n == PF_PACKET_track_event || n == PF_PACKET_interned_data ||
		    n == PF_PACKET_trace_packet_defaults) {	/* read (pfinfo.c, pftrack.c) */
			snprintf(key, sizeof(key), "perfetto.packets.%s", name);
			ld_meta(R->L, key, "%llu", (unsigned long long)R->kinds[n]);
			continue;
		}
		if (name)
			snprintf(key, sizeof(key), "perfetto.packets.unused.%s", name);
		else
			snprintf(key, sizeof(key), "perfetto.packets.unused.%u", n);
		ld_meta(R->L, key, "%llu", (unsigned long long)R->kinds[n]);
		unused += R->kinds[n];
	}
	for (int i = 0; i < R->nkinds_far; i++) {
		snprintf(key, sizeof(key), "perfetto.packets.unused.%u", R->kinds_far[i].num);
		ld_meta(R->L, key, "%llu", (unsigned long long)R->kinds_far[i].n);
		unused += R->kinds_far[i].n;
	}
	if (R->kinds_other) {
		ld_meta(R->L, "perfetto.packets.unused.other", "%llu",
			(unsigned long long)R->kinds_other);
		unused += R->kinds_other;
	}
	ld_meta(R->L, "perfetto.packets.unused", "%llu", (unsigned long long)unused);
	if (R->trace_unknown)
		ld_meta(R->L, "perfetto.trace.unknown_fields", "%llu",
			(unsigned long long)R->trace_unknown);
	ld_meta(R->L, "perfetto.packets.empty", "%llu", (unsigned long long)R->empty_packets);
	ld_meta(R->L, "perfetto.sequences", "%d", R->nseqs);
	ld_meta(R->L, "perfetto.sequences.packets_dropped", "%llu",
		(unsigned long long)R->dropped);
	ld_meta(R->L, "perfetto.ftrace.bundles", "%llu", (unsigned long long)R->bundles);
	ld_meta(R->L, "perfetto.ftrace.bundles.empty", "%llu",
		(unsigned long long)R->empty_bundles);
	ld_meta(R->L, "perfetto.ftrace.bundles.lost_events", "%llu",
		(unsigned long long)R->lost_bundles);
	ld_meta(R->L, "perfetto.ftrace.bundles.compact_sched", "%llu",
		(unsigned long long)R->compact_bundles);
	ld_meta(R->L, "perfetto.ftrace.compact_sched.sched_switch", "%llu",
		(unsigned long long)R->compact_events[0]);
	ld_meta(R->L, "perfetto.ftrace.compact_sched.sched_waking", "%llu",
		(unsigned long long)R->compact_events[1]);
	ld_meta(R->L, "perfetto.ftrace.compact_sched.prev_unknown", "%llu",
		(unsigned long long)R->compact_unknown_prev);
	pftrack_finish(R->track);
	ld_meta(R->L, "perfetto.ftrace.events", "%llu", (unsigned long long)R->events);
	ld_meta(R->L, "perfetto.ftrace.events.unsorted", "%llu", (unsigned long long)R->unsorted);
	ld_meta(R->L, "perfetto.ftrace.events.generic", "%llu", (unsigned long long)R->generic);
	ld_meta(R->L, "perfetto.ftrace.events.generic.names", "%d", pf_generic_names(R->gen));
	ld_meta(R->L, "perfetto.ftrace.fields.unknown", "%llu",
		(unsigned long long)R->unknown_fields);
	for (int i = 0; i < R->nunknown_ev; i++) {
		snprintf(key, sizeof(key), "perfetto.ftrace.events.unknown.%u",
			 R->unknown_ev[i].num);
		ld_meta(R->L, key, "%llu", (unsigned long long)R->unknown_ev[i].n);
	}
	if (R->unknown_other)
		ld_meta(R->L, "perfetto.ftrace.events.unknown.other", "%llu",
			(unsigned long long)R->unknown_other);
}

static void pf_release(struct pf *R)
{
	if (R->map)
		munmap((void *)R->map, R->maplen);
	if (R->fd >= 0)
		close(R->fd);
	free(R->blobs);
	for (int i = 0; i < R->nruns; i++) {
		free(R->runs[i].list);
		free(R->runs[i].in.s);
		free(R->runs[i].in.len);
	}
	free(R->runs);
	free(R->keys);
	free(R->seqs);
	free(R->pend_lost);
	free(R->cur);
	free(R->kinds_far);
	free(R->unknown_ev);
	free(R->heap);
	pfinfo_free(R->info);
	pftrack_free(R->track);
	pf_generic_free(R->gen);
	strbuf_release(&R->raw);
}

/* A gzip'd file (mapped, its descriptor fd): its gunzipped data, in an unlinked temporary
 * file, becomes the file. */
static int gunzip(struct pf *R, int fd, struct trax_error *err)
{
	struct trax_zresult res;
	char why[192];
	void *map;
	int tfd = trax_tmp_anon();

	close(fd);
	if (tfd < 0)
		return trax_error_set(err, TRAX_E_IO, "%s: cannot create a temporary file to gunzip "
				      "it in ($TMPDIR or /tmp): %s", R->path, strerror(errno));
	madvise((void *)R->map, R->size, MADV_SEQUENTIAL);
	if (trax_inflate_fd(R->map, R->size, TRAX_Z_GZIP, 0, tfd, &res) == TRAX_Z_OK &&
	    !res.out_len) {
		close(tfd);
		return trax_error_set(err, TRAX_E_FORMAT, "%s: gzip'd, but empty once gunzipped",
				      R->path);
	}
	if (res.status != TRAX_Z_OK) {
		close(tfd);
		trax_zstrerror(&res, why, sizeof(why));
		if (res.status == TRAX_Z_WRITE || res.status == TRAX_Z_NOMEM)
			return trax_error_set(err, res.status == TRAX_Z_WRITE ? TRAX_E_IO :
					      TRAX_E_NOMEM, "%s: gunzipping: %s", R->path, why);
		return trax_error_set(err, TRAX_E_FORMAT, "%s: gzip'd Perfetto trace at byte offset "
				      "%llu: %s", R->path, (unsigned long long)res.in_off, why);
	}
	map = mmap(NULL, res.out_len, PROT_READ, MAP_PRIVATE, tfd, 0);
	if (map == MAP_FAILED) {
		close(tfd);
		return trax_error_set(err, TRAX_E_IO, "%s: cannot map its gunzipped data: %s",
				      R->path, strerror(errno));
	}
	munmap((void *)R->map, R->size);
	R->gz_size = R->size;
	R->map = map;
	R->size = R->maplen = (size_t)res.out_len;
	R->fd = tfd;
	return 0;
}

static int map_file(struct pf *R, struct trax_error *err)
{
	struct stat sb;
	int fd = open(R->path, O_RDONLY | O_CLOEXEC), e;

	if (fd < 0)
		return trax_error_set(err, TRAX_E_IO, "%s: %s", R->path, strerror(errno));
	if (fstat(fd, &sb) < 0) {
		e = errno;
		close(fd);
		return trax_error_set(err, TRAX_E_IO, "%s: %s", R->path, strerror(e));
	}
	if (!sb.st_size) {
		close(fd);
		return trax_error_set(err, TRAX_E_FORMAT, "%s: empty file", R->path);
	}
	R->size = R->maplen = (size_t)sb.st_size;
	R->map = mmap(NULL, R->size, PROT_READ, MAP_PRIVATE, fd, 0);
	e = errno;
	if (R->map == MAP_FAILED) {
		R->map = NULL;
		close(fd);
		return trax_error_set(err, TRAX_E_IO, "%s: cannot map: %s", R->path, strerror(e));
	}
	if (R->size >= 2 && R->map[0] == 0x1f && R->map[1] == 0x8b)
		return gunzip(R, fd, err);
	R->fd = fd;	/* unpack() may map it again */
	madvise((void *)R->map, R->size, MADV_SEQUENTIAL);
	return 0;
}

/* A compressed_packets g inflated, appended to fd, and listed in R->blobs. */
static int inflate_blob(struct pf *R, const struct pb_field *g, int fd)
{
	uint64_t data_off = (uint64_t)(g->data - R->map);
	struct trax_zresult res;
	struct pf_blob *b;
	char why[192];

	if (trax_inflate_fd(g->data, g->len, TRAX_Z_ZLIB | TRAX_Z_GZIP, PF_BLOB_MAX, fd, &res)) {
		if (res.status == TRAX_Z_TOO_BIG)
			snprintf(why, sizeof(why), "it inflates to more than %llu MiB",
				 PF_BLOB_MAX >> 20);
		else
			trax_zstrerror(&res, why, sizeof(why));
		return trax_error_set(ld_error(R->L), res.status == TRAX_Z_WRITE ? TRAX_E_IO :
				      res.status == TRAX_Z_NOMEM ? TRAX_E_NOMEM : TRAX_E_FORMAT,
				      "%s: corrupt Perfetto trace at byte offset %llu (the "
				      "compressed_packets at byte offset %llu, %zu bytes): %s",
				      R->path, (unsigned long long)(data_off + res.in_off),
				      (unsigned long long)g->off, g->len, why);
	}
	TRAX_GROW(R->blobs, R->nblobs, R->blobcap, 16);
	b = &R->blobs[R->nblobs++];
	b->outer = g->off;
	b->off = R->blob_base + R->blob_bytes;
	b->len = res.out_len;
	R->blob_bytes += res.out_len;
	return 0;
}

/*
 * Every compressed_packets of the file's packets inflated, in file order, into a temporary
 * file, mapped after the file's pages in one mapping with it. Only the framing that leads to
 * them is walked: pass 1 says what is wrong with the rest.
 */
static int unpack(struct pf *R)
{
	long page = sysconf(_SC_PAGESIZE);
	struct pb_cursor tc, pc;
	struct pb_field f, g;
	uint8_t *base;
	int fd = -1, r = 0;

	if (page <= 0)
		page = 4096;
	R->blob_base = (R->size + (size_t)page - 1) / (size_t)page * (size_t)page;
	pb_init(&tc, R->map, R->size, 0);
	while (!r && pb_next(&tc, &f) > 0) {
		if (f.num != PF_TRACE_PACKET || f.wire != PB_LEN)
			continue;
		pb_sub(&tc, &f, &pc);
		while (!r && pb_next(&pc, &g) > 0) {
			if (g.num != PF_PACKET_compressed_packets || g.wire != PB_LEN)
				continue;
			if (fd < 0 && (fd = trax_tmp_anon()) < 0)
				return trax_error_set(ld_error(R->L), TRAX_E_IO, "%s: cannot create "
						      "a temporary file for its compressed_packets "
						      "($TMPDIR or /tmp): %s", R->path,
						      strerror(errno));
			r = inflate_blob(R, &g, fd);
		}
	}
	if (r || !R->nblobs) {
		if (fd >= 0)
			close(fd);
		return r;
	}
	/* one mapping: reserved whole, then the file and the blobs mapped into it */
	base = mmap(NULL, R->blob_base + R->blob_bytes, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED ||
	    mmap(base, R->size, PROT_READ, MAP_PRIVATE | MAP_FIXED, R->fd, 0) == MAP_FAILED ||
	    (R->blob_bytes && mmap(base + R->blob_base, R->blob_bytes, PROT_READ,
				   MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED)) {
		r = trax_error_set(ld_error(R->L), TRAX_E_IO, "%s: cannot map its inflated "
				   "compressed_packets: %s", R->path, strerror(errno));
		if (base != MAP_FAILED)
			munmap(base, R->blob_base + R->blob_bytes);
		close(fd);
		return r;
	}
	close(fd);
	munmap((void *)R->map, R->maplen);
	R->map = base;
	R->maplen = R->blob_base + R->blob_bytes;
	madvise(base, R->maplen, MADV_SEQUENTIAL);
	return 0;
}

/* The compressed_packets whose packets hold offset off of the mapping, or NULL. */
static const struct pf_blob *blob_at(const struct pf *R, uint64_t off)
{
	const struct pf_blob *end = NULL;

	if (!R->nblobs || off < R->blob_base)
		return NULL;
	for (int i = 0; i < R->nblobs; i++) {
		if (off >= R->blobs[i].off && off < R->blobs[i].off + R->blobs[i].len)
			return &R->blobs[i];
		if (off == R->blobs[i].off + R->blobs[i].len)
			end = &R->blobs[i];	/* its end: what ran past it */
	}
	return end;
}

/* Every "byte offset N" of err's message in the user's terms: in the packets of a
 * compressed_packets at a file offset; of the gunzipped data. */
static void locate_error(const struct pf *R, struct trax_error *err)
{
	static const char key[] = "byte offset ";
	struct strbuf sb = STRBUF_INIT;
	const char *p = err->msg, *q;

	if (!R->nblobs && !R->gz_size)
		return;
	while ((q = strstr(p, key)) != NULL) {
		const struct pf_blob *b;
		unsigned long long off;
		char *end;

		q += sizeof(key) - 1;
		strbuf_add(&sb, p, (size_t)(q - p));
		p = q;
		if (*q < '0' || *q > '9')
			continue;
		off = strtoull(q, &end, 10);
		p = end;
		if ((b = blob_at(R, off)) != NULL)
			strbuf_addf(&sb, "%llu of the packets inflated from the compressed_packets "
				    "at byte offset %llu", off - b->off, (unsigned long long)b->outer);
		else
			strbuf_addf(&sb, "%llu", off);
		if (R->gz_size)
			strbuf_adds(&sb, " of the gunzipped data");
	}
	strbuf_adds(&sb, p);
	snprintf(err->msg, sizeof(err->msg), "%s", sb.buf);
	strbuf_release(&sb);
}

int perfetto_read(struct loader *L, const char *path, struct trax_error *err)
{
	struct pf *R = xcalloc(1, sizeof(*R));
	int ret;

	R->L = L;
	R->path = path;
	R->info = pfinfo_alloc(L);
	R->track = pftrack_alloc(L, R->info);
	R->last_seq = -1;
	R->last_key = -1;
	R->fd = -1;
	R->raw = (struct strbuf)STRBUF_INIT;
	R->gen = pf_generic_new(L, path);
	memset(R->ev_index, -1, sizeof(R->ev_index));
	memset(R->slot, -1, sizeof(R->slot));
	for (int e = 0; e < PF_NEVENTS; e++) {
		R->ev_index[pf_events[e].num] = (int16_t)e;
		if (pf_events[e].num == PF_EV_SCHED_SWITCH)
			R->ev_switch = e;
		if (pf_events[e].num == PF_EV_SCHED_WAKING)
			R->ev_waking = e;
		for (int i = 0; i < pf_events[e].nf; i++)
			R->slot[e][pf_events[e].f[i].num] = (int8_t)i;
	}
	ret = map_file(R, err);
	if (!ret)
		ret = unpack(R);
	if (!ret)
		ret = index_file(R);
	if (!ret) {
		for (int c = 0; c < R->ncpus; c++) {
			R->cur[c].nlost += R->pend_lost[c];
			R->cur[c].stats_lost = pfinfo_lost(R->info, c);
		}
		pfinfo_finish(R->info);
		ld_set_cpus(L, 1, R->ncpus);
		register_types(R);
		ret = merge(R);
	}
	if (!ret)
		write_meta(R);
	else if (R->map)
		locate_error(R, ld_error(L));
	pf_release(R);
	free(R);
	return ret;
}

/* ---- detection ---- */

/* The last pb_next() status over a packet's bytes (p, n); *fields, *known: its fields, those
 * TracePacket has. */
static int packet_parses(const uint8_t *p, size_t n, int *fields, int *known)
{
	struct pb_cursor c;
	struct pb_field f;
	int r;

	pb_init(&c, p, n, 0);
	while ((r = pb_next(&c, &f)) > 0) {
		(*fields)++;
		if (is_header_field(f.num) || kind_name(f.num))
			(*known)++;
	}
	return r;
}

/*
 * A Trace: packets (field 1, length-delimited) from the first byte, the first one's fields
 * well-formed with at least one that TracePacket has; the framing of the next packets in the
 * head (their contents are the reader's to judge, so that a corrupt one is an error naming
 * it). A first packet that goes on past the head is judged by its fields within the head: no
 * bad wire type or field number, and two fields at least.
 */
enum { SNIFF_INFLATED = 1, SNIFF_FIRST = 2 };
static int sniff_trace(const uint8_t *p, size_t n, int how);

/*
 * What the first n bytes of a zlib (or gzip) stream inflate to, as far as they go, sniffed by
 * their first packet: a stream corrupt in the head may inflate to garbage after it before zlib
 * can tell (its check is at the end), and a corrupt trace is the reader's to report, at its
 * offset. (trax reads no other format compressed.)
 */
static int sniff_inflated(const void *p, size_t n, int flags)
{
	uint8_t *out = xmalloc(65536);
	size_t m = trax_inflate_head(p, n, flags, out, 65536);
	int r = m && sniff_trace(out, m, SNIFF_INFLATED | SNIFF_FIRST);

	free(out);
	return r;
}

/* A first packet past the head that starts with a compressed_packets: its packets, sniffed. */
static int sniff_compressed(const uint8_t *p, size_t n)
{
	struct pb_cursor c;
	uint64_t tag, len;

	pb_init(&c, p, n, 0);
	if (pb_read_varint(&c, &tag) || tag != (PF_PACKET_compressed_packets << 3 | PB_LEN) ||
	    pb_read_varint(&c, &len))
		return 0;
	return sniff_inflated(c.p, (size_t)(c.end - c.p), TRAX_Z_ZLIB | TRAX_Z_GZIP);
}

/* how: SNIFF_INFLATED, p is a compressed_packets' or a gzip'd file's start (no compression
 * in it); SNIFF_FIRST, the first packet decides. */
static int sniff_trace(const uint8_t *p, size_t n, int how)
{
	const uint8_t *end = p + n;
	int packets = 0;

	while (p < end) {
		struct pb_cursor c;
		uint64_t len;
		size_t avail;
		int fields = 0, known = 0, r;

		if (*p != (PF_TRACE_PACKET << 3 | PB_LEN))
			return 0;
		pb_init(&c, p + 1, (size_t)(end - p - 1), 0);
		if (pb_read_varint(&c, &len))
			return packets > 0 && c.err == PB_E_TRUNCATED;
		avail = (size_t)(c.end - c.p);
		if (packets) {
			if (len > avail)
				return 1;
		} else if (len > avail) {
			if (!(how & SNIFF_INFLATED) && sniff_compressed(c.p, avail))
				return 1;
			r = packet_parses(c.p, avail, &fields, &known);
			if (r == -PB_E_WIRE || r == -PB_E_FIELD || r == -PB_E_OVERLONG)
				return 0;
			return fields >= 2 && known >= 1;
		} else if (packet_parses(c.p, (size_t)len, &fields, &known) < 0 || !known) {
			return 0;
		}
		packets++;
		p = c.p + len;
		if (how & SNIFF_FIRST)
			return 1;
	}
	return packets > 0;
}

/* A Trace, or a gzip'd one: then what the head's bytes inflate to (as far as they go) is. */
int perfetto_sniff(const char *head, size_t n)
{
	if (n >= 2 && (uint8_t)head[0] == 0x1f && (uint8_t)head[1] == 0x8b)
		return sniff_inflated(head, n, TRAX_Z_GZIP);
	return sniff_trace((const uint8_t *)head, n, 0);
}
