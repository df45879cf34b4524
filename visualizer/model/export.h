/* export.h: the exports of one snapshot's allocation tree into the formats
 * other viewers read: an interactive flamegraph SVG (flamegraph.c), folded
 * stacks for flamegraph.pl, inferno and speedscope (collapsed.c), and a
 * gzipped profile.proto for pprof (pprof.c). All read the same vis_stacks
 * (stacks.h) of the snapshot chosen here. */
#ifndef MT_EXPORT_H
#define MT_EXPORT_H

#include <stdio.h>
#include "model/profile.h"
#include "model/stacks.h"

typedef struct {
    const vis_profile *p;
    vis_stacks *s;
    char moment[512];   /* which snapshot and why: "snapshot 56 (the peak)
                           at 427 ms: heap 14.0 MiB" */
    /* A differential flamegraph (a growth window): coloured by the change
     * since an earlier moment, whose tree is base (NULL: an empty heap). */
    int diff;
    vis_stacks *base;
    char base_moment[256];   /* "snapshot 12 at 150 ms" */
} vis_export;

/* Picks the snapshot (when: a WHEN, see when.h, or NULL for the peak's tree;
 * the last detailed snapshot at or before that moment) and reads its tree
 * from f, the profile's file; with base_when, the tree of the earlier moment
 * too (the flamegraph becomes differential). Returns 0; -2 or -3 with err
 * if when or base_when names no usable moment (a usage error); -1 with err
 * for bad data. */
int vis_export_prepare(vis_export *e, FILE *f, const vis_profile *p, const char *when,
                       const char *base_when, char *err, size_t errsz);
/* memtime-vis diff OLD NEW --flamegraph: NEW's tree at the moment at (the
 * same WHEN in each file; "peak": each file's peak tree), coloured by the
 * change since OLD's. Returns as vis_export_prepare (-3: OLD has no tree
 * there). */
int vis_export_prepare_diff(vis_export *e, FILE *f_new, const vis_profile *p_new,
                            FILE *f_old, const vis_profile *p_old, const char *at,
                            char *err, size_t errsz);
void vis_export_free(vis_export *e);

/* The writers: each writes its whole file to out, returning 0, or -1 with a
 * one-line err. */
typedef int (*vis_export_fn)(FILE *out, const vis_export *e, char *err, size_t errsz);
int vis_flamegraph_write(FILE *out, const vis_export *e, char *err, size_t errsz);
int vis_collapsed_write(FILE *out, const vis_export *e, char *err, size_t errsz);
int vis_pprof_write(FILE *out, const vis_export *e, char *err, size_t errsz);

#endif
