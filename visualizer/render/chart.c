/* chart.c: the timeline chart's layout and drawing (what goes where), for
 * vis_chart_write_png. The numbers come from chart_data (bands), the units
 * from units, pixels go to a canvas, text through font, the file
 * through png_file.
 *
 * Layout, top to bottom: title (the command), subtitle (peak, when, time
 * unit), an annotation strip holding the peak and phase-mark labels (so no
 * label ever covers data), the plot, the time axis and its title, and a
 * footnote stating how sites are held between detailed snapshots. The legend
 * sits right of the plot (below it on narrow images).
 *
 * The plot follows chart_data's one drawing rule per pixel column
 * (vis_chart_cols): with memtime's exact outline a column's top is the
 * highest total of the outline's buckets overlapping it, so a burst is a
 * spike at its true height; the bands are the snapshot in effect (the
 * largest total among those in the column, so no sampled peak disappears at
 * any width), cut where the outline contradicts them, and heap the outline
 * shows above them is hatched orange; the total line spans each column's
 * lowest to highest. Without an outline it is the stacked step chart of the
 * snapshots (a value holds until the next). Heap the trees cannot attribute
 * is hatched grey.
 *
 * With memtime's resident-memory readings (--rss=yes) the program's RSS is a
 * line over the stack (each reading held until the next, by the same column
 * rule; from the outline's RSS buckets when the file has them), its
 * file-backed part a dashed line when it matters, and the room between the
 * heap's top and the RSS line is tinted: memory the heap does not explain.
 * Under --allocator=program the part of that gap the program's allocator
 * says it holds freed (jemalloc's dirty and muzzy pages, tcmalloc's free
 * pages and cached blocks, mimalloc's commit beyond the heap, glibc's free
 * chunks) is a band of its own on the heap's top, named in the legend.
 *
 * vis_chart_opts.layout returns the data-to-pixel mapping as text (main.c
 * prints it with MEMTIME_VIS_DEBUG_LAYOUT=1 for the pixel tests; format in
 * describe_layout()). */
#include "model/label.h"
#include "model/names.h"
#include "model/sites.h"
#include "render/chart.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/canvas.h"
#include "base/font.h"
#include "base/png_file.h"
#include "base/units.h"
#include "model/chart_data.h"
#include "model/growth.h"
#include "model/outline.h"
#include "model/profile.h"
#include "model/rss_series.h"
#include "base/units.h"
#include "render/plot.h"


#define COLOUR_TOTAL   0x1A1A1A
#define COLOUR_WARN    0xB22222
#define COLOUR_RSS     0x6A1B9A    /* resident memory: a purple no band uses */
#define COLOUR_RSS_FILE 0x9C4DCC
#define ALPHA_RSS_GAP  48          /* the tint between heap and RSS */
/* What the program's own allocator holds freed (--allocator=program): a
 * rose no band, the RSS or its tint uses, opaque so the band reads as the
 * part of the gap its allocator explains. */
#define COLOUR_HELD    0xE8A0BF
#define COLOUR_HATCH_BG 0xF2F2F2
#define COLOUR_PANEL_HEAP 0xB8C4D0 /* the heap's total in the RSS panel */
/* Heap the exact outline shows above the sampled bands: a burst no tree
 * saw, growth since the last sample. A warm hatch no band uses. */
#define COLOUR_OUTSIDE    0xD9703C
#define COLOUR_OUTSIDE_BG 0xFBE3D6

void vis_chart_opts_default(vis_chart_opts *o)
{
    o->width = 1600;
    o->height = 900;
    o->top_n = 8;
    o->layout = NULL;
    o->growth = NULL;
}

int vis_chart_opts_check(const vis_chart_opts *o, char *err, size_t errsz)
{
    if (o->width < VIS_CHART_MIN_WIDTH || o->width > VIS_CHART_MAX_PX
        || o->height < VIS_CHART_MIN_HEIGHT || o->height > VIS_CHART_MAX_PX) {
        snprintf(err, errsz, "chart size %dx%d out of range: width must be %d..%d, height %d..%d",
                 o->width, o->height, VIS_CHART_MIN_WIDTH, VIS_CHART_MAX_PX,
                 VIS_CHART_MIN_HEIGHT, VIS_CHART_MAX_PX);
        return -1;
    }
    if (o->top_n < VIS_TOP_MIN || o->top_n > VIS_TOP_MAX) {
        snprintf(err, errsz, "--top %d out of range: must be %d..%d", o->top_n, VIS_TOP_MIN,
                 VIS_TOP_MAX);
        return -1;
    }
    return 0;
}

/* ---- geometry ------------------------------------------------------------ */

typedef struct {
    vis_canvas *cv;
    vis_font *reg, *bold;
    const vis_profile *p;
    const vis_chart_data *d;
    double s;                  /* scale against 1600x900 */
    int fs_title, fs_sub, fs, fs_small;
    int pad;
    /* plot area, inclusive pixel bounds of the data */
    int x0, y0, x1, y1;
    double t0, t1;             /* time at x0 and x1 */
    double ymax_B;             /* bytes at y0; 0 at y1 */
    double ystep_B;
    vis_scale yscale, tscale;
    double tstep;
    vis_rss_series rss;        /* resident memory, n == 0 without readings */
    /* The RSS panel (chart_data.h, vis_chart_rss_panel): the RSS and the
     * heap on one scale below the main plot, which then holds the heap
     * alone on its own scale. Its rows and axis, swapped with the main
     * plot's by swap_axis while it is drawn. */
    int panel;
    int ry0, ry1;
    double rymax_B, rystep_B;
    vis_scale ryscale;
    vis_chart_cols *cols;      /* per plot column: the one drawing rule */
    char foot[2][1024];        /* the footnote's two lines, for the layout */
    char foot_drawn[3][1024];  /* as drawn: fitted, the second wrapped */
    int n_foot;                /* lines drawn: 2 or 3 */
    char **layout_out;         /* where to describe the layout, or NULL */
    const vis_growth *growth;  /* --growth, or NULL */
} chart;

static int px(const chart *c, double v)
{
    int r = (int)lround(v * c->s);
    return r < 1 ? 1 : r;
}

static int x_of(const chart *c, double t)
{
    return vis_plot_x(c->x0, c->x1, c->t0, c->t1, t);
}

static int y_of(const chart *c, double bytes)
{
    return vis_plot_y(c->y0, c->y1, c->ymax_B, bytes);
}

/* Makes the RSS panel's rows and scale the current ones (y_of, the y
 * axis), or back. */
static void swap_axis(chart *c)
{
    int t = c->y0; c->y0 = c->ry0; c->ry0 = t;
    t = c->y1; c->y1 = c->ry1; c->ry1 = t;
    double d = c->ymax_B; c->ymax_B = c->rymax_B; c->rymax_B = d;
    d = c->ystep_B; c->ystep_B = c->rystep_B; c->rystep_B = d;
    vis_scale s = c->yscale; c->yscale = c->ryscale; c->ryscale = s;
}

static int line_h(chart *c, int size)
{
    int a, d;
    vis_font_metrics(c->reg, size, &a, &d);
    return a + d;
}

static int ascent(chart *c, int size)
{
    int a, d;
    vis_font_metrics(c->reg, size, &a, &d);
    return a;
}

/* ---- axes ------------------------------------------------------------------- */

/* --heap-limit is drawn when it was reached or lies within a quarter above
 * the data: a far-off limit would flatten the chart to say nothing. */
static int limit_drawn(const vis_profile *p, double data_max_B)
{
    return p->limit.present
           && (p->limit.reached || (double)p->limit.bytes <= data_max_B * 1.25);
}

/* The heap limit: a dashed horizontal line across the plot, labelled at its
 * right end with the limit and the action. */
static void draw_limit(chart *c)
{
    const vis_profile *p = c->p;
    if (!limit_drawn(p, c->ymax_B / 1.05))
        return;
    int y = y_of(c, (double)p->limit.bytes);
    int dash = px(c, 10), gap = px(c, 5);
    for (int x = c->x0; x < c->x1; x += dash + gap)
        vis_canvas_hline(c->cv, x, x + dash < c->x1 ? x + dash : c->x1, y, px(c, 2), COLOUR_WARN, 255);
    char bytes[32], label[96];
    vis_fmt_bytes(bytes, sizeof bytes, p->limit.bytes);
    snprintf(label, sizeof label, "heap limit %s (%s)", bytes, vis_limit_action_name(p->limit.action));
    int w = vis_font_width(c->bold, c->fs_small, label);
    int ly = y - px(c, 5);
    if (ly - ascent(c, c->fs_small) < c->y0)     /* no room above: below the line */
        ly = y + px(c, 5) + ascent(c, c->fs_small);
    int bx = c->x1 - w - px(c, 10), by = ly - ascent(c, c->fs_small) - 1;
    vis_canvas_fill(c->cv, bx, by, bx + w + px(c, 6), by + line_h(c, c->fs_small), 0xFFFFFF, 200);
    vis_font_draw(c->cv, c->bold, c->fs_small, c->x1 - w - px(c, 7), ly, label, COLOUR_WARN);
}

/* A y axis from 0 to a little above top_B, with about nticks nice ticks. */
static void axis_scale(double top_B, int nticks, vis_scale *scale, double *step_B, double *max_B)
{
    /* An empty or tiny profile still gets an axis in whole bytes: at least
     * 0..8 B, ticks never finer than 1 B. */
    if (top_B < 8)
        top_B = 8;
    *scale = vis_bytes_scale(top_B);
    /* Headroom of ~5% so the total line never sits on the frame. */
    double step = vis_nice_step(top_B * 1.05 / scale->div, nticks) * scale->div;
    if (step < 1)
        step = 1;
    *step_B = step;
    *max_B = ceil(top_B * 1.05 / step) * step;
}

static void choose_scales(chart *c)
{
    const vis_profile *p = c->p;
    double peak_B = (double)vis_snap_total(&p->snaps[p->peak < p->n_snaps ? p->peak : 0]);
    for (size_t i = 0; i < p->n_snaps; i++)       /* robust to a wrong peak */
        if ((double)vis_snap_total(&p->snaps[i]) > peak_B)
            peak_B = (double)vis_snap_total(&p->snaps[i]);
    if ((double)vis_outline_max(&p->outline).bytes > peak_B)   /* the exact outline's */
        peak_B = (double)vis_outline_max(&p->outline).bytes;
    /* The RSS line fits too (its buckets' highest), unless it is so far
     * above the heap that the heap gets its own scale and the RSS a panel. */
    double heap_B = peak_B, rss_B = (double)vis_rss_top(p, &c->rss);
    c->panel = c->rss.n && vis_chart_rss_panel((uint64_t)heap_B, (uint64_t)rss_B);
    if (!c->panel && rss_B > peak_B)
        peak_B = rss_B;
    if (limit_drawn(p, peak_B))                   /* and the heap limit */
        peak_B = fmax(peak_B, (double)p->limit.bytes);
    axis_scale(peak_B, 7, &c->yscale, &c->ystep_B, &c->ymax_B);
    if (c->panel)                                 /* one scale for both */
        axis_scale(fmax(rss_B, heap_B), 3, &c->ryscale, &c->rystep_B, &c->rymax_B);

    vis_chart_time_range(p, &c->t0, &c->t1);
    c->tscale = vis_time_scale(p->unit, c->t1);
    c->tstep = vis_nice_step((c->t1 - c->t0) / c->tscale.div, 10) * c->tscale.div;
}

static void draw_y_axis(chart *c, int grid_over)
{
    int dec = vis_step_decimals(c->ystep_B / c->yscale.div);
    for (double v = 0; v <= c->ymax_B * (1 + 1e-9); v += c->ystep_B) {
        int y = y_of(c, v);
        if (grid_over) {
            /* Faint lines across the bands keep values readable. */
            if (v > 0)
                vis_canvas_hline(c->cv, c->x0, c->x1, y, 1, 0xFFFFFF, 70);
            continue;
        }
        if (v > 0)
            vis_canvas_hline(c->cv, c->x0, c->x1, y, 1, VIS_COLOUR_GRID, 255);
        char buf[64];
        vis_fmt_scaled(v, c->yscale, dec, buf, sizeof buf);
        int w = vis_font_width(c->reg, c->fs, buf);
        vis_font_draw(c->cv, c->reg, c->fs, c->x0 - px(c, 10) - w,
                     y + ascent(c, c->fs) / 2 - 1, buf, VIS_COLOUR_TEXT);
        vis_canvas_hline(c->cv, c->x0 - px(c, 5), c->x0 - 1, y, 1, VIS_COLOUR_AXIS, 255);
    }
}

static void draw_x_axis(chart *c)
{
    int dec = vis_step_decimals(c->tstep / c->tscale.div);
    double first = ceil(c->t0 / c->tstep - 1e-9) * c->tstep;
    int last_right = -1000000;
    int bot = c->panel ? c->ry1 : c->y1;    /* the ticks go under the panel */
    for (double t = first; t <= c->t1 * (1 + 1e-9); t += c->tstep) {
        int x = x_of(c, t);
        if (x > c->x0) {
            vis_canvas_vline(c->cv, x, c->y0, c->y1, 1, 0xEEEEEE, 255);
            if (c->panel)
                vis_canvas_vline(c->cv, x, c->ry0, c->ry1, 1, 0xEEEEEE, 255);
        }
        vis_canvas_vline(c->cv, x, bot + 1, bot + px(c, 5), 1, VIS_COLOUR_AXIS, 255);
        char buf[64];
        vis_fmt_scaled(t, c->tscale, dec, buf, sizeof buf);
        /* Units live in the axis title; ticks show numbers only. */
        char *sp = strchr(buf, ' ');
        if (sp)
            *sp = '\0';
        int w = vis_font_width(c->reg, c->fs, buf);
        int lx = x - w / 2;
        if (lx < last_right + px(c, 8))        /* never overprint labels */
            continue;
        vis_font_draw(c->cv, c->reg, c->fs, lx, bot + px(c, 8) + ascent(c, c->fs),
                     buf, VIS_COLOUR_TEXT);
        last_right = lx + w;
    }
    char title[96];
    vis_time_title(c->p->unit, c->tscale, title, sizeof title);
    int w = vis_font_width(c->reg, c->fs, title);
    vis_font_draw(c->cv, c->reg, c->fs, (c->x0 + c->x1) / 2 - w / 2,
                 bot + px(c, 12) + line_h(c, c->fs) + ascent(c, c->fs), title, VIS_COLOUR_MUTED);
}

/* ---- data ------------------------------------------------------------------- */

/* Per pixel column, by chart_data's one rule (vis_chart_cols): the bands,
 * heap above them up to the outline's top (hatched in its own colour), and
 * the total line over the column's range: the exact outline's lowest to
 * highest, or the samples'. One pixel wide, so a burst of any brevity is a
 * spike one or two columns wide at its true height. */
static void draw_bands(chart *c)
{
    const vis_chart_data *d = c->d;
    const vis_chart_cols *k = c->cols;
    for (size_t i = 0; i < k->ncol; i++) {
        if (!k->drawn[i])
            continue;                       /* before the first snapshot */
        int x = c->x0 + (int)i;
        uint64_t cum = 0;
        int ybot = c->y1;
        for (size_t b = 0; b <= d->n_bands; b++) {
            int outside = b == d->n_bands;
            cum += outside ? k->outside_B[i] : k->band_B[i * d->n_bands + b];
            int ytop = y_of(c, (double)cum);
            if (ytop < ybot && outside)
                vis_canvas_hatch(c->cv, x, ytop + 1, x + 1, ybot + 1, COLOUR_OUTSIDE,
                                 COLOUR_OUTSIDE_BG, px(c, 8), px(c, 2));
            else if (ytop < ybot && d->bands[b].kind == VIS_BAND_UNATTRIBUTED)
                vis_canvas_hatch(c->cv, x, ytop + 1, x + 1, ybot + 1, d->bands[b].colour,
                                 COLOUR_HATCH_BG, px(c, 8), px(c, 2));
            else if (ytop < ybot)
                vis_canvas_fill(c->cv, x, ytop + 1, x + 1, ybot + 1, d->bands[b].colour, 255);
            ybot = ytop;
        }
    }
    /* The line over the bands, 2 px thick where it runs flat. */
    for (size_t i = 0; i < k->ncol; i++) {
        if (!k->drawn[i])
            continue;
        int x = c->x0 + (int)i;
        int yhi = y_of(c, (double)k->hi_B[i]), ylo = y_of(c, (double)k->lo_B[i]);
        vis_canvas_fill(c->cv, x, yhi - 1, x + 1, ylo + 1, COLOUR_TOTAL, 255);
    }
}

/* ---- resident memory ------------------------------------------------------ */

static int clamp_x(const chart *c, int x)
{
    return x < c->x0 ? c->x0 : x > c->x1 ? c->x1 : x;
}

/* The RSS per column (rss_series.h: the outline's RSS buckets, else the
 * readings), by the one column rule: each reading holds until the next
 * (steps; what lies between is not known, and a ramp between two readings
 * far apart would show a climb that never happened), a column with
 * readings spans their range. With a dot on each reading when they are
 * sparse enough to tell apart. The tint between the heap's top and the RSS,
 * where the RSS is above it, comes first (gap = 1), the lines after the
 * grid (gap = 0). */
static void draw_rss(chart *c, int gap, int file_only, vis_rgb colour, int thick, int dashed)
{
    const vis_rss_series *s = &c->rss;
    if (s->n == 0)
        return;
    size_t n = 0, ncol = c->cols->ncol;
    vis_piece *pc = vis_rss_pieces(c->p, s, file_only, &n);
    vis_col *col = n && n != SIZE_MAX ? calloc(ncol, sizeof *col) : NULL;
    if (!col) {
        free(pc);
        return;
    }
    vis_columns(pc, n, c->t0, c->t1, ncol, 0.5, 1, (long)ncol - 1, col);
    int on = px(c, 8), off = px(c, 5);
    long phase = 0;
    for (size_t i = 0; i < ncol; i++) {
        if (!col[i].has)
            continue;
        int x = c->x0 + (int)i;
        int yhi = y_of(c, (double)col[i].max_B), ylo = y_of(c, (double)col[i].min_B);
        if (gap) {
            int yh = c->cols->drawn[i] ? y_of(c, (double)c->cols->hi_B[i]) : c->y1;
            if (yhi < yh)
                vis_canvas_fill(c->cv, x, yhi, x + 1, yh, COLOUR_RSS, ALPHA_RSS_GAP);
            continue;
        }
        if (!dashed || phase % (on + off) < on)
            vis_canvas_fill(c->cv, x - thick / 2, yhi - thick / 2, x - thick / 2 + thick,
                            ylo - thick / 2 + thick, colour, 255);
        phase += 1 + (ylo - yhi);
    }
    int instants = n && pc[0].end == pc[0].start;
    if (!gap && !dashed && instants && (size_t)(c->x1 - c->x0) >= n * 10)
        for (size_t i = 0; i < n; i++)
            vis_canvas_disc(c->cv, clamp_x(c, x_of(c, (double)pc[i].start)),
                            y_of(c, (double)pc[i].max_B), px(c, 3), colour, 255);
    free(pc);
    free(col);
}

/* What the program's allocator holds freed (rss_series.h, vis_held_cols):
 * a band from the heap's top up by that much, under the RSS line, in the
 * main plot or in the panel (whichever holds the RSS). */
static void draw_held(chart *c)
{
    const vis_rss_series *s = &c->rss;
    if (!s->show_held)
        return;
    size_t n = 0, ncol = c->cols->ncol;
    vis_piece *pc = vis_rss_pieces(c->p, s, 0, &n);
    vis_col *rc = n && n != SIZE_MAX ? calloc(ncol, sizeof *rc) : NULL;
    vis_col *hc = rc ? calloc(ncol, sizeof *hc) : NULL;
    if (hc) {
        vis_columns(pc, n, c->t0, c->t1, ncol, 0.5, 1, (long)ncol - 1, rc);
        if (vis_held_cols(c->p, s, c->cols, c->t0, c->t1, rc, hc) == 0)
            for (size_t i = 0; i < ncol; i++) {
                if (!hc[i].has)
                    continue;
                int x = c->x0 + (int)i;
                int yt = y_of(c, (double)hc[i].max_B), yb = y_of(c, (double)hc[i].min_B);
                if (yt < yb)
                    vis_canvas_fill(c->cv, x, yt, x + 1, yb, COLOUR_HELD, 255);
            }
    }
    free(pc);
    free(rc);
    free(hc);
}

/* The RSS panel (with c->panel), below the main plot: the heap's total
 * (the main plot's top: the outline's highest per column, or the samples')
 * filled, the RSS over it by the same column rule with the gap tinted, all
 * on one scale from 0 to the RSS; a dashed line where the main plot's
 * scale ends, so a reader sees how much the main plot magnifies; the RSS
 * peak's ring; a caption above naming it. */
static void draw_panel(chart *c)
{
    const vis_chart_cols *k = c->cols;
    const vis_rss_point *q = &c->rss.pts[c->rss.peak];
    double main_top = c->ymax_B;
    swap_axis(c);
    for (size_t i = 0; i < k->ncol; i++) {
        if (!k->drawn[i])
            continue;
        int x = c->x0 + (int)i, y = y_of(c, (double)k->hi_B[i]);
        if (y < c->y1)
            vis_canvas_fill(c->cv, x, y + 1, x + 1, c->y1 + 1, COLOUR_PANEL_HEAP, 255);
    }
    draw_rss(c, 1, 0, COLOUR_RSS, 0, 0);
    draw_held(c);
    draw_y_axis(c, 1);
    int ym = y_of(c, main_top);
    if (ym > c->y0) {
        int dash = px(c, 6), gap = px(c, 4);
        for (int x = c->x0; x < c->x1; x += dash + gap)
            vis_canvas_hline(c->cv, x, x + dash < c->x1 ? x + dash : c->x1, ym, 1, VIS_COLOUR_MUTED, 255);
        char label[96];
        vis_chart_panel_top_caption((uint64_t)main_top, label, sizeof label);
        int w = vis_font_width(c->reg, c->fs_small, label);
        int ly = ym - px(c, 4);
        if (ly - ascent(c, c->fs_small) > c->y0)
            vis_font_draw(c->cv, c->reg, c->fs_small, c->x0 + px(c, 6), ly, label, VIS_COLOUR_MUTED);
        (void)w;
    }
    if (c->rss.show_file)
        draw_rss(c, 0, 1, COLOUR_RSS_FILE, px(c, 2), 1);
    draw_rss(c, 0, 0, COLOUR_RSS, px(c, 3), 0);
    vis_canvas_vline(c->cv, c->x0 - 1, c->y0, c->y1 + 1, 1, VIS_COLOUR_AXIS, 255);
    vis_canvas_hline(c->cv, c->x0 - 1, c->x1, c->y1 + 1, 1, VIS_COLOUR_AXIS, 255);
    int rx = clamp_x(c, x_of(c, (double)q->time)), ry = y_of(c, (double)q->total_B);
    vis_canvas_disc(c->cv, rx, ry, px(c, 6) + 1.5, COLOUR_RSS, 255);
    vis_canvas_disc(c->cv, rx, ry, px(c, 3), 0xFFFFFF, 255);
    char cap[256], fitted[256];
    vis_chart_rss_peak_caption(c->p, q, 1, cap, sizeof cap);
    vis_font_fit(c->bold, c->fs, cap, c->x1 - c->x0, fitted, sizeof fitted);
    int d, a;
    vis_font_metrics(c->bold, c->fs, &a, &d);
    vis_font_draw(c->cv, c->bold, c->fs, c->x0, c->y0 - px(c, 6) - d, fitted, COLOUR_RSS);
    swap_axis(c);
}

/* ---- annotations (peak, marks) --------------------------------------------------- */

typedef struct {
    int x;                  /* the line's column */
    char text[160];
    vis_rgb colour;
    int bold;
    int level;              /* row in the annotation strip, 0 = nearest the plot */
    int lx, w;              /* label's left edge and width */
} annot;

/* Does label i's text (with a little margin) cover line x? */
static int covers(const chart *c, const annot *l, int x)
{
    int m = px(c, 3);
    return x > l->lx - m && x < l->lx + l->w + m;
}

/* Labels go in a strip above the plot, each joined to its line by a leader
 * that runs down from the label's row through every row below it. So a
 * label whose text covers another's line must sit on a higher row than that
 * label, and labels on one row must not overlap (text and leader run).
 * Each label takes the side of its line (right, or left) whose text covers
 * the fewest other lines and stays in the image; rows then follow from
 * those two rules (a longest path, as a label covering a line sits above
 * it), up to MAX_LEVEL. Returns the rows used. */
static int place_annots(chart *c, annot *a, size_t n)
{
    enum { MAX_LEVEL = 8 };
    int gap = px(c, 6), levels = 0, W = vis_canvas_width(c->cv);
    for (size_t i = 0; i < n; i++) {
        vis_font *f = a[i].bold ? c->bold : c->reg;
        char fitted[sizeof a[i].text];
        vis_font_fit(f, c->fs, a[i].text, (c->x1 - c->x0) / 2, fitted, sizeof fitted);
        memcpy(a[i].text, fitted, sizeof fitted);
        a[i].w = vis_font_width(f, c->fs, a[i].text);
        int side_x[2] = { a[i].x + gap, a[i].x - gap - a[i].w };
        if (side_x[0] + a[i].w > c->x1) {      /* right of the plot: left first */
            side_x[0] = side_x[1];
            side_x[1] = a[i].x + gap;
        }
        int best = -1, best_n = 0;
        for (int k = 0; k < 2; k++) {
            /* The strip is above the plot and the legend: a label may reach
             * over the legend's column, not off the image. */
            if (side_x[k] < c->pad / 2 || side_x[k] + a[i].w > W - c->pad / 2)
                continue;
            a[i].lx = side_x[k];
            int nc = 0;
            for (size_t j = 0; j < n; j++)
                nc += j != i && covers(c, &a[i], a[j].x);
            if (best < 0 || nc < best_n) {
                best = k;
                best_n = nc;
            }
        }
        a[i].lx = best >= 0 ? side_x[best] : side_x[0];
        a[i].level = 0;
    }
    for (size_t round = 0, changed = 1; changed && round < n * n + 1; round++) {
        changed = 0;
        for (size_t i = 0; i < n; i++) {
            int lev = a[i].level;
            for (size_t j = 0; j < n; j++) {
                if (j == i)
                    continue;
                /* Above every label whose line it covers (two covering each
                 * other's lines cannot both be satisfied: the first stays). */
                if (covers(c, &a[i], a[j].x) && !(covers(c, &a[j], a[i].x) && j > i)
                    && lev <= a[j].level)
                    lev = a[j].level + 1;
                /* Not on a row with a label it overlaps (the later moves). */
                int ilo = a[i].lx < a[i].x ? a[i].lx : a[i].x;
                int ihi = a[i].lx + a[i].w > a[i].x ? a[i].lx + a[i].w : a[i].x;
                int jlo = a[j].lx < a[j].x ? a[j].lx : a[j].x;
                int jhi = a[j].lx + a[j].w > a[j].x ? a[j].lx + a[j].w : a[j].x;
                if (j < i && lev == a[j].level && ilo < jhi + gap && jlo < ihi + gap)
                    lev = a[j].level + 1;
            }
            if (lev > MAX_LEVEL)
                lev = MAX_LEVEL;
            if (lev != a[i].level) {
                a[i].level = lev;
                changed = 1;
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        if (a[i].level + 1 > levels)
            levels = a[i].level + 1;
    return levels;
}

static void draw_annots(chart *c, const annot *a, size_t n)
{
    int lh = line_h(c, c->fs) + px(c, 4);
    for (size_t i = 0; i < n; i++) {
        int base = c->y0 - px(c, 6) - a[i].level * lh;
        vis_font *f = a[i].bold ? c->bold : c->reg;
        vis_font_draw(c->cv, f, c->fs, a[i].lx, base - line_h(c, c->fs) + ascent(c, c->fs),
                     a[i].text, a[i].colour);
        /* A leader from the label down to the plot. */
        int ytop = base - line_h(c, c->fs) / 2;
        vis_canvas_vline(c->cv, a[i].x, ytop, c->y0 - 1, 1, a[i].colour, 255);
        int lx_end = a[i].lx > a[i].x ? a[i].lx - px(c, 2) : a[i].lx + a[i].w + px(c, 2);
        vis_canvas_hline(c->cv, a[i].x, lx_end, ytop, 1, a[i].colour, 255);
    }
}

/* ---- legend --------------------------------------------------------------------- */

typedef struct {
    int x, y, w;            /* top-left and width of the legend area */
    int cols;
} legend_box;

/* Rows after the bands' for resident memory: the RSS line, its file-backed
 * part (when drawn), the tint of the gap, and what the program's allocator
 * holds freed (with its account). */
static int legend_rss_rows(const chart *c)
{
    return c->rss.n ? 2 + (c->rss.show_file ? 1 : 0) + (c->rss.show_held ? 1 : 0) : 0;
}

/* A row for heap outside the samples, with the exact outline. */
static int legend_outside_rows(const chart *c)
{
    return c->p->outline.present && c->p->outline.n ? 1 : 0;
}

static int legend_rows(const chart *c)
{
    /* + the total line */
    return (int)c->d->n_bands + 1 + legend_outside_rows(c) + legend_rss_rows(c);
}

static int legend_row_h(chart *c)
{
    return line_h(c, c->fs) + px(c, 7);
}

/* Two numbers per row: the value at the peak snapshot and the largest over
 * the run (for a site: the most any tree shows it holding), under column
 * headers that say so. */
/* ---- growth tags (--growth) ---------------------------------------------------- */

/* The steady growth row of a site band (matched by name, as the bands
 * are), or NULL. */
static const vis_growth_row *steady_row(const chart *c, const vis_band *b)
{
    if (!c->growth || b->kind != VIS_BAND_SITE || !b->label)
        return NULL;
    for (size_t i = 0; i < c->growth->n_rows; i++) {
        const vis_growth_row *r = &c->growth->rows[i];
        if (r->kind != VIS_KIND_STEADY)
            break;   /* steady rows come first */
        if (!strcmp(vis_site_label_name(c->p, r->label), b->label))
            return r;
    }
    return NULL;
}

/* "grows +14.2 KiB/s": the tag's text. */
static void grows_text(const chart *c, const vis_growth_row *r, char *buf, size_t n)
{
    char rate[64];
    vis_fmt_rate(rate, sizeof rate, c->p->unit, r->rate);
    snprintf(buf, n, "grows %s", rate);
}

/* A tag on each steady grower's band, at the right end of the plot, where
 * the band ends (its middle at the last snapshot), so a reader sees at a
 * glance which band is the leak. */
static void draw_growth_tags(chart *c)
{
    const vis_chart_data *d = c->d;
    size_t last = d->n_snaps - 1;
    double below = 0;
    for (size_t b = 0; b < d->n_bands; b++) {
        double v = vis_chart_value(d, last, b);
        const vis_growth_row *r = steady_row(c, &d->bands[b]);
        if (r) {
            char text[96];
            grows_text(c, r, text, sizeof text);
            int w = vis_font_width(c->bold, c->fs, text), h = line_h(c, c->fs);
            int y = y_of(c, below + v / 2);
            int x1 = c->x1 - px(c, 6), x0 = x1 - w - px(c, 12);
            int top = y - h / 2 - px(c, 3), bot = y + h / 2 + px(c, 3);
            if (top < c->y0)
                top = c->y0, bot = top + h + px(c, 6);
            vis_canvas_fill(c->cv, x0, top, x1, bot, 0xFFFFFF, 235);
            vis_canvas_frame(c->cv, x0, top, x1, bot, COLOUR_WARN, 255);
            vis_font_draw(c->cv, c->bold, c->fs, x0 + px(c, 6),
                          (top + bot) / 2 + ascent(c, c->fs) / 2 - 1, text, COLOUR_WARN);
        }
        below += v;
    }
}

/* The outside-the-samples row's numbers: at the peak snapshot's column
 * and the largest over the columns. */
static void outside_numbers(const chart *c, uint64_t v[2])
{
    const vis_chart_cols *k = c->cols;
    const vis_profile *p = c->p;
    long pk = x_of(c, (double)p->snaps[p->peak < p->n_snaps ? p->peak : 0].time) - c->x0;
    v[0] = v[1] = 0;
    if (pk >= 0 && (size_t)pk < k->ncol)
        v[0] = k->outside_B[pk];
    for (size_t i = 0; i < k->ncol; i++)
        if (k->outside_B[i] > v[1])
            v[1] = k->outside_B[i];
}

/* Band j's site label and the address that told its name apart ("" if
 * none). */
static const char *band_site(const chart *c, size_t j, char *addr, size_t n)
{
    const char *label = c->p->site_info[j].label;
    vis_label l = vis_label_parse(label);
    addr[0] = '\0';
    if (l.addr && strstr(c->d->bands[j].label, " @0x") && l.addr_len < n)
        snprintf(addr, n, "%.*s", (int)l.addr_len, l.addr);
    return label;
}

/* A shorter legend text for site band b (budget k; way 0: vis_name_short,
 * 1: vis_name_short_args; drop_loc: without the location), or NULL. */
static char *shorter(const chart *c, size_t b, size_t k, int way, int drop_loc)
{
    char addr[40];
    const char *label = band_site(c, b, addr, sizeof addr);
    char *s = way ? vis_name_short_args(label, addr[0] ? addr : NULL, k)
                  : vis_name_short(label, addr[0] ? addr : NULL, k + (drop_loc ? 40 : 0));
    size_t n = s ? strlen(s) : 0;
    if (s && drop_loc && n > 0 && s[n - 1] == ')') {
        char *o = strrchr(s, '(');
        if (o && o > s && o[-1] == ' ')
            o[-1] = '\0';
    }
    return s;
}

/* The legend's text for band b in room pixels: its name when it fits; a
 * site's name shortened by whole words (names.h) at the largest budget
 * that fits otherwise (keeping the " @ADDR" that told it apart, then
 * without its location), and only if it reads unlike every other site
 * band's shortenings; a cut by pixels (vis_font_fit) when nothing does. */
static void legend_text(const chart *c, size_t b, int room, char *out, size_t n)
{
    const vis_band *band = &c->d->bands[b];
    size_t nb = c->d->n_bands < c->p->n_site_info ? c->d->n_bands : c->p->n_site_info;
    /* Every glyph is at least a pixel wide for every byte of it: a text
     * longer than the room in bytes does not fit, and is not measured. A
     * name several times longer than that is one the naming could not
     * shorten (a function's own name is never cut): shortening it again
     * would not make it fit, and would take minutes on a name of megabytes
     * in a hostile file, so it goes straight to the cut by pixels. */
    size_t len = strlen(band->label);
    if (band->kind == VIS_BAND_SITE && b < nb && len <= 4 * (size_t)room
        && (len > (size_t)room || vis_font_width(c->reg, c->fs, band->label) > room)) {
        for (int drop_loc = 0; drop_loc < 2; drop_loc++)
            for (size_t k = VIS_SITE_NAME_MAX - 2; k >= 12; k -= 2)
                for (int way = 0; way < 2; way++) {
                    char *s = shorter(c, b, k, way, drop_loc);
                    if (!s)
                        return vis_font_fit(c->reg, c->fs, band->label, room, out, n), (void)0;
                    int ok = strlen(s) <= (size_t)room && vis_font_width(c->reg, c->fs, s) <= room;
                    for (size_t j = 0; ok && j < nb; j++) {
                        if (j == b || c->d->bands[j].kind != VIS_BAND_SITE)
                            continue;
                        ok = strcmp(s, c->d->bands[j].label) != 0;
                        for (int w = 0; ok && w < 2; w++) {
                            char *o = shorter(c, j, k, w, drop_loc);
                            ok = o && strcmp(s, o) != 0;
                            free(o);
                        }
                    }
                    if (ok)
                        snprintf(out, n, "%s", s);
                    free(s);
                    if (ok)
                        return;
                }
    }
    vis_font_fit(c->reg, c->fs, band->label, room, out, n);
}

static void draw_legend(chart *c, legend_box lb)
{
    const vis_chart_data *d = c->d;
    const vis_profile *p = c->p;
    int rh = legend_row_h(c), sw = px(c, 14);
    int head_h = line_h(c, c->fs) + px(c, 8);
    int n = legend_rows(c);
    int per_col = (n + lb.cols - 1) / lb.cols;
    /* Columns (below the plot) are separated by a gutter. */
    int gutter = lb.cols > 1 ? px(c, 32) : 0;
    int colw = (lb.w + gutter) / lb.cols - gutter;
    int numw = vis_font_width(c->reg, c->fs, "1023 KiB") + px(c, 10);
    for (int col = 0; col < lb.cols && col * per_col < n; col++) {   /* columns with rows */
        int cx = lb.x + col * (colw + gutter);
        int base = lb.y + ascent(c, c->fs);
        if (col == 0) {
            char head_[64];
            snprintf(head_, sizeof head_, "Memory by %s", vis_chart_group_noun(c->p, 0));
            vis_font_draw(c->cv, c->bold, c->fs, cx, base, head_, VIS_COLOUR_TEXT);
        }
        static const char *const head[2] = { "at peak", "largest" };
        for (int k = 0; k < 2; k++) {
            int w = vis_font_width(c->reg, c->fs, head[k]);
            vis_font_draw(c->cv, c->reg, c->fs, cx + colw - (1 - k) * numw - w, base, head[k],
                          VIS_COLOUR_MUTED);
        }
    }
    for (int r = 0; r < n; r++) {
        int cx = lb.x + (r / per_col) * (colw + gutter);
        int cy = lb.y + head_h + (r % per_col) * rh;
        const char *label;
        size_t band_ix = SIZE_MAX;   /* a band's row: its index */
        uint64_t v[2];
        const vis_growth_row *grow = NULL;   /* a "grows" tag before the label */
        int out_row = legend_outside_rows(c) && r == (int)d->n_bands + 1;
        int rss_row = r - (int)d->n_bands - 1 - legend_outside_rows(c);   /* >= 0: RSS */
        const vis_rss_point *rq = c->rss.n ? &c->rss.pts[c->rss.peak] : NULL;
        char held_label[128];
        if (out_row) {
            label = VIS_CHART_ABOVE_SAMPLES;
            outside_numbers(c, v);
            vis_canvas_hatch(c->cv, cx, cy, cx + sw, cy + sw, COLOUR_OUTSIDE, COLOUR_OUTSIDE_BG,
                             px(c, 8), px(c, 2));
            vis_canvas_frame(c->cv, cx, cy, cx + sw, cy + sw, 0x000000, 40);
        } else if (rss_row == 0) {
            label = "resident memory (RSS) at its peak";
            v[0] = v[1] = rq->total_B;
            vis_canvas_fill(c->cv, cx, cy + sw / 2 - 2, cx + sw, cy + sw / 2 + 2, COLOUR_RSS, 255);
        } else if (rss_row == 1 && c->rss.show_file) {
            label = "file-backed part, at the RSS peak";
            v[0] = v[1] = rq->file_B;
            vis_canvas_fill(c->cv, cx, cy + sw / 2 - 1, cx + sw / 2 - 1, cy + sw / 2 + 1, COLOUR_RSS_FILE, 255);
            vis_canvas_fill(c->cv, cx + sw / 2 + 2, cy + sw / 2 - 1, cx + sw, cy + sw / 2 + 1, COLOUR_RSS_FILE, 255);
        } else if (rss_row == legend_rss_rows(c) - 1 && c->rss.show_held) {
            snprintf(held_label, sizeof held_label, "%s holds freed (%s)", c->rss.held_name,
                     c->rss.held_noun);
            label = held_label;
            v[0] = rq->has_held ? rq->held_B : 0;
            v[1] = c->rss.max_held_B;
            vis_canvas_fill(c->cv, cx, cy, cx + sw, cy + sw, COLOUR_HELD, 255);
            vis_canvas_frame(c->cv, cx, cy, cx + sw, cy + sw, 0x000000, 40);
        } else if (rss_row >= 1) {
            label = "RSS above the heap, at the RSS peak";
            v[0] = v[1] = rq->total_B > rq->heap_B ? rq->total_B - rq->heap_B : 0;
            vis_canvas_fill(c->cv, cx, cy, cx + sw, cy + sw, COLOUR_RSS, ALPHA_RSS_GAP);
            vis_canvas_frame(c->cv, cx, cy, cx + sw, cy + sw, COLOUR_RSS, 120);
        } else if (r == 0) {
            label = "total (heap + extra + stacks)";
            v[0] = vis_snap_total(&p->snaps[p->peak < p->n_snaps ? p->peak : 0]);
            v[1] = vis_snap_total(&p->snaps[p->largest < p->n_snaps ? p->largest : 0]);
            if (vis_outline_max(&p->outline).bytes > v[1])     /* the true highest */
                v[1] = vis_outline_max(&p->outline).bytes;
            vis_canvas_fill(c->cv, cx, cy + sw / 2 - 1, cx + sw, cy + sw / 2 + 1, COLOUR_TOTAL, 255);
        } else {
            const vis_band *b = &d->bands[r - 1];
            label = b->label;
            band_ix = (size_t)(r - 1);
            grow = steady_row(c, b);
            v[0] = b->peak_B;
            v[1] = b->largest_B;
            if (b->kind == VIS_BAND_UNATTRIBUTED)
                vis_canvas_hatch(c->cv, cx, cy, cx + sw, cy + sw, b->colour, COLOUR_HATCH_BG,
                                 px(c, 8), px(c, 2));
            else
                vis_canvas_fill(c->cv, cx, cy, cx + sw, cy + sw, b->colour, 255);
            vis_canvas_frame(c->cv, cx, cy, cx + sw, cy + sw, 0x000000, 40);
        }
        int base = cy + sw / 2 + ascent(c, c->fs) / 2 - 1;
        for (int k = 0; k < 2; k++) {
            char value[32];
            vis_fmt_bytes(value, sizeof value, v[k]);
            int vw = vis_font_width(c->reg, c->fs, value);
            vis_font_draw(c->cv, c->reg, c->fs, cx + colw - (1 - k) * numw - vw, base, value,
                          VIS_COLOUR_MUTED);
        }
        int tx = cx + sw + px(c, 8);
        if (grow) {   /* the tag first, in the warning colour */
            char tag[96];
            grows_text(c, grow, tag, sizeof tag);
            strcat(tag, ": ");
            tx += vis_font_draw(c->cv, c->bold, c->fs, tx, base, tag, COLOUR_WARN);
        }
        int room = colw - (tx - cx) - 2 * numw;
        char fitted[512];
        if (band_ix != SIZE_MAX)
            legend_text(c, band_ix, room, fitted, sizeof fitted);
        else
            vis_font_fit(c->reg, c->fs, label, room, fitted, sizeof fitted);
        vis_font_draw(c->cv, r == 0 || rss_row == 0 ? c->bold : c->reg, c->fs, tx, base, fitted,
                      VIS_COLOUR_TEXT);
    }
}

/* ---- layout description -------------------------------------------------------- */

/* The data-to-pixel mapping, for the pixel tests, one item a line:
 *   layout plot X0 Y0 X1 Y1 : inclusive pixel bounds of the data area
 *   layout x T0 T1          : time (file unit) at column X0 and column X1
 *   layout y YMAX           : bytes at row Y0; row Y1 is 0 bytes
 *   layout band K RRGGBB LABEL (stack order, bottom first)
 *   layout legend K FITTED  : the text the legend shows for band K
 *   layout peak X           : the peak line's column
 *   layout mark K X LABEL
 *   layout annot K LEVEL LX W : label K's row, left edge and width (0 = peak)
 *   layout exact E          : 1: drawn from the exact outline, 0: samples
 *   layout legendhead TEXT  : the legend's heading ("Memory by crate")
 *   layout footnote I TEXT  : the footnote's line I (0, 1), before fitting
 *   layout rsspeak X Y      : the RSS peak's ring (with resident memory)
 *   layout panel X0 Y0 X1 Y1 : the RSS panel's data area, when drawn
 *   layout panely YMAX      : bytes at its row Y0 (RSS and heap, one scale)
 *   layout held RRGGBB LABEL : the band of what the program's allocator
 *                             holds freed, when drawn, and its legend label
 * Returns a newly allocated string, NULL when out of memory. */
static char *describe_layout(chart *c, const annot *a, size_t n_annot, legend_box lb)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    fprintf(f, "layout plot %d %d %d %d\n", c->x0, c->y0, c->x1, c->y1);
    fprintf(f, "layout x %.17g %.17g\n", c->t0, c->t1);
    fprintf(f, "layout y %.17g\n", c->ymax_B);
    fprintf(f, "layout exact %d\n", c->cols->exact);
    fprintf(f, "layout legendhead Memory by %s\n", vis_chart_group_noun(c->p, 0));
    int sw = px(c, 14);
    int colw = (lb.w + (lb.cols > 1 ? px(c, 32) : 0)) / lb.cols - (lb.cols > 1 ? px(c, 32) : 0);
    int room = colw - sw - px(c, 8) - 2 * (vis_font_width(c->reg, c->fs, "1023 KiB") + px(c, 10));
    for (size_t b = 0; b < c->d->n_bands; b++) {
        char fitted[512];
        fprintf(f, "layout band %zu %06X %s\n", b, (unsigned)c->d->bands[b].colour,
                c->d->bands[b].label);
        legend_text(c, b, room, fitted, sizeof fitted);
        fprintf(f, "layout legend %zu %s\n", b, fitted);
    }
    for (size_t i = 0; i < n_annot; i++) {
        if (i == 0)
            fprintf(f, "layout peak %d\n", a[i].x);
        else if (i <= c->p->n_marks)
            fprintf(f, "layout mark %zu %d %s\n", i - 1, a[i].x, c->p->marks[i - 1].label);
        fprintf(f, "layout annot %zu %d %d %d\n", i, a[i].level, a[i].lx, a[i].w);
    }
    for (int i = 0; i < 2; i++)
        fprintf(f, "layout footnote %d %s\n", i, c->foot[i]);
    if (c->rss.n) {
        const vis_rss_point *q = &c->rss.pts[c->rss.peak];
        int rx = clamp_x(c, x_of(c, (double)q->time));
        if (c->panel) {
            fprintf(f, "layout panel %d %d %d %d\n", c->x0, c->ry0, c->x1, c->ry1);
            fprintf(f, "layout panely %.17g\n", c->rymax_B);
            swap_axis(c);
        }
        fprintf(f, "layout rsspeak %d %d\n", rx, y_of(c, (double)q->total_B));
        if (c->panel)
            swap_axis(c);
        if (c->rss.show_held)
            fprintf(f, "layout held %06X %s holds freed (%s)\n", (unsigned)COLOUR_HELD,
                    c->rss.held_name, c->rss.held_noun);
    }
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---- the whole chart ----------------------------------------------------------- */

/* The footnote: how sites are measured and held between trees (c->foot[0]);
 * what the panel, the RSS line and the hatches are, and the source
 * (c->foot[1]). Each is fitted to width w: the first cut at a word, the
 * second wrapped at a sentence onto a third line when it does not fit (a
 * cut in its middle once lost "above" and "Orange" to an ellipsis), the
 * source's path elided in its middle only as a last resort. */
static void footnote_lines(chart *c, int w)
{
    const vis_profile *p = c->p;
    const vis_chart_data *d = c->d;
    int hatched = 0;
    for (size_t b = 0; b < d->n_bands; b++)
        hatched |= d->bands[b].kind == VIS_BAND_UNATTRIBUTED;
    char exact[256];
    int outline = p->outline.present && p->outline.n;
    vis_chart_exactness(p, exact, sizeof exact);
    exact[0] = (char)(exact[0] - 'a' + 'A');      /* "Outline: ...", "Sampled: ..." */
    if (d->n_detailed)
        snprintf(c->foot[0], sizeof c->foot[0], "%s. Between two trees a site never exceeds its larger "
                 "value in them; a value holds until the next snapshot%s.", exact,
                 outline ? " unless the outline shows it gone" : "");
    else
        snprintf(c->foot[0], sizeof c->foot[0], "%s. No snapshot has a tree: the heap is not broken "
                 "down by site.", exact);
    snprintf(c->foot[1], sizeof c->foot[1], "%s%s%s%s%s", c->panel ? "Below: RSS and heap on one scale "
             "(the RSS is over twice the heap, so the heap has its own scale above).  " : "",
             c->rss.n ? (outline && p->outline.n_rss ?
             "RSS: every reading, lowest to highest per bucket, held between them.  " :
             "RSS: readings, each held until the next.  ") : "",
             outline ? "Orange hatch: heap the exact outline shows above the samples.  " : "",
             hatched ? "Grey hatch: heap the trees cannot attribute (more trees: --detailed-freq=1).  "
             : "", p->path ? p->path : "");
    vis_font_fit_words(c->reg, c->fs_small, c->foot[0], w, c->foot_drawn[0], sizeof c->foot_drawn[0]);
    c->n_foot = 2;
    const char *l2 = c->foot[1];
    if (vis_font_width(c->reg, c->fs_small, l2) > w) {
        /* The longest run of whole sentences ("  " ends each) that fits. */
        size_t cut = 0;
        for (const char *q = strstr(l2, "  "); q; q = strstr(q + 2, "  ")) {
            char head[sizeof c->foot[1]];
            snprintf(head, sizeof head, "%.*s", (int)(q - l2), l2);
            if (vis_font_width(c->reg, c->fs_small, head) > w)
                break;
            cut = (size_t)(q - l2);
        }
        if (cut) {
            snprintf(c->foot_drawn[1], sizeof c->foot_drawn[1], "%.*s", (int)cut, l2);
            l2 += cut + 2;
            c->n_foot = 3;
        }
    }
    vis_font_fit(c->reg, c->fs_small, l2, w, c->foot_drawn[c->n_foot - 1],
                 sizeof c->foot_drawn[c->n_foot - 1]);
}

/* The font sizes, the padding and the axes' scales for a W x H image. */
static void set_sizes(chart *c, int W, int H)
{
    c->s = fmin(W / 1600.0, H / 900.0);
    double fscale = fmax(c->s, 0.5);
    c->fs_title = (int)fmax(12, lround(24 * fscale));
    c->fs_sub = (int)fmax(10, lround(15 * fscale));
    c->fs = (int)fmax(9, lround(13 * fscale));
    c->fs_small = (int)fmax(9, lround(12 * fscale));
    c->pad = px(c, 24);
    choose_scales(c);
}

/* Horizontal layout: y tick labels, plot, legend (right of the plot when
 * legend_right). Returns -1 when the plot would be too narrow. */
static int layout_x(chart *c, int W, int legend_right, legend_box *lb)
{
    int ylab_w = 0;
    for (int ax = 0; ax <= c->panel; ax++) {
        if (ax)
            swap_axis(c);
        int dec = vis_step_decimals(c->ystep_B / c->yscale.div);
        for (double v = 0; v <= c->ymax_B * (1 + 1e-9); v += c->ystep_B) {
            char buf[64];
            vis_fmt_scaled(v, c->yscale, dec, buf, sizeof buf);
            int w = vis_font_width(c->reg, c->fs, buf);
            if (w > ylab_w)
                ylab_w = w;
        }
        if (ax)
            swap_axis(c);
    }
    c->x0 = c->pad + line_h(c, c->fs) + px(c, 8) + ylab_w + px(c, 10);
    if (legend_right) {
        lb->w = (int)fmin(fmax(W * 0.35, 260 * c->s), 640 * c->s);
        c->x1 = W - c->pad - lb->w - px(c, 24);
        lb->x = c->x1 + px(c, 24);
    } else {
        c->x1 = W - c->pad - px(c, 10);
        lb->x = c->pad;
        lb->w = W - 2 * c->pad;
        lb->cols = lb->w / 150 > 3 ? 3 : lb->w / 150 > 1 ? lb->w / 150 : 1;
    }
    return c->x1 - c->x0 < 40 ? -1 : 0;
}

/* The annotations above the plot: the peak, then the marks in file order,
 * then the RSS peak (rss_annot; with the panel, its caption names it
 * instead). *n: how many. NULL when out of memory. */
static annot *make_annots(chart *c, int rss_annot, size_t *n)
{
    const vis_profile *p = c->p;
    size_t n_annot = 1 + p->n_marks + (rss_annot ? 1 : 0);
    annot *a = calloc(n_annot, sizeof *a);
    if (!a)
        return NULL;
    const vis_snapshot *pk = &p->snaps[p->peak < p->n_snaps ? p->peak : 0];
    a[0].x = x_of(c, (double)pk->time);
    vis_chart_peak_caption(p, a[0].text, sizeof a[0].text);
    a[0].colour = VIS_COLOUR_PEAK;
    a[0].bold = 1;
    for (size_t m = 0; m < p->n_marks; m++) {
        double t = (double)p->marks[m].time;
        if (t < c->t0) t = c->t0;
        if (t > c->t1) t = c->t1;
        a[1 + m].x = x_of(c, t);
        snprintf(a[1 + m].text, sizeof a[1 + m].text, "%s", p->marks[m].label ? p->marks[m].label : "mark");
        a[1 + m].colour = VIS_COLOUR_MARK;
    }
    if (rss_annot) {
        const vis_rss_point *q = &c->rss.pts[c->rss.peak];
        annot *r = &a[n_annot - 1];
        r->x = clamp_x(c, x_of(c, (double)q->time));
        vis_chart_rss_peak_caption(p, q, 0, r->text, sizeof r->text);
        r->colour = COLOUR_RSS;
        r->bold = 1;
    }
    *n = n_annot;
    return a;
}

/* Vertical layout below the titles (top): the annotations' strip, the
 * plot, the RSS panel under it, the x axis, the legend when below, the
 * footnote. Places the annotations; returns -1 when the plot would be too
 * short. */
static int layout_y(chart *c, int W, int H, int top, int legend_right, annot *a, size_t n_annot,
                    legend_box *lb)
{
    int levels = place_annots(c, a, n_annot);
    int lh = line_h(c, c->fs) + px(c, 4);
    c->y0 = top + levels * lh + px(c, 8);

    footnote_lines(c, W - 2 * c->pad);
    int foot_h = c->n_foot * line_h(c, c->fs_small) + px(c, 6);
    int xaxis_h = px(c, 12) + 2 * line_h(c, c->fs) + px(c, 10);
    int legend_h = 0;
    if (!legend_right) {
        int n = legend_rows(c);
        legend_h = line_h(c, c->fs) + px(c, 8) + ((n + lb->cols - 1) / lb->cols) * legend_row_h(c);
    }
    c->y1 = H - c->pad - foot_h - xaxis_h - legend_h;
    int plot_bot = c->y1;
    if (c->panel) {             /* the RSS panel: the lower 28%, a caption above */
        int ph = (int)lround((c->y1 - c->y0) * 0.28);
        if (ph < px(c, 60))
            ph = px(c, 60);
        c->ry1 = c->y1;
        c->ry0 = c->ry1 - ph;
        c->y1 = c->ry0 - line_h(c, c->fs) - px(c, 14);
    }
    if (c->y1 - c->y0 < 40)
        return -1;
    lb->y = legend_right ? c->y0 : plot_bot + xaxis_h;
    return 0;
}

/* The title (the command) and the subtitle (the peak, the largest total,
 * the time unit; a warning in red when the profile is cut short or the
 * run did not end), at baselines title_y and sub_y. */
static void draw_titles(chart *c, int W, int title_y, int sub_y)
{
    const vis_profile *p = c->p;
    const vis_snapshot *pk = &p->snaps[p->peak < p->n_snaps ? p->peak : 0];
    char bytes[32], when[48];
    vis_fmt_bytes(bytes, sizeof bytes, vis_snap_total(pk));
    vis_fmt_time(when, sizeof when, p->unit, pk->time);
    char buf[1024], fitted[1024];
    snprintf(buf, sizeof buf, "%s", p->cmd && p->cmd[0] ? p->cmd : "(unknown command)");
    vis_font_fit_words(c->bold, c->fs_title, buf, W - 2 * c->pad, fitted, sizeof fitted);
    vis_font_draw(c->cv, c->bold, c->fs_title, c->pad, title_y, fitted, VIS_COLOUR_TEXT);
    char heap[32], extra[32], stacks[32];
    vis_fmt_bytes(heap, sizeof heap, pk->heap_B);
    vis_fmt_bytes(extra, sizeof extra, pk->heap_extra_B);
    vis_fmt_bytes(stacks, sizeof stacks, pk->stacks_B);
    static const char *const unit_name[] = { "instructions", "milliseconds", "bytes allocated and freed" };
    int n = snprintf(buf, sizeof buf, "Peak %s at %s (snapshot %u of %zu): heap %s, extra heap %s, stacks %s.",
             bytes, when, pk->index, p->n_snaps, heap, extra, stacks);
    if (p->largest != p->peak && p->largest < p->n_snaps) {
        const vis_snapshot *lg = &p->snaps[p->largest];
        char lb_[32], lw[48];
        n += snprintf(buf + n, sizeof buf - (size_t)n, " Largest total %s at %s (snapshot %u).",
                      vis_fmt_bytes(lb_, sizeof lb_, vis_snap_total(lg)),
                      vis_fmt_time(lw, sizeof lw, p->unit, lg->time), lg->index);
    }
    snprintf(buf + n, sizeof buf - (size_t)n, " Time unit: %s.", unit_name[p->unit]);
    int sub_w = W - 2 * c->pad;
    char warn[128] = "";
    if (p->truncated)
        snprintf(warn, sizeof warn, "  File cut short at line %zu.", p->truncated_line);
    else if (p->companion_cut_line)
        snprintf(warn, sizeof warn, "  Companion cut short at line %zu.", p->companion_cut_line);
    else if (p->end_record == VIS_END_RECORD_RUNNING)
        snprintf(warn, sizeof warn, "  Not at exit: killed, or still running.");
    int warn_w = warn[0] ? vis_font_width(c->reg, c->fs_sub, warn) : 0;
    vis_font_fit(c->reg, c->fs_sub, buf, sub_w - warn_w, fitted, sizeof fitted);
    int used = vis_font_draw(c->cv, c->reg, c->fs_sub, c->pad, sub_y, fitted, VIS_COLOUR_MUTED);
    if (warn[0])
        vis_font_draw(c->cv, c->bold, c->fs_sub, c->pad + used, sub_y, warn, COLOUR_WARN);
}

/* The plot: grid, bands and total, grid over bands, the RSS (on the panel
 * when there is one), axes, the limit, the marks' and the peaks' lines,
 * the annotations and the growth tags. Returns -1 when out of memory. */
static int draw_plot(chart *c, const annot *a, size_t n_annot, int rss_annot)
{
    const vis_profile *p = c->p;
    const vis_snapshot *pk = &p->snaps[p->peak < p->n_snaps ? p->peak : 0];
    draw_y_axis(c, 0);
    if (c->panel) {
        swap_axis(c);
        draw_y_axis(c, 0);
        swap_axis(c);
    }
    draw_x_axis(c);
    c->cols = vis_chart_cols_new(p, c->d, c->t0, c->t1, (size_t)(c->x1 - c->x0 + 1));
    if (!c->cols)
        return -1;
    draw_bands(c);
    if (c->panel) {
        draw_y_axis(c, 1);
        draw_panel(c);
    } else {
        draw_rss(c, 1, 0, COLOUR_RSS, 0, 0);
        draw_held(c);
        draw_y_axis(c, 1);
        if (c->rss.show_file)
            draw_rss(c, 0, 1, COLOUR_RSS_FILE, px(c, 2), 1);
        draw_rss(c, 0, 0, COLOUR_RSS, px(c, 3), 0);
    }
    vis_canvas_vline(c->cv, c->x0 - 1, c->y0, c->y1 + 1, 1, VIS_COLOUR_AXIS, 255);
    vis_canvas_hline(c->cv, c->x0 - 1, c->x1, c->y1 + 1, 1, VIS_COLOUR_AXIS, 255);
    draw_limit(c);
    for (size_t m = 0; m < p->n_marks; m++) {
        vis_canvas_vdash(c->cv, a[1 + m].x, c->y0, c->y1, 1, px(c, 6), px(c, 4), VIS_COLOUR_MARK, 220);
        if (c->panel)
            vis_canvas_vdash(c->cv, a[1 + m].x, c->ry0, c->ry1, 1, px(c, 6), px(c, 4), VIS_COLOUR_MARK, 220);
    }
    /* The peak: its line down to the total, and a marker on it. */
    int peak_y = y_of(c, (double)vis_snap_total(pk));
    vis_canvas_vline(c->cv, a[0].x, c->y0, peak_y, px(c, 2), VIS_COLOUR_PEAK, 255);
    vis_canvas_disc(c->cv, a[0].x, peak_y, px(c, 6) + 1.5, 0xFFFFFF, 255);
    vis_canvas_disc(c->cv, a[0].x, peak_y, px(c, 6), VIS_COLOUR_PEAK, 255);
    if (rss_annot) {                     /* the RSS peak: a ring on its line */
        int rx = a[n_annot - 1].x;
        int ry = y_of(c, (double)c->rss.pts[c->rss.peak].total_B);
        vis_canvas_vline(c->cv, rx, c->y0, ry, 1, COLOUR_RSS, 255);
        vis_canvas_disc(c->cv, rx, ry, px(c, 6) + 1.5, COLOUR_RSS, 255);
        vis_canvas_disc(c->cv, rx, ry, px(c, 3), 0xFFFFFF, 255);
    }
    draw_annots(c, a, n_annot);
    draw_growth_tags(c);
    return 0;
}

/* The y axis title, reading upwards, left of the tick labels. */
static void draw_y_title(chart *c, int rss_annot)
{
    const char *ytitle = rss_annot ? "memory (heap + extra heap + stacks; line: resident)"
                                  : "memory (heap + extra heap + stacks)";
    int ytw = vis_font_width(c->reg, c->fs, ytitle);
    if (ytw > c->y1 - c->y0) {          /* small images: the short form */
        ytitle = "memory";
        ytw = vis_font_width(c->reg, c->fs, ytitle);
    }
    if (ytw <= c->y1 - c->y0)
        vis_font_draw_up(c->cv, c->reg, c->fs, c->pad + ascent(c, c->fs),
                    (c->y0 + c->y1) / 2 + ytw / 2, ytitle, VIS_COLOUR_MUTED);
}

/* The footnote's lines (footnote_lines), at the bottom of an image H high. */
static void draw_footnote(chart *c, int H)
{
    int fy = H - c->pad / 2 - c->n_foot * line_h(c, c->fs_small) + ascent(c, c->fs_small);
    for (int i = 0; i < c->n_foot; i++)
        vis_font_draw(c->cv, c->reg, c->fs_small, c->pad, fy + i * line_h(c, c->fs_small),
                      c->foot_drawn[i], VIS_COLOUR_MUTED);
}

static int render(chart *c, int W, int H, char *err, size_t errsz)
{
    set_sizes(c, W, H);
    int legend_right = W >= 900;
    legend_box lb = { 0, 0, 0, 1 };
    if (layout_x(c, W, legend_right, &lb) != 0) {
        snprintf(err, errsz, "image too narrow for the chart (width %d)", W);
        return -1;
    }
    int y = c->pad;
    int title_y = y + ascent(c, c->fs_title);
    y += line_h(c, c->fs_title) + px(c, 4);
    int sub_y = y + ascent(c, c->fs_sub);
    y += line_h(c, c->fs_sub) + px(c, 14);
    int rss_annot = c->rss.n && !c->panel;
    size_t n_annot = 0;
    annot *a = make_annots(c, rss_annot, &n_annot);
    if (!a) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    if (layout_y(c, W, H, y, legend_right, a, n_annot, &lb) != 0) {
        snprintf(err, errsz, "image too short for the chart (height %d)", H);
        free(a);
        return -1;
    }
    draw_titles(c, W, title_y, sub_y);
    if (draw_plot(c, a, n_annot, rss_annot) != 0) {
        snprintf(err, errsz, "out of memory");
        free(a);
        return -1;
    }
    draw_y_title(c, rss_annot);
    draw_legend(c, lb);
    draw_footnote(c, H);
    if (c->layout_out && !(*c->layout_out = describe_layout(c, a, n_annot, lb))) {
        snprintf(err, errsz, "out of memory");
        free(a);
        return -1;
    }
    free(a);
    return 0;
}

int vis_chart_write_png(const vis_profile *p, const vis_chart_opts *o,
                        const char *out_path, char *err, size_t errsz)
{
    if (vis_chart_opts_check(o, err, errsz) != 0)
        return -1;
    chart c;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.layout_out = o->layout;
    c.growth = o->growth;
    int rc = -1;
    c.d = vis_chart_data_new(p, (size_t)o->top_n, err, errsz);
    if (!c.d)
        return -1;
    if (vis_rss_series_build(p, &c.rss) != 0) {
        snprintf(err, errsz, "out of memory");
        vis_chart_data_free((vis_chart_data *)c.d);
        return -1;
    }
    c.reg = vis_font_open(MT_FONT, err, errsz);
    if (c.reg)
        c.bold = vis_font_open(MT_FONT_BOLD, err, errsz);
    if (c.bold) {
        c.cv = vis_canvas_new(o->width, o->height, VIS_COLOUR_BG);
        if (!c.cv)
            snprintf(err, errsz, "out of memory for a %dx%d image", o->width, o->height);
    }
    if (c.cv && render(&c, o->width, o->height, err, errsz) == 0)
        rc = vis_png_write(c.cv, out_path, err, errsz);
    vis_canvas_free(c.cv);
    vis_font_free(c.bold);
    vis_font_free(c.reg);
    vis_chart_data_free((vis_chart_data *)c.d);
    vis_chart_cols_free(c.cols);
    vis_rss_series_free(&c.rss);
    if (rc != 0 && o->layout) {
        free(*o->layout);
        *o->layout = NULL;
    }
    return rc;
}
