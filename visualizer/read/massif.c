/* massif.c: the streaming Massif-format reader (see massif.h for the API).
 *
 * Grammar accepted (what Massif and memtime write):
 *   desc: <text>
 *   cmd: <text>          (Massif's may continue on more lines: see read_header)
 *   time_unit: i|ms|B
 *   then snapshots numbered 0..N-1, each
 *     snapshot=N  time=T  mem_heap_B=B  mem_heap_extra_B=B  mem_stacks_B=B
 *     heap_tree=empty|detailed|peak      (at most one peak)
 *     and for detailed/peak a tree in preorder, one node a line:
 *     <depth spaces>n<children>: <bytes> <label to end of line>
 * Leniency, as ms_print's: blank lines and lines whose first non-blank is '#'
 * (the "#-----------" separators included) are skipped anywhere; a final '\r'
 * is dropped (CRLF files); trailing blanks after numbers are ignored.
 * Strictness beyond ms_print: snapshot numbers must count from 0, times must
 * not go down, tree indentation must equal the depth, a node may not exceed
 * its snapshot's total, the tree must fit VIS_MAX_TREE_DEPTH, and no NUL byte.
 * A file that ends (or whose last line stops without '\n') where more was
 * expected was cut short: the snapshots before it are kept. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "base/grow.h"
#include "base/number.h"
#include "model/label.h"
#include "model/profile_build.h"
#include "model/sites.h"
#include "read/massif.h"

/* Internal results. RD_CUT: the file stopped where more was expected.
 * RD_STOP: a node callback returned non-zero (its value is in reader.stop). */
enum { RD_OK = 0, RD_CUT = 1, RD_STOP = 2, RD_ERR = -1 };

/* One pass over the file: large reads into one buffer, lines found with
 * memchr and parsed in place (no per-line copy: reading is most of the cost
 * on big files), byte offsets and line numbers tracked, blank and comment
 * lines skipped. A read of RD_CHUNK stays in a core's cache for the parse
 * (1 MiB ones cost 1 MB more resident memory and were no faster). RD_PAD
 * zero bytes after the data let the tree's fast path read whole words and
 * vectors past a line's end (lead_spaces, indented, find_nl). */
#define RD_CHUNK (1 << 18)
#define RD_PAD 64

typedef struct {
    FILE *f;
    const char *path;
    char *buf;           /* unread bytes are buf[start..end); cap > end */
    size_t cap, start, end;
    int eof_read;        /* fread found the end of the file */
    int seen_nul;        /* a NUL byte was read: check each line from now on */
    char *line;          /* current line, without '\n' and a final '\r' */
    size_t len;
    size_t lineno;       /* of the current line */
    long pos;            /* offset of the next line */
    long line_off;       /* offset of the current line */
    long run_off;        /* offset of the comment/blank run before it, or -1 */
    size_t run_line;     /* line number at run_off */
    int partial;         /* at_eof because the last line has no '\n': a file
                            cut mid-line; line holds that unfinished text */
    int at_eof;
    size_t lead;         /* leading spaces of the current line */
    int keep_all;        /* return blank and '#' lines too (cmd: continuations) */
    int stop;            /* the callback's value after RD_STOP */
    uint64_t *rem;       /* tree walk: children still to come, per depth */
    uint64_t *up;        /* tree walk: bytes of the open node, per depth */
    int oversize;        /* tree walk: a node held more than its parent */
    size_t *node_line;   /* tree walk: set to each node's line before fn */
    char *err;
    size_t errsz;
} reader;

static void rd_init(reader *r, FILE *f, const char *path, char *err, size_t errsz)
{
    memset(r, 0, sizeof *r);
    r->f = f;
    r->path = path;
    r->err = err;
    r->errsz = errsz;
    long pos = ftell(f);
    r->pos = pos < 0 ? 0 : pos;
    if (errsz)
        err[0] = '\0';
}

static void rd_free(reader *r)
{
    free(r->buf);
    free(r->rem);
    free(r->up);
}

static int rd_seek(reader *r, long off, size_t line_before)
{
    /* Already buffered (a walk over the trees in file order): no seek. */
    if (off >= r->pos && off - r->pos <= (long)(r->end - r->start)) {
        r->start += (size_t)(off - r->pos);
        r->pos = off;
        r->lineno = line_before;
        r->at_eof = 0;
        r->partial = 0;
        return RD_OK;
    }
    if (fseek(r->f, off, SEEK_SET) != 0) {
        snprintf(r->err, r->errsz, "%s: cannot seek back to a snapshot (%s); "
                 "the input must be a regular file", r->path, strerror(errno));
        return RD_ERR;
    }
    r->pos = off;
    r->start = r->end = 0;
    r->eof_read = 0;
    r->lineno = line_before;
    r->at_eof = 0;
    r->partial = 0;
    return RD_OK;
}

/* The next raw line, '\n' included if present, in place in the buffer and
 * left unread: its length, 0 at end of file, or -1 on a read error. */
static ssize_t rd_peek_line(reader *r, char **line)
{
    for (;;) {
        /* buf is NULL before the first read: no pointer arithmetic on it. */
        char *b = r->end > r->start ? r->buf + r->start : NULL;
        char *nl = b ? memchr(b, '\n', r->end - r->start) : NULL;
        if (nl || (r->eof_read && r->end > r->start)) {
            *line = b;
            return nl ? (nl - b) + 1 : (ssize_t)(r->end - r->start);
        }
        if (r->eof_read)
            return 0;
        /* Keep the unfinished line, make room (a line longer than the buffer
         * doubles it), read more. One byte stays free for a final NUL. */
        if (r->start > 0) {
            memmove(r->buf, r->buf + r->start, r->end - r->start);
            r->end -= r->start;
            r->start = 0;
        }
        if (r->cap - r->end < RD_CHUNK / 2) {
            size_t cap = r->cap ? r->cap * 2 : RD_CHUNK;
            char *nb = realloc(r->buf, cap + RD_PAD);
            if (!nb) {
                snprintf(r->err, r->errsz, "%s: out of memory", r->path);
                return -1;
            }
            r->buf = nb;
            r->cap = cap;
        }
        errno = 0;
        size_t got = fread(r->buf + r->end, 1, r->cap - r->end - 1, r->f);
        /* One scan per read instead of one per line: NULs are rare. */
        if (got && memchr(r->buf + r->end, '\0', got))
            r->seen_nul = 1;
        r->end += got;
        memset(r->buf + r->end, 0, RD_PAD);
        if (got == 0) {
            if (ferror(r->f)) {
                snprintf(r->err, r->errsz, "%s:%zu: read error: %s", r->path,
                         r->lineno + 1, strerror(errno ? errno : EIO));
                return -1;
            }
            r->eof_read = 1;
        }
    }
}

/* The next raw line, as rd_peek_line, and read. */
static ssize_t rd_raw_line(reader *r, char **line)
{
    ssize_t n = rd_peek_line(r, line);
    if (n > 0)
        r->start += (size_t)n;
    return n;
}

/* The leading spaces of s, a line in the buffer that ends in a byte other
 * than a space ('\n' or the NUL put there). A deep tree's lines are mostly
 * spaces: they are counted eight at a time, the last few by the position of
 * the first other byte, not one by one (a loop whose length changes from
 * line to line mispredicts on each; it was the parser's most costly part).
 * Up to 7 bytes past the line's end are read: RD_PAD. */
static size_t lead_spaces(const char *s)
{
    size_t i = 0;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (;;) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        w ^= 0x2020202020202020u;
        if (w)
            return i + (size_t)__builtin_ctzll(w) / 8;
        i += 8;
    }
#else
    while (s[i] == ' ')
        i++;
    return i;
#endif
}

/* True if s[0..n) are spaces; n is the depth a tree's next node must be
 * indented by, so the test is one comparison of 32 bytes up to depth 32,
 * not a count of spaces whose end moves from line to line (a mispredicted
 * branch each time). Reads the 32-byte blocks from s up to the first that
 * holds another byte: at most 31 bytes past it, so within RD_PAD of the
 * data's end. */
static inline int indented(const char *s, unsigned n)
{
#if defined(__SSE2__)
    const __m128i sp = _mm_set1_epi8(' ');
    for (;; s += 32, n -= 32) {
        uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)s), sp)) |
                     (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(s + 16)), sp)) << 16;
        if (n < 32) {
            uint32_t want = (UINT32_C(1) << n) - 1;
            return (m & want) == want;
        }
        if (m != UINT32_MAX)
            return 0;
    }
#else
    return lead_spaces(s) >= n;
#endif
}

/* The first '\n' in [s, e), or NULL; e is the data's end. Looked for 64
 * bytes at a time (most lines end in the first or second block), without
 * a call; memchr where SSE2 is missing. Reads up to 63 bytes past e,
 * within RD_PAD, whose zeros hold no '\n'. */
static inline char *find_nl(char *s, char *e)
{
#if defined(__SSE2__)
    const __m128i nl = _mm_set1_epi8('\n');
    for (; s < e; s += 64) {
        uint64_t m = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)s), nl)) |
                     (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(s + 16)), nl)) << 16 |
                     (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(s + 32)), nl)) << 32 |
                     (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(s + 48)), nl)) << 48;
        if (m) {
            char *p = s + __builtin_ctzll(m);
            return p < e ? p : NULL;
        }
    }
    return NULL;
#else
    return memchr(s, '\n', (size_t)(e - s));
#endif
}

/* Advances to the next meaningful line. Returns 1, 0 at end of file, or
 * RD_ERR (read error, NUL byte) with err set. */
static int rd_next(reader *r)
{
    r->run_off = -1;
    for (;;) {
        char *buf;
        ssize_t n = rd_raw_line(r, &buf);
        if (n < 0)
            return RD_ERR;
        if (n == 0) {
            r->at_eof = 1;
            r->line = NULL;
            r->len = 0;
            return 0;
        }
        r->line_off = r->pos;
        r->pos += (long)n;
        r->lineno++;
        size_t len = (size_t)n;
        r->partial = buf[len - 1] != '\n';
        if (!r->partial)
            len--;
        if (len > 0 && buf[len - 1] == '\r')
            len--;
        buf[len] = '\0';   /* the '\n', '\r', or the spare byte at the end */
        if (r->partial) {
            /* Every writer ends its lines; an unfinished one is where the
             * file was cut, whatever it happens to parse as. */
            r->at_eof = 1;
            r->line = buf;
            r->len = len;
            return 0;
        }
        if (r->seen_nul && memchr(buf, '\0', len)) {
            snprintf(r->err, r->errsz, "%s:%zu: expected text, found a NUL byte",
                     r->path, r->lineno);
            return RD_ERR;
        }
        /* Leading blanks, the spaces counted once for rd_tree. */
        size_t i = lead_spaces(buf);
        r->lead = i;
        while (i < len && (buf[i] == ' ' || buf[i] == '\t'))
            i++;
        if (!r->keep_all && (i == len || buf[i] == '#')) {
            if (r->run_off < 0) {
                r->run_off = r->line_off;
                r->run_line = r->lineno;
            }
            continue;
        }
        r->line = buf;
        r->len = len;
        return 1;
    }
}

/* Writes the error at the current line (vis_expected). Returns RD_CUT when
 * the file simply stopped there (end of file, or a last line without its
 * '\n'), RD_ERR when the line is complete but wrong. */
static int rd_fail(reader *r, const char *fmt, ...)
{
    int eof = r->at_eof && !r->partial;
    va_list ap;
    va_start(ap, fmt);
    vis_expected(r->err, r->errsz, r->path, eof ? r->lineno + 1 : r->lineno,
                 eof ? NULL : r->line, r->len, r->partial, fmt, ap);
    va_end(ap);
    return eof || r->partial ? RD_CUT : RD_ERR;
}

void vis_expected(char *err, size_t errsz, const char *path, size_t lineno, const char *line,
                  size_t len, int unfinished, const char *fmt, va_list ap)
{
    char what[256];
    vsnprintf(what, sizeof what, fmt, ap);
    if (!line) {
        snprintf(err, errsz, "%s:%zu: expected %s, found end of file", path, lineno, what);
        return;
    }
    char shown[64];
    size_t k = 0;
    for (size_t i = 0; i < len && k < 60; i++) {
        unsigned char c = (unsigned char)line[i];
        shown[k++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    if (len > 60)
        shown[k++] = '.', shown[k++] = '.', shown[k++] = '.';
    shown[k] = '\0';
    snprintf(err, errsz, "%s:%zu: expected %s, found '%s'%s", path, lineno, what, shown,
             unfinished ? " unfinished at the end of the file" : "");
}

/* vis_parse_u64 of a number in the buffer (RD_PAD: 8 bytes may be read from
 * any byte of a line): up to 7 digits without a loop, from the position of
 * the first byte that is not a digit (a loop's exit mispredicts with each
 * new length); longer numbers, and none, through vis_parse_u64. */
static inline int parse_u64_buf(const char **s, uint64_t *out)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t ones = 0x0101010101010101u, high = ones * 0x80;
    uint64_t w;
    memcpy(&w, *s, 8);
    /* A byte is a digit when below 0x80, at least 0x30 and below 0x3A. */
    uint64_t low = w & ~high;
    uint64_t other = (w | (low + ones * (0x80 - 0x3A)) | ~(low + ones * (0x80 - 0x30))) & high;
    unsigned n = other ? (unsigned)__builtin_ctzll(other) / 8 : 8;
    if (n > 0 && n < 8) {
        /* The digits to the top bytes, zeros below: the number in the
         * order the three multiplications expect (first digit lowest). */
        uint64_t v = ((w & (ones * 0x0f)) << (8 * (8 - n)));
        v = (v * 10 + (v >> 8)) & 0x00ff00ff00ff00ffu;
        v = (v * 100 + (v >> 16)) & 0x0000ffff0000ffffu;
        v = (v * 10000 + (v >> 32)) & 0xffffffffu;
        *s += n;
        *out = v;
        return 0;
    }
#endif
    return vis_parse_u64(s, out);
}

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* "key=<n>" then only blanks. */
static int rd_key_num(reader *r, const char *key, uint64_t *out)
{
    int rc = rd_next(r);
    if (rc < 0)
        return RD_ERR;
    size_t kl = strlen(key);
    if (rc == 1 && strncmp(r->line, key, kl) == 0 && r->line[kl] == '=') {
        const char *s = r->line + kl + 1;
        if (vis_parse_u64(&s, out) == 0 && *skip_blanks(s) == '\0')
            return RD_OK;
    }
    return rd_fail(r, "'%s=<number>'", key);
}

/* "key: <text>": returns the text after the colon and blanks, or NULL. */
static const char *rd_key_text(reader *r, const char *key, int *rc)
{
    *rc = rd_next(r);
    if (*rc < 0)
        return NULL;
    size_t kl = strlen(key);
    if (*rc == 1 && strncmp(r->line, key, kl) == 0 && r->line[kl] == ':')
        return skip_blanks(r->line + kl + 1);
    *rc = rd_fail(r, "'%s: <text>'", key);
    return NULL;
}

/* The six lines of a snapshot's header, "snapshot=" line already current.
 * Fills s (index, time, sizes, kind). */
static int rd_snapshot_header(reader *r, size_t expect_index, uint64_t min_time,
                              vis_snapshot *s)
{
    const char *v = r->line;
    uint64_t idx;
    if (strncmp(v, "snapshot=", 9) != 0 || (v += 9, vis_parse_u64(&v, &idx) != 0) ||
        *skip_blanks(v) != '\0' || idx != expect_index)
        return rd_fail(r, "'snapshot=%zu'", expect_index);
    s->index = (unsigned)idx;
    s->line = r->lineno;
    int rc;
    if ((rc = rd_key_num(r, "time", &s->time)) != RD_OK)
        return rc;
    if (s->time < min_time)
        return rd_fail(r, "a time not below the previous snapshot's (%llu)",
                       (unsigned long long)min_time);
    if ((rc = rd_key_num(r, "mem_heap_B", &s->heap_B)) != RD_OK ||
        (rc = rd_key_num(r, "mem_heap_extra_B", &s->heap_extra_B)) != RD_OK ||
        (rc = rd_key_num(r, "mem_stacks_B", &s->stacks_B)) != RD_OK)
        return rc;
    if (s->heap_B > UINT64_MAX - s->heap_extra_B ||
        s->heap_B + s->heap_extra_B > UINT64_MAX - s->stacks_B)
        return rd_fail(r, "sizes whose total fits in 64 bits");
    if ((rc = rd_next(r)) < 0)
        return RD_ERR;
    if (rc == 1 && strncmp(r->line, "heap_tree=", 10) == 0) {
        const char *k = r->line + 10;
        size_t n = strcspn(k, " \t");
        if (*skip_blanks(k + n) == '\0') {
            if (n == 5 && memcmp(k, "empty", 5) == 0) {
                s->kind = VIS_TREE_EMPTY;
                return RD_OK;
            }
            if (n == 8 && memcmp(k, "detailed", 8) == 0) {
                s->kind = VIS_TREE_DETAILED;
                return RD_OK;
            }
            if (n == 4 && memcmp(k, "peak", 4) == 0) {
                s->kind = VIS_TREE_PEAK;
                return RD_OK;
            }
        }
    }
    return rd_fail(r, "'heap_tree=empty|detailed|peak'");
}

/* Passes over the descendants of the node just read at depth (a walk's
 * callback pruned it): every following line indented deeper than depth, and
 * blank and comment lines, up to the next node at depth or above, which is
 * left unread, as are the end of the file and an unfinished last line
 * (rd_next reports the cut). Pass 1 checked these lines: nothing is parsed,
 * and only their indentation is looked at. */
static int rd_skip_subtree(reader *r, unsigned depth)
{
    size_t deeper = (size_t)depth + 1;   /* leading spaces of a descendant */
    for (;;) {
        char *b;
        ssize_t n = rd_peek_line(r, &b);
        if (n <= 0)
            return n < 0 ? RD_ERR : RD_OK;
        size_t len = (size_t)n;
        if (b[len - 1] != '\n')
            return RD_OK;
        size_t i = lead_spaces(b);
        if (i < deeper) {
            while (b[i] == ' ' || b[i] == '\t')
                i++;
            if (b[i] != '#' && b[i] != '\n' && !(b[i] == '\r' && b[i + 1] == '\n'))
                return RD_OK;
        }
        r->start += len;
        r->pos += (long)len;
        r->lineno++;
    }
}

/* Pass 1's collector of a tree's sites (defined with pass 1 below): rd_tree
 * calls it itself, for the nodes it wants. */
typedef struct sites_ctx sites_ctx;
static int collect_site(sites_ctx *c, unsigned depth, uint64_t bytes, const char *label);
static int collect_wants(const sites_ctx *c, unsigned depth);

/* The next line, if it is complete in the buffer and reads as a tree node
 * at depth: its '\n' replaced by a NUL (and a '\r' before it), the reader
 * moved past it, and the node's numbers and label parsed. Nearly every
 * line of a big file is one: they are parsed where they lie. The line's
 * end is looked for first, from its start: the next line's start then
 * depends on that search alone, and the processor parses this line while
 * it finds the next one's end (looked for after the numbers, each line
 * waited for the last one's parse: 8% more time for the whole report on
 * the bench's 50 MB file). 0 for any other line (blank and comment lines,
 * a NUL seen, an unfinished last line, a line that is wrong, the end of
 * the buffer), left unread for rd_next. The parse stops at the line's
 * '\n' (no byte it accepts is one). */
static inline int rd_node_line(reader *r, unsigned depth, uint64_t *n_kids, uint64_t *bytes,
                               const char **label)
{
    if (r->end <= r->start || r->seen_nul)
        return 0;
    char *b = r->buf + r->start;
    char *nl = find_nl(b, b + (r->end - r->start));
    /* indented() first: it stops at the line's end, so b[depth] is read
     * only once it is known to lie within the line. */
    const char *s = b + depth;
    if (!nl || !indented(b, depth) || *s++ != 'n' || vis_parse_u64(&s, n_kids) != 0 ||
        *s++ != ':' || *s++ != ' ' || parse_u64_buf(&s, bytes) != 0 || (*s != '\n' && *s != ' '))
        return 0;
    size_t n = (size_t)(nl - b) + 1;
    char *stop = nl > s && nl[-1] == '\r' ? nl - 1 : nl;
    *stop = '\0';
    if (*s == ' ')
        s++;
    *label = s;
    r->start += n;
    r->line_off = r->pos;
    r->pos += (long)n;
    r->lineno++;
    r->line = b;
    r->len = (size_t)(stop - b);
    r->lead = depth;
    return 1;
}

/* Walks one tree (the line after "heap_tree=" is next), calling fn for each
 * node. total bounds every node's bytes. Returns RD_OK, RD_CUT, RD_ERR, or
 * RD_STOP after the callback's positive value (in r->stop); the callback's
 * VIS_WALK_PRUNE skips the node's descendants. r->oversize tells whether a
 * node held more than its parent.
 *
 * Pass 1 (sites given) parses every node: the site collector sees each one
 * it wants, and fn's VIS_WALK_PRUNE only spares fn the node's descendants,
 * while none of them holds more than its parent; from one that does (a tree
 * that is not nested) to the tree's end, fn is given every node. */
static int rd_tree(reader *r, uint64_t total, vis_node_fn fn, void *ctx, sites_ctx *sites)
{
    if (!r->rem && !(r->rem = malloc(VIS_MAX_TREE_DEPTH * sizeof *r->rem))) {
        snprintf(r->err, r->errsz, "%s: out of memory", r->path);
        return RD_ERR;
    }
    if (!r->up && !(r->up = malloc(VIS_MAX_TREE_DEPTH * sizeof *r->up))) {
        snprintf(r->err, r->errsz, "%s: out of memory", r->path);
        return RD_ERR;
    }
    r->oversize = 0;
    unsigned depth = 0;
    unsigned quiet = UINT_MAX;   /* pass 1: fn is not given nodes deeper than this */
    do {
        uint64_t n_kids, bytes;
        const char *s;
        if (!rd_node_line(r, depth, &n_kids, &bytes, &s)) {
            int rc = rd_next(r);
            if (rc < 0)
                return RD_ERR;
            if (rc == 0)
                return rd_fail(r, "a tree node line");
            s = r->line;
            unsigned ind = (unsigned)r->lead;   /* its leading spaces (rd_next) */
            s += ind;
            if (ind != depth || *s++ != 'n' || vis_parse_u64(&s, &n_kids) != 0 ||
                *s++ != ':' || *s++ != ' ' || parse_u64_buf(&s, &bytes) != 0 ||
                (*s != '\0' && *s != ' '))
                return rd_fail(r, "a tree node 'n<children>: <bytes> <label>' "
                               "indented by %u space%s", depth, depth == 1 ? "" : "s");
            if (*s == ' ')
                s++;
        }
        if (bytes > total)
            return rd_fail(r, "a node of at most the snapshot's total (%llu bytes)",
                           (unsigned long long)total);
        if (n_kids > 0 && depth + 1 >= VIS_MAX_TREE_DEPTH)
            return rd_fail(r, "a tree at most %d levels deep", VIS_MAX_TREE_DEPTH);
        if (depth <= quiet)
            quiet = UINT_MAX;
        if (depth > 0 && bytes > r->up[depth - 1]) {
            r->oversize = 1;
            quiet = UINT_MAX;
        }
        if (r->node_line)
            *r->node_line = r->lineno;
        if (sites && collect_wants(sites, depth) &&
            (r->stop = collect_site(sites, depth, bytes, s)) != 0)
            return RD_STOP;
        if (fn && quiet == UINT_MAX && (r->stop = fn(ctx, depth, bytes, s, (size_t)n_kids)) != 0) {
            if (r->stop != VIS_WALK_PRUNE)
                return RD_STOP;
            if (sites) {
                quiet = depth;
            } else {
                if (n_kids > 0 && rd_skip_subtree(r, depth) != RD_OK)
                    return RD_ERR;
                n_kids = 0;
            }
        }
        if (depth > 0)
            r->rem[depth - 1]--;
        if (n_kids > 0) {
            r->up[depth] = bytes;
            r->rem[depth++] = n_kids;
        } else {
            while (depth > 0 && r->rem[depth - 1] == 0)
                depth--;
        }
    } while (depth > 0);
    return RD_OK;
}

/* ---------------------------------------------------------------- pass 1 */


/* sites_ctx callbacks' stop values */
enum { STOP_NOMEM = 1 };

/* How each unnamed site is labelled (vis_site_label_by_caller), decided
 * where it is first seen and kept for the whole file, so that a site keeps
 * one label in every snapshot. Both pointers are interned labels. */
typedef struct {
    struct relabel {
        const char *raw, *shown;
    } *a;
    size_t n;
} relabels;

/* Collects a snapshot's root children as its sites. An unnamed site is
 * pending until its first-child chain (its largest callers, in preorder
 * right after it) reaches a named node. */
struct sites_ctx {
    vis_profile *p;
    vis_snapshot *s;
    relabels *rl;
    size_t pending;      /* index in s->sites, or SIZE_MAX */
    unsigned chain;      /* depth of the next node in its first-child chain */
};

/* The nodes collect_site looks at: the root's children, and while a site is
 * pending, the nodes after it. rd_tree asks first: most nodes are neither. */
static int collect_wants(const sites_ctx *c, unsigned depth)
{
    return depth == 1 || c->pending != SIZE_MAX;
}

/* Records the pending site's label for the rest of the file. */
static int settle(sites_ctx *c, const char *shown)
{
    relabels *rl = c->rl;
    struct relabel *a = vis_grow(rl->a, rl->n, 4, sizeof *a);
    if (!a)
        return -1;
    rl->a = a;
    vis_site *site = &c->s->sites[c->pending];
    a[rl->n].raw = site->label;
    a[rl->n].shown = site->label = (char *)shown;
    rl->n++;
    c->pending = SIZE_MAX;
    return 0;
}

static int follow_unnamed(sites_ctx *c, unsigned depth, const char *label)
{
    if (depth != c->chain)   /* the chain ended without a name */
        return settle(c, c->s->sites[c->pending].label) ? STOP_NOMEM : 0;
    vis_label l = vis_label_parse(label);
    if (!l.unnamed && l.addr) {
        char *l = vis_site_label_by_caller(c->s->sites[c->pending].label, label);
        char *shown = l ? vis_profile_intern(c->p, l, strlen(l)) : NULL;
        free(l);
        return !shown || settle(c, shown) ? STOP_NOMEM : 0;
    }
    c->chain++;
    return 0;
}


static int collect_site(sites_ctx *c, unsigned depth, uint64_t bytes, const char *label)
{
    if (depth != 1)
        return c->pending != SIZE_MAX ? follow_unnamed(c, depth, label) : 0;
    if (c->pending != SIZE_MAX && settle(c, c->s->sites[c->pending].label))
        return STOP_NOMEM;
    vis_snapshot *s = c->s;
    size_t n = s->n_sites;
    vis_site *a = vis_grow(s->sites, n, 4, sizeof *a);
    if (!a)
        return STOP_NOMEM;
    s->sites = a;
    vis_site *site = &s->sites[n];
    site->bytes = bytes;
    site->label = vis_profile_intern(c->p, label, strlen(label));
    if (!site->label)
        return STOP_NOMEM;
    site->is_below_threshold = vis_label_parse(label).below;
    if (vis_site_unnamed(site->label)) {
        size_t i = 0;
        while (i < c->rl->n && c->rl->a[i].raw != site->label)
            i++;
        if (i < c->rl->n) {
            site->label = (char *)c->rl->a[i].shown;
        } else {
            c->pending = n;
            c->chain = 2;
        }
    }
    s->n_sites++;
    return 0;
}

/* Builds a vis_node tree. path[d] is the node last added at depth d; adding a
 * child to path[d-1] may move its earlier children, whose subtrees are done
 * (preorder), so no stale pointer is used. */
typedef struct {
    vis_node *root;
    vis_node **path;
} build_ctx;

static int build_node(void *vctx, unsigned depth, uint64_t bytes,
                      const char *label, size_t n_children)
{
    build_ctx *c = vctx;
    (void)n_children;
    vis_node *n;
    if (depth == 0) {
        n = c->root;
    } else {
        vis_node *parent = c->path[depth - 1];
        size_t k = parent->n_children;
        vis_node *a = vis_grow(parent->children, k, 4, sizeof *a);
        if (!a)
            return STOP_NOMEM;
        parent->children = a;
        n = &parent->children[k];
        memset(n, 0, sizeof *n);
        parent->n_children++;
    }
    n->bytes = bytes;
    if (!(n->label = strdup(label)))
        return STOP_NOMEM;
    c->path[depth] = n;
    return 0;
}

static int nomem(reader *r)
{
    snprintf(r->err, r->errsz, "%s: out of memory", r->path);
    return RD_ERR;
}

/* Re-reads snapshot snaps[i]'s header from its offset, checking it is the
 * one pass 1 saw. */
static int rd_reread_header(reader *r, const vis_profile *p, size_t i)
{
    const vis_snapshot *want = &p->snaps[i];
    if (rd_seek(r, want->offset, want->offset_line - 1) != RD_OK)
        return RD_ERR;
    vis_snapshot got;
    memset(&got, 0, sizeof got);
    int rc = rd_next(r);
    if (rc < 0)
        return RD_ERR;
    rc = rc == 1 ? rd_snapshot_header(r, i, 0, &got) : RD_CUT;
    if (rc == RD_ERR)
        return RD_ERR;
    if (rc != RD_OK || got.time != want->time || got.kind != want->kind ||
        vis_snap_total(&got) != vis_snap_total(want)) {
        snprintf(r->err, r->errsz, "%s:%zu: expected snapshot %zu as read before, "
                 "found something else (did the file change while it was read?)",
                 r->path, r->lineno, i);
        return RD_ERR;
    }
    return RD_OK;
}

static int read_peak_tree(reader *r, vis_profile *p)
{
    /* The peak's own tree if it has one, else the one Massif marked as its
     * peak, else the largest detailed snapshot's. */
    size_t best = p->snaps[p->peak].kind != VIS_TREE_EMPTY ? p->peak : p->peak_marked;
    if (best == SIZE_MAX) {
        for (size_t i = 0; i < p->n_snaps; i++)
            if (p->snaps[i].kind != VIS_TREE_EMPTY &&
                (best == SIZE_MAX ||
                 vis_snap_total(&p->snaps[i]) > vis_snap_total(&p->snaps[best])))
                best = i;
    }
    if (best == SIZE_MAX)
        return RD_OK;
    if (rd_reread_header(r, p, best) != RD_OK)
        return RD_ERR;
    build_ctx c;
    c.root = calloc(1, sizeof *c.root);
    c.path = malloc(VIS_MAX_TREE_DEPTH * sizeof *c.path);
    if (!c.root || !c.path) {
        free(c.root);
        free(c.path);
        return nomem(r);
    }
    int rc = rd_tree(r, vis_snap_total(&p->snaps[best]), build_node, &c, NULL);
    free(c.path);
    if (rc == RD_STOP || rc == RD_ERR || (rc == RD_CUT && !p->truncated) ||
        !c.root->label) {
        vis_node_free(c.root);
        return rc == RD_STOP ? nomem(r) : RD_ERR;
    }
    p->peak_tree = c.root;
    p->peak_tree_snap = best;
    return RD_OK;
}

static int read_header(reader *r, vis_profile *p)
{
    int rc;
    const char *v = rd_key_text(r, "desc", &rc);
    if (!v || !(p->desc = strdup(v)))
        return v ? nomem(r) : RD_ERR;
    v = rd_key_text(r, "cmd", &rc);
    if (!v || !(p->cmd = strdup(v)))
        return v ? nomem(r) : RD_ERR;
    /* Massif writes the command line raw, so an argument holding a newline
     * continues cmd: on the following lines, blank or '#' ones included, up
     * to time_unit:. They are joined with "\n" (backslash, n), as memtime
     * writes the same command, so the command stays one line wherever it is
     * shown. */
    r->keep_all = 1;
    for (;;) {
        rc = rd_next(r);
        if (rc != 1 || strncmp(r->line, "time_unit:", 10) == 0)
            break;
        size_t have = strlen(p->cmd);
        char *cmd = realloc(p->cmd, have + 2 + r->len + 1);
        if (!cmd) {
            r->keep_all = 0;
            return nomem(r);
        }
        memcpy(cmd + have, "\\n", 2);
        memcpy(cmd + have + 2, r->line, r->len + 1);
        p->cmd = cmd;
    }
    r->keep_all = 0;
    if (rc < 0)
        return RD_ERR;
    if (rc == 0) {
        rd_fail(r, "'time_unit: i|ms|B'");
        return RD_ERR;
    }
    v = skip_blanks(r->line + 10);
    size_t n = strcspn(v, " \t");
    if (*skip_blanks(v + n) == '\0') {
        if (n == 1 && v[0] == 'i') {
            p->unit = VIS_UNIT_I;
            return RD_OK;
        }
        if (n == 2 && memcmp(v, "ms", 2) == 0) {
            p->unit = VIS_UNIT_MS;
            return RD_OK;
        }
        if (n == 1 && v[0] == 'B') {
            p->unit = VIS_UNIT_B;
            return RD_OK;
        }
    }
    rd_fail(r, "'time_unit: i|ms|B'");
    return RD_ERR;
}

/* Reads the snapshots, handing them to sink (or NULL) as they come. Returns
 * RD_OK (possibly with p->truncated) or RD_ERR. */
static int read_snapshots(reader *r, vis_profile *p, relabels *rl, const vis_massif_sink *sink)
{
    for (;;) {
        int rc = rd_next(r);
        if (rc < 0)
            return RD_ERR;
        if (rc == 0) {
            if (p->n_snaps > 0 && !r->partial)
                return RD_OK;
            rc = rd_fail(r, "'snapshot=%zu'", p->n_snaps);
            if (p->n_snaps == 0)
                return RD_ERR;
            p->truncated = 1;
            p->truncated_line = r->lineno;
            return RD_OK;
        }
        vis_snapshot hdr;
        memset(&hdr, 0, sizeof hdr);
        hdr.offset = r->run_off >= 0 ? r->run_off : r->line_off;
        hdr.offset_line = r->run_off >= 0 ? r->run_line : r->lineno;
        rc = rd_snapshot_header(r, p->n_snaps,
                                p->n_snaps ? p->snaps[p->n_snaps - 1].time : 0, &hdr);
        if (rc == RD_OK && hdr.kind == VIS_TREE_PEAK && p->peak_marked != SIZE_MAX)
            rc = rd_fail(r, "at most one 'heap_tree=peak' (snapshot %zu has it)",
                         p->peak_marked) == RD_CUT ? RD_CUT : RD_ERR;
        if (rc == RD_CUT) {
            p->truncated = 1;
            p->truncated_line = r->partial || !r->at_eof ? r->lineno : r->lineno + 1;
            return p->n_snaps > 0 ? RD_OK : RD_ERR;
        }
        if (rc != RD_OK)
            return RD_ERR;
        vis_snapshot *s = vis_profile_add_snapshot(p);
        if (!s)
            return nomem(r);
        *s = hdr;
        if (s->kind == VIS_TREE_PEAK)
            p->peak_marked = p->n_snaps - 1;
        if (sink)
            sink->snapshot(sink->ctx, p, p->n_snaps - 1);
        if (s->kind == VIS_TREE_EMPTY)
            continue;
        sites_ctx c = { p, s, rl, SIZE_MAX, 0 };
        rc = rd_tree(r, vis_snap_total(s), sink ? sink->node : NULL, sink ? sink->ctx : NULL, &c);
        if (sink && rc != RD_ERR && rc != RD_STOP)
            sink->tree_end(sink->ctx);
        s->nested = !r->oversize;
        if (rc == RD_OK && c.pending != SIZE_MAX && settle(&c, s->sites[c.pending].label))
            return nomem(r);
        if (rc == RD_STOP)
            return nomem(r);
        if (rc == RD_CUT) {
            p->truncated = 1;
            p->truncated_line = r->partial || !r->at_eof ? r->lineno : r->lineno + 1;
            return RD_OK;
        }
        if (rc != RD_OK)
            return RD_ERR;
    }
}

vis_profile *vis_massif_read(FILE *f, const char *path, char *err, size_t errsz)
{
    return vis_massif_read_sink(f, path, NULL, err, errsz);
}

vis_profile *vis_massif_read_sink(FILE *f, const char *path, const vis_massif_sink *sink,
                                  char *err, size_t errsz)
{
    reader r;
    rd_init(&r, f, path, err, errsz);
    vis_profile *p = vis_profile_new(path);
    if (!p) {
        nomem(&r);
        rd_free(&r);
        return NULL;
    }
    int rc = read_header(&r, p);
    relabels rl = { NULL, 0 };
    if (rc == RD_OK)
        rc = read_snapshots(&r, p, &rl, sink);
    free(rl.a);
    if (rc == RD_OK && p->truncated && !(p->truncated_msg = strdup(err)))
        rc = nomem(&r);
    if (rc == RD_OK && vis_profile_finish(p) != 0)
        rc = nomem(&r);
    if (rc == RD_OK) {
        rc = read_peak_tree(&r, p);
    }
    rd_free(&r);
    if (rc != RD_OK) {
        vis_profile_free(p);
        return NULL;
    }
    if (errsz)
        err[0] = '\0';
    return p;
}

/* ---------------------------------------------------------------- pass 2 */

int vis_massif_walk_tree(FILE *f, const vis_profile *p, size_t snap,
                         vis_node_fn fn, void *ctx, char *err, size_t errsz)
{
    return vis_massif_walk_tree_lines(f, p, snap, fn, ctx, NULL, err, errsz);
}

struct vis_massif_walker {
    reader r;
    const vis_profile *p;
};

vis_massif_walker *vis_massif_walker_new(FILE *f, const vis_profile *p, char *err, size_t errsz)
{
    vis_massif_walker *w = malloc(sizeof *w);
    if (!w) {
        snprintf(err, errsz, "%s: out of memory", p->path);
        return NULL;
    }
    rd_init(&w->r, f, p->path, err, errsz);
    w->p = p;
    return w;
}

void vis_massif_walker_free(vis_massif_walker *w)
{
    if (!w)
        return;
    rd_free(&w->r);
    free(w);
}

int vis_massif_walker_tree(vis_massif_walker *w, size_t snap, vis_node_fn fn, void *ctx,
                           size_t *node_line)
{
    reader *r = &w->r;
    const vis_profile *p = w->p;
    r->node_line = node_line;
    int rc = RD_ERR;
    if (snap < p->n_snaps && p->snaps[snap].kind != VIS_TREE_EMPTY &&
        rd_reread_header(r, p, snap) == RD_OK) {
        rc = rd_tree(r, vis_snap_total(&p->snaps[snap]), fn, ctx, NULL);
        /* Pass 1 accepted this tree, so a cut here is the file's known end. */
        if (rc == RD_CUT)
            rc = p->truncated ? RD_OK : RD_ERR;
        else if (rc == RD_STOP)
            rc = r->stop;
    } else if (snap >= p->n_snaps || p->snaps[snap].kind == VIS_TREE_EMPTY) {
        snprintf(r->err, r->errsz, "%s: snapshot %zu has no tree", p->path, snap);
    }
    r->node_line = NULL;
    if (rc == RD_OK && r->errsz)
        r->err[0] = '\0';
    return rc;
}

int vis_massif_walk_tree_lines(FILE *f, const vis_profile *p, size_t snap,
                               vis_node_fn fn, void *ctx, size_t *node_line,
                               char *err, size_t errsz)
{
    vis_massif_walker *w = vis_massif_walker_new(f, p, err, errsz);
    if (!w)
        return -1;
    int rc = vis_massif_walker_tree(w, snap, fn, ctx, node_line);
    vis_massif_walker_free(w);
    return rc;
}
