/* rss_series.c: the resident-memory points and pieces the charts draw
 * (rss_series.h). */
#include "model/rss_series.h"

#include "model/alloc_account.h"
#include "base/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The heap total held at time t: the last snapshot at or before it. */
static uint64_t heap_at(const vis_profile *p, uint64_t t)
{
    size_t lo = 0, hi = p->n_snaps;
    while (lo < hi) {                   /* first snapshot with time > t */
        size_t mid = lo + (hi - lo) / 2;
        if (p->snaps[mid].time <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? vis_snap_total(&p->snaps[lo - 1]) : 0;
}

static const vis_alloc_stats *last_stats_before(const vis_profile *p, uint64_t t)
{
    const vis_alloc_stats *r = NULL;
    for (size_t k = 0; k < p->allocator.n && p->allocator.stats[k].time <= t; k++)
        r = &p->allocator.stats[k];
    return r;
}

/* Each reading's share the allocator holds freed, by its own account
 * (alloc_account.h), when the profile has it. */
static void held_build(const vis_profile *p, vis_rss_series *s)
{
    for (size_t i = 0; i < s->n; i++) {
        s->pts[i].has_held = 0;
        s->pts[i].held_B = 0;
    }
    if (!p->allocator.name[0])
        return;
    for (size_t i = 0; i < s->n; i++) {
        vis_rss_point *q = &s->pts[i];
        uint64_t next = i + 1 < s->n ? s->pts[i + 1].time : UINT64_MAX;
        const vis_alloc_stats *r = vis_alloc_stats_at(p, q->time, next);
        if (!r)             /* else the account in effect: the last before */
            r = last_stats_before(p, q->time);
        vis_alloc_split sp;
        if (!r || vis_alloc_split_of(r, q->total_B, &sp) != 0)
            continue;
        q->has_held = 1;
        q->held_B = sp.held_B;
    }
    /* Every reading of the allocator's, each within the RSS last read. */
    size_t j = 0;
    for (size_t k = 0; k < p->allocator.n; k++) {
        const vis_alloc_stats *r = &p->allocator.stats[k];
        while (j < s->n && s->pts[j].time <= r->time)
            j++;
        vis_alloc_split sp;
        if (vis_alloc_split_of(r, j ? s->pts[j - 1].total_B : UINT64_MAX, &sp) != 0)
            continue;
        if (!s->show_held)
            s->held_noun = vis_alloc_held_noun(r);
        s->show_held = 1;
        if (sp.held_B > s->max_held_B)
            s->max_held_B = sp.held_B;
    }
    s->held_name = p->allocator.name;
}

int vis_rss_series_build(const vis_profile *p, vis_rss_series *s)
{
    memset(s, 0, sizeof *s);
    size_t cap = p->n_rss + 1;
    const vis_rss_peak *k = &p->rss_peak;
    if (p->n_rss == 0 && !k->present)
        return 0;
    if (!(s->pts = malloc(cap * sizeof *s->pts)))
        return -1;
    int peak_done = !k->present;
    for (size_t i = 0; i <= p->n_snaps; i++) {
        /* The peak goes before the first reading later than it; a reading
         * at its very time with its very value is the same point. */
        if (!peak_done && (i == p->n_snaps || (p->rss && p->rss[i].valid && p->snaps[i].time > k->time))) {
            vis_rss_point *q = &s->pts[s->n++];
            q->time = k->time;
            q->anon_B = k->anon_B;
            q->file_B = k->file_B;
            q->shmem_B = k->shmem_B;
            q->total_B = k->anon_B + k->file_B + k->shmem_B;
            q->heap_B = heap_at(p, k->time);
            peak_done = 1;
        }
        if (i == p->n_snaps || !p->rss || !p->rss[i].valid)
            continue;
        const vis_rss *r = &p->rss[i];
        if (k->present && p->snaps[i].time == k->time && r->anon_B == k->anon_B &&
            r->file_B == k->file_B && r->shmem_B == k->shmem_B) {
            if (peak_done)
                continue;
            peak_done = 1;   /* this reading is the peak itself */
        }
        vis_rss_point *q = &s->pts[s->n++];
        q->time = p->snaps[i].time;
        q->anon_B = r->anon_B;
        q->file_B = r->file_B;
        q->shmem_B = r->shmem_B;
        q->total_B = vis_rss_total(r);
        q->heap_B = vis_snap_total(&p->snaps[i]);
    }
    for (size_t i = 0; i < s->n; i++) {
        if (s->pts[i].total_B > s->max_total_B) {
            s->max_total_B = s->pts[i].total_B;
            s->peak = i;
        }
        if (s->pts[i].file_B > s->max_file_B)
            s->max_file_B = s->pts[i].file_B;
    }
    s->show_file = s->max_file_B > 0 && s->max_file_B * 20 >= s->max_total_B;
    held_build(p, s);
    return 0;
}

void vis_rss_series_free(vis_rss_series *s)
{
    free(s->pts);
    memset(s, 0, sizeof *s);
}

vis_piece *vis_rss_pieces(const vis_profile *p, const vis_rss_series *s, int file_only, size_t *n)
{
    const vis_outline *o = &p->outline;
    int buckets = !file_only && o->present && o->n_rss > 0;
    size_t m = buckets ? o->n_rss : s->n;
    *n = 0;
    if (!m)
        return NULL;
    vis_piece *pc = malloc(m * sizeof *pc);
    if (!pc) {
        *n = SIZE_MAX;
        return NULL;
    }
    for (size_t i = 0; i < m; i++) {
        if (buckets) {
            const vis_outline_rss *r = &o->rss[i];
            pc[i] = (vis_piece){ r->start, r->end, r->min_B, r->max_B, r->last_B };
        } else {
            uint64_t v = file_only ? s->pts[i].file_B : s->pts[i].total_B;
            pc[i] = (vis_piece){ s->pts[i].time, s->pts[i].time, v, v, v };
        }
    }
    *n = m;
    return pc;
}

uint64_t vis_rss_top(const vis_profile *p, const vis_rss_series *s)
{
    if (!s->n)
        return 0;
    uint64_t top = s->max_total_B;
    if (p->outline.present)
        for (size_t i = 0; i < p->outline.n_rss; i++)
            if (p->outline.rss[i].max_B > top)
                top = p->outline.rss[i].max_B;
    return top;
}

int vis_held_cols(const vis_profile *p, const vis_rss_series *s, const vis_chart_cols *cols,
                  double t0, double t1, const vis_col *rss_cols, vis_col *out)
{
    size_t n = 0, ncol = cols->ncol;
    memset(out, 0, ncol * sizeof *out);
    if (!s->show_held || !p->allocator.n)
        return 0;
    vis_piece *pc = malloc(p->allocator.n * sizeof *pc);
    if (!pc)
        return -1;
    /* Its own account at each reading, unclipped: the columns clip it to
     * the RSS they show. Two readings at one time: the later counts. */
    for (size_t k = 0; k < p->allocator.n; k++) {
        const vis_alloc_stats *r = &p->allocator.stats[k];
        vis_alloc_split sp;
        if (vis_alloc_split_of(r, UINT64_MAX, &sp) != 0)
            continue;
        if (n && pc[n - 1].start == r->time)
            n--;
        pc[n++] = (vis_piece){ r->time, r->time, sp.held_B, sp.held_B, sp.held_B };
    }
    vis_columns(pc, n, t0, t1, ncol, 0.5, 1, (long)ncol - 1, out);
    free(pc);
    for (size_t k = 0; k < ncol; k++) {
        if (!out[k].has || out[k].max_B == 0 || !rss_cols[k].has) {
            out[k].has = 0;
            continue;
        }
        uint64_t base = cols->drawn[k] ? cols->hi_B[k] : 0, top = base + out[k].max_B;
        if (top > rss_cols[k].max_B)
            top = rss_cols[k].max_B;
        out[k].has = top > base;
        out[k].min_B = base;
        out[k].max_B = top;
    }
    return 0;
}

void vis_chart_rss_peak_caption(const vis_profile *p, const vis_rss_point *q, int panel, char *buf,
                                size_t n)
{
    char rb[32], rw[48];
    snprintf(buf, n, "%sRSS peak %s at %s, heap %.0f%% of it",
             panel ? "Resident memory (RSS) and heap on one scale: " : "",
             vis_fmt_bytes(rb, sizeof rb, q->total_B), vis_fmt_time(rw, sizeof rw, p->unit, q->time),
             q->total_B ? 100.0 * (double)q->heap_B / (double)q->total_B : 0.0);
}
