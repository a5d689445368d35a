/* tests/unit/canned.h: canned event values and field lists for unit tests that feed the loader. */
#ifndef TRAX_TESTS_CANNED_H
#define TRAX_TESTS_CANNED_H

#include <stdint.h>
#include <string.h>

#include "parse/derive.h"
#include "parse/load.h"

/* A string value (no NUL needed) and an integer value of an event field. */
static inline struct ld_val S(const char *s)
{
	struct ld_val v = { .kind = LD_STR, .s = s, .len = (int)strlen(s) };

	return v;
}

static inline struct ld_val I(int64_t i)
{
	struct ld_val v = { .kind = LD_I64, .i = i };

	return v;
}

/* Field lists as this machine's kernel formats name them (sched/sched_switch/format ...). */
static const struct ld_field_def switch_fields[] = {
	{ "prev_comm", LD_TEXT, 0, 1, 0 }, { "prev_pid", LD_INT, 0, 0, 0 },
	{ "prev_prio", LD_INT, 0, 0, 0 }, { "prev_state", LD_INT, 0, 0, 0 },
	{ "next_comm", LD_TEXT, 0, 1, 0 }, { "next_pid", LD_INT, 0, 0, 0 },
	{ "next_prio", LD_INT, 0, 0, 0 },
};
static const struct ld_field_def waking_fields[] = {
	{ "comm", LD_TEXT, 0, 1, 0 }, { "pid", LD_INT, 0, 0, 0 }, { "prio", LD_INT, 0, 0, 0 },
	{ "target_cpu", LD_INT, 0, 0, 0 },
};
/* power/cpu_idle and power/cpu_frequency share their fields */
static const struct ld_field_def cpu_state_fields[] = {
	{ "state", LD_INT, 0, 0, 1 }, { "cpu_id", LD_INT, 0, 0, 1 },
};

#endif
