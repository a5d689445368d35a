/* parse/perfetto-generic.h: internal to parse/: Perfetto's GenericFtraceEvent (perfetto.c). */
#ifndef TRAX_PARSE_PERFETTO_GENERIC_H
#define TRAX_PARSE_PERFETTO_GENERIC_H

#include <stdint.h>

#include "parse/pbwire.h"
#include "parse/sink.h"

/*
 * A GenericFtraceEvent is an ftrace event the recording Perfetto had no message for: its
 * name and its fields, each a name and a string, signed or unsigned value, as the device's
 * format gave them. Each event name becomes a table (the event type of that name when the
 * reader registered one already), its columns the fields of its first event in their order;
 * the catalogue names its system (parse/events.h; "" when it does not know the name, as for
 * a text trace).
 */
struct pf_generic;

/* The generic events of one load into L, of the file path (for messages). */
struct pf_generic *pf_generic_new(struct loader *L, const char *path);
void pf_generic_free(struct pf_generic *G);

/*
 * The GenericFtraceEvent body (a field of the event cursor ec) at ts on cpu by pid, into the
 * sink. *unknown counts the fields its table has no column for. 0; 1 when it has no usable
 * name (or is past the limit of distinct names): the caller writes it to raw_event; or a
 * negative error, the message naming the file and the byte offset.
 */
int pf_generic_emit(struct pf_generic *G, const struct pb_cursor *ec, const struct pb_field *body,
		    uint64_t ts, int cpu, int pid, uint64_t *unknown);

/* Events decoded, and distinct event names (tables). */
uint64_t pf_generic_events(const struct pf_generic *G);
int pf_generic_names(const struct pf_generic *G);

#endif
