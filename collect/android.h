/* collect/android.h: capturing on a phone without root, with the device's perfetto. */
#ifndef TRAX_COLLECT_ANDROID_H
#define TRAX_COLLECT_ANDROID_H

#include "collect/collect.h"

struct trax_target;

/*
 * Record with the device's `perfetto` (the config of collect/pfconfig.c on its stdin), run the
 * workload meanwhile, pull the trace to o->output (a Perfetto trace), and say what this path
 * cannot record. 0, or a negative error naming the target (the workload failing: the trace
 * is kept as OUT.incomplete).
 */
int trax_collect_android(const struct trax_collect_opts *o, struct trax_target *t,
			 struct trax_error *err);

#endif
