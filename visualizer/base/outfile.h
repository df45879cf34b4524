/* outfile.h: every file memtime-vis writes (report, PNG, gnuplot script) goes
 * through here, so none is ever left half-written: the data goes to a
 * temporary file beside the destination ("<path>.tmpXXXXXX", same directory so
 * the rename never crosses file systems), which replaces the destination only
 * once every write and the close succeeded. A destination that exists and is
 * not a regular file (/dev/null, a FIFO), is a symlink, or is under /dev or
 * /proc (/dev/stdout) is written in place instead: a rename would replace the
 * device or the link with a file. */
#ifndef MT_OUTFILE_H
#define MT_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/* The stdio buffer of every output, stdout included when it is no terminal:
 * a big report writes its megabytes in 64 KiB writes, not stdio's 4 KiB
 * ones (a tenth of its time went to write() on the bench's 50 MB file). */
#define VIS_OUT_BUF (1 << 16)

typedef struct {
    FILE *fp;             /* write here */
    const char *path;     /* the destination */
    char tmp[4096];       /* the temporary, or "" when written in place */
    char *buf;            /* fp's VIS_OUT_BUF bytes (glibc sizes its own
                             buffer after the file system, 4 KiB) */
} vis_outfile;

/* Opens for writing ("w" or "wb"). Returns 0, or -1 with a one-line err. */
int vis_out_open(vis_outfile *o, const char *path, const char *mode,
                 char *err, size_t errsz);
/* Flushes, closes and renames into place. Returns 0, or -1 with err, in
 * which case the temporary is removed and the destination untouched. */
int vis_out_commit(vis_outfile *o, char *err, size_t errsz);
/* Closes and removes the temporary; the destination is untouched. */
void vis_out_abort(vis_outfile *o);

/* True if path must be written in place (see above). */
int vis_out_is_special(const char *path);
/* Creates an empty temporary file next to path ("<path>.tmpXXXXXX"), returns
 * its descriptor and writes its name to tmp, or returns -1 with err. */
int vis_tmp_beside(const char *path, char *tmp, size_t tmpsz, char *err, size_t errsz);
/* Gives a finished temporary the permissions a new file would get (mkstemp
 * makes it 0600; outputs are for sharing) and renames it over path. */
int vis_tmp_install(const char *tmp, const char *path, char *err, size_t errsz);

#endif
