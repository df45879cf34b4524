/* mt_allocator.c: --allocator=program, the tool side (see mt_allocator.h).

   At start-up it points the client's LD_PRELOAD at the wrapping preload
   (vgpreload_mtwrap) in place of the replacing one. Then it answers the
   wrappers: per thread, the nesting depth of allocator calls (only the
   outermost is recorded, in the heap model, with the allocator's usable
   size as the block's extra bytes); frees and reallocs of blocks it never
   saw (made before the preload, by the loader) are counted for -v and
   passed through. When mt_rss.c has taken a resident-memory reading since
   the last time, the next outermost allocator call is asked to read the
   allocator's own statistics, which go to mt_allocstats.c. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"

#include "mt_allocator.h"
#include "mt_allocstats.h"
#include "mt_compat.h"
#include "mt_heap.h"
#include "mt_options.h"
#include "mt_rss.h"
#include "mt_snapshot.h"
#include "mt_time.h"

/* ------------------------------------------------------------ state */

/* Per ThreadId, the allocator calls open: the stack pointer of each
   wrapper's frame, outermost first. A C++ exception or a longjmp can leave
   a wrapper without its LEAVE (libstdc++'s nothrow operator new calls the
   throwing one and catches its std::bad_alloc): a frame at or below the
   stack pointer of a new wrapper, or below the one leaving, is gone. */
#define MAX_OPEN 32
typedef struct {
   UInt ctl;            /* open calls of the allocator's control API    */
   UInt n;              /* open calls with their stack pointer kept     */
   UInt deeper;         /* open beyond MAX_OPEN (a runaway recursion)   */
   Addr sp[MAX_OPEN];
} Open;
static Open* open_calls;
static ULong n_unwound;         /* wrappers left without their LEAVE */
static ULong n_calls[MT_PA_N];  /* outermost calls per family, for -v */
static ULong n_nested;          /* calls inside another */
static ULong n_unknown_frees;   /* frees of pointers never seen */
static ULong n_unknown_reallocs;
static ULong n_refused;
static ULong stats_seen;        /* mt_rss's reading count at the last stats */
static Bool  stats_none;        /* no statistics function in the program */

static const HChar* api_name(UWord api)
{
   switch (api) {
   case MT_PA_LIBC:        return "malloc & co. (the C library's or an "
                                  "allocator library's)";
   case MT_PA_CXX:         return "operator new/delete";
   case MT_PA_JE_EXE:      return "jemalloc (unprefixed *allocx) in the "
                                  "main executable";
   case MT_PA_JE_EXE_RJEM: return "jemalloc (_rjem_ prefix) in the main "
                                  "executable";
   case MT_PA_JE_EXE_JE:   return "jemalloc (je_ prefix) in the main "
                                  "executable";
   case MT_PA_JE_SO:       return "jemalloc in libjemalloc.so";
   case MT_PA_TC_EXE:      return "tcmalloc (tc_*) in the main executable";
   case MT_PA_TC_SO:       return "tcmalloc in libtcmalloc*.so";
   case MT_PA_MI_EXE:      return "mimalloc (mi_*) in the main executable";
   case MT_PA_MI_SO:       return "mimalloc in libmimalloc.so";
   default:                return "an unknown entry point";
   }
}

/* ------------------------------------------------------------ set-up */

/* Points LD_PRELOAD's "vgpreload_memtime-<platform>.so" at
   "vgpreload_mtwrap-<platform>.so" in the same directory, in place: the
   client's environment strings are already on its stack, so the new
   value can only be shorter (mt_pages.c removes the entry the same way). */
static void swap_preload(void)
{
   HChar* val = VG_(getenv)(VG_(LD_PRELOAD_var_name));
   HChar* at = val ? VG_(strstr)(val, "vgpreload_memtime-") : NULL;
   const HChar* from = "vgpreload_memtime-";
   const HChar* to = "vgpreload_mtwrap-";
   SizeT lf = VG_(strlen)(from), lt = VG_(strlen)(to);
   if (at == NULL) {
      VG_(umsg)("memtime: --allocator=program: memtime's preload is not "
                "in LD_PRELOAD; the program's allocator is not observed\n");
      return;
   }
   VG_(memcpy)(at, to, lt);
   VG_(memmove)(at + lt, at + lf, VG_(strlen)(at + lf) + 1);
}

void mt_allocator_init(void)
{
   if (!clo_allocator_program)
      return;
   open_calls = VG_(calloc)("mt.allocator.open", VG_N_THREADS, sizeof(Open));
   swap_preload();
}

/* ------------------------------------------------------------ requests */

/* The address of the text symbol name in di (not an ifunc), or 0; its
   secondary names count too when also_secondary. */
static Addr text_sym_in(const DebugInfo* di, const HChar* name, Bool also_secondary)
{
   Int i, n = VG_(DebugInfo_syms_howmany)(di);
   for (i = 0; i < n; i++) {
      SymAVMAs avmas;
      const HChar* pri;
      const HChar** sec;
      Bool is_text, is_ifunc, is_global;
      VG_(DebugInfo_syms_getidx)(di, i, &avmas, NULL, &pri, &sec,
                                 &is_text, &is_ifunc, &is_global);
      if (!is_text || is_ifunc)
         continue;
      if (VG_(strcmp)(pri, name) == 0)
         return avmas.main;
      for (; also_secondary && sec && *sec; sec++)
         if (VG_(strcmp)(*sec, name) == 0)
            return avmas.main;
   }
   return 0;
}

/* The address of name in the object that holds 'near' (a wrapped
   function), or 0. */
static Addr resolve_in(const HChar* name, Addr near)
{
   DebugInfo* di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), near);
   return di == NULL ? 0 : text_sym_in(di, name, True);
}

/* The first object defining one of names (text, global), and which. */
static Addr resolve_any(const HChar* const* names, Int* which)
{
   const DebugInfo* di;
   Int k;
   for (k = 0; names[k]; k++)
      for (di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di)) {
         Addr a = text_sym_in(di, names[k], False);
         if (a != 0) {
            *which = k;
            return a;
         }
      }
   return 0;
}

/* Which statistics the program's allocator can give, found once: jemalloc's
   mallctl under the prefixes memtime wraps, tcmalloc's numeric properties,
   mimalloc's process info, else glibc's mallinfo2 (last: glibc is loaded
   beside any other allocator). */
static void stats_how(MtPwStats* s)
{
   static const HChar* const names[] = {
      "_rjem_mallctl", "je_mallctl", "mallctl",
      "MallocExtension_GetNumericProperty", "mi_process_info", "mallinfo2",
      NULL
   };
   static const UWord kinds[] = {
      MT_PW_STATS_JEMALLOC, MT_PW_STATS_JEMALLOC, MT_PW_STATS_JEMALLOC,
      MT_PW_STATS_TCMALLOC, MT_PW_STATS_MIMALLOC, MT_PW_STATS_GLIBC
   };
   static Bool done;
   static Addr fn;
   static Int which;
   if (!done) {
      done = True;
      fn = resolve_any(names, &which);
      if (fn == 0)
         stats_none = True;
      else if (VG_(clo_verbosity) > 1)
         VG_(umsg)("memtime: reading the allocator's statistics with %s\n",
                   names[which]);
   }
   s->fn = fn;
   s->kind = fn == 0 ? MT_PW_STATS_NONE : kinds[which];
}

/* Forgets the open calls whose frames are gone: those at or below sp
   (stacks grow down: a live caller's frame is above its callees'). */
static void drop_unwound(Open* o, Addr sp, Bool at_or_below)
{
   while (o->n > 0 && (o->sp[o->n - 1] < sp
                       || (at_or_below && o->sp[o->n - 1] == sp))) {
      o->n--;
      n_unwound++;
   }
}

Bool mt_allocator_in_call(void)
{
   ThreadId tid;
   if (open_calls == NULL)
      return False;
   tid = VG_(get_running_tid)();
   return tid != VG_INVALID_THREADID && open_calls[tid].n > 0;
}

static UWord enter(ThreadId tid, UWord kind, UWord api, Addr p, SizeT n)
{
   Open* o = &open_calls[tid];
   Addr sp = VG_(get_SP)(tid);
   if (kind == MT_PK_CTL) {
      o->ctl++;
      return MT_PW_OUTER;
   }
   if (o->n == MAX_OPEN) {
      o->deeper++;
      n_nested++;
      return MT_PW_NESTED;
   }
   drop_unwound(o, sp, True);
   o->sp[o->n] = sp;
   if (o->n++ != 0) {
      n_nested++;
      return MT_PW_NESTED;
   }
   n_calls[api < MT_PA_N ? api : MT_PA_NONE]++;
   switch (kind) {
   case MT_PK_FREE:
      /* Before the real free: the address may be handed out again at once. */
      if (p != 0 && !mt_heap_observe_free(tid, p))
         n_unknown_frees++;
      break;
   case MT_PK_ALLOC:
      if (mt_heap_observe_refuse(0, n)) {
         o->n--;
         n_refused++;
         return MT_PW_REFUSE;
      }
      break;
   case MT_PK_REALLOC:
      if (p != 0 && n != 0 && mt_heap_observe_refuse(p, n)) {
         o->n--;
         n_refused++;
         return MT_PW_REFUSE;
      }
      break;
   default:
      break;
   }
   return MT_PW_OUTER;
}

/* Whether the allocator's statistics are due: a resident-memory reading
   was taken since the last ones. */
static Bool stats_due(void)
{
   ULong n;
   if (stats_none)
      return False;
   n = mt_rss_n_readings();
   if (n == stats_seen)
      return False;
   stats_seen = n;
   return True;
}

static UWord leave(ThreadId tid, UWord kind, UWord api, Addr p, Addr res,
                   SizeT n, SizeT usable)
{
   Bool exclude_top = api == MT_PA_LIBC || api == MT_PA_CXX;
   Open* o = &open_calls[tid];
   if (kind == MT_PK_CTL) {
      if (o->ctl > 0)
         o->ctl--;
      return 0;
   }
   if (o->deeper > 0) {
      o->deeper--;
      return 0;
   }
   drop_unwound(o, VG_(get_SP)(tid), False);
   if (o->n == 0)      /* its ENTER was dropped: a frame below it left */
      return 0;
   if (--o->n != 0)
      return 0;
   switch (kind) {
   case MT_PK_ALLOC:
      if (res != 0)
         mt_heap_observe_alloc(tid, res, n, usable, exclude_top);
      break;
   case MT_PK_REALLOC:
      if (p == 0) {
         if (res != 0)
            mt_heap_observe_alloc(tid, res, n, usable, exclude_top);
      } else if (res != 0) {
         if (!mt_heap_observe_realloc(tid, p, res, n, usable, exclude_top))
            n_unknown_reallocs++;
      } else if (n == 0) {
         /* realloc(p, 0) freed p (glibc; jemalloc's default) */
         if (!mt_heap_observe_free(tid, p))
            n_unknown_frees++;
      }
      break;
   case MT_PK_RESIZE:
      if (!mt_heap_observe_realloc(tid, p, p, n, usable, exclude_top))
         n_unknown_reallocs++;
      break;
   default:
      break;
   }
   /* Not inside mallctl: jemalloc holds its ctl lock there (Redis's
      mallctl("background_thread") creates a thread, whose TLS glibc
      callocs), and the reading would wait for it on this very thread. */
   return o->ctl == 0 && stats_due();
}

Bool mt_allocator_handle_client_request(ThreadId tid, UWord* arg, UWord* ret)
{
   UWord kind, api;
   if (arg[0] < (UWord)MT_PW_BASE || arg[0] > (UWord)MT_PW_LAST)
      return False;
   if (open_calls == NULL) {    /* not in this mode: nothing to answer */
      *ret = 0;
      return True;
   }
   kind = arg[1] & 0xff;
   api = arg[1] >> 8;
   switch (arg[0]) {
   case MT_PW_ENTER:
      *ret = enter(tid, kind, api, arg[2], arg[3]);
      break;
   case MT_PW_LEAVE:
      *ret = leave(tid, kind, api, arg[2], arg[3], arg[4], arg[5]);
      break;
   case MT_PW_RESOLVE:
      *ret = resolve_in((const HChar*)arg[1], arg[2]);
      break;
   case MT_PW_STATS_HOW:
      stats_how((MtPwStats*)arg[1]);
      *ret = 0;
      break;
   case MT_PW_STATS: {
      const MtPwStats* s = (const MtPwStats*)arg[1];
      if (s->kind == MT_PW_STATS_JEMALLOC)
         mt_allocstats_add(mt_time_now(), MtStatsJemalloc, s->v, s->ok);
      else if (s->kind == MT_PW_STATS_GLIBC)
         mt_allocstats_add(mt_time_now(), MtStatsGlibc, s->v, s->ok);
      else if (s->kind == MT_PW_STATS_TCMALLOC)
         mt_allocstats_add(mt_time_now(), MtStatsTcmalloc, s->v, s->ok);
      else if (s->kind == MT_PW_STATS_MIMALLOC) {
         /* What the program holds, by memtime's count: mimalloc gives no
            such figure without its statistics build. Its usable sizes
            (the bytes requested and the rounding), not --heap-admin's
            estimate of bookkeeping: mimalloc keeps that in its pages'
            headers, inside its commit. The reading comes at the depth-0
            end of an allocator call, so the count is the one mimalloc's
            commit goes with. */
         UWord v[MT_PW_STATS_N];
         SizeT extra = mt_snapshot_heap_extra_szB();
         SizeT admin = mt_heap_admin_total_szB();
         VG_(memcpy)(v, s->v, sizeof v);
         v[MT_MI_HEAP] = mt_snapshot_heap_szB() + (extra > admin ? extra - admin : 0);
         mt_allocstats_add(mt_time_now(), MtStatsMimalloc, v,
                           s->ok | (1 << MT_MI_HEAP));
      }
      *ret = 0;
      break;
   }
   default:
      tl_assert(0);
   }
   return True;
}

void mt_allocator_print_stats(void)
{
   UInt i;
   if (!clo_allocator_program)
      return;
   for (i = 0; i < MT_PA_N; i++)
      if (n_calls[i])
         VG_(umsg)("memtime: allocator calls observed: %llu through %s\n",
                   n_calls[i], api_name(i));
   VG_(umsg)("memtime: %llu calls made inside others (counted once), "
             "%llu left by an exception or longjmp, %llu frees and %llu "
             "reallocs of blocks never seen (passed through), %llu refused "
             "by --heap-limit\n", n_nested, n_unwound, n_unknown_frees,
             n_unknown_reallocs, n_refused);
}
