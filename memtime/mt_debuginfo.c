/* mt_debuginfo.c: which objects' inlined-call info the core reads (see
   mt_debuginfo.h).

   Why. Inlined frames are what make an optimised program's trees readable
   (Rust, C++ templates), and memtime reads them as Massif does. But the
   C library, with Debian's libc6-dbg (which Debian's valgrind depends on),
   costs 55 ms of CPU at every start to read them, a quarter of a run of
   /bin/true, for frames that only ever show inside libc's own allocations
   (locale loading, stdio buffers): a line there reads
   "read_alias_file (localealias.c:401)" instead of naming the helper
   inlined at that line. So in memtime's own clock (ms, the default) the
   core reads libc.so.6 without them, unless --libc-inline-info=yes:
   --read-inline-info is turned off for the span of each mmap of that file
   (the core reads an object's debug info inside the mmap system call that
   completes it, between the tool's pre- and post-syscall hooks), and on
   again after. Everything else, the program and its other libraries, keeps
   its inlined frames. With --time-unit=i or B, the clocks for comparing
   with Massif, libc's are read too and the trees are Massif's (the option
   decides; mt_options.c sets its default from the clock). A core that
   reads debug info lazily (Valgrind 3.21 and later) reads libc's later,
   with the setting on: its trees keep libc's inlined frames, only the
   start-up gain is lost. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "mt_compat.h"
#include "mt_debuginfo.h"
#include "mt_options.h"

static Bool turned_off;   /* inside an mmap of libc, with the setting off */

/* Whether fd is the C library: its file name, which the loader found by
   the soname libc.so.6 (glibc's on every Linux target). */
static Bool is_libc(Int fd)
{
   HChar link[64];
   HChar path[4096];
   SSizeT n;
   const HChar* base;
   VG_(sprintf)(link, "/proc/self/fd/%d", fd);
   n = VG_(readlink)(link, path, sizeof path - 1);
   if (n <= 0)
      return False;
   path[n] = '\0';
   base = VG_(strrchr)(path, '/');
   base = base ? base + 1 : path;
   return VG_(strcmp)(base, "libc.so.6") == 0;
}

void mt_debuginfo_pre_syscall(UInt sysno, const UWord* args)
{
   Int fd;
   if (sysno != __NR_mmap || clo_libc_inline_info || !VG_(clo_read_inline_info))
      return;
   fd = (Int)args[4];
   if (fd < 0 || (args[3] & VKI_MAP_ANONYMOUS) || !is_libc(fd))
      return;
   VG_(clo_read_inline_info) = False;
   turned_off = True;
}

void mt_debuginfo_post_syscall(void)
{
   if (!turned_off)
      return;
   VG_(clo_read_inline_info) = True;
   turned_off = False;
}
