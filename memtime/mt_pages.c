/* mt_pages.c: --pages-as-heap=yes (see mt_pages.h). Each client page is one
   block in the heap model (mt_heap.h's mt_heap_record/unrecord), keyed by
   its address, so a partial munmap or mremap removes exactly the pages it
   unmaps. That costs one block per page, as in Massif; the trees then match
   Massif's page for page. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"

#include "mt_heap.h"
#include "mt_options.h"
#include "mt_pages.h"
#include "mt_snapshot.h"

/* Records the pages of [a, a+len) (a page-aligned, len a multiple of the
   page size), charged to the running thread's stack. A page already
   recorded is being mapped over (MAP_FIXED; the core reports no unmap for
   the old mapping): its old record goes first. One snapshot attempt, after
   the last page, as for one malloc. */
static void record_pages(Addr a, SizeT len)
{
   ThreadId tid = VG_(get_running_tid)();
   Addr end = a + len;
   if (len == 0) return;
   tl_assert(VG_IS_PAGE_ALIGNED(a) && VG_IS_PAGE_ALIGNED(len));
   for (; a < end; a += VKI_PAGE_SIZE) {
      if (mt_heap_is_block((void*)a))
         mt_heap_unrecord(a, False);
      mt_heap_record(tid, a, VKI_PAGE_SIZE, a + VKI_PAGE_SIZE == end);
   }
}

/* Forgets the recorded pages of [a, a+len). A peak check before the first
   page goes (as before any deallocation), and the snapshot attempt only
   after the last one: the snapshot must not show pages that are gone.
   Ranges the client never had recorded (Valgrind's own, or unmapped twice)
   change nothing and take no snapshot. */
static void unrecord_pages(Addr a, SizeT len)
{
   Addr end = a + len;
   Bool any = False;
   if (len == 0) return;
   tl_assert(VG_IS_PAGE_ALIGNED(a) && VG_IS_PAGE_ALIGNED(len));
   for (; a < end; a += VKI_PAGE_SIZE) {
      if (!mt_heap_is_block((void*)a))
         continue;
      if (!any) {
         mt_snapshot_maybe(MtPeak);
         any = True;
      }
      mt_heap_unrecord(a, False);
   }
   if (any)
      mt_snapshot_maybe(MtNormal);
}

/*------------------------------------------------------------*/
/*--- Address-space events                                 ---*/
/*------------------------------------------------------------*/

void mt_pages_new_mmap(Addr a, SizeT len, Bool rr, Bool ww, Bool xx,
                           ULong di_handle)
{
   record_pages(a, VG_PGROUNDUP(len));
}

/* The start-up mappings (executable, loader, stack) are page-sized except
   the signal-return trampoline, which the core reports at its own size. */
static void pages_new_startup(Addr a, SizeT len, Bool rr, Bool ww, Bool xx,
                              ULong di_handle)
{
   record_pages(VG_PGROUNDDN(a), VG_PGROUNDUP(a + len) - VG_PGROUNDDN(a));
}

/* mremap that moves: the pages leave 'from' and appear at 'to', charged to
   the mremap's stack (as Massif). Growth and shrinking in place arrive as
   new_mmap / munmap events. */
void mt_pages_copy_remap(Addr from, Addr to, SizeT len)
{
   unrecord_pages(from, VG_PGROUNDUP(len));
   record_pages(to, VG_PGROUNDUP(len));
}

void mt_pages_die_munmap(Addr a, SizeT len)
{
   unrecord_pages(a, VG_PGROUNDUP(len));
}

/* The break moves from a to a+len. The page holding byte a-1 was counted
   when the break first entered it, so the new pages start at a rounded
   up. (Massif starts at a rounded down: the same byte count, but the
   wrong page, which it then counts twice.) */
static void pages_new_brk(Addr a, SizeT len, ThreadId tid)
{
   record_pages(VG_PGROUNDUP(a), VG_PGROUNDUP(a + len) - VG_PGROUNDUP(a));
}

/* The break moves down from a+len to a: the pages above the one holding
   byte a-1 go. */
static void pages_die_brk(Addr a, SizeT len)
{
   unrecord_pages(VG_PGROUNDUP(a), VG_PGROUNDUP(a + len) - VG_PGROUNDUP(a));
}

/*------------------------------------------------------------*/
/*--- Set-up                                               ---*/
/*------------------------------------------------------------*/

/* Removes the "...vgpreload_memtime-<platform>.so" entry from LD_PRELOAD,
   in place (the client's environment is built from it after tool
   initialisation). Without it the client's malloc is its own, and the
   pages it maps are what we count. */
static void remove_preload(void)
{
   HChar* val = VG_(getenv)(VG_(LD_PRELOAD_var_name));
   HChar *start, *end;
   if (val == NULL) return;
   start = VG_(strstr)(val, "vgpreload_memtime");
   if (start == NULL) return;
   while (start > val && start[-1] != ':') start--;
   for (end = start; *end != ':' && *end != '\0'; end++) { }
   if (*end == ':') end++;                    /* take its separator */
   else if (start > val) start--;             /* last entry: the one before */
   VG_(memmove)(start, end, VG_(strlen)(end) + 1);
}

void mt_pages_init(void)
{
   tl_assert(clo_pages_as_heap);
   remove_preload();
   VG_(track_new_mem_startup)(pages_new_startup);
   VG_(track_new_mem_brk)    (pages_new_brk);
   VG_(track_die_mem_brk)    (pages_die_brk);
}
