/* gnuplot.c: the chart as a gnuplot script (vis_chart_write_gnuplot) and
 * rendered through the gnuplot program (vis_chart_render_gnuplot), for users
 * who want SVG, PDF or their own styling. The bands are chart_data's, the
 * same numbers as the PNG.
 *
 * The script is self-contained: the data sits inline in datablocks. What
 * it plots is chart_data's one drawing rule (vis_chart_cols, the PNG's and
 * the HTML page's), evaluated for as many columns as the plot is pixels
 * wide: $cols holds each column's left and right edge with its cumulative
 * band boundaries, the top of the memory above the samples (the exact
 * outline's highest) and the outline's lowest and highest, in bytes; so
 * a burst between snapshots is a spike at its true height and a sampled
 * step never holds above the outline. $data keeps the snapshots' own rows
 * (the CSV's numbers, already stepped: each holds until the next
 * snapshot's time, where a second row starts the new values). The layout is the PNG's:
 * the plot keeps a fixed share of the width, long names and titles are cut
 * to fit instead. The output file and its format are
 * variables with defaults, so one script also renders elsewhere:
 *   gnuplot -e 'out="timeline.pdf"' timeline.gp
 * With memtime's resident-memory readings $rss holds them, and $rsscols
 * the line per column by the same rule (the outline's RSS buckets when
 * the file has them): each reading held until the next, never a ramp; the
 * file-backed part ($filecols) dashed when it matters, and a light tint
 * from the RSS line down, drawn first so the opaque bands cover it: what
 * shows is the RSS the heap does not explain. */
#include "render/chart.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/outfile.h"
#include "base/units.h"
#include "model/chart_data.h"
#include "model/outline.h"
#include "model/rss_series.h"

/* Writes s as a gnuplot double-quoted string: backslash and quote escaped,
 * newlines as \\n, other control characters (never in a label, but a
 * file can hold anything) replaced by spaces. Text is printed with noenhanced, so no markup. */
static void put_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fputc('\\', f), fputc(ch, f);
        else if (ch == '\n')
            fputs("\\n", f);               /* the title's second line */
        else if (ch < 0x20 || ch == 0x7F)
            fputc(' ', f);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static const char *ext_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    return dot && (!slash || dot > slash) ? dot + 1 : "";
}

/* Layout, in fractions of the canvas, the same on every terminal so the
 * PNG's proportions hold: the plot keeps PLOT_R - PLOT_L of the width
 * whatever the names (they are cut to fit the key's column instead, which
 * starts at KEY_L), the title and subtitle are labels above it, cut at a
 * word boundary to the width. */
#define PLOT_L 0.065
#define PLOT_R 0.675
#define KEY_L  0.69
#define PLOT_T 0.87
#define PLOT_B 0.12
/* With the RSS panel: the main plot ends at PANEL_MAIN_B, the panel runs
 * from PANEL_T down to PLOT_B, its caption between. */
#define PANEL_MAIN_B 0.385
#define PANEL_T 0.33

/* Characters that fit in frac of the canvas width at a font of pt points on
 * the narrowest terminal: PDF (W/100 inches = W * 0.72 points), with an
 * average DejaVu Sans advance of 0.56 em (mixed-case text and digits). */
static size_t chars_fitting(int width_px, double frac, double pt)
{
    double n = frac * width_px * 0.72 / (pt * 0.56);
    return n < 8 ? 8 : (size_t)n;
}

/* Copies s into out cut to at most max characters: at the last word
 * boundary that fits, with " ..." (U+2026) after it; a first word too long
 * alone is cut inside. */
static void cut_words(const char *s, size_t max, char *out, size_t outsz)
{
    size_t total = 0, n = 0, i, last_space = 0;
    for (i = 0; s[i]; i++)
        total += ((unsigned char)s[i] & 0xC0) != 0x80;
    if (total <= max) {
        snprintf(out, outsz, "%s", s);
        return;
    }
    /* The words that end within max - 2 characters, then " ...". */
    for (i = 0; s[i]; i++) {
        if (((unsigned char)s[i] & 0xC0) == 0x80)
            continue;
        if (n + 2 >= max)
            break;
        if (s[i] == ' ' && i > 0 && s[i - 1] != ' ')
            last_space = i;
        n++;
    }
    snprintf(out, outsz, "%.*s \xE2\x80\xA6", (int)(last_space ? last_space : i), s);
}

/* Copies s into out cut to at most max characters by an ellipsis in its
 * middle (names: the end holds file:line). */
static void cut_middle(const char *s, size_t max, char *out, size_t outsz)
{
    size_t n = 0;
    for (const char *c = s; *c; c++)
        n += ((unsigned char)*c & 0xC0) != 0x80;
    if (n <= max || max < 5) {
        snprintf(out, outsz, "%s", s);
        return;
    }
    size_t head = (max - 1) * 2 / 5, tail = max - 1 - head, hb = 0, k = 0;
    for (; s[hb] && k < head; hb++)
        if ((((unsigned char)s[hb + 1]) & 0xC0) != 0x80)
            k++;
    const char *t = s + strlen(s);
    for (k = 0; t > s && k < tail;) {
        t--;
        if (((unsigned char)*t & 0xC0) != 0x80)
            k++;
    }
    snprintf(out, outsz, "%.*s\xE2\x80\xA6%s", (int)hb, s, t);
}

/* The whole script. default_out: where the image goes unless the caller of
 * gnuplot sets `out`; its extension picks the terminal unless `fmt` is set.
 * The data are the model's series in bytes and the file's time unit (the
 * CSV's numbers), cumulated per band; the plot scales them. */
/* Per-column values for one datablock: the columns' edges and the numbers. */
typedef struct {
    size_t ncol;
    vis_col *c;                 /* ncol, from vis_columns */
    uint64_t max_B;
} col_line;

/* A column's left and right edge in time, inside [t0, t1]. */
static void col_edges(double t0, double t1, size_t ncol, size_t k, double e[2])
{
    double dt = ncol > 1 ? (t1 - t0) / (double)(ncol - 1) : t1 - t0;
    e[0] = t0 + ((double)k - 0.5) * dt;
    e[1] = t0 + ((double)k + 0.5) * dt;
    for (int i = 0; i < 2; i++)
        e[i] = e[i] < t0 ? t0 : e[i] > t1 ? t1 : e[i];
}

/* A datablock of a line per column: "time min max", at both edges. */
static void put_col_line(FILE *f, const char *name, const col_line *l, double t0, double t1,
                         double tdiv, double ydiv)
{
    fprintf(f, "\n$%s << EOD\n", name);
    int broke = 1;
    for (size_t k = 0; k < l->ncol; k++) {
        if (!l->c[k].has) {
            /* A blank line ends the curve: a filled curve must not
             * bridge columns that have nothing. */
            if (!broke)
                fputc('\n', f);
            broke = 1;
            continue;
        }
        broke = 0;
        double e[2];
        col_edges(t0, t1, l->ncol, k, e);
        for (int i = 0; i < 2; i++)
            fprintf(f, "%.17g %.17g %.17g\n", e[i] / tdiv, (double)l->c[k].min_B / ydiv,
                    (double)l->c[k].max_B / ydiv);
    }
    fprintf(f, "EOD\n");
}

/* The RSS panel (with the panel rule, chart_data.h): below the main plot,
 * the heap's total (the outline's top per column, $cols) filled, the RSS
 * over it with the gap tinted, one scale for both, a dashed line where the
 * main plot's scale ends (main_top_B), the RSS peak labelled, a caption
 * above. The script is in multiplot mode; this ends it. */
/* What the program's allocator holds freed ($heldcols: the heap's top and
 * that plus the held bytes, per column), a titled band. */
static void put_held(FILE *f, const vis_rss_series *rss)
{
    const vis_rss_point *q = &rss->pts[rss->peak];
    char buf[256], at[32], top[32];
    vis_fmt_bytes(at, sizeof at, q->has_held ? q->held_B : 0);
    vis_fmt_bytes(top, sizeof top, rss->max_held_B);
    snprintf(buf, sizeof buf, "%s holds freed (%s)  [%s at the RSS peak, largest %s]",
             rss->held_name, rss->held_noun, at, top);
    if (strlen(buf) > 70)   /* the key's column: the numbers before the noun */
        snprintf(buf, sizeof buf, "%s holds freed  [%s at the RSS peak, largest %s]",
                 rss->held_name, at, top);
    fprintf(f, "  $heldcols using 1:2:3 with filledcurves fc rgb \"#e8a0bf\" title ");
    put_str(f, buf);
}

static void write_panel(FILE *f, const vis_profile *p, const vis_rss_series *rss, size_t nb,
                        uint64_t heap_top_B, uint64_t rp_B, vis_scale ys, vis_scale yr,
                        vis_scale ts, const char *ttitle, double main_top_B)
{
    const vis_rss_point *q = &rss->pts[rss->peak];
    char rb[32], buf[512], bytes[32];
    (void)ys;
    vis_fmt_bytes(rb, sizeof rb, q->total_B);
    fprintf(f, "\n# The RSS panel: heap and RSS on one scale.\nunset label\nunset arrow\n"
               "set tmargin at screen %.3f\nset bmargin at screen %.3f\nset format x \"%% h\"\n"
               "set xlabel ", PANEL_T, PLOT_B);
    put_str(f, ttitle);
    snprintf(buf, sizeof buf, "RSS, heap (%s)", yr.suffix);
    fprintf(f, "\nset ylabel ");
    put_str(f, buf);
    fprintf(f, "\nydiv = %.17g\nset yrange [0:%.17g]\nset ytics autofreq\n", yr.div,
            (double)(rp_B >= 8 ? rp_B : 8) * 1.08 / yr.div);
    fprintf(f, "set key at screen %.3f, screen %.3f left top vertical Left reverse noenhanced "
               "samplen 2 spacing 1.2 font \",9\"\n", KEY_L, PANEL_T);
    vis_chart_rss_peak_caption(p, q, 1, buf, sizeof buf);
    fprintf(f, "set label 7 ");
    put_str(f, buf);
    fprintf(f, " at screen %.3f, screen %.3f left font \",10\" tc rgb \"#6a1b9a\" front noenhanced\n",
            PLOT_L, PANEL_T + 0.015);
    fprintf(f, "set arrow from graph 0, first %.17g to graph 1, first %.17g nohead dt 2 lc rgb \"#666666\" front\n",
            main_top_B / yr.div, main_top_B / yr.div);
    vis_chart_panel_top_caption((uint64_t)main_top_B, buf, sizeof buf);
    fprintf(f, "set label 8 ");
    put_str(f, buf);
    fprintf(f, " at graph 0.01, first %.17g left offset 0,0.5 font \",8\" tc rgb \"#666666\" front noenhanced\n",
            main_top_B / yr.div);
    fprintf(f, "set label 4 ");
    snprintf(buf, sizeof buf, "RSS peak %s", rb);
    put_str(f, buf);
    fprintf(f, " at %.17g,%.17g point pt 6 ps 1.5 lc rgb \"#6a1b9a\" tc rgb \"#6a1b9a\" "
               "right offset -1,0.4 front noenhanced\n", (double)q->time / ts.div,
            (double)q->total_B / yr.div);
    fprintf(f, "plot \\\n");
    vis_fmt_bytes(bytes, sizeof bytes, q->total_B > q->heap_B ? q->total_B - q->heap_B : 0);
    snprintf(buf, sizeof buf, "RSS above the heap  [%s at the RSS peak]", bytes);
    fprintf(f, "  $rsscols using 1:3 with filledcurves y1=0 fc rgb \"#6a1b9a\" "
               "fs transparent solid 0.19 noborder title ");
    put_str(f, buf);
    vis_fmt_bytes(bytes, sizeof bytes, heap_top_B);
    snprintf(buf, sizeof buf, "heap total, the main plot's top line  [highest %s]", bytes);
    fprintf(f, ", \\\n  $cols using ($1/tdiv):($%zu/ydiv) with filledcurves y1=0 fc rgb \"#b8c4d0\" title ",
            nb + 5);
    put_str(f, buf);
    if (rss->show_held) {
        fprintf(f, ", \\\n");
        put_held(f, rss);
    }
    if (rss->show_file) {
        vis_fmt_bytes(bytes, sizeof bytes, q->file_B);
        snprintf(buf, sizeof buf, "file-backed part of the RSS  [%s at the RSS peak]", bytes);
        fprintf(f, ", \\\n  $filecols using 1:3 with lines dt 2 lc rgb \"#9c4dcc\" lw 2 title ");
        put_str(f, buf);
    }
    snprintf(buf, sizeof buf, "resident memory (RSS)  [peak %s]", rb);
    fprintf(f, ", \\\n  $rsscols using 1:2:3 with filledcurves fc rgb \"#6a1b9a\" notitle");
    fprintf(f, ", \\\n  $rsscols using 1:3 with lines lc rgb \"#6a1b9a\" lw 3 title ");
    put_str(f, buf);
    fprintf(f, "\nunset multiplot\n");
}

/* write_script's arguments, for vis_out_write. */
typedef struct {
    const vis_profile *p;
    const vis_chart_data *d;
    const vis_rss_series *rss;
    const vis_chart_cols *cols;
    const col_line *rcols, *fcols, *hcols;
    const vis_chart_opts *o;
    const char *default_out;
} script;

/* What every part of the script is placed by: the peak, the y ranges, the
 * scales (the RSS's is the panel's when it is drawn), the time range. */
typedef struct {
    const vis_snapshot *pk;     /* the peak */
    uint64_t heap_peak_B;       /* the largest total */
    uint64_t peak_B;            /* the y range: the heap's total and the RSS */
    uint64_t heap_top_B, rss_top_B;
    int panel;                  /* the RSS on a panel of its own */
    uint64_t rp_B;              /* the panel's top */
    double tfirst, tlast;
    vis_scale ys, yr, ts;
    char ttitle[96];            /* the time axis' title */
    char bytes[32], when[48];   /* the peak's total and time */
} frame;

static void frame_of(const script *s, frame *g)
{
    const vis_profile *p = s->p;
    const vis_rss_series *rss = s->rss;
    g->pk = &p->snaps[p->peak < p->n_snaps ? p->peak : 0];
    g->heap_peak_B = vis_snap_total(&p->snaps[p->largest < p->n_snaps ? p->largest : 0]);
    g->peak_B = g->heap_peak_B;
    if (s->cols->max_B > g->peak_B)           /* the exact outline's highest */
        g->peak_B = s->cols->max_B;
    g->heap_top_B = g->peak_B;
    g->rss_top_B = rss->max_total_B;
    if (s->rcols && s->rcols->max_B > g->rss_top_B)  /* the RSS buckets' */
        g->rss_top_B = s->rcols->max_B;
    /* Far above the heap, the RSS gets a panel of its own (chart_data.h). */
    g->panel = rss->n && vis_chart_rss_panel(g->heap_top_B, g->rss_top_B);
    if (!g->panel && g->rss_top_B > g->peak_B)
        g->peak_B = g->rss_top_B;
    g->rp_B = g->rss_top_B > g->heap_top_B ? g->rss_top_B : g->heap_top_B;
    vis_chart_time_range(p, &g->tfirst, &g->tlast);
    g->ys = vis_bytes_scale(g->peak_B >= 8 ? (double)g->peak_B : 8);
    /* The RSS's datablocks are in the panel's unit when it is drawn. */
    g->yr = g->panel ? vis_bytes_scale(g->rp_B >= 8 ? (double)g->rp_B : 8) : g->ys;
    g->ts = vis_time_scale(p->unit, g->tlast > 0 ? g->tlast : 1);
    vis_time_title(p->unit, g->ts, g->ttitle, sizeof g->ttitle);
    vis_fmt_bytes(g->bytes, sizeof g->bytes, vis_snap_total(g->pk));
    vis_fmt_time(g->when, sizeof g->when, p->unit, g->pk->time);
}

/* The script's head: what it is, and the terminal for the output's format. */
static void put_terminal(FILE *f, const script *s)
{
    const vis_chart_opts *o = s->o;
    fprintf(f, "# Memory timeline drawn by memtime-vis from ");
    put_str(f, s->p->path ? s->p->path : "(profile)");
    fprintf(f, "\n# Self-contained (data inline). Run: gnuplot THIS_FILE\n"
               "# Other output: gnuplot -e 'out=\"timeline.pdf\"' THIS_FILE (svg, pdf or png)\n"
               "# Data: time (file unit), then the bands' cumulative bytes, bottom first: the\n"
               "# numbers of memtime-vis -o NAME.csv. Between trees no site exceeds its larger\n"
               "# value in them; what the trees cannot attribute is the hatched band.\n\n");
    fprintf(f, "if (!exists(\"out\")) out = ");
    put_str(f, s->default_out);
    fprintf(f, "\nif (!exists(\"fmt\")) fmt = (strlen(out) > 4 ? out[strlen(out)-2:] : \"svg\")\n");
    /* out[strlen-2:] is the last three characters: "svg", "pdf", "png". */
    fprintf(f, "if (fmt eq \"pdf\") {\n"
               "    set terminal pdfcairo size %.2fin,%.2fin font \"DejaVu Sans,10\" noenhanced\n"
               "} else { if (fmt eq \"png\") {\n"
               "    set terminal pngcairo size %d,%d font \"DejaVu Sans,10\" noenhanced\n"
               "} else {\n"
               "    set terminal svg size %d,%d dynamic font \"DejaVu Sans,12\" noenhanced background rgb \"white\"\n"
               "} }\n"
               "set output out\n\n",
            o->width / 100.0, o->height / 100.0, o->width, o->height, o->width, o->height);
}

/* The captions, as the PNG's: the title and subtitle left-aligned above
 * the plot, the axes' titles, the key's column and its heading, the
 * footnote. */
static void put_captions(FILE *f, const script *s, const frame *g)
{
    const vis_profile *p = s->p;
    const vis_chart_opts *o = s->o;
    char exact[256], buf[2048], cut[2048];
    vis_chart_exactness(p, exact, sizeof exact);
    exact[0] = (char)(exact[0] - 'a' + 'A');
    fprintf(f, "set lmargin at screen %.3f\nset rmargin at screen %.3f\n"
               "set tmargin at screen %.3f\nset bmargin at screen %.3f\n", PLOT_L, PLOT_R, PLOT_T, PLOT_B);
    cut_words(p->cmd && p->cmd[0] ? p->cmd : "(unknown command)",
              chars_fitting(o->width, 0.97, 15), cut, sizeof cut);
    fprintf(f, "set label 1 ");
    put_str(f, cut);
    fprintf(f, " at screen 0.015, screen 0.965 left font \",15\" front noenhanced\n");
    int n = snprintf(buf, sizeof buf, "Peak %s at %s (snapshot %u of %zu)", g->bytes, g->when,
                     g->pk->index, p->n_snaps);
    if (p->largest != p->peak && p->largest < p->n_snaps) {
        char lb[32], lw[48];
        n += snprintf(buf + n, sizeof buf - (size_t)n, "; largest total %s at %s (snapshot %u)",
                      vis_fmt_bytes(lb, sizeof lb, vis_snap_total(&p->snaps[p->largest])),
                      vis_fmt_time(lw, sizeof lw, p->unit, p->snaps[p->largest].time),
                      p->snaps[p->largest].index);
    }
    snprintf(buf + n, sizeof buf - (size_t)n, "%s", p->truncated ? ". File cut short."
             : p->companion_cut_line ? ". Companion cut short."
             : p->end_record == VIS_END_RECORD_RUNNING ? ". Not at exit: killed, or still running." : "");
    cut_words(buf, chars_fitting(o->width, 0.97, 11), cut, sizeof cut);
    fprintf(f, "set label 2 ");
    put_str(f, cut);
    fprintf(f, " at screen 0.015, screen 0.925 left font \",11\" tc rgb \"#666666\" front noenhanced\n");
    fprintf(f, "set xlabel ");
    put_str(f, g->ttitle);
    snprintf(buf, sizeof buf, "memory (%s)", g->ys.suffix);
    fprintf(f, "\nset ylabel ");
    put_str(f, buf);
    /* The key in its own column right of the plot, one band a line. */
    fprintf(f, "\nset key at screen %.3f, screen %.3f left top vertical Left reverse noenhanced "
               "samplen 2 spacing 1.2 font \",9\"\n", KEY_L, PLOT_T - 0.03);
    fprintf(f, "set label 6 \"by %s  [value at the peak]\" at screen %.3f, screen %.3f left font \",9\" "
               "tc rgb \"#666666\" front noenhanced\n", vis_chart_group_noun(p, 0), KEY_L + 0.005, PLOT_T - 0.01);
    /* The footnote: what the hatch is and how to get more trees. */
    snprintf(buf, sizeof buf, "%s. %s%s%s", exact, p->n_detailed
             ? "Between two trees a site never exceeds its larger value in them. Hatched grey: heap the "
               "trees cannot attribute (more trees: --detailed-freq=1). "
             : "No snapshot has a tree: the heap is not broken down by site. ",
             s->cols->exact ? "Hatched orange: heap the exact outline shows above the samples. " : "",
             p->path ? p->path : "");
    cut_words(buf, chars_fitting(o->width, 0.97, 8), cut, sizeof cut);
    fprintf(f, "set label 5 ");
    put_str(f, cut);
    fprintf(f, " at screen 0.015, screen 0.015 left font \",8\" tc rgb \"#666666\" front noenhanced\n");
}

/* The grid, the axes and their ranges. */
static void put_axes(FILE *f, const frame *g)
{
    fprintf(f, "set grid ytics lc rgb \"#e2e2e2\" lt 1\n"
               "set border 3\nset tics nomirror\nset style fill solid 1.0 noborder\n"
               "ydiv = %.17g\ntdiv = %.17g\n"
               "set xrange [%.17g:%.17g]\nset yrange [0:%.17g]\n\n",
            g->ys.div, g->ts.div, g->tfirst / g->ts.div, g->tlast / g->ts.div,
            (double)(g->peak_B >= 8 ? g->peak_B : 8) * 1.08 / g->ys.div);
}

/* The peak (a red line up to the total, a labelled point), the phase
 * marks (dashed lines, labels staggered down from the top) and, without
 * the panel, the RSS peak (a ring on the RSS line, labelled). */
static void put_annotations(FILE *f, const script *s, const frame *g)
{
    const vis_profile *p = s->p;
    char buf[2048];
    double tp = (double)g->pk->time / g->ts.div, vp = (double)vis_snap_total(g->pk) / g->ys.div;
    fprintf(f, "set arrow from %.17g,0 to %.17g,%.17g nohead lc rgb \"#d62728\" lw 2 front\n", tp, tp, vp);
    vis_chart_peak_caption(p, buf, sizeof buf);
    fprintf(f, "set label 3 ");
    put_str(f, buf);
    /* Right of the point, or left of it in the right half (the key is there). */
    int left = g->tlast > 0 && (double)g->pk->time > 0.5 * g->tlast;
    fprintf(f, " at %.17g,%.17g point pt 7 ps 1.2 lc rgb \"#d62728\" tc rgb \"#d62728\" "
               "%s offset %s,0.6 front noenhanced\n", tp, vp, left ? "right" : "left", left ? "-1" : "1");
    for (size_t m = 0; m < p->n_marks; m++) {
        double tm = (double)p->marks[m].time / g->ts.div;
        fprintf(f, "set arrow from %.17g,graph 0 to %.17g,graph 1 nohead dt 2 lc rgb \"#505050\" front\n",
                tm, tm);
        fprintf(f, "set label ");
        put_str(f, p->marks[m].label ? p->marks[m].label : "mark");
        fprintf(f, " at %.17g,graph %.3f offset 0.5,0 tc rgb \"#505050\" front noenhanced\n",
                tm, 0.97 - 0.04 * (double)(m % 4));
    }
    if (s->rss->n && !g->panel) {   /* with the panel: on it, after the main plot */
        const vis_rss_point *q = &s->rss->pts[s->rss->peak];
        vis_chart_rss_peak_caption(p, q, 0, buf, sizeof buf);
        fprintf(f, "set label 4 ");
        put_str(f, buf);
        fprintf(f, " at %.17g,%.17g point pt 6 ps 1.5 lc rgb \"#6a1b9a\" tc rgb \"#6a1b9a\" "
                   "right offset -1,0.6 front noenhanced\n", (double)q->time / g->ts.div,
                (double)q->total_B / g->yr.div);
    }
}

/* The datablocks: the RSS readings ($rss), the snapshots' rows ($data),
 * the plot's columns ($cols) and the RSS, file-backed and held lines per
 * column. */
static void put_data(FILE *f, const script *s, const frame *g)
{
    const vis_profile *p = s->p;
    const vis_rss_series *rss = s->rss;
    const vis_chart_cols *cols = s->cols;
    if (rss->n) {
        /* Readings: time, RSS, its file-backed part. */
        fprintf(f, "\n$rss << EOD\n");
        for (size_t i = 0; i < rss->n; i++)
            fprintf(f, "%.17g %.17g %.17g\n", (double)rss->pts[i].time / g->ts.div,
                    (double)rss->pts[i].total_B / g->yr.div, (double)rss->pts[i].file_B / g->yr.div);
        fprintf(f, "EOD\n");
    }
    /* Data: time, then the cumulative boundaries c0=0, c1, ..., cN, in the
     * file's units; each snapshot's values hold until the next one's time,
     * where a second row at the same time starts them. */
    fprintf(f, "\n$data << EOD\n");
    size_t nb = s->d->n_bands;
    for (size_t i = 0; i < p->n_snaps; i++) {
        for (int rep = i > 0 ? 0 : 1; rep < 2; rep++) {
            size_t row = rep ? i : i - 1;     /* the step: old values, then new */
            uint64_t cum = 0;
            fprintf(f, "%" PRIu64 " 0", p->snaps[i].time);
            for (size_t b = 0; b < nb; b++) {
                cum += s->d->value_B[row * nb + b];
                fprintf(f, " %" PRIu64, cum);
            }
            fputc('\n', f);
        }
    }
    fprintf(f, "EOD\n");
    /* The columns the plot draws: left and right edge of each, time in
     * the file's unit, then bytes: 0, the bands' cumulative boundaries,
     * the top (above the samples), the outline's lowest and highest. */
    fprintf(f, "\n# cols: %zu columns from %.17g to %.17g\n$cols << EOD\n", cols->ncol, g->tfirst, g->tlast);
    for (size_t k = 0; k < cols->ncol; k++) {
        if (!cols->drawn[k])
            continue;
        double e[2];
        col_edges(g->tfirst, g->tlast, cols->ncol, k, e);
        for (int i = 0; i < 2; i++) {
            uint64_t cum = 0;
            fprintf(f, "%.17g 0", e[i]);
            for (size_t b = 0; b < nb; b++) {
                cum += cols->band_B[k * nb + b];
                fprintf(f, " %" PRIu64, cum);
            }
            fprintf(f, " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", cum + cols->outside_B[k],
                    cols->lo_B[k], cols->hi_B[k]);
        }
    }
    fprintf(f, "EOD\n");
    if (s->rcols)
        put_col_line(f, "rsscols", s->rcols, g->tfirst, g->tlast, g->ts.div, g->yr.div);
    if (s->fcols)
        put_col_line(f, "filecols", s->fcols, g->tfirst, g->tlast, g->ts.div, g->yr.div);
    if (s->hcols)
        put_col_line(f, "heldcols", s->hcols, g->tfirst, g->tlast, g->ts.div, g->yr.div);
}

/* The main plot's series: the RSS's tint (without the panel), the bands
 * with their key lines, the memory above the samples, the outline, the
 * total; then the RSS panel, or the RSS lines on the main plot. */
static void put_plot(FILE *f, const script *s, const frame *g)
{
    const vis_profile *p = s->p;
    const vis_chart_data *d = s->d;
    const vis_rss_series *rss = s->rss;
    const vis_chart_cols *cols = s->cols;
    char bytes[32], buf[2048];
    size_t nb = d->n_bands;
    if (g->panel)      /* the main plot above the panel, its time axis there */
        fprintf(f, "\nset multiplot\nset bmargin at screen %.3f\nset format x \"\"\n"
                   "set xlabel \"\"\n", PANEL_MAIN_B);
    fprintf(f, "\nplot \\\n");
    if (rss->n && !g->panel) {
        const vis_rss_point *q = &rss->pts[rss->peak];
        vis_fmt_bytes(bytes, sizeof bytes, q->total_B > q->heap_B ? q->total_B - q->heap_B : 0);
        snprintf(buf, sizeof buf, "RSS above the heap  [%s at the RSS peak]", bytes);
        fprintf(f, "  $rsscols using 1:3 with filledcurves y1=0 fc rgb \"#6a1b9a\" "
                   "fs transparent solid 0.19 noborder title ");
        put_str(f, buf);
        fprintf(f, ", \\\n");
        if (rss->show_held && s->hcols) {
            put_held(f, rss);
            fprintf(f, ", \\\n");
        }
    }
    size_t key_chars = chars_fitting(s->o->width, 1 - KEY_L - 0.01, 9) - 4;
    for (size_t b = 0; b < nb; b++) {
        vis_fmt_bytes(bytes, sizeof bytes, d->bands[b].peak_B);
        snprintf(buf, sizeof buf, "%s  [%s]", d->bands[b].label, bytes);
        if (strlen(buf) > key_chars)     /* the value goes before the name does */
            cut_middle(d->bands[b].label, key_chars, buf, sizeof buf);
        fprintf(f, "  $cols using ($1/tdiv):($%zu/ydiv):($%zu/ydiv) with filledcurves fc rgb \"#%06X\"%s title ",
                b + 2, b + 3, (unsigned)d->bands[b].colour,
                d->bands[b].kind == VIS_BAND_UNATTRIBUTED ? " fs transparent pattern 5" : "");
        put_str(f, buf);
        fprintf(f, ", \\\n");
    }
    if (cols->exact) {
        fprintf(f, "  $cols using ($1/tdiv):($%zu/ydiv):($%zu/ydiv) with filledcurves fc rgb \"#d9703c\" "
                   "fs transparent pattern 4 title ", nb + 2, nb + 3);
        put_str(f, VIS_CHART_ABOVE_SAMPLES);
        fprintf(f, ", \\\n");
    }
    /* The outline: its range in each column, and its top as a line. */
    fprintf(f, "  $cols using ($1/tdiv):($%zu/ydiv):($%zu/ydiv) with filledcurves fc rgb \"#1a1a1a\" "
               "notitle, \\\n", nb + 4, nb + 5);
    vis_fmt_bytes(bytes, sizeof bytes, g->heap_peak_B > cols->max_B ? g->heap_peak_B : cols->max_B);
    snprintf(buf, sizeof buf, "total (heap + extra + stacks)%s  [%s]",
             cols->exact ? ", the exact outline" : "", bytes);
    /* Thin with the outline: a burst is a spike a pixel wide, and spikes
     * every few pixels must not merge into a block. */
    fprintf(f, "  $cols using ($1/tdiv):($%zu/ydiv) with lines lc rgb \"#1a1a1a\" lw %d title ", nb + 5,
            cols->exact ? 1 : 2);
    put_str(f, buf);
    if (g->panel) {
        fprintf(f, "\n");
        write_panel(f, p, rss, nb, g->heap_top_B, g->rp_B, g->ys, g->yr, g->ts, g->ttitle,
                    (double)(g->peak_B >= 8 ? g->peak_B : 8) * 1.08);
        return;
    }
    if (rss->n) {
        const vis_rss_point *q = &rss->pts[rss->peak];
        if (rss->show_file) {
            vis_fmt_bytes(bytes, sizeof bytes, q->file_B);
            snprintf(buf, sizeof buf, "file-backed part of the RSS  [%s at the RSS peak]", bytes);
            fprintf(f, ", \\\n  $filecols using 1:3 with lines dt 2 lc rgb \"#9c4dcc\" lw 2 title ");
            put_str(f, buf);
        }
        vis_fmt_bytes(bytes, sizeof bytes, q->total_B);
        snprintf(buf, sizeof buf, "resident memory (RSS)  [peak %s]", bytes);
        fprintf(f, ", \\\n  $rsscols using 1:2:3 with filledcurves fc rgb \"#6a1b9a\" notitle");
        fprintf(f, ", \\\n  $rsscols using 1:3 with lines lc rgb \"#6a1b9a\" lw 3 title ");
        put_str(f, buf);
    }
    fprintf(f, "\n");
}

/* The whole script, part by part. */
static void write_script(FILE *f, const script *s)
{
    frame g;
    frame_of(s, &g);
    put_terminal(f, s);
    put_captions(f, s, &g);
    put_axes(f, &g);
    put_annotations(f, s, &g);
    put_data(f, s, &g);
    put_plot(f, s, &g);
}

static int write_script_to(FILE *f, void *ctx, char *err, size_t errsz)
{
    const script *s = ctx;
    (void)err;
    (void)errsz;
    write_script(f, s);
    return 0;
}

/* Writes the script atomically (outfile.h). */
static int write_script_file(const vis_profile *p, const vis_chart_opts *o,
                             const char *path, const char *default_out,
                             char *err, size_t errsz)
{
    if (vis_chart_opts_check(o, err, errsz))
        return -1;
    vis_chart_data *d = vis_chart_data_new(p, (size_t)o->top_n, err, errsz);
    if (!d)
        return -1;
    vis_rss_series rss;
    if (vis_rss_series_build(p, &rss) != 0) {
        snprintf(err, errsz, "out of memory");
        vis_chart_data_free(d);
        return -1;
    }
    /* As many columns as the plot is pixels wide on the PNG and SVG
     * terminals. */
    double t0, t1;
    vis_chart_time_range(p, &t0, &t1);
    size_t ncol = (size_t)(o->width * (PLOT_R - PLOT_L));
    vis_chart_cols *cols = vis_chart_cols_new(p, d, t0, t1, ncol);
    col_line lines[2] = { { ncol, NULL, 0 }, { ncol, NULL, 0 } };
    int ok = cols != NULL;
    for (int i = 0; i < 2 && ok && rss.n; i++) {
        size_t n = 0;
        vis_piece *pc = vis_rss_pieces(p, &rss, i, &n);
        lines[i].c = calloc(ncol, sizeof *lines[i].c);
        ok = n != SIZE_MAX && lines[i].c;
        if (ok) {
            vis_columns(pc, n, t0, t1, ncol, 0.5, 1, (long)ncol - 1, lines[i].c);
            for (size_t k = 0; k < ncol; k++)
                if (lines[i].c[k].has && lines[i].c[k].max_B > lines[i].max_B)
                    lines[i].max_B = lines[i].c[k].max_B;
        }
        free(pc);
    }
    /* What the program's allocator holds freed, on the heap's top. */
    col_line held = { ncol, NULL, 0 };
    if (ok && rss.show_held) {
        held.c = calloc(ncol, sizeof *held.c);
        ok = held.c && vis_held_cols(p, &rss, cols, t0, t1, lines[0].c, held.c) == 0;
    }
    int rc = -1;
    if (!ok) {
        snprintf(err, errsz, "out of memory");
    } else {
        script s = { p, d, &rss, cols, rss.n ? &lines[0] : NULL,
                     rss.n && rss.show_file ? &lines[1] : NULL, held.c ? &held : NULL, o, default_out };
        rc = vis_out_write(path, "w", write_script_to, &s, err, errsz);
    }
    free(held.c);
    free(lines[0].c);
    free(lines[1].c);
    vis_chart_cols_free(cols);
    vis_chart_data_free(d);
    vis_rss_series_free(&rss);
    return rc;
}

int vis_chart_write_gnuplot(const vis_profile *p, const vis_chart_opts *o,
                            const char *script_path, const char *image_path,
                            char *err, size_t errsz)
{
    /* Without an image path the script draws "<its base name>.svg" in the
     * directory gnuplot runs in, so a copied script still works. */
    char def[4096];
    if (image_path)
        snprintf(def, sizeof def, "%s", image_path);
    else {
        const char *base = strrchr(script_path, '/');
        base = base ? base + 1 : script_path;
        const char *e = ext_of(base);
        size_t stem = e[0] ? (size_t)(e - base - 1) : strlen(base);
        snprintf(def, sizeof def, "%.*s.svg", (int)stem, base);
    }
    return write_script_file(p, o, script_path, def, err, errsz);
}

/* Is an executable named name in one of PATH's directories? */
static int on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/bin:/bin";
    while (*path) {
        size_t n = strcspn(path, ":");
        char full[4096];
        snprintf(full, sizeof full, "%.*s/%s", (int)(n ? n : 1), n ? path : ".", name);
        if (access(full, X_OK) == 0)
            return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

/* Runs gnuplot on script with `out` and `fmt` set; 0 on success, else -1
 * with gnuplot's first error line in err. stdin is /dev/null, so gnuplot
 * can never wait for input. */
static int run_gnuplot(const char *script, const char *out, const char *fmt,
                       char *err, size_t errsz)
{
    size_t cap = strlen(out) * 2 + 64;
    char *setvars = malloc(cap);
    if (!setvars) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    /* out="...": escape for a gnuplot double-quoted string. */
    char *w = setvars + sprintf(setvars, "out=\"");
    for (const char *s = out; *s; s++) {
        if (*s == '"' || *s == '\\')
            *w++ = '\\';
        *w++ = *s;
    }
    sprintf(w, "\"; fmt=\"%s\"", fmt);

    int pipefd[2];
    if (pipe(pipefd) != 0) {
        snprintf(err, errsz, "cannot run gnuplot: %s", strerror(errno));
        free(setvars);
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errsz, "cannot run gnuplot: %s", strerror(errno));
        close(pipefd[0]);
        close(pipefd[1]);
        free(setvars);
        return -1;
    }
    if (pid == 0) {
        int nul = open("/dev/null", O_RDWR);
        if (nul >= 0) {
            dup2(nul, 0);
            dup2(nul, 1);
        }
        dup2(pipefd[1], 2);
        close(pipefd[0]);
        close(pipefd[1]);
        execlp("gnuplot", "gnuplot", "-e", setvars, script, (char *)NULL);
        _exit(127);
    }
    free(setvars);
    close(pipefd[1]);
    char msg[1024];
    size_t got = 0;
    for (;;) {                      /* drain all of it; keep the start */
        char chunk[512];
        ssize_t r = read(pipefd[0], chunk, sizeof chunk);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        size_t take = (size_t)r < sizeof msg - 1 - got ? (size_t)r : sizeof msg - 1 - got;
        memcpy(msg + got, chunk, take);
        got += take;
    }
    msg[got] = '\0';
    close(pipefd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            snprintf(err, errsz, "cannot run gnuplot: %s", strerror(errno));
            return -1;
        }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    /* gnuplot's message: its last non-empty line names the problem. */
    char *line = msg, *best = NULL;
    for (char *nl; line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        if (strspn(line, " \t^") != strlen(line))
            best = line;
    }
    snprintf(err, errsz, "gnuplot failed (%s%d)%s%s",
             WIFEXITED(status) ? "exit status " : "signal ",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
             best ? ": " : "", best ? best : "");
    return -1;
}

int vis_chart_render_gnuplot(const vis_profile *p, const vis_chart_opts *o,
                             const char *image_path, char *err, size_t errsz)
{
    const char *ext = ext_of(image_path);
    if (strcmp(ext, "svg") && strcmp(ext, "pdf") && strcmp(ext, "png")) {
        snprintf(err, errsz, "%s: gnuplot output must end in .svg, .pdf or .png", image_path);
        return -1;
    }
    if (vis_chart_opts_check(o, err, errsz))
        return -1;
    if (!on_path("gnuplot")) {
        snprintf(err, errsz, "cannot write %s: gnuplot is not installed (on Debian/Ubuntu: "
                 "apt-get install gnuplot-nox); --gnuplot FILE.gp writes a script to run elsewhere",
                 image_path);
        return -1;
    }
    /* Image and script both go to temporaries beside the image; only a
     * complete image is renamed into place. */
    if (vis_out_is_special(image_path)) {
        snprintf(err, errsz, "cannot write %s: gnuplot output must be a regular file", image_path);
        return -1;
    }
    char tmp_img[4096], tmp_gp[4096 + 8];
    int fd = vis_tmp_beside(image_path, tmp_img, sizeof tmp_img, err, errsz);
    if (fd < 0)
        return -1;
    close(fd);
    snprintf(tmp_gp, sizeof tmp_gp, "%s.gp", tmp_img);
    int rc = write_script_file(p, o, tmp_gp, tmp_img, err, errsz);
    if (rc == 0)
        rc = run_gnuplot(tmp_gp, tmp_img, ext, err, errsz);
    struct stat st;
    if (rc == 0 && (stat(tmp_img, &st) != 0 || st.st_size == 0)) {
        snprintf(err, errsz, "gnuplot wrote nothing to %s", image_path);
        rc = -1;
    }
    if (rc == 0)
        rc = vis_tmp_install(tmp_img, image_path, err, errsz);
    unlink(tmp_gp);
    if (rc)
        unlink(tmp_img);
    return rc;
}
