/* sites.h: the allocation sites over the whole run, as every view names
 * and counts them: the ranking vis_profile_finish computes once (the model's
 * site_info), the names renderers print, and the per-snapshot series the
 * chart-like views draw (sites.c). Renderers take both from here and never
 * rank or attribute on their own. */
#ifndef VIS_SITES_H
#define VIS_SITES_H

#include <stddef.h>
#include <stdint.h>
#include "model/profile.h"

/* Fills site_info, n_site_info, n_ranked and every vis_site.id, and names
 * the sites (vis_profile_name_sites). 0 or -1 (out of memory). Called by
 * vis_profile_finish (profile_build.h), and again by vis_profile_regroup
 * (groups.h), whose groups are then the sites every section names. */
int vis_profile_rank_sites(vis_profile *p);

/* Bytes site_info[id] holds in a snapshot's tree (0 if it is not in it, or
 * the snapshot has no tree). O(sites in that tree). */
uint64_t vis_site_bytes(const vis_snapshot *s, size_t id);

/* A site's label without its "0x1234ABCD: " address prefix (a pointer into
 * label; label itself if it has none). */
const char *vis_site_name(const char *label);

/* The short name of a verbatim label (names.h: vis_name_short), newly
 * allocated, NULL when out of memory. addr_tag, if not NULL, goes after the
 * function as " @ADDR". Not made distinct: the names below are. */
char *vis_site_display_name(const char *label, const char *addr_tag, size_t max_chars);

/* Names every site of p (names.h), the trees' sites and the counts' alike,
 * so that no two different sites read the same in any section: sets
 * site_info[].name and .full_name and the table the lookups below read.
 * Called when the sites are ranked (so again after a regrouping: the
 * groups are named as sites are) and again once the companion's counts
 * are read. 0, or -1 when out of memory. */
int vis_profile_name_sites(vis_profile *p);
void vis_site_names_free(struct vis_site_names *t);

/* The names of the site an interned label stands for, whichever section
 * the label comes from (a tree's site, a growth row, memtime's counts: an
 * unnamed site's counts label is the same site as its tree label "???
 * called by X"): its short name (every section prints it) and its full
 * name (tooltips, CSV, JSON). A label p does not know (a "below threshold"
 * line) falls back to vis_site_name(label). */
const char *vis_site_label_name(const vis_profile *p, const char *label);
const char *vis_site_label_full(const vis_profile *p, const char *label);

/* An allocation wrapper's name as every section prints it (groups.h): a
 * kept wrapper is a site, named as sites are; one whose callers became the
 * sites is no site, shortened by the same rules. Newly allocated, NULL
 * when out of memory. */
char *vis_wrapper_display_name(const vis_profile *p, const char *label);

/* The same for a label's text when it is not interned (read again from the
 * file): the short name, or with full set the full name. */
const char *vis_site_text_name(const vis_profile *p, const char *label, int full);

/* The series a chart draws: every snapshot of the profile split into the
 * n_sites top-ranked sites, the other sites, the unattributed heap, the
 * extra heap and the stacks, in bytes. In each snapshot the parts add up to
 * vis_snap_total exactly.
 *   - At a snapshot with a tree each site's value is its bytes in that tree,
 *     "other" the rest of the heap (other sites and "in N places" lines),
 *     unattributed 0.
 *   - At a snapshot without one, each site (and "other", as one) is zero if
 *     either tree around it in time shows it holding nothing (before the
 *     first tree or after the last, the missing side counts as nothing);
 *     else it moves from its value in the earlier tree towards that in the
 *     later one in proportion to how far the heap has moved between the two
 *     trees' heaps (by time if they are equal), so it never exceeds the
 *     larger of the two; if they then exceed the heap (a dip between trees)
 *     all are scaled down. What is left of the heap is unattributed.
 *   - Extra heap and stacks are each snapshot's own numbers. */
typedef struct {
    const vis_profile *p;
    size_t n_snaps;              /* = p->n_snaps */
    size_t n_sites;              /* min(top, p->n_ranked): site_info[0..n_sites) */
    uint64_t *site_B;            /* site_B[i * n_sites + k]: site k at snapshot i */
    uint64_t *other_B;           /* per snapshot */
    uint64_t *unattributed_B;    /* per snapshot */
} vis_series;

/* Builds the series of the top sites (vis_series_free frees). NULL when out
 * of memory. Cost O(snapshots x top + tree sites). */
vis_series *vis_series_new(const vis_profile *p, size_t top);
void vis_series_free(vis_series *v);

static inline uint64_t vis_series_site(const vis_series *v, size_t snap, size_t k)
{
    return v->site_B[snap * v->n_sites + k];
}

/* Whether a label's function has no name ("0x6DADBF: ??? (in prog)"). */
int vis_site_unnamed(const char *label);

/* The label of an unnamed site, told by its nearest named caller (the
 * label of a node under it): "0x6DADBF: ??? (in /usr/bin/postgres)" and
 * "0x5E12A0: tuplestore_putvalues (in /usr/bin/postgres)" give
 * "0x6DADBF: ??? called by tuplestore_putvalues (in /usr/bin/postgres)".
 * A malloc'ed string, or NULL when out of memory. */
char *vis_site_label_by_caller(const char *site, const char *caller);

#endif
