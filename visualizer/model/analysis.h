/* analysis.h: what the summary, --json and the HTML report say beyond
 * the profile's own numbers, computed once from the model so that every
 * writer reads the same results: the growth ranking over the --from..--to
 * window, whether the run ended at exit and, when it did not, what grew in
 * its last moments, and memtime's per-site counts merged and ranked three
 * ways. */
#ifndef VIS_ANALYSIS_H
#define VIS_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>
#include "model/growth.h"
#include "model/outline.h"
#include "model/profile.h"

/* The most bursts an analysis keeps (the summary names 5 of them). */
#define VIS_BURSTS_MAX 20

/* 0 when memtime's companion says the process had not ended at its last
 * rewrite ("end: none": killed, or still running); 1 otherwise: "end: exit"
 * or "end: exec", or no such line (Massif's files, written only at exit,
 * and companions of older memtimes: nothing claims a kill). */
int vis_ended_by_exit(const vis_profile *p);

/* The final window of a run that did not end at exit: the last 10% of its
 * time, and at least its last 5 snapshots. Returns the first snapshot. */
size_t vis_final_window(const vis_profile *p);


typedef struct {
    vis_growth growth;           /* over the window given to vis_analysis_compute */
    int ended;                   /* vis_ended_by_exit */
    size_t final_from;           /* !ended: the final window's first snapshot */
    vis_growth final;            /* !ended: the growth over the final window */
    /* memtime's counts, one row per site (labels repeated in the file
     * added up), n_counts rows in each order; NULL without counts. */
    size_t n_counts;
    vis_site_counts *by_live;      /* live bytes, then live blocks, then label */
    vis_site_counts *by_allocs;    /* allocations, then bytes allocated, then label */
    vis_site_counts *by_temporary; /* temporary allocations, then allocations, then label */
    uint64_t live_blocks, live_bytes, allocs, temporary;   /* their sums */
    /* memtime's exact outline (outline.h), over the whole run: */
    vis_outline_top outline_top; /* its true maximum (span SIZE_MAX: none) */
    size_t n_bursts;
    vis_burst *bursts;           /* the largest, at most VIS_BURSTS_MAX,
                                    largest first; NULL without */
} vis_analysis;

/* Computes everything over the growth window from..to (snapshot indices,
 * from <= to). Returns 0, or -1 when out of memory (a then empty). */
int vis_analysis_compute(const vis_profile *p, size_t from, size_t to, vis_analysis *a);
void vis_analysis_free(vis_analysis *a);

#endif
