/*--------------------------------------------------------------------*/
/*--- memtime: a memory-timeline profiler.               mt_main.c ---*/
/*--------------------------------------------------------------------*/

/* memtime profiles a program's heap over time and writes Massif's file
   format, so ms_print, massif-visualizer and memtime-vis read it.

   The map of the tool: each module, what it owns, its file, in the order
   of memtime/Makefile.am. Calls go down the map: a module uses only
   modules listed after it (the heap-limit kill path too: mt_limit.c says
   the kill is due, mt_heap.c has mt_output.c write the profile and then
   mt_limit.c kill). Valgrind's tools are flat, and so is this one:
   scripts/module-graph.sh checks the claim on the object files.
   Set-up and dispatch
   - mt_main.c (this file): registers the tool, runs the hooks (client
     code, system calls, instrumentation, exit), fans the core's events
     and client requests out to the modules below.
   - mt_monitor.c: vgdb's monitor commands (snapshots to a file, marks).
   - mt_warn.c: the warnings that a profile is probably blind or nameless
     (a static or stripped executable, an allocator nobody intercepts),
     each judged on what the program really is.
   - mt_redirect.c: switches on the preload's allocator families for the
     allocators the executable links in (the rest would only slow the
     start-up).
   - mt_debuginfo.c: every object's inlined frames but the C library's
     in ms mode (a quarter of a short run's start-up, for frames inside
     libc only); i and B read them as Massif does.
   What is measured
   - mt_pages.c: --pages-as-heap=yes, mapped pages as blocks.
   - mt_allocator.c + mt_wrap.c: --allocator=program, the program's own
     allocator wrapped (its own preload, swapped into LD_PRELOAD): each
     outermost call reported after the original ran, a free before;
     when a resident-memory reading was taken, the wrapper reads the
     allocator's statistics (mallctl, mallinfo2) for mt_allocstats.c.
   - mt_alloc_api.c + mt_preload.c: allocators with their own API (jemalloc
     plain and _rjem_, tcmalloc tc_*, mimalloc mi_*): one client request
     per entry point from the preload (the other program the build makes),
     decoded here into heap-model calls.
   - mt_heap.c: the heap model. The core redirects malloc, calloc, realloc,
     free, memalign, posix_memalign, aligned_alloc, valloc,
     malloc_usable_size and every operator new/delete to it; each live
     block keeps its requested size, slop and stack; VALGRIND_MALLOCLIKE_
     BLOCK and friends report custom allocators' blocks. It tells the
     snapshot list, the counts and the heap limit of every change.
     Records live in mt_blocks.c's table, a compact heap's small blocks
     in mt_slab.c's slabs (both under Base).
   Output
   - mt_output.c: when and under which name the profile is written: at
     exit (deaths by signal included), before exec, and periodically
     (--flush-interval, at most 5% of the run), so a SIGKILLed program
     leaves a recent profile; failed rewrites are warned about and
     retried. It writes the profile (mt_snapshot.c's list) and drives the
     companion: one ordered list of the modules' record writers.
   - mt_children.c: fork (a child inherits the profile and, with %p, gets
     its own file) and exec (the count passed to the next image, which
     writes "<name>.execN").
   Facts the companion records (each module keeps its own and writes its
   own records)
   - mt_limit.c: --heap-limit, checked where mt_heap.c changes the totals:
     at the first crossing a mark and a detailed snapshot, then SIGKILL
     (kill), or refused allocations (fail; mt_preload.c's operator new
     throws std::bad_alloc), or nothing more (snapshot); heap-limit:.
   - mt_process.c: who this process is (pid, parent, how it began, its
     command line and titles, the children it forked and reaped, its
     exit); a forked child's fresh start; process: .. ended:.
   - mt_marks.c: phase marks and snapshots requested by the program
     (memtime.h) or vgdb; the marks themselves; mark:.
   - mt_counts.c: per-site allocation counts (allocations, temporaries,
     bytes allocated, live) and how the run ended; site:, end:.
   Snapshots
   - mt_detail.c: every detailed snapshot's tree unpruned down to
     --detail-depth call levels (what --threshold merged away), derived
     once per snapshot from its frozen stacks, labels as the profile's
     trees print them; detail:, frame:, dtree:.
   - mt_snapshot.c: the live totals and the snapshot list on Massif's
     schedule (minimum interval, detailed every --detailed-freq, peak
     before deallocations, culling at --max-snapshots); with B or i the
     list is exactly Massif's. With ms, samples while nothing is allocated
     (--sample-interval) and a final snapshot at exit. Each snapshot keeps
     its per-thread stacks and resident-memory reading; stacks:, rss:.
     With ms, culling keeps the tops and bottoms of bursts, and a burst
     above --burst-threshold of the peak gets a detailed snapshot.
   - mt_outline.c: the exact outline: the lowest, highest and last totals
     and resident-memory readings per bucket of time, kept at every
     change, never culled; outline:, o:, o-rss:.
   - mt_allocstats.c: the allocator's statistics readings; allocator:,
     alloc-stats:.
   - mt_rss.c: --rss=yes, the client's resident memory (anonymous, file,
     shared) read beside the heap at snapshots, and its peak; rss-peak:.
   - mt_stacks.c: --stacks=yes, per-thread low-water marks of SP kept by
     inline IR, read at snapshots; the threads seen; thread:.
   - mt_companion.c: the writer of "<profile>.memtime", what Massif's
     format cannot hold, one record line per fact; it calls no module.
   Trees
   - mt_tree.c: one table of distinct allocation stacks with their live
     bytes, filtered (allocation functions, --ignore-fn, below main,
     --depth), and the frozen copies detailed snapshots keep.
   - mt_order.c: a sorted array grown by merging sorted batches (the
     stacks' printing order, the counts' order by site).
   - mt_unwind.c: unwinds an allocation's stack, or finds it in a cache
     that checks the stack words the last unwinding read instead of
     unwinding again.
   - mt_frames.c: which inlined frames are allocator plumbing.
   - mt_msprint.c: prints a snapshot and its tree in Massif's format, byte
     for byte as the core does.
   Base
   - mt_slab.c: --compact-heap=yes: the client's small blocks (up to
     1 KB), in 64 KB slabs of one size each, with an 8-byte record per
     slot beside them: no header, no table entry.
   - mt_blocks.c: the table of the other live blocks, open addressing
     keyed by address, 32 bytes a record, grown a few slots per operation
     (no pause).
   - mt_file.c: the one writer of files: temporary name, every write
     checked, fsync, rename only after a complete write, special paths
     written in place; the profile, the companion and vgdb's files all go
     through it, and the test hooks live there.
   - mt_time.c: the clock: i (instructions), B (bytes allocated and
     freed), ms (our default: the kernel's clock, re-read whenever the
     CPU's time-stamp counter says the last reading is 1 ms old).
   - mt_options.c: the --options (clo_* variables, all defined there),
     their parsing, ranges and cross-checks, and the internal ones (exec
     count, test hooks); nothing else writes them.
   - mt_compat.c: every core symbol used outside the tool API, with why. */

#include "pub_tool_basics.h"
#include "pub_tool_clreq.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "memtime.h"
#include "mt_alloc_api.h"
#include "mt_allocator.h"
#include "mt_children.h"
#include "mt_counts.h"
#include "mt_debuginfo.h"
#include "mt_compat.h"
#include "mt_heap.h"
#include "mt_marks.h"
#include "mt_monitor.h"
#include "mt_options.h"
#include "mt_outline.h"
#include "mt_output.h"
#include "mt_pages.h"
#include "mt_rss.h"
#include "mt_process.h"
#include "mt_redirect.h"
#include "mt_snapshot.h"
#include "mt_stacks.h"
#include "mt_time.h"
#include "mt_tree.h"
#include "mt_unwind.h"
#include "mt_warn.h"

/* VexControl.guest_chase before the command line: neither True nor False. */
#define MT_CHASE_UNSET ((Bool)2)


/*------------------------------------------------------------*/
/*--- Extension modules                                     ---*/
/*------------------------------------------------------------*/

/* The core keeps one callback per address-space event: those several
   modules follow are fanned out here. */
static void on_new_mmap(Addr a, SizeT len, Bool rr, Bool ww, Bool xx,
                        ULong di_handle)
{
   Bool by_malloc = mt_allocator_in_call();
   if (clo_pages_as_heap)
      mt_pages_new_mmap(a, len, rr, ww, xx, di_handle);
   else if (!by_malloc)   /* the allocator's own: not blind */
      mt_warn_new_mmap(a, len);
   if (clo_rss)
      mt_rss_new_mmap(a, len, by_malloc);
}

/* --allocator=program with --rss: glibc's main arena grows by brk. */
static void on_new_brk(Addr a, SizeT len, ThreadId tid)
{
   if (mt_allocator_in_call())
      mt_rss_new_brk(a, len);
}

static void on_die_brk(Addr a, SizeT len)
{
   mt_rss_die_munmap(a, len);
}

static void on_copy_remap(Addr from, Addr to, SizeT len)
{
   if (clo_rss)
      mt_rss_copy_remap(from, to, len);
   if (clo_pages_as_heap)
      mt_pages_copy_remap(from, to, len);
}

static void on_die_munmap(Addr a, SizeT len)
{
   if (clo_pages_as_heap)
      mt_pages_die_munmap(a, len);
   if (clo_rss)
      mt_rss_die_munmap(a, len);
}

/* --stacks=yes (mt_stacks.c), --pages-as-heap=yes (mt_pages.c),
   --rss=yes (mt_rss.c). */
static void extensions_post_clo_init(void)
{
   if (clo_stacks)
      mt_stacks_init();
   if (clo_pages_as_heap)
      mt_pages_init();
   if (clo_rss)
      mt_rss_init();
   VG_(track_new_mem_mmap)(on_new_mmap);
   if (clo_pages_as_heap || clo_rss) {
      VG_(track_copy_mem_remap)(on_copy_remap);
      VG_(track_die_mem_munmap)(on_die_munmap);
   }
   if (clo_rss && clo_allocator_program && !clo_pages_as_heap) {
      VG_(track_new_mem_brk)(on_new_brk);
      VG_(track_die_mem_brk)(on_die_brk);
   }
}

/*------------------------------------------------------------*/
/*--- Hooks                                                 ---*/
/*------------------------------------------------------------*/

/* Runs before each stretch of client code: after every client request
   (so after every malloc), system call and time slice. Cheap unless the
   clock is due: see mt_time_tick. */
static void on_start_client_code(ThreadId tid, ULong blocks_dispatched)
{
   if (!mt_snapshot_started())
      return;
   if (mt_time_tick(blocks_dispatched, False)) {
      mt_snapshot_sample();
      mt_output_maybe_flush();
      mt_warn_tick();
   }
   mt_time_may_pass();   /* last: client code runs from here */
}

/* Waits that usually last (sleeps, event loops, child waits): before them
   memtime takes a snapshot and brings the file up to date. */
static Bool waits_long(UInt sysno)
{
   switch (sysno) {
   case __NR_nanosleep: case __NR_clock_nanosleep: case __NR_select:
   case __NR_pselect6: case __NR_poll: case __NR_ppoll:
   case __NR_epoll_wait: case __NR_epoll_pwait: case __NR_wait4:
   case __NR_waitid: case __NR_pause: case __NR_rt_sigsuspend:
   case __NR_rt_sigtimedwait:
      return True;
   default:
      return False;
   }
}

/* System calls that can block for long: nothing runs meanwhile, so the
   blocks count stands still and the clock must be read when they return.
   read, recv, accept and futex also block, but are frequent and mostly
   return at once, and while another thread runs the client-code hook keeps
   the clock going: they get only the cheap after-call read. */
static Bool may_block(UInt sysno)
{
   switch (sysno) {
   case __NR_accept: case __NR_accept4: case __NR_read:
   case __NR_recvfrom: case __NR_recvmsg: case __NR_futex:
      return True;
   default:
      return waits_long(sysno);
   }
}

/* execve: the profile is written before the image goes (mt_children.h).
   Before a long wait: the timeline gets a snapshot at the present and the
   file on disk is brought up to date, since nothing may run for a while. */
static void pre_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nArgs)
{
   mt_redirect_before_client();
   mt_debuginfo_pre_syscall(sysno, args);
   mt_process_pre_syscall(sysno, args);
   if (mt_children_pre_syscall(sysno)) {
      mt_counts_at_end(MtEndExec);
      mt_output_before_exec();
      mt_counts_at_end(MtEndNone);   /* the exec may yet fail */
   }
   if (mt_snapshot_started() && waits_long(sysno)) {
      mt_time_tick(0, False);
      mt_snapshot_before_block();
      mt_output_flush_before_block();
      mt_warn_tick();
   }
   /* Last: the call may take long, and its effects (mmap, for
      --pages-as-heap) reach the tool before post_syscall does. */
   mt_time_may_pass();
}

static void post_syscall(ThreadId tid, UInt sysno, UWord* args, UInt nArgs,
                         SysRes res)
{
   mt_debuginfo_post_syscall();
   mt_process_post_syscall(sysno, args, res);
   /* Shared anonymous memory looks like private memory to the core: the
      flags tell mt_rss how to read it. */
   if (clo_rss && sysno == __NR_mmap && !sr_isError(res)
       && (args[3] & VKI_MAP_SHARED) && (args[3] & VKI_MAP_ANONYMOUS))
      mt_rss_mmap_shared(sr_Res(res), args[1]);
   if (!mt_snapshot_started() || !may_block(sysno))
      return;
   /* A futex or read usually returns at once: only a forced read is
      exact, but one clock read per such call is cheap next to the call. */
   mt_time_tick(0, True);
   mt_snapshot_sample();
   mt_output_maybe_flush();
}

/*------------------------------------------------------------*/
/*--- Client requests                                       ---*/
/*------------------------------------------------------------*/

static Bool handle_client_request(ThreadId tid, UWord* arg, UWord* ret)
{
   if (mt_allocator_handle_client_request(tid, arg, ret))
      return True;
   if (mt_alloc_api_handle_client_request(tid, arg, ret))
      return True;
   if (mt_heap_handle_client_request(tid, arg, ret))
      return True;
   /* MEMTIME_MARK, MEMTIME_SNAPSHOT (memtime.h). */
   if (mt_marks_handle_client_request(tid, arg, ret))
      return True;
   if (arg[0] == VG_USERREQ__GDB_MONITOR_COMMAND) {
      Bool handled = mt_monitor_handle_command(tid, (const HChar*)arg[1]);
      *ret = handled;
      return handled;
   }
   return False;
}

/*------------------------------------------------------------*/
/*--- Instrumentation, start-up and exit                    ---*/
/*------------------------------------------------------------*/

static IRSB* mt_instrument(VgCallbackClosure* closure, IRSB* sbIn,
                           const VexGuestLayout* layout,
                           const VexGuestExtents* vge,
                           const VexArchInfo* archinfo_host,
                           IRType gWordTy, IRType hWordTy)
{
   /* The first snapshot is taken when the first block is translated, as
      Massif does: earlier, core start-up would sit between snapshot 0 and
      the first allocation. (With --pages-as-heap=yes Massif also snapshots
      each start-up mapping before that; memtime.1 states the difference.) */
   if (!mt_snapshot_started()) {
      mt_snapshot_startup();
      mt_process_startup();
   }
   return mt_time_instrument(mt_stacks_instrument(sbIn, layout));
}

static void mt_fini(Int exitcode)
{
   if (clo_time_unit == TimeMS) {
      mt_time_tick(0, True);
      mt_snapshot_final();
   }
   mt_snapshot_rss_at_exit();
   mt_counts_at_end(MtEndExit);
   mt_output_write_final();
   mt_warn_fini();
   mt_unwind_print_stats();
   if (VG_(clo_verbosity) > 1) {
      ULong width;
      UInt n_used;
      mt_outline_stats(&width, &n_used);
      VG_(dmsg)("memtime: %llu kernel clock reads\n", mt_time_n_clock_reads());
      VG_(dmsg)("memtime: outline: %u of %d buckets used, %llu %s wide\n",
                n_used, MT_OUTLINE_BUCKETS, width, mt_time_unit_name());
      mt_heap_print_stats();
      mt_allocator_print_stats();
   }
   mt_rss_fini();
}

/* No chasing, unless the user asked for it or --time-unit=i needs it: the
   programs memtime is for (rustc with LLVM inside, a node) run most of
   their huge code a few times, so translating costs more than running, and
   a chased callee is translated again in every caller's superblock (rustc:
   17% less CPU under --tool=none, bench/README.md); hot loops lose little,
   as chained blocks jump to each other directly. With --time-unit=i the
   instruction counts must be Massif's, and Massif chases: the counts of a
   superblock with chased branches differ by a few hundred instructions. */
static void chase_post_clo_init(void)
{
   if (VG_(clo_vex_control).guest_chase == MT_CHASE_UNSET)
      VG_(clo_vex_control).guest_chase = clo_time_unit == TimeI;
}

static void mt_post_clo_init(void)
{
   mt_options_check();
   chase_post_clo_init();
   mt_process_init();             /* its fork handlers first */
   mt_children_post_clo_init();   /* may rename the output: before output */
   extensions_post_clo_init();
   mt_tree_post_clo_init();
   mt_unwind_init();
   mt_snapshot_init();
   mt_output_post_clo_init();
   mt_alloc_api_init();
   mt_allocator_init();
   mt_warn_init();
   VG_(track_start_client_code)(on_start_client_code);
}

static void mt_pre_clo_init(void)
{
   VG_(details_name)            ("memtime");
   VG_(details_version)         (PACKAGE_VERSION);
   VG_(details_description)     ("a memory-timeline profiler");
   VG_(details_copyright_author)(
      "Copyright (C) 2026 the memtime authors; GNU GPL'd, version 2 or later.");
   VG_(details_bug_reports_to)  ("the memtime issue tracker");
   VG_(details_avg_translation_sizeB)(330);

   /* Massif's settings: exact SP at memory accesses (cheap, and stack
      traces taken inside client requests stay right). */
   VG_(clo_vex_control).iropt_register_updates_default
      = VG_(clo_px_file_backed) = VexRegUpdSpAtMemAccess;
   /* Chasing of jumps and calls into one superblock: decided once the
      time unit is known (chase_post_clo_init); this value, neither True
      nor False, says the user gave no --vex-guest-chase. */
   VG_(clo_vex_control).guest_chase = MT_CHASE_UNSET;
   /* Inlined frames in trees, as Massif (the core turns this on only for
      tools it knows by name). */
   VG_(clo_read_inline_info) = True;

   VG_(basic_tool_funcs)(mt_post_clo_init, mt_instrument, mt_fini);
   VG_(needs_libc_freeres)();
   VG_(needs_cxx_freeres)();
   VG_(needs_command_line_options)(mt_process_cmd_line_option,
                                   mt_print_usage, mt_print_debug_usage);
   VG_(needs_client_requests)(handle_client_request);
   VG_(needs_syscall_wrapper)(pre_syscall, post_syscall);

   mt_options_init();
   mt_tree_init();
   mt_heap_init();
   mt_heap_pre_clo_init();
}

VG_DETERMINE_INTERFACE_VERSION(mt_pre_clo_init)
