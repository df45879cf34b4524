/* mt_time.c: time units and the rate-limited wall clock (see mt_time.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_tooliface.h"

#include "mt_options.h"
#include "mt_time.h"

/* About how many blocks run between clock reads. A block is a few to a few
   dozen instructions; at Valgrind's speed 50,000 blocks take well under a
   millisecond to a few milliseconds, so the cached clock is never far
   behind, while a loop of malloc/free (one hook call per request) reads
   the clock only once per ~10,000 allocations. */
#define MT_CLOCK_BLOCKS 50000ULL

static Long  guest_instrs_executed = 0;   /* --time-unit=i */
static ULong total_allocs_deallocs_szB = 0;  /* --time-unit=B */

static Bool  clock_started = False;
static UInt  start_ms = 0;        /* raw timer at the first snapshot */
static ULong cached_ms = 0;       /* wall ms since start_ms, at the last read */
static ULong blocks_at_last_read = 0;

void mt_time_start(void)
{
   tl_assert(!clock_started);
   clock_started = True;
   start_ms = VG_(read_millisecond_timer)();
   cached_ms = 0;
}

static void read_clock(void)
{
   if (clock_started)
      cached_ms = (ULong)(UInt)(VG_(read_millisecond_timer)() - start_ms);
}

Bool mt_time_tick(ULong blocks_dispatched, Bool force)
{
   if (!force && blocks_dispatched - blocks_at_last_read < MT_CLOCK_BLOCKS)
      return False;
   blocks_at_last_read = blocks_dispatched;
   read_clock();
   return True;
}

ULong mt_time_wall_ms(void)
{
   return cached_ms;
}

Time mt_time_now(void)
{
   switch (clo_time_unit) {
   case TimeI:  return guest_instrs_executed;
   case TimeMS: return (Time)cached_ms;
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
