/* chart_data.h: the decomposition of each snapshot into the bands the chart
 * stacks, shared by the PNG (chart.c) and gnuplot (gnuplot.c) renderers so
 * both draw the same numbers.
 *
 * Bands, bottom of the stack first: the top-N allocation sites, "other sites"
 * (every other site, including Massif's below-threshold lines), "extra heap"
 * (allocator admin + slop) and "stacks"; a band that is zero everywhere is
 * left out. Sites are ranked by their bytes in the detailed snapshot with the
 * largest total (normally the peak), ties and sites absent there by their
 * maximum over all detailed snapshots.
 *
 * Only detailed snapshots carry a per-site breakdown. At any other snapshot
 * each site keeps its share of the heap in the most recent detailed snapshot
 * (the first detailed one for snapshots before it), scaled to this
 * snapshot's heap. So the bands always add up to heap + extra + stacks. */
#ifndef MT_CHART_DATA_H
#define MT_CHART_DATA_H

#include <stddef.h>
#include <stdint.h>
#include "canvas.h"
#include "profile.h"

typedef enum {
    MT_BAND_SITE,      /* one allocation site */
    MT_BAND_OTHER,     /* the sites not drawn on their own */
    MT_BAND_HEAP,      /* the whole heap, when no snapshot is detailed */
    MT_BAND_EXTRA,     /* mem_heap_extra_B */
    MT_BAND_STACKS     /* mem_stacks_B */
} vis_band_kind;

typedef struct {
    vis_band_kind kind;
    char *label;           /* legend text, e.g. "add_block (node.c:42)" */
    const char *raw;       /* sites: the verbatim label in the profile */
    vis_rgb colour;
    double peak_B;         /* value at the profile's peak snapshot */
} vis_band;

typedef struct {
    size_t n_bands;
    vis_band *bands;        /* stack order, bottom first */
    size_t n_snaps;        /* = profile's n_snaps */
    double *value_B;       /* value_B[i * n_bands + b]: band b at snapshot i;
                              each row sums to that snapshot's total */
    size_t n_detailed;     /* detailed/peak snapshots in the profile */
    size_t n_sites;        /* distinct sites over all detailed snapshots */
    size_t rank_snap;      /* snapshot whose sites ranked the bands */
} vis_chart_data;

/* Builds the decomposition. top_n < 0 is treated as 0. Returns NULL with err
 * only when out of memory or the profile has no snapshot. */
vis_chart_data *vis_chart_data_new(const vis_profile *p, int top_n,
                                 char *err, size_t errsz);
void vis_chart_data_free(vis_chart_data *d);

static inline double vis_chart_value(const vis_chart_data *d, size_t snap, size_t band)
{
    return d->value_B[snap * d->n_bands + band];
}

/* The legend text of a site's verbatim label, newly allocated (NULL only
 * when out of memory): the "0x...: " address is dropped, "(in /a/b/lib.so)"
 * becomes "(in lib.so)", an argument list or template arguments longer than
 * max_fn_chars are elided to "(…)" / "<…>", and "???" keeps its address. */
char *vis_site_short_label(const char *raw, size_t max_fn_chars);

#endif
