/* png_file.h: writes an mt_canvas to a PNG file atomically: the image goes to a
 * temporary file in the destination's directory, which is renamed over the
 * destination only once libpng and the close both succeeded.
 * Named png_file.h, not png.h: automake puts -I$(srcdir) first, so a local
 * png.h would shadow libpng's <png.h>. */
#ifndef MT_PNG_FILE_H
#define MT_PNG_FILE_H

#include <stddef.h>
#include "canvas.h"

/* Returns 0, or -1 with a one-line message in err; on failure no file is
 * left behind (neither the temporary nor a partial destination). */
int mt_png_write(const mt_canvas *c, const char *path, char *err, size_t errsz);

/* Shared by the PNG and gnuplot writers: creates an empty temporary file next
 * to path ("<path>.tmpXXXXXX"), returns its descriptor and writes its name to
 * tmp (size tmpsz), or returns -1 with err. */
int mt_tmp_beside(const char *path, char *tmp, size_t tmpsz, char *err, size_t errsz);

#endif
