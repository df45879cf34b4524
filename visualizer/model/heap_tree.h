/* heap_tree.h: one heap snapshot as a tree of call stacks built from
 * sampled stacks (a jemalloc dump, a pprof profile): every stack is a path
 * from the root through its frames, innermost first, as Massif's trees
 * go, and a node's bytes are the sum of the paths through it. Labels are
 * interned once per run in a vis_strtab and named by id, so a series of
 * trees shares them. render/massif_out.h writes a tree as a Massif
 * snapshot and as the companion's unpruned detail. */
#ifndef VIS_HEAP_TREE_H
#define VIS_HEAP_TREE_H

#include <stddef.h>
#include <stdint.h>

/* Interned strings, ids from 0 in the order first seen. */
typedef struct {
    char **s;
    size_t n;
    uint32_t *tab;           /* id + 1 per slot, 0 empty; grown at half full */
    size_t cap;
} vis_strtab;

/* The id of str (len bytes), added when new; -1 when out of memory. */
int64_t vis_strtab_id(vis_strtab *t, const char *str, size_t len);
void vis_strtab_free(vis_strtab *t);

typedef struct {
    uint32_t label;          /* vis_strtab id; the root's is unused */
    uint32_t first, next;    /* first child, next sibling; 0: none */
    uint32_t level;          /* call level (1: the site's); inlined frames share one */
    uint64_t bytes;
} vis_tnode;

typedef struct {
    vis_tnode *n;            /* n[0] is the root */
    size_t n_nodes;
    uint64_t *slot;          /* (parent, label) -> node, open addressing */
    size_t cap;
    unsigned max_level;      /* the deepest call level of any path */
} vis_htree;

int vis_htree_init(vis_htree *t);
void vis_htree_free(vis_htree *t);

/* Adds bytes along the path labels[0..n) (innermost first); level[k] is
 * frame k's call level (frames of one code address share it). Returns 0,
 * or -1 when out of memory. */
int vis_htree_add(vis_htree *t, const uint32_t *labels, const uint32_t *level, size_t n,
                  uint64_t bytes);

/* A node's children sorted by bytes, largest first (ties: the lower label
 * id), into *out (n entries, malloc'd). Returns n or -1. */
long vis_htree_children(const vis_htree *t, uint32_t node, uint32_t **out);

#endif
