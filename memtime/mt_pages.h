/* mt_pages.h: --pages-as-heap=yes, whole-process memory as Massif counts it:
   every page the client gets from mmap, mremap or brk (and the mappings it
   starts with) is a "heap block" charged to the stack that mapped it, so the
   profile's heap is the process's mapped memory and its trees say who
   mapped it. Malloc is no longer intercepted (its pages are counted when
   malloc maps them).

   One difference from Massif: Massif takes the snapshot of a munmap after
   removing only the first page of the range (and none at all when that
   page was not mapped by the client), so the profile shows memory that is
   gone until the next event, at exit possibly forever. memtime removes the
   whole range, then snapshots. Mapping over mapped pages (MAP_FIXED)
   replaces their records instead of counting them twice. */
#ifndef MT_PAGES_H
#define MT_PAGES_H

/* post_clo_init, only when clo_pages_as_heap: registers the start-up and
   brk hooks and takes memtime's preload out of LD_PRELOAD so malloc is the
   client's own. (Pages have no allocator overhead: mt_heap charges no
   --heap-admin in this mode.) */
void mt_pages_init(void);

/* mmap, mremap (moving) and munmap events, registered by mt_main.c (which
   also hands them to mt_rss.c): called only with --pages-as-heap=yes. */
#include "pub_tool_basics.h"
void mt_pages_new_mmap(Addr a, SizeT len, Bool rr, Bool ww, Bool xx,
                       ULong di_handle);
void mt_pages_copy_remap(Addr from, Addr to, SizeT len);
void mt_pages_die_munmap(Addr a, SizeT len);

#endif /* MT_PAGES_H */
