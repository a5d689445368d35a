/* assert/assert-local.h: helpers shared inside assert/. */
#ifndef TRAX_ASSERT_LOCAL_H
#define TRAX_ASSERT_LOCAL_H

#include <sqlite3.h>

/* The table of an event that is present and loaded, or NULL (caller frees). */
char *assert_event_table(sqlite3 *db, const char *name);
/* Whether an event's format is in the trace ("name" or "system:name"). */
int assert_event_present(sqlite3 *db, const char *name);
/* Percentile p (0..100) of n sorted samples, linear between closest ranks. */
double assert_percentile(const double *sorted, int n, double p);

#endif
