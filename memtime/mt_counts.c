/* mt_counts.c: per-site allocation counts and their companion lines (see
   mt_counts.h).

   Counts live per stack (Xecu, the tree's own handle), in an array that
   grows with the stack table, so the cost per allocation is a few
   increments; they are summed per top-level frame, the tree's site, only
   when the companion is written. Temporaries need one word per thread:
   the address of the thread's latest allocation, forgotten when that
   thread allocates again; its free while still remembered is temporary.
   Blocks carry the allocating thread (mt_heap.c), so a free by another
   thread still finds the right slot. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"

#include "mt_companion.h"
#include "mt_counts.h"
#include "mt_order.h"
#include "mt_tree.h"

typedef struct {
   ULong allocs;        /* allocation calls (realloc included) */
   ULong temporary;     /* of those, freed before the thread allocated again */
   ULong alloc_szB;     /* bytes requested by them, in total */
   ULong live_blocks;   /* blocks live now */
   ULong live_szB;      /* their bytes */
} Counts;

static Counts* counts;       /* indexed by Xecu */
static UInt    n_counts;     /* allocated entries */
static Bool    any;
static MtEnd   end_how = MtEndNone;   /* mt_counts_at_end */
static Addr*   last_alloc;   /* indexed by ThreadId: its latest block */

static Counts* at(Xecu where)
{
   if (where >= n_counts) {
      UInt n = n_counts ? n_counts : 64;
      while (n <= where) n *= 2;
      counts = VG_(realloc)("mt.counts", counts, n * sizeof *counts);
      VG_(memset)(counts + n_counts, 0, (n - n_counts) * sizeof *counts);
      n_counts = n;
   }
   return &counts[where];
}

void mt_counts_alloc(Xecu where, ThreadId tid, Addr p, SizeT szB)
{
   Counts* c = at(where);
   c->allocs++;
   c->alloc_szB += szB;
   c->live_blocks++;
   c->live_szB += szB;
   any = True;
   if (last_alloc == NULL)
      last_alloc = VG_(calloc)("mt.counts.last", VG_N_THREADS, sizeof(Addr));
   if (tid < VG_N_THREADS)
      last_alloc[tid] = p;
}

void mt_counts_free(Xecu where, ThreadId tid, Addr p, SizeT szB)
{
   Counts* c = at(where);
   tl_assert(c->live_blocks > 0 && c->live_szB >= szB);
   c->live_blocks--;
   c->live_szB -= szB;
   if (last_alloc != NULL && tid < VG_N_THREADS && last_alloc[tid] == p) {
      c->temporary++;
      last_alloc[tid] = 0;
   }
}

void mt_counts_restart(void)
{
   UInt i;
   for (i = 0; i < n_counts; i++) {
      counts[i].allocs = counts[i].live_blocks;
      counts[i].alloc_szB = counts[i].live_szB;
      counts[i].temporary = 0;
   }
   if (last_alloc != NULL)
      VG_(memset)(last_alloc, 0, VG_N_THREADS * sizeof(Addr));
}

Bool mt_counts_any(void) { return any; }

void mt_counts_at_end(MtEnd how) { end_how = how; }

static const HChar* const end_names[] = {
   [MtEndNone] = "none", [MtEndExit] = "exit", [MtEndExec] = "exec",
};

/* Stacks sorted by their site's address, so one site's stacks are adjacent. */
typedef struct { Addr ip; Xecu x; } ByIp;

static Int cmp_by_ip(const void* va, const void* vb)
{
   const ByIp* a = va;
   const ByIp* b = vb;
   if (a->ip != b->ip) return a->ip < b->ip ? -1 : 1;
   return a->x < b->x ? -1 : a->x > b->x;
}

/* Every stack with a site, in cmp_by_ip order: a stack's site never
   changes, so the order is kept across rewrites and the stacks made since
   the last one are sorted and merged in (sorting every stack at every
   rewrite was most of this record's cost on rustc, tens of thousands of
   stacks about once a second). Covers the tree's stacks 0 .. n_seen - 1. */
static MtOrder order = MT_ORDER_INIT(ByIp, "mt.counts.order", cmp_by_ip);
static UInt    n_seen;

static void update_order(void)
{
   UInt n_all = mt_tree_n_stacks(), n_new = 0, i;
   ByIp *fresh;
   if (n_seen == n_all)
      return;
   fresh = VG_(malloc)("mt.counts.order.new", (n_all - n_seen) * sizeof *fresh);
   for (i = n_seen; i < n_all; i++) {
      Addr ip;
      if (!mt_tree_site_ip(i, &ip))
         continue;
      fresh[n_new].ip = ip;
      fresh[n_new].x  = i;
      n_new++;
   }
   n_seen = n_all;
   mt_order_add(&order, fresh, n_new);
   VG_(free)(fresh);
}

void mt_counts_companion(MtFile* comp)
{
   ByIp* sel;
   UInt i, n = 0;
   if (comp == NULL)
      return;
   if (n_counts > 0) {
      update_order();
      const ByIp* by_ip = order.elems;
      sel = VG_(malloc)("mt.counts.sel", (order.n + 1) * sizeof *sel);
      for (i = 0; i < order.n; i++) {
         if (by_ip[i].x >= n_counts || counts[by_ip[i].x].allocs == 0)
            continue;
         sel[n++] = by_ip[i];
      }
      for (i = 0; i < n; ) {
         Counts sum;
         UInt j, j2;
         HChar* label;
         VG_(memset)(&sum, 0, sizeof sum);
         for (j = i; j < n && sel[j].ip == sel[i].ip; j++) {
            const Counts* c = &counts[sel[j].x];
            sum.allocs      += c->allocs;
            sum.temporary   += c->temporary;
            sum.alloc_szB   += c->alloc_szB;
            sum.live_blocks += c->live_blocks;
            sum.live_szB    += c->live_szB;
         }
         /* One record, one line: control characters become spaces. */
         label = VG_(strdup)("mt.counts.label",
                             mt_tree_site_label(sel[i].ip));
         for (j2 = 0; label[j2]; j2++)
            if ((UChar)label[j2] < 0x20 || label[j2] == 0x7f) label[j2] = ' ';
         mt_companion_record(comp, MtRecSite,
                             "allocs=%llu temporary=%llu bytes=%llu "
                             "live_blocks=%llu live_bytes=%llu %s",
                             sum.allocs, sum.temporary, sum.alloc_szB,
                             sum.live_blocks, sum.live_szB, label);
         VG_(free)(label);
         i = j;
      }
      VG_(free)(sel);
   }
   /* "none": written while running; if it is what a reader finds, no
      final rewrite came (a SIGKILL), or the process still runs. */
   mt_companion_record(comp, MtRecEnd, "%s", end_names[end_how]);
}
