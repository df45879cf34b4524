/* diff_chart.h: the PNG of memtime-vis diff -o: both profiles' totals on one
 * time axis (aligned at their starts, or at a phase mark both have), and
 * the sites' differences at the compared moment as bars (red: grew, blue:
 * shrank). */
#ifndef VIS_DIFF_CHART_H
#define VIS_DIFF_CHART_H

#include <stddef.h>
#include "model/diff.h"
#include "model/profile.h"

/* align_old / align_new: the time subtracted from each profile's times
 * (0, or the shared mark's time in each). Returns 0, or -1 with err. */
int vis_diff_chart_png(const vis_profile *old, const vis_profile *new_, const vis_diff *d,
                       uint64_t align_old, uint64_t align_new, const char *align_label,
                       int top_n, const char *path, char *err, size_t errsz);

#endif
