/* massif_out.h: writes heap trees (model/heap_tree.h) in Massif's file
 * format, as ms_print and massif-visualizer read it, and as the
 * companion's unpruned detail ("dtree:" lines), so that a series of heap
 * profiles taken outside Valgrind becomes a profile like any other. */
#ifndef VIS_MASSIF_OUT_H
#define VIS_MASSIF_OUT_H

#include <stdint.h>
#include <stdio.h>
#include "base/units.h"
#include "model/heap_tree.h"

/* The header: "desc:", "cmd:" (control characters escaped as memtime
 * escapes them) and "time_unit:". */
void vis_massif_out_header(FILE *out, const char *desc, const char *cmd, vis_unit unit);

/* Snapshot index at time with tree t (its root's bytes are the heap), as
 * Massif writes a detailed (or, with peak, the peak) snapshot: children
 * below threshold percent of the heap merged per parent into one "in N
 * places" line. Returns 0, or -1 when out of memory. */
int vis_massif_out_snapshot(FILE *out, size_t index, uint64_t time, int peak, const vis_htree *t,
                            const vis_strtab *labels, double threshold);

/* The companion's "dtree:" line of that snapshot: every node, pre-order. */
int vis_massif_out_dtree(FILE *out, size_t index, uint64_t time, const vis_htree *t);

#endif
