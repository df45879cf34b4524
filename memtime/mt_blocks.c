/* mt_blocks.c: the table of live blocks outside the slabs (mt_blocks.h).

   Open addressing with linear probing, keyed by address: a record is its
   own slot (32 bytes), nothing else per block, where the core's hash
   table costs a 48-byte node, its chain pointer and the bucket array.
   The blocks here are the big ones (over mt_slab.h's limit), so 32 bytes
   at a load between 3/8 and 3/4 stays a small share of what they hold.

   Growing never pauses the program: past 3/4 full, a table twice the
   size takes new records while every insertion and removal moves the
   next MIGRATE_STEP slots of the old one over. The old table then holds
   fewer than 3/8 of the new one's slots in records and is emptied long
   before the new one fills (3/4 of twice the size, with 3/8 to go, and
   MIGRATE_STEP >= 2 slots moved per insertion). A lookup during the move
   searches both. Removal shifts the following records back in the
   current table (no tombstones: probes stay short however long the run),
   and leaves a tombstone in the old one, whose probes must still pass it.

   Duplicates (a custom allocator's block at the address of the malloc'd
   pool it carves) are rare: the older record waits in a small list and
   comes back when the newer one goes. Addresses 0 and 1 (the empty and
   tombstone keys) live in that list too. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

#include "mt_blocks.h"

#define EMPTY        ((Addr)0)
#define TOMB         ((Addr)1)
#define MIGRATE_STEP 8
#define FIRST_BITS   10

typedef struct {
   MtBlockRec* s;
   UInt        bits;
   UWord       n;       /* records in it */
} Tab;

static Tab   cur, old;            /* old.s != NULL while migrating */
static UWord migrate_pos;

static MtBlockRec* hidden;         /* older duplicates, keys 0 and 1 */
static UWord       n_hidden, cap_hidden;

static UWord home(const Tab* t, Addr a)
{
   return (UWord)(((ULong)(a >> 4) * 0x9E3779B97F4A7C15ULL) >> (64 - t->bits));
}

static void tab_alloc(Tab* t, UInt bits)
{
   SizeT szB = sizeof(MtBlockRec) << bits;
   t->s    = VG_(malloc)("mt.blocks.table", szB);
   t->bits = bits;
   t->n    = 0;
   VG_(memset)(t->s, 0, szB);   /* EMPTY is 0 */
}

void mt_blocks_init(void)
{
   tab_alloc(&cur, FIRST_BITS);
}

/* Index of a's record in t, or -1. */
static Word tab_find(const Tab* t, Addr a)
{
   UWord mask = ((UWord)1 << t->bits) - 1, i = home(t, a);
   while (t->s[i].addr != EMPTY) {
      if (t->s[i].addr == a)
         return (Word)i;
      i = (i + 1) & mask;
   }
   return -1;
}

/* r's key is not in t (the caller checked). */
static void tab_put(Tab* t, const MtBlockRec* r)
{
   UWord mask = ((UWord)1 << t->bits) - 1, i = home(t, r->addr);
   while (t->s[i].addr != EMPTY)
      i = (i + 1) & mask;
   t->s[i] = *r;
   t->n++;
}

/* Removes slot i of the current table, shifting back the records after it
   whose probe passed through i. */
static void cur_delete(UWord i)
{
   UWord mask = ((UWord)1 << cur.bits) - 1, j = i;
   for (;;) {
      UWord h;
      j = (j + 1) & mask;
      if (cur.s[j].addr == EMPTY)
         break;
      h = home(&cur, cur.s[j].addr);
      /* The record at j stays if its home lies cyclically in (i, j]. */
      if (i <= j ? (h > i && h <= j) : (h > i || h <= j))
         continue;
      cur.s[i] = cur.s[j];
      i = j;
   }
   cur.s[i].addr = EMPTY;
   cur.n--;
}

static void migrate_some(void)
{
   UWord k, size;
   if (old.s == NULL)
      return;
   size = (UWord)1 << old.bits;
   for (k = 0; k < MIGRATE_STEP && migrate_pos < size; k++, migrate_pos++) {
      MtBlockRec* r = &old.s[migrate_pos];
      if (r->addr != EMPTY && r->addr != TOMB) {
         tab_put(&cur, r);
         r->addr = TOMB;   /* later probes in old must pass it */
         old.n--;
      }
   }
   if (migrate_pos == size) {
      tl_assert(old.n == 0);
      VG_(free)(old.s);
      old.s = NULL;
   }
}

static void maybe_grow(void)
{
   if (old.s != NULL || (cur.n + 1) * 4 <= ((UWord)3 << cur.bits))
      return;
   old = cur;
   migrate_pos = 0;
   tab_alloc(&cur, old.bits + 1);
}

static void hide(const MtBlockRec* r)
{
   if (n_hidden == cap_hidden) {
      cap_hidden = cap_hidden ? 2 * cap_hidden : 8;
      hidden = VG_(realloc)("mt.blocks.hidden", hidden,
                            cap_hidden * sizeof(MtBlockRec));
   }
   hidden[n_hidden++] = *r;
}

/* The latest hidden record at a, or -1. */
static Word hidden_find(Addr a)
{
   Word i;
   for (i = (Word)n_hidden - 1; i >= 0; i--)
      if (hidden[i].addr == a)
         return i;
   return -1;
}

static void hidden_drop(Word i)
{
   VG_(memmove)(&hidden[i], &hidden[i + 1],
                (n_hidden - (UWord)i - 1) * sizeof(MtBlockRec));
   n_hidden--;
}

void mt_blocks_insert(const MtBlockRec* r)
{
   Word i;
   migrate_some();
   if (r->addr == EMPTY || r->addr == TOMB) {
      hide(r);
      return;
   }
   if ((i = tab_find(&cur, r->addr)) >= 0) {
      hide(&cur.s[i]);
      cur.s[i] = *r;
      return;
   }
   if (old.s != NULL && (i = tab_find(&old, r->addr)) >= 0) {
      hide(&old.s[i]);
      old.s[i].addr = TOMB;
      old.n--;
   }
   maybe_grow();
   tab_put(&cur, r);
}

Bool mt_blocks_lookup(Addr a, MtBlockRec* r)
{
   Word i;
   if (a != EMPTY && a != TOMB) {
      if ((i = tab_find(&cur, a)) >= 0) {
         *r = cur.s[i];
         return True;
      }
      if (old.s != NULL && (i = tab_find(&old, a)) >= 0) {
         *r = old.s[i];
         return True;
      }
   }
   if (n_hidden > 0 && (i = hidden_find(a)) >= 0) {
      *r = hidden[i];
      return True;
   }
   return False;
}

Bool mt_blocks_remove(Addr a, MtBlockRec* r)
{
   MtBlockRec gone;
   Word i, h;
   migrate_some();
   if (a == EMPTY || a == TOMB) {
      if (n_hidden == 0 || (h = hidden_find(a)) < 0)
         return False;
      if (r) *r = hidden[h];
      hidden_drop(h);
      return True;
   }
   if ((i = tab_find(&cur, a)) >= 0) {
      gone = cur.s[i];
      cur_delete((UWord)i);
   } else if (old.s != NULL && (i = tab_find(&old, a)) >= 0) {
      gone = old.s[i];
      old.s[i].addr = TOMB;
      old.n--;
   } else {
      return False;
   }
   if (r) *r = gone;
   /* An older record at the same address shows again. */
   if (n_hidden > 0 && (h = hidden_find(a)) >= 0) {
      MtBlockRec back = hidden[h];
      hidden_drop(h);
      maybe_grow();
      tab_put(&cur, &back);
   }
   return True;
}

void mt_blocks_stats(ULong* n_recs, ULong* n_slots, ULong* bytes)
{
   ULong slots = (ULong)1 << cur.bits;
   if (old.s != NULL)
      slots += (ULong)1 << old.bits;
   *n_recs  = cur.n + old.n + n_hidden;
   *n_slots = slots;
   *bytes   = (slots + cap_hidden) * sizeof(MtBlockRec);
}
