/* util/tmpfiles.c: temporary files that an interrupting signal removes. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/tmpfiles.h"

/* The handler reads these: fixed buffers (no malloc), a slot is used once its path is whole. */
static char paths[TRAX_TMPFILES_MAX][PATH_MAX];
static volatile sig_atomic_t used[TRAX_TMPFILES_MAX];
static int installed;

static const int signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ };

static void on_signal(int sig)
{
	for (int i = 0; i < TRAX_TMPFILES_MAX; i++)
		if (used[i])
			unlink(paths[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install(void)
{
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++) {
		struct sigaction old, sa;

		if (sigaction(signals[i], NULL, &old) < 0 || old.sa_handler != SIG_DFL ||
		    (old.sa_flags & SA_SIGINFO))
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(signals[i], &sa, NULL);
	}
	installed = 1;
}

void trax_tmpfile_add(const char *path)
{
	size_t n = strlen(path);

	if (!installed)
		install();
	if (n >= PATH_MAX)
		return;
	for (int i = 0; i < TRAX_TMPFILES_MAX; i++)
		if (!used[i]) {
			memcpy(paths[i], path, n + 1);
			used[i] = 1;
			return;
		}
}

void trax_tmpfile_forget(const char *path)
{
	for (int i = 0; i < TRAX_TMPFILES_MAX; i++)
		if (used[i] && !strcmp(paths[i], path))
			used[i] = 0;
}

int trax_tmpfile_create(char *tmpl)
{
	mode_t mask;
	int fd, e;

	fd = mkostemp(tmpl, O_CLOEXEC);
	if (fd < 0)
		return -1;
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0) {
		e = errno;
		close(fd);
		unlink(tmpl);
		errno = e;
		return -1;
	}
	trax_tmpfile_add(tmpl);
	return fd;
}

/* Whether name ends in ".tmp-" and six characters (a trax_tmpfile_create() name). */
static int tmp_name(const char *name)
{
	size_t n = strlen(name);

	return n > 11 && !memcmp(name + n - 11, ".tmp-", 5) && !strchr(name + n - 6, '.');
}

int trax_tmpfile_sweep(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int removed = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[PATH_MAX];
		struct stat st;
		int fd;

		if (!tmp_name(de->d_name) ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= sizeof(path))
			continue;
		fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && S_ISREG(st.st_mode) &&
		    time(NULL) - st.st_mtime >= TRAX_TMPFILE_GRACE_S &&
		    !flock(fd, LOCK_EX | LOCK_NB) && !unlink(path))
			removed++;
		close(fd);
	}
	closedir(d);
	return removed;
}
