/* mt_limit.c: --heap-limit and --heap-limit-action (see mt_limit.h).

   The check is on the total a snapshot would record, taken right where the
   heap model changes it (mt_heap.c), so the crossing is exact to the byte
   and the detailed snapshot of the moment holds the block that crossed.
   Only the first crossing acts (kill and snapshot): a program that frees and
   crosses again is not snapshotted again, the way a user asks "show me the
   tree when it first passed 2 GiB". With fail, every allocation that would
   cross is refused, for as long as the total stays near the limit. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "mt_companion.h"
#include "mt_compat.h"
#include "mt_limit.h"
#include "mt_marks.h"
#include "mt_options.h"
#include "mt_snapshot.h"
#include "mt_time.h"

static Bool  reached = False;     /* the limit was crossed (or refused) */
static ULong reached_time = 0;    /* when, in the profile's time unit */
static ULong n_refused = 0;       /* allocations refused (fail) */

/* What a snapshot taken now would count. */
static ULong live_total(void)
{
   return (ULong)mt_snapshot_total_szB();
}

static const HChar* action_name(void)
{
   switch (clo_heap_limit_action) {
   case MtLimitKill:     return "kill";
   case MtLimitFail:     return "fail";
   case MtLimitSnapshot: return "snapshot";
   }
   return "?";
}

/* The mark of the crossing; its label is the interface users grep for. */
static void mark_reached(void)
{
   HChar label[96];
   reached = True;
   /* The size as the user wrote it (bounded: the option is the user's). */
   VG_(snprintf)(label, sizeof label, "heap limit %.40s reached",
                 clo_heap_limit_text ? clo_heap_limit_text : "");
   mt_marks_add(label);
   reached_time = mt_snapshot_started() ? (ULong)mt_time_now() : 0;
}

Bool mt_limit_refuse(SizeT add_szB)
{
   if (clo_heap_limit_szB == 0 || clo_heap_limit_action != MtLimitFail)
      return False;
   if (live_total() + add_szB <= clo_heap_limit_szB)
      return False;
   if (!reached) {
      mark_reached();
      VG_(umsg)("memtime: heap limit of %llu bytes reached: refusing an "
                "allocation of %lu bytes (--heap-limit-action=fail); later "
                "refusals are only counted\n",
                clo_heap_limit_szB, (unsigned long)add_szB);
   }
   n_refused++;
   mt_snapshot_touch();   /* the companion changed */
   return True;
}

Bool mt_limit_after_alloc(void)
{
   if (clo_heap_limit_szB == 0 || reached
       || clo_heap_limit_action == MtLimitFail
       || live_total() <= clo_heap_limit_szB)
      return False;
   mark_reached();
   mt_snapshot_now(True);
   if (clo_heap_limit_action == MtLimitSnapshot) {
      VG_(umsg)("memtime: heap limit of %llu bytes reached (total %llu): "
                "detailed snapshot taken, the program goes on\n",
                clo_heap_limit_szB, live_total());
      return False;
   }
   VG_(umsg)("memtime: heap limit of %llu bytes reached (total %llu): "
             "writing the profile and ending the program with SIGKILL, as "
             "the OOM killer would (--heap-limit-action=kill)\n",
             clo_heap_limit_szB, live_total());
   return True;
}

void mt_limit_kill(void)
{
   /* The tool API has no kill(); the raw call is in mt_compat.h. */
   VG_(do_syscall)(__NR_kill, (UWord)VG_(getpid)(), VKI_SIGKILL,
                   0, 0, 0, 0, 0, 0);
   /* SIGKILL cannot be caught: not reached. */
   VG_(exit)(137);
}

Bool mt_limit_any(void)
{
   return clo_heap_limit_szB != 0;
}

void mt_limit_companion(MtFile* c)
{
   if (clo_heap_limit_szB == 0)
      return;
   if (reached)
      mt_companion_record(c, MtRecHeapLimit, "bytes=%llu action=%s time=%llu "
                          "refused=%llu", clo_heap_limit_szB, action_name(),
                          reached_time, n_refused);
   else
      mt_companion_record(c, MtRecHeapLimit, "bytes=%llu action=%s time=none "
                          "refused=0", clo_heap_limit_szB, action_name());
}
