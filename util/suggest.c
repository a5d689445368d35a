/* util/suggest.c: the nearest name to a misspelt one (optimal string alignment distance). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/suggest.h"

#define SUGGEST_MAX_LEN 128

size_t trax_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *base, *row[3], best;

	if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN)
		return la > lb ? la : lb;
	base = calloc(3 * (lb + 1), sizeof(size_t));
	if (!base)
		return la > lb ? la : lb;
	row[0] = base;
	row[1] = row[0] + lb + 1;	/* previous row */
	row[2] = row[1] + lb + 1;	/* current row */
	/* row[0] holds the row before the previous one, for adjacent swaps */
	for (size_t j = 0; j <= lb; j++)
		row[1][j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *prev2 = row[0], *prev = row[1], *cur = row[2];

		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			size_t cost = ca != cb, v = prev[j - 1] + cost;

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
		row[0] = prev;
		row[1] = cur;
		row[2] = prev2;
	}
	best = row[1][lb];
	free(base);
	return best;
}

const char *trax_suggest(const char *word, const char *const *candidates, int n)
{
	size_t len = strlen(word), limit = len <= 4 ? 1 : len <= 8 ? 2 : len / 3;
	const char *best = NULL;
	size_t bestd = (size_t)-1;

	if (!len || !candidates)
		return NULL;
	for (int i = 0; n < 0 ? candidates[i] != NULL : i < n; i++) {
		size_t d;

		if (!candidates[i])
			continue;
		d = trax_edit_distance(word, candidates[i]);
		if (d < bestd) {
			bestd = d;
			best = candidates[i];
		}
	}
	return best && bestd <= limit && strcmp(best, word) ? best : NULL;
}
