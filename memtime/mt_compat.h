/* mt_compat.h: everything memtime takes from the Valgrind core outside the
   tool API, in one place, checked against the core's version at compile
   time (mt_compat.c). Each item says why the tool API is not enough.
   When Valgrind changes one of these, this pair of files is the only
   place to look. */
#ifndef MT_COMPAT_H
#define MT_COMPAT_H

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"

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
