/* mt_frames.c: classification of an IP's inlined frames as allocator
   plumbing or the program's own code (see mt_frames.h for the rule).

   Names and source paths (with every directory) come from
   mt_compat_frame_text, the one reader of describe_IP's text.

   Cost: one describe_IP per inlined frame per distinct IP, then a hash
   lookup; the tree module asks once per distinct stack and the printer once
   per top-level node per detailed snapshot. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_xarray.h"

#include "mt_compat.h"
#include "mt_frames.h"
#include "mt_heap.h"

static XArray* alloc_fns;       /* HChar*: exact function names */
static XArray* alloc_fn_pats;   /* HChar*: glob patterns (* and ?) */
static XArray* alloc_path_pats; /* HChar*: patterns on source paths */

/* One classified IP. The first two fields are the core's VgHashNode. */
typedef struct _IpInfo {
   struct _IpInfo* next;
   UWord           ip;
   UInt            epoch;        /* DiEpoch.n the answer holds for */
   UInt            n_frames;
   UInt            n_plumbing;
   Bool            unnamed;      /* debug info names none of its frames */
} IpInfo;

static VgHashTable* ip_cache;

static XArray* new_name_list(const HChar* cc)
{
   return VG_(newXA)(VG_(malloc), cc, VG_(free), sizeof(HChar*));
}

static UInt generation;   /* bumped at every new pattern */

UInt mt_frames_generation(void)
{
   return generation;
}

/* A new pattern can change any answer. */
static void clear_cache(void)
{
   generation++;
   if (ip_cache != NULL)
      VG_(HT_destruct)(ip_cache, VG_(free));
   ip_cache = VG_(HT_construct)("memtime's classified IPs");
}

void mt_alloc_fn_add_exact(const HChar* name)
{
   VG_(addToXA)(alloc_fns, &name);
   clear_cache();
}

/* The patterns are kept for the whole run: copy them, the caller's string
   may be client memory. */
void mt_alloc_fns_add(const HChar* fn_pattern)
{
   const HChar* s = VG_(strdup)("mt.frames.afp", fn_pattern);
   VG_(addToXA)(alloc_fn_pats, &s);
   clear_cache();
}

void mt_alloc_paths_add(const HChar* path_pattern)
{
   const HChar* s = VG_(strdup)("mt.frames.app", path_pattern);
   VG_(addToXA)(alloc_path_pats, &s);
   clear_cache();
}

void mt_frames_init(void)
{
   alloc_fns       = new_name_list("mt.frames.af");
   alloc_fn_pats   = new_name_list("mt.frames.afp");
   alloc_path_pats = new_name_list("mt.frames.app");
   clear_cache();
}

/* VG_(string_match)'s language ('*' any run, '?' any one character, no
   escapes) without its limits: the core asserts on inputs of a million
   characters or more, and C++ names reach millions. Iterative: on a
   mismatch, the last '*' takes one more character. */
static Bool glob_match(const HChar* pat, const HChar* s)
{
   const HChar *star = NULL, *resume = NULL;
   while (*s != '\0') {
      if (*pat == '*') {
         star = pat++;
         resume = s;
      } else if (*pat != '\0' && (*pat == '?' || *pat == *s)) {
         pat++;
         s++;
      } else if (star != NULL) {
         pat = star + 1;
         s = ++resume;
      } else {
         return False;
      }
   }
   while (*pat == '*')
      pat++;
   return *pat == '\0';
}

static Bool matches_any_pattern(const XArray* pats, const HChar* s)
{
   Word i, n = VG_(sizeXA)(pats);
   for (i = 0; i < n; i++) {
      const HChar* pat = *(const HChar**)VG_(indexXA)(pats, i);
      if (glob_match(pat, s))
         return True;
   }
   return False;
}

static Bool name_is_alloc(const HChar* name)
{
   return VG_(strIsMemberXA)(alloc_fns, name)
          || (VG_(sizeXA)(alloc_fn_pats) > 0
              && matches_any_pattern(alloc_fn_pats, name));
}

/* The path, or its last component alone (the patterns written for a bare
   file name, such as "*mt_preload.c", match either way). */
static Bool path_is_alloc(const HChar* path)
{
   const HChar* slash;
   if (VG_(sizeXA)(alloc_path_pats) == 0)
      return False;
   if (matches_any_pattern(alloc_path_pats, path))
      return True;
   slash = VG_(strrchr)(path, '/');
   return slash != NULL && matches_any_pattern(alloc_path_pats, slash + 1);
}

/* A Rust source file of the program itself: not rustc's standard library
   (.../library/<crate>/src/), nor a crate rustc or a distribution vendors
   (/rust/deps/, .../vendor/). Such a frame ends rule 1 even below a named
   plumbing frame: a closure of the program inlined into
   <Vec<T> as SpecFromIter>::from_iter is the program's code, and what it
   allocates is charged to it. Only a frame with library code inlined into
   it stops the rule: the program's own GlobalAlloc impl, innermost and
   inlined into __rg_alloc, calls the allocator itself and stays plumbing.
   Limited to .rs files so that C and C++ keep the rule as it was. */
static Bool is_rust_user_path(const HChar* path)
{
   SizeT len = VG_(strlen)(path);
   if (len < 3 || VG_(strcmp)(path + len - 3, ".rs") != 0)
      return False;
   return !glob_match("*/library/*/src/*", path)
          && !glob_match("*/rust/deps/*", path)
          && !glob_match("*/vendor/*", path);
}

/* Inlining deeper than this is unheard of; frames past it count as the
   program's own. */
#define MAX_FRAMES 256

static void analyse(DiEpoch ep, Addr ip, UInt* n_frames, UInt* n_plumbing,
                    Bool* unnamed)
{
   Bool by_name[MAX_FRAMES], by_path[MAX_FRAMES], user[MAX_FRAMES];
   InlIPCursor* iipc = VG_(new_IIPC)(ep, ip);
   UInt n = 0, s = 0, i;

   *unnamed = True;
   do {
      if (n < MAX_FRAMES) {
         const HChar *name, *path;
         mt_compat_frame_text(ep, ip, iipc, &name, &path);
         by_name[n] = name != NULL && name_is_alloc(name);
         by_path[n] = path != NULL && path_is_alloc(path);
         user[n] = path != NULL && !by_name[n] && !by_path[n]
                   && is_rust_user_path(path);
         if (name != NULL)
            *unnamed = False;
         n++;
      }
   } while (VG_(next_IIPC)(iipc));
   VG_(delete_IIPC)(iipc);

   for (i = 0; i < n; i++) {     /* rule 1: down to the last named one */
      if (user[i] && i > 0 && !user[i - 1])
         break;                  /* the program's code calling plumbing */
      if (by_name[i])
         s = i + 1;
   }
   while (s < n && (by_name[s] || by_path[s]))   /* rule 2 */
      s++;
   *n_frames = n;
   *n_plumbing = s;
}

static IpInfo* lookup(Addr ip)
{
   const DiEpoch ep = VG_(current_DiEpoch)();
   IpInfo* info = VG_(HT_lookup)(ip_cache, ip);
   if (info == NULL) {
      info = VG_(malloc)("mt.frames.ip", sizeof(IpInfo));
      info->ip = ip;
      info->epoch = ep.n + 1;   /* stale: computed below */
      VG_(HT_add_node)(ip_cache, info);
   }
   if (info->epoch != ep.n) {
      analyse(ep, ip, &info->n_frames, &info->n_plumbing, &info->unnamed);
      info->epoch = ep.n;
   }
   return info;
}

UInt mt_frames_n_plumbing(Addr ip, UInt* n_frames)
{
   IpInfo* info = lookup(ip);
   *n_frames = info->n_frames;
   return info->n_plumbing;
}

Bool mt_frames_unnamed(Addr ip)
{
   return lookup(ip)->unnamed;
}
