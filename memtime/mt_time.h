/* mt_time.h: the three time units and the cached wall clock.
   i  = guest instructions executed (counted by instrumentation, as Massif);
   B  = running sum of |change| of heap + extra (+ stacks) bytes;
   ms = milliseconds since the first snapshot. Under Valgrind every clock
   read is a real system call, so the clock is read only from the
   client-code hook when enough blocks ran since the last read (and after
   system calls that can block), and allocation events use the cached
   value. */
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
/* Wall milliseconds since mt_time_start (cached; see mt_time_tick). */
ULong mt_time_wall_ms(void);
/* Re-reads the clock if at least MT_CLOCK_BLOCKS blocks ran since the last
   read, or if force. Returns True if it read the clock. */
Bool  mt_time_tick(ULong blocks_dispatched, Bool force);
/* Adds instruction counting for --time-unit=i (identity otherwise). */
IRSB* mt_time_instrument(IRSB* sbIn);

#endif /* MT_TIME_H */
