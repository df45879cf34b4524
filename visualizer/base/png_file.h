/* png_file.h: writes an vis_canvas to a PNG file atomically (outfile.h): the
 * destination is replaced only once libpng and the close both succeeded.
 * Named png_file.h, not png.h: automake puts -I$(srcdir) first, so a local
 * png.h would shadow libpng's <png.h>. */
#ifndef MT_PNG_FILE_H
#define MT_PNG_FILE_H

#include <stddef.h>
#include "base/canvas.h"

/* Returns 0, or -1 with a one-line message in err; on failure no file is
 * left behind (neither the temporary nor a partial destination). */
int vis_png_write(const vis_canvas *c, const char *path, char *err, size_t errsz);

#endif
