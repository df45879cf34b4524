/* rss_series.c: the resident-memory points and pieces the charts draw
 * (rss_series.h). */
#include "model/rss_series.h"

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
