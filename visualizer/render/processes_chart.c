/* processes_chart.c: the all-processes chart (processes_chart.h). */
#include <stdio.h>
#include "base/canvas.h"
#include "base/font.h"
#include "base/png_file.h"
#include "base/units.h"
#include "render/processes_chart.h"

/* One lane per process, in start order, on one time axis: the lane's
 * band is the process's total memory (heap + extra + stacks) as a step
 * chart, scaled to the largest peak of all; its label names the process,
 * and a killed one says so in red at the end of its band. */
int vis_procs_write_png(const vis_procs *ps, int width, int height, const char *path,
                        char *err, size_t errsz)
{
    const vis_rgb bg = 0xFFFFFF, ink = 0x202020, grid = 0xDDDDDD, band = 0x4C78A8,
                  red = 0xC62828;
    int lane_h = (height - 120) / (int)ps->n;
    if (lane_h < 24) {
        lane_h = 24;
        height = 120 + lane_h * (int)ps->n;
        if (height > 8000) {
            snprintf(err, errsz, "%s: %zu processes do not fit in a chart (at most %d)", path,
                     ps->n, (8000 - 120) / 24);
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
        vis_canvas_fill(cv, x0 + (int)((x1 - x0) * (double)q->abs_start / (double)t_end), ly1 - 1,
                        x0 + (int)((x1 - x0) * (double)q->abs_end / (double)t_end) + 1, ly1 + 2,
                        0x9E9E9E, 255);
        for (size_t k = 0; k < p->n_snaps; k++) {
            double ta = (double)(shift + (long long)p->snaps[k].time);
            double tb = k + 1 < p->n_snaps ? (double)(shift + (long long)p->snaps[k + 1].time) : ta;
            int xa = x0 + (int)((x1 - x0) * ta / (double)t_end);
            int xb = x0 + (int)((x1 - x0) * tb / (double)t_end);
            if (xb <= xa)
                xb = xa + 1;
            int h = (int)((double)(ly1 - ly0 - 2) * (double)vis_snap_total(&p->snaps[k]) / (double)peak);
            if (h > 0)
                vis_canvas_fill(cv, xa, ly1 - h, xb, ly1, band, 255);
        }
        char pid[24], fitted[256];
        snprintf(pid, sizeof pid, "%lld", q->pid);
        snprintf(buf, sizeof buf, "%s %s", pid, vis_proc_name(q));
        vis_font_fit(f, 13, buf, x0 - 30, fitted, sizeof fitted);
        vis_font_draw(cv, f, 13, 20, ly1 - 4, fitted, ink);
        if (q->end_kind == VIS_END_SIGNAL) {
            int xe = x0 + (int)((x1 - x0) * (double)q->abs_end / (double)t_end);
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
