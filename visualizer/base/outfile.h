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

/* What writes an output: its whole content to out (ctx is the caller's).
 * Returns 0, or -1 with a one-line err; write errors may also just show in
 * ferror(out), which the commit catches. */
typedef int (*vis_out_fn)(FILE *out, void *ctx, char *err, size_t errsz);

/* The one way an output file is written: opens path for writing ("w" or
 * "wb") as above, lets fn write it, then flushes, closes and renames it
 * into place; if anything fails the temporary is removed and the
 * destination left untouched. Returns 0, or -1 with a one-line err. */
int vis_out_write(const char *path, const char *mode, vis_out_fn fn, void *ctx,
                  char *err, size_t errsz);

/* True if path must be written in place (see above). */
int vis_out_is_special(const char *path);
/* Creates an empty temporary file next to path ("<path>.tmpXXXXXX"), returns
 * its descriptor and writes its name to tmp, or returns -1 with err. */
int vis_tmp_beside(const char *path, char *tmp, size_t tmpsz, char *err, size_t errsz);
/* Gives a finished temporary the permissions a new file would get (mkstemp
 * makes it 0600; outputs are for sharing) and renames it over path. */
int vis_tmp_install(const char *tmp, const char *path, char *err, size_t errsz);

#endif
