/* ptrmap.h: a map keyed by pointers (ptrmap.c), for the model's interned
 * strings, where two equal labels are one pointer: open addressing with
 * linear probing, grown at half full. */
#ifndef VIS_PTRMAP_H
#define VIS_PTRMAP_H

#include <stddef.h>

typedef struct {
    size_t cap, n;
    const void **key;
    void **val;
} vis_ptrmap;

#define VIS_PTRMAP_INIT { 0, 0, NULL, NULL }

/* The value slot of key k (not NULL), added with value NULL when new;
 * NULL when out of memory. A slot moves when the map grows: use it before
 * the next call. */
void **vis_ptrmap_slot(vis_ptrmap *m, const void *k);
/* Whether k is in m; its value to *val if so. */
int vis_ptrmap_get(const vis_ptrmap *m, const void *k, void **val);
/* Frees the map's arrays and leaves it empty (the values are the caller's). */
void vis_ptrmap_clear(vis_ptrmap *m);

#endif
