/* stack_groups.h: the frames of a site under a grouping. Each stack of an
 * exported tree (stacks.h) gets its group's key as one more frame, the
 * outermost, so that every export of a tree (flamegraph SVG, folded stacks,
 * pprof) shows one tower per group, the groups the summary lists.
 *
 * The rule, the same as the regrouping's (groups.h) as far as the file's
 * tree can tell it:
 *   - the site is the stack's innermost frame, or, while that is a wrapper
 *     the grouping split (its callers are the sites), its caller;
 *   - an unnamed site ("???") is told by its nearest named caller, the one
 *     on the path Massif lists first (the largest), as the sites' reader
 *     names it; a key read from the function then counts the caller's;
 *   - Massif's "in N places, all below massif's threshold" line is a group
 *     of its own, under its own text (the file does not say what it holds);
 *   - the view's --threshold, by the one rule of the regrouping
 *     (vis_group_cut): groups below that share of the tree's heap fall
 *     back by their code ("other functions in llvm") for function and file
 *     groupings, and the rest, two or more, become one group "in N groups
 *     below the view's threshold (P%)", as in the summary.
 * Only when --group-by was given, other than site: by default the stacks
 * stay the tree's, for the tools that read them as call stacks. */
#ifndef VIS_STACK_GROUPS_H
#define VIS_STACK_GROUPS_H

#include "model/profile.h"
#include "model/stacks.h"

/* Whether the exports of p's trees are grouped (see above). */
int vis_stacks_grouped(const vis_profile *p);

/* Puts each stack of s under its group (a frame with is_group set, one per
 * group, at the end of the stack) and rebuilds the flame tree; does nothing
 * when p's exports are not grouped. Returns 0, or -1 when out of memory. */
int vis_stacks_group(vis_stacks *s, const vis_profile *p);

#endif
