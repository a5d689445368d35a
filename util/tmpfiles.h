/* util/tmpfiles.h: temporary files that an interrupting signal removes. */
#ifndef TRAX_UTIL_TMPFILES_H
#define TRAX_UTIL_TMPFILES_H

/*
 * A file being built under a temporary name (a db during a load, an -o file before its rename)
 * is registered here; SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE or SIGXFSZ (a file size limit)
 * then unlink it before the process dies of the signal, so an interrupted command leaves no
 * litter. Handlers are installed on the first
 * registration, for each signal that still has its default action (a command with handlers
 * of its own, such as collect, keeps them). At most TRAX_TMPFILES_MAX files at a time; more
 * are simply not removed by a signal. Call from one thread at a time.
 */
#define TRAX_TMPFILES_MAX 8

void trax_tmpfile_add(const char *path);
/* Forget path (renamed into place, or removed). */
void trax_tmpfile_forget(const char *path);

/*
 * Create a temporary file from tmpl (a path ending in XXXXXX, replaced as by mkstemp) with mode
 * 0666 less the umask, close-on-exec, registered as by trax_tmpfile_add(), and locked (flock)
 * for as long as the returned descriptor is open: the mark that its maker is alive, which
 * trax_tmpfile_sweep() reads. Returns the descriptor, or -1 with errno set. The caller keeps it
 * open while the file is in use and closes it after renaming or removing the file.
 */
int trax_tmpfile_create(char *tmpl);

/* Seconds a temporary file is spared after its last change, whatever its lock says (the moment
 * between its creation and its lock). */
#define TRAX_TMPFILE_GRACE_S 2

/*
 * Remove the temporary files that killed processes left in dir: names ending in ".tmp-" and six
 * characters, that no process holds locked (their maker is gone: SIGKILL, a crash, a power
 * cut), unchanged for TRAX_TMPFILE_GRACE_S seconds. A live process's file is never removed.
 * Returns the number removed.
 */
int trax_tmpfile_sweep(const char *dir);

#endif
