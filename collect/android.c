/* collect/android.c: a phone whose adbd cannot be root: its own perfetto records. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "collect/android.h"
#include "collect/pfconfig.h"
#include "collect/target.h"
#include "parse/parse.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * Without root there is no tracefs instance of our own and no collector to run; the device's
 * traced owns ftrace. The shell user may run `perfetto`, which reads its config on stdin
 * (`-c -`: traced cannot read the shell's files on every release) and writes where the shell
 * may: /data/misc/perfetto-traces. With a workload, perfetto starts in the background (it
 * prints its pid), the workload runs, and perfetto is stopped with SIGTERM, which makes it
 * finish the trace; the config's duration is then only a cap for a lost connection.
 */

#define PF_DIR "/data/misc/perfetto-traces"

/* The config in a temporary file, opened for reading at its start (perfetto's stdin). */
static int config_fd(const char *text, struct trax_error *err)
{
	char path[] = "/tmp/trax-pfconfig.XXXXXX";
	int fd = mkstemp(path);
	size_t n = strlen(text);

	if (fd < 0)
		return trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
	unlink(path);
	if (write(fd, text, n) != (ssize_t)n || lseek(fd, 0, SEEK_SET)) {
		close(fd);
		return trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
	}
	return fd;
}

/* The workload on the device: -- CMD, or -w FILE (a trax workload converted on the host) run by
 * the device's rt-app. Its output goes to the local log. Its status, or a negative error. */
static int run_workload(const struct trax_collect_opts *o, struct trax_target *t,
			const char *id, const char *log, struct trax_error *err)
{
	struct strbuf cmd = STRBUF_INIT, json = STRBUF_INIT, errs = STRBUF_INIT;
	int fd, ret;

	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return trax_error_set(err, TRAX_E_IO, "%s: %s", log, strerror(errno));
	if (o->workload) {
		char *text = NULL;
		struct trax_error e = { 0 };
		const char *push = o->workload;
		char tmp[] = "/tmp/trax-rtapp.XXXXXX";
		int tfd = -1;

		strbuf_addf(&json, "/data/local/tmp/trax-%s.json", id);
		ret = trax_workload_to_rtapp(o->workload, "/data/local/tmp", id, &text, &e);
		if (ret && ret != -TRAX_E_UNSUPPORTED) {
			*err = e;
			goto out;
		}
		if (!ret) {	/* a trax workload: its rt-app form goes */
			tfd = mkstemp(tmp);
			if (tfd < 0 || write(tfd, text, strlen(text)) != (ssize_t)strlen(text)) {
				ret = trax_error_set(err, TRAX_E_IO, "%s: %s", tmp, strerror(errno));
				free(text);
				if (tfd >= 0) {
					close(tfd);
					unlink(tmp);
				}
				goto out;
			}
			close(tfd);
			push = tmp;
		}
		free(text);
		ret = target_push(t, push, json.buf, err);
		if (push == tmp)
			unlink(tmp);
		if (ret)
			goto out;
		strbuf_adds(&cmd, "rt-app ");
		sh_quote(&cmd, json.buf);
	} else {
		for (int i = 0; o->argv[i]; i++) {
			if (i)
				strbuf_addch(&cmd, ' ');
			sh_quote(&cmd, o->argv[i]);
		}
	}
	strbuf_adds(&cmd, " 2>&1");
	ret = target_run(t, cmd.buf, -1, fd, NULL, &errs, err);
	if (json.len) {
		struct trax_error e = { 0 };

		strbuf_reset(&cmd);
		strbuf_adds(&cmd, "rm -f ");
		sh_quote(&cmd, json.buf);
		target_run(t, cmd.buf, -1, -1, NULL, NULL, &e);
	}
out:
	close(fd);
	strbuf_release(&cmd);
	strbuf_release(&json);
	strbuf_release(&errs);
	return ret;
}


int trax_collect_android(const struct trax_collect_opts *o, struct trax_target *t,
			 struct trax_error *err)
{
	struct strbuf cmd = STRBUF_INIT, out = STRBUF_INIT, errs = STRBUF_INIT, line = STRBUF_INIT;
	struct strbuf remote = STRBUF_INIT, id = STRBUF_INIT, inc = STRBUF_INIT;
	char *config = NULL, **limits = NULL, *log = NULL;
	int ret, fd = -1, wl = o->workload || (o->argv && o->argv[0]), wl_status = 0;
	long pid = 0;

	ret = target_run(t, "command -v perfetto", -1, -1, &out, NULL, err);
	if (ret < 0)
		goto out;
	if (ret || !out.len) {
		ret = trax_error_set(err, TRAX_E_PERM, "%s: adbd cannot run as root (a production "
				     "build) and the device has no perfetto command (Android 9 or "
				     "later has it): nothing can record there", t->spec);
		goto out;
	}
	ret = trax_perfetto_config(o, &config, err);
	if (ret)
		goto out;
	target_note(o, t, "adbd cannot run as root (a production build): recording with the "
		    "device's perfetto; %s will be a Perfetto trace", o->output);
	limits = trax_perfetto_limits(o);
	for (int i = 0; limits && limits[i]; i++)
		target_note(o, t, "this path cannot record: %s", limits[i]);
	fd = config_fd(config, err);
	if (fd < 0) {
		ret = fd;
		goto out;
	}
	{
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		strbuf_addf(&id, "trax-%d-%lld", (int)getpid(), (long long)ts.tv_sec);
	}
	strbuf_addf(&remote, "%s/%s.pftrace", PF_DIR, id.buf);
	strbuf_adds(&cmd, "perfetto --txt -c - -o ");
	sh_quote(&cmd, remote.buf);
	if (wl)
		strbuf_adds(&cmd, " --background");
	strbuf_reset(&out);
	ret = target_run(t, cmd.buf, fd, -1, &out, &errs, err);
	if (ret < 0)
		goto out;
	if (ret) {
		target_last_line(errs.buf, &line);
		ret = trax_error_set(err, TRAX_E_IO, "%s: perfetto failed (status %d): %s", t->spec,
				     ret, line.len ? line.buf : "no message");
		goto out;
	}
	if (wl) {
		struct trax_error e = { 0 };
		int gone = 0;

		if (sscanf(out.buf, "%ld", &pid) != 1 || pid <= 0) {
			ret = trax_error_set(err, TRAX_E_IO, "%s: perfetto --background printed no pid "
					     "('%.40s')", t->spec, out.buf);
			goto out;
		}
		log = target_sibling(o->output, ".log");
		wl_status = run_workload(o, t, id.buf, log, err);
		/* perfetto finishes its file on SIGTERM; bounded wait for it to go */
		strbuf_reset(&cmd);
		strbuf_addf(&cmd, "kill -TERM %ld; i=0; while kill -0 %ld 2>/dev/null && "
			    "[ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; "
			    "kill -0 %ld 2>/dev/null && echo alive; true", pid, pid, pid);
		strbuf_reset(&out);
		ret = target_run(t, cmd.buf, -1, -1, &out, NULL, &e);
		gone = ret == 0 && !strstr(out.buf, "alive");
		if (wl_status < 0) {
			struct trax_error e2 = { 0 };

			strbuf_reset(&cmd);
			strbuf_adds(&cmd, "rm -f ");
			sh_quote(&cmd, remote.buf);
			target_run(t, cmd.buf, -1, -1, NULL, NULL, &e2);
			ret = wl_status;
			goto out;
		}
		if (!gone) {
			ret = trax_error_set(err, TRAX_E_IO, "%s: perfetto (pid %ld) did not stop "
					     "within 30 s of SIGTERM%s%s", t->spec, pid,
					     ret < 0 ? ": " : "", ret < 0 ? e.msg : "");
			goto out;
		}
	}
	strbuf_addf(&inc, "%s.incomplete", o->output);
	ret = target_pull(t, remote.buf, wl_status && !o->ignore_status ? inc.buf : o->output, err);
	{
		struct trax_error e = { 0 };

		strbuf_reset(&cmd);
		strbuf_adds(&cmd, "rm -f ");
		sh_quote(&cmd, remote.buf);
		target_run(t, cmd.buf, -1, -1, NULL, NULL, &e);
	}
	if (!ret) {
		/* perfetto exits 0 even when the service refused the session: no file, or
		 * an empty one */
		struct stat st;
		const char *got = wl_status && !o->ignore_status ? inc.buf : o->output;

		if (stat(got, &st) || st.st_size == 0) {
			unlink(got);
			ret = trax_error_set(err, TRAX_E_IO, "%s: the device's perfetto wrote an "
					     "empty trace (its tracing service refused the "
					     "session?)", t->spec);
		}
	} else if (strstr(err->msg, "cannot pull")) {
		struct trax_error e = *err;

		trax_error_set(err, TRAX_E_IO, "%s: the device's perfetto wrote no trace (its "
			       "tracing service refused the session?): %s", t->spec, e.msg);
	}
	if (ret)
		goto out;
	if (wl_status && !o->ignore_status) {
		unlink(o->output);
		ret = trax_error_set(err, TRAX_E_WORKLOAD, "%s: the workload exited with status %d; "
				     "trace kept as %s (workload log: %s)", t->spec, wl_status,
				     inc.buf, log);
		goto out;
	}
	unlink(inc.buf);
	printf("%s: Perfetto trace (recorded by the device's perfetto on %s, without root)\n",
	       o->output, t->spec);
	if (log)
		printf("workload log: %s\n", log);
	if (o->db)
		ret = trax_load(o->output, o->db, NULL, NULL, err);
out:
	if (fd >= 0)
		close(fd);
	free(config);
	free(log);
	trax_perfetto_limits_free(limits);
	strbuf_release(&cmd);
	strbuf_release(&out);
	strbuf_release(&errs);
	strbuf_release(&line);
	strbuf_release(&remote);
	strbuf_release(&id);
	strbuf_release(&inc);
	return ret;
}
