/* mt_heap.c: the heap model. Replaces every allocation entry point (the
   core's malloc-replacement needs), keeps the table of live blocks, and
   counts useful bytes, extra bytes (--heap-admin per block + slop) and
   realloc exactly as Massif does:
   - slop = usable size of Valgrind's replacement block - requested size;
   - realloc of NULL is malloc, realloc to 0 is free (the preload already
     does both, this is defensive); a new size that fits in the old usable
     size stays in place (the slop grows), otherwise the block moves;
     either way the bytes move to the realloc's call site;
   - a block whose stack is ignored (--ignore-fn) counts nowhere, nor does
     any realloc of it;
   - custom allocators (VALGRIND_MALLOCLIKE_BLOCK etc.) have no slop and
     keep their top frame (the client request is made by the allocator's
     own code, which the user may want to see or --alloc-fn away). */
#include "pub_tool_basics.h"
#include "pub_tool_clreq.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_poolalloc.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"

#include "mt_compat.h"
#include "mt_counts.h"
#include "mt_heap.h"
#include "mt_limit.h"
#include "mt_options.h"
#include "mt_output.h"
#include "mt_snapshot.h"
#include "mt_tree.h"

/* One live block. The first two fields are the core's VgHashNode. */
typedef struct _MtBlock {
   struct _MtBlock* next;
   Addr             data;
   SizeT            req_szB;
   SizeT            slop_szB;
   Xecu             where;     /* its stack (mt_tree.h) */
   ThreadId         tid;       /* who allocated it (temporaries, mt_counts.h) */
} MtBlock;

static PoolAlloc*   block_pool = NULL;
static VgHashTable* live_blocks = NULL;

void mt_heap_init(void)
{
   block_pool  = VG_(newPA)(sizeof(MtBlock), 1000, VG_(malloc),
                            "mt.heap.blocks", VG_(free));
   live_blocks = VG_(HT_construct)("memtime's live blocks");
}

/* Bytes of allocator bookkeeping charged per block: --heap-admin, none
   for pages (--pages-as-heap counts whole pages, as Massif does). */
static SSizeT admin_szB(void)
{
   return clo_pages_as_heap ? 0 : clo_heap_admin;
}

/* After the totals grew: the heap limit's first crossing, under
   --heap-limit-action=kill, ends the program here with a complete profile. */
static void check_limit(void)
{
   if (mt_limit_after_alloc()) {
      mt_output_write_final();
      mt_limit_kill();
   }
}

/* Records p (already allocated) as live, charged to tid's stack. */
static void* record_block(ThreadId tid, void* p, SizeT req_szB,
                          SizeT slop_szB, Bool exclude_first_entry,
                          Bool maybe_snapshot)
{
   MtBlock* b = VG_(allocEltPA)(block_pool);
   b->data     = (Addr)p;
   b->req_szB  = req_szB;
   b->slop_szB = slop_szB;
   b->where    = 0;
   b->tid      = tid;
   VG_(HT_add_node)(live_blocks, b);

   if (clo_heap) {
      b->where = mt_tree_add(tid, req_szB, exclude_first_entry);
      if (!mt_tree_is_ignored(b->where)) {
         mt_counts_alloc(b->where, tid, (Addr)p, req_szB);
         mt_mem_update_heap(req_szB, admin_szB() + slop_szB);
         if (maybe_snapshot)
            mt_snapshot_maybe(MtNormal);
         check_limit();
      }
   }
   return p;
}

/* Forgets p; False if p was not a live block (a bogus free). */
static Bool unrecord_block(void* p, Bool maybe_snapshot)
{
   MtBlock* b = VG_(HT_remove)(live_blocks, (UWord)p);
   if (b == NULL)
      return False;

   if (clo_heap && !mt_tree_is_ignored(b->where)) {
      /* Coming down from a possible peak: check it first. */
      if (maybe_snapshot)
         mt_snapshot_maybe(MtPeak);
      mt_mem_update_heap(-(SSizeT)b->req_szB,
                         -admin_szB() - (SSizeT)b->slop_szB);
      mt_tree_sub(b->where, b->req_szB);
      mt_counts_free(b->where, b->tid, b->data, b->req_szB);
      if (maybe_snapshot)
         mt_snapshot_maybe(MtNormal);
   }
   VG_(freeEltPA)(block_pool, b);
   return True;
}

static void* alloc_and_record(ThreadId tid, SizeT req_szB, SizeT align,
                              Bool zero, Bool exclude_first_entry)
{
   void* p;
   SizeT slop_szB;
   if ((SSizeT)req_szB < 0)
      return NULL;   /* huge requests fail, as in Massif */
   p = VG_(cli_malloc)(align ? align : VG_(clo_alignment), req_szB);
   if (p == NULL)
      return NULL;
   slop_szB = VG_(cli_malloc_usable_size)(p) - req_szB;
   if (clo_heap && mt_limit_refuse(req_szB + admin_szB() + slop_szB)) {
      VG_(cli_free)(p);
      return NULL;
   }
   if (zero)
      VG_(memset)(p, 0, req_szB);
   return record_block(tid, p, req_szB, slop_szB, exclude_first_entry, True);
}

static void* realloc_block(ThreadId tid, void* p_old, SizeT new_req_szB,
                           SizeT align, Bool exclude_first_entry)
{
   MtBlock* b;
   void*    p_new;
   SizeT    old_req_szB, old_slop_szB, new_slop_szB;
   Xecu     old_where;
   Bool     ignored = False;

   if (p_old == NULL)
      return alloc_and_record(tid, new_req_szB, align, False,
                              exclude_first_entry);
   if (new_req_szB == 0) {
      if (unrecord_block(p_old, True))
         VG_(cli_free)(p_old);
      return NULL;
   }

   b = VG_(HT_remove)(live_blocks, (UWord)p_old);
   if (b == NULL)
      return NULL;   /* a bogus realloc */
   old_req_szB  = b->req_szB;
   old_slop_szB = b->slop_szB;

   if (clo_heap) {
      if (!mt_tree_is_ignored(b->where)) {
         if (new_req_szB < old_req_szB)   /* effectively a deallocation */
            mt_snapshot_maybe(MtPeak);
      } else {
         ignored = True;
      }
   }
   if (clo_heap && !ignored && new_req_szB > old_req_szB
       && mt_limit_refuse(new_req_szB - old_req_szB)) {
      /* Refused as a failed realloc: the old block stays live. */
      VG_(HT_add_node)(live_blocks, b);
      return NULL;
   }

   if (new_req_szB <= old_req_szB + old_slop_szB
       && (align == 0 || (Addr)p_old % align == 0)) {
      p_new = p_old;
      new_slop_szB = old_slop_szB + (old_req_szB - new_req_szB);
   } else {
      if ((SSizeT)new_req_szB < 0)
         p_new = NULL;
      else
         p_new = VG_(cli_malloc)(align ? align : VG_(clo_alignment),
                                 new_req_szB);
      if (p_new == NULL) {
         /* realloc failed: the old block is untouched and still live. */
         VG_(HT_add_node)(live_blocks, b);
         return NULL;
      }
      VG_(memcpy)(p_new, p_old, old_req_szB + old_slop_szB < new_req_szB
                                ? old_req_szB + old_slop_szB : new_req_szB);
      VG_(cli_free)(p_old);
      new_slop_szB = VG_(cli_malloc_usable_size)(p_new) - new_req_szB;
   }

   b->data     = (Addr)p_new;
   b->req_szB  = new_req_szB;
   b->slop_szB = new_slop_szB;
   old_where   = b->where;
   b->where    = 0;
   if (clo_heap) {
      b->where = mt_tree_add(tid, new_req_szB, exclude_first_entry);
      if (!ignored && !mt_tree_is_ignored(b->where)) {
         mt_tree_sub(old_where, old_req_szB);
      } else {
         ignored = True;
         /* A block first allocated under an ignored function stays
            ignored, whoever reallocs it. */
         if (!mt_tree_is_ignored(b->where) && mt_tree_is_ignored(old_where))
            b->where = old_where;
      }
   }
   VG_(HT_add_node)(live_blocks, b);

   if (clo_heap && !ignored) {
      /* Counted as heaptrack does: a free of the old block, then an
         allocation of the new size at the realloc's stack. */
      mt_counts_free(old_where, b->tid, (Addr)p_old, old_req_szB);
      mt_counts_alloc(b->where, tid, (Addr)p_new, new_req_szB);
      b->tid = tid;
      mt_mem_update_heap((SSizeT)new_req_szB - (SSizeT)old_req_szB,
                         (SSizeT)new_slop_szB - (SSizeT)old_slop_szB);
      mt_snapshot_maybe(MtNormal);
      check_limit();
   }
   return p_new;
}

/*------------------------------------------------------------*/
/*--- The replacement functions the core calls              ---*/
/*------------------------------------------------------------*/

static void* mt_malloc(ThreadId tid, SizeT szB)
{
   return alloc_and_record(tid, szB, 0, False, True);
}

static void* mt_new_aligned(ThreadId tid, MT_NEW_ALIGNED_PARAMS(szB, alignB))
{
   return alloc_and_record(tid, szB, alignB, False, True);
}

static void* mt_memalign(ThreadId tid, MT_MEMALIGN_PARAMS(alignB, szB))
{
   return alloc_and_record(tid, szB, alignB, False, True);
}

static void* mt_calloc(ThreadId tid, SizeT m, SizeT szB)
{
   /* The preload rejects overflowing products before calling us. */
   return alloc_and_record(tid, m * szB, 0, True, True);
}

static void mt_free(ThreadId tid, void* p)
{
   if (unrecord_block(p, True))
      VG_(cli_free)(p);
}

static void mt_delete_aligned(ThreadId tid, void* p, SizeT alignB)
{
   mt_free(tid, p);
}

static void* mt_realloc(ThreadId tid, void* p_old, SizeT new_szB)
{
   /* realloc(p, 0) reaches the tool from 3.21 on (mt_compat.h); with
      --realloc-zero-bytes-frees=no it resizes to one byte, as Massif. */
   if (new_szB == 0 && p_old != NULL && !mt_compat_realloc_zero_frees())
      new_szB = 1;
   return realloc_block(tid, p_old, new_szB, 0, True);
}

static SizeT mt_malloc_usable_size(ThreadId tid, void* p)
{
   return mt_heap_usable_size(p);
}

void mt_heap_pre_clo_init(void)
{
   VG_(needs_malloc_replacement)(mt_malloc,          /* malloc */
                                 mt_malloc,          /* new */
                                 mt_new_aligned,     /* new, aligned */
                                 mt_malloc,          /* new[] */
                                 mt_new_aligned,     /* new[], aligned */
                                 mt_memalign,
                                 mt_calloc,
                                 mt_free,
                                 mt_free,            /* delete */
                                 mt_delete_aligned,
                                 mt_free,            /* delete[] */
                                 mt_delete_aligned,
                                 mt_realloc,
                                 mt_malloc_usable_size,
                                 0);
}

/*------------------------------------------------------------*/
/*--- Client requests: custom allocators                    ---*/
/*------------------------------------------------------------*/

Bool mt_heap_handle_client_request(ThreadId tid, UWord* arg, UWord* ret)
{
   switch (arg[0]) {
   case VG_USERREQ__MALLOCLIKE_BLOCK:
      record_block(tid, (void*)arg[1], arg[2], 0, False, True);
      *ret = 0;
      return True;
   case VG_USERREQ__RESIZEINPLACE_BLOCK:
      /* Massif's semantics: a free then a new block at the resizer's
         stack. Unknown blocks are recorded anyway, as Massif does. */
      unrecord_block((void*)arg[1], True);
      record_block(tid, (void*)arg[1], arg[3], 0, False, True);
      *ret = 0;
      return True;
   case VG_USERREQ__FREELIKE_BLOCK:
      unrecord_block((void*)arg[1], True);
      *ret = 0;
      return True;
   default:
      return False;
   }
}

/*------------------------------------------------------------*/
/*--- The API for other modules (mt_heap.h)                ---*/
/*------------------------------------------------------------*/

void* mt_heap_alloc(ThreadId tid, SizeT req_szB, SizeT align, Bool zero)
{
   return alloc_and_record(tid, req_szB, align, zero, False);
}

void* mt_heap_alloc_replaced(ThreadId tid, SizeT req_szB, SizeT align)
{
   return alloc_and_record(tid, req_szB, align, False, True);
}

void mt_heap_free(ThreadId tid, void* p)
{
   if (p != NULL && unrecord_block(p, True))
      VG_(cli_free)(p);
}

void* mt_heap_realloc(ThreadId tid, void* p, SizeT new_req_szB, SizeT align,
                      Bool zero)
{
   SizeT old_req_szB = 0;
   void* p_new;
   if (p != NULL) {
      MtBlock* b = VG_(HT_lookup)(live_blocks, (UWord)p);
      if (b == NULL)
         return NULL;
      old_req_szB = b->req_szB;
   }
   p_new = realloc_block(tid, p, new_req_szB, align, False);
   if (p_new != NULL && zero && new_req_szB > old_req_szB)
      VG_(memset)((HChar*)p_new + old_req_szB, 0, new_req_szB - old_req_szB);
   return p_new;
}

Bool mt_heap_resize_in_place(ThreadId tid, void* p, SizeT new_req_szB)
{
   MtBlock* b = VG_(HT_lookup)(live_blocks, (UWord)p);
   if (b == NULL || new_req_szB == 0
       || new_req_szB > b->req_szB + b->slop_szB)
      return False;
   return realloc_block(tid, p, new_req_szB, 0, False) == p;
}

SizeT mt_heap_usable_size(void* p)
{
   MtBlock* b = VG_(HT_lookup)(live_blocks, (UWord)p);
   return b ? b->req_szB + b->slop_szB : 0;
}

Bool mt_heap_is_block(void* p)
{
   return VG_(HT_lookup)(live_blocks, (UWord)p) != NULL;
}

void mt_heap_record(ThreadId tid, Addr a, SizeT szB, Bool maybe_snapshot)
{
   record_block(tid, (void*)a, szB, 0, False, maybe_snapshot);
}

Bool mt_heap_unrecord(Addr a, Bool maybe_snapshot)
{
   return unrecord_block((void*)a, maybe_snapshot);
}
