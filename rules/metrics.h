/*
 * rules/metrics.h: the metric catalogue, one row per rule metric and every fact of it. An
 * X-macro file, no include guard: a user defines TRAX_METRIC() to the columns it needs,
 * includes this file, and undefines it. Columns a user drops are never expanded, so each
 * column names things only its own user knows.
 *
 * TRAX_METRIC(ID, "name", family, takes, requires, dimension, flags, eval, "needs", "loads",
 *             chart)
 *   ID, name	the enum constant TRAX_METRIC_ID, the name rule files give
 *   family	SCHED: the scheduler tables; COUNTER: counter tracks; SQL; ANDROID: the tables
 *		of parse/android.h (TRAX_FAMILY_*, rules/rules.h)
 *   takes,	the keys a rule of it may and must give (K_*, rules/rules.c)
 *   requires
 *   dimension	its value's natural dimension (TRAX_DIM_*)
 *   flags	MF_PERCENT: may also be expected in % (of the window); MF_SAMPLES: a statistic
 *		of a distribution of durations ("stat" required; count is a count);
 *		MF_MEMTRACK: a statistic of a memory counter ("stat": max, min, mean, last)
 *   eval	the function of assert/metrics.c that computes it
 *   needs	events the trace must hold, else the rule is SKIPPED: "a;b" both, "a|b" one
 *		of them; NULL: none, or (counter) the track's own event
 *   loads	events `trax check` loads for it beyond the rule's window markers and
 *		"requires"; "*": every event; NULL: (counter) the track's own event
 *   chart	what `trax report` draws for a rule of it: TIMELINE_ONLY, or the timeline and
 *		RESIDENCY, CDF or HISTOGRAM (TRAX_PLOT_*); COUNTERS: the counter track; NONE
 *
 * Adding a metric is a row here and its eval function (doc/extending.md). Definitions, with
 * examples, are in doc/rules.md.
 */

#ifndef TRAX_METRIC_EVENT_LISTS
#define TRAX_METRIC_EVENT_LISTS
/* The scheduler events thread tracking and slices come from. */
#define TRAX_LOADS_SCHED "sched_switch,sched_waking,sched_wakeup,sched_wakeup_new," \
	"sched_process_fork,sched_process_exec,sched_process_exit,task_newtask,task_rename"
/* ION and dma-heap allocations, and what the clients' names come from */
#define TRAX_NEEDS_ION "ion_alloc_buffer_start|ion_alloc_buffer_end|ion_alloc_buffer_fail|" \
	"ion_stat|dma_heap_stat"
#define TRAX_LOADS_ION "ion_alloc_buffer_start,ion_alloc_buffer_end,ion_alloc_buffer_fail," \
	"ion_alloc_buffer_fallback,ion_stat,dma_heap_stat,ion_heap_grow,ion_heap_shrink," \
	"sched_process_exec,task_rename"
/* kills: the events, lmkd's markers, and what names and oom_score_adj come from */
#define TRAX_LOADS_KILLS "lowmemory_kill,mark_victim,print,oom_score_adj_update,task_newtask," \
	"task_rename,sched_process_fork,sched_process_exec,sched_process_exit,sched_switch"
/* fences in all their spellings, atrace's fence markers, and the waiting threads' names */
#define TRAX_LOADS_FENCES "dma_fence_init,dma_fence_emit,dma_fence_enable_signal," \
	"dma_fence_signaled,dma_fence_destroy,dma_fence_wait_start,dma_fence_wait_end," \
	"fence_init,fence_emit,fence_enable_signal,fence_signaled,fence_destroy," \
	"fence_wait_start,fence_wait_end,fence_annotate_wait_on,sync_wait,sync_pt," \
	"sync_timeline,print,sched_switch,sched_process_fork,sched_process_exec,task_newtask," \
	"task_rename"
#endif

/* the scheduler: slices and states of the selected tasks */
TRAX_METRIC(RUNTIME, "runtime", SCHED, K_TASK | K_AGG, K_TASK, TRAX_DIM_TIME, 0,
	    metric_sched, "sched_switch", TRAX_LOADS_SCHED, HISTOGRAM)
TRAX_METRIC(RESIDENCY, "residency", SCHED, K_TASK | K_CPUS | K_AGG, K_TASK | K_CPUS,
	    TRAX_DIM_TIME, MF_PERCENT, metric_sched, "sched_switch", TRAX_LOADS_SCHED, RESIDENCY)
TRAX_METRIC(DUTY_CYCLE, "duty_cycle", SCHED, K_TASK | K_AGG, K_TASK, TRAX_DIM_PERCENT, 0,
	    metric_sched, "sched_switch", TRAX_LOADS_SCHED, HISTOGRAM)
TRAX_METRIC(ACTIVATIONS, "activations", SCHED, K_TASK | K_AGG, K_TASK, TRAX_DIM_COUNT, 0,
	    metric_sched, "sched_switch", TRAX_LOADS_SCHED, HISTOGRAM)
TRAX_METRIC(PERIOD, "period", SCHED, K_TASK | K_AGG, K_TASK, TRAX_DIM_TIME, 0,
	    metric_sched, "sched_switch", TRAX_LOADS_SCHED, HISTOGRAM)
TRAX_METRIC(WAKEUP_LATENCY, "wakeup_latency", SCHED, K_TASK | K_STAT | K_AGG, K_TASK,
	    TRAX_DIM_TIME, MF_SAMPLES, metric_state, "sched_switch;sched_waking|sched_wakeup",
	    TRAX_LOADS_SCHED, CDF)
TRAX_METRIC(RUNNABLE, "runnable", SCHED, K_TASK | K_AGG, K_TASK, TRAX_DIM_TIME, MF_PERCENT,
	    metric_state, "sched_switch", TRAX_LOADS_SCHED, CDF)
TRAX_METRIC(PREEMPTED, "preempted", SCHED, K_TASK | K_AGG, K_TASK, TRAX_DIM_TIME, MF_PERCENT,
	    metric_state, "sched_switch", TRAX_LOADS_SCHED, CDF)
TRAX_METRIC(START_TIME, "start_time", SCHED, K_TASK | K_AGG, K_TASK, TRAX_DIM_TIME, 0,
	    metric_sched, "sched_switch", TRAX_LOADS_SCHED, TIMELINE_ONLY)
TRAX_METRIC(END_TIME, "end_time", SCHED, K_TASK | K_AGG, K_TASK, TRAX_DIM_TIME, 0,
	    metric_sched, "sched_switch", TRAX_LOADS_SCHED, TIMELINE_ONLY)
TRAX_METRIC(FIRST_CPU, "first_cpu", SCHED, K_TASK | K_AGG, K_TASK, TRAX_DIM_CPU, 0,
	    metric_sched, "sched_switch", TRAX_LOADS_SCHED, RESIDENCY)
TRAX_METRIC(LAST_CPU, "last_cpu", SCHED, K_TASK | K_AGG, K_TASK, TRAX_DIM_CPU, 0,
	    metric_sched, "sched_switch", TRAX_LOADS_SCHED, RESIDENCY)
TRAX_METRIC(MIGRATIONS, "migrations", SCHED, K_TASK | K_AGG, K_TASK, TRAX_DIM_COUNT, 0,
	    metric_sched, "sched_switch", TRAX_LOADS_SCHED, RESIDENCY)
TRAX_METRIC(SWITCH, "switch", SCHED, K_TASK | K_FROMTO | K_AGG, K_TASK | K_FROMTO,
	    TRAX_DIM_COUNT, 0, metric_sched, "sched_switch", TRAX_LOADS_SCHED, RESIDENCY)
TRAX_METRIC(BUSY, "busy", SCHED, K_TASK | K_CPUS | K_AGG, 0, TRAX_DIM_TIME, MF_PERCENT,
	    metric_busy, "sched_switch", TRAX_LOADS_SCHED, RESIDENCY)

/* counter tracks: thermal zones, cpu_frequency, cpu_idle, any counter */
TRAX_METRIC(THERMAL_RESIDENCY, "thermal_residency", COUNTER, K_ZONE | K_RANGE,
	    K_ZONE | K_RANGE, TRAX_DIM_TIME, MF_PERCENT, metric_thermal, "thermal_temperature",
	    "thermal_temperature", COUNTERS)
TRAX_METRIC(COUNTER, "counter", COUNTER, K_TRACK | K_ZONE | K_CPU | K_STAT | K_LEVEL,
	    K_TRACK | K_STAT, TRAX_DIM_COUNT, MF_PERCENT, metric_counter, NULL, NULL, COUNTERS)

/* a query of the user's */
TRAX_METRIC(SQL, "sql", SQL, K_QUERY, K_QUERY, TRAX_DIM_COUNT, 0, metric_sql, NULL, "*", NONE)

/* Android: allocations, heap totals, kills, fences, GPU memory (assert/android.c) */
TRAX_METRIC(ALLOC_COUNT, "alloc_count", ANDROID, K_HEAP | K_CLIENT, 0, TRAX_DIM_COUNT, 0,
	    metric_android, TRAX_NEEDS_ION, TRAX_LOADS_ION, TIMELINE_ONLY)
TRAX_METRIC(ALLOC_BYTES, "alloc_bytes", ANDROID, K_HEAP | K_CLIENT, 0, TRAX_DIM_BYTES, 0,
	    metric_android, TRAX_NEEDS_ION, TRAX_LOADS_ION, TIMELINE_ONLY)
TRAX_METRIC(ALLOC_FAILURES, "alloc_failures", ANDROID, K_HEAP | K_CLIENT, 0, TRAX_DIM_COUNT,
	    0, metric_android, "ion_alloc_buffer_fail|ion_alloc_buffer_fallback", TRAX_LOADS_ION,
	    TIMELINE_ONLY)
TRAX_METRIC(ALLOC_FALLBACKS, "alloc_fallbacks", ANDROID, K_HEAP | K_CLIENT, 0, TRAX_DIM_COUNT,
	    0, metric_android, "ion_alloc_buffer_fallback", TRAX_LOADS_ION, TIMELINE_ONLY)
TRAX_METRIC(ALLOC_LATENCY, "alloc_latency", ANDROID, K_HEAP | K_CLIENT | K_STAT, 0,
	    TRAX_DIM_TIME, MF_SAMPLES, metric_android, "ion_alloc_buffer_start", TRAX_LOADS_ION,
	    TIMELINE_ONLY)
TRAX_METRIC(HEAP_TOTAL, "heap_total", ANDROID, K_HEAP | K_STAT, 0, TRAX_DIM_BYTES,
	    MF_MEMTRACK, metric_android, "ion_heap_grow|ion_heap_shrink|ion_stat|dma_heap_stat",
	    TRAX_LOADS_ION, TIMELINE_ONLY)
TRAX_METRIC(KILLS, "kills", ANDROID, K_WHERE, 0, TRAX_DIM_COUNT, 0, metric_android,
	    "lowmemory_kill|mark_victim", TRAX_LOADS_KILLS, TIMELINE_ONLY)
TRAX_METRIC(KILL_ORDER, "kill_order", ANDROID, K_WHERE, 0, TRAX_DIM_COUNT, 0, metric_android,
	    "lowmemory_kill|mark_victim", TRAX_LOADS_KILLS, TIMELINE_ONLY)
TRAX_METRIC(FENCE_LATENCY, "fence_latency", ANDROID, K_TIMELINE | K_DRIVER | K_STAT, 0,
	    TRAX_DIM_TIME, MF_SAMPLES, metric_android,
	    "dma_fence_signaled|fence_signaled|sync_timeline", TRAX_LOADS_FENCES, TIMELINE_ONLY)
TRAX_METRIC(FENCE_WAIT, "fence_wait", ANDROID, K_TASK | K_TIMELINE | K_STAT | K_AGG, 0,
	    TRAX_DIM_TIME, MF_SAMPLES, metric_android,
	    "dma_fence_wait_start|fence_wait_start|sync_wait", TRAX_LOADS_FENCES, TIMELINE_ONLY)
TRAX_METRIC(FENCE_UNSIGNALED, "fence_unsignaled", ANDROID, K_TIMELINE | K_DRIVER, 0,
	    TRAX_DIM_COUNT, 0, metric_android,
	    "dma_fence_init|dma_fence_emit|fence_init|fence_emit|sync_pt", TRAX_LOADS_FENCES,
	    TIMELINE_ONLY)
TRAX_METRIC(FENCE_SEQNO, "fence_seqno_violations", ANDROID, K_TIMELINE | K_DRIVER, 0,
	    TRAX_DIM_COUNT, 0, metric_android, "dma_fence_signaled|fence_signaled",
	    TRAX_LOADS_FENCES, TIMELINE_ONLY)
TRAX_METRIC(GPU_MEM, "gpu_mem", ANDROID, K_TASK | K_STAT | K_AGG, 0, TRAX_DIM_BYTES,
	    MF_MEMTRACK, metric_android, "gpu_mem_total",
	    "gpu_mem_total,sched_switch,sched_process_fork,sched_process_exec,task_newtask,"
	    "task_rename", TIMELINE_ONLY)
