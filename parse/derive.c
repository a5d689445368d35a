/* parse/derive.c: threads, sched_slice, thread_state and counter tracks, built while loading. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/facts.h"
#include "parse/initial.h"
#include "parse/android.h"
#include "parse/schema.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define COMM_MAX 64
#define CLONE_THREAD_FLAG 0x00010000

/* The two events of one birth: task_newtask (in copy_process) and sched_process_fork. */
#define BORN_NEWTASK 1
#define BORN_FORK 2

/* A thread's scheduling state in one buffer. */
struct tstate {
	const char *state;	/* "Running", "R", "R+", "S", "D", ... or NULL: unknown */
	uint64_t since;
	int cpu;
	int waker;		/* utid, -1 none */
	/* evidence for a switch-in that was not recorded (see on_switch) */
	uint64_t arrive_ts;	/* the last wakeup or migration that put it on arrive_cpu */
	int arrive_cpu;		/* -1: none */
	uint64_t out_ts;	/* its last switch-out, on any CPU */
};

struct thr {
	int pid;
	int tgid;		/* -1: unknown */
	char comm[COMM_MAX];	/* current name, "" before any */
	uint64_t start_ts, end_ts;
	unsigned named:1;	/* comm came from an event */
	unsigned dead:1;	/* dead: the pid's next appearance is a new thread */
	unsigned exiting:1;	/* sched_process_exit seen (it may still block and run) */
	unsigned born:2;	/* the birth events seen of this lifetime (BORN_*) */
	char *fallback;		/* reader's name for the pid (cmdlines), used if never named */
	struct tstate *st;	/* [nbuffers] */
};

struct cpustate {
	int utid;		/* running thread, -1: unknown (before the first switch) */
	int pid, prio;
	uint64_t start;
	int clipped;		/* 1: cut by the trace start, 2: by the trace end, 4: spans lost
				 * events, 8: bounded from evidence (a switch not recorded) */
	uint64_t unseen;	/* switch-outs of tasks never seen switched in on this CPU */
};

struct track {
	char *key;
	char *name, *kind, *zone, *unit;
	int cpu, utid, buffer;
};

struct derive {
	struct loader *L;
	struct dbw *w;
	int slice_stmt, state_stmt, comm_stmt, counter_stmt, anomaly_stmt;
	uint64_t rows;

	struct thr *threads;
	int nthreads, cthreads;
	/* pid -> current utid, open addressing */
	int *map_pid, *map_utid;
	size_t map_cap, map_used;

	int nbuffers, ncpus;
	struct cpustate *cpus;	/* [buffer * ncpus + cpu] */
	const uint64_t *first;	/* per (buffer, cpu) first record ts */
	int started;

	struct track *tracks;
	int ntracks, ctracks;
	int *track_hash;
	size_t track_cap;

	struct android *android;	/* Android derived tables (android.c) */

	/* "trax: initial task" markers of threads not yet seen: applied at their first sighting */
	struct pending_task { int pid, tgid; char comm[COMM_MAX]; } *pending;
	int npending, cpending;
};

struct derive *derive_alloc(struct loader *L, struct dbw *w)
{
	struct derive *d = xcalloc(1, sizeof(*d));

	d->L = L;
	d->w = w;
	d->slice_stmt = schema_insert(w, SCHEMA_SCHED_SLICE, DBW_CAT_DERIVED);
	d->state_stmt = schema_insert(w, SCHEMA_THREAD_STATE, DBW_CAT_DERIVED);
	d->comm_stmt = schema_insert(w, SCHEMA_THREAD_COMM, DBW_CAT_DERIVED);
	d->counter_stmt = schema_insert(w, SCHEMA_COUNTER, DBW_CAT_DERIVED);
	d->anomaly_stmt = schema_insert(w, SCHEMA_ANOMALY, DBW_CAT_DERIVED);
	d->map_cap = 1024;
	d->map_pid = xcalloc(d->map_cap, sizeof(int));
	d->map_utid = xcalloc(d->map_cap, sizeof(int));
	for (size_t i = 0; i < d->map_cap; i++)
		d->map_pid[i] = -1;
	d->track_cap = 64;
	d->track_hash = xcalloc(d->track_cap, sizeof(int));
	for (size_t i = 0; i < d->track_cap; i++)
		d->track_hash[i] = -1;
	d->nbuffers = 1;
	return d;
}

void derive_free(struct derive *d)
{
	if (!d)
		return;
	android_free(d->android);
	for (int i = 0; i < d->nthreads; i++) {
		free(d->threads[i].st);
		free(d->threads[i].fallback);
	}
	free(d->threads);
	free(d->map_pid);
	free(d->map_utid);
	free(d->cpus);
	for (int i = 0; i < d->ntracks; i++) {
		free(d->tracks[i].key);
		free(d->tracks[i].name);
		free(d->tracks[i].kind);
		free(d->tracks[i].zone);
		free(d->tracks[i].unit);
	}
	free(d->tracks);
	free(d->track_hash);
	free(d->pending);
	free(d);
}

void derive_set_cpus(struct derive *d, int nbuffers, int ncpus, const uint64_t *first)
{
	d->nbuffers = nbuffers;
	d->ncpus = ncpus;
	d->first = first;
	d->cpus = xcalloc((size_t)nbuffers * ncpus, sizeof(*d->cpus));
	for (int i = 0; i < nbuffers * ncpus; i++)
		d->cpus[i].utid = -1;
	d->started = 1;
	d->android = android_alloc(d->L, d, d->w, nbuffers);
}

/* ---- pid map ---- */

static size_t pid_slot(const struct derive *d, int pid)
{
	size_t mask = d->map_cap - 1, i = ((unsigned)pid * 2654435761u) & mask;

	while (d->map_pid[i] != -1 && d->map_pid[i] != pid)
		i = (i + 1) & mask;
	return i;
}

static void map_grow(struct derive *d)
{
	int *op = d->map_pid, *ou = d->map_utid;
	size_t ocap = d->map_cap;

	d->map_cap *= 2;
	d->map_pid = xcalloc(d->map_cap, sizeof(int));
	d->map_utid = xcalloc(d->map_cap, sizeof(int));
	for (size_t i = 0; i < d->map_cap; i++)
		d->map_pid[i] = -1;
	for (size_t i = 0; i < ocap; i++) {
		if (op[i] != -1) {
			size_t s = pid_slot(d, op[i]);

			d->map_pid[s] = op[i];
			d->map_utid[s] = ou[i];
		}
	}
	free(op);
	free(ou);
}

static int map_get(struct derive *d, int pid)
{
	size_t s = pid_slot(d, pid);

	return d->map_pid[s] == pid ? d->map_utid[s] : -1;
}

static void map_set(struct derive *d, int pid, int utid)
{
	size_t s;

	if ((d->map_used + 1) * 2 > d->map_cap)
		map_grow(d);
	s = pid_slot(d, pid);
	if (d->map_pid[s] == -1)
		d->map_used++;
	d->map_pid[s] = pid;
	d->map_utid[s] = utid;
}

/* ---- threads ---- */

static void comm_row(struct derive *d, int utid, uint64_t ts, const char *comm)
{
	dbw_row_begin(d->w, d->comm_stmt);
	dbw_int(d->w, utid);
	dbw_int(d->w, (int64_t)ts);
	dbw_text(d->w, comm, -1);
	dbw_row_end(d->w);
	d->rows++;
}

static int thread_new(struct derive *d, int pid, uint64_t ts)
{
	struct thr *t;

	TRAX_GROW(d->threads, d->nthreads, d->cthreads, 256);
	t = &d->threads[d->nthreads];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tgid = -1;
	t->start_ts = t->end_ts = ts;
	t->st = xcalloc(d->nbuffers, sizeof(*t->st));
	for (int b = 0; b < d->nbuffers; b++) {
		t->st[b].waker = -1;
		t->st[b].arrive_cpu = -1;
	}
	map_set(d, pid, d->nthreads);
	return d->nthreads++;
}

/* Record a name the thread had from ts on (comm need not be NUL-terminated). */
static void thread_name(struct derive *d, int utid, uint64_t ts, const char *comm, int len)
{
	struct thr *t = &d->threads[utid];
	char buf[COMM_MAX];

	if (len < 0)
		len = strlen(comm);
	if (len >= COMM_MAX)
		len = COMM_MAX - 1;
	memcpy(buf, comm, len);
	buf[len] = '\0';
	len = strnlen(buf, len);
	if (!len || (t->named && !strcmp(t->comm, buf)))
		return;
	/* The idle task carries per-CPU names (swapper/3); it is one thread here. */
	if (t->pid == 0 && t->named)
		return;
	memcpy(t->comm, buf, len + 1);
	t->named = 1;
	comm_row(d, utid, ts, t->comm);
}

static void state_close(struct derive *d, int utid, int buffer, uint64_t ts);

/* The lifetime ends at ts: its open states close, and the pid's next sighting is a new one. */
static void thread_end(struct derive *d, int utid, uint64_t ts)
{
	struct thr *t = &d->threads[utid];

	if (t->dead)
		return;
	t->dead = 1;
	if (ts > t->end_ts)
		t->end_ts = ts;
	for (int b = 0; b < d->nbuffers; b++) {
		state_close(d, utid, b, ts);
		t->st[b].state = NULL;
	}
}

static char *dup_or_null(const char *s);

/* A thread alive at the trace start, as collect's marker tells: its process and name. */
static void thread_initial(struct derive *d, int utid, int tgid, const char *comm)
{
	struct thr *t = &d->threads[utid];

	if (t->tgid <= 0)
		t->tgid = tgid;
	if (!t->fallback && *comm)
		t->fallback = dup_or_null(comm);
}

/* A new lifetime met without a birth: a thread alive at the start, if a marker said so. */
static void pending_apply(struct derive *d, int utid)
{
	for (int i = 0; i < d->npending; i++) {
		if (d->pending[i].pid == d->threads[utid].pid) {
			thread_initial(d, utid, d->pending[i].tgid, d->pending[i].comm);
			d->pending[i] = d->pending[--d->npending];	/* one lifetime only */
			return;
		}
	}
}

static void pending_drop(struct derive *d, int pid)
{
	for (int i = 0; i < d->npending; i++)
		if (d->pending[i].pid == pid)
			d->pending[i--] = d->pending[--d->npending];
}

/*
 * The thread that pid denotes at ts; a pid whose thread died starts a new thread. comm, when
 * given, is a name the event itself carries (valid at ts).
 */
static int thread_at(struct derive *d, int pid, uint64_t ts, const char *comm, int len)
{
	int utid = map_get(d, pid);
	struct thr *t;

	if (utid < 0 || d->threads[utid].dead) {
		utid = thread_new(d, pid, ts);
		pending_apply(d, utid);
	}
	t = &d->threads[utid];
	if (ts > t->end_ts)
		t->end_ts = ts;
	if (comm)
		thread_name(d, utid, ts, comm, len);
	return utid;
}

/*
 * A thread born at ts, announced by one of its birth events (BORN_NEWTASK, BORN_FORK). The
 * two events of one birth come a few microseconds apart, in either order: the first opens the
 * lifetime and the second completes it. A birth event of a kind this lifetime already had, or
 * for a pid whose lifetime began without a birth, is a new thread on a reused pid (the old
 * one's death was not recorded: it ends here).
 */
static int thread_born(struct derive *d, int pid, uint64_t ts, unsigned kind)
{
	int utid = map_get(d, pid);

	if (utid >= 0 && !d->threads[utid].dead) {
		struct thr *t = &d->threads[utid];

		if (t->born && !(t->born & kind)) {
			t->born |= kind;
			if (ts > t->end_ts)
				t->end_ts = ts;
			return utid;
		}
		thread_end(d, utid, ts);
	}
	pending_drop(d, pid);	/* a pid born in the trace is not the one alive at its start */
	utid = thread_new(d, pid, ts);
	d->threads[utid].born = kind;
	return utid;
}

/* ---- thread_state ---- */

static void state_close(struct derive *d, int utid, int buffer, uint64_t ts)
{
	struct tstate *s = &d->threads[utid].st[buffer];

	if (s->state && ts > s->since) {
		dbw_row_begin(d->w, d->state_stmt);
		dbw_int(d->w, (int64_t)s->since);
		dbw_int(d->w, (int64_t)(ts - s->since));
		dbw_int(d->w, utid);
		dbw_text(d->w, s->state, -1);
		if (s->cpu >= 0)
			dbw_int(d->w, s->cpu);
		else
			dbw_null(d->w);
		if (s->waker >= 0)
			dbw_int(d->w, s->waker);
		else
			dbw_null(d->w);
		dbw_int(d->w, buffer);
		dbw_row_end(d->w);
		d->rows++;
	}
}

static void state_set(struct derive *d, int utid, int buffer, uint64_t ts, const char *state,
		      int cpu, int waker)
{
	struct tstate *s;

	if (d->threads[utid].pid == 0)
		return;		/* the idle task has no state of its own */
	s = &d->threads[utid].st[buffer];
	state_close(d, utid, buffer, ts);
	s->state = state;
	s->since = ts;
	s->cpu = cpu;
	s->waker = waker;
}

/*
 * The thread_state of a task switched out with these state letters (either numbering's: doc/db.md
 * "prev_state numberings"): its main state, without modifiers (K, wakekill, of D|K).
 */
static const char *state_after_switch(const char *letters)
{
	if (!letters || !*letters)
		return "other";
	if (letters[0] == 'R')
		return "R+";	/* preempted: runnable, waiting for a CPU */
	if (strpbrk(letters, "XZx"))
		return strchr(letters, 'x') ? "x" : strchr(letters, 'Z') ? "Z" : "X";	/* dead */
	if (strchr(letters, 'D'))
		return strchr(letters, 'N') ? "I" : "D";	/* D|N: TASK_IDLE before 4.14 */
	switch (letters[0]) {
	case 'S': return "S";
	case 'I': return "I";
	case 'T': return "T";
	case 't': return "t";
	case 'P': return "P";
	case 'W': return "W";
	case 'K': return "K";
	default: return "other";
	}
}

/* ---- slices ---- */

static void slice_row(struct derive *d, struct cpustate *cs, int cpu, int buffer, uint64_t end,
		      const char *end_state, int clipped)
{
	if (end < cs->start || (end == cs->start && clipped))
		return;
	dbw_row_begin(d->w, d->slice_stmt);
	dbw_int(d->w, (int64_t)cs->start);
	dbw_int(d->w, (int64_t)(end - cs->start));
	dbw_int(d->w, cpu);
	dbw_int(d->w, cs->utid);
	dbw_int(d->w, cs->pid);
	dbw_int(d->w, cs->prio);
	if (end_state)
		dbw_text(d->w, end_state, -1);
	else
		dbw_null(d->w);
	dbw_int(d->w, clipped);
	dbw_int(d->w, buffer);
	dbw_row_end(d->w);
	d->rows++;
}

static int64_t vint(const struct ld_type *t, const struct ld_val *v, int k, int64_t def)
{
	int i = t->ridx[k];

	return i >= 0 && v[i].kind == LD_I64 ? v[i].i : def;
}

/* Whether the format has the role's field (slot k). */
static int vhas(const struct ld_type *t, int k)
{
	return t->ridx[k] >= 0;
}

/* Whether this record carries the role's field k as a number. */
static int vhas_int(const struct ld_type *t, const struct ld_val *v, int k)
{
	return t->ridx[k] >= 0 && v[t->ridx[k]].kind == LD_I64;
}

static const char *vstr(const struct ld_type *t, const struct ld_val *v, int k, int *len)
{
	int i = t->ridx[k];

	if (i < 0 || v[i].kind != LD_STR) {
		*len = 0;
		return NULL;
	}
	*len = v[i].len;
	return v[i].s;
}

static void switch_anomaly(struct derive *d, uint64_t ts, int cpu, int buffer, int utid,
			   const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void switch_anomaly(struct derive *d, uint64_t ts, int cpu, int buffer, int utid,
			   const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addf(&sb, "CPU %d: ", cpu);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	dbw_row_begin(d->w, d->anomaly_stmt);
	dbw_int(d->w, (int64_t)ts);
	dbw_text(d->w, "switch_out_unseen_in", -1);
	dbw_int(d->w, utid);
	dbw_text(d->w, sb.buf, (int)sb.len);
	dbw_int(d->w, buffer);
	dbw_row_end(d->w);
	d->rows++;
	strbuf_release(&sb);
}

/*
 * prev is switched out at ts on this CPU, but the CPU's last recorded switch put in another
 * task (cs): the switch that put prev in was not recorded (not emitted, lost, overwritten).
 * prev ran for part of [cs->start, ts]: it cannot have started before the wakeup or
 * migration that put it on this CPU, nor before its last switch-out anywhere (the idle task,
 * pid 0, is one per CPU: only its CPU's evidence counts), nor before the
 * CPU's previous switch. The latest of these bounds the two slices: what was believed to run
 * ends there, prev starts there; both are flagged 8.
 */
static uint64_t switch_unseen(struct derive *d, struct cpustate *cs, int cpu, int buffer,
			      int prev, int prev_pid, uint64_t ts)
{
	struct tstate *s = &d->threads[prev].st[buffer];
	uint64_t bound = cs->start;
	const char *from = "the CPU's previous switch";

	if (s->arrive_cpu == cpu && s->arrive_ts > bound && s->arrive_ts <= ts) {
		bound = s->arrive_ts;
		from = "its wakeup or migration to this CPU";
	}
	if (prev_pid && s->out_ts > bound && s->out_ts <= ts) {	/* each CPU has its idle task */
		bound = s->out_ts;
		from = "its previous switch-out";
	}
	cs->unseen++;
	switch_anomaly(d, ts, cpu, buffer, prev, "pid %d switched out, never seen switched in "
		       "(the last switch-in was of pid %d at %.6f s); its slice starts at %.6f s, "
		       "from %s", prev_pid, cs->pid, cs->start / 1e9, bound / 1e9, from);
	slice_row(d, cs, cpu, buffer, bound, NULL, cs->clipped | 8);
	/* what was believed to run is no longer known to run (unless it is prev itself) */
	if (cs->utid != prev) {
		struct tstate *b = &d->threads[cs->utid].st[buffer];

		if (b->state && !strcmp(b->state, "Running") && b->cpu == cpu && b->since <= bound) {
			state_close(d, cs->utid, buffer, bound);
			b->state = NULL;
		}
	}
	if (s->since <= bound)
		state_set(d, prev, buffer, bound, "Running", cpu, -1);
	return bound;
}

/* A switch's next task runs on the CPU from ts. */
static void switch_in(struct derive *d, struct cpustate *cs, struct ld_type *t,
		      const struct ld_val *v, uint64_t ts, int cpu, int buffer)
{
	int nlen;
	const char *ncomm = vstr(t, v, SW_NEXT_COMM, &nlen);
	int next = thread_at(d, (int)vint(t, v, SW_NEXT_PID, -1), ts, ncomm, nlen);

	cs->utid = next;
	cs->pid = (int)vint(t, v, SW_NEXT_PID, -1);
	cs->prio = vint(t, v, SW_NEXT_PRIO, 0);
	cs->start = ts;
	cs->clipped = 0;
	state_set(d, next, buffer, ts, "Running", cpu, -1);
}

static void on_switch(struct derive *d, struct ld_type *t, uint64_t ts, int cpu, int buffer,
		      const struct ld_val *v)
{
	int plen;
	const char *pcomm = vstr(t, v, SW_PREV_COMM, &plen);
	int prev_pid = vint(t, v, SW_PREV_PID, -1), next_pid = vint(t, v, SW_NEXT_PID, -1);
	const char *letters;
	struct cpustate *cs;
	int prev;

	if (cpu < 0 || cpu >= d->ncpus || next_pid < 0)
		return;
	cs = &d->cpus[(size_t)buffer * d->ncpus + cpu];
	if (prev_pid < 0) {
		/* The task switched out is unknown (a Perfetto compact_sched switch, the CPU's
		 * first): what ran before is not known, the next task runs from now. */
		if (cs->utid < 0)
			switch_in(d, cs, t, v, ts, cpu, buffer);
		return;
	}
	letters = vhas_int(t, v, SW_PREV_STATE) ?
		derive_state_letters(d->L, t, vint(t, v, SW_PREV_STATE, 0)) : NULL;
	prev = thread_at(d, prev_pid, ts, pcomm, plen);

	if (cs->utid < 0) {
		/* The CPU's first switch: prev ran since the CPU's first record. */
		uint64_t first = d->first[(size_t)buffer * d->ncpus + cpu];

		cs->utid = prev;
		cs->pid = prev_pid;
		cs->prio = vint(t, v, SW_PREV_PRIO, 0);
		cs->start = first < ts ? first : ts;	/* ld_seen() saw this record first */
		cs->clipped |= 1;
	}
	if (cs->pid != prev_pid) {
		uint64_t start = switch_unseen(d, cs, cpu, buffer, prev, prev_pid, ts);

		cs->utid = prev;
		cs->pid = prev_pid;
		cs->prio = vint(t, v, SW_PREV_PRIO, 0);
		cs->start = start;
		cs->clipped = (cs->clipped & 4) | 8;
	}
	slice_row(d, cs, cpu, buffer, ts, letters, cs->clipped);
	state_set(d, prev, buffer, ts, state_after_switch(letters), -1, -1);
	d->threads[prev].st[buffer].out_ts = ts;
	/* Switched out dead (X, Z; 4.x's x): it never runs again. An exiting task switched out
	 * in any other state (D, S) is still alive: it is woken and runs to its end. */
	if (letters && strpbrk(letters, "XZx"))
		thread_end(d, prev, ts);

	switch_in(d, cs, t, v, ts, cpu, buffer);
}

/* A wakeup or migration put the task on cpu at ts: evidence for a switch-in not recorded. */
static void arrive(struct derive *d, int utid, int buffer, uint64_t ts, int cpu)
{
	struct tstate *s = &d->threads[utid].st[buffer];

	if (cpu >= 0 && cpu < d->ncpus) {
		s->arrive_ts = ts;
		s->arrive_cpu = cpu;
	}
}

static void on_wakeup(struct derive *d, struct ld_type *t, uint64_t ts, int cpu, int pid,
		      int buffer, const struct ld_val *v)
{
	int len, woken_pid = vint(t, v, WK_PID, -1), utid, waker;
	const char *comm = vstr(t, v, WK_COMM, &len);
	struct tstate *s;

	if (woken_pid < 0)
		return;
	utid = thread_at(d, woken_pid, ts, comm, len);
	s = &d->threads[utid].st[buffer];
	if (s->state && !strcmp(s->state, "Running"))
		return;
	/* sched_wakeup's target_cpu is where it will run; sched_waking's is only its last CPU */
	if (t->role != ROLE_SCHED_WAKING || s->arrive_cpu < 0)
		arrive(d, utid, buffer, ts, (int)vint(t, v, WK_TARGET_CPU, -1));
	if (s->state && (!strcmp(s->state, "R") || !strcmp(s->state, "R+")))
		return;
	waker = pid >= 0 ? map_get(d, pid) : -1;
	state_set(d, utid, buffer, ts, "R", (int)vint(t, v, WK_TARGET_CPU, cpu), waker);
}

/* ---- counters ---- */

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void track_rehash(struct derive *d)
{
	free(d->track_hash);
	d->track_cap *= 2;
	d->track_hash = xcalloc(d->track_cap, sizeof(int));
	for (size_t i = 0; i < d->track_cap; i++)
		d->track_hash[i] = -1;
	for (int k = 0; k < d->ntracks; k++) {
		size_t i = hash_str(d->tracks[k].key) & (d->track_cap - 1);

		while (d->track_hash[i] >= 0)
			i = (i + 1) & (d->track_cap - 1);
		d->track_hash[i] = k;
	}
}

static char *dup_or_null(const char *s)
{
	char *r;

	if (!s)
		return NULL;
	r = xstrdup(s);
	return r;
}

/* The id of the track (name, cpu, utid, zone, buffer), created on first use; ids start at 1. */
static int track_get_utid(struct derive *d, const char *name, const char *kind, int cpu,
			  int utid, const char *zone, const char *unit, int buffer)
{
	char key[320];
	size_t i;
	struct track *tr;

	snprintf(key, sizeof(key), "%s|%d|%d|%s|%d", name, cpu, utid, zone ? zone : "", buffer);
	i = hash_str(key) & (d->track_cap - 1);
	while (d->track_hash[i] >= 0) {
		if (!strcmp(d->tracks[d->track_hash[i]].key, key))
			return d->track_hash[i] + 1;
		i = (i + 1) & (d->track_cap - 1);
	}
	TRAX_GROW(d->tracks, d->ntracks, d->ctracks, 32);
	tr = &d->tracks[d->ntracks];
	tr->key = dup_or_null(key);
	tr->name = dup_or_null(name);
	tr->kind = dup_or_null(kind);
	tr->zone = dup_or_null(zone);
	tr->unit = dup_or_null(unit);
	tr->cpu = cpu;
	tr->utid = utid;
	tr->buffer = buffer;
	d->track_hash[i] = d->ntracks++;
	if ((size_t)d->ntracks * 2 > d->track_cap)
		track_rehash(d);
	return d->ntracks;
}

static int track_get(struct derive *d, const char *name, const char *kind, int cpu,
		     const char *zone, const char *unit, int buffer)
{
	return track_get_utid(d, name, kind, cpu, -1, zone, unit, buffer);
}

int derive_track(struct derive *d, const char *name, const char *kind, int cpu, int utid,
		 const char *zone, const char *unit, int buffer)
{
	return track_get_utid(d, name, kind, cpu, utid, zone, unit, buffer);
}

void derive_counter(struct derive *d, uint64_t ts, int track, double value)
{
	dbw_row_begin(d->w, d->counter_stmt);
	dbw_int(d->w, (int64_t)ts);
	dbw_int(d->w, track);
	if (value == (double)(int64_t)value)
		dbw_int(d->w, (int64_t)value);
	else
		dbw_real(d->w, value);
	dbw_row_end(d->w);
	d->rows++;
}

static void counter_row(struct derive *d, uint64_t ts, int track, int64_t value)
{
	dbw_row_begin(d->w, d->counter_stmt);
	dbw_int(d->w, (int64_t)ts);
	dbw_int(d->w, track);
	dbw_int(d->w, value);
	dbw_row_end(d->w);
	d->rows++;
}

static void on_counter(struct derive *d, struct ld_type *t, uint64_t ts, int buffer,
		       const struct ld_val *v)
{
	char zone[128];
	int len;
	const char *s;

	switch (t->role) {
	case ROLE_CPU_FREQUENCY:
		if (vhas(t, CS_STATE) && vhas(t, CS_CPU_ID))
			counter_row(d, ts, track_get(d, "cpu_frequency", "cpu",
						     vint(t, v, CS_CPU_ID, -1), NULL, "kHz", buffer),
				    vint(t, v, CS_STATE, 0));
		break;
	case ROLE_CPU_IDLE:
		/* state is a u32; 4294967295 (PWR_EVENT_EXIT) leaves idle: stored as -1. */
		if (vhas(t, CS_STATE) && vhas(t, CS_CPU_ID))
			counter_row(d, ts, track_get(d, "cpu_idle", "cpu", vint(t, v, CS_CPU_ID, -1),
						     NULL, NULL, buffer),
				    (int32_t)vint(t, v, CS_STATE, 0));
		break;
	case ROLE_THERMAL_TEMPERATURE:
		s = vstr(t, v, TH_ZONE, &len);
		if (!s || !vhas(t, TH_TEMP))
			break;
		snprintf(zone, sizeof(zone), "%.*s", len, s);
		counter_row(d, ts, track_get(d, "thermal_temperature", "thermal", -1, zone, "mC",
					     buffer), vint(t, v, TH_TEMP, 0));
		break;
	case ROLE_CDEV_UPDATE:
		s = vstr(t, v, CD_TYPE, &len);
		if (!s || !vhas(t, CD_TARGET))
			break;
		snprintf(zone, sizeof(zone), "%.*s", len, s);
		counter_row(d, ts, track_get(d, "cdev_update", "cdev", -1, zone, NULL, buffer),
			    vint(t, v, CD_TARGET, 0));
		break;
	default:
		break;
	}
}

/* "trax: initial ..." markers of trax captures (parse/initial.c): the values counters have at
 * the trace start; cpu_idle's holds from the marker, which is written on that CPU. */
static int on_initial(struct derive *d, struct ld_type *t, uint64_t ts, int buffer,
		      const struct ld_val *v)
{
	struct initial_value iv;
	uint64_t start = ts;
	const char *s;
	int len = 0, id, utid;

	s = vstr(t, v, PR_BUF, &len);
	if (!s || !initial_parse(s, len, &iv))
		return 0;
	for (int c = 0; d->first && c < d->ncpus; c++) {
		uint64_t f = d->first[(size_t)buffer * d->ncpus + c];

		if (f && f < start)
			start = f;
	}
	switch (iv.kind) {
	case INITIAL_CPU_FREQUENCY:
		id = track_get(d, "cpu_frequency", "cpu", iv.cpu, NULL, "kHz", buffer);
		counter_row(d, start, id, iv.value);
		break;
	case INITIAL_CPU_IDLE:
		counter_row(d, ts, track_get(d, "cpu_idle", "cpu", iv.cpu, NULL, NULL, buffer),
			    iv.value);
		break;
	case INITIAL_THERMAL:
		id = track_get(d, "thermal_temperature", "thermal", -1, iv.zone, "mC", buffer);
		counter_row(d, start, id, iv.value);
		break;
	case INITIAL_OOM_SCORE_ADJ:
		/* a track per thread (android.c keeps it, and the adj kills are reported with) */
		utid = thread_at(d, iv.pid, ts, NULL, 0);
		id = track_get_utid(d, "oom_score_adj", "task", -1, utid, NULL, NULL, buffer);
		counter_row(d, start, id, iv.value);
		if (d->android)
			android_adj(d->android, start, iv.pid, iv.value, -1);
		break;
	case INITIAL_TASK:
		derive_task(d, iv.pid, (int)iv.value, iv.name, -1);
		break;
	default:
		break;
	}
	return 1;
}

static void fact_meta(void *ctx, const char *key, const char *value)
{
	ld_meta(ctx, key, "%s", value);
}

/* "trax: target ..." markers (parse/facts.c): the machine's facts, as meta rows. */
static int on_facts(struct derive *d, struct ld_type *t, const struct ld_val *v)
{
	const char *s;
	int len = 0;

	s = vstr(t, v, PR_BUF, &len);
	return s && facts_parse(s, len, fact_meta, d->L);
}

void derive_marker(struct derive *d, uint64_t ts, int pid, int buffer, const char *buf, int len)
{
	if (d->android)
		android_marker(d->android, ts, -1, pid, buffer, buf, len);
}

void derive_task(struct derive *d, int pid, int tgid, const char *comm, int len)
{
	int u = map_get(d, pid);
	char name[COMM_MAX];

	snprintf(name, sizeof(name), "%.*s", len < 0 || len >= COMM_MAX ? COMM_MAX - 1 : len,
		 comm ? comm : "");
	if (u >= 0 && !d->threads[u].dead && !d->threads[u].born) {
		thread_initial(d, u, tgid, name);
	} else if (u < 0) {
		struct pending_task *pt = NULL;

		/* one entry a pid: process data may list a task in several snapshots */
		for (int i = 0; i < d->npending && !pt; i++)
			if (d->pending[i].pid == pid)
				pt = &d->pending[i];
		if (!pt) {
			TRAX_GROW(d->pending, d->npending, d->cpending, 256);
			pt = &d->pending[d->npending++];
			pt->pid = pid;
			pt->tgid = 0;
			pt->comm[0] = 0;
		}
		if (tgid > 0)
			pt->tgid = tgid;
		if (name[0] && !pt->comm[0])
			snprintf(pt->comm, sizeof(pt->comm), "%s", name);
	}
}

/* ---- for android.c ---- */

int derive_thread(struct derive *d, int pid, uint64_t ts)
{
	return thread_at(d, pid, ts, NULL, 0);
}

const char *derive_thread_comm(struct derive *d, int utid)
{
	if (utid < 0 || utid >= d->nthreads)
		return NULL;
	if (d->threads[utid].comm[0])
		return d->threads[utid].comm;
	return d->threads[utid].fallback;
}

void derive_thread_tgid(struct derive *d, int utid, int tgid)
{
	if (utid >= 0 && utid < d->nthreads && tgid > 0)
		d->threads[utid].tgid = tgid;
}

/* ---- events ---- */

void derive_event(struct derive *d, struct ld_type *t, uint64_t ts, int cpu, int pid,
		  int buffer, const char *comm, const struct ld_val *v)
{
	int utid, len;
	const char *s;

	if (buffer < 0 || buffer >= d->nbuffers)
		return;
	/* Every event tells that its common_pid existed at ts. */
	if (pid >= 0) {
		utid = thread_at(d, pid, ts, NULL, 0);
		if (comm && *comm && !d->threads[utid].fallback && strcmp(comm, "<...>"))
			d->threads[utid].fallback = dup_or_null(comm);
	}
	switch (t->role) {
	case ROLE_SCHED_SWITCH:
		on_switch(d, t, ts, cpu, buffer, v);
		break;
	case ROLE_SCHED_WAKING:
	case ROLE_SCHED_WAKEUP:
	case ROLE_SCHED_WAKEUP_NEW:
		on_wakeup(d, t, ts, cpu, pid, buffer, v);
		break;
	case ROLE_SCHED_MIGRATE_TASK: {
		int p = vint(t, v, MG_PID, -1);

		if (p < 0)
			break;
		utid = thread_at(d, p, ts, NULL, 0);
		s = vstr(t, v, MG_COMM, &len);
		if (s)
			thread_name(d, utid, ts, s, len);
		arrive(d, utid, buffer, ts, (int)vint(t, v, MG_DEST_CPU, -1));
		break;
	}
	case ROLE_PROCESS_FORK: {
		int child = vint(t, v, FK_CHILD_PID, -1);

		if (child < 0)
			break;
		s = vstr(t, v, FK_CHILD_COMM, &len);
		utid = thread_born(d, child, ts, BORN_FORK);
		if (s)
			thread_name(d, utid, ts, s, len);
		break;
	}
	case ROLE_TASK_NEWTASK: {
		int child = vint(t, v, NT_PID, -1), parent = pid >= 0 ? map_get(d, pid) : -1;
		int64_t flags = vint(t, v, NT_CLONE_FLAGS, 0);

		if (child < 0)
			break;
		s = vstr(t, v, NT_COMM, &len);
		utid = thread_born(d, child, ts, BORN_NEWTASK);
		if (s)
			thread_name(d, utid, ts, s, len);
		if (!(flags & CLONE_THREAD_FLAG))
			d->threads[utid].tgid = child;
		else if (parent >= 0)
			d->threads[utid].tgid = d->threads[parent].tgid;
		if (vhas_int(t, v, NT_OOM_SCORE_ADJ) && d->android)
			android_adj(d->android, ts, child, vint(t, v, NT_OOM_SCORE_ADJ, 0), buffer);
		break;
	}
	case ROLE_PROCESS_EXEC: {
		/* exec names the task after the file's basename, cut to TASK_COMM_LEN - 1. */
		int p = vint(t, v, EX_PID, -1);
		const char *slash;

		s = vstr(t, v, EX_FILENAME, &len);
		if (p < 0 || !s)
			break;
		utid = thread_at(d, p, ts, NULL, 0);
		slash = memrchr(s, '/', len);
		if (slash) {
			len -= slash + 1 - s;
			s = slash + 1;
		}
		len = strnlen(s, len);
		thread_name(d, utid, ts, s, len > 15 ? 15 : len);
		break;
	}
	case ROLE_PROCESS_EXIT: {
		int p = vint(t, v, TK_PID, -1);

		if (p < 0)
			break;
		utid = map_get(d, p);
		if (utid >= 0 && !d->threads[utid].dead) {
			d->threads[utid].exiting = 1;
			if (ts > d->threads[utid].end_ts)
				d->threads[utid].end_ts = ts;
		}
		break;
	}
	case ROLE_PROCESS_FREE: {
		/*
		 * The task struct is freed (an RCU callback, after the death). Its pid was
		 * released before that and may already name a newborn thread: a lifetime that
		 * began with a birth and has not exited is that newborn, not the freed task.
		 */
		int p = vint(t, v, TK_PID, -1);

		if (p <= 0)
			break;
		utid = map_get(d, p);
		if (utid >= 0 && !d->threads[utid].dead &&
		    (!d->threads[utid].born || d->threads[utid].exiting))
			thread_end(d, utid, ts);
		break;
	}
	case ROLE_TASK_RENAME: {
		int p = vint(t, v, RN_PID, -1);

		s = vstr(t, v, RN_NEWCOMM, &len);
		if (p < 0 || !s)
			break;
		utid = thread_at(d, p, ts, NULL, 0);
		thread_name(d, utid, ts, s, len);
		break;
	}
	case ROLE_CPU_FREQUENCY:
	case ROLE_CPU_IDLE:
	case ROLE_THERMAL_TEMPERATURE:
	case ROLE_CDEV_UPDATE:
		on_counter(d, t, ts, buffer, v);
		break;
	case ROLE_PRINT:
		if (!on_initial(d, t, ts, buffer, v) && !on_facts(d, t, v) && d->android) {
			s = vstr(t, v, PR_BUF, &len);
			if (s)
				android_marker(d->android, ts, cpu, pid, buffer, s, len);
		}
		break;
	default:
		if (t->by != EV_NONE && t->by != EV_CORE && d->android)
			android_event(d->android, t, ts, cpu, pid, buffer, v);
		break;
	}
}

void derive_lost(struct derive *d, uint64_t ts, int cpu, int buffer)
{
	if (d->cpus && buffer >= 0 && buffer < d->nbuffers && cpu >= 0 && cpu < d->ncpus)
		d->cpus[(size_t)buffer * d->ncpus + cpu].clipped |= 4;
}

void derive_tgid(struct derive *d, int pid, int tgid)
{
	int utid = map_get(d, pid);

	if (utid >= 0 && tgid > 0)
		d->threads[utid].tgid = tgid;
}

void derive_finish(struct derive *d, uint64_t end_ts)
{
	int stmt;

	if (d->android)
		android_finish(d->android, end_ts);
	for (int b = 0; b < d->nbuffers && d->cpus; b++) {
		for (int c = 0; c < d->ncpus; c++) {
			struct cpustate *cs = &d->cpus[(size_t)b * d->ncpus + c];

			if (cs->utid >= 0 && end_ts > cs->start)
				slice_row(d, cs, c, b, end_ts, NULL, cs->clipped | 2);
			if (cs->unseen) {
				char key[96];

				if (b)
					snprintf(key, sizeof(key),
						 "sched.switch_out_unseen_in.buffer%d.cpu%d", b, c);
				else
					snprintf(key, sizeof(key), "sched.switch_out_unseen_in.cpu%d",
						 c);
				ld_meta(d->L, key, "%llu", (unsigned long long)cs->unseen);
			}
		}
	}
	for (int u = 0; u < d->nthreads; u++) {
		struct thr *t = &d->threads[u];

		for (int b = 0; b < d->nbuffers; b++)
			if (t->st[b].state && !t->dead)
				state_close(d, u, b, end_ts);
		if (!t->named && t->fallback)
			thread_name(d, u, t->start_ts, t->fallback, -1);
	}

	stmt = schema_insert(d->w, SCHEMA_THREAD, DBW_CAT_DERIVED);
	for (int u = 0; u < d->nthreads; u++) {
		struct thr *t = &d->threads[u];

		dbw_row_begin(d->w, stmt);
		dbw_int(d->w, u);
		dbw_int(d->w, t->pid);
		if (t->tgid > 0)
			dbw_int(d->w, t->tgid);
		else
			dbw_null(d->w);
		if (t->comm[0])
			dbw_text(d->w, t->comm, -1);
		else
			dbw_null(d->w);
		dbw_int(d->w, (int64_t)t->start_ts);
		dbw_int(d->w, (int64_t)t->end_ts);
		dbw_row_end(d->w);
		d->rows++;
	}
	stmt = schema_insert(d->w, SCHEMA_TRACK, DBW_CAT_DERIVED);
	for (int k = 0; k < d->ntracks; k++) {
		struct track *tr = &d->tracks[k];

		dbw_row_begin(d->w, stmt);
		dbw_int(d->w, k + 1);
		dbw_text(d->w, tr->name, -1);
		dbw_text(d->w, tr->kind, -1);
		if (tr->cpu >= 0)
			dbw_int(d->w, tr->cpu);
		else
			dbw_null(d->w);
		if (tr->utid >= 0)
			dbw_int(d->w, tr->utid);
		else
			dbw_null(d->w);
		if (tr->zone)
			dbw_text(d->w, tr->zone, -1);
		else
			dbw_null(d->w);
		if (tr->unit)
			dbw_text(d->w, tr->unit, -1);
		else
			dbw_null(d->w);
		dbw_int(d->w, tr->buffer);
		dbw_row_end(d->w);
		d->rows++;
	}
}
