/* diff.h: two profiles compared at one moment (memtime-vis diff OLD NEW)
 * and the CI gate built on it (memtime-vis check). Sites are matched by
 * name, function and file:line as the report writes them, never by
 * address: two builds, or two runs under ASLR, put the same site at
 * different addresses. Sites merged below Massif's threshold ("in N
 * places") are one row, "(sites below the threshold)". */
#ifndef VIS_DIFF_H
#define VIS_DIFF_H

#include <stdint.h>
#include "model/profile.h"

typedef struct {
    const char *site;            /* the key: the label without address
                                    (points into one of the profiles) */
    char *name, *full;           /* what the outputs print (names.h): the
                                    short name and the full one, each
                                    distinct among the rows */
    uint64_t old_bytes, new_bytes;
    int64_t delta_bytes;
} vis_diff_row;

typedef struct {
    size_t snap;                 /* the moment's snapshot */
    size_t tree_snap;            /* the detailed snapshot its sites come from,
                                    SIZE_MAX if none */
    uint64_t total;              /* the moment's total (heap+extra+stacks) */
} vis_diff_side;

typedef struct {
    const char *at;              /* the WHEN as given ("peak" by default) */
    vis_diff_side old, new_;
    /* Both profiles have memtime's exact outline (outline.h): the true
     * maximum of each run, which the snapshots may have missed. The peak's
     * comparison (diff's "True peak" line, check's --max-increase on the
     * peak) uses these then. */
    int true_max;
    uint64_t old_max, new_max;
    size_t n_rows;
    vis_diff_row *rows;          /* by |delta| (largest first), then name */
} vis_diff;

/* The site rows of old at snapshot old_snap and new at new_snap (each
 * resolved by the caller; "peak" is each profile's own peak). Returns 0 or
 * -1 when out of memory. */
int vis_diff_compute(const vis_profile *old, size_t old_snap, const vis_profile *new_,
                     size_t new_snap, int at_peak, const char *at, vis_diff *d);
void vis_diff_free(vis_diff *d);

/* The gate's limits (memtime-vis check); a field of 0 / NULL is unset. */
typedef struct {
    int has_max_peak;
    uint64_t max_peak;
    int has_increase;            /* --baseline given */
    double max_increase_pct;
    uint64_t allow;
} vis_check_limits;

/* What breaks a limit: the peak over --max-peak (to: the peak; with an
 * exact outline, its true maximum when the snapshots missed it), the
 * peak's total or one site grown beyond --max-increase and --allow since
 * the baseline (from -> to, at the two peaks). */
typedef enum {
    VIS_CHECK_CUT_SHORT,         /* a file the check read is cut short */
    VIS_CHECK_MAX_PEAK,
    VIS_CHECK_PEAK_GREW,
    VIS_CHECK_SITE_GREW
} vis_check_kind;
typedef struct {
    vis_check_kind kind;
    const char *site;            /* VIS_CHECK_SITE_GREW: the diff row's name;
                                    VIS_CHECK_CUT_SHORT: the file's path */
    size_t snap;                 /* the profile's peak snapshot;
                                    VIS_CHECK_CUT_SHORT: the line it ends on */
    uint64_t from, to;
    int outline;                 /* the peak's numbers are the true maxima of
                                    the exact outline, not the snapshots' */
} vis_check_broken;
typedef struct {
    size_t n;
    vis_check_broken *broken;    /* the files cut short first, then the
                                    peak, then the sites in the diff's
                                    order */
} vis_check_result;

/* The limits p breaks; baseline (NULL without --baseline) is the profile
 * p is compared with and baseline_diff the diff baseline -> p at their
 * peaks. A file cut short (either profile or its companion) breaks the
 * gate first of all: the limits are still checked on what is there, but a
 * run seen in part cannot pass (a peak or a growth after the cut is not
 * seen). Returns 0, or -1 when out of memory. */
int vis_check_eval(const vis_profile *p, const vis_profile *baseline,
                   const vis_diff *baseline_diff, const vis_check_limits *lim,
                   vis_check_result *res);
void vis_check_result_free(vis_check_result *res);

#endif
