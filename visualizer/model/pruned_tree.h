/* pruned_tree.h: a detailed snapshot's tree as the HTML report shows it,
 * pruned as the text report prunes: a node under threshold percent of the
 * snapshot's total is left out with everything below it, as is anything
 * deeper than max_depth. The model keeps only the trees' top levels
 * (profile.h), so the tree is walked from the profile's file (pass 2,
 * read/massif.h), which skips a pruned node's subtree unread. */
#ifndef VIS_PRUNED_TREE_H
#define VIS_PRUNED_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "model/profile.h"

/* A kept node, in preorder: depth 0 is the root; label (verbatim, as in the
 * file) is valid during the call only; n_children counts the node's
 * children in the file, kept or not. */
typedef void (*vis_kept_node_fn)(void *ctx, unsigned depth, uint64_t bytes, const char *label,
                                 size_t n_children);

/* Walks the tree of snaps[snap] (detailed or peak) from in, the file p was
 * read from, calling fn for every node kept and counting the subtrees left
 * out in *n_pruned. Returns 0, or -1 with err (vis_massif_walk_tree). */
int vis_pruned_tree_walk(FILE *in, const vis_profile *p, size_t snap, double threshold,
                         unsigned max_depth, vis_kept_node_fn fn, void *ctx, size_t *n_pruned,
                         char *err, size_t errsz);

#endif
