/* diff_chart.c: the diff chart (see diff_chart.h). Layout, top to bottom:
 * title, the two totals over time (OLD grey, NEW orange; x is time since
 * the start, or since the alignment mark; each drawn by chart_data's
 * column rule, from the exact outline when the profile has one), then one
 * bar per changed site, from a zero line, with its name and difference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/canvas.h"
#include "base/font.h"
#include "base/png_file.h"
#include "base/units.h"
#include "base/units.h"
#include "render/chart.h"
#include "render/diff_chart.h"
#include "model/chart_data.h"
#include "model/outline.h"
#include "render/plot.h"


#define W 1400
#define H 900
#define C_OLD   0x7F7F7F
#define C_NEW   0xFF7F0E
#define C_GREW  VIS_COLOUR_PEAK
#define C_SHRANK 0x1F77B4

typedef struct {
    vis_canvas *cv;
    vis_font *reg, *bold;
    int x0, x1, y0, y1;          /* the totals' plot */
    double t0, t1, ymax;
} dc;

static int xt(const dc *c, double t)
{
    return vis_plot_x(c->x0, c->x1, c->t0, c->t1, t);
}

static int yb(const dc *c, double b)
{
    return vis_plot_y(c->y0, c->y1, c->ymax, b);
}

/* One profile's total, shifted by align, by chart_data's column rule: the
 * exact outline's range in each column when the profile has one (a burst
 * between snapshots is a spike at its height), else the snapshots held as
 * steps up to the last. 2 px thick where it runs flat. */
static int total_line(dc *c, const vis_profile *p, uint64_t align, vis_rgb colour)
{
    size_t ncol = (size_t)(c->x1 - c->x0 + 1);
    vis_col *col = vis_total_columns(p, c->t0 + (double)align, c->t1 + (double)align, ncol, 0.5);
    if (!col)
        return -1;
    for (size_t k = 0; k < ncol; k++)
        if (col[k].has) {
            int x = c->x0 + (int)k;
            int yhi = yb(c, (double)col[k].max_B), ylo = yb(c, (double)col[k].min_B);
            vis_canvas_fill(c->cv, x, yhi - 1, x + 1, ylo + 1, colour, 255);
        }
    free(col);
    return 0;
}

int vis_diff_chart_png(const vis_profile *old, const vis_profile *new_, const vis_diff *d,
                       uint64_t align_old, uint64_t align_new, const char *align_label,
                       int top_n, const char *path, char *err, size_t errsz)
{
    dc c;
    memset(&c, 0, sizeof c);
    int rc = -1;
    if (!(c.cv = vis_canvas_new(W, H, VIS_COLOUR_BG))) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    if (!(c.reg = vis_font_open(MT_FONT, err, errsz)) ||
        !(c.bold = vis_font_open(MT_FONT_BOLD, err, errsz)))
        goto out;
    char buf[1024], a[48], b[64], e[48];
    int fs = 14;
    snprintf(buf, sizeof buf, "memtime-vis diff at %s: %s -> %s", d->at, old->path, new_->path);
    char fitted[1024];
    vis_font_fit(c.bold, 22, buf, W - 60, fitted, sizeof fitted);
    vis_font_draw(c.cv, c.bold, 22, 30, 40, fitted, VIS_COLOUR_TEXT);
    int64_t dt = (int64_t)d->new_.total - (int64_t)d->old.total;
    snprintf(buf, sizeof buf, "Total at %s: %s -> %s (%s). Sites matched by function and file:line.",
             d->at, vis_fmt_bytes(a, sizeof a, d->old.total), vis_fmt_bytes(b, sizeof b, d->new_.total),
             vis_fmt_delta(e, sizeof e, dt));
    vis_font_draw(c.cv, c.reg, 15, 30, 66, buf, VIS_COLOUR_MUTED);

    /* The totals. */
    c.x0 = 110;
    c.x1 = W - 40;
    c.y0 = 110;
    c.y1 = 430;
    double lo = 0, hi = 1;
    c.ymax = 1;
    const vis_profile *ps[2] = { old, new_ };
    uint64_t al[2] = { align_old, align_new };
    for (int k = 0; k < 2; k++) {
        const vis_profile *p = ps[k];
        double s = (double)p->snaps[0].time - (double)al[k];
        double t = (double)p->snaps[p->n_snaps - 1].time - (double)al[k];
        if (k == 0 || s < lo)
            lo = s;
        if (k == 0 || t > hi)
            hi = t;
        for (size_t i = 0; i < p->n_snaps; i++)
            if ((double)vis_snap_total(&p->snaps[i]) > c.ymax)
                c.ymax = (double)vis_snap_total(&p->snaps[i]);
        if ((double)vis_outline_max(&p->outline).bytes > c.ymax)   /* the exact outline's */
            c.ymax = (double)vis_outline_max(&p->outline).bytes;
        if (vis_outline_has(p)) {       /* and its time */
            double e = (double)p->outline.spans[p->outline.n - 1].end - (double)al[k];
            if (e > hi)
                hi = e;
        }
    }
    c.ymax *= 1.08;
    c.t0 = lo;
    c.t1 = hi > lo ? hi : lo + 1;
    vis_canvas_hline(c.cv, c.x0, c.x1, c.y1 + 1, 1, VIS_COLOUR_AXIS, 255);
    vis_canvas_vline(c.cv, c.x0 - 1, c.y0, c.y1 + 1, 1, VIS_COLOUR_AXIS, 255);
    for (int g = 0; g <= 4; g++) {
        double v = c.ymax / 1.08 * g / 4;
        int y = yb(&c, v);
        vis_canvas_hline(c.cv, c.x0, c.x1, y, 1, VIS_COLOUR_GRID, 255);
        vis_fmt_bytes(a, sizeof a, (uint64_t)v);
        vis_font_draw(c.cv, c.reg, 12, c.x0 - 8 - vis_font_width(c.reg, 12, a), y + 4, a, VIS_COLOUR_MUTED);
    }
    for (int g = 0; g <= 4; g++) {
        double t = c.t0 + (c.t1 - c.t0) * g / 4;
        int neg = t < 0;
        vis_fmt_time(a, sizeof a, old->unit, (uint64_t)fabs(t));
        b[0] = '-';
        memcpy(b + neg, a, strlen(a) + 1);   /* a is at most 47 bytes */
        int x = xt(&c, t);
        vis_font_draw(c.cv, c.reg, 12, x - vis_font_width(c.reg, 12, b) / 2, c.y1 + 20, b, VIS_COLOUR_MUTED);
    }
    snprintf(buf, sizeof buf, align_label ? "time since the mark '%s'" : "time since the start%s",
             align_label ? align_label : "");
    vis_font_draw(c.cv, c.reg, 13, (c.x0 + c.x1) / 2 - vis_font_width(c.reg, 13, buf) / 2,
                  c.y1 + 40, buf, VIS_COLOUR_MUTED);
    if (align_label)
        vis_canvas_vdash(c.cv, xt(&c, 0), c.y0, c.y1, 1, 6, 4, VIS_COLOUR_MARK, 220);
    if (total_line(&c, old, align_old, C_OLD) || total_line(&c, new_, align_new, C_NEW)) {
        snprintf(err, errsz, "out of memory");
        vis_font_free(c.reg);
        vis_font_free(c.bold);
        vis_canvas_free(c.cv);
        return -1;
    }
    /* Legend, top left of the plot. */
    vis_canvas_fill(c.cv, c.x0 + 12, c.y0 + 8, c.x0 + 32, c.y0 + 11, C_OLD, 255);
    vis_font_draw(c.cv, c.reg, fs, c.x0 + 40, c.y0 + 15, "OLD total", VIS_COLOUR_TEXT);
    vis_canvas_fill(c.cv, c.x0 + 12, c.y0 + 28, c.x0 + 32, c.y0 + 31, C_NEW, 255);
    vis_font_draw(c.cv, c.reg, fs, c.x0 + 40, c.y0 + 35, "NEW total", VIS_COLOUR_TEXT);

    /* The sites' differences. */
    int by0 = 500, row = 30;
    vis_font_draw(c.cv, c.bold, 16, 30, by0 - 14, "NEW minus OLD by site (red: grew, blue: shrank)",
                  VIS_COLOUR_TEXT);
    int64_t maxd = 1;
    int n = 0;
    for (size_t i = 0; i < d->n_rows && n < top_n; i++) {
        int64_t v = d->rows[i].delta_bytes;
        if (!v)
            continue;
        if (llabs(v) > maxd)
            maxd = llabs(v);
        n++;
    }
    int zx = 760, half = 260;
    vis_canvas_vline(c.cv, zx, by0, by0 + row * (n ? n : 1), 1, VIS_COLOUR_AXIS, 255);
    if (!n)
        vis_font_draw(c.cv, c.reg, fs, 30, by0 + 20, "(no site changed)", VIS_COLOUR_MUTED);
    int k = 0;
    for (size_t i = 0; i < d->n_rows && k < n; i++) {
        const vis_diff_row *r = &d->rows[i];
        if (!r->delta_bytes)
            continue;
        int y = by0 + k * row + 6;
        int len = (int)lround((double)half * (double)llabs(r->delta_bytes) / (double)maxd);
        if (len < 1)
            len = 1;
        if (r->delta_bytes > 0)
            vis_canvas_fill(c.cv, zx + 1, y, zx + 1 + len, y + row - 10, C_GREW, 255);
        else
            vis_canvas_fill(c.cv, zx - len, y, zx, y + row - 10, C_SHRANK, 255);
        vis_font_fit(c.reg, fs, r->site, zx - 50, fitted, sizeof fitted);
        vis_font_draw(c.cv, c.reg, fs, 30, y + 15, fitted, VIS_COLOUR_TEXT);
        vis_fmt_delta(a, sizeof a, r->delta_bytes);
        int tx = r->delta_bytes > 0 ? zx + len + 8 : zx + 8;
        vis_font_draw(c.cv, c.reg, fs, tx, y + 15, a, r->delta_bytes > 0 ? C_GREW : C_SHRANK);
        k++;
    }
    rc = vis_png_write(c.cv, path, err, errsz);
out:
    vis_font_free(c.reg);
    vis_font_free(c.bold);
    vis_canvas_free(c.cv);
    return rc;
}
