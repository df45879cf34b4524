/* companion.h: reader of memtime's companion file "<profile>.memtime", which
 * holds what Massif's grammar has no room for: phase marks, thread names,
 * per-thread stack sizes and resident memory (format: docs/file-format.md). */
#ifndef MT_COMPANION_H
#define MT_COMPANION_H

#include <stddef.h>
#include "model/profile.h"

/* Reads the companion at path into p (marks, threads; p->companion = path).
 * Returns 0 when read, 1 when the file does not exist (p untouched), or -1
 * with "PATH:LINE: expected ..., found '...'" in err. */
int vis_companion_read(vis_profile *p, const char *path, char *err, size_t errsz);

#endif
