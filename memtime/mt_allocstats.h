/* mt_allocstats.h: the program's allocator's own account (--allocator=
   program): readings of jemalloc's, tcmalloc's, mimalloc's or glibc's
   statistics, taken inside the
   program after the resident-memory readings (mt_allocator.c asks the
   wrapper for them), kept here and written to the companion
   ("allocator:", "alloc-stats:"; docs/file-format.md). */
#ifndef MT_ALLOCSTATS_H
#define MT_ALLOCSTATS_H

#include "pub_tool_basics.h"
#include "pub_tool_xtree.h"     /* Time */

#include "mt_file.h"

typedef enum { MtStatsJemalloc, MtStatsGlibc, MtStatsTcmalloc, MtStatsMimalloc } MtStatsKind;

/* One reading at 'time': the values as the wrapper read them (jemalloc:
   MT_JE_STATS_NAMES' order; tcmalloc: MT_TC_STATS_NAMES'; mimalloc:
   MT_MI_*; glibc: struct mallinfo2's fields), bit i of 'ok' set when value
   i was read. It is kept with the resident-memory reading it follows (its
   time and total), so that the split of that RSS never depends on the
   snapshot the reading was taken at surviving culling. */
void mt_allocstats_add(Time time, MtStatsKind kind, const UWord* v, UWord ok);
Bool mt_allocstats_any(void);
void mt_allocstats_companion(MtFile* c);

#endif /* MT_ALLOCSTATS_H */
