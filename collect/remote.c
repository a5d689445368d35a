/* collect/remote.c: `trax collect --target`: the capture runs on a board or a phone. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "collect/android.h"
#include "collect/collect.h"
#include "collect/target.h"
#include "parse/parse.h"
#include "util/outfile.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * The flow (doc/devices.md):
 *  1. probe: `uname -m; id -u` on the target (a transport failure ends here, one line);
 *  2. root: uid 0, else `sudo -n` over ssh, else `adb root`;
 *  3. the collector: the static trax of the target's machine (make static), kept in
 *     DIR/trax-HASH (HASH: the first 16 hex digits of its SHA-256), pushed when the target
 *     has no file of that hash there, and checked by hash after the push;
 *  4. files an earlier run left in that folder (a connection lost before the trace came
 *     back) are removed, and named;
 *  5. the capture: DIR/trax-HASH/trax collect --tether -o DIR/run-ID.dat with the same
 *     options. --tether ends the capture when its stdin closes, so a dropped connection
 *     stops it within the poll period: its instance is removed and the part captured so far
 *     kept as run-ID.dat.incomplete;
 *  6. the trace comes back to OUT (or OUT.incomplete), with the workload's log; the run's
 *     files on the target go.
 */

static int tether_fd = -1;	/* the write end of the remote run's stdin */

void trax_remote_interrupt(void)
{
	int fd = tether_fd;

	tether_fd = -1;
	if (fd >= 0)
		close(fd);	/* async-signal-safe; the run on the target sees EOF and stops */
}

struct remote {
	const struct trax_collect_opts *o;
	struct trax_target *t;
	const char *base;	/* folder on the target for the collector and the runs */
	char *dir;		/* base/trax-HASH */
	char *sudo;		/* "sudo -n " or "" */
	char arch[32];
	char *run;		/* dir/run-ID (no suffix) */
};

/* Run cmd on the target; its stdout into out (may be NULL). The command's status, or a
 * negative error for a transport failure. */
static int sh(struct remote *r, const char *cmd, struct strbuf *out, struct strbuf *errs,
	      struct trax_error *err)
{
	return target_run(r->t, cmd, -1, -1, out, errs, err);
}

/* The first line of s, trimmed, into a fresh string. */
static char *first_line(const char *s)
{
	size_t n = strcspn(s, "\r\n");

	return xstrndup(s, n);
}

static void strip_nl(struct strbuf *sb)
{
	while (sb->len && (sb->buf[sb->len - 1] == '\n' || sb->buf[sb->len - 1] == '\r'))
		sb->buf[--sb->len] = 0;
}

/* 1 and 2: what the target is, and a way to be root there. 0, PROBE_NO_ROOT (a phone whose
 * adbd cannot be root), or a negative error. */
#define PROBE_NO_ROOT 1
static int probe(struct remote *r, struct trax_error *err)
{
	struct strbuf out = STRBUF_INIT, errs = STRBUF_INIT;
	long uid = -1;
	int ret, tried_root = 0;

again:
	strbuf_reset(&out);
	strbuf_reset(&errs);
	ret = sh(r, "uname -m; id -u", &out, &errs, err);
	if (ret < 0)
		goto out;
	if (ret) {
		strip_nl(&errs);
		ret = trax_error_set(err, TRAX_E_IO, "%s: cannot run commands there (status %d%s%s)",
				     r->t->spec, ret, errs.len ? ": " : "", errs.buf);
		goto out;
	}
	{
		char *nl = strchr(out.buf, '\n');

		if (!nl || sscanf(nl + 1, "%ld", &uid) != 1) {
			ret = trax_error_set(err, TRAX_E_IO, "%s: unexpected answer to `uname -m; "
					     "id -u`: '%.60s'", r->t->spec, out.buf);
			goto out;
		}
		snprintf(r->arch, sizeof(r->arch), "%.*s", (int)(nl - out.buf), out.buf);
		if (!strcmp(r->arch, "arm64"))
			snprintf(r->arch, sizeof(r->arch), "aarch64");
	}
	r->sudo = xstrdup("");
	if (uid == 0)
		goto out;
	if (r->t->kind == TARGET_SSH) {
		ret = sh(r, "sudo -n true", NULL, NULL, err);
		if (ret < 0)
			goto out;
		if (ret) {
			ret = trax_error_set(err, TRAX_E_PERM, "%s: not root (uid %ld) and `sudo -n` "
					     "is refused: capturing needs root on the target",
					     r->t->spec, uid);
			goto out;
		}
		free(r->sudo);
		r->sudo = xstrdup("sudo -n ");
		goto out;
	}
	if (r->t->kind == TARGET_ADB && !tried_root) {
		ret = target_adb_root(r->t, err);
		if (ret < 0)
			goto out;
		tried_root = 1;
		if (ret == 0) {
			free(r->sudo);
			r->sudo = NULL;
			goto again;
		}
		ret = PROBE_NO_ROOT;	/* refused: the caller takes the Perfetto path */
		goto out;
	}
	/* adb root answered, yet adbd is still not root: as refused (adb's status says nothing) */
	ret = PROBE_NO_ROOT;
out:
	strbuf_release(&out);
	strbuf_release(&errs);
	return ret;
}

/* The static collector for arch: $TRAX_COLLECTORS/ARCH/trax, else beside this trax (the
 * build tree's build-static/ARCH/trax, or an installed PREFIX/lib/trax/ARCH/trax). */
static int find_collector(const char *arch, char *path, size_t size, struct trax_error *err)
{
	char self[PATH_MAX], *slash;
	const char *env = getenv("TRAX_COLLECTORS");
	ssize_t n;

	if (env && *env) {
		if (snprintf(path, size, "%s/%s/trax", env, arch) < (int)size &&
		    !access(path, X_OK))
			return 0;
		return trax_error_set(err, TRAX_E_UNSUPPORTED, "no collector for %s: %s is "
				      "missing (TRAX_COLLECTORS=%s)", arch, path, env);
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return trax_error_set(err, TRAX_E_IO, "/proc/self/exe: %s", strerror(errno));
	self[n] = 0;
	slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	if (snprintf(path, size, "%s/../build-static/%s/trax", self, arch) < (int)size &&
	    !access(path, X_OK))
		return 0;
	if (snprintf(path, size, "%s/../lib/trax/%s/trax", self, arch) < (int)size &&
	    !access(path, X_OK))
		return 0;
	return trax_error_set(err, TRAX_E_UNSUPPORTED, "no static collector for %s (the "
			      "target's machine): run `make static`, or set TRAX_COLLECTORS to "
			      "a folder holding %s/trax", arch, arch);
}

/* 3: the collector on the target, by hash. */
static int install_collector(struct remote *r, struct trax_error *err)
{
	char local[PATH_MAX], hex[65];
	struct strbuf cmd = STRBUF_INIT, out = STRBUF_INIT, errs = STRBUF_INIT;
	struct strbuf bin = STRBUF_INIT;
	int ret;

	ret = find_collector(r->arch, local, sizeof(local), err);
	if (ret)
		return ret;
	if (sha256_file_hex(local, hex))
		return trax_error_set(err, TRAX_E_IO, "%s: %s", local, strerror(errno));
	{
		struct strbuf d = STRBUF_INIT;

		strbuf_addf(&d, "%s/trax-%.16s", r->base, hex);
		r->dir = strbuf_detach(&d);
	}
	strbuf_addf(&bin, "%s/trax", r->dir);
	for (int attempt = 0; attempt < 2; attempt++) {
		strbuf_reset(&cmd);
		strbuf_reset(&out);
		strbuf_adds(&cmd, "sha256sum ");
		sh_quote(&cmd, bin.buf);
		strbuf_adds(&cmd, " 2>/dev/null || true");
		ret = sh(r, cmd.buf, &out, NULL, err);
		if (ret < 0)
			goto out;
		if (!strncmp(out.buf, hex, 64) && out.buf[64] == ' ') {
			ret = 0;
			if (attempt)
				target_note(r->o, r->t, "collector for %s pushed to %s (checked "
					    "by SHA-256)", r->arch, bin.buf);
			goto out;
		}
		if (attempt) {
			char *got = first_line(out.buf);

			ret = trax_error_set(err, TRAX_E_IO, "%s: the collector pushed to %s has "
					     "the wrong hash ('%.20s' for %.16s...)", r->t->spec,
					     bin.buf, got, hex);
			free(got);
			goto out;
		}
		strbuf_reset(&cmd);
		strbuf_reset(&errs);
		strbuf_adds(&cmd, "mkdir -p ");
		sh_quote(&cmd, r->dir);
		ret = sh(r, cmd.buf, NULL, &errs, err);
		if (ret < 0)
			goto out;
		if (ret) {
			strip_nl(&errs);
			ret = trax_error_set(err, TRAX_E_IO, "%s: cannot create %s: %s", r->t->spec,
					     r->dir, errs.buf);
			goto out;
		}
		strbuf_reset(&cmd);
		strbuf_addf(&cmd, "%s.part", bin.buf);
		ret = target_push(r->t, local, cmd.buf, err);
		if (ret)
			goto out;
		strbuf_reset(&cmd);
		strbuf_reset(&errs);
		strbuf_adds(&cmd, "chmod 755 ");
		sh_quote(&cmd, bin.buf);
		strbuf_adds(&cmd, ".part && mv -f ");
		sh_quote(&cmd, bin.buf);
		strbuf_adds(&cmd, ".part ");
		sh_quote(&cmd, bin.buf);
		ret = sh(r, cmd.buf, NULL, &errs, err);
		if (ret < 0)
			goto out;
		if (ret) {
			strip_nl(&errs);
			ret = trax_error_set(err, TRAX_E_IO, "%s: cannot install %s: %s", r->t->spec,
					     bin.buf, errs.buf);
			goto out;
		}
	}
out:
	strbuf_release(&cmd);
	strbuf_release(&out);
	strbuf_release(&errs);
	strbuf_release(&bin);
	return ret;
}

/* 4: what an earlier run left: finished run files never fetched, and the spill files of a
 * collector whose process is gone. A live run's files stay. */
static int reap_leftovers(struct remote *r, struct trax_error *err)
{
	struct strbuf cmd = STRBUF_INIT, out = STRBUF_INIT;
	int ret;

	strbuf_adds(&cmd, "cd ");
	sh_quote(&cmd, r->dir);
	strbuf_adds(&cmd, " && for f in run-* .run-*; do [ -e \"$f\" ] || continue; "
		    "case $f in .run-*) p=${f##*.trax-}; p=${p%%.*}; "
		    "kill -0 \"$p\" 2>/dev/null && continue;; esac; "
		    "rm -f \"$f\" && echo \"$f\"; done; true");
	ret = sh(r, cmd.buf, &out, NULL, err);
	if (ret < 0)
		goto out;
	ret = 0;
	if (out.len) {
		int n = 0;

		for (const char *p = out.buf; *p; p++)
			n += *p == '\n';
		strip_nl(&out);
		for (char *p = out.buf; *p; p++)
			if (*p == '\n')
				*p = ' ';
		target_note(r->o, r->t, "removed %d file%s left in %s by an earlier run cut off: %s",
			    n, n == 1 ? "" : "s", r->dir, out.buf);
	}
out:
	strbuf_release(&cmd);
	strbuf_release(&out);
	return ret;
}

/* The collector's command line: the options of this one, the run's paths. */
static void remote_cmdline(struct remote *r, const char *wl_remote, struct strbuf *cmd)
{
	const struct trax_collect_opts *o = r->o;
	char num[64];

	strbuf_adds(cmd, r->sudo);
	strbuf_addf(cmd, "%s/trax collect --tether -o ", r->dir);
	{
		struct strbuf p = STRBUF_INIT;

		strbuf_addf(&p, "%s.dat", r->run);
		sh_quote(cmd, p.buf);
		strbuf_release(&p);
	}
	if (o->events) {
		strbuf_adds(cmd, " -e ");
		sh_quote(cmd, o->events);
	}
	if (o->presets) {
		strbuf_adds(cmd, " -p ");
		sh_quote(cmd, o->presets);
	}
	if (o->buffer_kb)
		strbuf_addf(cmd, " -b %u", o->buffer_kb);
	if (o->clock) {
		strbuf_adds(cmd, " -C ");
		sh_quote(cmd, o->clock);
	}
	if (o->duration > 0) {
		snprintf(num, sizeof(num), "%.17g", o->duration);
		strbuf_addf(cmd, " -t %s", num);
	}
	if (o->cmdlines)
		strbuf_addf(cmd, " --cmdlines %u", o->cmdlines);
	if (o->ignore_status)
		strbuf_adds(cmd, " --ignore-status");
	if (o->no_kallsyms)
		strbuf_adds(cmd, " --no-kallsyms");
	if (o->no_redirect)
		strbuf_adds(cmd, " --no-redirect");
	if (wl_remote) {
		strbuf_adds(cmd, " -w ");
		sh_quote(cmd, wl_remote);
	}
	if (o->argv && o->argv[0]) {
		strbuf_adds(cmd, " --");
		for (int i = 0; o->argv[i]; i++) {
			strbuf_addch(cmd, ' ');
			sh_quote(cmd, o->argv[i]);
		}
	}
}

/* Whether the target has path (a transport failure counts as no). */
static int remote_exists(struct remote *r, const char *path)
{
	struct strbuf cmd = STRBUF_INIT;
	struct trax_error e = { 0 };
	int ret;

	strbuf_adds(&cmd, "test -f ");
	sh_quote(&cmd, path);
	ret = sh(r, cmd.buf, NULL, NULL, &e);
	strbuf_release(&cmd);
	return ret == 0;
}

static void remote_rm_run(struct remote *r)
{
	struct strbuf cmd = STRBUF_INIT;
	struct trax_error e = { 0 };

	/* run-ID.dat, .incomplete, .log, .rtapp.json, .workload.json, rt-app's run-ID-T-N.log */
	strbuf_adds(&cmd, "rm -f ");
	sh_quote(&cmd, r->run);
	strbuf_adds(&cmd, ".* ");
	sh_quote(&cmd, r->run);
	strbuf_adds(&cmd, "-*");
	sh(r, cmd.buf, NULL, NULL, &e);
	strbuf_release(&cmd);
}


/* Whether p[0..n) is the run's trace as the collector names it (a path ending in
 * /run-ID.dat: the target may show its folder under another name, a symbolic link). */
static int is_run_path(const struct remote *r, const char *p, size_t n)
{
	const char *base = strrchr(r->run, '/');
	size_t bl = strlen(base);

	return n >= bl + 4 && !memcmp(p + n - bl - 4, base, bl) && !memcmp(p + n - 4, ".dat", 4);
}

/* The remote collector's summary line with its path replaced by the local one. */
static void print_summary(struct remote *r, const char *text, const char *local_out)
{
	char *log = target_sibling(r->o->output, ".log");
	struct strbuf line = STRBUF_INIT;

	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		const char *colon = memchr(p, ':', n);

		strbuf_reset(&line);
		if (!strncmp(p, "workload log: ", 14)) {
			strbuf_addf(&line, "workload log: %s", log);
		} else if (colon && is_run_path(r, p, colon - p)) {
			strbuf_addf(&line, "%s:%.*s (captured on %s)", local_out,
				    (int)(n - (colon + 1 - p)), colon + 1, r->t->spec);
		} else {
			strbuf_add(&line, p, n);
		}
		printf("%s\n", line.buf);
		p += n;
		if (*p)
			p++;
	}
	fflush(stdout);
	strbuf_release(&line);
	free(log);
}

static char *id_of_run(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	strbuf_addf(&sb, "run-%d-%lld", (int)getpid(), (long long)ts.tv_sec);
	return strbuf_detach(&sb);
}

/* 6: the run's files back to the host. complete: OUT, else OUT.incomplete. */
static int fetch(struct remote *r, int complete, struct trax_error *err)
{
	struct strbuf rp = STRBUF_INIT, lp = STRBUF_INIT;
	char *log = target_sibling(r->o->output, ".log");
	char *rj = target_sibling(r->o->output, ".rtapp.json");
	int ret;

	strbuf_addf(&rp, "%s.dat%s", r->run, complete ? "" : ".incomplete");
	strbuf_addf(&lp, "%s%s", r->o->output, complete ? "" : ".incomplete");
	ret = target_pull(r->t, rp.buf, lp.buf, err);
	if (ret)
		goto out;
	if (complete) {
		struct strbuf inc = STRBUF_INIT;

		strbuf_addf(&inc, "%s.incomplete", r->o->output);
		unlink(inc.buf);	/* a stale one from an earlier run */
		strbuf_release(&inc);
	} else {
		unlink(r->o->output);
	}
	/* the workload's log and the converted rt-app JSON, when the run made them */
	strbuf_reset(&rp);
	strbuf_addf(&rp, "%s.log", r->run);
	if (remote_exists(r, rp.buf))
		target_pull(r->t, rp.buf, log, err);
	strbuf_reset(&rp);
	strbuf_addf(&rp, "%s.rtapp.json", r->run);
	if (remote_exists(r, rp.buf))
		target_pull(r->t, rp.buf, rj, err);
	trax_error_clear(err);
	ret = 0;
out:
	strbuf_release(&rp);
	strbuf_release(&lp);
	free(log);
	free(rj);
	return ret;
}

/* After a lost connection: the collector stops on its own (--tether); wait for its
 * incomplete trace, bounded, on a new connection, and fetch it. */
static int rescue(struct remote *r, struct trax_error *lost)
{
	struct strbuf inc = STRBUF_INIT, tmp = STRBUF_INIT;
	struct trax_error e = { 0 };
	int got = 0;

	strbuf_addf(&inc, "%s.dat.incomplete", r->run);
	for (int i = 0; i < 40 && !got; i++) {	/* 20 s */
		if (remote_exists(r, inc.buf))
			got = 1;
		else
			usleep(500 * 1000);
	}
	if (got && !fetch(r, 0, &e)) {
		remote_rm_run(r);
		trax_error_set(lost, TRAX_E_INTERRUPTED, "%s: connection lost mid-capture; the "
			       "part captured so far is in %s.incomplete", r->t->spec,
			       r->o->output);
	} else {
		trax_error_set(lost, TRAX_E_INTERRUPTED, "%s: connection lost mid-capture; no "
			       "partial trace could be fetched (%s)", r->t->spec,
			       got ? e.msg : "the target did not answer again");
	}
	strbuf_release(&inc);
	strbuf_release(&tmp);
	return -TRAX_E_INTERRUPTED;
}

/* The remote collector's error: its last "trax collect: " line, named by target. */
static int remote_error(struct remote *r, const struct strbuf *errs, int status,
			struct trax_error *err)
{
	struct strbuf line = STRBUF_INIT;
	const char *p = errs->buf, *last = NULL;

	for (const char *q = p; (q = strstr(q, "trax collect: ")); q++)
		if (q == p || q[-1] == '\n')
			if (strncmp(q + 14, "warning: ", 9))
				last = q + 14;
	if (last) {
		strbuf_add(&line, last, strcspn(last, "\n"));
	} else {
		strbuf_add(&line, errs->buf, errs->len);
		strip_nl(&line);
		if (!line.len)
			strbuf_addf(&line, "the collector exited with status %d", status);
	}
	trax_error_set(err, status == 2 ? TRAX_E_USAGE : TRAX_E_IO, "%s: %s", r->t->spec,
		       line.buf);
	strbuf_release(&line);
	return -TRAX_E_IO;
}

int trax_collect_remote(const struct trax_collect_opts *o, struct trax_target *t,
			const char *target_dir, struct trax_error *err)
{
	struct remote r = { .o = o, .t = t };
	struct strbuf cmd = STRBUF_INIT, wl = STRBUF_INIT;
	struct target_io io = TARGET_IO_INIT;
	char *id = NULL;
	int ret, pfd[2] = { -1, -1 };

	r.base = target_dir ? target_dir : t->kind == TARGET_ADB ? "/data/local/tmp" : "/tmp";
	ret = probe(&r, err);
	if (ret == PROBE_NO_ROOT) {
		ret = trax_collect_android(o, t, err);	/* collect/android.c */
		goto out;
	}
	if (ret)
		goto out;
	ret = install_collector(&r, err);
	if (!ret)
		ret = reap_leftovers(&r, err);
	if (ret)
		goto out;
	target_note(o, t, "root there%s: capturing with the collector %s/trax in a private "
		    "tracefs instance", *r.sudo ? " (sudo -n)" : "", r.dir);
	id = id_of_run();
	{
		struct strbuf p = STRBUF_INIT;

		strbuf_addf(&p, "%s/%s", r.dir, id);
		r.run = strbuf_detach(&p);
	}
	if (o->workload) {
		strbuf_addf(&wl, "%s.workload.json", r.run);
		ret = target_push(t, o->workload, wl.buf, err);
		if (ret)
			goto out;
	}
	remote_cmdline(&r, o->workload ? wl.buf : NULL, &cmd);
	if (pipe2(pfd, O_CLOEXEC)) {
		ret = trax_error_set(err, TRAX_E_IO, "pipe: %s", strerror(errno));
		goto out;
	}
	tether_fd = pfd[1];
	io.in_fd = pfd[0];
	io.errs_live = 1;
	ret = target_sh(t, cmd.buf, &io, err);
	close(pfd[0]);
	trax_remote_interrupt();
	if (!ret && io.status && t->kind == TARGET_ADB && !target_alive(t)) {
		/* adb says nothing of its own when the device goes mid-command */
		ret = trax_error_set(err, TRAX_E_IO, "%s: connection lost", t->spec);
	}
	if (ret) {
		if (strstr(err->msg, "connection lost"))
			ret = rescue(&r, err);
		goto out;
	}
	if (io.status == 0) {
		ret = fetch(&r, 1, err);
		if (!ret)
			print_summary(&r, io.out.buf, o->output);
	} else {
		struct strbuf inc = STRBUF_INIT;
		struct trax_error e = { 0 };

		remote_error(&r, &io.errs, io.status, err);
		strbuf_addf(&inc, "%s.dat.incomplete", r.run);
		if (remote_exists(&r, inc.buf) && !fetch(&r, 0, &e)) {
			struct trax_error full = *err;
			char *kept = strstr(full.msg, "; partial trace kept as "), *log;

			/* the collector names its own paths: the host's copies are what count */
			if (!kept)
				kept = strstr(full.msg, "; trace kept as ");
			if (kept)
				*kept = 0;
			log = target_sibling(o->output, ".log");
			if (access(log, F_OK))
				trax_error_set(err, full.code, "%s; the part captured so far is in "
					       "%s.incomplete", full.msg, o->output);
			else
				trax_error_set(err, full.code, "%s; the part captured so far is in "
					       "%s.incomplete (workload log: %s)", full.msg,
					       o->output, log);
			free(log);
		}
		strbuf_release(&inc);
		ret = -TRAX_E_IO;
	}
	remote_rm_run(&r);
	if (!ret && o->db)
		ret = trax_load(o->output, o->db, NULL, NULL, err);
out:
	trax_remote_interrupt();
	target_io_release(&io);
	strbuf_release(&cmd);
	strbuf_release(&wl);
	free(id);
	free(r.dir);
	free(r.sudo);
	free(r.run);
	return ret;
}
