/* png_file.c: PNG encoding through libpng's simplified API (png_image_*), which
 * reports errors through its struct instead of longjmp, so no setjmp here.
 * The file is written atomically through outfile.c. */
#include "base/png_file.h"

#include <png.h>
#include <stdio.h>
#include <string.h>

#include "base/outfile.h"

static int write_png(FILE *out, void *ctx, char *err, size_t errsz)
{
    const vis_canvas *c = ctx;
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = (png_uint_32)vis_canvas_width(c);
    img.height = (png_uint_32)vis_canvas_height(c);
    img.format = PNG_FORMAT_RGB;
    int ok = png_image_write_to_stdio(&img, out, 0, vis_canvas_pixels(c),
                                      0 /* rows are packed */, NULL);
    if (!ok)
        snprintf(err, errsz, "libpng: %s", img.message);
    png_image_free(&img);
    return ok ? 0 : -1;
}

int vis_png_write(const vis_canvas *c, const char *path, char *err, size_t errsz)
{
    char why[512];
    if (vis_out_write(path, "wb", write_png, (void *)c, why, sizeof why) == 0)
        return 0;
    /* libpng's own failure names the file; outfile.h's messages already do. */
    if (!strncmp(why, "libpng: ", 8))
        snprintf(err, errsz, "cannot write %s: %s", path, why);
    else
        snprintf(err, errsz, "%s", why);
    return -1;
}
