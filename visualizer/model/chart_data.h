/* chart_data.h: the bands the chart stacks, shared by the PNG (chart.c) and
 * gnuplot (gnuplot.c) renderers so both draw the same numbers: the model's
 * series (profile.h, vis_series: the CSV's numbers) with a legend name and a
 * colour per band.
 *
 * Bands, bottom of the stack first: the top sites of the model's ranking,
 * "other sites", "unattributed" (heap the trees cannot attribute, drawn
 * hatched), "extra heap" and "stacks"; a band that is zero everywhere is
 * left out of the drawing and the legend. */
#ifndef MT_CHART_DATA_H
#define MT_CHART_DATA_H

#include <stddef.h>
#include <stdint.h>
#include "base/canvas.h"
#include "model/profile.h"

typedef enum {
    VIS_BAND_SITE,          /* one allocation site */
    VIS_BAND_OTHER,         /* the sites not drawn on their own */
    VIS_BAND_UNATTRIBUTED,  /* heap no tree explains (hatched) */
    VIS_BAND_EXTRA,         /* mem_heap_extra_B */
    VIS_BAND_STACKS         /* mem_stacks_B */
} vis_band_kind;

typedef struct {
    vis_band_kind kind;
    const char *label;     /* legend text; sites: vis_site_info.name */
    vis_rgb colour;
    uint64_t peak_B;       /* value at the profile's peak snapshot */
    uint64_t largest_B;    /* largest value over the run (sites: over the trees) */
} vis_band;

typedef struct {
    size_t n_bands;
    vis_band bands[VIS_TOP_MAX + 4];   /* stack order, bottom first */
    size_t n_snaps;        /* = profile's n_snaps */
    uint64_t *value_B;     /* value_B[i * n_bands + b]: band b at snapshot i;
                              each row sums to that snapshot's total */
    size_t n_detailed;     /* snapshots with a tree */
    char other_label[48];  /* the other band's text, where it is not fixed */
} vis_chart_data;

/* ---- one drawing rule for every chart: columns -------------------------
 *
 * Every chart draws time in pixel columns. Column k of ncol, on an axis
 * from t0 (column 0) to t1 (column ncol - 1), holds the times whose
 * position v = (t - t0) * (ncol - 1) / (t1 - t0) satisfies
 * floor(v + off) == k: off = 0.5 is plot.h's rounding (the timeline, the
 * diff chart, the HTML page), off = 0 the lanes' truncation (the process
 * overview). A piece of time [start, end) covers every column its interval
 * overlaps; an instant (start == end) the one column it falls in. */

/* A stretch of time and the lowest, highest and last value in it: an
 * outline span, an RSS bucket, or a snapshot or a reading (an instant). */
typedef struct {
    uint64_t start, end;        /* end == start: an instant */
    uint64_t min_B, max_B, last_B;
} vis_piece;

/* What one column shows of a sequence of pieces. */
typedef struct {
    int has;                    /* some piece or a held value covers it */
    uint64_t min_B, max_B;      /* the range in it, with the value entering
                                   it from the left when one is held */
    uint64_t last_B;            /* the value at its right edge */
} vis_col;

/* Fills cols[0..ncol) from pieces sorted by start, never overlapping. With
 * hold, a piece's last value holds until the next piece (steps: between
 * two readings the last one holds) and after the last piece up to column
 * hold_to (inclusive); without, columns no piece covers stay empty. */
void vis_columns(const vis_piece *pc, size_t n, double t0, double t1, size_t ncol, double off,
                 int hold, long hold_to, vis_col *cols);

/* The column of time t (unclamped), by the rule above. */
long vis_column_of(double t0, double t1, size_t ncol, double off, double t);

/* The exact outline's spans as pieces (total: heap + extra + stacks), or
 * heap alone; NULL when the profile has none (*n = 0) or out of memory
 * (*n = SIZE_MAX). The caller frees it. */
vis_piece *vis_outline_pieces(const vis_profile *p, int heap_only, size_t *n);

/* The snapshots' totals as instants: the samples' own outline. */
vis_piece *vis_snapshot_pieces(const vis_profile *p, size_t *n);

/* One profile's total (heap + extra + stacks) in ncol columns over
 * [t0, t1] (the profile's own times), by the one drawing rule: from the
 * exact outline when it has one, else the snapshots held as steps up to
 * the last one's column. Returns ncol columns for the caller to free, or
 * NULL when out of memory. */
vis_col *vis_total_columns(const vis_profile *p, double t0, double t1, size_t ncol, double off);

/* A timeline's columns: the bands from the trees, sampled, and the
 * outline, exact when the profile has one.
 *
 * The top of column k is the highest value of the outline's spans that
 * overlap it (out_top_B); where the column's lowest differs, the outline
 * (the line) spans lo_B..hi_B. The bands are the snapshot in effect (the
 * largest total among those falling in the column, else the last one
 * before it), except where the outline contradicts it: a held step above
 * the outline's highest in the column is not drawn; each band then shows
 * what both samples around the column agree on (the smaller of its two
 * values), and the stack is cut at the outline's top. Heap above the
 * bands up to the outline's top (a burst no tree saw, or growth since the
 * last sample) is outside_B, drawn distinctly. Without an outline the
 * line and the top are the samples' (the old step rule) and outside_B is
 * 0. */
typedef struct {
    size_t ncol, n_bands;
    int exact;                  /* the profile has an outline */
    uint64_t *band_B;           /* ncol * n_bands: each band's height */
    uint64_t *outside_B;        /* ncol: above the bands, up to the top */
    uint64_t *lo_B, *hi_B;      /* ncol: the outline's (the line's) range */
    int *drawn;                 /* ncol: 0 before the first snapshot */
    uint64_t max_B;             /* the highest value any column reaches */
} vis_chart_cols;

vis_chart_cols *vis_chart_cols_new(const vis_profile *p, const vis_chart_data *d, double t0,
                                   double t1, size_t ncol);
void vis_chart_cols_free(vis_chart_cols *c);

/* The time axis a timeline draws: from the first snapshot (or 0) to the
 * last snapshot or the outline's end, whichever is later. */
void vis_chart_time_range(const vis_profile *p, double *t0, double *t1);

/* ---- the heap beside a large RSS --------------------------------------
 *
 * Drawn on the RSS's scale, a heap several times smaller than the resident
 * memory (a program that maps big files or links big libraries: rustc's
 * 16 MiB heap under 172 MiB of mapped LLVM) is a strip at the bottom of
 * the plot and its bands cannot be read. So when the RSS's highest is more
 * than VIS_RSS_PANEL_RATIO times the heap's (the total the plot stacks),
 * which is when the heap would fill less than half of a shared plot, every
 * chart (PNG, SVG/PDF, HTML) gives the heap its own scale in the main plot
 * and draws a smaller panel below, on one scale from 0 to the RSS: the
 * heap's total filled, the RSS line over it, the gap tinted, and a dashed
 * line at the main plot's top, so the two still compare at a glance. */
#define VIS_RSS_PANEL_RATIO 2

/* 1 when the RSS gets its own panel: rss_top_B > VIS_RSS_PANEL_RATIO *
 * heap_top_B. */
int vis_chart_rss_panel(uint64_t heap_top_B, uint64_t rss_top_B);

/* The chart's footnote on what is exact and what is sampled:
 * "outline: exact (every change, 4096 buckets of 8 ms); bands: 12 of 40
 * snapshots with a tree, sampled", or, without an outline, "sampled:
 * bursts between snapshots are not shown (N snapshots, M with a tree)". */
void vis_chart_exactness(const vis_profile *p, char *buf, size_t n);

/* ---- captions every chart writes (PNG and gnuplot) ----------------------
 * Written to buf (n bytes); the RSS peak's is rss_series.h's. */
/* The peak's: "peak 1.2 MiB at 3.4s". */
void vis_chart_peak_caption(const vis_profile *p, char *buf, size_t n);
/* The RSS panel's line where the main plot's scale ends (top_B): "top of
 * the heap plot above: 16 MiB". */
void vis_chart_panel_top_caption(uint64_t top_B, char *buf, size_t n);
/* The legend's line for the memory the exact outline shows above the
 * samples. */
#define VIS_CHART_ABOVE_SAMPLES "above the samples (exact outline; no tree saw it)"

/* What a band of one site is under the profile's grouping (--group-by,
 * groups.h): "site", "function", "file", "object", "crate", "namespace";
 * plural with plural. The legend's heading and the "other ..." band say it. */
const char *vis_chart_group_noun(const vis_profile *p, int plural);

/* Builds the bands of the top sites (top 0..VIS_TOP_MAX). Returns NULL with
 * err when out of memory or the profile has no snapshot. */
vis_chart_data *vis_chart_data_new(const vis_profile *p, size_t top, char *err, size_t errsz);
void vis_chart_data_free(vis_chart_data *d);

static inline double vis_chart_value(const vis_chart_data *d, size_t snap, size_t band)
{
    return (double)d->value_B[snap * d->n_bands + band];
}

#endif
