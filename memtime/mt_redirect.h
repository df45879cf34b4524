/* mt_redirect.h: switches on the preload's interceptions for the allocator
   families the main executable defines (jemalloc, tcmalloc, mimalloc
   linked in), through soname synonyms; the rules are in mt_redirect.c. */
#ifndef MT_REDIRECT_H
#define MT_REDIRECT_H

/* Called at every client system call before the core handles it; acts at
   the first only, when the executable's symbols are read and the preload
   is not yet loaded. */
void mt_redirect_before_client(void);

#endif /* MT_REDIRECT_H */
