/* outline.c: the queries on memtime's exact outline (outline.h): its true
 * maximum, the range over a window through a segment tree, and the bursts.
 *
 * The reader bounds an outline to 2^20 spans, so the index (2n nodes) and
 * the burst search (O(n log n)) stay bounded on a hostile file; memtime
 * itself writes at most 4096 buckets. */
#include <stdlib.h>
#include <string.h>
#include "model/outline.h"

/* One node of the segment tree: the extremes of the spans under it. */
typedef struct {
    uint64_t min_B, max_B, heap_min_B, heap_max_B, min_of_max_B;
} node;

struct vis_outline_index {
    const vis_outline *o;
    size_t n;        /* spans; leaves are t[n .. 2n) */
    node *t;
};

static node leaf(const vis_outline_span *s)
{
    return (node){ s->min_B, s->max_B, s->heap_min_B, s->heap_max_B, s->max_B };
}

static void merge(node *a, const node *b)
{
    if (b->min_B < a->min_B)
        a->min_B = b->min_B;
    if (b->max_B > a->max_B)
        a->max_B = b->max_B;
    if (b->heap_min_B < a->heap_min_B)
        a->heap_min_B = b->heap_min_B;
    if (b->heap_max_B > a->heap_max_B)
        a->heap_max_B = b->heap_max_B;
    if (b->min_of_max_B < a->min_of_max_B)
        a->min_of_max_B = b->min_of_max_B;
}

vis_outline_top vis_outline_max(const vis_outline *o)
{
    vis_outline_top top = { 0, SIZE_MAX, 0, 0 };
    for (size_t i = 0; i < o->n; i++)
        if (top.span == SIZE_MAX || o->spans[i].max_B > top.bytes) {
            top.bytes = o->spans[i].max_B;
            top.span = i;
        }
    if (top.span != SIZE_MAX) {
        top.start = o->spans[top.span].start;
        top.end = o->spans[top.span].end;
    }
    return top;
}

/* The first span whose end is after t (n when none). */
static size_t first_ending_after(const vis_outline *o, uint64_t t)
{
    size_t lo = 0, hi = o->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (o->spans[mid].end > t)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The number of spans that start before t. */
static size_t count_starting_before(const vis_outline *o, uint64_t t)
{
    size_t lo = 0, hi = o->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (o->spans[mid].start < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

size_t vis_outline_find(const vis_outline *o, uint64_t t)
{
    size_t i = first_ending_after(o, t);
    return i < o->n && o->spans[i].start <= t ? i : SIZE_MAX;
}

vis_outline_index *vis_outline_index_new(const vis_outline *o)
{
    vis_outline_index *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->o = o;
    x->n = o->n;
    if (x->n == 0)
        return x;
    if (!(x->t = malloc(2 * x->n * sizeof *x->t))) {
        free(x);
        return NULL;
    }
    for (size_t i = 0; i < x->n; i++)
        x->t[x->n + i] = leaf(&o->spans[i]);
    for (size_t i = x->n - 1; i > 0; i--) {
        x->t[i] = x->t[2 * i];
        merge(&x->t[i], &x->t[2 * i + 1]);
    }
    return x;
}

void vis_outline_index_free(vis_outline_index *x)
{
    if (!x)
        return;
    free(x->t);
    free(x);
}

void vis_outline_range_spans(const vis_outline_index *x, size_t first, size_t last,
                             vis_outline_range *r)
{
    /* Bottom-up over the leaves first..last: every node taken whole. */
    node acc = x->t[x->n + first];
    for (size_t l = x->n + first, h = x->n + last + 1; l < h; l /= 2, h /= 2) {
        if (l & 1)
            merge(&acc, &x->t[l++]);
        if (h & 1)
            merge(&acc, &x->t[--h]);
    }
    r->min_B = acc.min_B;
    r->max_B = acc.max_B;
    r->heap_min_B = acc.heap_min_B;
    r->heap_max_B = acc.heap_max_B;
    r->min_of_max_B = acc.min_of_max_B;
    r->first = first;
    r->last = last;
}

int vis_outline_range_time(const vis_outline_index *x, uint64_t t0, uint64_t t1,
                           vis_outline_range *r)
{
    const vis_outline *o = x->o;
    if (x->n == 0 || t0 >= t1)
        return 1;
    size_t first = first_ending_after(o, t0);
    const vis_outline_span *end = &o->spans[x->n - 1];
    if (first == x->n && end->start == end->end && end->start >= t0)
        first = x->n - 1;   /* the zero-length last span, if before t1 */
    size_t count = count_starting_before(o, t1);
    if (first >= count)
        return 1;
    vis_outline_range_spans(x, first, count - 1, r);
    return 0;
}

/* ------------------------------------------------------------- bursts */

/* The level the spans lo..hi held at their lowest (their minima). */
static uint64_t low(const vis_outline_index *x, size_t lo, size_t hi)
{
    vis_outline_range r;
    vis_outline_range_spans(x, lo, hi, &r);
    return r.min_B;
}

/* The span holding the top of a burst, and its height, before its
 * duration is known. */
typedef struct {
    size_t span;
    uint64_t level_B, height_B;
} candidate;

static int by_height(const void *a, const void *b)
{
    const candidate *x = a, *y = b;
    if (x->height_B != y->height_B)
        return x->height_B > y->height_B ? -1 : 1;
    return x->span < y->span ? -1 : x->span > y->span;
}

/* Around span i, the widest run of spans whose maxima are all above half:
 * binary searches on the index (a window is all above iff its lowest
 * maximum is). */
static void above_half(const vis_outline_index *x, size_t i, uint64_t half, size_t *a, size_t *b)
{
    vis_outline_range r;
    size_t lo = 0, hi = i;   /* the smallest a with a..i all above */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        vis_outline_range_spans(x, mid, i, &r);
        if (r.min_of_max_B > half)
            hi = mid;
        else
            lo = mid + 1;
    }
    *a = lo;
    lo = i, hi = x->n - 1;   /* the largest b with i..b all above */
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        vis_outline_range_spans(x, i, mid, &r);
        if (r.min_of_max_B > half)
            lo = mid;
        else
            hi = mid - 1;
    }
    *b = lo;
}

/* The detailed snapshot in [start, end) nearest the top span [ts, te)
 * (ties: the larger total), or SIZE_MAX. */
static size_t nearest_tree(const vis_profile *p, uint64_t start, uint64_t end, uint64_t ts,
                           uint64_t te)
{
    size_t lo = 0, hi = p->n_snaps, best = SIZE_MAX;
    uint64_t best_d = 0;
    while (lo < hi) {   /* the first snapshot at or after start */
        size_t mid = lo + (hi - lo) / 2;
        if (p->snaps[mid].time < start)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k < p->n_snaps && p->snaps[k].time < end; k++) {
        const vis_snapshot *s = &p->snaps[k];
        if (s->kind == VIS_TREE_EMPTY)
            continue;
        uint64_t d = s->time < ts ? ts - s->time : s->time >= te ? s->time - te + 1 : 0;
        if (best == SIZE_MAX || d < best_d ||
            (d == best_d && vis_snap_total(s) > vis_snap_total(&p->snaps[best]))) {
            best = k;
            best_d = d;
        }
    }
    return best;
}

/* The burst's tree and that tree's largest ranked site. */
static void attribute(const vis_profile *p, vis_burst *b)
{
    const vis_outline_span *top = &p->outline.spans[b->top_span];
    b->snap = nearest_tree(p, b->start, b->end, top->start, top->end);
    b->site = SIZE_MAX;
    b->site_B = 0;
    if (b->snap == SIZE_MAX)
        return;
    const vis_snapshot *s = &p->snaps[b->snap];
    for (size_t k = 0; k < s->n_sites; k++)
        if (s->sites[k].id != SIZE_MAX && s->sites[k].bytes > 0 &&
            (b->site == SIZE_MAX || s->sites[k].bytes > b->site_B)) {
            b->site = s->sites[k].id;
            b->site_B = s->sites[k].bytes;
        }
}

int vis_outline_bursts(const vis_profile *p, double share, size_t max, vis_burst **out,
                       size_t *n_out)
{
    const vis_outline *o = &p->outline;
    *out = NULL;
    *n_out = 0;
    if (!vis_outline_has(p) || max == 0)
        return 0;
    size_t n = o->n;
    const vis_outline_span *s = o->spans;
    uint64_t peak = vis_outline_max(o).bytes;
    uint64_t need = (uint64_t)((double)peak * share);
    if (need == 0)
        need = 1;
    uint64_t length = s[n - 1].end - s[0].start;
    vis_outline_index *x = vis_outline_index_new(o);
    size_t *prev = malloc(n * sizeof *prev), *next = malloc(n * sizeof *next);
    size_t *stack = malloc(n * sizeof *stack);
    candidate *cand = malloc(n * sizeof *cand);
    vis_burst *res = malloc((max < n ? max : n) * sizeof *res);
    int rc = -1;
    if (!x || !prev || !next || !stack || !cand || !res)
        goto done;
    /* prev[i]: the last earlier span at least as high; next[i]: the first
     * later one higher (SIZE_MAX: none). Monotonic stacks, O(n). */
    size_t top = 0;
    for (size_t i = 0; i < n; i++) {
        while (top > 0 && s[stack[top - 1]].max_B < s[i].max_B)
            top--;
        prev[i] = top > 0 ? stack[top - 1] : SIZE_MAX;
        stack[top++] = i;
    }
    top = 0;
    for (size_t i = n; i-- > 0;) {
        while (top > 0 && s[stack[top - 1]].max_B <= s[i].max_B)
            top--;
        next[i] = top > 0 ? stack[top - 1] : SIZE_MAX;
        stack[top++] = i;
    }
    size_t nc = 0;
    for (size_t i = 0; i < n; i++) {
        /* Before: down to the last moment as high, or to 0 before the
         * outline; after: down to the next higher moment or the end. Span
         * i itself counts by the value it entered with (before) and left
         * with (after): its minimum may lie on either side of its top, so
         * a top that falls back inside its span is the next span's entry,
         * not a burst of its own. */
        uint64_t before = 0, after = s[i].last_B;
        if (prev[i] != SIZE_MAX) {
            before = s[i - 1].last_B;   /* what span i entered with */
            if (prev[i] + 1 < i) {
                uint64_t m = low(x, prev[i] + 1, i - 1);
                before = m < before ? m : before;
            }
        }
        size_t stop = next[i] == SIZE_MAX ? n : next[i];
        if (i + 1 < stop) {
            uint64_t m = low(x, i + 1, stop - 1);
            after = m < after ? m : after;
        }
        uint64_t level = before > after ? before : after;
        if (s[i].max_B - level >= need)
            cand[nc++] = (candidate){ i, level, s[i].max_B - level };
    }
    qsort(cand, nc, sizeof *cand, by_height);
    size_t nr = 0;
    for (size_t k = 0; k < nc && nr < max; k++) {
        size_t a, b;
        above_half(x, cand[k].span, cand[k].level_B + cand[k].height_B / 2, &a, &b);
        if (s[b].end - s[a].start > length / 2)
            continue;   /* the run's shape, not a burst */
        vis_burst *r = &res[nr++];
        r->top_span = cand[k].span;
        r->top_time = s[cand[k].span].start;
        r->top_B = s[cand[k].span].max_B;
        r->level_B = cand[k].level_B;
        r->height_B = cand[k].height_B;
        r->start = s[a].start;
        r->end = s[b].end;
        attribute(p, r);
    }
    rc = 0;
    if (nr > 0) {
        *out = res;
        *n_out = nr;
        res = NULL;
    }
done:
    free(res);
    free(cand);
    free(stack);
    free(next);
    free(prev);
    vis_outline_index_free(x);
    return rc;
}
