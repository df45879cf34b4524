/* mt_compat.c: the core internals memtime relies on (see mt_compat.h),
   and the one place that reads the text of VG_(describe_IP).

   Why describe_IP's text. The tool API gives an inlined frame's function
   name and source location only through VG_(describe_IP) with an
   inlined-IP cursor: "0x<IP>: <name> (<file>:<line>)", "0x<IP>: <name> (in
   <object>)", or no location; "???" when there is no name. That text shows
   a file's directory only for --fullpath-after prefixes, and the path
   patterns of allocator support (Rust's library/alloc/src) need it: for
   the call, VG_(clo_fullpath_after) is pointed at a list holding the empty
   prefix, which makes describe_IP print every directory in full, and the
   user's list is put back before we return. Names with " (" inside
   ("std::function<void ()>") are handled by taking the LAST " (" that
   opens a well-formed location.

   Names can be millions of characters long (C++ templates nest): the
   pieces are copied into one heap buffer that grows as needed, never onto
   the stack, which is only about a megabyte. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_xarray.h"

#include "mt_compat.h"

/* --fullpath-after: the prefixes describe_IP shows directories after
   (pub_core_options.h; the same type 3.19 .. 3.27). */
extern XArray* VG_(clo_fullpath_after);

static XArray* full_paths;   /* HChar*: the one prefix "" */
static HChar*  buf;          /* name '\0' path '\0' */
static SizeT   buf_size;

/* Is s[0 .. n-1] "<something>:<digits>)"? Returns the length of the
   <something> part, or -1. */
static Int srcloc_path_len(const HChar* s, SizeT n)
{
   SizeT i;
   if (n < 3 || s[n - 1] != ')')
      return -1;
   i = n - 2;
   if (!VG_(isdigit)(s[i]))
      return -1;
   while (i > 0 && VG_(isdigit)(s[i]))
      i--;
   return s[i] == ':' && i > 0 ? (Int)i : -1;
}

void mt_compat_frame_text(DiEpoch ep, Addr ip, const InlIPCursor* iipc,
                          const HChar** name, const HChar** path)
{
   XArray* user_prefixes = VG_(clo_fullpath_after);
   const HChar *desc, *rest, *open = NULL, *p, *end;
   SizeT name_len, path_len = 0, need;

   if (full_paths == NULL) {
      const HChar* empty = "";
      full_paths = VG_(newXA)(VG_(malloc), "mt.compat.fp", VG_(free),
                              sizeof(HChar*));
      VG_(addToXA)(full_paths, &empty);
   }
   VG_(clo_fullpath_after) = full_paths;
   desc = VG_(describe_IP)(ep, ip, iipc);
   VG_(clo_fullpath_after) = user_prefixes;

   *name = *path = NULL;
   rest = VG_(strstr)(desc, ": ");
   if (rest == NULL)
      return;
   rest += 2;
   end = rest + VG_(strlen)(rest);

   /* The location is the last " (" that opens "(in obj)" or
      "(path:line)" and runs to the end. */
   for (p = VG_(strstr)(rest, " ("); p != NULL; p = VG_(strstr)(p + 1, " (")) {
      if (VG_(strncmp)(p + 2, "in ", 3) == 0
          || srcloc_path_len(p + 2, end - (p + 2)) > 0)
         open = p;
   }
   if (open != NULL && VG_(strncmp)(open + 2, "in ", 3) != 0)
      path_len = srcloc_path_len(open + 2, end - (open + 2));
   name_len = open != NULL ? (SizeT)(open - rest) : (SizeT)(end - rest);

   need = name_len + 1 + path_len + 1;
   if (need > buf_size) {
      buf_size = need < 256 ? 256 : need + need / 2;
      if (buf != NULL)
         VG_(free)(buf);
      buf = VG_(malloc)("mt.compat.frame", buf_size);
   }
   VG_(memcpy)(buf, rest, name_len);
   buf[name_len] = '\0';
   if (VG_(strcmp)(buf, "???") != 0)
      *name = buf;
   if (path_len > 0) {
      VG_(memcpy)(buf + name_len + 1, open + 2, path_len);
      buf[name_len + 1 + path_len] = '\0';
      *path = buf + name_len + 1;
   }
}
