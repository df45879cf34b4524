/* mt_slab.c: the client's small blocks under --compact-heap=yes
   (mt_slab.h).

   Why: a block from Valgrind's client arena carries 32 bytes of the
   arena's own (size words and free-list links at both ends) and the heap
   model kept a 48-byte node and a hash chain for it: about 75 bytes per
   block beside the program's, the whole cost of a heap of small blocks.
   Here a block is a slot of a 64 KB slab holding blocks of one usable
   size, and its record (stack, requested size, thread) is 8 bytes in an
   array beside the slab, found by the slot's index: no header in client
   memory, no table entry, no rehash ever.

   Each usable size (the client arena's: the request rounded up to 16
   bytes, so slop and malloc_usable_size are what Massif reports, but for
   the 16 bytes more the arena hands out when a free block is too small
   to split: its state, which a slab cannot know) has a list of its slabs with free slots; a freed slot is reused first (LIFO,
   the warmest). A slab whose last block goes is given back to the pool of
   free slabs (any size takes it) unless it is its size's only one, so a
   size that comes and goes does not rebuild its slab each time.

   Slabs are carved, 64 KB-aligned, from chunks of 4 MB taken from the
   client arena (client memory, as the blocks were). A slab is found from
   an address by its 64 KB frame, in a small open-addressing map of one
   entry per slab (a 10-million-block heap has a few thousand): growing it
   rehashes those few thousand entries, not the blocks. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_replacemalloc.h"

#include "mt_slab.h"

#define SLAB_SHIFT   16
#define SLAB_BYTES   ((SizeT)1 << SLAB_SHIFT)
#define CHUNK_SLABS  64
/* The client arena's payload alignment on amd64 (the core's
   VG_MIN_MALLOC_SZB, not exported to tools): requests round up to it. */
#define ARENA_ALIGN  16
#define N_CLASSES    (MT_SLAB_MAX_REQ / ARENA_ALIGN + 1)
#define NO_SLOT      0xFFFFFFFFu
#define TID_FREE     0          /* no thread is 0 (VG_INVALID_THREADID) */
#define TID_BLANK    0xFFFF     /* allocated, record not set yet */

/* A slot's record. A free slot's where is the next free slot. */
typedef struct {
   UInt   where;
   UShort req;
   UShort tid;
} Slot;

typedef struct Slab {
   Addr         base;
   Slot*        slots;      /* NULL while the slab is free */
   UInt         n_slots, n_live;
   UInt         free_head;  /* a freed slot, or NO_SLOT */
   UInt         bump;       /* slots from here on were never used */
   UInt         cls;
   UInt         stride;
   struct Slab* next;       /* its class's list, or the free slabs */
   struct Slab* prev;
   Bool         listed;     /* in its class's list of slabs with room */
} Slab;

static Slab*  with_room[N_CLASSES];
static UInt   n_in_class[N_CLASSES];
static Slab*  free_slabs;
static Addr   chunk_next, chunk_end;   /* the chunk being carved */

static Slab** map;          /* by 64 KB frame */
static UInt   map_bits;
static UWord  n_slabs;

static ULong  n_live_total, slot_bytes;

SizeT mt_slab_usable(SizeT req_szB)
{
   return (req_szB + ARENA_ALIGN - 1) & ~(SizeT)(ARENA_ALIGN - 1);
}

Bool mt_slab_tid_fits(ThreadId tid)
{
   return tid != TID_FREE && tid < TID_BLANK;
}

static UWord map_home(Addr frame)
{
   return (UWord)(((ULong)frame * 0x9E3779B97F4A7C15ULL) >> (64 - map_bits));
}

static void map_put(Slab* s)
{
   UWord mask = ((UWord)1 << map_bits) - 1, i = map_home(s->base >> SLAB_SHIFT);
   while (map[i] != NULL)
      i = (i + 1) & mask;
   map[i] = s;
}

static void map_grow(void)
{
   Slab** was = map;
   UWord  i, size = was ? (UWord)1 << map_bits : 0;
   map_bits = was ? map_bits + 1 : 10;
   map = VG_(calloc)("mt.slab.map", (UWord)1 << map_bits, sizeof(Slab*));
   for (i = 0; i < size; i++)
      if (was[i] != NULL)
         map_put(was[i]);
   if (was)
      VG_(free)(was);
}

static Slab* map_find(Addr a)
{
   Addr  frame = a >> SLAB_SHIFT;
   UWord mask, i;
   if (map == NULL)
      return NULL;
   mask = ((UWord)1 << map_bits) - 1;
   for (i = map_home(frame); map[i] != NULL; i = (i + 1) & mask)
      if (map[i]->base >> SLAB_SHIFT == frame)
         return map[i];
   return NULL;
}

void mt_slab_init(void)
{
   map_grow();
}

/* A new empty slab: a free one, else carved from the chunk. */
static Slab* take_slab(void)
{
   Slab* s = free_slabs;
   if (s != NULL) {
      free_slabs = s->next;
      return s;
   }
   if (chunk_next + SLAB_BYTES > chunk_end) {
      /* Unaligned from the arena: one slab's worth more than needed. */
      SizeT szB = (CHUNK_SLABS + 1) * SLAB_BYTES;
      void* p = VG_(cli_malloc)(ARENA_ALIGN, szB);
      if (p == NULL)
         return NULL;
      chunk_next = ((Addr)p + SLAB_BYTES - 1) & ~(Addr)(SLAB_BYTES - 1);
      chunk_end  = (Addr)p + szB;
   }
   s = VG_(calloc)("mt.slab.slab", 1, sizeof(Slab));
   s->base = chunk_next;
   chunk_next += SLAB_BYTES;
   if ((n_slabs + 1) * 2 > ((UWord)1 << map_bits))
      map_grow();
   map_put(s);
   n_slabs++;
   return s;
}

static void list_add(Slab* s)
{
   s->prev = NULL;
   s->next = with_room[s->cls];
   if (s->next)
      s->next->prev = s;
   with_room[s->cls] = s;
   s->listed = True;
}

static void list_remove(Slab* s)
{
   if (s->prev) s->prev->next = s->next;
   else with_room[s->cls] = s->next;
   if (s->next) s->next->prev = s->prev;
   s->next = s->prev = NULL;
   s->listed = False;
}

void* mt_slab_alloc(SizeT req_szB)
{
   UInt  cls = (UInt)(mt_slab_usable(req_szB) / ARENA_ALIGN), idx;
   Slab* s;
   tl_assert(req_szB <= MT_SLAB_MAX_REQ);
   s = with_room[cls];
   if (s == NULL) {
      if ((s = take_slab()) == NULL)
         return NULL;
      s->cls       = cls;
      s->stride    = cls ? cls * ARENA_ALIGN : ARENA_ALIGN;
      s->n_slots   = (UInt)(SLAB_BYTES / s->stride);
      s->n_live    = 0;
      s->free_head = NO_SLOT;
      s->bump      = 0;
      s->slots     = VG_(malloc)("mt.slab.slots", s->n_slots * sizeof(Slot));
      slot_bytes  += s->n_slots * sizeof(Slot);
      n_in_class[cls]++;
      list_add(s);
   }
   if (s->free_head != NO_SLOT) {
      idx = s->free_head;
      s->free_head = s->slots[idx].where;
   } else {
      idx = s->bump++;
   }
   s->slots[idx].where = 0;
   s->slots[idx].req   = 0;
   s->slots[idx].tid   = TID_BLANK;
   if (++s->n_live == s->n_slots)
      list_remove(s);
   n_live_total++;
   return (void*)(s->base + (Addr)idx * s->stride);
}

Bool mt_slab_contains(Addr a)
{
   return map_find(a) != NULL;
}

/* The live slot at a, or NULL; its slab in *sp. */
static Slot* live_slot(Addr a, Slab** sp)
{
   Slab* s = map_find(a);
   UWord off, idx;
   if (s == NULL || s->slots == NULL)
      return NULL;
   off = a - s->base;
   idx = off / s->stride;
   if (off % s->stride != 0 || idx >= s->bump
       || s->slots[idx].tid == TID_FREE)
      return NULL;
   *sp = s;
   return &s->slots[idx];
}

Bool mt_slab_get(Addr a, MtBlockRec* r)
{
   Slab* s;
   Slot* slot = live_slot(a, &s);
   if (slot == NULL || slot->tid == TID_BLANK)
      return False;
   r->addr     = a;
   r->req_szB  = slot->req;
   r->slop_szB = (s->cls * ARENA_ALIGN) - slot->req;
   r->where    = slot->where;
   r->tid      = slot->tid;
   return True;
}

void mt_slab_unset(Addr a)
{
   Slab* s;
   Slot* slot = live_slot(a, &s);
   if (slot != NULL)
      slot->tid = TID_BLANK;
}

void mt_slab_set(const MtBlockRec* r)
{
   Slab* s;
   Slot* slot = live_slot(r->addr, &s);
   tl_assert(slot != NULL);
   tl_assert(r->req_szB <= s->cls * ARENA_ALIGN);
   tl_assert(mt_slab_tid_fits(r->tid));
   slot->where = r->where;
   slot->req   = (UShort)r->req_szB;
   slot->tid   = (UShort)r->tid;
}

Bool mt_slab_free(Addr a)
{
   Slab* s;
   Slot* slot = live_slot(a, &s);
   if (slot == NULL)
      return False;
   slot->tid   = TID_FREE;
   slot->where = s->free_head;
   s->free_head = (UInt)(slot - s->slots);
   n_live_total--;
   if (!s->listed)
      list_add(s);
   if (--s->n_live == 0 && n_in_class[s->cls] > 1) {
      /* Empty, and not its size's last slab: back to the free slabs. */
      list_remove(s);
      n_in_class[s->cls]--;
      slot_bytes -= s->n_slots * sizeof(Slot);
      VG_(free)(s->slots);
      s->slots = NULL;
      s->next = free_slabs;
      free_slabs = s;
   }
   return True;
}

void mt_slab_stats(ULong* n_live, ULong* client_bytes, ULong* own_bytes,
                   ULong* n_slabs_out)
{
   *n_live       = n_live_total;
   *client_bytes = (ULong)n_slabs * SLAB_BYTES;
   *own_bytes    = slot_bytes + (ULong)n_slabs * sizeof(Slab)
                   + ((ULong)sizeof(Slab*) << map_bits);
   *n_slabs_out  = n_slabs;
}
