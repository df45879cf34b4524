/* mt_alloc_api.h: the allocator-API module's interface.

   memtime sees heap blocks that Valgrind's stock preload routes to it
   (malloc & co. in libc, libstdc++ and the main executable) and, through
   this module, the blocks of allocators with their own API that the stock
   preload never intercepts: jemalloc's whole API (plain, `_rjem_`-prefixed
   as tikv-jemallocator builds it, in the executable or in libjemalloc.so),
   tcmalloc's tc_* and mimalloc's mi_* entry points.

   The split:
     mt_preload.c    runs on the simulated CPU: one replacement or wrapper
                     per entry point, each a single client request below;
     mt_alloc_api.c  runs in the tool: decodes the request (jemalloc flags,
                     calloc overflow, in-place contracts) and calls the heap
                     model (mt_heap.h) and registers the frames to strip.

   This header is included by both sides, so the request numbering lives
   here and nothing in the first half needs more than pub_tool_basics.h. */
#ifndef MT_ALLOC_API_H
#define MT_ALLOC_API_H

#include "pub_tool_basics.h"
#include "valgrind.h"           /* VG_USERREQ_TOOL_BASE */

/* ------------------------------------------------ client requests (both sides)
   Every request's last argument (arg[5]) names the interception that made
   it (an MtApi), so the tool can say which allocator it saw. */
#define MT_AA_BASE  (VG_USERREQ_TOOL_BASE('M','T') + 0x100)
typedef enum {
   MT_AA_ALLOC = MT_AA_BASE, /* size, align (0: default), zero      -> ptr   */
   MT_AA_CALLOC,             /* n, size (overflow: NULL)             -> ptr   */
   MT_AA_FREE,               /* p: frees if ours             -> 1 ours/NULL, 0 foreign */
   MT_AA_OWNS,               /* p                                    -> 1 ours/NULL, 0 */
   MT_AA_REALLOC,            /* p (ours or NULL), size, align, how   -> ptr   */
   MT_AA_MALLOCX,            /* size, jemalloc flags                 -> ptr   */
   MT_AA_RALLOCX,            /* p (ours), size, flags                -> ptr   */
   MT_AA_XALLOCX,            /* p (ours), size, extra, flags -> usable size   */
   MT_AA_USABLE,             /* p (ours or NULL)             -> usable size   */
   MT_AA_NALLOCX,            /* size, flags            -> usable size or 0    */
   MT_AA_GOOD_SIZE,          /* size, align            -> usable size it'd get */
   MT_AA_EXPAND,             /* p (ours), size: in place only  -> p or NULL   */
   MT_AA_LAST = MT_AA_EXPAND
} MtAllocRequest;

/* MT_AA_REALLOC's "how" bits: what size 0 means, and whether a failed
   realloc frees the old block (mimalloc's mi_reallocf). */
#define MT_REALLOC_ZERO_FREES  1   /* size 0: free, return NULL (glibc)   */
#define MT_REALLOC_FREE_ON_FAIL 2  /* failure frees the old block         */
#define MT_REALLOC_ZERO_TAIL   4   /* new bytes zeroed (mi_rezalloc)      */

/* Which interception made a request: shown by -v and in the warnings. */
typedef enum {
   MT_API_NONE = 0,
   MT_API_JE_EXE,        /* jemalloc, unprefixed, in the main executable   */
   MT_API_JE_EXE_RJEM,   /* jemalloc, _rjem_, in the main executable       */
   MT_API_JE_SO,         /* libjemalloc.so*, unprefixed                    */
   MT_API_JE_SO_RJEM,    /* libjemalloc.so*, _rjem_                        */
   MT_API_JE_EXE_JE,     /* jemalloc, je_ prefix (redis-style builds)      */
   MT_API_TC_EXE,        /* tcmalloc tc_* in the main executable           */
   MT_API_TC_SO,         /* libtcmalloc*.so*                               */
   MT_API_MI_EXE,        /* mimalloc mi_* in the main executable           */
   MT_API_MI_SO,         /* libmimalloc.so*                                */
   MT_API_ALLOC_SO,      /* malloc & co. in an allocator library, lib*malloc* */
   MT_API_STDCXX,        /* the throwing operator new of libstdc++, libc or
                            the executable, in place of the stock preload's */
   MT_API_N
} MtApi;

/* ------------------------------------------------ tool side only */
#ifndef MT_PRELOAD

/* Called once from post_clo_init: registers the frames to strip (allocator
   entry points, Rust's allocator shims and alloc plumbing, the known
   wrappers). */
void mt_alloc_api_init(void);
/* Called first from the tool's client-request handler. Returns True (and sets
   *ret) when arg[0] is one of the requests above. */
Bool mt_alloc_api_handle_client_request(ThreadId tid, UWord* arg, UWord* ret);
#endif /* MT_PRELOAD */
#endif /* MT_ALLOC_API_H */
