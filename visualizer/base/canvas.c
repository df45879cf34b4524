/* canvas.c: the in-memory RGB canvas (see canvas.h). Blending is done in
 * 8-bit sRGB space, which is what every chart library does for flat colours
 * and keeps the arithmetic exact for opaque fills (tests compare colours). */
#include "base/canvas.h"

#include <math.h>
#include <stdlib.h>

struct vis_canvas {
    int w, h;
    uint8_t *px;            /* w*h*3 bytes */
};

vis_canvas *vis_canvas_new(int width_px, int height_px, vis_rgb bg)
{
    if (width_px <= 0 || height_px <= 0)
        return NULL;
    vis_canvas *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    c->w = width_px;
    c->h = height_px;
    c->px = malloc((size_t)width_px * (size_t)height_px * 3);
    if (!c->px) {
        free(c);
        return NULL;
    }
    vis_canvas_fill(c, 0, 0, width_px, height_px, bg, 255);
    return c;
}

void vis_canvas_free(vis_canvas *c)
{
    if (!c)
        return;
    free(c->px);
    free(c);
}

int vis_canvas_width(const vis_canvas *c) { return c->w; }
int vis_canvas_height(const vis_canvas *c) { return c->h; }
const uint8_t *vis_canvas_pixels(const vis_canvas *c) { return c->px; }

vis_rgb vis_canvas_get(const vis_canvas *c, int x, int y)
{
    if (x < 0 || y < 0 || x >= c->w || y >= c->h)
        return 0;
    const uint8_t *p = c->px + ((size_t)y * c->w + x) * 3;
    return (vis_rgb)p[0] << 16 | (vis_rgb)p[1] << 8 | p[2];
}

static inline void blend_px(uint8_t *p, vis_rgb colour, unsigned alpha)
{
    unsigned r = colour >> 16 & 255, g = colour >> 8 & 255, b = colour & 255;
    if (alpha >= 255) {
        p[0] = r; p[1] = g; p[2] = b;
        return;
    }
    unsigned na = 255 - alpha;
    /* +127 rounds to nearest; exact for alpha 0 and 255. */
    p[0] = (uint8_t)((r * alpha + p[0] * na + 127) / 255);
    p[1] = (uint8_t)((g * alpha + p[1] * na + 127) / 255);
    p[2] = (uint8_t)((b * alpha + p[2] * na + 127) / 255);
}

void vis_canvas_blend(vis_canvas *c, int x, int y, vis_rgb colour, unsigned alpha)
{
    if (x < 0 || y < 0 || x >= c->w || y >= c->h || alpha == 0)
        return;
    blend_px(c->px + ((size_t)y * c->w + x) * 3, colour, alpha);
}

void vis_canvas_fill(vis_canvas *c, int x0, int y0, int x1, int y1,
                    vis_rgb colour, unsigned alpha)
{
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > c->w) x1 = c->w;
    if (y1 > c->h) y1 = c->h;
    if (alpha == 0)
        return;
    for (int y = y0; y < y1; y++) {
        uint8_t *p = c->px + ((size_t)y * c->w + x0) * 3;
        for (int x = x0; x < x1; x++, p += 3)
            blend_px(p, colour, alpha);
    }
}

void vis_canvas_hline(vis_canvas *c, int x0, int x1, int y, int thick_px,
                     vis_rgb colour, unsigned alpha)
{
    if (x1 < x0) { int t = x0; x0 = x1; x1 = t; }
    int top = y - (thick_px - 1) / 2;
    vis_canvas_fill(c, x0, top, x1 + 1, top + thick_px, colour, alpha);
}

void vis_canvas_vline(vis_canvas *c, int x, int y0, int y1, int thick_px,
                     vis_rgb colour, unsigned alpha)
{
    if (y1 < y0) { int t = y0; y0 = y1; y1 = t; }
    int left = x - (thick_px - 1) / 2;
    vis_canvas_fill(c, left, y0, left + thick_px, y1 + 1, colour, alpha);
}

void vis_canvas_vdash(vis_canvas *c, int x, int y0, int y1, int thick_px,
                     int dash_px, int gap_px, vis_rgb colour, unsigned alpha)
{
    if (y1 < y0) { int t = y0; y0 = y1; y1 = t; }
    if (dash_px < 1) dash_px = 1;
    if (gap_px < 0) gap_px = 0;
    for (int y = y0; y <= y1; y += dash_px + gap_px) {
        int e = y + dash_px - 1;
        vis_canvas_vline(c, x, y, e < y1 ? e : y1, thick_px, colour, alpha);
    }
}

void vis_canvas_frame(vis_canvas *c, int x0, int y0, int x1, int y1,
                     vis_rgb colour, unsigned alpha)
{
    if (x1 <= x0 || y1 <= y0)
        return;
    vis_canvas_hline(c, x0, x1 - 1, y0, 1, colour, alpha);
    vis_canvas_hline(c, x0, x1 - 1, y1 - 1, 1, colour, alpha);
    if (y1 - y0 > 2) {
        vis_canvas_vline(c, x0, y0 + 1, y1 - 2, 1, colour, alpha);
        vis_canvas_vline(c, x1 - 1, y0 + 1, y1 - 2, 1, colour, alpha);
    }
}

void vis_canvas_disc(vis_canvas *c, double cx, double cy, double r,
                    vis_rgb colour, unsigned alpha)
{
    /* Coverage from 4x4 supersampling per pixel: cheap for marker-sized discs. */
    int x0 = (int)floor(cx - r - 1), x1 = (int)ceil(cx + r + 1);
    int y0 = (int)floor(cy - r - 1), y1 = (int)ceil(cy + r + 1);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            int hits = 0;
            for (int sy = 0; sy < 4; sy++)
                for (int sx = 0; sx < 4; sx++) {
                    double dx = x + (sx + 0.5) / 4 - 0.5 - cx;
                    double dy = y + (sy + 0.5) / 4 - 0.5 - cy;
                    hits += dx * dx + dy * dy <= r * r;
                }
            if (hits)
                vis_canvas_blend(c, x, y, colour, alpha * hits / 16);
        }
}

void vis_canvas_hatch(vis_canvas *c, int x0, int y0, int x1, int y1,
                      vis_rgb colour, vis_rgb bg, int period, int line_w)
{
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > c->w) x1 = c->w;
    if (y1 > c->h) y1 = c->h;
    if (period < 2)
        period = 2;
    for (int y = y0; y < y1; y++) {
        uint8_t *p = c->px + ((size_t)y * c->w + x0) * 3;
        for (int x = x0; x < x1; x++, p += 3)
            blend_px(p, (x + y) % period < line_w ? colour : bg, 255);
    }
}
