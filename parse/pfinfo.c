/* parse/pfinfo.c: a Perfetto trace's process data, system info, stats and clock snapshots. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/perfetto-fields.h"
#include "parse/pfinfo.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Per CPU, ftrace_stats' counts: [0] overruns (and commit overruns), [1] dropped events. */
struct pfinfo_cpu {
	uint64_t start[2], end[2];
	uint8_t has_start, has_end;
};

enum { TS_OVERWRITTEN, TS_DISCARDED, TS_PACKET_LOSS, TS_PATCHES, TS_INVALID, TS_COUNT };
static const char *const ts_keys[TS_COUNT] = {
	"chunks_overwritten", "chunks_discarded", "packet_loss", "patches_discarded",
	"invalid_packets",
};

enum { CK_REALTIME, CK_MONOTONIC, CK_MONOTONIC_RAW, CK_COUNT };
static const struct {
	uint32_t id;
	const char *key;
} clocks[CK_COUNT] = {
	{ PF_CLK_REALTIME, "clock.boot_to_realtime_ns" },
	{ PF_CLK_MONOTONIC, "clock.boot_to_monotonic_ns" },
	{ PF_CLK_MONOTONIC_RAW, "clock.boot_to_monotonic_raw_ns" },
};

struct pfinfo {
	struct loader *L;
	int sysinfo;
	char uts[4][128];		/* sysname, release, version, machine */
	char fingerprint[256];
	int64_t hz, sdk;
	struct pfinfo_cpu *cpu;
	int ncpu, cpucap;
	int tstats;
	uint64_t ts[TS_COUNT];		/* the last trace_stats */
	int snapshots, primary;
	int has_off[CK_COUNT];
	int64_t off[CK_COUNT];
	uint64_t tasks;
	/* cpu_info: per CPU, its capacity (-1 none) and frequencies as "f1,f2,..." */
	int cpuinfo, ninfo;
	struct pfinfo_cpuinfo { int64_t capacity; char *freqs; } *info;
	int infocap;
};

struct pfinfo *pfinfo_alloc(struct loader *L)
{
	struct pfinfo *I = xcalloc(1, sizeof(*I));

	I->L = L;
	I->primary = -1;
	return I;
}

void pfinfo_free(struct pfinfo *I)
{
	if (!I)
		return;
	for (int i = 0; i < I->ninfo; i++)
		free(I->info[i].freqs);
	free(I->info);
	free(I->cpu);
	free(I);
}

int pfinfo_kind(uint32_t num)
{
	switch (num) {
	case PF_PACKET_process_tree:
	case PF_PACKET_process_descriptor:
	case PF_PACKET_thread_descriptor:
	case PF_PACKET_track_descriptor:
	case PF_PACKET_system_info:
	case PF_PACKET_ftrace_stats:
	case PF_PACKET_trace_stats:
	case PF_PACKET_clock_snapshot:
	case PF_PACKET_cpu_info:
		return 1;
	}
	return 0;
}

/* The walk of one message: an error leaves the cursor and the message's name for the caller. */
struct walk {
	struct pb_cursor *bad;
	const char **what;
};

static int fail(const struct walk *w, const struct pb_cursor *c, const char *what)
{
	*w->bad = *c;
	*w->what = what;
	return -c->err;
}

/* Field f of c must have wire type t. */
#define WANT(w, c, f, t, what)                                                  \
	do {                                                                    \
		if (pb_expect((c), (f), (t)))                                   \
			return fail((w), (c), (what));                          \
	} while (0)

static void copy_str(char *dst, size_t n, const struct pb_field *f)
{
	snprintf(dst, n, "%.*s", (int)(f->len < n ? f->len : n - 1), (const char *)f->data);
}

/* The name a command line gives its process's main thread: its program's file name. */
static void cmdline_name(char *dst, size_t n, const struct pb_field *f)
{
	const char *p = (const char *)f->data, *end = p + f->len, *s = p;

	for (const char *q = p; q < end; q++)
		if (*q == '/' && q + 1 < end)
			s = q + 1;
	snprintf(dst, n, "%.*s", (int)((size_t)(end - s) < n ? (size_t)(end - s) : n - 1), s);
}

/* A ProcessDescriptor or ProcessTree.Process: its pid and main thread's name (from
 * process_name, else the command line's program). */
static int process(struct pfinfo *I, const struct walk *w, struct pb_cursor *pc,
		   const struct pb_field *pf, int tree)
{
	struct pb_cursor c;
	struct pb_field f;
	char name[64] = "", from_cmd[64] = "";
	int64_t pid = -1;
	int r, ncmd = 0;
	const char *what = tree ? "a process_tree process" : "a process descriptor";
	uint32_t cmd = tree ? PF_PTREE_PROC_CMDLINE : PF_PDESC_CMDLINE;

	pb_sub(pc, pf, &c);
	while ((r = pb_next(&c, &f)) > 0) {
		if (f.num == PF_PDESC_PID) {	/* Process.pid is the same number */
			WANT(w, &c, &f, PB_VARINT, what);
			pid = (int32_t)(uint32_t)f.val;
		} else if (f.num == cmd) {
			WANT(w, &c, &f, PB_LEN, what);
			if (!ncmd++)
				cmdline_name(from_cmd, sizeof(from_cmd), &f);
		} else if (!tree && f.num == PF_PDESC_PROCESS_NAME) {
			WANT(w, &c, &f, PB_LEN, what);
			copy_str(name, sizeof(name), &f);
		}
	}
	if (r < 0)
		return fail(w, &c, what);
	if (pid > 0) {
		ld_task(I->L, (int)pid, (int)pid, name[0] ? name : from_cmd[0] ? from_cmd : NULL,
			-1);
		I->tasks++;
	}
	return 0;
}

/* A ThreadDescriptor or ProcessTree.Thread: its tid, process and name. */
static int thread(struct pfinfo *I, const struct walk *w, struct pb_cursor *pc,
		  const struct pb_field *tf, int tree)
{
	struct pb_cursor c;
	struct pb_field f;
	char name[64] = "";
	int64_t tid = -1, tgid = 0;
	int r;
	const char *what = tree ? "a process_tree thread" : "a thread descriptor";
	uint32_t n_tid = tree ? PF_PTREE_THREAD_TID : PF_TDESC_TID;
	uint32_t n_tgid = tree ? PF_PTREE_THREAD_TGID : PF_TDESC_PID;
	uint32_t n_name = tree ? PF_PTREE_THREAD_NAME : PF_TDESC_THREAD_NAME;

	pb_sub(pc, tf, &c);
	while ((r = pb_next(&c, &f)) > 0) {
		if (f.num == n_tid) {
			WANT(w, &c, &f, PB_VARINT, what);
			tid = (int32_t)(uint32_t)f.val;
		} else if (f.num == n_tgid) {
			WANT(w, &c, &f, PB_VARINT, what);
			tgid = (int32_t)(uint32_t)f.val;
		} else if (f.num == n_name) {
			WANT(w, &c, &f, PB_LEN, what);
			copy_str(name, sizeof(name), &f);
		}
	}
	if (r < 0)
		return fail(w, &c, what);
	if (tid > 0) {
		ld_task(I->L, (int)tid, tgid > 0 ? (int)tgid : 0, name[0] ? name : NULL, -1);
		I->tasks++;
	}
	return 0;
}

/* process_tree: its threads first (their names are the kernel's), then its processes. */
static int process_tree(struct pfinfo *I, const struct walk *w, struct pb_cursor *c)
{
	for (int pass = 0; pass < 2; pass++) {
		struct pb_cursor cc = *c;
		struct pb_field f;
		int r;

		while ((r = pb_next(&cc, &f)) > 0) {
			if (f.num != (pass ? PF_PTREE_PROCESSES : PF_PTREE_THREADS))
				continue;
			WANT(w, &cc, &f, PB_LEN, "a process_tree");
			r = pass ? process(I, w, &cc, &f, 1) : thread(I, w, &cc, &f, 1);
			if (r < 0)
				return r;
		}
		if (r < 0)
			return fail(w, &cc, "a process_tree");
	}
	return 0;
}

static int track_descriptor(struct pfinfo *I, const struct walk *w, struct pb_cursor *c)
{
	struct pb_field f;
	int r;

	while ((r = pb_next(c, &f)) > 0) {
		if (f.num == PF_TRACK_PROCESS) {
			WANT(w, c, &f, PB_LEN, "a track descriptor");
			if ((r = process(I, w, c, &f, 0)) < 0)
				return r;
		} else if (f.num == PF_TRACK_THREAD) {
			WANT(w, c, &f, PB_LEN, "a track descriptor");
			if ((r = thread(I, w, c, &f, 0)) < 0)
				return r;
		}
	}
	return r < 0 ? fail(w, c, "a track descriptor") : 0;
}

static int system_info(struct pfinfo *I, const struct walk *w, struct pb_cursor *c)
{
	static const uint32_t uts[4] = { PF_UTS_SYSNAME, PF_UTS_RELEASE, PF_UTS_VERSION,
					 PF_UTS_MACHINE };
	struct pb_cursor u;
	struct pb_field f, g;
	int r;

	I->sysinfo = 1;
	while ((r = pb_next(c, &f)) > 0) {
		switch (f.num) {
		case PF_SYSINFO_UTSNAME:
			WANT(w, c, &f, PB_LEN, "a system_info");
			pb_sub(c, &f, &u);
			while ((r = pb_next(&u, &g)) > 0)
				for (int i = 0; i < 4; i++)
					if (g.num == uts[i]) {
						WANT(w, &u, &g, PB_LEN, "a system_info utsname");
						copy_str(I->uts[i], sizeof(I->uts[i]), &g);
					}
			if (r < 0)
				return fail(w, &u, "a system_info utsname");
			break;
		case PF_SYSINFO_FINGERPRINT:
			WANT(w, c, &f, PB_LEN, "a system_info");
			copy_str(I->fingerprint, sizeof(I->fingerprint), &f);
			break;
		case PF_SYSINFO_HZ:
			WANT(w, c, &f, PB_VARINT, "a system_info");
			I->hz = (int64_t)f.val;
			break;
		case PF_SYSINFO_SDK:
			WANT(w, c, &f, PB_VARINT, "a system_info");
			I->sdk = (int64_t)f.val;
			break;
		}
	}
	return r < 0 ? fail(w, c, "a system_info") : 0;
}

/* One CpuInfo.Cpu: its frequencies (packed or not) and capacity. */
static int cpu_info_cpu(struct pfinfo *I, const struct walk *w, struct pb_cursor *c)
{
	struct pfinfo_cpuinfo *ci;
	struct strbuf sb = STRBUF_INIT;
	struct pb_cursor p;
	struct pb_field f;
	uint64_t v;
	int r;

	TRAX_GROW(I->info, I->ninfo, I->infocap, 8);
	ci = &I->info[I->ninfo++];
	ci->capacity = -1;
	ci->freqs = NULL;
	while ((r = pb_next(c, &f)) > 0) {
		if (f.num == PF_CPU_CAPACITY) {
			WANT(w, c, &f, PB_VARINT, "a cpu_info cpu");
			ci->capacity = (int64_t)(uint32_t)f.val;
		} else if (f.num == PF_CPU_FREQUENCIES && f.wire == PB_VARINT) {
			strbuf_addf(&sb, "%s%u", sb.len ? "," : "", (uint32_t)f.val);
		} else if (f.num == PF_CPU_FREQUENCIES) {
			WANT(w, c, &f, PB_LEN, "a cpu_info cpu");
			pb_sub(c, &f, &p);
			while (!pb_at_end(&p)) {
				if (pb_read_varint(&p, &v)) {
					strbuf_release(&sb);
					return fail(w, &p, "a cpu_info cpu's frequencies");
				}
				strbuf_addf(&sb, "%s%u", sb.len ? "," : "", (uint32_t)v);
			}
		}
	}
	if (sb.len)
		ci->freqs = strbuf_detach(&sb);
	strbuf_release(&sb);
	return r < 0 ? fail(w, c, "a cpu_info cpu") : 0;
}

/* cpu_info: the CPUs in order; a later packet replaces an earlier one. */
static int cpu_info(struct pfinfo *I, const struct walk *w, struct pb_cursor *c)
{
	struct pb_cursor u;
	struct pb_field f;
	int r;

	for (int i = 0; i < I->ninfo; i++)
		free(I->info[i].freqs);
	I->ninfo = 0;
	I->cpuinfo = 1;
	while ((r = pb_next(c, &f)) > 0) {
		if (f.num != PF_CPUINFO_CPUS)
			continue;
		WANT(w, c, &f, PB_LEN, "a cpu_info");
		pb_sub(c, &f, &u);
		if ((r = cpu_info_cpu(I, w, &u)) < 0)
			return r;
	}
	return r < 0 ? fail(w, c, "a cpu_info") : 0;
}

static struct pfinfo_cpu *cpu_get(struct pfinfo *I, uint64_t cpu)
{
	if (cpu >= 8192)
		return NULL;
	while ((int)cpu >= I->ncpu) {
		TRAX_GROW(I->cpu, I->ncpu, I->cpucap, 16);
		memset(&I->cpu[I->ncpu++], 0, sizeof(*I->cpu));
	}
	return &I->cpu[cpu];
}

/*
 * ftrace_stats: per CPU at the start and at the end of the trace. The losses during the trace
 * are the end's counts less the start's (a ring buffer's counts run from its creation); of
 * several data sources' stats, the earliest start and the latest end.
 */
static int ftrace_stats(struct pfinfo *I, const struct walk *w, struct pb_cursor *c)
{
	struct pb_cursor cc = *c, s;
	struct pb_field f, g;
	uint64_t phase = 0;
	int r;

	while ((r = pb_next(&cc, &f)) > 0)
		if (f.num == PF_FSTATS_PHASE) {
			WANT(w, &cc, &f, PB_VARINT, "an ftrace_stats");
			phase = f.val;
		}
	if (r < 0)
		return fail(w, &cc, "an ftrace_stats");
	if (phase != PF_FSTATS_START && phase != PF_FSTATS_END)
		return 0;
	while ((r = pb_next(c, &f)) > 0) {
		uint64_t cpu = 0, v[2] = { 0, 0 };
		struct pfinfo_cpu *p;

		if (f.num != PF_FSTATS_CPU_STATS)
			continue;
		WANT(w, c, &f, PB_LEN, "an ftrace_stats");
		pb_sub(c, &f, &s);
		while ((r = pb_next(&s, &g)) > 0) {
			if (g.num != PF_FCPU_CPU && g.num != PF_FCPU_OVERRUN &&
			    g.num != PF_FCPU_COMMIT_OVERRUN && g.num != PF_FCPU_DROPPED_EVENTS)
				continue;
			WANT(w, &s, &g, PB_VARINT, "an ftrace_stats cpu_stats");
			if (g.num == PF_FCPU_CPU)
				cpu = g.val;
			else if (g.num == PF_FCPU_DROPPED_EVENTS)
				v[1] += g.val;
			else
				v[0] += g.val;
		}
		if (r < 0)
			return fail(w, &s, "an ftrace_stats cpu_stats");
		if (!(p = cpu_get(I, cpu)))
			continue;
		for (int i = 0; i < 2; i++) {
			if (phase == PF_FSTATS_START && (!p->has_start || v[i] < p->start[i]))
				p->start[i] = v[i];
			if (phase == PF_FSTATS_END && (!p->has_end || v[i] > p->end[i]))
				p->end[i] = v[i];
		}
		if (phase == PF_FSTATS_START)
			p->has_start = 1;
		else
			p->has_end = 1;
	}
	return r < 0 ? fail(w, c, "an ftrace_stats") : 0;
}

/* trace_stats: the service's counts so far; the last packet's are the trace's. */
static int trace_stats(struct pfinfo *I, const struct walk *w, struct pb_cursor *c)
{
	struct pb_cursor b;
	struct pb_field f, g;
	uint64_t v[TS_COUNT] = { 0 };
	int r;

	while ((r = pb_next(c, &f)) > 0) {
		switch (f.num) {
		case PF_TSTATS_BUFFER_STATS:
			WANT(w, c, &f, PB_LEN, "a trace_stats");
			pb_sub(c, &f, &b);
			while ((r = pb_next(&b, &g)) > 0) {
				int k = g.num == PF_BSTATS_CHUNKS_OVERWRITTEN ? TS_OVERWRITTEN :
					g.num == PF_BSTATS_CHUNKS_DISCARDED ? TS_DISCARDED :
					g.num == PF_BSTATS_PACKET_LOSS ? TS_PACKET_LOSS : -1;

				if (k < 0)
					continue;
				WANT(w, &b, &g, PB_VARINT, "a trace_stats buffer_stats");
				v[k] += g.val;
			}
			if (r < 0)
				return fail(w, &b, "a trace_stats buffer_stats");
			break;
		case PF_TSTATS_CHUNKS_DISCARDED:
		case PF_TSTATS_PATCHES_DISCARDED:
		case PF_TSTATS_INVALID_PACKETS:
			WANT(w, c, &f, PB_VARINT, "a trace_stats");
			v[f.num == PF_TSTATS_CHUNKS_DISCARDED ? TS_DISCARDED :
			  f.num == PF_TSTATS_PATCHES_DISCARDED ? TS_PATCHES : TS_INVALID] += f.val;
			break;
		}
	}
	if (r < 0)
		return fail(w, c, "a trace_stats");
	memcpy(I->ts, v, sizeof(v));
	I->tstats = 1;
	return 0;
}

/* clock_snapshot: the first snapshot's offsets from the boot clock to the other clocks. */
static int clock_snapshot(struct pfinfo *I, const struct walk *w, struct pb_cursor *c)
{
	struct pb_cursor k;
	struct pb_field f, g;
	uint64_t ts[CK_COUNT] = { 0 }, boot = 0;
	int have[CK_COUNT] = { 0 }, have_boot = 0, r;

	while ((r = pb_next(c, &f)) > 0) {
		if (f.num == PF_CSNAP_PRIMARY) {
			WANT(w, c, &f, PB_VARINT, "a clock_snapshot");
			I->primary = (int)f.val;
			continue;
		}
		if (f.num != PF_CSNAP_CLOCKS)
			continue;
		WANT(w, c, &f, PB_LEN, "a clock_snapshot");
		uint64_t id = 0, t = 0;

		pb_sub(c, &f, &k);
		while ((r = pb_next(&k, &g)) > 0) {
			if (g.num != PF_CLOCK_ID && g.num != PF_CLOCK_TIMESTAMP)
				continue;
			WANT(w, &k, &g, PB_VARINT, "a clock_snapshot clock");
			if (g.num == PF_CLOCK_ID)
				id = g.val;
			else
				t = g.val;
		}
		if (r < 0)
			return fail(w, &k, "a clock_snapshot clock");
		if (id == PF_CLK_BOOTTIME) {
			boot = t;
			have_boot = 1;
		}
		for (int i = 0; i < CK_COUNT; i++)
			if (id == clocks[i].id) {
				ts[i] = t;
				have[i] = 1;
			}
	}
	if (r < 0)
		return fail(w, c, "a clock_snapshot");
	if (!I->snapshots++ && have_boot)
		for (int i = 0; i < CK_COUNT; i++)
			if (have[i]) {
				I->off[i] = (int64_t)(ts[i] - boot);
				I->has_off[i] = 1;
			}
	return 0;
}

int pfinfo_packet(struct pfinfo *I, const struct pb_cursor *pc, const struct pb_field *f,
		  struct pb_cursor *bad, const char **what)
{
	struct walk w = { bad, what };
	struct pb_cursor c;

	if (pb_expect((struct pb_cursor *)pc, f, PB_LEN)) {
		*bad = *pc;
		*what = "a packet's data";
		return -PB_E_TYPE;
	}
	pb_sub(pc, f, &c);
	switch (f->num) {
	case PF_PACKET_process_tree:
		return process_tree(I, &w, &c);
	case PF_PACKET_process_descriptor:
		return process(I, &w, (struct pb_cursor *)pc, f, 0);
	case PF_PACKET_thread_descriptor:
		return thread(I, &w, (struct pb_cursor *)pc, f, 0);
	case PF_PACKET_track_descriptor:
		return track_descriptor(I, &w, &c);
	case PF_PACKET_system_info:
		return system_info(I, &w, &c);
	case PF_PACKET_ftrace_stats:
		return ftrace_stats(I, &w, &c);
	case PF_PACKET_trace_stats:
		return trace_stats(I, &w, &c);
	case PF_PACKET_clock_snapshot:
		return clock_snapshot(I, &w, &c);
	case PF_PACKET_cpu_info:
		return cpu_info(I, &w, &c);
	}
	return 0;
}

int pfinfo_clock_offset(const struct pfinfo *I, uint32_t clock_id, int64_t *off)
{
	if (clock_id == PF_CLK_BOOTTIME) {
		*off = 0;
		return 1;
	}
	for (int i = 0; i < CK_COUNT; i++)
		if (clocks[i].id == clock_id && I->has_off[i]) {
			*off = I->off[i];
			return 1;
		}
	return 0;
}

uint32_t pfinfo_primary_clock(const struct pfinfo *I)
{
	return I->primary > 0 ? (uint32_t)I->primary : PF_CLK_BOOTTIME;
}

int64_t pfinfo_lost(const struct pfinfo *I, int cpu)
{
	const struct pfinfo_cpu *p;

	if (cpu < 0 || cpu >= I->ncpu)
		return -1;
	p = &I->cpu[cpu];
	if (!p->has_start || !p->has_end)
		return -1;
	return (int64_t)((p->end[0] > p->start[0] ? p->end[0] - p->start[0] : 0) +
			 (p->end[1] > p->start[1] ? p->end[1] - p->start[1] : 0));
}

/*
 * The prev_state numbering of a kernel release (doc/db.md, prev_state numberings): 4.14 on,
 * or before with its preempted flag (TASK_STATE_MAX: 512 to 3.8, 1024 to 4.1, 2048 to 4.7
 * (TASK_NOLOAD), 4096 to 4.13 (TASK_NEW)). 0 when the release is not "MAJOR.MINOR...".
 */
static int release_numbering(const char *rel, int *numbering, int64_t *preempt)
{
	int major, minor;

	if (sscanf(rel, "%d.%d", &major, &minor) != 2)
		return 0;
	if (major > 4 || (major == 4 && minor >= 14)) {
		*numbering = LD_STATE_414;
		*preempt = 0;
		return 1;
	}
	*numbering = LD_STATE_PRE414;
	*preempt = major < 3 || (major == 3 && minor < 9) ? 512 :
		   major == 3 || minor < 2 ? 1024 : minor < 8 ? 2048 : 4096;
	return 1;
}

void pfinfo_finish(struct pfinfo *I)
{
	struct loader *L = I->L;
	int numbering = LD_STATE_414;
	int64_t preempt = 0;

	if (I->uts[0][0] || I->uts[1][0])
		ld_meta(L, "kernel", "%s %s %s %s", I->uts[0], I->uts[1], I->uts[2], I->uts[3]);
	if (I->uts[1][0])
		ld_meta(L, "kernel.release", "%s", I->uts[1]);
	/* the target's facts, under the keys of trax collect's markers (doc/db.md) */
	if (I->uts[1][0])
		ld_meta(L, "target.kernel", "%s", I->uts[1]);
	if (I->cpuinfo)
		ld_meta(L, "target.ncpus", "%d", I->ninfo);
	for (int c = 0; c < I->ninfo; c++) {
		char key[64];

		if (I->info[c].capacity >= 0) {
			snprintf(key, sizeof(key), "cpu.%d.capacity", c);
			ld_meta(L, key, "%lld", (long long)I->info[c].capacity);
		}
		if (I->info[c].freqs) {
			snprintf(key, sizeof(key), "cpu.%d.freqs", c);
			ld_meta(L, key, "%s", I->info[c].freqs);
		}
	}
	if (I->fingerprint[0])
		ld_meta(L, "android.build_fingerprint", "%s", I->fingerprint);
	if (I->sdk)
		ld_meta(L, "android.sdk_version", "%lld", (long long)I->sdk);
	if (I->hz)
		ld_meta(L, "kernel.hz", "%lld", (long long)I->hz);
	if (I->uts[1][0] && release_numbering(I->uts[1], &numbering, &preempt)) {
		ld_set_state_numbering(L, numbering, preempt);
		ld_meta(L, "sched.prev_state_numbering", "%s", ld_state_numbering_name(numbering));
		ld_meta(L, "sched.prev_state_numbering.reason", "the kernel release in the "
			"trace's system_info (%s)", I->uts[1]);
		if (numbering == LD_STATE_PRE414)
			ld_meta(L, "sched.prev_state_preempted", "%lld", (long long)preempt);
	} else {
		ld_meta(L, "sched.prev_state_numbering", "%s", ld_state_numbering_name(numbering));
		ld_meta(L, "sched.prev_state_numbering.reason", "no kernel release in the trace "
			"(system_info): the default");
	}
	for (int c = 0; c < I->ncpu; c++) {
		const struct pfinfo_cpu *p = &I->cpu[c];
		char key[64];

		if (!p->has_end)
			continue;
		snprintf(key, sizeof(key), "cpu.%d.overrun", c);
		ld_meta(L, key, "%llu", (unsigned long long)(p->end[0] - (p->has_start &&
			p->start[0] <= p->end[0] ? p->start[0] : 0)));
		snprintf(key, sizeof(key), "cpu.%d.dropped_events", c);
		ld_meta(L, key, "%llu", (unsigned long long)(p->end[1] - (p->has_start &&
			p->start[1] <= p->end[1] ? p->start[1] : 0)));
	}
	if (I->tstats)
		for (int i = 0; i < TS_COUNT; i++) {
			char key[64];

			snprintf(key, sizeof(key), "perfetto.trace_stats.%s", ts_keys[i]);
			ld_meta(L, key, "%llu", (unsigned long long)I->ts[i]);
		}
	ld_meta(L, "perfetto.clock_snapshots", "%d", I->snapshots);
	if (I->primary >= 0)
		ld_meta(L, "perfetto.clock.primary", "%d", I->primary);
	for (int i = 0; i < CK_COUNT; i++)
		if (I->has_off[i])
			ld_meta(L, clocks[i].key, "%lld", (long long)I->off[i]);
	ld_meta(L, "perfetto.tasks", "%llu", (unsigned long long)I->tasks);
}
