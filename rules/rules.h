/* rules/rules.h: the rule language: rule files (JSON) loaded and validated into typed structs. */
#ifndef TRAX_RULES_H
#define TRAX_RULES_H

#include <regex.h>
#include <stdint.h>

#include "util/error.h"

/* What a metric's value measures; a threshold's unit must be of the same dimension. */
enum trax_dim {
	TRAX_DIM_COUNT,		/* plain numbers: counts, ratios (no unit) */
	TRAX_DIM_TIME,		/* base unit ns */
	TRAX_DIM_PERCENT,	/* % */
	TRAX_DIM_BYTES,		/* B */
	TRAX_DIM_FREQ,		/* Hz */
	TRAX_DIM_TEMP,		/* mC (milli-degrees Celsius, the kernel's unit) */
	TRAX_DIM_CPU,		/* a CPU number */
};

/* The rule metrics, one row each in rules/metrics.h (the metric catalogue). */
#define TRAX_METRIC(id, ...) TRAX_METRIC_##id,
enum trax_metric {
#include "rules/metrics.h"
	TRAX_METRIC__COUNT
};
#undef TRAX_METRIC

/* What a metric reads: the scheduler tables, counter tracks, a query, the Android tables. */
enum trax_family { TRAX_FAMILY_SCHED, TRAX_FAMILY_COUNTER, TRAX_FAMILY_SQL,
		   TRAX_FAMILY_ANDROID };

enum trax_family trax_metric_family(enum trax_metric m);
/* The events a metric needs ("a;b|c": a, and b or c), or NULL (rules/metrics.h). */
const char *trax_metric_needs(enum trax_metric m);
/* The events to load for it ("a,b"; "*": all), or NULL: its counter track's own. */
const char *trax_metric_loads(enum trax_metric m);

/* The name of a metric ("runtime"). Must not be freed. */
const char *trax_metric_name(enum trax_metric m);

enum trax_op { TRAX_OP_LT, TRAX_OP_LE, TRAX_OP_GT, TRAX_OP_GE, TRAX_OP_EQ, TRAX_OP_NE,
	       TRAX_OP_RANGE,	/* between a and b, inclusive ("between A and B", "A +- B") */
	       TRAX_OP_IN };	/* a CPU metric in a CPU group ("in little") */

/* "expect": ">= 75 %", "< 500 us", "== 0", "between 2 ms and 3 ms", "25 % +- 1 %", "in big" */
struct trax_threshold {
	enum trax_op op;
	double a, b;		/* in the dimension's base unit */
	enum trax_dim dim;
	char unit[8];		/* as written ("us"), "" for none: values are shown in it */
	double scale;		/* base units per `unit` (us: 1000) */
	int *cpus;		/* TRAX_OP_IN: the group's CPUs */
	int ncpus;
	char *group;		/* TRAX_OP_IN: the group's name */
	int group_facts;	/* TRAX_OP_IN: a group the trace's facts define (cpus NULL) */
	char *text;		/* the expectation as written */
};

enum trax_window_kind {
	TRAX_WIN_ALL,		/* no window: the whole trace */
	TRAX_WIN_ABSOLUTE,	/* trace clock seconds */
	TRAX_WIN_RELATIVE,	/* seconds from the trace start */
	TRAX_WIN_MARKERS,	/* between two trace markers */
	TRAX_WIN_COMPLETE,	/* from the latest per-CPU first record to the end */
};

struct trax_window {
	enum trax_window_kind kind;
	char *name;			/* the name in "windows", or NULL when inline */
	int64_t start, end;		/* ns; absolute or relative per kind */
	int has_start, has_end;		/* a missing bound is the trace's */
	char *from_marker, *to_marker;	/* TRAX_WIN_MARKERS */
	int occurrence;			/* 1-based occurrence of from_marker */
	int prefix;			/* match markers by prefix rather than exactly */
};

enum trax_sel_kind { TRAX_SEL_NONE, TRAX_SEL_GLOB, TRAX_SEL_REGEX, TRAX_SEL_PID, TRAX_SEL_TGID };

struct trax_selector {
	enum trax_sel_kind kind;
	char *pattern;		/* glob or regex text */
	int64_t id;		/* pid or tgid */
	regex_t re;		/* compiled TRAX_SEL_REGEX */
	char *text;		/* as written, for messages */
};

/*
 * How far a value may move from a baseline run before the move is a regression
 * ("regression": {"max_increase": "10 %", "max_decrease": "2 ms"}): trax check --baseline
 * and trax gate read it.
 */
struct trax_tolerance {
	int set;		/* this bound was given */
	int relative;		/* amount is a percentage of the baseline value ("10 %") */
	double amount;		/* relative: percent; else base units of the value ("2 ms") */
	char *text;		/* as written */
};

enum trax_aggregate { TRAX_AGG_NONE, TRAX_AGG_SUM, TRAX_AGG_MAX, TRAX_AGG_MIN, TRAX_AGG_MEAN,
		      TRAX_AGG_ALL, TRAX_AGG_ANY };

/* A statistic over a set of samples or a counter track. */
enum trax_stat { TRAX_STAT_NONE, TRAX_STAT_MIN, TRAX_STAT_MAX, TRAX_STAT_MEAN,
		 TRAX_STAT_MEDIAN, TRAX_STAT_PCT, TRAX_STAT_COUNT, TRAX_STAT_SUM,
		 TRAX_STAT_TIME_ABOVE, TRAX_STAT_TIME_BELOW, TRAX_STAT_FIRST, TRAX_STAT_LAST };

/* "where" of the kill metrics: conditions every counted kill meets. */
struct trax_kill_where {
	int has_adj;
	struct trax_threshold adj;	/* oom_score_adj, a count threshold ("< 200") */
	char **reasons, **sources;	/* any of them; NULL: any */
	int nreasons, nsources;
	char *comm;			/* glob, or NULL */
};

struct trax_rule {
	int index;			/* position in "rules" */
	char *id;
	enum trax_metric metric;
	char *description;
	struct trax_selector task;	/* TRAX_SEL_NONE when the metric takes no task */
	int *cpus;			/* NULL: every CPU */
	int ncpus;
	char *cpus_name;		/* topology group name, or NULL for a list */
	struct trax_window window;
	struct trax_threshold expect;
	int edges_drop;			/* "edges": "drop" (default "clip") */
	int warn;			/* "severity": "warn" */
	int xfail;
	char *xfail_reason;
	char **requires;		/* event names that must be present */
	int nrequires;
	enum trax_aggregate aggregate;
	enum trax_stat stat;
	double pct;			/* TRAX_STAT_PCT: 0..100 */
	double level;			/* TIME_ABOVE / TIME_BELOW threshold: in base units, or
					 * in the track's own unit when level_bare */
	int level_bare;			/* level was a bare number: in the unit the track stores
					 * (kHz for cpu_frequency), converted per track */
	int stat_percent;		/* time_above/below and residencies as a percentage */
	char *zone;			/* thermal_residency, counter */
	double range[2];		/* thermal_residency [lo, hi]: in mC, or in the track's
					 * own unit where range_bare */
	int range_bare[2];		/* that bound was a bare number */
	char *track;			/* counter: track name */
	int track_cpu;			/* counter: -1 any */
	int *from_cpus, *to_cpus;	/* switch */
	int nfrom, nto;
	char *from_name, *to_name;
	int facts;			/* TRAX_FACTS_*: CPU sets named by groups the file's
					 * topology lacks, taken from the trace's facts when
					 * evaluated (their cpus NULL until then) */
	char *query;			/* sql */
	char *heap, *client;		/* alloc metrics, heap_total: globs, or NULL */
	char *timeline, *driver;	/* fence metrics: globs, or NULL */
	struct trax_kill_where where;	/* kills, kill_order */
	int buffer;
	struct trax_tolerance max_increase, max_decrease;	/* "regression" */
};

/* trax_rule.facts: which of its CPU sets the trace's facts give. */
#define TRAX_FACTS_CPUS 1	/* "cpus": cpus_name */
#define TRAX_FACTS_FROM 2	/* "from": from_name */
#define TRAX_FACTS_TO 4		/* "to": to_name */

/* Whether a rule names a CPU group the trace's facts must give (its "cpus", "from", "to" or
 * "expect": "in GROUP"). */
int trax_rule_needs_facts(const struct trax_rule *r);

/*
 * Whether name is a CPU group the trace's facts can define when the rule file's topology does
 * not: "little", "big", "mid" (from the CPUs' capacities) and "clusterN" (N a cluster id).
 * The names, and how they resolve, are in doc/rules.md ("CPU groups from the trace").
 */
int trax_topology_fact_name(const char *name);

struct trax_group {
	char *name;
	int *cpus;
	int ncpus;
};

struct trax_rules {
	char *path;
	char sha256[65];		/* of the file's bytes */
	struct trax_group *groups;
	int ngroups;
	struct trax_rule *rules;
	int nrules;
};

/*
 * Load and validate a rule file. On success *out holds the rules (caller frees with
 * trax_rules_free()). On error *out is NULL and a negative code is returned; every problem of
 * the file is found, not only the first, one line each:
 * "r.json:12:7: syntax error: ..." for JSON syntax (the only one then), or
 * "r.json: rules[3] (id \"temp\").expect: unknown unit \"mss\" (did you mean \"ms\"?)".
 * problems (may be NULL) gets every line appended (the caller releases it with
 * trax_error_list_release()); err the first one, with "(and N more problems)".
 */
int trax_rules_load(const char *path, struct trax_rules **out, struct trax_error_list *problems,
		    struct trax_error *err);
/* The same from a string (path is only used in messages). */
int trax_rules_parse(const char *text, const char *path, struct trax_rules **out,
		     struct trax_error_list *problems, struct trax_error *err);
/* Whether the file at path reads as a rule file (a JSON object with a "rules" list). */
int trax_rules_sniff(const char *path);
void trax_rules_free(struct trax_rules *rs);

/* The dimension a metric's value has for this rule (residency: time or percent, ...). */
enum trax_dim trax_rule_value_dim(const struct trax_rule *r);

/* Parse a decimal seconds string ("106439.678991") into ns exactly; 0 or -1. */
int trax_parse_seconds(const char *s, int64_t *ns);

/*
 * A unit's dimension and size in its dimension's base unit ("kHz": TRAX_DIM_FREQ, 1000).
 * Returns 0, or -1 for a name that is not a unit.
 */
int trax_unit_lookup(const char *unit, enum trax_dim *dim, double *scale);

/* Format a base-unit value in the threshold's unit ("0.125 ms"); returns buf. */
char *trax_format_value(double v, enum trax_dim dim, const char *unit, char *buf, size_t len);

/* Whether value meets the threshold (base units). */
int trax_threshold_met(const struct trax_threshold *t, double value);

#endif
