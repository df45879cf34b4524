/* html.c: the report page's frame (html.h). Everything the page shows comes
 * from the JSON documents (json.c, escaped for a <script> element: no '<',
 * '>', '&', U+2028/9 reaches the page raw), so no name from the profile is
 * ever written here as markup; the script inserts names as text. The page
 * forbids every network request by its Content-Security-Policy.
 *
 * The timeline's columns come from here, not from the script: chart_data's
 * one drawing rule (vis_chart_cols, the PNG's) evaluated for the page's
 * plot, one column per unit of its SVG's width, in a second document
 * (#memtime-columns, numbers only), so the page and the PNG draw the same
 * shape from the exact outline by the same code.
 *
 * The groupings the page's selector offers are one array in a third
 * document (#memtime-groups, vis_html_grouping): the same documents, made
 * from the profile as each grouping regrouped it, so the script switches
 * between data it holds and never builds a name itself. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "html_assets.h"
#include "model/groups.h"
#include "model/rss_series.h"
#include "model/sites.h"
#include "render/html.h"
#include "render/json.h"

/* The timeline's plot in the page's SVG coordinates (report.js draws its
 * axes around these): a viewBox 1000 wide, the plot from x 78 to 984. */
#define PLOT_X0 78
#define PLOT_X1 984

/* #memtime-columns: {"x0", "x1", "t0", "t1", "max", "exact", "footnote",
 * "cols": [[lo, hi, outside, band0, band1, ...] or 0 where nothing is
 * drawn, one per column], "rss": [[min, max] or 0, ...] or null,
 * "rss_max", "panel"}. "max" is the highest the main plot holds: the
 * heap's and, unless "panel" is 1, the RSS's; with "panel" (chart_data.h,
 * vis_chart_rss_panel) the RSS goes in a panel below, on one scale with
 * the heap up to "rss_max". "held": with the program's own allocator's
 * account (rss_series.h, vis_held_cols), [[heap top, heap top + what it
 * holds freed] or 0, ...], else null; "held_label" names it. */
static int columns_json(FILE *out, const vis_profile *p, const vis_chart_data *d)
{
    double t0, t1;
    size_t ncol = PLOT_X1 - PLOT_X0 + 1;
    vis_chart_time_range(p, &t0, &t1);
    vis_chart_cols *c = vis_chart_cols_new(p, d, t0, t1, ncol);
    vis_rss_series rss;
    if (!c || vis_rss_series_build(p, &rss) != 0) {
        vis_chart_cols_free(c);
        return -1;
    }
    size_t n_rss = 0;
    vis_piece *rp = vis_rss_pieces(p, &rss, 0, &n_rss);
    vis_col *rc = n_rss && n_rss != SIZE_MAX ? calloc(ncol, sizeof *rc) : NULL;
    if (n_rss == SIZE_MAX || (n_rss && !rc)) {
        free(rp);
        vis_rss_series_free(&rss);
        vis_chart_cols_free(c);
        return -1;
    }
    char foot[512];
    vis_chart_exactness(p, foot, sizeof foot);
    uint64_t max = c->max_B, rss_max = 0;
    fprintf(out, "{\"x0\": %d, \"x1\": %d, \"t0\": %.17g, \"t1\": %.17g, \"exact\": %d, \"footnote\": ",
            PLOT_X0, PLOT_X1, t0, t1, c->exact);
    vis_json_string(out, foot);
    fputs(",\n\"cols\": [", out);
    for (size_t k = 0; k < ncol; k++) {
        fputs(k ? (k % 8 ? "," : ",\n") : "", out);
        if (!c->drawn[k]) {
            fputc('0', out);
            continue;
        }
        fprintf(out, "[%" PRIu64 ",%" PRIu64 ",%" PRIu64, c->lo_B[k], c->hi_B[k], c->outside_B[k]);
        for (size_t b = 0; b < c->n_bands; b++)
            fprintf(out, ",%" PRIu64, c->band_B[k * c->n_bands + b]);
        fputc(']', out);
    }
    fputs("],\n\"rss\": ", out);
    if (rc) {
        vis_columns(rp, n_rss, t0, t1, ncol, 0.5, 1, (long)ncol - 1, rc);
        fputc('[', out);
        for (size_t k = 0; k < ncol; k++) {
            fputs(k ? (k % 8 ? "," : ",\n") : "", out);
            if (rc[k].has) {
                fprintf(out, "[%" PRIu64 ",%" PRIu64 "]", rc[k].min_B, rc[k].max_B);
                if (rc[k].max_B > rss_max)
                    rss_max = rc[k].max_B;
            } else {
                fputc('0', out);
            }
        }
        fputc(']', out);
    } else {
        fputs("null", out);
    }
    if (vis_rss_top(p, &rss) > rss_max)
        rss_max = vis_rss_top(p, &rss);
    int panel = rss.n && vis_chart_rss_panel(c->max_B, rss_max);
    if (!panel && rss_max > max)
        max = rss_max;
    fputs(",\n\"held\": ", out);
    vis_col *hc = rc && rss.show_held ? calloc(ncol, sizeof *hc) : NULL;
    if (hc && vis_held_cols(p, &rss, c, t0, t1, rc, hc) == 0) {
        fputc('[', out);
        for (size_t k = 0; k < ncol; k++) {
            fputs(k ? (k % 8 ? "," : ",\n") : "", out);
            if (hc[k].has)
                fprintf(out, "[%" PRIu64 ",%" PRIu64 "]", hc[k].min_B, hc[k].max_B);
            else
                fputc('0', out);
        }
        fputs("], \"held_label\": ", out);
        char label[128];
        snprintf(label, sizeof label, "%s holds freed (%s)", rss.held_name, rss.held_noun);
        vis_json_string(out, label);
    } else {
        fputs("null, \"held_label\": null", out);
    }
    free(hc);
    fprintf(out, ",\n\"max\": %" PRIu64 ", \"rss_max\": %" PRIu64 ", \"panel\": %d}\n", max, rss_max,
            panel);
    free(rc);
    free(rp);
    vis_rss_series_free(&rss);
    vis_chart_cols_free(c);
    return 0;
}

int vis_html_begin(FILE *out, const vis_profile *p, const vis_analysis *an,
                   const vis_chart_data *d, FILE *in,
                   const vis_json_report_opts *o, char *err, size_t errsz)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"color-scheme\" content=\"light dark\">\n"
          "<title>memtime report</title>\n<style>\n", out);
    fputs(vis_html_css, out);
    fputs("</style>\n</head>\n<body>\n<noscript><p>This memtime report draws itself with "
          "JavaScript; enable it to see the timeline.</p></noscript>\n"
          "<main id=\"app\"></main>\n<script id=\"memtime-data\" type=\"application/json\">\n",
          out);
    if (vis_json_report(out, p, an, d, in, o, err, errsz) != 0)
        return -1;
    fputs("</script>\n<script id=\"memtime-columns\" type=\"application/json\">\n", out);
    if (columns_json(out, p, d) != 0) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    fputs("</script>\n", out);
    return 0;
}

/* "snapshot_sites": each detailed snapshot's sites as the grouping made
 * them (the trees stay the file's; the table of top sites reads these). */
static int snapshot_sites(FILE *out, const vis_profile *p)
{
    fputs("\"snapshot_sites\": [", out);
    size_t n = 0;
    for (size_t i = 0; i < p->n_snaps; i++) {
        const vis_snapshot *s = &p->snaps[i];
        if (s->kind == VIS_TREE_EMPTY)
            continue;
        fprintf(out, "%s\n  {\"snapshot\": %zu, \"sites\": [", n++ ? "," : "", i);
        for (size_t k = 0; k < s->n_sites; k++) {
            const vis_site *st = &s->sites[k];
            fputs(k ? ", [" : "[", out);
            vis_json_string(out, vis_site_label_name(p, st->label));
            fputs(", ", out);
            vis_json_string(out, vis_site_label_full(p, st->label));
            fprintf(out, ", %" PRIu64 "]", st->bytes);
        }
        fputs("]}", out);
    }
    fputs(n ? "\n]" : "]", out);
    return 0;
}

int vis_html_grouping(FILE *out, const vis_profile *p, const vis_analysis *an,
                      const vis_chart_data *d, int is_default, size_t k, char *err,
                      size_t errsz)
{
    const vis_grouping *gr = &p->grouping;
    if (k == 0)
        fputs("<script id=\"memtime-groups\" type=\"application/json\">\n[", out);
    fprintf(out, "%s\n{\"by\": \"%s\", \"default\": %s,\n", k ? "," : "",
            vis_group_by_name(gr->applied ? gr->by : VIS_GROUP_SITE),
            is_default ? "true" : "false");
    if (!is_default) {
        vis_json_report_opts jo = { 0, 0, 1 };
        fputs("\"data\": ", out);
        if (vis_json_report(out, p, an, d, NULL, &jo, err, errsz) != 0)
            return -1;
        fputs(",\n\"columns\": ", out);
        if (columns_json(out, p, d) != 0)
            goto oom;
        fputs(",\n", out);
    }
    if (snapshot_sites(out, p) != 0)
        goto oom;
    fputs("}", out);
    return 0;
oom:
    snprintf(err, errsz, "out of memory");
    return -1;
}

int vis_html_end(FILE *out, char *err, size_t errsz)
{
    (void)err;
    (void)errsz;
    fputs("]\n</script>\n<script>\n", out);
    fputs(vis_html_js, out);
    fputs("</script>\n</body>\n</html>\n", out);
    return 0;
}
