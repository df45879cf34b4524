/* png_file.c: PNG encoding through libpng's simplified API (png_image_*), which
 * reports errors through its struct instead of longjmp, so no setjmp here.
 * See png_file.h for the atomic-write contract. */
#include "png_file.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int mt_tmp_beside(const char *path, char *tmp, size_t tmpsz, char *err, size_t errsz)
{
    /* The name keeps the destination's directory so rename() never crosses
     * file systems; mkstemp creates it 0600 and exclusively. */
    if ((size_t)snprintf(tmp, tmpsz, "%s.tmpXXXXXX", path) >= tmpsz) {
        snprintf(err, errsz, "%s: path too long", path);
        return -1;
    }
    int fd = mkstemp(tmp);
    if (fd < 0)
        snprintf(err, errsz, "cannot create %s: %s", path, strerror(errno));
    return fd;
}

int mt_png_write(const mt_canvas *c, const char *path, char *err, size_t errsz)
{
    char tmp[4096];
    int fd = mt_tmp_beside(path, tmp, sizeof tmp, err, errsz);
    if (fd < 0)
        return -1;
    FILE *fp = fdopen(fd, "wb");
    if (!fp) {
        snprintf(err, errsz, "cannot write %s: %s", path, strerror(errno));
        close(fd);
        unlink(tmp);
        return -1;
    }

    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = (png_uint_32)mt_canvas_width(c);
    img.height = (png_uint_32)mt_canvas_height(c);
    img.format = PNG_FORMAT_RGB;
    int ok = png_image_write_to_stdio(&img, fp, 0, mt_canvas_pixels(c),
                                      0 /* rows are packed */, NULL);
    if (!ok)
        snprintf(err, errsz, "cannot write %s: libpng: %s", path, img.message);
    png_image_free(&img);

    /* Both fflush and fclose can report a full disk; check them all. */
    int io_errno = 0;
    if (ok && (fflush(fp) != 0 || ferror(fp)))
        io_errno = errno ? errno : EIO;
    if (fclose(fp) != 0 && ok && !io_errno)
        io_errno = errno ? errno : EIO;
    if (ok && io_errno) {
        ok = 0;
        snprintf(err, errsz, "cannot write %s: %s", path, strerror(io_errno));
    }
    if (ok) {
        /* mkstemp made it 0600; an image is for sharing: honour the umask. */
        mode_t um = umask(0);
        umask(um);
        chmod(tmp, 0666 & ~um);
        if (rename(tmp, path) != 0) {
            snprintf(err, errsz, "cannot write %s: %s", path, strerror(errno));
            ok = 0;
        }
    }
    if (!ok) {
        unlink(tmp);
        return -1;
    }
    return 0;
}
