/* canvas.h: an in-memory RGB canvas and the few drawing primitives the chart
 * needs (rectangles, horizontal/vertical lines, dashes, discs), each with alpha
 * blending. No I/O: png.c encodes the finished pixels. Coordinates are pixels,
 * (0,0) is the top-left corner; anything outside the canvas is clipped. */
#ifndef MT_CANVAS_H
#define MT_CANVAS_H

#include <stddef.h>
#include <stdint.h>

typedef struct mt_canvas mt_canvas;

/* Colours are 0xRRGGBB; alpha is 0..255 (255 = opaque). */
typedef uint32_t mt_rgb;

/* Returns a canvas filled with bg, or NULL if out of memory. Sizes must be
 * positive (the caller checks user input). */
mt_canvas *mt_canvas_new(int width_px, int height_px, mt_rgb bg);
void mt_canvas_free(mt_canvas *c);

int mt_canvas_width(const mt_canvas *c);
int mt_canvas_height(const mt_canvas *c);
/* Row-major RGB bytes, 3 per pixel, no padding; owned by the canvas. */
const uint8_t *mt_canvas_pixels(const mt_canvas *c);
mt_rgb mt_canvas_get(const mt_canvas *c, int x, int y);

/* Blends colour over one pixel with alpha 0..255. */
void mt_canvas_blend(mt_canvas *c, int x, int y, mt_rgb colour, unsigned alpha);
/* Fills the half-open rectangle [x0,x1) x [y0,y1). */
void mt_canvas_fill(mt_canvas *c, int x0, int y0, int x1, int y1,
                    mt_rgb colour, unsigned alpha);
/* Lines of the given thickness (px), centred on x (vertical) or y (horizontal),
 * covering [a0,a1] inclusive along their length. */
void mt_canvas_hline(mt_canvas *c, int x0, int x1, int y, int thick_px,
                     mt_rgb colour, unsigned alpha);
void mt_canvas_vline(mt_canvas *c, int x, int y0, int y1, int thick_px,
                     mt_rgb colour, unsigned alpha);
/* A vertical dashed line: dash_px drawn, gap_px skipped, starting at y0. */
void mt_canvas_vdash(mt_canvas *c, int x, int y0, int y1, int thick_px,
                     int dash_px, int gap_px, mt_rgb colour, unsigned alpha);
/* An outlined rectangle, 1 px wide, inside [x0,x1) x [y0,y1). */
void mt_canvas_frame(mt_canvas *c, int x0, int y0, int x1, int y1,
                     mt_rgb colour, unsigned alpha);
/* An anti-aliased filled disc centred on (cx,cy) (pixel-centre coordinates). */
void mt_canvas_disc(mt_canvas *c, double cx, double cy, double r,
                    mt_rgb colour, unsigned alpha);

#endif
