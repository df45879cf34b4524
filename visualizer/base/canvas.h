/* canvas.h: an in-memory RGB canvas and the few drawing primitives the chart
 * needs (rectangles, horizontal/vertical lines, dashes, discs), each with alpha
 * blending. No I/O: png_file.c encodes the finished pixels. Coordinates are pixels,
 * (0,0) is the top-left corner; anything outside the canvas is clipped. */
#ifndef MT_CANVAS_H
#define MT_CANVAS_H

#include <stddef.h>
#include <stdint.h>

typedef struct vis_canvas vis_canvas;

/* Colours are 0xRRGGBB; alpha is 0..255 (255 = opaque). */
typedef uint32_t vis_rgb;

/* Returns a canvas filled with bg, or NULL if out of memory. Sizes must be
 * positive (the caller checks user input). */
vis_canvas *vis_canvas_new(int width_px, int height_px, vis_rgb bg);
void vis_canvas_free(vis_canvas *c);

int vis_canvas_width(const vis_canvas *c);
int vis_canvas_height(const vis_canvas *c);
/* Row-major RGB bytes, 3 per pixel, no padding; owned by the canvas. */
const uint8_t *vis_canvas_pixels(const vis_canvas *c);
vis_rgb vis_canvas_get(const vis_canvas *c, int x, int y);

/* Blends colour over one pixel with alpha 0..255. */
void vis_canvas_blend(vis_canvas *c, int x, int y, vis_rgb colour, unsigned alpha);
/* Fills the half-open rectangle [x0,x1) x [y0,y1). */
void vis_canvas_fill(vis_canvas *c, int x0, int y0, int x1, int y1,
                    vis_rgb colour, unsigned alpha);
/* Fills [x0,x1) x [y0,y1) with a diagonal hatch: lines of colour line_w px
 * wide every period px (running up to the right, anchored to the canvas so
 * neighbouring fills join), bg between them. */
void vis_canvas_hatch(vis_canvas *c, int x0, int y0, int x1, int y1,
                      vis_rgb colour, vis_rgb bg, int period, int line_w);
/* Lines of the given thickness (px), centred on x (vertical) or y (horizontal),
 * covering [a0,a1] inclusive along their length. */
void vis_canvas_hline(vis_canvas *c, int x0, int x1, int y, int thick_px,
                     vis_rgb colour, unsigned alpha);
void vis_canvas_vline(vis_canvas *c, int x, int y0, int y1, int thick_px,
                     vis_rgb colour, unsigned alpha);
/* A vertical dashed line: dash_px drawn, gap_px skipped, starting at y0. */
void vis_canvas_vdash(vis_canvas *c, int x, int y0, int y1, int thick_px,
                     int dash_px, int gap_px, vis_rgb colour, unsigned alpha);
/* An outlined rectangle, 1 px wide, inside [x0,x1) x [y0,y1). */
void vis_canvas_frame(vis_canvas *c, int x0, int y0, int x1, int y1,
                     vis_rgb colour, unsigned alpha);
/* An anti-aliased filled disc centred on (cx,cy) (pixel-centre coordinates). */
void vis_canvas_disc(vis_canvas *c, double cx, double cy, double r,
                    vis_rgb colour, unsigned alpha);

#endif
