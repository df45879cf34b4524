/* mt_alloc_api.c: the tool side of memtime's allocator-API interceptions.

   Overview. mt_preload.c turns every call to an allocator entry point the
   stock preload misses (jemalloc's `_rjem_*`/`*allocx`/libjemalloc.so,
   tcmalloc's tc_*, mimalloc's mi_*) into one client request. This module
   gives each request the allocator's documented semantics on top of the heap
   model (mt_heap.h), so those blocks are counted, attributed to call sites
   and snapshotted exactly like malloc's:
     - jemalloc flags: MALLOCX_LG_ALIGN(la) in the low 6 bits (alignment
       1 << la, 0 meaning the default), MALLOCX_ZERO (0x40); the tcache
       (bits 8..19) and arena (bits 20..) fields are ignored: under memtime
       there is one heap;
     - xallocx and mi_expand never move a block: they resize in place or
       report the current size;
     - sallocx/malloc_usable_size report the heap model's usable size and
       nallocx/mi_good_size predict it with the same allocator (see
       good_size()), so `nallocx(n) == sallocx(mallocx(n))` holds as it does
       under jemalloc.
   It also registers which frames are allocator plumbing (stripped from the
   top of every allocation stack, by function name and by source path, down
   to the inlined frame: see alloc_path_patterns), so a Rust program's trees
   start at its own function, not at `__rust_alloc` or `alloc (alloc.rs)`,
   and the known allocation wrappers of C servers (--known-alloc-fns). The
   warnings that a profile is probably blind are mt_warn.c's. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_options.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_vki.h"
#include "pub_tool_tooliface.h"

#include "mt_alloc_api.h"
#include "mt_heap.h"
#include "mt_options.h"
#include "mt_snapshot.h"

/* ------------------------------------------------------------ state */

/* Requests per interception, for -v. */
static ULong n_calls[MT_API_N];

static const HChar* api_name(MtApi api)
{
   switch (api) {
   case MT_API_JE_EXE:      return "jemalloc (unprefixed) in the main executable";
   case MT_API_JE_EXE_RJEM: return "jemalloc (_rjem_ prefix, tikv-jemallocator) in the main executable";
   case MT_API_JE_SO:       return "jemalloc in libjemalloc.so";
   case MT_API_JE_SO_RJEM:  return "jemalloc (_rjem_ prefix) in libjemalloc.so";
   case MT_API_JE_EXE_JE:   return "jemalloc (je_ prefix) in the main executable";
   case MT_API_TC_EXE:      return "tcmalloc (tc_*) in the main executable";
   case MT_API_TC_SO:       return "tcmalloc in libtcmalloc*.so";
   case MT_API_MI_EXE:      return "mimalloc (mi_*) in the main executable";
   case MT_API_MI_SO:       return "mimalloc in libmimalloc.so";
   case MT_API_ALLOC_SO:    return "malloc & co. in an allocator library (lib*malloc*.so)";
   case MT_API_STDCXX:      return "operator new (memtime's, which can throw)";
   default:                 return "an unknown allocator";
   }
}

/* ------------------------------------------------------------ semantics */

/* Alignment as the heap model takes it: 0 for "the default"; a request
   that is not a power of two is rounded up to one (glibc's memalign does
   the same); NULL-worthy requests (beyond 2^40) give False. */
static Bool normalise_align(SizeT al, SizeT* out)
{
   SizeT p = 1;
   if (al <= VG_(clo_alignment)) { *out = 0; return True; }
   if (al > ((SizeT)1 << 40)) return False;
   while (p < al) p <<= 1;
   *out = p;
   return True;
}

static void* alloc(ThreadId tid, SizeT szB, SizeT al, Bool zero)
{
   SizeT a;
   if (!normalise_align(al, &a)) return NULL;
   return mt_heap_alloc(tid, szB, a, zero);
}

/* jemalloc's flags: alignment 1 << (flags & 63), 0 meaning the default. */
static SizeT jemalloc_align(UWord flags)
{
   UWord la = flags & 0x3f;
   return la == 0 ? 0 : ((SizeT)1 << la);
}
static Bool jemalloc_zero(UWord flags) { return (flags & 0x40) != 0; }

/* The usable size a fresh block of szB bytes aligned to al would get from
   the heap model. The model takes its blocks from Valgrind's client arena
   (VG_(cli_malloc)), whose rounding depends on the size and the alignment;
   rather than restating that arithmetic here, ask the arena itself with a
   block that is never recorded (no snapshot, no tree). nallocx is rare. */
static SizeT good_size(SizeT szB, SizeT al)
{
   SizeT a, usable;
   void* p;
   if (!normalise_align(al, &a)) return 0;
   p = VG_(cli_malloc)(a == 0 ? VG_(clo_alignment) : a, szB);
   if (p == NULL) return 0;
   usable = VG_(cli_malloc_usable_size)(p);
   VG_(cli_free)(p);
   return usable;
}

/* realloc(p, n) for p ours or NULL; "how" holds MT_REALLOC_* bits. */
static void* realloc_how(ThreadId tid, void* p, SizeT n, SizeT al, UWord how)
{
   Bool zero = (how & MT_REALLOC_ZERO_TAIL) != 0;
   SizeT a;
   void* q;
   if (p == NULL) return alloc(tid, n, al, zero);
   if (n == 0 && (how & MT_REALLOC_ZERO_FREES)) {
      mt_heap_free(tid, p);
      return NULL;
   }
   if (!normalise_align(al, &a)) return NULL;
   if (n == 0) {
      /* A size-0 realloc that must not free (mimalloc's): the heap model's
         realloc would free, so move to a fresh empty block instead. */
      q = mt_heap_alloc(tid, 0, a, False);
      if (q != NULL) mt_heap_free(tid, p);
      return q;
   }
   q = mt_heap_realloc(tid, p, n, a, zero);
   if (q == NULL && (how & MT_REALLOC_FREE_ON_FAIL)) mt_heap_free(tid, p);
   return q;
}

/* xallocx(p, size, extra, flags): grow or shrink in place to size+extra if
   possible, else to size, else leave the block alone; return the usable size
   either way (the caller compares it with size to know). The in-place
   resize never moves p, so a block that is not aligned as flags ask keeps
   its size, as jemalloc would. Zeroing: an in-place resize stays inside the
   block's usable size, which jemalloc does not zero either. */
static SizeT xallocx(ThreadId tid, void* p, SizeT size, SizeT extra, UWord flags)
{
   SizeT al = jemalloc_align(flags);
   SizeT want = size + extra;
   if (want < size) want = (SizeT)-1;             /* saturate on overflow */
   if (al != 0 && ((Addr)p & (al - 1)) != 0)
      return mt_heap_usable_size(p);
   if (size == 0) size = 1;                       /* jemalloc: undefined */
   if (!mt_heap_resize_in_place(tid, p, want) && extra != 0)
      (void)mt_heap_resize_in_place(tid, p, size);
   return mt_heap_usable_size(p);
}

/* ------------------------------------------------------------ requests */

Bool mt_alloc_api_handle_client_request(ThreadId tid, UWord* arg, UWord* ret)
{
   UWord api;
   void* p;
   if (arg[0] < (UWord)MT_AA_BASE || arg[0] > (UWord)MT_AA_LAST) return False;

   api = arg[5] < MT_API_N ? arg[5] : MT_API_NONE;
   if (n_calls[api]++ == 0 && VG_(clo_verbosity) > 1)
      VG_(umsg)("memtime: intercepting %s\n", api_name(api));

   p = (void*)arg[1];
   switch (arg[0]) {
   case MT_AA_ALLOC:
      if (api == MT_API_STDCXX)   /* exactly what the stock preload's gives */
         *ret = (UWord)mt_heap_alloc_replaced(tid, arg[1], arg[2]);
      else
         *ret = (UWord)alloc(tid, arg[1], arg[2], arg[3] != 0);
      break;
   case MT_AA_CALLOC:
      if (arg[2] != 0 && arg[1] > ((SizeT)-1) / arg[2]) *ret = 0;
      else *ret = (UWord)alloc(tid, arg[1] * arg[2], 0, True);
      break;
   case MT_AA_FREE:
      if (p == NULL) { *ret = 1; break; }
      if (mt_heap_is_block(p)) { mt_heap_free(tid, p); *ret = 1; }
      else *ret = 0;   /* not ours: the wrapper calls the allocator's own */
      break;
   case MT_AA_OWNS:
      *ret = p == NULL || mt_heap_is_block(p);
      break;
   case MT_AA_REALLOC:
      *ret = (UWord)realloc_how(tid, p, arg[2], arg[3], arg[4]);
      break;
   case MT_AA_MALLOCX:
      /* Size 0 is undefined for jemalloc; give the smallest block. */
      *ret = (UWord)alloc(tid, arg[1] == 0 ? 1 : arg[1],
                          jemalloc_align(arg[2]), jemalloc_zero(arg[2]));
      break;
   case MT_AA_RALLOCX:
      /* Never frees, unlike realloc(p, 0): size 0 is undefined for jemalloc. */
      *ret = (UWord)realloc_how(tid, p, arg[2] == 0 ? 1 : arg[2],
                                jemalloc_align(arg[3]),
                                jemalloc_zero(arg[3]) ? MT_REALLOC_ZERO_TAIL : 0);
      break;
   case MT_AA_XALLOCX:
      *ret = xallocx(tid, p, arg[2], arg[3], arg[4]);
      break;
   case MT_AA_USABLE:
      *ret = p == NULL ? 0 : mt_heap_usable_size(p);
      break;
   case MT_AA_NALLOCX:
      *ret = good_size(arg[1] == 0 ? 1 : arg[1], jemalloc_align(arg[2]));
      break;
   case MT_AA_GOOD_SIZE:
      *ret = good_size(arg[1], arg[2]);
      break;
   case MT_AA_EXPAND:
      *ret = mt_heap_resize_in_place(tid, p, arg[2]) ? (UWord)p : 0;
      break;
   default:
      tl_assert(0);
   }
   return True;
}

/* ------------------------------------------------------------ stripping */

/* Allocator entry points (as the preload's frames are named once Valgrind
   has Z-decoded them: `_rjem_mallocx`, `tc_malloc`, ...). The libc names
   and C++ operators are the core's defaults. */
static const HChar* const alloc_fn_patterns[] = {
   "mallocx", "rallocx", "xallocx", "sallocx", "dallocx", "sdallocx", "nallocx",
   "_rjem_*",
   "je_malloc", "je_calloc", "je_realloc", "je_free", "je_posix_memalign",
   "je_aligned_alloc", "je_memalign", "je_valloc", "je_mallocx", "je_rallocx",
   "je_xallocx", "je_sdallocx", "je_dallocx",
   "__libc_malloc", "__libc_calloc", "__libc_realloc", "__libc_memalign",
   "__libc_valloc", "__libc_pvalloc", "__posix_memalign", "pvalloc",
   "reallocarray", "reallocf",
   "tc_*", "mi_*",
   /* Rust's allocator shims: __rust_alloc and friends call the
      #[global_allocator] through __rg_* (or the system allocator through
      __rdl_*); the allocator's GlobalAlloc impl and the jemalloc crates. */
   "__rust_alloc", "__rust_alloc_zeroed", "__rust_realloc", "__rust_dealloc",
   "__rust_*alloc*", "__rdl_*", "__rg_*",
   "__rustc::*",            /* the shims' namespace in newer rustc (v0 names) */
   "<* as core::alloc::global::GlobalAlloc>::*",
   "<* as core::alloc::Allocator>::*",
   "tikv_jemallocator::*", "<tikv_jemallocator::*", "jemallocator::*",
   "<jemallocator::*", "tikv_jemalloc_sys::*", "mimalloc::*", "<mimalloc::*",
   /* The standard library's allocation plumbing: the alloc crate (Box,
      Vec, RawVec, String, collections), core::alloc, std's HashMap and the
      hashbrown tables behind it, as real (not inlined) frames, whose
      demangled names carry their full path. */
   "alloc::*", "<alloc::*", "core::alloc::*", "<core::alloc::*",
   "std::alloc::*", "<std::alloc::*",
   "std::collections::*", "<std::collections::*",
   "hashbrown::*", "<hashbrown::*",
   "<* as alloc::*", "<* as hashbrown::*",
   NULL
};

/* The allocation wrappers of the C servers and libraries profiled most
   (--known-alloc-fns=yes, the default; docs/memtime.1 lists them). Their
   callers are what a reader wants: PostgreSQL's `palloc` tells nothing,
   `tuplestore_putvalues` under it does. Names as the projects export them;
   Debian's stripped binaries keep them (.dynsym) even where the static
   function that calls malloc (AllocSetAlloc) has no name: the tree module
   strips through such unnamed frames. */
static const HChar* const known_wrapper_patterns[] = {
   /* PostgreSQL: palloc and its memory-context methods */
   "palloc", "palloc0", "palloc_extended", "palloc_aligned",
   "MemoryContextAlloc*", "repalloc", "repalloc0", "repalloc_huge",
   "repalloc_extended", "AllocSetAlloc*", "AllocSetRealloc",
   "GenerationAlloc*", "GenerationRealloc", "SlabAlloc*", "BumpAlloc*",
   /* nginx */
   "ngx_alloc", "ngx_calloc", "ngx_memalign", "ngx_palloc*", "ngx_pnalloc",
   "ngx_pcalloc", "ngx_pmemalign",
   /* Redis */
   "zmalloc*", "zcalloc*", "zrealloc*", "ztrymalloc*", "ztrycalloc*",
   "ztryrealloc*",
   /* SQLite */
   "sqlite3Malloc*", "sqlite3_malloc*", "sqlite3Realloc", "sqlite3_realloc*",
   "sqlite3DbMalloc*", "sqlite3DbRealloc*", "sqlite3MemMalloc",
   "sqlite3MemRealloc", "dbMallocRawFinish", "dbReallocFinish",
   "mallocWithAlarm",
   /* GLib */
   "g_malloc*", "g_realloc*", "g_try_malloc*", "g_try_realloc*",
   "g_slice_alloc*",
   /* APR */
   "apr_palloc*", "apr_pcalloc*",
   /* MariaDB and MySQL: mysys's my_malloc family, the MEM_ROOT arenas
      (alloc_root; the block it takes is charged to the caller that needed
      it), the plugin API's thd_* helpers, DYNAMIC_ARRAY's growth and
      String's buffer. Debian's mariadbd exports all of the C ones. */
   "my_malloc", "my_realloc", "my_multi_malloc", "my_multi_malloc_large",
   "my_memdup", "my_strdup", "my_strndup", "my_once_alloc", "my_once_memdup",
   "my_once_strdup", "my_str_malloc_mysqld",
   "alloc_root", "multi_alloc_root", "memdup_root", "strdup_root",
   "strmake_root", "init_alloc_root", "reset_root_defaults",
   "init_sql_alloc(*", "Sql_alloc::operator new*",
   "thd_alloc", "thd_calloc", "thd_memdup", "thd_strdup", "thd_strmake",
   "init_dynamic_array2", "alloc_dynamic", "allocate_dynamic", "insert_dynamic",
   "Binary_string::real_alloc(*", "Binary_string::realloc_raw(*",
   "String::real_alloc(*", "String::realloc_raw(*",
   /* InnoDB's heaps and allocator template (named with debug symbols) */
   "mem_heap_create_block_func*", "mem_heap_add_block*",
   "ut_allocator<*>::allocate(*", "ut_allocator<*>::allocate_large(*",
   "ut_allocator<*>::reallocate(*",
   NULL
};

/* Source files of allocator plumbing, stripped whatever the function is
   called. Each inlined frame is matched against its own function's file
   (mt_frames.c), and only from the top of the stack down to the first
   frame that does not match, so in an optimised Rust program the standard
   library's allocation code inlined into build_index is hidden while
   build_index's own frame, and any closure of the program that a library
   function calls, stays. Paths are the ones debug info records: rustc's
   standard library under /rustc/<commit>/library/..., the crates it
   vendors (hashbrown) under /rust/deps/<crate>-<version>/ (or, for a
   distribution's rustc, .../vendor/<crate>/), crates from
   Cargo's registry under .../<crate>-<version>/. These also catch the many
   inlined frames Valgrind cannot name ("UnknownInlinedFun"). */
static const HChar* const alloc_path_patterns[] = {
   "*mt_preload.c",
   "*/library/alloc/src/*",           /* Box, Vec, RawVec, String, Rc, Arc,
                                         BTreeMap, format!, alloc::alloc */
   "*/library/core/src/alloc/*",      /* Layout, GlobalAlloc's defaults */
   "*/library/std/src/alloc.rs",      /* System, the default allocator */
   "*/library/std/src/collections/*", /* HashMap, HashSet */
   "*/hashbrown-*/src/*",             /* the tables behind them */
   "*/tikv-jemallocator-*/src/*", "*/jemallocator-*/src/*",
   "*/mimalloc-*/src/*",
   /* The same crates as a distribution's rustc vendors them, without a
      version: Debian's records /usr/src/rustc-<v>/vendor/hashbrown/src/. */
   "*/vendor/hashbrown/src/*",
   "*/vendor/tikv-jemallocator/src/*", "*/vendor/jemallocator/src/*",
   "*/vendor/mimalloc/src/*",
   /* Code that reaches the allocator only through the program's own code
      or the plumbing above: iterator adapters and collect, closure call
      shims, Option's and Result's combinators, the formatting machinery behind format! and write!. A frame of
      the program between them and the allocator (a closure, a Display
      impl) ends the stripping, so it stays visible. */
   "*/library/core/src/iter/*",
   "*/library/core/src/ops/function.rs",
   "*/library/core/src/option.rs", "*/library/core/src/result.rs",
   "*/library/core/src/fmt/*",
   NULL
};

/* ------------------------------------------------------------ set-up */

void mt_alloc_api_init(void)
{
   Int i;
   for (i = 0; alloc_fn_patterns[i] != NULL; i++)
      mt_alloc_fns_add(alloc_fn_patterns[i]);
   for (i = 0; alloc_path_patterns[i] != NULL; i++)
      mt_alloc_paths_add(alloc_path_patterns[i]);
   for (i = 0; clo_known_alloc_fns && known_wrapper_patterns[i] != NULL; i++)
      mt_alloc_fns_add(known_wrapper_patterns[i]);
}
