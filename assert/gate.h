/* assert/gate.h: the regression gate: a run compared with a stored baseline, or runs with runs. */
#ifndef TRAX_GATE_H
#define TRAX_GATE_H

#include <stdint.h>
#include <stdio.h>
#include <sqlite3.h>

#include "assert/assert.h"
#include "rules/rules.h"
#include "util/error.h"

/* Where a trace's results are in a struct trax_verdicts, and which file it was. */
struct trax_trace_id {
	char *name;		/* as given on the command line */
	char *path;		/* meta source.path, or NULL */
	char sha256[65];	/* meta source.sha256, "" when unknown */
	int64_t size;		/* meta source.size, -1 when unknown */
	int first, n;		/* its results: res[first .. first + n) */
};

/* Fill id from the db's meta (name is copied). Release with trax_trace_id_release(). */
int trax_trace_id_read(sqlite3 *db, const char *name, struct trax_trace_id *id,
		       struct trax_error *err);
void trax_trace_id_release(struct trax_trace_id *id);

/*
 * The key of every result of v[first .. first + n), stable across runs of the same workload:
 * the rule id, then "[comm]" for a per-task result (pids differ between runs; the k-th task of
 * the same comm in order of first appearance, k >= 2, is "[comm#k]"), or the "[track]" of a
 * per-track result. Returns n strings (caller frees with trax_result_keys_free()).
 */
char **trax_result_keys(const struct trax_verdicts *v, int first, int n);
void trax_result_keys_free(char **keys, int n);

/*
 * A value now against its baseline value old, under r's "regression" bounds: REGRESSED when
 * it moved by more than max_increase upwards or max_decrease downwards (a relative bound is a
 * percentage of |old|); IMPROVED when only one direction is bounded and the value moved the
 * other way by more than that bound; SAME otherwise, and when r has no bound. note (may be
 * NULL) gets one line ("20 % -> 40 % (+20 %, +100 %): beyond max_increase 25 %").
 */
enum trax_cmp trax_tolerance_compare(const struct trax_rule *r, enum trax_dim dim, double old,
				     double now, char *note, size_t len);

/* The word for a comparison ("regressed"). Must not be freed. */
const char *trax_cmp_name(enum trax_cmp c);

/*
 * Write every result of v (values, verdicts, keys) with the traces' identity and the rules'
 * sha256 to path as a baseline (JSON, "trax_baseline": 1). The file is written beside path
 * and renamed into place when complete. Returns 0 or a negative error (err filled).
 */
int trax_baseline_save(const char *path, const struct trax_verdicts *v,
		       const struct trax_trace_id *ids, int nids, struct trax_error *err);

struct trax_baseline;

/* Read a baseline file. Returns 0 and *out (free with trax_baseline_free()), or a negative
 * error naming the file and the problem. */
int trax_baseline_load(const char *path, struct trax_baseline **out, struct trax_error *err);
void trax_baseline_free(struct trax_baseline *b);

/*
 * Compare every result of v with the baseline entry of the same trace position and key:
 * fills each result's cmp, base_* and cmp_note, and v's counts (compared, regressed, ...,
 * missing: baseline entries of rules still in rs that this run lacks; baseline_note: the rules
 * or the traces differ from the baseline's). A result that passed in the baseline and fails
 * now regressed, one that failed and passes now improved; otherwise its value is judged by
 * trax_tolerance_compare(). Regressions of "warn" rules count in regressed_warn only.
 * A regressed result that had not failed its rule fails now (a "warn" rule's warns): its
 * verdict becomes TRAX_FAIL with the comparison as its reason, regression and rule_verdict
 * are set, and v's pass/xpass/xfail and fail/warn counts move with it, so that every output
 * format and the exit status agree. Returns 0 or a negative error.
 */
int trax_baseline_compare(const struct trax_baseline *b, const struct trax_rules *rs,
			  const struct trax_trace_id *ids, int nids, struct trax_verdicts *v,
			  struct trax_error *err);

/* ---- several runs per side: trax gate ---- */

/* Fewer runs per side than this is "insufficient samples": with 3 per side no two-sided test
 * can reach p < 0.05 (at best 2 / C(6, 3) = 0.1), with 4 only a complete separation can
 * (2 / C(8, 4) = 0.029); 5 per side leaves room (2 / C(10, 5) = 0.0079). */
#define TRAX_GATE_MIN_RUNS 5

enum trax_gate_side { TRAX_GATE_BASE, TRAX_GATE_NEW };

struct trax_gate;

/* A gate over the rules rs (which must outlive it), deciding at significance level alpha. */
struct trax_gate *trax_gate_alloc(const struct trax_rules *rs, double alpha);
void trax_gate_free(struct trax_gate *g);

/* Add the results of one run (one trace: v holds only its results) to a side. */
int trax_gate_add(struct trax_gate *g, enum trax_gate_side side, const char *trace,
		  const struct trax_verdicts *v, struct trax_error *err);

/*
 * Decide every (rule, task) seen: with TRAX_GATE_MIN_RUNS or more runs per side, the two-sided
 * Mann-Whitney U test on the values and Fisher's exact test on the pass/fail counts; a
 * significant shift (p < alpha) in the direction the rule calls worse (the "regression"
 * bounds, else the expectation: "<" worse up, ">" worse down, other forms both ways) that also
 * exceeds the rule's "regression" bound when it has one, or a significantly higher failure
 * rate, is a regression. Returns 0 or a negative error.
 */
int trax_gate_decide(struct trax_gate *g, struct trax_error *err);

/* Write the decisions as TAP, JUnit, JSON or an aligned table; 0 or -1 on write errors. */
int trax_gate_write(const struct trax_gate *g, enum trax_out_format fmt, FILE *out);

/* 0 no regression, 1 a regression (of a rule of severity error), 4 nothing could be tested
 * (every result had insufficient samples or was skipped). */
int trax_gate_exit_status(const struct trax_gate *g);

#endif
