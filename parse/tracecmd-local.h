/*
 * parse/tracecmd-local.h: libtracecmd functions that the library exports but its public header
 * (trace-cmd.h, 1.3) does not declare: the trace clock, uname, CPU stats, the file's version
 * and compression, rewinding a buffer after a look at its first records, and the parse of a hook
 * option (parse/datlayout.c checks one before the open dereferences it).
 *
 * Choice (documented in doc/db.md): we declare these ourselves rather than parse the file's
 * option sections again. Their signatures are stable since libtracecmd 1.0 (the private header
 * trace-cmd-private.h of trace-cmd 3.0 - 3.2); the Makefile sets TRAX_TRACECMD_ABI=1 only for
 * libtracecmd versions in [1.3, 1.6) that we checked. Outside that range these are not used
 * and the corresponding meta keys are left out, rather than calling a function whose ABI may
 * have changed.
 */
#ifndef TRAX_PARSE_TRACECMD_LOCAL_H
#define TRAX_PARSE_TRACECMD_LOCAL_H

#include <trace-cmd.h>

#if TRAX_TRACECMD_ABI
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
const char *tracecmd_get_uname(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle, const char **name,
				     const char **version);
void tracecmd_set_all_cpus_to_timestamp(struct tracecmd_input *handle, unsigned long long time);
/* the parse of a hook option, as the open does it (NULL: it cannot) */
struct hook_list;
struct hook_list *tracecmd_create_event_hook(const char *arg);
void tracecmd_free_hooks(struct hook_list *hooks);
#endif

#endif
