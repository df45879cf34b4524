/* heap_tree.c: the trees of sampled stacks (heap_tree.h). Children are
 * linked lists; finding the child of a node with a given label goes
 * through one hash table per tree keyed by (parent, label), so a root
 * with thousands of sites costs no scans. */
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "model/heap_tree.h"

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static uint64_t str_hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return mix(h);
}

int64_t vis_strtab_id(vis_strtab *t, const char *str, size_t len)
{
    if (2 * (t->n + 1) > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        uint32_t *tab = calloc(cap, sizeof *tab);
        if (!tab)
            return -1;
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->tab[i])
                continue;
            const char *s = t->s[t->tab[i] - 1];
            size_t j = str_hash(s, strlen(s)) & (cap - 1);
            while (tab[j])
                j = (j + 1) & (cap - 1);
            tab[j] = t->tab[i];
        }
        free(t->tab);
        t->tab = tab;
        t->cap = cap;
    }
    size_t j = str_hash(str, len) & (t->cap - 1);
    for (; t->tab[j]; j = (j + 1) & (t->cap - 1)) {
        const char *s = t->s[t->tab[j] - 1];
        if (!strncmp(s, str, len) && s[len] == '\0')
            return t->tab[j] - 1;
    }
    if (t->n >= UINT32_MAX - 1)
        return -1;
    char **a = vis_grow(t->s, t->n, 1024, sizeof *a);
    if (!a)
        return -1;
    t->s = a;
    if (!(a[t->n] = strndup(str, len)))
        return -1;
    t->tab[j] = (uint32_t)(t->n + 1);
    return (int64_t)t->n++;
}

void vis_strtab_free(vis_strtab *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->s[i]);
    free(t->s);
    free(t->tab);
    memset(t, 0, sizeof *t);
}

int vis_htree_init(vis_htree *t)
{
    memset(t, 0, sizeof *t);
    if (!(t->n = vis_grow(NULL, 0, 1024, sizeof *t->n)))
        return -1;
    memset(t->n, 0, sizeof *t->n);
    t->n_nodes = 1;
    return 0;
}

void vis_htree_free(vis_htree *t)
{
    free(t->n);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

/* The slot of (parent, label): 0 empty, else node index (never 0: the
 * root is no one's child) in the low 32 bits. */
static uint64_t *find_slot(vis_htree *t, uint32_t parent, uint32_t label)
{
    uint64_t key = (uint64_t)parent << 32 | label;
    size_t j = mix(key) & (t->cap - 1);
    for (; t->slot[j]; j = (j + 1) & (t->cap - 1)) {
        uint32_t node = (uint32_t)t->slot[j];
        uint32_t par = (uint32_t)(t->slot[j] >> 32);
        if (par == parent && t->n[node].label == label)
            return &t->slot[j];
    }
    return &t->slot[j];
}

static int rehash(vis_htree *t)
{
    size_t cap = t->cap ? 2 * t->cap : 1024;
    uint64_t *old = t->slot;
    size_t ocap = t->cap;
    if (!(t->slot = calloc(cap, sizeof *t->slot))) {
        t->slot = old;
        return -1;
    }
    t->cap = cap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i]) {
            uint32_t node = (uint32_t)old[i], par = (uint32_t)(old[i] >> 32);
            *find_slot(t, par, t->n[node].label) = old[i];
        }
    free(old);
    return 0;
}

int vis_htree_add(vis_htree *t, const uint32_t *labels, const uint32_t *level, size_t n,
                  uint64_t bytes)
{
    uint32_t cur = 0;
    t->n[0].bytes += bytes;
    for (size_t k = 0; k < n; k++) {
        if (2 * (t->n_nodes + 1) > t->cap && rehash(t) != 0)
            return -1;
        uint64_t *s = find_slot(t, cur, labels[k]);
        uint32_t node;
        if (*s) {
            node = (uint32_t)*s;
        } else {
            if (t->n_nodes >= UINT32_MAX)
                return -1;
            vis_tnode *a = vis_grow(t->n, t->n_nodes, 1024, sizeof *a);
            if (!a)
                return -1;
            t->n = a;
            node = (uint32_t)t->n_nodes++;
            a[node] = (vis_tnode){ labels[k], 0, a[cur].first, level[k], 0 };
            a[cur].first = node;
            *s = (uint64_t)cur << 32 | node;
            if (level[k] > t->max_level)
                t->max_level = level[k];
        }
        t->n[node].bytes += bytes;
        cur = node;
    }
    return 0;
}

static const vis_htree *sort_tree;
static int by_bytes(const void *a, const void *b)
{
    const vis_tnode *x = &sort_tree->n[*(const uint32_t *)a], *y = &sort_tree->n[*(const uint32_t *)b];
    if (x->bytes != y->bytes)
        return x->bytes > y->bytes ? -1 : 1;
    return x->label < y->label ? -1 : x->label > y->label;
}

long vis_htree_children(const vis_htree *t, uint32_t node, uint32_t **out)
{
    size_t n = 0;
    for (uint32_t c = t->n[node].first; c; c = t->n[c].next)
        n++;
    uint32_t *a = malloc((n ? n : 1) * sizeof *a);
    if (!a)
        return -1;
    n = 0;
    for (uint32_t c = t->n[node].first; c; c = t->n[c].next)
        a[n++] = c;
    sort_tree = t;
    qsort(a, n, sizeof *a, by_bytes);
    *out = a;
    return (long)n;
}
