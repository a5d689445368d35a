/*
 * parse/events.h: the event catalogue's table, one place for every fact trax holds about a
 * kernel event. An X-macro file, no include guard: parse/catalogue.h includes it for the role
 * and field-slot enums, parse/catalogue.c for the table itself, each defining all six macros
 * first (the file undefines them at its end).
 *
 * EV_SLOTS(LIST, EV_SLOT(SLOT, "name|alternative") ...)
 *	the fields a role reads, in slot order. Derivations read a field by its slot's name
 *	(SW_NEXT_PID), never by number; "a|b" takes the first the event's format has.
 * EV_NAMES(LIST, "name", ...)
 *	another spelling of an existing slot list (named in the comment above it).
 * EV_TEXT(f_NAME, { "field", BF_..., "alias" }, ...)
 *	how the ftrace text form prints an event (this machine's kernel formats).
 * EV_ROLE(ROLE_ID, spellings, LIST, text, by, "feeds", "presets")
 *	an event a derivation reads: its role, its spellings (S1(system, name), or S2 with the
 *	spelling of another kernel; the first is the text reader's and the presets' choice), its
 *	slot list, its text form (or NULL: learnt from key=value), which derivation reads it
 *	(EV_CORE: parse/derive.c; Android's, parse/android-local.h: EV_KILLS, kills.c;
 *	EV_ALLOCS, allocs.c; EV_FENCES, fences.c), the derived tables it feeds and the collect
 *	presets that enable it ("a,b", or NULL).
 * EV_KNOWN(spellings, text, "presets")
 *	an event no derivation reads, known for its text form or enabled by a preset.
 *
 * The table is listed in doc/db.md ("The event catalogue"); tests/unit/test-catalogue.c holds
 * the two equal and checks every row against the loader and the presets.
 */

/* ---- the fields each role reads ---- */

EV_SLOTS(SWITCH, EV_SLOT(SW_PREV_COMM, "prev_comm") EV_SLOT(SW_PREV_PID, "prev_pid")
	EV_SLOT(SW_PREV_PRIO, "prev_prio") EV_SLOT(SW_PREV_STATE, "prev_state")
	EV_SLOT(SW_NEXT_COMM, "next_comm") EV_SLOT(SW_NEXT_PID, "next_pid")
	EV_SLOT(SW_NEXT_PRIO, "next_prio"))
EV_SLOTS(WAKE, EV_SLOT(WK_COMM, "comm") EV_SLOT(WK_PID, "pid") EV_SLOT(WK_PRIO, "prio")
	EV_SLOT(WK_TARGET_CPU, "target_cpu"))
EV_SLOTS(MIGRATE, EV_SLOT(MG_COMM, "comm") EV_SLOT(MG_PID, "pid") EV_SLOT(MG_PRIO, "prio")
	EV_SLOT(MG_ORIG_CPU, "orig_cpu") EV_SLOT(MG_DEST_CPU, "dest_cpu"))
EV_SLOTS(FORK, EV_SLOT(FK_PARENT_COMM, "parent_comm") EV_SLOT(FK_PARENT_PID, "parent_pid")
	EV_SLOT(FK_CHILD_COMM, "child_comm") EV_SLOT(FK_CHILD_PID, "child_pid"))
EV_SLOTS(EXEC, EV_SLOT(EX_FILENAME, "filename") EV_SLOT(EX_PID, "pid")
	EV_SLOT(EX_OLD_PID, "old_pid"))
EV_SLOTS(TASK, EV_SLOT(TK_COMM, "comm") EV_SLOT(TK_PID, "pid") EV_SLOT(TK_PRIO, "prio"))
EV_SLOTS(NEWTASK, EV_SLOT(NT_PID, "pid") EV_SLOT(NT_COMM, "comm")
	EV_SLOT(NT_CLONE_FLAGS, "clone_flags") EV_SLOT(NT_OOM_SCORE_ADJ, "oom_score_adj"))
EV_SLOTS(RENAME, EV_SLOT(RN_PID, "pid") EV_SLOT(RN_OLDCOMM, "oldcomm")
	EV_SLOT(RN_NEWCOMM, "newcomm") EV_SLOT(RN_OOM_SCORE_ADJ, "oom_score_adj"))
EV_SLOTS(CPU_STATE, EV_SLOT(CS_STATE, "state") EV_SLOT(CS_CPU_ID, "cpu_id"))
EV_SLOTS(TEMP, EV_SLOT(TH_ZONE, "thermal_zone") EV_SLOT(TH_ID, "id")
	EV_SLOT(TH_TEMP_PREV, "temp_prev") EV_SLOT(TH_TEMP, "temp"))
EV_SLOTS(CDEV, EV_SLOT(CD_TYPE, "type") EV_SLOT(CD_TARGET, "target"))
EV_SLOTS(PRINT, EV_SLOT(PR_BUF, "buf") EV_SLOT(PR_IP, "ip"))
EV_SLOTS(OOM_ADJ, EV_SLOT(OA_PID, "pid") EV_SLOT(OA_COMM, "comm")
	EV_SLOT(OA_OOM_SCORE_ADJ, "oom_score_adj"))
EV_SLOTS(VICTIM, EV_SLOT(MV_PID, "pid") EV_SLOT(MV_COMM, "comm") EV_SLOT(MV_ANON_RSS, "anon_rss")
	EV_SLOT(MV_FILE_RSS, "file_rss") EV_SLOT(MV_SHMEM_RSS, "shmem_rss")
	EV_SLOT(MV_OOM_SCORE_ADJ, "oom_score_adj") EV_SLOT(MV_TOTAL_VM, "total_vm"))
EV_SLOTS(LMK, EV_SLOT(LK_COMM, "comm") EV_SLOT(LK_PID, "pid")
	EV_SLOT(LK_PAGECACHE_SIZE, "pagecache_size") EV_SLOT(LK_PAGECACHE_LIMIT, "pagecache_limit")
	EV_SLOT(LK_FREE, "free"))
/* Android's fields differ between kernels */
EV_SLOTS(ION, EV_SLOT(ION_CLIENT, "client_name|client") EV_SLOT(ION_HEAP, "heap_name|heap")
	EV_SLOT(ION_LEN, "len|size") EV_SLOT(ION_MASK, "mask|heap_mask")
	EV_SLOT(ION_FLAGS, "flags") EV_SLOT(ION_ERROR, "error"))
/* heap grow and shrink: the heap, its change and its total */
EV_SLOTS(HEAP, EV_SLOT(HS_ID, "heap_name|heap") EV_SLOT(HS_LEN, "len|size")
	EV_SLOT(HS_TOTAL, "total_allocated"))
/* the slots of HEAP: HS_ID the buffer (its id; its inode) */
EV_NAMES(ION_STAT, "buffer_id", "len|size", "total_allocated")
EV_NAMES(DMA_HEAP_STAT, "inode", "len|size", "total_allocated")
EV_SLOTS(GPU_MEM, EV_SLOT(GM_GPU_ID, "gpu_id") EV_SLOT(GM_PID, "pid") EV_SLOT(GM_SIZE, "size"))
EV_SLOTS(FENCE, EV_SLOT(FN_DRIVER, "driver") EV_SLOT(FN_TIMELINE, "timeline")
	EV_SLOT(FN_CONTEXT, "context") EV_SLOT(FN_SEQNO, "seqno"))
EV_SLOTS(FENCE_ANNOTATE, EV_SLOT(FA_DRIVER, "driver") EV_SLOT(FA_TIMELINE, "timeline")
	EV_SLOT(FA_CONTEXT, "context") EV_SLOT(FA_SEQNO, "seqno")
	EV_SLOT(FA_WAITING_DRIVER, "waiting_driver")
	EV_SLOT(FA_WAITING_TIMELINE, "waiting_timeline") EV_SLOT(FA_WAITING_CONTEXT, "waiting_context") EV_SLOT(FA_WAITING_SEQNO, "waiting_seqno"))
EV_SLOTS(SYNC_WAIT, EV_SLOT(SY_NAME, "name") EV_SLOT(SY_STATUS, "status|state")
	EV_SLOT(SY_BEGIN, "begin"))
EV_SLOTS(SYNC_PT, EV_SLOT(PT_TIMELINE, "timeline|name") EV_SLOT(PT_VALUE, "value"))
EV_SLOTS(SYNC_TIMELINE, EV_SLOT(TL_NAME, "name") EV_SLOT(TL_VALUE, "value"))

/* ---- text forms: the fields as this machine's kernel formats print them ---- */

EV_TEXT(f_switch,
	{ "prev_comm", BF_STR, NULL }, { "prev_pid", 0, NULL }, { "prev_prio", 0, NULL },
	{ "prev_state", BF_STATE, NULL }, { "next_comm", BF_STR, NULL }, { "next_pid", 0, NULL },
	{ "next_prio", 0, NULL })
EV_TEXT(f_wakeup,
	{ "comm", BF_STR, NULL }, { "pid", 0, NULL }, { "prio", 0, NULL },
	{ "target_cpu", 0, NULL })
EV_TEXT(f_migrate,
	{ "comm", BF_STR, NULL }, { "pid", 0, NULL }, { "prio", 0, NULL },
	{ "orig_cpu", 0, NULL }, { "dest_cpu", 0, NULL })
EV_TEXT(f_fork,
	{ "parent_comm", BF_STR, "comm" }, { "parent_pid", 0, "pid" },
	{ "child_comm", BF_STR, NULL }, { "child_pid", 0, NULL })
EV_TEXT(f_exec,
	{ "filename", BF_STR, NULL }, { "pid", 0, NULL }, { "old_pid", 0, NULL })
EV_TEXT(f_exit,
	{ "comm", BF_STR, NULL }, { "pid", 0, NULL }, { "prio", 0, NULL },
	{ "group_dead", BF_UNS | BF_BOOL, NULL })
EV_TEXT(f_comm_pid_prio,
	{ "comm", BF_STR, NULL }, { "pid", 0, NULL }, { "prio", 0, NULL })
EV_TEXT(f_runtime,
	{ "comm", BF_STR, NULL }, { "pid", 0, NULL }, { "runtime", BF_UNS, NULL })
EV_TEXT(f_delay,
	{ "comm", BF_STR, NULL }, { "pid", 0, NULL }, { "delay", BF_UNS, NULL })
EV_TEXT(f_cpu_state,
	{ "state", BF_UNS, NULL }, { "cpu_id", BF_UNS, NULL })
EV_TEXT(f_clock,
	{ "name", BF_STR, "text" }, { "state", BF_UNS, NULL }, { "cpu_id", BF_UNS, NULL })
EV_TEXT(f_temp,
	{ "thermal_zone", BF_STR, NULL }, { "id", 0, NULL }, { "temp_prev", 0, NULL },
	{ "temp", 0, NULL })
EV_TEXT(f_cdev,
	{ "type", BF_STR, NULL }, { "target", BF_UNS, NULL })
EV_TEXT(f_print,
	{ "ip", BF_UNS | BF_HEX, NULL }, { "buf", BF_STR, NULL })
EV_TEXT(f_bprint,
	{ "ip", BF_UNS, NULL }, { "fmt", BF_UNS, NULL }, { "buf", BF_ARRAY, NULL })
EV_TEXT(f_bputs,
	{ "ip", BF_UNS, NULL }, { "str", BF_UNS, NULL })
EV_TEXT(f_oom_adj,
	{ "pid", 0, NULL }, { "comm", BF_STR, NULL }, { "oom_score_adj", 0, NULL })
EV_TEXT(f_victim,
	{ "pid", 0, NULL }, { "comm", BF_STR, NULL },
	{ "total_vm", BF_UNS | BF_UNIT, "total-vm" }, { "anon_rss", BF_UNS | BF_UNIT, "anon-rss" },
	{ "file_rss", BF_UNS | BF_UNIT, "file-rss" },
	{ "shmem_rss", BF_UNS | BF_UNIT, "shmem-rss" }, { "uid", BF_UNS, NULL },
	{ "pgtables", BF_UNS | BF_UNIT, NULL }, { "oom_score_adj", 0, NULL })
EV_TEXT(f_newtask,
	{ "pid", 0, NULL }, { "comm", BF_STR, NULL }, { "clone_flags", BF_UNS | BF_HEX, NULL },
	{ "oom_score_adj", 0, NULL })
EV_TEXT(f_rename,
	{ "pid", 0, NULL }, { "oldcomm", BF_STR, NULL }, { "newcomm", BF_STR, NULL },
	{ "oom_score_adj", 0, NULL })
EV_TEXT(f_irq_entry,
	{ "irq", 0, NULL }, { "name", BF_STR, NULL })
EV_TEXT(f_irq_exit,
	{ "irq", 0, NULL }, { "ret", BF_BOOL, NULL })
EV_TEXT(f_softirq,
	{ "vec", BF_UNS, NULL })
/* Android: the fields of the newest format dumped (../shared/traces/android/formats) */
EV_TEXT(f_ion_alloc,
	{ "client_name", BF_STR, NULL }, { "heap_name", BF_STR, NULL }, { "len", BF_UNS, NULL },
	{ "mask", BF_UNS, NULL }, { "flags", BF_UNS, NULL })
EV_TEXT(f_ion_alloc_err,
	{ "client_name", BF_STR, NULL }, { "heap_name", BF_STR, NULL }, { "len", BF_UNS, NULL },
	{ "mask", BF_UNS, NULL }, { "flags", BF_UNS, NULL }, { "error", 0, NULL })
EV_TEXT(f_ion_heap,
	{ "heap_name", BF_STR | BF_COMMA, NULL }, { "len", BF_UNS | BF_COMMA, NULL },
	{ "total_allocated", BF_COMMA, NULL })
EV_TEXT(f_ion_stat,
	{ "buffer_id", BF_UNS, NULL }, { "len", BF_UNIT, NULL },
	{ "total_allocated", BF_UNS | BF_UNIT, NULL })
EV_TEXT(f_dma_heap_stat,
	{ "inode", BF_UNS, NULL }, { "len", BF_UNIT, NULL },
	{ "total_allocated", BF_UNS | BF_UNIT, NULL })
EV_TEXT(f_gpu_mem,
	{ "gpu_id", BF_UNS, NULL }, { "pid", BF_UNS, NULL }, { "size", BF_UNS, NULL })
EV_TEXT(f_lmk,
	{ "comm", BF_STR, NULL }, { "pid", 0, NULL }, { "pagecache_size", 0, NULL },
	{ "pagecache_limit", 0, NULL }, { "free", 0, NULL })
EV_TEXT(f_fence,
	{ "driver", BF_STR, NULL }, { "timeline", BF_STR, NULL }, { "context", BF_UNS, NULL },
	{ "seqno", BF_UNS, NULL })
EV_TEXT(f_fence_annotate,
	{ "driver", BF_STR, NULL }, { "timeline", BF_STR, NULL }, { "context", BF_UNS, NULL },
	{ "seqno", BF_UNS, NULL }, { "waiting_driver", BF_STR, NULL },
	{ "waiting_timeline", BF_STR, NULL }, { "waiting_context", BF_UNS, NULL },
	{ "waiting_seqno", BF_UNS, NULL })
EV_TEXT(f_sync_wait,
	{ "name", BF_STR, NULL }, { "status", 0, "state" }, { "begin", BF_UNS | BF_BEGIN, "text" })
EV_TEXT(f_sync_pt,
	{ "timeline", BF_STR, "name" }, { "value", BF_STR, NULL })
EV_TEXT(f_sync_timeline,
	{ "name", BF_STR, NULL }, { "value", BF_STR, NULL })

/* ---- the events ---- */

/* the scheduler: threads, their names, slices and states */
EV_ROLE(ROLE_SCHED_SWITCH, S1("sched", "sched_switch"), SWITCH, f_switch, EV_CORE,
	"thread,thread_comm,sched_slice,thread_state", "sched")
EV_ROLE(ROLE_SCHED_WAKEUP, S1("sched", "sched_wakeup"), WAKE, f_wakeup, EV_CORE,
	"thread_state,sched_slice", "sched")
EV_ROLE(ROLE_SCHED_WAKING, S1("sched", "sched_waking"), WAKE, f_wakeup, EV_CORE,
	"thread_state,sched_slice", "sched")
EV_ROLE(ROLE_SCHED_WAKEUP_NEW, S1("sched", "sched_wakeup_new"), WAKE, f_wakeup, EV_CORE,
	"thread_state,sched_slice", "sched")
EV_ROLE(ROLE_SCHED_MIGRATE_TASK, S1("sched", "sched_migrate_task"), MIGRATE, f_migrate, EV_CORE,
	"thread_comm,sched_slice", "sched")
EV_ROLE(ROLE_PROCESS_FORK, S1("sched", "sched_process_fork"), FORK, f_fork, EV_CORE,
	"thread,thread_comm", "sched")
EV_ROLE(ROLE_PROCESS_EXEC, S1("sched", "sched_process_exec"), EXEC, f_exec, EV_CORE,
	"thread_comm", "sched")
EV_ROLE(ROLE_PROCESS_EXIT, S1("sched", "sched_process_exit"), TASK, f_exit, EV_CORE,
	"thread", "sched")
EV_ROLE(ROLE_PROCESS_FREE, S1("sched", "sched_process_free"), TASK, f_comm_pid_prio, EV_CORE,
	"thread", "sched")
EV_ROLE(ROLE_TASK_NEWTASK, S1("task", "task_newtask"), NEWTASK, f_newtask, EV_CORE,
	"thread,thread_comm,counter", "sched")
EV_ROLE(ROLE_TASK_RENAME, S1("task", "task_rename"), RENAME, f_rename, EV_CORE,
	"thread_comm", "sched")
EV_KNOWN(S1("sched", "sched_process_wait"), f_comm_pid_prio, NULL)
EV_KNOWN(S1("sched", "sched_stat_runtime"), f_runtime, NULL)
EV_KNOWN(S1("sched", "sched_stat_sleep"), f_delay, NULL)
EV_KNOWN(S1("sched", "sched_stat_wait"), f_delay, NULL)
EV_KNOWN(S1("sched", "sched_stat_blocked"), f_delay, NULL)
EV_KNOWN(S1("sched", "sched_stat_iowait"), f_delay, NULL)

/* power and thermal: counter tracks */
EV_ROLE(ROLE_CPU_FREQUENCY, S1("power", "cpu_frequency"), CPU_STATE, f_cpu_state, EV_CORE,
	"counter", "power")
EV_KNOWN(S1("power", "cpu_frequency_limits"), NULL, "power")
EV_ROLE(ROLE_CPU_IDLE, S1("power", "cpu_idle"), CPU_STATE, f_cpu_state, EV_CORE,
	"counter", "power")
EV_KNOWN(S1("power", "suspend_resume"), NULL, "power")
EV_KNOWN(S1("power", "clock_set_rate"), f_clock, NULL)
EV_KNOWN(S1("power", "clock_enable"), f_clock, NULL)
EV_KNOWN(S1("power", "clock_disable"), f_clock, NULL)
EV_ROLE(ROLE_THERMAL_TEMPERATURE, S1("thermal", "thermal_temperature"), TEMP, f_temp, EV_CORE,
	"counter", "thermal")
EV_ROLE(ROLE_CDEV_UPDATE, S1("thermal", "cdev_update"), CDEV, f_cdev, EV_CORE,
	"counter", "thermal")
EV_KNOWN(S1("thermal", "thermal_zone_trip"), NULL, "thermal")
EV_KNOWN(S1("thermal_power_allocator", "thermal_power_allocator"), NULL, "thermal")
EV_KNOWN(S1("thermal_power_allocator", "thermal_power_allocator_pid"), NULL, "thermal")

/* trace markers: trax's own, atrace's (Android slices, counters, kills, fences) */
EV_ROLE(ROLE_PRINT, S1("ftrace", "print"), PRINT, f_print, EV_CORE,
	"thread,slice,instant,counter,kill,fence,fence_wait", NULL)
EV_KNOWN(S1("ftrace", "bprint"), f_bprint, NULL)
EV_KNOWN(S1("ftrace", "bputs"), f_bputs, NULL)

/* irqs */
EV_KNOWN(S1("irq", "irq_handler_entry"), f_irq_entry, NULL)
EV_KNOWN(S1("irq", "irq_handler_exit"), f_irq_exit, NULL)
EV_KNOWN(S1("irq", "softirq_entry"), f_softirq, NULL)
EV_KNOWN(S1("irq", "softirq_exit"), f_softirq, NULL)
EV_KNOWN(S1("irq", "softirq_raise"), f_softirq, NULL)

/* memory: the OOM killer, Android's low-memory killer, reclaim */
EV_ROLE(ROLE_OOM_SCORE_ADJ, S1("oom", "oom_score_adj_update"), OOM_ADJ, f_oom_adj, EV_KILLS,
	"counter,kill", "memory,android")
EV_ROLE(ROLE_MARK_VICTIM, S1("oom", "mark_victim"), VICTIM, f_victim, EV_KILLS,
	"kill", "memory,android")
EV_KNOWN(S1("oom", "wake_reaper"), NULL, "memory")
EV_KNOWN(S1("oom", "finish_task_reaping"), NULL, "memory")
EV_KNOWN(S1("kmem", "rss_stat"), NULL, "memory")
EV_KNOWN(S1("vmscan", "mm_vmscan_direct_reclaim_begin"), NULL, "memory")
EV_KNOWN(S1("vmscan", "mm_vmscan_direct_reclaim_end"), NULL, "memory")
EV_KNOWN(S1("vmscan", "mm_vmscan_kswapd_wake"), NULL, "memory")
EV_KNOWN(S1("vmscan", "mm_vmscan_kswapd_sleep"), NULL, "memory")
EV_ROLE(ROLE_LOWMEMORY_KILL, S1("lowmemorykiller", "lowmemory_kill"), LMK, f_lmk, EV_KILLS,
	"kill", "memory,android")

/* Android graphics memory: ION (kmem on 3.x and 4.4 kernels, ion later), dma-heaps, GPU */
EV_ROLE(ROLE_ION_ALLOC_START, S2("kmem", "ion_alloc_buffer_start", "ion", "ion_alloc_buffer_start"),
	ION, f_ion_alloc, EV_ALLOCS, "alloc", "android")
EV_ROLE(ROLE_ION_ALLOC_END, S2("kmem", "ion_alloc_buffer_end", "ion", "ion_alloc_buffer_end"),
	ION, f_ion_alloc, EV_ALLOCS, "alloc", "android")
EV_ROLE(ROLE_ION_ALLOC_FAIL, S2("kmem", "ion_alloc_buffer_fail", "ion", "ion_alloc_buffer_fail"),
	ION, f_ion_alloc_err, EV_ALLOCS, "alloc", "android")
EV_ROLE(ROLE_ION_ALLOC_FALLBACK,
	S2("kmem", "ion_alloc_buffer_fallback", "ion", "ion_alloc_buffer_fallback"),
	ION, f_ion_alloc_err, EV_ALLOCS, "alloc", "android")
EV_ROLE(ROLE_ION_HEAP_GROW, S2("kmem", "ion_heap_grow", "ion", "ion_heap_grow"),
	HEAP, f_ion_heap, EV_ALLOCS, "alloc,counter", "android")
EV_ROLE(ROLE_ION_HEAP_SHRINK, S2("kmem", "ion_heap_shrink", "ion", "ion_heap_shrink"),
	HEAP, f_ion_heap, EV_ALLOCS, "alloc,counter", "android")
EV_ROLE(ROLE_ION_STAT, S1("ion", "ion_stat"), ION_STAT, f_ion_stat, EV_ALLOCS,
	"alloc,counter", "android")
EV_ROLE(ROLE_DMA_HEAP_STAT, S1("dmabuf_heap", "dma_heap_stat"),
	DMA_HEAP_STAT, f_dma_heap_stat, EV_ALLOCS, "alloc,counter", "android")
EV_ROLE(ROLE_GPU_MEM_TOTAL, S1("gpu_mem", "gpu_mem_total"), GPU_MEM, f_gpu_mem, EV_ALLOCS,
	"counter", "android")

/* fences: dma_fence (4.10 on; fence before), Android's sync (sync, or sync_trace) */
EV_ROLE(ROLE_FENCE_INIT, S2("dma_fence", "dma_fence_init", "fence", "fence_init"),
	FENCE, f_fence, EV_FENCES, "fence", "fence,android")
EV_ROLE(ROLE_FENCE_EMIT, S2("dma_fence", "dma_fence_emit", "fence", "fence_emit"),
	FENCE, f_fence, EV_FENCES, "fence", "fence,android")
EV_ROLE(ROLE_FENCE_ENABLE,
	S2("dma_fence", "dma_fence_enable_signal", "fence", "fence_enable_signal"),
	FENCE, f_fence, EV_FENCES, "fence", "fence,android")
EV_ROLE(ROLE_FENCE_SIGNALED, S2("dma_fence", "dma_fence_signaled", "fence", "fence_signaled"),
	FENCE, f_fence, EV_FENCES, "fence", "fence,android")
EV_ROLE(ROLE_FENCE_DESTROY, S2("dma_fence", "dma_fence_destroy", "fence", "fence_destroy"),
	FENCE, f_fence, EV_FENCES, "fence", "fence,android")
EV_ROLE(ROLE_FENCE_WAIT_START, S2("dma_fence", "dma_fence_wait_start", "fence", "fence_wait_start"),
	FENCE, f_fence, EV_FENCES, "fence_wait", "fence,android")
EV_ROLE(ROLE_FENCE_WAIT_END, S2("dma_fence", "dma_fence_wait_end", "fence", "fence_wait_end"),
	FENCE, f_fence, EV_FENCES, "fence_wait", "fence,android")
EV_ROLE(ROLE_FENCE_ANNOTATE, S1("fence", "fence_annotate_wait_on"),
	FENCE_ANNOTATE, f_fence_annotate, EV_FENCES, "fence", "fence,android")
EV_ROLE(ROLE_SYNC_WAIT, S2("sync", "sync_wait", "sync_trace", "sync_wait"),
	SYNC_WAIT, f_sync_wait, EV_FENCES, "fence_wait", "fence,android")
EV_ROLE(ROLE_SYNC_PT, S2("sync", "sync_pt", "sync_trace", "sync_pt"),
	SYNC_PT, f_sync_pt, EV_FENCES, "fence", "fence,android")
EV_ROLE(ROLE_SYNC_TIMELINE, S2("sync", "sync_timeline", "sync_trace", "sync_timeline"),
	SYNC_TIMELINE, f_sync_timeline, EV_FENCES, "fence,counter", "fence,android")

/* Each include defines the macros afresh. */
#undef EV_SLOTS
#undef EV_SLOT
#undef EV_NAMES
#undef EV_TEXT
#undef EV_ROLE
#undef EV_KNOWN
