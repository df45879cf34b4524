/* mt_time.h: the three time units and the wall clock.
   i  = guest instructions executed (counted by instrumentation, as Massif);
   B  = running sum of |change| of heap + extra (+ stacks) bytes;
   ms = milliseconds since the first snapshot, from the kernel's monotonic
        clock. Under Valgrind every clock read is a real system call, so the
        reading is cached and re-read whenever the CPU's time-stamp counter
        says it is MT_CLOCK_MAX_AGE_MS (1 ms) old: every time handed out is
        at most 2 ms behind the wall clock (mt_time.c says why and how). */
#ifndef MT_TIME_H
#define MT_TIME_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_xtree.h"     /* Time */

/* Starts the clock: the first snapshot is at time 0. */
void  mt_time_start(void);
/* Current time in the unit of --time-unit. */
Time  mt_time_now(void);
/* Counts a heap/stack size change for --time-unit=B. */
void  mt_time_add_bytes(SSizeT delta_szB);
/* Wall milliseconds since mt_time_start (re-read first if 1 ms old). */
ULong mt_time_wall_ms(void);
/* Brings the clock up to date: reads it if force, if it is 1 ms old, or
   (from the client-code hook, which passes the blocks dispatched so far;
   others pass 0) if MT_CLOCK_BLOCKS blocks ran since the hook last read
   it. Returns True if the time moved on since the last call that returned
   True: the hooks then try a sample and a periodic rewrite. */
Bool  mt_time_tick(ULong blocks_dispatched, Bool force);
/* Says that time may pass from now on until the next question (client
   code is about to run, or a system call): until then, the counter is
   not looked at again and the last answer stands. */
void  mt_time_may_pass(void);
/* Kernel clock reads so far (reported with -v -v). */
ULong mt_time_n_clock_reads(void);
/* Adds instruction counting for --time-unit=i (identity otherwise). */
IRSB* mt_time_instrument(IRSB* sbIn);

#endif /* MT_TIME_H */
