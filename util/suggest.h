/* util/suggest.h: "did you mean ...?" for a misspelt name (metric, key, event, option). */
#ifndef TRAX_UTIL_SUGGEST_H
#define TRAX_UTIL_SUGGEST_H

#include <stddef.h>

/*
 * The candidate nearest to word by edit distance (insertions, deletions, substitutions and
 * swaps of adjacent characters, case-insensitive), or NULL when none is near enough to be a
 * likely typo: at most 1 edit for words of up to 4 characters, 2 up to 8, else a third of the
 * word's length. Ties go to the earliest candidate. n < 0: candidates is NULL-terminated.
 * Returns a pointer into candidates (not copied; must not be freed).
 */
const char *trax_suggest(const char *word, const char *const *candidates, int n);

/* The edit distance between a and b as above (case-insensitive). */
size_t trax_edit_distance(const char *a, const char *b);

#endif
