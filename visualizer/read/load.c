/* load.c: opens a profile for every command (load.h): the format told by
 * the file's first bytes, the format's reader, the companion, and the one
 * warning of a file cut short.
 *
 * Only regular files are read: the Massif reader seeks back to re-read
 * trees, and a FIFO or a device could block the live view's loop. The
 * file is checked before it is opened (opening a FIFO blocks) and again
 * on the descriptor (the name may have moved in between). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "read/companion.h"
#include "read/load.h"

/* The first bytes that tell the formats apart. */
#define HEAD_BYTES 5

vis_format vis_format_of(const char *head, size_t n)
{
    if (n >= 5 && memcmp(head, "desc:", 5) == 0)
        return VIS_FORMAT_MASSIF;
    return VIS_FORMAT_UNKNOWN;
}

/* What kind of file st is, for "expected a regular file, found ...". */
static const char *kind_of(const struct stat *st)
{
    if (S_ISDIR(st->st_mode))
        return "a directory";
    if (S_ISFIFO(st->st_mode))
        return "a FIFO";
    if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
        return "a device";
    return "another kind of file";
}

/* The file's first bytes into head, the stream put back at its start;
 * the count read, or -1 with err. */
static long read_head(FILE *f, const char *path, char *head, char *err, size_t errsz)
{
    size_t got = fread(head, 1, HEAD_BYTES, f);
    if (ferror(f) || fseek(f, 0, SEEK_SET) != 0) {
        snprintf(err, errsz, "%s: cannot read: %s", path, strerror(errno ? errno : EIO));
        return -1;
    }
    return (long)got;
}

int vis_load_is_profile(const char *path)
{
    struct stat st;
    char head[HEAD_BYTES];
    char err[16];
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    long n = read_head(f, path, head, err, sizeof err);
    fclose(f);
    return n > 0 && vis_format_of(head, (size_t)n) != VIS_FORMAT_UNKNOWN;
}

/* Opens path for reading, a regular file only; NULL with err. */
static FILE *open_regular(const char *path, struct stat *st, char *err, size_t errsz)
{
    if (stat(path, st) == 0 && !S_ISREG(st->st_mode)) {
        snprintf(err, errsz, "%s: expected a regular file, found %s", path, kind_of(st));
        return NULL;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errsz, "%s: cannot open: %s", path, strerror(errno));
        memset(st, 0, sizeof *st);
        return NULL;
    }
    if (fstat(fileno(f), st) != 0) {
        snprintf(err, errsz, "%s: cannot read: %s", path, strerror(errno));
        fclose(f);
        return NULL;
    }
    if (!S_ISREG(st->st_mode)) {
        snprintf(err, errsz, "%s: expected a regular file, found %s", path, kind_of(st));
        fclose(f);
        return NULL;
    }
    return f;
}

/* The companion o asks for into p; 0, or -1 with err. */
static int load_companion(vis_profile *p, const vis_load_opts *o, char *err, size_t errsz)
{
    if (o->no_companion)
        return 0;
    char *cpath = o->companion ? NULL : vis_companion_path(p->path);
    if (!o->companion && !cpath) {
        snprintf(err, errsz, "%s: out of memory", p->path);
        return -1;
    }
    const char *path = o->companion ? o->companion : cpath;
    char msg[1024];
    int rc = vis_companion_read(p, path, msg, sizeof msg);
    if (rc < 0)
        snprintf(err, errsz, "%s (use --no-companion to ignore it)", msg);
    int missing = rc == 1 && o->companion && !o->companion_optional;
    if (missing)
        snprintf(err, errsz, "%s: cannot open: %s", path, strerror(ENOENT));
    free(cpath);
    return rc < 0 || missing ? -1 : 0;
}

vis_profile *vis_load_profile(const char *path, const vis_load_opts *o, char *err,
                              size_t errsz)
{
    static const vis_load_opts defaults;
    if (!o)
        o = &defaults;
    struct stat st;
    memset(&st, 0, sizeof st);
    FILE *f = open_regular(path, &st, err, errsz);
    if (o->st)
        *o->st = st;
    if (!f)
        return NULL;
    char head[HEAD_BYTES];
    long n = read_head(f, path, head, err, errsz);
    vis_profile *p = NULL;
    if (n >= 0) {
        switch (vis_format_of(head, (size_t)n)) {
        case VIS_FORMAT_MASSIF:
        case VIS_FORMAT_UNKNOWN:
            /* Unknown: the Massif reader says what its first line lacks,
             * the format users give most. */
            p = vis_massif_read_sink(f, path, o->sink, err, errsz);
            break;
        }
    }
    if (p && load_companion(p, o, err, errsz) != 0) {
        vis_profile_free(p);
        p = NULL;
    }
    if (p && o->keep)
        *o->keep = f;
    else
        fclose(f);
    return p;
}

/* "PATH:LINE: expected X, found Y" -> "PATH:LINE: warning: the file is
 * cut short (expected X, found Y); rest". */
static void cut_warning(const char *msg, const char *rest, char *buf, size_t n)
{
    const char *what = strstr(msg, ": expected ");
    int head = what ? (int)(what - msg) : (int)strlen(msg);
    snprintf(buf, n, "%.*s: warning: the file is cut short (%s); %s", head, msg,
             what ? what + 2 : "", rest);
}

int vis_load_warning(const vis_profile *p, size_t k, char *buf, size_t n)
{
    char rest[96];
    if (p->truncated && p->truncated_msg && k-- == 0) {
        snprintf(rest, sizeof rest, "showing the %zu snapshot%s before the cut", p->n_snaps,
                 p->n_snaps == 1 ? "" : "s");
        cut_warning(p->truncated_msg, rest, buf, n);
        return 1;
    }
    if (p->companion_cut_msg && k-- == 0) {
        cut_warning(p->companion_cut_msg, "using its records before the cut", buf, n);
        return 1;
    }
    return 0;
}
