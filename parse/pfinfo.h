/* parse/pfinfo.h: internal to parse/: what a Perfetto trace says about its machine and itself. */
#ifndef TRAX_PARSE_PFINFO_H
#define TRAX_PARSE_PFINFO_H

#include <stdint.h>

#include "parse/pbwire.h"
#include "parse/sink.h"

/*
 * The packets of a Perfetto trace that are no events but facts about them (parse/perfetto.c
 * hands them over in its first pass, before any event reaches the sink):
 *   process data (process_tree, process_descriptor, thread_descriptor, track_descriptor):
 *	tasks, their processes and names, to the sink as ld_task();
 *   system_info: the kernel (meta kernel), so prev_state is read with its numbering;
 *   cpu_info: each CPU's capacity and frequencies, as the target's facts (meta
 *	cpu.N.capacity, cpu.N.freqs, target.ncpus; doc/db.md "Target facts");
 *   ftrace_stats: the kernel ring buffers' overruns and drops per CPU, end minus start;
 *   trace_stats: chunks the tracing service overwrote or discarded (packets lost there);
 *   clock_snapshot: the offsets from the boot clock (the ftrace clock) to the others.
 * Meta is written at pfinfo_finish().
 */
struct pfinfo;

struct pfinfo *pfinfo_alloc(struct loader *L);
void pfinfo_free(struct pfinfo *I);

/* Whether a packet data field of this number is one of those above. */
int pfinfo_kind(uint32_t num);

/*
 * The packet field f (read from cursor pc; its kind one pfinfo_kind() accepts). 0, or a
 * negative -PB_E_* error with *bad the cursor it is about and *what what was being read.
 */
int pfinfo_packet(struct pfinfo *I, const struct pb_cursor *pc, const struct pb_field *f,
		  struct pb_cursor *bad, const char **what);

/* Events the ring buffer of cpu lost during the trace (overruns and drops), from ftrace_stats:
 * -1 when the trace does not say. */
int64_t pfinfo_lost(const struct pfinfo *I, int cpu);

/*
 * The offset of a builtin clock from the boot clock (the clock less boot), from the first clock
 * snapshot: 1 when known (boot itself: 0), else 0.
 */
int pfinfo_clock_offset(const struct pfinfo *I, uint32_t clock_id, int64_t *off);
/* The clock of packet timestamps that name none: the snapshot's primary clock, else boot. */
uint32_t pfinfo_primary_clock(const struct pfinfo *I);

/* After the first pass: meta, and the prev_state numbering of the kernel. */
void pfinfo_finish(struct pfinfo *I);

#endif
