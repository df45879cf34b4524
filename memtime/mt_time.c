/* mt_time.c: time units and the wall clock of --time-unit=ms (see
   mt_time.h).

   Why the clock is not simply read at every event: under Valgrind a clock
   read is a real system call (about 0.2 us on an idle machine, more on a
   busy one or with kernel mitigations), and an allocation-heavy program
   makes millions of events; Massif --time-unit=ms pays that and is several
   times slower than memtime for it.

   Why it is not read every N blocks (the first design, N = 50,000): blocks
   do not take uniform time. While Valgrind translates new code and reads
   debug info (start-up, dlopen, a new code path) few blocks run for a long
   time, and the cached time fell 200 ms behind at a program's first
   allocations (measured with tests/progs/clock_events.c).

   What it does: the CPU's time-stamp counter (rdtsc, about 16 ns, no
   system call) tells how long ago the kernel clock was read; every value
   handed out (mt_time_now, mt_time_wall_ms, the client-code hook) first
   re-reads the kernel clock if that was MT_CLOCK_MAX_AGE_MS or more ago.
   So every time memtime records is the kernel's CLOCK_MONOTONIC (through
   VG_(read_millisecond_timer)) read at most MT_CLOCK_MAX_AGE_MS earlier,
   then truncated to the millisecond: at most 2 ms behind the truth, while
   an allocation loop reads the kernel clock about once per millisecond.

   The counter's rate is measured against the kernel clock from the first
   read on (ticks over elapsed ms, over the whole run so far); until 16 ms
   have passed a deliberately low rate is assumed (reads come more often,
   never later). A counter that speeds up only makes reads more frequent;
   one that jumps backwards restarts the measurement. x86-64 processors of
   the last 15 years keep the rate constant (constant_tsc and nonstop_tsc
   in /proc/cpuinfo); as a backstop against one that slows down or stops
   (reads would come late), the client-code hook also reads the clock
   every MT_CLOCK_BLOCKS dispatched blocks. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_tooliface.h"

#include "mt_options.h"
#include "mt_time.h"

#if !defined(VGA_amd64)
#  error "mt_time.c reads the x86-64 time-stamp counter: port read_counter"
#endif

/* The oldest a clock reading may be when a time is handed out. */
#define MT_CLOCK_MAX_AGE_MS 1ULL
/* Counter ticks per ms assumed until the rate is measured: lower than any
   x86-64 TSC (>= 1 GHz), so early reads come more often than needed. */
#define MT_CLOCK_GUESS_TICKS_PER_MS 100000ULL
/* Milliseconds of run before the measured rate is used: the ms clock's
   truncation makes it at most 1/16 off then, and the estimate errs low. */
#define MT_CLOCK_CALIBRATION_MS 16ULL
/* The backstop: the client-code hook reads the clock at least every this
   many dispatched blocks, whatever the counter says. */
#define MT_CLOCK_BLOCKS 50000ULL
/* The client-code hook looks at the counter only when this many blocks ran
   since it last looked: then it costs nothing per allocation. Even while
   Valgrind translates every block (tens of us each), that is a look every
   few tens of ms, often enough for samples (100 ms) and rewrites (1 s);
   the times of events never wait for the hook. */
#define MT_CLOCK_HOOK_BLOCKS 1000ULL

static Long  guest_instrs_executed = 0;   /* --time-unit=i */
static ULong total_allocs_deallocs_szB = 0;  /* --time-unit=B */

static Bool  clock_started = False;
static UInt  start_ms = 0;        /* raw timer at the first snapshot */
static ULong cached_ms = 0;       /* wall ms since start_ms, at the last read */
static ULong counter_at_read = 0; /* the counter at the last read */
static ULong counter_at_start = 0;/* the counter at the calibration's start */
static UInt  ms_at_counter_start = 0;     /* raw timer then */
static ULong max_age_ticks = MT_CLOCK_MAX_AGE_MS * MT_CLOCK_GUESS_TICKS_PER_MS;
static ULong blocks_at_hook_read = 0;   /* for the backstop */
static ULong blocks_at_hook_check = 0;
static ULong ms_seen_by_tick = 0;  /* cached_ms at the last tick that said so */
static ULong n_clock_reads = 0;
static Bool  time_may_have_passed = True;  /* see refresh */

static inline ULong read_counter(void)
{
   UInt lo, hi;
   __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
   return ((ULong)hi << 32) | lo;
}

/* Reads the kernel clock, and measures the counter's rate against it. */
static void read_clock(void)
{
   UInt  raw = VG_(read_millisecond_timer)();
   ULong counter = read_counter();
   ULong previous = counter_at_read;
   ULong elapsed_ms;

   n_clock_reads++;
   time_may_have_passed = False;
   cached_ms = (ULong)(UInt)(raw - start_ms);
   counter_at_read = counter;
   if (counter < previous || counter < counter_at_start) {
      /* The counter went backwards (another CPU's, or reset): start over. */
      counter_at_start = counter;
      ms_at_counter_start = raw;
      max_age_ticks = MT_CLOCK_MAX_AGE_MS * MT_CLOCK_GUESS_TICKS_PER_MS;
      return;
   }
   elapsed_ms = (ULong)(UInt)(raw - ms_at_counter_start);
   if (elapsed_ms >= MT_CLOCK_CALIBRATION_MS)
      /* +1: the true elapsed time can be up to 1 ms more than the
         truncated difference; erring low makes reads early, never late. */
      max_age_ticks = MT_CLOCK_MAX_AGE_MS * ((counter - counter_at_start)
                                             / (elapsed_ms + 1));
}

/* Re-reads the clock if the last read is MT_CLOCK_MAX_AGE_MS old. The
   counter is looked at only if time may have passed since the last look
   (mt_time_may_pass): a free asks for the time twice (peak check, then
   snapshot) with nothing but tool code in between. */
static void refresh(void)
{
   if (!clock_started || !time_may_have_passed)
      return;
   time_may_have_passed = False;
   if (read_counter() - counter_at_read >= max_age_ticks)
      read_clock();
}

void mt_time_may_pass(void)
{
   time_may_have_passed = True;
}

void mt_time_start(void)
{
   tl_assert(!clock_started);
   clock_started = True;
   start_ms = VG_(read_millisecond_timer)();
   counter_at_start = read_counter();
   ms_at_counter_start = start_ms;
   read_clock();
}

Bool mt_time_tick(ULong blocks_dispatched, Bool force)
{
   if (!clock_started)
      return False;
   if (force) {
      read_clock();
   } else if (blocks_dispatched == 0) {
      refresh();
   } else if (blocks_dispatched - blocks_at_hook_check >= MT_CLOCK_HOOK_BLOCKS) {
      /* From the client-code hook, which runs after every client request:
         in an allocation loop the allocations keep the clock fresh, so the
         counter is looked at only when client code ran meanwhile. */
      blocks_at_hook_check = blocks_dispatched;
      if (blocks_dispatched - blocks_at_hook_read >= MT_CLOCK_BLOCKS) {
         blocks_at_hook_read = blocks_dispatched;
         read_clock();
      } else {
         refresh();
      }
   }
   if (cached_ms == ms_seen_by_tick)
      return False;
   ms_seen_by_tick = cached_ms;
   return True;
}

ULong mt_time_wall_ms(void)
{
   refresh();
   return cached_ms;
}

ULong mt_time_n_clock_reads(void)
{
   return n_clock_reads;
}

Time mt_time_now(void)
{
   switch (clo_time_unit) {
   case TimeI:  return guest_instrs_executed;
   case TimeMS: return (Time)(mt_time_wall_ms() * clo_test_clock_speedup);
   case TimeB:  return (Time)total_allocs_deallocs_szB;
   }
   tl_assert2(0, "bad time unit");
   return 0;
}

void mt_time_add_bytes(SSizeT delta_szB)
{
   if (delta_szB < 0)
      delta_szB = -delta_szB;
   total_allocs_deallocs_szB += delta_szB;
}

/* guest_instrs_executed += n, as IR: load, add, store. */
static void add_counter_update(IRSB* sbOut, Int n)
{
   IRTemp  t1   = newIRTemp(sbOut->tyenv, Ity_I64);
   IRTemp  t2   = newIRTemp(sbOut->tyenv, Ity_I64);
   IRExpr* addr = mkIRExpr_HWord((HWord)&guest_instrs_executed);
   addStmtToIRSB(sbOut, IRStmt_WrTmp(t1, IRExpr_Load(Iend_LE, Ity_I64, addr)));
   addStmtToIRSB(sbOut, IRStmt_WrTmp(t2, IRExpr_Binop(Iop_Add64,
                                            IRExpr_RdTmp(t1),
                                            IRExpr_Const(IRConst_U64(n)))));
   addStmtToIRSB(sbOut, IRStmt_Store(Iend_LE, addr, IRExpr_RdTmp(t2)));
}

/* Counts the instructions (IMarks) executed: the count so far is added
   before each side exit and at the end, so a taken exit counts exactly
   the instructions before it. This is Massif's scheme, which --time-unit=i
   must reproduce. */
IRSB* mt_time_instrument(IRSB* sbIn)
{
   IRSB* sbOut;
   Int   i, n = 0;

   if (clo_time_unit != TimeI)
      return sbIn;

   sbOut = deepCopyIRSBExceptStmts(sbIn);
   for (i = 0; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      if (!st || st->tag == Ist_NoOp)
         continue;
      if (st->tag == Ist_IMark) {
         n++;
      } else if (st->tag == Ist_Exit && n > 0) {
         add_counter_update(sbOut, n);
         n = 0;
      }
      addStmtToIRSB(sbOut, st);
   }
   if (n > 0)
      add_counter_update(sbOut, n);
   return sbOut;
}
