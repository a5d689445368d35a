/* collect/state.c: the initial state (cpufreq, idle, temperatures, oom_score_adj, tasks) as markers. */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "collect/collect-local.h"
#include "collect/facts.h"

/*
 * Counters (cpu_frequency, cpu_idle, thermal_temperature, oom_score_adj) change only through
 * events; without a value at the start, a counter is undefined until its first event. Right
 * after tracing is turned on, trax writes one trace marker per value into the instance:
 *
 *   trax: initial cpu_frequency cpu_id=0 state=1800000
 *   trax: initial cpu_idle cpu_id=1 state=4294967295
 *   trax: initial thermal_temperature id=0 temp=45000 thermal_zone=x86_pkg_temp
 *   trax: initial oom_score_adj_update pid=1234 oom_score_adj=0
 *   trax: initial task pid=1236 tgid=1234 comm=kworker/u8:2
 *
 * The task markers give the process (tgid) and name of every thread alive when tracing
 * starts: a thread born later has them from its task_newtask, but no event tells the process
 * of one born before (the workload's first thread included: it waits, forked, for tracing).
 * (field names as in the events; a string field comes last, to the end of the line). parse/
 * (parse/initial.c) turns them into counter rows: cpu_frequency, thermal and oom_score_adj at
 * the trace start (read before the workload, and any change after tracing on is an event of
 * its own), cpu_idle at the marker's time: it is written from that CPU, which is therefore
 * running (state 4294967295, PWR_EVENT_EXIT) at that instant.
 */

static int read_long(const char *path, long long *v)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%lld", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

static int read_word(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return n ? 0 : -1;
}

static int cpu_online(int cpu)
{
	char path[128];
	long long v;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	if (!read_long(path, &v))
		return v == 1;
	/* no online file (CPU 0 often, or no hotplug): online when it exists */
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	return !access(path, F_OK);
}

static int cpufreq(struct tracefs_instance *inst, int ncpus, struct strbuf *notes)
{
	int n = 0;

	for (int cpu = 0; cpu < ncpus; cpu++) {
		char path[128];
		long long khz;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
		if (read_long(path, &khz))
			continue;
		if (tracefs_printf(inst, "trax: initial cpu_frequency cpu_id=%d state=%lld\n", cpu,
				   khz) >= 0)
			n++;
	}
	if (!n)
		strbuf_addf(notes, "%sno cpufreq in sysfs: cpu_frequency is unknown until its "
			    "first event", notes->len ? "\n" : "");
	return n;
}

static int cpuidle(struct tracefs_instance *inst, int ncpus)
{
	cpu_set_t old, one;
	int n = 0;

	if (sched_getaffinity(0, sizeof(old), &old))
		return 0;
	for (int cpu = 0; cpu < ncpus && cpu < CPU_SETSIZE; cpu++) {
		if (!cpu_online(cpu))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		/* sched_setaffinity() on ourselves migrates before it returns */
		if (sched_setaffinity(0, sizeof(one), &one) || sched_getcpu() != cpu)
			continue;
		if (tracefs_printf(inst, "trax: initial cpu_idle cpu_id=%d state=4294967295\n",
				   cpu) >= 0)
			n++;
	}
	sched_setaffinity(0, sizeof(old), &old);
	return n;
}

static int thermal(struct tracefs_instance *inst)
{
	DIR *d = opendir("/sys/class/thermal");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[512], type[128];
		long long temp;
		int id;

		if (sscanf(e->d_name, "thermal_zone%d", &id) != 1)
			continue;
		snprintf(path, sizeof(path), "/sys/class/thermal/%s/temp", e->d_name);
		if (read_long(path, &temp))
			continue;
		snprintf(path, sizeof(path), "/sys/class/thermal/%s/type", e->d_name);
		if (read_word(path, type, sizeof(type)))
			snprintf(type, sizeof(type), "thermal_zone%d", id);
		if (tracefs_printf(inst, "trax: initial thermal_temperature id=%d temp=%lld "
				   "thermal_zone=%s\n", id, temp, type) >= 0)
			n++;
	}
	closedir(d);
	return n;
}

static int oom_adj(struct tracefs_instance *inst, pid_t pid)
{
	char path[64];
	long long adj;

	snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", (int)pid);
	if (read_long(path, &adj))
		return 0;
	return tracefs_printf(inst, "trax: initial oom_score_adj_update pid=%d "
			      "oom_score_adj=%lld\n", (int)pid, adj) >= 0;
}

/* Every thread of /proc: its tgid and name. */
static int tasks(struct tracefs_instance *inst)
{
	DIR *procs = opendir("/proc");
	struct dirent *p;
	int n = 0;

	if (!procs)
		return 0;
	while ((p = readdir(procs))) {
		char path[300], comm[64];
		struct dirent *t;
		DIR *threads;
		int tgid = atoi(p->d_name);

		if (tgid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", tgid);
		threads = opendir(path);
		if (!threads)
			continue;	/* exited meanwhile */
		while ((t = readdir(threads))) {
			int pid = atoi(t->d_name);

			if (pid <= 0)
				continue;
			snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", tgid, pid);
			if (read_word(path, comm, sizeof(comm)))
				continue;
			if (tracefs_printf(inst, "trax: initial task pid=%d tgid=%d comm=%s\n", pid,
					   tgid, comm) >= 0)
				n++;
		}
		closedir(threads);
	}
	closedir(procs);
	return n;
}

int state_write_initial(struct tracefs_instance *inst, const struct ev_list *ev, int ncpus,
			pid_t workload, struct strbuf *notes)
{
	int n = 0;

	if (ev_list_has(ev, "power", "cpu_frequency"))
		n += cpufreq(inst, ncpus, notes);
	if (ev_list_has(ev, "power", "cpu_idle"))
		n += cpuidle(inst, ncpus);
	if (ev_list_has(ev, "thermal", "thermal_temperature"))
		n += thermal(inst);
	if (workload > 0 && ev_list_has(ev, "oom", "oom_score_adj_update"))
		n += oom_adj(inst, workload);
	if (ev_list_has(ev, "sched", "sched_switch"))
		n += tasks(inst);
	return n;
}

static int emit_marker(void *ctx, const char *line)
{
	return tracefs_printf(ctx, "%s\n", line) < 0 ? -1 : 0;
}

int state_write_facts(struct tracefs_instance *inst, const char *sysfs)
{
	struct trax_facts f;
	int n;

	trax_facts_read(sysfs, NULL, &f);
	n = trax_facts_write(&f, emit_marker, inst);
	trax_facts_release(&f);
	return n;
}
