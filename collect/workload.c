/* collect/workload.c: the workload process: fork, tracefs redirection, exec on a signal. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collect/collect-local.h"

/*
 * The child is forked before the capture starts and waits on a pipe; the parent turns tracing
 * on, writes its markers, then releases it, so the trace holds the exec and the workload
 * from its first instruction. Messages travel back on a close-on-exec pipe, one per line:
 * "W..." a warning, "R" ready (set-up done, waiting), "E..." a fatal error; EOF after "R"
 * means exec succeeded.
 */

static void child_msg(int fd, char kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void child_msg(int fd, char kind, const char *fmt, ...)
{
	char buf[600];
	va_list ap;
	int n;

	buf[0] = kind;
	va_start(ap, fmt);
	n = vsnprintf(buf + 1, sizeof(buf) - 2, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if (n > (int)sizeof(buf) - 3)
		n = sizeof(buf) - 3;
	buf[1 + n] = '\n';
	if (write(fd, buf, n + 2) < 0) {
		/* the parent is gone: nothing to tell */
	}
}

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * In a private mount namespace, make the instance the workload's tracefs: /sys/kernel/tracing
 * (tracefs' home) and /sys/kernel/debug/tracing (where rt-app 1.0 writes its markers). The
 * workload's trace_marker and tracing_on are then the instance's; the top-level buffer is
 * never touched.
 */
static void child_redirect(int msg, const char *dir)
{
	if (unshare(CLONE_NEWNS)) {
		child_msg(msg, 'W', "cannot make a mount namespace (%s): the workload's trace "
			  "markers will not reach the capture", strerror(errno));
		return;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		child_msg(msg, 'W', "cannot make mounts private (%s): the workload's trace markers "
			  "will not reach the capture", strerror(errno));
		return;
	}
	if (!is_dir("/sys/kernel/debug/tracing") &&
	    (mount("trax", "/sys/kernel/debug", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		   "size=16k,mode=0755") || mkdir("/sys/kernel/debug/tracing", 0755))) {
		/* no debugfs (or no tracing in it): a small tmpfs holds the mount point */
		child_msg(msg, 'W', "cannot prepare /sys/kernel/debug/tracing: %s",
			  strerror(errno));
	} else if (mount(dir, "/sys/kernel/debug/tracing", NULL, MS_BIND, NULL)) {
		child_msg(msg, 'W', "cannot bind %s on /sys/kernel/debug/tracing: %s", dir,
			  strerror(errno));
	}
	/* last: dir is a path under /sys/kernel/tracing */
	if (mount(dir, "/sys/kernel/tracing", NULL, MS_BIND, NULL))
		child_msg(msg, 'W', "cannot bind %s on /sys/kernel/tracing: %s", dir,
			  strerror(errno));
}

static void __attribute__((noreturn)) child_run(char *const *argv, int log_fd, int go_fd,
						 int msg_fd, const char *redirect_dir)
{
	struct sigaction sa;
	sigset_t none;
	char c;
	int null_fd;
	ssize_t n;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			sigaction(s, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	null_fd = open("/dev/null", O_RDONLY);
	if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(log_fd, 1) < 0 || dup2(log_fd, 2) < 0) {
		child_msg(msg_fd, 'E', "cannot set up the workload's stdin/stdout: %s",
			  strerror(errno));
		_exit(127);
	}
	if (null_fd > 2)
		close(null_fd);
	if (redirect_dir)
		child_redirect(msg_fd, redirect_dir);
	child_msg(msg_fd, 'R', "ready");
	do {
		n = read(go_fd, &c, 1);
	} while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(126);	/* the capture gave up before starting the workload */
	execvp(argv[0], argv);
	child_msg(msg_fd, 'E', "cannot run '%s': %s", argv[0], strerror(errno));
	_exit(127);
}

/* Read the child's messages up to "R" (until_ready) or EOF; 0, or an error from "E". */
static int read_msgs(struct workload *w, int until_ready, struct strbuf *warnings,
		     struct trax_error *err)
{
	char buf[1024];
	size_t len = 0;
	int ret = 0;

	for (;;) {
		char *nl;
		ssize_t n;

		while ((nl = memchr(buf, '\n', len))) {
			*nl = '\0';
			if (buf[0] == 'W' && warnings)
				strbuf_addf(warnings, "%s%s", warnings->len ? "\n" : "", buf + 1);
			else if (buf[0] == 'E' && !ret)
				ret = trax_error_set(err, TRAX_E_WORKLOAD, "%s", buf + 1);
			else if (buf[0] == 'R' && until_ready)
				return ret;
			len -= nl + 1 - buf;
			memmove(buf, nl + 1, len);
		}
		if (len == sizeof(buf))
			len = 0;	/* an overlong line: dropped */
		n = read(w->status_fd, buf + len, sizeof(buf) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	if (until_ready && !ret)
		ret = trax_error_set(err, TRAX_E_WORKLOAD, "the workload process ended before "
				     "starting");
	return ret;
}

int workload_spawn(struct workload *w, char *const *argv, int log_fd, const char *redirect_dir,
		   struct strbuf *warnings, struct trax_error *err)
{
	int go[2], msg[2];
	pid_t pid;

	memset(w, 0, sizeof(*w));
	w->pidfd = w->go_fd = w->status_fd = -1;
	w->status = -1;
	if (pipe2(go, O_CLOEXEC))
		return trax_error_set(err, TRAX_E_IO, "pipe: %s", strerror(errno));
	if (pipe2(msg, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return trax_error_set(err, TRAX_E_IO, "pipe: %s", strerror(errno));
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		close(msg[0]);
		close(msg[1]);
		return trax_error_set(err, TRAX_E_WORKLOAD, "fork: %s", strerror(e));
	}
	if (!pid) {
		close(go[1]);
		close(msg[0]);
		child_run(argv, log_fd, go[0], msg[1], redirect_dir);
	}
	close(go[0]);
	close(msg[1]);
	setpgid(pid, pid);	/* also here: no race with a kill of the group */
	w->pid = pid;
	w->go_fd = go[1];
	w->status_fd = msg[0];
	w->pidfd = syscall(SYS_pidfd_open, pid, 0);
	return read_msgs(w, 1, warnings, err);
}

int workload_go(struct workload *w, char *const *argv, struct trax_error *err)
{
	char c = 'g';
	int ret;

	if (write(w->go_fd, &c, 1) != 1)
		return trax_error_set(err, TRAX_E_WORKLOAD, "cannot start '%s': %s", argv[0],
				      strerror(errno));
	close(w->go_fd);
	w->go_fd = -1;
	ret = read_msgs(w, 0, NULL, err);
	close(w->status_fd);
	w->status_fd = -1;
	return ret;
}

int workload_wait(struct workload *w, int timeout_ms)
{
	int st;
	pid_t r;

	if (!w->pid || w->reaped)
		return 1;
	if (w->pidfd >= 0) {
		struct pollfd p = { .fd = w->pidfd, .events = POLLIN };

		if (poll(&p, 1, timeout_ms) <= 0)
			return 0;
	} else if (timeout_ms > 0) {
		/* no pidfd (old kernel): poll with short sleeps */
		r = waitpid(w->pid, &st, WNOHANG);
		if (r == w->pid)
			goto reaped;
		usleep(timeout_ms * 1000);
	}
	r = waitpid(w->pid, &st, WNOHANG);
	if (r != w->pid)
		return 0;
reaped:
	w->reaped = 1;
	w->status = st;
	return 1;
}

void workload_kill(struct workload *w, int sig)
{
	if (w->pid > 0)
		kill(-w->pid, sig);
}

void workload_release(struct workload *w)
{
	if (w->go_fd >= 0)
		close(w->go_fd);	/* a child still waiting exits */
	w->go_fd = -1;
	if (w->pid > 0) {
		/* whatever the workload left in its process group goes too */
		kill(-w->pid, SIGKILL);
		if (!w->reaped) {
			int st;

			while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
				;
			w->reaped = 1;
			w->status = st;
		}
	}
	if (w->status_fd >= 0)
		close(w->status_fd);
	if (w->pidfd >= 0)
		close(w->pidfd);
	w->status_fd = w->pidfd = -1;
}

char *workload_find_exec(const char *name)
{
	const char *path = getenv("PATH"), *p;
	struct strbuf sb = STRBUF_INIT;

	if (strchr(name, '/'))
		return access(name, X_OK) ? NULL : strdup(name);
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; p; ) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		strbuf_reset(&sb);
		if (len)
			strbuf_add(&sb, p, len);
		else
			strbuf_adds(&sb, ".");
		strbuf_addf(&sb, "/%s", name);
		if (!access(sb.buf, X_OK) && !is_dir(sb.buf))
			return strbuf_detach(&sb);
		p = end ? end + 1 : NULL;
	}
	strbuf_release(&sb);
	return NULL;
}
