/* util/outfile.h: output files that appear only when complete (temporary name, then rename). */
#ifndef TRAX_UTIL_OUTFILE_H
#define TRAX_UTIL_OUTFILE_H

#include <stdio.h>

#include "util/error.h"

struct trax_outfile {
	FILE *f;		/* write here between open and commit */
	char *path;		/* the final name */
	char *tmp;		/* the temporary file beside it, NULL once committed */
	int direct;		/* path is a device or a FIFO: written in place */
};

/*
 * Create a temporary file beside path (mode 0666 less the umask, as fopen would) and open it
 * for writing. A path that is a device or a FIFO (-o /dev/null, -o /dev/stdout, a pipe) is
 * written in place instead: renaming over it would replace the device node with a file.
 * Returns 0 or a negative error ("path: reason") with err filled; on error there is nothing
 * to abort.
 */
int trax_outfile_open(struct trax_outfile *o, const char *path, struct trax_error *err);
/* Flush, close and rename the file into place; on failure the temporary file is removed. */
int trax_outfile_commit(struct trax_outfile *o, struct trax_error *err);
/* Close and remove an uncommitted file; safe to call after commit or a failed open. */
void trax_outfile_abort(struct trax_outfile *o);

/*
 * Refuse outputs that would replace an input or each other, before anything is written. An
 * output is an input when both exist and are the same file by device and inode (so also
 * through hard links and symbolic links); two outputs clash when they are the same file, or,
 * not existing yet, the same name in the same folder. inputs[nin] and outputs[nout] may hold
 * NULL entries (skipped); an input that does not exist is skipped (reading it fails on its
 * own). Returns 0, or -TRAX_E_USAGE with err naming both paths ("OUT: the output is the input
 * IN (the same file); refusing to overwrite it").
 */
int trax_outfile_check(const char *const *inputs, int nin, const char *const *outputs, int nout,
		       struct trax_error *err);
/* Whether path exists and is neither a regular file nor a folder (a device, a FIFO, a socket). */
int trax_outfile_special(const char *path);
/* Whether path exists and is the same file as the open descriptor fd (a regular file). */
int trax_outfile_same_fd(const char *path, int fd);

#endif
