/* report.h: the text reports of memtime-vis: a summary (what a bug report
 * needs first) and an ms_print-compatible report (the ASCII graph, the
 * snapshot table and every detailed snapshot's tree), byte-identical to
 * ms_print's output on Massif's own files. */
#ifndef MT_REPORT_H
#define MT_REPORT_H

#include <stdio.h>
#include "massif.h"
#include "profile.h"
#include "units.h"        /* vis_fmt_bytes, vis_fmt_time: the one formatter */

typedef struct {
    double threshold;          /* percent, 0..100; ms_print's --threshold */
    int graph_x, graph_y;      /* ms_print's --x, --y (4..1000) */
    int top_n;                 /* sites listed in the summary */
    const char *ms_print_args; /* the "ms_print arguments:" text, e.g. " f.out" */
} vis_report_opts;

void vis_report_opts_default(vis_report_opts *o);

/* Writes the summary: command, time unit, duration, peak, top sites at the
 * peak, phase marks, thread stack peaks. Write errors show in ferror(out). */
void vis_report_summary(FILE *out, const vis_profile *p, const vis_report_opts *o);

/* Writes the whole ms_print-style report of p to out: the head (header,
 * graph, list of detailed snapshots) from the model, then the snapshot table
 * with each detailed snapshot's tree walked from in, the file p was read
 * from (seekable). Returns 0, or -1 with err when the file cannot be read
 * again or changed under us. Write errors show in ferror(out). */
int vis_report_ms_print(FILE *out, const vis_profile *p, const vis_report_opts *o,
                        FILE *in, char *err, size_t errsz);

#endif
