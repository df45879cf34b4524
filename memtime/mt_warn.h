/* mt_warn.h: memtime's warnings that a profile is probably blind or
   nameless: a statically linked executable (nothing can be intercepted),
   a stripped one (static functions unnamed; advice fitted to Rust or to a
   distribution's package), and a run whose usable anonymous memory dwarfs
   the heap memtime saw (an allocator nobody intercepts). Each is given at
   most once per process; the rules are in mt_warn.c. */
#ifndef MT_WARN_H
#define MT_WARN_H

#include "pub_tool_basics.h"

void mt_warn_init(void);   /* post_clo_init: checks the executable */
/* A client mmap (fanned out by mt_main.c; not with --pages-as-heap): counts
   anonymous mappings, the cheap gate of the invisible-allocator check. */
void mt_warn_new_mmap(Addr a, SizeT len);
void mt_warn_tick(void);   /* at samples: judges a gap that persists */
void mt_warn_fini(void);   /* at exit: judges the gap as it ends */

#endif /* MT_WARN_H */
