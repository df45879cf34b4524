/* mt_output.c: the profile file (see mt_output.h).

   Names: --memtime-out-file is expanded (%p, %n, %q{VAR}, %%) once per
   process: %n would otherwise give every periodic rewrite a new name, and
   after fork() the child must get its own %p name, so the name is expanded
   again only when the pid changes. The temporary file is
   "<dir>/.<basename>.tmp.<pid>": it starts with a dot so no glob for the
   profile's name (memtime.out.*) picks it up, and carries the pid so two
   processes writing the same profile name never share it.

   A name that exists and is not a regular file (/dev/null, a FIFO, a
   terminal), anything under /dev or /proc, and a symlink are written
   directly, once, at exit: renaming a temporary over them would replace the
   device or the link with a file (as root, /dev/null itself), and they have
   no directory of their own to hold a companion. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"
#include "pub_tool_xtree.h"

#include "mt_children.h"
#include "mt_compat.h"
#include "mt_companion.h"
#include "mt_msprint.h"
#include "mt_options.h"
#include "mt_output.h"
#include "mt_snapshot.h"
#include "mt_time.h"


static HChar* out_path = NULL;   /* expanded name, for out_pid */
static HChar* tmp_path = NULL;
static Int    out_pid  = -1;
static Bool   out_special = False;   /* exists, not a regular file */

static ULong  written_generation = (ULong)-1;
static ULong  last_write_ms = 0;
static ULong  last_write_cost_ms = 0;

Bool mt_output_path_is_special(const HChar* path)
{
   struct vg_stat st;
   HChar link[8];
   SysRes sr;
   /* /dev/stdout is a symlink to a regular file when stdout is redirected:
      a rename would replace the link itself. Any symlink is written
      through, in place, for the same reason. */
   if (VG_(strncmp)(path, "/dev/", 5) == 0 || VG_(strncmp)(path, "/proc/", 6) == 0
       || VG_(readlink)(path, link, sizeof link) >= 0)
      return True;
   sr = VG_(stat)(path, &st);
   return !sr_isError(sr) && !VKI_S_ISREG(st.mode);
}

HChar* mt_output_tmp_name(const HChar* path)
{
   const HChar* slash = VG_(strrchr)(path, '/');
   SizeT dir_len = slash ? (SizeT)(slash - path) + 1 : 0;
   SizeT n = VG_(strlen)(path) + 32;
   HChar* tmp = VG_(malloc)("mt.output.tmp", n);
   VG_(memcpy)(tmp, path, dir_len);
   VG_(snprintf)(tmp + dir_len, n - dir_len, ".%s.tmp.%d",
                 path + dir_len, VG_(getpid)());
   return tmp;
}

/* (Re)computes out_path and tmp_path for the current process. */
static void set_paths(void)
{
   Int pid = VG_(getpid)();

   if (out_path != NULL && pid == out_pid)
      return;
   if (out_path) VG_(free)(out_path);
   if (tmp_path) VG_(free)(tmp_path);
   out_pid  = pid;
   out_path = VG_(expand_file_name)("--memtime-out-file", clo_out_file);

   tmp_path = mt_output_tmp_name(out_path);
   out_special = mt_output_path_is_special(out_path);
}

void mt_output_post_clo_init(void)
{
   SysRes sr;
   struct vg_stat st;
   set_paths();
   /* A FIFO is not opened to check it: opening and closing it would end
      its reader's input before the profile is written. */
   if (out_special && !sr_isError(VG_(stat)(out_path, &st))
       && VKI_S_ISFIFO(st.mode))
      return;
   if (out_special)
      sr = VG_(open)(out_path, VKI_O_WRONLY, 0);
   else
      sr = VG_(open)(tmp_path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC,
                     VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP | VKI_S_IROTH);
   if (sr_isError(sr)) {
      VG_(fmsg)("memtime: cannot write the output file %s: %s\n",
                out_path, VG_(strerror)(sr_Err(sr)));
      VG_(exit)(1);
   }
   VG_(close)(sr_Res(sr));
   if (!out_special)
      VG_(unlink)(tmp_path);
}

void mt_output_write(void)
{
   MsFile* fp;
   UInt t0 = VG_(read_millisecond_timer)();

   set_paths();
   if (out_special) {
      fp = mt_ms_open(out_path, mt_args_for_desc, mt_time_unit_name());
      if (fp == NULL)
         return;
      mt_snapshot_print_all(fp);
      VG_(XT_massif_close)(fp);
      written_generation = mt_snapshot_generation;
      return;
   }
   mt_children_before_write(out_path);
   /* The companion first: once the profile is renamed into place, its
      companion is at least as recent. */
   {
      MtCompanion* c = mt_companion_open(out_path, mt_time_unit_name());
      mt_snapshot_companion_all(c);
      mt_companion_close(c);
   }
   fp = mt_ms_open(tmp_path, mt_args_for_desc, mt_time_unit_name());
   if (fp == NULL)
      return;   /* mt_ms_open has said why */
   mt_snapshot_print_all(fp);
   VG_(XT_massif_close)(fp);
   if (VG_(rename)(tmp_path, out_path) != 0) {
      VG_(umsg)("memtime: cannot rename %s to %s\n", tmp_path, out_path);
      VG_(unlink)(tmp_path);
      return;
   }
   written_generation = mt_snapshot_generation;
   last_write_cost_ms = VG_(read_millisecond_timer)() - t0;
   last_write_ms = mt_time_wall_ms();
}

/* True when periodic writes are on and at least min_interval_ms (or 20
   times the last write's cost: never more than about 5% of the run spent
   rewriting) passed since the last write. The first write is never
   delayed: the profile is small then, and from there on a SIGKILL (even
   one during a later, bigger rewrite) always finds a complete profile
   under the real name. */
static Bool write_due(ULong min_interval_ms)
{
   ULong interval_ms = min_interval_ms;
   if (clo_flush_interval_ms == 0 || out_special)
      return False;
   if (interval_ms < 20 * last_write_cost_ms)
      interval_ms = 20 * last_write_cost_ms;
   return written_generation == (ULong)-1
          || mt_time_wall_ms() - last_write_ms >= interval_ms;
}

void mt_output_maybe_flush(void)
{
   if (!write_due(clo_flush_interval_ms))
      return;
   /* With the ms clock time passes even when nothing is allocated: end
      the profile now, not at the last snapshot (see mt_snapshot.h). */
   mt_snapshot_catch_up();
   if (written_generation == mt_snapshot_generation)
      return;
   mt_output_write();
}

void mt_output_flush_before_block(void)
{
   if (written_generation == mt_snapshot_generation || !write_due(100))
      return;
   mt_output_write();
}
