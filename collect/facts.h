/* collect/facts.h: the target's facts (kernel, CPUs, capacities, clusters, frequencies, idle
 * states), read from sysfs and written as "trax: target ..." trace markers. */
#ifndef TRAX_COLLECT_FACTS_H
#define TRAX_COLLECT_FACTS_H

#include <stdio.h>

/*
 * What the machine says about its CPUs, for rules that name "little", "big" or "cluster0"
 * without a topology of their own (doc/rules.md). Every fact is optional: a kernel without
 * cpufreq, energy model or cpuidle leaves the fields unset (-1, "" or empty lists); reading
 * never fails for a missing file.
 *
 * The markers (doc/db.md, "Target facts"): one for the machine, then one or more per CPU, each
 * a space-separated list of key=value, a value never holding a space, ',' separating list items:
 *
 *   trax: target kernel=6.1.0-18-arm64 ncpus=6 cpus_possible=0-5 cpus_online=0-5
 *   trax: target cpu=1 online=1 capacity=1024 cluster=0 freq_domain=1-2 min_freq=450000
 *        max_freq=1100000 freqs=450000,625000,800000,950000,1100000
 *        idle_states=WFI:1:1,cpu-sleep-0:100:300,cluster-sleep-0:1000:2000
 *
 * (one line each; wrapped here). A key is absent when its fact is: the loader (parse/facts.c)
 * stores each key as meta target.KEY, or cpu.N.KEY for a CPU's marker; a key it does not know
 * is stored the same way, so that new keys need no new loader. A CPU's facts may span several
 * markers of the same cpu= (a marker holds at most TRAX_FACTS_MARKER_MAX bytes: older kernels
 * cut trace_marker writes at 1 KiB).
 */

#define TRAX_FACTS_MARKER_MAX 1000

struct trax_idle_state {
	char name[48];			/* cpuidle/stateN/name, ' ', ',', ':', '=' made '_' */
	long long latency_us;		/* exit latency, -1: unknown */
	long long residency_us;		/* target residency, -1: unknown */
};

struct trax_cpu_facts {
	int cpu;
	int online;			/* 1, 0, or -1: the kernel does not say */
	long long capacity;		/* cpu_capacity, -1: none */
	long long cluster;		/* topology/cluster_id, else physical_package_id; -1 */
	char freq_domain[256];		/* cpufreq/related_cpus as a range list ("0,3-5"), or "" */
	long long min_khz, max_khz;	/* cpufreq/cpuinfo_{min,max}_freq, -1: none */
	long long *freqs;		/* scaling_available_frequencies (kHz), as listed */
	int nfreqs;
	struct trax_idle_state *idle;	/* cpuidle/state0.. in order */
	int nidle;
};

struct trax_facts {
	char kernel[128];		/* the release ("6.1.0-18-arm64"), "" when unknown */
	char possible[256];		/* devices/system/cpu/possible, "" when absent */
	char online[256];		/* devices/system/cpu/online, "" when absent */
	int ncpus;			/* CPUs described: the cpuN dirs, else those of possible */
	struct trax_cpu_facts *cpus;	/* [ncpus], by CPU number */
};

/*
 * Read the facts under sysfs (the root of a sysfs tree; NULL: "/sys"). kernel is the release to
 * record (NULL: this machine's, from uname()). Returns 0 with *f filled (release with
 * trax_facts_release()); it does not fail for missing files: a tree without CPUs gives
 * ncpus 0.
 */
int trax_facts_read(const char *sysfs, const char *kernel, struct trax_facts *f);
void trax_facts_release(struct trax_facts *f);

/*
 * Write f as markers: emit(ctx, line) once per marker, line without the newline (at most
 * TRAX_FACTS_MARKER_MAX bytes). Returns the number of markers, or the first negative value
 * emit returned.
 */
int trax_facts_write(const struct trax_facts *f, int (*emit)(void *ctx, const char *line),
		     void *ctx);

/* The same onto a stream, one marker a line (tests, debugging). Returns as above. */
int trax_facts_write_file(const struct trax_facts *f, FILE *out);

#endif
