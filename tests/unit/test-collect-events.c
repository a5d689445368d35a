/* tests/unit/test-collect-events.c: event selection against a made-up tracefs tree (no root). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "collect/collect-local.h"

static char dir[64];

/* A kernel with: sched (switch, wakeup, waking), power (cpu_idle), fence:fence_init (the old
 * name of dma_fence_init), ftrace (print), two systems both holding an event "dup", and a
 * directory without a format (not an event). */
static const char *const files[] = {
	"sched/sched_switch", "sched/sched_wakeup", "sched/sched_waking", "power/cpu_idle",
	"fence/fence_init", "ftrace/print", "a/dup", "b/dup", NULL,
};

static void mkpath(const char *rel, int with_format)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/events", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/events/%s", dir, rel);
	for (char *s = p + strlen(dir) + 8; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	}
	mkdir(p, 0755);
	if (with_format) {
		FILE *f;

		strcat(p, "/format");
		f = fopen(p, "w");
		assert_non_null(f);
		fputs("name: x\n", f);
		fclose(f);
	}
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/trax-test-ev.XXXXXX");
	assert_non_null(mkdtemp(dir));
	for (int i = 0; files[i]; i++)
		mkpath(files[i], 1);
	mkpath("sched/not_an_event", 0);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* The resolved list as "sys:name sys:name ...". */
static const char *resolve(const char *events, const char *presets, int want_ret,
			   struct strbuf *missing, struct trax_error *err)
{
	static char buf[1024];
	struct ev_list l;
	size_t n = 0;
	int ret = ev_resolve(dir, events, presets, &l, missing, err);

	if (ret != want_ret) {
		print_error("'%s' '%s': ret %d, want %d (%s)\n", events ? events : "",
			    presets ? presets : "", ret, want_ret, err->msg);
		fail();
	}
	buf[0] = '\0';
	if (ret)
		return err->msg;
	for (int i = 0; i < l.n; i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s:%s", i ? " " : "", l.v[i].system,
			      l.v[i].name);
	ev_list_release(&l);
	return buf;
}

static void test_names(void **state)
{
	struct strbuf missing = STRBUF_INIT;
	struct trax_error err = { 0 };

	(void)state;
	assert_string_equal(resolve("sched:sched_switch", NULL, 0, &missing, &err),
			    "sched:sched_switch");
	assert_string_equal(resolve("sched/sched_wakeup, cpu_idle", NULL, 0, &missing, &err),
			    "sched:sched_wakeup power:cpu_idle");
	/* a system: its events (directories with a format), sorted; duplicates once */
	assert_string_equal(resolve("sched,sched:sched_waking", NULL, 0, &missing, &err),
			    "sched:sched_switch sched:sched_wakeup sched:sched_waking");
	assert_string_equal(resolve("sched:*", NULL, 0, &missing, &err),
			    "sched:sched_switch sched:sched_wakeup sched:sched_waking");
	/* ftrace events are always recorded: accepted, nothing to enable */
	assert_string_equal(resolve("ftrace:print,power", NULL, 0, &missing, &err),
			    "power:cpu_idle");
	assert_string_equal(missing.buf, "");
	strbuf_release(&missing);
}

static void test_errors(void **state)
{
	struct strbuf missing = STRBUF_INIT;
	struct trax_error err = { 0 };
	char want[512];

	(void)state;
	snprintf(want, sizeof(want), "unknown event 'sched:nope' (no %s/events/sched/nope)", dir);
	assert_string_equal(resolve("sched:nope", NULL, -TRAX_E_USAGE, &missing, &err), want);
	snprintf(want, sizeof(want), "unknown event system 'nosys' (not in %s/events)", dir);
	assert_string_equal(resolve("nosys:x", NULL, -TRAX_E_USAGE, &missing, &err), want);
	snprintf(want, sizeof(want), "unknown event 'not_an_event' (no such event or system in "
		 "%s/events)", dir);
	assert_string_equal(resolve("not_an_event", NULL, -TRAX_E_USAGE, &missing, &err), want);
	snprintf(want, sizeof(want), "unknown event 'sched:not_an_event' (no "
		 "%s/events/sched/not_an_event)", dir);
	assert_string_equal(resolve("sched:not_an_event", NULL, -TRAX_E_USAGE, &missing, &err),
			    want);
	snprintf(want, sizeof(want), "unknown event 'sched:../power' (no "
		 "%s/events/sched/../power)", dir);
	assert_string_equal(resolve("sched:../power", NULL, -TRAX_E_USAGE, &missing, &err), want);
	assert_string_equal(resolve("dup", NULL, -TRAX_E_USAGE, &missing, &err),
			    "event name 'dup' is in several systems (a:dup, b:dup): name one as "
			    "SYSTEM:NAME");
	/* a misspelt name: the nearest of the kernel's events, or of the presets */
	snprintf(want, sizeof(want), "unknown event 'sched:sched_swich' (no "
		 "%s/events/sched/sched_swich; did you mean sched:sched_switch?)", dir);
	assert_string_equal(resolve("sched:sched_swich", NULL, -TRAX_E_USAGE, &missing, &err),
			    want);
	snprintf(want, sizeof(want), "unknown event 'sched_wakep' (no such event or system in "
		 "%s/events; did you mean sched_wakeup?)", dir);
	assert_string_equal(resolve("sched_wakep", NULL, -TRAX_E_USAGE, &missing, &err), want);
	snprintf(want, sizeof(want), "unknown event system 'shced' (not in %s/events; did you "
		 "mean sched:sched_waking?)", dir);
	assert_string_equal(resolve("shced:sched_waking", NULL, -TRAX_E_USAGE, &missing, &err),
			    want);
	assert_string_equal(resolve(NULL, "schedx", -TRAX_E_USAGE, &missing, &err),
			    "unknown preset 'schedx' (did you mean sched?)");
	assert_string_equal(resolve(NULL, "nosuchpreset", -TRAX_E_USAGE, &missing, &err),
			    "unknown preset 'nosuchpreset' (presets: sched, power, thermal, memory, "
			    "fence, android)");
	assert_string_equal(resolve(NULL, "thermal", -TRAX_E_USAGE, &missing, &err),
			    "preset 'thermal': this kernel has none of its events "
			    "(thermal:thermal_temperature, thermal:cdev_update, "
			    "thermal:thermal_zone_trip, "
			    "thermal_power_allocator:thermal_power_allocator, "
			    "thermal_power_allocator:thermal_power_allocator_pid)");
	assert_string_equal(resolve(" , ", NULL, -TRAX_E_USAGE, &missing, &err),
			    "no event to record (an empty -e list?)");
	strbuf_release(&missing);
}

/* Presets take what the kernel has, list what it lacks, and take an old name in place of a
 * new one ("a|b"). With neither -e nor -p: the sched preset. */
static void test_presets(void **state)
{
	struct strbuf missing = STRBUF_INIT;
	struct trax_error err = { 0 };

	(void)state;
	assert_string_equal(resolve(NULL, NULL, 0, &missing, &err),
			    "sched:sched_switch sched:sched_wakeup sched:sched_waking");
	assert_string_equal(missing.buf, "preset sched: 3 of 11 events; this kernel lacks "
			    "sched:sched_wakeup_new, sched:sched_migrate_task, "
			    "sched:sched_process_fork, sched:sched_process_exec, "
			    "sched:sched_process_exit, sched:sched_process_free, "
			    "task:task_newtask, task:task_rename");
	strbuf_reset(&missing);
	assert_string_equal(resolve("sched:sched_switch", "fence,power", 0, &missing, &err),
			    "fence:fence_init power:cpu_idle sched:sched_switch");
	/* fence: the 7 dma_fence events (fence_* before 4.10), fence_annotate_wait_on and the
	 * 3 of Android's sync; lacking ones are named by their first spelling */
	assert_string_equal(missing.buf, "preset fence: 1 of 11 events; this kernel lacks "
			    "dma_fence:dma_fence_emit, dma_fence:dma_fence_enable_signal, "
			    "dma_fence:dma_fence_signaled, dma_fence:dma_fence_destroy, "
			    "dma_fence:dma_fence_wait_start, dma_fence:dma_fence_wait_end, "
			    "fence:fence_annotate_wait_on, sync:sync_wait, sync:sync_pt, "
			    "sync:sync_timeline\n"
			    "preset power: 1 of 4 events; this kernel lacks power:cpu_frequency, "
			    "power:cpu_frequency_limits, power:suspend_resume");
	strbuf_release(&missing);
	/* the table cmd prints */
	assert_non_null(trax_collect_preset_events("android"));
	assert_null(trax_collect_preset_events("nope"));
	assert_string_equal(trax_collect_presets()[0], "sched");
}

static void test_no_events_dir(void **state)
{
	struct ev_list l;
	struct strbuf missing = STRBUF_INIT;
	struct trax_error err = { 0 };

	(void)state;
	assert_int_equal(ev_resolve("/nonexistent", "sched", NULL, &l, &missing, &err),
			 -TRAX_E_TRACEFS);
	assert_string_equal(err.msg, "/nonexistent: no events directory (kernel without trace "
			    "events?)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_presets),
		cmocka_unit_test(test_no_events_dir),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
