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

#include "mt_blocks.h"
#include "mt_compat.h"
#include "mt_counts.h"
#include "mt_heap.h"
#include "mt_limit.h"
#include "mt_options.h"
#include "mt_slab.h"
#include "mt_output.h"
#include "mt_snapshot.h"
#include "mt_tree.h"

/* Where a block's record is. By default, in the core's hash table, a
   48-byte node each, as before --compact-heap existed (its speed and
   memory are the reference the option is measured against). Under
   --compact-heap=yes, a small plain malloc's record lives in its slab
   slot (mt_slab.c) and every other one in mt_blocks.c's table, which
   grows without a pause. The table is searched before the slabs: a
   custom allocator's block recorded at the start of a malloc'd pool is
   the latest record there, and the latest is the one found, as in
   Massif. */
typedef struct _MtNode {
   struct _MtNode* next;    /* the first two fields are VgHashNode */
   Addr            key;
   SizeT           req_szB;
   SizeT           slop_szB;
   Xecu            where;
   ThreadId        tid;
} MtNode;

static void node_to_rec(const MtNode* n, MtBlockRec* r)
{
   r->addr     = n->key;
   r->req_szB  = n->req_szB;
   r->slop_szB = n->slop_szB;
   r->where    = n->where;
   r->tid      = n->tid;
}

static PoolAlloc*   node_pool;
static VgHashTable* nodes;

static Bool find_rec(Addr a, MtBlockRec* r, Bool* in_slab)
{
   *in_slab = False;
   if (!clo_compact_heap) {
      MtNode* n = VG_(HT_lookup)(nodes, a);
      if (n == NULL)
         return False;
      node_to_rec(n, r);
      return True;
   }
   if (mt_blocks_lookup(a, r))
      return True;
   *in_slab = True;
   return mt_slab_get(a, r);
}

/* Removes a's record (a slab block stays allocated, without one). */
static Bool take_rec(Addr a, MtBlockRec* r, Bool* in_slab)
{
   *in_slab = False;
   if (!clo_compact_heap) {
      MtNode* n = VG_(HT_remove)(nodes, a);
      if (n == NULL)
         return False;
      node_to_rec(n, r);
      VG_(freeEltPA)(node_pool, n);
      return True;
   }
   if (mt_blocks_remove(a, r))
      return True;
   if (!mt_slab_get(a, r))
      return False;
   mt_slab_unset(a);
   *in_slab = True;
   return True;
}

static void store_rec(const MtBlockRec* r, Bool in_slab)
{
   if (!clo_compact_heap) {
      MtNode* n = VG_(allocEltPA)(node_pool);
      n->key      = r->addr;
      n->req_szB  = r->req_szB;
      n->slop_szB = r->slop_szB;
      n->where    = r->where;
      n->tid      = r->tid;
      VG_(HT_add_node)(nodes, n);
   } else if (in_slab) {
      mt_slab_set(r);
   } else {
      mt_blocks_insert(r);
   }
}

/* The client's memory for a block: under --compact-heap=yes a slab slot
   for a small request at the arena's own alignment (not when pages are
   the heap), else the core's client arena, as Massif. A slot's usable
   size is what the arena gives when it splits a free block to fit; the
   arena sometimes hands out 16 bytes more (a remainder under its minimum
   block), which only the arena itself can know: that is why the default
   keeps the arena and Massif's extra bytes exactly. */
static void* get_block(ThreadId tid, SizeT req_szB, SizeT align,
                       SizeT* usable, Bool* in_slab)
{
   SizeT a = align ? align : VG_(clo_alignment);
   void* p;
   *in_slab = clo_compact_heap && req_szB <= MT_SLAB_MAX_REQ && a == 16
              && !clo_pages_as_heap && mt_slab_tid_fits(tid);
   if (*in_slab) {
      *usable = mt_slab_usable(req_szB);
      return mt_slab_alloc(req_szB);
   }
   p = VG_(cli_malloc)(a, req_szB);
   if (p != NULL)
      *usable = VG_(cli_malloc_usable_size)(p);
   return p;
}

static void put_block(void* p)
{
   if (mt_slab_contains((Addr)p))
      (void)mt_slab_free((Addr)p);
   else
      VG_(cli_free)(p);
}

/* The tool's own memory per live block, for -v: sampled when the count
   of live blocks reaches a new high every 65536 blocks (the stats are a
   few additions), and at exit. */
static ULong n_live, max_live, own_at_max;

/* The hash table's share: a node each and a bucket (a pointer) per
   node at most (the core grows the bucket array with the nodes). */
static ULong hash_bytes(void)
{
   UInt n = VG_(HT_count_nodes)(nodes);
   return (ULong)n * (sizeof(MtNode) + sizeof(void*));
}

static ULong own_bytes(void)
{
   ULong recs, slots, table, slab_live, slab_client, slab_own, slabs;
   mt_blocks_stats(&recs, &slots, &table);
   mt_slab_stats(&slab_live, &slab_client, &slab_own, &slabs);
   return table + slab_own + hash_bytes();
}

static void count_live(Int delta)
{
   n_live += (ULong)(Long)delta;
   if (n_live > max_live) {
      max_live = n_live;
      if ((max_live & 0xFFFF) == 0)
         own_at_max = own_bytes();
   }
}

void mt_heap_print_stats(void)
{
   ULong recs, slots, table, slab_live, slab_client, slab_own, slabs;
   ULong own = own_bytes();
   mt_blocks_stats(&recs, &slots, &table);
   mt_slab_stats(&slab_live, &slab_client, &slab_own, &slabs);
   VG_(umsg)("memtime: blocks: %llu live at exit, at most %llu at once\n",
             n_live, max_live);
   VG_(umsg)("memtime: own memory for them: %llu bytes at exit "
             "(%llu.%llu bytes per block)%s",
             own, n_live ? own / n_live : 0,
             n_live ? own * 10 / n_live % 10 : 0, max_live >= 0x10000 ? "" : "\n");
   if (max_live >= 0x10000)
      VG_(umsg)(", %llu bytes per block at the high\n",
                own_at_max / (max_live & ~(ULong)0xFFFF));
   if (!clo_compact_heap)
      VG_(umsg)("memtime: hash table: %u blocks, %lu bytes a node and up "
                "to %lu a bucket\n", VG_(HT_count_nodes)(nodes),
                (UWord)sizeof(MtNode), (UWord)sizeof(void*));
   VG_(umsg)("memtime: table: %llu blocks in %llu slots of %lu bytes "
             "(load %llu%%), %llu bytes\n", recs, slots,
             (UWord)sizeof(MtBlockRec), slots ? recs * 100 / slots : 0, table);
   VG_(umsg)("memtime: slabs: %llu blocks, %llu slabs of 64 KB "
             "(%llu MB of client memory), records and descriptors %llu "
             "bytes\n", slab_live, slabs, slab_client >> 20, slab_own);
}

void mt_heap_init(void)
{
   node_pool = VG_(newPA)(sizeof(MtNode), 1000, VG_(malloc),
                          "mt.heap.blocks", VG_(free));
   nodes     = VG_(HT_construct)("memtime's live blocks");
   mt_blocks_init();
   mt_slab_init();
}

/* Bytes of allocator bookkeeping charged per block: --heap-admin, none
   for pages (--pages-as-heap counts whole pages, as Massif does). */
static SSizeT admin_szB(void)
{
   return clo_pages_as_heap ? 0 : clo_heap_admin;
}

SizeT mt_heap_admin_total_szB(void)
{
   return (SizeT)n_live * (SizeT)admin_szB();
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

/* Records p (already allocated; in a slab slot if in_slab) as live,
   charged to tid's stack. */
static void* record_block(ThreadId tid, void* p, SizeT req_szB,
                          SizeT slop_szB, Bool in_slab,
                          Bool exclude_first_entry, Bool maybe_snapshot)
{
   MtBlockRec b;
   b.addr     = (Addr)p;
   b.req_szB  = req_szB;
   b.slop_szB = slop_szB;
   b.where    = 0;
   b.tid      = tid;
   if (clo_heap)
      b.where = mt_tree_add(tid, req_szB, exclude_first_entry);
   store_rec(&b, in_slab);
   count_live(+1);

   if (clo_heap && !mt_tree_is_ignored(b.where)) {
      mt_counts_alloc(b.where, tid, (Addr)p, req_szB);
      mt_mem_update_heap(req_szB, admin_szB() + slop_szB);
      if (maybe_snapshot)
         mt_snapshot_maybe(MtNormal);
      check_limit();
   }
   return p;
}

/* Forgets p; False if p was not a live block (a bogus free). */
static Bool unrecord_block(void* p, Bool maybe_snapshot)
{
   MtBlockRec b;
   Bool       in_slab;
   if (!take_rec((Addr)p, &b, &in_slab))
      return False;
   count_live(-1);

   if (clo_heap && !mt_tree_is_ignored(b.where)) {
      /* Coming down from a possible peak: check it first. */
      if (maybe_snapshot)
         mt_snapshot_maybe(MtPeak);
      mt_mem_update_heap(-(SSizeT)b.req_szB,
                         -admin_szB() - (SSizeT)b.slop_szB);
      mt_tree_sub(b.where, b.req_szB);
      mt_counts_free(b.where, b.tid, b.addr, b.req_szB);
      if (maybe_snapshot)
         mt_snapshot_maybe(MtNormal);
   }
   return True;
}

static void* alloc_and_record(ThreadId tid, SizeT req_szB, SizeT align,
                              Bool zero, Bool exclude_first_entry)
{
   void* p;
   SizeT usable, slop_szB;
   Bool  in_slab;
   if ((SSizeT)req_szB < 0)
      return NULL;   /* huge requests fail, as in Massif */
   p = get_block(tid, req_szB, align, &usable, &in_slab);
   if (p == NULL)
      return NULL;
   slop_szB = usable - req_szB;
   if (clo_heap && mt_limit_refuse(req_szB + admin_szB() + slop_szB)) {
      put_block(p);
      return NULL;
   }
   if (zero)
      VG_(memset)(p, 0, req_szB);
   return record_block(tid, p, req_szB, slop_szB, in_slab,
                       exclude_first_entry, True);
}

/* The tail of a realloc: b (taken out of the table, of the block at p_old)
   becomes the block at p_new of new_req_szB bytes, charged to the
   realloc's stack unless the block is ignored. */
static void move_record(ThreadId tid, MtBlockRec* bp, Addr p_old, void* p_new,
                        SizeT new_req_szB, SizeT new_slop_szB,
                        Bool new_in_slab, Bool ignored,
                        Bool exclude_first_entry)
{
   MtBlockRec b = *bp;
   SizeT      old_req_szB  = b.req_szB;
   SizeT      old_slop_szB = b.slop_szB;
   Xecu       old_where;

   b.addr     = (Addr)p_new;
   b.req_szB  = new_req_szB;
   b.slop_szB = new_slop_szB;
   old_where  = b.where;
   b.where    = 0;
   if (clo_heap) {
      b.where = mt_tree_add(tid, new_req_szB, exclude_first_entry);
      if (!ignored && !mt_tree_is_ignored(b.where)) {
         mt_tree_sub(old_where, old_req_szB);
      } else {
         ignored = True;
         /* A block first allocated under an ignored function stays
            ignored, whoever reallocs it. */
         if (!mt_tree_is_ignored(b.where) && mt_tree_is_ignored(old_where))
            b.where = old_where;
      }
   }

   if (clo_heap && !ignored) {
      /* Counted as heaptrack does: a free of the old block, then an
         allocation of the new size at the realloc's stack. */
      mt_counts_free(old_where, b.tid, p_old, old_req_szB);
      mt_counts_alloc(b.where, tid, (Addr)p_new, new_req_szB);
      b.tid = tid;
   }
   /* A slab slot's record holds a thread id below 65536; a block moved
      or resized by a thread beyond that is only possible out of a slab
      (get_block checks), and in place it keeps its allocator's. */
   if (new_in_slab && !mt_slab_tid_fits(b.tid))
      b.tid = 1;
   store_rec(&b, new_in_slab);

   if (clo_heap && !ignored) {
      mt_mem_update_heap((SSizeT)new_req_szB - (SSizeT)old_req_szB,
                         (SSizeT)new_slop_szB - (SSizeT)old_slop_szB);
      mt_snapshot_maybe(MtNormal);
      check_limit();
   }
}

static void* realloc_block(ThreadId tid, void* p_old, SizeT new_req_szB,
                           SizeT align, Bool exclude_first_entry)
{
   MtBlockRec b;
   void*      p_new;
   SizeT      old_req_szB, old_slop_szB, new_slop_szB, usable;
   Bool       ignored = False, in_slab, new_in_slab;

   if (p_old == NULL)
      return alloc_and_record(tid, new_req_szB, align, False,
                              exclude_first_entry);
   if (new_req_szB == 0) {
      if (unrecord_block(p_old, True))
         put_block(p_old);
      return NULL;
   }

   if (!take_rec((Addr)p_old, &b, &in_slab))
      return NULL;   /* a bogus realloc */
   old_req_szB  = b.req_szB;
   old_slop_szB = b.slop_szB;

   if (clo_heap) {
      if (!mt_tree_is_ignored(b.where)) {
         if (new_req_szB < old_req_szB)   /* effectively a deallocation */
            mt_snapshot_maybe(MtPeak);
      } else {
         ignored = True;
      }
   }
   if (clo_heap && !ignored && new_req_szB > old_req_szB
       && mt_limit_refuse(new_req_szB - old_req_szB)) {
      /* Refused as a failed realloc: the old block stays live. */
      store_rec(&b, in_slab);
      return NULL;
   }

   if (new_req_szB <= old_req_szB + old_slop_szB
       && (align == 0 || (Addr)p_old % align == 0)) {
      p_new = p_old;
      new_in_slab = in_slab;
      new_slop_szB = old_slop_szB + (old_req_szB - new_req_szB);
   } else {
      if ((SSizeT)new_req_szB < 0)
         p_new = NULL;
      else
         p_new = get_block(tid, new_req_szB, align, &usable, &new_in_slab);
      if (p_new == NULL) {
         /* realloc failed: the old block is untouched and still live. */
         store_rec(&b, in_slab);
         return NULL;
      }
      VG_(memcpy)(p_new, p_old, old_req_szB + old_slop_szB < new_req_szB
                                ? old_req_szB + old_slop_szB : new_req_szB);
      put_block(p_old);
      new_slop_szB = usable - new_req_szB;
   }

   move_record(tid, &b, (Addr)p_old, p_new, new_req_szB, new_slop_szB,
               new_in_slab, ignored, exclude_first_entry);
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
      put_block(p);
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
      record_block(tid, (void*)arg[1], arg[2], 0, False, False, True);
      *ret = 0;
      return True;
   case VG_USERREQ__RESIZEINPLACE_BLOCK:
      /* Massif's semantics: a free then a new block at the resizer's
         stack. Unknown blocks are recorded anyway, as Massif does. */
      unrecord_block((void*)arg[1], True);
      record_block(tid, (void*)arg[1], arg[3], 0, False, False, True);
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
      put_block(p);
}

void* mt_heap_realloc(ThreadId tid, void* p, SizeT new_req_szB, SizeT align,
                      Bool zero)
{
   SizeT old_req_szB = 0;
   void* p_new;
   if (p != NULL) {
      MtBlockRec b;
      Bool       in_slab;
      if (!find_rec((Addr)p, &b, &in_slab))
         return NULL;
      old_req_szB = b.req_szB;
   }
   p_new = realloc_block(tid, p, new_req_szB, align, False);
   if (p_new != NULL && zero && new_req_szB > old_req_szB)
      VG_(memset)((HChar*)p_new + old_req_szB, 0, new_req_szB - old_req_szB);
   return p_new;
}

Bool mt_heap_resize_in_place(ThreadId tid, void* p, SizeT new_req_szB)
{
   MtBlockRec b;
   Bool       in_slab;
   if (!find_rec((Addr)p, &b, &in_slab) || new_req_szB == 0
       || new_req_szB > b.req_szB + b.slop_szB)
      return False;
   return realloc_block(tid, p, new_req_szB, 0, False) == p;
}

SizeT mt_heap_usable_size(void* p)
{
   MtBlockRec b;
   Bool       in_slab;
   return find_rec((Addr)p, &b, &in_slab) ? b.req_szB + b.slop_szB : 0;
}

Bool mt_heap_is_block(void* p)
{
   MtBlockRec b;
   Bool       in_slab;
   return find_rec((Addr)p, &b, &in_slab);
}

void mt_heap_record(ThreadId tid, Addr a, SizeT szB, Bool maybe_snapshot)
{
   record_block(tid, (void*)a, szB, 0, False, False, maybe_snapshot);
}

Bool mt_heap_unrecord(Addr a, Bool maybe_snapshot)
{
   return unrecord_block((void*)a, maybe_snapshot);
}

/*------------------------------------------------------------*/
/*--- --allocator=program: blocks the program's allocator made ---*/
/*------------------------------------------------------------*/

/* The extra bytes of a block the program's allocator made: its usable
   size minus the request, where the allocator can say. */
static SizeT observed_slop(SizeT req_szB, SizeT usable)
{
   return usable > req_szB ? usable - req_szB : 0;
}

Bool mt_heap_observe_refuse(Addr p_old, SizeT new_req_szB)
{
   MtBlockRec b;
   Bool       in_slab;
   if (!clo_heap)
      return False;
   if (p_old == 0)
      return mt_limit_refuse(new_req_szB + admin_szB());
   if (!find_rec(p_old, &b, &in_slab) || mt_tree_is_ignored(b.where)
       || new_req_szB <= b.req_szB)
      return False;
   return mt_limit_refuse(new_req_szB - b.req_szB);
}

void mt_heap_observe_alloc(ThreadId tid, Addr p, SizeT req_szB, SizeT usable,
                           Bool exclude_top)
{
   /* A live block at p: its free was not seen in time (another thread's
      moving realloc between its two reports), so it is gone now. */
   (void)unrecord_block((void*)p, True);
   record_block(tid, (void*)p, req_szB, observed_slop(req_szB, usable),
                False, exclude_top, True);
}

Bool mt_heap_observe_free(ThreadId tid, Addr p)
{
   return unrecord_block((void*)p, True);
}

Bool mt_heap_observe_realloc(ThreadId tid, Addr p_old, Addr p_new,
                             SizeT new_req_szB, SizeT usable,
                             Bool exclude_top)
{
   MtBlockRec b;
   Bool       in_slab, ignored = False;
   if (!take_rec(p_old, &b, &in_slab)) {
      mt_heap_observe_alloc(tid, p_new, new_req_szB, usable, exclude_top);
      return False;
   }
   if (p_new != p_old)
      (void)unrecord_block((void*)p_new, True);
   if (clo_heap) {
      if (!mt_tree_is_ignored(b.where)) {
         if (new_req_szB < b.req_szB)   /* effectively a deallocation */
            mt_snapshot_maybe(MtPeak);
      } else {
         ignored = True;
      }
   }
   move_record(tid, &b, p_old, (void*)p_new, new_req_szB,
               observed_slop(new_req_szB, usable), False, ignored,
               exclude_top);
   return True;
}
