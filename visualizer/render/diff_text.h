/* diff_text.h: memtime-vis diff's text and JSON, and memtime-vis check's
 * lines, from the model's diff and gate result (model/diff.h). */
#ifndef VIS_DIFF_TEXT_H
#define VIS_DIFF_TEXT_H

#include <stdio.h>
#include "model/diff.h"

/* Text: both moments, the totals, then one line per site that changed. */
void vis_diff_text(FILE *out, const vis_profile *old, const vis_profile *new_, const vis_diff *d,
                   int top_n);
/* JSON: {"at", "old": {...}, "new": {...}, "total": {...}, "sites": [...]}. */
void vis_diff_json(FILE *out, const vis_profile *old, const vis_profile *new_, const vis_diff *d);

/* One line per broken limit ("peak 14.1 MiB (14,829,216 B) is over
 * --max-peak ..."), in the result's order. */
void vis_check_text(FILE *out, const vis_check_result *res, const vis_check_limits *lim);

#endif
