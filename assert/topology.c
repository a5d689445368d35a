/* assert/topology.c: CPU groups a rule names that the trace's facts define ("little", "big",
 * "mid", "clusterN"), resolved against the database's meta. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert/assert-local.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* A CPU's facts from meta (cpu.N.capacity, cpu.N.cluster), -1 where absent. */
struct cpu_fact {
	int cpu;
	long long capacity, cluster;
};

struct facts {
	struct cpu_fact *v;
	int n, cap;
	int ncap, nclus;	/* CPUs with a capacity, with a cluster id */
};

static struct cpu_fact *fact_of(struct facts *f, int cpu)
{
	for (int i = 0; i < f->n; i++)
		if (f->v[i].cpu == cpu)
			return &f->v[i];
	TRAX_GROW(f->v, f->n, f->cap, 16);
	f->v[f->n] = (struct cpu_fact){ cpu, -1, -1 };
	return &f->v[f->n++];
}

static int read_facts(sqlite3 *db, struct facts *f, struct trax_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	memset(f, 0, sizeof(*f));
	if (sqlite3_prepare_v2(db, "SELECT key, value FROM meta WHERE key GLOB 'cpu.[0-9]*.capacity' "
			       "OR key GLOB 'cpu.[0-9]*.cluster'", -1, &st, NULL) != SQLITE_OK)
		return trax_error_set(err, TRAX_E_DB, "reading meta: %s", sqlite3_errmsg(db));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 0);
		const char *v = (const char *)sqlite3_column_text(st, 1);
		char what[16], *end;
		long long x;
		int cpu;

		if (!k || !v || sscanf(k, "cpu.%d.%15s", &cpu, what) != 2 || cpu < 0 || cpu > 4095)
			continue;
		x = strtoll(v, &end, 10);
		if (end == v || *end || x < 0)
			continue;
		if (!strcmp(what, "capacity")) {
			fact_of(f, cpu)->capacity = x;
			f->ncap++;
		} else if (!strcmp(what, "cluster")) {
			fact_of(f, cpu)->cluster = x;
			f->nclus++;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return trax_error_set(err, TRAX_E_DB, "reading meta: %s", sqlite3_errmsg(db));
	return 0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* The distinct capacities, ascending, into lv (f->ncap entries at most); returns how many. */
static int capacity_levels(const struct facts *f, long long *lv)
{
	int n = 0, k = 0;

	for (int i = 0; i < f->n; i++)
		if (f->v[i].capacity >= 0)
			lv[n++] = f->v[i].capacity;
	qsort(lv, n, sizeof(*lv), cmp_ll);
	for (int i = 0; i < n; i++)
		if (!k || lv[k - 1] != lv[i])
			lv[k++] = lv[i];
	return k;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The CPUs whose fact (capacity when by_cluster is 0, else cluster) equals want, sorted. */
static int pick(const struct facts *f, int by_cluster, long long want, int **cpus)
{
	int n = 0;

	*cpus = xmalloc((f->n + 1) * sizeof(int));
	for (int i = 0; i < f->n; i++)
		if ((by_cluster ? f->v[i].cluster : f->v[i].capacity) == want)
			(*cpus)[n++] = f->v[i].cpu;
	qsort(*cpus, n, sizeof(int), cmp_int);
	return n;
}

static void list_levels(struct strbuf *sb, const long long *lv, int n)
{
	for (int i = 0; i < n; i++)
		strbuf_addf(sb, "%s%lld", i ? ", " : "", lv[i]);
}

/*
 * The CPUs of a group the facts define: 0 with *cpus (malloc'd) and *n; 1 when the facts do
 * not give it (reason filled: the fact missing, or why it does not tell the group).
 */
static int resolve_name(const struct facts *f, const char *name, int **cpus, int *n,
			struct strbuf *reason)
{
	long long *lv;
	int nlv;

	*cpus = NULL;
	*n = 0;
	if (!strncmp(name, "cluster", 7)) {
		long long id = strtoll(name + 7, NULL, 10);

		if (!f->nclus) {
			strbuf_addf(reason, "CPU group \"%s\": the trace has no cluster ids (meta "
				    "cpu.N.cluster, from the target's facts); define \"%s\" in the "
				    "rule file's topology", name, name);
			return 1;
		}
		*n = pick(f, 1, id, cpus);
		if (!*n) {
			free(*cpus);
			*cpus = NULL;
			strbuf_addf(reason, "CPU group \"%s\": no CPU of the trace is in cluster "
				    "%lld (meta cpu.N.cluster)", name, id);
			return 1;
		}
		return 0;
	}
	if (!f->ncap) {
		strbuf_addf(reason, "CPU group \"%s\": the trace has no CPU capacities (meta "
			    "cpu.N.capacity, from the target's facts); define \"%s\" in the rule "
			    "file's topology", name, name);
		return 1;
	}
	lv = xmalloc((f->n + 1) * sizeof(*lv));
	nlv = capacity_levels(f, lv);
	if (nlv < 2 || (!strcmp(name, "mid") && nlv != 3)) {
		strbuf_addf(reason, "CPU group \"%s\": ", name);
		if (nlv < 2)
			strbuf_addf(reason, "every CPU of the trace has capacity %lld (meta "
				    "cpu.N.capacity): no CPU is smaller or bigger", lv[0]);
		else {
			strbuf_addf(reason, "\"mid\" needs three capacity levels; the trace's CPUs "
				    "have %d (", nlv);
			list_levels(reason, lv, nlv);
			strbuf_adds(reason, ")");
		}
		strbuf_addf(reason, "; define \"%s\" in the rule file's topology", name);
		free(lv);
		return 1;
	}
	*n = pick(f, 0, !strcmp(name, "little") ? lv[0] : !strcmp(name, "big") ? lv[nlv - 1]
		  : lv[1], cpus);
	free(lv);
	return 0;
}

int trax_topology_group(sqlite3 *db, const char *name, int **cpus, int *n, char *reason,
			size_t rlen, struct trax_error *err)
{
	struct strbuf why = STRBUF_INIT;
	struct facts f;
	int ret;

	*cpus = NULL;
	*n = 0;
	if (!trax_topology_fact_name(name)) {
		snprintf(reason, rlen, "\"%s\" is no CPU group of the trace's facts", name);
		return 1;
	}
	ret = read_facts(db, &f, err);
	if (ret)
		return ret;
	ret = resolve_name(&f, name, cpus, n, &why);
	if (ret)
		snprintf(reason, rlen, "%s", why.buf);
	strbuf_release(&why);
	free(f.v);
	return ret;
}

int assert_topology_resolve(sqlite3 *db, const struct trax_rule *r, struct trax_rule *out,
			    char *reason, size_t rlen, struct trax_error *err)
{
	struct strbuf why = STRBUF_INIT;
	struct facts f;
	int ret;

	*out = *r;
	if (!trax_rule_needs_facts(r))
		return 0;
	ret = read_facts(db, &f, err);
	if (ret)
		return ret;
	/* the sets not resolved stay NULL: assert_topology_release() frees only the others */
	out->cpus = out->from_cpus = out->to_cpus = out->expect.cpus = NULL;
	if ((r->facts & TRAX_FACTS_CPUS) &&
	    resolve_name(&f, r->cpus_name, &out->cpus, &out->ncpus, &why))
		ret = 1;
	if (!ret && (r->facts & TRAX_FACTS_FROM) &&
	    resolve_name(&f, r->from_name, &out->from_cpus, &out->nfrom, &why))
		ret = 1;
	if (!ret && (r->facts & TRAX_FACTS_TO) &&
	    resolve_name(&f, r->to_name, &out->to_cpus, &out->nto, &why))
		ret = 1;
	if (!ret && r->expect.group_facts &&
	    resolve_name(&f, r->expect.group, &out->expect.cpus, &out->expect.ncpus, &why))
		ret = 1;
	/* what was not named from the facts is the rule's own */
	if (!(r->facts & TRAX_FACTS_CPUS))
		out->cpus = r->cpus;
	if (!(r->facts & TRAX_FACTS_FROM))
		out->from_cpus = r->from_cpus;
	if (!(r->facts & TRAX_FACTS_TO))
		out->to_cpus = r->to_cpus;
	if (!r->expect.group_facts)
		out->expect.cpus = r->expect.cpus;
	out->facts = 0;
	out->expect.group_facts = 0;
	if (ret) {
		snprintf(reason, rlen, "%s", why.buf);
		assert_topology_release(r, out);
	}
	strbuf_release(&why);
	free(f.v);
	return ret;
}

void assert_topology_release(const struct trax_rule *r, struct trax_rule *out)
{
	if (r->facts & TRAX_FACTS_CPUS)
		free(out->cpus);
	if (r->facts & TRAX_FACTS_FROM)
		free(out->from_cpus);
	if (r->facts & TRAX_FACTS_TO)
		free(out->to_cpus);
	if (r->expect.group_facts)
		free(out->expect.cpus);
	out->cpus = out->from_cpus = out->to_cpus = out->expect.cpus = NULL;
}
