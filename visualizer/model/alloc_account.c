/* alloc_account.c: the RSS split by the program's allocator's own account
 * (alloc_account.h). */
#include "model/alloc_account.h"

#include <string.h>

uint64_t vis_alloc_stat_or0(const vis_alloc_stats *r, vis_alloc_stat k)
{
    return (r->have & (1u << k)) ? r->v[k] : 0;
}

vis_alloc_kind vis_alloc_kind_of(const vis_alloc_stats *r)
{
    if (r->have & (1u << VIS_AS_RESIDENT))
        return VIS_AK_JEMALLOC;
    if (r->have & (1u << VIS_AS_HEAP_SIZE))
        return VIS_AK_TCMALLOC;
    if (r->have & (1u << VIS_AS_COMMITTED))
        return VIS_AK_MIMALLOC;
    return VIS_AK_GLIBC;
}

uint64_t vis_alloc_tc_caches(const vis_alloc_stats *r)
{
    return vis_alloc_stat_or0(r, VIS_AS_CENTRAL_FREE) + vis_alloc_stat_or0(r, VIS_AS_TRANSFER_FREE) +
           vis_alloc_stat_or0(r, VIS_AS_THREAD_FREE);
}

const char *vis_alloc_held_noun(const vis_alloc_stats *r)
{
    switch (vis_alloc_kind_of(r)) {
    case VIS_AK_JEMALLOC: return "dirty, muzzy, partly used pages";
    case VIS_AK_TCMALLOC: return "free pages and cached blocks";
    case VIS_AK_MIMALLOC: return "committed, not in use";
    default:              return "free chunks";
    }
}

/* What the allocator has resident by its own account: jemalloc says it
 * (resident, "a maximum"); tcmalloc's are what the program holds, the
 * page heap's free pages still mapped, its caches' free bytes and its
 * metadata (its unmapped pages were given back: not resident); mimalloc's
 * is its commit (committed pages it never touched are not resident:
 * at most); glibc's are its arenas and mmapped blocks. */
static uint64_t allocator_resident(const vis_alloc_stats *r)
{
    switch (vis_alloc_kind_of(r)) {
    case VIS_AK_JEMALLOC:
        return vis_alloc_stat_or0(r, VIS_AS_RESIDENT);
    case VIS_AK_TCMALLOC:
        return vis_alloc_stat_or0(r, VIS_AS_ALLOCATED) + vis_alloc_stat_or0(r, VIS_AS_PAGEHEAP_FREE) +
               vis_alloc_tc_caches(r) + vis_alloc_stat_or0(r, VIS_AS_METADATA);
    case VIS_AK_MIMALLOC:
        return vis_alloc_stat_or0(r, VIS_AS_COMMITTED);
    default:
        return vis_alloc_stat_or0(r, VIS_AS_ARENA) + vis_alloc_stat_or0(r, VIS_AS_MMAPPED);
    }
}

const vis_alloc_stats *vis_alloc_stats_at(const vis_profile *p, uint64_t t, uint64_t next_t)
{
    const vis_allocator *a = &p->allocator;
    size_t lo = 0, hi = a->n;
    while (lo < hi) {                   /* the first reading at or after t */
        size_t mid = lo + (hi - lo) / 2;
        if (a->stats[mid].time < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == a->n)
        return NULL;
    /* A reading at the same time as the next RSS reading is taken after
     * both (it cannot tell them apart): it goes with the later one, unless
     * the two RSS readings are at one time. */
    if (a->stats[lo].time < next_t || next_t == t)
        return &a->stats[lo];
    return NULL;
}

/* The snapshot with an RSS reading at time t, or SIZE_MAX (culled since). */
static size_t snapshot_read_at(const vis_profile *p, uint64_t t)
{
    for (size_t i = 0; p->rss && i < p->n_snaps && p->snaps[i].time <= t; i++)
        if (p->snaps[i].time == t && p->rss[i].valid)
            return i;
    return SIZE_MAX;
}

/* Keeps m's candidate (r splitting rss read at rss_time, at snapshot snap)
 * when it holds more freed than the best so far, or as much later on. */
static void consider(vis_alloc_moment *m, const vis_alloc_stats *r, uint64_t rss_time,
                     uint64_t rss_B, size_t snap)
{
    vis_alloc_split sp;
    if (vis_alloc_split_of(r, rss_B, &sp) != 0 || (m->stats && sp.held_B < m->split.held_B))
        return;
    m->stats = r;
    m->split = sp;
    m->rss_time = rss_time;
    m->snap = snap;
}

int vis_alloc_most_held(const vis_profile *p, vis_alloc_moment *m)
{
    const vis_allocator *a = &p->allocator;
    int own = 0;
    memset(m, 0, sizeof *m);
    /* Readings that carry the RSS they follow (memtime writes it): the
     * split never depends on that RSS's snapshot surviving culling. */
    for (size_t k = 0; k < a->n; k++)
        if (a->stats[k].has_rss) {
            own = 1;
            consider(m, &a->stats[k], a->stats[k].rss_time, a->stats[k].rss_B,
                     snapshot_read_at(p, a->stats[k].rss_time));
        }
    /* Older files: each RSS reading with the reading of statistics after
     * it, before the next RSS reading. */
    size_t prev = SIZE_MAX;
    for (size_t i = 0; !own && p->rss && i <= p->n_snaps; i++) {
        if (i < p->n_snaps && !p->rss[i].valid)
            continue;
        if (prev != SIZE_MAX) {
            uint64_t t = p->snaps[prev].time;
            const vis_alloc_stats *r =
                vis_alloc_stats_at(p, t, i < p->n_snaps ? p->snaps[i].time : UINT64_MAX);
            if (r)
                consider(m, r, t, vis_rss_total(&p->rss[prev]), prev);
        }
        prev = i;
    }
    return m->stats ? 0 : -1;
}

int vis_alloc_split_of(const vis_alloc_stats *r, uint64_t rss, vis_alloc_split *out)
{
    memset(out, 0, sizeof *out);
    out->rss_B = rss;
    out->outside_B = rss;
    if (!(r->have & (1u << VIS_AS_ALLOCATED)))
        return -1;
    /* What the allocator has resident, at most the RSS. */
    uint64_t mine = allocator_resident(r);
    if (mine > rss)
        mine = rss;
    uint64_t alloc = vis_alloc_stat_or0(r, VIS_AS_ALLOCATED);
    if (alloc > mine)
        alloc = mine;
    out->heap_B = alloc;
    out->held_B = mine - alloc;
    out->outside_B = rss - mine;
    return 0;
}
