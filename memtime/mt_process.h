/* mt_process.h: who this process is, recorded in the companion file
   (docs/file-format.md): its pid and parent, how it began (launched, fork
   of PID, exec of PATH) and when on its profile's clock, its command line,
   the titles it gives itself (prctl(PR_SET_NAME), or argv rewritten in
   place), the children it forked and how those it reaped ended, and its
   own exit status. After a fork the child's profile starts afresh at the
   fork (mt_snapshot_restart), and the parent's gets a mark "fork PID". */
#ifndef MT_PROCESS_H
#define MT_PROCESS_H

#include "pub_tool_basics.h"

#include "mt_file.h"

/* post_clo_init, before mt_children_post_clo_init: this module's fork
   handlers must run first (the child's restart is a change of its own
   profile that mt_children must not count as one). */
void mt_process_init(void);
/* When the client's first block is translated (thread 1 still at its
   initial stack): finds argv[0]. */
void mt_process_startup(void);
void mt_process_pre_syscall(UInt sysno, UWord* args);
void mt_process_post_syscall(UInt sysno, UWord* args, SysRes res);
/* Whether there is anything to record beyond a lone process: traced
   children, a fork or exec behind or ahead, a title. */
Bool mt_process_has_story(void);
/* Writes this process's records into the companion being written (reads
   the argv title first). c NULL: nothing. */
void mt_process_companion(MtFile* c);

#endif /* MT_PROCESS_H */
