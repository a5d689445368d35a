/* collect/events.c: event selection: names, systems and presets resolved against tracefs. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/collect-local.h"
#include "parse/catalogue.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/xalloc.h"

/*
 * A preset's events come from the event catalogue (parse/catalogue.c): every row naming the
 * preset, as "system:name", or "a|b|..." for a row with several spellings (events renamed
 * between kernel versions or moved between systems): the first of them this kernel has.
 */
#define NPRESETS EV_NPRESETS

static const char **preset_events[NPRESETS];
static pthread_once_t presets_once = PTHREAD_ONCE_INIT;

static void presets_build(void)
{
	size_t rows = 0;

	for (const struct ev_fact *f = ev_catalogue; f->spell[0].name; f++)
		rows++;
	for (size_t p = 0; p < NPRESETS; p++) {
		size_t n = 0;

		preset_events[p] = xcalloc(rows + 1, sizeof(*preset_events[p]));
		for (const struct ev_fact *f = ev_catalogue; f->spell[0].name; f++) {
			struct strbuf sb = STRBUF_INIT;

			if (!ev_list_holds(f->presets, ev_preset_names[p]))
				continue;
			for (int k = 0; k < EV_SPELLINGS && f->spell[k].name; k++)
				strbuf_addf(&sb, "%s%s:%s", k ? "|" : "", f->spell[k].system,
					    f->spell[k].name);
			preset_events[p][n++] = strbuf_detach(&sb);
		}
	}
}

const char *const *trax_collect_presets(void)
{
	return ev_preset_names;
}

const char *const *trax_collect_preset_events(const char *name)
{
	pthread_once(&presets_once, presets_build);
	for (size_t p = 0; p < NPRESETS; p++)
		if (!strcmp(ev_preset_names[p], name))
			return preset_events[p];
	return NULL;
}

/* ---- the list ---- */

int ev_list_has(const struct ev_list *l, const char *system, const char *name)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].system, system) && !strcmp(l->v[i].name, name))
			return 1;
	return 0;
}

static void ev_list_add(struct ev_list *l, const char *system, size_t slen, const char *name,
			size_t nlen)
{
	char *s = xstrndup(system, slen), *n = xstrndup(name, nlen);

	if (ev_list_has(l, s, n)) {
		free(s);
		free(n);
		return;
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 32;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n].system = s;
	l->v[l->n].name = n;
	l->n++;
}

void ev_list_release(struct ev_list *l)
{
	for (int i = 0; i < l->n; i++) {
		free(l->v[i].system);
		free(l->v[i].name);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* ---- what the kernel has ---- */

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* A name usable as one path component. */
static int valid_name(const char *s, size_t len)
{
	if (!len || len > 200)
		return 0;
	if ((len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.'))
		return 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] == '/' || s[i] == '\0')
			return 0;
	return 1;
}

static int have_system(const char *dir, const char *sys, size_t slen)
{
	char path[4096];

	if (!valid_name(sys, slen))
		return 0;
	snprintf(path, sizeof(path), "%s/events/%.*s", dir, (int)slen, sys);
	return is_dir(path);
}

static int have_event(const char *dir, const char *sys, size_t slen, const char *ev, size_t elen)
{
	char path[4096];

	if (!valid_name(sys, slen) || !valid_name(ev, elen))
		return 0;
	snprintf(path, sizeof(path), "%s/events/%.*s/%.*s/format", dir, (int)slen, sys,
		 (int)elen, ev);
	return !access(path, R_OK);
}

/* Every event of a system (directories holding a format file), in directory order. */
static int add_system(const char *dir, const char *sys, size_t slen, struct ev_list *out)
{
	char path[4096];
	struct dirent **ents = NULL;
	int n, added = 0;

	snprintf(path, sizeof(path), "%s/events/%.*s", dir, (int)slen, sys);
	n = scandir(path, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *e = ents[i]->d_name;

		if (e[0] != '.' && have_event(dir, sys, slen, e, strlen(e))) {
			ev_list_add(out, sys, slen, e, strlen(e));
			added++;
		}
		free(ents[i]);
	}
	free(ents);
	return added;
}

/* Systems holding an event of this name. */
static int find_event(const char *dir, const char *ev, size_t elen, struct ev_list *found)
{
	char path[4096];
	struct dirent **ents = NULL;
	int n;

	snprintf(path, sizeof(path), "%s/events", dir);
	n = scandir(path, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *s = ents[i]->d_name;

		if (s[0] != '.' && have_event(dir, s, strlen(s), ev, elen))
			ev_list_add(found, s, strlen(s), ev, elen);
		free(ents[i]);
	}
	free(ents);
	return found->n;
}

/*
 * "; did you mean NAME?" into hint (else "") for an unknown -e item: the nearest of this
 * kernel's events, as SYSTEM:NAME when the item names a system, else by name (or a system).
 */
static void event_hint(const char *dir, const char *item, size_t len, int qualified,
		       char *hint, size_t size)
{
	struct dirent **sys = NULL;
	char path[4096], word[256];
	char **names = NULL;
	const char *near;
	int nsys, n = 0, cap = 0;

	hint[0] = '\0';
	if (len >= sizeof(word))
		return;
	snprintf(word, sizeof(word), "%.*s", (int)len, item);
	if (qualified && strchr(word, '/'))
		*strchr(word, '/') = ':';	/* SYSTEM/NAME */
	snprintf(path, sizeof(path), "%s/events", dir);
	nsys = scandir(path, &sys, NULL, alphasort);
	for (int i = 0; i < nsys; i++) {
		struct dirent **ev = NULL;
		const char *s = sys[i]->d_name;
		int nev;

		if (s[0] == '.' || !have_system(dir, s, strlen(s)))
			goto next;
		if (!qualified) {
			TRAX_GROW(names, n, cap, 256);
			names[n++] = xstrndup(s, strlen(s));
		}
		snprintf(path, sizeof(path), "%s/events/%s", dir, s);
		nev = scandir(path, &ev, NULL, alphasort);
		for (int j = 0; j < nev; j++) {
			const char *e = ev[j]->d_name;

			if (e[0] != '.' && have_event(dir, s, strlen(s), e, strlen(e))) {
				struct strbuf sb = STRBUF_INIT;

				if (qualified)
					strbuf_addf(&sb, "%s:", s);
				strbuf_adds(&sb, e);
				TRAX_GROW(names, n, cap, 256);
				names[n++] = strbuf_detach(&sb);
			}
			free(ev[j]);
		}
		free(ev);
next:
		free(sys[i]);
	}
	free(sys);
	near = trax_suggest(word, (const char *const *)names, n);
	if (near)
		snprintf(hint, size, "; did you mean %s?", near);
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* One -e item: SYSTEM:NAME, SYSTEM/NAME, SYSTEM:*, SYSTEM, NAME. */
static int resolve_item(const char *dir, const char *item, size_t len, struct ev_list *out,
			struct trax_error *err)
{
	const char *sep = memchr(item, ':', len);
	struct ev_list found = { 0 };

	if (!sep)
		sep = memchr(item, '/', len);
	if (sep) {
		size_t slen = sep - item, elen = len - slen - 1;
		const char *ev = sep + 1;

		if (!have_system(dir, item, slen)) {
			char hint[300];

			event_hint(dir, item, len, 1, hint, sizeof(hint));
			return trax_error_set(err, TRAX_E_USAGE, "unknown event system '%.*s' (not "
					      "in %s/events%s)", (int)slen, item, dir, hint);
		}
		if (!strncmp(item, "ftrace", slen) && slen == 6)
			return 0;	/* ftrace events (print: markers) are always recorded */
		if (elen == 1 && *ev == '*') {
			add_system(dir, item, slen, out);
			return 0;
		}
		if (!have_event(dir, item, slen, ev, elen)) {
			char hint[300];

			event_hint(dir, item, len, 1, hint, sizeof(hint));
			return trax_error_set(err, TRAX_E_USAGE, "unknown event '%.*s' (no "
					      "%s/events/%.*s/%.*s%s)", (int)len, item, dir,
					      (int)slen, item, (int)elen, ev, hint);
		}
		ev_list_add(out, item, slen, ev, elen);
		return 0;
	}
	if (have_system(dir, item, len)) {
		if (len == 6 && !strncmp(item, "ftrace", 6))
			return 0;
		add_system(dir, item, len, out);
		return 0;
	}
	if (!valid_name(item, len) || !find_event(dir, item, len, &found)) {
		char hint[300];

		ev_list_release(&found);
		event_hint(dir, item, len, 0, hint, sizeof(hint));
		return trax_error_set(err, TRAX_E_USAGE, "unknown event '%.*s' (no such event or "
				      "system in %s/events%s)", (int)len, item, dir, hint);
	}
	if (found.n > 1) {
		struct strbuf sb = STRBUF_INIT;
		int ret;

		for (int i = 0; i < found.n; i++)
			strbuf_addf(&sb, "%s%s:%s", i ? ", " : "", found.v[i].system,
				    found.v[i].name);
		ret = trax_error_set(err, TRAX_E_USAGE, "event name '%.*s' is in several systems "
				     "(%s): name one as SYSTEM:NAME", (int)len, item, sb.buf);
		strbuf_release(&sb);
		ev_list_release(&found);
		return ret;
	}
	ev_list_add(out, found.v[0].system, strlen(found.v[0].system), found.v[0].name,
		    strlen(found.v[0].name));
	ev_list_release(&found);
	return 0;
}

/* The preset of that name, or NULL and err says it is unknown, with the nearest name. */
static const char *preset_find(const char *name, size_t len, const char *const **events,
			       struct trax_error *err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *const *preset_names = ev_preset_names;
	const char *near;
	char word[64];

	for (int i = 0; preset_names[i]; i++)
		if (strlen(preset_names[i]) == len && !strncmp(preset_names[i], name, len)) {
			*events = trax_collect_preset_events(preset_names[i]);
			return preset_names[i];
		}
	snprintf(word, sizeof(word), "%.*s", (int)len, name);
	near = trax_suggest(word, preset_names, -1);
	if (near) {
		strbuf_addf(&sb, "did you mean %s?", near);
	} else {
		strbuf_adds(&sb, "presets: ");
		for (int i = 0; preset_names[i]; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "", preset_names[i]);
	}
	trax_error_set(err, TRAX_E_USAGE, "unknown preset '%.*s' (%s)", (int)len, name, sb.buf);
	strbuf_release(&sb);
	return NULL;
}

/* A preset's events this kernel has; the others are listed in missing. */
static int resolve_preset(const char *dir, const char *name, size_t len, struct ev_list *out,
			  struct strbuf *missing, struct trax_error *err)
{
	const char *const *events = NULL, *pname;
	struct strbuf lack = STRBUF_INIT;
	int taken = 0, nlack = 0, total = 0;

	if (!(pname = preset_find(name, len, &events, err)))
		return -TRAX_E_USAGE;
	for (int i = 0; events[i]; i++) {
		const char *alt = events[i], *end;
		int ok = 0;

		total++;
		while (*alt && !ok) {
			const char *colon;

			end = strchr(alt, '|');
			if (!end)
				end = alt + strlen(alt);
			colon = memchr(alt, ':', end - alt);
			if (colon &&
			    have_event(dir, alt, colon - alt, colon + 1, end - colon - 1)) {
				ev_list_add(out, alt, colon - alt, colon + 1, end - colon - 1);
				ok = 1;
			}
			alt = *end ? end + 1 : end;
		}
		if (!ok) {
			const char *first = events[i], *bar = strchr(first, '|');

			strbuf_addf(&lack, "%s%.*s", nlack ? ", " : "",
				    (int)(bar ? bar - first : (long)strlen(first)), first);
			nlack++;
		} else {
			taken++;
		}
	}
	if (!taken) {
		int ret = trax_error_set(err, TRAX_E_USAGE, "preset '%s': this kernel has none of "
					 "its events (%s)", pname, lack.buf);

		strbuf_release(&lack);
		return ret;
	}
	if (nlack)
		strbuf_addf(missing, "%spreset %s: %d of %d events; this kernel lacks %s",
			    missing->len ? "\n" : "", pname, taken, total, lack.buf);
	strbuf_release(&lack);
	return 0;
}

static int for_items(const char *list, int (*fn)(const char *item, size_t len, void *ctx),
		     void *ctx)
{
	const char *p = list;

	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		while (len && (*p == ' ' || *p == '\t'))
			p++, len--;
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len) {
			int ret = fn(p, len, ctx);

			if (ret)
				return ret;
		}
		p = end ? end + 1 : NULL;
	}
	return 0;
}

struct resolve_ctx {
	const char *dir;
	struct ev_list *out;
	struct strbuf *missing;
	struct trax_error *err;
};

static int item_cb(const char *item, size_t len, void *ctx)
{
	struct resolve_ctx *c = ctx;

	return resolve_item(c->dir, item, len, c->out, c->err);
}

static int preset_cb(const char *item, size_t len, void *ctx)
{
	struct resolve_ctx *c = ctx;

	return resolve_preset(c->dir, item, len, c->out, c->missing, c->err);
}

static int check_preset_cb(const char *item, size_t len, void *ctx)
{
	const char *const *events;

	return preset_find(item, len, &events, ctx) ? 0 : -TRAX_E_USAGE;
}

int ev_check_presets(const char *presets_list, struct trax_error *err)
{
	return for_items(presets_list, check_preset_cb, err);
}

int ev_resolve(const char *tracing_dir, const char *events, const char *presets_list,
	       struct ev_list *out, struct strbuf *missing, struct trax_error *err)
{
	struct resolve_ctx c = { tracing_dir, out, missing, err };
	char path[4096];
	int ret;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "%s/events", tracing_dir);
	if (!is_dir(path))
		return trax_error_set(err, TRAX_E_TRACEFS, "%s: no events directory (kernel "
				      "without trace events?)", tracing_dir);
	if (!events && !presets_list)
		presets_list = "sched";
	ret = for_items(presets_list, preset_cb, &c);
	if (!ret)
		ret = for_items(events, item_cb, &c);
	if (!ret && !out->n)
		ret = trax_error_set(err, TRAX_E_USAGE, "no event to record (an empty -e list?)");
	if (ret)
		ev_list_release(out);
	return ret;
}

int trax_collect_check_presets(const char *presets, struct trax_error *err)
{
	return ev_check_presets(presets, err);
}
