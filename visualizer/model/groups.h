/* groups.h: the heap regrouped after the fact (--group-by, the view's
 * --threshold, allocation wrappers): every detailed snapshot's sites
 * rewritten into groups (groups.c), by the keys of group_keys.h, with the
 * wrappers of wrappers.h split into their callers, the choices of
 * group_default.h where the user made none, cut by group_cut.h.
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
