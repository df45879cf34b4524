/* companion.h: reader of memtime's companion file "<profile>.memtime", which
 * holds what Massif's grammar has no room for: phase marks, thread names,
 * per-thread stack sizes, resident memory, allocation counts, the heap
 * limit, how the run ended and who the process was (format:
 * docs/file-format.md). The one parser of the format: every reader of a
 * companion goes through it. */
#ifndef MT_COMPANION_H
#define MT_COMPANION_H

#include <stddef.h>
#include <stdio.h>
#include "model/profile.h"

/* Reads the companion at path into p (every record; p->companion = path).
 * Returns 0 when read, 1 when the file does not exist (p untouched), or -1
 * with "PATH:LINE: expected ..., found '...'" in err. */
int vis_companion_read(vis_profile *p, const char *path, char *err, size_t errsz);
/* The same from an open stream named path (the fuzz harness reads from
 * memory); 0 or -1, as above. */
int vis_companion_read_stream(vis_profile *p, FILE *f, const char *path, char *err,
                              size_t errsz);

/* The companion's default path beside a profile, "<profile_path>.memtime",
 * newly allocated; NULL when out of memory. */
char *vis_companion_path(const char *profile_path);

#endif
