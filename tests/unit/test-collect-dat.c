/* tests/unit/test-collect-dat.c: the trace.dat writer and lost-event marks, read back with
 * libtracecmd (no root: formats and ring-buffer pages are made here, byte by byte). */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <trace-cmd/trace-cmd.h>

#include "collect/collect-local.h"

#define PAGE 4096
#define HDR 16		/* page header: u64 time stamp, u64 commit (64-bit kernel) */
#define MISSED (1ULL << 31)
#define STORED (1ULL << 30)

/* This kernel's (6.18, x86_64) files, as tracefs shows them. */
static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
static const char header_event[] =
	"# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n\tdata max type_len  == 28\n";
static const char fmt_print[] =
	"name: print\nID: 5\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";
static const char fmt_switch[] =
	"name: sched_switch\nID: 372\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%ld ==> next_comm=%s "
	"next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
	"REC->prev_state, REC->next_comm, REC->next_pid, REC->next_prio\n";

/* ---- pages, byte by byte ---- */

struct page {
	unsigned char b[PAGE];
	size_t len;		/* data bytes */
};

static void page_init(struct page *p, uint64_t ts)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->b, &ts, 8);
}

static void page_commit(struct page *p, uint64_t flags)
{
	uint64_t c = p->len | flags;

	memcpy(p->b + 8, &c, 8);
}

/* An event record: header (type_len = words, time delta) and data of 4-byte multiples. */
static void page_event(struct page *p, uint32_t delta, const void *data, size_t len)
{
	uint32_t h = (delta << 5) | (uint32_t)(len / 4);

	assert_true(len % 4 == 0 && len / 4 <= 28);
	assert_true(HDR + p->len + 4 + len <= PAGE);
	memcpy(p->b + HDR + p->len, &h, 4);
	memcpy(p->b + HDR + p->len + 4, data, len);
	p->len += 4 + len;
}

/* The rest of the page as the kernel pads a full page: a padding event, time delta 0. */
static void page_pad(struct page *p)
{
	uint32_t h = 29;

	memcpy(p->b + HDR + p->len, &h, 4);
	p->len = PAGE - HDR;
}

static void sched_switch(unsigned char rec[64], int pid, const char *prev, int next_pid,
			 const char *next)
{
	uint16_t id = 372;
	int32_t prio = 120;
	int64_t state = 1;

	memset(rec, 0, 64);
	memcpy(rec, &id, 2);
	memcpy(rec + 4, &pid, 4);
	snprintf((char *)rec + 8, 16, "%s", prev);
	memcpy(rec + 24, &pid, 4);
	memcpy(rec + 28, &prio, 4);
	memcpy(rec + 32, &state, 8);
	snprintf((char *)rec + 40, 16, "%s", next);
	memcpy(rec + 56, &next_pid, 4);
	memcpy(rec + 60, &prio, 4);
}

static size_t print_rec(unsigned char rec[64], int pid, const char *msg)
{
	uint16_t id = 5;
	size_t len = 16 + strlen(msg) + 1;

	memset(rec, 0, 64);
	memcpy(rec, &id, 2);
	memcpy(rec + 4, &pid, 4);
	memcpy(rec + 16, msg, strlen(msg));
	return (len + 3) / 4 * 4;
}

/* ---- writing a file ---- */

struct fx {
	char dir[64];
	char path[128];
	int fds[2];
	uint64_t sizes[2];
};

static int setup(void **state)
{
	static struct fx f;

	memset(&f, 0, sizeof(f));
	snprintf(f.dir, sizeof(f.dir), "/tmp/trax-test-dat.XXXXXX");
	assert_non_null(mkdtemp(f.dir));
	snprintf(f.path, sizeof(f.path), "%s/t.dat", f.dir);
	for (int i = 0; i < 2; i++) {
		char p[128];

		snprintf(p, sizeof(p), "%s/cpu%d", f.dir, i);
		f.fds[i] = open(p, O_RDWR | O_CREAT | O_TRUNC, 0600);
		assert_true(f.fds[i] >= 0);
		unlink(p);
	}
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	close(f->fds[0]);
	close(f->fds[1]);
	unlink(f->path);
	rmdir(f->dir);
	return 0;
}

static void add_page(struct fx *f, int cpu, const struct page *p)
{
	assert_int_equal(pwrite(f->fds[cpu], p->b, PAGE, f->sizes[cpu]), PAGE);
	f->sizes[cpu] += PAGE;
}

static int write_dat(struct fx *f, const char *path, const struct dat_split *splits,
		     int nsplits, struct trax_error *err)
{
	static struct ev_name names[] = { { "sched", "sched_switch" } };
	struct dat_blob ftrace[] = { { (char *)fmt_print, sizeof(fmt_print) - 1 } };
	struct dat_blob events[] = { { (char *)fmt_switch, sizeof(fmt_switch) - 1 } };
	char *stats[2] = { "entries: 0\noverrun: 7\n", "entries: 0\noverrun: 0\n" };
	struct dat_info in = {
		.page_size = PAGE, .ncpus = 2,
		.header_page = { (char *)header_page, sizeof(header_page) - 1 },
		.header_event = { (char *)header_event, sizeof(header_event) - 1 },
		.nftrace = 1, .ftrace = ftrace, .nevents = 1, .event_names = names,
		.events = events,
		.cmdlines = { "4242 workload\n", 14 },
		.trace_clock = { "[local] global counter\n", 23 },
		.uname = "Linux test 6.18.0 #1 SMP x86_64", .version = "trax test",
		.cpustats = stats, .cpu_fds = f->fds, .cpu_sizes = f->sizes, .splits = splits,
		.nsplits = nsplits,
	};

	return dat_write(path, &in, err);
}

static long long field(struct tep_handle *tep, struct tep_record *r, const char *name)
{
	struct tep_event *ev = tep_find_event(tep, tep_data_type(tep, r));
	unsigned long long v = 0;

	assert_non_null(ev);
	assert_int_equal(tep_get_field_val(NULL, ev, name, r, &v, 0), 0);
	return (long long)v;
}

/*
 * CPU 0: one page, three sched_switch at 1000, 1010, 1030. CPU 1: a print ("hello") at 1005.
 * libtracecmd reads them back with their times, fields, and the task names of cmdlines; the
 * file holds the formats it was given (sched_switch, the ftrace events) and no others.
 */
static void test_write_and_read(void **state)
{
	struct fx *f = *state;
	struct trax_error err = { 0 };
	struct tracecmd_input *h;
	struct tep_handle *tep;
	struct tep_record *r;
	unsigned char rec[64];
	struct page p;
	size_t n;

	page_init(&p, 1000);
	sched_switch(rec, 4242, "workload", 0, "swapper/0");
	page_event(&p, 0, rec, 64);
	sched_switch(rec, 0, "swapper/0", 4242, "workload");
	page_event(&p, 10, rec, 64);
	sched_switch(rec, 4242, "workload", 7, "kworker/0:1");
	page_event(&p, 20, rec, 64);
	page_commit(&p, 0);
	add_page(f, 0, &p);
	page_init(&p, 1005);
	n = print_rec(rec, 4242, "hello\n");
	page_event(&p, 0, rec, n);
	page_commit(&p, 0);
	add_page(f, 1, &p);

	assert_int_equal(write_dat(f, f->path, NULL, 0, &err), 0);
	h = tracecmd_open(f->path, TRACECMD_FL_LOAD_NO_PLUGINS);
	assert_non_null(h);
	tep = tracecmd_get_tep(h);
	assert_int_equal(tep_get_cpus(tep), 2);
	assert_non_null(tep_find_event_by_name(tep, "sched", "sched_switch"));
	assert_non_null(tep_find_event_by_name(tep, "ftrace", "print"));
	assert_null(tep_find_event_by_name(tep, "sched", "sched_wakeup"));
	assert_string_equal(tep_data_comm_from_pid(tep, 4242), "workload");

	r = tracecmd_read_data(h, 0);
	assert_non_null(r);
	assert_int_equal(r->ts, 1000);
	assert_int_equal(field(tep, r, "prev_pid"), 4242);
	assert_int_equal(field(tep, r, "next_pid"), 0);
	tracecmd_free_record(r);
	r = tracecmd_read_data(h, 0);
	assert_int_equal(r->ts, 1010);
	assert_int_equal(field(tep, r, "next_pid"), 4242);
	tracecmd_free_record(r);
	r = tracecmd_read_data(h, 0);
	assert_int_equal(r->ts, 1030);
	assert_int_equal(field(tep, r, "next_pid"), 7);
	assert_int_equal(r->missed_events, 0);
	tracecmd_free_record(r);
	assert_null(tracecmd_read_data(h, 0));

	r = tracecmd_read_data(h, 1);
	assert_non_null(r);
	assert_int_equal(r->ts, 1005);
	{
		struct tep_event *ev = tep_find_event(tep, tep_data_type(tep, r));
		struct tep_format_field *buf = tep_find_field(ev, "buf");

		assert_non_null(buf);
		assert_string_equal((char *)r->data + buf->offset, "hello\n");
	}
	tracecmd_free_record(r);
	assert_null(tracecmd_read_data(h, 1));
	tracecmd_close(h);
}

/* The scanner counts lost-event marks: stored counts, and marks without one. */
static void test_scan(void **state)
{
	struct fx *f = *state;
	struct dat_page_scan scan;
	unsigned char rec[64];
	struct page p;
	uint64_t missed = 5;

	sched_switch(rec, 1, "a", 2, "b");
	page_init(&p, 100);			/* plain */
	page_event(&p, 0, rec, 64);
	page_commit(&p, 0);
	add_page(f, 0, &p);
	page_init(&p, 200);			/* 5 lost, stored after the data */
	page_event(&p, 0, rec, 64);
	memcpy(p.b + HDR + p.len, &missed, 8);
	page_commit(&p, MISSED | STORED);
	add_page(f, 0, &p);
	page_init(&p, 300);			/* lost, no count */
	page_event(&p, 0, rec, 64);
	page_commit(&p, MISSED);
	add_page(f, 0, &p);
	assert_int_equal(dat_scan_pages(f->fds[0], f->sizes[0], PAGE, 8, &scan), 0);
	assert_int_equal(scan.pages, 3);
	assert_int_equal(scan.marked_lost, 5);
	assert_int_equal(scan.unknown_lost, 1);
	assert_int_equal(scan.unknown_off, 2 * PAGE);
	assert_int_equal(scan.first_ts, 100);
}

/*
 * A full page ends in padding: the count goes in its place. 59 sched_switch (68 bytes each:
 * 4012 of 4080 bytes), then 68 bytes of padding. libtracecmd reports the count on the
 * page's first record.
 */
static void test_store_in_padding(void **state)
{
	struct fx *f = *state;
	struct trax_error err = { 0 };
	struct dat_page_scan scan;
	struct tracecmd_input *h;
	struct tep_record *r;
	unsigned char rec[64];
	struct page p;
	int n = 0;

	sched_switch(rec, 1, "a", 2, "b");
	page_init(&p, 100);
	page_event(&p, 0, rec, 64);
	page_commit(&p, 0);
	add_page(f, 0, &p);
	page_init(&p, 5000);
	for (int i = 0; i < 59; i++)
		page_event(&p, 1, rec, 64);
	page_pad(&p);
	page_commit(&p, MISSED);
	add_page(f, 0, &p);
	assert_int_equal(dat_store_lost(f->fds[0], PAGE, PAGE, 8, 1234), 0);
	assert_int_equal(dat_scan_pages(f->fds[0], f->sizes[0], PAGE, 8, &scan), 0);
	assert_int_equal(scan.marked_lost, 1234);
	assert_int_equal(scan.unknown_lost, 0);
	/* a second time: the page has its count, nothing to do */
	assert_int_equal(dat_store_lost(f->fds[0], PAGE, PAGE, 8, 1), -1);

	assert_int_equal(write_dat(f, f->path, NULL, 0, &err), 0);
	h = tracecmd_open(f->path, TRACECMD_FL_LOAD_NO_PLUGINS);
	assert_non_null(h);
	while ((r = tracecmd_read_data(h, 0))) {
		if (n == 1) {
			assert_int_equal(r->ts, 5001);
			assert_int_equal(r->missed_events, 1234);
		} else {
			assert_int_equal(r->missed_events, 0);
		}
		n++;
		tracecmd_free_record(r);
	}
	assert_int_equal(n, 60);
	tracecmd_close(h);
}

/*
 * A page exactly full (60 records of 68 bytes: 4080) has no room: it is written as two
 * pages, the first with its first record and the count, the second with the other 59, timed
 * from the first. Every record keeps its time.
 */
static void test_split_full_page(void **state)
{
	struct fx *f = *state;
	struct trax_error err = { 0 };
	struct tracecmd_input *h;
	struct tep_handle *tep;
	struct tep_record *r;
	struct dat_split split = { 0, 0, 99, NULL };
	unsigned char rec[64], two[2 * PAGE];
	struct page p;
	int n = 0;

	page_init(&p, 10000);
	for (int i = 0; i < 60; i++) {
		sched_switch(rec, 100 + i, "a", 2, "b");
		page_event(&p, 3, rec, 64);	/* records at 10003, 10006, ... */
	}
	assert_int_equal(p.len, PAGE - HDR);
	page_commit(&p, MISSED);
	add_page(f, 0, &p);
	assert_int_equal(dat_store_lost(f->fds[0], 0, PAGE, 8, 99), -1);
	assert_int_equal(dat_split_lost(f->fds[0], 0, PAGE, 8, 99, two), 0);
	split.pages = two;
	assert_int_equal(write_dat(f, f->path, &split, 1, &err), 0);

	h = tracecmd_open(f->path, TRACECMD_FL_LOAD_NO_PLUGINS);
	assert_non_null(h);
	tep = tracecmd_get_tep(h);
	while ((r = tracecmd_read_data(h, 0))) {
		assert_int_equal(r->ts, 10003 + 3 * n);
		assert_int_equal(field(tep, r, "prev_pid"), 100 + n);
		assert_int_equal(r->missed_events, n == 0 ? 99 : 0);
		n++;
		tracecmd_free_record(r);
	}
	assert_int_equal(n, 60);
	tracecmd_close(h);
}

/* A full disk: a one-line error naming the file. */
static void test_disk_full(void **state)
{
	struct fx *f = *state;
	struct trax_error err = { 0 };
	unsigned char rec[64];
	struct page p;

	if (access("/dev/full", W_OK)) {
		printf("# SKIP /dev/full is not writable here: no full disk to write to\n");
		skip();
		return;
	}
	page_init(&p, 1);
	sched_switch(rec, 1, "a", 2, "b");
	page_event(&p, 0, rec, 64);
	page_commit(&p, 0);
	add_page(f, 0, &p);
	assert_int_equal(write_dat(f, "/dev/full", NULL, 0, &err), -TRAX_E_IO);
	assert_string_equal(err.msg, "/dev/full: No space left on device, disk full");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_and_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_in_padding, setup, teardown),
		cmocka_unit_test_setup_teardown(test_split_full_page, setup, teardown),
		cmocka_unit_test_setup_teardown(test_disk_full, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
