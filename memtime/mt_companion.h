/* mt_companion.h: writer of memtime's companion file, "<profile>.memtime".

   The Massif-format profile must stay inside Massif's grammar (massif-visualizer
   rejects any other line), so what Massif's format cannot hold (phase marks,
   each thread's stack size at each snapshot) goes into a line-based text file
   next to it, rewritten atomically each time the profile is, companion first:

      memtime-companion: 1
      profile: memtime.out.1234
      time_unit: ms
      thread: tid=1 name=main
      mark: time=<T> <label to end of line>
      stacks: snapshot=<N> time=<T> <tid>=<bytes> <tid>=<bytes> ...

   docs/file-format.md is the reference for readers. Marks are kept here (the
   mark API is for the client-request and monitor-command code); per-thread
   stack sizes come from mt_stacks' samples, handed over by the output code
   in snapshot order. */
#ifndef MT_COMPANION_H
#define MT_COMPANION_H

#include "pub_tool_basics.h"

struct MtStackSample;   /* mt_stacks.h */

/* Records a phase mark at 'time' (in the profile's time unit). The label is
   copied; newlines and other control characters in it become spaces so the
   mark stays one line. Marks are never culled. */
void mt_companion_add_mark(ULong time, const HChar* label);
UInt mt_companion_n_marks(void);

/* One rewrite of the companion of the profile at 'profile_path'. Usage, while
   the profile itself is being written:
      MtCompanion* c = mt_companion_open(path, time_unit);   (NULL: nothing
                                                               to write, or error)
      for each snapshot i written:  mt_companion_snapshot(c, i, time, sample);
      mt_companion_close(c);      renames the temporary file into place
   The temporary file is "<dir>/.<profile base>.memtime.tmp.<pid>", which no
   reader looks for. When there is nothing to record (no --stacks=yes and no marks) open
   returns NULL and removes a companion of that name left by an earlier run,
   so a stale one is never paired with the new profile. */
typedef struct MtCompanion MtCompanion;
MtCompanion* mt_companion_open(const HChar* profile_path, const HChar* time_unit);
void         mt_companion_snapshot(MtCompanion* c, UInt snapshot_n, ULong time,
                                   const struct MtStackSample* sample);
/* Returns False (after a warning to the user) if writing or renaming failed;
   the previous companion, if any, is then left intact. Frees c. */
Bool         mt_companion_close(MtCompanion* c);

#endif /* MT_COMPANION_H */
