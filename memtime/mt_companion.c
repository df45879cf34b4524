/* mt_companion.c: writes the lines of "<profile>.memtime", the companion
   file holding what the Massif format cannot (see mt_companion.h for the
   record kinds, docs/file-format.md for their meaning). It knows the
   header and the names of the record kinds, nothing of what they say: the
   modules that own the facts write their records through it. The file
   itself is written by mt_file (checked writes, renamed into place with
   the profile as one set). */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"

#include "mt_companion.h"
#include "mt_file.h"

/* The name of each MtRecord, the key a reader dispatches on. */
static const HChar* const record_names[] = {
   [MtRecThread]          = "thread",
   [MtRecMark]            = "mark",
   [MtRecSite]            = "site",
   [MtRecEnd]             = "end",
   [MtRecProcess]         = "process",
   [MtRecCommand]         = "command",
   [MtRecTitle]           = "title",
   [MtRecFork]            = "fork",
   [MtRecChildEnded]      = "child-ended",
   [MtRecEnded]           = "ended",
   [MtRecHeapLimit]       = "heap-limit",
   [MtRecStacks]          = "stacks",
   [MtRecRss]             = "rss",
   [MtRecRssPeak]         = "rss-peak",
   [MtRecRssMapping]      = "rss-mapping",
   [MtRecRssMappingFrame] = "rss-mapping-frame",
   [MtRecAllocator]       = "allocator",
   [MtRecAllocStats]      = "alloc-stats",
   [MtRecOutline]         = "outline",
   [MtRecOutlineBucket]   = "o",
   [MtRecOutlineRss]      = "o-rss",
   [MtRecDetail]          = "detail",
   [MtRecFrame]           = "frame",
   [MtRecDTree]           = "dtree",
};

static const HChar* base_name(const HChar* path)
{
   const HChar* slash = VG_(strrchr)(path, '/');
   return slash ? slash + 1 : path;
}

/* "<profile>.memtime", to be freed by the caller. */
static HChar* companion_path(const HChar* profile_path)
{
   HChar* path = VG_(malloc)("mt.companion.path",
                             VG_(strlen)(profile_path) + sizeof ".memtime");
   VG_(sprintf)(path, "%s.memtime", profile_path);
   return path;
}

void mt_companion_none(const HChar* profile_path)
{
   /* The companion path already cleared of a stale file: after that
      nobody but us writes it (a forked child has a new name), so it is
      removed once per name, not at every rewrite. */
   static HChar* checked_path = NULL;
   HChar* path = companion_path(profile_path);
   if (checked_path == NULL || VG_(strcmp)(checked_path, path) != 0) {
      VG_(unlink)(path);
      if (checked_path) VG_(free)(checked_path);
      checked_path = path;
   } else {
      VG_(free)(path);
   }
}

MtFile* mt_companion_open(const HChar* profile_path, const HChar* time_unit)
{
   HChar* path = companion_path(profile_path);
   MtFile* c = mt_file_open(path);
   VG_(free)(path);
   mt_file_printf(c, "memtime-companion: 1\n");
   mt_file_printf(c, "profile: %s\n", base_name(profile_path));
   mt_file_printf(c, "time_unit: %s\n", time_unit);
   return c;
}

void mt_companion_begin(MtFile* c, MtRecord kind)
{
   /* A kind added to MtRecord without its name here. */
   tl_assert((UInt)kind < sizeof record_names / sizeof record_names[0]
             && record_names[kind] != NULL);
   if (c == NULL)
      return;
   mt_file_printf(c, "%s: ", record_names[kind]);
}

void mt_companion_add(MtFile* c, const HChar* fmt, ...)
{
   va_list vargs;
   if (c == NULL)
      return;
   va_start(vargs, fmt);
   mt_file_vprintf(c, fmt, vargs);
   va_end(vargs);
}

void mt_companion_end(MtFile* c)
{
   if (c == NULL)
      return;
   mt_file_puts(c, "\n");
}

void mt_companion_record(MtFile* c, MtRecord kind, const HChar* fmt, ...)
{
   va_list vargs;
   mt_companion_begin(c, kind);
   if (c == NULL)
      return;
   va_start(vargs, fmt);
   mt_file_vprintf(c, fmt, vargs);
   va_end(vargs);
   mt_companion_end(c);
}
