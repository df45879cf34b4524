/* mt_options.c: parsing and checking memtime's command-line options.
   Every clo_* variable is defined here and written only here (and by
   mt_options_check): the modules that act on an option read it, so the
   parser depends on no module and none reaches back into it.
   Massif's options keep their names, ranges and meanings; bad values go
   through Valgrind's own bad-option message (VG_(fmsg_bad_option) via the
   VG_*_CLO macros), unknown ones are left to the core, which rejects them. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_xarray.h"

#include "mt_options.h"

Bool         clo_heap               = True;
SSizeT       clo_heap_admin         = 8;
Bool         clo_stacks             = False;
Bool         clo_pages_as_heap      = False;
Bool         clo_allocator_program  = False;
/* Unset: decided by mt_options_check from the clock (mt_heap.c). */
static Bool  compact_heap_set       = False;
Bool         clo_compact_heap       = False;
Bool         clo_rss                = True;
Int          clo_depth              = 30;
Int          clo_detail_depth       = 2;
double       clo_threshold          = 1.0;
double       clo_peak_inaccuracy    = 1.0;
double       clo_burst_threshold    = 10.0;
MtTimeUnit   clo_time_unit          = TimeMS;   /* Massif's default is i */
Int          clo_detailed_freq      = 10;
Int          clo_max_snapshots      = 100;
const HChar* clo_out_file           = "memtime.out.%p";
Int          clo_exec_count         = 0;
MtTestPoint  clo_test_pause_point   = MtTestNone;
const HChar* clo_test_pause_file    = NULL;
const HChar* clo_test_log_file      = NULL;
Int          clo_sample_interval_ms = 100;
Int          clo_test_clock_speedup = 1;
Bool         clo_outline            = True;
Bool         clo_known_alloc_fns    = True;
/* Unset: decided by mt_options_check from the clock (mt_debuginfo.c). */
static Bool  libc_inline_info_set   = False;
Bool         clo_libc_inline_info   = False;
Int          clo_flush_interval_ms  = 1000;
XArray*      clo_alloc_fns          = NULL;
XArray*      clo_ignore_fns         = NULL;
ULong         clo_heap_limit_szB    = 0;
const HChar*  clo_heap_limit_text   = NULL;
MtLimitAction clo_heap_limit_action = MtLimitKill;
MtStackCacheMode clo_stack_cache    = MtCacheYes;

XArray*      mt_args_for_desc       = NULL;

static XArray* new_name_list(const HChar* cc)
{
   return VG_(newXA)(VG_(malloc), cc, VG_(free), sizeof(HChar*));
}

void mt_options_init(void)
{
   mt_args_for_desc = new_name_list("mt.options.args");
   clo_alloc_fns    = new_name_list("mt.options.af");
   clo_ignore_fns   = new_name_list("mt.options.if");
}

/* Parses "<number>[.<digits>][unit]" (B; K, KiB = 1024; KB = 1000; M, MiB,
   MB; G, GiB, GB; T, TiB, TB; case of the letter ignored) into *szB.
   False if it is not such a size or is 0. */
static Bool parse_size(const HChar* s, ULong* szB)
{
   static const struct { const HChar* unit; ULong mult; } units[] = {
      { "",    1 },                { "b",   1 },
      { "k",   1ULL << 10 },       { "kib", 1ULL << 10 }, { "kb", 1000ULL },
      { "m",   1ULL << 20 },       { "mib", 1ULL << 20 }, { "mb", 1000000ULL },
      { "g",   1ULL << 30 },       { "gib", 1ULL << 30 }, { "gb", 1000000000ULL },
      { "t",   1ULL << 40 },       { "tib", 1ULL << 40 }, { "tb", 1000000000000ULL },
   };
   ULong whole = 0, frac = 0, frac_div = 1;
   HChar unit[8];
   SizeT i, n = 0;
   Bool digits = False;

   for (; *s >= '0' && *s <= '9'; s++, digits = True) {
      if (whole > (~0ULL - 9) / 10)
         return False;
      whole = whole * 10 + (ULong)(*s - '0');
   }
   if (*s == '.') {
      for (s++; *s >= '0' && *s <= '9'; s++, digits = True)
         if (frac_div < 1000000000ULL) {
            frac = frac * 10 + (ULong)(*s - '0');
            frac_div *= 10;
         }
   }
   if (!digits)
      return False;
   for (; *s != '\0'; s++) {
      if (n + 1 >= sizeof unit)
         return False;
      unit[n++] = VG_(tolower)(*s);
   }
   unit[n] = '\0';
   for (i = 0; i < sizeof units / sizeof units[0]; i++) {
      if (VG_(strcmp)(unit, units[i].unit) != 0)
         continue;
      if (units[i].mult > 1 && whole > ~0ULL / units[i].mult)
         return False;
      *szB = whole * units[i].mult
             + (ULong)((double)frac / (double)frac_div * (double)units[i].mult);
      return *szB > 0;
   }
   return False;
}

/* --test-hook-pause=<point>:<file> (see mt_file.h and docs/memtime.1). */
static void parse_test_hook(const HChar* arg, const HChar* val)
{
   static const struct { const HChar* name; MtTestPoint point; } points[] = {
      { "mid-rewrite:", MtTestMidRewrite },
      { "rewritten:",   MtTestRewritten },
   };
   UInt i;
   for (i = 0; i < sizeof points / sizeof points[0]; i++) {
      SizeT n = VG_(strlen)(points[i].name);
      if (VG_(strncmp)(val, points[i].name, n) == 0 && val[n] != '\0') {
         clo_test_pause_point = points[i].point;
         clo_test_pause_file  = val + n;
         return;
      }
   }
   VG_(fmsg_bad_option)(arg, "expected --test-hook-pause=mid-rewrite:<file> "
                        "or rewritten:<file>\n");
}

Bool mt_process_cmd_line_option(const HChar* arg)
{
   const HChar* tmp_str;

   /* Internal options (memtime passes the first to itself across exec;
      the others are for tests): not the user's, so not on the desc: line. */
   if VG_BINT_CLO(arg, MT_EXEC_COUNT_OPT, clo_exec_count, 0, 1000000)
      return True;
   if VG_STR_CLO(arg, "--test-hook-pause", tmp_str) {
      parse_test_hook(arg, tmp_str);
      return True;
   }
   if VG_STR_CLO(arg, "--test-hook-log", clo_test_log_file)
      return True;
   /* Hours of a run in minutes: the ms clock runs N times fast (samples,
      rewrites and the back-offs keep the real clock). */
   if VG_BINT_CLO(arg, "--test-hook-clock-speedup", clo_test_clock_speedup,
                  1, 100000)
      return True;
   /* A debugging option: it changes how fast, never what, so the profile
      does not record it. */
   if VG_XACT_CLO(arg, "--stack-cache=yes", clo_stack_cache, MtCacheYes)
      return True;
   if VG_XACT_CLO(arg, "--stack-cache=no", clo_stack_cache, MtCacheNo)
      return True;
   if VG_XACT_CLO(arg, "--stack-cache=verify", clo_stack_cache, MtCacheVerify)
      return True;
   if (VG_(strncmp)(arg, "--stack-cache=", 14) == 0) {
      VG_(fmsg_bad_option)(arg, "--stack-cache must be yes, no or verify\n");
      return True;
   }
   /* For the benchmark of what the exact outline costs (bench/b-outline.sh):
      without it the companion has no outline records. */
   if VG_BOOL_CLO(arg, "--outline", clo_outline)
      return True;

   /* Remembered for the desc: line, as Massif does (even if rejected later:
      a rejected option ends the run anyway). */
   VG_(addToXA)(mt_args_for_desc, &arg);

        if VG_BOOL_CLO(arg, "--heap",          clo_heap) {}
   else if VG_BINT_CLO(arg, "--heap-admin",    clo_heap_admin, 0, 1024) {}
   else if VG_BOOL_CLO(arg, "--stacks",        clo_stacks) {}
   else if VG_BOOL_CLO(arg, "--pages-as-heap", clo_pages_as_heap) {}
   else if VG_BOOL_CLO(arg, "--compact-heap", clo_compact_heap) {
      compact_heap_set = True;
   }
   else if VG_XACT_CLO(arg, "--allocator=valgrind", clo_allocator_program,
                       False) {}
   else if VG_XACT_CLO(arg, "--allocator=program", clo_allocator_program,
                       True) {}
   else if (VG_(strncmp)(arg, "--allocator=", 12) == 0) {
      VG_(fmsg_bad_option)(arg, "--allocator must be valgrind or program\n");
   }
   else if VG_BOOL_CLO(arg, "--rss",           clo_rss) {}
   else if VG_BINT_CLO(arg, "--depth",         clo_depth, 1, MT_MAX_DEPTH) {}
   else if VG_BINT_CLO(arg, "--detail-depth",  clo_detail_depth, 0, MT_MAX_DEPTH) {}
   else if VG_STR_CLO (arg, "--alloc-fn",      tmp_str) {
      VG_(addToXA)(clo_alloc_fns, &tmp_str);
   }
   else if VG_BOOL_CLO(arg, "--known-alloc-fns", clo_known_alloc_fns) {}
   else if VG_BOOL_CLO(arg, "--libc-inline-info", clo_libc_inline_info)
      libc_inline_info_set = True;
   else if VG_STR_CLO (arg, "--ignore-fn",     tmp_str) {
      VG_(addToXA)(clo_ignore_fns, &tmp_str);
   }
   else if VG_DBL_CLO (arg, "--threshold",     clo_threshold) {
      if (clo_threshold < 0 || clo_threshold > 100)
         VG_(fmsg_bad_option)(arg,
            "--threshold must be between 0.0 and 100.0\n");
   }
   else if VG_DBL_CLO (arg, "--peak-inaccuracy", clo_peak_inaccuracy) {
      if (clo_peak_inaccuracy < 0)
         VG_(fmsg_bad_option)(arg,
            "--peak-inaccuracy must not be negative\n");
   }
   else if VG_DBL_CLO (arg, "--burst-threshold", clo_burst_threshold) {
      if (clo_burst_threshold < 0 || clo_burst_threshold > 100)
         VG_(fmsg_bad_option)(arg,
            "--burst-threshold must be a percentage, 0..100\n");
   }
   else if VG_XACT_CLO(arg, "--time-unit=i",   clo_time_unit, TimeI)  {}
   else if VG_XACT_CLO(arg, "--time-unit=ms",  clo_time_unit, TimeMS) {}
   else if VG_XACT_CLO(arg, "--time-unit=B",   clo_time_unit, TimeB)  {}
   else if (VG_(strncmp)(arg, "--time-unit=", 12) == 0) {
      VG_(fmsg_bad_option)(arg, "--time-unit must be i, ms or B\n");
   }
   else if VG_BINT_CLO(arg, "--detailed-freq", clo_detailed_freq, 1, 1000000) {}
   else if VG_BINT_CLO(arg, "--max-snapshots", clo_max_snapshots, 10, 1000) {}
   else if VG_STR_CLO (arg, "--heap-limit",    tmp_str) {
      clo_heap_limit_text = tmp_str;
      if (!parse_size(tmp_str, &clo_heap_limit_szB))
         VG_(fmsg_bad_option)(arg, "--heap-limit takes a size above 0: "
                              "bytes, or a number with a unit (512MiB, 2G, "
                              "1.5GiB)\n");
   }
   else if VG_XACT_CLO(arg, "--heap-limit-action=kill", clo_heap_limit_action,
                       MtLimitKill) {}
   else if VG_XACT_CLO(arg, "--heap-limit-action=fail", clo_heap_limit_action,
                       MtLimitFail) {}
   else if VG_XACT_CLO(arg, "--heap-limit-action=snapshot",
                       clo_heap_limit_action, MtLimitSnapshot) {}
   else if (VG_(strncmp)(arg, "--heap-limit-action=", 20) == 0) {
      VG_(fmsg_bad_option)(arg, "--heap-limit-action must be kill, fail or "
                           "snapshot\n");
   }
   else if VG_STR_CLO (arg, "--memtime-out-file", clo_out_file) {}
   else if VG_STR_CLO (arg, "--massif-out-file",  clo_out_file) {}
   else if VG_BINT_CLO(arg, "--sample-interval", clo_sample_interval_ms,
                       0, 3600000) {}
   else if VG_BINT_CLO(arg, "--flush-interval",  clo_flush_interval_ms,
                       0, 3600000) {}
   else
      return VG_(replacement_malloc_process_cmd_line_option)(arg);

   return True;
}

void mt_print_usage(void)
{
   VG_(printf)(
"    --heap=no|yes             record malloc/new blocks [yes]\n"
"    --heap-admin=<size>       bytes of allocator bookkeeping counted per\n"
"                              block, 0..1024 (with --heap=yes) [8]\n"
"    --stacks=no|yes           also measure every thread's stack [no]\n"
"    --pages-as-heap=no|yes    count mmap/mremap/brk pages instead of\n"
"                              malloc blocks [no]\n"
"    --allocator=valgrind|program  whose malloc the program runs on:\n"
"                              Valgrind's (as Massif), or its own, observed\n"
"                              (jemalloc's or glibc's retained memory and\n"
"                              their own statistics stay) [valgrind]\n"
"    --compact-heap=no|yes     blocks up to 1 KB in memtime's slabs, 8 bytes\n"
"                              of bookkeeping each (giant heaps); their extra\n"
"                              bytes lack the 16-byte remainders Valgrind's\n"
"                              arena leaves now and then\n"
"                              [yes with --time-unit=ms, no with i and B]\n"
"    --rss=no|yes              also record the program's resident memory\n"
"                              (anonymous, file, shared) in the companion [yes]\n"
"    --depth=<number>          frames kept per allocation stack, 1..200 [30]\n"
"    --detail-depth=<number>   call levels of every detailed tree kept\n"
"                              unpruned in the companion (deeper where a\n"
"                              path has no name yet), 0..200; 0: none [2]\n"
"    --alloc-fn=<name>         strip <name> from stacks like malloc (repeatable)\n"
"    --known-alloc-fns=no|yes  strip the allocation wrappers of PostgreSQL,\n"
"                              MariaDB/MySQL, nginx, Redis, SQLite, GLib,\n"
"                              APR [yes]\n"
"    --libc-inline-info=no|yes read the C library's inlined frames too\n"
"                              (55 ms more per start with libc6-dbg)\n"
"                              [no with --time-unit=ms, yes with i and B]\n"
"    --ignore-fn=<name>        leave out blocks allocated under <name>\n"
"    --threshold=<m.n>         tree sites below this %% of the total are\n"
"                              merged into one line [1.0]\n"
"    --peak-inaccuracy=<m.n>   a new peak must beat the last by this %% [1.0]\n"
"    --burst-threshold=<m.n>   with --time-unit=ms, a rise by this %% of the\n"
"                              peak gets a detailed snapshot at its top;\n"
"                              100: none [10.0]\n"
"    --time-unit=i|ms|B        the clock: guest instructions, milliseconds,\n"
"                              or bytes allocated plus freed [ms]\n"
"    --detailed-freq=<N>       one snapshot in N carries a tree, 1..1000000 [10]\n"
"    --max-snapshots=<N>       snapshots kept (culled when full), 10..1000 [100]\n"
"    --heap-limit=<size>       at the first allocation taking the total above\n"
"                              <size> (bytes, or 512MiB, 2G...) act as below\n"
"    --heap-limit-action=kill|fail|snapshot  snapshot, write, SIGKILL; or\n"
"                              refuse the allocation (NULL, bad_alloc); or\n"
"                              only snapshot and mark [kill]\n"
"    --memtime-out-file=<file> the profile (%%p pid, %%n, %%q{VAR}) [memtime.out.%%p]\n"
"    --massif-out-file=<file>  the same as --memtime-out-file\n"
"    --sample-interval=<ms>    with --time-unit=ms, also try a snapshot when\n"
"                              this long passed without one; 0: never [100]\n"
"    --flush-interval=<ms>     rewrite the output file while running, at most\n"
"                              this often; 0: only at exit [1000]\n"
   );
}

void mt_print_debug_usage(void)
{
   VG_(printf)(
"    --stack-cache=yes|no|verify  find a repeated allocation stack by checking\n"
"                              the stack words its last unwinding read, not\n"
"                              by unwinding again; verify: unwind anyway and\n"
"                              report any difference [yes]\n"
"    --outline=yes|no          keep the exact outline (no: only to measure\n"
"                              its cost; the companion then has none) [yes]\n");
}

void mt_reject_option(const HChar* opt, const HChar* why)
{
   VG_(fmsg_bad_option)(opt, "%s\n", why);
   /* After option parsing (post_clo_init) the core prints but does not
      stop: Massif 3.19 then runs the program anyway. Stop here. */
   VG_(exit)(1);
}

void mt_options_check(void)
{
   if (clo_pages_as_heap && clo_stacks)
      mt_reject_option("--pages-as-heap=yes",
                       "Cannot be used together with --stacks=yes");
   if (clo_pages_as_heap && clo_allocator_program)
      mt_reject_option("--allocator=program",
                       "Cannot be used together with --pages-as-heap=yes "
                       "(which keeps the program's allocator already)");
   if (!clo_heap)
      clo_pages_as_heap = False;
   /* i and B are the clocks to compare with Massif: there the trees keep
      libc's inlined frames as Massif's do (see mt_debuginfo.c). */
   if (!libc_inline_info_set)
      clo_libc_inline_info = clo_time_unit != TimeMS;
   /* The same for the heap's bookkeeping: memtime's own compact slabs
      and table with ms, the core's arena (Massif's extra bytes to the
      byte) with i and B. */
   if (!compact_heap_set)
      clo_compact_heap = clo_time_unit == TimeMS;
}

const HChar* mt_time_unit_name(void)
{
   switch (clo_time_unit) {
   case TimeI:  return "i";
   case TimeMS: return "ms";
   case TimeB:  return "B";
   }
   tl_assert2(0, "bad time unit %d", (Int)clo_time_unit);
   return "?";
}
