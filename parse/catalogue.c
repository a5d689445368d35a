/* parse/catalogue.c: the event catalogue (parse/catalogue.h): what trax knows of each event. */
#include <string.h>

#include "parse/catalogue.h"

/* ---- text forms: the fields as this machine's kernel formats print them ---- */

#define END { NULL, 0, NULL }
static const struct bfield f_switch[] = {
	{ "prev_comm", BF_STR, NULL }, { "prev_pid", 0, NULL }, { "prev_prio", 0, NULL },
	{ "prev_state", BF_STATE, NULL }, { "next_comm", BF_STR, NULL }, { "next_pid", 0, NULL },
	{ "next_prio", 0, NULL }, END,
};
static const struct bfield f_wakeup[] = {
	{ "comm", BF_STR, NULL }, { "pid", 0, NULL }, { "prio", 0, NULL },
	{ "target_cpu", 0, NULL }, END,
};
static const struct bfield f_migrate[] = {
	{ "comm", BF_STR, NULL }, { "pid", 0, NULL }, { "prio", 0, NULL },
	{ "orig_cpu", 0, NULL }, { "dest_cpu", 0, NULL }, END,
};
static const struct bfield f_fork[] = {
	{ "parent_comm", BF_STR, "comm" }, { "parent_pid", 0, "pid" },
	{ "child_comm", BF_STR, NULL }, { "child_pid", 0, NULL }, END,
};
static const struct bfield f_exec[] = {
	{ "filename", BF_STR, NULL }, { "pid", 0, NULL }, { "old_pid", 0, NULL }, END,
};
static const struct bfield f_exit[] = {
	{ "comm", BF_STR, NULL }, { "pid", 0, NULL }, { "prio", 0, NULL },
	{ "group_dead", BF_UNS | BF_BOOL, NULL }, END,
};
static const struct bfield f_comm_pid_prio[] = {
	{ "comm", BF_STR, NULL }, { "pid", 0, NULL }, { "prio", 0, NULL }, END,
};
static const struct bfield f_runtime[] = {
	{ "comm", BF_STR, NULL }, { "pid", 0, NULL }, { "runtime", BF_UNS, NULL }, END,
};
static const struct bfield f_delay[] = {
	{ "comm", BF_STR, NULL }, { "pid", 0, NULL }, { "delay", BF_UNS, NULL }, END,
};
static const struct bfield f_cpu_state[] = {
	{ "state", BF_UNS, NULL }, { "cpu_id", BF_UNS, NULL }, END,
};
static const struct bfield f_clock[] = {
	{ "name", BF_STR, "text" }, { "state", BF_UNS, NULL }, { "cpu_id", BF_UNS, NULL }, END,
};
static const struct bfield f_temp[] = {
	{ "thermal_zone", BF_STR, NULL }, { "id", 0, NULL }, { "temp_prev", 0, NULL },
	{ "temp", 0, NULL }, END,
};
static const struct bfield f_cdev[] = {
	{ "type", BF_STR, NULL }, { "target", BF_UNS, NULL }, END,
};
static const struct bfield f_print[] = {
	{ "ip", BF_UNS | BF_HEX, NULL }, { "buf", BF_STR, NULL }, END,
};
static const struct bfield f_bprint[] = {
	{ "ip", BF_UNS, NULL }, { "fmt", BF_UNS, NULL }, { "buf", BF_ARRAY, NULL }, END,
};
static const struct bfield f_bputs[] = {
	{ "ip", BF_UNS, NULL }, { "str", BF_UNS, NULL }, END,
};
static const struct bfield f_oom_adj[] = {
	{ "pid", 0, NULL }, { "comm", BF_STR, NULL }, { "oom_score_adj", 0, NULL }, END,
};
static const struct bfield f_victim[] = {
	{ "pid", 0, NULL }, { "comm", BF_STR, NULL },
	{ "total_vm", BF_UNS | BF_UNIT, "total-vm" }, { "anon_rss", BF_UNS | BF_UNIT, "anon-rss" },
	{ "file_rss", BF_UNS | BF_UNIT, "file-rss" },
	{ "shmem_rss", BF_UNS | BF_UNIT, "shmem-rss" }, { "uid", BF_UNS, NULL },
	{ "pgtables", BF_UNS | BF_UNIT, NULL }, { "oom_score_adj", 0, NULL }, END,
};
static const struct bfield f_newtask[] = {
	{ "pid", 0, NULL }, { "comm", BF_STR, NULL }, { "clone_flags", BF_UNS | BF_HEX, NULL },
	{ "oom_score_adj", 0, NULL }, END,
};
static const struct bfield f_rename[] = {
	{ "pid", 0, NULL }, { "oldcomm", BF_STR, NULL }, { "newcomm", BF_STR, NULL },
	{ "oom_score_adj", 0, NULL }, END,
};
static const struct bfield f_irq_entry[] = {
	{ "irq", 0, NULL }, { "name", BF_STR, NULL }, END,
};
static const struct bfield f_irq_exit[] = {
	{ "irq", 0, NULL }, { "ret", BF_BOOL, NULL }, END,
};
static const struct bfield f_softirq[] = {
	{ "vec", BF_UNS, NULL }, END,
};
/* Android: the fields of the newest format dumped (../shared/traces/android/formats) */
static const struct bfield f_ion_alloc[] = {
	{ "client_name", BF_STR, NULL }, { "heap_name", BF_STR, NULL }, { "len", BF_UNS, NULL },
	{ "mask", BF_UNS, NULL }, { "flags", BF_UNS, NULL }, END,
};
static const struct bfield f_ion_alloc_err[] = {
	{ "client_name", BF_STR, NULL }, { "heap_name", BF_STR, NULL }, { "len", BF_UNS, NULL },
	{ "mask", BF_UNS, NULL }, { "flags", BF_UNS, NULL }, { "error", 0, NULL }, END,
};
static const struct bfield f_ion_heap[] = {
	{ "heap_name", BF_STR | BF_COMMA, NULL }, { "len", BF_UNS | BF_COMMA, NULL },
	{ "total_allocated", BF_COMMA, NULL }, END,
};
static const struct bfield f_ion_stat[] = {
	{ "buffer_id", BF_UNS, NULL }, { "len", BF_UNIT, NULL },
	{ "total_allocated", BF_UNS | BF_UNIT, NULL }, END,
};
static const struct bfield f_dma_heap_stat[] = {
	{ "inode", BF_UNS, NULL }, { "len", BF_UNIT, NULL },
	{ "total_allocated", BF_UNS | BF_UNIT, NULL }, END,
};
static const struct bfield f_gpu_mem[] = {
	{ "gpu_id", BF_UNS, NULL }, { "pid", BF_UNS, NULL }, { "size", BF_UNS, NULL }, END,
};
static const struct bfield f_lmk[] = {
	{ "comm", BF_STR, NULL }, { "pid", 0, NULL }, { "pagecache_size", 0, NULL },
	{ "pagecache_limit", 0, NULL }, { "free", 0, NULL }, END,
};
static const struct bfield f_fence[] = {
	{ "driver", BF_STR, NULL }, { "timeline", BF_STR, NULL }, { "context", BF_UNS, NULL },
	{ "seqno", BF_UNS, NULL }, END,
};
static const struct bfield f_fence_annotate[] = {
	{ "driver", BF_STR, NULL }, { "timeline", BF_STR, NULL }, { "context", BF_UNS, NULL },
	{ "seqno", BF_UNS, NULL }, { "waiting_driver", BF_STR, NULL },
	{ "waiting_timeline", BF_STR, NULL }, { "waiting_context", BF_UNS, NULL },
	{ "waiting_seqno", BF_UNS, NULL }, END,
};
static const struct bfield f_sync_wait[] = {
	{ "name", BF_STR, NULL }, { "status", 0, "state" }, { "begin", BF_UNS | BF_BEGIN, "text" },
	END,
};
static const struct bfield f_sync_pt[] = {
	{ "timeline", BF_STR, "name" }, { "value", BF_STR, NULL }, END,
};
static const struct bfield f_sync_timeline[] = {
	{ "name", BF_STR, NULL }, { "value", BF_STR, NULL }, END,
};
#undef END

/* ---- the catalogue ---- */

#define S1(s, n) { { s, n }, { NULL, NULL }, { NULL, NULL } }
#define S2(s1, n1, s2, n2) { { s1, n1 }, { s2, n2 }, { NULL, NULL } }
#define SWITCH_FIELDS { "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", \
			"next_pid", "next_prio" }
#define WAKE_FIELDS { "comm", "pid", "prio", "target_cpu" }
#define TASK_FIELDS { "comm", "pid", "prio" }
/* Android: fields differ between kernels ("a|b" takes the first one the format has) */
#define ION_FIELDS { "client_name|client", "heap_name|heap", "len|size", "mask|heap_mask", "flags", \
		     "error" }
#define HEAP_FIELDS { "heap_name|heap", "len|size", "total_allocated" }
#define FENCE_FIELDS { "driver", "timeline", "context", "seqno" }
#define SCHED "sched"
#define SLICE "thread,thread_comm,sched_slice,thread_state"
#define FENCES "fence,android"

const struct ev_fact ev_catalogue[] = {
	/* the scheduler: threads, their names, slices and states */
	{ S1("sched", "sched_switch"), ROLE_SCHED_SWITCH, SWITCH_FIELDS, SLICE, SCHED, f_switch },
	{ S1("sched", "sched_wakeup"), ROLE_SCHED_WAKEUP, WAKE_FIELDS, "thread_state,sched_slice",
	  SCHED, f_wakeup },
	{ S1("sched", "sched_waking"), ROLE_SCHED_WAKING, WAKE_FIELDS, "thread_state,sched_slice",
	  SCHED, f_wakeup },
	{ S1("sched", "sched_wakeup_new"), ROLE_SCHED_WAKEUP_NEW, WAKE_FIELDS,
	  "thread_state,sched_slice", SCHED, f_wakeup },
	{ S1("sched", "sched_migrate_task"), ROLE_SCHED_MIGRATE_TASK,
	  { "comm", "pid", "prio", "orig_cpu", "dest_cpu" }, "thread_comm,sched_slice", SCHED,
	  f_migrate },
	{ S1("sched", "sched_process_fork"), ROLE_PROCESS_FORK,
	  { "parent_comm", "parent_pid", "child_comm", "child_pid" }, "thread,thread_comm", SCHED,
	  f_fork },
	{ S1("sched", "sched_process_exec"), ROLE_PROCESS_EXEC, { "filename", "pid", "old_pid" },
	  "thread_comm", SCHED, f_exec },
	{ S1("sched", "sched_process_exit"), ROLE_PROCESS_EXIT, TASK_FIELDS, "thread", SCHED,
	  f_exit },
	{ S1("sched", "sched_process_free"), ROLE_PROCESS_FREE, TASK_FIELDS, "thread", SCHED,
	  f_comm_pid_prio },
	{ S1("task", "task_newtask"), ROLE_TASK_NEWTASK,
	  { "pid", "comm", "clone_flags", "oom_score_adj" }, "thread,thread_comm,counter", SCHED,
	  f_newtask },
	{ S1("task", "task_rename"), ROLE_TASK_RENAME, { "pid", "oldcomm", "newcomm", "oom_score_adj" },
	  "thread_comm", SCHED, f_rename },
	{ S1("sched", "sched_process_wait"), ROLE_NONE, { NULL }, NULL, NULL, f_comm_pid_prio },
	{ S1("sched", "sched_stat_runtime"), ROLE_NONE, { NULL }, NULL, NULL, f_runtime },
	{ S1("sched", "sched_stat_sleep"), ROLE_NONE, { NULL }, NULL, NULL, f_delay },
	{ S1("sched", "sched_stat_wait"), ROLE_NONE, { NULL }, NULL, NULL, f_delay },
	{ S1("sched", "sched_stat_blocked"), ROLE_NONE, { NULL }, NULL, NULL, f_delay },
	{ S1("sched", "sched_stat_iowait"), ROLE_NONE, { NULL }, NULL, NULL, f_delay },

	/* power and thermal: counter tracks */
	{ S1("power", "cpu_frequency"), ROLE_CPU_FREQUENCY, { "state", "cpu_id" }, "counter", "power",
	  f_cpu_state },
	{ S1("power", "cpu_frequency_limits"), ROLE_NONE, { NULL }, NULL, "power", NULL },
	{ S1("power", "cpu_idle"), ROLE_CPU_IDLE, { "state", "cpu_id" }, "counter", "power",
	  f_cpu_state },
	{ S1("power", "suspend_resume"), ROLE_NONE, { NULL }, NULL, "power", NULL },
	{ S1("power", "clock_set_rate"), ROLE_NONE, { NULL }, NULL, NULL, f_clock },
	{ S1("power", "clock_enable"), ROLE_NONE, { NULL }, NULL, NULL, f_clock },
	{ S1("power", "clock_disable"), ROLE_NONE, { NULL }, NULL, NULL, f_clock },
	{ S1("thermal", "thermal_temperature"), ROLE_THERMAL_TEMPERATURE,
	  { "thermal_zone", "id", "temp_prev", "temp" }, "counter", "thermal", f_temp },
	{ S1("thermal", "cdev_update"), ROLE_CDEV_UPDATE, { "type", "target" }, "counter", "thermal",
	  f_cdev },
	{ S1("thermal", "thermal_zone_trip"), ROLE_NONE, { NULL }, NULL, "thermal", NULL },
	{ S1("thermal_power_allocator", "thermal_power_allocator"), ROLE_NONE, { NULL }, NULL,
	  "thermal", NULL },
	{ S1("thermal_power_allocator", "thermal_power_allocator_pid"), ROLE_NONE, { NULL }, NULL,
	  "thermal", NULL },

	/* trace markers: trax's own, atrace's (Android slices, counters, kills, fences) */
	{ S1("ftrace", "print"), ROLE_PRINT, { "buf", "ip" },
	  "thread,slice,instant,counter,kill,fence,fence_wait", NULL, f_print },
	{ S1("ftrace", "bprint"), ROLE_NONE, { NULL }, NULL, NULL, f_bprint },
	{ S1("ftrace", "bputs"), ROLE_NONE, { NULL }, NULL, NULL, f_bputs },

	/* irqs */
	{ S1("irq", "irq_handler_entry"), ROLE_NONE, { NULL }, NULL, NULL, f_irq_entry },
	{ S1("irq", "irq_handler_exit"), ROLE_NONE, { NULL }, NULL, NULL, f_irq_exit },
	{ S1("irq", "softirq_entry"), ROLE_NONE, { NULL }, NULL, NULL, f_softirq },
	{ S1("irq", "softirq_exit"), ROLE_NONE, { NULL }, NULL, NULL, f_softirq },
	{ S1("irq", "softirq_raise"), ROLE_NONE, { NULL }, NULL, NULL, f_softirq },

	/* memory: the OOM killer, Android's low-memory killer, reclaim */
	{ S1("oom", "oom_score_adj_update"), ROLE_OOM_SCORE_ADJ, { "pid", "comm", "oom_score_adj" },
	  "counter,kill", "memory,android", f_oom_adj },
	{ S1("oom", "mark_victim"), ROLE_MARK_VICTIM,
	  { "pid", "comm", "anon_rss", "file_rss", "shmem_rss", "oom_score_adj", "total_vm" }, "kill",
	  "memory,android", f_victim },
	{ S1("oom", "wake_reaper"), ROLE_NONE, { NULL }, NULL, "memory", NULL },
	{ S1("oom", "finish_task_reaping"), ROLE_NONE, { NULL }, NULL, "memory", NULL },
	{ S1("kmem", "rss_stat"), ROLE_NONE, { NULL }, NULL, "memory", NULL },
	{ S1("vmscan", "mm_vmscan_direct_reclaim_begin"), ROLE_NONE, { NULL }, NULL, "memory",
	  NULL },
	{ S1("vmscan", "mm_vmscan_direct_reclaim_end"), ROLE_NONE, { NULL }, NULL, "memory", NULL },
	{ S1("vmscan", "mm_vmscan_kswapd_wake"), ROLE_NONE, { NULL }, NULL, "memory", NULL },
	{ S1("vmscan", "mm_vmscan_kswapd_sleep"), ROLE_NONE, { NULL }, NULL, "memory", NULL },
	{ S1("lowmemorykiller", "lowmemory_kill"), ROLE_LOWMEMORY_KILL,
	  { "comm", "pid", "pagecache_size", "pagecache_limit", "free" }, "kill", "memory,android",
	  f_lmk },

	/* Android graphics memory: ION (kmem on 3.x and 4.4 kernels, ion later), dma-heaps, GPU */
	{ S2("kmem", "ion_alloc_buffer_start", "ion", "ion_alloc_buffer_start"), ROLE_ION_ALLOC_START,
	  ION_FIELDS, "alloc", "android", f_ion_alloc },
	{ S2("kmem", "ion_alloc_buffer_end", "ion", "ion_alloc_buffer_end"), ROLE_ION_ALLOC_END,
	  ION_FIELDS, "alloc", "android", f_ion_alloc },
	{ S2("kmem", "ion_alloc_buffer_fail", "ion", "ion_alloc_buffer_fail"), ROLE_ION_ALLOC_FAIL,
	  ION_FIELDS, "alloc", "android", f_ion_alloc_err },
	{ S2("kmem", "ion_alloc_buffer_fallback", "ion", "ion_alloc_buffer_fallback"),
	  ROLE_ION_ALLOC_FALLBACK, ION_FIELDS, "alloc", "android", f_ion_alloc_err },
	{ S2("kmem", "ion_heap_grow", "ion", "ion_heap_grow"), ROLE_ION_HEAP_GROW, HEAP_FIELDS,
	  "alloc,counter", "android", f_ion_heap },
	{ S2("kmem", "ion_heap_shrink", "ion", "ion_heap_shrink"), ROLE_ION_HEAP_SHRINK, HEAP_FIELDS,
	  "alloc,counter", "android", f_ion_heap },
	{ S1("ion", "ion_stat"), ROLE_ION_STAT, { "buffer_id", "len|size", "total_allocated" },
	  "alloc,counter", "android", f_ion_stat },
	{ S1("dmabuf_heap", "dma_heap_stat"), ROLE_DMA_HEAP_STAT,
	  { "inode", "len|size", "total_allocated" }, "alloc,counter", "android", f_dma_heap_stat },
	{ S1("gpu_mem", "gpu_mem_total"), ROLE_GPU_MEM_TOTAL, { "gpu_id", "pid", "size" }, "counter",
	  "android", f_gpu_mem },

	/* fences: dma_fence (4.10 on; fence before), Android's sync (sync, or sync_trace) */
	{ S2("dma_fence", "dma_fence_init", "fence", "fence_init"), ROLE_FENCE_INIT, FENCE_FIELDS,
	  "fence", FENCES, f_fence },
	{ S2("dma_fence", "dma_fence_emit", "fence", "fence_emit"), ROLE_FENCE_EMIT, FENCE_FIELDS,
	  "fence", FENCES, f_fence },
	{ S2("dma_fence", "dma_fence_enable_signal", "fence", "fence_enable_signal"),
	  ROLE_FENCE_ENABLE, FENCE_FIELDS, "fence", FENCES, f_fence },
	{ S2("dma_fence", "dma_fence_signaled", "fence", "fence_signaled"), ROLE_FENCE_SIGNALED,
	  FENCE_FIELDS, "fence", FENCES, f_fence },
	{ S2("dma_fence", "dma_fence_destroy", "fence", "fence_destroy"), ROLE_FENCE_DESTROY,
	  FENCE_FIELDS, "fence", FENCES, f_fence },
	{ S2("dma_fence", "dma_fence_wait_start", "fence", "fence_wait_start"), ROLE_FENCE_WAIT_START,
	  FENCE_FIELDS, "fence_wait", FENCES, f_fence },
	{ S2("dma_fence", "dma_fence_wait_end", "fence", "fence_wait_end"), ROLE_FENCE_WAIT_END,
	  FENCE_FIELDS, "fence_wait", FENCES, f_fence },
	{ S1("fence", "fence_annotate_wait_on"), ROLE_FENCE_ANNOTATE,
	  { "driver", "timeline", "context", "seqno", "waiting_driver", "waiting_timeline",
	    "waiting_context", "waiting_seqno" }, "fence", FENCES, f_fence_annotate },
	{ S2("sync", "sync_wait", "sync_trace", "sync_wait"), ROLE_SYNC_WAIT,
	  { "name", "status|state", "begin" }, "fence_wait", FENCES, f_sync_wait },
	{ S2("sync", "sync_pt", "sync_trace", "sync_pt"), ROLE_SYNC_PT, { "timeline|name", "value" },
	  "fence", FENCES, f_sync_pt },
	{ S2("sync", "sync_timeline", "sync_trace", "sync_timeline"), ROLE_SYNC_TIMELINE,
	  { "name", "value" }, "fence,counter", FENCES, f_sync_timeline },
	{ S1(NULL, NULL), ROLE_NONE, { NULL }, NULL, NULL, NULL },
};

const char *const ev_preset_names[EV_NPRESETS + 1] = {
	"sched", "power", "thermal", "memory", "fence", "android", NULL,
};

int ev_list_holds(const char *list, const char *item)
{
	size_t n = strlen(item);

	for (const char *p = list; p && *p;) {
		size_t l = strcspn(p, ",");

		if (l == n && !memcmp(p, item, n))
			return 1;
		p += l + (p[l] == ',');
	}
	return 0;
}

const struct ev_fact *ev_fact_find(const char *system, const char *name, size_t len,
				   int *spelling)
{
	for (const struct ev_fact *f = ev_catalogue; f->spell[0].name; f++)
		for (int i = 0; i < EV_SPELLINGS && f->spell[i].name; i++) {
			if (strlen(f->spell[i].name) != len || memcmp(f->spell[i].name, name, len))
				continue;
			if (system && *system && strcmp(system, f->spell[i].system))
				continue;
			if (spelling)
				*spelling = i;
			return f;
		}
	return NULL;
}
