/* parse/pftrack.c: a Perfetto trace's track events, as the atrace markers of the same meaning. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/perfetto-fields.h"
#include "parse/pftrack.h"
#include "util/grow.h"
#include "util/xalloc.h"

#define NAME_MAX_LEN 240	/* of a slice, track or counter name in a marker */

/* A track: what its descriptor says (names point into the mapped file). */
struct track {
	uint64_t uuid, parent;
	const char *name;
	int nlen;
	int pid, tid;		/* a process's pid, a thread's tid (and its process): -1 unknown */
	int is_thread, is_process, is_counter;
	int depth;		/* slices open on it (G/H cookies) */
};

/* An interned event name of a sequence's generation. */
struct iname {
	uint64_t key;		/* seq << 32 | gen */
	uint64_t iid;
	const char *s;
	int len;
};

struct seqdef {
	uint32_t seq;
	uint64_t track;		/* TrackEventDefaults.track_uuid: 0 none */
	uint32_t clock;		/* TracePacketDefaults.timestamp_clock_id: 0 none */
};

struct pftrack {
	struct loader *L;
	const struct pfinfo *info;
	struct track *tracks;		/* open addressing on uuid */
	size_t tcap, ntracks;
	struct iname *names;		/* open addressing on (key, iid) */
	size_t ncap, nnames;
	struct seqdef *seqs;
	int nseqs, scap;
	/* counts for meta */
	uint64_t events, slices_begun, slices_ended, instants, counters;
	uint64_t no_track, no_time, bad_clock, unknown_type, name_unknown, end_unmatched;
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

struct pftrack *pftrack_alloc(struct loader *L, const struct pfinfo *info)
{
	struct pftrack *T = xcalloc(1, sizeof(*T));

	T->L = L;
	T->info = info;
	return T;
}

void pftrack_free(struct pftrack *T)
{
	if (!T)
		return;
	free(T->tracks);
	free(T->names);
	free(T->seqs);
	free(T);
}

/* ---- tables ---- */

static struct track *track_find(struct pftrack *T, uint64_t uuid)
{
	if (!T->tcap || !uuid)
		return NULL;
	for (size_t i = mix(uuid) & (T->tcap - 1);; i = (i + 1) & (T->tcap - 1)) {
		if (T->tracks[i].uuid == uuid)
			return &T->tracks[i];
		if (!T->tracks[i].uuid)
			return NULL;
	}
}

static struct track *track_get(struct pftrack *T, uint64_t uuid)
{
	struct track *t = track_find(T, uuid);

	if (t)
		return t;
	if ((T->ntracks + 1) * 2 > T->tcap) {
		struct track *old = T->tracks;
		size_t ocap = T->tcap;

		T->tcap = ocap ? ocap * 2 : 64;
		T->tracks = xcalloc(T->tcap, sizeof(*T->tracks));
		for (size_t i = 0; i < ocap; i++)
			if (old[i].uuid) {
				size_t j = mix(old[i].uuid) & (T->tcap - 1);

				while (T->tracks[j].uuid)
					j = (j + 1) & (T->tcap - 1);
				T->tracks[j] = old[i];
			}
		free(old);
	}
	for (size_t i = mix(uuid) & (T->tcap - 1);; i = (i + 1) & (T->tcap - 1))
		if (!T->tracks[i].uuid) {
			t = &T->tracks[i];
			memset(t, 0, sizeof(*t));
			t->uuid = uuid;
			t->pid = t->tid = -1;
			T->ntracks++;
			return t;
		}
}

static size_t name_slot(const struct pftrack *T, uint64_t key, uint64_t iid)
{
	size_t i = mix(key * 0x9e3779b97f4a7c15ULL ^ iid) & (T->ncap - 1);

	while (T->names[i].s && (T->names[i].key != key || T->names[i].iid != iid))
		i = (i + 1) & (T->ncap - 1);
	return i;
}

static void name_put(struct pftrack *T, uint64_t key, uint64_t iid, const char *s, int len)
{
	size_t i;

	if ((T->nnames + 1) * 2 > T->ncap) {
		struct iname *old = T->names;
		size_t ocap = T->ncap;

		T->ncap = ocap ? ocap * 2 : 256;
		T->names = xcalloc(T->ncap, sizeof(*T->names));
		for (size_t k = 0; k < ocap; k++)
			if (old[k].s)
				T->names[name_slot(T, old[k].key, old[k].iid)] = old[k];
		free(old);
	}
	i = name_slot(T, key, iid);
	if (!T->names[i].s)
		T->nnames++;
	T->names[i] = (struct iname){ key, iid, s, len };
}

static const struct iname *name_get(const struct pftrack *T, uint64_t key, uint64_t iid)
{
	size_t i;

	if (!T->ncap)
		return NULL;
	i = name_slot(T, key, iid);
	return T->names[i].s ? &T->names[i] : NULL;
}

static struct seqdef *seq_def(struct pftrack *T, uint32_t seq, int create)
{
	for (int i = 0; i < T->nseqs; i++)
		if (T->seqs[i].seq == seq)
			return &T->seqs[i];
	if (!create)
		return NULL;
	TRAX_GROW(T->seqs, T->nseqs, T->scap, 8);
	T->seqs[T->nseqs] = (struct seqdef){ seq, 0, 0 };
	return &T->seqs[T->nseqs++];
}

/* ---- pass 1 ---- */

static int fail(struct pb_cursor *bad, const char **what, const struct pb_cursor *c,
		const char *w)
{
	*bad = *c;
	*what = w;
	return -(c->err ? c->err : PB_E_TYPE);
}

#define WANT(c, f, t, w)                                                        \
	do {                                                                    \
		if (pb_expect((c), (f), (t)))                                   \
			return fail(bad, what, (c), (w));                       \
	} while (0)

int pftrack_descriptor(struct pftrack *T, const struct pb_cursor *pc, const struct pb_field *f,
		       struct pb_cursor *bad, const char **what)
{
	struct pb_cursor c, s;
	struct pb_field g, h;
	struct track d = { .pid = -1, .tid = -1 };
	struct track *t;
	int r;

	pb_sub(pc, f, &c);
	while ((r = pb_next(&c, &g)) > 0) {
		switch (g.num) {
		case PF_TRACK_UUID:
		case PF_TRACK_PARENT_UUID:
			WANT(&c, &g, PB_VARINT, "a track descriptor");
			if (g.num == PF_TRACK_UUID)
				d.uuid = g.val;
			else
				d.parent = g.val;
			break;
		case PF_TRACK_NAME:
		case PF_TRACK_STATIC_NAME:
		case PF_TRACK_ATRACE_NAME:
			WANT(&c, &g, PB_LEN, "a track descriptor");
			d.name = (const char *)g.data;
			d.nlen = (int)(g.len < NAME_MAX_LEN ? g.len : NAME_MAX_LEN);
			break;
		case PF_TRACK_COUNTER:
			WANT(&c, &g, PB_LEN, "a track descriptor");
			d.is_counter = 1;
			break;
		case PF_TRACK_PROCESS:
		case PF_TRACK_THREAD:
			WANT(&c, &g, PB_LEN, "a track descriptor");
			pb_sub(&c, &g, &s);
			if (g.num == PF_TRACK_PROCESS)
				d.is_process = 1;
			else
				d.is_thread = 1;
			while ((r = pb_next(&s, &h)) > 0) {
				/* ProcessDescriptor.pid and ThreadDescriptor.pid are field 1 */
				if (h.num == PF_PDESC_PID || (g.num == PF_TRACK_THREAD &&
							      h.num == PF_TDESC_TID)) {
					WANT(&s, &h, PB_VARINT, "a track descriptor");
					if (h.num == PF_TDESC_TID)
						d.tid = (int)(int64_t)h.val;
					else
						d.pid = (int32_t)(uint32_t)h.val;
				}
			}
			if (r < 0)
				return fail(bad, what, &s, "a track descriptor");
			break;
		}
	}
	if (r < 0)
		return fail(bad, what, &c, "a track descriptor");
	if (!d.uuid)
		return 0;
	t = track_get(T, d.uuid);
	d.depth = t->depth;
	*t = d;
	return 0;
}

int pftrack_interned(struct pftrack *T, uint32_t seq, uint32_t gen, const struct pb_cursor *pc,
		     const struct pb_field *f, struct pb_cursor *bad, const char **what)
{
	struct pb_cursor c, e;
	struct pb_field g, h;
	int r;

	pb_sub(pc, f, &c);
	while ((r = pb_next(&c, &g)) > 0) {
		uint64_t iid = 0;
		const char *s = NULL;
		int len = 0;

		if (g.num != PF_INTERNED_EVENT_NAMES)
			continue;
		WANT(&c, &g, PB_LEN, "an interned event name");
		pb_sub(&c, &g, &e);
		while ((r = pb_next(&e, &h)) > 0) {
			if (h.num == PF_EVENT_NAME_IID) {
				WANT(&e, &h, PB_VARINT, "an interned event name");
				iid = h.val;
			} else if (h.num == PF_EVENT_NAME_NAME) {
				WANT(&e, &h, PB_LEN, "an interned event name");
				s = (const char *)h.data;
				len = (int)(h.len < NAME_MAX_LEN ? h.len : NAME_MAX_LEN);
			}
		}
		if (r < 0)
			return fail(bad, what, &e, "an interned event name");
		if (s)
			name_put(T, (uint64_t)seq << 32 | gen, iid, s, len);
	}
	return r < 0 ? fail(bad, what, &c, "interned data") : 0;
}

int pftrack_defaults(struct pftrack *T, uint32_t seq, const struct pb_cursor *pc,
		     const struct pb_field *f, struct pb_cursor *bad, const char **what)
{
	struct pb_cursor c, e;
	struct pb_field g, h;
	struct seqdef *sd = seq_def(T, seq, 1);
	int r;

	pb_sub(pc, f, &c);
	while ((r = pb_next(&c, &g)) > 0) {
		if (g.num == PF_DEFAULTS_CLOCK_ID) {
			WANT(&c, &g, PB_VARINT, "trace packet defaults");
			sd->clock = (uint32_t)g.val;
		} else if (g.num == PF_DEFAULTS_TRACK_EVENT) {
			WANT(&c, &g, PB_LEN, "trace packet defaults");
			pb_sub(&c, &g, &e);
			while ((r = pb_next(&e, &h)) > 0)
				if (h.num == PF_TE_DEFAULTS_TRACK_UUID) {
					WANT(&e, &h, PB_VARINT, "track event defaults");
					sd->track = h.val;
				}
			if (r < 0)
				return fail(bad, what, &e, "track event defaults");
		}
	}
	return r < 0 ? fail(bad, what, &c, "trace packet defaults") : 0;
}

/* ---- pass 2 ---- */

static int read_fail(struct pftrack *T, const char *path, const struct pb_cursor *c,
		     const char *w)
{
	return trax_error_set(ld_error(T->L), TRAX_E_FORMAT,
			      "%s: corrupt Perfetto trace at byte offset %llu (%s): %s", path,
			      (unsigned long long)c->err_off, w, pb_strerror(c->err ? c->err :
									    PB_E_TYPE));
}

int pftrack_read(struct pftrack *T, const char *path, const uint8_t *p, size_t n, uint64_t off,
		 uint32_t seq, uint32_t gen, struct pftrack_event *v)
{
	struct pb_cursor c, e;
	struct pb_field g, h;
	struct seqdef *sd = seq_def(T, seq, 0);
	uint64_t raw = 0, name_iid = 0;
	uint32_t clock = sd && sd->clock ? sd->clock : 0;
	int has_ts = 0, has_track = 0, r;
	int64_t o;

	memset(v, 0, sizeof(*v));
	pb_init(&c, p, n, off);
	while ((r = pb_next(&c, &g)) > 0) {
		if (g.num == PF_PACKET_TIMESTAMP || g.num == PF_PACKET_TIMESTAMP_CLOCK_ID) {
			if (pb_expect(&c, &g, PB_VARINT))
				return read_fail(T, path, &c, "a packet's own fields");
			if (g.num == PF_PACKET_TIMESTAMP) {
				raw = g.val;
				has_ts = 1;
			} else {
				clock = (uint32_t)g.val;
			}
			continue;
		}
		if (g.num != PF_PACKET_track_event)
			continue;
		if (pb_expect(&c, &g, PB_LEN))
			return read_fail(T, path, &c, "a track event");
		pb_sub(&c, &g, &e);
		while ((r = pb_next(&e, &h)) > 0) {
			switch (h.num) {
			case PF_TE_TYPE:
			case PF_TE_NAME_IID:
			case PF_TE_TRACK_UUID:
			case PF_TE_COUNTER_VALUE:
				if (pb_expect(&e, &h, PB_VARINT))
					return read_fail(T, path, &e, "a track event");
				if (h.num == PF_TE_TYPE)
					v->type = (int)h.val;
				else if (h.num == PF_TE_NAME_IID)
					name_iid = h.val;
				else if (h.num == PF_TE_TRACK_UUID)
					v->track = h.val, has_track = 1;
				else
					v->ival = (int64_t)h.val, v->has_value = 1, v->is_double = 0;
				break;
			case PF_TE_DOUBLE_COUNTER_VALUE:
				if (pb_expect(&e, &h, PB_I64))
					return read_fail(T, path, &e, "a track event");
				memcpy(&v->dval, &h.val, sizeof(v->dval));
				v->has_value = 1;
				v->is_double = 1;
				break;
			case PF_TE_NAME:
				if (pb_expect(&e, &h, PB_LEN))
					return read_fail(T, path, &e, "a track event");
				v->name = (const char *)h.data;
				v->nlen = (int)(h.len < NAME_MAX_LEN ? h.len : NAME_MAX_LEN);
				break;
			}
		}
		if (r < 0)
			return read_fail(T, path, &e, "a track event");
	}
	if (r < 0)
		return read_fail(T, path, &c, "a packet");
	T->events++;
	if (!has_track)
		v->track = sd ? sd->track : 0;
	if (!v->name && name_iid) {
		const struct iname *in = name_get(T, (uint64_t)seq << 32 | gen, name_iid);

		if (in) {
			v->name = in->s;
			v->nlen = in->len;
		} else {
			T->name_unknown++;
		}
	}
	if (!has_ts) {
		T->no_time++;
		return 0;
	}
	if (!clock)
		clock = pfinfo_primary_clock(T->info);
	/* boot = raw - (clock - boot): below zero only when the clock runs ahead of boot */
	if (!pfinfo_clock_offset(T->info, clock, &o) || (o > 0 && raw < (uint64_t)o)) {
		T->bad_clock++;
		return 0;
	}
	v->ts = raw - (uint64_t)o;
	return 1;
}

void pftrack_untimed(struct pftrack *T)
{
	T->events++;
	T->no_time++;
}

/* The process a track belongs to: its own, its thread's, or its nearest ancestor's. */
static int track_pid(struct pftrack *T, const struct track *t)
{
	for (int hops = 0; t && hops < 64; hops++) {
		if (t->pid > 0)
			return t->pid;
		t = t->parent ? track_find(T, t->parent) : NULL;
	}
	return -1;
}

void pftrack_emit(struct pftrack *T, const struct pftrack_event *v)
{
	struct track *t = track_find(T, v->track);
	char buf[2 * NAME_MAX_LEN + 96];
	const char *tname;
	int n = 0, pid, tnlen, writer;

	if (!t) {
		T->no_track++;
		return;
	}
	pid = track_pid(T, t);
	tname = t->name ? t->name : "";
	tnlen = t->name ? t->nlen : 0;
	/* the thread that writes the marker: the track's thread, else the process's main one */
	writer = t->is_thread && t->tid > 0 ? t->tid : pid;
	switch (v->type) {
	case PF_TE_SLICE_BEGIN:
		T->slices_begun++;
		if (t->is_thread)
			n = snprintf(buf, sizeof(buf), "B|%d|%.*s", pid > 0 ? pid : writer,
				     v->nlen, v->name ? v->name : "");
		else
			n = snprintf(buf, sizeof(buf), "G|%d|%.*s|%.*s|%d", pid > 0 ? pid : 0,
				     tnlen, tname, v->nlen, v->name ? v->name : "", t->depth++);
		break;
	case PF_TE_SLICE_END:
		T->slices_ended++;
		if (t->is_thread) {
			n = snprintf(buf, sizeof(buf), "E|%d", pid > 0 ? pid : writer);
		} else if (t->depth > 0) {
			n = snprintf(buf, sizeof(buf), "H|%d|%.*s|%d", pid > 0 ? pid : 0, tnlen,
				     tname, --t->depth);
		} else {
			T->end_unmatched++;
			return;
		}
		break;
	case PF_TE_INSTANT:
		T->instants++;
		if (t->is_thread)
			n = snprintf(buf, sizeof(buf), "I|%d|%.*s", pid > 0 ? pid : writer,
				     v->nlen, v->name ? v->name : "");
		else
			n = snprintf(buf, sizeof(buf), "N|%d|%.*s|%.*s", pid > 0 ? pid : 0, tnlen,
				     tname, v->nlen, v->name ? v->name : "");
		break;
	case PF_TE_COUNTER:
		if (!v->has_value) {
			T->unknown_type++;
			return;
		}
		T->counters++;
		if (v->is_double)
			n = snprintf(buf, sizeof(buf), "C|%d|%.*s|%.17g", pid > 0 ? pid : 0,
				     tnlen, tname, v->dval);
		else
			n = snprintf(buf, sizeof(buf), "C|%d|%.*s|%" PRId64, pid > 0 ? pid : 0,
				     tnlen, tname, v->ival);
		break;
	default:
		T->unknown_type++;
		return;
	}
	if (n <= 0 || n >= (int)sizeof(buf))
		return;
	ld_marker(T->L, v->ts, writer > 0 ? writer : -1, 0, buf, n);
}

void pftrack_finish(struct pftrack *T)
{
	static const char *const keys[] = {
		"events", "slice_begin", "slice_end", "instant", "counter", "skipped.no_track",
		"skipped.no_timestamp", "skipped.clock", "skipped.type", "name_unknown",
		"skipped.end_unmatched",
	};
	uint64_t v[] = {
		T->events, T->slices_begun, T->slices_ended, T->instants, T->counters,
		T->no_track, T->no_time, T->bad_clock, T->unknown_type, T->name_unknown,
		T->end_unmatched,
	};
	char key[64];

	ld_meta(T->L, "perfetto.track_event.tracks", "%zu", T->ntracks);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(key, sizeof(key), "perfetto.track_event.%s", keys[i]);
		ld_meta(T->L, key, "%llu", (unsigned long long)v[i]);
	}
}
