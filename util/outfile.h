/* util/outfile.h: output files that appear only when complete (temporary name, then rename). */
#ifndef TRAX_UTIL_OUTFILE_H
#define TRAX_UTIL_OUTFILE_H

#include <stdio.h>

#include "util/error.h"

struct trax_outfile {
	FILE *f;		/* write here between open and commit */
	char *path;		/* the final name */
	char *tmp;		/* the temporary file beside it, NULL once committed */
};

/*
 * Create a temporary file beside path (mode 0666 less the umask, as fopen would) and open it
 * for writing. Returns 0 or a negative error ("path: reason") with err filled; on error there
 * is nothing to abort.
 */
int trax_outfile_open(struct trax_outfile *o, const char *path, struct trax_error *err);
/* Flush, close and rename the file into place; on failure the temporary file is removed. */
int trax_outfile_commit(struct trax_outfile *o, struct trax_error *err);
/* Close and remove an uncommitted file; safe to call after commit or a failed open. */
void trax_outfile_abort(struct trax_outfile *o);

#endif
