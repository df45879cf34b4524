/* mt_debuginfo.h: which objects' inlined-call info the core reads: all but
   the C library's with --libc-inline-info=no, the default with
   --time-unit=ms (rules in mt_debuginfo.c). */
#ifndef MT_DEBUGINFO_H
#define MT_DEBUGINFO_H

#include "pub_tool_basics.h"

/* Around every client system call, before and after the core's handling. */
void mt_debuginfo_pre_syscall(UInt sysno, const UWord* args);
void mt_debuginfo_post_syscall(void);

#endif /* MT_DEBUGINFO_H */
