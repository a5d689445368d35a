/* tests/unit/test-catalogue.c: the event catalogue drives the loader and collect's presets alike. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "collect/collect.h"
#include "parse/catalogue.h"
#include "parse/derive.h"
#include "parse/load.h"
#include "rules/rules.h"
#include "util/error.h"
#include "util/strbuf.h"

/* A loader on an empty in-memory db, to see the role it gives a type. */
struct fix {
	sqlite3 *db;
	struct loader *L;
	struct trax_error err;
};

static int setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	assert_int_equal(sqlite3_open(":memory:", &f->db), SQLITE_OK);
	f->L = ld_alloc(f->db, NULL, &f->err);
	assert_non_null(f->L);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;

	ld_free(f->L);
	sqlite3_close(f->db);
	free(f);
	return 0;
}

/* The role the loader gives system:name with fields named as the row's text form. */
static struct ld_type *add_type(struct fix *f, const char *system, const char *name)
{
	const struct ev_fact *r = ev_fact_find(system, name, strlen(name), NULL);
	struct ld_field_def defs[16] = { { 0 } };
	int n = 0;

	for (int i = 0; r && r->text && r->text[i].name; i++, n++) {
		defs[n].name = r->text[i].name;
		defs[n].sql = r->text[i].flags & (BF_STR | BF_ARRAY) ? LD_TEXT : LD_INT;
		defs[n].is_string = !!(r->text[i].flags & BF_STR);
	}
	return ld_type_add(f->L, system, name, n, defs);
}

/*
 * Every event of every preset, in each of its spellings, is a row of the catalogue naming that
 * preset, and the loader gives it that row's role: what collect records, the loader derives.
 */
static void test_presets_feed_the_loader(void **state)
{
	struct fix *f = *state;
	int events = 0;

	for (const char *const *p = trax_collect_presets(); *p; p++) {
		const char *const *ev = trax_collect_preset_events(*p);

		assert_non_null(ev);
		assert_non_null(ev[0]);
		for (int i = 0; ev[i]; i++) {
			for (const char *alt = ev[i]; *alt;) {
				size_t n = strcspn(alt, "|");
				const char *colon = memchr(alt, ':', n);
				char sys[64], name[64];
				const struct ev_fact *r;
				struct ld_type *t;

				assert_non_null(colon);
				snprintf(sys, sizeof(sys), "%.*s", (int)(colon - alt), alt);
				snprintf(name, sizeof(name), "%.*s", (int)(alt + n - colon - 1),
					 colon + 1);
				r = ev_fact_find(sys, name, strlen(name), NULL);
				if (!r)
					fail_msg("preset %s: %s:%s is not in the catalogue", *p, sys,
						 name);
				assert_true(ev_list_holds(r->presets, *p));
				t = add_type(f, sys, name);
				assert_non_null(t);
				if ((int)t->role != (int)r->role)
					fail_msg("preset %s: the loader gives %s:%s role %d, the "
						 "catalogue %d", *p, sys, name, t->role, r->role);
				/* the fields the text form names are the ones the role reads */
				for (int k = 0; r->text && r->fields && k < LD_ROLE_FIELDS &&
				     r->fields[k]; k++)
					for (int j = 0; r->text[j].name; j++)
						if (!strncmp(r->fields[k], r->text[j].name,
							     strcspn(r->fields[k], "|")) &&
						    strlen(r->text[j].name) ==
							    strcspn(r->fields[k], "|") &&
						    t->ridx[k] < 0)
							fail_msg("%s:%s: role field %s unresolved",
								 sys, name, r->fields[k]);
				events++;
				alt += n + (alt[n] == '|');
			}
		}
	}
	assert_true(events > 60);
}

/* What the presets enable where kernels disagree, by the kernels' own formats
 * (../shared/traces/android/formats: kmem/ion_* on 3.4 to 4.4, sync/sync_* on 3.x and 4.4,
 * fence/fence_* on 4.4, dma_fence/dma_fence_* on 5.10). */
static void test_spellings(void **state)
{
	struct fix *f = *state;
	static const struct {
		const char *preset, *event;
		enum ld_role role;
	} want[] = {
		{ "fence", "sync:sync_wait|sync_trace:sync_wait", ROLE_SYNC_WAIT },
		{ "android", "sync:sync_wait|sync_trace:sync_wait", ROLE_SYNC_WAIT },
		{ "fence", "sync:sync_timeline|sync_trace:sync_timeline", ROLE_SYNC_TIMELINE },
		{ "fence", "dma_fence:dma_fence_init|fence:fence_init", ROLE_FENCE_INIT },
		{ "android", "kmem:ion_alloc_buffer_start|ion:ion_alloc_buffer_start",
		  ROLE_ION_ALLOC_START },
		{ "android", "kmem:ion_heap_grow|ion:ion_heap_grow", ROLE_ION_HEAP_GROW },
		{ "memory", "lowmemorykiller:lowmemory_kill", ROLE_LOWMEMORY_KILL },
		{ "sched", "task:task_newtask", ROLE_TASK_NEWTASK },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *const *ev = trax_collect_preset_events(want[i].preset);
		int found = 0;

		for (int k = 0; ev[k]; k++)
			found |= !strcmp(ev[k], want[i].event);
		if (!found)
			fail_msg("preset %s lacks %s", want[i].preset, want[i].event);
	}
	/* sync_trace:sync_wait is a fence wait; sched:sync_wait is nothing */
	assert_int_equal(add_type(f, "sync_trace", "sync_wait")->role, ROLE_SYNC_WAIT);
	assert_int_equal(add_type(f, "sync", "sync_pt")->role, ROLE_SYNC_PT);
	assert_int_equal(add_type(f, "fence", "fence_signaled")->role, ROLE_FENCE_SIGNALED);
	assert_int_equal(add_type(f, "kmem", "ion_alloc_buffer_fail")->role, ROLE_ION_ALLOC_FAIL);
	assert_int_equal(add_type(f, "sched", "sync_wait")->role, ROLE_NONE);
	assert_int_equal(add_type(f, "power", "sched_switch")->role, ROLE_NONE);
	/* a text trace does not say the system: the name alone finds the row */
	assert_int_equal(add_type(f, "", "fence_wait_start")->role, ROLE_FENCE_WAIT_START);
	assert_true(trax_event_known("sync_wait", NULL));
	assert_false(trax_event_known("sync_waiting", NULL));
}

/* A table line of doc/db.md's "The event catalogue" for row r. */
static void doc_line(struct strbuf *sb, const struct ev_fact *r)
{
	strbuf_adds(sb, "| ");
	for (int k = 0; k < EV_SPELLINGS && r->spell[k].name; k++)
		strbuf_addf(sb, "%s`%s:%s`", k ? ", " : "", r->spell[k].system, r->spell[k].name);
	strbuf_adds(sb, " | ");
	for (const char *p = r->feeds; p && *p; p++)
		strbuf_adds(sb, *p == ',' ? ", " : (char[]){ *p, 0 });
	strbuf_addf(sb, "%s | ", r->feeds ? "" : "—");
	for (const char *p = r->presets; p && *p; p++)
		strbuf_adds(sb, *p == ',' ? ", " : (char[]){ *p, 0 });
	strbuf_addf(sb, "%s | %s |\n", r->presets ? "" : "—", r->text ? "yes" : "learnt");
}

/* doc/db.md lists the catalogue row for row: the reader sees what the code holds. */
/* Every event a rule metric needs or loads (rules/metrics.h) is a row of the event catalogue,
 * under the name a loaded trace's event_type gives it; every metric has its list. */
static void check_metric_list(enum trax_metric m, const char *list, const char *seps)
{
	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, seps);

		if (!ev_fact_find(NULL, p, n, NULL))
			fail_msg("metric %s: %.*s is not in the event catalogue", trax_metric_name(m),
				 (int)n, p);
		p += n + (p[n] != 0);
	}
}

static void test_metric_events_in_catalogue(void **state)
{
	int lists = 0;

	(void)state;
	for (int m = 0; m < TRAX_METRIC__COUNT; m++) {
		const char *needs = trax_metric_needs(m), *loads = trax_metric_loads(m);

		/* only a counter reads its events from the rule (its track); sql reads anything */
		if (!needs && m != TRAX_METRIC_COUNTER && m != TRAX_METRIC_SQL)
			fail_msg("metric %s: no events it needs", trax_metric_name(m));
		if (!loads && m != TRAX_METRIC_COUNTER)
			fail_msg("metric %s: no events to load", trax_metric_name(m));
		check_metric_list(m, needs, ";|");
		if (loads && strcmp(loads, "*"))
			check_metric_list(m, loads, ",");
		/* what a metric needs it loads */
		for (const char *p = needs; p && *p;) {
			size_t n = strcspn(p, ";|");
			char ev[64];

			snprintf(ev, sizeof(ev), "%.*s", (int)n, p);
			if (!ev_list_holds(loads, ev))
				fail_msg("metric %s needs %s but does not load it", trax_metric_name(m),
					 ev);
			p += n + (p[n] != 0);
		}
		lists += needs != NULL;
	}
	assert_int_equal(lists, TRAX_METRIC__COUNT - 2);
}

static void test_doc_lists_the_catalogue(void **state)
{
	struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;
	char line[1024];
	FILE *doc = fopen("doc/db.md", "r");
	int in = 0;

	(void)state;
	if (!doc)
		fail_msg("doc/db.md: cannot open (run from the source tree)");
	for (const struct ev_fact *r = ev_catalogue; r->spell[0].name; r++)
		doc_line(&want, r);
	while (fgets(line, sizeof(line), doc)) {
		if (!strncmp(line, "## ", 3))
			in = !strcmp(line, "## The event catalogue\n") ? 1 : 0;
		else if (in == 1 && !strncmp(line, "|---", 4))
			in = 2;
		else if (in == 2 && line[0] == '|')
			strbuf_adds(&got, line);
		else if (in == 2)
			in = 0;
	}
	fclose(doc);
	assert_string_equal(got.buf, want.buf);
	strbuf_release(&want);
	strbuf_release(&got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_presets_feed_the_loader, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spellings, setup, teardown),
		cmocka_unit_test(test_doc_lists_the_catalogue),
		cmocka_unit_test(test_metric_events_in_catalogue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
