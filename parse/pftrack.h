/* parse/pftrack.h: internal to parse/: a Perfetto trace's track events (the SDK's slices,
 * instants and counters, android.os.Trace through it). */
#ifndef TRAX_PARSE_PFTRACK_H
#define TRAX_PARSE_PFTRACK_H

#include <stdint.h>

#include "parse/pbwire.h"
#include "parse/pfinfo.h"
#include "parse/sink.h"

/*
 * Track events name their track by uuid (TrackDescriptor: a thread's, a process's, a counter,
 * or a named track under a process) and their names by interned ids, per packet sequence and
 * generation of its incremental state (a packet flagged SEQ_INCREMENTAL_STATE_CLEARED starts a
 * new one). parse/perfetto.c hands the descriptors, interned data and defaults over in its
 * first pass (file order: a sequence's packets in order), lists each track event's packet in a
 * run, and in the second pass gives each back, in time order with the ftrace events, to
 * pftrack_event(), which writes it as the atrace marker of the same meaning (ld_marker()): a
 * thread track's slices as B/E, other tracks' as G/H (nested by depth), instants as I, counters
 * as C. So the slice, instant and counter rows are those a systrace of the same markers gives.
 */
struct pftrack;

/* A track event read in pass 2, until it is emitted (each run holds its next one). */
struct pftrack_event {
	uint64_t ts, track;
	int type;
	const char *name;	/* in the mapped file */
	int nlen;
	int has_value, is_double;
	int64_t ival;
	double dval;
};

struct pftrack *pftrack_alloc(struct loader *L, const struct pfinfo *info);
void pftrack_free(struct pftrack *T);

/* A track_descriptor packet field (f, in cursor pc). 0 or -PB_E_* with *bad, *what set. */
int pftrack_descriptor(struct pftrack *T, const struct pb_cursor *pc, const struct pb_field *f,
		       struct pb_cursor *bad, const char **what);
/* A packet's interned_data (sequence seq, generation gen). */
int pftrack_interned(struct pftrack *T, uint32_t seq, uint32_t gen, const struct pb_cursor *pc,
		     const struct pb_field *f, struct pb_cursor *bad, const char **what);
/* A packet's trace_packet_defaults: the sequence's default track and clock. */
int pftrack_defaults(struct pftrack *T, uint32_t seq, const struct pb_cursor *pc,
		     const struct pb_field *f, struct pb_cursor *bad, const char **what);

/*
 * Pass 2: the track event of packet (p, n) at file offset off, of sequence seq and generation
 * gen, into *ev (ev->ts: its time on the boot clock). 1: emit it with pftrack_emit(); 0: skipped
 * (counted: no timestamp, a clock trax cannot convert); negative: a corrupt packet (the error
 * set on the loader, naming path and the byte offset).
 */
int pftrack_read(struct pftrack *T, const char *path, const uint8_t *p, size_t n, uint64_t off,
		 uint32_t seq, uint32_t gen, struct pftrack_event *ev);
/* A track event packet without a timestamp (not placed in time: counted, skipped). */
void pftrack_untimed(struct pftrack *T);
/* An event pftrack_read() read, as a marker. */
void pftrack_emit(struct pftrack *T, const struct pftrack_event *ev);

/* meta perfetto.track_event.* */
void pftrack_finish(struct pftrack *T);

#endif
