/* mt_heap.h: memtime's heap model, the interface other modules (and the
   allocator API for custom allocators such as jemalloc) use to record blocks.

   Every function here records the block against the current thread's stack
   exactly as malloc does (allocation functions stripped, --ignore-fn applied)
   and runs the snapshot logic, so the block shows up in heap totals, trees,
   the peak and the time unit B. */
#ifndef MT_HEAP_H
#define MT_HEAP_H

#include "pub_tool_basics.h"

/* Set-up, called by mt_main.c. */
void  mt_heap_init(void);            /* pre_clo_init: block table */
void  mt_heap_pre_clo_init(void);    /* registers the malloc replacement */
/* -v at exit: live blocks, the tool's own memory per block, the table's
   load, the slabs. */
void  mt_heap_print_stats(void);
/* The --heap-admin bytes charged to the live blocks: memtime's estimate of
   the allocator's bookkeeping, inside the extra bytes. */
SizeT mt_heap_admin_total_szB(void);
/* VALGRIND_MALLOCLIKE_BLOCK and friends; False for other requests. */
Bool  mt_heap_handle_client_request(ThreadId tid, UWord* arg, UWord* ret);

/* All record the block against the current thread's stack like malloc does
   and trigger snapshot logic; they return NULL on failure. */
void* mt_heap_alloc  (ThreadId tid, SizeT req_szB, SizeT align, Bool zero);
/* As the core's malloc replacement (the stock preload's operator new)
   records a block: the top frame, the replacement function, excluded. For
   memtime's own throwing operator new (mt_preload.c). */
void* mt_heap_alloc_replaced(ThreadId tid, SizeT req_szB, SizeT align);
void  mt_heap_free   (ThreadId tid, void* p);            /* p NULL ok */
void* mt_heap_realloc(ThreadId tid, void* p, SizeT new_req_szB, SizeT align, Bool zero);
Bool  mt_heap_resize_in_place(ThreadId tid, void* p, SizeT new_req_szB); /* False: unchanged */
SizeT mt_heap_usable_size(void* p);                      /* 0 if not ours */
Bool  mt_heap_is_block(void* p);
/* Frames whose function name matches (VG_(string_match) pattern) or whose
   source file path matches path_pattern are stripped from the top of every
   allocation stack, like malloc. */
void  mt_alloc_fns_add(const HChar* fn_pattern);
void  mt_alloc_paths_add(const HChar* path_pattern);

/* For pages-as-heap (mt_pages.c): records [a, a+szB) as a block charged
   to tid's whole current stack (no frame excluded, no slop, no
   --heap-admin), and forgets the block at a (False if there is none). */
void  mt_heap_record(ThreadId tid, Addr a, SizeT szB, Bool maybe_snapshot);
Bool  mt_heap_unrecord(Addr a, Bool maybe_snapshot);

/* --allocator=program (mt_allocator.c): blocks the program's own allocator
   made, recorded without touching memory. The extra bytes are usable minus
   requested; exclude_top leaves the wrapper's frame out of the stack, as
   for the default mode's replacements. A free or realloc of a block never
   seen returns False and changes nothing (the realloc's new block is
   recorded). refuse: whether --heap-limit-action=fail refuses growing
   p_old (0: a new block) to new_req_szB. */
Bool  mt_heap_observe_refuse(Addr p_old, SizeT new_req_szB);
void  mt_heap_observe_alloc(ThreadId tid, Addr p, SizeT req_szB, SizeT usable,
                            Bool exclude_top);
Bool  mt_heap_observe_free(ThreadId tid, Addr p);
Bool  mt_heap_observe_realloc(ThreadId tid, Addr p_old, Addr p_new,
                              SizeT new_req_szB, SizeT usable,
                              Bool exclude_top);

#endif /* MT_HEAP_H */
