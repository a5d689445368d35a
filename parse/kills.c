/* parse/kills.c: kills (lowmemory_kill, mark_victim, lmkd's markers) and oom_score_adj. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse/android-local.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define LMKD_MERGE_NS 1000000000ull	/* lmkd markers of one pid within 1 s: one kill */

/* ---- oom_score_adj ---- */

void android_adj(struct android *a, uint64_t ts, int pid, int64_t adj, int buffer)
{
	char key[24];

	snprintf(key, sizeof(key), "%d", pid);
	smap_put(&a->adj, key, (int)adj);
	if (buffer >= 0) {
		int utid = derive_thread(a->d, pid, ts);
		int track = derive_track(a->d, "oom_score_adj", "task", -1, utid, NULL, NULL, buffer);

		derive_counter(a->d, ts, track, (double)adj);
	}
}

/* The comm an oom_score_adj_update gave pid (the task's name then), or NULL. */
static const char *adj_comm(struct android *a, int64_t pid)
{
	char key[24];
	int i;

	snprintf(key, sizeof(key), "%lld", (long long)pid);
	i = smap_get(&a->adj_comm, key, -1);
	return i >= 0 ? a->comms[i] : NULL;
}

static void adj_comm_set(struct android *a, int64_t pid, char *comm)
{
	char key[24];
	int i;

	snprintf(key, sizeof(key), "%lld", (long long)pid);
	i = smap_get(&a->adj_comm, key, -1);
	if (i >= 0) {
		free(a->comms[i]);
		a->comms[i] = comm;
		return;
	}
	a->comms = xrealloc(a->comms, (a->ncomms + 1) * sizeof(char *));
	a->comms[a->ncomms] = comm;
	smap_put(&a->adj_comm, key, a->ncomms++);
}

static int adj_of(struct android *a, int64_t pid, int64_t *adj)
{
	char key[24];
	long i;

	snprintf(key, sizeof(key), "%lld", (long long)pid);
	i = smap_find(&a->adj, key);
	if (i < 0)
		return 0;
	*adj = a->adj.vals[i];
	return 1;
}

/* ---- kills ---- */

struct kill_ent *kill_new(struct android *a, uint64_t ts, const char *source, int64_t pid,
				 int buffer)
{
	struct kill_ent *k;

	TRAX_GROW(a->kills, a->nkills, a->ckills, 16);
	k = &a->kills[a->nkills++];
	memset(k, 0, sizeof(*k));
	k->ts = ts;
	k->source = source;
	k->pid = pid;
	k->buffer = buffer;
	k->utid = pid > 0 ? derive_thread(a->d, (int)pid, ts) : -1;
	if (pid > 0)
		k->has_adj = adj_of(a, pid, &k->adj);
	if (k->utid >= 0 && derive_thread_comm(a->d, k->utid)) {
		const char *c = derive_thread_comm(a->d, k->utid);

		k->comm = xmemdup0(c, strlen(c));
	} else if (pid > 0 && adj_comm(a, pid)) {
		k->comm = xmemdup0(adj_comm(a, pid), strlen(adj_comm(a, pid)));
	}
	return k;
}

static void kill_set_comm(struct kill_ent *k, const char *s, size_t n)
{
	if (!s || !n)
		return;
	free(k->comm);
	k->comm = xmemdup0(s, n);
}

/* lmkd's kill reasons (enum kill_reasons in lmkd's statslog.h); -1 is "none". */
static const char *const lmk_reasons[] = {
	"pressure_after_kill", "not_responding", "low_swap_and_thrashing", "low_mem_and_swap",
	"low_mem_and_thrashing", "direct_recl_and_thrashing", "low_mem_and_swap_util",
	"low_filecache_after_thrashing", "low_mem", "direct_recl_stuck",
};

/* "lmk,<pid>,<reason>,<adj>[,<min_adj>[,...]]": lmkd's slice around a kill. */
void lmk_marker(struct android *a, uint64_t ts, int utid, int buffer, const char *s,
		       int len)
{
	int64_t f[5];
	int n = 0;
	const char *p = s + 4, *end = s + len;
	struct kill_ent *k;
	char buf[32];

	while (p <= end && n < 5) {
		const char *c = memchr(p, ',', end - p);
		size_t fl = c ? (size_t)(c - p) : (size_t)(end - p);
		char *e;

		if (!fl || fl >= sizeof(buf))
			break;
		memcpy(buf, p, fl);
		buf[fl] = '\0';
		f[n] = strtoll(buf, &e, 10);
		if (*e)
			break;
		n++;
		if (!c)
			break;
		p = c + 1;
	}
	if (n < 3 || f[0] <= 0) {
		anomaly(a, AN_KILL_MALFORMED, ts, utid, buffer, "lmkd marker \"%.*s\"", len, s);
		return;
	}
	k = kill_new(a, ts, "lmkd", f[0], buffer);
	k->has_adj = 1;
	k->adj = f[2];
	if (n >= 4) {
		k->has_min_adj = 1;
		k->min_adj = f[3];
	}
	if (f[1] >= 0 && f[1] < (int64_t)(sizeof(lmk_reasons) / sizeof(lmk_reasons[0]))) {
		k->reason = xmemdup0(lmk_reasons[f[1]], strlen(lmk_reasons[f[1]]));
	} else if (f[1] == -1) {
		k->reason = xmemdup0("none", 4);
	} else {
		snprintf(buf, sizeof(buf), "unknown(%lld)", (long long)f[1]);
		k->reason = xmemdup0(buf, strlen(buf));
		anomaly(a, AN_KILL_UNKNOWN_REASON, ts, utid, buffer, "lmkd kill reason %lld in \"%.*s\"",
			(long long)f[1], len, s);
	}
}

/* The pid in a free-form kill description: "(1234)", "pid=1234" or "lmk,1234,...". */
static int64_t pid_in(const char *s, int len, const char **comm_end)
{
	for (int i = 0; i < len; i++) {
		int j = i + 1;
		int64_t v = 0;

		if (s[i] == '(' || (i + 4 <= len && !memcmp(s + i, "pid=", 4))) {
			if (s[i] != '(')
				j = i + 4;
			while (j < len && s[j] >= '0' && s[j] <= '9' && j - i < 12)
				v = v * 10 + (s[j++] - '0');
			if (j > i + 1 && v > 0 && (s[i] != '(' || (j < len && s[j] == ')'))) {
				*comm_end = s + i;
				return v;
			}
		}
	}
	*comm_end = s + len;
	return -1;
}

/* An N| instant on lmkd's "lowmemorykiller" track. */
void lmk_instant(struct android *a, uint64_t ts, int utid, int buffer, const char *s,
			int len)
{
	const char *ce;
	int64_t pid;
	struct kill_ent *k;

	if (len > 4 && !memcmp(s, "lmk,", 4)) {
		lmk_marker(a, ts, utid, buffer, s, len);
		return;
	}
	pid = pid_in(s, len, &ce);
	k = kill_new(a, ts, "lmkd", pid, buffer);
	/* "Kill name (1234)": the name is the text before the pid */
	while (ce > s && ce[-1] == ' ')
		ce--;
	if (ce - s > 5 && !strncasecmp(s, "kill ", 5))
		s += 5;
	if (ce > s && (pid > 0 || !k->comm))
		kill_set_comm(k, s, ce - s);
}

/* The kill of a kill event: its source (a static string), its pid and comm (field slots), the
 * reason it gives; NULL (an anomaly) without a pid. */
static struct kill_ent *kill_event(struct android *a, struct ld_type *t, const struct ld_val *v,
				   uint64_t ts, int utid, int buffer, const char *source,
				   int pid_slot, int comm_slot, const char *reason)
{
	struct kill_ent *k;
	char *s;

	if (!vhas(t, v, pid_slot)) {
		anomaly(a, AN_EVENT_MISSING_FIELD, ts, utid, buffer, "%s without pid", source);
		return NULL;
	}
	k = kill_new(a, ts, source, vint(t, v, pid_slot, -1), buffer);
	k->reason = xstrdup(reason);
	s = vname(t, v, comm_slot);
	if (s && *s)
		kill_set_comm(k, s, strlen(s));
	free(s);
	return k;
}

/* The kill events (parse/events.h: by EV_KILLS). */
void kills_event(struct android *a, struct ld_type *t, uint64_t ts, int utid, int buffer,
	          const struct ld_val *v)
{
	struct kill_ent *k;
	char *s;

	switch (t->role) {
	case ROLE_OOM_SCORE_ADJ:
		if (vhas(t, v, OA_PID) && vhas(t, v, OA_OOM_SCORE_ADJ)) {
			android_adj(a, ts, (int)vint(t, v, OA_PID, 0), vint(t, v, OA_OOM_SCORE_ADJ, 0),
				    buffer);
			s = vname(t, v, OA_COMM);
			if (s && *s)
				adj_comm_set(a, vint(t, v, OA_PID, 0), s);
			else
				free(s);
		} else
			anomaly(a, AN_EVENT_MISSING_FIELD, ts, utid, buffer, "%s without pid or "
				"oom_score_adj", t->name);
		break;
	case ROLE_MARK_VICTIM:
		k = kill_event(a, t, v, ts, utid, buffer, "mark_victim", MV_PID, MV_COMM, "oom");
		if (k && vhas(t, v, MV_OOM_SCORE_ADJ)) {
			k->has_adj = 1;
			k->adj = vint(t, v, MV_OOM_SCORE_ADJ, 0);
		}
		if (k && (vhas(t, v, MV_ANON_RSS) || vhas(t, v, MV_FILE_RSS) ||
			  vhas(t, v, MV_SHMEM_RSS))) {
			k->has_rss = 1;
			k->rss_kb = vint(t, v, MV_ANON_RSS, 0) + vint(t, v, MV_FILE_RSS, 0) +
				    vint(t, v, MV_SHMEM_RSS, 0);
		}
		break;
	case ROLE_LOWMEMORY_KILL:
		kill_event(a, t, v, ts, utid, buffer, "lowmemory_kill", LK_PID, LK_COMM,
			   "lowmemorykiller");
		break;
	default:
		break;
	}
}

/* ---- the end ---- */

static int cmp_kill(const void *x, const void *y)
{
	const struct kill_ent *a = x, *b = y;

	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

/* The kills, in time order, lmkd's reports of one kill merged. */
void kills_end(struct android *a)
{
	if (a->nkills)
		qsort(a->kills, a->nkills, sizeof(*a->kills), cmp_kill);
	/* lmkd reports one kill several ways (kill_one_process, "lmk,..." slice, instant) */
	for (int i = 0; i < a->nkills; i++) {
		struct kill_ent *k = &a->kills[i];

		if (k->merged || strcmp(k->source, "lmkd") || k->pid <= 0)
			continue;
		for (int j = i + 1; j < a->nkills && a->kills[j].ts - k->ts <= LMKD_MERGE_NS; j++) {
			struct kill_ent *o = &a->kills[j];

			if (o->merged || strcmp(o->source, "lmkd") || o->pid != k->pid)
				continue;
			o->merged = 1;
			if (!k->reason && o->reason)
				k->reason = o->reason, o->reason = NULL;
			if (o->has_adj && (!k->has_adj || !k->has_min_adj))
				k->has_adj = 1, k->adj = o->adj;
			if (o->has_min_adj && !k->has_min_adj)
				k->has_min_adj = 1, k->min_adj = o->min_adj;
			if (!k->comm && o->comm)
				k->comm = o->comm, o->comm = NULL;
		}
	}
	for (int i = 0; i < a->nkills; i++) {
		struct kill_ent *k = &a->kills[i];

		if (k->merged)
			continue;
		if (!k->comm && k->utid >= 0 && derive_thread_comm(a->d, k->utid)) {
			const char *c = derive_thread_comm(a->d, k->utid);

			k->comm = xmemdup0(c, strlen(c));
		}
		dbw_row_begin(a->w, a->kill_stmt);
		dbw_int(a->w, (int64_t)k->ts);
		dbw_text(a->w, k->source, -1);
		put_opt_int(a->w, k->pid > 0, k->pid);
		put_opt_text(a->w, k->comm, -1);
		put_opt_int(a->w, k->has_adj, k->adj);
		put_opt_text(a->w, k->reason, -1);
		put_opt_int(a->w, k->has_min_adj, k->min_adj);
		put_opt_int(a->w, k->has_rss, k->rss_kb);
		put_opt_int(a->w, k->utid >= 0, k->utid);
		dbw_int(a->w, k->buffer);
		dbw_row_end(a->w);
		a->rows++;
	}
}
