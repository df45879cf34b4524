/* mt_stacks.c: --stacks=yes. Keeps each thread's stack low-water mark with
   inline IR, and turns the marks into per-thread sizes at snapshot time.
   The design (what is measured, what mem_stacks_B means) is in mt_stacks.h.

   Overview of operation:
   - pre_thread_first_insn: the thread gets the next thread number; its first
     SP and the lowest byte of its stack mapping are recorded; shadow1[SP]
     (the low-water mark) := first SP, shadow2[SP] (the lower bound) := the
     lowest byte.
   - after every IR Put to SP (value v) that may lower SP:
        lw  = GET shadow1[SP];  lo = GET shadow2[SP]
        shadow1[SP] := (lo <= v < lw) ? v : lw
     Only register-file traffic: no memory access outside the guest state,
     no helper call. SPs above first_SP never lower the mark; SPs below the
     stack mapping (alternate signal stacks, coroutine stacks) are ignored.
     Writes that provably raise SP (pop, ret) are left alone.
   - at a snapshot: size of thread t = first_SP(t) - min(lw(t), SP(t) when SP
     is inside the stack); marks are then reset to the current SP.
   - pre_thread_ll_exit: the dying thread's deepest point is kept until the
     next sample, so a thread that recursed and exited between two snapshots
     still counts in the snapshot that closes the interval.

   Costs: the IR adds two Gets, two subtractions, a compare, an ITE and a
   Put per SP write that may lower SP (about 1.2x a heap-only run on a
   call-heavy program, against 6-7x for Massif's --stacks=yes); a snapshot
   reads two guest words per live thread. */
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "libvex_guest_amd64.h"

#include "mt_companion.h"
#include "mt_options.h"
#include "mt_stacks.h"

/* The SP's offset in the guest state. The thread hooks run before the first
   translation, when no VexGuestLayout has been seen yet, so it is taken from
   VEX's own struct; mt_stacks_instrument checks it against the layout. */
#define SP_OFFSET ((PtrdiffT)__builtin_offsetof(VexGuestAMD64State, guest_RSP))

typedef struct {
   Bool  live;          /* between first_insn and ll_exit */
   UInt  thread_no;     /* memtime's number, main = 1 */
   Int   lwp;           /* kernel thread id, for its name */
   Addr  first_SP;      /* SP at the first instruction: the stack's top */
   Addr  lowest;        /* lowest byte of the stack mapping (0: unknown) */
} ThreadStack;

typedef struct { UInt thread_no; SizeT szB; } ExitedStack;

static ThreadStack* threads;        /* indexed by ThreadId, VG_N_THREADS */
static ThreadId*    live_tids;      /* the live threads, unordered */
static UInt         n_live;
static ExitedStack* exited;         /* exited since the last sample */
static UInt         n_exited, max_exited;
static UInt         n_threads_seen;
static HChar**      names;          /* by thread_no - 1; NULL: unknown */
static UInt         max_names;

/*------------------------------------------------------------*/
/*--- Guest-state access                                   ---*/
/*------------------------------------------------------------*/

static Addr get_shadow_SP(ThreadId tid, Int shadow_no)
{
   Addr a;
   VG_(get_shadow_regs_area)(tid, (UChar*)&a, shadow_no, SP_OFFSET, sizeof a);
   return a;
}

static void set_shadow_SP(ThreadId tid, Int shadow_no, Addr a)
{
   VG_(set_shadow_regs_area)(tid, shadow_no, SP_OFFSET, sizeof a,
                             (const UChar*)&a);
}

/* The thread's deepest point since the last reset, in bytes. The current SP
   is included because the mark is only updated by Puts of SP: a thread that
   has just started has made none. */
static SizeT deepest_szB(ThreadId tid)
{
   const ThreadStack* ts = &threads[tid];
   Addr sp = VG_(get_SP)(tid);
   Addr lw = get_shadow_SP(tid, 1);
   if (sp < lw && sp >= ts->lowest) lw = sp;
   return lw < ts->first_SP ? ts->first_SP - lw : 0;
}

/*------------------------------------------------------------*/
/*--- Thread names                                         ---*/
/*------------------------------------------------------------*/

/* The name of the process as the kernel knows it: the tool's executable
   ("memtime-amd64-l"), which every thread inherits until it is named. */
static HChar* default_comm;

/* The kernel's name of a thread of this process (pthread_setname_np writes
   it), or NULL if it has none of its own. Read only when the companion file
   is written or a thread exits, never per snapshot. lwp 0: the process. */
static HChar* read_comm(Int lwp)
{
   HChar path[64], buf[32];
   Int fd, n, i;
   if (lwp == 0)
      VG_(sprintf)(path, "/proc/%d/comm", VG_(getpid)());
   else
      VG_(sprintf)(path, "/proc/%d/task/%d/comm", VG_(getpid)(), lwp);
   fd = VG_(fd_open)(path, VKI_O_RDONLY, 0);
   if (fd < 0) return NULL;
   n = VG_(read)(fd, buf, sizeof buf - 1);
   VG_(close)(fd);
   if (n <= 0) return NULL;
   buf[n] = '\0';
   for (i = 0; i < n; i++)
      if ((UChar)buf[i] < 0x20) { buf[i] = '\0'; break; }
   if (buf[0] == '\0'
       || (lwp != 0 && default_comm && VG_(strcmp)(buf, default_comm) == 0))
      return NULL;
   return VG_(strdup)("mt.stacks.name", buf);
}

static void set_name(UInt thread_no, HChar* name)
{
   if (name == NULL) return;
   if (thread_no > max_names) {
      UInt i, old = max_names;
      max_names = thread_no * 2;
      names = VG_(realloc)("mt.stacks.names", names, max_names * sizeof *names);
      for (i = old; i < max_names; i++) names[i] = NULL;
   }
   if (names[thread_no - 1]) VG_(free)(names[thread_no - 1]);   /* renamed */
   names[thread_no - 1] = name;
}

/* One read of /proc per live thread: once per companion rewrite, not per
   snapshot. */
static void refresh_names(void)
{
   UInt i;
   for (i = 0; i < n_live; i++) {
      const ThreadStack* ts = &threads[live_tids[i]];
      if (ts->thread_no != 1) set_name(ts->thread_no, read_comm(ts->lwp));
   }
}

static const HChar* thread_name(UInt thread_no)
{
   if (thread_no == 1) return "main";
   return thread_no <= max_names ? names[thread_no - 1] : NULL;
}

/*------------------------------------------------------------*/
/*--- Thread events                                        ---*/
/*------------------------------------------------------------*/

static void remove_live(ThreadId tid)
{
   UInt i;
   for (i = 0; i < n_live; i++)
      if (live_tids[i] == tid) { live_tids[i] = live_tids[--n_live]; return; }
}

static void mt_stacks_first_insn(ThreadId tid)
{
   ThreadStack* ts = &threads[tid];
   SizeT size = VG_(thread_get_stack_size)(tid);
   Addr  max  = VG_(thread_get_stack_max)(tid);

   tl_assert(tid < VG_N_THREADS);
   if (ts->live) remove_live(tid);   /* defensive: a missed ll_exit */
   ts->live      = True;
   ts->thread_no = ++n_threads_seen;
   ts->lwp       = VG_(gettid)();    /* this hook runs in the new thread */
   ts->first_SP  = VG_(get_SP)(tid);
   /* The bound only serves to reject SPs on other stacks, so an unknown or
      odd stack size means "no bound" rather than a wrong one. */
   ts->lowest    = (size > 0 && max >= size && ts->first_SP <= max)
                   ? max - size + 1 : 0;
   live_tids[n_live++] = tid;
   /* The shadow areas were copied from the parent at clone: overwrite. */
   set_shadow_SP(tid, 1, ts->first_SP);
   set_shadow_SP(tid, 2, ts->lowest);
}

static void mt_stacks_ll_exit(ThreadId tid)
{
   ThreadStack* ts = &threads[tid];
   if (!ts->live) return;
   if (n_exited == max_exited) {
      max_exited = max_exited ? 2 * max_exited : 16;
      exited = VG_(realloc)("mt.stacks.exited", exited,
                            max_exited * sizeof *exited);
   }
   exited[n_exited].thread_no = ts->thread_no;
   exited[n_exited].szB       = deepest_szB(tid);
   n_exited++;
   if (ts->thread_no != 1) set_name(ts->thread_no, read_comm(ts->lwp));
   ts->live = False;
   remove_live(tid);
}

/* In a forked child only the forking thread survives; the others must not
   be sampled (their guest state is gone). Exited-thread entries belong to
   the parent's interval and are dropped too. */
static void mt_stacks_atfork_child(ThreadId tid)
{
   UInt i;
   for (i = 0; i < n_live; i++)
      if (live_tids[i] != tid) threads[live_tids[i]].live = False;
   n_live = 0;
   if (threads[tid].live) live_tids[n_live++] = tid;
   n_exited = 0;
}

void mt_stacks_init(void)
{
   tl_assert(clo_stacks);
   threads   = VG_(calloc)("mt.stacks.threads", VG_N_THREADS, sizeof *threads);
   live_tids = VG_(calloc)("mt.stacks.live", VG_N_THREADS, sizeof *live_tids);
   VG_(track_pre_thread_first_insn)(mt_stacks_first_insn);
   VG_(track_pre_thread_ll_exit)   (mt_stacks_ll_exit);
   VG_(atfork)(NULL, NULL, mt_stacks_atfork_child);
   default_comm = read_comm(0);
}

/*------------------------------------------------------------*/
/*--- Instrumentation                                      ---*/
/*------------------------------------------------------------*/

static IRTemp add_tmp(IRSB* sb, IRType ty, IRExpr* e)
{
   IRTemp t = newIRTemp(sb->tyenv, ty);
   addStmtToIRSB(sb, IRStmt_WrTmp(t, e));
   return t;
}

/* After "PUT(SP) = v": shadow1[SP] = (lo <=u v <u lw) ? v : lw, with the
   range test done as one unsigned compare: v - lo <u lw - lo. */
static void add_low_water_update(IRSB* sb, IRExpr* v, Int guest_szB)
{
   Int s1 = SP_OFFSET + guest_szB, s2 = SP_OFFSET + 2 * guest_szB;
   IRTemp lw  = add_tmp(sb, Ity_I64, IRExpr_Get(s1, Ity_I64));
   IRTemp lo  = add_tmp(sb, Ity_I64, IRExpr_Get(s2, Ity_I64));
   IRTemp dv  = add_tmp(sb, Ity_I64,
                        IRExpr_Binop(Iop_Sub64, v, IRExpr_RdTmp(lo)));
   IRTemp dlw = add_tmp(sb, Ity_I64,
                        IRExpr_Binop(Iop_Sub64, IRExpr_RdTmp(lw),
                                     IRExpr_RdTmp(lo)));
   IRTemp in  = add_tmp(sb, Ity_I1,
                        IRExpr_Binop(Iop_CmpLT64U, IRExpr_RdTmp(dv),
                                     IRExpr_RdTmp(dlw)));
   IRTemp nw  = add_tmp(sb, Ity_I64,
                        IRExpr_ITE(IRExpr_RdTmp(in), v, IRExpr_RdTmp(lw)));
   addStmtToIRSB(sb, IRStmt_Put(s1, IRExpr_RdTmp(nw)));
}

/* A write of SP that provably raises it (a pop, a ret, "add rsp, N") cannot
   lower the mark: such writes, about half of them, get no update. Provable
   here means v = x + c with 0 < c < 2^31 and x a value SP held in this
   block (read from it, or written to it and already accounted for). */
static Bool raises_SP(IRExpr* const* defs, const Bool* is_sp_value, IRExpr* v)
{
   IRExpr *e, *x, *c;
   if (v->tag != Iex_RdTmp) return False;
   e = defs[v->Iex.RdTmp.tmp];
   if (e == NULL) return False;
   if (e->tag != Iex_Binop || e->Iex.Binop.op != Iop_Add64) return False;
   x = e->Iex.Binop.arg1;
   c = e->Iex.Binop.arg2;
   return x->tag == Iex_RdTmp && is_sp_value[x->Iex.RdTmp.tmp]
          && c->tag == Iex_Const && c->Iex.Const.con->tag == Ico_U64
          && c->Iex.Const.con->Ico.U64 > 0
          && c->Iex.Const.con->Ico.U64 < 0x80000000ULL;
}

IRSB* mt_stacks_instrument(IRSB* bb, const VexGuestLayout* layout)
{
   IRSB* out;
   Bool* is_sp_value;     /* by temp: holds a value SP had in this block */
   IRExpr** defs;         /* by temp: its defining expression (flat IR) */
   Int i;
   if (!clo_stacks) return bb;
   tl_assert(layout->offset_SP == SP_OFFSET && layout->sizeof_SP == 8);
   is_sp_value = VG_(calloc)("mt.stacks.instr", bb->tyenv->types_used + 1,
                             sizeof(Bool));
   defs = VG_(calloc)("mt.stacks.instr", bb->tyenv->types_used + 1,
                      sizeof(IRExpr*));
   out = deepCopyIRSBExceptStmts(bb);
   for (i = 0; i < bb->stmts_used; i++) {
      IRStmt* st = bb->stmts[i];
      addStmtToIRSB(out, st);
      if (st->tag == Ist_WrTmp)
         defs[st->Ist.WrTmp.tmp] = st->Ist.WrTmp.data;
      if (st->tag == Ist_WrTmp && st->Ist.WrTmp.data->tag == Iex_Get
          && st->Ist.WrTmp.data->Iex.Get.offset == SP_OFFSET
          && st->Ist.WrTmp.data->Iex.Get.ty == Ity_I64)
         is_sp_value[st->Ist.WrTmp.tmp] = True;
      /* Only whole-register writes: amd64 code never writes part of RSP. */
      if (st->tag == Ist_Put && st->Ist.Put.offset == SP_OFFSET
          && typeOfIRExpr(bb->tyenv, st->Ist.Put.data) == Ity_I64) {
         IRExpr* v = st->Ist.Put.data;
         if (!raises_SP(defs, is_sp_value, v))
            add_low_water_update(out, v, layout->total_sizeB);
         if (v->tag == Iex_RdTmp)
            is_sp_value[v->Iex.RdTmp.tmp] = True;
      }
   }
   VG_(free)(is_sp_value);
   VG_(free)(defs);
   return out;
}

/*------------------------------------------------------------*/
/*--- Sampling                                             ---*/
/*------------------------------------------------------------*/

SizeT mt_stacks_current_szB(void)
{
   SizeT total = 0;
   UInt i;
   if (!clo_stacks) return 0;
   for (i = 0; i < n_live; i++) total += deepest_szB(live_tids[i]);
   for (i = 0; i < n_exited; i++) total += exited[i].szB;
   return total;
}

MtStackSample* mt_stacks_sample(void)
{
   MtStackSample* s;
   UInt i, n = 0;
   if (!clo_stacks) return NULL;
   s = VG_(malloc)("mt.stacks.sample", sizeof *s
                   + (n_live + n_exited) * sizeof s->threads[0]);
   s->total_szB = 0;
   for (i = 0; i < n_exited; i++) {
      s->threads[n].thread_no = exited[i].thread_no;
      s->threads[n].szB       = exited[i].szB;
      s->total_szB += exited[i].szB;
      n++;
   }
   for (i = 0; i < n_live; i++) {
      ThreadId tid = live_tids[i];
      const ThreadStack* ts = &threads[tid];
      Addr sp = VG_(get_SP)(tid);
      s->threads[n].thread_no = ts->thread_no;
      s->threads[n].szB       = deepest_szB(tid);
      s->total_szB += s->threads[n].szB;
      n++;
      /* Start the next interval from where the thread is now. A thread
         that is on another stack (a signal handler on its alternate stack)
         keeps its mark: its main-stack depth is still in use. */
      if (sp >= ts->lowest && sp <= ts->first_SP) set_shadow_SP(tid, 1, sp);
   }
   s->n_threads = n;
   /* Readers get the threads in number order; n is small. */
   for (i = 1; i < n; i++) {
      UInt j = i;
      while (j > 0 && s->threads[j - 1].thread_no > s->threads[j].thread_no) {
         UInt  no  = s->threads[j].thread_no;
         SizeT szB = s->threads[j].szB;
         s->threads[j] = s->threads[j - 1];
         s->threads[j - 1].thread_no = no;
         s->threads[j - 1].szB       = szB;
         j--;
      }
   }
   n_exited = 0;
   return s;
}

void mt_stacks_sample_free(MtStackSample* s)
{
   if (s) VG_(free)(s);
}

/*------------------------------------------------------------*/
/*--- Companion records                                    ---*/
/*------------------------------------------------------------*/

Bool mt_stacks_any(void)
{
   return clo_stacks;
}

void mt_stacks_companion(MtFile* c)
{
   UInt i;
   if (clo_stacks) refresh_names();
   for (i = 1; i <= n_threads_seen; i++) {
      const HChar* name = thread_name(i);
      if (name) mt_companion_record(c, MtRecThread, "tid=%u name=%s", i, name);
      else      mt_companion_record(c, MtRecThread, "tid=%u", i);
   }
}

void mt_stacks_companion_sample(MtFile* c, UInt snapshot_n, ULong time,
                                const MtStackSample* s)
{
   UInt i;
   if (s == NULL) return;
   mt_companion_begin(c, MtRecStacks);
   mt_companion_add(c, "snapshot=%u time=%llu", snapshot_n, time);
   for (i = 0; i < s->n_threads; i++)
      mt_companion_add(c, " %u=%lu", s->threads[i].thread_no,
                       s->threads[i].szB);
   mt_companion_end(c);
}
