/* json.h: memtime-vis's JSON output (--json): one document with the
 * summary's facts and the analyses (growth, counts), keys documented in
 * docs/memtime-vis.1 (JSON OUTPUT). Reusable: the same writer serves any
 * report that embeds the document (an HTML page's <script>), so strings
 * are escaped for both JSON and HTML script context: '<', '>', '&', U+2028,
 * U+2029 as \u escapes, control characters escaped, bytes that are not
 * UTF-8 as U+FFFD. */
#ifndef VIS_JSON_H
#define VIS_JSON_H

#include <stdio.h>
#include <stdint.h>
#include "model/analysis.h"
#include "model/chart_data.h"
#include "model/profile.h"

/* A JSON string (with its quotes). */
void vis_json_string(FILE *out, const char *s);
/* A number; non-finite values as null. */
void vis_json_double(FILE *out, double v);

/* The whole document for p and its analyses. Write errors show in
 * ferror(out). */
void vis_json_profile(FILE *out, const vis_profile *p, const vis_analysis *an);

/* The report page's document (html.c): the same keys, plus "timeline"
 * (the chart's bands d, with the PNG's colours, and every snapshot's numbers)
 * and "trees" (every detailed snapshot's tree read from in, the profile's
 * file, pruned: nodes under threshold percent of their snapshot's total,
 * and anything deeper than max_depth, are left out with their subtrees).
 * Returns 0, or -1 with a one-line err. */
typedef struct {
    double threshold;    /* percent, as --threshold */
    unsigned max_depth;  /* deepest tree level kept (root 0) */
    int no_trees;        /* leave "trees" out: the page's other groupings
                            (html.c) share the default grouping's trees */
} vis_json_report_opts;
int vis_json_report(FILE *out, const vis_profile *p, const vis_analysis *an,
                    const vis_chart_data *d, FILE *in, const vis_json_report_opts *o,
                    char *err, size_t errsz);

#endif
