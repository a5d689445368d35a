/* collect/pfconfig.c: a Perfetto trace config (protobuf text) from trax collect's options. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/collect-local.h"
#include "collect/pfconfig.h"
#include "parse/catalogue.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * The atrace categories a preset adds (FtraceConfig.atrace_categories). The android preset's
 * are the userspace categories an Android performance engineer reads first (graphics, views,
 * input, activity and window managers, ART, binder, HALs, resources) and the kernel ones that
 * make atrace itself enable the scheduler, frequency and idle events; the other presets name
 * their ftrace events directly and add none.
 */
static const struct {
	const char *preset;
	const char *categories;
} preset_atrace[] = {
	{ "android", "gfx,view,input,am,wm,dalvik,binder_driver,hal,aidl,res,sched,freq,idle" },
};

struct names {
	char **v;
	int n, cap;
};

static void names_add(struct names *l, const char *s, size_t len)
{
	for (int i = 0; i < l->n; i++)
		if (strlen(l->v[i]) == len && !memcmp(l->v[i], s, len))
			return;
	TRAX_GROW(l->v, l->n, l->cap, 32);
	l->v[l->n++] = xstrndup(s, len);
}

static void names_addf_event(struct names *l, const char *system, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s", system, name);
	names_add(l, sb.buf, sb.len);
	strbuf_release(&sb);
}

static void names_release(struct names *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* Characters of a kernel event or system name; '.' too for app names ("com.android.x"). */
static int name_ok(const char *s, size_t len, int dots)
{
	if (!len)
		return 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || (dots && (c == '.' || c == '-' || c == ':'))))
			return 0;
	}
	return 1;
}

/* Call fn on each trimmed, non-empty item of a comma list; stops at its first non-zero. */
static int each_item(const char *list, int (*fn)(const char *s, size_t len, void *ctx), void *ctx)
{
	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		int ret;

		while (len && (*p == ' ' || *p == '\t'))
			p++, len--;
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len && (ret = fn(p, len, ctx)))
			return ret;
		p = end ? end + 1 : NULL;
	}
	return 0;
}

struct ctx {
	struct names *out;
	struct trax_error *err;
};

/* A preset's events: "system:name|system:name" rows, every spelling as group/name. */
static int preset_cb(const char *s, size_t len, void *arg)
{
	struct ctx *c = arg;
	char name[64];
	const char *const *ev;

	snprintf(name, sizeof(name), "%.*s", (int)(len < 63 ? len : 63), s);
	ev = trax_collect_preset_events(name);
	if (!ev || strlen(name) != len)
		return ev_check_presets(name, c->err);
	for (int i = 0; ev[i]; i++)
		for (const char *p = ev[i]; *p;) {
			const char *bar = strchr(p, '|'), *end = bar ? bar : p + strlen(p);
			const char *colon = memchr(p, ':', end - p);
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "%.*s/%.*s", (int)(colon - p), p,
				    (int)(end - colon - 1), colon + 1);
			names_add(c->out, sb.buf, sb.len);
			strbuf_release(&sb);
			p = bar ? bar + 1 : end;
		}
	return 0;
}

static int is_catalogue_system(const char *s, size_t len)
{
	for (const struct ev_fact *f = ev_catalogue; f->spell[0].name; f++)
		for (int k = 0; k < EV_SPELLINGS && f->spell[k].name; k++)
			if (strlen(f->spell[k].system) == len && !memcmp(f->spell[k].system, s, len))
				return 1;
	return 0;
}

/*
 * One -e item. SYSTEM:NAME, SYSTEM/NAME and SYSTEM:* are passed on as group/name ("group/"
 * and a star);
 * a bare word that is a system of the catalogue is the whole system (as on a local capture,
 * where the kernel's tracefs says), a bare event name of the catalogue is its group/name in
 * every system spelling it that way; any other bare name is passed as it is (the device's
 * traced_probes looks it up among the events it knows).
 */
static int event_cb(const char *s, size_t len, void *arg)
{
	struct ctx *c = arg;
	const char *sep = memchr(s, ':', len);
	const struct ev_fact *f;

	if (!sep)
		sep = memchr(s, '/', len);
	if (sep) {
		size_t slen = sep - s, elen = len - slen - 1;
		const char *ev = sep + 1;
		struct strbuf sb = STRBUF_INIT;

		if (!name_ok(s, slen, 0) || !(name_ok(ev, elen, 0) || (elen == 1 && *ev == '*')))
			return trax_error_set(c->err, TRAX_E_USAGE, "malformed event '%.*s' (want "
					      "SYSTEM:NAME, SYSTEM:* or NAME, of letters, digits "
					      "and '_')", (int)len, s);
		strbuf_addf(&sb, "%.*s/%.*s", (int)slen, s, (int)elen, ev);
		names_add(c->out, sb.buf, sb.len);
		strbuf_release(&sb);
		return 0;
	}
	if (!name_ok(s, len, 0))
		return trax_error_set(c->err, TRAX_E_USAGE, "malformed event '%.*s' (want "
				      "SYSTEM:NAME, SYSTEM:* or NAME, of letters, digits and '_')",
				      (int)len, s);
	if (is_catalogue_system(s, len)) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%.*s/*", (int)len, s);
		names_add(c->out, sb.buf, sb.len);
		strbuf_release(&sb);
		return 0;
	}
	if ((f = ev_fact_find(NULL, s, len, NULL))) {
		for (int k = 0; k < EV_SPELLINGS && f->spell[k].name; k++)
			if (strlen(f->spell[k].name) == len && !memcmp(f->spell[k].name, s, len))
				names_addf_event(c->out, f->spell[k].system, f->spell[k].name);
		return 0;
	}
	names_add(c->out, s, len);
	return 0;
}

struct word_ctx {
	struct names *out;
	struct trax_error *err;
	const char *what;
	int dots;
};

static int word_cb(const char *s, size_t len, void *arg)
{
	struct word_ctx *c = arg;

	if (!name_ok(s, len, c->dots) && !(c->dots && len == 1 && *s == '*'))
		return trax_error_set(c->err, TRAX_E_USAGE, "malformed %s '%.*s'", c->what,
				      (int)len, s);
	names_add(c->out, s, len);
	return 0;
}

/* The atrace categories of a preset, if it has any. */
static int preset_atrace_cb(const char *s, size_t len, void *arg)
{
	for (size_t i = 0; i < sizeof(preset_atrace) / sizeof(preset_atrace[0]); i++)
		if (strlen(preset_atrace[i].preset) == len && !memcmp(preset_atrace[i].preset, s, len))
			return each_item(preset_atrace[i].categories, word_cb, arg);
	return 0;
}

static void add_strings(struct strbuf *sb, const char *indent, const char *field,
			const struct names *l)
{
	/* every string passed name_ok(): no quote or backslash to escape */
	for (int i = 0; i < l->n; i++)
		strbuf_addf(sb, "%s%s: \"%s\"\n", indent, field, l->v[i]);
}

static uint32_t duration_ms(const struct trax_collect_opts *o)
{
	if (o->duration > 0) {
		double ms = o->duration * 1000.0 + 0.5;

		return ms < 1 ? 1 : ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
	}
	return o->argv || o->workload ? TRAX_PF_WORKLOAD_CAP_MS : TRAX_PF_DEFAULT_MS;
}

static uint32_t main_buffer_kb(const struct trax_collect_opts *o)
{
	uint64_t kb = (uint64_t)o->buffer_kb * 16;

	if (kb < TRAX_PF_BUFFER_MIN_KB)
		kb = TRAX_PF_BUFFER_MIN_KB;
	if (kb > TRAX_PF_BUFFER_MAX_KB)
		kb = TRAX_PF_BUFFER_MAX_KB;
	return (uint32_t)kb;
}

int trax_perfetto_config(const struct trax_collect_opts *o, char **text, struct trax_error *err)
{
	struct names events = { 0 }, cats = { 0 }, apps = { 0 };
	struct ctx c = { &events, err };
	struct word_ctx cc = { &cats, err, "atrace category", 0 };
	struct word_ctx ac = { &apps, err, "atrace app", 1 };
	const char *presets = o->presets;
	struct strbuf sb = STRBUF_INIT;
	int ret;

	*text = NULL;
	if (!presets && !o->events)
		presets = "sched";
	if ((ret = each_item(presets, preset_cb, &c)) || (ret = each_item(o->events, event_cb, &c)))
		goto out;
	names_add(&events, "ftrace/print", strlen("ftrace/print"));
	if ((ret = each_item(presets, preset_atrace_cb, &cc)))
		goto out;
	if ((ret = each_item(o->atrace_categories, word_cb, &cc)) ||
	    (ret = each_item(o->atrace_apps, word_cb, &ac)))
		goto out;

	strbuf_adds(&sb, "# trax collect: a Perfetto TraceConfig (perfetto --txt -c FILE|-)\n");
	/* buffer 0: ftrace, filled and written to the file in turns; a full buffer drops new
	 * data (counted in the trace's stats) as a local capture's non-overwrite buffers do */
	strbuf_addf(&sb, "buffers {\n  size_kb: %u\n  fill_policy: DISCARD\n}\n", main_buffer_kb(o));
	/* buffer 1: the process tree, so that a flood of events cannot push the names out */
	strbuf_addf(&sb, "buffers {\n  size_kb: %u\n  fill_policy: DISCARD\n}\n",
		    TRAX_PF_PROC_BUFFER_KB);
	strbuf_adds(&sb, "data_sources {\n  config {\n    name: \"linux.ftrace\"\n"
		    "    target_buffer: 0\n    ftrace_config {\n");
	add_strings(&sb, "      ", "ftrace_events", &events);
	add_strings(&sb, "      ", "atrace_categories", &cats);
	add_strings(&sb, "      ", "atrace_apps", &apps);
	if (o->buffer_kb)
		strbuf_addf(&sb, "      buffer_size_kb: %u\n", o->buffer_kb);
	strbuf_adds(&sb, "      compact_sched {\n        enabled: true\n      }\n    }\n  }\n}\n");
	strbuf_adds(&sb, "data_sources {\n  config {\n    name: \"linux.process_stats\"\n"
		    "    target_buffer: 1\n    process_stats_config {\n"
		    "      scan_all_processes_on_start: true\n      record_thread_names: true\n"
		    "    }\n  }\n}\n");
	strbuf_addf(&sb, "duration_ms: %u\n", duration_ms(o));
	strbuf_addf(&sb, "write_into_file: true\nfile_write_period_ms: %u\n",
		    TRAX_PF_WRITE_PERIOD_MS);
	*text = strbuf_detach(&sb);
out:
	names_release(&events);
	names_release(&cats);
	names_release(&apps);
	return ret;
}

static void limit(struct names *l, const char *s)
{
	names_add(l, s, strlen(s));
}

char **trax_perfetto_limits(const struct trax_collect_opts *o)
{
	struct names l = { 0 };

	limit(&l, "no private tracefs instance: the device's traced_probes records into the "
	      "kernel's top-level ftrace buffers, shared with every other tracing session; -b is "
	      "a request it does not honour while another session records");
	limit(&l, "the device enables the events, not trax: on a user build SELinux lets "
	      "traced_probes enable only the events the platform labels for tracing, and it "
	      "leaves out the others (and those this kernel lacks) without an error");
	limit(&l, "no initial state: CPU frequencies, idle states, temperatures and "
	      "oom_score_adj at the start are known only from the first event that changes them");
	limit(&l, "no kernel symbols: /proc/kallsyms is not readable without root");
	if (o->argv || o->workload)
		limit(&l, "the workload runs as the shell user, not as root, and its tracefs is "
		      "not redirected to a private instance");
	if (o->clock)
		limit(&l, "-C is ignored: Perfetto records ftrace in the boot clock");
	if (o->cmdlines)
		limit(&l, "--cmdlines is ignored: thread names come from linux.process_stats and "
		      "sched_switch");
	if (o->no_kallsyms)
		limit(&l, "--no-kallsyms has no effect: the trace has no kernel symbols anyway");
	if (o->no_redirect)
		limit(&l, "--no-redirect has no effect: there is no instance to redirect to");
	TRAX_GROW(l.v, l.n, l.cap, 1);
	l.v[l.n] = NULL;
	return l.v;
}

void trax_perfetto_limits_free(char **limits)
{
	for (char **p = limits; p && *p; p++)
		free(*p);
	free(limits);
}
