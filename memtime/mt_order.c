/* mt_order.c: a sorted array that grows by sorted batches (mt_order.h).

   Why merge rather than sort it all again: at a rewrite, a big program
   (rustc) has hundreds of thousands of stacks and adds a few hundred;
   sorting every stack at every rewrite was measured at several percent of
   its run, merging the new ones costs one pass. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

#include "mt_order.h"

static inline void* at(const MtOrder* o, void* base, UInt i)
{
   return (UChar*)base + (SizeT)i * o->sz;
}

void mt_order_add(MtOrder* o, void* fresh, UInt n_new)
{
   UInt i, j, k;
   void* merged;
   if (n_new == 0)
      return;
   VG_(ssort)(fresh, n_new, o->sz, o->cmp);
   if (o->n + n_new > o->max) {
      o->max = 2 * (o->n + n_new);
      merged = VG_(malloc)(o->cc, (SizeT)o->max * o->sz);
   } else {
      merged = o->elems;
   }
   /* From the end, so that it works in place: an element is never written
      before it was read. */
   i = o->n;
   j = n_new;
   k = o->n + n_new;
   while (j > 0) {
      if (i > 0 && o->cmp(at(o, o->elems, i - 1), at(o, fresh, j - 1)) > 0)
         VG_(memcpy)(at(o, merged, --k), at(o, o->elems, --i), o->sz);
      else
         VG_(memcpy)(at(o, merged, --k), at(o, fresh, --j), o->sz);
   }
   if (merged != o->elems) {
      if (i > 0)
         VG_(memcpy)(merged, o->elems, (SizeT)i * o->sz);
      if (o->elems != NULL)
         VG_(free)(o->elems);
      o->elems = merged;
   }
   o->n += n_new;
}
