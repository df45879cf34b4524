/* growth.h: which sites grow over a window of the run and how (steady,
 * plateau, burst, shrinking, flat), computed from the model; analysis.h
 * gathers it with the end of the run and the counts. Renderers
 * (growth_text.c, summary.c, json.c, the chart) only read these results.
 *
 * A site is a top-level node of the detailed snapshots' trees (vis_site),
 * named by its interned label; only detailed snapshots break the heap down
 * by site, so a window's series are its detailed snapshots.
 *
 * Bursts do not fool it: when the profile has memtime's exact outline, a
 * detailed snapshot taken during one of the outline's bursts (outline.h:
 * a rise of at least 5% of the run's maximum that came back down) shows
 * the burst, not the level the run holds, so it is left out of the series;
 * otherwise a window whose last sample lands on a burst would show the
 * burst's allocation as growth. */
#ifndef VIS_GROWTH_H
#define VIS_GROWTH_H

#include <stddef.h>
#include <stdint.h>
#include "model/profile.h"

typedef enum {
    VIS_KIND_STEADY,     /* grows through most of the window: a leak's shape */
    VIS_KIND_PLATEAU,    /* grew, then stayed within a band: a bounded cache */
    VIS_KIND_BURST,      /* rose and fell back inside the window */
    VIS_KIND_SHRINKING,  /* ends well below where it started */
    VIS_KIND_FLAT        /* moves by at most 5% of its maximum */
} vis_kind;

const char *vis_kind_name(vis_kind k);

/* The rule of docs/memtime-vis.1 (GROWTH KINDS) on one series b[0..k-1]
 * (k >= 1), the site's bytes at consecutive detailed snapshots. */
vis_kind vis_classify(const uint64_t *b, size_t k);

typedef struct {
    const char *label;           /* interned site label (vis_site_name for people) */
    uint64_t start_bytes, end_bytes, max_bytes;
    int64_t growth_bytes;        /* end - start */
    double rate;                 /* growth per file time unit (0 if no time passed) */
    vis_kind kind;
    int maybe_below_threshold;   /* missing from a tree that merged small sites */
} vis_growth_row;

typedef struct vis_growth {
    size_t from, to;             /* the window, snapshot indices, from <= to */
    size_t n_detailed;           /* detailed snapshots in it (the series' length) */
    size_t n_on_bursts;          /* detailed snapshots left out at the
                                    window's ends: taken during a burst of
                                    the exact outline (outline.h) */
    size_t first_detailed, last_detailed;   /* SIZE_MAX when n_detailed == 0 */
    size_t n_rows;
    vis_growth_row *rows;        /* steady first, then by growth (largest first) */
} vis_growth;

/* Computes the ranking over snapshots from..to. Returns 0, or -1 when out
 * of memory. Free with vis_growth_free. Memory: O(sites), not O(sites x
 * snapshots) (with an outline, also a byte per snapshot of the window). */
int vis_growth_compute(const vis_profile *p, size_t from, size_t to, vis_growth *g);
void vis_growth_free(vis_growth *g);

/* Bytes per second for a rate per file unit; only ms profiles have one
 * (returns -1 otherwise). */
double vis_rate_per_s(const vis_profile *p, double rate);

#endif
