/* mt_output.h: when and where the profile is written. The file (with its
   companion) is written whole through mt_file.h (a temporary renamed over
   the real name, every write checked), at exit, before each exec, and
   from the client-code hook at most every --flush-interval ms, so a
   program killed by SIGKILL (the OOM killer) still leaves a recent one. A
   failed rewrite keeps the previous profile, warns once, and is retried. */
#ifndef MT_OUTPUT_H
#define MT_OUTPUT_H

#include "pub_tool_basics.h"

/* Checks that the output file can be written; if not, says so in one line
   and exits with status 1, before the client runs. */
void mt_output_post_clo_init(void);
/* Writes the profile now. */
void mt_output_write(void);
/* The same, at exit: a failure is reported even after a recovery. */
void mt_output_write_final(void);
/* Writes the profile if it changed and the flush interval passed. */
void mt_output_maybe_flush(void);
/* Before a wait that may last: writes the profile if it changed since the
   last write, unless a write was attempted in the last 100 ms (or 20 write
   costs), so a program killed while it sleeps leaves its present state. */
void mt_output_flush_before_block(void);
/* Before an exec that leaves a profile of its own (mt_children.h): with
   --time-unit=ms a final snapshot, then the profile; nothing if nothing
   changed since the last exec attempt. */
void mt_output_before_exec(void);
/* The whole profile as it stands (and its companion, unless path is
   special) to another file, for vgdb's all_snapshots; False with a reason
   in *why (mt_file_commit's) if it could not be written. */
Bool mt_output_write_file(const HChar* path, const HChar** why);

#endif /* MT_OUTPUT_H */
