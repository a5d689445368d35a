/* tests/unit/test-pfconfig.c: the Perfetto trace config of trax collect's options (no device,
 * no protoc: tests/integration/android-standin.sh checks the text against the schema). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "collect/pfconfig.h"
#include "util/strbuf.h"

/* The values of "FIELD: value" lines (any indentation), quotes removed, joined by spaces. */
static char *values(const char *text, const char *field)
{
	struct strbuf sb = STRBUF_INIT;
	size_t flen = strlen(field);

	for (const char *p = text; *p;) {
		const char *end = strchr(p, '\n'), *s = p;

		if (!end)
			end = p + strlen(p);
		while (*s == ' ')
			s++;
		if ((size_t)(end - s) > flen + 2 && !strncmp(s, field, flen) && s[flen] == ':') {
			const char *v = s + flen + 2;
			size_t n = end - v;

			if (n >= 2 && *v == '"')
				v++, n -= 2;
			strbuf_addf(&sb, "%s%.*s", sb.len ? " " : "", (int)n, v);
		}
		p = *end ? end + 1 : end;
	}
	return strbuf_detach(&sb);
}

static void check(const struct trax_collect_opts *o, const char *field, const char *want)
{
	struct trax_error err = { 0 };
	char *text = NULL, *got;

	assert_int_equal(trax_perfetto_config(o, &text, &err), 0);
	got = values(text, field);
	assert_string_equal(got, want);
	free(got);
	free(text);
}

static void test_events(void **state)
{
	struct trax_collect_opts o = { .presets = "power" };

	(void)state;
	check(&o, "ftrace_events", "power/cpu_frequency power/cpu_frequency_limits "
	      "power/cpu_idle power/suspend_resume ftrace/print");
	check(&o, "atrace_categories", "");
	/* a preset named twice, and an event it holds: each once */
	o.presets = "power, power";
	o.events = "power:cpu_idle";
	check(&o, "ftrace_events", "power/cpu_frequency power/cpu_frequency_limits "
	      "power/cpu_idle power/suspend_resume ftrace/print");
	/* -e alone: no default preset */
	o.presets = NULL;
	o.events = "sched/sched_switch,irq:*,sync_wait,thermal,mystery_event";
	check(&o, "ftrace_events", "sched/sched_switch irq/* sync/sync_wait sync_trace/sync_wait "
	      "thermal/* mystery_event ftrace/print");
	/* a bare name: the spellings of that name only (fence:fence_init is another name) */
	o.events = "dma_fence_init";
	check(&o, "ftrace_events", "dma_fence/dma_fence_init ftrace/print");
	o.events = NULL;
	o.presets = "fence";
	o.atrace_apps = "com.a.b,*";
	o.atrace_categories = "gfx";
	check(&o, "atrace_apps", "com.a.b *");
	check(&o, "atrace_categories", "gfx");
	o.presets = "android";
	o.atrace_categories = "gfx,ss";
	check(&o, "atrace_categories", "gfx view input am wm dalvik binder_driver hal aidl res "
	      "sched freq idle ss");
}

static void test_sizes(void **state)
{
	char *const argv[] = { "sleep", "1", NULL };
	struct trax_collect_opts o = { 0 };

	(void)state;
	check(&o, "size_kb", "65536 4096");
	check(&o, "buffer_size_kb", "");
	check(&o, "duration_ms", "10000");
	o.buffer_kb = 8192;
	o.duration = 2.5;
	check(&o, "size_kb", "131072 4096");
	check(&o, "buffer_size_kb", "8192");
	check(&o, "duration_ms", "2500");
	o.buffer_kb = 1u << 20;
	check(&o, "size_kb", "262144 4096");
	o.duration = 0;
	o.argv = argv;
	check(&o, "duration_ms", "600000");
	check(&o, "enabled", "true");
	check(&o, "name", "linux.ftrace linux.process_stats");
	check(&o, "target_buffer", "0 1");
}

static void bad(const struct trax_collect_opts *o, const char *want)
{
	struct trax_error err = { 0 };
	char *text = (char *)1;

	assert_int_equal(trax_perfetto_config(o, &text, &err), -TRAX_E_USAGE);
	assert_null(text);
	assert_non_null(strstr(err.msg, want));
}

static void test_errors(void **state)
{
	(void)state;
	bad(&(struct trax_collect_opts){ .presets = "sched,andriod" }, "unknown preset 'andriod'");
	bad(&(struct trax_collect_opts){ .events = "sched:sw\"itch" }, "malformed event");
	bad(&(struct trax_collect_opts){ .events = "a b" }, "malformed event 'a b'");
	bad(&(struct trax_collect_opts){ .events = ":x" }, "malformed event ':x'");
	bad(&(struct trax_collect_opts){ .atrace_categories = "gfx\n" }, "malformed atrace category");
	bad(&(struct trax_collect_opts){ .atrace_apps = "com.x\"" }, "malformed atrace app");
}

static void test_limits(void **state)
{
	char *const argv[] = { "true", NULL };
	struct trax_collect_opts o = { 0 };
	char **l;
	int n;

	(void)state;
	l = trax_perfetto_limits(&o);
	for (n = 0; l[n]; n++)
		assert_null(strchr(l[n], '\n'));
	assert_int_equal(n, 4);
	assert_non_null(strstr(l[0], "no private tracefs instance"));
	trax_perfetto_limits_free(l);
	o.argv = argv;
	o.clock = "mono";
	o.cmdlines = 8192;
	l = trax_perfetto_limits(&o);
	for (n = 0; l[n]; n++)
		;
	assert_int_equal(n, 7);
	assert_non_null(strstr(l[5], "-C is ignored"));
	trax_perfetto_limits_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
