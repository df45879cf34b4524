/* chart.h: the timeline chart (stacked step chart of the top allocation sites,
 * extra heap and stacks, total line, peak marker, phase marks, title, axes,
 * legend), drawn from the read-only model and written as PNG or via gnuplot. */
#ifndef MT_CHART_H
#define MT_CHART_H

#include <stddef.h>
#include "model/profile.h"

/* The options' ranges, the one source main.c's parser and the renderers'
 * checks read. */
enum {
    VIS_CHART_MIN_WIDTH = 320, VIS_CHART_MIN_HEIGHT = 240, VIS_CHART_MAX_PX = 8000,
    VIS_TOP_MIN = 1            /* ..VIS_TOP_MAX (profile.h) */
};

/* The colours the timeline (chart.c) and the diff chart (diff_chart.c)
 * share, so that the two look like one tool's. */
#define VIS_COLOUR_BG    0xFFFFFF
#define VIS_COLOUR_TEXT  0x222222
#define VIS_COLOUR_MUTED 0x666666
#define VIS_COLOUR_AXIS  0x444444
#define VIS_COLOUR_GRID  0xE2E2E2
#define VIS_COLOUR_MARK  0x505050   /* phase marks */
#define VIS_COLOUR_PEAK  0xD62728   /* the peak; in a diff, what grew */

struct vis_growth;          /* growth.h */

typedef struct {
    int width, height;     /* pixels; defaults 1600x900 */
    int top_n;             /* allocation sites drawn as their own bands; default 8 */
    char **layout;         /* if not NULL, the PNG writer stores here a newly
                              allocated description of where it drew what,
                              for the pixel tests (format in chart.c,
                              describe_layout); the caller prints and frees it */
    const struct vis_growth *growth;   /* --growth: steady growers get a "grows"
                                          tag on their band and in the legend
                                          (PNG only); NULL: none */
} vis_chart_opts;

void vis_chart_opts_default(vis_chart_opts *o);
/* 0 if the options are in range, else -1 with a one-line err. */
int vis_chart_opts_check(const vis_chart_opts *o, char *err, size_t errsz);

/* Renders the chart and writes it to out_path as PNG, atomically (temporary
 * file in the same directory, then rename): on failure no file is left.
 * Returns 0, or -1 with a one-line message in err. */
int vis_chart_write_png(const vis_profile *p, const vis_chart_opts *o,
                        const char *out_path, char *err, size_t errsz);

/* Writes a self-contained gnuplot script (data inline) drawing the same chart
 * to script_path; if image_path is non-NULL the script sets its terminal from
 * the extension (.svg, .pdf, .png). Returns 0 or -1 with err. */
int vis_chart_write_gnuplot(const vis_profile *p, const vis_chart_opts *o,
                            const char *script_path, const char *image_path,
                            char *err, size_t errsz);

/* Renders through gnuplot (must be on PATH) to image_path (.svg or .pdf).
 * Returns 0, or -1 with err (e.g. "gnuplot is not installed"). */
int vis_chart_render_gnuplot(const vis_profile *p, const vis_chart_opts *o,
                             const char *image_path, char *err, size_t errsz);

#endif
