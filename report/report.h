/* report/report.h: offline reports of a trace: one self-contained HTML file, or a PDF. */
#ifndef TRAX_REPORT_H
#define TRAX_REPORT_H

#include <sqlite3.h>

#include "rules/rules.h"

struct trax_baseline;
#include "util/error.h"

enum trax_report_format {
	TRAX_REPORT_HTML,	/* one file: inline CSS, SVG and the timeline's script, nothing fetched */
	TRAX_REPORT_PDF,	/* the same content, one chart per page */
};

struct trax_report_opts {
	const char *title;		/* NULL: "trax report · <trace file name>" */
	const struct trax_rules *rules;	/* NULL: no verdicts; else evaluated on the db with
					 * trax_check_db() and shown failures first, each
					 * non-passing rule with the charts that explain it */
	const char *trace_name;		/* how results name the trace (NULL: the db's source) */
	int max_rule_charts;		/* rules given charts (0: 12) */
	const struct trax_baseline *baseline;	/* with rules: compare with this stored run
						 * (trax check --baseline); NULL: none */
};

/* The format named by a path's extension (.html, .htm, .pdf, any case): 0, or -1 when none. */
int trax_report_format_from_path(const char *path, enum trax_report_format *fmt);

/*
 * Write the report of db (opened with trax_db_open(), every event loaded) to path: the trace
 * summary (source, time range, CPUs, event counts, lost events, busiest tasks), the rule
 * verdicts when o->rules is set, and the charts (timeline, counters per track kind,
 * residency, slice-length and wakeup-latency distributions). The file is written under a
 * temporary name and renamed into place when complete; on error nothing is left at path.
 * Returns 0 or a negative error with err filled. o may be NULL.
 */
int trax_report_write(sqlite3 *db, const struct trax_report_opts *o, enum trax_report_format fmt,
		      const char *path, struct trax_error *err);

#endif
