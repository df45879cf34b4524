/* outfile.c: atomic output files (see outfile.h). */
#include "base/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int vis_out_is_special(const char *path)
{
    struct stat st;
    /* /dev/stdout is a symlink to a regular file when stdout is redirected:
     * a rename would replace the link itself; so would one over any link. */
    if (!strncmp(path, "/dev/", 5) || !strncmp(path, "/proc/", 6))
        return 1;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        return 1;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

int vis_tmp_beside(const char *path, char *tmp, size_t tmpsz, char *err, size_t errsz)
{
    if ((size_t)snprintf(tmp, tmpsz, "%s.tmpXXXXXX", path) >= tmpsz) {
        snprintf(err, errsz, "%s: path too long", path);
        return -1;
    }
    int fd = mkstemp(tmp);
    if (fd < 0)
        snprintf(err, errsz, "cannot create %s: %s", path, strerror(errno));
    return fd;
}

int vis_tmp_install(const char *tmp, const char *path, char *err, size_t errsz)
{
    mode_t um = umask(0);
    umask(um);
    chmod(tmp, 0666 & ~um);
    if (rename(tmp, path) != 0) {
        snprintf(err, errsz, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

typedef struct {
    FILE *fp;             /* write here */
    const char *path;     /* the destination */
    char tmp[4096];       /* the temporary, or "" when written in place */
    char *buf;            /* fp's VIS_OUT_BUF bytes (glibc sizes its own
                             buffer after the file system, 4 KiB) */
} outfile;

static int out_open(outfile *o, const char *path, const char *mode, char *err, size_t errsz)
{
    int fd;
    o->path = path;
    o->tmp[0] = '\0';
    o->fp = NULL;
    o->buf = NULL;
    if (vis_out_is_special(path)) {
        fd = open(path, O_WRONLY | O_TRUNC);
        if (fd < 0) {
            snprintf(err, errsz, "cannot write %s: %s", path, strerror(errno));
            return -1;
        }
    } else {
        fd = vis_tmp_beside(path, o->tmp, sizeof o->tmp, err, errsz);
        if (fd < 0)
            return -1;
    }
    o->fp = fdopen(fd, mode);
    if (!o->fp) {
        snprintf(err, errsz, "cannot write %s: %s", path, strerror(errno));
        close(fd);
        if (o->tmp[0])
            unlink(o->tmp);
        return -1;
    }
    /* Without a buffer of its own the file keeps stdio's. */
    if ((o->buf = malloc(VIS_OUT_BUF)) != NULL)
        setvbuf(o->fp, o->buf, _IOFBF, VIS_OUT_BUF);
    return 0;
}

static int out_commit(outfile *o, char *err, size_t errsz)
{
    /* fflush and fclose can both be the first to see a full disk. */
    errno = 0;
    int bad = fflush(o->fp) != 0 || ferror(o->fp);
    int e = errno;
    if (fclose(o->fp) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    o->fp = NULL;
    free(o->buf);
    o->buf = NULL;
    if (bad) {
        snprintf(err, errsz, "cannot write %s: %s", o->path, strerror(e ? e : EIO));
        if (o->tmp[0])
            unlink(o->tmp);
        return -1;
    }
    if (o->tmp[0] && vis_tmp_install(o->tmp, o->path, err, errsz) != 0) {
        unlink(o->tmp);
        return -1;
    }
    return 0;
}

static void out_abort(outfile *o)
{
    if (o->fp)
        fclose(o->fp);
    o->fp = NULL;
    free(o->buf);
    o->buf = NULL;
    if (o->tmp[0])
        unlink(o->tmp);
}

int vis_out_write(const char *path, const char *mode, vis_out_fn fn, void *ctx,
                  char *err, size_t errsz)
{
    outfile o;
    if (out_open(&o, path, mode, err, errsz) != 0)
        return -1;
    if (fn(o.fp, ctx, err, errsz) != 0) {
        out_abort(&o);
        return -1;
    }
    return out_commit(&o, err, errsz);
}
