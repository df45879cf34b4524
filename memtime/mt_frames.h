/* mt_frames.h: which frames of an allocation stack are allocator plumbing.
   One code address (IP) stands for several frames when functions were
   inlined into the function that holds it: the innermost inlined function
   first, the real (outermost) function last, exactly the lines Massif's
   trees print for that IP. This module classifies those frames by function
   name (the built-in allocation functions, --alloc-fn, run-time patterns)
   and by source path (run-time patterns), so the tree module can strip
   whole IPs and the printer can hide the plumbing frames inlined at the
   top of the first IP it keeps. */
#ifndef MT_FRAMES_H
#define MT_FRAMES_H

#include "pub_tool_basics.h"

void  mt_frames_init(void);                     /* pre_clo_init */
void  mt_alloc_fn_add_exact(const HChar* name); /* --alloc-fn, built-ins */
/* mt_alloc_fns_add and mt_alloc_paths_add (glob patterns, at run time) are
   declared in mt_heap.h, the interface allocator support uses. */

/* How many of ip's frames, counted from the innermost inlined one, are
   plumbing (0 .. *n_frames). The rule, applied to the frames innermost
   first:
     1. every frame down to the outermost one whose function NAME is an
        allocation function is plumbing: frames above an allocation
        function inside one IP are its own inlined callees (Rust's
        GlobalAlloc::alloc inlined into __rust_alloc, say), whatever their
        names, except that it stops at a frame of the program's own Rust
        source (a .rs file outside rustc's library/ and vendored crates)
        that has library code inlined into it: a closure inlined into a library function that a name matches
        (<Vec<T> as SpecFromIter>::from_iter calling it) is the program's;
     2. then, as Massif strips, each following frame whose name or source
        path matches is plumbing, up to the first one that does not.
   Path patterns never trigger rule 1: a library's directory also holds
   code that calls back into the program (an iterator adapter running the
   program's closure), and a closure above it must stay visible.
   Results are cached per IP and debug-info epoch; the cache is cleared when
   a pattern is added. */
UInt  mt_frames_n_plumbing(Addr ip, UInt* n_frames);

/* Whether debug info names none of ip's frames ("???": a static function
   of an executable stripped to its exported symbols, say). Allocation
   stacks are stripped through such frames down to the last allocation
   function below them (mt_tree.c). */
Bool  mt_frames_unnamed(Addr ip);
/* Changes whenever an answer above may have changed (a pattern added), so
   text made from them can be kept until then. */
UInt  mt_frames_generation(void);

#endif /* MT_FRAMES_H */
