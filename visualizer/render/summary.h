/* summary.h: the text summary that opens memtime-vis's report (and is all
 * of it with --summary-only): the profile's numbers, then the analyses'
 * findings, one renderer for both. */
#ifndef VIS_SUMMARY_H
#define VIS_SUMMARY_H

#include <stdio.h>
#include "model/analysis.h"
#include "model/profile.h"
#include "render/report.h"

/* Writes the summary of p with the analyses an; o->top_n rows per list.
 * Write errors show in ferror(out). */
void vis_summary_write(FILE *out, const vis_profile *p, const vis_analysis *an,
                       const vis_report_opts *o);

#endif
