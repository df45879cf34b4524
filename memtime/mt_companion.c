/* mt_companion.c: keeps the phase marks and writes "<profile>.memtime", the
   companion file holding what the Massif format cannot (marks, per-thread
   stacks, resident memory: mt_rss.c writes its own records;
   allocation counts come from mt_counts.c). The format is in mt_companion.h and docs/file-format.md; the
   file itself is written by mt_file (checked writes, renamed into place
   with the profile as one set). */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#include "mt_companion.h"
#include "mt_counts.h"
#include "mt_file.h"
#include "mt_limit.h"
#include "mt_options.h"
#include "mt_rss.h"
#include "mt_process.h"
#include "mt_stacks.h"

/*------------------------------------------------------------*/
/*--- Marks                                                ---*/
/*------------------------------------------------------------*/

typedef struct { ULong time; HChar* label; } Mark;

static Mark* marks;
static UInt  n_marks, max_marks;

void mt_companion_add_mark(ULong time, const HChar* label)
{
   HChar* copy;
   Int i;
   if (n_marks == max_marks) {
      max_marks = max_marks ? 2 * max_marks : 16;
      marks = VG_(realloc)("mt.companion.marks", marks, max_marks * sizeof *marks);
   }
   copy = VG_(strdup)("mt.companion.label", label ? label : "");
   /* One mark, one line: control characters (a newline would start a new,
      bogus line) become spaces. */
   for (i = 0; copy[i]; i++)
      if ((UChar)copy[i] < 0x20 || copy[i] == 0x7f) copy[i] = ' ';
   marks[n_marks].time  = time;
   marks[n_marks].label = copy;
   n_marks++;
}

void mt_companion_clear_marks(void)
{
   UInt i;
   for (i = 0; i < n_marks; i++)
      VG_(free)(marks[i].label);
   n_marks = 0;
}

/*------------------------------------------------------------*/
/*--- Rewrites                                             ---*/
/*------------------------------------------------------------*/

static const HChar* base_name(const HChar* path)
{
   const HChar* slash = VG_(strrchr)(path, '/');
   return slash ? slash + 1 : path;
}

void mt_companion_line(MtFile* c, const HChar* kind, const HChar* fmt, ...)
{
   va_list vargs;
   if (c == NULL)
      return;
   mt_file_printf(c, "%s: ", kind);
   va_start(vargs, fmt);
   mt_file_vprintf(c, fmt, vargs);
   va_end(vargs);
   mt_file_puts(c, "\n");
}

MtFile* mt_companion_open(const HChar* profile_path, const HChar* time_unit)
{
   /* The companion path already cleared of a stale file (see below). */
   static HChar* checked_path = NULL;
   MtFile* c;
   SizeT len = VG_(strlen)(profile_path);
   HChar* path = VG_(malloc)("mt.companion.path", len + sizeof ".memtime");
   UInt i, n_threads;

   VG_(sprintf)(path, "%s.memtime", profile_path);
   if (!clo_stacks && n_marks == 0 && !mt_rss_any()
       && !mt_counts_any() && !mt_process_has_story() && !mt_limit_any()) {
      /* Nothing to say. A companion of the same name left by an earlier run
         would be read with this profile: remove it, once per name (after
         that nobody but us writes it; a forked child has a new name). */
      if (checked_path == NULL || VG_(strcmp)(checked_path, path) != 0) {
         VG_(unlink)(path);
         if (checked_path) VG_(free)(checked_path);
         checked_path = path;
      } else {
         VG_(free)(path);
      }
      return NULL;
   }

   c = mt_file_open(path);
   VG_(free)(path);
   mt_companion_line(c, "memtime-companion", "1");
   mt_companion_line(c, "profile", "%s", base_name(profile_path));
   mt_companion_line(c, "time_unit", "%s", time_unit);
   n_threads = mt_stacks_n_threads_seen();
   if (clo_stacks) mt_stacks_refresh_names();
   for (i = 1; i <= n_threads; i++) {
      const HChar* name = mt_stacks_thread_name(i);
      if (name) mt_companion_line(c, "thread", "tid=%u name=%s", i, name);
      else      mt_companion_line(c, "thread", "tid=%u", i);
   }
   for (i = 0; i < n_marks; i++)
      mt_companion_line(c, "mark", "time=%llu %s", marks[i].time,
                        marks[i].label);
   mt_counts_companion(c);
   mt_process_companion(c);
   mt_limit_companion(c);
   return c;
}

void mt_companion_snapshot(MtFile* c, UInt snapshot_n, ULong time,
                           const MtStackSample* s)
{
   UInt i;
   if (c == NULL || s == NULL) return;
   mt_file_printf(c, "stacks: snapshot=%u time=%llu", snapshot_n, time);
   for (i = 0; i < s->n_threads; i++)
      mt_file_printf(c, " %u=%lu", s->threads[i].thread_no, s->threads[i].szB);
   mt_file_puts(c, "\n");
}
