/* collect/capture.c: a capture from start to end: instance, workload, drain, trace.dat. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "collect/collect-local.h"
#include "parse/parse.h"
#include "util/outfile.h"
#include "util/xalloc.h"

#define INSTANCE_PREFIX "trax-collect-"
#define KILL_GRACE_MS 2000

struct trax_capture {
	struct trax_collect_opts o;
	struct trax_capture_stats st;
	volatile sig_atomic_t stop, stop_sig;

	const char *tdir;		/* tracefs */
	struct tracefs_instance *inst;
	int inst_ours;			/* created by us: destroyed at the end */
	char *inst_dir;
	struct ev_list ev;
	int ncpus, page_size, long_size;
	struct dat_split *splits;	/* pages written as two, by CPU and offset */
	int nsplits;
	struct drain *drain;
	struct workload wl;
	char **argv;			/* the workload's argv (borrowed or built) */
	char *argv_rt[3];
	char *rtapp;			/* rt-app's path */
	int log_fd;

	char *out, *out_tmp, *out_incomplete, *tmp_prefix, *log_path, *rtapp_json;
	char *rtapp_logdir, *rtapp_logbase;
	long old_cmdlines;		/* saved_cmdlines_size to restore, -1: untouched */
	struct strbuf notes;
};

static void warn(struct trax_capture *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct trax_capture *c, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!c->o.warn)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	c->o.warn(c->o.warn_ctx, sb.buf);
	strbuf_release(&sb);
}

/* Each line of a multi-line note as one warning. */
static void warn_lines(struct trax_capture *c, const char *text)
{
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');

		warn(c, "%.*s", (int)(nl ? nl - p : (long)strlen(p)), p);
		p = nl ? nl + 1 : NULL;
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- set-up ---- */

int trax_capture_alloc(const struct trax_collect_opts *opts, struct trax_capture **out,
		       struct trax_error *err)
{
	struct trax_capture *c;
	struct strbuf sb = STRBUF_INIT;
	const char *base, *dot;
	size_t dirlen;
	int out_special;

	*out = NULL;
	if (!opts->output || !*opts->output)
		return trax_error_set(err, TRAX_E_USAGE, "no output file (-o OUT.dat)");
	if (opts->argv && opts->argv[0] && opts->workload)
		return trax_error_set(err, TRAX_E_USAGE, "either -w WORKLOAD or -- CMD, not both");
	if (opts->extract && ((opts->argv && opts->argv[0]) || opts->workload))
		return trax_error_set(err, TRAX_E_USAGE, "--extract takes no workload");
	if (opts->duration < 0)
		return trax_error_set(err, TRAX_E_USAGE, "a negative duration");
	if (opts->presets && ev_check_presets(opts->presets, err))
		return -TRAX_E_USAGE;	/* a usage error: said before root and tracefs are needed */
	c = xcalloc(1, sizeof(*c));
	c->o = *opts;
	c->log_fd = -1;
	c->old_cmdlines = -1;
	c->st.workload_status = -1;
	c->notes = (struct strbuf)STRBUF_INIT;
	c->wl.pidfd = c->wl.go_fd = c->wl.status_fd = -1;
	c->out = xstrdup(opts->output);
	base = strrchr(c->out, '/');
	base = base ? base + 1 : c->out;
	dirlen = base - c->out;
	if (!*base) {
		free(c->out);
		free(c);
		return trax_error_set(err, TRAX_E_USAGE, "%s: not a file name", opts->output);
	}
	/* the renames of the finished files would replace a device or FIFO */
	out_special = trax_outfile_special(c->out);
	if (out_special || (opts->db && trax_outfile_special(opts->db))) {
		const char *bad = out_special ? opts->output : opts->db;

		free(c->out);
		free(c);
		return trax_error_set(err, TRAX_E_USAGE, "%s: not a regular file (%s is written to "
				      "a file)", bad, bad == opts->db ? "a database" : "a trace");
	}
	strbuf_addf(&sb, "%.*s.%s.trax-%d", (int)dirlen, c->out, base, (int)getpid());
	c->tmp_prefix = strbuf_detach(&sb);
	strbuf_addf(&sb, "%s.tmp", c->tmp_prefix);
	c->out_tmp = strbuf_detach(&sb);
	strbuf_addf(&sb, "%s.incomplete", c->out);
	c->out_incomplete = strbuf_detach(&sb);
	dot = strrchr(base, '.');
	if (dot && dot != base)
		strbuf_add(&sb, c->out, dot - c->out);
	else
		strbuf_adds(&sb, c->out);
	strbuf_adds(&sb, ".log");
	c->log_path = strbuf_detach(&sb);
	if (dot && dot != base)
		strbuf_add(&sb, c->out, dot - c->out);
	else
		strbuf_adds(&sb, c->out);
	strbuf_adds(&sb, ".rtapp.json");
	c->rtapp_json = strbuf_detach(&sb);
	/* rt-app's own logs go beside the trace: DIR/BASE-THREAD-N.log */
	if (dirlen)
		strbuf_add(&sb, c->out, dirlen);
	else
		strbuf_adds(&sb, ".");
	c->rtapp_logdir = strbuf_detach(&sb);
	strbuf_add(&sb, base, dot && dot != base ? (size_t)(dot - base) : strlen(base));
	c->rtapp_logbase = strbuf_detach(&sb);
	{
		/* nothing written may replace an input or another output (OUT.rtapp.json,
		 * written for a trax workload only, is checked when it is written) */
		int wl = (opts->argv && opts->argv[0]) || opts->workload;
		const char *in[] = { opts->workload,
				     opts->argv && opts->argv[0] && strchr(opts->argv[0], '/') ?
				     opts->argv[0] : NULL };
		const char *outs[] = { c->out, c->out_incomplete, opts->db,
				       wl ? c->log_path : NULL };
		int ret = trax_outfile_check(in, 2, outs, 4, err);

		if (ret) {
			trax_capture_free(c);
			return ret;
		}
	}
	*out = c;
	return 0;
}

void trax_capture_interrupt(struct trax_capture *c, int sig)
{
	if (!c)
		return;
	if (sig)
		c->stop_sig = sig;
	c->stop = 1;
}

const struct trax_capture_stats *trax_capture_get_stats(const struct trax_capture *c)
{
	return &c->st;
}

/* The tracefs directory: $TRAX_TRACEFS, else libtracefs' (mounting tracefs if needed). */
static int find_tracefs(struct trax_capture *c, struct trax_error *err)
{
	const char *env = getenv("TRAX_TRACEFS");
	const char *dir = NULL;
	char path[PATH_MAX];
	struct stat st;

	if (env && *env) {
		snprintf(path, sizeof(path), "%s/events", env);
		if (stat(path, &st) || !S_ISDIR(st.st_mode))
			return trax_error_set(err, TRAX_E_TRACEFS, "TRAX_TRACEFS=%s: no tracefs "
					      "there (no events directory)", env);
		if (tracefs_set_tracing_dir((char *)env))
			return trax_error_set(err, TRAX_E_TRACEFS, "TRAX_TRACEFS=%s: unusable",
					      env);
		dir = env;
	} else {
		/* libtracefs mounts tracefs at /sys/kernel/tracing when it is not mounted
		 * (tracefs_tracing_dir_is_mounted() would too, but leaks the path it returns) */
		dir = tracefs_tracing_dir();
	}
	if (!dir)
		return trax_error_set(err, TRAX_E_TRACEFS, "tracefs is not mounted and cannot be "
				      "mounted at /sys/kernel/tracing (kernel without tracing?)");
	snprintf(path, sizeof(path), "%s/instances", dir);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return trax_error_set(err, TRAX_E_TRACEFS, "%s: no instances directory (tracefs "
				      "absent, or a kernel too old for instances)", dir);
	c->tdir = dir;
	return 0;
}

/*
 * Remove the per-CPU spill files and the unfinished trace (".BASE.trax-PID.cpuN",
 * ".BASE.trax-PID.tmp" beside OUT) of earlier captures into the same OUT whose process is gone
 * (killed by SIGKILL: no handler ran), saying so. A live capture's files stay.
 */
static void reap_stale_files(struct trax_capture *c)
{
	const char *base = strrchr(c->out, '/');
	size_t dirlen = base ? (size_t)(base - c->out) + 1 : 0;
	struct strbuf dir = STRBUF_INIT, prefix = STRBUF_INIT;
	struct dirent **ents = NULL;
	int n;

	base = c->out + dirlen;
	strbuf_add(&dir, c->out, dirlen);
	if (!dirlen)
		strbuf_adds(&dir, "./");
	strbuf_addf(&prefix, ".%s.trax-", base);
	n = scandir(dir.buf, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name, *rest;
		char *end;
		long pid;

		if (strncmp(name, prefix.buf, prefix.len))
			goto next;
		rest = name + prefix.len;
		pid = strtol(rest, &end, 10);
		if (end == rest || pid <= 0 || pid == (long)getpid() || *end != '.' ||
		    (strcmp(end, ".tmp") && (strncmp(end, ".cpu", 4) || !end[4] ||
					     strspn(end + 4, "0123456789") != strlen(end + 4))))
			goto next;
		if (!kill(pid, 0) || errno != ESRCH)
			goto next;	/* alive (or not ours to signal): not stale */
		{
			struct strbuf path = STRBUF_INIT;

			strbuf_addf(&path, "%s%s", dir.buf, name);
			if (!unlink(path.buf))
				warn(c, "removed %s left by a killed trax (pid %ld)", path.buf, pid);
			strbuf_release(&path);
		}
next:
		free(ents[i]);
	}
	free(ents);
	strbuf_release(&dir);
	strbuf_release(&prefix);
}

/* Remove instances of earlier trax captures whose process is gone (killed by SIGKILL). */
static void reap_stale(struct trax_capture *c)
{
	char path[PATH_MAX];
	struct dirent **ents = NULL;
	int n;

	snprintf(path, sizeof(path), "%s/instances", c->tdir);
	n = scandir(path, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		char *end;
		long pid;

		if (!strncmp(name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX))) {
			pid = strtol(name + strlen(INSTANCE_PREFIX), &end, 10);
			if (!*end && pid > 0 && kill(pid, 0) && errno == ESRCH) {
				struct tracefs_instance *in = tracefs_instance_alloc(c->tdir, name);

				if (in && !tracefs_instance_destroy(in))
					warn(c, "removed instance %s left by a killed trax",
					     name);
				tracefs_instance_free(in);
			}
		}
		free(ents[i]);
	}
	free(ents);
}

static int count_cpus(struct trax_capture *c)
{
	char *dir = tracefs_instance_get_dir(c->inst);
	char path[PATH_MAX];
	struct dirent **ents = NULL;
	int n, max = -1;

	if (!dir)
		return 0;
	snprintf(path, sizeof(path), "%s/per_cpu", dir);
	free(dir);
	n = scandir(path, &ents, NULL, NULL);
	for (int i = 0; i < n; i++) {
		int cpu;

		if (sscanf(ents[i]->d_name, "cpu%d", &cpu) == 1 && cpu > max)
			max = cpu;
		free(ents[i]);
	}
	free(ents);
	return max + 1;
}

static int read_file(const char *path, struct dat_blob *b)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 0;

	b->data = NULL;
	b->len = 0;
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n;

		if (b->len + 65536 > cap) {
			cap = cap ? 2 * cap : 65536 * 2;
			b->data = xrealloc(b->data, cap);
		}
		n = read(fd, b->data + b->len, cap - b->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fd);
			free(b->data);
			b->data = NULL;
			b->len = 0;
			return -e;
		}
		if (!n)
			break;
		b->len += n;
	}
	close(fd);
	b->data[b->len] = '\0';
	return 0;
}

static int tracefs_read(struct trax_capture *c, const char *rel, struct dat_blob *b)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/%s", c->tdir, rel);
	ret = read_file(path.buf, b);
	strbuf_release(&path);
	return ret;
}

/* The ring buffer's sub-buffer (page) size from events/header_page. */
static int page_size_of(struct trax_capture *c)
{
	struct dat_blob hp;
	struct tep_handle *tep;
	int size = 0;

	if (tracefs_read(c, "events/header_page", &hp))
		return getpagesize();
	tep = tep_alloc();
	c->long_size = sizeof(long);
	if (tep && !tep_parse_header_page(tep, hp.data, hp.len, sizeof(long))) {
		size = tep_get_sub_buffer_size(tep);
		if (tep_get_header_page_size(tep) == 4 || tep_get_header_page_size(tep) == 8)
			c->long_size = tep_get_header_page_size(tep);	/* the kernel's long */
	}
	tep_free(tep);
	free(hp.data);
	return size > 0 ? size : getpagesize();
}

static int set_clock(struct trax_capture *c, struct trax_error *err)
{
	char *clocks = tracefs_instance_file_read(c->inst, "trace_clock", NULL);
	const char *want = c->o.clock ? c->o.clock : "local";
	int found = 0, ret = 0;

	if (clocks) {
		char *save = NULL;
		struct strbuf copy = STRBUF_INIT;

		strbuf_adds(&copy, clocks);
		for (char *t = strtok_r(copy.buf, " []\n", &save); t;
		     t = strtok_r(NULL, " []\n", &save))
			found |= !strcmp(t, want);
		strbuf_release(&copy);
	}
	if (!found) {
		ret = trax_error_set(err, TRAX_E_USAGE, "unknown trace clock '%s' (this kernel "
				     "has: %s)", want, clocks ? clocks : "?");
		goto out;
	}
	if (tracefs_instance_file_write(c->inst, "trace_clock", want) < 0)
		ret = trax_error_set(err, TRAX_E_TRACEFS, "cannot set the trace clock '%s': %s",
				     want, strerror(errno));
out:
	if (clocks) {
		for (char *p = clocks; *p; p++)
			if (*p == '\n')
				*p = '\0';
	}
	free(clocks);
	return ret;
}

static int set_cmdlines(struct trax_capture *c, struct trax_error *err)
{
	long long old;
	char num[32];

	if (!c->o.cmdlines)
		return 0;
	if (tracefs_instance_file_read_number(NULL, "saved_cmdlines_size", &old))
		return trax_error_set(err, TRAX_E_TRACEFS, "%s/saved_cmdlines_size: cannot read",
				      c->tdir);
	snprintf(num, sizeof(num), "%u", c->o.cmdlines);
	if (tracefs_instance_file_write(NULL, "saved_cmdlines_size", num) < 0)
		return trax_error_set(err, TRAX_E_TRACEFS, "%s/saved_cmdlines_size: cannot set %u:"
				      " %s", c->tdir, c->o.cmdlines, strerror(errno));
	c->old_cmdlines = old;
	return 0;
}

static void restore_cmdlines(struct trax_capture *c)
{
	char num[32];

	if (c->old_cmdlines < 0)
		return;
	snprintf(num, sizeof(num), "%ld", c->old_cmdlines);
	tracefs_instance_file_write(NULL, "saved_cmdlines_size", num);
	c->old_cmdlines = -1;
}

static int make_instance(struct trax_capture *c, struct trax_error *err)
{
	char name[64];

	reap_stale(c);
	snprintf(name, sizeof(name), INSTANCE_PREFIX "%d", (int)getpid());
	c->inst = tracefs_instance_create(name);
	if (!c->inst)
		return trax_error_set(err, TRAX_E_TRACEFS, "cannot create the tracefs instance %s: "
				      "%s", name, strerror(errno));
	c->inst_ours = 1;
	if (!tracefs_instance_is_new(c->inst)) {
		c->inst_ours = 0;
		return trax_error_set(err, TRAX_E_TRACEFS, "tracefs instance %s exists already",
				      name);
	}
	c->inst_dir = tracefs_instance_get_dir(c->inst);
	if (!c->inst_dir)
		trax_oom();	/* tracefs_instance_get_dir() fails only for memory */
	if (tracefs_trace_off(c->inst))
		return trax_error_set(err, TRAX_E_TRACEFS, "instance %s: cannot turn tracing off",
				      name);
	if (c->o.buffer_kb && tracefs_instance_set_buffer_size(c->inst, c->o.buffer_kb, -1))
		return trax_error_set(err, TRAX_E_TRACEFS, "cannot set a %u KB buffer per CPU: %s",
				      c->o.buffer_kb, strerror(errno));
	/*
	 * Wake the reader when a quarter of a buffer is filled (the kernel's default is half):
	 * at a million events a second a 128 KB buffer then loses nothing. Kernels without
	 * buffer_percent wake it at every page; the reader's poll timeout covers both.
	 */
	tracefs_instance_file_write(c->inst, "buffer_percent", "25");
	return set_clock(c, err);
}

static int enable_events(struct trax_capture *c, struct trax_error *err)
{
	for (int i = 0; i < c->ev.n; i++) {
		if (tracefs_event_enable(c->inst, c->ev.v[i].system, c->ev.v[i].name))
			return trax_error_set(err, TRAX_E_TRACEFS, "cannot enable %s:%s: %s",
					      c->ev.v[i].system, c->ev.v[i].name,
					      errno ? strerror(errno) : "refused");
	}
	c->st.nevents = c->ev.n;
	return 0;
}

/* --extract: the events enabled in an existing instance (its set_event). */
static int extract_events(struct trax_capture *c, struct trax_error *err)
{
	char *set = tracefs_instance_file_read(c->inst, "set_event", NULL);
	char *save = NULL;

	memset(&c->ev, 0, sizeof(c->ev));
	for (char *l = set ? strtok_r(set, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(l, ':');
		struct strbuf sb = STRBUF_INIT;
		struct ev_list one;
		struct strbuf none = STRBUF_INIT;

		if (!colon)
			continue;
		strbuf_adds(&sb, l);
		if (!ev_resolve(c->tdir, sb.buf, NULL, &one, &none, err)) {
			for (int i = 0; i < one.n; i++)
				if (!ev_list_has(&c->ev, one.v[i].system, one.v[i].name)) {
					struct ev_list *e = &c->ev;

					if (e->n == e->cap) {
						e->cap = e->cap ? 2 * e->cap : 32;
						e->v = xrealloc(e->v, e->cap * sizeof(*e->v));
					}
					e->v[e->n].system = xstrdup(one.v[i].system);
					e->v[e->n].name = xstrdup(one.v[i].name);
					e->n++;
				}
			ev_list_release(&one);
		}
		strbuf_release(&sb);
		strbuf_release(&none);
	}
	free(set);
	trax_error_clear(err);
	c->st.nevents = c->ev.n;
	return 0;
}

/* ---- the workload ---- */

static int prepare_workload(struct trax_capture *c, struct trax_error *err)
{
	char *json = NULL;
	int ret, fd;

	if (c->o.argv && c->o.argv[0]) {
		c->argv = (char **)c->o.argv;
	} else if (c->o.workload) {
		c->rtapp = workload_find_exec("rt-app");
		if (!c->rtapp)
			return trax_error_set(err, TRAX_E_WORKLOAD, "rt-app is not installed "
					      "(not in PATH): -w %s needs it (Debian package "
					      "rt-app)", c->o.workload);
		ret = trax_workload_to_rtapp(c->o.workload, c->rtapp_logdir, c->rtapp_logbase,
					     &json, err);
		if (ret == -TRAX_E_UNSUPPORTED) {
			/* an rt-app file: run as it is */
			if (access(c->o.workload, R_OK))
				return trax_error_set(err, TRAX_E_IO, "%s: %s", c->o.workload,
						      strerror(errno));
			trax_error_clear(err);
			c->argv_rt[1] = xstrdup(c->o.workload);
		} else if (ret) {
			return ret;
		} else {
			const char *in[] = { c->o.workload }, *outs[] = { c->rtapp_json };

			if (trax_outfile_check(in, 1, outs, 1, err)) {
				free(json);
				return -TRAX_E_USAGE;
			}
			fd = open(c->rtapp_json, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
			if (fd < 0 || write(fd, json, strlen(json)) != (ssize_t)strlen(json) ||
			    close(fd)) {
				ret = trax_error_set(err, TRAX_E_IO, "%s: %s", c->rtapp_json,
						     strerror(errno));
				free(json);
				return ret;
			}
			free(json);
			c->argv_rt[1] = xstrdup(c->rtapp_json);
			c->st.rtapp_json = c->rtapp_json;
		}
		c->argv_rt[0] = c->rtapp;
		c->argv_rt[2] = NULL;
		c->argv = c->argv_rt;
	}
	if (!c->argv)
		return 0;
	c->log_fd = open(c->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (c->log_fd < 0)
		return trax_error_set(err, TRAX_E_IO, "%s: %s", c->log_path, strerror(errno));
	c->st.log = c->log_path;
	return 0;
}

static const char *status_text(int st, char *buf, size_t size)
{
	if (WIFEXITED(st))
		snprintf(buf, size, "exited with status %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, size, "was killed by signal %d (%s)", WTERMSIG(st),
			 strsignal(WTERMSIG(st)));
	else
		snprintf(buf, size, "ended with wait status %d", st);
	return buf;
}

/* ---- the end: statistics and the trace.dat ---- */

static uint64_t stat_value(const char *stats, const char *key)
{
	const char *p = stats;
	size_t klen = strlen(key);

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ':')
			return strtoull(p + klen + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

static void free_blobs(struct dat_blob *b, int n)
{
	for (int i = 0; b && i < n; i++)
		free(b[i].data);
	free(b);
}

/* The formats of every ftrace event (print, bprint, ...): trace-cmd stores them all. */
static int ftrace_formats(struct trax_capture *c, struct dat_blob **out, int *n)
{
	char path[PATH_MAX];
	struct dirent **ents = NULL;
	int k, cnt = 0;

	snprintf(path, sizeof(path), "%s/events/ftrace", c->tdir);
	k = scandir(path, &ents, NULL, alphasort);
	*out = xcalloc(k > 0 ? k : 1, sizeof(**out));
	for (int i = 0; i < k; i++) {
		char rel[PATH_MAX];

		if (ents[i]->d_name[0] != '.') {
			snprintf(rel, sizeof(rel), "events/ftrace/%s/format", ents[i]->d_name);
			if (!tracefs_read(c, rel, &(*out)[cnt]) && (*out)[cnt].len)
				cnt++;
			else
				free((*out)[cnt].data);
		}
		free(ents[i]);
	}
	free(ents);
	*n = cnt;
	return 0;
}

static int write_trace(struct trax_capture *c, const char *path, char **cpustats,
		       struct trax_error *err)
{
	struct dat_info in = { 0 };
	struct utsname u;
	char uname_buf[1024], version[64];
	int *fds = xcalloc(c->ncpus, sizeof(int));
	uint64_t *sizes = xcalloc(c->ncpus, sizeof(uint64_t));
	int ret;

	in.label = c->out;
	in.page_size = c->page_size;
	in.ncpus = c->ncpus;
	if (tracefs_read(c, "events/header_page", &in.header_page) ||
	    tracefs_read(c, "events/header_event", &in.header_event)) {
		ret = trax_error_set(err, TRAX_E_TRACEFS, "%s/events/header_page: cannot read",
				     c->tdir);
		goto out;
	}
	ftrace_formats(c, &in.ftrace, &in.nftrace);
	in.nevents = c->ev.n;
	in.event_names = c->ev.v;
	in.events = xcalloc(c->ev.n ? c->ev.n : 1, sizeof(*in.events));
	for (int i = 0; i < c->ev.n; i++) {
		char rel[PATH_MAX];

		snprintf(rel, sizeof(rel), "events/%s/%s/format", c->ev.v[i].system,
			 c->ev.v[i].name);
		if (tracefs_read(c, rel, &in.events[i])) {
			ret = trax_error_set(err, TRAX_E_TRACEFS, "%s/%s: cannot read", c->tdir,
					     rel);
			goto out;
		}
	}
	if (!c->o.no_kallsyms && read_file("/proc/kallsyms", &in.kallsyms))
		warn(c, "/proc/kallsyms: unreadable; the trace has no kernel symbols");
	tracefs_read(c, "printk_formats", &in.printk);
	tracefs_read(c, "saved_cmdlines", &in.cmdlines);
	{
		char *clk = tracefs_instance_file_read(c->inst, "trace_clock", NULL);

		in.trace_clock.data = clk;
		in.trace_clock.len = clk ? strlen(clk) : 0;
	}
	if (!uname(&u)) {
		snprintf(uname_buf, sizeof(uname_buf), "%s %s %s %s %s", u.sysname, u.nodename,
			 u.release, u.version, u.machine);
		in.uname = uname_buf;
	}
	snprintf(version, sizeof(version), "trax %s", TRAX_VERSION);
	in.version = version;
	in.cpustats = cpustats;
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		fds[cpu] = drain_cpu_fd(c->drain, cpu);
		sizes[cpu] = drain_cpu_bytes(c->drain, cpu) / c->page_size * c->page_size;
	}
	in.cpu_fds = fds;
	in.cpu_sizes = sizes;
	in.splits = c->splits;
	in.nsplits = c->nsplits;
	ret = dat_write(path, &in, err);
out:
	free(in.header_page.data);
	free(in.header_event.data);
	free_blobs(in.ftrace, in.nftrace);
	free_blobs(in.events, c->ev.n);
	free(in.kallsyms.data);
	free(in.printk.data);
	free(in.cmdlines.data);
	free(in.trace_clock.data);
	free(fds);
	free(sizes);
	return ret;
}

/*
 * Give the CPU's lost-event marks that lack a count (a full page has no room for it) their
 * count. Every overwritten event is counted once in the kernel's overrun and reported on the
 * next page the reader gets; the reader's checkpoints bound each mark's share: a mark's count
 * is the overrun the reader had seen just after moving its page, less the marks before it;
 * the last mark takes what is left, so that the marks add up to the overrun. The count goes
 * in the page's tail padding, or the page is written as two (dat_split_lost()).
 */
static void count_marks(struct trax_capture *c, int cpu, uint64_t overrun)
{
	int fd = drain_cpu_fd(c->drain, cpu), nm = 0, nck, last = -1;
	uint64_t size = drain_cpu_bytes(c->drain, cpu), seen = 0, cum;
	const struct drain_ckpt *ck;
	struct dat_mark *m = NULL;
	int64_t *want;

	if (dat_list_marks(fd, size, c->page_size, c->long_size, &m, &nm) || !nm) {
		free(m);
		return;
	}
	nck = drain_cpu_checkpoints(c->drain, cpu, &ck);
	want = xcalloc(nm, sizeof(*want));
	for (int i = 0; i < nm; i++) {
		if (m[i].count >= 0) {
			seen += m[i].count;
			continue;
		}
		cum = overrun;
		for (int k = 0; k < nck; k++)
			if (ck[k].bytes > m[i].off) {
				cum = ck[k].overrun;
				break;
			}
		want[i] = cum > seen ? (int64_t)(cum - seen) : 0;
		seen += want[i];
		last = i;
	}
	if (last >= 0 && overrun >= seen - want[last])
		want[last] = overrun - (seen - want[last]);
	for (int i = 0; i <= last; i++) {
		struct dat_split *sp;

		if (m[i].count >= 0 || want[i] <= 0)
			continue;
		if (!dat_store_lost(fd, m[i].off, c->page_size, c->long_size, want[i]))
			continue;
		c->splits = xrealloc(c->splits, (c->nsplits + 1) * sizeof(*c->splits));
		sp = &c->splits[c->nsplits];
		sp->cpu = cpu;
		sp->off = m[i].off;
		sp->count = want[i];
		sp->pages = xmalloc(2 * c->page_size);
		if (dat_split_lost(fd, m[i].off, c->page_size, c->long_size, want[i], sp->pages))
			free(sp->pages);	/* left without a count */
		else
			c->nsplits++;
	}
	free(want);
	free(m);
}

/* Per-CPU statistics of the instance, into st and (text) cpustats; warns about losses. */
static void collect_stats(struct trax_capture *c, char **cpustats)
{
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		char rel[64];
		char *s;
		struct dat_page_scan scan;
		uint64_t overrun, commit, dropped, lost, size, split_lost = 0;
		int fd;

		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
		s = tracefs_instance_file_read(c->inst, rel, NULL);
		cpustats[cpu] = s;
		if (!s)
			continue;
		overrun = stat_value(s, "overrun");
		commit = stat_value(s, "commit overrun");
		dropped = stat_value(s, "dropped events");
		c->st.overrun += overrun;
		c->st.commit_overrun += commit;
		c->st.dropped += dropped;
		c->st.events += stat_value(s, "read events");
		fd = drain_cpu_fd(c->drain, cpu);
		size = drain_cpu_bytes(c->drain, cpu);
		count_marks(c, cpu, overrun);
		dat_scan_pages(fd, size, c->page_size, c->long_size, &scan);
		/* pages to be written as two hold their count in the first */
		for (int i = 0; i < c->nsplits; i++) {
			if (c->splits[i].cpu != cpu)
				continue;
			split_lost += c->splits[i].count;
			scan.unknown_lost--;
		}
		scan.marked_lost += split_lost;
		c->st.marked_lost += scan.marked_lost;
		c->st.unknown_lost_pages += scan.unknown_lost;
		c->st.bytes += size;
		lost = overrun + commit + dropped;
		if (lost || scan.marked_lost || scan.unknown_lost)
			warn(c, "CPU %d lost %llu events (overrun %llu, commit overrun %llu, "
			     "dropped %llu); the trace marks %llu lost%s", cpu,
			     (unsigned long long)lost,
			     (unsigned long long)overrun, (unsigned long long)commit,
			     (unsigned long long)dropped, (unsigned long long)scan.marked_lost,
			     scan.unknown_lost ? " and more of unknown count" : "");
	}
}

static void destroy_instance(struct trax_capture *c)
{
	if (c->inst)
		tracefs_print_close(c->inst);	/* its trace_marker is open */
	if (c->inst && c->inst_ours)
		tracefs_instance_destroy(c->inst);
	tracefs_instance_free(c->inst);
	c->inst = NULL;
	c->inst_ours = 0;
}

/* ---- the run ---- */

int trax_capture_run(struct trax_capture *c, struct trax_error *err)
{
	struct strbuf missing = STRBUF_INIT, wwarn = STRBUF_INIT;
	char **cpustats = NULL;
	int ret, complete = 1, timed_out = 0, failed_workload = 0;
	double t_on = 0, deadline = 0;
	const char *final;

	trax_error_clear(err);
	if (geteuid() != 0)
		return trax_error_set(err, TRAX_E_PERM, "not root: capturing needs root (tracefs "
				      "instances and trace_pipe_raw belong to root)");
	/* before anything else can fail: the litter of a killed capture into this OUT goes */
	reap_stale_files(c);
	ret = find_tracefs(c, err);
	if (ret)
		return ret;
	if (c->o.extract) {
		if (!tracefs_instance_exists(c->o.extract))
			return trax_error_set(err, TRAX_E_USAGE, "no tracefs instance '%s' (in "
					      "%s/instances)", c->o.extract, c->tdir);
		c->inst = tracefs_instance_alloc(c->tdir, c->o.extract);
		if (!c->inst)
			return trax_error_set(err, TRAX_E_TRACEFS, "instance %s: %s", c->o.extract,
					      strerror(errno));
		c->inst_ours = 0;
		extract_events(c, err);
		tracefs_trace_off(c->inst);
	} else {
		ret = ev_resolve(c->tdir, c->o.events, c->o.presets, &c->ev, &missing, err);
		if (ret)
			goto out;
		warn_lines(c, missing.buf);
		ret = prepare_workload(c, err);
		if (ret)
			goto out;
		ret = make_instance(c, err);
		if (!ret)
			ret = enable_events(c, err);
		if (!ret)
			ret = set_cmdlines(c, err);
		if (ret)
			goto out;
	}
	c->ncpus = count_cpus(c);
	c->page_size = page_size_of(c);
	if (c->ncpus <= 0) {
		ret = trax_error_set(err, TRAX_E_TRACEFS, "instance has no per_cpu buffers");
		goto out;
	}
	c->st.ncpus = c->ncpus;
	if (c->argv) {
		ret = workload_spawn(&c->wl, c->argv, c->log_fd,
				     c->o.no_redirect ? NULL : c->inst_dir, &wwarn, err);
		warn_lines(c, wwarn.buf);
		if (ret)
			goto out;
		c->st.workload_pid = c->wl.pid;
	}
	ret = drain_start(c->inst, c->ncpus, c->page_size, c->tmp_prefix, c->out, &c->drain,
			  err);
	if (ret)
		goto out;

	if (!c->o.extract) {
		if (c->stop) {
			complete = 0;
			goto stop;
		}
		if (tracefs_trace_on(c->inst)) {
			ret = trax_error_set(err, TRAX_E_TRACEFS, "cannot turn tracing on");
			goto out;
		}
		t_on = now_s();
		state_write_initial(c->inst, &c->ev, c->ncpus, c->wl.pid, &c->notes);
		state_write_facts(c->inst, NULL);
		tracefs_printf(c->inst, "trax: start\n");
		if (c->argv) {
			ret = workload_go(&c->wl, c->argv, err);
			if (ret)
				goto out;
		}
		if (c->o.duration > 0)
			deadline = t_on + c->o.duration;
		for (;;) {
			if (c->stop || drain_failed(c->drain, NULL))
				break;
			if (deadline && now_s() >= deadline) {
				timed_out = 1;
				break;
			}
			if (c->argv) {
				if (workload_wait(&c->wl, 100))
					break;
			} else {
				poll(NULL, 0, 100);
			}
		}
		if (c->argv && !c->wl.reaped) {
			/* stopped early: the workload goes, politely first */
			double until = now_s() + KILL_GRACE_MS / 1e3;

			workload_kill(&c->wl, SIGTERM);
			while (!workload_wait(&c->wl, 50) && now_s() < until)
				;
			if (!c->wl.reaped) {
				workload_kill(&c->wl, SIGKILL);
				while (!workload_wait(&c->wl, 100))
					;
			}
			if (!timed_out)
				complete = 0;
		}
stop:
		tracefs_printf(c->inst, "trax: stop\n");
		tracefs_trace_off(c->inst);
		c->st.seconds = t_on ? now_s() - t_on : 0;
		tracefs_print_close(c->inst);
	}
	if (c->argv) {
		c->st.workload_status = c->wl.status;
		if (!timed_out && c->wl.reaped && complete &&
		    !(WIFEXITED(c->wl.status) && WEXITSTATUS(c->wl.status) == 0) &&
		    !c->o.ignore_status) {
			failed_workload = 1;
			complete = 0;
		}
	}
	/* without a workload, a signal is the way to end a capture: it is complete */
	if (c->stop && c->stop_sig && c->argv)
		complete = 0;
	ret = drain_stop(c->drain, err);
	if (ret)
		goto out;
	cpustats = xcalloc(c->ncpus, sizeof(char *));
	collect_stats(c, cpustats);
	warn_lines(c, c->notes.buf);
	if (c->st.unknown_lost_pages)
		warn(c, "%d pages mark lost events without a count", c->st.unknown_lost_pages);
	ret = write_trace(c, c->out_tmp, cpustats, err);
	if (ret)
		goto out;
	final = complete ? c->out : c->out_incomplete;
	if (rename(c->out_tmp, final)) {
		ret = trax_error_set(err, TRAX_E_IO, "%s: %s", final, strerror(errno));
		goto out;
	}
	c->st.output = final;
	if (complete)
		unlink(c->out_incomplete);	/* a stale one from an earlier run */
	else
		unlink(c->out);
	drain_free(c->drain);	/* its open trace_pipe_raw files would keep the instance busy */
	c->drain = NULL;
	destroy_instance(c);
	restore_cmdlines(c);

	if (failed_workload) {
		char buf[128];

		ret = trax_error_set(err, TRAX_E_WORKLOAD, "workload '%s' %s; trace kept as %s "
				     "(workload log: %s)", c->argv[0],
				     status_text(c->wl.status, buf, sizeof(buf)), final,
				     c->log_path);
		goto out;
	}
	if (!complete) {
		const char *sig = c->stop_sig ? sigabbrev_np(c->stop_sig) : NULL;

		ret = trax_error_set(err, TRAX_E_INTERRUPTED, "interrupted%s%s; partial trace kept "
				     "as %s", sig ? " by SIG" : "", sig ? sig : "", final);
		goto out;
	}
	if (c->o.db) {
		ret = trax_load(c->out, c->o.db, NULL, NULL, err);
		if (ret)
			goto out;
	}
	ret = 0;
out:
	if (cpustats)
		for (int i = 0; i < c->ncpus; i++)
			free(cpustats[i]);
	free(cpustats);
	if (ret) {
		/* nothing half-written: the temporary files go, the instance goes */
		drain_free(c->drain);
		c->drain = NULL;
		unlink(c->out_tmp);
		if (c->argv)
			workload_release(&c->wl);
		destroy_instance(c);
		restore_cmdlines(c);
		/* a log the workload wrote nothing to says nothing: it goes too */
		if (c->log_fd >= 0) {
			struct stat st;

			if (!fstat(c->log_fd, &st) && st.st_size == 0) {
				unlink(c->log_path);
				c->st.log = NULL;
			}
		}
	}
	drain_free(c->drain);
	c->drain = NULL;
	strbuf_release(&missing);
	strbuf_release(&wwarn);
	return ret;
}

void trax_capture_free(struct trax_capture *c)
{
	if (!c)
		return;
	drain_free(c->drain);
	if (c->argv && c->wl.pid)
		workload_release(&c->wl);
	if (c->out_tmp)
		unlink(c->out_tmp);
	destroy_instance(c);
	restore_cmdlines(c);
	if (c->log_fd >= 0)
		close(c->log_fd);
	ev_list_release(&c->ev);
	for (int i = 0; i < c->nsplits; i++)
		free(c->splits[i].pages);
	free(c->splits);
	free(c->inst_dir);
	free(c->rtapp);
	free(c->argv_rt[1]);
	free(c->out);
	free(c->out_tmp);
	free(c->out_incomplete);
	free(c->tmp_prefix);
	free(c->log_path);
	free(c->rtapp_json);
	free(c->rtapp_logdir);
	free(c->rtapp_logbase);
	strbuf_release(&c->notes);
	free(c);
}
