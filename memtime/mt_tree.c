/* mt_tree.c: allocation stacks and their filtering (see mt_tree.h).

   Which frames are allocation functions: Massif 3.19 compares the function
   name of each frame, from the top, with its list (exact names); a frame
   that matches is dropped and the next one examined; the first frame that
   does not match ends the search. memtime does the same with the same
   built-in names, plus the aligned C++ variants and aligned_alloc, plus
   glob patterns on function names or source paths that custom-allocator
   support (mt_alloc_api) registers at run time. The filter runs once per
   distinct stack (the XTree calls it when a new stack is inserted), so its
   cost does not depend on the number of allocations. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_execontext.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_seqmatch.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_xarray.h"
#include "pub_tool_xtree.h"

#include "mt_heap.h"
#include "mt_options.h"
#include "mt_tree.h"

XTree* mt_heap_xt = NULL;

static XArray* alloc_fns;       /* HChar*: exact function names */
static XArray* alloc_fn_pats;   /* HChar*: VG_(string_match) patterns */
static XArray* alloc_path_pats; /* HChar*: patterns on source file paths */
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

/* The XTree stores one SizeT per stack: its live requested bytes. */
static void init_szB(void* value)                 { *(SizeT*)value = 0; }
static void add_szB(void* to, const void* value)  { *(SizeT*)to += *(const SizeT*)value; }
static void sub_szB(void* from, const void* value){ *(SizeT*)from -= *(const SizeT*)value; }

ULong mt_tree_value_szB(const void* value)
{
   return (ULong)*(const SizeT*)value;
}

static XArray* new_name_list(const HChar* cc)
{
   return VG_(newXA)(VG_(malloc), cc, VG_(free), sizeof(HChar*));
}

void mt_alloc_fn_add_exact(const HChar* name)
{
   VG_(addToXA)(alloc_fns, &name);
}

void mt_ignore_fn_add(const HChar* name)
{
   VG_(addToXA)(ignore_fns, &name);
}

/* The patterns are kept for the whole run: copy them, the caller's string
   may be client memory. */
void mt_alloc_fns_add(const HChar* fn_pattern)
{
   const HChar* s = VG_(strdup)("mt.tree.afp", fn_pattern);
   VG_(addToXA)(alloc_fn_pats, &s);
}

void mt_alloc_paths_add(const HChar* path_pattern)
{
   const HChar* s = VG_(strdup)("mt.tree.app", path_pattern);
   VG_(addToXA)(alloc_path_pats, &s);
}

static Bool matches_any_pattern(const XArray* pats, const HChar* s)
{
   Word i, n = VG_(sizeXA)(pats);
   for (i = 0; i < n; i++) {
      const HChar* pat = *(const HChar**)VG_(indexXA)(pats, i);
      if (VG_(string_match)(pat, s))
         return True;
   }
   return False;
}

/* Is the frame at ip an allocation function? *has_name tells whether debug
   info named it (needed by the --ignore-fn rule below). */
static Bool is_alloc_frame(DiEpoch ep, Addr ip, Bool* has_name)
{
   const HChar* fnname;
   *has_name = VG_(get_fnname)(ep, ip, &fnname);
   if (*has_name) {
      if (VG_(strIsMemberXA)(alloc_fns, fnname))
         return True;
      if (VG_(sizeXA)(alloc_fn_pats) > 0
          && matches_any_pattern(alloc_fn_pats, fnname))
         return True;
   }
   if (VG_(sizeXA)(alloc_path_pats) > 0) {
      const HChar *file, *dir;
      UInt line;
      if (VG_(get_filename_linenum)(ep, ip, &file, &dir, &line)) {
         HChar path[VG_(strlen)(dir) + VG_(strlen)(file) + 2];
         if (dir[0] != '\0')
            VG_(sprintf)(path, "%s/%s", dir, file);
         else
            VG_(strcpy)(path, file);
         if (matches_any_pattern(alloc_path_pats, path)
             || matches_any_pattern(alloc_path_pats, file))
            return True;
      }
   }
   return False;
}

/* The XTree's filter: keeps ips[*top .. *top + *n_ips_sel - 1].
     alloc-fn1 / alloc-fn2 / a / b / main / (below main) / c
   becomes  a / b / main,  or nothing at all when the first named frame
   after the allocation functions is an --ignore-fn. */
static void filter_IPs(Addr* ips, Int n_ips, UInt* top, UInt* n_ips_sel)
{
   const DiEpoch ep = VG_(current_DiEpoch)();
   Bool has_name = False;
   Int i;

   *top = 0;
   *n_ips_sel = n_ips;

   for (i = 0; i < n_ips; i++) {
      if (!is_alloc_frame(ep, ips[i], &has_name))
         break;
      (*top)++;
      (*n_ips_sel)--;
   }

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

/* Up to this many allocation-function frames above the --depth kept ones. */
#define MT_MAX_OVERESTIMATE 50
#define MT_MAX_IPS          (MT_MAX_DEPTH + MT_MAX_OVERESTIMATE)

Xecu mt_tree_add(ThreadId tid, SizeT req_szB, Bool exclude_first_entry)
{
   static Addr ips[MT_MAX_IPS];
   ExeContext* ec;
   UInt n_ips = VG_(get_StackTrace)(tid, ips, clo_depth + MT_MAX_OVERESTIMATE,
                                    NULL, NULL, 0);
   if (exclude_first_entry) {
      if (n_ips > 1)
         ec = VG_(make_ExeContext_from_StackTrace)(ips + 1, n_ips - 1);
      else
         ec = VG_(null_ExeContext)();
   } else {
      ec = VG_(make_ExeContext_from_StackTrace)(ips, n_ips);
   }
   return VG_(XT_add_to_ec)(mt_heap_xt, ec, &req_szB);
}

void mt_tree_sub(Xecu where, SizeT req_szB)
{
   if (req_szB == 0)
      return;
   VG_(XT_sub_from_xecu)(mt_heap_xt, where, &req_szB);
}

Bool mt_tree_is_ignored(Xecu where)
{
   return VG_(XT_n_ips_sel)(mt_heap_xt, where) == 0;
}

void mt_tree_init(void)
{
   UInt i;
   alloc_fns       = new_name_list("mt.tree.af");
   alloc_fn_pats   = new_name_list("mt.tree.afp");
   alloc_path_pats = new_name_list("mt.tree.app");
   ignore_fns      = new_name_list("mt.tree.if");
   for (i = 0; i < sizeof(builtin_alloc_fns) / sizeof(builtin_alloc_fns[0]); i++)
      mt_alloc_fn_add_exact(builtin_alloc_fns[i]);
   mt_heap_xt = VG_(XT_create)(VG_(malloc), "mt.tree.xt", VG_(free),
                               sizeof(SizeT), init_szB, add_szB, sub_szB,
                               filter_IPs);
}

void mt_tree_post_clo_init(void)
{
   /* Stacks are recorded up to depth + overestimate frames and stored as
      ExeContexts, which the core caps at --num-callers. */
   if (VG_(clo_backtrace_size) < clo_depth + MT_MAX_OVERESTIMATE)
      VG_(clo_backtrace_size) = clo_depth + MT_MAX_OVERESTIMATE;
}
