/* growth.c: the growth ranking of a window and its kinds (see growth.h).
 *
 * The kinds follow the proposal in the project's analysis notes, itself
 * drawn from the peers' leak heuristics (bytehound's "grows, or levelled
 * like a cache", Cork's growth over many snapshots): the series is scored
 * by how many of its steps go up or down (exactly: a slow leak may rise
 * by far less than 1% of its size per snapshot in a long run), where
 * it ends against where it started, and whether it is still rising at the
 * end. Each rule is a few integer comparisons, so a series exactly on a
 * boundary has one answer (tests/t611-growth-kinds.sh checks them). */
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "model/growth.h"
#include "model/outline.h"
#include "model/sites.h"
#include "model/when.h"

const char *vis_kind_name(vis_kind k)
{
    static const char *const names[] = { "steady", "plateau", "burst", "shrinking", "flat" };
    return names[k];
}

/* Classification from the summary numbers. */
static vis_kind decide(uint64_t b0, uint64_t bn, uint64_t P, uint64_t m, size_t n, size_t up,
                       size_t down, size_t last_up)
{
    uint64_t R = P - m;
    uint64_t near = P / 100 > 1 ? P / 100 : 1;
    int64_t N = (int64_t)bn - (int64_t)b0;
    size_t tail = (n + 2) / 3;   /* ceil(n / 3) */
    if (R * 20 <= P)
        return VIS_KIND_FLAT;
    if (n > 0 && up * 10 >= 6 * n && down * 10 <= n && 2 * N >= (int64_t)R &&
        last_up > n - tail)
        return VIS_KIND_STEADY;
    if (2 * N <= -(int64_t)R && b0 + near >= P)
        return VIS_KIND_SHRINKING;
    uint64_t ends = b0 > bn ? b0 : bn;
    if (2 * (P - ends) >= R)
        return VIS_KIND_BURST;
    return VIS_KIND_PLATEAU;
}

vis_kind vis_classify(const uint64_t *b, size_t k)
{
    uint64_t P = b[0], m = b[0];
    for (size_t i = 1; i < k; i++) {
        if (b[i] > P)
            P = b[i];
        if (b[i] < m)
            m = b[i];
    }
    size_t up = 0, down = 0, last_up = 0;
    for (size_t i = 1; i < k; i++) {
        if (b[i] > b[i - 1]) {
            up++;
            last_up = i;
        } else if (b[i] < b[i - 1]) {
            down++;
        }
    }
    return decide(b[0], b[k - 1], P, m, k - 1, up, down, last_up);
}

/* ------------------------------------------------------------ the ranking */

/* Pointer -> row, open addressing; labels are interned, so equal labels
 * are equal pointers. Grows to keep its load under one half. */
typedef struct {
    const char **keys;
    size_t *vals;
    size_t n_slots, n_used;   /* n_slots: a power of two */
} ptrmap;

static size_t ptr_hash(const char *k, size_t mask)
{
    uint64_t h = (uint64_t)(uintptr_t)k * 0x9E3779B97F4A7C15ULL;
    return (size_t)(h >> 17) & mask;
}

static size_t map_find(const ptrmap *m, const char *k)
{
    size_t j = ptr_hash(k, m->n_slots - 1);
    while (m->keys[j] && m->keys[j] != k)
        j = (j + 1) & (m->n_slots - 1);
    return j;
}

static int map_grow(ptrmap *m)
{
    ptrmap n = { NULL, NULL, m->n_slots ? m->n_slots * 2 : 256, m->n_used };
    n.keys = calloc(n.n_slots, sizeof *n.keys);
    n.vals = malloc(n.n_slots * sizeof *n.vals);
    if (!n.keys || !n.vals) {
        free(n.keys);
        free(n.vals);
        return -1;
    }
    for (size_t i = 0; i < m->n_slots; i++)
        if (m->keys[i]) {
            size_t j = map_find(&n, m->keys[i]);
            n.keys[j] = m->keys[i];
            n.vals[j] = m->vals[i];
        }
    free(m->keys);
    free(m->vals);
    *m = n;
    return 0;
}

/* The row of k, SIZE_MAX if absent. */
static size_t map_get(const ptrmap *m, const char *k)
{
    size_t j = map_find(m, k);
    return m->keys[j] ? m->vals[j] : SIZE_MAX;
}

static int map_put(ptrmap *m, const char *k, size_t v)
{
    if ((m->n_used + 1) * 2 > m->n_slots && map_grow(m) != 0)
        return -1;
    size_t j = map_find(m, k);
    m->keys[j] = k;
    m->vals[j] = v;
    m->n_used++;
    return 0;
}

typedef struct {
    uint64_t b0, prev, max, min, cur;
    size_t up, down, last_up;
    size_t seen;      /* stamp: the pass's snapshot number + 1 it was in */
    int maybe_below;
} track;

static int cmp_rows(const void *va, const void *vb)
{
    const vis_growth_row *a = va, *b = vb;
    int sa = a->kind == VIS_KIND_STEADY, sb = b->kind == VIS_KIND_STEADY;
    if (sa != sb)
        return sb - sa;
    if (a->growth_bytes != b->growth_bytes)
        return a->growth_bytes > b->growth_bytes ? -1 : 1;
    if (a->max_bytes != b->max_bytes)
        return a->max_bytes > b->max_bytes ? -1 : 1;
    return strcmp(a->label, b->label);
}

/* Puts snapshot s's bytes into the rows' cur (stamped), adding rows when
 * add is set. Returns 1 if the tree merged small sites, 0, or -1 (memory). */
static int load(const vis_snapshot *s, ptrmap *m, track **t, size_t *n_rows,
                size_t stamp, int add)
{
    int merged = 0;
    /* A regrouped snapshot's groups before the view's cut, when it has
     * them: every group's bytes, none merged. */
    size_t n = s->groups_all ? s->n_groups_all : s->n_sites;
    const vis_site *sites = s->groups_all ? s->groups_all : s->sites;
    for (size_t k = 0; k < n; k++) {
        const vis_site *site = &sites[k];
        if (site->is_below_threshold) {
            merged = 1;
            continue;
        }
        size_t r = map_get(m, site->label);
        if (add && r == SIZE_MAX) {
            {
                track *nt = vis_grow(*t, *n_rows, 64, sizeof *nt);
                if (!nt)
                    return -1;
                *t = nt;
                /* Absent so far: 0 from the start, which zeroes say. */
                memset(&(*t)[*n_rows], 0, sizeof **t);
                if (map_put(m, site->label, *n_rows) != 0)
                    return -1;
                r = (*n_rows)++;
            }
        }
        if (r == SIZE_MAX)
            continue;   /* pass 2 knows every site from pass 1 */
        track *tr = &(*t)[r];
        if (tr->seen != stamp) {
            tr->seen = stamp;
            tr->cur = 0;
        }
        tr->cur += site->bytes;
    }
    return merged;
}

static int cmp_interval(const void *va, const void *vb)
{
    const vis_burst *a = va, *b = vb;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* Marks in skip[i - from] the detailed snapshots from..to taken during a
 * burst of p's outline. Returns 0, or -1 when out of memory. */
static int mark_on_bursts(const vis_profile *p, size_t from, size_t to, unsigned char *skip)
{
    vis_burst *b;
    size_t nb;
    if (vis_outline_bursts(p, VIS_BURST_SHARE, p->outline.n, &b, &nb) != 0)
        return -1;
    if (nb > 1)   /* (qsort of NULL, 0 is undefined) */
        qsort(b, nb, sizeof *b, cmp_interval);
    /* Snapshot times and burst starts both ascend: one merge-like pass
     * keeping the furthest end of the bursts begun so far. */
    size_t k = 0;
    uint64_t reach = 0;
    int any = 0;
    for (size_t i = from; i <= to; i++) {
        uint64_t t = p->snaps[i].time;
        for (; k < nb && b[k].start <= t; k++)
            if (!any || b[k].end > reach) {
                reach = b[k].end;
                any = 1;
            }
        skip[i - from] = any && t < reach && p->snaps[i].kind != VIS_TREE_EMPTY;
    }
    free(b);
    return 0;
}

int vis_growth_compute(const vis_profile *p, size_t from, size_t to, vis_growth *g)
{
    memset(g, 0, sizeof *g);
    if (to >= p->n_snaps)
        to = p->n_snaps - 1;
    g->from = from;
    g->to = to;
    g->first_detailed = g->last_detailed = SIZE_MAX;
    unsigned char *skip = NULL;
    if (vis_outline_has(p)) {
        if (!(skip = calloc(to - from + 1, 1)) || mark_on_bursts(p, from, to, skip) != 0) {
            free(skip);
            return -1;
        }
    }
    /* A tree taken during a burst does not start or end the window: where
     * a series starts and ends decides its growth, and a burst caught at
     * either end would read as growth (or shrinking) that is not there.
     * Inside the window such trees stay: they are how a burst is seen. */
    for (size_t i = from; i <= to; i++) {
        if (p->snaps[i].kind == VIS_TREE_EMPTY || (skip && skip[i - from]))
            continue;
        if (g->first_detailed == SIZE_MAX)
            g->first_detailed = i;
        g->last_detailed = i;
    }
    for (size_t i = from; i <= to; i++) {
        int inside = g->first_detailed != SIZE_MAX && i >= g->first_detailed && i <= g->last_detailed;
        if (skip && skip[i - from] && !inside)
            g->n_on_bursts++;
        if (inside && p->snaps[i].kind != VIS_TREE_EMPTY)
            g->n_detailed++;
    }
#define LEFT_OUT(i) (p->snaps[i].kind == VIS_TREE_EMPTY)
    if (g->n_detailed == 0) {
        free(skip);
        return 0;
    }

    ptrmap m = { NULL, NULL, 0, 0 };
    track *t = NULL;
    size_t n_rows = 0;
    int rc = -1;
    if (map_grow(&m) != 0)
        goto out;

    /* Pass 1: the rows, their start, extremes (absent counts 0). */
    size_t j = 0;
    for (size_t i = g->first_detailed; i <= g->last_detailed; i++) {
        const vis_snapshot *s = &p->snaps[i];
        if (LEFT_OUT(i))
            continue;
        j++;
        int merged = load(s, &m, &t, &n_rows, j, 1);
        if (merged < 0)
            goto out;
        for (size_t r = 0; r < n_rows; r++) {
            track *tr = &t[r];
            uint64_t b = tr->seen == j ? tr->cur : 0;
            if (tr->seen != j && merged)
                tr->maybe_below = 1;
            if (j == 1)
                tr->b0 = tr->max = tr->min = b;
            if (b > tr->max)
                tr->max = b;
            if (b < tr->min)
                tr->min = b;
            tr->prev = b;   /* after the last snapshot: the end value */
        }
    }
    /* Pass 2: rises and falls. */
    uint64_t *end = malloc((n_rows ? n_rows : 1) * sizeof *end);
    if (!end)
        goto out;
    for (size_t r = 0; r < n_rows; r++) {
        end[r] = t[r].prev;
        t[r].prev = t[r].b0;
        t[r].seen = 0;
    }
    size_t pass2 = (size_t)1 << (sizeof(size_t) * 8 - 2);   /* stamps apart from pass 1's */
    j = 0;
    for (size_t i = g->first_detailed; i <= g->last_detailed; i++) {
        const vis_snapshot *s = &p->snaps[i];
        if (LEFT_OUT(i))
            continue;
        j++;
        load(s, &m, &t, &n_rows, pass2 + j, 0);
        if (j == 1)
            continue;
        for (size_t r = 0; r < n_rows; r++) {
            track *tr = &t[r];
            uint64_t b = tr->seen == pass2 + j ? tr->cur : 0;
            if (b > tr->prev) {
                tr->up++;
                tr->last_up = j - 1;
            } else if (b < tr->prev) {
                tr->down++;
            }
            tr->prev = b;
        }
    }

    g->rows = malloc((n_rows ? n_rows : 1) * sizeof *g->rows);
    if (!g->rows) {
        free(end);
        goto out;
    }
    g->n_rows = n_rows;
    uint64_t t0 = p->snaps[g->first_detailed].time, t1 = p->snaps[g->last_detailed].time;
    for (size_t q = 0; q < m.n_slots; q++) {
        if (!m.keys[q])
            continue;
        size_t r = m.vals[q];
        const track *tr = &t[r];
        vis_growth_row *row = &g->rows[r];
        row->label = m.keys[q];
        row->start_bytes = tr->b0;
        row->end_bytes = end[r];
        row->max_bytes = tr->max;
        row->growth_bytes = (int64_t)end[r] - (int64_t)tr->b0;
        row->rate = t1 > t0 ? (double)row->growth_bytes / (double)(t1 - t0) : 0;
        row->kind = decide(tr->b0, end[r], tr->max, tr->min, g->n_detailed - 1, tr->up, tr->down,
                           tr->last_up);
        row->maybe_below_threshold = tr->maybe_below;
    }
    free(end);
    qsort(g->rows, g->n_rows, sizeof *g->rows, cmp_rows);
    rc = 0;
out:
#undef LEFT_OUT
    free(skip);
    free(m.keys);
    free(m.vals);
    free(t);
    if (rc != 0)
        vis_growth_free(g);
    return rc;
}

void vis_growth_free(vis_growth *g)
{
    free(g->rows);
    g->rows = NULL;
    g->n_rows = 0;
}

double vis_rate_per_s(const vis_profile *p, double rate)
{
    return p->unit == VIS_UNIT_MS ? rate * 1000.0 : -1;
}
