/* mt_unwind.c: an allocation's call stack, unwound by the core or found
   in the cache (see mt_unwind.h for why the cache is exact).

   What the core's amd64 walk reads, and so what an entry checks: frame 0
   is the thread's registers (IP, SP, FP: the key); each next frame's
   return address comes from the word just below its CFA, which is the SP
   the walk reports for that frame (sps[j] - 8 holds ips[j] + 1), or, for
   the core's last resort, from the word at that SP. A frame pointer
   matters where the walk used it (a CFA at FP + 16, the last resort, the
   walk's end) and wherever it reached such a frame unchanged; each that
   matters was restored from the slot where the callee saved it, among
   the callee's pushes just below the return address, and that slot is
   checked too. When one that matters changed and no such slot holds the
   new value, the stack is not cached: the walk read something the entry
   could not check (a signal frame's saved context, an unusual prologue).
   Checking a word the walk did not read can only cause a needless miss,
   never a wrong hit.

   An entry is used only when its words lie between the thread's SP and
   the top of its registered stack, so every word checked is mapped: a
   stack the program switched to by itself (coroutines, a signal stack)
   is unwound every time. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_stacktrace.h"
#include "libvex_guest_amd64.h"

#include "mt_compat.h"
#include "mt_options.h"
#include "mt_unwind.h"

/* Sets of a few ways: the same registers are often reached through
   several call paths (one allocation helper called from two places at
   the same depth), which would evict each other from a single slot. The
   most recently used way comes first; a new stack replaces the last one.
   Entries are made on demand, about 16-32 bytes per frame. */
#define MT_CACHE_SETS 1024
#define MT_CACHE_WAYS 4
/* How far below a return address the walk may have found a saved frame
   pointer: the callee-saved registers are pushed first, at most six. */
#define MT_SAVED_FP_WORDS 8
/* The deepest walk asked for (mt_tree.c asks for --depth plus allocation
   functions): a buffer per walk, not per call. */
#define MT_UNWIND_MAX 512

typedef struct { Addr at, val; } Word2;

typedef struct {
   Bool  excl;              /* exclude_first_entry */
   UInt  xecu;
   Addr  top;               /* the highest word checked */
   UInt  n_words;
   Word2 words[0];
} Entry;

/* A way holds its entry's key (the registers at the request) beside the
   pointer: a lookup compares the set's keys in two cache lines and
   follows only the pointer whose key matches. With the keys in the
   entries, a miss read every way's entry (up to four cache misses), and
   rustc misses about one lookup in four: the lookup was 1.1% of its run
   under perf, the largest of memtime's own functions. */
typedef struct {
   Addr   ip, sp, fp;
   Entry* e;                /* NULL: an empty way */
} Way;

static Way  sets[MT_CACHE_SETS][MT_CACHE_WAYS];
static Bool enabled;

/* The last full walk, for mt_unwind_remember. */
static Addr last_ips[MT_UNWIND_MAX], last_sps[MT_UNWIND_MAX],
            last_fps[MT_UNWIND_MAX];
static UInt last_n;
static ThreadId last_tid;
static Bool last_excl, last_valid;

static ULong n_hits, n_misses, n_uncacheable, n_checked, n_differed;

void mt_unwind_init(void)
{
   enabled = clo_stack_cache != MtCacheNo
             && VG_(clo_merge_recursive_frames) == 0;
   /* thread_sp_fp reads both registers at once. */
   tl_assert(offsetof(VexGuestAMD64State, guest_RBP)
             == offsetof(VexGuestAMD64State, guest_RSP) + sizeof(Addr));
}

/* tid's SP and FP, which the guest state keeps side by side: one call. */
static void thread_sp_fp(ThreadId tid, Addr* sp, Addr* fp)
{
   Addr regs[2];
   VG_(get_shadow_regs_area)(tid, (UChar*)regs, 0,
                             offsetof(VexGuestAMD64State, guest_RSP),
                             sizeof regs);
   *sp = regs[0];
   *fp = regs[1];
}

static UInt set_of(Addr ip, Addr sp, Addr fp)
{
   UWord h = (sp >> 3) ^ (ip * 0x9E3779B1UL) ^ (fp >> 4) * 31;
   return (UInt)(h ^ (h >> 13)) & (MT_CACHE_SETS - 1);
}

/* Is [sp, top] inside tid's registered stack, hence mapped? */
static Bool in_stack(ThreadId tid, Addr sp, Addr top)
{
   Addr max = VG_(thread_get_stack_max)(tid);
   SizeT size = VG_(thread_get_stack_size)(tid);
   return top <= max && sp <= top && max - sp < size;
}

/* Does w describe the stack now on the thread with these registers? */
static Bool entry_holds(ThreadId tid, const Way* w, Addr ip, Addr sp,
                        Addr fp, Bool excl)
{
   const Entry* e = w->e;
   UInt i;
   if (w->ip != ip || w->sp != sp || w->fp != fp || e == NULL
       || e->excl != excl || !in_stack(tid, sp, e->top))
      return False;
   for (i = 0; i < e->n_words; i++) {
      if (*(const Addr*)e->words[i].at != e->words[i].val)
         return False;
   }
   return True;
}

Bool mt_unwind_cached(ThreadId tid, Bool exclude_first_entry, UInt* xecu)
{
   Addr ip, sp, fp;
   Way* set;
   UInt w;

   if (!enabled)
      return False;
   ip = VG_(get_IP)(tid);
   thread_sp_fp(tid, &sp, &fp);
   set = sets[set_of(ip, sp, fp)];
   for (w = 0; w < MT_CACHE_WAYS; w++) {
      if (entry_holds(tid, &set[w], ip, sp, fp, exclude_first_entry)) {
         Way hit = set[w];
         for (; w > 0; w--)          /* most recently used first */
            set[w] = set[w - 1];
         set[0] = hit;
         n_hits++;
         *xecu = hit.e->xecu;
         return True;
      }
   }
   n_misses++;
   return False;
}

UInt mt_unwind_full(ThreadId tid, Bool exclude_first_entry, UInt max_ips,
                    Addr** ips)
{
   UInt n;
   tl_assert(max_ips <= MT_UNWIND_MAX);
   n = VG_(get_StackTrace)(tid, last_ips, max_ips, last_sps, last_fps, 0);
   last_n = n;
   last_tid = tid;
   last_excl = exclude_first_entry;
   last_valid = n > 1 || !exclude_first_entry;
   if (!exclude_first_entry) {
      *ips = last_ips;
      return n;
   }
   if (n > 1) {
      *ips = last_ips + 1;
      return n - 1;
   }
   /* The core's null context: one frame, address 0. Not cached (the
      buffer is the walk's; frame 0 is the key). */
   last_ips[1] = 0;
   *ips = last_ips + 1;
   return 1;
}

/* The saved frame pointer fp, in the few words below the return address
   at ra_at; 0 when not there. */
static Addr saved_fp_slot(Addr ra_at, Addr floor, Addr fp)
{
   UInt k;
   for (k = 1; k <= MT_SAVED_FP_WORDS; k++) {
      Addr at = ra_at - k * sizeof(Addr);
      if (at < floor)
         break;
      if (*(const Addr*)at == fp)
         return at;
   }
   return 0;
}

/* Where the walk read frame j's return address: just below its CFA (a
   CFI or frame-pointer step), or at its SP (the core's last resort when
   neither works, which it chose because the frame pointer was not a
   stack address). 0 when neither holds it. */
static Addr ra_slot(UInt j, Bool* last_resort)
{
   Addr ra = last_ips[j] + 1;
   Addr below = last_sps[j] - sizeof(Addr);
   *last_resort = False;
   if (below >= last_sps[0] && *(const Addr*)below == ra)
      return below;
   *last_resort = True;
   return *(const Addr*)last_sps[j] == ra ? last_sps[j] : 0;
}

void mt_unwind_remember(UInt xecu)
{
   static Word2 words[2 * MT_UNWIND_MAX];
   static Addr  ra_at[MT_UNWIND_MAX];
   static Bool  fp_matters[MT_UNWIND_MAX + 1];
   UInt j, n_words = 0;
   Entry* e;
   Way* set;

   if (!enabled || !last_valid)
      return;
   last_valid = False;
   /* Every word looked at below lies between the thread's SP and the
      outermost frame's return address: live, mapped stack. */
   if (!in_stack(last_tid, last_sps[0], last_sps[last_n - 1] + sizeof(Addr)))
      goto uncacheable;

   /* Which frames' frame pointers the walk used: a frame whose CFA is its
      frame pointer + 16 (frame-pointer code, alloca, stack realignment),
      a frame left by the last resort, and the last frame, whose frame
      pointer helped decide that the walk ends there. */
   fp_matters[last_n] = False;
   for (j = 1; j < last_n; j++) {
      Bool last_resort;
      ra_at[j] = ra_slot(j, &last_resort);
      if (ra_at[j] == 0)
         goto uncacheable;
      fp_matters[j - 1] = last_resort
                          || last_sps[j] == last_fps[j - 1] + 2 * sizeof(Addr);
   }
   fp_matters[last_n - 1] = True;
   /* A frame pointer that passed unchanged from frame j into frame j + 1
      may be the same register, so frame j's matters when frame j + 1's
      does (backwards, so it carries over several frames). */
   for (j = last_n - 1; j > 0; j--) {
      if (fp_matters[j] && last_fps[j] == last_fps[j - 1])
         fp_matters[j - 1] = True;
   }

   for (j = 1; j < last_n; j++) {
      words[n_words].at = ra_at[j];
      words[n_words].val = last_ips[j] + 1;
      n_words++;
      if (fp_matters[j]) {
         /* Frame 0's is the key; the others were restored from where the
            callee saved them, or passed through unchanged. */
         Addr fp_at = saved_fp_slot(ra_at[j], last_sps[j - 1], last_fps[j]);
         if (fp_at != 0) {
            words[n_words].at = fp_at;
            words[n_words].val = last_fps[j];
            n_words++;
         } else if (last_fps[j] != last_fps[j - 1]) {
            goto uncacheable;
         }
      }
   }
   set = sets[set_of(last_ips[0], last_sps[0], last_fps[0])];
   if (set[MT_CACHE_WAYS - 1].e != NULL)
      VG_(free)(set[MT_CACHE_WAYS - 1].e);
   for (j = MT_CACHE_WAYS - 1; j > 0; j--)
      set[j] = set[j - 1];
   e = VG_(malloc)("mt.unwind.entry", sizeof(Entry) + n_words * sizeof(Word2));
   set[0].ip = last_ips[0];
   set[0].sp = last_sps[0];
   set[0].fp = last_fps[0];
   e->excl = last_excl;
   e->xecu = xecu;
   e->top = last_sps[last_n - 1] + sizeof(Addr);
   e->n_words = n_words;
   VG_(memcpy)(e->words, words, n_words * sizeof(Word2));
   set[0].e = e;
   return;

uncacheable:
   n_uncacheable++;
}

void mt_unwind_check(Bool same)
{
   n_checked++;
   if (!same) {
      n_differed++;
      if (n_differed <= 10)
         VG_(umsg)("memtime: --stack-cache=verify: a cached stack differs "
                   "from the unwound one (check %llu)\n", n_checked);
   }
}

void mt_unwind_print_stats(void)
{
   if (clo_stack_cache == MtCacheVerify)
      VG_(umsg)("memtime: --stack-cache=verify: %llu cached stacks checked, "
                "%llu differed\n", n_checked, n_differed);
   if (VG_(clo_verbosity) > 1)
      VG_(dmsg)("memtime: stack cache: %llu hits, %llu misses, %llu "
                "stacks not cacheable\n", n_hits, n_misses, n_uncacheable);
}
