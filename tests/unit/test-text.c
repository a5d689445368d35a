/* tests/unit/test-text.c: ftrace text line, lost-line and payload parsing on canned lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "parse/text.h"

/* Expected values below are read off each line by hand. */

static int parse(const char *line, struct text_line *tl)
{
	return text_parse_line(line, strlen(line), tl);
}

#define assert_span(ptr, len, want)                                                       \
	do {                                                                              \
		assert_non_null(ptr);                                                     \
		assert_int_equal((len), (int)strlen(want));                               \
		assert_memory_equal((ptr), (want), strlen(want));                         \
	} while (0)

static void test_tracefs_five_flags(void **state)
{
	struct text_line tl;

	(void)state;
	assert_int_equal(parse("          <idle>-0       [000] d..1.  1005.078173: cpu_idle: "
			       "state=4294967295 cpu_id=0", &tl), 1);
	assert_span(tl.comm, tl.comm_len, "<idle>");
	assert_int_equal(tl.pid, 0);
	assert_int_equal(tl.tgid, -1);
	assert_int_equal(tl.cpu, 0);
	assert_span(tl.flags, tl.flags_len, "d..1.");
	assert_int_equal(tl.ts, 1005078173000ull);
	assert_int_equal(tl.ts_digits, 6);
	assert_span(tl.event, tl.event_len, "cpu_idle");
	assert_span(tl.payload, tl.payload_len, "state=4294967295 cpu_id=0");
	assert_null(tl.buffer);
}

static void test_tracefs_tgid(void **state)
{
	struct text_line tl;

	(void)state;
	assert_int_equal(parse("          <idle>-0       (-------) [001] dNh2.  1005.078880: "
			       "softirq_raise: vec=4 [action=BLOCK]", &tl), 1);
	assert_int_equal(tl.tgid, -1);
	assert_int_equal(tl.cpu, 1);
	assert_span(tl.flags, tl.flags_len, "dNh2.");
	assert_int_equal(parse("            bash-6755    (   6755) [001] .....  1005.078880: "
			       "task_newtask: pid=6757 comm=bash clone_flags=1200000 oom_score_adj=0",
			       &tl), 1);
	assert_span(tl.comm, tl.comm_len, "bash");
	assert_int_equal(tl.pid, 6755);
	assert_int_equal(tl.tgid, 6755);
	assert_int_equal(parse("       <unknown>-937   (  937) [002] .... 732246.100696: "
			       "tracing_mark_write: C|937|kill_one_process|17924", &tl), 1);
	assert_span(tl.comm, tl.comm_len, "<unknown>");
	assert_int_equal(tl.pid, 937);
	assert_int_equal(tl.tgid, 937);
	assert_span(tl.flags, tl.flags_len, "....");
	assert_int_equal(tl.ts, 732246100696000ull);
	/* old Android kernels: a trace marker's event printed as "0" (its ip, unresolved) */
	assert_int_equal(parse("  surfaceflinger-300   [000]  1000.000100: 0: B|300|draw", &tl), 1);
	assert_span(tl.event, tl.event_len, "tracing_mark_write");
	assert_span(tl.payload, tl.payload_len, "B|300|draw");
	assert_int_equal(tl.pid, 300);
	/* "(-----)", the five-dash form of older kernels */
	assert_int_equal(parse("  kworker/0:1-12  (-----) [000] d..2  10.000001: e: a=1", &tl), 1);
	assert_int_equal(tl.tgid, -1);
	assert_int_equal(tl.pid, 12);
	assert_span(tl.comm, tl.comm_len, "kworker/0:1");
}

static void test_four_flags_and_none(void **state)
{
	struct text_line tl;

	(void)state;
	assert_int_equal(parse("          chrome-2804  [003] d..3  1136.097350: sched_switch: "
			       "prev_comm=chrome prev_pid=2804 prev_prio=112 prev_state=S ==> "
			       "next_comm=swapper/3 next_pid=0 next_prio=120", &tl), 1);
	assert_span(tl.flags, tl.flags_len, "d..3");
	assert_int_equal(tl.cpu, 3);
	assert_int_equal(tl.ts, 1136097350000ull);
	assert_int_equal(parse("              ls-4734  [002] 106439.675591: sched_switch:         "
			       "trace-cmd:4734 [120] R ==> migration/2:18 [0]", &tl), 1);
	assert_null(tl.flags);
	assert_span(tl.comm, tl.comm_len, "ls");
	assert_int_equal(tl.ts, 106439675591000ull);
	assert_span(tl.payload, tl.payload_len, "trace-cmd:4734 [120] R ==> migration/2:18 [0]");
	/* a leading tab, and trailing blanks cut from the payload */
	assert_int_equal(parse("\t   <...>-15430 [006]  7115.449594: sched_overutilized:    "
			       "overutilized=0\t  ", &tl), 1);
	assert_span(tl.comm, tl.comm_len, "<...>");
	assert_int_equal(tl.pid, 15430);
	assert_span(tl.payload, tl.payload_len, "overutilized=0");
}

static void test_report_ns_and_prefix(void **state)
{
	struct text_line tl;

	(void)state;
	assert_int_equal(parse("trax-text-rec:      my worker-1-11348 [000]  1632.371702274: print:"
			       "                 ip=0xffffffff814aa941 buf=phase 1: start load=51",
			       &tl), 1);
	assert_span(tl.buffer, tl.buffer_len, "trax-text-rec");
	assert_span(tl.comm, tl.comm_len, "my worker-1");
	assert_int_equal(tl.pid, 11348);
	assert_int_equal(tl.ts, 1632371702274ull);
	assert_int_equal(tl.ts_digits, 9);
	assert_span(tl.event, tl.event_len, "print");
	assert_span(tl.payload, tl.payload_len, "ip=0xffffffff814aa941 buf=phase 1: start load=51");
	/* comms with ':' and spaces, no prefix */
	assert_int_equal(parse("         rs:main Q:Reg-1769  [000]    34.901447: sched_stat_runtime: "
			       "comm=rs:main Q:Reg pid=1769 runtime=15833 [ns]", &tl), 1);
	assert_null(tl.buffer);
	assert_span(tl.comm, tl.comm_len, "rs:main Q:Reg");
	assert_int_equal(tl.pid, 1769);
	assert_int_equal(tl.ts, 34901447000ull);
	assert_int_equal(parse("   kworker/u12:1-46    [002]    76.211715: sched_switch: x=1", &tl), 1);
	assert_span(tl.comm, tl.comm_len, "kworker/u12:1");
	assert_int_equal(tl.pid, 46);
	/* a timestamp of a counter clock (no decimal point) */
	assert_int_equal(parse("   a-b-c-7  [001]  123456789: ev: k=v", &tl), 1);
	assert_span(tl.comm, tl.comm_len, "a-b-c");
	assert_int_equal(tl.pid, 7);
	assert_int_equal(tl.ts, 123456789ull);
	assert_int_equal(tl.ts_digits, 0);
	/* ... as trace-cmd report prints it: right after the CPU column */
	assert_int_equal(parse("            bash-1031  [000]2072571847234: task_newtask: pid=1041", &tl), 1);
	assert_span(tl.comm, tl.comm_len, "bash");
	assert_int_equal(tl.pid, 1031);
	assert_int_equal(tl.cpu, 0);
	assert_int_equal(tl.ts, 2072571847234ull);
	assert_int_equal(tl.ts_digits, 0);
	assert_span(tl.event, tl.event_len, "task_newtask");
}

static void test_not_events(void **state)
{
	struct text_line tl;
	static const char *const lines[] = {
		"", "   ", "# tracer: nop", "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION",
		"cpus=6", "version = 6", "CPU 3 is empty", "##### CPU 2 buffer started ####",
		"CPU:7 [204600 EVENTS DROPPED]", "ion_heap_shrink: heap_name=system, len=20480",
		"random words [here] and there", NULL,
	};

	(void)state;
	for (int i = 0; lines[i]; i++)
		assert_int_equal(parse(lines[i], &tl), 0);
}

static void test_malformed(void **state)
{
	struct text_line tl;

	(void)state;
	/* a CPU column and a timestamp, but no "-PID" */
	assert_int_equal(parse("          nopid [000]  12.345678: ev: a=1", &tl), -1);
	assert_int_equal(tl.cpu, 0);
	assert_int_equal(tl.ts, 12345678000ull);
	assert_span(tl.event, tl.event_len, "ev");
	/* no event name after the timestamp */
	assert_int_equal(parse("          comm-1 [000]  12.345678: no colon here", &tl), -1);
	assert_null(tl.event);
	/* a TGID column that is neither dashes nor a number */
	assert_int_equal(parse("          comm-1 (abc) [000]  12.345678: ev: a=1", &tl), -1);
}

static void test_lost(void **state)
{
	struct text_lost lo;

	(void)state;
	assert_int_equal(text_parse_lost("CPU:3 [LOST 12 EVENTS]", 22, &lo), 1);
	assert_int_equal(lo.cpu, 3);
	assert_int_equal(lo.count, 12);
	assert_null(lo.buffer);
	assert_int_equal(text_parse_lost("CPU:7 [204600 EVENTS DROPPED]", 29, &lo), 1);
	assert_int_equal(lo.cpu, 7);
	assert_int_equal(lo.count, 204600);
	assert_int_equal(text_parse_lost("CPU:1 [EVENTS DROPPED]", 22, &lo), 1);
	assert_int_equal(lo.count, -1);
	assert_int_equal(text_parse_lost("inst: CPU:2 [LOST 5 EVENTS]", 27, &lo), 1);
	assert_span(lo.buffer, lo.buffer_len, "inst");
	assert_int_equal(lo.cpu, 2);
	assert_int_equal(lo.count, 5);
	assert_int_equal(text_parse_lost("##### CPU 11 buffer started ####", 32, &lo), 1);
	assert_int_equal(lo.cpu, 11);
	assert_int_equal(lo.count, -1);
	assert_int_equal(text_parse_lost("##### CPU x buffer started ####", 31, &lo), 0);
	assert_int_equal(text_parse_lost("CPU:x [LOST 5 EVENTS]", 21, &lo), 0);
	assert_int_equal(text_parse_lost("CPU 3 is empty", 14, &lo), 0);
}

static int split(const char *ev, const char *payload, struct text_kv *kv)
{
	return text_split_payload(ev, strlen(ev), payload, strlen(payload), kv, TEXT_KV_MAX);
}

#define assert_kv(kv, k, v)                                                              \
	do {                                                                              \
		assert_span((kv).key, (kv).key_len, k);                                   \
		assert_span((kv).val, (kv).val_len, v);                                   \
	} while (0)

static void test_kv_values(void **state)
{
	struct text_kv kv[TEXT_KV_MAX];

	(void)state;
	assert_int_equal(split("sched_stat_runtime", "comm=rs:main Q:Reg pid=1769 runtime=15833 [ns] "
			       "vruntime=6078986236 [ns]", kv), 4);
	assert_kv(kv[0], "comm", "rs:main Q:Reg");
	assert_kv(kv[1], "pid", "1769");
	assert_kv(kv[2], "runtime", "15833 [ns]");
	assert_kv(kv[3], "vruntime", "6078986236 [ns]");
	/* '=' inside values (trappy trace_equals.txt) */
	assert_int_equal(split("equals_event", "my_field=foo=bar=baz", kv), 1);
	assert_kv(kv[0], "my_field", "foo=bar=baz");
	assert_int_equal(split("equals_event", "my_field=1foo=2", kv), 1);
	assert_kv(kv[0], "my_field", "1foo=2");
	/* [FAILED TO PARSE] with arrays holding blanks */
	assert_int_equal(split("thermal_power_cpu_get_power", "[FAILED TO PARSE] cpumask=ARRAY[0f, "
			       "00, 00] freq=0x82208 load_len=4", kv), 3);
	assert_kv(kv[0], "cpumask", "ARRAY[0f, 00, 00]");
	assert_kv(kv[1], "freq", "0x82208");
	assert_kv(kv[2], "load_len", "4");
	assert_int_equal(split("thermal_power_allocator", "[FAILED TO PARSE]", kv), 0);
	/* a bare name before the pairs */
	assert_int_equal(split("clock_set_rate", "video_subcore0_clk_src state=200000000 cpu_id=7",
			       kv), 3);
	assert_kv(kv[0], "text", "video_subcore0_clk_src");
	assert_kv(kv[1], "state", "200000000");
	/* more pairs than slots: the last slot keeps the rest */
	assert_int_equal(text_split_kv("a=1 b=2 c=3", 11, kv, 2, NULL, NULL), 2);
	assert_kv(kv[1], "b", "2 c=3");
	/* no pair at all */
	assert_int_equal(split("ext4_da_write_end", "dev 8,13 ino 5898483 pos 0 len 4096", kv), 0);
	assert_int_equal(split("ext4_da_write_begin", "", kv), 0);
	/* braces and masks */
	assert_int_equal(split("thermal_power_cpu_get_power", "cpus=00000000,00000006 freq=1100000 "
			       "load={24 19} dynamic_power=250", kv), 4);
	assert_kv(kv[2], "load", "{24 19}");
	/* softirq's symbolic annotation */
	assert_int_equal(split("softirq_raise", "vec=4 [action=BLOCK]", kv), 1);
	assert_kv(kv[0], "vec", "4 [action=BLOCK]");
	/* mark_victim's "key:value" pairs */
	assert_int_equal(split("mark_victim", "pid=4242 comm=stress ng total-vm=1000kB anon-rss=500kB "
			       "file-rss:20kB shmem-rss:0kB uid=0 pgtables=40kB oom_score_adj=1000",
			       kv), 9);
	assert_kv(kv[1], "comm", "stress ng");
	assert_kv(kv[2], "total-vm", "1000kB");
	assert_kv(kv[4], "file-rss", "20kB");
	assert_kv(kv[5], "shmem-rss", "0kB");
	assert_kv(kv[8], "oom_score_adj", "1000");
}

static void test_sched_forms(void **state)
{
	struct text_kv kv[TEXT_KV_MAX];

	(void)state;
	assert_int_equal(split("sched_switch", "prev_comm=chrome prev_pid=2804 prev_prio=112 "
			       "prev_state=S ==> next_comm=swapper/3 next_pid=0 next_prio=120", kv), 7);
	assert_kv(kv[3], "prev_state", "S");
	assert_int_equal(kv[3].flags, 0);
	assert_kv(kv[4], "next_comm", "swapper/3");
	assert_kv(kv[6], "next_prio", "120");
	/* raw (-R): no arrow */
	assert_int_equal(split("sched_switch", "prev_comm=my worker-1 prev_pid=6757 prev_prio=120 "
			       "prev_state=256 next_comm=migration/1 next_pid=23 next_prio=0", kv), 7);
	assert_kv(kv[0], "prev_comm", "my worker-1");
	assert_kv(kv[3], "prev_state", "256");
	/* the sched plugin of `trace-cmd report` */
	assert_int_equal(split("sched_switch", "my worker-1:6757 [120] D|W ==> kworker/u12:1:46 [0]",
			       kv), 7);
	assert_kv(kv[0], "prev_comm", "my worker-1");
	assert_kv(kv[1], "prev_pid", "6757");
	assert_kv(kv[2], "prev_prio", "120");
	assert_kv(kv[3], "prev_state", "D|W");
	assert_int_equal(kv[3].flags, TEXT_KV_PLUGIN_STATE);
	assert_kv(kv[4], "next_comm", "kworker/u12:1");
	assert_kv(kv[5], "next_pid", "46");
	assert_kv(kv[6], "next_prio", "0");
	assert_int_equal(split("sched_wakeup", "migration/1:23 [0] CPU:001", kv), 4);
	assert_kv(kv[0], "comm", "migration/1");
	assert_kv(kv[1], "pid", "23");
	assert_kv(kv[2], "prio", "0");
	assert_kv(kv[3], "target_cpu", "001");
	assert_int_equal(split("sched_wakeup_new", "rcu_preempt:15 [120] success=1 CPU:001", kv), 5);
	assert_kv(kv[3], "success", "1");
	assert_kv(kv[4], "target_cpu", "001");
	assert_int_equal(split("sched_waking", "comm=sh pid=1642 prio=120 target_cpu=002", kv), 4);
	assert_kv(kv[3], "target_cpu", "002");
}

static void test_messages(void **state)
{
	struct text_kv kv[TEXT_KV_MAX];

	(void)state;
	assert_int_equal(split("print", "0xffffffff814aa941: phase 1: start load=51", kv), 2);
	assert_kv(kv[0], "ip", "0xffffffff814aa941");
	assert_kv(kv[1], "buf", "phase 1: start load=51");
	assert_int_equal(split("print", "0xffff00000819ff24s: TRACE_MARKER_START", kv), 2);
	assert_kv(kv[0], "ip", "0xffff00000819ff24");
	assert_kv(kv[1], "buf", "TRACE_MARKER_START");
	assert_int_equal(split("print", "tracing_mark_write: B|123|draw", kv), 2);
	assert_kv(kv[0], "ip", "tracing_mark_write");
	assert_kv(kv[1], "buf", "B|123|draw");
	assert_int_equal(split("print", "ip=tracing_mark_write buf=cpu_frequency_devlib: state=1 "
			       "cpu_id=0", kv), 2);
	assert_kv(kv[0], "ip", "tracing_mark_write");
	assert_kv(kv[1], "buf", "cpu_frequency_devlib: state=1 cpu_id=0");
	/* the tracefs form: the event column is the writer, the payload the message */
	assert_int_equal(split("tracing_mark_write", "C|937|kill_one_process|17924", kv), 1);
	assert_kv(kv[0], "buf", "C|937|kill_one_process|17924");
	/* bputs/bprint keep the whole formatted text, as the trace.dat reader does */
	assert_int_equal(split("bputs", "0xffff0000080feeb8s: equals_event: my_field=foo=bar", kv), 2);
	assert_kv(kv[0], "ip", "0xffff0000080feeb8");
	assert_kv(kv[1], "str", "0xffff0000080feeb8s: equals_event: my_field=foo=bar");
	assert_int_equal(split("bprint", "select_task_rq_fair: fig: cpu=0", kv), 2);
	assert_kv(kv[0], "ip", "select_task_rq_fair");
	assert_kv(kv[1], "buf", "select_task_rq_fair: fig: cpu=0");
}

static void test_ints(void **state)
{
	int64_t x;

	(void)state;
	assert_int_equal(text_parse_int("0x82208", 7, &x), 1);
	assert_int_equal(x, 533000);
	assert_int_equal(text_parse_int("-4553", 5, &x), 1);
	assert_int_equal(x, -4553);
	assert_int_equal(text_parse_int("001", 3, &x), 1);
	assert_int_equal(x, 1);
	assert_int_equal(text_parse_int("4294967295", 10, &x), 1);
	assert_int_equal(x, 4294967295ll);
	assert_int_equal(text_parse_int("18446744073709551615", 20, &x), 1);
	assert_int_equal(x, -1);
	assert_int_equal(text_parse_int("0xffffffff814aa941", 18, &x), 1);
	assert_int_equal(x, -2125813439ll);
	assert_int_equal(text_parse_int("7778999 [ns]", 12, &x), 1);
	assert_int_equal(x, 7778999);
	assert_int_equal(text_parse_int("1 [action=TIMER]", 16, &x), 1);
	assert_int_equal(x, 1);
	assert_int_equal(text_parse_int("18446744073709551616", 20, &x), 0);
	assert_int_equal(text_parse_int("12abc", 5, &x), 0);
	assert_int_equal(text_parse_int("1 2", 3, &x), 0);
	assert_int_equal(text_parse_int("", 0, &x), 0);
	assert_int_equal(text_parse_int("0x", 2, &x), 0);
	assert_int_equal(text_parse_int("-", 1, &x), 0);
	assert_int_equal(text_parse_int("foo=bar", 7, &x), 0);
}

static void test_states(void **state)
{
	/* numbering 0: 4.14+ (preempt 256); 1: before 4.14, with '+' = preempt */
	static const struct {
		const char *s;
		int plugin, numbering;
		int64_t preempt, want;
	} cases[] = {
		{ "R", 0, 0, 0, 0 }, { "R+", 0, 0, 0, 256 }, { "S", 0, 0, 0, 1 },
		{ "D", 0, 0, 0, 2 }, { "T", 0, 0, 0, 4 }, { "t", 0, 0, 0, 8 }, { "X", 0, 0, 0, 16 },
		{ "Z", 0, 0, 0, 32 }, { "P", 0, 0, 0, 64 }, { "I", 0, 0, 0, 128 },
		{ "D|K", 0, 0, 0, 2 }, { "S|D", 0, 0, 0, 3 }, { "D|N", 0, 0, 0, 128 },
		{ "x", 0, 0, 0, 16 },
		/* the 3.10-4.13 table: S D T t Z X x K W P N, bits 0-10 */
		{ "R", 0, 1, 4096, 0 }, { "R+", 0, 1, 4096, 4096 }, { "R+", 0, 1, 1024, 1024 },
		{ "S", 0, 1, 1024, 1 }, { "Z", 0, 1, 1024, 16 }, { "X", 0, 1, 1024, 32 },
		{ "x", 0, 1, 1024, 64 }, { "D|K", 0, 1, 1024, 130 }, { "W", 0, 1, 1024, 256 },
		{ "P", 0, 1, 1024, 512 }, { "D|N", 0, 1, 2048, 1026 }, { "I", 0, 1, 2048, 1026 },
		/* libtraceevent 1.7's plugin table "SDTtZXxW": raw bits 0-7, whatever the numbering */
		{ "R", 1, 0, 0, 0 }, { "S", 1, 0, 0, 1 }, { "D", 1, 0, 0, 2 }, { "Z", 1, 0, 0, 16 },
		{ "X", 1, 0, 0, 32 }, { "x", 1, 0, 0, 64 }, { "W", 1, 0, 0, 128 },
		{ "D|W", 1, 0, 0, 130 }, { "x", 1, 1, 1024, 64 },
	};
	int64_t x;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		x = -12345;
		assert_int_equal(text_state_value(cases[i].s, strlen(cases[i].s), cases[i].plugin,
						  cases[i].numbering, cases[i].preempt, &x), 1);
		assert_int_equal(x, cases[i].want);
	}
	assert_int_equal(text_state_value("Q", 1, 0, 0, 0, &x), 0);
	assert_int_equal(text_state_value("", 0, 0, 0, 0, &x), 0);
	assert_int_equal(text_state_value("12", 2, 0, 0, 0, &x), 0);
}

static void test_looks_like(void **state)
{
	static const char tracefs[] = "# tracer: nop\n#\n";
	static const char report[] = "cpus=2\n  a-1 [000] 1.000001: e: x=1\n";
	static const char bare[] = "  VideoDecMsgThr-32342 [007] 85636.208531: clock_set_rate: "
				   "video_subcore0_clk_src state=200000000 cpu_id=7\n";
	static const char garbage[] = "hello world\nthis is not a trace\n";

	(void)state;
	assert_int_equal(text_looks_like_ftrace(tracefs, sizeof(tracefs) - 1), 1);
	assert_int_equal(text_looks_like_ftrace(report, sizeof(report) - 1), 1);
	assert_int_equal(text_looks_like_ftrace(bare, sizeof(bare) - 1), 1);
	assert_int_equal(text_looks_like_ftrace(garbage, sizeof(garbage) - 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tracefs_five_flags),
		cmocka_unit_test(test_tracefs_tgid),
		cmocka_unit_test(test_four_flags_and_none),
		cmocka_unit_test(test_report_ns_and_prefix),
		cmocka_unit_test(test_not_events),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_kv_values),
		cmocka_unit_test(test_sched_forms),
		cmocka_unit_test(test_messages),
		cmocka_unit_test(test_ints),
		cmocka_unit_test(test_states),
		cmocka_unit_test(test_looks_like),
	};

	return cmocka_run_group_tests_name("text", tests, NULL, NULL);
}
