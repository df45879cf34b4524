/* processes_chart.c: the all-processes chart (processes_chart.h). Each
 * lane is drawn by chart_data's one column rule, from the process's exact
 * outline when its companion has one. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "base/canvas.h"
#include "base/font.h"
#include "base/png_file.h"
#include "base/units.h"
#include "render/chart.h"
#include "render/processes_chart.h"
#include "model/chart_data.h"
#include "model/outline.h"

/* Room above and below the lanes (title, time axis), and the thinnest lane
 * that still holds its label: more processes make the image taller, up to
 * the largest chart (chart.h). */
#define MARGINS_PX 120
#define MIN_LANE_PX 24

/* The overview's palette: its bands are one colour (the lanes tell the
 * processes apart), ended lives grey, a kill red. */
static const vis_rgb bg = VIS_COLOUR_BG, ink = 0x202020, grid = 0xDDDDDD, band = 0x4C78A8,
                     life = 0x9E9E9E, red = 0xC62828;

/* The column of time t (from the first start) on the lanes' axis, 0 to
 * t_end. Truncated, not rounded as plot.h rounds: the lanes are drawn
 * edge to edge, each band from one snapshot's column to the next's. */
static int lane_x(int x0, int x1, long long t_end, double t)
{
    return x0 + (int)((x1 - x0) * t / (double)t_end);
}

/* A lane's band, by chart_data's column rule on the lanes' axis (columns
 * truncated, off = 0): each column as high as the most the process held in
 * it, from its exact outline when it has one (a burst is a spike), else its
 * snapshots, each held until the next, the last one for its own column. */
static int lane(vis_canvas *cv, const vis_profile *p, long long shift, long long t_end, int x0,
                int x1, int ybase, int hmax, uint64_t peak)
{
    size_t ncol = (size_t)(x1 - x0 + 1);
    vis_col *col = vis_total_columns(p, (double)-shift, (double)(t_end - shift), ncol, 0);
    if (!col)
        return -1;
    for (size_t k = 0; k < ncol; k++) {
        int h = col[k].has ? (int)((double)hmax * (double)col[k].max_B / (double)peak) : 0;
        if (h > 0)
            vis_canvas_fill(cv, x0 + (int)k, ybase - h, x0 + (int)k + 1, ybase, band, 255);
    }
    free(col);
    return 0;
}

/* One lane per process, in start order, on one time axis: the lane's
 * band is the process's total memory (heap + extra + stacks) as a step
 * chart, scaled to the largest peak of all; its label names the process,
 * and a killed one says so in red at the end of its band. */
int vis_procs_write_png(const vis_procs *ps, int width, int height, const char *path,
                        char *err, size_t errsz)
{
    int lane_h = (height - MARGINS_PX) / (int)ps->n;
    if (lane_h < MIN_LANE_PX) {
        lane_h = MIN_LANE_PX;
        height = MARGINS_PX + lane_h * (int)ps->n;
        if (height > VIS_CHART_MAX_PX) {
            snprintf(err, errsz, "%s: %zu processes do not fit in a chart (at most %d)", path,
                     ps->n, (VIS_CHART_MAX_PX - MARGINS_PX) / MIN_LANE_PX);
            return -1;
        }
    }
    vis_canvas *cv = vis_canvas_new(width, height, bg);
    vis_font *f = vis_font_open(MT_FONT, err, errsz);
    if (!cv || !f) {
        vis_canvas_free(cv);
        vis_font_free(f);
        if (!cv)
            snprintf(err, errsz, "out of memory");
        return -1;
    }
    long long t_end = 1;
    uint64_t peak = 1;
    for (size_t i = 0; i < ps->n; i++) {
        if (ps->procs[i].abs_end > t_end)
            t_end = ps->procs[i].abs_end;
        if (ps->procs[i].peak_B > peak)
            peak = ps->procs[i].peak_B;
        if (vis_outline_max(&ps->procs[i].profile->outline).bytes > peak)   /* its true top */
            peak = vis_outline_max(&ps->procs[i].profile->outline).bytes;
    }
    int x0 = width * 30 / 100, x1 = width - 40, y_top = 60;
    char buf[512], t1[64], t2[64];
    snprintf(buf, sizeof buf, "%zu processes on one time axis (0 to %s); bands: total memory, "
             "scaled to the largest peak (%s)", ps->n, vis_fmt_time(t1, sizeof t1, ps->unit,
             (uint64_t)t_end), vis_fmt_bytes(t2, sizeof t2, peak));
    vis_font_draw(cv, f, 16, 20, 30, buf, ink);
    for (size_t i = 0; i < ps->n; i++) {
        const vis_proc *q = &ps->procs[i];
        const vis_profile *p = q->profile;
        int ly0 = y_top + (int)i * lane_h, ly1 = ly0 + lane_h - 4;
        vis_canvas_hline(cv, x0, x1, ly1, 1, grid, 255);
        long long shift = q->abs_start - (long long)p->snaps[0].time;
        /* Its life: a thin line from start to end under the band. */
        vis_canvas_fill(cv, lane_x(x0, x1, t_end, (double)q->abs_start), ly1 - 1,
                        lane_x(x0, x1, t_end, (double)q->abs_end) + 1, ly1 + 2, life, 255);
        if (lane(cv, p, shift, t_end, x0, x1, ly1, ly1 - ly0 - 2, peak) != 0) {
            snprintf(err, errsz, "out of memory");
            vis_font_free(f);
            vis_canvas_free(cv);
            return -1;
        }
        char pid[24], fitted[256];
        snprintf(pid, sizeof pid, "%lld", q->pid);
        snprintf(buf, sizeof buf, "%s %s", pid, vis_proc_name(q));
        vis_font_fit(f, 13, buf, x0 - 30, fitted, sizeof fitted);
        vis_font_draw(cv, f, 13, 20, ly1 - 4, fitted, ink);
        if (q->end_kind == VIS_END_SIGNAL) {
            int xe = lane_x(x0, x1, t_end, (double)q->abs_end);
            char e[64];
            vis_canvas_vline(cv, xe, ly0 + 2, ly1, 2, red, 255);
            vis_proc_ending(q, e, sizeof e);
            int w = vis_font_width(f, 12, e);
            vis_font_draw(cv, f, 12, xe + 4 + w < x1 ? xe + 4 : xe - 4 - w, ly0 + 14, e, red);
        }
    }
    int yb = y_top + (int)ps->n * lane_h + 16;
    for (int k = 0; k <= 4; k++) {
        int x = x0 + (x1 - x0) * k / 4;
        vis_canvas_vline(cv, x, y_top, yb - 12, 1, grid, 160);
        vis_fmt_time(t1, sizeof t1, ps->unit, (uint64_t)(t_end * k / 4));
        vis_font_draw(cv, f, 12, x - vis_font_width(f, 12, t1) / 2, yb + 4, t1, ink);
    }
    int rc = vis_png_write(cv, path, err, errsz);
    vis_font_free(f);
    vis_canvas_free(cv);
    return rc;
}
