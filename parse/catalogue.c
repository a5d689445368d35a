/* parse/catalogue.c: the event catalogue (parse/catalogue.h): what trax knows of each event. */
#include <string.h>

#include "parse/catalogue.h"

/* ---- the table (parse/events.h) ---- */

#define S1(s, n) { { s, n }, { NULL, NULL }, { NULL, NULL } }
#define S2(s1, n1, s2, n2) { { s1, n1 }, { s2, n2 }, { NULL, NULL } }

#define EV_SLOTS(list, slots)							\
	static const char *const ev_slots_##list[] = { slots NULL };		\
	_Static_assert(sizeof(ev_slots_##list) / sizeof(char *) <= LD_ROLE_FIELDS + 1, \
		       #list ": more fields than LD_ROLE_FIELDS");
#define EV_SLOT(slot, names) names,
#define EV_NAMES(list, ...) static const char *const ev_slots_##list[] = { __VA_ARGS__, NULL };
#define EV_TEXT(name, ...) static const struct bfield name[] = { __VA_ARGS__, { NULL, 0, NULL } };
#define EV_ROLE(role, spellings, list, text, by, feeds, presets)
#define EV_KNOWN(spellings, text, presets)
#include "parse/events.h"

#define EV_SLOTS(list, slots)
#define EV_SLOT(slot, names)
#define EV_NAMES(list, ...)
#define EV_TEXT(name, ...)
#define EV_ROLE(role, spellings, list, text, by, feeds, presets) \
	{ spellings, role, by, ev_slots_##list, feeds, presets, text },
#define EV_KNOWN(spellings, text, presets) \
	{ spellings, ROLE_NONE, EV_NONE, NULL, NULL, presets, text },
const struct ev_fact ev_catalogue[] = {
#include "parse/events.h"
	{ S1(NULL, NULL), ROLE_NONE, EV_NONE, NULL, NULL, NULL, NULL },
};

const char *const ev_preset_names[EV_NPRESETS + 1] = {
	"sched", "power", "thermal", "memory", "fence", "android", NULL,
};

int ev_list_holds(const char *list, const char *item)
{
	size_t n = strlen(item);

	for (const char *p = list; p && *p;) {
		size_t l = strcspn(p, ",");

		if (l == n && !memcmp(p, item, n))
			return 1;
		p += l + (p[l] == ',');
	}
	return 0;
}

const struct ev_fact *ev_fact_find(const char *system, const char *name, size_t len,
				   int *spelling)
{
	for (const struct ev_fact *f = ev_catalogue; f->spell[0].name; f++)
		for (int i = 0; i < EV_SPELLINGS && f->spell[i].name; i++) {
			if (strlen(f->spell[i].name) != len || memcmp(f->spell[i].name, name, len))
				continue;
			if (system && *system && strcmp(system, f->spell[i].system))
				continue;
			if (spelling)
				*spelling = i;
			return f;
		}
	return NULL;
}
