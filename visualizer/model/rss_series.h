/* rss_series.h: the resident-memory line the chart renderers draw (PNG and
 * gnuplot) from the model's readings (memtime --rss=yes): every snapshot with
 * a reading, plus the RSS peak, which memtime keeps even when its snapshot was
 * culled, in time order. Between two readings the resident memory is not
 * known; the renderers hold the last reading, as they hold snapshots (steps,
 * never a ramp between two readings far apart). Where the companion has the
 * outline's RSS buckets ("o-rss:", every reading of the run, also those of
 * culled snapshots) the line is drawn from them instead: vis_rss_pieces. */
#ifndef VIS_RSS_SERIES_H
#define VIS_RSS_SERIES_H

#include <stddef.h>
#include <stdint.h>
#include "model/chart_data.h"
#include "model/profile.h"

typedef struct {
    uint64_t time;                      /* in the profile's unit */
    uint64_t total_B, anon_B, file_B, shmem_B;
    uint64_t heap_B;                    /* the heap's total then (heap + extra +
                                           stacks), for the gap */
    int has_held;                       /* the allocator's account goes with it */
    uint64_t held_B;                    /* what the allocator holds freed then
                                           (alloc_account.h) */
} vis_rss_point;

typedef struct {
    size_t n;                           /* 0: no readings, nothing to draw */
    vis_rss_point *pts;
    size_t peak;                        /* index of the largest total */
    uint64_t max_total_B, max_file_B;
    int show_file;                      /* file-backed pages matter: at least
                                           5% of the RSS peak at some point */
    /* With the program's own allocator (memtime --allocator=program): the
     * RSS it holds freed at each reading, drawn as a band from the heap's
     * top (vis_held_cols); its name and what it calls that memory. */
    int show_held;                      /* some reading has the account */
    uint64_t max_held_B;                /* the largest of its readings */
    const char *held_name, *held_noun;
} vis_rss_series;

/* Fills s from p. Returns 0, or -1 when out of memory (s then empty). */
int vis_rss_series_build(const vis_profile *p, vis_rss_series *s);
void vis_rss_series_free(vis_rss_series *s);

/* The pieces (chart_data.h) the RSS line is drawn from: the outline's RSS
 * buckets (lowest, highest and last reading in each) when the profile has
 * them and file_only is 0, else s's readings as instants (file_only: their
 * file-backed part). NULL with *n = 0 when there is nothing to draw, with
 * *n = SIZE_MAX when out of memory. The caller frees it. */
vis_piece *vis_rss_pieces(const vis_profile *p, const vis_rss_series *s, int file_only, size_t *n);

/* What the allocator holds freed per column, by its every reading of its
 * statistics (its own account, more frequent than the RSS readings the
 * file keeps) and the one column rule (each reading held until the next),
 * as a band standing on the heap's top:
 * out[k].min_B is the heap's top (cols->hi_B[k], 0 where the column has no
 * snapshot), out[k].max_B that plus what the allocator holds freed, no
 * higher than the RSS in the column (rss_cols[k].max_B). has = 0 where
 * nothing is held. Over cols->ncol columns from t0 to t1. Returns 0, or -1
 * when out of memory. */
int vis_held_cols(const vis_profile *p, const vis_rss_series *s, const vis_chart_cols *cols, double t0, double t1,
                  const vis_col *rss_cols, vis_col *out);

/* The highest the RSS line reaches: the largest reading, or the outline's
 * RSS buckets' highest when they are drawn; 0 without readings. */
uint64_t vis_rss_top(const vis_profile *p, const vis_rss_series *s);

/* The charts' caption of the RSS peak (PNG and gnuplot), q the reading
 * at it, into buf (n bytes): "RSS peak 9 MiB at 2.1s, heap 13% of it"; on
 * the RSS panel (panel) "Resident memory (RSS) and heap on one scale: "
 * before that. */
void vis_chart_rss_peak_caption(const vis_profile *p, const vis_rss_point *q, int panel, char *buf,
                                size_t n);

#endif
