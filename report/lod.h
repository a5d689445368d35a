/* report/lod.h: the HTML report's interactive timeline (levels of detail, exact tiles, script). */
#ifndef TRAX_REPORT_LOD_H
#define TRAX_REPORT_LOD_H

#include <stdint.h>
#include <sqlite3.h>

#include "util/error.h"
#include "util/strbuf.h"

/* A rule result the timeline shows as a window; a click on its verdict row zooms to it. */
struct trax_tl_window {
	const char *name;	/* the result's name, as in the verdict table's rule column */
	const char *verdict;	/* "fail", "pass", ... as in the row's class */
	int pid;		/* the result's task (highlighted on a click), or -1 */
	int64_t start, end;	/* absolute trace ns */
};

/*
 * Append to sb the timeline section of the HTML report of db: its canvas and controls, the
 * data (lanes per CPU, per thread, per atrace slice track and per counter track; summaries
 * per pixel column at several zoom levels; exact events in compressed time tiles; markers;
 * the windows w[0..nw)), and report/timeline.js. Every block is inline: nothing is fetched.
 * Returns 0, or a negative error with err filled (sb then holds a partial section).
 */
int trax_timeline_html(sqlite3 *db, const struct trax_tl_window *w, int nw, struct strbuf *sb,
		       struct trax_error *err);

#endif
