/* group_default.h: what the view chooses when the user does not
 * (group_default.c): the grouping of --group-by=auto, read from the kind of
 * code that holds the peak's heap; the coarser grouping that names a
 * remainder line; the group whose code the default view shows by function;
 * the view's threshold without --threshold. Read-only over the profile;
 * the regrouping (groups.c) applies them. */
#ifndef VIS_GROUP_DEFAULT_H
#define VIS_GROUP_DEFAULT_H

#include <stddef.h>
#include <stdint.h>
#include "model/profile.h"

/* The default view descends into a crate or namespace holding more than
 * this percent of the peak's tree: its functions become groups. */
#define VIS_DESCEND_SHARE 50.0

/* The view's threshold without --threshold (vis_group_adapt_threshold):
 * lowered from 1% until the remainder holds at most VIS_ADAPT_REST% of the
 * peak's heap, VIS_ADAPT_LINES groups stand above it, or the next group is
 * under VIS_ADAPT_MIN%. */
#define VIS_ADAPT_REST 5.0
#define VIS_ADAPT_LINES 20
#define VIS_ADAPT_MIN 0.1

/* The default grouping, read from the peak's tree with the wrappers found
 * already split (wrapper: per detail frame), so that a C wrapper does not
 * hide the C++ or Rust callers it serves: crate when Rust functions hold
 * at least a quarter of the named heap (crate groups C++ by its outermost
 * namespace, so Rust with C++ libraries reads well); else, when C++
 * functions do (and at least as much as C functions), namespace if
 * namespaces or classes name at least half of the named heap, function if
 * not (a C++ program of global functions, or a server whose heap is held
 * by C, unnamed and global C++ functions, would otherwise read as one
 * "(in OBJECT)" line); else site; without detail (Massif's files, older
 * memtime) site. *why says why in a few words. wrapper: per detail frame,
 * whether it is split (wrappers.h). */
vis_group_by vis_group_default(const vis_profile *p, const unsigned char *wrapper, const char **why);

/* The grouping that names what the remainder of a grouping by `by` holds,
 * one coarser and told by the program's code as the default rule reads it
 * (code: vis_group_default's choice): a function, file or site by crate in a
 * Rust-heavy program, by namespace in C++, else by object; a namespace or
 * crate by object; an object by itself, as nothing is coarser (the
 * remainder's largest groups then). */
vis_group_by vis_group_rest_coarser(vis_group_by by, vis_group_by code);

/* The default view never ends with one group holding most of the heap: a
 * crate (or namespace) that holds more than VIS_DESCEND_SHARE percent of
 * the peak's tree is told apart by its functions, the other groups stay
 * (a Rust service whose heap is in its own crate reads "rustnode 99.9%" by
 * crate, and names run_batch, BlockCache::import and the leak in add_peer
 * by this). g: the peak's groups (any order); heap_B: that tree's heap.
 * Returns the group to descend into, or NULL. */
const vis_site *vis_group_descent(const vis_site *g, size_t n, uint64_t heap_B);

/* The view's threshold when --threshold was not given, for groupings other
 * than site (which keeps Massif's 1%, comparable with ms_print): from 1%
 * down, one group of the peak's tree at a time, until what merges below it
 * holds at most VIS_ADAPT_REST% of that tree's heap, VIS_ADAPT_LINES groups
 * stand above it, or the next is under VIS_ADAPT_MIN%. A grouping has few
 * groups (rustc's 40 crates), and a remainder of 30 crates under 1% each,
 * 5.6% together, names nothing a person can act on. g: the peak's groups,
 * largest first; heap_B: that tree's heap; threshold: where it starts. */
double vis_group_adapt_threshold(const vis_site *g, size_t n, uint64_t heap_B, double threshold);

#endif
