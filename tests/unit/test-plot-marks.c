/*
 * tests/unit/test-plot-marks.c: timeline markers, atrace slices and thread names; counters
 * selection, grouping and reasons. Expected counts come from the trace text itself (lines
 * counted here), never from trax's tables or drawing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "parse/parse.h"
#include "plot/plot.h"

static const char *shared_path(char *buf, size_t len, const char *rel)
{
	const char *shared = getenv("TRAX_SHARED");

	snprintf(buf, len, "%s/traces/%s", shared ? shared : "../shared", rel);
	if (access(buf, R_OK)) {
		printf("# SKIP %s absent (../shared/traces is not part of the repository)\n", buf);
		return NULL;
	}
	return buf;
}

static int draw(sqlite3 *db, const struct trax_plot_opts *o, struct trax_plot_info *info,
		struct trax_error *err)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, o->width, o->height);
	cairo_t *cr = cairo_create(s);
	int ret = trax_plot_draw(db, o, cr, info, err);

	cairo_destroy(cr);
	cairo_surface_destroy(s);
	return ret;
}

/* The timestamp of a text trace line (seconds), from "] FLAGS  TS: event:"; 0 when none. */
static double line_ts(const char *line, const char **event)
{
	const char *p = strstr(line, "] ");
	char *end;
	double ts;

	if (!p)
		return 0;
	p += 2;
	while (*p == ' ')
		p++;
	while (*p && *p != ' ')
		p++;		/* the flags */
	ts = strtod(p, &end);
	if (end == p || *end != ':')
		return 0;
	*event = end + 2;
	return ts;
}

struct sf_counts {
	double last;		/* the trace's last timestamp */
	int plain, begins, ends_before, begins_before;
};

/* Markers of the surfaceflinger trace in [from, last]: plain ones (not atrace's B|, C|, E, ...)
 * and B| begins; B and E before from (equal: no slice open across from). */
static void sf_count(const char *path, double from, struct sf_counts *n)
{
	FILE *f = fopen(path, "r");
	char line[4096];

	assert_non_null(f);
	memset(n, 0, sizeof(*n));
	while (fgets(line, sizeof(line), f)) {
		const char *ev = NULL, *m;
		double ts = line_ts(line, &ev);

		if (ts <= 0)
			continue;
		if (ts > n->last)
			n->last = ts;
		if (strncmp(ev, "tracing_mark_write: ", 20))
			continue;
		m = ev + 20;
		if (ts < from) {
			n->begins_before += m[0] == 'B' && m[1] == '|';
			n->ends_before += m[0] == 'E' && (m[1] == '|' || m[1] == '\n');
			continue;
		}
		if (m[0] == 'B' && m[1] == '|')
			n->begins++;
		else if (!(strchr("BCEFGHINS", m[0]) && (m[1] == '|' || m[1] == '\n')))
			n->plain++;
	}
	fclose(f);
}

/* Labels: inside the plot area's columns and above the lanes, and no two overlapping. */
static void check_labels(const struct trax_plot_info *info)
{
	for (int i = 0; i < info->nlabels; i++) {
		const struct trax_plot_rect *a = &info->labels[i];

		assert_true(a->w > 0);
		assert_true(a->x >= info->x - 1e-6);
		assert_true(a->x + a->w <= info->x + info->w + 1e-6);
		assert_true(a->y >= 0 && a->y + a->h <= info->y + 1e-6);
		for (int j = 0; j < i; j++) {
			const struct trax_plot_rect *b = &info->labels[j];

			assert_false(a->x < b->x + b->w && b->x < a->x + a->w &&
				     a->y < b->y + b->h && b->y < a->y + a->h);
		}
	}
}

/*
 * The surfaceflinger systrace's last 70 ms: no plain marker there (every marker is atrace's),
 * so no tick; each B| is one slice rectangle. The whole trace: its two clock-sync markers are
 * the only ticks, both labelled.
 */
static void test_surfaceflinger_markers(void **state)
{
	char path[4096];
	struct trax_plot_opts o;
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	struct sf_counts n;
	sqlite3 *db = NULL;

	(void)state;
	if (!shared_path(path, sizeof(path), "trappy/trace_surfaceflinger.html"))
		skip();
	sf_count(path, 0, &n);
	sf_count(path, n.last - 0.070, &n);
	assert_int_equal(n.begins_before, n.ends_before);
	assert_true(n.begins > 20);
	assert_int_equal(trax_db_open(path, NULL, &db, &err), 0);
	trax_plot_opts_init(&o);
	o.start = (int64_t)((n.last - 0.070) * 1e6 + 0.5) * 1000;
	o.end = (int64_t)(n.last * 1e6 + 0.5) * 1000;
	assert_int_equal(draw(db, &o, &info, &err), 0);
	assert_int_equal(info.nticks, n.plain);
	assert_int_equal(info.nslices, n.begins);
	assert_int_equal(info.nslices_hidden, 0);
	check_labels(&info);
	trax_plot_info_release(&info);

	sf_count(path, 0, &n);
	assert_int_equal(n.plain, 2);
	trax_plot_opts_init(&o);
	assert_int_equal(draw(db, &o, &info, &err), 0);
	assert_int_equal(info.nticks, n.plain);
	assert_int_equal(info.nlabels, 2);
	assert_int_equal(info.nslices + info.nslices_hidden, n.begins);
	check_labels(&info);
	trax_plot_info_release(&info);
	sqlite3_close(db);
}

/*
 * A trace written here: pid 1234 runs as sh, execs rt-app; plain markers 10 us apart (their
 * labels would collide) and one at the right edge; one B/E pair; a C counter.
 */
static const char exec_trace[] =
	"# tracer: nop\n#\n"
	"              sh-1234  [000] d..3   100.000000: sched_switch: prev_comm=swapper/0 "
	"prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sh next_pid=1234 next_prio=120\n"
	"              sh-1234  [000] ....   100.001000: tracing_mark_write: phase one starts "
	"here with a long label\n"
	"              sh-1234  [000] ....   100.001010: tracing_mark_write: second marker\n"
	"              sh-1234  [000] ....   100.001020: tracing_mark_write: third marker\n"
	"              sh-1234  [000] ....   100.002000: sched_process_exec: "
	"filename=/usr/bin/rt-app pid=1234 old_pid=1234\n"
	"          rt-app-1234  [000] ....   100.003000: tracing_mark_write: B|1234|work\n"
	"          rt-app-1234  [000] ....   100.004000: tracing_mark_write: C|1234|load|5\n"
	"          rt-app-1234  [000] ....   100.005000: tracing_mark_write: E|1234\n"
	"          rt-app-1234  [000] d..3   100.006000: sched_switch: prev_comm=rt-app "
	"prev_pid=1234 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 "
	"next_prio=120\n"
	"          <idle>-0     [000] ....   100.009990: tracing_mark_write: the last marker, "
	"at the right edge of the plot\n"
	"          <idle>-0     [000] d..3   100.010000: sched_switch: prev_comm=swapper/0 "
	"prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sh next_pid=1235 next_prio=120\n";

static void test_exec_one_entry(void **state)
{
	char dir[] = "/tmp/trax-test-marks-XXXXXX", path[128];
	struct trax_plot_opts o;
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	sqlite3 *db = NULL;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/exec.txt", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs(exec_trace, f);
	fclose(f);
	assert_int_equal(trax_db_open(path, NULL, &db, &err), 0);
	trax_plot_opts_init(&o);
	o.width = 800;
	o.height = 300;
	assert_int_equal(draw(db, &o, &info, &err), 0);
	/* one legend entry for the thread, naming both names; the idle task has none */
	assert_non_null(info.names);
	assert_string_equal(info.names, "sh \u2192 rt-app (1234)\n");
	assert_int_equal(info.nticks, 4);	/* the plain markers written above */
	assert_int_equal(info.nslices, 1);	/* B|1234|work */
	assert_true(info.nlabels >= 2 && info.nlabels < 4);	/* 10 us apart: not all */
	check_labels(&info);
	trax_plot_info_release(&info);
	/* a narrow chart: the labels are cut or left out, never outside */
	o.width = 240;
	o.height = 200;
	assert_int_equal(draw(db, &o, &info, &err), 0);
	check_labels(&info);
	trax_plot_info_release(&info);
	sqlite3_close(db);
	unlink(path);
	rmdir(dir);
}

/* The distinct cpu_id of a text trace's cpu_frequency lines. */
static int freq_cpus(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	int seen[256] = { 0 }, n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, ": cpu_frequency: "), *q;

		if (p && (q = strstr(p, "cpu_id="))) {
			int cpu = atoi(q + 7);

			if (cpu >= 0 && cpu < 256 && !seen[cpu]++)
				n++;
		}
	}
	fclose(f);
	return n;
}

/*
 * --track cpu_freq selects cpu_frequency (a name without glob characters is a prefix): one
 * lane per CPU of the trace's cpu_frequency lines. The default chart: cpu_frequency of each
 * CPU, then cpu_idle, then atrace counters under their process's name.
 */
static void test_counters_tracks(void **state)
{
	char path[4096], name[64];
	const char *sel[] = { "cpu_freq" };
	struct trax_plot_opts o;
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	sqlite3 *db = NULL;
	int ncpu;
	const char *p;

	(void)state;
	if (!shared_path(path, sizeof(path), "trappy/trace_surfaceflinger.html"))
		skip();
	ncpu = freq_cpus(path);
	assert_true(ncpu >= 2);
	assert_int_equal(trax_db_open(path, NULL, &db, &err), 0);
	trax_plot_opts_init(&o);
	o.kind = TRAX_PLOT_COUNTERS;
	o.tracks = sel;
	o.ntracks = 1;
	assert_int_equal(draw(db, &o, &info, &err), 0);
	assert_int_equal(info.nlanes, ncpu);
	for (int i = 0; i < ncpu; i++)
		assert_int_equal(info.lanes[i].cpu, i);
	trax_plot_info_release(&info);

	o.tracks = NULL;
	o.ntracks = 0;
	assert_int_equal(draw(db, &o, &info, &err), 0);
	assert_true(info.nlanes >= 2 * ncpu + 1);
	p = info.names;
	for (int i = 0; i < 2 * ncpu; i++) {
		snprintf(name, sizeof(name), "%s · CPU %d\n", i < ncpu ? "cpu_frequency" :
			 "cpu_idle", i % ncpu);
		assert_true(!strncmp(p, name, strlen(name)));
		p += strlen(name);
	}
	/* C|594|VSYNC-app|1, written by threads of surfaceflinger-594 */
	assert_non_null(strstr(p, "surfaceflinger 594 · VSYNC-app\n"));
	assert_null(strstr(info.names, "utid"));
	trax_plot_info_release(&info);
	sqlite3_close(db);
}

/* No track selected: the reason names the tracks the trace has (its zone soc_thermal, from the
 * trace's thermal_temperature lines), not "not in the trace". */
static void test_counters_reasons(void **state)
{
	char path[4096];
	const char *sel[] = { "thermal_temperature:soc" }, *freq[] = { "cpu_freq" };
	struct trax_plot_opts o;
	struct trax_plot_info info;
	struct trax_error err = { 0 };
	sqlite3 *db = NULL;

	(void)state;
	if (!shared_path(path, sizeof(path), "trappy/thermal_trace.txt"))
		skip();
	assert_int_equal(trax_db_open(path, NULL, &db, &err), 0);
	trax_plot_opts_init(&o);
	o.kind = TRAX_PLOT_COUNTERS;
	o.tracks = sel;
	o.ntracks = 1;
	assert_int_equal(draw(db, &o, &info, &err), -TRAX_E_EVAL);
	assert_non_null(strstr(err.msg, "thermal_temperature:soc"));
	assert_non_null(strstr(err.msg, "thermal_temperature of zone soc_thermal"));
	assert_null(strstr(err.msg, "not in the trace"));
	o.tracks = freq;
	assert_int_equal(draw(db, &o, &info, &err), -TRAX_E_EVAL);
	assert_non_null(strstr(err.msg, "cpu_freq"));
	assert_non_null(strstr(err.msg, "soc_thermal"));
	/* a glob on the zone selects it */
	sel[0] = "thermal_temperature:soc*";
	o.tracks = sel;
	assert_int_equal(draw(db, &o, &info, &err), 0);
	assert_int_equal(info.nlanes, 1);
	trax_plot_info_release(&info);
	sqlite3_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_surfaceflinger_markers),
		cmocka_unit_test(test_exec_one_entry),
		cmocka_unit_test(test_counters_tracks),
		cmocka_unit_test(test_counters_reasons),
	};
	int ret = cmocka_run_group_tests(tests, NULL, NULL);

	trax_plot_release_fonts();
	return ret;
}
