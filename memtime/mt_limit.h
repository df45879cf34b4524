/* mt_limit.h: --heap-limit, a lab stand-in for the OOM killer or a memory
   cap. At the first allocation that takes the total (useful heap + extra
   heap, + stacks with --stacks=yes; the pages with --pages-as-heap=yes)
   above the limit, memtime marks the moment and takes a detailed snapshot,
   then, by --heap-limit-action:
     kill      writes the profile and companion and ends the program with
               SIGKILL, as the OOM killer would (exit status 137 in a shell);
     fail      refuses that allocation and every later one that would cross
               (malloc returns NULL, operator new throws std::bad_alloc), and
               counts the refusals; no snapshot (the tree would not hold the
               refused block), only the mark;
     snapshot  the snapshot and the mark only; the program goes on.
   The companion's heap-limit: line records the limit, the action, when it
   was first reached and how many allocations were refused. */
#ifndef MT_LIMIT_H
#define MT_LIMIT_H

#include "pub_tool_basics.h"

#include "mt_file.h"

/* With action fail: True if adding add_szB to the live total would cross
   the limit; the allocation must then be refused (the refusal is counted,
   and the first one marked). Always False for other actions. */
Bool  mt_limit_refuse(SizeT add_szB);
/* After a block was recorded: if the total is now above the limit for the
   first time, marks it and takes a detailed snapshot. True when the action
   is kill: the caller then writes the final profile (mt_output, which is
   below the heap model and above this module) and calls mt_limit_kill. */
Bool  mt_limit_after_alloc(void);
/* Ends the program with SIGKILL (exit status 137), as the OOM killer. */
void  mt_limit_kill(void) __attribute__((noreturn));

/* True if a heap-limit: line is due in the companion. */
Bool  mt_limit_any(void);
void  mt_limit_companion(MtFile* c);

#endif /* MT_LIMIT_H */
