/* font.h: anti-aliased text on an mt_canvas through FreeType, from one
 * TrueType file (configure picks DejaVu Sans: MT_FONT / MT_FONT_BOLD).
 * Text is UTF-8; invalid bytes are drawn as U+FFFD. Sizes are pixel heights
 * of the em square, so layout scales with the image, not with a DPI. */
#ifndef MT_FONT_H
#define MT_FONT_H

#include <stddef.h>
#include "canvas.h"

typedef struct mt_font mt_font;

/* Loads the face at path. Returns NULL with a one-line message in err
 * ("cannot load font /x.ttf: ... (install fonts-dejavu-core)") on failure. */
mt_font *mt_font_open(const char *path, char *err, size_t errsz);
void mt_font_free(mt_font *f);

/* Ascent and descent (both positive, px) of a line at size_px. */
void mt_font_metrics(mt_font *f, int size_px, int *ascent_px, int *descent_px);
/* Horizontal advance of the whole string, kerning included. */
int mt_font_width(mt_font *f, int size_px, const char *utf8);
/* Draws text with its baseline at y, starting at x. Returns its advance. */
int mt_font_draw(mt_canvas *c, mt_font *f, int size_px, int x, int y,
                 const char *utf8, mt_rgb colour);
/* Draws text rotated 90 degrees counter-clockwise (reading bottom to top),
 * its baseline at x and starting at the bottom y. Returns its advance. */
int mt_font_draw_up(mt_canvas *c, mt_font *f, int size_px, int x, int y,
                    const char *utf8, mt_rgb colour);
/* Writes into out (size outsz) text shortened to at most max_px wide by
 * replacing its middle with an ellipsis (U+2026), keeping more of the end
 * (where file:line sits). Returns out. */
char *mt_font_fit(mt_font *f, int size_px, const char *utf8, int max_px,
                  char *out, size_t outsz);

#endif
