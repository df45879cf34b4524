/* mt_monitor.c: the monitor commands (see mt_monitor.h). Commands arrive as
   the VG_USERREQ__GDB_MONITOR_COMMAND client request, which the gdbserver
   raises inside the client's thread, so they run like any other request,
   with the big lock held, between two stretches of client code. */
#include "pub_tool_basics.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_xtree.h"

#include "mt_file.h"
#include "mt_marks.h"
#include "mt_monitor.h"
#include "mt_msprint.h"
#include "mt_output.h"
#include "mt_options.h"
#include "mt_snapshot.h"
#include "mt_stacks.h"
#include "mt_time.h"
#include "mt_tree.h"

static void print_help(void)
{
   VG_(gdb_printf)(
"\n"
"memtime monitor commands:\n"
"  snapshot [<filename>]\n"
"  detailed_snapshot [<filename>]\n"
"      writes a profile holding one snapshot (detailed: with the allocation\n"
"      tree) of memory now to <filename> (default " MT_MONITOR_DEFAULT_FILE ")\n"
"  all_snapshots [<filename>]\n"
"      writes the profile as it stands to <filename> (default "
MT_MONITOR_DEFAULT_FILE ")\n"
"  mark <label>\n"
"      records a phase mark labelled <label> (the rest of the line) now\n"
"\n");
}

/*------------------------------------------------------------*/
/*--- Writing a profile to a file of the user's choice      ---*/
/*------------------------------------------------------------*/

/* One snapshot of the live totals (and tree if detailed), numbered 0, as
   the only snapshot of a file. Not added to the profile's list. */
static void print_current(MtFile* fp, Bool detailed)
{
   MtTreeSnap* xt = (detailed && clo_heap) ? mt_tree_snapshot() : NULL;
   const Massif_Header header = {
      .snapshot_n    = 0,
      .time          = mt_time_now(),
      .sz_B          = clo_heap ? mt_snapshot_heap_szB() : 0,
      .extra_B       = clo_heap ? mt_snapshot_heap_extra_szB() : 0,
      .stacks_B      = mt_stacks_current_szB(),
      .detailed      = xt != NULL,
      .peak          = False,
      /* The root label must be the one the profile itself uses, so both
         files read alike. */
      .top_node_desc = mt_snapshot_top_node_desc(),
      .sig_threshold = clo_threshold,
   };
   mt_tree_print(fp, xt, &header);
   mt_tree_snap_delete(xt);
}

typedef enum { OneNormal, OneDetailed, AllSnapshots } WhatToWrite;

/* The commands, as VG_(keyword_id) numbers them (-1: not ours, -2:
   ambiguous). */
typedef enum {
   CmdHelp, CmdSnapshot, CmdDetailedSnapshot, CmdAllSnapshots, CmdMark
} Command;

static void write_file(const HChar* path, WhatToWrite what)
{
   const HChar* why;
   Bool ok;

   if (what == AllSnapshots) {
      ok = mt_output_write_file(path, &why);
   } else {
      MtFile* f;
      if (!mt_file_is_special(path)) {
         /* A one-snapshot file has no companion; one left at that name by
            an earlier all_snapshots would be paired with it. */
         HChar* companion = VG_(malloc)("mt.monitor.companion",
                                        VG_(strlen)(path) + sizeof ".memtime");
         VG_(sprintf)(companion, "%s.memtime", path);
         VG_(unlink)(companion);
         VG_(free)(companion);
      }
      f = mt_file_open(path);
      mt_ms_print_file_header(f, mt_args_for_desc, mt_time_unit_name());
      print_current(f, what == OneDetailed);
      ok = mt_file_commit(&f, 1, &why);
   }
   if (ok)
      VG_(gdb_printf)("memtime: wrote %s\n", path);
   else
      VG_(gdb_printf)("error: %s; %s is left as it was\n", why, path);
}

/*------------------------------------------------------------*/
/*--- Parsing                                               ---*/
/*------------------------------------------------------------*/

static const HChar* skip_blanks(const HChar* s)
{
   while (*s == ' ' || *s == '\t')
      s++;
   return s;
}

Bool mt_monitor_handle_command(ThreadId tid, const HChar* req)
{
   SizeT len = VG_(strlen)(req);
   HChar* s = VG_(malloc)("mt.monitor.req", len + 1);  /* for strtok_r */
   HChar* ssaveptr;
   HChar* wcmd;
   HChar* filename;
   Int    kw;
   Bool   handled = True;

   VG_(strcpy)(s, req);
   wcmd = VG_(strtok_r)(s, " ", &ssaveptr);
   if (wcmd == NULL) {   /* a blank command: not ours */
      VG_(free)(s);
      return False;
   }
   /* The keywords in the order of Command. */
   kw = VG_(keyword_id)("help snapshot detailed_snapshot all_snapshots mark",
                        wcmd, kwd_report_duplicated_matches);
   switch (kw) {
   case -2:   /* ambiguous: keyword_id said so */
      break;
   case -1:   /* not ours: the core reports unknown commands */
      handled = False;
      break;
   case CmdHelp:
      print_help();
      break;
   case CmdSnapshot: case CmdDetailedSnapshot: case CmdAllSnapshots:
      filename = VG_(strtok_r)(NULL, " ", &ssaveptr);
      if (filename == NULL)
         filename = (HChar*)MT_MONITOR_DEFAULT_FILE;
      if (!mt_snapshot_started()) {
         /* As Massif: before the first block runs there is nothing to
            show, and the clock has not started. */
         VG_(gdb_printf)(
            "error: cannot take snapshot before execution has started\n");
         break;
      }
      if (clo_time_unit == TimeMS)
         mt_time_tick(0, True);
      write_file(filename, kw == CmdSnapshot ? OneNormal
                           : kw == CmdDetailedSnapshot ? OneDetailed
                           : AllSnapshots);
      break;
   case CmdMark: {
      /* The label is the rest of the original line, inner spaces kept. */
      const HChar* label = skip_blanks(req);
      label = skip_blanks(label + VG_(strlen)(wcmd));
      if (*label == '\0') {
         VG_(gdb_printf)("error: mark needs a label: mark <label>\n");
         break;
      }
      mt_marks_add(label);
      VG_(gdb_printf)("memtime: mark at time %lld: %s\n",
                      mt_snapshot_started() ? (Long)mt_time_now() : 0LL,
                      label);
      break;
   }
   default:
      tl_assert(0);
   }
   VG_(free)(s);
   return handled;
}
