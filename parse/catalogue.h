/* parse/catalogue.h: the event catalogue: every fact trax holds about a kernel event, one table. */
#ifndef TRAX_PARSE_CATALOGUE_H
#define TRAX_PARSE_CATALOGUE_H

#include <stddef.h>

/*
 * One row per event trax understands, in parse/events.h. The same table drives the loader (which events feed
 * which derived tables, and the fields each reads), the ftrace text reader (the fields and types
 * of an event whose text form it knows), `trax collect`'s presets (which events to enable) and
 * the names `--events` suggests. An event that moved between systems or was renamed between
 * kernel versions (fence:fence_init became dma_fence:dma_fence_init in 4.10; Android's sync
 * events live in sync or sync_trace, ION's in ion or kmem) is one row with its spellings, the
 * one a preset prefers first. The table is listed in doc/db.md ("The event catalogue"), and a
 * unit test holds the two equal.
 */

/* Which derivation reads an event's records: parse/derive.c, or one of Android's subjects
 * (parse/android-local.h: kills.c, allocs.c, fences.c). */
enum ev_by { EV_NONE, EV_CORE, EV_KILLS, EV_ALLOCS, EV_FENCES };

#define LD_ROLE_FIELDS 8
#define EV_SPELLINGS 3

/* The roles of events that derivations read (the rows of parse/events.h), and the slots of the
 * fields each reads: ld_type's ridx[SLOT] is the record's index of that field. */
#define EV_SLOTS(list, slots) enum { slots };
#define EV_SLOT(slot, names) slot,
#define EV_NAMES(list, ...)
#define EV_TEXT(name, ...)
#define EV_ROLE(role, ...)
#define EV_KNOWN(...)
#include "parse/events.h"

#define EV_SLOTS(list, slots)
#define EV_SLOT(slot, names)
#define EV_NAMES(list, ...)
#define EV_TEXT(name, ...)
#define EV_ROLE(role, ...) role,
#define EV_KNOWN(...)
enum ld_role {
	ROLE_NONE,
#include "parse/events.h"
	ROLE__COUNT
};

/* How the text form prints a field (`trace-cmd report` and tracefs, this machine's formats). */
enum {
	BF_STR = 1 << 0,	/* TEXT, a string */
	BF_ARRAY = 1 << 1,	/* TEXT, an array */
	BF_UNS = 1 << 2,	/* unsigned number */
	BF_HEX = 1 << 3,	/* printed as hex without 0x */
	BF_BOOL = 1 << 4,	/* printed as true/false, handled/unhandled */
	BF_STATE = 1 << 5,	/* prev_state: number or letters */
	BF_UNIT = 1 << 6,	/* printed with a unit suffix ("123kB") */
	BF_COMMA = 1 << 7,	/* printed with a ',' after it ("heap_name=system, len=...") */
	BF_BEGIN = 1 << 8,	/* "begin" (1) or "end" (0), as sync_wait prints its begin field */
};

struct bfield {
	const char *name;
	unsigned flags;
	const char *alias;	/* another key printing this field, or NULL */
};

struct ev_spelling {
	const char *system, *name;
};

struct ev_fact {
	struct ev_spelling spell[EV_SPELLINGS];	/* the first is the text reader's and the
						 * presets' first choice; unused ones NULL */
	enum ld_role role;
	enum ev_by by;				/* the derivation reading it */
	const char *const *fields;		/* the fields the role reads, by slot, NULL-ended
						 * (NULL: none); "a|b": the first the format has */
	const char *feeds;			/* derived tables fed, "a,b"; NULL: none */
	const char *presets;			/* collect presets enabling it, "a,b"; NULL: none */
	const struct bfield *text;		/* text form; NULL: learnt from key=value */
};

/* The catalogue, ending with a row whose spell[0].name is NULL. */
extern const struct ev_fact ev_catalogue[];

/*
 * The row of an event: the spelling named name (len bytes) in system (NULL or "": any system, as
 * text traces do not say). Returns the row and sets *spelling to the spelling's index, or NULL.
 */
const struct ev_fact *ev_fact_find(const char *system, const char *name, size_t len,
				   int *spelling);

/* Whether list ("a,b", may be NULL) holds item. */
int ev_list_holds(const char *list, const char *item);

/* The collect presets, in the order `trax collect --list-presets` prints them, NULL-ended. */
#define EV_NPRESETS 6
extern const char *const ev_preset_names[EV_NPRESETS + 1];

#endif
