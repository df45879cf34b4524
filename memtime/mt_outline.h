/* mt_outline.h: the exact outline of the run: for each bucket of time,
   the lowest, highest and last total (heap + extra + stacks) and heap
   (heap + extra), kept at every change, and the resident memory's readings
   the same way. Bounded (MT_OUTLINE_BUCKETS buckets; neighbours merge as
   the run outgrows them) and never sampled: a burst between two snapshots,
   which culling may drop from the profile, is still here at its full
   height. Written to the companion as "outline:", "o:" and "o-rss:"
   (docs/file-format.md). */
#ifndef MT_OUTLINE_H
#define MT_OUTLINE_H

#include "pub_tool_basics.h"
#include "pub_tool_xtree.h"     /* Time */

#include "mt_file.h"

#define MT_OUTLINE_BUCKETS 4096

void mt_outline_init(void);

/* The bucket the last change went to, for the inline fast path: a change
   that falls in it (nearly every one) costs four compares and stores. */
typedef struct {
   SizeT min, max, last;          /* total */
   SizeT heap_min, heap_max, heap_last;
} MtOutlineValues;
extern MtOutlineValues* mt_outline_cur;   /* NULL: none yet */
extern Time mt_outline_cur_start, mt_outline_cur_end;

void mt_outline_update_slow(Time now, SizeT total_szB, SizeT heap_szB);

/* The totals changed at 'now' (in the profile's unit): total = heap +
   extra + stacks, heap = heap + extra. */
static inline void mt_outline_update(Time now, SizeT total_szB, SizeT heap_szB)
{
   MtOutlineValues* v = mt_outline_cur;
   if (LIKELY(v != NULL && now >= mt_outline_cur_start
              && now < mt_outline_cur_end)) {
      if (total_szB < v->min) v->min = total_szB;
      if (total_szB > v->max) v->max = total_szB;
      if (heap_szB < v->heap_min) v->heap_min = heap_szB;
      if (heap_szB > v->heap_max) v->heap_max = heap_szB;
      v->last = total_szB;
      v->heap_last = heap_szB;
      return;
   }
   mt_outline_update_slow(now, total_szB, heap_szB);
}
/* A resident-memory reading (anon + file + shmem) taken at 'now'. */
void mt_outline_rss(Time now, ULong rss_szB);
/* A new profile starts at 'now' (a forked child): the outline forgets the
   parent's run and starts from the totals it inherited. */
void mt_outline_restart(Time now, SizeT total_szB, SizeT heap_szB);
/* Something to write: the memory changed at least once. */
Bool mt_outline_any(void);
/* Writes the records; 'now' is the time of the rewrite. */
void mt_outline_companion(MtFile* c, Time now);
/* For -v at exit: the bucket width and the buckets in use. */
void mt_outline_stats(ULong* width, UInt* n_used);

#endif /* MT_OUTLINE_H */
