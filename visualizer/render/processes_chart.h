/* processes_chart.h: several profiles of one run (model/processes.h)
 * drawn as one PNG, one lane per process on one time axis. */
#ifndef VIS_PROCESSES_CHART_H
#define VIS_PROCESSES_CHART_H

#include <stddef.h>
#include "model/processes.h"

/* The all-processes chart as PNG, written atomically to path. Returns 0,
 * or -1 with a one-line err. */
int vis_procs_write_png(const vis_procs *ps, int width, int height, const char *path,
                        char *err, size_t errsz);

#endif
