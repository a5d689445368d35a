/* util/tmpfiles.h: temporary files that an interrupting signal removes. */
#ifndef TRAX_UTIL_TMPFILES_H
#define TRAX_UTIL_TMPFILES_H

/*
 * A file being built under a temporary name (a db during a load, an -o file before its rename)
 * is registered here; SIGINT, SIGTERM or SIGHUP then unlink it before the process dies of the
 * signal, so an interrupted command leaves no litter. Handlers are installed on the first
 * registration, for each signal that still has its default action (a command with handlers
 * of its own, such as collect, keeps them). At most TRAX_TMPFILES_MAX files at a time; more
 * are simply not removed by a signal. Call from one thread at a time.
 */
#define TRAX_TMPFILES_MAX 8

void trax_tmpfile_add(const char *path);
/* Forget path (renamed into place, or removed). */
void trax_tmpfile_forget(const char *path);

#endif
