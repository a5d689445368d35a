/* tests/unit/test-facts.c: the target's facts: sysfs trees written here, their markers, the
 * markers read back into meta keys (no root). */
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

#include "collect/facts.h"
#include "parse/facts.h"

/* ---- a sysfs tree in a temporary directory ---- */

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void putf(const char *text, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void putf(const char *text, const char *fmt, ...)
{
	char rel[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	put(rel, text);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/trax-facts.XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) ? -1 : 0;
}

/*
 * Juno r0: CPUs 1-2 are the big cluster (A57, capacity 1024, cluster_id 0), CPUs 0 and 3-5 the
 * little one (A53, 446, cluster_id 1); each cluster one frequency domain. CPU 5 is offline and
 * CPU 0 has no online file (as on boards where the boot CPU cannot be unplugged).
 */
static void juno_tree(void)
{
	static const int big[] = { 1, 2 }, little[] = { 0, 3, 4, 5 };

	put("devices/system/cpu/possible", "0-5\n");
	put("devices/system/cpu/online", "0-4\n");
	for (int i = 0; i < 2; i++) {
		int c = big[i];

		putf("1\n", "devices/system/cpu/cpu%d/online", c);
		putf("1024\n", "devices/system/cpu/cpu%d/cpu_capacity", c);
		putf("0\n", "devices/system/cpu/cpu%d/topology/cluster_id", c);
		putf("0\n", "devices/system/cpu/cpu%d/topology/physical_package_id", c);
		putf("1 2\n", "devices/system/cpu/cpu%d/cpufreq/related_cpus", c);
		putf("450000 625000 800000 950000 1100000 \n",
		     "devices/system/cpu/cpu%d/cpufreq/scaling_available_frequencies", c);
		putf("450000\n", "devices/system/cpu/cpu%d/cpufreq/cpuinfo_min_freq", c);
		putf("1100000\n", "devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", c);
		putf("WFI\n", "devices/system/cpu/cpu%d/cpuidle/state0/name", c);
		putf("1\n", "devices/system/cpu/cpu%d/cpuidle/state0/latency", c);
		putf("1\n", "devices/system/cpu/cpu%d/cpuidle/state0/residency", c);
		putf("cpu-sleep-0\n", "devices/system/cpu/cpu%d/cpuidle/state1/name", c);
		putf("800\n", "devices/system/cpu/cpu%d/cpuidle/state1/latency", c);
		putf("2000\n", "devices/system/cpu/cpu%d/cpuidle/state1/residency", c);
	}
	for (int i = 0; i < 4; i++) {
		int c = little[i];

		if (c)
			putf(c == 5 ? "0\n" : "1\n", "devices/system/cpu/cpu%d/online", c);
		putf("446\n", "devices/system/cpu/cpu%d/cpu_capacity", c);
		putf("1\n", "devices/system/cpu/cpu%d/topology/cluster_id", c);
		putf("1 \n", "devices/system/cpu/cpu%d/topology/physical_package_id", c);
		putf("0 3 4 5\n", "devices/system/cpu/cpu%d/cpufreq/related_cpus", c);
		putf("450000 575000 700000 775000 850000\n",
		     "devices/system/cpu/cpu%d/cpufreq/scaling_available_frequencies", c);
		putf("450000\n", "devices/system/cpu/cpu%d/cpufreq/cpuinfo_min_freq", c);
		putf("850000\n", "devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", c);
		putf("WFI\n", "devices/system/cpu/cpu%d/cpuidle/state0/name", c);
		putf("1\n", "devices/system/cpu/cpu%d/cpuidle/state0/latency", c);
		putf("1\n", "devices/system/cpu/cpu%d/cpuidle/state0/residency", c);
		/* a name with a space and no residency file */
		putf("cpu sleep 0\n", "devices/system/cpu/cpu%d/cpuidle/state1/name", c);
		putf("300\n", "devices/system/cpu/cpu%d/cpuidle/state1/latency", c);
	}
}

/* ---- markers collected ---- */

struct lines {
	char *v[64];
	int n;
};

static int collect(void *ctx, const char *line)
{
	struct lines *l = ctx;

	assert_true(l->n < 64);
	l->v[l->n++] = strdup(line);
	return 0;
}

static void lines_free(struct lines *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i]);
	l->n = 0;
}

/* ---- meta keys collected ---- */

struct kv {
	char key[96], value[1024];
};

struct kvs {
	struct kv v[128];
	int n;
};

static void set(void *ctx, const char *key, const char *value)
{
	struct kvs *k = ctx;

	assert_true(k->n < 128);
	snprintf(k->v[k->n].key, sizeof(k->v[0].key), "%s", key);
	snprintf(k->v[k->n].value, sizeof(k->v[0].value), "%s", value);
	k->n++;
}

static const char *get(const struct kvs *k, const char *key)
{
	for (int i = k->n - 1; i >= 0; i--)
		if (!strcmp(k->v[i].key, key))
			return k->v[i].value;
	return NULL;
}

static void test_juno_markers(void **state)
{
	struct trax_facts f;
	struct lines l = { 0 };

	(void)state;
	juno_tree();
	assert_int_equal(trax_facts_read(root, "4.4.0-juno", &f), 0);
	assert_int_equal(f.ncpus, 6);
	assert_int_equal(trax_facts_write(&f, collect, &l), 7);
	assert_string_equal(l.v[0], "trax: target kernel=4.4.0-juno ncpus=6 cpus_possible=0-5 "
			    "cpus_online=0-4");
	assert_string_equal(l.v[1], "trax: target cpu=0 capacity=446 cluster=1 "
			    "freq_domain=0,3-5 min_freq=450000 max_freq=850000 "
			    "freqs=450000,575000,700000,775000,850000 "
			    "idle_states=WFI:1:1,cpu_sleep_0:300:");
	assert_string_equal(l.v[2], "trax: target cpu=1 online=1 capacity=1024 cluster=0 "
			    "freq_domain=1-2 min_freq=450000 max_freq=1100000 "
			    "freqs=450000,625000,800000,950000,1100000 "
			    "idle_states=WFI:1:1,cpu-sleep-0:800:2000");
	assert_string_equal(l.v[3], "trax: target cpu=2 online=1 capacity=1024 cluster=0 "
			    "freq_domain=1-2 min_freq=450000 max_freq=1100000 "
			    "freqs=450000,625000,800000,950000,1100000 "
			    "idle_states=WFI:1:1,cpu-sleep-0:800:2000");
	assert_string_equal(l.v[6], "trax: target cpu=5 online=0 capacity=446 cluster=1 "
			    "freq_domain=0,3-5 min_freq=450000 max_freq=850000 "
			    "freqs=450000,575000,700000,775000,850000 "
			    "idle_states=WFI:1:1,cpu_sleep_0:300:");
	lines_free(&l);
	trax_facts_release(&f);
}

/* The markers read back: meta keys equal the files written above. */
static void test_juno_meta(void **state)
{
	struct trax_facts f;
	struct lines l = { 0 };
	struct kvs k = { .n = 0 };

	(void)state;
	juno_tree();
	trax_facts_read(root, "4.4.0-juno", &f);
	trax_facts_write(&f, collect, &l);
	for (int i = 0; i < l.n; i++)
		assert_int_equal(facts_parse(l.v[i], (int)strlen(l.v[i]), set, &k), 1);
	assert_string_equal(get(&k, "target.kernel"), "4.4.0-juno");
	assert_string_equal(get(&k, "target.ncpus"), "6");
	assert_string_equal(get(&k, "target.cpus_online"), "0-4");
	assert_string_equal(get(&k, "cpu.4.capacity"), "446");
	assert_string_equal(get(&k, "cpu.2.capacity"), "1024");
	assert_string_equal(get(&k, "cpu.2.cluster"), "0");
	assert_string_equal(get(&k, "cpu.3.freq_domain"), "0,3-5");
	assert_string_equal(get(&k, "cpu.1.freqs"), "450000,625000,800000,950000,1100000");
	assert_string_equal(get(&k, "cpu.1.max_freq"), "1100000");
	assert_string_equal(get(&k, "cpu.5.online"), "0");
	assert_null(get(&k, "cpu.0.online"));
	assert_null(get(&k, "cpu.0.cpu"));
	lines_free(&l);
	trax_facts_release(&f);
}

/* No cpufreq, no capacity, no idle: the CPUs from their directories, else from possible. */
static void test_missing_facts(void **state)
{
	struct trax_facts f;
	struct lines l = { 0 };
	char cmd[256];

	(void)state;
	mkdir(root, 0755);
	put("devices/system/cpu/cpu0/uevent", "");
	put("devices/system/cpu/cpu1/topology/physical_package_id", "0\n");
	/* cluster_id -1 (no clusters described, arm64) or 65535 (x86): the package instead */
	put("devices/system/cpu/cpu1/topology/cluster_id", "-1\n");
	put("devices/system/cpu/cpu0/topology/cluster_id", "65535\n");
	put("devices/system/cpu/cpufreq/boost", "1\n");	/* not a CPU */
	put("devices/system/cpu/possible", "0-63\n");	/* a VM's: two CPUs are there */
	assert_int_equal(trax_facts_read(root, "6.1.0", &f), 0);
	assert_int_equal(f.ncpus, 2);
	assert_int_equal(trax_facts_write(&f, collect, &l), 3);
	assert_string_equal(l.v[0], "trax: target kernel=6.1.0 ncpus=2 cpus_possible=0-63");
	assert_string_equal(l.v[1], "trax: target cpu=0");
	assert_string_equal(l.v[2], "trax: target cpu=1 cluster=0");
	lines_free(&l);
	trax_facts_release(&f);

	/* no cpuN directory: the CPUs of possible */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'/devices/system/cpu/cpu0 '%s'/devices/system/cpu/cpu1",
		 root, root);
	assert_int_equal(system(cmd), 0);
	put("devices/system/cpu/possible", "0-2\n");
	assert_int_equal(trax_facts_read(root, "6.1.0", &f), 0);
	assert_int_equal(f.ncpus, 3);
	assert_int_equal(f.cpus[2].cpu, 2);
	trax_facts_release(&f);

	/* no tree at all: the kernel, no CPU */
	assert_int_equal(trax_facts_read("/nonexistent/sysfs", "6.1.0", &f), 0);
	assert_int_equal(f.ncpus, 0);
	assert_int_equal(trax_facts_write(&f, collect, &l), 1);
	assert_string_equal(l.v[0], "trax: target kernel=6.1.0 ncpus=0");
	lines_free(&l);
	trax_facts_release(&f);
}

/* A list too long for one marker: the CPU's facts go on in another marker of the same cpu=,
 * each at most TRAX_FACTS_MARKER_MAX bytes; a list longer than a marker is cut at an item. */
static void test_long_lists(void **state)
{
	struct trax_facts f;
	struct lines l = { 0 };
	struct kvs k = { .n = 0 };
	char freqs[4096] = "", want[1024] = "";
	size_t room = TRAX_FACTS_MARKER_MAX - strlen("trax: target cpu=0 freqs=");

	(void)state;
	for (int i = 0; i < 200; i++) {
		char one[16];

		snprintf(one, sizeof(one), "%s%d", i ? "," : "", 1000000 + i);
		strcat(freqs, one);
		if (strlen(want) + strlen(one) <= room)
			strcat(want, one);
	}
	put("devices/system/cpu/possible", "0\n");
	put("devices/system/cpu/cpu0/cpu_capacity", "1024\n");
	for (char *p = freqs; *p; p++)
		if (*p == ',')
			*p = ' ';
	put("devices/system/cpu/cpu0/cpufreq/scaling_available_frequencies", freqs);
	trax_facts_read(root, "6.1.0", &f);
	assert_int_equal(f.cpus[0].nfreqs, 200);
	assert_int_equal(trax_facts_write(&f, collect, &l), 3);
	assert_string_equal(l.v[1], "trax: target cpu=0 capacity=1024");
	assert_true(strlen(l.v[2]) <= TRAX_FACTS_MARKER_MAX);
	for (int i = 0; i < l.n; i++)
		assert_int_equal(facts_parse(l.v[i], (int)strlen(l.v[i]), set, &k), 1);
	assert_string_equal(get(&k, "cpu.0.capacity"), "1024");
	assert_string_equal(get(&k, "cpu.0.freqs"), want);
	lines_free(&l);
	trax_facts_release(&f);
}

/* This machine's own sysfs: whatever it lacks, reading succeeds and every marker parses. */
static void test_real_sysfs(void **state)
{
	struct trax_facts f;
	struct lines l = { 0 };
	struct kvs k = { .n = 0 };
	(void)state;
	assert_int_equal(trax_facts_read(NULL, NULL, &f), 0);
	assert_true(f.kernel[0]);
	/* the CPU this test runs on has its directory */
	if (!access("/sys/devices/system/cpu/cpu0", F_OK))
		assert_true(f.ncpus >= 1);
	assert_true(trax_facts_write(&f, collect, &l) >= 1 + f.ncpus);
	for (int i = 0; i < l.n; i++) {
		assert_true(strlen(l.v[i]) <= TRAX_FACTS_MARKER_MAX);
		k.n = 0;
		assert_int_equal(facts_parse(l.v[i], (int)strlen(l.v[i]), set, &k), 1);
	}
	lines_free(&l);
	trax_facts_release(&f);
}

static void test_parse_rejects(void **state)
{
	static const char *const bad[] = {
		"trax: target",			/* nothing */
		"trax: target ",
		"trax: targets kernel=6.1",	/* another word */
		"trax: initial task pid=1 tgid=1 comm=x",
		"trax: target kernel",		/* a word without = */
		"trax: target kernel=6.1 ncpus",
		"trax: target Kernel=6.1",	/* keys are lower case */
		"trax: target kernel=",		/* empty value */
		"trax: target cpu=x capacity=1",
		"trax: target cpu=-1 capacity=1",
		"trax: target cpu=4096 capacity=1",
		"trax: target cpu.0=1",
	};
	struct kvs k = { .n = 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(facts_parse(bad[i], (int)strlen(bad[i]), set, &k), 0);
	assert_int_equal(k.n, 0);
	/* a trailing newline, several spaces, an unknown key (kept as it is) */
	{
		const char *s = "trax: target cpu=7  capacity=512 new_fact=a,b\n";

		assert_int_equal(facts_parse(s, (int)strlen(s), set, &k), 1);
	}
	assert_int_equal(k.n, 2);
	assert_string_equal(get(&k, "cpu.7.capacity"), "512");
	assert_string_equal(get(&k, "cpu.7.new_fact"), "a,b");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_juno_markers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_juno_meta, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_facts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_lists, setup, teardown),
		cmocka_unit_test(test_real_sysfs),
		cmocka_unit_test(test_parse_rejects),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
