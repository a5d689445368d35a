/* util/tmpfiles.c: temporary files that an interrupting signal removes. */
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "util/tmpfiles.h"

/* The handler reads these: fixed buffers (no malloc), a slot is used once its path is whole. */
static char paths[TRAX_TMPFILES_MAX][PATH_MAX];
static volatile sig_atomic_t used[TRAX_TMPFILES_MAX];
static int installed;

static const int signals[] = { SIGINT, SIGTERM, SIGHUP };

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
