/* mt_unwind.h: the call stack of an allocation, and a cache that makes
   most allocations skip the unwinding.

   Unwinding (the core's CFI walk, frame by frame to the bottom of the
   stack) is the largest cost of a heap event: about a quarter of a
   malloc/free loop's run. But a program allocates from the same few
   places over and over, and a stack that was unwound once can be checked
   again far more cheaply than it can be unwound: the walk is a function of
   the thread's registers (IP, SP, FP) at the request and of the stack
   words it read (each frame's return address, and the saved frame pointer
   where a frame saved one). The cache keeps, per (IP, SP, FP), the stack
   handle (Xecu) found last time and the addresses and values of those
   words; when the registers match and every word still holds its value,
   the walk would find the same frames, and the handle is returned without
   unwinding, without building an ExeContext and without a table lookup.

   --stack-cache=verify (a debugging option) unwinds anyway and counts any
   difference; the tests run it over many programs. */
#ifndef MT_UNWIND_H
#define MT_UNWIND_H

#include "pub_tool_basics.h"

void mt_unwind_init(void);                 /* post_clo_init */

/* The stack handle of tid's current stack, from the cache: True and
   *xecu when the cache holds it. exclude_first_entry is part of the key
   (the same request point could in principle be asked both ways). */
Bool mt_unwind_cached(ThreadId tid, Bool exclude_first_entry, UInt* xecu);

/* Unwinds tid's stack into at most max_ips frames (the first one dropped
   when exclude_first_entry, the core's null context when nothing is
   left): *ips points into this module's buffer, valid until the next
   call. A later mt_unwind_remember caches the handle found for it. */
UInt mt_unwind_full(ThreadId tid, Bool exclude_first_entry, UInt max_ips,
                    Addr** ips);
void mt_unwind_remember(UInt xecu);

/* Verify mode: a hit unwound anyway; same says whether both found the
   same stack. */
void mt_unwind_check(Bool same);
/* At exit: verify mode's counts, and with -v -v the hits and misses. */
void mt_unwind_print_stats(void);

#endif /* MT_UNWIND_H */
