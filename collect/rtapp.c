/* collect/rtapp.c: trax workload JSON (periodic tasks, phases) converted to rt-app JSON. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "collect/collect.h"
#include "util/xalloc.h"

/*
 * The trax form (doc/man/trax-collect.1 describes it):
 *
 *   { "duration": "10s", "calibration": 100, "markers": true,
 *     "tasks": [ { "name": "small", "cpus": [1], "period": "16ms", "duty_cycle": 25,
 *                  "duration": "2s" },
 *                { "name": "big", "phases": [ { "period": "10ms", "duty_cycle": 10,
 *                                               "duration": "1s" }, ... ] } ] }
 *
 * Each phase becomes an rt-app phase of `loop` = duration / period activations, each one a
 * "runtime" (or calibrated "run") of period x duty_cycle followed by a "timer" on a period
 * unique to the thread, so the period holds whatever the run time did. Times carry units.
 */

struct conv {
	const char *name;	/* file name for messages */
	struct trax_error *err;
	int need_calibration;	/* some phase uses "run" */
};

static int fail(struct conv *cv, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct conv *cv, const char *where, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return trax_error_set(cv->err, TRAX_E_FORMAT, "%s: %s%s%s", cv->name, where,
			      *where ? ": " : "", msg);
}

/* A time with its unit ("16ms", "1.5s", "500us", "2000ns") in microseconds; -1 when bad. */
static double parse_time_us(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !(v >= 0) || isinf(v))
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	if (!strcmp(end, "s"))
		return v * 1e6;
	if (!strcmp(end, "ms"))
		return v * 1e3;
	if (!strcmp(end, "us"))
		return v;
	if (!strcmp(end, "ns"))
		return v / 1e3;
	return -1;
}

/* Read a time key of obj; 0 when absent and optional, 1 found, negative error. */
static int get_time(struct conv *cv, const char *where, json_t *obj, const char *key,
		    int required, double *us)
{
	json_t *v = json_object_get(obj, key);
	char w[256];

	snprintf(w, sizeof(w), "%s.%s", where, key);
	if (!v) {
		if (required)
			return fail(cv, w, "missing (a time with a unit: us, ms, s)");
		return 0;
	}
	if (!json_is_string(v))
		return fail(cv, w, "a time needs a unit, as a string such as \"16ms\"");
	*us = parse_time_us(json_string_value(v));
	if (*us < 0)
		return fail(cv, w, "'%s' is not a time (a number and a unit: ns, us, ms, s)",
			    json_string_value(v));
	return 1;
}

static int get_cpus(struct conv *cv, const char *where, json_t *obj, json_t **out)
{
	json_t *v = json_object_get(obj, "cpus");
	size_t i;
	json_t *c;
	char w[256];

	*out = NULL;
	if (!v)
		return 0;
	snprintf(w, sizeof(w), "%s.cpus", where);
	if (!json_is_array(v) || !json_array_size(v))
		return fail(cv, w, "a non-empty array of CPU numbers");
	json_array_foreach(v, i, c)
		if (!json_is_integer(c) || json_integer_value(c) < 0 ||
		    json_integer_value(c) > 4095)
			return fail(cv, w, "element %zu is not a CPU number", i);
	*out = json_deep_copy(v);
	return *out ? 1 : trax_error_set(cv->err, TRAX_E_NOMEM, "out of memory");
}

/* One phase (or the task itself when it has no "phases": own_cpus 0) into an rt-app phase. */
static int conv_phase(struct conv *cv, const char *where, json_t *ph, const char *load,
		      json_t *phases, const char *key, int own_cpus)
{
	double period, dur, duty, run;
	json_t *out = json_object(), *timer, *cpus = NULL, *v;
	long long loops;
	int ret;

	if (!out)
		return trax_error_set(cv->err, TRAX_E_NOMEM, "out of memory");
	ret = get_time(cv, where, ph, "period", 1, &period);
	if (ret < 0)
		goto out;
	ret = get_time(cv, where, ph, "duration", 1, &dur);
	if (ret < 0)
		goto out;
	if (period < 1) {
		ret = fail(cv, where, "period must be at least 1us");
		goto out;
	}
	v = json_object_get(ph, "duty_cycle");
	if (!json_is_number(v) || json_number_value(v) < 0 || json_number_value(v) > 100) {
		char w[256];

		snprintf(w, sizeof(w), "%s.duty_cycle", where);
		ret = fail(cv, w, v ? "a number from 0 to 100 (percent)" :
			   "missing (a number from 0 to 100, percent)");
		goto out;
	}
	duty = json_number_value(v);
	ret = own_cpus ? get_cpus(cv, where, ph, &cpus) : 0;
	if (ret < 0)
		goto out;
	loops = llround(dur / period);
	if (loops < 1) {
		ret = fail(cv, where, "duration is shorter than one period");
		goto out;
	}
	run = llround(period * duty / 100.0);
	if (cpus)
		json_object_set_new(out, "cpus", cpus);
	json_object_set_new(out, "loop", json_integer(loops));
	if (run >= 1)
		json_object_set_new(out, load, json_integer((json_int_t)run));
	if (run < period) {
		timer = json_object();
		json_object_set_new(timer, "ref", json_string("unique"));
		json_object_set_new(timer, "period", json_integer((json_int_t)llround(period)));
		json_object_set_new(out, "timer", timer);
	}
	if (!strcmp(load, "run"))
		cv->need_calibration = 1;
	json_object_set(phases, key, out);
	ret = 0;
out:
	json_decref(out);
	return ret;
}

static int conv_task(struct conv *cv, size_t idx, json_t *task, json_t *tasks)
{
	char where[256], w2[300], key[32];
	const char *name, *load = "runtime";
	json_t *t = json_object(), *phases = json_object(), *v, *cpus = NULL;
	double delay;
	int ret;

	if (!t || !phases) {
		ret = trax_error_set(cv->err, TRAX_E_NOMEM, "out of memory");
		goto out;
	}
	snprintf(where, sizeof(where), "tasks[%zu]", idx);
	if (!json_is_object(task)) {
		ret = fail(cv, where, "a task is an object");
		goto out;
	}
	v = json_object_get(task, "name");
	if (!json_is_string(v) || !*json_string_value(v)) {
		ret = fail(cv, where, "missing \"name\" (the thread name)");
		goto out;
	}
	name = json_string_value(v);
	snprintf(where, sizeof(where), "tasks[%zu] (name \"%s\")", idx, name);
	if (strlen(name) > 15 || strpbrk(name, " /\\\"")) {
		ret = fail(cv, where, "name: at most 15 characters (the kernel's comm), no spaces "
			   "or slashes");
		goto out;
	}
	if (json_object_get(tasks, name)) {
		ret = fail(cv, where, "name: two tasks are named \"%s\"", name);
		goto out;
	}
	v = json_object_get(task, "load");
	if (v) {
		if (!json_is_string(v) || (strcmp(json_string_value(v), "runtime") &&
					  strcmp(json_string_value(v), "run"))) {
			ret = fail(cv, where, "load: \"runtime\" (wall-clock busy time) or \"run\" "
				   "(calibrated loops)");
			goto out;
		}
		load = json_string_value(v);
	}
	v = json_object_get(task, "instances");
	if (v) {
		if (!json_is_integer(v) || json_integer_value(v) < 1) {
			ret = fail(cv, where, "instances: a positive integer");
			goto out;
		}
		json_object_set(t, "instance", v);
	}
	v = json_object_get(task, "policy");
	if (v) {
		static const char *const pol[] = { "SCHED_OTHER", "SCHED_FIFO", "SCHED_RR",
						   "SCHED_IDLE", "SCHED_BATCH", NULL };
		int ok = 0;

		for (int i = 0; json_is_string(v) && pol[i]; i++)
			ok |= !strcmp(json_string_value(v), pol[i]);
		if (!ok) {
			ret = fail(cv, where, "policy: one of SCHED_OTHER, SCHED_FIFO, SCHED_RR, "
				   "SCHED_IDLE, SCHED_BATCH");
			goto out;
		}
		json_object_set(t, "policy", v);
	}
	v = json_object_get(task, "priority");
	if (v) {
		if (!json_is_integer(v)) {
			ret = fail(cv, where, "priority: an integer");
			goto out;
		}
		json_object_set(t, "priority", v);
	}
	ret = get_cpus(cv, where, task, &cpus);
	if (ret < 0)
		goto out;
	if (cpus)
		json_object_set_new(t, "cpus", cpus);
	ret = get_time(cv, where, task, "delay", 0, &delay);
	if (ret < 0)
		goto out;
	if (ret > 0)
		json_object_set_new(t, "delay", json_integer((json_int_t)llround(delay)));
	/* the phases run once, then the thread ends */
	json_object_set_new(t, "loop", json_integer(1));
	v = json_object_get(task, "phases");
	if (v) {
		size_t i;
		json_t *ph;

		if (json_object_get(task, "period") || json_object_get(task, "duty_cycle")) {
			ret = fail(cv, where, "either \"phases\" or period/duty_cycle/duration, "
				   "not both");
			goto out;
		}
		if (!json_is_array(v) || !json_array_size(v)) {
			ret = fail(cv, where, "phases: a non-empty array");
			goto out;
		}
		json_array_foreach(v, i, ph) {
			snprintf(w2, sizeof(w2), "%s.phases[%zu]", where, i);
			if (!json_is_object(ph)) {
				ret = fail(cv, w2, "a phase is an object");
				goto out;
			}
			snprintf(key, sizeof(key), "p%zu", i);
			ret = conv_phase(cv, w2, ph, load, phases, key, 1);
			if (ret < 0)
				goto out;
		}
	} else {
		ret = conv_phase(cv, where, task, load, phases, "p0", 0);
		if (ret < 0)
			goto out;
	}
	json_object_set(t, "phases", phases);
	json_object_set(tasks, name, t);
	ret = 0;
out:
	json_decref(t);
	json_decref(phases);
	return ret;
}

int trax_workload_text_to_rtapp(const char *text, const char *name, const char *log_dir,
				const char *log_base, char **json, struct trax_error *err)
{
	struct conv cv = { .name = name, .err = err };
	json_t *root, *tasks_in, *v, *rt = NULL, *global = NULL, *tasks = NULL, *task;
	json_error_t jerr;
	size_t i;
	double dur;
	int ret;

	*json = NULL;
	root = json_loads(text, 0, &jerr);
	if (!root)
		return trax_error_set(err, TRAX_E_UNSUPPORTED, "%s:%d:%d: %s", name, jerr.line,
				      jerr.column, jerr.text);
	tasks_in = json_object_get(root, "tasks");
	if (!json_is_object(root) || !json_is_array(tasks_in)) {
		ret = trax_error_set(err, TRAX_E_UNSUPPORTED, "%s: not a trax workload (no "
				     "\"tasks\" array)", name);
		goto out;
	}
	if (!json_array_size(tasks_in)) {
		ret = fail(&cv, "tasks", "no task");
		goto out;
	}
	{
		static const char *const known[] = { "tasks", "duration", "calibration",
						     "markers", NULL };
		const char *k;

		json_object_foreach(root, k, v) {
			int ok = 0;

			for (int j = 0; known[j]; j++)
				ok |= !strcmp(k, known[j]);
			if (!ok) {
				ret = fail(&cv, k, "unknown key (tasks, duration, calibration, "
					   "markers)");
				goto out;
			}
		}
	}
	rt = json_object();
	global = json_object();
	tasks = json_object();
	if (!rt || !global || !tasks) {
		ret = trax_error_set(err, TRAX_E_NOMEM, "out of memory");
		goto out;
	}
	json_array_foreach(tasks_in, i, task) {
		ret = conv_task(&cv, i, task, tasks);
		if (ret < 0)
			goto out;
	}
	ret = get_time(&cv, "", root, "duration", 0, &dur);
	if (ret < 0)
		goto out;
	/* rt-app's duration is whole seconds; -1 runs until every thread is done */
	json_object_set_new(global, "duration",
			    json_integer(ret > 0 ? (json_int_t)ceil(dur / 1e6) : -1));
	v = json_object_get(root, "calibration");
	if (v) {
		const char *s = json_string_value(v);

		if (!(json_is_integer(v) && json_integer_value(v) > 0) &&
		    !(s && !strncmp(s, "CPU", 3) && isdigit((unsigned char)s[3]))) {
			ret = fail(&cv, "calibration", "ns per loop (a positive integer) or "
				   "\"CPUn\" (rt-app calibrates on CPU n)");
			goto out;
		}
		json_object_set(global, "calibration", v);
	} else if (cv.need_calibration) {
		json_object_set_new(global, "calibration", json_string("CPU0"));
	} else {
		/* only "runtime" events: rt-app's calibration (seconds long) is not needed */
		json_object_set_new(global, "calibration", json_integer(100));
	}
	json_object_set_new(global, "default_policy", json_string("SCHED_OTHER"));
	v = json_object_get(root, "markers");
	if (v && !json_is_boolean(v)) {
		ret = fail(&cv, "markers", "true or false");
		goto out;
	}
	json_object_set_new(global, "ftrace", json_boolean(!v || json_is_true(v)));
	if (log_dir)
		json_object_set_new(global, "logdir", json_string(log_dir));
	if (log_base)
		json_object_set_new(global, "log_basename", json_string(log_base));
	json_object_set_new(global, "lock_pages", json_false());
	json_object_set(rt, "global", global);
	json_object_set(rt, "tasks", tasks);
	*json = json_dumps(rt, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	ret = *json ? 0 : trax_error_set(err, TRAX_E_NOMEM, "out of memory");
out:
	json_decref(root);
	json_decref(rt);
	json_decref(global);
	json_decref(tasks);
	return ret;
}

int trax_workload_to_rtapp(const char *path, const char *log_dir, const char *log_base,
			   char **json, struct trax_error *err)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	int ret;

	*json = NULL;
	if (!f)
		return trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 8192;
			if (cap > (64u << 20)) {
				free(text);
				fclose(f);
				return trax_error_set(err, TRAX_E_FORMAT, "%s: too large for a "
						      "workload file", path);
			}
			text = xrealloc(text, cap);
		}
		n = fread(text + len, 1, 4096, f);
		len += n;
		if (n < 4096)
			break;
	}
	if (ferror(f)) {
		ret = trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
		goto out;
	}
	text[len] = '\0';
	ret = trax_workload_text_to_rtapp(text, path, log_dir, log_base, json, err);
out:
	fclose(f);
	free(text);
	return ret;
}
