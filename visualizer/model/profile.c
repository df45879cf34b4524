/* profile.c: construction and destruction of the vis_profile model, and the
 * label pool that keeps it small.
 *
 * A long profile repeats the same few allocation sites in every detailed
 * snapshot; interning their labels makes the model's size depend on the
 * number of distinct sites, not on the file's size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "model/profile.h"
#include "model/profile_build.h"
#include "model/sites.h"

const char *const vis_alloc_stat_keys[VIS_AS_N] = {
    "allocated", "active", "resident", "mapped", "retained", "metadata", "dirty", "muzzy",
    "arena", "mmapped", "free", "top_releasable", "arena_in_use",
    "heap_size", "pageheap_free", "pageheap_unmapped", "central_cache_free", "transfer_cache_free",
    "thread_cache_free", "committed", "peak_committed",
};

/* Open-addressing hash set of NUL-terminated strings. */
struct vis_strpool {
    char **slots;
    size_t n_slots;   /* power of two */
    size_t n_used;
};

static uint64_t hash_bytes(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ULL;   /* FNV-1a */
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static int pool_grow(struct vis_strpool *pool)
{
    size_t n = pool->n_slots ? pool->n_slots * 2 : 256;
    char **slots = calloc(n, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < pool->n_slots; i++) {
        char *s = pool->slots[i];
        if (!s)
            continue;
        size_t j = hash_bytes(s, strlen(s)) & (n - 1);
        while (slots[j])
            j = (j + 1) & (n - 1);
        slots[j] = s;
    }
    free(pool->slots);
    pool->slots = slots;
    pool->n_slots = n;
    return 0;
}

char *vis_profile_intern(vis_profile *p, const char *s, size_t len)
{
    struct vis_strpool *pool = p->labels;
    /* Keep the load factor under one half so probes stay short. */
    if ((pool->n_used + 1) * 2 > pool->n_slots && pool_grow(pool) != 0)
        return NULL;
    size_t j = hash_bytes(s, len) & (pool->n_slots - 1);
    for (;;) {
        char *t = pool->slots[j];
        if (!t)
            break;
        if (strncmp(t, s, len) == 0 && t[len] == '\0')
            return t;
        j = (j + 1) & (pool->n_slots - 1);
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return NULL;
    memcpy(copy, s, len);
    copy[len] = '\0';
    pool->slots[j] = copy;
    pool->n_used++;
    return copy;
}

vis_profile *vis_profile_new(const char *path)
{
    vis_profile *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->labels = calloc(1, sizeof *p->labels);
    p->path = strdup(path);
    if (!p->labels || !p->path) {
        vis_profile_free(p);
        return NULL;
    }
    p->peak_marked = SIZE_MAX;
    p->peak_tree_snap = SIZE_MAX;
    p->process.pid = p->process.parent = p->process.start = p->process.epoch_ms = -1;
    return p;
}

vis_snapshot *vis_profile_add_snapshot(vis_profile *p)
{
    vis_snapshot *a = vis_grow(p->snaps, p->n_snaps, 64, sizeof *a);
    if (!a)
        return NULL;
    p->snaps = a;
    vis_snapshot *s = &a[p->n_snaps++];
    memset(s, 0, sizeof *s);
    return s;
}

int vis_profile_finish(vis_profile *p)
{
    p->largest = 0;
    p->peak_marked = SIZE_MAX;
    p->n_detailed = 0;
    for (size_t i = 0; i < p->n_snaps; i++) {
        const vis_snapshot *s = &p->snaps[i];
        if (vis_snap_total(s) > vis_snap_total(&p->snaps[p->largest]))
            p->largest = i;
        if (s->kind == VIS_TREE_PEAK)
            p->peak_marked = i;
        if (s->kind != VIS_TREE_EMPTY)
            p->n_detailed++;
    }
    /* Massif takes its peak snapshot just before a free, often right after
     * a snapshot of the same total; when the marked peak ties, prefer it, so
     * the largest reported is the one with a tree. */
    if (p->peak_marked != SIZE_MAX &&
        vis_snap_total(&p->snaps[p->peak_marked]) == vis_snap_total(&p->snaps[p->largest]))
        p->largest = p->peak_marked;
    p->peak = p->peak_marked != SIZE_MAX ? p->peak_marked : p->largest;
    return vis_profile_rank_sites(p);
}

/* Frees what a node owns (label, children), not the node itself. Recursion
 * depth is bounded by the parser (VIS_MAX_TREE_DEPTH). */
static void node_clear(vis_node *n)
{
    for (size_t i = 0; i < n->n_children; i++)
        node_clear(&n->children[i]);
    free(n->children);
    free(n->label);
}

/* The tree's root is allocated alone, its descendants in per-parent arrays. */
void vis_node_free(vis_node *n)
{
    if (!n)
        return;
    node_clear(n);
    free(n);
}

void vis_profile_free(vis_profile *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n_snaps; i++) {
        free(p->snaps[i].sites);
        free(p->snaps[i].groups_all);
    }
    for (size_t i = 0; i < p->n_site_info; i++) {
        free(p->site_info[i].name);
        free(p->site_info[i].full_name);
    }
    free(p->site_info);
    vis_site_names_free(p->names);
    free(p->snaps);
    vis_node_free(p->peak_tree);
    for (size_t i = 0; i < p->n_marks; i++)
        free(p->marks[i].label);
    free(p->marks);
    for (size_t i = 0; i < p->n_sources; i++)
        free(p->sources[i]);
    free(p->sources);
    for (size_t i = 0; i < p->n_threads; i++) {
        free(p->threads[i].bytes);
        free(p->threads[i].name);
    }
    free(p->threads);
    free(p->counts);
    if (p->labels) {
        for (size_t i = 0; i < p->labels->n_slots; i++)
            free(p->labels->slots[i]);
        free(p->labels->slots);
        free(p->labels);
    }
    free(p->path);
    free(p->desc);
    free(p->cmd);
    free(p->companion);
    free(p->process.began);
    free(p->process.command);
    free(p->process.title);
    free(p->process.child_ends);
    free(p->process.forks);
    free(p->truncated_msg);
    free(p->companion_cut_msg);
    free(p->rss);
    free(p->allocator.stats);
    for (size_t i = 0; i < p->rss_peak.n_maps; i++) {
        vis_rss_mapping *m = &p->rss_peak.maps[i];
        for (size_t j = 0; j < m->n_frames; j++)
            free(m->frames[j]);
        free(m->frames);
        free(m->name);
    }
    free(p->rss_peak.maps);
    for (size_t i = 0; i < p->detail.n_trees; i++)
        free(p->detail.trees[i].nodes);
    free(p->detail.trees);
    free(p->detail.frames);      /* the labels are interned */
    free(p->grouping.wrappers);
    free(p->outline.spans);
    free(p->outline.rss);
    free(p);
}

const char *vis_limit_action_name(vis_limit_action a)
{
    return a == VIS_LIMIT_FAIL ? "fail" : a == VIS_LIMIT_SNAPSHOT ? "snapshot" : "kill";
}

size_t vis_dtree_end(const vis_dtree *t, size_t j)
{
    size_t e = j + 1;
    while (e < t->n && t->nodes[e].depth > t->nodes[j].depth)
        e++;
    return e;
}

const vis_dtree *vis_detail_tree(const vis_profile *p, size_t snap)
{
    size_t lo = 0, hi = p->detail.n_trees;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (p->detail.trees[mid].snap < snap)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->detail.n_trees && p->detail.trees[lo].snap == snap ? &p->detail.trees[lo] : NULL;
}
