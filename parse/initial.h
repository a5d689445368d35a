/* parse/initial.h: internal to parse/: the "trax: initial ..." markers of trax captures. */
#ifndef TRAX_PARSE_INITIAL_H
#define TRAX_PARSE_INITIAL_H

#include <stdint.h>

/*
 * `trax collect` writes the state that counters start from as trace markers right after
 * tracing is turned on (collect/state.c):
 *
 *   trax: initial cpu_frequency cpu_id=0 state=1800000
 *   trax: initial cpu_idle cpu_id=1 state=4294967295
 *   trax: initial thermal_temperature id=0 temp=45000 thermal_zone=x86_pkg_temp
 *   trax: initial oom_score_adj_update pid=1234 oom_score_adj=0
 *   trax: initial task pid=1236 tgid=1234 comm=kworker/u8:2
 */
enum initial_kind {
	INITIAL_NONE,
	INITIAL_CPU_FREQUENCY,		/* cpu, value (kHz) */
	INITIAL_CPU_IDLE,		/* cpu, value (state; 4294967295 reads as -1) */
	INITIAL_THERMAL,		/* zone, value (temp, mC) */
	INITIAL_OOM_SCORE_ADJ,		/* pid, value */
	INITIAL_TASK,			/* pid, value (tgid), name (comm) */
};

struct initial_value {
	enum initial_kind kind;
	int cpu, pid;
	int64_t value;
	char zone[128];
	char name[64];		/* INITIAL_TASK: the thread's comm */
};

/* Parse a marker's text (len bytes, a trailing newline allowed). Returns 1 and fills v when
 * it is a well-formed initial-state marker, else 0. */
int initial_parse(const char *buf, int len, struct initial_value *v);

#endif
