/* assert/assert.h: evaluating rules against a trace database: metrics, windows, verdicts, output. */
#ifndef TRAX_ASSERT_H
#define TRAX_ASSERT_H

#include <stdint.h>
#include <stdio.h>
#include <sqlite3.h>

#include "rules/rules.h"
#include "util/error.h"

/* A resolved window: absolute trace-clock nanoseconds, start <= end. */
struct trax_span {
	int64_t start, end;
};

/* Facts about the trace every evaluation needs (from meta). */
struct trax_trace_info {
	int64_t start, end;		/* first and last record of the file */
	int64_t complete_start;		/* latest per-CPU first record */
	int ncpus;
	int has_lost_unknown;		/* lost events whose positions are unknown */
};

int trax_trace_info_read(sqlite3 *db, struct trax_trace_info *ti, struct trax_error *err);

/*
 * Resolve a rule window against the trace. Returns 0 with *out set; 1 when the window cannot
 * be found in this trace or is empty (reason filled: the rule FAILS with it); 2 when what it
 * needs is absent (no trace markers: the rule is SKIPPED with reason); negative on error.
 */
int trax_window_resolve(sqlite3 *db, const struct trax_window *w, const struct trax_trace_info *ti,
			struct trax_span *out, char *reason, size_t rlen, struct trax_error *err);

/* A thread lifetime matched by a selector. */
struct trax_task {
	int utid, pid;
	char comm[64];		/* the thread's last name */
};

/*
 * Threads matching a selector (a comm glob or regex matches any name the thread had). On
 * success *tasks (caller frees) holds *n entries, ordered by first appearance.
 */
int trax_select_tasks(sqlite3 *db, const struct trax_selector *sel, struct trax_task **tasks,
		      int *n, struct trax_error *err);

/* What a metric computation yields: a value, or none with the reason. */
struct trax_value {
	int defined;
	double v;		/* base units of trax_rule_value_dim() */
	char reason[256];	/* when !defined (or extra detail) */
};

/*
 * The library call behind `trax check`: the value of rule r's metric for the threads utids[0..n)
 * (taken together: one task's lifetimes, or an aggregate set) in span. For metrics without a
 * task (thermal_residency, counter, sql, busy without task), utids is ignored (n may be 0);
 * counter rules with several matching tracks take track_id (0: the single matching track).
 * Returns 0 (check val->defined) or a negative error.
 */
int trax_metric_eval(sqlite3 *db, const struct trax_rule *r, const int *utids, int n,
		     const struct trax_span *span, const struct trax_trace_info *ti, int track_id,
		     struct trax_value *val, struct trax_error *err);

/*
 * Register the SQL function trax_metric(RULE_JSON) on db (read-only use): it evaluates one rule
 * object ({"metric": "runtime", "task": "ls", ...}, the keys of a rule without "expect", or
 * with it) on that database and returns the value in base units (ns, %, Hz, mC, counts), or
 * NULL when it has none (no task matches, undefined). A selector matching several tasks needs
 * "aggregate". Returns 0 or a negative error.
 */
int trax_sql_functions_register(sqlite3 *db, struct trax_error *err);

/*
 * The CPUs of a group the trace's facts define (trax_topology_fact_name(): "little", "big",
 * "mid" from the meta cpu.N.capacity rows, "clusterN" from cpu.N.cluster; doc/rules.md):
 * 0 with *cpus (sorted; caller frees) and *n; 1 when the facts do not give it (reason says
 * which fact is missing or why it does not tell); negative on a db error.
 */
int trax_topology_group(sqlite3 *db, const char *name, int **cpus, int *n, char *reason,
			size_t rlen, struct trax_error *err);

enum trax_verdict { TRAX_PASS, TRAX_FAIL, TRAX_SKIP, TRAX_ERROR, TRAX_XFAIL, TRAX_XPASS };

/* The text of a verdict ("pass", "fail", ...). Must not be freed. */
const char *trax_verdict_name(enum trax_verdict v);

/* A result compared with a baseline run (trax check --baseline; assert/gate.h). */
enum trax_cmp { TRAX_CMP_NONE,		/* not compared */
		TRAX_CMP_SAME, TRAX_CMP_REGRESSED, TRAX_CMP_IMPROVED,
		TRAX_CMP_NEW,		/* no baseline entry for it */
		TRAX_CMP_NA };		/* skipped or in error on either side: not comparable */

struct trax_result {
	const struct trax_rule *rule;
	char *name;		/* rule id, or "id[comm:pid]" per task, "id[track]" per track */
	char *task;		/* "comm:pid" or NULL */
	char *trace;		/* the trace (or db) this result is about */
	enum trax_verdict verdict;
	int warn;		/* failed, but severity "warn": does not fail the gate */
	int has_value;
	double value;		/* base units */
	enum trax_dim dim;
	int has_span;
	struct trax_span span;
	int64_t trace_start;	/* for times relative to the trace start */
	char *reason;		/* why not pass (or NULL) */
	char *note;		/* what the value rests on that a reader should know, or NULL */
	/* set by trax_baseline_compare() */
	enum trax_cmp cmp;
	enum trax_verdict base_verdict;
	int base_has_value;
	double base_value;
	char *cmp_note;		/* how the comparison was decided, or NULL */
	/*
	 * 1: the result regressed from the baseline and that alone made it fail (verdict
	 * TRAX_FAIL; warn set for a rule of severity "warn"; reason says why); rule_verdict
	 * holds what the rule's own threshold gave (pass, xpass, xfail).
	 */
	int regression;
	enum trax_verdict rule_verdict;
};

struct trax_verdicts {
	struct trax_result *res;
	int n, cap;
	char *rules_path, *rules_sha256;
	int pass, fail, skip, error, xfail, xpass, warn;	/* regressions count as fail/warn */
	/* set by trax_baseline_compare() */
	int compared;
	int regressed, regressed_warn, improved, same, added, not_comparable;
	char **missing;		/* baseline results absent from this run ("key" or "trace#N key") */
	int nmissing;
	char *baseline_path, *baseline_note;
};

/*
 * Evaluate every rule of rs on one trace database, appending results to out (initialize it
 * zeroed; release with trax_verdicts_release()). trace_name labels the results. Returns 0, or a
 * negative error for failures of the database itself (not of rules).
 */
int trax_check_db(const struct trax_rules *rs, sqlite3 *db, const char *trace_name,
		  struct trax_verdicts *out, struct trax_error *err);
void trax_verdicts_release(struct trax_verdicts *v);

/*
 * The events rs needs, as a --events list for loading a trace ("sched:*,ftrace:print"), or NULL
 * when a rule may read anything (sql). Caller frees.
 */
char *trax_rules_events(const struct trax_rules *rs);

enum trax_out_format { TRAX_OUT_TAP, TRAX_OUT_JUNIT, TRAX_OUT_JSON, TRAX_OUT_TEXT };

/* Write the verdicts; 0 or -1 on write errors. */
int trax_verdicts_write(const struct trax_verdicts *v, enum trax_out_format fmt, FILE *out);

/* Exit status for `trax check`: 0 all pass, 1 a rule failed (or, compared with a baseline,
 * regressed), 2 an evaluation error, 4 all skipped. */
int trax_verdicts_exit_status(const struct trax_verdicts *v);

#endif
