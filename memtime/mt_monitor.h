/* mt_monitor.h: memtime's gdbserver monitor commands, sent with
   `vgdb [--pid=P] COMMAND` (or `monitor COMMAND` from gdb) to a program run
   with --vgdb=yes (the default) or --vgdb=full:

     snapshot [file]           a profile holding one snapshot of now
     detailed_snapshot [file]  the same, with the allocation tree
     all_snapshots [file]      the profile as it stands (every snapshot kept)
     mark <label>              a phase mark now (label: rest of the line)
     help                      this list

   As in Massif, the snapshot commands write a separate file (default
   "memtime.vgdb.out", relative to the program's current directory) and do
   not change the profile's own list; unlike Massif, the file is written to
   a temporary name and renamed, so a reader never sees half of it, and
   all_snapshots also writes its companion file (marks, per-thread stacks). */
#ifndef MT_MONITOR_H
#define MT_MONITOR_H

#include "pub_tool_basics.h"

#define MT_MONITOR_DEFAULT_FILE "memtime.vgdb.out"

/* Runs the monitor command 'req'; False if it is not one of memtime's (the
   core then says so). Output goes to vgdb with VG_(gdb_printf). */
Bool mt_monitor_handle_command(ThreadId tid, const HChar* req);

#endif /* MT_MONITOR_H */
