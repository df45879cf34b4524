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
} vis_chart_data;

/* Builds the bands of the top sites (top 0..VIS_TOP_MAX). Returns NULL with
 * err when out of memory or the profile has no snapshot. */
vis_chart_data *vis_chart_data_new(const vis_profile *p, size_t top, char *err, size_t errsz);
void vis_chart_data_free(vis_chart_data *d);

static inline double vis_chart_value(const vis_chart_data *d, size_t snap, size_t band)
{
    return (double)d->value_B[snap * d->n_bands + band];
}

#endif
