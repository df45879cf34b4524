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

/* The page is written in three steps, so that main can load the profile
 * once per grouping between them and hold one extra grouping at a time:
 *
 * vis_html_begin: the head, the default grouping's document (p, an, d as
 * --group-by or the default rule grouped them) with the trees read from in
 * (the profile's file), and its timeline's columns.
 *
 * vis_html_grouping: one grouping the page's selector offers, the k-th
 * (0, 1, ...), in the order the selector lists them, one element of the
 * array in <script id="memtime-groups" type="application/json">: {"by",
 * "default", "data" (the document without "trees"), "columns" (the
 * timeline's columns), "snapshot_sites" (every detailed snapshot's sites
 * or groups, largest first, as [name, full name, bytes])}; for the default
 * grouping (is_default) "data" and "columns" are left out (the page has
 * them already). At least the default grouping is written.
 *
 * vis_html_end: the script that draws the page. Each returns 0, or -1
 * with a one-line err. */
int vis_html_begin(FILE *out, const vis_profile *p, const vis_analysis *an,
                   const vis_chart_data *d, FILE *in,
                   const vis_json_report_opts *o, char *err, size_t errsz);
int vis_html_grouping(FILE *out, const vis_profile *p, const vis_analysis *an,
                      const vis_chart_data *d, int is_default, size_t k, char *err,
                      size_t errsz);
int vis_html_end(FILE *out, char *err, size_t errsz);

#endif
