/* mt_allocstats.c: the allocator's statistics readings (see
   mt_allocstats.h). Readings come at most as often as resident-memory
   readings; a long run keeps every other one when MAX_READINGS are held,
   so the list spans the whole run at a coarser step. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

#include "mt_allocator.h"
#include "mt_allocstats.h"
#include "mt_companion.h"
#include "mt_rss.h"

#define MAX_READINGS 1024
#define N_VALUES     12

typedef struct {
   Time  time;
   UWord ok;
   ULong v[N_VALUES];
   Bool  has_rss;        /* the RSS reading it follows: */
   Long  rss_time;
   ULong rss_B;
} Reading;

static Reading*    readings;
static UInt        n_readings;
static MtStatsKind kind;

/* The companion's keys, in the order of the values: jemalloc's from
   mallctl (dirty and muzzy in pages, the page size last), tcmalloc's and
   mimalloc's below, glibc's from mallinfo2 (counts of chunks are left out:
   they are not bytes). */
static const HChar* const je_keys[] = {
   "allocated", "active", "resident", "mapped", "retained", "metadata",
   NULL /* pdirty */, NULL /* pmuzzy */, NULL /* page */
};

void mt_allocstats_add(Time time, MtStatsKind k, const UWord* v, UWord ok)
{
   Reading* r;
   UInt i;
   if (ok == 0)         /* the allocator not yet set up: nothing to keep */
      return;
   if (readings == NULL)
      readings = VG_(malloc)("mt.allocstats", MAX_READINGS * sizeof *readings);
   if (n_readings == MAX_READINGS) {
      for (i = 0; i < MAX_READINGS / 2; i++)
         readings[i] = readings[2 * i];
      n_readings = MAX_READINGS / 2;
   }
   kind = k;
   r = &readings[n_readings++];
   r->time = time;
   r->ok = ok;
   r->has_rss = mt_rss_last(&r->rss_time, &r->rss_B);
   for (i = 0; i < N_VALUES; i++)
      r->v[i] = v[i];
}

Bool mt_allocstats_any(void)
{
   return n_readings > 0;
}

static void put(MtFile* c, const HChar* key, ULong v)
{
   mt_companion_add(c, " %s=%llu", key, v);
}

static void put_jemalloc(MtFile* c, const Reading* r)
{
   UInt i;
   ULong page = (r->ok & (1 << 8)) ? r->v[8] : 0;
   for (i = 0; i < 6; i++)
      if (r->ok & (1 << i))
         put(c, je_keys[i], r->v[i]);
   if (page != 0 && (r->ok & (1 << 6)))
      put(c, "dirty", r->v[6] * page);
   if (page != 0 && (r->ok & (1 << 7)))
      put(c, "muzzy", r->v[7] * page);
}

/* tcmalloc's properties in MT_TC_STATS_NAMES' order. The physical
   estimate is the heap's mapped part plus metadata: the metadata is what it
   adds to heap_size - unmapped. */
static void put_tcmalloc(MtFile* c, const Reading* r)
{
   static const HChar* const keys[MT_TC_N_STATS] = {
      "allocated", "heap_size", NULL /* physical */, "pageheap_free",
      "pageheap_unmapped", "central_cache_free", "transfer_cache_free",
      "thread_cache_free"
   };
   UInt i;
   for (i = 0; i < MT_TC_N_STATS; i++)
      if (keys[i] != NULL && (r->ok & (1 << i)))
         put(c, keys[i], r->v[i]);
   if ((r->ok & 0x17) == 0x17 && r->v[2] + r->v[4] >= r->v[1])
      put(c, "metadata", r->v[2] + r->v[4] - r->v[1]);
}

/* mimalloc's commit, and memtime's count of the program's blocks. */
static void put_mimalloc(MtFile* c, const Reading* r)
{
   if (r->ok & (1 << MT_MI_HEAP))
      put(c, "allocated", r->v[MT_MI_HEAP]);
   if (r->ok & (1 << MT_MI_COMMIT))
      put(c, "committed", r->v[MT_MI_COMMIT]);
   if (r->ok & (1 << MT_MI_PEAK_COMMIT))
      put(c, "peak_committed", r->v[MT_MI_PEAK_COMMIT]);
}

/* struct mallinfo2: arena, ordblks, smblks, hblks, hblkhd, usmblks,
   fsmblks, uordblks, fordblks, keepcost. */
static void put_glibc(MtFile* c, const Reading* r)
{
   put(c, "allocated", r->v[7] + r->v[4]);
   put(c, "arena", r->v[0]);
   put(c, "mmapped", r->v[4]);
   put(c, "free", r->v[8]);
   put(c, "top_releasable", r->v[9]);
   put(c, "arena_in_use", r->v[7]);
}

void mt_allocstats_companion(MtFile* c)
{
   UInt i;
   if (n_readings == 0)
      return;
   mt_companion_record(c, MtRecAllocator, "name=%s",
                       kind == MtStatsJemalloc ? "jemalloc"
                       : kind == MtStatsTcmalloc ? "tcmalloc"
                       : kind == MtStatsMimalloc ? "mimalloc" : "glibc");
   for (i = 0; i < n_readings; i++) {
      mt_companion_begin(c, MtRecAllocStats);
      mt_companion_add(c, "time=%lld", (Long)readings[i].time);
      if (readings[i].has_rss)
         mt_companion_add(c, " rss_time=%lld rss=%llu", readings[i].rss_time,
                          readings[i].rss_B);
      switch (kind) {
      case MtStatsJemalloc: put_jemalloc(c, &readings[i]); break;
      case MtStatsTcmalloc: put_tcmalloc(c, &readings[i]); break;
      case MtStatsMimalloc: put_mimalloc(c, &readings[i]); break;
      default:              put_glibc(c, &readings[i]); break;
      }
      mt_companion_end(c);
   }
}
