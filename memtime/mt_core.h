/* mt_core.h: memtime's small internal API for extension modules (stacks,
   pages-as-heap, allocator support, monitor commands). Everything here runs
   on the tool side with the big lock held, like the rest of the tool. */
#ifndef MT_CORE_H
#define MT_CORE_H

#include "pub_tool_basics.h"

/* --- set-up, called by mt_main.c ------------------------------------ */
void  mt_heap_init(void);            /* pre_clo_init: block table */
void  mt_heap_pre_clo_init(void);    /* registers the malloc replacement */
Bool  mt_heap_handle_client_request(ThreadId tid, UWord* arg, UWord* ret);

/* --- snapshots ------------------------------------------------------ */
/* Takes a snapshot now, outside Massif's schedule (the list may then be
   culled as usual). Ignored before the client starts. */
void  mt_snapshot_now(Bool detailed);

/* --- allocation functions ------------------------------------------- */
/* See mt_heap.h: mt_alloc_fns_add / mt_alloc_paths_add add, at run time,
   patterns of frames stripped from the top of allocation stacks. */

/* --- memory accounting ---------------------------------------------- */
/* Records [a, a+szB) as a block charged to tid's whole current stack (no
   frame excluded, no slop, heap-admin still added): for pages-as-heap. */
void  mt_heap_record(ThreadId tid, Addr a, SizeT szB, Bool maybe_snapshot);
/* Forgets the block at a; False if there is none. */
Bool  mt_heap_unrecord(Addr a, Bool maybe_snapshot);
/* Stacks: change the stacks total (mem_stacks_B) with
   mt_mem_update_stacks (mt_snapshot.h), then call
   mt_snapshot_maybe(MtNormal), and mt_snapshot_maybe(MtPeak) before a
   decrease, as Massif does. */

/* --- live state ----------------------------------------------------- */
/* Calls fn for every live block (order unspecified). fn must not
   allocate or free client blocks. */
void  mt_heap_iterate(void (*fn)(Addr a, SizeT req_szB, SizeT slop_szB,
                                 void* opaque),
                      void* opaque);
ULong mt_heap_n_live_blocks(void);
/* Live totals: mt_heap_szB, mt_heap_extra_szB, mt_stacks_szB
   (mt_snapshot.h). */

#endif /* MT_CORE_H */
