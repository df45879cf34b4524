/* companion.c: reads memtime's companion file into the profile model.
 *
 * Line-based text; the first line is exactly "memtime-companion: 1". Blank
 * lines, '#' lines and unknown keys are skipped (newer writers may add keys).
 * Known keys: profile, time_unit (must match the profile's), source, thread, mark,
 * stacks, and the resident memory's rss, rss-peak, rss-mapping and
 * rss-mapping-frame, the allocator's own account (allocator, alloc-stats),
 * site (allocation counts, labels interned like the
 * trees' so they match by pointer), heap-limit, end, and who the process is:
 * process, command, title, fork, child-ended, ended; and the exact outline
 * (outline, o, o-rss), expanded here into contiguous spans (profile.h); the
 * unpruned detail of the trees (detail, frame, dtree: profile.h vis_detail,
 * checked so that the regrouping can trust it: depths that nest, bytes that
 * add up, frame ids that exist). A
 * "stacks:" or "rss:" line whose snapshot number or time does not match the
 * profile is ignored: the two files may be one rewrite apart. Every record
 * kind is read here and nowhere else. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "base/number.h"
#include "model/profile_build.h"
#include "model/sites.h"
#include "read/companion.h"
#include "read/massif.h"

/* A hostile file could name endless thread ids, each costing a slot per
 * snapshot; real programs stay far below this. */
#define MAX_THREADS 4096
/* memtime writes 10 mappings at the RSS peak and 12 frames each. */
#define MAX_RSS_MAPS 1000
#define MAX_RSS_FRAMES 256
/* memtime writes at most 4096 buckets; a hostile file could write a bucket
 * every W over 2^64 units. Every gap becomes one filled span, whatever its
 * length, so the spans are bounded by the lines, and the lines by this. */
#define MAX_OUTLINE_SPANS (1u << 20)
/* The detail's string table and nodes: a hostile file could make them as
 * large as it is; a profile of rustc at depth 2 has a few hundred thousand. */
#define MAX_DETAIL_FRAMES (1u << 24)
#define MAX_DETAIL_NODES (1u << 25)
#define MAX_DETAIL_DEPTH 200
/* Nodes can be deeper than the detail's depth (a call level where
 * functions were inlined is several nodes), but not deeper than any tree. */
#define MAX_NODE_DEPTH VIS_MAX_TREE_DEPTH

typedef struct {
    const char *path;
    size_t lineno;
    const char *line;
    char *err;
    size_t errsz;
    uint64_t o_next;     /* the end of the last "o:" bucket (start + W) */
    int o_any;           /* an "o:" line was read */
    uint64_t rss_next;   /* the smallest start the next "o-rss:" may have */
    size_t d_nodes;      /* detail nodes read so far */
    uint64_t d_max_frame;    /* the largest frame id a "dtree:" used ... */
    size_t d_max_line;       /* ... and its line */
    uint64_t d_frames_said;  /* "detail: frames=" */
    uint64_t d_trees_said;   /* "detail: snapshots=" */
    uint64_t d_trees_seen;   /* "dtree:" lines read, matched or not */
} cctx;

static int cfail(cctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vis_expected(c->err, c->errsz, c->path, c->lineno, c->line, strlen(c->line), 0, fmt, ap);
    va_end(ap);
    return -1;
}

/* "key=<n>" at *s, then a blank or the end. */
static int key_num(const char **s, const char *key, uint64_t *out)
{
    size_t kl = strlen(key);
    const char *p = *s;
    if (strncmp(p, key, kl) != 0 || p[kl] != '=')
        return -1;
    p += kl + 1;
    if (vis_parse_u64(&p, out) != 0 || (*p != '\0' && *p != ' ' && *p != '\t'))
        return -1;
    while (*p == ' ' || *p == '\t')
        p++;
    *s = p;
    return 0;
}

static vis_thread_stack *thread_get(vis_profile *p, uint64_t tid, cctx *c)
{
    for (size_t i = 0; i < p->n_threads; i++)
        if (p->threads[i].tid == tid)
            return &p->threads[i];
    if (p->n_threads >= MAX_THREADS || tid > UINT32_MAX) {
        cfail(c, "at most %d threads with ids below 2^32", MAX_THREADS);
        return NULL;
    }
    vis_thread_stack *a = realloc(p->threads, (p->n_threads + 1) * sizeof *a);
    if (!a)
        goto nomem;
    p->threads = a;
    vis_thread_stack *t = &a[p->n_threads];
    memset(t, 0, sizeof *t);
    t->tid = (unsigned)tid;
    t->bytes = malloc((p->n_snaps ? p->n_snaps : 1) * sizeof *t->bytes);
    if (!t->bytes)
        goto nomem;
    for (size_t i = 0; i < p->n_snaps; i++)
        t->bytes[i] = UINT64_MAX;
    p->n_threads++;
    return t;
nomem:
    snprintf(c->err, c->errsz, "%s: out of memory", c->path);
    return NULL;
}

static int add_mark(vis_profile *p, uint64_t time, const char *label, cctx *c)
{
    vis_mark *a = realloc(p->marks, (p->n_marks + 1) * sizeof *a);
    if (!a || !(label = strdup(label))) {
        if (a)
            p->marks = a;
        snprintf(c->err, c->errsz, "%s: out of memory", c->path);
        return -1;
    }
    p->marks = a;
    /* Keep marks sorted by time; writers append in order, so this is O(1). */
    size_t i = p->n_marks;
    while (i > 0 && a[i - 1].time > time) {
        a[i] = a[i - 1];
        i--;
    }
    a[i].time = time;
    a[i].label = (char *)label;
    p->n_marks++;
    return 0;
}

static int nomem(cctx *c)
{
    snprintf(c->err, c->errsz, "%s: out of memory", c->path);
    return -1;
}

/* "anon=<B> file=<B> shmem=<B>", the split of every RSS line, into r;
 * -1 unless all three are there and their total fits in 64 bits. */
static int rss_split(const char **v, vis_rss *r)
{
    if (key_num(v, "anon", &r->anon_B) != 0 || key_num(v, "file", &r->file_B) != 0 ||
        key_num(v, "shmem", &r->shmem_B) != 0 || r->anon_B > UINT64_MAX - r->file_B ||
        r->anon_B + r->file_B > UINT64_MAX - r->shmem_B)
        return -1;
    r->valid = 1;
    return 0;
}

/* "rss: snapshot=<n> time=<n> anon=<B> file=<B> shmem=<B>" */
static int rss_line(vis_profile *p, const char *v, cctx *c)
{
    uint64_t n, t;
    vis_rss r;
    if (key_num(&v, "snapshot", &n) != 0 || key_num(&v, "time", &t) != 0 || rss_split(&v, &r) != 0)
        return cfail(c, "'rss: snapshot=<n> time=<n> anon=<bytes> file=<bytes> shmem=<bytes>'");
    if (n >= p->n_snaps || p->snaps[n].time != t)
        return 0;   /* one rewrite apart, like "stacks:" */
    if (!p->rss && !(p->rss = calloc(p->n_snaps, sizeof *p->rss)))
        return nomem(c);
    if (!p->rss[n].valid)
        p->n_rss++;
    p->rss[n] = r;
    return 0;
}

/* "rss-peak: time=<n> anon=<B> file=<B> shmem=<B> heap=<B>" */
static int rss_peak_line(vis_profile *p, const char *v, cctx *c)
{
    vis_rss_peak *k = &p->rss_peak;
    uint64_t t, h;
    vis_rss r;
    if (key_num(&v, "time", &t) != 0 || rss_split(&v, &r) != 0 || key_num(&v, "heap", &h) != 0)
        return cfail(c, "'rss-peak: time=<n> anon=<bytes> file=<bytes> shmem=<bytes> heap=<bytes>'");
    if (k->present)
        return cfail(c, "one 'rss-peak:' line");
    k->present = 1;
    k->time = t;
    k->anon_B = r.anon_B;
    k->file_B = r.file_B;
    k->shmem_B = r.shmem_B;
    k->heap_B = h;
    return 0;
}

/* "rss-mapping: anon=<B> file=<B> shmem=<B> mappings=<n> <name>", after the
 * "rss-peak:" line it belongs to. */
static int rss_mapping_line(vis_profile *p, const char *v, cctx *c)
{
    vis_rss_peak *k = &p->rss_peak;
    uint64_t n;
    vis_rss r;
    if (rss_split(&v, &r) != 0 || key_num(&v, "mappings", &n) != 0 || !*v)
        return cfail(c, "'rss-mapping: anon=<bytes> file=<bytes> shmem=<bytes> mappings=<n> <name>'");
    if (!k->present)
        return cfail(c, "'rss-peak:' before 'rss-mapping:'");
    if (k->n_maps >= MAX_RSS_MAPS)
        return cfail(c, "at most %d 'rss-mapping:' lines", MAX_RSS_MAPS);
    vis_rss_mapping *m = realloc(k->maps, (k->n_maps + 1) * sizeof *m);
    if (!m)
        return nomem(c);
    k->maps = m;
    m = &m[k->n_maps];
    memset(m, 0, sizeof *m);
    if (!(m->name = strdup(v)))
        return nomem(c);
    m->anon_B = r.anon_B;
    m->file_B = r.file_B;
    m->shmem_B = r.shmem_B;
    m->n_maps = n;
    k->n_maps++;
    return 0;
}

/* "allocator: name=<word>" (one line, before its readings). */
static int allocator_line(vis_profile *p, const char *v, cctx *c)
{
    vis_allocator *a = &p->allocator;
    size_t n = strcspn(v + 5, " \t");
    if (strncmp(v, "name=", 5) != 0 || n == 0 || n >= sizeof a->name || v[5 + n] != '\0' ||
        strspn(v + 5, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != n)
        return cfail(c, "'allocator: name=<word>' (letters, digits, '_.-', at most %zu)",
                     sizeof a->name - 1);
    if (a->name[0])
        return cfail(c, "one 'allocator:' line");
    memcpy(a->name, v + 5, n);
    a->name[n] = '\0';
    return 0;
}

/* "alloc-stats: time=<n> [rss_time=<n> rss=<B>] <key>=<B> ...": the
 * resident-memory reading it follows, if given, then the allocator's keys;
 * keys the reader does not know are skipped (a newer memtime may add
 * some); each known one at most once; times never go back. */
static int alloc_stats_line(vis_profile *p, const char *v, cctx *c)
{
    vis_allocator *a = &p->allocator;
    vis_alloc_stats r;
    memset(&r, 0, sizeof r);
    if (!a->name[0])
        return cfail(c, "'allocator: name=<word>' before 'alloc-stats:'");
    if (key_num(&v, "time", &r.time) != 0)
        return cfail(c, "'alloc-stats: time=<n> <key>=<bytes> ...'");
    if (a->n > 0 && r.time < a->stats[a->n - 1].time)
        return cfail(c, "'alloc-stats:' times in order (%" PRIu64 " after %" PRIu64 ")", r.time,
                     a->stats[a->n - 1].time);
    if (strncmp(v, "rss_time=", 9) == 0) {
        if (key_num(&v, "rss_time", &r.rss_time) != 0 || key_num(&v, "rss", &r.rss_B) != 0)
            return cfail(c, "'rss_time=<n> rss=<bytes>' after 'alloc-stats: time=<n>'");
        if (r.rss_time > r.time)
            return cfail(c, "'rss_time=' at or before the reading's time (%" PRIu64 " after %" PRIu64 ")",
                         r.rss_time, r.time);
        r.has_rss = 1;
    }
    while (*v) {
        size_t kl = strcspn(v, "= \t");
        int k;
        if (v[kl] != '=')
            return cfail(c, "'<key>=<bytes>' pairs after 'alloc-stats: time=<n>'");
        for (k = 0; k < VIS_AS_N; k++)
            if (strlen(vis_alloc_stat_keys[k]) == kl && strncmp(v, vis_alloc_stat_keys[k], kl) == 0)
                break;
        if (k == VIS_AS_N) {
            uint64_t skip;
            v += kl + 1;
            if (vis_parse_u64(&v, &skip) != 0 || (*v && *v != ' ' && *v != '\t'))
                return cfail(c, "'<key>=<bytes>' pairs after 'alloc-stats: time=<n>'");
            v += strspn(v, " \t");
            continue;
        }
        if (r.have & (1u << k))
            return cfail(c, "'%s=' once per 'alloc-stats:' line", vis_alloc_stat_keys[k]);
        if (key_num(&v, vis_alloc_stat_keys[k], &r.v[k]) != 0)
            return cfail(c, "'%s=<bytes>'", vis_alloc_stat_keys[k]);
        r.have |= 1u << k;
    }
    vis_alloc_stats *g = vis_grow(a->stats, a->n, 16, sizeof *g);
    if (!g)
        return nomem(c);
    a->stats = g;
    a->stats[a->n++] = r;
    return 0;
}

/* "rss-mapping-frame: <frame>": the next frame of the last mapping's mmap. */
static int rss_frame_line(vis_profile *p, const char *v, cctx *c)
{
    vis_rss_peak *k = &p->rss_peak;
    if (k->n_maps == 0)
        return cfail(c, "'rss-mapping:' before 'rss-mapping-frame:'");
    vis_rss_mapping *m = &k->maps[k->n_maps - 1];
    if (m->n_frames >= MAX_RSS_FRAMES)
        return cfail(c, "at most %d frames per mapping", MAX_RSS_FRAMES);
    char **fr = realloc(m->frames, (m->n_frames + 1) * sizeof *fr);
    if (!fr)
        return nomem(c);
    m->frames = fr;
    if (!(fr[m->n_frames] = strdup(v)))
        return nomem(c);
    m->n_frames++;
    return 0;
}

/* The text of a record that runs to the end of the line: after its key
 * and the one blank the writer puts there. */
static const char *text_after(const char *line, size_t key_len)
{
    return line + key_len + (line[key_len] == ' ');
}

/* Replaces *field with a copy of text (NULL: none). */
static int set_text(char **field, const char *text, cctx *c)
{
    free(*field);
    *field = NULL;
    if (text && !(*field = strdup(text)))
        return nomem(c);
    return 0;
}

/* "pid=<P> parent=<PP> start=<T> [epoch_ms=<E>] began=<how>". */
static int process_line(vis_process *q, const char *v, cctx *c)
{
    uint64_t pid, parent, start, epoch;
    if (key_num(&v, "pid", &pid) != 0 || key_num(&v, "parent", &parent) != 0 ||
        key_num(&v, "start", &start) != 0)
        return cfail(c, "'process: pid=<n> parent=<n> start=<n> [epoch_ms=<n>] began=<how>'");
    q->epoch_ms = key_num(&v, "epoch_ms", &epoch) == 0 ? (long long)epoch : -1;
    if (strncmp(v, "began=", 6) != 0 || !v[6])
        return cfail(c, "'began=launched|fork of <pid>|exec of <path>' after 'process: ...'");
    q->pid = (long long)pid;
    q->parent = (long long)parent;
    q->start = (long long)start;
    return set_text(&q->began, v + 6, c);
}

/* "outline: width=<W> end=<T>": the grid the "o:" lines below it use. */
static int outline_line(vis_profile *p, const char *v, cctx *c)
{
    vis_outline *o = &p->outline;
    uint64_t w, end;
    if (key_num(&v, "width", &w) != 0 || key_num(&v, "end", &end) != 0 || *v)
        return cfail(c, "'outline: width=<n> end=<n>'");
    if (o->present)
        return cfail(c, "one 'outline:' line");
    if (w == 0 || (w & (w - 1)) != 0)
        return cfail(c, "a width that is a power of two in 'outline: width=<n> end=<n>'");
    o->present = 1;
    o->width = w;
    o->end = end;
    return 0;
}

/* Room for one more span; -1 (with the error) past MAX_OUTLINE_SPANS. */
static vis_outline_span *span_add(vis_outline *o, cctx *c)
{
    if (o->n >= MAX_OUTLINE_SPANS) {
        cfail(c, "at most %u spans in the outline", MAX_OUTLINE_SPANS);
        return NULL;
    }
    vis_outline_span *a = vis_grow(o->spans, o->n, 64, sizeof *a);
    if (!a) {
        nomem(c);
        return NULL;
    }
    o->spans = a;
    memset(&a[o->n], 0, sizeof *a);
    return &a[o->n++];
}

/* Appends a flat span [start, end) at the previous span's last values: the
 * buckets memtime did not write saw no change. One span however long the
 * gap, so a hostile gap costs nothing. */
static int fill_to(vis_outline *o, uint64_t end, cctx *c)
{
    const vis_outline_span prev = o->spans[o->n - 1];
    if (prev.end >= end)
        return 0;
    vis_outline_span *s = span_add(o, c);
    if (!s)
        return -1;
    s->start = prev.end;
    s->end = end;
    s->min_B = s->max_B = s->last_B = prev.last_B;
    s->heap_min_B = s->heap_max_B = s->heap_last_B = prev.heap_last_B;
    s->filled = 1;
    return 0;
}

/* "<min> <max> <last>", each after blanks. */
static int min_max_last(const char **v, uint64_t *m)
{
    for (int k = 0; k < 3; k++) {
        if (**v != ' ' && **v != '\t')
            return -1;
        *v += strspn(*v, " \t");
        if (vis_parse_u64(v, &m[k]) != 0)
            return -1;
    }
    return 0;
}

/* "o: <start> <min> <max> <last> <heap_min> <heap_max> <heap_last>" */
static int o_line(vis_profile *p, const char *v, cctx *c)
{
    static const char want[] =
        "'o: <start> <min> <max> <last> <heap_min> <heap_max> <heap_last>'";
    vis_outline *o = &p->outline;
    uint64_t start, t[3], h[3];
    if (vis_parse_u64(&v, &start) != 0 || min_max_last(&v, t) != 0 || min_max_last(&v, h) != 0 ||
        v[strspn(v, " \t")])
        return cfail(c, want);
    if (!o->present)
        return cfail(c, "'outline: width=<n> end=<n>' before 'o:'");
    if (start % o->width != 0)
        return cfail(c, "a bucket start that is a multiple of the width %" PRIu64, o->width);
    if (c->o_any && start < c->o_next)
        return cfail(c, "a bucket start after the previous bucket's (%" PRIu64 ")",
                     c->o_next - o->width);
    if (start > o->end)
        return cfail(c, "a bucket start at most the outline's end=%" PRIu64, o->end);
    if (t[0] > t[2] || t[2] > t[1])
        return cfail(c, "min <= last <= max in %s", want);
    if (h[0] > h[2] || h[2] > h[1])
        return cfail(c, "heap_min <= heap_last <= heap_max in %s", want);
    if (h[0] > t[0] || h[1] > t[1] || h[2] > t[2])
        return cfail(c, "heap values at most the totals (heap + extra + stacks) in %s", want);
    if (o->n > 0 && fill_to(o, start, c) != 0)
        return -1;
    vis_outline_span *s = span_add(o, c);
    if (!s)
        return -1;
    /* start <= end, so start + W cannot wrap past 2^64 unless W is huge:
     * then the bucket ends at the outline's end anyway. */
    uint64_t bend = start > UINT64_MAX - o->width ? UINT64_MAX : start + o->width;
    s->start = start;
    s->end = bend;
    s->min_B = t[0], s->max_B = t[1], s->last_B = t[2];
    s->heap_min_B = h[0], s->heap_max_B = h[1], s->heap_last_B = h[2];
    c->o_any = 1;
    c->o_next = bend;
    return 0;
}

/* "o-rss: <start> <min> <max> <last>" */
static int o_rss_line(vis_profile *p, const char *v, cctx *c)
{
    static const char want[] = "'o-rss: <start> <min> <max> <last>'";
    vis_outline *o = &p->outline;
    uint64_t start, m[3];
    if (vis_parse_u64(&v, &start) != 0 || min_max_last(&v, m) != 0 || v[strspn(v, " \t")])
        return cfail(c, want);
    if (!o->present)
        return cfail(c, "'outline: width=<n> end=<n>' before 'o-rss:'");
    if (start % o->width != 0)
        return cfail(c, "a bucket start that is a multiple of the width %" PRIu64, o->width);
    if (o->n_rss > 0 && start < c->rss_next)
        return cfail(c, "an 'o-rss:' bucket start after the previous one's (%" PRIu64 ")",
                     o->rss[o->n_rss - 1].start);
    if (start > o->end)
        return cfail(c, "a bucket start at most the outline's end=%" PRIu64, o->end);
    if (m[0] > m[2] || m[2] > m[1])
        return cfail(c, "min <= last <= max in %s", want);
    if (o->n_rss >= MAX_OUTLINE_SPANS)
        return cfail(c, "at most %u 'o-rss:' lines", MAX_OUTLINE_SPANS);
    vis_outline_rss *a = vis_grow(o->rss, o->n_rss, 64, sizeof *a);
    if (!a)
        return nomem(c);
    o->rss = a;
    uint64_t bend = start > UINT64_MAX - o->width ? UINT64_MAX : start + o->width;
    a[o->n_rss++] = (vis_outline_rss){ start, bend < o->end ? bend : o->end, m[0], m[1], m[2] };
    c->rss_next = bend;
    return 0;
}

/* After the last line: the outline runs to its end= (a flat span after the
 * last written bucket, which saw no change), and the last bucket stops there
 * if the rewrite came before its end. A bucket starting at end= itself (a
 * change at the very moment of the rewrite) keeps its zero length. */
static int outline_finish(vis_outline *o, cctx *c)
{
    if (!o->present || o->n == 0)
        return 0;
    if (fill_to(o, o->end, c) != 0)
        return -1;
    vis_outline_span *last = &o->spans[o->n - 1];
    if (last->end > o->end)
        last->end = o->end;
    return 0;
}

/* "detail: depth=<D> snapshots=<n> frames=<n>" */
static int detail_line(vis_profile *p, const char *v, cctx *c)
{
    uint64_t d, ns, nf;
    if (key_num(&v, "depth", &d) != 0 || key_num(&v, "snapshots", &ns) != 0 ||
        key_num(&v, "frames", &nf) != 0)
        return cfail(c, "'detail: depth=<D> snapshots=<n> frames=<n>'");
    if (p->detail.present)
        return cfail(c, "one 'detail:' line");
    if (d < 1 || d > MAX_DETAIL_DEPTH)
        return cfail(c, "a depth of 1 to %d", MAX_DETAIL_DEPTH);
    p->detail.present = 1;
    p->detail.depth = (unsigned)d;
    c->d_frames_said = nf;
    c->d_trees_said = ns;
    return 0;
}

/* "frame: <id> <label>", ids from 0 in order. */
static int frame_line(vis_profile *p, const char *v, cctx *c)
{
    vis_detail *d = &p->detail;
    uint64_t id;
    if (!d->present)
        return cfail(c, "'detail:' before 'frame:'");
    if (vis_parse_u64(&v, &id) != 0 || (*v != ' ' && *v != '\t'))
        return cfail(c, "'frame: <id> <label>'");
    v += strspn(v, " \t");
    if (!*v)
        return cfail(c, "a label after 'frame: %" PRIu64 "'", id);
    if (id != d->n_frames)
        return cfail(c, "frame id %zu (ids count from 0 in order)", d->n_frames);
    if (d->n_frames >= MAX_DETAIL_FRAMES)
        return cfail(c, "at most %u 'frame:' lines", MAX_DETAIL_FRAMES);
    const char **a = vis_grow((void *)d->frames, d->n_frames, 256, sizeof *a);
    if (!a)
        return nomem(c);
    d->frames = a;
    if (!(a[d->n_frames] = vis_profile_intern(p, v, strlen(v))))
        return nomem(c);
    d->n_frames++;
    return 0;
}

/* "dtree: snapshot=<N> time=<T> <depth>.<frame>.<bytes> ..." in pre-order:
 * the first node at depth 1, each at most one deeper than the one before
 * (inlined frames make nodes deeper than the detail's depth in call levels),
 * a node's children together at most its
 * bytes, the sites together at most the snapshot's heap. */
static int dtree_line(vis_profile *p, const char *v, cctx *c)
{
    vis_detail *d = &p->detail;
    uint64_t n, t;
    static const char *const want = "'dtree: snapshot=<n> time=<n> <depth>.<frame>.<bytes> ...'";
    if (!d->present)
        return cfail(c, "'detail:' before 'dtree:'");
    c->d_trees_seen++;
    if (key_num(&v, "snapshot", &n) != 0 || key_num(&v, "time", &t) != 0)
        return cfail(c, want);
    vis_dtree tr = { (size_t)n, 0, NULL };
    uint64_t up[MAX_NODE_DEPTH + 1];       /* bytes left for children, per depth */
    unsigned prev = 0;
    int rc = 0;
    uint64_t max_frame = 0;
    while (*v && rc == 0) {
        uint64_t dep, fr, b;
        if (vis_parse_u64(&v, &dep) != 0 || *v++ != '.' || vis_parse_u64(&v, &fr) != 0 ||
            *v++ != '.' || vis_parse_u64(&v, &b) != 0 || (*v != '\0' && *v != ' ' && *v != '\t')) {
            rc = cfail(c, "'<depth>.<frame>.<bytes>' nodes after 'dtree: snapshot=<n> time=<n>'");
            break;
        }
        v += strspn(v, " \t");
        if (dep < 1 || dep > MAX_NODE_DEPTH || dep > (uint64_t)prev + 1) {
            rc = cfail(c, "node depths from 1, each at most one below the node before (at "
                       "most %d)", MAX_NODE_DEPTH);
            break;
        }
        if (dep == 1 && tr.n == 0)
            up[0] = n < p->n_snaps ? p->snaps[n].heap_B : UINT64_MAX;
        if (b > up[dep - 1]) {
            rc = cfail(c, dep == 1 ? "sites holding together at most the snapshot's heap"
                                   : "a node's callers holding together at most its bytes");
            break;
        }
        up[dep - 1] -= b;
        up[dep] = b;
        prev = (unsigned)dep;
        if (c->d_nodes >= MAX_DETAIL_NODES) {
            rc = cfail(c, "at most %u detail nodes in all", MAX_DETAIL_NODES);
            break;
        }
        vis_dnode *a = vis_grow(tr.nodes, tr.n, 16, sizeof *a);
        if (!a) {
            rc = nomem(c);
            break;
        }
        tr.nodes = a;
        /* A frame id past the table is caught when the file ends
         * (detail_finish); one past 2^32 here, as no table is that large. */
        if (fr > UINT32_MAX) {
            rc = cfail(c, "frame ids below %u", MAX_DETAIL_FRAMES);
            break;
        }
        a[tr.n++] = (vis_dnode){ b, (uint32_t)fr, (uint16_t)dep };
        c->d_nodes++;
        if (fr > max_frame)
            max_frame = fr;
    }
    /* A snapshot that does not match is ignored, as for "stacks:". */
    if (rc != 0 || n >= p->n_snaps || p->snaps[n].time != t || p->snaps[n].kind == VIS_TREE_EMPTY) {
        free(tr.nodes);
        return rc;
    }
    for (size_t i = 0; i < d->n_trees; i++)
        if (d->trees[i].snap == tr.snap) {
            free(tr.nodes);
            return cfail(c, "one 'dtree:' line for snapshot %" PRIu64, n);
        }
    vis_dtree *a = vis_grow(d->trees, d->n_trees, 16, sizeof *a);
    if (!a) {
        free(tr.nodes);
        return nomem(c);
    }
    d->trees = a;
    a[d->n_trees++] = tr;
    if (tr.n > 0 && max_frame >= c->d_max_frame) {
        c->d_max_frame = max_frame;
        c->d_max_line = c->lineno;
    }
    return 0;
}

static int by_snap(const void *a, const void *b)
{
    const vis_dtree *x = a, *y = b;
    return x->snap < y->snap ? -1 : x->snap > y->snap;
}

/* Every frame a tree uses exists; the trees in snapshot order. */
static int detail_finish(vis_profile *p, cctx *c)
{
    vis_detail *d = &p->detail;
    if (c->d_max_line > 0 && c->d_max_frame >= d->n_frames) {   /* a node was read */
        snprintf(c->err, c->errsz, "%s:%zu: expected frame ids below %zu (the 'frame:' lines), "
                 "found %" PRIu64, c->path, c->d_max_line, d->n_frames, c->d_max_frame);
        return -1;
    }
    if (d->n_trees > 1)
        qsort(d->trees, d->n_trees, sizeof *d->trees, by_snap);
    return 0;
}

/* The record handlers, one per record kind of the tool's MtRecord
 * (memtime/mt_companion.h) and the header's "time_unit:" and "source:".
 * Each gets the text after its key: with the blanks after the colon
 * skipped, or (free text: RECORD_TEXT) only the one separating space, so
 * that a name's own leading blanks survive. */

static int time_unit_rec(vis_profile *p, const char *v, cctx *c)
{
    static const char *const names[] = { "i", "ms", "B" };
    size_t len = strcspn(v, " \t");
    const char *want = names[p->unit];
    if (len != strlen(want) || strncmp(v, want, len) != 0)
        return cfail(c, "'time_unit: %s' as in the profile", want);
    return 0;
}

/* Free text for the summary: where a converted profile came from. */
static int source_rec(vis_profile *p, const char *v, cctx *c)
{
    char **a = vis_grow(p->sources, p->n_sources, 4, sizeof *a);
    if (!a)
        return nomem(c);
    p->sources = a;
    if (!(a[p->n_sources] = strdup(v)))
        return nomem(c);
    p->n_sources++;
    return 0;
}

static int thread_rec(vis_profile *p, const char *v, cctx *c)
{
    uint64_t n;
    if (key_num(&v, "tid", &n) != 0)
        return cfail(c, "'thread: tid=<n> [name=<text>]'");
    vis_thread_stack *th = thread_get(p, n, c);
    if (!th)
        return -1;
    if (strncmp(v, "name=", 5) == 0 && v[5])
        return set_text(&th->name, v + 5, c);
    return 0;
}

static int mark_rec(vis_profile *p, const char *v, cctx *c)
{
    uint64_t t;
    if (key_num(&v, "time", &t) != 0)
        return cfail(c, "'mark: time=<n> <label>'");
    return add_mark(p, t, v, c);
}

static int stacks_rec(vis_profile *p, const char *v, cctx *c)
{
    uint64_t n, t;
    if (key_num(&v, "snapshot", &n) != 0 || key_num(&v, "time", &t) != 0)
        return cfail(c, "'stacks: snapshot=<n> time=<n> <tid>=<bytes> ...'");
    /* Parse the whole line before using it, so a bad line changes nothing. */
    const char *pairs = v;
    while (*v) {
        uint64_t tid, b;
        if (vis_parse_u64(&v, &tid) != 0 || *v++ != '=' || vis_parse_u64(&v, &b) != 0 ||
            (*v != '\0' && *v != ' ' && *v != '\t'))
            return cfail(c, "'<tid>=<bytes>' pairs after 'stacks: snapshot=<n> time=<n>'");
        v += strspn(v, " \t");
    }
    if (n >= p->n_snaps || p->snaps[n].time != t)
        return 0;
    for (v = pairs; *v; v += strspn(v, " \t")) {
        uint64_t tid = 0, b = 0;   /* checked above; set for the compiler */
        vis_parse_u64(&v, &tid);
        v++;
        vis_parse_u64(&v, &b);
        vis_thread_stack *th = thread_get(p, tid, c);
        if (!th)
            return -1;
        th->bytes[n] = b;
        if (b > th->peak_B)
            th->peak_B = b;
    }
    return 0;
}

static int site_rec(vis_profile *p, const char *v, cctx *c)
{
    static const char *const keys[] = { "allocs", "temporary", "bytes", "live_blocks",
                                        "live_bytes" };
    uint64_t val[5];
    for (int k = 0; k < 5; k++)
        if (key_num(&v, keys[k], &val[k]) != 0)
            return cfail(c, "'site: allocs=<n> temporary=<n> bytes=<n> live_blocks=<n> "
                         "live_bytes=<n> <label>'");
    if (!*v)
        return cfail(c, "a site label after 'live_bytes=<n>'");
    if (val[1] > val[0] || val[3] > val[0])
        return cfail(c, "temporary and live_blocks at most allocs");
    const char *label = vis_profile_intern(p, v, strlen(v));
    if (!label)
        return nomem(c);
    /* A label repeated (memtime never does) stays two entries, which the
     * analysis adds up. */
    vis_site_counts *a = vis_grow(p->counts, p->n_counts, 16, sizeof *a);
    if (!a)
        return nomem(c);
    p->counts = a;
    a[p->n_counts++] = (vis_site_counts){ .label = label, .allocs = val[0],
                                          .temporary = val[1], .alloc_bytes = val[2],
                                          .live_blocks = val[3], .live_bytes = val[4] };
    return 0;
}

static int end_rec(vis_profile *p, const char *v, cctx *c)
{
    if (!strcmp(v, "exit"))
        p->end_record = VIS_END_RECORD_EXIT;
    else if (!strcmp(v, "exec"))
        p->end_record = VIS_END_RECORD_EXEC;
    else if (!strcmp(v, "none"))
        p->end_record = VIS_END_RECORD_RUNNING;
    else
        return cfail(c, "'end: exit', 'end: exec' or 'end: none'");
    return 0;
}

static int process_rec(vis_profile *p, const char *v, cctx *c)
{
    return process_line(&p->process, v, c);
}

static int command_rec(vis_profile *p, const char *v, cctx *c)
{
    return set_text(&p->process.command, v, c);
}

/* "title: time=T via=prctl|argv TEXT": the last one is the title. */
static int title_rec(vis_profile *p, const char *v, cctx *c)
{
    uint64_t t;
    if (key_num(&v, "time", &t) != 0 || strncmp(v, "via=", 4) != 0)
        return cfail(c, "'title: time=<n> via=prctl|argv <title>'");
    v = strchr(v, ' ');
    return set_text(&p->process.title, v ? v + 1 : NULL, c);
}

static int fork_rec(vis_profile *p, const char *v, cctx *c)
{
    uint64_t t, n;
    if (key_num(&v, "time", &t) != 0 || key_num(&v, "child", &n) != 0 || *v)
        return cfail(c, "'fork: time=<n> child=<pid>'");
    vis_fork *a = vis_grow(p->process.forks, p->process.n_forks, 4, sizeof *a);
    if (!a)
        return nomem(c);
    p->process.forks = a;
    a[p->process.n_forks++] = (vis_fork){ t, (long long)n };
    return 0;
}

static int child_ended_rec(vis_profile *p, const char *v, cctx *c)
{
    vis_child_end e = { 0, VIS_END_EXIT, 0 };
    uint64_t t, pid, code;
    if (key_num(&v, "time", &t) != 0 || key_num(&v, "pid", &pid) != 0)
        return cfail(c, "'child-ended: time=<n> pid=<pid> exit=<n>|signal=<n>'");
    if (key_num(&v, "signal", &code) == 0)
        e.kind = VIS_END_SIGNAL;
    else if (key_num(&v, "exit", &code) != 0)
        return cfail(c, "'exit=<n>' or 'signal=<n>' after 'child-ended: time=<n> pid=<pid>'");
    e.pid = (long long)pid;
    e.code = (int)code;
    vis_child_end *a = vis_grow(p->process.child_ends, p->process.n_child_ends, 4, sizeof *a);
    if (!a)
        return nomem(c);
    p->process.child_ends = a;
    a[p->process.n_child_ends++] = e;
    return 0;
}

static int ended_rec(vis_profile *p, const char *v, cctx *c)
{
    uint64_t t, n;
    if (key_num(&v, "time", &t) != 0 || key_num(&v, "exit", &n) != 0)
        return cfail(c, "'ended: time=<n> exit=<n>'");
    p->process.end_kind = VIS_END_EXIT;
    p->process.end_code = (int)n;
    return 0;
}

static int heap_limit_rec(vis_profile *p, const char *v, cctx *c)
{
    static const char *const want =
        "'heap-limit: bytes=<n> action=kill|fail|snapshot time=<n>|none refused=<n>'";
    vis_heap_limit *l = &p->limit;
    if (key_num(&v, "bytes", &l->bytes) != 0 || l->bytes == 0)
        return cfail(c, want);
    if (!strncmp(v, "action=kill ", 12))
        l->action = VIS_LIMIT_KILL, v += 12;
    else if (!strncmp(v, "action=fail ", 12))
        l->action = VIS_LIMIT_FAIL, v += 12;
    else if (!strncmp(v, "action=snapshot ", 16))
        l->action = VIS_LIMIT_SNAPSHOT, v += 16;
    else
        return cfail(c, want);
    if (!strncmp(v, "time=none ", 10)) {
        l->reached = 0;
        v += 10;
    } else if (key_num(&v, "time", &l->time) == 0) {
        l->reached = 1;
    } else {
        return cfail(c, want);
    }
    if (key_num(&v, "refused", &l->refused) != 0 || *v)
        return cfail(c, want);
    l->present = 1;
    return 0;
}

enum { RECORD_FIELDS, RECORD_TEXT };

/* The record table: a line is the record whose key, colon included,
 * begins it (no key begins another, so the order does not matter; it is
 * MtRecord's). "profile:" is informational, and keys not listed are
 * skipped: a newer writer may add records. */
static const struct {
    const char *key;
    int text;
    int (*read)(vis_profile *p, const char *v, cctx *c);
} records[] = {
    { "time_unit:", RECORD_FIELDS, time_unit_rec },
    { "source:", RECORD_TEXT, source_rec },
    { "thread:", RECORD_FIELDS, thread_rec },                 /* MtRecThread */
    { "mark:", RECORD_FIELDS, mark_rec },                     /* MtRecMark */
    { "site:", RECORD_FIELDS, site_rec },                     /* MtRecSite */
    { "end:", RECORD_FIELDS, end_rec },                       /* MtRecEnd */
    { "process:", RECORD_FIELDS, process_rec },               /* MtRecProcess */
    { "command:", RECORD_TEXT, command_rec },                 /* MtRecCommand */
    { "title:", RECORD_FIELDS, title_rec },                   /* MtRecTitle */
    { "fork:", RECORD_FIELDS, fork_rec },                     /* MtRecFork */
    { "child-ended:", RECORD_FIELDS, child_ended_rec },       /* MtRecChildEnded */
    { "ended:", RECORD_FIELDS, ended_rec },                   /* MtRecEnded */
    { "heap-limit:", RECORD_FIELDS, heap_limit_rec },         /* MtRecHeapLimit */
    { "stacks:", RECORD_FIELDS, stacks_rec },                 /* MtRecStacks */
    { "rss:", RECORD_FIELDS, rss_line },                      /* MtRecRss */
    { "rss-peak:", RECORD_FIELDS, rss_peak_line },            /* MtRecRssPeak */
    { "rss-mapping:", RECORD_FIELDS, rss_mapping_line },      /* MtRecRssMapping */
    { "rss-mapping-frame:", RECORD_FIELDS, rss_frame_line },  /* MtRecRssMappingFrame */
    { "allocator:", RECORD_FIELDS, allocator_line },          /* MtRecAllocator */
    { "alloc-stats:", RECORD_FIELDS, alloc_stats_line },      /* MtRecAllocStats */
    { "outline:", RECORD_FIELDS, outline_line },              /* MtRecOutline */
    { "o:", RECORD_FIELDS, o_line },                          /* MtRecOutlineBucket */
    { "o-rss:", RECORD_FIELDS, o_rss_line },                  /* MtRecOutlineRss */
    { "detail:", RECORD_FIELDS, detail_line },                /* MtRecDetail */
    { "frame:", RECORD_FIELDS, frame_line },                  /* MtRecFrame */
    { "dtree:", RECORD_FIELDS, dtree_line },                  /* MtRecDTree */
};

static int do_line(vis_profile *p, const char *line, cctx *c)
{
    for (size_t i = 0; i < sizeof records / sizeof *records; i++) {
        size_t kl = strlen(records[i].key);
        if (strncmp(line, records[i].key, kl) != 0)
            continue;
        const char *v = records[i].text == RECORD_TEXT ? text_after(line, kl)
                                                       : line + kl + strspn(line + kl, " \t");
        return records[i].read(p, v, c);
    }
    return 0;
}

/* The message of an unfinished line, in the readers' one shape. */
static void cut_msg(char *msg, size_t n, const cctx *c, const char *line, size_t len,
                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vis_expected(msg, n, c->path, c->lineno, line, len, 1, fmt, ap);
    va_end(ap);
}

/* Notes that the companion is cut short at line c->lineno: its last line
 * stops before its newline (line, len), or (line NULL) the file ends
 * before the detail's lines that its "detail:" line counts. */
static int companion_cut(vis_profile *p, cctx *c, const char *line, size_t len)
{
    char msg[1024];
    if (line)
        cut_msg(msg, sizeof msg, c, line, len, "a whole record, ending in a newline");
    else if (p->detail.n_frames < c->d_frames_said)
        cut_msg(msg, sizeof msg, c, NULL, 0, "%" PRIu64 " 'frame:' lines, as 'detail:' says",
                c->d_frames_said);
    else
        cut_msg(msg, sizeof msg, c, NULL, 0, "%" PRIu64 " 'dtree:' lines, as 'detail:' says",
                c->d_trees_said);
    p->companion_cut_line = c->lineno;
    if (!(p->companion_cut_msg = strdup(msg)))
        return nomem(c);
    return 0;
}

int vis_companion_read(vis_profile *p, const char *path, char *err, size_t errsz)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 1;
        snprintf(err, errsz, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    int rc = vis_companion_read_stream(p, f, path, err, errsz);
    fclose(f);
    return rc;
}

int vis_companion_read_stream(vis_profile *p, FILE *f, const char *path, char *err,
                              size_t errsz)
{
    cctx c = { path, 0, "", err, errsz, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    char *buf = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = 0;
    while (rc == 0 && (n = getline(&buf, &cap, f)) >= 0) {
        c.lineno++;
        size_t len = (size_t)n;
        if (buf[len - 1] != '\n') {
            /* An unfinished last line: memtime renames whole files, so the
             * file was cut short (a copy stopped early, a disk filled). The
             * records before it are used; the loader warns (read/load.h). */
            rc = companion_cut(p, &c, buf, len);
            break;
        }
        buf[--len] = '\0';
        if (len > 0 && buf[len - 1] == '\r')
            buf[--len] = '\0';
        c.line = buf;
        if (memchr(buf, '\0', len)) {
            c.line = "";
            rc = cfail(&c, "text, not a NUL byte");
        } else if (c.lineno == 1) {
            if (strcmp(buf, "memtime-companion: 1") != 0)
                rc = cfail(&c, "'memtime-companion: 1'");
        } else if (buf[strspn(buf, " \t")] != '\0' && buf[strspn(buf, " \t")] != '#') {
            rc = do_line(p, buf, &c);
        }
    }
    /* Cut between two whole lines of the detail, which 'detail:' counts
     * (elsewhere a cut between records cannot be told from fewer). */
    if (rc == 0 && !p->companion_cut_line && p->detail.present &&
        (p->detail.n_frames < c.d_frames_said || c.d_trees_seen < c.d_trees_said)) {
        c.lineno++;
        rc = companion_cut(p, &c, NULL, 0);
    }
    if (rc == 0 && outline_finish(&p->outline, &c) != 0)
        rc = -1;
    if (rc == 0 && detail_finish(p, &c) != 0)
        rc = -1;
    if (rc == 0 && ferror(f)) {
        snprintf(err, errsz, "%s: read error: %s", path, strerror(errno));
        rc = -1;
    } else if (rc == 0 && c.lineno == 0) {
        c.lineno = 1;
        snprintf(err, errsz, "%s:1: expected 'memtime-companion: 1', found end of file", path);
        rc = -1;
    }
    free(buf);
    if (rc == 0 && !(p->companion = strdup(path))) {
        snprintf(err, errsz, "%s: out of memory", path);
        rc = -1;
    }
    /* The counts add sites: name them all together, so that none reads
     * like another (sites.h). */
    if (rc == 0 && p->counts && vis_profile_name_sites(p) != 0) {
        snprintf(err, errsz, "%s: out of memory", path);
        rc = -1;
    }
    return rc;
}

char *vis_companion_path(const char *profile_path)
{
    size_t n = strlen(profile_path) + sizeof ".memtime";
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s.memtime", profile_path);
    return s;
}
