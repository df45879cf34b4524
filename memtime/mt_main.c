/* memtime: placeholder tool body used while the skeleton is built. */
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

static void mt_post_clo_init(void) { }
static IRSB* mt_instrument(VgCallbackClosure* closure, IRSB* bb,
                           const VexGuestLayout* layout,
                           const VexGuestExtents* vge,
                           const VexArchInfo* archinfo_host,
                           IRType gWordTy, IRType hWordTy)
{ return bb; }
static void mt_fini(Int exitcode) { }
static void mt_pre_clo_init(void)
{
   VG_(details_name)            ("memtime");
   VG_(details_version)         ("0.1.0");
   VG_(details_description)     ("a memory-timeline profiler");
   VG_(details_copyright_author)("Copyright (C) 2026 the memtime authors.");
   VG_(details_bug_reports_to)  ("the memtime issue tracker");
   VG_(basic_tool_funcs)        (mt_post_clo_init, mt_instrument, mt_fini);
}
VG_DETERMINE_INTERFACE_VERSION(mt_pre_clo_init)
