/* tests/tools/gen-android.c: synthetic Android traces (trace.dat v6, text twin) from real formats. */
/*
 * usage: gen-android OUT_PREFIX FORMAT_DIR...
 *
 * Builds one trace of the Android events of interest whose formats the FORMAT_DIRs hold
 * (device dumps of ../shared/traces/android/formats: DIR/events/SYSTEM/NAME/format; the first
 * dir that has an event gives its format; the first dir's header_page, header_event and
 * ftrace/print are used). Writes:
 *   OUT_PREFIX.dat     trace.dat v6: every record laid out exactly as its format says (offsets,
 *                      sizes, __data_loc strings, names kept as pointers with printk entries),
 *                      the page header and long size of that kernel
 *   OUT_PREFIX.txt     the text twin: what `trace-cmd report` prints for OUT_PREFIX.dat, written
 *                      here by hand from the same values (the test diffs the two)
 *   OUT_PREFIX.expect  the known answers: the rows the derived tables must hold (below)
 * Records use libtraceevent only to read the formats' field offsets and sizes; the text is
 * formatted by this program from the kernel's print formats, so a misreading of the layout
 * shows up as a difference between trace-cmd report's output and the twin.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <event-parse.h>

#define PAGE 4096

struct val {
	const char *name;
	int64_t i;
	const char *s;		/* string value, or NULL */
};

struct rec {
	uint64_t ts;
	int cpu, pid;
	const char *event;
	struct val v[10];
	int nv;
};

struct evfmt {
	const char *system, *name;
	char *text;
	size_t len;
	struct tep_event *ev;
};

static struct tep_handle *tep;
static struct evfmt evs[64];
static int nevs;
static char *header_page, *header_event, *print_fmt;
static size_t header_page_len, header_event_len, print_fmt_len;
static int long_size = 8, commit_size = 8, data_off = 16;
static struct rec recs[512];
static int nrecs;
static char printk[16384];
static size_t printk_len;
static int nptr;
static FILE *expect;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "gen-android: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, n + 1);
	if (!buf || fread(buf, 1, n, f) != (size_t)n)
		die("%s: cannot read", path);
	fclose(f);
	*len = n;
	return buf;
}

/* Load the format of system/name from the first dir that has it. */
static struct tep_event *load_event(char **dirs, int ndirs, const char *sys, const char *name)
{
	char path[4096];

	for (int i = 0; i < nevs; i++)
		if (!strcmp(evs[i].name, name))
			return evs[i].ev;
	for (int d = 0; d < ndirs; d++) {
		size_t len;
		char *text;
		struct evfmt *e;

		snprintf(path, sizeof(path), "%s/events/%s/%s/format", dirs[d], sys, name);
		text = slurp(path, &len);
		if (!text)
			continue;
		/* formats of several dumps meet in one file: give each its own ID */
		{
			char *id = strstr(text, "\nID: "), *nl = id ? strchr(id + 1, '\n') : NULL;
			char *t2;

			if (!id || !nl)
				die("%s: no ID line", path);
			t2 = malloc(len + 32);
			len = snprintf(t2, len + 32, "%.*s\nID: %d%s", (int)(id - text), text,
				       2000 + nevs, nl);
			free(text);
			text = t2;
		}
		e = &evs[nevs++];
		e->system = sys;
		e->name = name;
		e->text = text;
		e->len = len;
		if (tep_parse_event(tep, text, len, sys))
			die("%s: libtraceevent cannot parse it", path);
		e->ev = tep_find_event_by_name(tep, sys, name);
		return e->ev;
	}
	return NULL;
}

static void add(uint64_t ts, int cpu, int pid, const char *event, int nv, const struct val *v)
{
	struct rec *r = &recs[nrecs++];

	r->ts = ts;
	r->cpu = cpu;
	r->pid = pid;
	r->event = event;
	r->nv = nv;
	memcpy(r->v, v, nv * sizeof(*v));
}

#define ADD(ts, cpu, pid, ev, ...) do { \
	const struct val v_[] = { __VA_ARGS__ }; \
	add(ts, cpu, pid, ev, (int)(sizeof(v_) / sizeof(v_[0])), v_); \
} while (0)

static const struct val *find_val(const struct rec *r, const char *name)
{
	for (int i = 0; i < r->nv; i++)
		if (!strcmp(r->v[i].name, name))
			return &r->v[i];
	return NULL;
}

static int64_t I(const struct rec *r, const char *name)
{
	const struct val *v = find_val(r, name);

	return v ? v->i : 0;
}

static const char *S(const struct rec *r, const char *name)
{
	const struct val *v = find_val(r, name);

	return v && v->s ? v->s : "";
}

/* ---- record bytes ---- */

static uint64_t ptr_for(const char *s)
{
	uint64_t base = long_size == 8 ? 0xffffff8000a00000ull : 0xc0a00000ull;
	uint64_t addr = base + 0x40 * (uint64_t)(++nptr);

	printk_len += snprintf(printk + printk_len, sizeof(printk) - printk_len,
			       "0x%llx : \"%s\"\n", (unsigned long long)addr, s);
	return addr;
}

static size_t build(const struct rec *r, unsigned char *buf)
{
	struct tep_event *ev = tep_find_event_by_name(tep, NULL, r->event);
	struct tep_format_field **f = tep_event_fields(ev);
	size_t end = 0, dyn;
	uint16_t id = ev->id;
	int32_t pid = r->pid;

	memset(buf, 0, 1024);
	memcpy(buf, &id, 2);
	memcpy(buf + 4, &pid, 4);
	for (int i = 0; f[i]; i++)
		if ((size_t)(f[i]->offset + f[i]->size) > end)
			end = f[i]->offset + f[i]->size;
	dyn = end;
	for (int i = 0; f[i]; i++) {
		const struct val *v = find_val(r, f[i]->name);
		int off = f[i]->offset, size = f[i]->size;

		if (!v)
			continue;
		if (!strncmp(f[i]->type, "__data_loc", 10)) {
			size_t n = strlen(v->s) + 1;
			uint32_t loc = (uint32_t)(n << 16 | dyn);

			memcpy(buf + off, &loc, 4);
			memcpy(buf + dyn, v->s, n);
			dyn += n;
		} else if (v->s && strchr(f[i]->type, '*')) {
			uint64_t a = ptr_for(v->s);

			memcpy(buf + off, &a, size);
		} else if (v->s && size == 0) {
			/* print's buf: the rest of the record */
			size_t n = strlen(v->s) + 1;

			memcpy(buf + off, v->s, n);
			dyn = off + n;
		} else if (v->s) {
			strncpy((char *)buf + off, v->s, size);
		} else {
			memcpy(buf + off, &v->i, size);	/* little endian */
		}
	}
	free(f);
	return dyn;
}

/* ---- text: what trace-cmd report prints ---- */

static const char *comm_of(int pid)
{
	switch (pid) {
	case 1000: return "app";
	case 1001: return "RenderThread";
	case 2000: return "lmkd";
	case 3000: return "kworker/0:1";
	case 3001: return "crtc_event";
	default: return "<...>";
	}
}

/* A long field printed with %ld: libtraceevent prints a 4-byte one as unsigned. */
static long long as_long(const struct rec *r, const char *name)
{
	struct tep_event *ev = tep_find_event_by_name(tep, NULL, r->event);
	struct tep_format_field *f = tep_find_field(ev, name);
	int64_t x = I(r, name);

	if (f && f->size == 4)
		return (long long)(uint32_t)x;
	return x;
}

static void payload(FILE *o, const struct rec *r)
{
	const char *e = r->event;

	if (!strcmp(e, "print")) {
		/* "%ps: %s" (3.4: "%08lx %s"); the ip is 0, not a symbol; buf ends in '\n' */
		const char *b = S(r, "buf");
		int n = (int)strlen(b);

		if (n && b[n - 1] == '\n')
			n--;
		if (strstr(print_fmt, "%08lx"))
			fprintf(o, "00000000 %.*s", n, b);
		else
			fprintf(o, "0x0: %.*s", n, b);
	} else if (!strncmp(e, "ion_alloc_buffer_", 17)) {
		fprintf(o, "client_name=%s heap_name=%s len=%lld mask=0x%llx flags=0x%llx",
			S(r, "client_name"), S(r, "heap_name"), (long long)I(r, "len"),
			(long long)I(r, "mask"), (long long)I(r, "flags"));
		if (!strcmp(e, "ion_alloc_buffer_fail") || !strcmp(e, "ion_alloc_buffer_fallback"))
			fprintf(o, " error=%lld", as_long(r, "error"));
	} else if (!strcmp(e, "ion_heap_grow") || !strcmp(e, "ion_heap_shrink")) {
		fprintf(o, "heap_name=%s, len=%lld, total_allocated=%lld", S(r, "heap_name"),
			(long long)I(r, "len"), as_long(r, "total_allocated"));
	} else if (!strcmp(e, "ion_stat")) {
		fprintf(o, "buffer_id=%lld len=%lldB total_allocated=%lldB",
			(long long)I(r, "buffer_id"), as_long(r, "len"),
			as_long(r, "total_allocated"));
	} else if (!strcmp(e, "dma_heap_stat")) {
		fprintf(o, "inode=%lld len=%lldB total_allocated=%lldB", (long long)I(r, "inode"),
			as_long(r, "len"), as_long(r, "total_allocated"));
	} else if (!strcmp(e, "gpu_mem_total")) {
		fprintf(o, "gpu_id=%lld pid=%lld size=%lld", (long long)I(r, "gpu_id"),
			(long long)I(r, "pid"), (long long)I(r, "size"));
	} else if (!strcmp(e, "oom_score_adj_update")) {
		fprintf(o, "pid=%lld comm=%s oom_score_adj=%lld", (long long)I(r, "pid"),
			S(r, "comm"), (long long)I(r, "oom_score_adj"));
	} else if (!strcmp(e, "mark_victim")) {
		fprintf(o, "pid=%lld", (long long)I(r, "pid"));
	} else if (!strcmp(e, "lowmemory_kill")) {
		fprintf(o, "%s (%lld), page cache %lldkB (limit %lldkB), free %lldKb", S(r, "comm"),
			(long long)I(r, "pid"), as_long(r, "pagecache_size"),
			as_long(r, "pagecache_limit"), as_long(r, "free"));
	} else if (!strcmp(e, "fence_annotate_wait_on")) {
		fprintf(o, "driver=%s timeline=%s context=%lld seqno=%lld waits on driver=%s "
			"timeline=%s context=%lld seqno=%lld", S(r, "driver"), S(r, "timeline"),
			(long long)I(r, "context"), (long long)I(r, "seqno"),
			S(r, "waiting_driver"), S(r, "waiting_timeline"),
			(long long)I(r, "waiting_context"), (long long)I(r, "waiting_seqno"));
	} else if (strstr(e, "fence_")) {
		fprintf(o, "driver=%s timeline=%s context=%lld seqno=%lld", S(r, "driver"),
			S(r, "timeline"), (long long)I(r, "context"), (long long)I(r, "seqno"));
	} else if (!strcmp(e, "sync_wait")) {
		fprintf(o, "%s name=%s state=%lld", I(r, "begin") ? "begin" : "end", S(r, "name"),
			(long long)I(r, "status"));
	} else if (!strcmp(e, "sync_pt")) {
		fprintf(o, "name=%s value=%s", S(r, "timeline"), S(r, "value"));
	} else if (!strcmp(e, "sync_timeline")) {
		fprintf(o, "name=%s value=%s", S(r, "name"), S(r, "value"));
	} else {
		die("no text form for %s", e);
	}
}

static void text_line(FILE *o, const struct rec *r)
{
	char name[64];

	snprintf(name, sizeof(name), "%s:", r->event);
	fprintf(o, "%16s-%-5d [%03d] %5llu.%06llu: %-21s ", comm_of(r->pid), r->pid, r->cpu,
		(unsigned long long)(r->ts / 1000000000ull),
		(unsigned long long)(r->ts % 1000000000ull / 1000), name);
	payload(o, r);
	fputc('\n', o);
}

/* ---- trace.dat v6 ---- */

static void put(FILE *f, const void *p, size_t n)
{
	if (fwrite(p, 1, n, f) != n)
		die("write: %s", strerror(errno));
}

static void put32(FILE *f, uint32_t v) { put(f, &v, 4); }
static void put64(FILE *f, uint64_t v) { put(f, &v, 8); }

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu - y->cpu;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* Pages of one CPU's records (sorted) into buf; returns the bytes. */
static size_t cpu_pages(int cpu, unsigned char *out, size_t cap)
{
	size_t n = 0, used = 0;
	uint64_t prev = 0;
	unsigned char rbuf[1024];
	int have_page = 0;
	unsigned char *page = NULL;

	for (int i = 0; i < nrecs; i++) {
		const struct rec *r = &recs[i];
		size_t len, need, alen;
		uint32_t hdr;

		if (r->cpu != cpu)
			continue;
		len = build(r, rbuf);
		alen = (len + 3) & ~(size_t)3;
		need = 4 + (alen > 112 ? 4 : 0) + alen;
		if (!have_page || used + need > (size_t)(PAGE - data_off)) {
			if (n + PAGE > cap)
				die("too many records");
			page = out + n;
			memset(page, 0, PAGE);
			memcpy(page, &r->ts, 8);
			n += PAGE;
			used = 0;
			prev = r->ts;
			have_page = 1;
		}
		if (r->ts - prev >= (1u << 27))
			die("records too far apart for one delta");
		if (alen > 112) {
			hdr = (uint32_t)((r->ts - prev) << 5);
			memcpy(page + data_off + used, &hdr, 4);
			hdr = (uint32_t)alen + 4;
			memcpy(page + data_off + used + 4, &hdr, 4);
			memcpy(page + data_off + used + 8, rbuf, len);
		} else {
			hdr = (uint32_t)((r->ts - prev) << 5 | alen / 4);
			memcpy(page + data_off + used, &hdr, 4);
			memcpy(page + data_off + used + 4, rbuf, len);
		}
		used += need;
		prev = r->ts;
		{
			uint64_t c = used;

			memcpy(page + 8, &c, commit_size);
		}
	}
	return n;
}

static void write_dat(const char *path, int ncpus)
{
	static unsigned char data[4][PAGE * 16];
	size_t sizes[4];
	FILE *f = fopen(path, "w");
	char c;
	long pos;
	uint64_t off;
	int nsys = 0;
	const char *systems[64];

	if (!f)
		die("%s: %s", path, strerror(errno));
	/* the pages first: building records registers the printk strings of pointers */
	for (int cpu = 0; cpu < ncpus; cpu++)
		sizes[cpu] = cpu_pages(cpu, data[cpu], sizeof(data[cpu]));
	put(f, "\x17\x08\x44tracing", 10);
	put(f, "6", 2);
	c = 0;
	put(f, &c, 1);
	c = (char)long_size;
	put(f, &c, 1);
	put32(f, PAGE);
	put(f, "header_page", 12);
	put64(f, header_page_len);
	put(f, header_page, header_page_len);
	put(f, "header_event", 13);
	put64(f, header_event_len);
	put(f, header_event, header_event_len);
	put32(f, 1);
	put64(f, print_fmt_len);
	put(f, print_fmt, print_fmt_len);
	for (int i = 0; i < nevs; i++) {
		int seen = 0;

		for (int j = 0; j < nsys; j++)
			seen |= !strcmp(systems[j], evs[i].system);
		if (!seen)
			systems[nsys++] = evs[i].system;
	}
	put32(f, nsys);
	for (int s = 0; s < nsys; s++) {
		int count = 0;

		for (int i = 0; i < nevs; i++)
			count += !strcmp(evs[i].system, systems[s]);
		put(f, systems[s], strlen(systems[s]) + 1);
		put32(f, count);
		for (int i = 0; i < nevs; i++) {
			if (strcmp(evs[i].system, systems[s]))
				continue;
			put64(f, evs[i].len);
			put(f, evs[i].text, evs[i].len);
		}
	}
	put32(f, 0);			/* kallsyms */
	put32(f, printk_len);
	put(f, printk, printk_len);
	{
		static const int pids[] = { 1000, 1001, 2000, 3000, 3001 };
		char cmd[512];
		size_t n = 0;

		for (size_t i = 0; i < sizeof(pids) / sizeof(pids[0]); i++)
			n += snprintf(cmd + n, sizeof(cmd) - n, "%d %s\n", pids[i], comm_of(pids[i]));
		put64(f, n);
		put(f, cmd, n);
	}
	put32(f, ncpus);
	put(f, "options  ", 10);
	{
		uint16_t done = 0;

		put(f, &done, 2);
	}
	put(f, "flyrecord", 10);
	pos = ftell(f) + 16L * ncpus;
	off = ((uint64_t)pos + PAGE - 1) / PAGE * PAGE;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		put64(f, off);
		put64(f, sizes[cpu]);
		off += sizes[cpu];
	}
	pos = ftell(f);
	for (long p = pos; p % PAGE; p++)
		fputc(0, f);
	for (int cpu = 0; cpu < ncpus; cpu++)
		put(f, data[cpu], sizes[cpu]);
	if (fclose(f))
		die("%s: %s", path, strerror(errno));
}

/* ---- the scenario ---- */

#define US(x) (100000000000ull + (x) * 1000ull)	/* 100 s + x us */

static void marker(uint64_t ts, int cpu, int pid, const char *s)
{
	ADD(ts, cpu, pid, "print", { "ip", 0, NULL }, { "buf", 0, s });
}

int main(int argc, char **argv)
{
	char path[4096], **dirs = argv + 2;
	int ndirs = argc - 2, have;
	FILE *txt;

	if (argc < 3) {
		fprintf(stderr, "usage: gen-android OUT_PREFIX FORMAT_DIR...\n");
		return 2;
	}
	tep = tep_alloc();
	snprintf(path, sizeof(path), "%s/events/header_page", dirs[0]);
	header_page = slurp(path, &header_page_len);
	if (!header_page)
		die("%s: missing", path);
	snprintf(path, sizeof(path), "%s/events/header_event", dirs[0]);
	header_event = slurp(path, &header_event_len);
	if (!header_event) {
		static const char def[] = "# compressed entry header\n\ttype_len    :    5 bits\n"
			"\ttime_delta  :   27 bits\n\tarray       :   32 bits\n\n\tpadding     : "
			"type == 29\n\ttime_extend : type == 30\n\tdata max type_len  == 28\n";

		header_event = strdup(def);
		header_event_len = strlen(def);
	}
	/* the page header says how long the commit field is */
	{
		const char *c = strstr(header_page, "commit;");
		const char *sz = c ? strstr(c, "size:") : NULL;

		commit_size = sz ? atoi(sz + 5) : 8;
		data_off = 8 + commit_size;
	}
	snprintf(path, sizeof(path), "%s/events/ftrace/print/format", dirs[0]);
	print_fmt = slurp(path, &print_fmt_len);
	if (!print_fmt)
		die("%s: missing", path);
	/* the kernel's long: the size of print's `unsigned long ip` */
	{
		const char *ip = strstr(print_fmt, "long ip;");
		const char *sz = ip ? strstr(ip, "size:") : NULL;

		long_size = sz ? atoi(sz + 5) : 8;
	}
	tep_set_long_size(tep, long_size);
	tep_set_page_size(tep, PAGE);
	if (tep_parse_event(tep, print_fmt, print_fmt_len, "ftrace"))
		die("print format: libtraceevent cannot parse it");

	snprintf(path, sizeof(path), "%s.expect", argv[1]);
	expect = fopen(path, "w");
	if (!expect)
		die("%s: %s", path, strerror(errno));
	fprintf(expect, "# known answers of %s: KIND|values (tests/integration/android-synthetic.sh)\n",
		argv[1]);

	/* atrace markers: a slice with a nested one, a counter, an async pair, instants */
	marker(US(10), 0, 1000, "B|1000|frame\n");
	marker(US(20), 0, 1000, "B|1000|draw\n");
	marker(US(45), 0, 1000, "E|1000\n");
	marker(US(60), 0, 1000, "E|1000\n");
	marker(US(70), 0, 1000, "C|1000|fps|60\n");
	marker(US(80), 1, 1001, "S|1000|load|7\n");
	marker(US(95), 1, 1001, "F|1000|load|7\n");
	marker(US(100), 1, 1001, "N|1000|track|ping\n");
	marker(US(110), 1, 1001, "phase one\n");
	/* an atrace fence: "waiting for GPU completion 5" then its signal */
	marker(US(120), 1, 1001, "B|1000|waiting for GPU completion 5\n");
	marker(US(150), 1, 1001, "GPU completion fence 5 has signaled\n");
	marker(US(152), 1, 1001, "E|1000\n");
	fprintf(expect, "slice|100.000010|50|frame|0\nslice|100.000020|25|draw|1\n"
		"slice|100.000080|15|load|0\nslice|100.000120|32|waiting for GPU completion 5|0\n");
	fprintf(expect, "counter|fps|1000|60\n");
	fprintf(expect, "instant|100.000100|ping|track\ninstant|100.000110|phase one|\n"
		"instant|100.000150|GPU completion fence 5 has signaled|\n");
	fprintf(expect, "fence_wait|100.000120|32||5|atrace|GPU completion\n");
	fprintf(expect, "fence|atrace|GPU completion||5|100.000120|||100.000150|\n");
	/* lmkd: a kill reported by its counter and its slice: one kill */
	marker(US(200), 0, 2000, "C|2000|kill_one_process|4000\n");
	marker(US(201), 0, 2000, "B|2000|lmk,4000,3,905,800,0\n");
	marker(US(230), 0, 2000, "E|2000\n");
	marker(US(231), 0, 2000, "C|2000|kill_one_process|0\n");
	fprintf(expect, "kill|100.000200|lmkd|4000|905|low_mem_and_swap|800\n");
	fprintf(expect, "slice|100.000201|29|lmk,4000,3,905,800,0|0\n"
		"counter|kill_one_process|2000|4000\ncounter|kill_one_process|2000|0\n");

	/* kernel LMK and OOM killer */
	if (load_event(dirs, ndirs, "oom", "oom_score_adj_update")) {
		ADD(US(300), 0, 3000, "oom_score_adj_update", { "pid", 4100, NULL },
		    { "comm", 0, "bgapp" }, { "oom_score_adj", 950, NULL });
		ADD(US(301), 0, 3000, "oom_score_adj_update", { "pid", 4200, NULL },
		    { "comm", 0, "svc" }, { "oom_score_adj", 100, NULL });
	}
	if (load_event(dirs, ndirs, "lowmemorykiller", "lowmemory_kill")) {
		ADD(US(310), 0, 3000, "lowmemory_kill", { "comm", 0, "bgapp" }, { "pid", 4100, NULL },
		    { "pagecache_size", 311740, NULL }, { "pagecache_limit", 322560, NULL },
		    { "free", 1456, NULL });
		fprintf(expect, "kill|100.000310|lowmemory_kill|4100|%s|lowmemorykiller|\n",
			load_event(dirs, ndirs, "oom", "oom_score_adj_update") ? "950" : "");
	}
	if (load_event(dirs, ndirs, "oom", "mark_victim")) {
		ADD(US(320), 1, 3000, "mark_victim", { "pid", 4200, NULL });
		fprintf(expect, "kill|100.000320|mark_victim|4200|%s|oom|\n",
			load_event(dirs, ndirs, "oom", "oom_score_adj_update") ? "100" : "");
	}

	/* ION: an attempt, an attempt that falls back and the next that succeeds, a failure */
	if (load_event(dirs, ndirs, "kmem", "ion_alloc_buffer_start") &&
	    load_event(dirs, ndirs, "kmem", "ion_alloc_buffer_end")) {
#define ION(ts, ev, heap, len, ...) ADD(ts, 0, 1000, ev, { "client_name", 0, "surfaceflinger" }, \
	{ "heap_name", 0, heap }, { "len", len, NULL }, { "mask", 0x2000000, NULL }, \
	{ "flags", 3, NULL }, __VA_ARGS__)
		ION(US(400), "ion_alloc_buffer_start", "system", 4096, { "x", 0, NULL });
		ION(US(412), "ion_alloc_buffer_end", "system", 4096, { "x", 0, NULL });
		fprintf(expect, "alloc|100.000400|12|ion|system|surfaceflinger|4096|1||0\n");
		have = !!load_event(dirs, ndirs, "kmem", "ion_alloc_buffer_fallback");
		ION(US(420), "ion_alloc_buffer_start", "qsecom", 8192, { "x", 0, NULL });
		ION(US(450), "ion_alloc_buffer_end", "qsecom", 8192, { "x", 0, NULL });
		if (have) {
			ION(US(451), "ion_alloc_buffer_fallback", "qsecom", 8192,
			    { "error", -12, NULL });
			fprintf(expect, "alloc|100.000420|30|ion|qsecom|surfaceflinger|8192|0|-12|1\n");
		} else {
			fprintf(expect, "alloc|100.000420|30|ion|qsecom|surfaceflinger|8192|1||0\n");
		}
		ION(US(460), "ion_alloc_buffer_start", "system", 8192, { "x", 0, NULL });
		ION(US(470), "ion_alloc_buffer_end", "system", 8192, { "x", 0, NULL });
		fprintf(expect, "alloc|100.000460|10|ion|system|surfaceflinger|8192|1||0\n");
		if (load_event(dirs, ndirs, "kmem", "ion_alloc_buffer_fail")) {
			ION(US(480), "ion_alloc_buffer_fail", "system", 1048576,
			    { "error", -12, NULL });
			fprintf(expect, "alloc|100.000480||ion_fail|system|surfaceflinger|1048576|0|"
				"-12|0\n");
		}
	}
	if (load_event(dirs, ndirs, "kmem", "ion_heap_grow") &&
	    load_event(dirs, ndirs, "kmem", "ion_heap_shrink")) {
		ADD(US(500), 1, 3000, "ion_heap_grow", { "heap_name", 0, "system" },
		    { "len", 20480, NULL }, { "total_allocated", 181116928, NULL });
		ADD(US(510), 1, 3000, "ion_heap_shrink", { "heap_name", 0, "system" },
		    { "len", 4096, NULL }, { "total_allocated", 181112832, NULL });
		fprintf(expect, "alloc|100.000500||ion_heap_grow|system||20480|1||0\n"
			"alloc|100.000510||ion_heap_shrink|system||-4096|1||0\n"
			"heap|ion_heap_total|system|181116928|181112832\n");
	}
	if (load_event(dirs, ndirs, "ion", "ion_stat")) {
		ADD(US(520), 0, 1000, "ion_stat", { "buffer_id", 77, NULL }, { "len", 65536, NULL },
		    { "total_allocated", 1114112, NULL });
		ADD(US(530), 0, 1000, "ion_stat", { "buffer_id", 77, NULL }, { "len", -65536, NULL },
		    { "total_allocated", 1048576, NULL });
		fprintf(expect, "alloc|100.000520||ion_stat||app|65536|1||0\n"
			"alloc|100.000530||ion_stat||app|-65536|1||0\n"
			"heap|ion_total||1114112|1048576\n");
	}
	if (load_event(dirs, ndirs, "dmabuf_heap", "dma_heap_stat")) {
		ADD(US(540), 0, 1000, "dma_heap_stat", { "inode", 9, NULL }, { "len", 131072, NULL },
		    { "total_allocated", 2228224, NULL });
		fprintf(expect, "alloc|100.000540||dma_heap_stat||app|131072|1||0\n"
			"heap|dma_heap_total||2228224|2228224\n");
	}
	if (load_event(dirs, ndirs, "gpu_mem", "gpu_mem_total")) {
		ADD(US(550), 1, 3000, "gpu_mem_total", { "gpu_id", 0, NULL }, { "pid", 0, NULL },
		    { "size", 50000000, NULL });
		ADD(US(551), 1, 3000, "gpu_mem_total", { "gpu_id", 0, NULL }, { "pid", 1000, NULL },
		    { "size", 12000000, NULL });
		ADD(US(560), 1, 3000, "gpu_mem_total", { "gpu_id", 0, NULL }, { "pid", 1000, NULL },
		    { "size", 8000000, NULL });
		fprintf(expect, "gpu||50000000\ngpu|1000|12000000\n");
	}

	/* fences: dma_fence_* (or fence_* on 4.4) lifecycles, a wait, a double signal */
	{
		/* 4.4's fence_* when the dump has them, else dma_fence_* */
		const char *p = load_event(dirs, ndirs, "fence", "fence_init") ? "fence_" :
			load_event(dirs, ndirs, "dma_fence", "dma_fence_init") ? "dma_fence_" : NULL;
		const char *sys = p && !strcmp(p, "fence_") ? "fence" : "dma_fence";
		static const char *const stages[] = { "init", "emit", "enable_signal", "signaled",
						      "destroy", "wait_start", "wait_end" };
		static char name[7][40];
		int ok[7];

		for (int i = 0; p && i < 7; i++) {
			snprintf(name[i], sizeof(name[i]), "%s%s", p, stages[i]);
			ok[i] = !!load_event(dirs, ndirs, sys, name[i]);
		}
#define FENCE(ts, cpu, pid, k, seq) do { if (ok[k]) ADD(ts, cpu, pid, name[k], \
	{ "driver", 0, "msm_drm" }, { "timeline", 0, "gfx" }, { "context", 12, NULL }, \
	{ "seqno", seq, NULL }); } while (0)
		if (p) {
			/* seqno 40: init 600, emit 610, enable 615, wait 620..680, signal 670, destroy 700 */
			FENCE(US(600), 0, 1001, 0, 40);
			FENCE(US(610), 0, 1001, 1, 40);
			FENCE(US(615), 0, 1001, 2, 40);
			FENCE(US(620), 0, 1001, 5, 40);
			FENCE(US(670), 1, 3001, 3, 40);
			FENCE(US(680), 0, 1001, 6, 40);
			FENCE(US(700), 1, 3001, 4, 40);
			/* seqno 41 and 42: 42 signals before 41 (one order violation); 43 never */
			FENCE(US(710), 0, 1001, 0, 41);
			FENCE(US(711), 0, 1001, 0, 42);
			FENCE(US(712), 0, 1001, 0, 43);
			FENCE(US(730), 1, 3001, 3, 42);
			FENCE(US(740), 1, 3001, 3, 41);
			FENCE(US(741), 1, 3001, 3, 41);
			fprintf(expect, "fence|msm_drm|gfx|12|40|100.000600|%s|%s|100.000670|%s\n",
				ok[1] ? "100.000610" : "", ok[2] ? "100.000615" : "",
				ok[4] ? "100.000700" : "");
			fprintf(expect, "fence|msm_drm|gfx|12|41|100.000710|||100.000740|\n"
				"fence|msm_drm|gfx|12|42|100.000711|||100.000730|\n"
				"fence|msm_drm|gfx|12|43|100.000712||||\n");
			if (ok[5] && ok[6])
				fprintf(expect, "fence_wait|100.000620|60|12|40|%s|gfx\n",
					!strcmp(sys, "fence") ? "fence" : "dma_fence");
			fprintf(expect, "anomaly|fence_signaled_twice|1\n");
		}
		if (load_event(dirs, ndirs, "fence", "fence_annotate_wait_on")) {
			ADD(US(750), 0, 1001, "fence_annotate_wait_on", { "driver", 0, "msm_drm" },
			    { "timeline", 0, "gfx" }, { "context", 12, NULL }, { "seqno", 43, NULL },
			    { "waiting_driver", 0, "sde" }, { "waiting_timeline", 0, "crtc0" },
			    { "waiting_context", 3, NULL }, { "waiting_seqno", 9, NULL });
			fprintf(expect, "waits_on|12|43|3|9\n");
		}
	}

	/* sync (3.x/4.4; system sync, or sync_trace where a kernel names it so): a wait on a
	 * point of a timeline that signals later */
	const char *sync = load_event(dirs, ndirs, "sync", "sync_wait") ? "sync" : "sync_trace";

	if (load_event(dirs, ndirs, sync, "sync_wait") &&
	    load_event(dirs, ndirs, sync, "sync_pt") &&
	    load_event(dirs, ndirs, sync, "sync_timeline")) {
		ADD(US(800), 0, 1000, "sync_timeline", { "name", 0, "mali" }, { "value", 0, "99" });
		ADD(US(810), 0, 1000, "sync_wait", { "name", 0, "SurfaceView:6" },
		    { "status", 1, NULL }, { "begin", 1, NULL });
		ADD(US(811), 0, 1000, "sync_pt", { "timeline", 0, "mali" }, { "value", 0, "101" });
		ADD(US(812), 0, 1000, "sync_pt", { "timeline", 0, "mali" }, { "value", 0, "98" });
		ADD(US(850), 1, 3000, "sync_timeline", { "name", 0, "mali" }, { "value", 0, "101" });
		ADD(US(860), 0, 1000, "sync_wait", { "name", 0, "SurfaceView:6" },
		    { "status", 1, NULL }, { "begin", 0, NULL });
		fprintf(expect, "fence|sync|mali||101|100.000811|||100.000850|\n"
			"fence_wait|100.000810|50|||sync_wait|SurfaceView:6\n"
			"counter|sync_timeline|mali|99|101\n");
	}

	/* the text twin, in time order as trace-cmd report prints it */
	snprintf(path, sizeof(path), "%s.txt", argv[1]);
	txt = fopen(path, "w");
	if (!txt)
		die("%s: %s", path, strerror(errno));
	fprintf(txt, "cpus=2\n");
	{
		int *order = calloc(nrecs, sizeof(int));

		for (int i = 0; i < nrecs; i++)
			order[i] = i;
		for (int i = 1; i < nrecs; i++)		/* stable insertion sort by ts */
			for (int j = i; j > 0 && recs[order[j]].ts < recs[order[j - 1]].ts; j--) {
				int t = order[j];

				order[j] = order[j - 1];
				order[j - 1] = t;
			}
		for (int i = 0; i < nrecs; i++)
			text_line(txt, &recs[order[i]]);
		free(order);
	}
	fclose(txt);
	fclose(expect);
	qsort(recs, nrecs, sizeof(recs[0]), cmp_rec);
	snprintf(path, sizeof(path), "%s.dat", argv[1]);
	write_dat(path, 2);
	for (int i = 0; i < nevs; i++)
		free(evs[i].text);
	free(header_page);
	free(header_event);
	free(print_fmt);
	tep_free(tep);
	return 0;
}
