/* report.c: the text reports (see report.h).
 *
 * The ms_print part reproduces ms_print 3.19's rules exactly (its graph
 * rasterisation, number formats, significance test and tree prefixes), so
 * diffing the two is a test. Unlike ms_print it does not cut labels at '#'
 * (it never treats text inside a line as a comment). Trees are not kept in
 * the model. The head (the graph, the list of detailed snapshots) needs
 * every snapshot; what follows it, the snapshot table and the trees,
 * depends only on each snapshot's own lines, so it is rendered while pass 1
 * reads the file (massif.h's sink), printing each node as it comes with a
 * small per-depth stack, and kept until the head is printed: the file is
 * read once (reading and splitting it into lines was most of the report's
 * cost). It is kept in memory up to BODY_MEM, beyond that in a scratch file,
 * so memory stays bounded whatever the size of the file (ms_print keeps its
 * trees in a temporary file too). Without a kept body (no scratch file could
 * be made or written, or a caller that did not ask for one), the report
 * walks each detailed snapshot's tree from the file after the head (massif.h's
 * walker, in file order, so the file is read straight on): the same text,
 * with a second read. That walk passes over the subtrees that cannot print,
 * unparsed; pass 1 checked every line already. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/units.h"
#include "model/sites.h"
#include "read/massif.h"
#include "render/report.h"

void vis_report_opts_default(vis_report_opts *o)
{
    o->threshold = 1.0;
    o->graph_x = 72;
    o->graph_y = 20;
    o->top_n = 8;
    o->ms_print_args = "";
}

/* ------------------------------------------------------ ms_print: graph */

static const char *const fancy =
    "--------------------------------------------------------------------------------\n";

/* ms_print's max_label_2: an integer below 1000, else 5 characters. */
static void max_label(char *buf, size_t n, uint64_t v, double scaled)
{
    if (v < 1000)
        snprintf(buf, n, "%5" PRIu64, v);
    else if (scaled < 10)
        snprintf(buf, n, "%5.3f", scaled);
    else if (scaled < 100)
        snprintf(buf, n, "%5.2f", scaled);
    else
        snprintf(buf, n, "%5.1f", scaled);
}

/* The axis label of the largest value: by 1024 for bytes and instructions
 * (ms_print's choice), ms -> s -> h for milliseconds. */
static const char *axis_label(char *buf, size_t n, uint64_t v, char unit_kind)
{
    static const char *const bytes[] = { "B", "KB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB" };
    static const char *const instr[] = { "i", "ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi" };
    double s = (double)v;
    const char *unit;
    if (unit_kind == 't') {
        unit = "ms";
        if (s >= 1000) {
            unit = "s";
            s /= 1000;
        }
        if (s >= 3600) {
            unit = "h";
            s /= 3600;
        }
    } else {
        int u = 0;
        while (s >= 1000 && u < 8) {
            s /= 1024;
            u++;
        }
        unit = unit_kind == 'i' ? instr[u] : bytes[u];
    }
    max_label(buf, n, v, s);
    return unit;
}

static void print_graph(FILE *out, const vis_profile *p, const vis_report_opts *o)
{
    int gx = o->graph_x, gy = o->graph_y;
    size_t w = (size_t)gx + 1;
    char *g = malloc(w * ((size_t)gy + 1));
    if (!g)
        return;
#define G(x, y) g[(size_t)(y) * w + (size_t)(x)]
    for (int y = 0; y <= gy; y++)
        for (int x = 0; x <= gx; x++)
            G(x, y) = y == 0 ? (x == 0 ? '+' : '-') : (x == 0 ? '|' : ' ');
    G(gx, 0) = '>';
    G(0, gy) = '^';

    uint64_t peak_total = vis_snap_total(&p->snaps[p->largest]);
    uint64_t end_time = p->snaps[p->n_snaps - 1].time;
    if (peak_total == 0)
        peak_total = 1;
    if (end_time == 0)
        end_time = 1;
    double K = (double)peak_total / gy;
    int x = 0, prev_x, prev_y_max = 0;
    char prev_char = ':';
    for (size_t i = 0; i < p->n_snaps; i++) {
        const vis_snapshot *s = &p->snaps[i];
        prev_x = x;
        x = (int)(((double)s->time / (double)end_time) * gx) + 1;
        /* The last snapshot lands one past the end: pull it back, as ms_print
         * does; the clamp also covers rounding for times just below it. */
        if (s->time == end_time || x > gx)
            x = gx;
        if (prev_y_max > 0)
            for (int x2 = prev_x + 1; x2 < x; x2++)
                G(x2, prev_y_max) = prev_char;
        char ch = i == p->peak_marked ? '#' : s->kind != VIS_TREE_EMPTY ? '@' : ':';
        uint64_t total = vis_snap_total(s);
        int y_max = 0;
        for (int y = 1; y <= gy; y++) {
            if ((double)total >= y * K) {
                char cur = G(x, y);
                if (ch == '#' || (ch == '@' && cur != '#') ||
                    (ch == ':' && cur != '#' && cur != '@'))
                    G(x, y) = ch;
                y_max = y;
            }
        }
        prev_y_max = y_max;
        prev_char = ch;
    }

    char ylab[32], xlab[32];
    const char *yunit = axis_label(ylab, sizeof ylab, peak_total, 'B');
    const char *xunit = axis_label(xlab, sizeof xlab, end_time,
                                   p->unit == VIS_UNIT_I ? 'i' : p->unit == VIS_UNIT_MS ? 't' : 'B');
    fprintf(out, "    %2s\n", yunit);
    for (int y = gy; y >= 0; y--) {
        fputs(y == gy ? ylab : y == 0 ? "   0 " : "     ", out);
        fwrite(&G(0, y), 1, w, out);
        if (y == 0)
            fputs(xunit, out);
        fputc('\n', out);
    }
    fprintf(out, "     0%*s%5s\n", gx > 5 ? gx - 5 : 0, "", xlab);
#undef G
    free(g);
}

/* ------------------------------------------------------- ms_print: trees */

typedef struct {
    size_t n_children, next_child;
    int significant;
    uint64_t bytes;
    size_t n_insig;
    uint64_t insig_B;
} frame;

/* The body writer: the snapshot table and the trees. Each line is built in
 * place in buf (bw_room, bw_done), not handed to stdio piece by piece, and
 * buf goes on in big blocks: to out when the trees are walked from the
 * file after the head (pass 2), else kept until the head is printed (one
 * pass, vis_report_body). While a tree streams, frames[d] is its open node
 * at depth d and prefix[0..2d) holds the "| " / "  " midfixes of open nodes
 * 1..d. */
struct vis_report_body {
    char *buf;
    size_t len, cap;
    FILE *out;           /* pass 2: where a full buf goes */
    int scratch;         /* one pass: the scratch file a full buf goes to,
                            -1 until the body outgrows BODY_MEM */
    int failed;          /* one pass: out of memory, the scratch file
                            failed, or a tree that is not nested printed
                            under what was passed over: the body is dropped
                            (the report walks the file again instead);
                            pass 2: no memory for a line */
    double threshold;
    char threshold_text[32]; /* as the "in N+ places" lines print it */
    size_t threshold_len;
    uint64_t total;      /* of the snapshot whose tree streams */
    uint64_t sig_min;    /* its significance test (first_significant) */
    int prune;           /* pass 2, and the tree is nested: pass over what
                            is under a node below the threshold */
    unsigned skip_depth; /* one pass: the depth of the node below the
                            threshold whose descendants are passed over,
                            UINT_MAX when none is */
    frame *frames;
    char *prefix;
    unsigned depth;      /* open frames */
    size_t n_rows;
    int prev_detailed;
};
typedef struct vis_report_body body_writer;

/* One pass keeps at most BODY_MEM of the body in memory, the rest in the
 * scratch file: memory does not follow the file's size (the aim is the
 * report's max RSS no higher than ms_print's, about 6.5 MB; it is about
 * 4 MB without the body), and most reports never make the file. Keeping a
 * whole 3.6 MB body in memory was no faster on the bench's 50 MB file.
 * Pass 2 writes out in blocks of BODY_BLOCK; one pass starts with one. */
#define BODY_MEM (1 << 20)
#define BODY_BLOCK (1 << 16)

/* An unlinked scratch file in $TMPDIR (default /tmp), gone when closed
 * (tmpfile() would ignore TMPDIR), or -1. report.c makes its own rather
 * than through outfile.c: the fuzzing harness links the text reports
 * without the output files. */
static int scratch_file(void)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    if (!dir || !*dir)
        dir = "/tmp";
    if ((size_t)snprintf(path, sizeof path, "%s/memtime-vis.XXXXXX", dir) >= sizeof path)
        return -1;
    int fd = mkstemp(path);
    if (fd >= 0)
        unlink(path);
    return fd;
}

/* Writes s[0..n) where the body goes: out, or the scratch file (made on
 * first use). A failure in one pass drops the body. */
static void bw_emit(body_writer *t, const char *s, size_t n)
{
    if (t->out) {
        fwrite(s, 1, n, t->out);
        return;
    }
    if (t->failed || (t->scratch < 0 && (t->scratch = scratch_file()) < 0)) {
        t->failed = 1;
        return;
    }
    while (n > 0) {
        ssize_t w = write(t->scratch, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            t->failed = 1;
            return;
        }
        s += w;
        n -= (size_t)w;
    }
}

static void bw_flush(body_writer *t)
{
    if (t->len > 0)
        bw_emit(t, t->buf, t->len);
    t->len = 0;
}

/* bw_room's slow path: makes n bytes free at buf + len (one pass first
 * grows buf up to BODY_MEM, then hands it on; a line longer than buf
 * grows it to fit). NULL once the body failed. */
static char *bw_room_full(body_writer *t, size_t n)
{
    if (t->out || t->scratch >= 0 || t->cap >= BODY_MEM || t->len + n > BODY_MEM)
        bw_flush(t);
    if (t->failed)
        return NULL;
    if (n > t->cap - t->len) {
        size_t cap = t->cap;
        while (cap - t->len < n)
            cap *= 2;
        char *nb = realloc(t->buf, cap);
        if (!nb) {
            t->failed = 1;
            return NULL;
        }
        t->buf = nb;
        t->cap = cap;
    }
    return t->buf + t->len;
}

/* Where the next n bytes of the body go: each line is written in place,
 * then counted with bw_done. NULL once the body failed. */
static inline char *bw_room(body_writer *t, size_t n)
{
    return n <= t->cap - t->len ? t->buf + t->len : bw_room_full(t, n);
}

static inline void bw_done(body_writer *t, const char *end)
{
    t->len = (size_t)(end - t->buf);
}

static void bw_put(body_writer *t, const char *s, size_t n)
{
    char *o = bw_room(t, n);
    if (o) {
        memcpy(o, s, n);
        bw_done(t, o + n);
    }
}

static double percent(uint64_t bytes, uint64_t total)
{
    if (total == 0)
        return 0;
    /* As Perl evaluates 100 * $bytes / $total. */
    double hundred_x = bytes <= UINT64_MAX / 100 ? (double)(bytes * 100) : 100.0 * (double)bytes;
    return hundred_x / (double)total;
}

/* The significance test, percent(bytes, total) >= threshold, as one
 * comparison per node (one pass tests many more nodes than the walk): while
 * bytes * 100 is exact, percent() never decreases as bytes grows (the
 * conversion and the division both round monotonically), so the test is
 * bytes >= the smallest significant value, found here by bisection once
 * per snapshot; UINT64_MAX / 100 + 1 when none is. */
static uint64_t first_significant(uint64_t total, double threshold)
{
    uint64_t lo = 0, hi = UINT64_MAX / 100 + 1;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (percent(mid, total) >= threshold)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static int significant(const body_writer *t, uint64_t bytes)
{
    if (bytes <= UINT64_MAX / 100)
        return bytes >= t->sig_min;
    return percent(bytes, t->total) >= t->threshold;
}

/* The tree lines are written without printf, which took a tenth of the
 * report's time on a big file: put_* write at o and return the end, no NUL. */

static char *put_dec(char *o, uint64_t v)
{
    char d[20];
    int n = 0;
    do
        d[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n > 0)
        *o++ = d[--n];
    return o;
}

/* printf's "%05.2f" of q >= 0 (ms_print's format for percentages): q
 * rounded to two decimals to nearest, ties to even, from its exact binary
 * value, as printf rounds it. At most 24 bytes. */
static char *put_percent(char *o, double q)
{
    uint64_t bits;
    memcpy(&bits, &q, sizeof bits);
    unsigned ex = (unsigned)(bits >> 52) & 0x7ff;
    if ((bits >> 63) != 0 || ex >= 1023 + 30)   /* negative, 2^30 or more, inf, NaN */
        return o + snprintf(o, 24, "%05.2f", q);
    /* q = m / 2^s with m < 2^53, so 100 q = x / 2^s exactly, x < 2^60; below
     * 2^-11 (s >= 64, and 0 and subnormals) 100 q rounds to 0. */
    uint64_t k = 0;
    int s = 1075 - (int)ex;
    if (ex > 0 && s < 64) {
        uint64_t x = 100 * ((bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52));
        uint64_t rem = x & ((UINT64_C(1) << s) - 1), half = UINT64_C(1) << (s - 1);
        k = x >> s;
        k += rem > half || (rem == half && (k & 1));
    }
    if (k < 1000)
        *o++ = '0';
    o = put_dec(o, k / 100);
    *o++ = '.';
    *o++ = (char)('0' + k % 100 / 10);
    *o++ = (char)('0' + k % 10);
    return o;
}

/* "PP.PP% (1,234B)": a node's share of the snapshot's total and its bytes.
 * At most SHARE_MAX bytes. */
#define SHARE_MAX (24 + 3 + 26 + 2)
static char *put_share(char *o, uint64_t bytes, uint64_t total)
{
    o = put_percent(o, percent(bytes, total));
    memcpy(o, "% (", 3);
    o = vis_put_grouped(o + 3, bytes);
    *o++ = 'B';
    *o++ = ')';
    return o;
}

/* Closes the deepest open node: its trailing lines, then tells its parent
 * whether it was significant. */
static void close_frame(body_writer *t)
{
    unsigned d = --t->depth;
    frame *f = &t->frames[d];
    if (f->significant) {
        size_t pl = 2 * (size_t)d;
        if (f->n_insig > 0) {
            static const char below[] = "+ places, all below ms_print's threshold (";
            char *o = bw_room(t, 2 * pl + 2 + SHARE_MAX + 4 + 20 + sizeof below +
                                 sizeof t->threshold_text + 4);
            if (!o)
                return;
            memcpy(o, t->prefix, pl);
            memcpy(o + pl, "->", 2);
            o = put_share(o + pl + 2, f->insig_B, t->total);
            memcpy(o, " in ", 4);
            o = put_dec(o + 4, f->n_insig);
            memcpy(o, below, sizeof below - 1);
            o += sizeof below - 1;
            memcpy(o, t->threshold_text, t->threshold_len);
            o += t->threshold_len;
            memcpy(o, "%)\n", 3);
            memcpy(o + 3, t->prefix, pl);
            o[3 + pl] = '\n';
            bw_done(t, o + 4 + pl);
        }
        if (f->n_children == 0) {
            char *o = bw_room(t, pl + 1);
            if (!o)
                return;
            memcpy(o, t->prefix, pl);
            o[pl] = '\n';
            bw_done(t, o + pl + 1);
        }
    } else if (d > 0) {
        t->frames[d - 1].n_insig++;
        t->frames[d - 1].insig_B += f->bytes;
    }
}

static int body_node(void *ctx, unsigned depth, uint64_t bytes, const char *label,
                     size_t n_children)
{
    body_writer *t = ctx;
    /* Below a node under the threshold a nested tree holds only nodes under
     * it too (percent() grows with bytes where it multiplies exactly), so
     * none of them prints: ms_print's report reads them all to print
     * nothing. Most of a big file's lines are such. A walk (pass 2) of a
     * tree pass 1 found nested skips them unread. Pass 1 knows whether the
     * tree is nested only at its end, and spares the writer such nodes only
     * until one holds more than its parent (massif.h's sink): from there
     * the writer is given them, and checks that each is indeed below the
     * threshold. One that is not (in a tree that is not nested) would
     * print, so the body is dropped and the report walks the file again. */
    if (depth > t->skip_depth) {
        if (significant(t, bytes))
            t->failed = 1;
        return 0;
    }
    t->skip_depth = UINT_MAX;
    if (t->failed)
        return 0;
    if (depth > 0) {
        frame *parent = &t->frames[depth - 1];
        int last = ++parent->next_child == parent->n_children;
        memcpy(t->prefix + 2 * (depth - 1), last ? "  " : "| ", 2);
    }
    int sig = depth == 0 || significant(t, bytes);
    int prune = !sig && n_children > 0 && bytes <= UINT64_MAX / 100 && (t->prune || !t->out);
    if (prune && !t->out)
        t->skip_depth = depth;
    if (sig) {
        size_t pl = depth > 0 ? 2 * ((size_t)depth - 1) : 0, ll = strlen(label);
        char *o = bw_room(t, pl + 2 + SHARE_MAX + 1 + ll + 1);
        if (!o)
            return 0;
        if (depth > 0) {
            memcpy(o, t->prefix, pl);
            memcpy(o + pl, "->", 2);
            o += pl + 2;
        }
        o = put_share(o, bytes, t->total);
        if (ll) {
            *o++ = ' ';
            memcpy(o, label, ll);
            o += ll;
        }
        *o++ = '\n';
        bw_done(t, o);
    }
    frame *f = &t->frames[depth];
    f->n_children = prune ? 0 : n_children;
    f->next_child = 0;
    f->significant = sig;
    f->bytes = bytes;
    f->n_insig = 0;
    f->insig_B = 0;
    t->depth = depth + 1;
    /* Close this node if it is a leaf, then every ancestor it completes. */
    while (t->depth > 0 && t->frames[t->depth - 1].next_child == t->frames[t->depth - 1].n_children)
        close_frame(t);
    return prune ? VIS_WALK_PRUNE : 0;
}

/* A tree cut by the end of the file: close what is open. */
static void body_tree_end(void *ctx)
{
    body_writer *t = ctx;
    while (!t->failed && t->depth > 0)
        close_frame(t);
    t->skip_depth = UINT_MAX;
}

static void print_table_header(body_writer *t, vis_unit unit)
{
    static const char *const units[] = { "i", "ms", "B" };
    char tcol[32], line[128];
    snprintf(tcol, sizeof tcol, "time(%s)", units[unit]);
    bw_put(t, fancy, strlen(fancy));
    bw_put(t, line, (size_t)snprintf(line, sizeof line, "%3s %14s %16s %16s %13s %12s\n", "n",
                                     tcol, "total(B)", "useful-heap(B)", "extra-heap(B)",
                                     "stacks(B)"));
    bw_put(t, fancy, strlen(fancy));
}

/* A snapshot's table row. The table header comes first and again after each
 * detailed snapshot's tree, before the next row (ms_print prints it only if
 * another snapshot follows, which is the same). */
static void body_snapshot(void *ctx, const vis_profile *p, size_t i)
{
    body_writer *t = ctx;
    const vis_snapshot *s = &p->snaps[i];
    char c1[32], c2[32], c3[32], c4[32], c5[32], line[160];
    if (t->failed)
        return;
    if (t->n_rows++ == 0 || t->prev_detailed)
        print_table_header(t, p->unit);
    bw_put(t, line, (size_t)snprintf(line, sizeof line, "%3u %14s %16s %16s %13s %12s\n",
                                     s->index, vis_fmt_grouped(c1, s->time),
                                     vis_fmt_grouped(c2, vis_snap_total(s)),
                                     vis_fmt_grouped(c3, s->heap_B),
                                     vis_fmt_grouped(c4, s->heap_extra_B),
                                     vis_fmt_grouped(c5, s->stacks_B)));
    t->prev_detailed = s->kind != VIS_TREE_EMPTY;
    t->total = vis_snap_total(s);
    t->sig_min = first_significant(t->total, t->threshold);
    t->prune = t->out && s->nested;
    t->skip_depth = UINT_MAX;
    t->depth = 0;
}

/* Sets up a body writer: to out (pass 2), or kept (out NULL). */
static int body_init(body_writer *t, const vis_report_opts *o, FILE *out)
{
    memset(t, 0, sizeof *t);
    t->out = out;
    t->scratch = -1;
    t->skip_depth = UINT_MAX;
    t->threshold = o->threshold;
    char *end = put_percent(t->threshold_text, o->threshold);
    *end = '\0';
    t->threshold_len = (size_t)(end - t->threshold_text);
    t->cap = BODY_BLOCK;
    t->buf = malloc(t->cap);
    t->frames = malloc(VIS_MAX_TREE_DEPTH * sizeof *t->frames);
    t->prefix = malloc(2 * VIS_MAX_TREE_DEPTH);
    return t->buf && t->frames && t->prefix ? 0 : -1;
}

static void body_release(body_writer *t)
{
    if (t->scratch >= 0)
        close(t->scratch);
    free(t->buf);
    free(t->frames);
    free(t->prefix);
}

vis_report_body *vis_report_body_new(const vis_report_opts *o, vis_massif_sink *sink)
{
    body_writer *t = malloc(sizeof *t);
    if (!t)
        return NULL;
    if (body_init(t, o, NULL) != 0) {
        vis_report_body_free(t);
        return NULL;
    }
    sink->snapshot = body_snapshot;
    sink->node = body_node;
    sink->tree_end = body_tree_end;
    sink->ctx = t;
    return t;
}

void vis_report_body_free(vis_report_body *b)
{
    if (!b)
        return;
    body_release(b);
    free(b);
}

/* Readies a kept body to be copied: what buf holds goes to the scratch file
 * (if one was made), which is read back from its start. A failure drops the
 * body, before the head is printed, so the report can walk the file
 * instead. */
static void body_finish(body_writer *t)
{
    if (t->failed || t->scratch < 0)
        return;
    bw_flush(t);
    if (!t->failed && lseek(t->scratch, 0, SEEK_SET) != 0)
        t->failed = 1;
}

/* Copies a finished body to out: the scratch file's part, then buf's
 * (flushed into the file if there is one). Returns 0, or -1 with err. */
static int body_copy(body_writer *t, FILE *out, char *err, size_t errsz)
{
    if (t->scratch >= 0) {
        for (;;) {
            ssize_t n = read(t->scratch, t->buf, t->cap);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                snprintf(err, errsz, "the report's scratch file: read error: %s", strerror(errno));
                return -1;
            }
            if (n == 0)
                break;
            fwrite(t->buf, 1, (size_t)n, out);
        }
    } else {
        fwrite(t->buf, 1, t->len, out);
    }
    return 0;
}

int vis_report_ms_print(FILE *out, const vis_profile *p, const vis_report_opts *o,
                        FILE *in, char *err, size_t errsz)
{
    return vis_report_ms_print_body(out, p, o, NULL, in, err, errsz);
}

int vis_report_ms_print_body(FILE *out, const vis_profile *p, const vis_report_opts *o,
                             vis_report_body *body, FILE *in, char *err, size_t errsz)
{
    if (body)
        body_finish(body);
    fputs(fancy, out);
    fprintf(out, "Command:            %s\n", p->cmd);
    fprintf(out, "Massif arguments:   %s\n", p->desc);
    fprintf(out, "ms_print arguments:%s\n", o->ms_print_args);
    fputs(fancy, out);
    fputs("\n\n", out);
    print_graph(out, p, o);

    fprintf(out, "\nNumber of snapshots: %zu\n Detailed snapshots: [", p->n_snaps);
    int first = 1;
    for (size_t i = 0; i < p->n_snaps; i++) {
        if (p->snaps[i].kind == VIS_TREE_EMPTY)
            continue;
        fprintf(out, "%s%zu%s", first ? "" : ", ", i, i == p->peak_marked ? " (peak)" : "");
        first = 0;
    }
    fputs("]\n\n", out);

    if (body && !body->failed)
        return body_copy(body, out, err, errsz);

    /* The body: the table, each detailed snapshot's tree after its row,
     * walked from the file. */
    body_writer b;
    int rc = body_init(&b, o, out);
    vis_massif_walker *w = rc == 0 ? vis_massif_walker_new(in, p, err, errsz) : NULL;
    if (rc != 0)
        snprintf(err, errsz, "out of memory");
    else if (!w)
        rc = -1;
    for (size_t i = 0; i < p->n_snaps && rc == 0; i++) {
        body_snapshot(&b, p, i);
        if (p->snaps[i].kind == VIS_TREE_EMPTY)
            continue;
        if (vis_massif_walker_tree(w, i, body_node, &b, NULL) != 0)
            rc = -1;
        body_tree_end(&b);
    }
    bw_flush(&b);
    if (rc == 0 && b.failed) {   /* no memory for a line longer than buf */
        snprintf(err, errsz, "out of memory");
        rc = -1;
    }
    vis_massif_walker_free(w);
    body_release(&b);
    return rc;
}
