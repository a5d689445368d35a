/* util/grow.h: arrays that grow by doubling as elements are appended (git's ALLOC_GROW). */
#ifndef TRAX_UTIL_GROW_H
#define TRAX_UTIL_GROW_H

#include <stdint.h>
#include <stdlib.h>

#include "util/xalloc.h"

/* realloc(p, n * size); overflow or no memory: trax_oom() (util/xalloc.h). */
static inline void *trax_realloc_array(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		trax_oom();
	p = realloc(p, n * size);
	if (!p && n && size)
		trax_oom();
	return p;
}

/*
 * Make room in array p (capacity cap elements) for element index n: when n reaches cap, cap
 * doubles (first: its first value) and p is reallocated. p, n and cap are lvalues.
 */
#define TRAX_GROW(p, n, cap, first)                                                  \
	do {                                                                         \
		if ((n) >= (cap)) {                                                  \
			(cap) = (cap) ? (cap) * 2 : (first);                         \
			(p) = trax_realloc_array((p), (size_t)(cap), sizeof(*(p)));  \
		}                                                                    \
	} while (0)

#endif
