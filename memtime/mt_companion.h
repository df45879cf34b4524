/* mt_companion.h: writer of memtime's companion file, "<profile>.memtime".

   The Massif-format profile must stay inside Massif's grammar (massif-visualizer
   rejects any other line), so what Massif's format cannot hold (phase marks,
   each thread's stack size at each snapshot, resident memory) goes into a line-based text file
   next to it, rewritten atomically each time the profile is, companion first:

      memtime-companion: 1
      profile: memtime.out.1234
      time_unit: ms
      thread: tid=1 name=main
      mark: time=<T> <label to end of line>
      stacks: snapshot=<N> time=<T> <tid>=<bytes> <tid>=<bytes> ...
      rss: ..., rss-peak: ..., rss-mapping: ..., rss-mapping-frame: ...
                                                      (mt_rss.c)
      site: allocs=<n> temporary=<n> bytes=<n> live_blocks=<n> live_bytes=<n> <label>
      end: exit|exec|none

   docs/file-format.md is the reference for readers. Marks are kept here (the
   mark API is for the client-request and monitor-command code); per-thread
   stack sizes come from mt_stacks' samples, handed over by the output code
   in snapshot order; site: and end: lines come from mt_counts.c. */
#ifndef MT_COMPANION_H
#define MT_COMPANION_H

#include "pub_tool_basics.h"

#include "mt_file.h"

struct MtStackSample;   /* mt_stacks.h */

/* Records a phase mark at 'time' (in the profile's time unit). The label is
   copied; newlines and other control characters in it become spaces so the
   mark stays one line. Marks are never culled. */
void mt_companion_add_mark(ULong time, const HChar* label);

/* Forgets every mark: a forked child's profile starts at the fork, and
   the parent's marks are the parent's. */
void mt_companion_clear_marks(void);

/* One rewrite of the companion of the profile at 'profile_path', written
   while the profile is, and committed with it (mt_file_commit, companion
   first):
      MtFile* c = mt_companion_open(path, time_unit);   header, threads, marks
      for each snapshot i written:  mt_companion_snapshot(c, i, time, sample);
   When there is nothing to record (no --stacks=yes, no marks, no
   resident-memory reading, no allocation counted) open
   returns NULL and removes a companion of that name left by an earlier run,
   so a stale one is never paired with the new profile. Every function here
   accepts c == NULL and then does nothing. */
MtFile* mt_companion_open(const HChar* profile_path, const HChar* time_unit);
void    mt_companion_snapshot(MtFile* c, UInt snapshot_n, ULong time,
                              const struct MtStackSample* sample);
/* Appends one record line "<kind>: <text>\n", text from fmt (any length).
   The way to add a record kind: the text must hold no newline, and a
   reader skips kinds it does not know (docs/file-format.md). */
void    mt_companion_line(MtFile* c, const HChar* kind, const HChar* fmt, ...)
        __attribute__((format(printf, 3, 4)));

#endif /* MT_COMPANION_H */
