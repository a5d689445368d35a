/* collect/facts.c: the target's facts read from sysfs, written as "trax: target ..." markers. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "collect/facts.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define MAX_CPUS 4096

/* The content of root/rel (trailing newlines and spaces cut) in buf; 0, or -1 when absent or
 * empty. */
static int read_text(const char *root, const char *rel, char *buf, size_t size)
{
	char path[1024];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return n ? 0 : -1;
}

static int read_num(const char *root, const char *rel, long long *v)
{
	char buf[64], *end;

	if (read_text(root, rel, buf, sizeof(buf)))
		return -1;
	*v = strtoll(buf, &end, 10);
	return end != buf && (*end == '\0' || isspace((unsigned char)*end)) ? 0 : -1;
}

/*
 * Parse a CPU list ("0-3,5", "0 1 2 3", "1-2\n") into set[0..MAX_CPUS). Returns the number of
 * CPUs in it, or -1 when it is no list.
 */
static int parse_cpulist(const char *s, unsigned char *set)
{
	int n = 0;

	memset(set, 0, MAX_CPUS);
	while (*s) {
		char *end;
		long a, b;

		if (isspace((unsigned char)*s) || *s == ',') {
			s++;
			continue;
		}
		a = strtol(s, &end, 10);
		if (end == s || a < 0 || a >= MAX_CPUS)
			return -1;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b >= MAX_CPUS)
				return -1;
			s = end;
		}
		for (long c = a; c <= b; c++)
			if (!set[c]++)
				n++;
	}
	return n;
}

/* set as a range list ("0,3-5") into buf. */
static void format_cpulist(const unsigned char *set, char *buf, size_t size)
{
	struct strbuf sb = STRBUF_INIT;

	for (int c = 0; c < MAX_CPUS; c++) {
		int e = c;

		if (!set[c])
			continue;
		while (e + 1 < MAX_CPUS && set[e + 1])
			e++;
		strbuf_addf(&sb, "%s%d", sb.len ? "," : "", c);
		if (e > c)
			strbuf_addf(&sb, "-%d", e);
		c = e;
	}
	snprintf(buf, size, "%s", sb.len ? sb.buf : "");
	strbuf_release(&sb);
}

/* A list file of root/rel rewritten as a range list; "" when absent or not a list. */
static void read_cpulist(const char *root, const char *rel, unsigned char *set, char *buf,
			 size_t size)
{
	char text[4096];

	buf[0] = '\0';
	if (read_text(root, rel, text, sizeof(text)) || parse_cpulist(text, set) <= 0)
		return;
	format_cpulist(set, buf, size);
}

/*
 * The CPUs: those with a cpuN directory (a machine's possible list may name many more CPUs
 * than it has: a VM's 0-63), else those of devices/system/cpu/possible. The possible list is
 * kept in f->possible either way.
 */
static int list_cpus(const char *root, struct trax_facts *f, unsigned char *set)
{
	char path[1024];
	struct dirent *e;
	DIR *d;
	int n = 0;

	read_cpulist(root, "devices/system/cpu/possible", set, f->possible, sizeof(f->possible));
	snprintf(path, sizeof(path), "%s/devices/system/cpu", root);
	d = opendir(path);
	if (d) {
		unsigned char *dirs = xcalloc(MAX_CPUS, 1);

		while ((e = readdir(d))) {
			char *end;
			long c;

			if (strncmp(e->d_name, "cpu", 3) || !isdigit((unsigned char)e->d_name[3]))
				continue;
			c = strtol(e->d_name + 3, &end, 10);
			if (*end || c < 0 || c >= MAX_CPUS || dirs[c])
				continue;
			dirs[c] = 1;
			n++;
		}
		closedir(d);
		if (n)
			memcpy(set, dirs, MAX_CPUS);
		free(dirs);
	}
	if (!n && f->possible[0])
		for (int c = 0; c < MAX_CPUS; c++)
			n += !!set[c];
	else if (!n)
		memset(set, 0, MAX_CPUS);
	return n;
}

/* A name as a marker item: no separators of the format, no control characters. */
static void clean_name(char *dst, size_t size, const char *src)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < size; i++) {
		unsigned char ch = (unsigned char)src[i];

		dst[i] = ch <= ' ' || ch == ',' || ch == ':' || ch == '=' || ch >= 0x7f ? '_' : ch;
	}
	dst[i] = '\0';
}

static void read_freqs(const char *root, struct trax_cpu_facts *cf)
{
	char rel[128], text[4096];
	int cap = 0;

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpufreq/scaling_available_frequencies",
		 cf->cpu);
	if (read_text(root, rel, text, sizeof(text)))
		return;
	for (char *p = text; *p;) {
		char *end;
		long long v = strtoll(p, &end, 10);

		if (end == p) {
			p++;
			continue;
		}
		if (v > 0) {
			TRAX_GROW(cf->freqs, cf->nfreqs, cap, 16);
			cf->freqs[cf->nfreqs++] = v;
		}
		p = end;
	}
}

static void read_idle(const char *root, struct trax_cpu_facts *cf)
{
	int cap = 0;

	for (int s = 0; s < 64; s++) {
		char rel[160], name[128];
		struct trax_idle_state *st;

		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpuidle/state%d/name", cf->cpu,
			 s);
		if (read_text(root, rel, name, sizeof(name)))
			break;
		TRAX_GROW(cf->idle, cf->nidle, cap, 8);
		st = &cf->idle[cf->nidle++];
		clean_name(st->name, sizeof(st->name), name);
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpuidle/state%d/latency",
			 cf->cpu, s);
		if (read_num(root, rel, &st->latency_us))
			st->latency_us = -1;
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpuidle/state%d/residency",
			 cf->cpu, s);
		if (read_num(root, rel, &st->residency_us))
			st->residency_us = -1;
	}
}

static void read_cpu(const char *root, struct trax_cpu_facts *cf, unsigned char *set)
{
	char rel[160];
	long long v;

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/online", cf->cpu);
	cf->online = read_num(root, rel, &v) ? -1 : v == 1;
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpu_capacity", cf->cpu);
	if (read_num(root, rel, &cf->capacity) || cf->capacity < 0)
		cf->capacity = -1;
	/* cluster_id reads -1 where arm64 firmware describes no clusters, and 65535 (BAD_APICID)
	 * on x86 without cluster information: then the package */
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/cluster_id", cf->cpu);
	if (read_num(root, rel, &cf->cluster) || cf->cluster < 0 || cf->cluster >= 65535) {
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/physical_package_id",
			 cf->cpu);
		if (read_num(root, rel, &cf->cluster) || cf->cluster < 0 || cf->cluster >= 65535)
			cf->cluster = -1;
	}
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpufreq/related_cpus", cf->cpu);
	read_cpulist(root, rel, set, cf->freq_domain, sizeof(cf->freq_domain));
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpufreq/cpuinfo_min_freq", cf->cpu);
	if (read_num(root, rel, &cf->min_khz))
		cf->min_khz = -1;
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", cf->cpu);
	if (read_num(root, rel, &cf->max_khz))
		cf->max_khz = -1;
	read_freqs(root, cf);
	read_idle(root, cf);
}

int trax_facts_read(const char *sysfs, const char *kernel, struct trax_facts *f)
{
	unsigned char *set = xcalloc(MAX_CPUS, 1), *tmp = xcalloc(MAX_CPUS, 1);
	const char *root = sysfs ? sysfs : "/sys";
	int n = 0;

	memset(f, 0, sizeof(*f));
	if (kernel) {
		clean_name(f->kernel, sizeof(f->kernel), kernel);
	} else {
		struct utsname u;

		if (!uname(&u))
			clean_name(f->kernel, sizeof(f->kernel), u.release);
	}
	f->ncpus = list_cpus(root, f, set);
	read_cpulist(root, "devices/system/cpu/online", tmp, f->online, sizeof(f->online));
	f->cpus = xcalloc(f->ncpus ? f->ncpus : 1, sizeof(*f->cpus));
	for (int c = 0; c < MAX_CPUS && n < f->ncpus; c++) {
		if (!set[c])
			continue;
		f->cpus[n].cpu = c;
		read_cpu(root, &f->cpus[n], tmp);
		n++;
	}
	free(set);
	free(tmp);
	return 0;
}

void trax_facts_release(struct trax_facts *f)
{
	for (int i = 0; i < f->ncpus; i++) {
		free(f->cpus[i].freqs);
		free(f->cpus[i].idle);
	}
	free(f->cpus);
	memset(f, 0, sizeof(*f));
}

/* ---- markers ---- */

/* The markers under way: each starts with head; fields go to the current one while it has
 * room. */
struct mk {
	int (*emit)(void *ctx, const char *line);
	void *ctx;
	const char *head;
	struct strbuf line;
	int n, err;
};

static void mk_flush(struct mk *m)
{
	int r;

	if (m->line.len <= strlen(m->head) || m->err)
		return;
	r = m->emit(m->ctx, m->line.buf);
	if (r < 0)
		m->err = r;
	else
		m->n++;
	strbuf_reset(&m->line);
}

/* Add " KEY=VALUE" to the marker, starting another when it does not fit. */
static void mk_field(struct mk *m, const char *key, const char *value)
{
	size_t need = 2 + strlen(key) + strlen(value);

	if (m->line.len && m->line.len + need > TRAX_FACTS_MARKER_MAX)
		mk_flush(m);
	if (!m->line.len)
		strbuf_adds(&m->line, m->head);
	strbuf_addf(&m->line, " %s=%s", key, value);
}

/* A list field: cut at a whole item when even a marker of its own cannot hold it. */
static void mk_list(struct mk *m, const char *key, const struct strbuf *items)
{
	size_t room = TRAX_FACTS_MARKER_MAX - strlen(m->head) - 2 - strlen(key);
	struct strbuf cut = STRBUF_INIT;

	if (!items->len)
		return;
	if (items->len <= room) {
		mk_field(m, key, items->buf);
		return;
	}
	strbuf_add(&cut, items->buf, room);
	while (cut.len && items->buf[cut.len] != ',')
		cut.buf[--cut.len] = '\0';
	if (cut.len)
		mk_field(m, key, cut.buf);
	strbuf_release(&cut);
}

static void num_field(struct mk *m, const char *key, long long v)
{
	char buf[32];

	if (v < 0)
		return;
	snprintf(buf, sizeof(buf), "%lld", v);
	mk_field(m, key, buf);
}

static void cpu_markers(struct mk *m, const struct trax_cpu_facts *cf)
{
	struct strbuf list = STRBUF_INIT;
	char head[32];

	snprintf(head, sizeof(head), "trax: target cpu=%d", cf->cpu);
	m->head = head;
	strbuf_adds(&m->line, head);
	num_field(m, "online", cf->online);
	num_field(m, "capacity", cf->capacity);
	num_field(m, "cluster", cf->cluster);
	if (cf->freq_domain[0])
		mk_field(m, "freq_domain", cf->freq_domain);
	num_field(m, "min_freq", cf->min_khz);
	num_field(m, "max_freq", cf->max_khz);
	for (int i = 0; i < cf->nfreqs; i++)
		strbuf_addf(&list, "%s%lld", i ? "," : "", cf->freqs[i]);
	mk_list(m, "freqs", &list);
	strbuf_reset(&list);
	for (int i = 0; i < cf->nidle; i++) {
		const struct trax_idle_state *s = &cf->idle[i];

		strbuf_addf(&list, "%s%s:", i ? "," : "", s->name);
		if (s->latency_us >= 0)
			strbuf_addf(&list, "%lld", s->latency_us);
		strbuf_addch(&list, ':');
		if (s->residency_us >= 0)
			strbuf_addf(&list, "%lld", s->residency_us);
	}
	mk_list(m, "idle_states", &list);
	/* a CPU with no fact at all still says it exists */
	if (m->line.len == strlen(head) && !m->err) {
		int r = m->emit(m->ctx, m->line.buf);

		if (r < 0)
			m->err = r;
		else
			m->n++;
	}
	mk_flush(m);
	strbuf_reset(&m->line);
	strbuf_release(&list);
}

int trax_facts_write(const struct trax_facts *f, int (*emit)(void *ctx, const char *line),
		     void *ctx)
{
	struct mk m = { .emit = emit, .ctx = ctx, .head = "trax: target", .line = STRBUF_INIT };
	char buf[32];

	strbuf_adds(&m.line, m.head);
	if (f->kernel[0])
		mk_field(&m, "kernel", f->kernel);
	snprintf(buf, sizeof(buf), "%d", f->ncpus);
	mk_field(&m, "ncpus", buf);
	if (f->possible[0])
		mk_field(&m, "cpus_possible", f->possible);
	if (f->online[0])
		mk_field(&m, "cpus_online", f->online);
	mk_flush(&m);
	strbuf_reset(&m.line);
	for (int i = 0; i < f->ncpus && !m.err; i++)
		cpu_markers(&m, &f->cpus[i]);
	strbuf_release(&m.line);
	return m.err ? m.err : m.n;
}

static int emit_file(void *ctx, const char *line)
{
	return fprintf(ctx, "%s\n", line) < 0 ? -1 : 0;
}

int trax_facts_write_file(const struct trax_facts *f, FILE *out)
{
	return trax_facts_write(f, emit_file, out);
}
