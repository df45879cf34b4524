/* mt_counts.h: per allocation site counts beside the bytes the trees show:
   allocations, bytes allocated in total, temporary allocations, and the
   blocks and bytes live now. Written to the companion file as "site:"
   lines (docs/file-format.md), one per top-level tree node (the same
   label the profile's trees give it), and an "end:" line: "exit" when the
   write is the one at exit, "exec" before an exec, "none" otherwise, so a
   reader can tell a finished run from a killed one.

   Temporary follows heaptrack's definition, per thread: an allocation is
   temporary when it is freed before the thread that made it allocates
   again. A realloc counts as one allocation (of the new size, at the
   realloc's stack) and frees the old block, so a block realloc'ed right
   after it was made is temporary. Blocks whose stack is ignored
   (--ignore-fn) count nowhere, as in the trees. */
#ifndef MT_COUNTS_H
#define MT_COUNTS_H

#include "pub_tool_basics.h"
#include "pub_tool_xtree.h"

#include "mt_file.h"

/* A block at p of szB bytes was allocated by tid, charged to where. */
void mt_counts_alloc(Xecu where, ThreadId tid, Addr p, SizeT szB);
/* The block at p, allocated by tid and charged to where, is freed. */
void mt_counts_free(Xecu where, ThreadId tid, Addr p, SizeT szB);
/* True once any allocation was counted (then the companion is due). */
Bool mt_counts_any(void);
/* In a child just forked: its counts start at the fork, the blocks it
   inherited counted as allocated there (its profile starts there too). */
void mt_counts_restart(void);
/* How the image ends, written as "end: none|exit|exec": the next
   companion writes are the last of this image when it is MtEndExit or
   MtEndExec; MtEndNone again when an exec failed. */
typedef enum { MtEndNone, MtEndExit, MtEndExec } MtEnd;
void mt_counts_at_end(MtEnd how);
/* Writes the "site:" lines and the "end:" line into a companion rewrite. */
void mt_counts_companion(MtFile* c);

#endif /* MT_COUNTS_H */
