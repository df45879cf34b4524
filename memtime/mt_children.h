/* mt_children.h: profiles of processes that fork and exec.

   fork. Valgrind follows every forked child (with or without
   --trace-children). The child's profile starts at the fork
   (mt_process.c restarts its snapshot list: one detailed snapshot of what
   it inherited, on the parent's clock): with %p in --memtime-out-file it
   is a file of its own. A forked child that calls exec before taking any
   snapshot after that one (fork then exec: system(), popen(),
   posix_spawn) writes no profile: it would hold nothing of its own.
   Without %p, parent and child write the same name: each rewrite is
   complete (atomic rename), but the file holds whichever process wrote it
   last; memtime warns at start-up (with --trace-children=yes) and when a
   forked child first writes.

   exec. The pid does not change across exec, so the new image would expand
   the same name. memtime writes the whole profile just before each execve
   (with --time-unit=ms after a final snapshot, as at exit) and, with
   --trace-children=yes, the new image writes "<name>.exec1" (the next
   exec of the same process "<name>.exec2", and so on), so no profile is
   ever overwritten. The count travels to the new image as the internal
   option --memtime-exec-count=N, which memtime adds to the arguments the
   core passes on at exec (it is not written to the desc: line). */
#ifndef MT_CHILDREN_H
#define MT_CHILDREN_H

#include "pub_tool_basics.h"

/* post_clo_init, before the output file is first opened: warns about a
   name without %p, registers the fork handler. */
void mt_children_post_clo_init(void);
/* What this image adds to the expanded --memtime-out-file: "" or
   ".execN" (static). */
const HChar* mt_children_out_suffix(void);
/* pre_syscall hook: for execve and execveat, passes the exec count on to
   the next image and returns True when this process has a profile of its
   own to leave before the image goes (the caller writes it). False for
   any other system call. */
Bool mt_children_pre_syscall(UInt sysno);
/* True in a forked child whose heap did not change since the fork and has run
   for less than 'ms' of wall time: its profile would be the parent's copy
   alone, which a periodic rewrite need not write yet. So a child that only
   execs never leaves one, however the hook's checks fall between its fork
   and its exec (they follow block counts inherited from the parent). */
Bool mt_children_only_inherited(ULong ms);
/* Called by the output writer before each rewrite of 'out_path': in a
   forked child that shares its parent's file name, warns once. */
void mt_children_before_write(const HChar* out_path);

#endif /* MT_CHILDREN_H */
