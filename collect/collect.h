/* collect/collect.h: capturing ftrace in a private tracefs instance while driving a workload. */
#ifndef TRAX_COLLECT_H
#define TRAX_COLLECT_H

#include <stdint.h>

#include "util/error.h"

/*
 * A capture: a private tracefs instance (libtracefs) with the chosen events, its per-CPU ring
 * buffers drained into the output while the workload runs, written out as a trace.dat (v6)
 * that `trace-cmd report` and `trax load` read. The instance is always removed: on success,
 * on error and when interrupted (trax_capture_interrupt()).
 */
struct trax_capture;

struct trax_collect_opts {
	const char *output;	/* trace.dat to write (required); the workload's output goes to
				 * OUTPUT's name with .log */
	const char *events;	/* comma list: NAME, SYSTEM, SYSTEM:NAME, SYSTEM:*; or NULL */
	const char *presets;	/* comma list of presets (trax_collect_presets()), or NULL; with
				 * events NULL too: "sched" */
	unsigned buffer_kb;	/* per-CPU ring buffer size; 0: the kernel's default */
	const char *clock;	/* trace clock; NULL: "local" */
	unsigned cmdlines;	/* saved_cmdlines_size during the capture (global, restored
				 * after); 0: left alone */
	char *const *argv;	/* command workload, exec'd without a shell, or NULL */
	const char *workload;	/* rt-app JSON, or trax workload JSON (converted), or NULL */
	const char *db;		/* also load the trace into this database, or NULL */
	double duration;	/* stop after this many seconds (the workload is killed); 0: when
				 * the workload ends (without workload: until interrupted) */
	int ignore_status;	/* a workload exiting non-zero is not an error */
	int no_kallsyms;	/* leave /proc/kallsyms out of the trace.dat */
	int no_redirect;	/* do not point the workload's tracefs paths at the instance */
	const char *extract;	/* write the content of this existing instance instead of
				 * capturing (no workload; the instance is left in place) */
	const char *atrace_categories;	/* Perfetto captures only (collect/pfconfig.h): atrace
					 * categories added to the presets', comma list, or NULL */
	const char *atrace_apps;	/* the same: apps whose atrace markers to record, or NULL */
	/* Warnings (missing preset events, lost events, ...): one line each, no newline. */
	void (*warn)(void *ctx, const char *msg);
	/* What a capture on a target does (pushes, clean-ups): one line each; may be NULL. */
	void (*note)(void *ctx, const char *msg);
	void *warn_ctx;
};

struct trax_capture_stats {
	int ncpus;
	double seconds;			/* from tracing on to tracing off */
	uint64_t events;		/* events drained ("read events" of per_cpu stats) */
	uint64_t bytes;			/* ring-buffer bytes written into the trace.dat */
	uint64_t overrun;		/* events overwritten before they were drained */
	uint64_t commit_overrun;
	uint64_t dropped;		/* events dropped (buffer full, non-overwrite mode) */
	uint64_t marked_lost;		/* lost events marked in the file's pages */
	int unknown_lost_pages;		/* pages marked with lost events of unknown count */
	int nevents;			/* event types enabled */
	int workload_pid;		/* 0: none */
	int workload_status;		/* wait() status of the workload, -1: not waited */
	const char *output;		/* the file written: OUTPUT, or OUTPUT.incomplete */
	const char *log;		/* the workload's log, or NULL */
	const char *rtapp_json;		/* converted rt-app JSON kept beside the trace, or NULL */
};

/*
 * Check the options (events are resolved against tracefs later, in trax_capture_run()).
 * Returns 0 and *cap (free with trax_capture_free()), or a negative error with err filled.
 */
int trax_capture_alloc(const struct trax_collect_opts *opts, struct trax_capture **cap,
		       struct trax_error *err);

/*
 * Run the whole capture: check root and tracefs, resolve events, create the instance, start
 * the workload, drain until it ends, write the trace.dat, remove the instance, and load the
 * db when asked. Returns 0, or a negative error with err filled; then no OUTPUT exists. When
 * the workload failed or the capture was interrupted, the trace is kept as
 * OUTPUT.incomplete (stats->output) and the error says so.
 */
int trax_capture_run(struct trax_capture *cap, struct trax_error *err);

/* Ask a running capture to stop (async-signal-safe: call it from a signal handler). The
 * workload is sent SIGTERM and the trace kept as incomplete (unless sig is 0); without a
 * workload, the capture just ends, complete. */
void trax_capture_interrupt(struct trax_capture *cap, int sig);

/* Figures of the last run; owned by cap. */
const struct trax_capture_stats *trax_capture_get_stats(const struct trax_capture *cap);

/* Free cap; removes the instance if it still exists. cap may be NULL. */
void trax_capture_free(struct trax_capture *cap);

struct trax_target;

/*
 * The capture on a target (collect/remote.c, doc/devices.md): the target's static collector
 * runs it there with the options of o, and the trace comes back to o->output (or
 * o->output.incomplete). target_dir: the folder on the target (NULL: /tmp over ssh,
 * /data/local/tmp over adb). 0, or a negative error naming the target.
 */
int trax_collect_remote(const struct trax_collect_opts *o, struct trax_target *t,
			const char *target_dir, struct trax_error *err);
/* Stop a capture on a target (async-signal-safe): its stdin closes, so it stops and keeps
 * what it has as incomplete. */
void trax_remote_interrupt(void);

/* The preset names, NULL-terminated; must not be freed. */
const char *const *trax_collect_presets(void);
/* Check that every name of a -p list is a preset: 0, or an error naming the nearest one. */
int trax_collect_check_presets(const char *presets, struct trax_error *err);
/* The events of a preset ("system:event", NULL-terminated), or NULL for an unknown name. */
const char *const *trax_collect_preset_events(const char *preset);

/*
 * Convert a trax workload JSON file (a "tasks" array of periodic tasks) into rt-app JSON.
 * log_dir and log_base (may be NULL) set where rt-app writes its per-thread logs
 * (LOG_DIR/LOG_BASE-THREAD-N.log). Returns 0 and *json (malloc'd, the caller frees it), or a
 * negative error naming the file, the task and the key. Returns -TRAX_E_UNSUPPORTED (err
 * filled) when the file is not in the trax form (an rt-app file: "tasks" is an object).
 */
int trax_workload_to_rtapp(const char *path, const char *log_dir, const char *log_base,
			   char **json, struct trax_error *err);

/* The same from JSON text; name is used in messages. */
int trax_workload_text_to_rtapp(const char *text, const char *name, const char *log_dir,
				const char *log_base, char **json, struct trax_error *err);

#endif
