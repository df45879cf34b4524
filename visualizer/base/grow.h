/* grow.h: the one way every growing array of memtime-vis grows (the
 * model, the readers, the exports): by doubling, its capacity implicit in
 * its length, so no array carries a capacity field that could disagree. */
#ifndef VIS_GROW_H
#define VIS_GROW_H

#include <stddef.h>

/* Room for element n of an array that grows by doubling, its capacity
 * implicit: first elements (a power of two), then twice as many each time n
 * reaches a power of two at or above first. Returns a, or a larger copy of
 * it, or NULL when out of memory (a still valid). */
void *vis_grow(void *a, size_t n, size_t first, size_t size);

#endif
