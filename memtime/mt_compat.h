/* mt_compat.h: everything that differs between the Valgrind releases
   memtime is built against, and everything it takes from the core outside
   the tool API, in one place. The release is known at compile time from
   valgrind.h's version macros; each difference below says which release
   changed what. Each core internal says why the tool API is not enough.
   When Valgrind changes one of these, this pair of files is the only
   place to look (scripts/test-valgrind-versions.sh runs the tests that
   would notice on another release).

   Checked, 3.19 .. 3.27.1, by reading each release's headers and by the
   version-sensitive tests on 3.19.0, 3.22.0, 3.24.0 and 3.27.1:
   - the tool API memtime calls: only the malloc-replacement signatures
     and realloc(p, 0) changed (below); the compiler checks the rest
     against the release's own headers;
   - the core internals declared here (options, symbol access, strerror,
     do_syscall, fullpath-after): the same types in every release;
   - the stock preload (libreplacemalloc_toolpreload, linked from the same
     release) and its redirection tags: memtime's own preload reuses the
     1xxx0 tags, unchanged; 3.22's preload adds alignment checks as
     Memcheck client requests, which other tools ignore;
   - client-request numbers (valgrind.h): unchanged. */
#ifndef MT_COMPAT_H
#define MT_COMPAT_H

#include "pub_tool_basics.h"
#include "pub_tool_clreq.h"      /* valgrind.h: __VALGRIND_MAJOR__/MINOR__ */
#include "pub_tool_debuginfo.h"
#include "pub_tool_replacemalloc.h"  /* VG_(clo_realloc_zero_bytes_frees) */

/* ------------------------------------------------ the release */
#define MT_VG_VERSION(maj, min) ((maj) * 100 + (min))
#define MT_VG_THIS MT_VG_VERSION(__VALGRIND_MAJOR__, __VALGRIND_MINOR__)

/* The tested range. configure stops on a core outside it unless the user
   asks for --enable-untested-valgrind (which defines MT_UNTESTED_VALGRIND);
   this stops a build that bypassed configure. */
#if !defined(__VALGRIND_MAJOR__) || !defined(__VALGRIND_MINOR__)
#  error "memtime: valgrind.h gives no version; these are not Valgrind's headers"
#endif
#if !defined(MT_UNTESTED_VALGRIND) \
    && (MT_VG_THIS < MT_VG_VERSION(3, 19) || MT_VG_THIS > MT_VG_VERSION(3, 27))
#  error "memtime is tested with Valgrind 3.19 .. 3.27; configure with --enable-untested-valgrind to build for another release"
#endif

/* ------------------------------------------------ malloc replacement
   The parameters of the functions handed to VG_(needs_malloc_replacement).
   3.22 added the alignment the program asked for (orig_align) to aligned
   operator new/new[] and to memalign, whose preload rounds the alignment
   up to a power of two of at least 16 first: memtime uses the rounded one,
   the block's real alignment (as Massif does). Built against 3.22+ with
   3.19's signatures, memalign(64, 1000) would read the alignment as the
   size and allocate 64 bytes (wrong heap, then corrupted client memory). */
#if MT_VG_THIS >= MT_VG_VERSION(3, 22)
#  define MT_NEW_ALIGNED_PARAMS(szB, alignB) \
      SizeT szB, SizeT alignB, SizeT orig_alignB_unused
#  define MT_MEMALIGN_PARAMS(alignB, szB) \
      SizeT alignB, SizeT orig_alignB_unused, SizeT szB
#else
#  define MT_NEW_ALIGNED_PARAMS(szB, alignB) SizeT szB, SizeT alignB
#  define MT_MEMALIGN_PARAMS(alignB, szB)    SizeT alignB, SizeT szB
#endif

/* realloc(p, 0): up to 3.20 the stock preload frees p itself and never
   calls the tool. 3.21 hands it to the tool and added
   --realloc-zero-bytes-frees (yes by default on Linux, as glibc): with no,
   realloc(p, 0) returns a block of one byte, as Massif does. */
static inline Bool mt_compat_realloc_zero_frees(void)
{
#if MT_VG_THIS >= MT_VG_VERSION(3, 21)
   return VG_(clo_realloc_zero_bytes_frees);
#else
   return True;
#endif
}

/* --read-inline-info: the core reads inlined-call info only for the tools
   it knows by name; memtime's trees print inlined frames as Massif's do,
   so mt_main.c turns it on before debug info is read. */
extern Bool VG_(clo_read_inline_info);

/* --trace-children: a forked child that will exec needs to know whether
   the core will follow it (mt_children.c); no tool call tells. */
extern Bool VG_(clo_trace_children);

/* --merge-recursive-frames: the core's walk then rewrites the frames it
   found, which mt_unwind.c's cache cannot check word by word; the cache
   stays off when the user sets it. No tool call tells. */
extern Int VG_(clo_merge_recursive_frames);

/* --soname-synonyms: the preload's interceptions of allocators linked into
   the executable are switched on by synonyms the tool adds once it has
   seen the executable's symbols (mt_redirect.c); no tool call sets them. */
extern const HChar* VG_(clo_soname_synonyms);

/* The symbols of one object, as the core's redirection matching reads
   them (mt_redirect.c): the tool API looks names up by address only.
   SymAVMAs as pub_core_debuginfo.h has it (ppc64 adds fields). */
typedef struct {
   Addr main;
#  if defined(VGA_ppc64be) || defined(VGA_ppc64le)
   Addr tocptr;
#  endif
#  if defined(VGA_ppc64le)
   Addr local_ep;
#  endif
} SymAVMAs;
Int  VG_(DebugInfo_syms_howmany)(const DebugInfo* di);
void VG_(DebugInfo_syms_getidx)(const DebugInfo* di, Int idx,
                                /*OUT*/SymAVMAs* ad, /*OUT*/UInt* size,
                                /*OUT*/const HChar** pri_name,
                                /*OUT*/const HChar*** sec_names,
                                /*OUT*/Bool* isText, /*OUT*/Bool* isIFunc,
                                /*OUT*/Bool* isGlobal);

/* The text of an errno, for messages naming why a file could not be
   written (mt_file.c); the tool headers declare no strerror. */
extern const HChar* VG_(strerror)(UWord errnum);

/* A raw system call, for the file writer (mt_file.c): the tool API has no
   fsync, and its VG_(rename) drops the errno the user should be told.
   The core's prototype on amd64 and the other 64-bit Linux targets since
   3.15 (eight register-sized arguments). */
extern SysRes VG_(do_syscall)(UWord sysno, UWord a1, UWord a2, UWord a3,
                              UWord a4, UWord a5, UWord a6, UWord a7,
                              UWord a8);

/* One inlined frame of ip (the frame iipc points at, or ip's only frame
   when iipc is NULL), split into its function name and its source path
   with every directory in full. *name is NULL when debug info has no name
   ("???"); *path is NULL when there is no source location. Both point
   into a buffer owned by this module, valid until the next call; there is
   no limit on their length. */
void mt_compat_frame_text(DiEpoch ep, Addr ip, const InlIPCursor* iipc,
                          const HChar** name, const HChar** path);

#endif /* MT_COMPAT_H */
