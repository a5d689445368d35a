/* util/grow.h: arrays that grow by doubling as elements are appended (git's ALLOC_GROW). */
#ifndef TRAX_UTIL_GROW_H
#define TRAX_UTIL_GROW_H

#include <stdint.h>
#include <stdlib.h>

/* realloc(p, n * size), aborting on overflow or when memory runs out. */
static inline void *trax_realloc_array(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		abort();
	p = realloc(p, n * size);
	if (!p && n && size)
		abort();
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
