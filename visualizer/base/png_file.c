/* png_file.c: PNG encoding through libpng's simplified API (png_image_*), which
 * reports errors through its struct instead of longjmp, so no setjmp here.
 * The file is written atomically through outfile.c. */
#include "base/png_file.h"

#include <png.h>
#include <stdio.h>
#include <string.h>

#include "base/outfile.h"

int vis_png_write(const vis_canvas *c, const char *path, char *err, size_t errsz)
{
    vis_outfile out;
    if (vis_out_open(&out, path, "wb", err, errsz) != 0)
        return -1;

    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = (png_uint_32)vis_canvas_width(c);
    img.height = (png_uint_32)vis_canvas_height(c);
    img.format = PNG_FORMAT_RGB;
    int ok = png_image_write_to_stdio(&img, out.fp, 0, vis_canvas_pixels(c),
                                      0 /* rows are packed */, NULL);
    if (!ok)
        snprintf(err, errsz, "cannot write %s: libpng: %s", path, img.message);
    png_image_free(&img);
    if (!ok) {
        vis_out_abort(&out);
        return -1;
    }
    return vis_out_commit(&out, err, errsz);
}
