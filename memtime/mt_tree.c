/* mt_tree.c: allocation stacks, their filtering, their snapshots and
   their printing (see mt_tree.h).

   Which frames are allocation functions: Massif 3.19 compares the function
   name of each frame, from the top, with its list (exact names); a frame
   that matches is dropped and the next one examined; the first frame that
   does not match ends the search. memtime does the same, except that a
   frame with no name at all does not end the search (it is dropped when
   an allocation function follows it), with the same
   built-in names, plus the aligned C++ variants and aligned_alloc, plus
   glob patterns on function names or source paths that custom-allocator
   support (mt_alloc_api) registers at run time, and it does it per
   inlined frame (mt_frames.c): an IP whose frames are all plumbing is
   dropped whole, and the plumbing frames inlined at the top of the first
   IP kept are hidden when the tree is printed (mt_msprint.c). Massif
   cannot do the latter: its trees start at `alloc (alloc.rs:95)` in an
   optimised Rust program, and keep a C allocation wrapper inlined into its
   caller even when --alloc-fn names it.

   The stack table replaces the core's XTree, whose data the tool API
   cannot read back: each distinct stack (one ExeContext, found by its ECU)
   gets an Xecu, the index of its entry, with the IPs it keeps and its
   live bytes. The filter runs once per distinct stack, so its cost does
   not depend on the number of allocations. A snapshot copies the live
   bytes of every stack (the table itself only grows and is shared).

   Rewrites: memtime rewrites its profile about once a second, where
   Massif writes once at exit, so what a rewrite repeats is made once and
   kept: the stacks' printing order (a stack's IPs never change), each
   detailed snapshot's tree text (it never changes either) and each site's
   label; the text and labels until the debug info or the plumbing rules
   change. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_execontext.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_xarray.h"
#include "pub_tool_xtree.h"

#include "mt_frames.h"
#include "mt_msprint.h"
#include "mt_options.h"
#include "mt_order.h"
#include "mt_tree.h"
#include "mt_unwind.h"

static XArray* ignore_fns;      /* HChar*: exact function names */

/* Allocation functions may appear below the replacement function itself
   (realloc calls malloc, valloc calls memalign in the preload). Massif
   3.19's names, in its order, then the ones it lacks. */
static const HChar* const builtin_alloc_fns[] = {
   "malloc",
   "__builtin_new",
   "operator new(unsigned)",
   "operator new(unsigned long)",
   "__builtin_vec_new",
   "operator new[](unsigned)",
   "operator new[](unsigned long)",
   "calloc",
   "realloc",
   "memalign",
   "posix_memalign",
   "valloc",
   "operator new(unsigned, std::nothrow_t const&)",
   "operator new[](unsigned, std::nothrow_t const&)",
   "operator new(unsigned long, std::nothrow_t const&)",
   "operator new[](unsigned long, std::nothrow_t const&)",
   "aligned_alloc",
   "operator new(unsigned long, std::align_val_t)",
   "operator new[](unsigned long, std::align_val_t)",
   "operator new(unsigned long, std::align_val_t, std::nothrow_t const&)",
   "operator new[](unsigned long, std::align_val_t, std::nothrow_t const&)",
};

/* One distinct allocation stack. */
typedef struct {
   Addr* ips;       /* the frames kept, top first (NULL when n_ips == 0) */
   UInt  n_ips;     /* 0: filtered out entirely (--ignore-fn) */
} Stack;

/* ECU -> Xecu. The first two fields are the core's VgHashNode. */
typedef struct _EcuNode {
   struct _EcuNode* next;
   UWord            ecu;
   Xecu             xecu;
} EcuNode;

static XArray*      stacks;    /* Stack, indexed by Xecu */
static XArray*      live_szB;  /* SizeT, indexed by Xecu */
static VgHashTable* by_ecu;    /* for ECUs beyond by_ecu_index's reach */

/* ECU / 4 -> Xecu + 1 (0: not seen): the core numbers its ExeContexts
   4, 8, 12, ... as it makes them, so this array is dense and one load
   finds a stack at every stack-cache miss (rustc misses about 270,000
   times), where the hash table's chains cost a few cache misses each.
   ECUs past MT_ECU_INDEX_MAX (the core's numbering is not a promise) go
   to the hash table. */
#define MT_ECU_INDEX_MAX (1u << 24)
static UInt* by_ecu_index;
static UInt  by_ecu_index_n;

/* The kept stacks (n_ips > 0) in the printer's order (mt_ms_stack_cmp):
   a stack's IPs never change, so the order is kept across snapshots and
   rewrites, and the stacks made since are sorted and merged in (O(S + k
   log k) instead of sorting every tree at every rewrite). Covers stacks[0
   .. n_seen - 1]. */
static Int cmp_xecus(const void* va, const void* vb);
static MtOrder      order = MT_ORDER_INIT(Xecu, "mt.tree.order", cmp_xecus);
static UInt         n_seen;

struct MtTreeSnap {
   ULong  serial;              /* see mt_tree_snap_serial */
   UInt   n;                   /* stacks[0 .. n-1] existed then */
   SizeT* szB;                 /* their live bytes */
   /* The printed tree, made at the first print and written as is at every
      rewrite after it, while what it was made from holds: the debug info
      (its epoch), the plumbing rules (mt_frames_generation) and the
      header's values the threshold depends on. NULL: not made yet. */
   HChar* text;
   SizeT  text_n;
   ULong  heap_szB;
   UInt   text_epoch, text_rules;
   ULong  text_extra_B, text_stacks_B;
   double text_threshold;
   const HChar* text_top_desc;
};

/* Keeps ips[*top .. *top + *n_ips_sel - 1], as the XTree filter of the
   core's API did:
     alloc-fn1 / alloc-fn2 / a / b / main / (below main) / c
   becomes  a / b / main,  or nothing at all when the first named frame
   after the allocation functions is an --ignore-fn. An IP counts as an
   allocation function when all its inlined frames are plumbing. */
static void filter_IPs(Addr* ips, Int n_ips, UInt* top, UInt* n_ips_sel)
{
   const DiEpoch ep = VG_(current_DiEpoch)();
   Int i;

   *top = 0;
   *n_ips_sel = n_ips;

   /* Unnamed frames between allocation functions go with them: in a
      program stripped to its exported symbols, malloc's caller is often a
      static function with no name (PostgreSQL's AllocSetAlloc under the
      exported palloc), and stopping there would hide every caller. */
   for (i = 0; i < n_ips; i++) {
      UInt n_frames;
      if (mt_frames_n_plumbing(ips[i], &n_frames) == n_frames)
         *top = i + 1;
      else if (!mt_frames_unnamed(ips[i]))
         break;
   }
   *n_ips_sel = n_ips - *top;

   if (*n_ips_sel > 0 && VG_(sizeXA)(ignore_fns) > 0) {
      const HChar* fnname = NULL;
      Bool found = False;
      /* The first frame, from the top kept one, that debug info names. */
      for (i = *top; i < n_ips && !found; i++)
         found = VG_(get_fnname)(ep, ips[i], &fnname);
      if (found && VG_(strIsMemberXA)(ignore_fns, fnname)) {
         *top = n_ips;
         *n_ips_sel = 0;
      }
   }

   if (!VG_(clo_show_below_main) && *n_ips_sel > 0) {
      Int mbm = VG_(XT_offset_main_or_below_main)(ep, ips, n_ips);
      if (mbm < (Int)*top)
         *n_ips_sel = 1;   /* main itself was an alloc fn: keep one frame */
      else
         *n_ips_sel -= n_ips - mbm - 1;
   }

   if (*n_ips_sel > (UInt)clo_depth)
      *n_ips_sel = clo_depth;
}

/* The Xecu of ec, made (and filtered) the first time ec is seen. */
static Xecu find_or_add(ExeContext* ec, Addr* ips, UInt n_ips)
{
   UWord ecu = VG_(get_ECU_from_ExeContext)(ec);
   UWord slot = ecu / 4;
   EcuNode* node = NULL;
   Stack st;
   SizeT zero = 0;
   UInt top, n_sel;
   Xecu xecu;

   if (slot < MT_ECU_INDEX_MAX) {
      if (slot < by_ecu_index_n && by_ecu_index[slot] != 0)
         return by_ecu_index[slot] - 1;
   } else {
      node = VG_(HT_lookup)(by_ecu, ecu);
      if (node != NULL)
         return node->xecu;
   }

   filter_IPs(ips, n_ips, &top, &n_sel);
   st.n_ips = n_sel;
   st.ips = NULL;
   if (n_sel > 0) {
      st.ips = VG_(malloc)("mt.tree.ips", n_sel * sizeof(Addr));
      VG_(memcpy)(st.ips, ips + top, n_sel * sizeof(Addr));
   }
   xecu = (Xecu)VG_(addToXA)(stacks, &st);
   VG_(addToXA)(live_szB, &zero);
   if (slot < MT_ECU_INDEX_MAX) {
      if (slot >= by_ecu_index_n) {
         UInt n = by_ecu_index_n == 0 ? 4096 : by_ecu_index_n;
         while (n <= slot)
            n *= 2;
         by_ecu_index = VG_(realloc)("mt.tree.ecu_index", by_ecu_index,
                                     n * sizeof(UInt));
         VG_(memset)(by_ecu_index + by_ecu_index_n, 0,
                     (n - by_ecu_index_n) * sizeof(UInt));
         by_ecu_index_n = n;
      }
      by_ecu_index[slot] = xecu + 1;
   } else {
      node = VG_(malloc)("mt.tree.ecu", sizeof(EcuNode));
      node->ecu  = ecu;
      node->xecu = xecu;
      VG_(HT_add_node)(by_ecu, node);
   }
   return xecu;
}

/* Up to this many allocation-function frames above the --depth kept ones. */
#define MT_MAX_OVERESTIMATE 50

Xecu mt_tree_add(ThreadId tid, SizeT req_szB, Bool exclude_first_entry)
{
   Xecu cached, xecu;
   Bool hit = mt_unwind_cached(tid, exclude_first_entry, &cached);
   if (hit && clo_stack_cache != MtCacheVerify) {
      xecu = cached;
   } else {
      Addr* ips;
      UInt n_ips = mt_unwind_full(tid, exclude_first_entry,
                                  clo_depth + MT_MAX_OVERESTIMATE, &ips);
      ExeContext* ec = VG_(make_ExeContext_from_StackTrace)(ips, n_ips);
      xecu = find_or_add(ec, ips, n_ips);
      if (hit)
         mt_unwind_check(xecu == cached);
      else
         mt_unwind_remember(xecu);
   }
   *(SizeT*)VG_(indexXA)(live_szB, xecu) += req_szB;
   return xecu;
}

void mt_tree_sub(Xecu where, SizeT req_szB)
{
   SizeT* szB = VG_(indexXA)(live_szB, where);
   tl_assert(*szB >= req_szB);
   *szB -= req_szB;
}

Bool mt_tree_is_ignored(Xecu where)
{
   return ((const Stack*)VG_(indexXA)(stacks, where))->n_ips == 0;
}

MtTreeSnap* mt_tree_snapshot(void)
{
   static ULong n_taken = 0;
   MtTreeSnap* snap = VG_(malloc)("mt.tree.snap", sizeof(MtTreeSnap));
   snap->serial = n_taken++;
   snap->n = VG_(sizeXA)(live_szB);
   snap->szB = NULL;
   snap->text = NULL;
   snap->text_n = 0;
   if (snap->n > 0) {
      snap->szB = VG_(malloc)("mt.tree.snap.szB", snap->n * sizeof(SizeT));
      VG_(memcpy)(snap->szB, VG_(indexXA)(live_szB, 0),
                  snap->n * sizeof(SizeT));
   }
   return snap;
}

void mt_tree_snap_delete(MtTreeSnap* snap)
{
   if (snap == NULL)
      return;
   if (snap->szB != NULL)
      VG_(free)(snap->szB);
   if (snap->text != NULL)
      VG_(free)(snap->text);
   VG_(free)(snap);
}

/* The printer's n_hidden: the plumbing frames inlined at the top of a
   top-level IP. The filter kept the IP because not all its frames are
   plumbing; the clamp only guards against debug info changing since. */
static UInt n_hidden_frames(Addr ip)
{
   UInt n_frames, n = mt_frames_n_plumbing(ip, &n_frames);
   return n < n_frames ? n : n_frames - 1;
}

Bool mt_tree_site_ip(Xecu where, Addr* ip)
{
   const Stack* st = VG_(indexXA)(stacks, where);
   if (st->n_ips == 0)
      return False;
   *ip = st->ips[0];
   return True;
}

/* Site labels, made once per site: the companion's site: records name
   every site at every rewrite (4,000 sites and a describe_IP each, about
   once a second, on rustc). Open addressing on the IP; every label is
   dropped when the debug info or the plumbing rules change, as the trees'
   kept text is. */
typedef struct { Addr ip; HChar* label; } SiteLabel;
static SiteLabel* site_labels;          /* NULL label: a free slot */
static UInt       n_site_labels, site_labels_cap;
static UInt       site_labels_epoch, site_labels_rules;

static UInt site_slot(Addr ip, UInt cap)
{
   UWord h = ip * 0x9E3779B97F4A7C15ULL;
   return (UInt)(h >> 40) & (cap - 1);
}

static void site_labels_reset(UInt cap)
{
   UInt i;
   for (i = 0; i < site_labels_cap; i++)
      if (site_labels[i].label != NULL)
         VG_(free)(site_labels[i].label);
   if (site_labels != NULL)
      VG_(free)(site_labels);
   site_labels_cap = cap;
   n_site_labels = 0;
   site_labels = VG_(calloc)("mt.tree.site_labels", cap, sizeof(SiteLabel));
   site_labels_epoch = VG_(current_DiEpoch)().n;
   site_labels_rules = mt_frames_generation();
}

static void site_labels_grow(void)
{
   SiteLabel* old = site_labels;
   UInt i, old_cap = site_labels_cap;
   site_labels_cap *= 2;
   site_labels = VG_(calloc)("mt.tree.site_labels", site_labels_cap,
                             sizeof(SiteLabel));
   for (i = 0; i < old_cap; i++) {
      UInt s;
      if (old[i].label == NULL)
         continue;
      s = site_slot(old[i].ip, site_labels_cap);
      while (site_labels[s].label != NULL)
         s = (s + 1) & (site_labels_cap - 1);
      site_labels[s] = old[i];
   }
   VG_(free)(old);
}

const HChar* mt_tree_site_label(Addr ip)
{
   const DiEpoch ep = VG_(current_DiEpoch)();
   UInt i, hide, s;
   InlIPCursor* iipc;
   const HChar* desc;
   if (site_labels == NULL || site_labels_epoch != ep.n
       || site_labels_rules != mt_frames_generation())
      site_labels_reset(site_labels == NULL ? 1024 : site_labels_cap);
   s = site_slot(ip, site_labels_cap);
   while (site_labels[s].label != NULL) {
      if (site_labels[s].ip == ip)
         return site_labels[s].label;
      s = (s + 1) & (site_labels_cap - 1);
   }
   hide = n_hidden_frames(ip);
   iipc = VG_(new_IIPC)(ep, ip);
   for (i = 0; i < hide; i++)
      VG_(next_IIPC)(iipc);
   desc = VG_(describe_IP)(ep, ip, iipc);
   VG_(delete_IIPC)(iipc);
   site_labels[s].ip = ip;
   site_labels[s].label = VG_(strdup)("mt.tree.site_label", desc);
   desc = site_labels[s].label;   /* the slot moves if the table grows */
   if (2 * ++n_site_labels > site_labels_cap)
      site_labels_grow();
   return desc;
}

ULong mt_tree_snap_serial(const MtTreeSnap* snap)
{
   return snap->serial;
}

UInt mt_tree_snap_n_stacks(const MtTreeSnap* snap)
{
   return snap->n;
}

const Addr* mt_tree_snap_stack(const MtTreeSnap* snap, UInt i,
                               UInt* n_ips, SizeT* szB)
{
   const Stack* st;
   tl_assert(i < snap->n);
   st = VG_(indexXA)(stacks, i);
   *n_ips = st->n_ips;
   *szB = snap->szB[i];
   return st->ips;
}

UInt mt_tree_site_hidden(Addr ip)
{
   return n_hidden_frames(ip);
}

UInt mt_tree_n_stacks(void)
{
   return VG_(sizeXA)(stacks);
}

UInt mt_tree_rules_generation(void)
{
   return mt_frames_generation();
}

/* The same walk over the inlined frames as mt_msprint.c's print_group. */
void mt_tree_ip_labels(Addr ip, Bool site,
                       void (*fn)(const HChar* label, void* arg), void* arg)
{
   const DiEpoch ep = VG_(current_DiEpoch)();
   UInt i, hide = site ? n_hidden_frames(ip) : 0;
   InlIPCursor* iipc = VG_(new_IIPC)(ep, ip);
   Bool more = True;
   for (i = 0; i < hide; i++)
      VG_(next_IIPC)(iipc);
   while (more) {
      fn(VG_(describe_IP)(ep, ip, iipc), arg);
      more = VG_(next_IIPC)(iipc);
   }
   VG_(delete_IIPC)(iipc);
}

static Int cmp_xecus(const void* va, const void* vb)
{
   const Stack* a = VG_(indexXA)(stacks, *(const Xecu*)va);
   const Stack* b = VG_(indexXA)(stacks, *(const Xecu*)vb);
   return mt_ms_stack_cmp(a->ips, a->n_ips, b->ips, b->n_ips);
}

/* Brings the order up to date with the stack table. */
static void update_order(void)
{
   UInt n_all = VG_(sizeXA)(stacks), n_new = 0, i;
   Xecu *fresh;
   if (n_seen == n_all)
      return;
   fresh = VG_(malloc)("mt.tree.order.new", (n_all - n_seen) * sizeof(Xecu));
   for (i = n_seen; i < n_all; i++) {
      if (((const Stack*)VG_(indexXA)(stacks, i))->n_ips > 0)
         fresh[n_new++] = i;
   }
   n_seen = n_all;
   mt_order_add(&order, fresh, n_new);
   VG_(free)(fresh);
}

/* Does snap's kept text still read as printing it now would? */
static Bool text_holds(const MtTreeSnap* snap, const Massif_Header* header)
{
   return snap->text_n > 0
          && snap->text_epoch == VG_(current_DiEpoch)().n
          && snap->text_rules == mt_frames_generation()
          && snap->text_extra_B == header->extra_B
          && snap->text_stacks_B == header->stacks_B
          && snap->text_threshold == header->sig_threshold
          && snap->text_top_desc == header->top_node_desc;
}

/* Makes snap's tree text (and its heap total). */
static void make_text(MtTreeSnap* snap, const Massif_Header* header)
{
   MtMsStack* ms = NULL;
   MtFile* mem;
   UInt i, n = 0;
   if (snap->text != NULL)
      VG_(free)(snap->text);
   if (snap->n > 0) {
      update_order();
      ms = VG_(malloc)("mt.tree.print", snap->n * sizeof(MtMsStack));
      const Xecu* by_print = order.elems;
      for (i = 0; i < order.n; i++) {
         Xecu x = by_print[i];
         const Stack* st;
         if (x >= snap->n)
            continue;   /* made after this snapshot */
         st = VG_(indexXA)(stacks, x);
         ms[n].ips   = st->ips;
         ms[n].n_ips = st->n_ips;
         ms[n].szB   = snap->szB[x];
         n++;
      }
   }
   snap->heap_szB = mt_ms_heap_szB(ms, n);
   mem = mt_file_open_memory();
   mt_ms_print_tree(mem, header, snap->heap_szB, ms, n, n_hidden_frames);
   snap->text = mt_file_memory_take(mem, &snap->text_n);
   snap->text_epoch = VG_(current_DiEpoch)().n;
   snap->text_rules = mt_frames_generation();
   snap->text_extra_B = header->extra_B;
   snap->text_stacks_B = header->stacks_B;
   snap->text_threshold = header->sig_threshold;
   snap->text_top_desc = header->top_node_desc;
   if (ms != NULL)
      VG_(free)(ms);
}

void mt_tree_print(MtFile* fp, MtTreeSnap* snap, const Massif_Header* header)
{
   tl_assert(header->detailed == (snap != NULL));
   if (snap == NULL) {
      mt_ms_print_header(fp, header, header->sz_B);
      return;
   }
   if (!text_holds(snap, header))
      make_text(snap, header);
   mt_ms_print_header(fp, header, snap->heap_szB);
   mt_file_write(fp, snap->text, snap->text_n);
}

void mt_tree_init(void)
{
   UInt i;
   mt_frames_init();
   ignore_fns = VG_(newXA)(VG_(malloc), "mt.tree.if", VG_(free),
                           sizeof(HChar*));
   stacks     = VG_(newXA)(VG_(malloc), "mt.tree.stacks", VG_(free),
                           sizeof(Stack));
   live_szB   = VG_(newXA)(VG_(malloc), "mt.tree.szB", VG_(free),
                           sizeof(SizeT));
   by_ecu     = VG_(HT_construct)("memtime's stacks");
   for (i = 0; i < sizeof(builtin_alloc_fns) / sizeof(builtin_alloc_fns[0]); i++)
      mt_alloc_fn_add_exact(builtin_alloc_fns[i]);
}

void mt_tree_post_clo_init(void)
{
   Word i;
   for (i = 0; i < VG_(sizeXA)(clo_alloc_fns); i++)
      mt_alloc_fn_add_exact(*(const HChar**)VG_(indexXA)(clo_alloc_fns, i));
   for (i = 0; i < VG_(sizeXA)(clo_ignore_fns); i++)
      VG_(addToXA)(ignore_fns, VG_(indexXA)(clo_ignore_fns, i));
   /* Stacks are recorded up to depth + overestimate frames and stored as
      ExeContexts, which the core caps at --num-callers. */
   if (VG_(clo_backtrace_size) < clo_depth + MT_MAX_OVERESTIMATE)
      VG_(clo_backtrace_size) = clo_depth + MT_MAX_OVERESTIMATE;
}
