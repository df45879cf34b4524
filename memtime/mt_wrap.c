/* mt_wrap.c: the client side of --allocator=program, linked alone into
   vgpreload_mtwrap-amd64-linux.so (no stock malloc replacement beside it).
   Runs on the simulated CPU, inside the client.

   Every allocation entry point the default preload replaces is wrapped
   here instead: the wrapper tells the tool it is entering, calls the
   original (the program's allocator: glibc, libjemalloc.so, a static
   _rjem_ jemalloc), asks that allocator for the block's usable size and
   tells the tool the result (the protocol: mt_allocator.h). The tool keeps
   the nesting depth per thread, so an allocator calling itself (glibc's
   realloc calling malloc, operator new calling malloc, delete calling free)
   is counted once, at the outermost call, with the program's stack.

   Families wrapped, with the default preload's soname patterns:
     - malloc & co. and the C++ operators in libc, libstdc++ and any object
       defining them globally (the core's "somalloc" synonym: libjemalloc.so,
       libtcmalloc.so, an executable with a static malloc);
     - jemalloc's extended API (mallocx, rallocx, xallocx, dallocx,
       sdallocx) unprefixed, and its whole API under _rjem_ and je_, in the
       executable (the soname synonyms mt_redirect.c sets) and in
       libjemalloc.so*.
     - tcmalloc's tc_* and mimalloc's mi_* (heap API included), in the
       executable and in their libraries.
   Functions that only ask (usable size, nallocx, mi_good_size) are not
   wrapped: they change nothing. */

#define MT_PRELOAD 1
#include "pub_tool_basics.h"
#include "pub_tool_redir.h"
#include "valgrind.h"
#include "mt_allocator.h"

#define MT_CAT_(a, b) a##b
#define MT_CAT(a, b)  MT_CAT_(a, b)
#define MT_STR_(a)    #a
#define MT_STR(a)     MT_STR_(a)

#define MT_REQ(req, a1, a2, a3, a4, a5) \
   ((UWord)VALGRIND_DO_CLIENT_REQUEST_EXPR(0, (req), (UWord)(a1), (UWord)(a2), \
                                           (UWord)(a3), (UWord)(a4), (UWord)(a5)))

#define MT_EINVAL 22
#define MT_ENOMEM 12

/* The usable-size function of the C library or the allocator that
   overrides it, as the dynamic linker resolves it: the fallback when the
   object of the wrapped function has none (libstdc++'s operator new calls
   whichever malloc the program runs on). */
extern SizeT malloc_usable_size(void* p);

/* ------------------------------------------------------------ helpers */

/* Usable-size functions found so far, by the address of the wrapped
   function whose object defines them. The threads run one at a time, and
   an entry is complete before its key is written. */
#define MT_UCACHE 32
static struct { UWord orig; UWord fn; } ucache[MT_UCACHE];

static UWord usable_fn(const char* name, UWord orig)
{
   UWord fn;
   int i;
   for (i = 0; i < MT_UCACHE && ucache[i].orig != 0; i++)
      if (ucache[i].orig == orig)
         return ucache[i].fn;
   fn = MT_REQ(MT_PW_RESOLVE, name, orig, 0, 0, 0);
   if (fn == 0)
      fn = (UWord)&malloc_usable_size;
   if (i < MT_UCACHE) {
      ucache[i].fn = fn;
      ucache[i].orig = orig;
   }
   return fn;
}

static SizeT usable_size(const char* name, UWord orig, UWord p)
{
   OrigFn f;
   UWord r;
   f.nraddr = usable_fn(name, orig);
   CALL_FN_W_W(r, f, p);
   return r;
}

/* The allocator's own account, read when the tool asks (mt_allocator.h):
   jemalloc's mallctl after refreshing its epoch, tcmalloc's numeric
   properties, mimalloc's process info, glibc's mallinfo2. */
static void read_stats(void)
{
   static const char* const je_names[MT_JE_N_STATS] = { MT_JE_STATS_NAMES };
   static const char* const tc_names[MT_TC_N_STATS] = { MT_TC_STATS_NAMES };
   MtPwStats s;
   OrigFn f;
   UWord r;
   int i;
   for (i = 0; i < MT_PW_STATS_N; i++)
      s.v[i] = 0;
   s.kind = MT_PW_STATS_NONE;
   s.fn = 0;
   s.ok = 0;
   MT_REQ(MT_PW_STATS_HOW, &s, 0, 0, 0, 0);
   if (s.fn == 0)
      return;
   f.nraddr = s.fn;
   if (s.kind == MT_PW_STATS_JEMALLOC) {
      ULong epoch = 1;
      SizeT sz = sizeof epoch;
      CALL_FN_W_5W(r, f, "epoch", &epoch, &sz, &epoch, sizeof epoch);
      for (i = 0; i < MT_JE_N_STATS; i++) {
         SizeT v = 0;
         sz = sizeof v;
         CALL_FN_W_5W(r, f, je_names[i], &v, &sz, 0, 0);
         if (r == 0 && sz == sizeof v) {
            s.v[i] = v;
            s.ok |= (UWord)1 << i;
         }
      }
   } else if (s.kind == MT_PW_STATS_TCMALLOC) {
      /* int MallocExtension_GetNumericProperty(name, size_t*): non-zero
         when the property is known. */
      for (i = 0; i < MT_TC_N_STATS; i++) {
         SizeT v = 0;
         CALL_FN_W_WW(r, f, tc_names[i], &v);
         if ((int)r != 0) {
            s.v[i] = v;
            s.ok |= (UWord)1 << i;
         }
      }
   } else if (s.kind == MT_PW_STATS_MIMALLOC) {
      /* mi_process_info(elapsed, user, system, current_rss, peak_rss,
         current_commit, peak_commit, page_faults): only the commit is
         mimalloc's own; its RSS on Linux is that same estimate, or
         getrusage's, which under Valgrind is Valgrind's whole process. */
      CALL_FN_W_8W(r, f, 0, 0, 0, 0, 0, &s.v[MT_MI_COMMIT],
                   &s.v[MT_MI_PEAK_COMMIT], 0);
      s.ok = (1 << MT_MI_COMMIT) | (1 << MT_MI_PEAK_COMMIT);
   } else if (s.kind == MT_PW_STATS_GLIBC) {
      /* struct mallinfo2: ten size_t, returned through a hidden pointer. */
      CALL_FN_W_W(r, f, &s.v[0]);
      s.ok = (1 << 10) - 1;
   }
   MT_REQ(MT_PW_STATS, &s, 0, 0, 0, 0);
}

static UWord enter(MtPwKind kind, MtPwApi api, UWord p, UWord n, UWord al)
{
   return MT_REQ(MT_PW_ENTER, MT_PW_KA(kind, api), p, n, al, 0);
}

/* After the original: the outermost call reports what it made. */
static void leave(MtPwKind kind, MtPwApi api, UWord outer, const char* uname,
                  UWord orig, UWord p, UWord res, UWord n)
{
   SizeT u = 0;
   if (outer == MT_PW_OUTER && res != 0 && kind != MT_PK_FREE)
      u = usable_size(uname, orig, res);
   if (MT_REQ(MT_PW_LEAVE, MT_PW_KA(kind, api), p, res, n, u))
      read_stats();
}

/* operator new's contract is to throw std::bad_alloc: memtime refuses a
   block only under --heap-limit-action=fail, and then throws through the
   C++ runtime's own thrower, as the default preload does. */
extern void _ZSt17__throw_bad_allocv(void) __attribute__((weak, noreturn));
static __attribute__((noreturn)) void mt_new_refused(SizeT n)
{
   if (_ZSt17__throw_bad_allocv)
      _ZSt17__throw_bad_allocv();
   VALGRIND_PRINTF("memtime: operator new(%lu) refused and std::bad_alloc "
                   "cannot be thrown without libstdc++: stopping\n",
                   (unsigned long)n);
   __builtin_trap();
}

/* ------------------------------------------------------------ generators
   Each takes (tag, so, fn, api, u): the equivalence tag, the Z-encoded
   soname pattern, the symbol, the MtPwApi, and the name of the usable-size
   function in the same object. REQ is the requested size as the default
   mode records it. */
#define MT_WFN(tag, so, fn) VG_WRAP_FUNCTION_EZU(tag, so, fn)
#define W_PROTO(ret, tag, so, fn, args) \
   ret MT_WFN(tag, so, fn) args; ret MT_WFN(tag, so, fn) args

/* One-argument allocation: malloc(n), valloc(n), pvalloc(n). */
#define W_ALLOC1(tag, so, fn, api, u, REQ, refused) \
   W_PROTO(void*, tag, so, fn, (SizeT n)) \
   { OrigFn o; UWord r, w; VALGRIND_GET_ORIG_FN(o); \
     w = enter(MT_PK_ALLOC, api, 0, (REQ), 0); \
     if (w == MT_PW_REFUSE) { refused; return NULL; } \
     CALL_FN_W_W(r, o, n); \
     leave(MT_PK_ALLOC, api, w, u, o.nraddr, 0, r, (REQ)); return (void*)r; }
/* Two arguments, the size first: operator new(n, align | nothrow),
   mallocx(n, flags). */
#define W_ALLOC2(tag, so, fn, api, u, REQ, refused) \
   W_PROTO(void*, tag, so, fn, (SizeT n, UWord x)) \
   { OrigFn o; UWord r, w; VALGRIND_GET_ORIG_FN(o); \
     w = enter(MT_PK_ALLOC, api, 0, (REQ), 0); \
     if (w == MT_PW_REFUSE) { refused; return NULL; } \
     CALL_FN_W_WW(r, o, n, x); \
     leave(MT_PK_ALLOC, api, w, u, o.nraddr, 0, r, (REQ)); return (void*)r; }
/* operator new(n, align, nothrow). */
#define W_ALLOC3(tag, so, fn, api, u) \
   W_PROTO(void*, tag, so, fn, (SizeT n, UWord x, UWord y)) \
   { OrigFn o; UWord r, w; VALGRIND_GET_ORIG_FN(o); \
     w = enter(MT_PK_ALLOC, api, 0, n, 0); \
     if (w == MT_PW_REFUSE) return NULL; \
     CALL_FN_W_WWW(r, o, n, x, y); \
     leave(MT_PK_ALLOC, api, w, u, o.nraddr, 0, r, n); return (void*)r; }
/* memalign(al, n), aligned_alloc(al, n). */
#define W_MEMALIGN(tag, so, fn, api, u) \
   W_PROTO(void*, tag, so, fn, (SizeT al, SizeT n)) \
   { OrigFn o; UWord r, w; VALGRIND_GET_ORIG_FN(o); \
     w = enter(MT_PK_ALLOC, api, 0, n, al); \
     if (w == MT_PW_REFUSE) return NULL; \
     CALL_FN_W_WW(r, o, al, n); \
     leave(MT_PK_ALLOC, api, w, u, o.nraddr, 0, r, n); return (void*)r; }
/* calloc(c, n): an overflowing product fails in the allocator. */
#define W_CALLOC(tag, so, fn, api, u) \
   W_PROTO(void*, tag, so, fn, (SizeT c, SizeT n)) \
   { OrigFn o; UWord r, w; SizeT t = c * n; VALGRIND_GET_ORIG_FN(o); \
     if (n != 0 && c > ((SizeT)-1) / n) t = (SizeT)-1; \
     w = enter(MT_PK_ALLOC, api, 0, t, 0); \
     if (w == MT_PW_REFUSE) return NULL; \
     CALL_FN_W_WW(r, o, c, n); \
     leave(MT_PK_ALLOC, api, w, u, o.nraddr, 0, r, t); return (void*)r; }
/* posix_memalign(&p, al, n). */
#define W_POSIX_MEMALIGN(tag, so, fn, api, u) \
   W_PROTO(int, tag, so, fn, (void** out, SizeT al, SizeT n)) \
   { OrigFn o; UWord r, w; VALGRIND_GET_ORIG_FN(o); \
     w = enter(MT_PK_ALLOC, api, 0, n, al); \
     if (w == MT_PW_REFUSE) return MT_ENOMEM; \
     CALL_FN_W_WWW(r, o, out, al, n); \
     leave(MT_PK_ALLOC, api, w, u, o.nraddr, 0, \
           (int)r == 0 ? (UWord)*out : 0, n); \
     return (int)r; }
/* free(p) and the frees with more arguments (sized, aligned, nothrow,
   dallocx(p, flags), sdallocx(p, n, flags)). */
#define W_FREE1(tag, so, fn, api) \
   W_PROTO(void, tag, so, fn, (void* p)) \
   { OrigFn o; UWord w; VALGRIND_GET_ORIG_FN(o); \
     w = enter(MT_PK_FREE, api, (UWord)p, 0, 0); \
     CALL_FN_v_W(o, p); \
     leave(MT_PK_FREE, api, w, 0, 0, (UWord)p, 0, 0); }
#define W_FREE2(tag, so, fn, api) \
   W_PROTO(void, tag, so, fn, (void* p, UWord x)) \
   { OrigFn o; UWord w; VALGRIND_GET_ORIG_FN(o); \
     w = enter(MT_PK_FREE, api, (UWord)p, 0, 0); \
     CALL_FN_v_WW(o, p, x); \
     leave(MT_PK_FREE, api, w, 0, 0, (UWord)p, 0, 0); }
#define W_FREE3(tag, so, fn, api) \
   W_PROTO(void, tag, so, fn, (void* p, UWord x, UWord y)) \
   { OrigFn o; UWord w; VALGRIND_GET_ORIG_FN(o); \
     w = enter(MT_PK_FREE, api, (UWord)p, 0, 0); \
     CALL_FN_v_WWW(o, p, x, y); \
     leave(MT_PK_FREE, api, w, 0, 0, (UWord)p, 0, 0); }
/* realloc(p, n); rallocx(p, n, flags), whose size 0 the default mode
   records as 1. */
#define W_REALLOC(tag, so, fn, api, u) \
   W_PROTO(void*, tag, so, fn, (void* p, SizeT n)) \
   { OrigFn o; UWord r, w; VALGRIND_GET_ORIG_FN(o); \
     w = enter(MT_PK_REALLOC, api, (UWord)p, n, 0); \
     if (w == MT_PW_REFUSE) return NULL; \
     CALL_FN_W_WW(r, o, p, n); \
     leave(MT_PK_REALLOC, api, w, u, o.nraddr, (UWord)p, r, n); \
     return (void*)r; }
#define W_REALLOCARRAY(tag, so, fn, api, u) \
   W_PROTO(void*, tag, so, fn, (void* p, SizeT c, SizeT n)) \
   { OrigFn o; UWord r, w; SizeT t = c * n; VALGRIND_GET_ORIG_FN(o); \
     if (n != 0 && c > ((SizeT)-1) / n) t = (SizeT)-1; \
     w = enter(MT_PK_REALLOC, api, (UWord)p, t, 0); \
     if (w == MT_PW_REFUSE) return NULL; \
     CALL_FN_W_WWW(r, o, p, c, n); \
     leave(MT_PK_REALLOC, api, w, u, o.nraddr, (UWord)p, r, t); \
     return (void*)r; }
#define W_RALLOCX(tag, so, fn, api, u) \
   W_PROTO(void*, tag, so, fn, (void* p, SizeT n, UWord flags)) \
   { OrigFn o; UWord r, w; SizeT t = n ? n : 1; VALGRIND_GET_ORIG_FN(o); \
     w = enter(MT_PK_REALLOC, api, (UWord)p, t, 0); \
     if (w == MT_PW_REFUSE) return NULL; \
     CALL_FN_W_WWW(r, o, p, n, flags); \
     leave(MT_PK_REALLOC, api, w, u, o.nraddr, (UWord)p, r, t); \
     return (void*)r; }
/* xallocx(p, n, extra, flags): in place only; returns the usable size.
   The block's request becomes n+extra, at most what it got, when it got
   at least n. */
#define W_XALLOCX(tag, so, fn, api) \
   W_PROTO(SizeT, tag, so, fn, (void* p, SizeT n, SizeT extra, UWord flags)) \
   { OrigFn o; UWord r, w; SizeT t = n + extra; VALGRIND_GET_ORIG_FN(o); \
     if (t < n) t = (SizeT)-1; \
     w = enter(MT_PK_OTHER, api, (UWord)p, 0, 0); \
     CALL_FN_W_WWWW(r, o, p, n, extra, flags); \
     if (r >= n && n != 0) { \
        MT_REQ(MT_PW_LEAVE, MT_PW_KA(MT_PK_RESIZE, api), p, p, \
               t < r ? t : r, r); \
     } else { \
        leave(MT_PK_OTHER, api, w, 0, 0, (UWord)p, 0, 0); \
     } \
     return r; }

/* calloc-like with one more argument after: mi_calloc_aligned(c, n, al). */
#define W_CALLOC3(tag, so, fn, api, u) \
   W_PROTO(void*, tag, so, fn, (SizeT c, SizeT n, UWord x)) \
   { OrigFn o; UWord r, w; SizeT t = c * n; VALGRIND_GET_ORIG_FN(o); \
     if (n != 0 && c > ((SizeT)-1) / n) t = (SizeT)-1; \
     w = enter(MT_PK_ALLOC, api, 0, t, 0); \
     if (w == MT_PW_REFUSE) return NULL; \
     CALL_FN_W_WWW(r, o, c, n, x); \
     leave(MT_PK_ALLOC, api, w, u, o.nraddr, 0, r, t); return (void*)r; }
/* mimalloc's heap API: the heap first, then (n), (c, n) or (n, al). */
#define W_HEAP_ALLOC(tag, so, fn, api, u) \
   W_PROTO(void*, tag, so, fn, (void* h, SizeT n)) \
   { OrigFn o; UWord r, w; VALGRIND_GET_ORIG_FN(o); \
     w = enter(MT_PK_ALLOC, api, 0, n, 0); \
     if (w == MT_PW_REFUSE) return NULL; \
     CALL_FN_W_WW(r, o, h, n); \
     leave(MT_PK_ALLOC, api, w, u, o.nraddr, 0, r, n); return (void*)r; }
#define W_HEAP_ALLOC3(tag, so, fn, api, u, CALLOC) \
   W_PROTO(void*, tag, so, fn, (void* h, SizeT a, SizeT b)) \
   { OrigFn o; UWord r, w; SizeT t = (CALLOC) ? a * b : a; VALGRIND_GET_ORIG_FN(o); \
     if ((CALLOC) && b != 0 && a > ((SizeT)-1) / b) t = (SizeT)-1; \
     w = enter(MT_PK_ALLOC, api, 0, t, 0); \
     if (w == MT_PW_REFUSE) return NULL; \
     CALL_FN_W_WWW(r, o, h, a, b); \
     leave(MT_PK_ALLOC, api, w, u, o.nraddr, 0, r, t); return (void*)r; }
#define W_HEAP_REALLOC(tag, so, fn, api, u) \
   W_PROTO(void*, tag, so, fn, (void* h, void* p, SizeT n)) \
   { OrigFn o; UWord r, w; VALGRIND_GET_ORIG_FN(o); \
     w = enter(MT_PK_REALLOC, api, (UWord)p, n, 0); \
     if (w == MT_PW_REFUSE) return NULL; \
     CALL_FN_W_WWW(r, o, h, p, n); \
     leave(MT_PK_REALLOC, api, w, u, o.nraddr, (UWord)p, r, n); \
     return (void*)r; }
/* realloc(p, n, x): the size second (mi_realloc_aligned(p, n, al)). */
#define W_REALLOC3(tag, so, fn, api, u) \
   W_PROTO(void*, tag, so, fn, (void* p, SizeT n, UWord x)) \
   { OrigFn o; UWord r, w; VALGRIND_GET_ORIG_FN(o); \
     w = enter(MT_PK_REALLOC, api, (UWord)p, n, 0); \
     if (w == MT_PW_REFUSE) return NULL; \
     CALL_FN_W_WWW(r, o, p, n, x); \
     leave(MT_PK_REALLOC, api, w, u, o.nraddr, (UWord)p, r, n); \
     return (void*)r; }
/* mi_expand(p, n): in place only, p or NULL. */
#define W_EXPAND(tag, so, fn, api, u) \
   W_PROTO(void*, tag, so, fn, (void* p, SizeT n)) \
   { OrigFn o; UWord r, w; VALGRIND_GET_ORIG_FN(o); \
     w = enter(MT_PK_OTHER, api, (UWord)p, 0, 0); \
     CALL_FN_W_WW(r, o, p, n); \
     if (r != 0 && r == (UWord)p) \
        MT_REQ(MT_PW_LEAVE, MT_PW_KA(MT_PK_RESIZE, api), p, p, n, \
               usable_size(u, o.nraddr, r)); \
     else \
        leave(MT_PK_OTHER, api, w, 0, 0, (UWord)p, 0, 0); \
     return (void*)r; }
/* mi_strdup(s), mi_strndup(s, n): the block holds the copy and its NUL. */
#define W_STRDUP(tag, so, fn, api, u) \
   W_PROTO(char*, tag, so, fn, (const char* s)) \
   { OrigFn o; UWord r, w; SizeT t = 0; VALGRIND_GET_ORIG_FN(o); \
     w = enter(MT_PK_ALLOC, api, 0, 0, 0); \
     CALL_FN_W_W(r, o, s); \
     if (r) { const char* q = (const char*)r; while (q[t]) t++; t++; } \
     leave(MT_PK_ALLOC, api, w, u, o.nraddr, 0, r, t); return (char*)r; }
#define W_STRNDUP(tag, so, fn, api, u) \
   W_PROTO(char*, tag, so, fn, (const char* s, SizeT n)) \
   { OrigFn o; UWord r, w; SizeT t = 0; VALGRIND_GET_ORIG_FN(o); \
     w = enter(MT_PK_ALLOC, api, 0, 0, 0); \
     CALL_FN_W_WW(r, o, s, n); \
     if (r) { const char* q = (const char*)r; while (q[t]) t++; t++; } \
     leave(MT_PK_ALLOC, api, w, u, o.nraddr, 0, r, t); return (char*)r; }

/* jemalloc's control API: mallctl(name, old, oldlen, new, newlen),
   mallctlnametomib(name, mib, miblen), mallctlbymib(mib, miblen, old,
   oldlen, new, newlen), malloc_stats_print(cb, opaque, opts): only marked
   as open, so that no statistics are read inside them. */
#define W_CTL5(tag, so, fn, api) \
   W_PROTO(int, tag, so, fn, (UWord a, UWord b, UWord c, UWord d, UWord e)) \
   { OrigFn o; UWord r; VALGRIND_GET_ORIG_FN(o); \
     enter(MT_PK_CTL, api, 0, 0, 0); \
     CALL_FN_W_5W(r, o, a, b, c, d, e); \
     MT_REQ(MT_PW_LEAVE, MT_PW_KA(MT_PK_CTL, api), 0, 0, 0, 0); \
     return (int)r; }
#define W_CTL3(tag, so, fn, api) \
   W_PROTO(int, tag, so, fn, (UWord a, UWord b, UWord c)) \
   { OrigFn o; UWord r; VALGRIND_GET_ORIG_FN(o); \
     enter(MT_PK_CTL, api, 0, 0, 0); \
     CALL_FN_W_WWW(r, o, a, b, c); \
     MT_REQ(MT_PW_LEAVE, MT_PW_KA(MT_PK_CTL, api), 0, 0, 0, 0); \
     return (int)r; }
#define W_CTL6(tag, so, fn, api) \
   W_PROTO(int, tag, so, fn, (UWord a, UWord b, UWord c, UWord d, UWord e, UWord f)) \
   { OrigFn o; UWord r; VALGRIND_GET_ORIG_FN(o); \
     enter(MT_PK_CTL, api, 0, 0, 0); \
     CALL_FN_W_6W(r, o, a, b, c, d, e, f); \
     MT_REQ(MT_PW_LEAVE, MT_PW_KA(MT_PK_CTL, api), 0, 0, 0, 0); \
     return (int)r; }
#define W_CTLV3(tag, so, fn, api) \
   W_PROTO(void, tag, so, fn, (UWord a, UWord b, UWord c)) \
   { OrigFn o; VALGRIND_GET_ORIG_FN(o); \
     enter(MT_PK_CTL, api, 0, 0, 0); \
     CALL_FN_v_WWW(o, a, b, c); \
     MT_REQ(MT_PW_LEAVE, MT_PW_KA(MT_PK_CTL, api), 0, 0, 0, 0); }

#define NOTHING (void)0
#define PAGE_UP(n) ((n) == 0 ? 4096 : (((n) + 4095) & ~(SizeT)4095))

/* ------------------------------------------------------------ families */

/* The C library's API under prefix pfx; u: its usable-size function.
   Tags as the default preload's (vg_replace_malloc.c), so that two specs
   of one function (libc.so and somalloc) resolve silently. */
#define MT_W_LIBC(so, pfx, api) \
   W_ALLOC1(10010, so, MT_CAT(pfx, malloc), api, \
            MT_STR(MT_CAT(pfx, malloc_usable_size)), n, NOTHING) \
   W_CALLOC(10070, so, MT_CAT(pfx, calloc), api, \
            MT_STR(MT_CAT(pfx, malloc_usable_size))) \
   W_REALLOC(10090, so, MT_CAT(pfx, realloc), api, \
             MT_STR(MT_CAT(pfx, malloc_usable_size))) \
   W_FREE1(10050, so, MT_CAT(pfx, free), api) \
   W_POSIX_MEMALIGN(10160, so, MT_CAT(pfx, posix_memalign), api, \
                    MT_STR(MT_CAT(pfx, malloc_usable_size))) \
   W_MEMALIGN(10170, so, MT_CAT(pfx, aligned_alloc), api, \
              MT_STR(MT_CAT(pfx, malloc_usable_size))) \
   W_MEMALIGN(10110, so, MT_CAT(pfx, memalign), api, \
              MT_STR(MT_CAT(pfx, malloc_usable_size))) \
   W_ALLOC1(10120, so, MT_CAT(pfx, valloc), api, \
            MT_STR(MT_CAT(pfx, malloc_usable_size)), n, NOTHING)

/* Names only the unprefixed C library API has. */
#define MT_W_LIBC_MORE(so) \
   W_ALLOC1(10130, so, pvalloc, MT_PA_LIBC, "malloc_usable_size", \
            PAGE_UP(n), NOTHING) \
   W_REALLOCARRAY(10100, so, reallocarray, MT_PA_LIBC, "malloc_usable_size") \
   W_FREE1(10050, so, cfree, MT_PA_LIBC)

/* The C++ operators, every form. */
#define MT_W_CXX(so) \
   W_ALLOC1(10030, so, _Znwm, MT_PA_CXX, "malloc_usable_size", n, \
            mt_new_refused(n)) \
   W_ALLOC1(10030, so, _Znam, MT_PA_CXX, "malloc_usable_size", n, \
            mt_new_refused(n)) \
   W_ALLOC2(10010, so, _ZnwmRKSt9nothrow_t, MT_PA_CXX, "malloc_usable_size", \
            n, NOTHING) \
   W_ALLOC2(10010, so, _ZnamRKSt9nothrow_t, MT_PA_CXX, "malloc_usable_size", \
            n, NOTHING) \
   W_ALLOC2(10030, so, _ZnwmSt11align_val_t, MT_PA_CXX, "malloc_usable_size", \
            n, mt_new_refused(n)) \
   W_ALLOC2(10030, so, _ZnamSt11align_val_t, MT_PA_CXX, "malloc_usable_size", \
            n, mt_new_refused(n)) \
   W_ALLOC3(10010, so, _ZnwmSt11align_val_tRKSt9nothrow_t, MT_PA_CXX, \
            "malloc_usable_size") \
   W_ALLOC3(10010, so, _ZnamSt11align_val_tRKSt9nothrow_t, MT_PA_CXX, \
            "malloc_usable_size") \
   W_FREE1(10050, so, _ZdlPv, MT_PA_CXX) \
   W_FREE1(10050, so, _ZdaPv, MT_PA_CXX) \
   W_FREE2(10050, so, _ZdlPvm, MT_PA_CXX) \
   W_FREE2(10050, so, _ZdaPvm, MT_PA_CXX) \
   W_FREE2(10050, so, _ZdlPvRKSt9nothrow_t, MT_PA_CXX) \
   W_FREE2(10050, so, _ZdaPvRKSt9nothrow_t, MT_PA_CXX) \
   W_FREE2(10050, so, _ZdlPvSt11align_val_t, MT_PA_CXX) \
   W_FREE2(10050, so, _ZdaPvSt11align_val_t, MT_PA_CXX) \
   W_FREE3(10050, so, _ZdlPvmSt11align_val_t, MT_PA_CXX) \
   W_FREE3(10050, so, _ZdaPvmSt11align_val_t, MT_PA_CXX) \
   W_FREE3(10050, so, _ZdlPvSt11align_val_tRKSt9nothrow_t, MT_PA_CXX) \
   W_FREE3(10050, so, _ZdaPvSt11align_val_tRKSt9nothrow_t, MT_PA_CXX)

/* jemalloc's extended API under prefix pfx. */
#define MT_W_JE_X(so, pfx, api) \
   W_ALLOC2(20140, so, MT_CAT(pfx, mallocx), api, \
            MT_STR(MT_CAT(pfx, malloc_usable_size)), n ? n : 1, NOTHING) \
   W_RALLOCX(20440, so, MT_CAT(pfx, rallocx), api, \
             MT_STR(MT_CAT(pfx, malloc_usable_size))) \
   W_XALLOCX(20450, so, MT_CAT(pfx, xallocx), api) \
   W_FREE2(20310, so, MT_CAT(pfx, dallocx), api) \
   W_FREE3(20320, so, MT_CAT(pfx, sdallocx), api) \
   W_CTL5(20500, so, MT_CAT(pfx, mallctl), api) \
   W_CTL3(20510, so, MT_CAT(pfx, mallctlnametomib), api) \
   W_CTL6(20520, so, MT_CAT(pfx, mallctlbymib), api) \
   W_CTLV3(20530, so, MT_CAT(pfx, malloc_stats_print), api)


/* tcmalloc's own tc_* API (gperftools). */
#define MT_W_TC(so, api) \
   W_ALLOC1(20010, so, tc_malloc, api, "tc_malloc_size", n, NOTHING) \
   W_ALLOC1(20010, so, tc_malloc_skip_new_handler, api, "tc_malloc_size", n, NOTHING) \
   W_CALLOC(20040, so, tc_calloc, api, "tc_malloc_size") \
   W_REALLOC(20330, so, tc_realloc, api, "tc_malloc_size") \
   W_FREE1(20300, so, tc_free, api) \
   W_FREE1(20300, so, tc_cfree, api) \
   W_FREE2(20310, so, tc_free_sized, api) \
   W_MEMALIGN(20060, so, tc_memalign, api, "tc_malloc_size") \
   W_POSIX_MEMALIGN(20130, so, tc_posix_memalign, api, "tc_malloc_size") \
   W_ALLOC1(20110, so, tc_valloc, api, "tc_malloc_size", n, NOTHING) \
   W_ALLOC1(20120, so, tc_pvalloc, api, "tc_malloc_size", PAGE_UP(n), NOTHING) \
   W_ALLOC1(20010, so, tc_new, api, "tc_malloc_size", n, mt_new_refused(n)) \
   W_ALLOC1(20010, so, tc_newarray, api, "tc_malloc_size", n, mt_new_refused(n)) \
   W_ALLOC2(20020, so, tc_new_nothrow, api, "tc_malloc_size", n, NOTHING) \
   W_ALLOC2(20020, so, tc_newarray_nothrow, api, "tc_malloc_size", n, NOTHING) \
   W_ALLOC2(20070, so, tc_new_aligned, api, "tc_malloc_size", n, mt_new_refused(n)) \
   W_ALLOC2(20070, so, tc_newarray_aligned, api, "tc_malloc_size", n, mt_new_refused(n)) \
   W_ALLOC3(20080, so, tc_new_aligned_nothrow, api, "tc_malloc_size") \
   W_ALLOC3(20080, so, tc_newarray_aligned_nothrow, api, "tc_malloc_size") \
   W_FREE1(20300, so, tc_delete, api) \
   W_FREE1(20300, so, tc_deletearray, api) \
   W_FREE2(20310, so, tc_delete_nothrow, api) \
   W_FREE2(20310, so, tc_deletearray_nothrow, api) \
   W_FREE2(20310, so, tc_delete_sized, api) \
   W_FREE2(20310, so, tc_deletearray_sized, api) \
   W_FREE2(20310, so, tc_delete_aligned, api) \
   W_FREE2(20310, so, tc_deletearray_aligned, api) \
   W_FREE3(20320, so, tc_delete_sized_aligned, api) \
   W_FREE3(20320, so, tc_deletearray_sized_aligned, api) \
   W_FREE3(20320, so, tc_delete_aligned_nothrow, api) \
   W_FREE3(20320, so, tc_deletearray_aligned_nothrow, api)

/* mimalloc's mi_* API: the entry points the default mode intercepts. */
#define MI_U "mi_usable_size"
#define MT_W_MI(so, api) \
   W_ALLOC1(20010, so, mi_malloc, api, MI_U, n, NOTHING) \
   W_ALLOC1(20010, so, mi_malloc_small, api, MI_U, n, NOTHING) \
   W_ALLOC1(20010, so, mi_new, api, MI_U, n, mt_new_refused(n)) \
   W_ALLOC1(20010, so, mi_new_nothrow, api, MI_U, n, NOTHING) \
   W_ALLOC1(20030, so, mi_zalloc, api, MI_U, n, NOTHING) \
   W_ALLOC1(20030, so, mi_zalloc_small, api, MI_U, n, NOTHING) \
   W_CALLOC(20040, so, mi_calloc, api, MI_U) \
   W_CALLOC(20050, so, mi_mallocn, api, MI_U) \
   W_CALLOC(20050, so, mi_new_n, api, MI_U) \
   W_ALLOC2(20070, so, mi_malloc_aligned, api, MI_U, n, NOTHING) \
   W_ALLOC2(20070, so, mi_new_aligned, api, MI_U, n, mt_new_refused(n)) \
   W_ALLOC2(20070, so, mi_new_aligned_nothrow, api, MI_U, n, NOTHING) \
   W_ALLOC2(20090, so, mi_zalloc_aligned, api, MI_U, n, NOTHING) \
   W_CALLOC3(20100, so, mi_calloc_aligned, api, MI_U) \
   W_MEMALIGN(20060, so, mi_memalign, api, MI_U) \
   W_MEMALIGN(20060, so, mi_aligned_alloc, api, MI_U) \
   W_POSIX_MEMALIGN(20130, so, mi_posix_memalign, api, MI_U) \
   W_ALLOC1(20110, so, mi_valloc, api, MI_U, n, NOTHING) \
   W_ALLOC1(20120, so, mi_pvalloc, api, MI_U, PAGE_UP(n), NOTHING) \
   W_STRDUP(20220, so, mi_strdup, api, MI_U) \
   W_STRNDUP(20230, so, mi_strndup, api, MI_U) \
   W_HEAP_ALLOC(20170, so, mi_heap_malloc, api, MI_U) \
   W_HEAP_ALLOC(20170, so, mi_heap_malloc_small, api, MI_U) \
   W_HEAP_ALLOC(20180, so, mi_heap_zalloc, api, MI_U) \
   W_HEAP_ALLOC3(20190, so, mi_heap_calloc, api, MI_U, 1) \
   W_HEAP_ALLOC3(20200, so, mi_heap_malloc_aligned, api, MI_U, 0) \
   W_HEAP_ALLOC3(20210, so, mi_heap_zalloc_aligned, api, MI_U, 0) \
   W_HEAP_REALLOC(20410, so, mi_heap_realloc, api, MI_U) \
   W_REALLOC(20340, so, mi_realloc, api, MI_U) \
   W_REALLOC(20340, so, mi_new_realloc, api, MI_U) \
   W_REALLOC(20350, so, mi_reallocf, api, MI_U) \
   W_REALLOC(20360, so, mi_rezalloc, api, MI_U) \
   W_REALLOCARRAY(20370, so, mi_reallocn, api, MI_U) \
   W_REALLOCARRAY(20370, so, mi_new_reallocn, api, MI_U) \
   W_REALLOCARRAY(20380, so, mi_recalloc, api, MI_U) \
   W_REALLOC3(20390, so, mi_realloc_aligned, api, MI_U) \
   W_REALLOC3(20400, so, mi_rezalloc_aligned, api, MI_U) \
   W_EXPAND(20460, so, mi_expand, api, MI_U) \
   W_FREE1(20300, so, mi_free, api) \
   W_FREE1(20300, so, mi_cfree, api) \
   W_FREE2(20310, so, mi_free_size, api) \
   W_FREE2(20310, so, mi_free_aligned, api) \
   W_FREE3(20320, so, mi_free_size_aligned, api)

/* ------------------------------------------------------------ instances */

/* malloc & co.: the C library's, and any object's that defines them
   globally (the core's somalloc synonym). */
MT_W_LIBC(libcZdsoZa, , MT_PA_LIBC)
MT_W_LIBC_MORE(libcZdsoZa)
MT_W_LIBC(VG_SO_SYN(somalloc), , MT_PA_LIBC)
MT_W_LIBC_MORE(VG_SO_SYN(somalloc))

/* The C++ operators: libstdc++'s, libc's (none today), any allocator's. */
MT_W_CXX(libstdcZpZpZa)
MT_W_CXX(VG_SO_SYN(somalloc))

/* jemalloc in the executable (the synonyms mt_redirect.c sets when the
   executable defines the family) and in libjemalloc.so*. */
MT_W_LIBC(VG_SO_SYN(mtrjem), _rjem_, MT_PA_JE_EXE_RJEM)
MT_W_JE_X(VG_SO_SYN(mtrjem), _rjem_, MT_PA_JE_EXE_RJEM)
MT_W_JE_X(VG_SO_SYN(mtjex), , MT_PA_JE_EXE)
MT_W_LIBC(VG_SO_SYN(mtje), je_, MT_PA_JE_EXE_JE)
MT_W_JE_X(VG_SO_SYN(mtje), je_, MT_PA_JE_EXE_JE)
MT_W_JE_X(libjemallocZdsoZa, , MT_PA_JE_SO)
MT_W_LIBC(libjemallocZdsoZa, _rjem_, MT_PA_JE_SO)
MT_W_JE_X(libjemallocZdsoZa, _rjem_, MT_PA_JE_SO)

/* tcmalloc and mimalloc under their own names, in the executable (the
   synonyms mt_redirect.c sets) and in their libraries. */
MT_W_TC(VG_SO_SYN(mttc), MT_PA_TC_EXE)
MT_W_TC(libtcmallocZa, MT_PA_TC_SO)
MT_W_MI(VG_SO_SYN(mtmi), MT_PA_MI_EXE)
MT_W_MI(libmimallocZa, MT_PA_MI_SO)
