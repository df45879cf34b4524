/* mt_blocks.h: the table of live blocks that are not in a slab (mt_slab.h):
   big blocks, aligned ones, custom allocators' and --pages-as-heap's.
   Open addressing keyed by address, grown without a pause. */
#ifndef MT_BLOCKS_H
#define MT_BLOCKS_H

#include "pub_tool_basics.h"
#include "pub_tool_xtree.h"

/* What the heap model keeps per block. */
typedef struct {
   Addr     addr;
   SizeT    req_szB;
   SizeT    slop_szB;
   Xecu     where;     /* its stack (mt_tree.h) */
   ThreadId tid;       /* who allocated it (temporaries, mt_counts.h) */
} MtBlockRec;

void  mt_blocks_init(void);
/* Records r. A second record at the same address hides the first until
   it is removed: the latest is the one found, as in the core's hash
   table (a custom allocator's block at the start of a malloc'd pool). */
void  mt_blocks_insert(const MtBlockRec* r);
/* Copies the (latest) record at a into *r; False if there is none. */
Bool  mt_blocks_lookup(Addr a, MtBlockRec* r);
/* Removes it, copying it into *r (r may be NULL); False if none. */
Bool  mt_blocks_remove(Addr a, MtBlockRec* r);

/* For -v: records, slots allocated (both tables while growing), bytes. */
void  mt_blocks_stats(ULong* n_recs, ULong* n_slots, ULong* bytes);

#endif /* MT_BLOCKS_H */
