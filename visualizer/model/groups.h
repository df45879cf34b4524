/* groups.h: the heap regrouped after the fact (--group-by, the view's
 * --threshold, allocation wrappers): the keys a site label is grouped by,
 * the rule that picks the default grouping, the wrappers found, and the
 * regrouping of every detailed snapshot's sites (groups.c).
 *
 * The regrouping rewrites the model in place: each detailed snapshot's
 * sites become its groups (a group is a vis_site whose label is the group's
 * key), and the one ranking of sites (sites.h) is computed again over them,
 * so every view that reads the sites (summary, CSV, JSON, charts, growth,
 * diff, check, the live view) shows groups without knowing it. */
#ifndef VIS_GROUPS_H
#define VIS_GROUPS_H

#include <stddef.h>
#include <stdint.h>
#include "model/group_keys.h"
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

/* ---- the view's cut ----------------------------------------------------------
 * One rule for the regrouping's snapshots and the exports' trees: groups
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

/* ---- the regrouping -------------------------------------------------------- */

typedef struct {
    vis_group_by by;         /* AUTO: the default rule (vis_profile_regroup) */
    unsigned ns_depth;       /* --namespace-depth, 1.. */
    double threshold;        /* percent: smaller groups merge */
    int threshold_given;     /* --threshold was given */
    int keep_wrappers;       /* --keep-wrappers */
    const char *descend;     /* crate or namespace grouping: this group's
                                code by function (the default view of
                                another profile, for diff); NULL: none */
} vis_group_opts;

/* The default view descends into a crate or namespace holding more than
 * this percent of the peak's tree: its functions become groups. */
#define VIS_DESCEND_SHARE 50.0

/* The view's threshold without --threshold (adapt_threshold in groups.c):
 * lowered from 1% until the remainder holds at most VIS_ADAPT_REST% of the
 * peak's heap, VIS_ADAPT_LINES groups stand above it, or the next group is
 * under VIS_ADAPT_MIN%. */
#define VIS_ADAPT_REST 5.0
#define VIS_ADAPT_LINES 20
#define VIS_ADAPT_MIN 0.1

/* Regroups p (see the file's comment) and ranks its sites again; fills
 * p->grouping. The default grouping (VIS_GROUP_AUTO): for a profile with
 * memtime's detail, crate when Rust functions hold at least a quarter of
 * the named heap at the peak's tree, its wrappers split (crate groups C++
 * by its outermost namespace, so Rust with C++ libraries reads well); else,
 * when C++ functions do, namespace when their scopes name at least half of
 * the named heap, function when not (global functions, which by namespace
 * would be one fallback group); else site; without detail (Massif's files,
 * older memtime) site. p->grouping.why says which rule chose. Site grouping of a profile without detail and without a
 * wrapper to split leaves the sites as the file has them. A snapshot whose
 * remainder line (vis_group_rest_label) holds more than VIS_REST_BY_SHARE
 * percent of its heap gets in its rest_by the line's largest parts by a
 * coarser grouping: crate, namespace or object for function, file and site
 * (as the default rule reads the code: Rust, C++, else), object for crate
 * and namespace, object itself for object. Returns 0, or -1 when out of
 * memory. */
int vis_profile_regroup(vis_profile *p, const vis_group_opts *o);

#endif
