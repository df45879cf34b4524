/* alloc_account.h: the RSS by the program's own allocator's account
 * (memtime --allocator=program): which reading of its statistics goes with
 * a resident-memory reading, and how the RSS then splits into the heap the
 * allocator hands out, what it holds freed (jemalloc's dirty, muzzy and
 * partly used pages and metadata; tcmalloc's free pages in its page heap,
 * its caches' free bytes and metadata; mimalloc's committed memory beyond
 * the heap; glibc's free chunks) and what lies outside it. The summary, the charts and the HTML report share this one rule. */
#ifndef VIS_ALLOC_ACCOUNT_H
#define VIS_ALLOC_ACCOUNT_H

#include <stddef.h>
#include <stdint.h>
#include "model/profile.h"

typedef struct {
    uint64_t rss_B;          /* the reading's RSS */
    uint64_t heap_B;         /* what the allocator says the program holds */
    uint64_t held_B;         /* what it holds freed, resident */
    uint64_t outside_B;      /* the rest of the RSS: stacks, code, mappings */
} vis_alloc_split;

/* The reading of the allocator's statistics that goes with a resident-memory
 * reading at time t when the next one is at next_t (UINT64_MAX: none): the
 * first taken at or after t (the wrapper reads them at the program's next
 * allocator call) and before next_t. NULL when there is none. */
const vis_alloc_stats *vis_alloc_stats_at(const vis_profile *p, uint64_t t, uint64_t next_t);

/* The moment the split answers for: the RSS reading, with a reading of the
 * allocator's statistics, at which the allocator holds the most freed (the
 * latest of equals), where the gap between RSS and heap is most the
 * allocator's. */
typedef struct {
    const vis_alloc_stats *stats;  /* the reading of the statistics */
    vis_alloc_split split;         /* the RSS split by it */
    uint64_t rss_time;             /* when that RSS was read */
    size_t snap;                   /* its snapshot, SIZE_MAX if culled since */
} vis_alloc_moment;

/* Fills *m; returns 0, or -1 when no RSS reading has an account. The RSS a
 * reading follows is its own (rss_time, rss) when memtime wrote it; an
 * older file's pairs each RSS reading with the statistics after it. */
int vis_alloc_most_held(const vis_profile *p, vis_alloc_moment *m);

/* Splits rss by reading r. Returns 0, or -1 when r lacks the allocated
 * bytes (*out then zero but for rss_B). */
int vis_alloc_split_of(const vis_alloc_stats *r, uint64_t rss, vis_alloc_split *out);

/* A statistic's value, 0 when the reading lacks it. */
uint64_t vis_alloc_stat_or0(const vis_alloc_stats *r, vis_alloc_stat k);

/* Whose account a reading is, by the keys it has: jemalloc says its
 * resident pages; tcmalloc its page heap (heap_size); mimalloc its commit;
 * glibc's arenas are summed. */
typedef enum { VIS_AK_JEMALLOC, VIS_AK_TCMALLOC, VIS_AK_MIMALLOC, VIS_AK_GLIBC } vis_alloc_kind;
vis_alloc_kind vis_alloc_kind_of(const vis_alloc_stats *r);

/* What tcmalloc's three caches (central, transfer, thread) hold free. */
uint64_t vis_alloc_tc_caches(const vis_alloc_stats *r);

/* What the allocator holds freed is called, for legends: "dirty, muzzy,
 * partly used pages" (jemalloc), "free pages and cached blocks" (tcmalloc),
 * "committed, not in use" (mimalloc), "free chunks" (glibc). */
const char *vis_alloc_held_noun(const vis_alloc_stats *r);

#endif
