/*
 * parse/perfetto-fields.h: the field numbers of Perfetto's trace format that trax reads, from
 * the public schema (perfetto.protos.Trace, protos/perfetto/trace/perfetto_trace.proto of
 * google/perfetto; tests/integration/perfetto-load.sh checks every number here against it).
 * Each constant's comment names its message and field. The first part is the constants,
 * included once; the second, the ftrace events trax decodes, is an X-macro table read only
 * by an includer that defines PF_EVENT and PF_F first (the file undefines them at its end).
 */
#ifndef TRAX_PARSE_PERFETTO_FIELDS_H
#define TRAX_PARSE_PERFETTO_FIELDS_H

/* ---- Trace: the file, a run of packets ---- */
enum {
	PF_TRACE_PACKET = 1,			/* Trace.packet */
};

/* ---- TracePacket: the fields that say where a packet belongs (not what it holds) ---- */
enum {
	PF_PACKET_TIMESTAMP = 8,		/* TracePacket.timestamp */
	PF_PACKET_TIMESTAMP_CLOCK_ID = 58,	/* TracePacket.timestamp_clock_id */
	PF_PACKET_TRUSTED_UID = 3,		/* TracePacket.trusted_uid */
	PF_PACKET_TRUSTED_SEQUENCE_ID = 10,	/* TracePacket.trusted_packet_sequence_id */
	PF_PACKET_TRUSTED_PID = 79,		/* TracePacket.trusted_pid */
	PF_PACKET_SEQUENCE_FLAGS = 13,		/* TracePacket.sequence_flags */
	PF_PACKET_INCREMENTAL_STATE_CLEARED = 41, /* TracePacket.incremental_state_cleared */
	PF_PACKET_PREVIOUS_PACKET_DROPPED = 42,	/* TracePacket.previous_packet_dropped */
	PF_PACKET_FIRST_PACKET_ON_SEQUENCE = 87, /* TracePacket.first_packet_on_sequence */
	PF_PACKET_MACHINE_ID = 98,		/* TracePacket.machine_id */
};

/*
 * TracePacket's data (its oneof data, and interned_data and trace_packet_defaults, which are
 * incremental state): PF_PACKET_KIND(name, number), one row each, named as in the schema. A
 * packet's data fields not listed are counted by number.
 */
#define PF_PACKET_KINDS                                                                         \
	PF_PACKET_KIND(ftrace_events, 1)		/* TracePacket.ftrace_events */         \
	PF_PACKET_KIND(process_tree, 2)			/* TracePacket.process_tree */          \
	PF_PACKET_KIND(inode_file_map, 4)		/* TracePacket.inode_file_map */        \
	PF_PACKET_KIND(chrome_events, 5)		/* TracePacket.chrome_events */         \
	PF_PACKET_KIND(clock_snapshot, 6)		/* TracePacket.clock_snapshot */        \
	PF_PACKET_KIND(sys_stats, 7)			/* TracePacket.sys_stats */             \
	PF_PACKET_KIND(process_stats, 9)		/* TracePacket.process_stats */         \
	PF_PACKET_KIND(track_event, 11)			/* TracePacket.track_event */           \
	PF_PACKET_KIND(interned_data, 12)		/* TracePacket.interned_data */         \
	PF_PACKET_KIND(trace_config, 33)		/* TracePacket.trace_config */          \
	PF_PACKET_KIND(ftrace_stats, 34)		/* TracePacket.ftrace_stats */          \
	PF_PACKET_KIND(trace_stats, 35)			/* TracePacket.trace_stats */           \
	PF_PACKET_KIND(synchronization_marker, 36)	/* TracePacket.synchronization_marker */ \
	PF_PACKET_KIND(profile_packet, 37)		/* TracePacket.profile_packet */        \
	PF_PACKET_KIND(battery, 38)			/* TracePacket.battery */               \
	PF_PACKET_KIND(android_log, 39)			/* TracePacket.android_log */           \
	PF_PACKET_KIND(power_rails, 40)			/* TracePacket.power_rails */           \
	PF_PACKET_KIND(process_descriptor, 43)		/* TracePacket.process_descriptor */    \
	PF_PACKET_KIND(thread_descriptor, 44)		/* TracePacket.thread_descriptor */     \
	PF_PACKET_KIND(system_info, 45)			/* TracePacket.system_info */           \
	PF_PACKET_KIND(trigger, 46)			/* TracePacket.trigger */               \
	PF_PACKET_KIND(packages_list, 47)		/* TracePacket.packages_list */         \
	PF_PACKET_KIND(perfetto_metatrace, 49)		/* TracePacket.perfetto_metatrace */    \
	PF_PACKET_KIND(compressed_packets, 50)		/* TracePacket.compressed_packets */    \
	PF_PACKET_KIND(gpu_counter_event, 52)		/* TracePacket.gpu_counter_event */     \
	PF_PACKET_KIND(gpu_render_stage_event, 53)	/* TracePacket.gpu_render_stage_event */ \
	PF_PACKET_KIND(streaming_profile_packet, 54)	/* TracePacket.streaming_profile_packet */ \
	PF_PACKET_KIND(graphics_frame_event, 57)	/* TracePacket.graphics_frame_event */  \
	PF_PACKET_KIND(trace_packet_defaults, 59)	/* TracePacket.trace_packet_defaults */ \
	PF_PACKET_KIND(track_descriptor, 60)		/* TracePacket.track_descriptor */      \
	PF_PACKET_KIND(module_symbols, 61)		/* TracePacket.module_symbols */        \
	PF_PACKET_KIND(vulkan_memory_event, 62)		/* TracePacket.vulkan_memory_event */   \
	PF_PACKET_KIND(gpu_log, 63)			/* TracePacket.gpu_log */               \
	PF_PACKET_KIND(perf_sample, 66)			/* TracePacket.perf_sample */           \
	PF_PACKET_KIND(cpu_info, 67)			/* TracePacket.cpu_info */              \
	PF_PACKET_KIND(smaps_packet, 68)		/* TracePacket.smaps_packet */          \
	PF_PACKET_KIND(service_event, 69)		/* TracePacket.service_event */         \
	PF_PACKET_KIND(initial_display_state, 70)	/* TracePacket.initial_display_state */ \
	PF_PACKET_KIND(gpu_mem_total_event, 71)		/* TracePacket.gpu_mem_total_event */   \
	PF_PACKET_KIND(extension_descriptor, 72)	/* TracePacket.extension_descriptor */  \
	PF_PACKET_KIND(memory_tracker_snapshot, 73)	/* TracePacket.memory_tracker_snapshot */ \
	PF_PACKET_KIND(statsd_atom, 84)			/* TracePacket.statsd_atom */           \
	PF_PACKET_KIND(android_system_property, 86)	/* TracePacket.android_system_property */ \
	PF_PACKET_KIND(trace_uuid, 89)			/* TracePacket.trace_uuid */            \
	PF_PACKET_KIND(entity_state_residency, 91)	/* TracePacket.entity_state_residency */ \
	PF_PACKET_KIND(zstd_compressed_packets, 133)	/* TracePacket.zstd_compressed_packets */

/* The packet kinds the reader decodes (the others are counted by kind). */
enum {
#define PF_PACKET_KIND(name, number) PF_PACKET_##name = number,
	PF_PACKET_KINDS
#undef PF_PACKET_KIND
};

/* TracePacket.sequence_flags values (TracePacket.SequenceFlags) */
enum {
	PF_SEQ_INCREMENTAL_STATE_CLEARED = 1,	/* SequenceFlags.SEQ_INCREMENTAL_STATE_CLEARED */
	PF_SEQ_NEEDS_INCREMENTAL_STATE = 2,	/* SequenceFlags.SEQ_NEEDS_INCREMENTAL_STATE */
};

/* ---- FtraceEventBundle: one CPU's events, in time order ---- */
enum {
	PF_BUNDLE_CPU = 1,			/* FtraceEventBundle.cpu */
	PF_BUNDLE_EVENT = 2,			/* FtraceEventBundle.event */
	PF_BUNDLE_LOST_EVENTS = 3,		/* FtraceEventBundle.lost_events */
	PF_BUNDLE_COMPACT_SCHED = 4,		/* FtraceEventBundle.compact_sched */
	PF_BUNDLE_FTRACE_CLOCK = 5,		/* FtraceEventBundle.ftrace_clock */
};

/* ---- FtraceEventBundle.CompactSched: sched_switch and sched_waking as packed columns ---- */
enum {
	PF_CS_SWITCH_TIMESTAMP = 1,		/* CompactSched.switch_timestamp */
	PF_CS_SWITCH_PREV_STATE = 2,		/* CompactSched.switch_prev_state */
	PF_CS_SWITCH_NEXT_PID = 3,		/* CompactSched.switch_next_pid */
	PF_CS_SWITCH_NEXT_PRIO = 4,		/* CompactSched.switch_next_prio */
	PF_CS_INTERN_TABLE = 5,			/* CompactSched.intern_table */
	PF_CS_SWITCH_NEXT_COMM_INDEX = 6,	/* CompactSched.switch_next_comm_index */
	PF_CS_WAKING_TIMESTAMP = 7,		/* CompactSched.waking_timestamp */
	PF_CS_WAKING_PID = 8,			/* CompactSched.waking_pid */
	PF_CS_WAKING_TARGET_CPU = 9,		/* CompactSched.waking_target_cpu */
	PF_CS_WAKING_PRIO = 10,			/* CompactSched.waking_prio */
	PF_CS_WAKING_COMM_INDEX = 11,		/* CompactSched.waking_comm_index */
	PF_CS_WAKING_COMMON_FLAGS = 12,		/* CompactSched.waking_common_flags */
};

/* FtraceEventBundle.ftrace_clock values (FtraceClock); UNSPECIFIED means the boot clock */
enum {
	PF_CLOCK_UNSPECIFIED = 0,		/* FtraceClock.FTRACE_CLOCK_UNSPECIFIED */
	PF_CLOCK_UNKNOWN = 1,			/* FtraceClock.FTRACE_CLOCK_UNKNOWN */
	PF_CLOCK_GLOBAL = 2,			/* FtraceClock.FTRACE_CLOCK_GLOBAL */
	PF_CLOCK_LOCAL = 3,			/* FtraceClock.FTRACE_CLOCK_LOCAL */
	PF_CLOCK_MONO_RAW = 4,			/* FtraceClock.FTRACE_CLOCK_MONO_RAW */
};

/* ---- FtraceEvent: one event; the oneof event numbers are the table below ---- */
enum {
	PF_EVENT_TIMESTAMP = 1,			/* FtraceEvent.timestamp */
	PF_EVENT_PID = 2,			/* FtraceEvent.pid */
	PF_EVENT_COMMON_FLAGS = 5,		/* FtraceEvent.common_flags */
};

/* The events compact_sched writes in columns (their plain forms are rows of the table below). */
enum {
	PF_EV_SCHED_SWITCH = 4,			/* FtraceEvent.sched_switch */
	PF_EV_SCHED_WAKING = 20,		/* FtraceEvent.sched_waking */
};

/*
 * ---- GenericFtraceEvent (an event the recorder had no message for, its fields by name: read
 * by parse/perfetto-generic.c, written by trax export), and what only trax export writes ----
 * The boot-clock pair of a bundle and whether a process's cmdline is its comm. (The process
 * tree and system_info it writes use the reader's numbers below.)
 */
enum {
	PF_BUNDLE_FTRACE_TIMESTAMP = 6,		/* FtraceEventBundle.ftrace_timestamp */
	PF_BUNDLE_BOOT_TIMESTAMP = 7,		/* FtraceEventBundle.boot_timestamp */
	PF_EVENT_GENERIC = 327,			/* FtraceEvent.generic */
	PF_GENERIC_EVENT_NAME = 1,		/* GenericFtraceEvent.event_name */
	PF_GENERIC_FIELD = 2,			/* GenericFtraceEvent.field */
	PF_GENERIC_FIELD_NAME = 1,		/* Field.name */
	PF_GENERIC_FIELD_STR = 3,		/* Field.str_value */
	PF_GENERIC_FIELD_INT = 4,		/* Field.int_value */
	PF_GENERIC_FIELD_UINT = 5,		/* Field.uint_value */
	PF_PROCESS_CMDLINE_IS_COMM = 9,		/* Process.cmdline_is_comm */
};

/* ---- process data: ProcessTree, ProcessDescriptor, ThreadDescriptor, TrackDescriptor ---- */
enum {
	PF_PTREE_PROCESSES = 1,			/* ProcessTree.processes */
	PF_PTREE_THREADS = 2,			/* ProcessTree.threads */
	PF_PTREE_PROC_PID = 1,			/* Process.pid */
	PF_PTREE_PROC_CMDLINE = 3,		/* Process.cmdline */
	PF_PTREE_THREAD_TID = 1,		/* Thread.tid */
	PF_PTREE_THREAD_NAME = 2,		/* Thread.name */
	PF_PTREE_THREAD_TGID = 3,		/* Thread.tgid */
	PF_PDESC_PID = 1,			/* ProcessDescriptor.pid */
	PF_PDESC_CMDLINE = 2,			/* ProcessDescriptor.cmdline */
	PF_PDESC_PROCESS_NAME = 6,		/* ProcessDescriptor.process_name */
	PF_TDESC_PID = 1,			/* ThreadDescriptor.pid */
	PF_TDESC_TID = 2,			/* ThreadDescriptor.tid */
	PF_TDESC_THREAD_NAME = 5,		/* ThreadDescriptor.thread_name */
	PF_TRACK_PROCESS = 3,			/* TrackDescriptor.process */
	PF_TRACK_THREAD = 4,			/* TrackDescriptor.thread */
};

/* ---- SystemInfo: the kernel ---- */
enum {
	PF_SYSINFO_UTSNAME = 1,			/* SystemInfo.utsname */
	PF_SYSINFO_FINGERPRINT = 2,		/* SystemInfo.android_build_fingerprint */
	PF_SYSINFO_HZ = 3,			/* SystemInfo.hz */
	PF_SYSINFO_SDK = 5,			/* SystemInfo.android_sdk_version */
	PF_SYSINFO_PAGE_SIZE = 6,		/* SystemInfo.page_size */
	PF_SYSINFO_NUM_CPUS = 8,		/* SystemInfo.num_cpus */
	PF_UTS_SYSNAME = 1,			/* Utsname.sysname */
	PF_UTS_VERSION = 2,			/* Utsname.version */
	PF_UTS_RELEASE = 3,			/* Utsname.release */
	PF_UTS_MACHINE = 4,			/* Utsname.machine */
};

/* ---- CpuInfo: each CPU's capacity and frequencies (the target's facts, doc/db.md) ---- */
enum {
	PF_CPUINFO_CPUS = 1,			/* CpuInfo.cpus, one per CPU in order */
	PF_CPU_FREQUENCIES = 2,			/* CpuInfo.Cpu.frequencies (kHz) */
	PF_CPU_CAPACITY = 3,			/* CpuInfo.Cpu.capacity */
};

/* ---- FtraceStats: the kernel ring buffers' counts at the start and end of the trace ---- */
enum {
	PF_FSTATS_PHASE = 1,			/* FtraceStats.phase */
	PF_FSTATS_CPU_STATS = 2,		/* FtraceStats.cpu_stats */
	PF_FSTATS_START = 1,			/* Phase.START_OF_TRACE */
	PF_FSTATS_END = 2,			/* Phase.END_OF_TRACE */
	PF_FCPU_CPU = 1,			/* FtraceCpuStats.cpu */
	PF_FCPU_OVERRUN = 3,			/* FtraceCpuStats.overrun */
	PF_FCPU_COMMIT_OVERRUN = 4,		/* FtraceCpuStats.commit_overrun */
	PF_FCPU_DROPPED_EVENTS = 8,		/* FtraceCpuStats.dropped_events */
};

/* ---- TraceStats: the tracing service's buffers (packets lost there) ---- */
enum {
	PF_TSTATS_BUFFER_STATS = 1,		/* TraceStats.buffer_stats */
	PF_TSTATS_CHUNKS_DISCARDED = 8,		/* TraceStats.chunks_discarded */
	PF_TSTATS_PATCHES_DISCARDED = 9,	/* TraceStats.patches_discarded */
	PF_TSTATS_INVALID_PACKETS = 10,		/* TraceStats.invalid_packets */
	PF_BSTATS_CHUNKS_OVERWRITTEN = 3,	/* BufferStats.chunks_overwritten */
	PF_BSTATS_CHUNKS_DISCARDED = 18,	/* BufferStats.chunks_discarded */
	PF_BSTATS_PACKET_LOSS = 19,		/* BufferStats.trace_writer_packet_loss */
};

/* ---- ClockSnapshot: the clocks at one instant ---- */
enum {
	PF_CSNAP_CLOCKS = 1,			/* ClockSnapshot.clocks */
	PF_CSNAP_PRIMARY = 2,			/* ClockSnapshot.primary_trace_clock */
	PF_CLOCK_ID = 1,			/* Clock.clock_id */
	PF_CLOCK_TIMESTAMP = 2,			/* Clock.timestamp */
	PF_CLK_REALTIME = 1,			/* BuiltinClocks.REALTIME */
	PF_CLK_MONOTONIC = 3,			/* BuiltinClocks.MONOTONIC */
	PF_CLK_MONOTONIC_RAW = 5,		/* BuiltinClocks.MONOTONIC_RAW */
	PF_CLK_BOOTTIME = 6,			/* BuiltinClocks.BOOTTIME */
};

/* ---- track events (the Perfetto SDK, android.os.Trace through it): parse/pftrack.c ---- */
enum {
	PF_TE_TYPE = 9,				/* TrackEvent.type */
	PF_TE_NAME_IID = 10,			/* TrackEvent.name_iid */
	PF_TE_TRACK_UUID = 11,			/* TrackEvent.track_uuid */
	PF_TE_NAME = 23,			/* TrackEvent.name */
	PF_TE_COUNTER_VALUE = 30,		/* TrackEvent.counter_value */
	PF_TE_DOUBLE_COUNTER_VALUE = 44,	/* TrackEvent.double_counter_value */
	PF_TE_SLICE_BEGIN = 1,			/* Type.TYPE_SLICE_BEGIN */
	PF_TE_SLICE_END = 2,			/* Type.TYPE_SLICE_END */
	PF_TE_INSTANT = 3,			/* Type.TYPE_INSTANT */
	PF_TE_COUNTER = 4,			/* Type.TYPE_COUNTER */
	PF_INTERNED_EVENT_NAMES = 2,		/* InternedData.event_names */
	PF_EVENT_NAME_IID = 1,			/* EventName.iid */
	PF_EVENT_NAME_NAME = 2,			/* EventName.name */
	PF_DEFAULTS_CLOCK_ID = 58,		/* TracePacketDefaults.timestamp_clock_id */
	PF_DEFAULTS_TRACK_EVENT = 11,		/* TracePacketDefaults.track_event_defaults */
	PF_TE_DEFAULTS_TRACK_UUID = 11,		/* TrackEventDefaults.track_uuid */
	PF_TRACK_UUID = 1,			/* TrackDescriptor.uuid */
	PF_TRACK_NAME = 2,			/* TrackDescriptor.name */
	PF_TRACK_PARENT_UUID = 5,		/* TrackDescriptor.parent_uuid */
	PF_TRACK_COUNTER = 8,			/* TrackDescriptor.counter */
	PF_TRACK_STATIC_NAME = 10,		/* TrackDescriptor.static_name */
	PF_TRACK_ATRACE_NAME = 13,		/* TrackDescriptor.atrace_name */
};

#endif /* TRAX_PARSE_PERFETTO_FIELDS_H */

/*
 * ---- the ftrace events trax decodes ----
 *
 * Every event of trax's catalogue (parse/events.h) that FtraceEvent has a message for, each
 * once (tests/integration/perfetto-fields.sh checks): the catalogue's other events come as
 * generic events (PF_EV_GENERIC), read by their field names.
 *
 * PF_EVENT(ID, number, "system", "name", fields)
 *	an event of FtraceEvent's oneof event: its field number there, the kernel's system (the
 *	catalogue's first spelling of the name) and event name, and its message's fields, in
 *	the message's order:
 * PF_F(number, "name", TYPE)
 *	a field of the event's message: its number, its name (the schema's names are the
 *	kernel format's), and its scalar type in the schema: STR (string), I32 (int32: a
 *	negative value is a 10-byte varint), I64 (int64), U32 (uint32), U64 (uint64).
 * The event and its fields become a table with those columns, as for a trace.dat.
 */
#ifdef PF_EVENT
/* FtraceEvent.print */
PF_EVENT(PRINT, 3, "ftrace", "print",
	PF_F(1, "ip", U64)		/* PrintFtraceEvent.ip */
	PF_F(2, "buf", STR))		/* PrintFtraceEvent.buf */
/* FtraceEvent.sched_switch */
PF_EVENT(SCHED_SWITCH, 4, "sched", "sched_switch",
	PF_F(1, "prev_comm", STR)	/* SchedSwitchFtraceEvent.prev_comm */
	PF_F(2, "prev_pid", I32)	/* SchedSwitchFtraceEvent.prev_pid */
	PF_F(3, "prev_prio", I32)	/* SchedSwitchFtraceEvent.prev_prio */
	PF_F(4, "prev_state", I64)	/* SchedSwitchFtraceEvent.prev_state */
	PF_F(5, "next_comm", STR)	/* SchedSwitchFtraceEvent.next_comm */
	PF_F(6, "next_pid", I32)	/* SchedSwitchFtraceEvent.next_pid */
	PF_F(7, "next_prio", I32))	/* SchedSwitchFtraceEvent.next_prio */
/* FtraceEvent.cpu_frequency */
PF_EVENT(CPU_FREQUENCY, 11, "power", "cpu_frequency",
	PF_F(1, "state", U32)		/* CpuFrequencyFtraceEvent.state */
	PF_F(2, "cpu_id", U32))		/* CpuFrequencyFtraceEvent.cpu_id */
/* FtraceEvent.cpu_frequency_limits */
PF_EVENT(CPU_FREQUENCY_LIMITS, 12, "power", "cpu_frequency_limits",
	PF_F(1, "min_freq", U32)	/* CpuFrequencyLimitsFtraceEvent.min_freq */
	PF_F(2, "max_freq", U32)	/* CpuFrequencyLimitsFtraceEvent.max_freq */
	PF_F(3, "cpu_id", U32))		/* CpuFrequencyLimitsFtraceEvent.cpu_id */
/* FtraceEvent.cpu_idle */
PF_EVENT(CPU_IDLE, 13, "power", "cpu_idle",
	PF_F(1, "state", U32)		/* CpuIdleFtraceEvent.state */
	PF_F(2, "cpu_id", U32))		/* CpuIdleFtraceEvent.cpu_id */
/* FtraceEvent.clock_enable */
PF_EVENT(CLOCK_ENABLE, 14, "power", "clock_enable",
	PF_F(1, "name", STR)		/* ClockEnableFtraceEvent.name */
	PF_F(2, "state", U64)		/* ClockEnableFtraceEvent.state */
	PF_F(3, "cpu_id", U64))		/* ClockEnableFtraceEvent.cpu_id */
/* FtraceEvent.clock_disable */
PF_EVENT(CLOCK_DISABLE, 15, "power", "clock_disable",
	PF_F(1, "name", STR)		/* ClockDisableFtraceEvent.name */
	PF_F(2, "state", U64)		/* ClockDisableFtraceEvent.state */
	PF_F(3, "cpu_id", U64))		/* ClockDisableFtraceEvent.cpu_id */
/* FtraceEvent.clock_set_rate */
PF_EVENT(CLOCK_SET_RATE, 16, "power", "clock_set_rate",
	PF_F(1, "name", STR)		/* ClockSetRateFtraceEvent.name */
	PF_F(2, "state", U64)		/* ClockSetRateFtraceEvent.state */
	PF_F(3, "cpu_id", U64))		/* ClockSetRateFtraceEvent.cpu_id */
/* FtraceEvent.sched_wakeup */
PF_EVENT(SCHED_WAKEUP, 17, "sched", "sched_wakeup",
	PF_F(1, "comm", STR)		/* SchedWakeupFtraceEvent.comm */
	PF_F(2, "pid", I32)		/* SchedWakeupFtraceEvent.pid */
	PF_F(3, "prio", I32)		/* SchedWakeupFtraceEvent.prio */
	PF_F(4, "success", I32)		/* SchedWakeupFtraceEvent.success */
	PF_F(5, "target_cpu", I32))	/* SchedWakeupFtraceEvent.target_cpu */
/* FtraceEvent.sched_waking */
PF_EVENT(SCHED_WAKING, 20, "sched", "sched_waking",
	PF_F(1, "comm", STR)		/* SchedWakingFtraceEvent.comm */
	PF_F(2, "pid", I32)		/* SchedWakingFtraceEvent.pid */
	PF_F(3, "prio", I32)		/* SchedWakingFtraceEvent.prio */
	PF_F(4, "success", I32)		/* SchedWakingFtraceEvent.success */
	PF_F(5, "target_cpu", I32))	/* SchedWakingFtraceEvent.target_cpu */
/* FtraceEvent.softirq_entry */
PF_EVENT(SOFTIRQ_ENTRY, 24, "irq", "softirq_entry",
	PF_F(1, "vec", U32))		/* SoftirqEntryFtraceEvent.vec */
/* FtraceEvent.softirq_exit */
PF_EVENT(SOFTIRQ_EXIT, 25, "irq", "softirq_exit",
	PF_F(1, "vec", U32))		/* SoftirqExitFtraceEvent.vec */
/* FtraceEvent.softirq_raise */
PF_EVENT(SOFTIRQ_RAISE, 26, "irq", "softirq_raise",
	PF_F(1, "vec", U32))		/* SoftirqRaiseFtraceEvent.vec */
/* FtraceEvent.lowmemory_kill */
PF_EVENT(LOWMEMORY_KILL, 35, "lowmemorykiller", "lowmemory_kill",
	PF_F(1, "comm", STR)		/* LowmemoryKillFtraceEvent.comm */
	PF_F(2, "pid", I32)		/* LowmemoryKillFtraceEvent.pid */
	PF_F(3, "pagecache_size", I64)	/* LowmemoryKillFtraceEvent.pagecache_size */
	PF_F(4, "pagecache_limit", I64)	/* LowmemoryKillFtraceEvent.pagecache_limit */
	PF_F(5, "free", I64))		/* LowmemoryKillFtraceEvent.free */
/* FtraceEvent.irq_handler_entry */
PF_EVENT(IRQ_HANDLER_ENTRY, 36, "irq", "irq_handler_entry",
	PF_F(1, "irq", I32)		/* IrqHandlerEntryFtraceEvent.irq */
	PF_F(2, "name", STR)		/* IrqHandlerEntryFtraceEvent.name */
	PF_F(3, "handler", U32))	/* IrqHandlerEntryFtraceEvent.handler */
/* FtraceEvent.irq_handler_exit */
PF_EVENT(IRQ_HANDLER_EXIT, 37, "irq", "irq_handler_exit",
	PF_F(1, "irq", I32)		/* IrqHandlerExitFtraceEvent.irq */
	PF_F(2, "ret", I32))		/* IrqHandlerExitFtraceEvent.ret */
/* FtraceEvent.sync_pt */
PF_EVENT(SYNC_PT, 38, "sync", "sync_pt",
	PF_F(1, "timeline", STR)	/* SyncPtFtraceEvent.timeline */
	PF_F(2, "value", STR))		/* SyncPtFtraceEvent.value */
/* FtraceEvent.sync_timeline */
PF_EVENT(SYNC_TIMELINE, 39, "sync", "sync_timeline",
	PF_F(1, "name", STR)		/* SyncTimelineFtraceEvent.name */
	PF_F(2, "value", STR))		/* SyncTimelineFtraceEvent.value */
/* FtraceEvent.sync_wait */
PF_EVENT(SYNC_WAIT, 40, "sync", "sync_wait",
	PF_F(1, "name", STR)		/* SyncWaitFtraceEvent.name */
	PF_F(2, "status", I32)		/* SyncWaitFtraceEvent.status */
	PF_F(3, "begin", U32))		/* SyncWaitFtraceEvent.begin */
/* FtraceEvent.mm_vmscan_direct_reclaim_begin */
PF_EVENT(MM_VMSCAN_DIRECT_RECLAIM_BEGIN, 46, "vmscan", "mm_vmscan_direct_reclaim_begin",
	PF_F(1, "order", I32)		/* MmVmscanDirectReclaimBeginFtraceEvent.order */
	PF_F(2, "may_writepage", I32)	/* MmVmscanDirectReclaimBeginFtraceEvent.may_writepage */
	PF_F(3, "gfp_flags", U32))	/* MmVmscanDirectReclaimBeginFtraceEvent.gfp_flags */
/* FtraceEvent.mm_vmscan_direct_reclaim_end */
PF_EVENT(MM_VMSCAN_DIRECT_RECLAIM_END, 47, "vmscan", "mm_vmscan_direct_reclaim_end",
	PF_F(1, "nr_reclaimed", U64))	/* MmVmscanDirectReclaimEndFtraceEvent.nr_reclaimed */
/* FtraceEvent.mm_vmscan_kswapd_wake */
PF_EVENT(MM_VMSCAN_KSWAPD_WAKE, 48, "vmscan", "mm_vmscan_kswapd_wake",
	PF_F(1, "nid", I32)		/* MmVmscanKswapdWakeFtraceEvent.nid */
	PF_F(2, "order", I32)		/* MmVmscanKswapdWakeFtraceEvent.order */
	PF_F(3, "zid", I32))		/* MmVmscanKswapdWakeFtraceEvent.zid */
/* FtraceEvent.mm_vmscan_kswapd_sleep */
PF_EVENT(MM_VMSCAN_KSWAPD_SLEEP, 49, "vmscan", "mm_vmscan_kswapd_sleep",
	PF_F(1, "nid", I32))		/* MmVmscanKswapdSleepFtraceEvent.nid */
/* FtraceEvent.suspend_resume */
PF_EVENT(SUSPEND_RESUME, 113, "power", "suspend_resume",
	PF_F(1, "action", STR)		/* SuspendResumeFtraceEvent.action */
	PF_F(2, "val", I32)		/* SuspendResumeFtraceEvent.val */
	PF_F(3, "start", U32))		/* SuspendResumeFtraceEvent.start */
/* FtraceEvent.sched_wakeup_new */
PF_EVENT(SCHED_WAKEUP_NEW, 114, "sched", "sched_wakeup_new",
	PF_F(1, "comm", STR)		/* SchedWakeupNewFtraceEvent.comm */
	PF_F(2, "pid", I32)		/* SchedWakeupNewFtraceEvent.pid */
	PF_F(3, "prio", I32)		/* SchedWakeupNewFtraceEvent.prio */
	PF_F(4, "success", I32)		/* SchedWakeupNewFtraceEvent.success */
	PF_F(5, "target_cpu", I32))	/* SchedWakeupNewFtraceEvent.target_cpu */
/* FtraceEvent.task_newtask */
PF_EVENT(TASK_NEWTASK, 235, "task", "task_newtask",
	PF_F(1, "pid", I32)		/* TaskNewtaskFtraceEvent.pid */
	PF_F(2, "comm", STR)		/* TaskNewtaskFtraceEvent.comm */
	PF_F(3, "clone_flags", U64)	/* TaskNewtaskFtraceEvent.clone_flags */
	PF_F(4, "oom_score_adj", I32))	/* TaskNewtaskFtraceEvent.oom_score_adj */
/* FtraceEvent.task_rename */
PF_EVENT(TASK_RENAME, 236, "task", "task_rename",
	PF_F(1, "pid", I32)		/* TaskRenameFtraceEvent.pid */
	PF_F(2, "oldcomm", STR)		/* TaskRenameFtraceEvent.oldcomm */
	PF_F(3, "newcomm", STR)		/* TaskRenameFtraceEvent.newcomm */
	PF_F(4, "oom_score_adj", I32))	/* TaskRenameFtraceEvent.oom_score_adj */
/* FtraceEvent.sched_process_exec */
PF_EVENT(SCHED_PROCESS_EXEC, 237, "sched", "sched_process_exec",
	PF_F(1, "filename", STR)	/* SchedProcessExecFtraceEvent.filename */
	PF_F(2, "pid", I32)		/* SchedProcessExecFtraceEvent.pid */
	PF_F(3, "old_pid", I32))	/* SchedProcessExecFtraceEvent.old_pid */
/* FtraceEvent.sched_process_exit */
PF_EVENT(SCHED_PROCESS_EXIT, 238, "sched", "sched_process_exit",
	PF_F(1, "comm", STR)		/* SchedProcessExitFtraceEvent.comm */
	PF_F(2, "pid", I32)		/* SchedProcessExitFtraceEvent.pid */
	PF_F(3, "tgid", I32)		/* SchedProcessExitFtraceEvent.tgid */
	PF_F(4, "prio", I32))		/* SchedProcessExitFtraceEvent.prio */
/* FtraceEvent.sched_process_fork */
PF_EVENT(SCHED_PROCESS_FORK, 239, "sched", "sched_process_fork",
	PF_F(1, "parent_comm", STR)	/* SchedProcessForkFtraceEvent.parent_comm */
	PF_F(2, "parent_pid", I32)	/* SchedProcessForkFtraceEvent.parent_pid */
	PF_F(3, "child_comm", STR)	/* SchedProcessForkFtraceEvent.child_comm */
	PF_F(4, "child_pid", I32))	/* SchedProcessForkFtraceEvent.child_pid */
/* FtraceEvent.sched_process_free */
PF_EVENT(SCHED_PROCESS_FREE, 240, "sched", "sched_process_free",
	PF_F(1, "comm", STR)		/* SchedProcessFreeFtraceEvent.comm */
	PF_F(2, "pid", I32)		/* SchedProcessFreeFtraceEvent.pid */
	PF_F(3, "prio", I32))		/* SchedProcessFreeFtraceEvent.prio */
/* FtraceEvent.sched_process_wait */
PF_EVENT(SCHED_PROCESS_WAIT, 242, "sched", "sched_process_wait",
	PF_F(1, "comm", STR)		/* SchedProcessWaitFtraceEvent.comm */
	PF_F(2, "pid", I32)		/* SchedProcessWaitFtraceEvent.pid */
	PF_F(3, "prio", I32))		/* SchedProcessWaitFtraceEvent.prio */
/* FtraceEvent.ion_alloc_buffer_end */
PF_EVENT(ION_ALLOC_BUFFER_END, 284, "kmem", "ion_alloc_buffer_end",
	PF_F(1, "client_name", STR)	/* IonAllocBufferEndFtraceEvent.client_name */
	PF_F(2, "flags", U32)		/* IonAllocBufferEndFtraceEvent.flags */
	PF_F(3, "heap_name", STR)	/* IonAllocBufferEndFtraceEvent.heap_name */
	PF_F(4, "len", U64)		/* IonAllocBufferEndFtraceEvent.len */
	PF_F(5, "mask", U32))		/* IonAllocBufferEndFtraceEvent.mask */
/* FtraceEvent.ion_alloc_buffer_fail */
PF_EVENT(ION_ALLOC_BUFFER_FAIL, 285, "kmem", "ion_alloc_buffer_fail",
	PF_F(1, "client_name", STR)	/* IonAllocBufferFailFtraceEvent.client_name */
	PF_F(2, "error", I64)		/* IonAllocBufferFailFtraceEvent.error */
	PF_F(3, "flags", U32)		/* IonAllocBufferFailFtraceEvent.flags */
	PF_F(4, "heap_name", STR)	/* IonAllocBufferFailFtraceEvent.heap_name */
	PF_F(5, "len", U64)		/* IonAllocBufferFailFtraceEvent.len */
	PF_F(6, "mask", U32))		/* IonAllocBufferFailFtraceEvent.mask */
/* FtraceEvent.ion_alloc_buffer_fallback */
PF_EVENT(ION_ALLOC_BUFFER_FALLBACK, 286, "kmem", "ion_alloc_buffer_fallback",
	PF_F(1, "client_name", STR)	/* IonAllocBufferFallbackFtraceEvent.client_name */
	PF_F(2, "error", I64)		/* IonAllocBufferFallbackFtraceEvent.error */
	PF_F(3, "flags", U32)		/* IonAllocBufferFallbackFtraceEvent.flags */
	PF_F(4, "heap_name", STR)	/* IonAllocBufferFallbackFtraceEvent.heap_name */
	PF_F(5, "len", U64)		/* IonAllocBufferFallbackFtraceEvent.len */
	PF_F(6, "mask", U32))		/* IonAllocBufferFallbackFtraceEvent.mask */
/* FtraceEvent.ion_alloc_buffer_start */
PF_EVENT(ION_ALLOC_BUFFER_START, 287, "kmem", "ion_alloc_buffer_start",
	PF_F(1, "client_name", STR)	/* IonAllocBufferStartFtraceEvent.client_name */
	PF_F(2, "flags", U32)		/* IonAllocBufferStartFtraceEvent.flags */
	PF_F(3, "heap_name", STR)	/* IonAllocBufferStartFtraceEvent.heap_name */
	PF_F(4, "len", U64)		/* IonAllocBufferStartFtraceEvent.len */
	PF_F(5, "mask", U32))		/* IonAllocBufferStartFtraceEvent.mask */
/* FtraceEvent.rss_stat */
PF_EVENT(RSS_STAT, 313, "kmem", "rss_stat",
	PF_F(1, "member", I32)		/* RssStatFtraceEvent.member */
	PF_F(2, "size", I64)		/* RssStatFtraceEvent.size */
	PF_F(3, "curr", U32)		/* RssStatFtraceEvent.curr */
	PF_F(4, "mm_id", U32))		/* RssStatFtraceEvent.mm_id */
/* FtraceEvent.ion_heap_shrink */
PF_EVENT(ION_HEAP_SHRINK, 314, "kmem", "ion_heap_shrink",
	PF_F(1, "heap_name", STR)	/* IonHeapShrinkFtraceEvent.heap_name */
	PF_F(2, "len", U64)		/* IonHeapShrinkFtraceEvent.len */
	PF_F(3, "total_allocated", I64))	/* IonHeapShrinkFtraceEvent.total_allocated */
/* FtraceEvent.ion_heap_grow */
PF_EVENT(ION_HEAP_GROW, 315, "kmem", "ion_heap_grow",
	PF_F(1, "heap_name", STR)	/* IonHeapGrowFtraceEvent.heap_name */
	PF_F(2, "len", U64)		/* IonHeapGrowFtraceEvent.len */
	PF_F(3, "total_allocated", I64))	/* IonHeapGrowFtraceEvent.total_allocated */
/* FtraceEvent.fence_init */
PF_EVENT(FENCE_INIT, 316, "fence", "fence_init",
	PF_F(1, "context", U32)		/* FenceInitFtraceEvent.context */
	PF_F(2, "driver", STR)		/* FenceInitFtraceEvent.driver */
	PF_F(3, "seqno", U32)		/* FenceInitFtraceEvent.seqno */
	PF_F(4, "timeline", STR))	/* FenceInitFtraceEvent.timeline */
/* FtraceEvent.fence_destroy */
PF_EVENT(FENCE_DESTROY, 317, "fence", "fence_destroy",
	PF_F(1, "context", U32)		/* FenceDestroyFtraceEvent.context */
	PF_F(2, "driver", STR)		/* FenceDestroyFtraceEvent.driver */
	PF_F(3, "seqno", U32)		/* FenceDestroyFtraceEvent.seqno */
	PF_F(4, "timeline", STR))	/* FenceDestroyFtraceEvent.timeline */
/* FtraceEvent.fence_enable_signal */
PF_EVENT(FENCE_ENABLE_SIGNAL, 318, "fence", "fence_enable_signal",
	PF_F(1, "context", U32)		/* FenceEnableSignalFtraceEvent.context */
	PF_F(2, "driver", STR)		/* FenceEnableSignalFtraceEvent.driver */
	PF_F(3, "seqno", U32)		/* FenceEnableSignalFtraceEvent.seqno */
	PF_F(4, "timeline", STR))	/* FenceEnableSignalFtraceEvent.timeline */
/* FtraceEvent.fence_signaled */
PF_EVENT(FENCE_SIGNALED, 319, "fence", "fence_signaled",
	PF_F(1, "context", U32)		/* FenceSignaledFtraceEvent.context */
	PF_F(2, "driver", STR)		/* FenceSignaledFtraceEvent.driver */
	PF_F(3, "seqno", U32)		/* FenceSignaledFtraceEvent.seqno */
	PF_F(4, "timeline", STR))	/* FenceSignaledFtraceEvent.timeline */
/* FtraceEvent.oom_score_adj_update */
PF_EVENT(OOM_SCORE_ADJ_UPDATE, 326, "oom", "oom_score_adj_update",
	PF_F(1, "comm", STR)		/* OomScoreAdjUpdateFtraceEvent.comm */
	PF_F(2, "oom_score_adj", I32)	/* OomScoreAdjUpdateFtraceEvent.oom_score_adj */
	PF_F(3, "pid", I32))		/* OomScoreAdjUpdateFtraceEvent.pid */
/* FtraceEvent.mark_victim */
PF_EVENT(MARK_VICTIM, 334, "oom", "mark_victim",
	PF_F(1, "pid", I32))		/* MarkVictimFtraceEvent.pid */
/* FtraceEvent.ion_stat */
PF_EVENT(ION_STAT, 335, "ion", "ion_stat",
	PF_F(1, "buffer_id", U32)	/* IonStatFtraceEvent.buffer_id */
	PF_F(2, "len", I64)		/* IonStatFtraceEvent.len */
	PF_F(3, "total_allocated", U64))	/* IonStatFtraceEvent.total_allocated */
/* FtraceEvent.gpu_mem_total */
PF_EVENT(GPU_MEM_TOTAL, 340, "gpu_mem", "gpu_mem_total",
	PF_F(1, "gpu_id", U32)		/* GpuMemTotalFtraceEvent.gpu_id */
	PF_F(2, "pid", U32)		/* GpuMemTotalFtraceEvent.pid */
	PF_F(3, "size", U64))		/* GpuMemTotalFtraceEvent.size */
/* FtraceEvent.thermal_temperature */
PF_EVENT(THERMAL_TEMPERATURE, 341, "thermal", "thermal_temperature",
	PF_F(1, "id", I32)		/* ThermalTemperatureFtraceEvent.id */
	PF_F(2, "temp", I32)		/* ThermalTemperatureFtraceEvent.temp */
	PF_F(3, "temp_prev", I32)	/* ThermalTemperatureFtraceEvent.temp_prev */
	PF_F(4, "thermal_zone", STR))	/* ThermalTemperatureFtraceEvent.thermal_zone */
/* FtraceEvent.cdev_update */
PF_EVENT(CDEV_UPDATE, 342, "thermal", "cdev_update",
	PF_F(1, "target", U64)		/* CdevUpdateFtraceEvent.target */
	PF_F(2, "type", STR))		/* CdevUpdateFtraceEvent.type */
/* FtraceEvent.dma_heap_stat */
PF_EVENT(DMA_HEAP_STAT, 351, "dmabuf_heap", "dma_heap_stat",
	PF_F(1, "inode", U64)		/* DmaHeapStatFtraceEvent.inode */
	PF_F(2, "len", I64)		/* DmaHeapStatFtraceEvent.len */
	PF_F(3, "total_allocated", U64))	/* DmaHeapStatFtraceEvent.total_allocated */
/* FtraceEvent.dma_fence_init */
PF_EVENT(DMA_FENCE_INIT, 414, "dma_fence", "dma_fence_init",
	PF_F(1, "context", U32)		/* DmaFenceInitFtraceEvent.context */
	PF_F(2, "driver", STR)		/* DmaFenceInitFtraceEvent.driver */
	PF_F(3, "seqno", U32)		/* DmaFenceInitFtraceEvent.seqno */
	PF_F(4, "timeline", STR))	/* DmaFenceInitFtraceEvent.timeline */
/* FtraceEvent.dma_fence_emit */
PF_EVENT(DMA_FENCE_EMIT, 415, "dma_fence", "dma_fence_emit",
	PF_F(1, "context", U32)		/* DmaFenceEmitFtraceEvent.context */
	PF_F(2, "driver", STR)		/* DmaFenceEmitFtraceEvent.driver */
	PF_F(3, "seqno", U32)		/* DmaFenceEmitFtraceEvent.seqno */
	PF_F(4, "timeline", STR))	/* DmaFenceEmitFtraceEvent.timeline */
/* FtraceEvent.dma_fence_signaled */
PF_EVENT(DMA_FENCE_SIGNALED, 416, "dma_fence", "dma_fence_signaled",
	PF_F(1, "context", U32)		/* DmaFenceSignaledFtraceEvent.context */
	PF_F(2, "driver", STR)		/* DmaFenceSignaledFtraceEvent.driver */
	PF_F(3, "seqno", U32)		/* DmaFenceSignaledFtraceEvent.seqno */
	PF_F(4, "timeline", STR))	/* DmaFenceSignaledFtraceEvent.timeline */
/* FtraceEvent.dma_fence_wait_start */
PF_EVENT(DMA_FENCE_WAIT_START, 417, "dma_fence", "dma_fence_wait_start",
	PF_F(1, "context", U32)		/* DmaFenceWaitStartFtraceEvent.context */
	PF_F(2, "driver", STR)		/* DmaFenceWaitStartFtraceEvent.driver */
	PF_F(3, "seqno", U32)		/* DmaFenceWaitStartFtraceEvent.seqno */
	PF_F(4, "timeline", STR))	/* DmaFenceWaitStartFtraceEvent.timeline */
/* FtraceEvent.dma_fence_wait_end */
PF_EVENT(DMA_FENCE_WAIT_END, 418, "dma_fence", "dma_fence_wait_end",
	PF_F(1, "context", U32)		/* DmaFenceWaitEndFtraceEvent.context */
	PF_F(2, "driver", STR)		/* DmaFenceWaitEndFtraceEvent.driver */
	PF_F(3, "seqno", U32)		/* DmaFenceWaitEndFtraceEvent.seqno */
	PF_F(4, "timeline", STR))	/* DmaFenceWaitEndFtraceEvent.timeline */
/* FtraceEvent.sched_migrate_task */
PF_EVENT(SCHED_MIGRATE_TASK, 491, "sched", "sched_migrate_task",
	PF_F(1, "comm", STR)		/* SchedMigrateTaskFtraceEvent.comm */
	PF_F(2, "pid", I32)		/* SchedMigrateTaskFtraceEvent.pid */
	PF_F(3, "prio", I32)		/* SchedMigrateTaskFtraceEvent.prio */
	PF_F(4, "orig_cpu", I32)	/* SchedMigrateTaskFtraceEvent.orig_cpu */
	PF_F(5, "dest_cpu", I32)	/* SchedMigrateTaskFtraceEvent.dest_cpu */
	PF_F(6, "running", I32)		/* SchedMigrateTaskFtraceEvent.running */
	PF_F(7, "load", U32))		/* SchedMigrateTaskFtraceEvent.load */
#undef PF_EVENT
#undef PF_F
#endif
