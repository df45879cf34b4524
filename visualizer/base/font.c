/* font.c: FreeType text rendering for the chart (see font.h).
 *
 * Glyphs are rendered with light hinting (FT_LOAD_TARGET_LIGHT): vertical
 * stems snap to the pixel grid, which keeps 11-14 px text crisp, while the
 * horizontal shapes keep their design, so DejaVu stays readable. Coverage is
 * 8-bit grey anti-aliasing blended over whatever is on the canvas. */
#include "base/font.h"
#include "base/utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H

struct vis_font {
    FT_Library lib;
    FT_Face face;
    int size_px;            /* size the face is currently set to */
};

vis_font *vis_font_open(const char *path, char *err, size_t errsz)
{
    vis_font *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    FT_Error e = FT_Init_FreeType(&f->lib);
    if (e) {
        snprintf(err, errsz, "cannot initialise FreeType (error %d)", e);
        free(f);
        return NULL;
    }
    e = FT_New_Face(f->lib, path, 0, &f->face);
    if (e) {
        snprintf(err, errsz, "cannot load font %s: %s (install fonts-dejavu-core "
                 "or reconfigure with --with-font=FILE)", path,
                 e == FT_Err_Cannot_Open_Resource ? "no such file or unreadable"
                 : e == FT_Err_Unknown_File_Format ? "not a font file"
                 : "FreeType cannot read it");
        FT_Done_FreeType(f->lib);
        free(f);
        return NULL;
    }
    return f;
}

void vis_font_free(vis_font *f)
{
    if (!f)
        return;
    FT_Done_Face(f->face);
    FT_Done_FreeType(f->lib);
    free(f);
}

static void set_size(vis_font *f, int size_px)
{
    if (size_px < 4)
        size_px = 4;
    if (f->size_px != size_px) {
        FT_Set_Pixel_Sizes(f->face, 0, (FT_UInt)size_px);
        f->size_px = size_px;
    }
}

void vis_font_metrics(vis_font *f, int size_px, int *ascent_px, int *descent_px)
{
    set_size(f, size_px);
    *ascent_px = (int)((f->face->size->metrics.ascender + 63) >> 6);
    *descent_px = (int)((-f->face->size->metrics.descender + 63) >> 6);
}

/* Walks the string: loads each glyph (rendered when draw), applies kerning,
 * and calls blit for each bitmap. Returns the advance in px. */
typedef void (*blit_fn)(void *ctx, const FT_Bitmap *bm, int pen_x, int left, int top);

static int walk(vis_font *f, int size_px, const char *s, blit_fn blit, void *ctx)
{
    set_size(f, size_px);
    FT_Int32 flags = FT_LOAD_TARGET_LIGHT | (blit ? FT_LOAD_RENDER : 0);
    long pen = 0;                   /* 26.6 fixed point */
    FT_UInt prev = 0;
    int kern = FT_HAS_KERNING(f->face);
    while (*s) {
        unsigned long cp = vis_utf8_next(&s);
        FT_UInt gi = FT_Get_Char_Index(f->face, cp);
        if (kern && prev && gi) {
            FT_Vector d;
            if (!FT_Get_Kerning(f->face, prev, gi, FT_KERNING_DEFAULT, &d))
                pen += d.x;
        }
        if (FT_Load_Glyph(f->face, gi, flags))
            continue;
        FT_GlyphSlot g = f->face->glyph;
        if (blit)
            blit(ctx, &g->bitmap, (int)((pen + 32) >> 6), g->bitmap_left, g->bitmap_top);
        pen += g->advance.x;
        prev = gi;
    }
    return (int)((pen + 32) >> 6);
}

int vis_font_width(vis_font *f, int size_px, const char *utf8)
{
    return walk(f, size_px, utf8, NULL, NULL);
}

typedef struct {
    vis_canvas *c;
    int x, y;
    vis_rgb colour;
    int up;                         /* rotated 90 degrees counter-clockwise */
} draw_ctx;

static void blit_canvas(void *vctx, const FT_Bitmap *bm, int pen_x, int left, int top)
{
    draw_ctx *d = vctx;
    if (bm->pixel_mode != FT_PIXEL_MODE_GRAY)
        return;
    for (unsigned r = 0; r < bm->rows; r++)
        for (unsigned col = 0; col < bm->width; col++) {
            unsigned a = bm->buffer[r * bm->pitch + col];
            if (!a)
                continue;
            /* Unrotated: pixel at (pen+left+col, baseline-top+r). Rotated:
             * the text's x runs up the canvas, its y runs right. */
            int gx = pen_x + left + (int)col, gy = -top + (int)r;
            if (d->up)
                vis_canvas_blend(d->c, d->x + gy, d->y - gx, d->colour, a);
            else
                vis_canvas_blend(d->c, d->x + gx, d->y + gy, d->colour, a);
        }
}

int vis_font_draw(vis_canvas *c, vis_font *f, int size_px, int x, int y,
                 const char *utf8, vis_rgb colour)
{
    draw_ctx d = { c, x, y, colour, 0 };
    return walk(f, size_px, utf8, blit_canvas, &d);
}

int vis_font_draw_up(vis_canvas *c, vis_font *f, int size_px, int x, int y,
                    const char *utf8, vis_rgb colour)
{
    draw_ctx d = { c, x, y, colour, 1 };
    return walk(f, size_px, utf8, blit_canvas, &d);
}

/* Length in bytes of the first n code points of s (or all of s). */
static size_t cp_bytes(const char *s, size_t n)
{
    const char *p = s;
    while (*p && n--)
        vis_utf8_next(&p);
    return (size_t)(p - s);
}

static size_t cp_count(const char *s)
{
    size_t n = 0;
    while (*s) {
        vis_utf8_next(&s);
        n++;
    }
    return n;
}

/* Builds head(k_head cps) + "…" + tail(k_tail cps) into out. */
static void join_ellipsis(const char *s, size_t n_cp, size_t keep, char *out, size_t outsz)
{
    size_t head = keep * 2 / 5, tail = keep - head;  /* the end holds file:line */
    size_t hb = cp_bytes(s, head);
    const char *t = s + cp_bytes(s, n_cp - tail);
    snprintf(out, outsz, "%.*s\xE2\x80\xA6%s", (int)hb, s, t);
}

char *vis_font_fit(vis_font *f, int size_px, const char *utf8, int max_px,
                  char *out, size_t outsz)
{
    if (!outsz)
        return out;
    size_t n = cp_count(utf8);
    if (vis_font_width(f, size_px, utf8) <= max_px && strlen(utf8) < outsz) {
        memcpy(out, utf8, strlen(utf8) + 1);
        return out;
    }
    /* Binary search the number of code points kept around the ellipsis: the
     * width grows with it, so this costs O(log n) measurements. */
    size_t lo = 0, hi = n ? n - 1 : 0;
    while (lo < hi) {
        size_t mid = (lo + hi + 1) / 2;
        join_ellipsis(utf8, n, mid, out, outsz);
        if (vis_font_width(f, size_px, out) <= max_px && strlen(out) + 1 < outsz)
            lo = mid;
        else
            hi = mid - 1;
    }
    join_ellipsis(utf8, n, lo, out, outsz);
    return out;
}

char *vis_font_fit_words(vis_font *f, int size_px, const char *utf8, int max_px,
                         char *out, size_t outsz)
{
    if (!outsz)
        return out;
    size_t n = strlen(utf8);
    if (vis_font_width(f, size_px, utf8) <= max_px && n < outsz) {
        memcpy(out, utf8, n + 1);
        return out;
    }
    /* The longest run of whole words, then " ..." (U+2026), that fits; a
     * first word too long alone is cut (the only way it can fit). */
    size_t best = 0;
    for (size_t i = 1; i < n; i++) {
        if (utf8[i] != ' ' || utf8[i - 1] == ' ')
            continue;
        if (i + 5 > outsz)
            break;
        snprintf(out, outsz, "%.*s \xE2\x80\xA6", (int)i, utf8);
        if (vis_font_width(f, size_px, out) > max_px)
            break;
        best = i;
    }
    if (best) {
        snprintf(out, outsz, "%.*s \xE2\x80\xA6", (int)best, utf8);
        return out;
    }
    return vis_font_fit(f, size_px, utf8, max_px, out, outsz);
}
