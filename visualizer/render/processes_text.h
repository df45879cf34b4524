/* processes_text.h: the listing of several profiles of one run
 * (model/processes.h), memtime-vis's output for a directory or several
 * files without -o. */
#ifndef VIS_PROCESSES_TEXT_H
#define VIS_PROCESSES_TEXT_H

#include <stdio.h>
#include "model/processes.h"

/* One line per process, in start order: pid, parent, start, end, how it
 * ended, peak heap, peak RSS (where the companion has it, else "-"), title. */
void vis_procs_list(FILE *out, const vis_procs *ps);

#endif
