/* mt_outline.c: the exact outline of the run (see mt_outline.h).

   Buckets cover [base + i*W, base + (i+1)*W) with W = 2^shift in the
   profile's unit, base a multiple of W (the first change's time rounded
   down), so a bucket is found with a subtraction and a shift. A change
   at a time past the last bucket doubles W: pairs of neighbours merge (the
   smaller minimum, the larger maximum, the later bucket's last value),
   O(MT_OUTLINE_BUCKETS) each time, about 40 times in the longest run; a
   change costs a few compares otherwise.

   A bucket entered by a change starts from the value held before it, so
   its minimum and maximum count the moment it starts, and a bucket no
   change touched is not used: it holds the last value before it, which is
   what a reader assumes. The resident memory's readings share the grid
   (their own minimum, maximum and last per bucket). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

#include "mt_companion.h"
#include "mt_options.h"
#include "mt_outline.h"

typedef struct {
   MtOutlineValues v;             /* first: mt_outline_cur points here */
   ULong rss_min, rss_max, rss_last;
   Bool  used, rss_used;
} Bucket;

MtOutlineValues* mt_outline_cur = NULL;
Time mt_outline_cur_start = 0, mt_outline_cur_end = 0;

static Bucket* buckets = NULL;
static Time    base = 0;
static UInt    shift = 0;
static Int     cur = -1;            /* the last bucket used, -1: none yet */
static SizeT   held_total = 0;      /* the values held now (but see
                                       mt_outline_cur's last, fresher) */
static SizeT   held_heap = 0;

static void clear_all(void)
{
   VG_(memset)(buckets, 0, sizeof(Bucket) * MT_OUTLINE_BUCKETS);
   cur = -1;
   mt_outline_cur = NULL;   /* the fast path goes to the slow one */
}

void mt_outline_init(void)
{
   buckets = VG_(malloc)("mt.outline.buckets",
                         sizeof(Bucket) * MT_OUTLINE_BUCKETS);
   clear_all();
}

/* Merges b into a (b is the later of the two). */
static void merge(Bucket* a, const Bucket* b)
{
   if (b->used) {
      if (!a->used) {
         /* b's minimum and maximum already count the value it started
            from, which a's time held (a saw no change). */
         a->v.min = b->v.min; a->v.max = b->v.max;
         a->v.heap_min = b->v.heap_min; a->v.heap_max = b->v.heap_max;
         a->used = True;
      } else {
         if (b->v.min < a->v.min) a->v.min = b->v.min;
         if (b->v.max > a->v.max) a->v.max = b->v.max;
         if (b->v.heap_min < a->v.heap_min) a->v.heap_min = b->v.heap_min;
         if (b->v.heap_max > a->v.heap_max) a->v.heap_max = b->v.heap_max;
      }
      a->v.last = b->v.last;
      a->v.heap_last = b->v.heap_last;
   }
   if (b->rss_used) {
      if (!a->rss_used) {
         a->rss_min = b->rss_min; a->rss_max = b->rss_max;
         a->rss_used = True;
      } else {
         if (b->rss_min < a->rss_min) a->rss_min = b->rss_min;
         if (b->rss_max > a->rss_max) a->rss_max = b->rss_max;
      }
      a->rss_last = b->rss_last;
   }
}

/* Doubles the width: bucket j moves to (j + (base - new_base) / W) / 2. */
static void grow(void)
{
   Time w = (Time)1 << shift;
   Time new_base = base & ~((w << 1) - 1);
   Int  d = (Int)((base - new_base) >> shift);   /* 0 or 1 */
   Int  j, k, last_k = -1;

   for (j = 0; j <= cur; j++) {
      k = (j + d) >> 1;
      if (k != last_k) {
         if (k != j)
            buckets[k] = buckets[j];
         last_k = k;
      } else {
         merge(&buckets[k], &buckets[j]);
      }
   }
   for (j = last_k + 1; j <= cur; j++)
      VG_(memset)(&buckets[j], 0, sizeof(Bucket));
   cur = last_k;
   base = new_base;
   shift++;
   mt_outline_cur = NULL;   /* buckets moved */
}

/* The bucket of time 'now', made the current one. */
static Bucket* bucket_at(Time now)
{
   Int i;
   if (cur < 0) {
      base = now & ~(((Time)1 << shift) - 1);
   }
   if (now < base)
      now = base;   /* times never go back; defensive */
   while (((now - base) >> shift) >= MT_OUTLINE_BUCKETS)
      grow();
   i = (Int)((now - base) >> shift);
   if (i > cur)
      cur = i;
   return &buckets[i];
}

void mt_outline_update_slow(Time now, SizeT total_szB, SizeT heap_szB)
{
   Bucket* b;
   if (!clo_outline)
      return;
   /* The values held until now: the fast path keeps them in its bucket. */
   if (mt_outline_cur != NULL) {
      held_total = mt_outline_cur->last;
      held_heap = mt_outline_cur->heap_last;
   }
   b = bucket_at(now);
   if (!b->used) {
      b->v.min = b->v.max = b->v.last = held_total;
      b->v.heap_min = b->v.heap_max = b->v.heap_last = held_heap;
      b->used = True;
   }
   if (total_szB < b->v.min) b->v.min = total_szB;
   if (total_szB > b->v.max) b->v.max = total_szB;
   if (heap_szB < b->v.heap_min) b->v.heap_min = heap_szB;
   if (heap_szB > b->v.heap_max) b->v.heap_max = heap_szB;
   b->v.last = total_szB;
   b->v.heap_last = heap_szB;
   held_total = total_szB;
   held_heap = heap_szB;
   /* The next changes in this bucket take the fast path; it is the last
      bucket (times do not go back), so held_* are its last values. */
   if (b == &buckets[cur]) {
      mt_outline_cur = &b->v;
      mt_outline_cur_start = base + ((Time)cur << shift);
      mt_outline_cur_end = mt_outline_cur_start + ((Time)1 << shift);
   }
}

void mt_outline_rss(Time now, ULong rss_szB)
{
   Bucket* b;
   if (!clo_outline)
      return;
   b = bucket_at(now);
   if (!b->rss_used) {
      b->rss_min = b->rss_max = rss_szB;
      b->rss_used = True;
   }
   if (rss_szB < b->rss_min) b->rss_min = rss_szB;
   if (rss_szB > b->rss_max) b->rss_max = rss_szB;
   b->rss_last = rss_szB;
}

void mt_outline_restart(Time now, SizeT total_szB, SizeT heap_szB)
{
   clear_all();
   shift = 0;
   held_total = total_szB;
   held_heap = heap_szB;
   /* The first bucket holds what the child inherited, from its start. */
   mt_outline_update(now, total_szB, heap_szB);
}

Bool mt_outline_any(void)
{
   return cur >= 0;
}

void mt_outline_companion(MtFile* c, Time now)
{
   Int i;
   if (cur < 0)
      return;
   if (now < base + ((Time)cur << shift))
      now = base + ((Time)cur << shift);
   mt_companion_record(c, MtRecOutline, "width=%llu end=%lld",
                       1ULL << shift, (Long)now);
   for (i = 0; i <= cur; i++) {
      const Bucket* b = &buckets[i];
      Time start = base + ((Time)i << shift);
      if (b->used)
         mt_companion_record(c, MtRecOutlineBucket,
                             "%lld %lu %lu %lu %lu %lu %lu", (Long)start,
                             b->v.min, b->v.max, b->v.last,
                             b->v.heap_min, b->v.heap_max, b->v.heap_last);
      if (b->rss_used)
         mt_companion_record(c, MtRecOutlineRss, "%lld %llu %llu %llu",
                             (Long)start, b->rss_min, b->rss_max,
                             b->rss_last);
   }
}

void mt_outline_stats(ULong* width, UInt* n_used)
{
   Int i;
   UInt n = 0;
   for (i = 0; i <= cur; i++)
      n += buckets[i].used;
   *width = 1ULL << shift;
   *n_used = n;
}
