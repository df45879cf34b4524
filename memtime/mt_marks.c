/* mt_marks.c: phase marks and snapshots requested by the client or through
   vgdb (see mt_marks.h). This module reads labels out of client memory,
   stamps them with the time, keeps them, writes them as the companion's
   mark: records, and keeps the output writer informed. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#include "memtime.h"
#include "mt_companion.h"
#include "mt_marks.h"
#include "mt_options.h"
#include "mt_snapshot.h"
#include "mt_time.h"

/* The ms clock is cached between reads (mt_time.h): read it now so a mark
   or a requested snapshot is stamped when it happens, not up to a few
   milliseconds earlier. The other units are exact already. */
static void read_clock_now(void)
{
   if (clo_time_unit == TimeMS && mt_snapshot_started())
      mt_time_tick(0, True);
}

typedef struct { ULong time; HChar* label; } Mark;

static Mark* marks;
static UInt  n_marks, max_marks;

static void keep_mark(ULong time, const HChar* label)
{
   HChar* copy;
   Int i;
   if (n_marks == max_marks) {
      max_marks = max_marks ? 2 * max_marks : 16;
      marks = VG_(realloc)("mt.marks.list", marks, max_marks * sizeof *marks);
   }
   copy = VG_(strdup)("mt.marks.label", label);
   /* One mark, one line: control characters (a newline would start a new,
      bogus line) become spaces. */
   for (i = 0; copy[i]; i++)
      if ((UChar)copy[i] < 0x20 || copy[i] == 0x7f) copy[i] = ' ';
   marks[n_marks].time  = time;
   marks[n_marks].label = copy;
   n_marks++;
}

void mt_marks_add(const HChar* label)
{
   read_clock_now();
   /* Before the first snapshot the clock has not started: such a mark is
      at time 0, where the profile begins. */
   keep_mark(mt_snapshot_started() ? (ULong)mt_time_now() : 0,
             label ? label : "");
   /* The companion changed: the next periodic rewrite must happen even if
      no snapshot is taken meanwhile. */
   mt_snapshot_touch();
}

void mt_marks_clear(void)
{
   UInt i;
   for (i = 0; i < n_marks; i++)
      VG_(free)(marks[i].label);
   n_marks = 0;
}

Bool mt_marks_any(void)
{
   return n_marks > 0;
}

void mt_marks_companion(MtFile* c)
{
   UInt i;
   for (i = 0; i < n_marks; i++)
      mt_companion_record(c, MtRecMark, "time=%llu %s", marks[i].time,
                          marks[i].label);
}

void mt_marks_snapshot(void)
{
   read_clock_now();
   mt_snapshot_now(True);
}

/* Copies the client's NUL-terminated string at 'a' into buf (size n),
   reading only bytes the client can read: checked a page at a time, so a
   label costs one address-space lookup per page it touches. */
void mt_marks_copy_client_string(Addr a, HChar* buf, SizeT n)
{
   SizeT i = 0;
   Addr checked_end = a;   /* [a, checked_end) is known readable */

   while (a != 0 && i + 1 < n) {
      Addr p = a + i;
      if (p >= checked_end) {
         Addr page_end = VG_PGROUNDDN(p) + VKI_PAGE_SIZE;
         if (!VG_(am_is_valid_for_client)(p, page_end - p, VKI_PROT_READ))
            break;
         checked_end = page_end;
      }
      if (*(const HChar*)p == '\0')
         break;
      buf[i++] = *(const HChar*)p;
   }
   buf[i] = '\0';
}

Bool mt_marks_handle_client_request(ThreadId tid, UWord* arg, UWord* ret)
{
   switch (arg[0]) {
   case MEMTIME_REQ_MARK: {
      HChar label[MT_MARK_MAX_LABEL + 1];
      mt_marks_copy_client_string((Addr)arg[1], label, sizeof label);
      mt_marks_add(label);
      *ret = 1;
      return True;
   }
   case MEMTIME_REQ_SNAPSHOT:
      mt_marks_snapshot();
      *ret = 1;
      return True;
   default:
      return False;
   }
}
