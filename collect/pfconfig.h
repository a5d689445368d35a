/*
 * collect/pfconfig.h: a Perfetto trace config from `trax collect`'s options, for a device
 * where trax cannot run its own collector (Android without root): the device's `perfetto`
 * command records it (doc/android.md).
 */
#ifndef TRAX_COLLECT_PFCONFIG_H
#define TRAX_COLLECT_PFCONFIG_H

#include "collect/collect.h"

/* Without -t: a capture with no workload lasts this long; one with a workload is stopped by
 * trax when the workload ends, and by the device itself after the cap (a lost connection). */
#define TRAX_PF_DEFAULT_MS 10000u
#define TRAX_PF_WORKLOAD_CAP_MS 600000u
/* The main trace buffer (traced's, not the kernel's): at least this, 16 x -b KB with -b, at
 * most TRAX_PF_BUFFER_MAX_KB. The process-stats buffer is TRAX_PF_PROC_BUFFER_KB. */
#define TRAX_PF_BUFFER_MIN_KB 65536u
#define TRAX_PF_BUFFER_MAX_KB 262144u
#define TRAX_PF_PROC_BUFFER_KB 4096u
/* How often traced writes its buffer into the output file (write_into_file). */
#define TRAX_PF_WRITE_PERIOD_MS 1000u

/*
 * The TraceConfig (perfetto.protos.TraceConfig of Perfetto's public schema) as protobuf text,
 * what `perfetto --txt -c FILE|-` reads: the presets' and -e's ftrace events as "group/name"
 * (every spelling of an event renamed between kernels: the kernel has one of them), ftrace/print
 * always (trace markers), atrace categories (the android preset's, and opts->atrace_categories)
 * and apps, -b as the kernel's per-CPU buffer, -t as duration_ms, compact_sched, and
 * linux.process_stats for thread names. Only fields that Android 11's perfetto knows are used.
 * Returns 0 and *text (malloc'd, the caller frees it), or -TRAX_E_USAGE with err naming the
 * unknown preset or the malformed event, category or app name (then *text is NULL).
 */
int trax_perfetto_config(const struct trax_collect_opts *opts, char **text,
			 struct trax_error *err);

/*
 * What a capture through the device's perfetto cannot record that trax's own collector (run
 * as root) records, for these options: one line each (no newline), NULL-terminated. Free with
 * trax_perfetto_limits_free().
 */
char **trax_perfetto_limits(const struct trax_collect_opts *opts);
void trax_perfetto_limits_free(char **limits);

#endif
