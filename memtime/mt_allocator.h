/* mt_allocator.h: --allocator=program, the program's own allocator observed
   (mt_allocator.c in the tool, mt_wrap.c in the client).

   Under --allocator=valgrind (the default, as Massif) every allocation
   entry point is replaced by Valgrind's allocator. Under
   --allocator=program the client loads another preload,
   vgpreload_mtwrap-<platform>.so, whose functions wrap the same entry
   points: each calls the original and tells the tool what it did, so the
   allocator's retained, dirty and fragmented memory stays what it is
   natively, and the tool can read the allocator's own account.

   The protocol, per call of a wrapped entry point:
     ENTER    before the original: the thread's nesting depth goes up. Only
              the outermost call of a thread is reported (glibc's realloc
              calls malloc, operator new calls malloc: one block each). A
              free is recorded here, before the real free can hand the
              address to another thread. Answers MT_PW_NESTED, _OUTER, or
              _REFUSE (--heap-limit-action=fail: the original is not called,
              the wrapper fails as the allocator would).
     LEAVE    after the original, with the result and the usable size the
              allocator gives it: the block is recorded, the depth goes
              down. Answers 1 when the allocator's statistics are due.
     RESOLVE  once per allocator: the address of a function (the usable
              size, the statistics) in the object of the function wrapped.
     STATS    a reading of the allocator's statistics, in client memory.

   This header is included by both sides; the first half needs only
   pub_tool_basics.h and valgrind.h. */
#ifndef MT_ALLOCATOR_H
#define MT_ALLOCATOR_H

#include "pub_tool_basics.h"
#include "valgrind.h"           /* VG_USERREQ_TOOL_BASE */

#define MT_PW_BASE  (VG_USERREQ_TOOL_BASE('M','T') + 0x200)
typedef enum {
   MT_PW_ENTER = MT_PW_BASE, /* kind|api<<8, p, size, align      -> MT_PW_* */
   MT_PW_LEAVE,              /* kind|api<<8, p, result, size, usable -> 0/1 */
   MT_PW_RESOLVE,            /* name, address in the same object -> address */
   MT_PW_STATS_HOW,          /* MtPwStats* to fill (kind, fn, page)  -> 0    */
   MT_PW_STATS,              /* MtPwStats* read                       -> 0    */
   MT_PW_LAST = MT_PW_STATS
} MtPwRequest;

/* ENTER's answers. */
#define MT_PW_NESTED  0
#define MT_PW_OUTER   1
#define MT_PW_REFUSE  2

/* What a wrapped function does. */
typedef enum {
   MT_PK_ALLOC = 1,   /* size -> result                              */
   MT_PK_FREE,        /* p                                           */
   MT_PK_REALLOC,     /* p, size -> result; size 0 and NULL: p freed */
   MT_PK_RESIZE,      /* p resized in place (xallocx): size, usable  */
   MT_PK_OTHER,       /* nothing to record (only the nesting)        */
   MT_PK_CTL          /* the allocator's control API (mallctl): no
                         statistics are read inside it, the allocator
                         may hold the locks they take; allocations
                         inside are the program's as usual          */
} MtPwKind;
#define MT_PW_KA(kind, api) ((UWord)(kind) | ((UWord)(api) << 8))

/* Which wrapper made a request: for -v, and how its stack is cut. */
typedef enum {
   MT_PA_NONE = 0,
   MT_PA_LIBC,        /* malloc & co., whichever object defines them     */
   MT_PA_CXX,         /* operator new/delete of every form               */
   MT_PA_JE_EXE,      /* jemalloc's *allocx, unprefixed, executable      */
   MT_PA_JE_EXE_RJEM, /* jemalloc _rjem_ (tikv-jemallocator), executable */
   MT_PA_JE_EXE_JE,   /* jemalloc je_, executable                        */
   MT_PA_JE_SO,       /* libjemalloc.so*'s *allocx                       */
   MT_PA_TC_EXE,      /* tcmalloc tc_*, executable                       */
   MT_PA_TC_SO,       /* tcmalloc tc_*, libtcmalloc*.so                   */
   MT_PA_MI_EXE,      /* mimalloc mi_*, executable                       */
   MT_PA_MI_SO,       /* mimalloc mi_*, libmimalloc*.so                   */
   MT_PA_N
} MtPwApi;

/* The allocator's statistics, as the wrapper reads them. */
#define MT_PW_STATS_NONE    0
#define MT_PW_STATS_JEMALLOC 1  /* fn: <prefix>mallctl                  */
#define MT_PW_STATS_GLIBC   2   /* fn: mallinfo2                         */
#define MT_PW_STATS_TCMALLOC 3  /* fn: MallocExtension_GetNumericProperty */
#define MT_PW_STATS_MIMALLOC 4  /* fn: mi_process_info                   */
#define MT_PW_STATS_N       12
typedef struct {
   UWord kind;                  /* MT_PW_STATS_*                          */
   UWord fn;                    /* what to call                           */
   UWord ok;                    /* bit i: value i was read                */
   UWord v[MT_PW_STATS_N];      /* in the order of the kind's names       */
} MtPwStats;

/* jemalloc's, read with mallctl after writing "epoch"; pdirty and pmuzzy
   are pages (times "arenas.page"). */
#define MT_JE_STATS_NAMES \
   "stats.allocated", "stats.active", "stats.resident", "stats.mapped", \
   "stats.retained", "stats.metadata", "stats.arenas.4096.pdirty", \
   "stats.arenas.4096.pmuzzy", "arenas.page"
#define MT_JE_N_STATS 9

/* tcmalloc's (gperftools), read with MallocExtension_GetNumericProperty:
   what the program holds, the page heap's whole size (free and unmapped
   pages included), its estimate of the physical bytes (the heap's mapped
   part plus metadata), the page heap's free pages still mapped and those
   released to the system, and the free bytes in its three caches. */
#define MT_TC_STATS_NAMES \
   "generic.current_allocated_bytes", "generic.heap_size", \
   "generic.total_physical_bytes", "tcmalloc.pageheap_free_bytes", \
   "tcmalloc.pageheap_unmapped_bytes", "tcmalloc.central_cache_free_bytes", \
   "tcmalloc.transfer_cache_free_bytes", "tcmalloc.thread_cache_free_bytes"
#define MT_TC_N_STATS 8

/* mimalloc's, from mi_process_info without a statistics build: the bytes
   it has committed now and at most (v[0], v[1]); v[2] is filled by the
   tool: memtime's own count of the program's blocks (their usable sizes),
   since mimalloc counts what it hands out only in a statistics build. */
#define MT_MI_COMMIT       0
#define MT_MI_PEAK_COMMIT  1
#define MT_MI_HEAP         2

/* ------------------------------------------------ tool side only */
#ifndef MT_PRELOAD
/* post_clo_init: under --allocator=program, swaps the preload. */
void mt_allocator_init(void);
/* The tool's client-request handler calls this first; False for requests
   of others. */
Bool mt_allocator_handle_client_request(ThreadId tid, UWord* arg, UWord* ret);
/* Whether the running thread is inside a call of the program's allocator
   (its mmaps are the allocator's own). */
Bool mt_allocator_in_call(void);
/* -v at exit. */
void mt_allocator_print_stats(void);
#endif
#endif /* MT_ALLOCATOR_H */
