/* analysis_text.h: the text renderer of the analysis views (growth ranking,
 * the end of the run, leaks and allocation hot spots), for --growth and
 * for the summary's extra sections. Reads growth.h's results only. */
#ifndef VIS_ANALYSIS_TEXT_H
#define VIS_ANALYSIS_TEXT_H

#include <stdio.h>
#include "model/growth.h"
#include "model/profile.h"

/* The --growth ranking of g: every site, or the first max_rows (0: all). */
void vis_growth_text(FILE *out, const vis_profile *p, const vis_growth *g, size_t max_rows);

/* The summary's extra sections: how the run ended, "Growing" over the
 * window g (the whole run unless --from/--to), the last moments of a run
 * that did not end at exit, and, with counts, leaks at exit, most
 * allocations, most temporary allocations (top_n rows each). Returns 0, or
 * -1 when out of memory. */
int vis_analysis_summary(FILE *out, const vis_profile *p, const vis_growth *g, int top_n);

#endif
