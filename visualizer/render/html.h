/* html.h: the interactive HTML report (-o FILE.html): one self-contained
 * page, the data as the JSON document of json.c (vis_json_report) inside a
 * <script type="application/json">, drawn by the plain JavaScript and CSS
 * of visualizer/html/, embedded at build time (html_assets.h). */
#ifndef VIS_HTML_H
#define VIS_HTML_H

#include <stdio.h>
#include "model/analysis.h"
#include "model/profile.h"
#include "render/json.h"

/* The deepest tree level the page keeps (root 0): deeper frames add bytes
 * to no view and size to the page. */
#define VIS_HTML_MAX_DEPTH 40

/* Writes the page to out, reading the trees from in (the profile's file).
 * Returns 0, or -1 with a one-line err. */
int vis_html_write(FILE *out, const vis_profile *p, const vis_analysis *an,
                   const vis_chart_data *d, FILE *in,
                   const vis_json_report_opts *o, char *err, size_t errsz);

#endif
