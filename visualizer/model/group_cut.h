/* group_cut.h: the view's threshold applied to a set of groups
 * (group_cut.c), one rule for the regrouping's snapshots (groups.c) and
 * the exports' trees (stack_groups.c), and the lines that stand for what
 * it cuts: a fallback group ("other functions in llvm") and the remainder
 * ("in 3 groups below the view's threshold (1.00%)"). */
#ifndef VIS_GROUP_CUT_H
#define VIS_GROUP_CUT_H

#include <stddef.h>
#include <stdint.h>
#include "model/profile.h"

/* The one line that stands for count groups (sites, when by is site) below
 * the view's threshold (percent): "in 3 groups below the view's threshold
 * (1.00%)". Written to buf (cap bytes). */
void vis_group_rest_label(char *buf, size_t cap, size_t count, vis_group_by by, double threshold);

/* A fallback group's line: the function (or file) groups below the view's
 * threshold whose code has the coarser key `coarse` (a crate, namespace or
 * object), together at or above it: "other functions in llvm", "other
 * functions (in libc.so)". */
void vis_group_fallback_label(char *buf, size_t cap, vis_group_by by, const char *coarse);
/* The fallback's second level, for what the first (p->grouping.fallback)
 * left below the threshold: the source file, the object where the code has
 * no file (or for file groups); VIS_GROUP_AUTO for none. */
vis_group_by vis_group_fallback2(vis_group_by by, vis_group_by fallback);

/* One rule for the regrouping's snapshots and the exports' trees: groups
 * below the cut (the view's threshold of the heap), two or more, fall back
 * by their coarser keys where the groups of one key hold the cut together
 * (vis_group_fallback_label names the line), the first level, then the
 * second; the rest, two or more, become the remainder line
 * (vis_group_rest_label); one group left below stays itself. */
enum { VIS_CUT_LEVEL0, VIS_CUT_LEVEL1, VIS_CUT_KEPT, VIS_CUT_REST };
typedef struct {
    const char *key;         /* the group's key */
    uint64_t bytes;
    int below;               /* Massif's "in N places" line: never cut */
    const char *coarse[2];   /* its keys by the fallback's two levels, or NULL */
    int fate;                /* out: VIS_CUT_LEVEL0/1 (the line of coarse[fate]),
                                VIS_CUT_KEPT or VIS_CUT_REST */
} vis_cut;
/* Sets each group's fate; *n_rest: how many are in the remainder (0 or 2
 * and more). Returns 0, or -1 when out of memory. */
int vis_group_cut(vis_cut *c, size_t n, double cut, size_t *n_rest);

#endif
