/* mt_preload.c: memtime's own interceptions, linked into
   vgpreload_memtime-amd64-linux.so next to Valgrind's stock malloc
   replacements. Runs on the simulated CPU, inside the client.

   Valgrind redirects functions by (soname pattern, symbol name), so the stock
   preload, which names malloc & co. in libc, libstdc++ and the main
   executable, never sees an allocator with its own API or in its own
   library. Rust programs built with tikv-jemallocator call `_rjem_mallocx`,
   `_rjem_sdallocx`, ...; a program linked with -ljemalloc calls malloc in
   libjemalloc.so.2. This file adds one interception per entry point of:
     - jemalloc: the extended *allocx API, unprefixed, and the libc-style API
       too under `_rjem_` (tikv-jemallocator) and `je_` (redis-style
       builds), in the main executable (soname NONE, through a synonym: see
       the instances) and in libjemalloc.so*;
     - tcmalloc: tc_*, in the executable and in libtcmalloc*.so*;
     - mimalloc: mi_* (and mi_heap_* allocation), in the executable and in
       libmimalloc.so*;
     - the overriding libc-style API, glibc's internal names and the C++
       operators of any allocator library (lib*malloc*: the three above).
   Each body is one client request (mt_alloc_api.h); the semantics (flags,
   in-place contracts, rounding) live in the tool, in mt_alloc_api.c.

   Why some entry points are wrappers and not replacements: every function
   that takes a pointer must be intercepted, or the allocator receives a
   block it never made; but if some allocating entry point is missed (an
   allocator's API is large), its blocks reach our free. So free-like,
   realloc-like and size-query functions are wrappers: the tool says whether
   the pointer is one of its blocks, and a foreign pointer goes to the
   original function untouched. Allocating functions are plain replacements.

   Not intercepted here on purpose: unprefixed malloc/free/... in the main
   executable (the stock preload already does; a second redirect of the same
   symbol would be ambiguous). Equivalence tags (the 5-digit numbers) are
   2xxx0, one per kind of behaviour, so that aliases of one function resolve
   silently; the libc-style names reuse the stock preload's 1xxx0 tags (see
   MT_LIBC_API). */

#define MT_PRELOAD 1
#include "pub_tool_basics.h"
#include "pub_tool_redir.h"
#include "valgrind.h"
#include "mt_alloc_api.h"

#define MT_CAT_(a, b) a##b
#define MT_CAT(a, b)  MT_CAT_(a, b)

/* One request; every request carries the interception's MtApi last. */
#define MT_REQ(req, a1, a2, a3, a4, api) \
   ((UWord)VALGRIND_DO_CLIENT_REQUEST_EXPR(0, (req), (UWord)(a1), (UWord)(a2), \
                                           (UWord)(a3), (UWord)(a4), (api)))

/* posix_memalign's errors, without libc's errno.h. */
#define MT_EINVAL 22
#define MT_ENOMEM 12

/* ------------------------------------------------------------ generators
   Each takes (so, fn, api): the Z-encoded soname pattern, the symbol, the
   MtApi. R_ makes a replacement, W_ a wrapper falling back to the original
   for foreign pointers. Prototypes first: the preload is built with
   -Wmissing-prototypes. */
#define MT_RFN(tag, so, fn) VG_REPLACE_FUNCTION_EZU(tag, so, fn)
#define MT_WFN(tag, so, fn) VG_WRAP_FUNCTION_EZU(tag, so, fn)

/* size -> block (malloc, operator new, tc_malloc, mi_malloc). */
#define R_ALLOC_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(SizeT n); \
   void* MT_RFN(tag, so, fn)(SizeT n) \
   { return (void*)MT_REQ(MT_AA_ALLOC, n, 0, 0, 0, api); }
#define R_ALLOC(so, fn, api) R_ALLOC_T(20010, so, fn, api)
/* operator new's contract is to throw std::bad_alloc, never to return
   NULL, and Valgrind's stock replacement cannot throw (it aborts the
   program). The heap refuses a block only for an impossible size or under
   --heap-limit-action=fail, whose point is to let the program handle the
   failure as it would under a memory cap: so memtime throws, through the
   C++ runtime's own std::__throw_bad_alloc, found at run time (a weak
   reference: resolved when libstdc++ is loaded, as it is in any C++
   program linked against it). Without it, the program is stopped, as the
   stock replacement would. This file is built with unwind tables, so the
   exception passes through these frames. */
extern void _ZSt17__throw_bad_allocv(void) __attribute__((weak, noreturn));
static __attribute__((noreturn)) void mt_new_failed(SizeT n)
{
   if (_ZSt17__throw_bad_allocv)
      _ZSt17__throw_bad_allocv();
   VALGRIND_PRINTF("memtime: operator new(%lu) failed and std::bad_alloc "
                   "cannot be thrown without libstdc++: stopping\n",
                   (unsigned long)n);
   __builtin_trap();
}
/* size -> block, or std::bad_alloc (operator new, new[]). */
#define R_NEW_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(SizeT n); \
   void* MT_RFN(tag, so, fn)(SizeT n) \
   { void* p = (void*)MT_REQ(MT_AA_ALLOC, n, 0, 0, 0, api); \
     if (p == NULL) mt_new_failed(n); \
     return p; }
/* size, alignment -> block, or std::bad_alloc. */
#define R_NEW_AL_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(SizeT n, SizeT al); \
   void* MT_RFN(tag, so, fn)(SizeT n, SizeT al) \
   { void* p = (void*)MT_REQ(MT_AA_ALLOC, n, al, 0, 0, api); \
     if (p == NULL) mt_new_failed(n); \
     return p; }
/* size, nothrow_t -> block (operator new(size, nothrow)). */
#define R_ALLOC_NT_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(SizeT n, void* nt); \
   void* MT_RFN(tag, so, fn)(SizeT n, void* nt) \
   { return (void*)MT_REQ(MT_AA_ALLOC, n, 0, 0, 0, api); }
#define R_ALLOC_NT(so, fn, api) R_ALLOC_NT_T(20020, so, fn, api)
/* size -> zeroed block (mi_zalloc). */
#define R_ZALLOC_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(SizeT n); \
   void* MT_RFN(tag, so, fn)(SizeT n) \
   { return (void*)MT_REQ(MT_AA_ALLOC, n, 0, 1, 0, api); }
#define R_ZALLOC(so, fn, api) R_ZALLOC_T(20030, so, fn, api)
/* count, size -> zeroed block; overflow gives NULL. */
#define R_CALLOC_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(SizeT c, SizeT n); \
   void* MT_RFN(tag, so, fn)(SizeT c, SizeT n) \
   { return (void*)MT_REQ(MT_AA_CALLOC, c, n, 0, 0, api); }
#define R_CALLOC(so, fn, api) R_CALLOC_T(20040, so, fn, api)
/* count, size -> block, not zeroed (mi_mallocn). */
#define R_MALLOCN_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(SizeT c, SizeT n); \
   void* MT_RFN(tag, so, fn)(SizeT c, SizeT n) \
   { if (n != 0 && c > ((SizeT)-1) / n) return NULL; \
     return (void*)MT_REQ(MT_AA_ALLOC, c * n, 0, 0, 0, api); }
#define R_MALLOCN(so, fn, api) R_MALLOCN_T(20050, so, fn, api)
/* alignment, size -> block (memalign, aligned_alloc). */
#define R_MEMALIGN_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(SizeT al, SizeT n); \
   void* MT_RFN(tag, so, fn)(SizeT al, SizeT n) \
   { return (void*)MT_REQ(MT_AA_ALLOC, n, al, 0, 0, api); }
#define R_MEMALIGN(so, fn, api) R_MEMALIGN_T(20060, so, fn, api)
/* size, alignment -> block (mi_malloc_aligned, operator new(size, align_val_t)). */
#define R_ALLOC_AL_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(SizeT n, SizeT al); \
   void* MT_RFN(tag, so, fn)(SizeT n, SizeT al) \
   { return (void*)MT_REQ(MT_AA_ALLOC, n, al, 0, 0, api); }
#define R_ALLOC_AL(so, fn, api) R_ALLOC_AL_T(20070, so, fn, api)
/* size, alignment, nothrow_t -> block. */
#define R_ALLOC_AL_NT_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(SizeT n, SizeT al, void* nt); \
   void* MT_RFN(tag, so, fn)(SizeT n, SizeT al, void* nt) \
   { return (void*)MT_REQ(MT_AA_ALLOC, n, al, 0, 0, api); }
#define R_ALLOC_AL_NT(so, fn, api) R_ALLOC_AL_NT_T(20080, so, fn, api)
/* size, alignment -> zeroed block (mi_zalloc_aligned). */
#define R_ZALLOC_AL_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(SizeT n, SizeT al); \
   void* MT_RFN(tag, so, fn)(SizeT n, SizeT al) \
   { return (void*)MT_REQ(MT_AA_ALLOC, n, al, 1, 0, api); }
#define R_ZALLOC_AL(so, fn, api) R_ZALLOC_AL_T(20090, so, fn, api)
/* count, size, alignment -> zeroed block (mi_calloc_aligned). */
#define R_CALLOC_AL_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(SizeT c, SizeT n, SizeT al); \
   void* MT_RFN(tag, so, fn)(SizeT c, SizeT n, SizeT al) \
   { if (n != 0 && c > ((SizeT)-1) / n) return NULL; \
     return (void*)MT_REQ(MT_AA_ALLOC, c * n, al, 1, 0, api); }
#define R_CALLOC_AL(so, fn, api) R_CALLOC_AL_T(20100, so, fn, api)
/* size -> page-aligned block. */
#define R_VALLOC_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(SizeT n); \
   void* MT_RFN(tag, so, fn)(SizeT n) \
   { return (void*)MT_REQ(MT_AA_ALLOC, n, 4096, 0, 0, api); }
#define R_VALLOC(so, fn, api) R_VALLOC_T(20110, so, fn, api)
/* size -> page-aligned block of whole pages. */
#define R_PVALLOC_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(SizeT n); \
   void* MT_RFN(tag, so, fn)(SizeT n) \
   { SizeT r = (n + 4095) & ~(SizeT)4095; if (r < n) return NULL; \
     return (void*)MT_REQ(MT_AA_ALLOC, r == 0 ? 4096 : r, 4096, 0, 0, api); }
#define R_PVALLOC(so, fn, api) R_PVALLOC_T(20120, so, fn, api)
/* posix_memalign(&p, alignment, size): EINVAL for an alignment that is not
   a power of two multiple of sizeof(void*), ENOMEM on failure. */
#define R_POSIX_MEMALIGN_T(tag, so, fn, api) \
   int MT_RFN(tag, so, fn)(void** out, SizeT al, SizeT n); \
   int MT_RFN(tag, so, fn)(void** out, SizeT al, SizeT n) \
   { void* p; \
     if (al < sizeof(void*) || (al & (al - 1)) != 0) return MT_EINVAL; \
     p = (void*)MT_REQ(MT_AA_ALLOC, n, al, 0, 0, api); \
     if (p == NULL) return MT_ENOMEM; \
     *out = p; return 0; }
#define R_POSIX_MEMALIGN(so, fn, api) R_POSIX_MEMALIGN_T(20130, so, fn, api)
/* jemalloc: mallocx(size, flags). */
#define R_MALLOCX_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(SizeT n, int flags); \
   void* MT_RFN(tag, so, fn)(SizeT n, int flags) \
   { return (void*)MT_REQ(MT_AA_MALLOCX, n, (UInt)flags, 0, 0, api); }
#define R_MALLOCX(so, fn, api) R_MALLOCX_T(20140, so, fn, api)
/* jemalloc: nallocx(size, flags), no allocation. */
#define R_NALLOCX_T(tag, so, fn, api) \
   SizeT MT_RFN(tag, so, fn)(SizeT n, int flags); \
   SizeT MT_RFN(tag, so, fn)(SizeT n, int flags) \
   { return (SizeT)MT_REQ(MT_AA_NALLOCX, n, (UInt)flags, 0, 0, api); }
#define R_NALLOCX(so, fn, api) R_NALLOCX_T(20150, so, fn, api)
/* size -> usable size an allocation would get (mi_good_size). */
#define R_GOOD_SIZE_T(tag, so, fn, api) \
   SizeT MT_RFN(tag, so, fn)(SizeT n); \
   SizeT MT_RFN(tag, so, fn)(SizeT n) \
   { return (SizeT)MT_REQ(MT_AA_GOOD_SIZE, n, 0, 0, 0, api); }
#define R_GOOD_SIZE(so, fn, api) R_GOOD_SIZE_T(20160, so, fn, api)
/* mimalloc heaps: (heap, size) and friends; the heap is ignored. */
#define R_HEAP_ALLOC_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(void* h, SizeT n); \
   void* MT_RFN(tag, so, fn)(void* h, SizeT n) \
   { return (void*)MT_REQ(MT_AA_ALLOC, n, 0, 0, 0, api); }
#define R_HEAP_ALLOC(so, fn, api) R_HEAP_ALLOC_T(20170, so, fn, api)
#define R_HEAP_ZALLOC_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(void* h, SizeT n); \
   void* MT_RFN(tag, so, fn)(void* h, SizeT n) \
   { return (void*)MT_REQ(MT_AA_ALLOC, n, 0, 1, 0, api); }
#define R_HEAP_ZALLOC(so, fn, api) R_HEAP_ZALLOC_T(20180, so, fn, api)
#define R_HEAP_CALLOC_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(void* h, SizeT c, SizeT n); \
   void* MT_RFN(tag, so, fn)(void* h, SizeT c, SizeT n) \
   { return (void*)MT_REQ(MT_AA_CALLOC, c, n, 0, 0, api); }
#define R_HEAP_CALLOC(so, fn, api) R_HEAP_CALLOC_T(20190, so, fn, api)
#define R_HEAP_ALLOC_AL_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(void* h, SizeT n, SizeT al); \
   void* MT_RFN(tag, so, fn)(void* h, SizeT n, SizeT al) \
   { return (void*)MT_REQ(MT_AA_ALLOC, n, al, 0, 0, api); }
#define R_HEAP_ALLOC_AL(so, fn, api) R_HEAP_ALLOC_AL_T(20200, so, fn, api)
#define R_HEAP_ZALLOC_AL_T(tag, so, fn, api) \
   void* MT_RFN(tag, so, fn)(void* h, SizeT n, SizeT al); \
   void* MT_RFN(tag, so, fn)(void* h, SizeT n, SizeT al) \
   { return (void*)MT_REQ(MT_AA_ALLOC, n, al, 1, 0, api); }
#define R_HEAP_ZALLOC_AL(so, fn, api) R_HEAP_ZALLOC_AL_T(20210, so, fn, api)
/* mimalloc strdup/strndup: they allocate inside mimalloc, so they must come
   to us too or mi_free would get a foreign block (it would cope: wrappers). */
#define R_STRDUP_T(tag, so, fn, api) \
   char* MT_RFN(tag, so, fn)(const char* s); \
   char* MT_RFN(tag, so, fn)(const char* s) \
   { SizeT i, n = 0; char* d; if (s == NULL) return NULL; \
     while (s[n]) n++; \
     d = (char*)MT_REQ(MT_AA_ALLOC, n + 1, 0, 0, 0, api); \
     if (d) for (i = 0; i <= n; i++) d[i] = s[i]; \
     return d; }
#define R_STRDUP(so, fn, api) R_STRDUP_T(20220, so, fn, api)
#define R_STRNDUP_T(tag, so, fn, api) \
   char* MT_RFN(tag, so, fn)(const char* s, SizeT max); \
   char* MT_RFN(tag, so, fn)(const char* s, SizeT max) \
   { SizeT i, n = 0; char* d; if (s == NULL) return NULL; \
     while (n < max && s[n]) n++; \
     d = (char*)MT_REQ(MT_AA_ALLOC, n + 1, 0, 0, 0, api); \
     if (d) { for (i = 0; i < n; i++) d[i] = s[i]; d[n] = 0; } \
     return d; }
#define R_STRNDUP(so, fn, api) R_STRNDUP_T(20230, so, fn, api)

/* free(p), and the frees with one or two more arguments (sized, aligned,
   nothrow, jemalloc's dallocx(p, flags) and sdallocx(p, size, flags)). */
#define W_FREE_T(tag, so, fn, api) \
   void MT_WFN(tag, so, fn)(void* p); \
   void MT_WFN(tag, so, fn)(void* p) \
   { OrigFn o; VALGRIND_GET_ORIG_FN(o); \
     if (!MT_REQ(MT_AA_FREE, p, 0, 0, 0, api)) CALL_FN_v_W(o, p); }
#define W_FREE(so, fn, api) W_FREE_T(20300, so, fn, api)
#define W_FREE2_T(tag, so, fn, api) \
   void MT_WFN(tag, so, fn)(void* p, UWord x); \
   void MT_WFN(tag, so, fn)(void* p, UWord x) \
   { OrigFn o; VALGRIND_GET_ORIG_FN(o); \
     if (!MT_REQ(MT_AA_FREE, p, 0, 0, 0, api)) CALL_FN_v_WW(o, p, x); }
#define W_FREE2(so, fn, api) W_FREE2_T(20310, so, fn, api)
#define W_FREE3_T(tag, so, fn, api) \
   void MT_WFN(tag, so, fn)(void* p, UWord x, UWord y); \
   void MT_WFN(tag, so, fn)(void* p, UWord x, UWord y) \
   { OrigFn o; VALGRIND_GET_ORIG_FN(o); \
     if (!MT_REQ(MT_AA_FREE, p, 0, 0, 0, api)) CALL_FN_v_WWW(o, p, x, y); }
#define W_FREE3(so, fn, api) W_FREE3_T(20320, so, fn, api)
/* realloc(p, size) with "how" bits (MT_REALLOC_*). */
#define W_REALLOC_HOW(tag, so, fn, api, how) \
   void* MT_WFN(tag, so, fn)(void* p, SizeT n); \
   void* MT_WFN(tag, so, fn)(void* p, SizeT n) \
   { OrigFn o; UWord r; VALGRIND_GET_ORIG_FN(o); \
     if (!MT_REQ(MT_AA_OWNS, p, 0, 0, 0, api)) { CALL_FN_W_WW(r, o, p, n); return (void*)r; } \
     return (void*)MT_REQ(MT_AA_REALLOC, p, n, 0, (how), api); }
#define W_REALLOC(so, fn, api) \
   W_REALLOC_HOW(20330, so, fn, api, MT_REALLOC_ZERO_FREES)
/* mimalloc: realloc that never frees on size 0 (mi_realloc keeps a block). */
#define W_REALLOC_KEEP(so, fn, api)   W_REALLOC_HOW(20340, so, fn, api, 0)
#define W_REALLOCF(so, fn, api)       W_REALLOC_HOW(20350, so, fn, api, MT_REALLOC_FREE_ON_FAIL)
#define W_REZALLOC(so, fn, api)       W_REALLOC_HOW(20360, so, fn, api, MT_REALLOC_ZERO_TAIL)
/* realloc(p, count, size) (reallocarray, mi_reallocn, mi_recalloc). */
#define W_REALLOCN_HOW(tag, so, fn, api, how) \
   void* MT_WFN(tag, so, fn)(void* p, SizeT c, SizeT n); \
   void* MT_WFN(tag, so, fn)(void* p, SizeT c, SizeT n) \
   { OrigFn o; UWord r; VALGRIND_GET_ORIG_FN(o); \
     if (!MT_REQ(MT_AA_OWNS, p, 0, 0, 0, api)) { CALL_FN_W_WWW(r, o, p, c, n); return (void*)r; } \
     if (n != 0 && c > ((SizeT)-1) / n) return NULL; \
     return (void*)MT_REQ(MT_AA_REALLOC, p, c * n, 0, (how), api); }
#define W_REALLOCN(so, fn, api)  W_REALLOCN_HOW(20370, so, fn, api, 0)
#define W_RECALLOC(so, fn, api)  W_REALLOCN_HOW(20380, so, fn, api, MT_REALLOC_ZERO_TAIL)
/* realloc(p, size, alignment) (mi_realloc_aligned, mi_rezalloc_aligned). */
#define W_REALLOC_AL_HOW(tag, so, fn, api, how) \
   void* MT_WFN(tag, so, fn)(void* p, SizeT n, SizeT al); \
   void* MT_WFN(tag, so, fn)(void* p, SizeT n, SizeT al) \
   { OrigFn o; UWord r; VALGRIND_GET_ORIG_FN(o); \
     if (!MT_REQ(MT_AA_OWNS, p, 0, 0, 0, api)) { CALL_FN_W_WWW(r, o, p, n, al); return (void*)r; } \
     return (void*)MT_REQ(MT_AA_REALLOC, p, n, al, (how), api); }
#define W_REALLOC_AL(so, fn, api) W_REALLOC_AL_HOW(20390, so, fn, api, 0)
#define W_REZALLOC_AL(so, fn, api) W_REALLOC_AL_HOW(20400, so, fn, api, MT_REALLOC_ZERO_TAIL)
/* mimalloc heaps: realloc(heap, p, size). */
#define W_HEAP_REALLOC_T(tag, so, fn, api) \
   void* MT_WFN(tag, so, fn)(void* h, void* p, SizeT n); \
   void* MT_WFN(tag, so, fn)(void* h, void* p, SizeT n) \
   { OrigFn o; UWord r; VALGRIND_GET_ORIG_FN(o); \
     if (!MT_REQ(MT_AA_OWNS, p, 0, 0, 0, api)) { CALL_FN_W_WWW(r, o, h, p, n); return (void*)r; } \
     return (void*)MT_REQ(MT_AA_REALLOC, p, n, 0, 0, api); }
#define W_HEAP_REALLOC(so, fn, api) W_HEAP_REALLOC_T(20410, so, fn, api)
/* usable size of p (malloc_usable_size, tc_malloc_size, mi_usable_size). */
#define W_USABLE_T(tag, so, fn, api) \
   SizeT MT_WFN(tag, so, fn)(void* p); \
   SizeT MT_WFN(tag, so, fn)(void* p) \
   { OrigFn o; UWord r; VALGRIND_GET_ORIG_FN(o); \
     if (!MT_REQ(MT_AA_OWNS, p, 0, 0, 0, api)) { CALL_FN_W_W(r, o, p); return r; } \
     return (SizeT)MT_REQ(MT_AA_USABLE, p, 0, 0, 0, api); }
#define W_USABLE(so, fn, api) W_USABLE_T(20420, so, fn, api)
/* jemalloc: sallocx(p, flags). */
#define W_SALLOCX_T(tag, so, fn, api) \
   SizeT MT_WFN(tag, so, fn)(void* p, int flags); \
   SizeT MT_WFN(tag, so, fn)(void* p, int flags) \
   { OrigFn o; UWord r; VALGRIND_GET_ORIG_FN(o); \
     if (!MT_REQ(MT_AA_OWNS, p, 0, 0, 0, api)) { CALL_FN_W_WW(r, o, p, flags); return r; } \
     return (SizeT)MT_REQ(MT_AA_USABLE, p, 0, 0, 0, api); }
#define W_SALLOCX(so, fn, api) W_SALLOCX_T(20430, so, fn, api)
/* jemalloc: rallocx(p, size, flags): may move. */
#define W_RALLOCX_T(tag, so, fn, api) \
   void* MT_WFN(tag, so, fn)(void* p, SizeT n, int flags); \
   void* MT_WFN(tag, so, fn)(void* p, SizeT n, int flags) \
   { OrigFn o; UWord r; VALGRIND_GET_ORIG_FN(o); \
     if (!MT_REQ(MT_AA_OWNS, p, 0, 0, 0, api)) { CALL_FN_W_WWW(r, o, p, n, flags); return (void*)r; } \
     return (void*)MT_REQ(MT_AA_RALLOCX, p, n, (UInt)flags, 0, api); }
#define W_RALLOCX(so, fn, api) W_RALLOCX_T(20440, so, fn, api)
/* jemalloc: xallocx(p, size, extra, flags): in place only, returns the
   usable size (less than size when it could not grow). */
#define W_XALLOCX_T(tag, so, fn, api) \
   SizeT MT_WFN(tag, so, fn)(void* p, SizeT n, SizeT extra, int flags); \
   SizeT MT_WFN(tag, so, fn)(void* p, SizeT n, SizeT extra, int flags) \
   { OrigFn o; UWord r; VALGRIND_GET_ORIG_FN(o); \
     if (!MT_REQ(MT_AA_OWNS, p, 0, 0, 0, api)) { CALL_FN_W_WWWW(r, o, p, n, extra, flags); return r; } \
     return (SizeT)MT_REQ(MT_AA_XALLOCX, p, n, extra, (UInt)flags, api); }
#define W_XALLOCX(so, fn, api) W_XALLOCX_T(20450, so, fn, api)
/* mimalloc: mi_expand(p, size): in place only, p or NULL. */
#define W_EXPAND_T(tag, so, fn, api) \
   void* MT_WFN(tag, so, fn)(void* p, SizeT n); \
   void* MT_WFN(tag, so, fn)(void* p, SizeT n) \
   { OrigFn o; UWord r; VALGRIND_GET_ORIG_FN(o); \
     if (!MT_REQ(MT_AA_OWNS, p, 0, 0, 0, api)) { CALL_FN_W_WW(r, o, p, n); return (void*)r; } \
     return (void*)MT_REQ(MT_AA_EXPAND, p, n, 0, 0, api); }
#define W_EXPAND(so, fn, api) W_EXPAND_T(20460, so, fn, api)

/* ------------------------------------------------------------ API families */

/* The libc-style API an allocator exports under prefix pfx. These names
   carry the stock preload's equivalence tags: where both preloads match the
   same function (the stock one covers some allocator libraries through its
   "somalloc" soname synonym), the two redirections are declared equivalent
   and Valgrind picks one silently; both feed the same heap model. */
#define MT_LIBC_API(so, pfx, api) \
   R_ALLOC_T(10010, so, MT_CAT(pfx, malloc), api) \
   R_CALLOC_T(10070, so, MT_CAT(pfx, calloc), api) \
   W_REALLOC_HOW(10090, so, MT_CAT(pfx, realloc), api, MT_REALLOC_ZERO_FREES) \
   W_FREE_T(10050, so, MT_CAT(pfx, free), api) \
   R_POSIX_MEMALIGN_T(10160, so, MT_CAT(pfx, posix_memalign), api) \
   R_MEMALIGN_T(10170, so, MT_CAT(pfx, aligned_alloc), api) \
   R_MEMALIGN_T(10110, so, MT_CAT(pfx, memalign), api) \
   R_VALLOC_T(10120, so, MT_CAT(pfx, valloc), api) \
   W_USABLE_T(10180, so, MT_CAT(pfx, malloc_usable_size), api)

/* jemalloc's extended API under prefix pfx. */
#define MT_JE_X_API(so, pfx, api) \
   R_MALLOCX(so, MT_CAT(pfx, mallocx), api) \
   W_RALLOCX(so, MT_CAT(pfx, rallocx), api) \
   W_XALLOCX(so, MT_CAT(pfx, xallocx), api) \
   W_SALLOCX(so, MT_CAT(pfx, sallocx), api) \
   W_FREE2(so, MT_CAT(pfx, dallocx), api) \
   W_FREE3(so, MT_CAT(pfx, sdallocx), api) \
   R_NALLOCX(so, MT_CAT(pfx, nallocx), api)

/* glibc's internal names, which allocators that override malloc in a shared
   library also export (libc itself calls them in a few places). */
#define MT_LIBC_INTERNAL_API(so, api) \
   R_ALLOC(so, __libc_malloc, api) \
   R_CALLOC(so, __libc_calloc, api) \
   W_REALLOC(so, __libc_realloc, api) \
   W_FREE(so, __libc_free, api) \
   W_FREE(so, __libc_cfree, api) \
   W_FREE_T(10050, so, cfree, api) \
   R_MEMALIGN(so, __libc_memalign, api) \
   R_VALLOC(so, __libc_valloc, api) \
   R_PVALLOC(so, __libc_pvalloc, api) \
   R_PVALLOC(so, pvalloc, api) \
   R_POSIX_MEMALIGN(so, __posix_memalign, api)

/* The C++ operators an allocator library exports (mangled names), with the
   stock preload's tags (see MT_LIBC_API). */
#define MT_CXX_API(so, api) \
   R_NEW_T(10030, so, _Znwm, api) \
   R_NEW_T(10030, so, _Znam, api) \
   R_ALLOC_NT_T(10010, so, _ZnwmRKSt9nothrow_t, api) \
   R_ALLOC_NT_T(10010, so, _ZnamRKSt9nothrow_t, api) \
   R_NEW_AL_T(10030, so, _ZnwmSt11align_val_t, api) \
   R_NEW_AL_T(10030, so, _ZnamSt11align_val_t, api) \
   R_ALLOC_AL_NT_T(10010, so, _ZnwmSt11align_val_tRKSt9nothrow_t, api) \
   R_ALLOC_AL_NT_T(10010, so, _ZnamSt11align_val_tRKSt9nothrow_t, api) \
   W_FREE_T(10050, so, _ZdlPv, api) \
   W_FREE_T(10050, so, _ZdaPv, api) \
   W_FREE2_T(10050, so, _ZdlPvm, api) \
   W_FREE2_T(10050, so, _ZdaPvm, api) \
   W_FREE2_T(10050, so, _ZdlPvRKSt9nothrow_t, api) \
   W_FREE2_T(10050, so, _ZdaPvRKSt9nothrow_t, api) \
   W_FREE2_T(10050, so, _ZdlPvSt11align_val_t, api) \
   W_FREE2_T(10050, so, _ZdaPvSt11align_val_t, api) \
   W_FREE3_T(10050, so, _ZdlPvmSt11align_val_t, api) \
   W_FREE3_T(10050, so, _ZdaPvmSt11align_val_t, api) \
   W_FREE3_T(10050, so, _ZdlPvSt11align_val_tRKSt9nothrow_t, api) \
   W_FREE3_T(10050, so, _ZdaPvSt11align_val_tRKSt9nothrow_t, api)

/* tcmalloc's own tc_* API (gperftools). */
#define MT_TC_API(so, api) \
   R_ALLOC(so, tc_malloc, api) \
   R_ALLOC(so, tc_malloc_skip_new_handler, api) \
   R_CALLOC(so, tc_calloc, api) \
   W_REALLOC(so, tc_realloc, api) \
   W_FREE(so, tc_free, api) \
   W_FREE(so, tc_cfree, api) \
   W_FREE2(so, tc_free_sized, api) \
   R_MEMALIGN(so, tc_memalign, api) \
   R_POSIX_MEMALIGN(so, tc_posix_memalign, api) \
   R_VALLOC(so, tc_valloc, api) \
   R_PVALLOC(so, tc_pvalloc, api) \
   W_USABLE(so, tc_malloc_size, api) \
   R_NALLOCX(so, tc_nallocx, api) \
   R_ALLOC(so, tc_new, api) \
   R_ALLOC(so, tc_newarray, api) \
   R_ALLOC_NT(so, tc_new_nothrow, api) \
   R_ALLOC_NT(so, tc_newarray_nothrow, api) \
   R_ALLOC_AL(so, tc_new_aligned, api) \
   R_ALLOC_AL(so, tc_newarray_aligned, api) \
   R_ALLOC_AL_NT(so, tc_new_aligned_nothrow, api) \
   R_ALLOC_AL_NT(so, tc_newarray_aligned_nothrow, api) \
   W_FREE(so, tc_delete, api) \
   W_FREE(so, tc_deletearray, api) \
   W_FREE2(so, tc_delete_nothrow, api) \
   W_FREE2(so, tc_deletearray_nothrow, api) \
   W_FREE2(so, tc_delete_sized, api) \
   W_FREE2(so, tc_deletearray_sized, api) \
   W_FREE2(so, tc_delete_aligned, api) \
   W_FREE2(so, tc_deletearray_aligned, api) \
   W_FREE3(so, tc_delete_sized_aligned, api) \
   W_FREE3(so, tc_deletearray_sized_aligned, api) \
   W_FREE3(so, tc_delete_aligned_nothrow, api) \
   W_FREE3(so, tc_deletearray_aligned_nothrow, api)

/* mimalloc's mi_* API: the allocating entry points in common use (the
   heap-object ones ignore the heap), every free, realloc and size query. */
#define MT_MI_API(so, api) \
   R_ALLOC(so, mi_malloc, api) \
   R_ALLOC(so, mi_malloc_small, api) \
   R_ALLOC(so, mi_new, api) \
   R_ALLOC(so, mi_new_nothrow, api) \
   R_ZALLOC(so, mi_zalloc, api) \
   R_ZALLOC(so, mi_zalloc_small, api) \
   R_CALLOC(so, mi_calloc, api) \
   R_MALLOCN(so, mi_mallocn, api) \
   R_MALLOCN(so, mi_new_n, api) \
   R_ALLOC_AL(so, mi_malloc_aligned, api) \
   R_ALLOC_AL(so, mi_new_aligned, api) \
   R_ALLOC_AL(so, mi_new_aligned_nothrow, api) \
   R_ZALLOC_AL(so, mi_zalloc_aligned, api) \
   R_CALLOC_AL(so, mi_calloc_aligned, api) \
   R_MEMALIGN(so, mi_memalign, api) \
   R_MEMALIGN(so, mi_aligned_alloc, api) \
   R_POSIX_MEMALIGN(so, mi_posix_memalign, api) \
   R_VALLOC(so, mi_valloc, api) \
   R_PVALLOC(so, mi_pvalloc, api) \
   R_STRDUP(so, mi_strdup, api) \
   R_STRNDUP(so, mi_strndup, api) \
   R_HEAP_ALLOC(so, mi_heap_malloc, api) \
   R_HEAP_ALLOC(so, mi_heap_malloc_small, api) \
   R_HEAP_ZALLOC(so, mi_heap_zalloc, api) \
   R_HEAP_CALLOC(so, mi_heap_calloc, api) \
   R_HEAP_ALLOC_AL(so, mi_heap_malloc_aligned, api) \
   R_HEAP_ZALLOC_AL(so, mi_heap_zalloc_aligned, api) \
   W_HEAP_REALLOC(so, mi_heap_realloc, api) \
   W_REALLOC_KEEP(so, mi_realloc, api) \
   W_REALLOC_KEEP(so, mi_new_realloc, api) \
   W_REALLOCF(so, mi_reallocf, api) \
   W_REZALLOC(so, mi_rezalloc, api) \
   W_REALLOCN(so, mi_reallocn, api) \
   W_REALLOCN(so, mi_new_reallocn, api) \
   W_RECALLOC(so, mi_recalloc, api) \
   W_REALLOC_AL(so, mi_realloc_aligned, api) \
   W_REZALLOC_AL(so, mi_rezalloc_aligned, api) \
   W_EXPAND(so, mi_expand, api) \
   W_FREE(so, mi_free, api) \
   W_FREE(so, mi_cfree, api) \
   W_FREE2(so, mi_free_size, api) \
   W_FREE2(so, mi_free_aligned, api) \
   W_FREE3(so, mi_free_size_aligned, api) \
   W_USABLE(so, mi_usable_size, api) \
   W_USABLE(so, mi_malloc_usable_size, api) \
   W_USABLE(so, mi_malloc_size, api) \
   R_GOOD_SIZE(so, mi_good_size, api) \
   R_GOOD_SIZE(so, mi_malloc_good_size, api)

/* ------------------------------------------------------------ instances */

/* jemalloc linked into the executable: tikv-jemallocator's default `_rjem_`
   names (the whole API), its unprefixed build (malloc & co. are the stock
   preload's; the extended API is ours) and `je_` builds. Each family of
   the executable is named by a soname synonym (VgSoSyn...) that the tool
   sets to NONE only when the executable defines that family's symbols
   (mt_redirect.c): the core tries every redirection whose soname matches
   against every symbol of the object, and 124 of them on an executable of
   60,000 symbols cost 0.2 s of each start. */
MT_LIBC_API(VG_SO_SYN(mtrjem), _rjem_, MT_API_JE_EXE_RJEM)
MT_JE_X_API(VG_SO_SYN(mtrjem), _rjem_, MT_API_JE_EXE_RJEM)
MT_JE_X_API(VG_SO_SYN(mtjex), , MT_API_JE_EXE)
MT_LIBC_API(VG_SO_SYN(mtje), je_, MT_API_JE_EXE_JE)
MT_JE_X_API(VG_SO_SYN(mtje), je_, MT_API_JE_EXE_JE)

/* The libc-style API, glibc's internal names and the C++ operators that
   allocator libraries export to override malloc (libjemalloc.so.2,
   libtcmalloc.so.4, libtcmalloc_minimal.so.4, libmimalloc.so.2, and any
   lib*malloc* doing the same): one set for all, since their bodies differ
   only by the name -v gives them. The core tries every redirection against
   every symbol of every object it loads, so each spec costs start-up time
   in every program, with or without these libraries. */
MT_LIBC_API(libZamallocZa, , MT_API_ALLOC_SO)
MT_LIBC_INTERNAL_API(libZamallocZa, MT_API_ALLOC_SO)
MT_CXX_API(libZamallocZa, MT_API_ALLOC_SO)

/* libjemalloc.so*: its extended API, unprefixed as Debian ships it, and a
   shared build with the _rjem_ prefix. */
MT_JE_X_API(libjemallocZdsoZa, , MT_API_JE_SO)
MT_LIBC_API(libjemallocZdsoZa, _rjem_, MT_API_JE_SO_RJEM)
MT_JE_X_API(libjemallocZdsoZa, _rjem_, MT_API_JE_SO_RJEM)

/* tcmalloc: tc_* in the executable (its malloc is the stock preload's) and
   in libtcmalloc*.so* (libtcmalloc.so.4, libtcmalloc_minimal.so.4, ...). */
MT_TC_API(VG_SO_SYN(mttc), MT_API_TC_EXE)
MT_TC_API(libtcmallocZa, MT_API_TC_SO)
R_NALLOCX(libtcmallocZa, nallocx, MT_API_TC_SO)

/* mimalloc: mi_* in the executable and in libmimalloc.so*, with the
   overriding names only mimalloc has. */
MT_MI_API(VG_SO_SYN(mtmi), MT_API_MI_EXE)
MT_MI_API(libmimallocZa, MT_API_MI_SO)
W_REALLOCN(libmimallocZa, reallocarray, MT_API_MI_SO)
W_REALLOCF(libmimallocZa, reallocf, MT_API_MI_SO)
W_USABLE(libmimallocZa, malloc_size, MT_API_MI_SO)
R_GOOD_SIZE(libmimallocZa, malloc_good_size, MT_API_MI_SO)

/* The throwing operator new where the stock preload has its own (libstdc++,
   libc, the executable): tag 10031, the stock's class at a higher
   priority, so the redirection picks this one (see R_NEW_T). */
#define MT_STDCXX_NEW(so) \
   R_NEW_T(10031, so, _Znwm, MT_API_STDCXX) \
   R_NEW_T(10031, so, _Znam, MT_API_STDCXX) \
   R_NEW_AL_T(10031, so, _ZnwmSt11align_val_t, MT_API_STDCXX) \
   R_NEW_AL_T(10031, so, _ZnamSt11align_val_t, MT_API_STDCXX)
MT_STDCXX_NEW(libstdcZpZpZa)
MT_STDCXX_NEW(libcZdsoZa)
MT_STDCXX_NEW(NONE)
