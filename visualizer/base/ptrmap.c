/* ptrmap.c: a map keyed by pointers (ptrmap.h). */
#include <stdint.h>
#include <stdlib.h>
#include "base/ptrmap.h"

static size_t hash(const void *k)
{
    uintptr_t x = (uintptr_t)k;
    x ^= x >> 17;
    x *= 0x9E3779B97F4A7C15ULL;
    return (size_t)(x ^ (x >> 29));
}

void **vis_ptrmap_slot(vis_ptrmap *m, const void *k)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 64;
        const void **nk = calloc(ncap, sizeof *nk);
        void **nv = calloc(ncap, sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return NULL;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->key[i]) {
                size_t j = hash(m->key[i]) & (ncap - 1);
                while (nk[j])
                    j = (j + 1) & (ncap - 1);
                nk[j] = m->key[i];
                nv[j] = m->val[i];
            }
        free(m->key);
        free(m->val);
        m->key = nk;
        m->val = nv;
        m->cap = ncap;
    }
    size_t j = hash(k) & (m->cap - 1);
    while (m->key[j] && m->key[j] != k)
        j = (j + 1) & (m->cap - 1);
    if (!m->key[j]) {
        m->key[j] = k;
        m->val[j] = NULL;
        m->n++;
    }
    return &m->val[j];
}

int vis_ptrmap_get(const vis_ptrmap *m, const void *k, void **val)
{
    if (!m->cap)
        return 0;
    size_t j = hash(k) & (m->cap - 1);
    while (m->key[j] && m->key[j] != k)
        j = (j + 1) & (m->cap - 1);
    if (!m->key[j])
        return 0;
    *val = m->val[j];
    return 1;
}

void vis_ptrmap_clear(vis_ptrmap *m)
{
    free(m->key);
    free(m->val);
    *m = (vis_ptrmap)VIS_PTRMAP_INIT;
}
