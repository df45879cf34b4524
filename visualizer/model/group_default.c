/* group_default.c: the default view's choices (group_default.h): the
 * grouping --group-by=auto picks, the coarser grouping that names a
 * remainder, the group the view descends into and the adapted threshold. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include "model/group_default.h"
#include "model/group_keys.h"
#include "model/sites.h"

vis_group_by vis_group_rest_coarser(vis_group_by by, vis_group_by code)
{
    if (by != VIS_GROUP_FUNCTION && by != VIS_GROUP_FILE && by != VIS_GROUP_SITE)
        return VIS_GROUP_OBJECT;
    if (code == VIS_GROUP_CRATE)
        return VIS_GROUP_CRATE;
    if (code == VIS_GROUP_NAMESPACE || code == VIS_GROUP_FUNCTION)
        return VIS_GROUP_NAMESPACE;
    return VIS_GROUP_OBJECT;
}


/* Adds label's bytes to its kind, and to *in_scope when a namespace would
 * name them. */
static void weigh(const char *label, uint64_t bytes, uint64_t b[4], uint64_t *in_scope)
{
    vis_sym_kind kind = vis_symbol_kind(label);
    b[kind] += bytes;
    if (kind == VIS_SYM_CXX && vis_symbol_scoped(label))
        *in_scope += bytes;
}

/* Weighs node j of t as the regrouping will emit it (emit): a wrapper, or
 * a frame with no name (every grouping auto picks reads keys from names),
 * split by its callers, what it holds of its own by itself. */
static void weigh_node(const vis_profile *p, const unsigned char *wrapper, const vis_dtree *t,
                       size_t j, int level, uint64_t b[4], uint64_t *in_scope)
{
    const vis_dnode *nd = &t->nodes[j];
    size_t end = vis_dtree_end(t, j);
    int split = wrapper[nd->frame] || vis_site_unnamed(p->detail.frames[nd->frame]);
    if (split && end > j + 1 && level < 1024) {
        uint64_t sum = 0;
        for (size_t c = j + 1; c < end; c++)
            if (t->nodes[c].depth == nd->depth + 1) {
                sum += t->nodes[c].bytes;
                weigh_node(p, wrapper, t, c, level + 1, b, in_scope);
            }
        if (sum < nd->bytes)
            weigh(p->detail.frames[nd->frame], nd->bytes - sum, b, in_scope);
        return;
    }
    weigh(p->detail.frames[nd->frame], nd->bytes, b, in_scope);
}

/* The default grouping (group_default.h): the peak's tree weighed as the
 * regrouping will emit it. */
vis_group_by vis_group_default(const vis_profile *p, const unsigned char *wrapper, const char **why)
{
    uint64_t b[4] = { 0, 0, 0, 0 };
    uint64_t in_scope = 0;   /* C++ bytes a namespace would name */
    size_t snap = p->peak_tree_snap;
    /* Without memtime's detail, Massif's own sites: a regrouping of the
     * pruned top level would leave what matters in "in N places", and the
     * summary stays comparable with ms_print's. */
    *why = "no unpruned detail: the file's own sites";
    if (snap == SIZE_MAX || !p->detail.present || !p->detail.n_trees)
        return VIS_GROUP_SITE;
    const vis_dtree *t = vis_detail_tree(p, snap);
    if (t) {
        for (size_t j = 0; j < t->n; j++)
            if (t->nodes[j].depth == 1)
                weigh_node(p, wrapper, t, j, 0, b, &in_scope);
    } else {
        const vis_snapshot *s = &p->snaps[snap];
        for (size_t k = 0; k < s->n_sites; k++)
            if (!s->sites[k].is_below_threshold)
                weigh(s->sites[k].label, s->sites[k].bytes, b, &in_scope);
    }
    /* Crate groups C++ functions by their outermost namespace too, so a
     * program that mixes Rust and C++ (rustc and LLVM) reads well by crate. */
    uint64_t named = b[VIS_SYM_C] + b[VIS_SYM_CXX] + b[VIS_SYM_RUST];
    if (b[VIS_SYM_RUST] * 4 >= named && b[VIS_SYM_RUST] > 0) {
        *why = "Rust functions hold a quarter or more of the heap";
        return VIS_GROUP_CRATE;
    }
    if (b[VIS_SYM_CXX] >= b[VIS_SYM_C] && b[VIS_SYM_CXX] * 4 >= named && b[VIS_SYM_CXX] > 0) {
        /* Namespaces only when they would name at least half the named
         * heap: C++ of global functions (templates, free functions,
         * MariaDB's ha_recover) would be one fallback group by namespace;
         * its functions tell it apart. */
        if (in_scope * 2 >= named) {
            *why = "C++ functions in namespaces hold most of the heap";
            return VIS_GROUP_NAMESPACE;
        }
        *why = "C++ functions outside namespaces hold most of the heap";
        return VIS_GROUP_FUNCTION;
    }
    *why = "no C++ or Rust code holds much of the heap";
    return VIS_GROUP_SITE;
}


const vis_site *vis_group_descent(const vis_site *g, size_t n, uint64_t heap_B)
{
    const vis_site *top = NULL;
    for (size_t k = 0; k < n; k++)
        if (!g[k].is_below_threshold && (!top || g[k].bytes > top->bytes))
            top = &g[k];
    return top && (double)top->bytes * 100.0 > VIS_DESCEND_SHARE * (double)heap_B ? top : NULL;
}

double vis_group_adapt_threshold(const vis_site *g, size_t n, uint64_t heap_B, double threshold)
{
    double heap = (double)heap_B, t = threshold;
    uint64_t rest = 0;
    size_t above = 0, k;
    for (k = 0; k < n; k++)
        if (!g[k].is_below_threshold) {
            if ((double)g[k].bytes >= t / 100.0 * heap)
                above++;
            else
                rest += g[k].bytes;
        }
    for (k = 0; k < n && (double)rest * 100.0 > VIS_ADAPT_REST * heap && above < VIS_ADAPT_LINES; k++) {
        double share = 100.0 * (double)g[k].bytes / heap;
        if (g[k].is_below_threshold || share >= threshold)
            continue;
        if (share < VIS_ADAPT_MIN)
            break;
        t = floor(share * 100.0) / 100.0;   /* as the label prints it, at most the share */
        rest -= g[k].bytes;
        above++;
    }
    return t;
}
