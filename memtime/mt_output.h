/* mt_output.h: writing the profile in Massif's format. The file is written
   whole to a temporary file in the same directory and renamed over the
   real name, so a reader never sees a half-written profile; at exit, and
   from the client-code hook at most every --flush-interval ms, so a
   program killed by SIGKILL (the OOM killer) still leaves a recent one. */
#ifndef MT_OUTPUT_H
#define MT_OUTPUT_H

#include "pub_tool_basics.h"

/* Checks that the output file can be written; if not, says so in one line
   and exits with status 1, before the client runs. */
void mt_output_post_clo_init(void);
/* True if path exists and is not a regular file (/dev/null, a FIFO), is a
   symlink, or is under /dev or /proc: such a name is written directly,
   never replaced by a rename. */
Bool mt_output_path_is_special(const HChar* path);
/* The temporary a file is written to before it is renamed to path:
   "<dir>/.<base>.tmp.<pid>", hidden from globs of the file's name and
   private to this process. Free with VG_(free). */
HChar* mt_output_tmp_name(const HChar* path);
/* Writes the profile now. */
void mt_output_write(void);
/* Writes the profile if it changed and the flush interval passed. */
void mt_output_maybe_flush(void);
/* Before a wait that may last: writes the profile if it changed since the
   last write, unless a write happened in the last 100 ms (or 20 write
   costs), so a program killed while it sleeps leaves its present state. */
void mt_output_flush_before_block(void);

#endif /* MT_OUTPUT_H */
