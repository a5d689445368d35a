/* collect/target.c: running commands and moving files on a target through ssh or adb. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collect/collect.h"
#include "collect/target.h"
#include "util/xalloc.h"

static void split_words(const char *env, const char *dflt, struct trax_target *t)
{
	const char *s = env && *env ? env : dflt;
	int cap = 4;

	t->tool = xcalloc(cap, sizeof(*t->tool));
	while (*s) {
		size_t n;

		s += strspn(s, " \t");
		n = strcspn(s, " \t");
		if (!n)
			break;
		if (t->ntool + 2 > cap) {
			cap *= 2;
			t->tool = xrealloc(t->tool, cap * sizeof(*t->tool));
		}
		t->tool[t->ntool++] = xstrndup(s, n);
		t->tool[t->ntool] = NULL;
		s += n;
	}
}

int target_parse(const char *spec, struct trax_target **out, struct trax_error *err)
{
	struct trax_target *t = xcalloc(1, sizeof(*t));

	*out = NULL;
	t->spec = xstrdup(spec);
	if (!strcmp(spec, "local")) {
		t->kind = TARGET_LOCAL;
	} else if (!strncmp(spec, "ssh://", 6)) {
		const char *h = spec + 6, *at = strchr(h, '@'), *name = at ? at + 1 : h, *colon;
		const char *end;

		t->kind = TARGET_SSH;
		if (*name == '[') {		/* [v6 address][:port] */
			end = strchr(name, ']');
			if (!end)
				goto bad;
			colon = end[1] == ':' ? end + 1 : NULL;
			if (end[1] && !colon)
				goto bad;
			t->host = xmalloc(strlen(h) + 1);
			snprintf(t->host, strlen(h) + 1, "%.*s%.*s", (int)(at ? at + 1 - h : 0), h,
				 (int)(end - name - 1), name + 1);
		} else {
			colon = strchr(name, ':');
			t->host = xstrndup(h, colon ? (size_t)(colon - h) : strlen(h));
		}
		if (colon) {
			if (!colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1) ||
			    atoi(colon + 1) < 1 || atoi(colon + 1) > 65535)
				goto bad;
			t->port = xstrdup(colon + 1);
		}
		if (!*t->host || t->host[strlen(t->host) - 1] == '@' || strchr(name, '/') ||
		    (at && at == h) || t->host[0] == '-')
			goto bad;
		split_words(getenv("TRAX_SSH"), "ssh", t);
	} else if (!strcmp(spec, "adb") || !strncmp(spec, "adb:", 4)) {
		t->kind = TARGET_ADB;
		if (spec[3] == ':') {
			if (!spec[4] || spec[4] == '-')
				goto bad;
			t->serial = xstrdup(spec + 4);
		}
		split_words(getenv("TRAX_ADB"), "adb", t);
	} else {
		goto bad;
	}
	if (t->kind != TARGET_LOCAL && !t->ntool) {
		trax_error_set(err, TRAX_E_USAGE, "%s is empty: it names the %s command",
			       t->kind == TARGET_SSH ? "TRAX_SSH" : "TRAX_ADB",
			       t->kind == TARGET_SSH ? "ssh" : "adb");
		target_free(t);
		return -TRAX_E_USAGE;
	}
	*out = t;
	return 0;
bad:
	target_free(t);
	return trax_error_set(err, TRAX_E_USAGE, "--target '%s': expected local, "
			      "ssh://[user@]host[:port], adb or adb:SERIAL", spec);
}

void target_free(struct trax_target *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->ntool; i++)
		free(t->tool[i]);
	free(t->tool);
	free(t->spec);
	free(t->host);
	free(t->port);
	free(t->serial);
	free(t);
}

void target_io_release(struct target_io *io)
{
	strbuf_release(&io->out);
	strbuf_release(&io->errs);
}

void sh_quote(struct strbuf *sb, const char *word)
{
	strbuf_addch(sb, '\'');
	for (const char *p = word; *p; p++) {
		if (*p == '\'')
			strbuf_adds(sb, "'\\''");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
}

/* argv of the transport for one step; words[] NULL-terminated, appended after the tool. */
static char **transport_argv(const struct trax_target *t, const char *const *words)
{
	int n = 0, k = 0;
	char **argv;

	while (words[n])
		n++;
	argv = xcalloc(t->ntool + n + 8, sizeof(*argv));
	if (t->kind == TARGET_LOCAL) {
		argv[k++] = "/bin/sh";
		argv[k++] = "-c";
	} else {
		for (int i = 0; i < t->ntool; i++)
			argv[k++] = t->tool[i];
		if (t->kind == TARGET_SSH) {
			/* never a password or host-key prompt: a CI gate must not hang on one */
			argv[k++] = "-o";
			argv[k++] = "BatchMode=yes";
			argv[k++] = "-T";
			if (t->port) {
				argv[k++] = "-p";
				argv[k++] = t->port;
			}
			argv[k++] = t->host;
			argv[k++] = "--";
		} else if (t->serial) {
			argv[k++] = "-s";
			argv[k++] = t->serial;
		}
	}
	for (int i = 0; i < n; i++)
		argv[k++] = (char *)words[i];
	argv[k] = NULL;
	return argv;
}

/* Read whatever fd has into sb (and to stderr when live); 0 at EOF. */
static int pump(int fd, struct strbuf *sb, int out_fd, int live)
{
	char buf[16384];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (n == 0)
		return 0;
	if (out_fd >= 0) {
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(out_fd, buf + off, n - off);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return -1;
			off += w;
		}
	} else {
		strbuf_add(sb, buf, n);
	}
	(void)live;
	return 1;
}

/* The collector's warnings as they come (the complete lines of errs after *done that start
 * "trax collect: warning: "); its error and the transport's words are said once, at the end. */
static void relay_warnings(const struct strbuf *errs, size_t *done)
{
	while (*done < errs->len) {
		const char *line = errs->buf + *done, *nl = memchr(line, '\n', errs->len - *done);

		if (!nl)
			break;
		if (!strncmp(line, "trax collect: warning: ", 23))
			fprintf(stderr, "%.*s\n", (int)(nl - line), line);
		*done = nl + 1 - errs->buf;
	}
}

/* Spawn argv with io's plumbing and wait for it. 0, or a negative error (spawn failed). */
static int spawn_wait(char **argv, struct target_io *io, struct trax_error *err)
{
	int op[2] = { -1, -1 }, ep[2] = { -1, -1 }, werr = 0, st;
	pid_t pid;

	if ((io->out_fd < 0 && pipe2(op, O_CLOEXEC)) || pipe2(ep, O_CLOEXEC)) {
		int e = errno;

		if (op[0] >= 0) {
			close(op[0]);
			close(op[1]);
		}
		return trax_error_set(err, TRAX_E_IO, "pipe: %s", strerror(e));
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		if (op[0] >= 0) {
			close(op[0]);
			close(op[1]);
		}
		close(ep[0]);
		close(ep[1]);
		return trax_error_set(err, TRAX_E_IO, "fork: %s", strerror(e));
	}
	if (pid == 0) {
		int in = io->in_fd >= 0 ? io->in_fd : open("/dev/null", O_RDONLY);

		signal(SIGPIPE, SIG_DFL);
		if (in < 0 || dup2(in, 0) < 0 || dup2(io->out_fd >= 0 ? io->out_fd : op[1], 1) < 0 ||
		    dup2(ep[1], 2) < 0)
			_exit(127);
		execvp(argv[0], argv);
		dprintf(2, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (op[1] >= 0)
		close(op[1]);
	close(ep[1]);
	{
		struct pollfd p[2] = { { op[0], POLLIN, 0 }, { ep[0], POLLIN, 0 } };
		int open_ = (op[0] >= 0) + 1;
		size_t relayed = 0;

		if (op[0] < 0)
			p[0].fd = -1;
		while (open_ > 0) {
			if (poll(p, 2, -1) < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			for (int i = 0; i < 2; i++) {
				int r;

				if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
					continue;
				r = i == 0 ? pump(p[i].fd, &io->out, -1, 0)
					   : pump(p[i].fd, &io->errs, -1, io->errs_live);
				if (i == 1 && io->errs_live)
					relay_warnings(&io->errs, &relayed);
				if (r < 0)
					werr = 1;
				if (r <= 0) {
					close(p[i].fd);
					p[i].fd = -1;
					open_--;
				}
			}
		}
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	io->status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 255;
	if (io->status == 127 && strstr(io->errs.buf, argv[0]) &&
	    strstr(io->errs.buf, "No such file"))
		return trax_error_set(err, TRAX_E_UNSUPPORTED, "%s is not installed (needed to "
				      "reach the target)", argv[0]);
	(void)werr;
	return 0;
}

void target_last_line(const char *s, struct strbuf *out)
{
	const char *end = s + strlen(s), *b;

	while (end > s && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	b = end;
	while (b > s && b[-1] != '\n')
		b--;
	strbuf_add(out, b, end - b);
}

/* Why ssh failed (status 255), from its stderr: a transport error, or 0 (the command's own 255). */
static int ssh_failure(const struct trax_target *t, const struct target_io *io,
		       struct trax_error *err)
{
	static const struct { const char *pat, *what; } why[] = {
		{ "Permission denied", "authentication refused" },
		{ "Host key verification failed", "host key not trusted" },
		{ "Too many authentication failures", "authentication refused" },
		{ "Could not resolve hostname", "unreachable" },
		{ "Connection refused", "unreachable" },
		{ "No route to host", "unreachable" },
		{ "Network is unreachable", "unreachable" },
		{ "Connection timed out", "unreachable" },
		{ "Operation timed out", "unreachable" },
		{ "Connection reset", "connection lost" },
		{ "Broken pipe", "connection lost" },
		{ "closed by remote host", "connection lost" },
		{ "Connection closed", "connection lost" },
		{ "Timeout, server", "connection lost" },
	};
	struct strbuf line = STRBUF_INIT;
	int ret = 0;

	if (io->status != 255)
		return 0;
	for (size_t i = 0; i < sizeof(why) / sizeof(why[0]); i++) {
		if (strstr(io->errs.buf, why[i].pat)) {
			target_last_line(io->errs.buf, &line);
			ret = trax_error_set(err, TRAX_E_IO, "%s: %s (%s)", t->spec, why[i].what,
					     line.buf);
			break;
		}
	}
	strbuf_release(&line);
	return ret;
}

/* adb's own failures: "error: no devices/emulators found", "error: device 'X' not found",
 * "error: device offline", "error: device unauthorized...", "error: closed". */
static int adb_failure(const struct trax_target *t, const struct target_io *io,
		       struct trax_error *err)
{
	static const struct { const char *pat, *what; } why[] = {
		{ "no devices/emulators found", "no device attached" },
		{ "' not found", "no such device" },
		{ "error: device offline", "device offline" },
		{ "error: device unauthorized", "device unauthorized (accept the computer's key on "
		  "the device)" },
		{ "error: more than one device", "more than one device: name one with adb:SERIAL" },
		{ "error: closed", "connection lost" },
		{ "error: protocol fault", "connection lost" },
		{ "cannot connect to daemon", "adb server unavailable" },
	};
	struct strbuf line = STRBUF_INIT;
	int ret = 0;

	const char *e = io->errs.buf;

	/* adb's notes of starting its server come first ("* daemon not running; starting
	 * now at tcp:5037", "* daemon started successfully") */
	while (!strncmp(e, "* ", 2) && strchr(e, '\n'))
		e = strchr(e, '\n') + 1;
	/* only adb's own words: its first line of stderr (a command's stderr is its own) */
	if (io->status == 0 || (strncmp(e, "error: ", 7) && strncmp(e, "adb: error: ", 12) &&
				!strstr(e, "cannot connect to daemon")))
		return 0;
	for (size_t i = 0; i < sizeof(why) / sizeof(why[0]); i++) {
		if (strstr(io->errs.buf, why[i].pat)) {
			target_last_line(io->errs.buf, &line);
			ret = trax_error_set(err, TRAX_E_IO, "%s: %s (adb: %s)", t->spec,
					     why[i].what, line.buf);
			break;
		}
	}
	strbuf_release(&line);
	return ret;
}

static int transport_check(const struct trax_target *t, const struct target_io *io,
			   struct trax_error *err)
{
	if (t->kind == TARGET_SSH)
		return ssh_failure(t, io, err);
	if (t->kind == TARGET_ADB)
		return adb_failure(t, io, err);
	return 0;
}

int target_sh(struct trax_target *t, const char *cmdline, struct target_io *io,
	      struct trax_error *err)
{
	const char *adb_words[] = { "shell", cmdline, NULL };
	const char *words[] = { cmdline, NULL };
	char **argv = transport_argv(t, t->kind == TARGET_ADB ? adb_words : words);
	int ret;

	strbuf_reset(&io->out);
	strbuf_reset(&io->errs);
	ret = spawn_wait(argv, io, err);
	free(argv);
	if (ret)
		return ret;
	return transport_check(t, io, err);
}

/* ssh: a file's bytes through `cat` on the target (stdin in, or stdout out). */
static int ssh_copy(struct trax_target *t, const char *local, const char *remote, int to_target,
		    struct trax_error *err)
{
	struct strbuf cmd = STRBUF_INIT, tmp = STRBUF_INIT;
	struct target_io io = TARGET_IO_INIT;
	int fd, ret;

	if (to_target) {
		fd = open(local, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return trax_error_set(err, TRAX_E_IO, "%s: %s", local, strerror(errno));
		/* into a temporary name, renamed when complete */
		strbuf_adds(&cmd, "cat > ");
		sh_quote(&cmd, remote);
		strbuf_adds(&cmd, ".part && mv -f ");
		sh_quote(&cmd, remote);
		strbuf_adds(&cmd, ".part ");
		sh_quote(&cmd, remote);
		io.in_fd = fd;
	} else {
		strbuf_addf(&tmp, "%s.part-%d", local, (int)getpid());
		fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (fd < 0) {
			ret = trax_error_set(err, TRAX_E_IO, "%s: %s", local, strerror(errno));
			strbuf_release(&tmp);
			return ret;
		}
		strbuf_adds(&cmd, "cat ");
		sh_quote(&cmd, remote);
		io.out_fd = fd;
	}
	ret = target_sh(t, cmd.buf, &io, err);
	if (!ret && io.status) {
		struct strbuf line = STRBUF_INIT;

		target_last_line(io.errs.buf, &line);
		ret = trax_error_set(err, TRAX_E_IO, "%s: cannot %s %s: %s", t->spec,
				     to_target ? "write" : "read", remote,
				     line.len ? line.buf : "failed");
		strbuf_release(&line);
	}
	if (!to_target) {
		if (close(fd) && !ret)
			ret = trax_error_set(err, TRAX_E_IO, "%s: %s", local, strerror(errno));
		if (!ret && rename(tmp.buf, local))
			ret = trax_error_set(err, TRAX_E_IO, "%s: %s", local, strerror(errno));
		if (ret)
			unlink(tmp.buf);
	} else {
		close(fd);
	}
	strbuf_release(&cmd);
	strbuf_release(&tmp);
	target_io_release(&io);
	return ret;
}

static int adb_copy(struct trax_target *t, const char *local, const char *remote, int to_target,
		    struct trax_error *err)
{
	struct strbuf tmp = STRBUF_INIT, line = STRBUF_INIT;
	struct target_io io = TARGET_IO_INIT;
	const char *words[] = { to_target ? "push" : "pull", NULL, NULL, NULL };
	char **argv;
	int ret;

	if (to_target) {
		words[1] = local;
		words[2] = remote;
	} else {
		strbuf_addf(&tmp, "%s.part-%d", local, (int)getpid());
		words[1] = remote;
		words[2] = tmp.buf;
	}
	argv = transport_argv(t, words);
	ret = spawn_wait(argv, &io, err);
	free(argv);
	/* push and pull print their errors on stdout ("adb: error: failed to get feature set:
	 * no devices/emulators found", "adb: error: remote object ... does not exist") */
	if (!ret && io.status && !io.errs.len)
		strbuf_add(&io.errs, io.out.buf, io.out.len);
	if (!ret)
		ret = transport_check(t, &io, err);
	if (!ret && io.status) {
		target_last_line(io.errs.buf, &line);
		ret = trax_error_set(err, TRAX_E_IO, "%s: cannot %s %s: %s", t->spec,
				     to_target ? "push to" : "pull", remote,
				     line.len ? line.buf : "failed");
	}
	if (!to_target) {
		if (!ret && rename(tmp.buf, local))
			ret = trax_error_set(err, TRAX_E_IO, "%s: %s", local, strerror(errno));
		if (ret)
			unlink(tmp.buf);
	}
	strbuf_release(&tmp);
	strbuf_release(&line);
	target_io_release(&io);
	return ret;
}

int target_push(struct trax_target *t, const char *local, const char *remote,
		struct trax_error *err)
{
	return t->kind == TARGET_ADB ? adb_copy(t, local, remote, 1, err)
				     : ssh_copy(t, local, remote, 1, err);
}

int target_pull(struct trax_target *t, const char *remote, const char *local,
		struct trax_error *err)
{
	return t->kind == TARGET_ADB ? adb_copy(t, local, remote, 0, err)
				     : ssh_copy(t, local, remote, 0, err);
}

int target_adb_root(struct trax_target *t, struct trax_error *err)
{
	const char *root[] = { "root", NULL }, *wait[] = { "wait-for-device", NULL };
	struct target_io io = TARGET_IO_INIT;
	char **argv = transport_argv(t, root);
	int ret = spawn_wait(argv, &io, err);

	free(argv);
	if (!ret)
		ret = transport_check(t, &io, err);
	if (ret)
		goto out;
	/* adb prints its answer on stdout: "restarting adbd as root", "adbd is already
	 * running as root", or "adbd cannot run as root in production builds" (status 1) */
	if (strstr(io.out.buf, "cannot run as root") || strstr(io.errs.buf, "cannot run as root") ||
	    io.status) {
		ret = 1;
		goto out;
	}
	if (strstr(io.out.buf, "restarting")) {
		argv = transport_argv(t, wait);
		ret = spawn_wait(argv, &io, err);
		free(argv);
		if (!ret)
			ret = transport_check(t, &io, err);
	}
out:
	target_io_release(&io);
	return ret;
}

int target_alive(struct trax_target *t)
{
	const char *adb_words[] = { "get-state", NULL }, *words[] = { "true", NULL };
	struct target_io io = TARGET_IO_INIT;
	struct trax_error e = { 0 };
	char **argv = transport_argv(t, t->kind == TARGET_ADB ? adb_words : words);
	int ret = spawn_wait(argv, &io, &e);

	free(argv);
	ret = !ret && io.status == 0 && (t->kind != TARGET_ADB || !strncmp(io.out.buf, "device", 6));
	target_io_release(&io);
	return ret;
}

char *target_sibling(const char *out, const char *suffix)
{
	const char *base = strrchr(out, '/'), *dot;
	struct strbuf sb = STRBUF_INIT;

	base = base ? base + 1 : out;
	dot = strrchr(base, '.');
	strbuf_add(&sb, out, dot && dot != base ? (size_t)(dot - out) : strlen(out));
	strbuf_adds(&sb, suffix);
	return strbuf_detach(&sb);
}

int target_run(struct trax_target *t, const char *cmd, int in_fd, int out_fd, struct strbuf *out,
	       struct strbuf *errs, struct trax_error *err)
{
	struct target_io io = TARGET_IO_INIT;
	int ret;

	io.in_fd = in_fd;
	io.out_fd = out_fd;
	ret = target_sh(t, cmd, &io, err);
	if (!ret) {
		ret = io.status;
		if (out)
			strbuf_add(out, io.out.buf, io.out.len);
		if (errs)
			strbuf_add(errs, io.errs.buf, io.errs.len);
	}
	target_io_release(&io);
	return ret;
}

void target_note(const struct trax_collect_opts *o, const struct trax_target *t,
		 const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addf(&sb, "%s: ", t->spec);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (o->note)
		o->note(o->warn_ctx, sb.buf);
	strbuf_release(&sb);
}
