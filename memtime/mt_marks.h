/* mt_marks.h: phase marks and snapshots on demand, the actions behind the
   MEMTIME_MARK / MEMTIME_SNAPSHOT client requests (memtime.h) and the
   `mark` monitor command (mt_monitor.c).

   A mark is a label at the current time, in the profile's time unit. This
   module keeps the marks and writes them to the companion file
   "<profile>.memtime" (mt_companion.h), never to the Massif file, whose
   grammar has no room for them. Marks are never culled.
   With --time-unit=ms the clock is read afresh for each mark and requested
   snapshot (one system call: fine for something a program does a few times
   per phase, not per allocation). */
#ifndef MT_MARKS_H
#define MT_MARKS_H

#include "pub_tool_basics.h"

#include "mt_file.h"

/* Records a mark labelled 'label' (copied; NULL or "" gives an empty
   label; control characters become spaces so the mark stays one line) at
   the current time, and makes the output stale so the next periodic
   rewrite carries it. */
void mt_marks_add(const HChar* label);
/* Forgets every mark: a forked child's profile starts at the fork, and
   the parent's marks are the parent's. */
void mt_marks_clear(void);
/* True when there is a mark to write. */
Bool mt_marks_any(void);
/* Writes the "mark:" records, in the order the marks were made. */
void mt_marks_companion(MtFile* c);

/* A detailed snapshot now, added to the profile's list (it may be culled
   later like any other). Nothing before the client starts running. */
void mt_marks_snapshot(void);

/* Handles MEMTIME_REQ_MARK (arg[1]: client address of a NUL-terminated
   label) and MEMTIME_REQ_SNAPSHOT; False for any other request. A label is
   read only as far as the client may read it and cut at MT_MARK_MAX_LABEL
   bytes, so a bad pointer gives a truncated or empty label, not a crash. */
#define MT_MARK_MAX_LABEL 1024

/* Copies the client's NUL-terminated string at 'a' into buf (size n > 0,
   always terminated), reading only bytes the client may read: a bad
   pointer gives a truncated or empty string. Also for process titles. */
void mt_marks_copy_client_string(Addr a, HChar* buf, SizeT n);
Bool mt_marks_handle_client_request(ThreadId tid, UWord* arg, UWord* ret);

#endif /* MT_MARKS_H */
