/* jeheap.c: reads one jemalloc heap profile dump (jeheap.h). The grammar is
 * what jemalloc 5.x writes (prof_data.c, prof_sys.c; the manual's "HEAP
 * PROFILE FORMAT"):
 *
 *   heap_v2/<R>
 *     t*: <objs>: <bytes> [<objs>: <bytes>]           all threads
 *     t<uid>: <objs>: <bytes> [<objs>: <bytes>][ name]  one per thread
 *   @ 0x<pc> 0x<pc> ...                               a stack, innermost first
 *     t*: ...                                         its counts, all threads
 *     t<uid>: ...                                     per thread
 *   (blank line)
 *   MAPPED_LIBRARIES:
 *   <a copy of /proc/PID/maps>
 *
 * Only the "t*" counts are used, as jeprof uses them; the per-thread lines
 * are checked and passed over. A dump without its maps block cannot be
 * resolved to names, and one cut short anywhere is an error: a dump is
 * written in one go by the profiled process, so a missing end means the
 * file was cut (a full disk, a copy in progress). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "read/jeheap.h"
#include "read/massif.h"

/* A hostile file could make the stacks as long as it is; jemalloc's own
 * limit (PROF_BT_MAX) is 128 frames. */
#define MAX_FRAMES 1024

typedef struct {
    const char *path;
    size_t lineno;
    const char *line;
    size_t len;
    int unfinished;          /* the line had no '\n' */
    char *err;
    size_t errsz;
} jctx;

static int jfail(jctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vis_expected(c->err, c->errsz, c->path, c->lineno, c->line, c->len, c->unfinished, fmt, ap);
    va_end(ap);
    return -1;
}

int vis_jeheap_sniff(const unsigned char *buf, size_t n)
{
    return n >= 8 && !memcmp(buf, "heap_v2/", 8);
}

void vis_jeheap_unsample(uint64_t n, uint64_t s, uint64_t period, double *objs, double *bytes)
{
    *objs = (double)n;
    *bytes = (double)s;
    if (n == 0 || period == 0)
        return;
    /* Sampling is a Poisson process of rate 1/R over the bytes allocated:
     * an object of size X is sampled with probability 1 - exp(-X/R). */
    double ratio = ((double)s / (double)n) / (double)period;
    double scale = 1.0 / (1.0 - exp(-ratio));
    *objs *= scale;
    *bytes *= scale;
}

/* A decimal number at *s; advances past it. */
static int num(const char **s, uint64_t *out)
{
    const char *p = *s;
    if (*p < '0' || *p > '9')
        return -1;
    uint64_t v = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *s = p;
    *out = v;
    return 0;
}

static int lit(const char **s, const char *want)
{
    size_t n = strlen(want);
    if (strncmp(*s, want, n) != 0)
        return -1;
    *s += n;
    return 0;
}

/* "  t<who>: <c>: <s> [<ca>: <sa>]" and what follows; who is "*" or a uid.
 * *rest gets the text after ']'. Returns 0, or -1 when the line is not one. */
static int t_line(const char *line, int *star, uint64_t *uid, uint64_t *c, uint64_t *s,
                  const char **rest)
{
    const char *p = line;
    uint64_t ca, sa;
    if (lit(&p, "  t") != 0)
        return -1;
    if (*p == '*') {
        *star = 1;
        p++;
    } else {
        *star = 0;
        if (num(&p, uid) != 0)
            return -1;
    }
    if (lit(&p, ": ") || num(&p, c) || lit(&p, ": ") || num(&p, s) || lit(&p, " [") ||
        num(&p, &ca) || lit(&p, ": ") || num(&p, &sa) || lit(&p, "]"))
        return -1;
    *rest = p;
    return 0;
}

static int nomem(jctx *c)
{
    snprintf(c->err, c->errsz, "%s: out of memory", c->path);
    return -1;
}

/* "@ 0x<pc> 0x<pc> ...": a new stack. */
static int stack_line(vis_jeheap *d, jctx *c, const char *line)
{
    vis_jh_stack *st = vis_grow(d->stacks, d->n_stacks, 64, sizeof *d->stacks);
    if (!st)
        return nomem(c);
    d->stacks = st;
    st += d->n_stacks;
    memset(st, 0, sizeof *st);
    d->n_stacks++;
    const char *p = line + 1;
    while (*p == ' ') {
        p++;
        if (!*p)
            break;
        if (lit(&p, "0x") != 0)
            return jfail(c, "'@ 0x<address> ...', a stack of hexadecimal addresses");
        char *end;
        errno = 0;
        unsigned long long pc = strtoull(p, &end, 16);
        if (end == p || errno || (*end && *end != ' ') || p[0] == '-' || p[0] == '+')
            return jfail(c, "'@ 0x<address> ...', a stack of hexadecimal addresses");
        if (st->n_pcs == MAX_FRAMES)
            return jfail(c, "a stack of at most %d frames", MAX_FRAMES);
        uint64_t *pcs = vis_grow(st->pcs, st->n_pcs, 16, sizeof *pcs);
        if (!pcs)
            return nomem(c);
        st->pcs = pcs;
        pcs[st->n_pcs++] = pc;
        p = end;
    }
    if (*p || st->n_pcs == 0)
        return jfail(c, "'@ 0x<address> ...', a stack of hexadecimal addresses");
    return 0;
}

static int thread_name(vis_jeheap *d, jctx *c, uint64_t uid, const char *rest)
{
    vis_jh_thread *t = vis_grow(d->threads, d->n_threads, 8, sizeof *d->threads);
    if (!t)
        return nomem(c);
    d->threads = t;
    t += d->n_threads++;
    t->uid = uid;
    t->name = NULL;
    if (*rest == ' ' && rest[1] && !(t->name = strdup(rest + 1)))
        return nomem(c);
    return 0;
}

/* The dump's lines up to "MAPPED_LIBRARIES:"; then the rest of the file is
 * the maps text. */
static int read_body(vis_jeheap *d, FILE *f, jctx *c)
{
    char *buf = NULL;
    size_t cap = 0;
    ssize_t n;
    enum { HEADER, HEADER_T, THREADS, STACK_T, STACK_THREADS, BLANK, MAPS } st = HEADER;
    int rc = 0;
    while (rc == 0 && (n = getline(&buf, &cap, f)) > 0) {
        c->lineno++;
        c->unfinished = buf[n - 1] != '\n';
        if (!c->unfinished)
            buf[--n] = '\0';
        c->line = buf;
        c->len = (size_t)n;
        if (memchr(buf, '\0', (size_t)n))
            { rc = jfail(c, "text, found a NUL byte"); break; }
        if (c->unfinished && st != MAPS)
            { rc = jfail(c, "a complete line (the dump is cut short)"); break; }
        int star = 0;
        uint64_t uid = 0, objs = 0, bytes = 0;
        const char *rest;
        switch (st) {
        case HEADER: {
            const char *p = buf;
            if (lit(&p, "heap_v2/") || num(&p, &d->period) || *p || d->period == 0)
                rc = jfail(c, "'heap_v2/<sampling period>', the first line of a jemalloc heap "
                           "dump");
            st = HEADER_T;
            break;
        }
        case HEADER_T:
            if (t_line(buf, &star, &uid, &objs, &bytes, &rest) != 0 || !star || *rest)
                rc = jfail(c, "'  t*: <objects>: <bytes> [<objects>: <bytes>]'");
            st = THREADS;
            break;
        case THREADS:
        case STACK_THREADS:
            if (t_line(buf, &star, &uid, &objs, &bytes, &rest) == 0 && !star) {
                if (st == THREADS)
                    rc = thread_name(d, c, uid, rest);
                else if (*rest)
                    rc = jfail(c, "'  t<thread>: <objects>: <bytes> [<objects>: <bytes>]'");
                break;
            }
            /* The next stack, or the end of the stacks. */
            /* fall through */
        case BLANK:
            if (buf[0] == '@' && st != BLANK) {
                rc = stack_line(d, c, buf);
                st = STACK_T;
            } else if (buf[0] == '\0') {
                st = BLANK;
            } else if (st == BLANK && !strcmp(buf, "MAPPED_LIBRARIES:")) {
                d->maps_line = c->lineno + 1;
                st = MAPS;
            } else {
                rc = jfail(c, st == BLANK ? "'MAPPED_LIBRARIES:'"
                                          : "'@ 0x<address> ...', a thread's counts or a blank line");
            }
            break;
        case STACK_T: {
            if (t_line(buf, &star, &uid, &objs, &bytes, &rest) != 0 || !star || *rest) {
                rc = jfail(c, "'  t*: <objects>: <bytes> [<objects>: <bytes>]', the stack's counts");
                break;
            }
            if (objs == 0 && bytes != 0) {
                rc = jfail(c, "bytes only where there are objects");
                break;
            }
            vis_jh_stack *s = &d->stacks[d->n_stacks - 1];
            s->sampled_objs = objs;
            s->sampled_bytes = bytes;
            vis_jeheap_unsample(objs, bytes, d->period, &s->objs, &s->bytes);
            d->total_bytes += s->bytes;
            st = STACK_THREADS;
            break;
        }
        case MAPS: {
            /* The rest of the file, verbatim; a last line without its '\n'
             * was cut. */
            if (c->unfinished) {
                rc = jfail(c, "a complete line (the dump is cut short in its maps)");
                break;
            }
            size_t need = d->maps_len + (size_t)n + 2;
            char *m = realloc(d->maps, need);
            if (!m) {
                rc = nomem(c);
                break;
            }
            d->maps = m;
            memcpy(m + d->maps_len, buf, (size_t)n);
            d->maps_len += (size_t)n;
            m[d->maps_len++] = '\n';
            m[d->maps_len] = '\0';
            break;
        }
        }
    }
    int read_err = ferror(f);
    free(buf);
    if (rc != 0)
        return rc;
    if (read_err) {
        snprintf(c->err, c->errsz, "%s: read error: %s", c->path, strerror(errno ? errno : EIO));
        return -1;
    }
    if (st != MAPS) {
        c->line = NULL;
        c->lineno++;
        c->unfinished = 0;
        static const char *const want[] = {
            [HEADER] = "'heap_v2/<sampling period>', the first line of a jemalloc heap dump",
            [HEADER_T] = "'  t*: <objects>: <bytes> [<objects>: <bytes>]'",
            [THREADS] = "the stacks, a blank line and 'MAPPED_LIBRARIES:' (the dump is cut short)",
            [STACK_T] = "the stack's '  t*:' counts (the dump is cut short)",
            [STACK_THREADS] = "more stacks, a blank line and 'MAPPED_LIBRARIES:' (cut short)",
            [BLANK] = "'MAPPED_LIBRARIES:' (the dump is cut short)",
            [MAPS] = "",
        };
        return jfail(c, "%s", want[st]);
    }
    return 0;
}

int vis_jeheap_read(const char *path, vis_jeheap *d, char *err, size_t errsz)
{
    memset(d, 0, sizeof *d);
    jctx c = { path, 0, NULL, 0, 0, err, errsz };
    if (!(d->path = strdup(path)))
        return nomem(&c);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errsz, "%s: cannot open: %s", path, strerror(errno));
        vis_jeheap_free(d);
        return -1;
    }
    int rc = read_body(d, f, &c);
    fclose(f);
    if (rc != 0)
        vis_jeheap_free(d);
    return rc;
}

void vis_jeheap_free(vis_jeheap *d)
{
    for (size_t i = 0; i < d->n_stacks; i++)
        free(d->stacks[i].pcs);
    for (size_t i = 0; i < d->n_threads; i++)
        free(d->threads[i].name);
    free(d->stacks);
    free(d->threads);
    free(d->maps);
    free(d->path);
    memset(d, 0, sizeof *d);
}

/* Reads "<n>." at *s. */
static int name_num(const char **s, uint64_t *out)
{
    return num(s, out) == 0 && **s == '.' ? ((*s)++, 0) : -1;
}

int vis_jeheap_parse_name(const char *path, vis_jh_name *n)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len < 6 || strcmp(base + len - 5, ".heap") != 0)
        return -1;
    /* From the end: ".<kind><kseq>.heap", then ".<seq>", then ".<pid>". The
     * prefix may hold dots, so the numbers are found by walking back. */
    const char *end = base + len - 5;          /* the ".heap" */
    const char *k = end;
    while (k > base && k[-1] != '.')
        k--;
    if (k == base)
        return -1;
    const char *p = k + 1;
    n->kind = *k;
    if (!strchr("imuf", n->kind))
        return -1;
    n->kseq = 0;
    if (n->kind != 'f') {
        if (num(&p, &n->kseq) != 0 || p != end)
            return -1;
    } else if (p != end) {
        return -1;
    }
    const char *s = k - 1;                     /* the '.' before the kind */
    const char *q = s;
    while (q > base && q[-1] != '.')
        q--;
    if (q == base)
        return -1;
    p = q;
    if (name_num(&p, &n->seq) != 0 || p != s + 1)
        return -1;
    const char *r = q - 1;
    const char *t = r;
    while (t > base && t[-1] != '.')
        t--;
    p = t;
    if (t == base || name_num(&p, &n->pid) != 0 || p != r + 1)
        return -1;
    return 0;
}
