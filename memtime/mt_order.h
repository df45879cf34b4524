/* mt_order.h: a sorted array kept across rewrites that grows by batches
   (mt_order.c). The stacks' printing order (mt_tree.c) and the counts'
   order by site (mt_counts.c) are both kept this way: a stack never
   changes, so only the stacks made since the last rewrite are sorted, and
   merged in. */
#ifndef MT_ORDER_H
#define MT_ORDER_H

#include "pub_tool_basics.h"

typedef struct {
   void*        elems;     /* n elements of sz bytes, sorted by cmp */
   UInt         n, max;
   SizeT        sz;
   const HChar* cc;        /* the allocation's cost centre */
   Int        (*cmp)(const void*, const void*);
} MtOrder;

#define MT_ORDER_INIT(type, cc, cmp) { NULL, 0, 0, sizeof(type), (cc), (cmp) }

/* Sorts the n_new elements at fresh (they are reordered) and merges them
   into o: O(n + n_new log n_new), in place when o has room. */
void mt_order_add(MtOrder* o, void* fresh, UInt n_new);

#endif
