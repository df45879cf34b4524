/* font.h: anti-aliased text on an vis_canvas through FreeType, from one
 * TrueType file (configure picks DejaVu Sans: MT_FONT / MT_FONT_BOLD).
 * Text is UTF-8; invalid bytes are drawn as U+FFFD. Sizes are pixel heights
 * of the em square, so layout scales with the image, not with a DPI. */
#ifndef MT_FONT_H
#define MT_FONT_H

/* The fonts every chart opens: configure passes the ones it found
 * (-DMT_FONT, -DMT_FONT_BOLD); these defaults are Debian's DejaVu. */
#ifndef MT_FONT
#define MT_FONT "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#endif
#ifndef MT_FONT_BOLD
#define MT_FONT_BOLD "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
#endif

#include <stddef.h>
#include "base/canvas.h"

typedef struct vis_font vis_font;

/* Loads the face at path. Returns NULL with a one-line message in err
 * ("cannot load font /x.ttf: ... (install fonts-dejavu-core)") on failure. */
vis_font *vis_font_open(const char *path, char *err, size_t errsz);
void vis_font_free(vis_font *f);

/* Ascent and descent (both positive, px) of a line at size_px. */
void vis_font_metrics(vis_font *f, int size_px, int *ascent_px, int *descent_px);
/* Horizontal advance of the whole string, kerning included. */
int vis_font_width(vis_font *f, int size_px, const char *utf8);
/* Draws text with its baseline at y, starting at x. Returns its advance. */
int vis_font_draw(vis_canvas *c, vis_font *f, int size_px, int x, int y,
                 const char *utf8, vis_rgb colour);
/* Draws text rotated 90 degrees counter-clockwise (reading bottom to top),
 * its baseline at x and starting at the bottom y. Returns its advance. */
int vis_font_draw_up(vis_canvas *c, vis_font *f, int size_px, int x, int y,
                    const char *utf8, vis_rgb colour);
/* Writes into out (size outsz) text shortened to at most max_px wide by
 * replacing its middle with an ellipsis (U+2026), keeping more of the end
 * (where file:line sits). Returns out. */
char *vis_font_fit(vis_font *f, int size_px, const char *utf8, int max_px,
                  char *out, size_t outsz);

/* Like vis_font_fit, for prose (a title): keeps the longest run of whole
 * words that fits with " \u2026" after it (vis_font_fit if even the first
 * word is too wide). Returns out. */
char *vis_font_fit_words(vis_font *f, int size_px, const char *utf8, int max_px,
                         char *out, size_t outsz);

#endif
