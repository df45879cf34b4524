/* growth_text.h: the growth ranking as text: the whole of it for
 * --growth, and the lines the summary's "Growing" sections are made of. */
#ifndef VIS_GROWTH_TEXT_H
#define VIS_GROWTH_TEXT_H

#include <stdio.h>
#include "model/growth.h"
#include "model/profile.h"

/* The --growth ranking of g: every site, or the first max_rows (0: all). */
void vis_growth_text(FILE *out, const vis_profile *p, const vis_growth *g, size_t max_rows);

/* "WHAT, from T (snapshot N) to T (snapshot M), K detailed snapshots:", or
 * that the window has no detailed snapshot. */
void vis_growth_window_line(FILE *out, const vis_profile *p, const vis_growth *g, const char *what);
/* The column heads, and one row of the ranking under them. */
void vis_growth_header_line(FILE *out, const vis_profile *p);
void vis_growth_row_line(FILE *out, const vis_profile *p, const vis_growth_row *r);

#endif
