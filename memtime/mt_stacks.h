/* mt_stacks.h: --stacks=yes, every thread's stack measured at almost no cost.

   What is measured. A thread's stack size is first_SP - SP, where first_SP is
   its stack pointer at its first instruction (as Massif counts: the top of the
   stack mapping would add argv, environment, auxv and TLS). Stack pointers
   outside [lowest byte of the thread's stack mapping, first_SP] are ignored:
   a signal alternate stack or a coroutine's stack elsewhere is not the thread's
   stack.

   How. Massif's --stacks=yes has the core call the tool at every instruction
   that moves SP (several times slower). memtime instead keeps, per thread, the
   lowest SP seen since the last snapshot (its "low-water mark") with three
   inline IR statements after each write of SP: no helper call. The mark lives
   in the thread's first shadow guest-state area at the SP offset (the core
   saves and restores that area with the thread, so there is no thread lookup
   at run time), and the stack's lower bound lives in the second shadow area.

   What a snapshot holds. mem_stacks_B is the sum over threads of each
   thread's deepest point since the previous snapshot (first_SP - low-water
   mark), including threads that exited in between; taking a snapshot then
   resets every mark to the thread's current SP. So a deep recursion between
   two snapshots is never missed, and mem_stacks_B at a snapshot is an upper
   bound of the stack bytes in use at any moment of the interval it closes.
   Per-thread values go to the companion file (mt_companion.h), not the heap
   tree. With --time-unit=B, the stacks' share of B time is the sum of
   |change of mem_stacks_B| between consecutive snapshot attempts (each
   attempt refreshes the value, see mt_snapshot.c).

   Thread numbers. Valgrind reuses ThreadIds; memtime numbers threads in the
   order they start, the main thread being 1, and never reuses a number. */
#ifndef MT_STACKS_H
#define MT_STACKS_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

#include "mt_file.h"

/* Per-thread stack sizes at one snapshot: plain data, owned by the snapshot
   that took it (free with mt_stacks_sample_free when the snapshot goes). */
typedef struct MtStackSample {
   UInt  n_threads;
   SizeT total_szB;               /* sum of szB: the snapshot's mem_stacks_B */
   struct {
      UInt  thread_no;            /* memtime's thread number, main = 1 */
      SizeT szB;                  /* deepest point since the previous sample */
   } threads[];                   /* sorted by thread_no */
} MtStackSample;

/* post_clo_init, only when clo_stacks: registers the thread hooks. */
void   mt_stacks_init(void);
/* Adds the low-water IR after each write of SP; returns bb unchanged when
   --stacks=no. Call from the tool's instrument function, before or after
   other passes (it only appends statements after Puts to SP). */
IRSB*  mt_stacks_instrument(IRSB* bb, const VexGuestLayout* layout);
/* What mem_stacks_B would be if a snapshot were taken now, without resetting
   anything: cheap (a few register reads per live thread), for peak checks and
   snapshot attempts. 0 when --stacks=no. */
SizeT  mt_stacks_current_szB(void);
/* For a snapshot that is being taken: the per-thread sizes since the previous
   sample (their sum is what mt_stacks_current_szB returns), then resets the
   marks.
   NULL when --stacks=no. */
MtStackSample* mt_stacks_sample(void);
void   mt_stacks_sample_free(MtStackSample* s);   /* NULL ok */

/* Companion records. True with --stacks=yes (then a companion is due). */
Bool   mt_stacks_any(void);
/* The "thread:" records: every thread seen so far (numbers 1..n) with its
   name: "main" for 1; for others the name the program gave it
   (pthread_setname_np), read from /proc when the thread exited, or now. */
void   mt_stacks_companion(MtFile* c);
/* The "stacks:" record of one snapshot's sample (nothing for NULL). */
void   mt_stacks_companion_sample(MtFile* c, UInt snapshot_n, ULong time,
                                  const MtStackSample* s);

#endif /* MT_STACKS_H */
