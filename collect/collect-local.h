/* collect/collect-local.h: internal to collect/: events, the drain, the trace.dat writer. */
#ifndef TRAX_COLLECT_LOCAL_H
#define TRAX_COLLECT_LOCAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "collect/collect.h"
#include "util/strbuf.h"

struct tracefs_instance;

/* ---- events.c: event selection ---- */

struct ev_name {
	char *system, *name;
};

struct ev_list {
	int n, cap;
	struct ev_name *v;
};

/*
 * Resolve an -e list and a -p list against the events of the tracefs at tracing_dir (a
 * directory holding events/). Returns 0 with out filled (free with ev_list_release()), or a
 * negative error naming the unknown event. Events a preset wants but this kernel lacks are
 * described in *missing (one line per preset, appended; may stay empty).
 */
int ev_resolve(const char *tracing_dir, const char *events, const char *presets,
	       struct ev_list *out, struct strbuf *missing, struct trax_error *err);
/* Check that every name of a -p list is a preset: 0, or an error naming the nearest preset. */
int ev_check_presets(const char *presets, struct trax_error *err);
/* Whether the list holds system:name. */
int ev_list_has(const struct ev_list *l, const char *system, const char *name);
void ev_list_release(struct ev_list *l);

/* ---- datwriter.c: trace.dat version 6 ---- */

struct dat_blob {
	char *data;
	size_t len;
};

struct dat_info {
	const char *label;		/* the name errors give (NULL: the path written) */
	int page_size;			/* ring-buffer sub-buffer size (a page) */
	int ncpus;
	struct dat_blob header_page, header_event;
	int nftrace;
	struct dat_blob *ftrace;	/* events/ftrace/NAME/format */
	int nevents;
	const struct ev_name *event_names;	/* grouped by system in the file */
	struct dat_blob *events;	/* events/SYSTEM/NAME/format, parallel to event_names */
	struct dat_blob kallsyms, printk, cmdlines;
	struct dat_blob trace_clock;	/* content of trace_clock: "[local] global ..." */
	const char *uname;		/* "Linux host 6.1.0 #1 SMP ... x86_64", or NULL */
	const char *version;		/* writer version, or NULL */
	char **cpustats;		/* [ncpus] per_cpu/cpuN/stats content, or NULL entries */
	const int *cpu_fds;		/* [ncpus] page data of each CPU, read from offset 0 */
	const uint64_t *cpu_sizes;	/* [ncpus] bytes, multiples of page_size */
	/* pages of the CPU data written as two (dat_split_lost()), by CPU and offset */
	int nsplits;
	const struct dat_split *splits;
};

struct dat_split {
	int cpu;
	uint64_t off;			/* the page replaced */
	uint64_t count;			/* the lost-event count written in the first */
	unsigned char *pages;		/* 2 * page_size bytes written in its place */
};

/*
 * Write info into path (created or truncated, then fsync'ed). Returns 0 or a negative error
 * naming path ("x.dat: No space left on device"); on error path is left for the caller to
 * remove.
 */
int dat_write(const char *path, const struct dat_info *info, struct trax_error *err);

/* Page scan of CPU data: records the lost-event marks (RB_MISSED_EVENTS) of each page. */
struct dat_page_scan {
	uint64_t pages;
	uint64_t empty_pages;		/* commit 0 */
	uint64_t marked_lost;		/* sum of stored missed-event counts */
	uint64_t unknown_lost;		/* pages marked lost without a stored count */
	uint64_t unknown_off;		/* offset of the last such page */
	uint64_t first_ts, last_page_ts;
};
/* Scan size bytes of pages from fd (from offset 0). long_size: the kernel's (8 or 4). */
int dat_scan_pages(int fd, uint64_t size, int page_size, int long_size,
		   struct dat_page_scan *scan);

/* A page marked with lost events. */
struct dat_mark {
	uint64_t off;
	int64_t count;			/* the stored count, -1: none */
};
/* The marked pages of size bytes from fd, in file order: *marks is malloc'd (may be NULL
 * with *n 0); returns 0 or a negative errno. */
int dat_list_marks(int fd, uint64_t size, int page_size, int long_size, struct dat_mark **marks,
		   int *n);
/*
 * The kernel stores a page's lost-event count after its data only when the page has room,
 * and a full page has none: its tail is a padding event. Store count in the page at off
 * (marked lost, no count) in the place of that padding. Returns 0, or -1 when the padding
 * is too short (or absent) to hold it.
 */
int dat_store_lost(int fd, uint64_t off, int page_size, int long_size, uint64_t count);
/*
 * When that page is exactly full: fill two pages (2 * page_size bytes at out) that replace
 * it: the first holds its first event and count, the second the rest of its events, its
 * time stamp the first event's. Returns 0, or -1 when the page does not lend itself.
 */
int dat_split_lost(int fd, uint64_t off, int page_size, int long_size, uint64_t count,
		   unsigned char *out);

/* ---- drain.c: the reader thread ---- */

struct drain;

/*
 * Open every CPU's trace_pipe_raw of the instance and start one thread that moves full pages
 * (splice, tracefs_cpu_write) into one temporary file per CPU, named tmp_prefix.cpuN; label
 * (the trace's name) starts write errors. Returns 0 or a negative error.
 */
int drain_start(struct tracefs_instance *inst, int ncpus, int page_size, const char *tmp_prefix,
		const char *label, struct drain **out, struct trax_error *err);
/* Nonzero once the thread met an error (err filled then, e.g. disk full). */
int drain_failed(struct drain *d, struct trax_error *err);
/* Stop: drain what is left (full pages, then the partial ones) and join the thread.
 * Returns 0 or the thread's error. Call after tracing was turned off. */
int drain_stop(struct drain *d, struct trax_error *err);
int drain_cpu_fd(const struct drain *d, int cpu);
uint64_t drain_cpu_bytes(const struct drain *d, int cpu);
/*
 * The CPU's overrun (per_cpu/cpuN/stats) as the reader saw it change: after moving the pages
 * up to `bytes` of its file, the kernel had overwritten `overrun` events in all. The count of
 * a lost-event mark in those pages is at most that, less the marks before it.
 */
struct drain_ckpt {
	uint64_t bytes, overrun;
};
int drain_cpu_checkpoints(const struct drain *d, int cpu, const struct drain_ckpt **ck);
/* Close and unlink the temporary files; d may be NULL. */
void drain_free(struct drain *d);

/* ---- workload.c ---- */

struct workload {
	pid_t pid;		/* 0: none */
	int pidfd;
	int go_fd;		/* write end: one byte releases the child to exec */
	int status_fd;		/* read end: child messages, EOF at exec */
	int reaped;
	int status;		/* wait status once reaped */
};

/*
 * Fork the workload: it gets its own process group, stdin from /dev/null, stdout and stderr
 * into log_fd, and (redirect_dir non-NULL) a private mount namespace where
 * /sys/kernel/tracing and /sys/kernel/debug/tracing are the instance's directory. It waits
 * for workload_go() before exec'ing argv. Warnings about the redirection go to *warnings.
 */
int workload_spawn(struct workload *w, char *const *argv, int log_fd, const char *redirect_dir,
		   struct strbuf *warnings, struct trax_error *err);
/* Release the child; returns 0 once it exec'ed, or an error (exec failed). */
int workload_go(struct workload *w, char *const *argv, struct trax_error *err);
/* Wait up to timeout_ms for the workload to end; 1 ended (w->status set), 0 still running. */
int workload_wait(struct workload *w, int timeout_ms);
/* Signal the workload's process group. */
void workload_kill(struct workload *w, int sig);
/* Kill and reap whatever is left; close descriptors. */
void workload_release(struct workload *w);
/* The path of an executable found in PATH (malloc'd), or NULL. */
char *workload_find_exec(const char *name);

/* ---- state.c: initial state as trace markers ---- */

/*
 * Write "trax: initial ..." markers into the instance for the enabled events that make
 * counters: cpu_frequency (scaling_cur_freq of each CPU), cpu_idle (written from each CPU,
 * which is therefore running), thermal_temperature (each thermal zone), oom_score_adj_update
 * (the workload's oom_score_adj). Returns the number of markers written; notes go to *notes.
 */
int state_write_initial(struct tracefs_instance *inst, const struct ev_list *events, int ncpus,
			pid_t workload, struct strbuf *notes);
/*
 * Write the machine's facts read under sysfs (NULL: /sys) as "trax: target ..." markers into
 * the instance (collect/facts.h). Returns the number of markers written, or negative when a
 * write failed.
 */
int state_write_facts(struct tracefs_instance *inst, const char *sysfs);

#endif
