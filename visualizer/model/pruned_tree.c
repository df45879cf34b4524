/* pruned_tree.c: the pruning rule of the HTML report's trees
 * (pruned_tree.h). */
#include "model/pruned_tree.h"
#include "read/massif.h"

typedef struct {
    uint64_t total;
    double threshold;
    unsigned max_depth;
    size_t n_pruned;
    vis_kept_node_fn fn;
    void *ctx;
} walk;

static int visit(void *ctx, unsigned depth, uint64_t bytes, const char *label, size_t n_children)
{
    walk *w = ctx;
    int keep = depth == 0 || (depth <= w->max_depth &&
               (w->threshold == 0 ? bytes > 0
                : w->total != 0 && 100.0 * (double)bytes / (double)w->total >= w->threshold));
    if (!keep) {
        w->n_pruned++;
        return VIS_WALK_PRUNE;   /* the walk skips what is below unread */
    }
    w->fn(w->ctx, depth, bytes, label, n_children);
    return 0;
}

int vis_pruned_tree_walk(FILE *in, const vis_profile *p, size_t snap, double threshold,
                         unsigned max_depth, vis_kept_node_fn fn, void *ctx, size_t *n_pruned,
                         char *err, size_t errsz)
{
    walk w = { vis_snap_total(&p->snaps[snap]), threshold, max_depth, 0, fn, ctx };
    int rc = vis_massif_walk_tree(in, p, snap, visit, &w, err, errsz);
    *n_pruned = w.n_pruned;
    return rc < 0 ? -1 : 0;
}
