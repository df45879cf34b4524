/* outline.h: what the outputs ask of memtime's exact outline (the spans the
 * companion reader expands, profile.h's vis_outline): the true maximum of
 * the run, the range of memory over any window of time (in O(log n), for a
 * chart's pixel columns or a sparkline's cells), and the bursts: short rises
 * that came back down, which the snapshots may have missed.
 *
 * Every function takes the outline as the reader left it: contiguous spans
 * in time order (b[i].end == b[i+1].start), possibly none. */
#ifndef MT_OUTLINE_H
#define MT_OUTLINE_H

#include <stddef.h>
#include <stdint.h>
#include "model/profile.h"

/* Whether p has an outline with at least one span. */
static inline int vis_outline_has(const vis_profile *p)
{
    return p->outline.present && p->outline.n > 0;
}

/* The highest total (heap + extra + stacks) of the outline: its bytes and
 * the first span that reached it (span == SIZE_MAX, bytes 0 for an outline
 * without spans). The top happened somewhere in [start, end). */
typedef struct {
    uint64_t bytes;
    size_t span;
    uint64_t start, end;
} vis_outline_top;
vis_outline_top vis_outline_max(const vis_outline *o);

/* The span holding time t (start <= t < end), or SIZE_MAX when t is before
 * the first span or at or after the outline's end. O(log n). */
size_t vis_outline_find(const vis_outline *o, uint64_t t);

/* What the memory did over a window: the lowest minimum and the highest
 * maximum of the spans in it, for the total and for the heap alone, the
 * first and last span counted, and the lowest of the spans' maxima (a
 * window whose every span went above x has min_of_max_B > x). */
typedef struct {
    uint64_t min_B, max_B;
    uint64_t heap_min_B, heap_max_B;
    uint64_t min_of_max_B;
    size_t first, last;
} vis_outline_range;

/* A range index over one outline (a min/max segment tree, 2n nodes): build
 * once, then query any window in O(log n). It points into o, which must
 * outlive it and stay unchanged. */
typedef struct vis_outline_index vis_outline_index;

/* NULL when out of memory; an outline without spans gives an index every
 * query of which finds nothing. */
vis_outline_index *vis_outline_index_new(const vis_outline *o);
void vis_outline_index_free(vis_outline_index *x);

/* The spans overlapping [t0, t1): those with start < t1 and end > t0, and a
 * zero-length last span (a change at the outline's very end) when t0 <=
 * its start < t1. Returns 0 with *r filled, 1 when no span overlaps. */
int vis_outline_range_time(const vis_outline_index *x, uint64_t t0, uint64_t t1,
                           vis_outline_range *r);

/* The spans first..last (inclusive, first <= last < n). */
void vis_outline_range_spans(const vis_outline_index *x, size_t first, size_t last,
                             vis_outline_range *r);

/* A burst: a rise of the total that came back down, found on the outline.
 *
 * The rule (topographic prominence, at the outline's resolution): a span's
 * maximum is a top; the level before it is the lowest total between the
 * top and the last earlier moment at least as high (0, the value before the
 * outline, when there is none); the level after it is the lowest total
 * between the top and the next higher moment (the end of the outline when
 * there is none); the top's own span counts by the value it entered with
 * (before) and the value it left with (after), since its minimum may lie
 * on either side of its top. The burst's level is the higher of the two,
 * so it rose
 * above the level before by its height and came back down at least as
 * far; height = top - level. A top is a burst when its height is at least
 * `share` of the outline's maximum (vis_outline_bursts) and it lasted at
 * most half the outline's length (a longer hill is the run's shape, not a
 * burst). Its duration runs from the start of the first span whose maximum
 * is above level + height/2 to the end of the last, around the top. */
typedef struct {
    size_t top_span;         /* the span holding the top */
    uint64_t top_time;       /* that span's start */
    uint64_t top_B;
    uint64_t level_B;        /* the level it rose from and came back to */
    uint64_t height_B;       /* top_B - level_B */
    uint64_t start, end;     /* above half its height over [start, end) */
    size_t snap;             /* the detailed snapshot in [start, end)
                                nearest the top, or SIZE_MAX: no tree */
    size_t site;             /* that tree's largest site (site_info index),
                                or SIZE_MAX (no tree, or no ranked site) */
    uint64_t site_B;         /* what the site held in that tree */
} vis_burst;

/* The share of the maximum a burst must rise by (5%). */
#define VIS_BURST_SHARE 0.05

/* The largest bursts of p's outline (at most max, by height, ties by
 * time), in *out (malloc'ed, NULL when none; the caller frees it) and *n.
 * Returns 0, or -1 when out of memory. A profile without an outline has
 * none. */
int vis_outline_bursts(const vis_profile *p, double share, size_t max, vis_burst **out,
                       size_t *n);

#endif
