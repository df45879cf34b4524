/* analysis.c: the analyses every report reads (see analysis.h). */
#include <stdlib.h>
#include <string.h>
#include "model/analysis.h"
#include "model/when.h"

int vis_ended_by_exit(const vis_profile *p)
{
    return p->end_record != VIS_END_RECORD_RUNNING;
}

size_t vis_final_window(const vis_profile *p)
{
    size_t last = p->n_snaps - 1;
    uint64_t t0 = p->snaps[0].time, t1 = p->snaps[last].time;
    uint64_t cut = t1 - (t1 - t0) / 10;
    size_t i = vis_when_snap_at(p, cut);
    if (i == SIZE_MAX)
        i = 0;
    else if (p->snaps[i].time < cut && i < last)
        i++;   /* the first snapshot inside the last 10% */
    size_t five = last >= 4 ? last - 4 : 0;
    return i < five ? i : five;
}

/* ---------------------------------------------------------------- counts */

static int cmp_label_ptr(const void *va, const void *vb)
{
    const vis_site_counts *a = va, *b = vb;
    return a->label < b->label ? -1 : a->label > b->label;
}

static int counts_merge(const vis_profile *p, vis_site_counts **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (!p->counts)
        return 0;
    vis_site_counts *c = malloc(p->n_counts * sizeof *c);
    if (!c)
        return -1;
    memcpy(c, p->counts, p->n_counts * sizeof *c);
    qsort(c, p->n_counts, sizeof *c, cmp_label_ptr);
    size_t k = 0;
    for (size_t i = 0; i < p->n_counts; i++) {
        if (k > 0 && c[k - 1].label == c[i].label) {
            c[k - 1].allocs += c[i].allocs;
            c[k - 1].temporary += c[i].temporary;
            c[k - 1].alloc_bytes += c[i].alloc_bytes;
            c[k - 1].live_blocks += c[i].live_blocks;
            c[k - 1].live_bytes += c[i].live_bytes;
        } else {
            c[k++] = c[i];
        }
    }
    *out = c;
    *n = k;
    return 0;
}

/* The three orders, each a comparator of its own: qsort takes no context. */
static int cmp_label(const vis_site_counts *a, const vis_site_counts *b)
{
    return strcmp(a->label, b->label);
}

static int cmp_desc(uint64_t x, uint64_t y, uint64_t x2, uint64_t y2)
{
    if (x != y)
        return x > y ? -1 : 1;
    if (x2 != y2)
        return x2 > y2 ? -1 : 1;
    return 0;
}

static int by_live(const void *va, const void *vb)
{
    const vis_site_counts *a = va, *b = vb;
    int c = cmp_desc(a->live_bytes, b->live_bytes, a->live_blocks, b->live_blocks);
    return c ? c : cmp_label(a, b);
}

static int by_allocs(const void *va, const void *vb)
{
    const vis_site_counts *a = va, *b = vb;
    int c = cmp_desc(a->allocs, b->allocs, a->alloc_bytes, b->alloc_bytes);
    return c ? c : cmp_label(a, b);
}

static int by_temporary(const void *va, const void *vb)
{
    const vis_site_counts *a = va, *b = vb;
    int c = cmp_desc(a->temporary, b->temporary, a->allocs, b->allocs);
    return c ? c : cmp_label(a, b);
}

int vis_analysis_compute(const vis_profile *p, size_t from, size_t to, vis_analysis *a)
{
    memset(a, 0, sizeof *a);
    if (vis_growth_compute(p, from, to, &a->growth) != 0)
        return -1;
    a->ended = vis_ended_by_exit(p);
    a->outline_top = vis_outline_max(&p->outline);
    if (vis_outline_bursts(p, VIS_BURST_SHARE, VIS_BURSTS_MAX, &a->bursts, &a->n_bursts) != 0)
        goto nomem;
    if (!a->ended) {
        a->final_from = vis_final_window(p);
        if (vis_growth_compute(p, a->final_from, p->n_snaps - 1, &a->final) != 0)
            goto nomem;
    }
    vis_site_counts *c;
    size_t n;
    if (counts_merge(p, &c, &n) != 0)
        goto nomem;
    if (!c)
        return 0;
    a->n_counts = n;
    a->by_live = c;
    a->by_allocs = malloc((n ? n : 1) * sizeof *c);
    a->by_temporary = malloc((n ? n : 1) * sizeof *c);
    if (!a->by_allocs || !a->by_temporary)
        goto nomem;
    for (size_t i = 0; i < n; i++) {
        a->live_blocks += c[i].live_blocks;
        a->live_bytes += c[i].live_bytes;
        a->allocs += c[i].allocs;
        a->temporary += c[i].temporary;
    }
    memcpy(a->by_allocs, c, n * sizeof *c);
    memcpy(a->by_temporary, c, n * sizeof *c);
    qsort(a->by_live, n, sizeof *c, by_live);
    qsort(a->by_allocs, n, sizeof *c, by_allocs);
    qsort(a->by_temporary, n, sizeof *c, by_temporary);
    return 0;
nomem:
    vis_analysis_free(a);
    return -1;
}

void vis_analysis_free(vis_analysis *a)
{
    vis_growth_free(&a->growth);
    vis_growth_free(&a->final);
    free(a->by_live);
    free(a->by_allocs);
    free(a->by_temporary);
    free(a->bursts);
    memset(a, 0, sizeof *a);
}
