/* mt_tree.h: the allocation tree. Every heap block is charged to the call
   stack that allocated it, kept in one XTree (the core's pub_tool_xtree.h,
   the same structure Massif 3.19 prints its trees with, so threshold
   merging, inlined frames and sorting come out identical). This module owns
   the stack filtering: allocation functions stripped from the top (the
   built-in list, --alloc-fn, and patterns added at run time), --ignore-fn,
   frames below main, --depth. */
#ifndef MT_TREE_H
#define MT_TREE_H

#include "pub_tool_basics.h"
#include "pub_tool_xtree.h"

extern XTree* mt_heap_xt;   /* live bytes (SizeT) per allocation stack */

void  mt_tree_init(void);                    /* pre_clo_init */
void  mt_tree_post_clo_init(void);           /* sizes the backtraces */
void  mt_alloc_fn_add_exact(const HChar* name);  /* --alloc-fn */
void  mt_ignore_fn_add(const HChar* name);       /* --ignore-fn */

/* Charges req_szB to tid's current stack; exclude_first_entry drops the
   top frame unseen (the replacement function itself). Returns the stack's
   handle in mt_heap_xt. */
Xecu  mt_tree_add(ThreadId tid, SizeT req_szB, Bool exclude_first_entry);
void  mt_tree_sub(Xecu where, SizeT req_szB);
/* True when the whole stack was filtered out (--ignore-fn): such blocks
   count nowhere. */
Bool  mt_tree_is_ignored(Xecu where);

/* Value accessor for VG_(XT_massif_print). */
ULong mt_tree_value_szB(const void* value);

#endif /* MT_TREE_H */
