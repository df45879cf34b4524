/* mt_frames.c: classification of an IP's inlined frames as allocator
   plumbing or the program's own code (see mt_frames.h for the rule).

   Where names and paths come from. The tool API gives an inlined frame's
   function name and source location only through VG_(describe_IP) with an
   inlined-IP cursor ("0x<IP>: <name> (<file>:<line>)", "(in <object>)" or
   no location, "???" for no name), so that is what we parse. That text
   shows a file's directory only for --fullpath-after prefixes, and path
   patterns on directories (Rust's library/alloc/src) need it: while
   classifying, VG_(clo_fullpath_after) is pointed at a list holding the
   empty prefix, which makes describe_IP print every directory in full, and
   it is restored before we return. (Names with " (" inside, such as
   "std::function<void ()>", are handled by taking the LAST " (" that opens
   a well-formed location.)

   Cost: one describe_IP per inlined frame per distinct IP, then a hash
   lookup; the tree module asks once per distinct stack and the printer once
   per top-level node per detailed snapshot. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_seqmatch.h"
#include "pub_tool_xarray.h"

#include "mt_frames.h"
#include "mt_heap.h"

/* Exported by the core but missing from the tool headers: the
   --fullpath-after prefixes describe_IP consults. */
extern XArray* VG_(clo_fullpath_after);

static XArray* alloc_fns;       /* HChar*: exact function names */
static XArray* alloc_fn_pats;   /* HChar*: VG_(string_match) patterns */
static XArray* alloc_path_pats; /* HChar*: patterns on source paths */
static XArray* full_paths;      /* HChar*: the one prefix "" */

/* One classified IP. The first two fields are the core's VgHashNode. */
typedef struct _IpInfo {
   struct _IpInfo* next;
   UWord           ip;
   UInt            epoch;        /* DiEpoch.n the answer holds for */
   UInt            n_frames;
   UInt            n_plumbing;
} IpInfo;

static VgHashTable* ip_cache;

static XArray* new_name_list(const HChar* cc)
{
   return VG_(newXA)(VG_(malloc), cc, VG_(free), sizeof(HChar*));
}

/* A new pattern can change any answer. */
static void clear_cache(void)
{
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
   const HChar* empty = "";
   alloc_fns       = new_name_list("mt.frames.af");
   alloc_fn_pats   = new_name_list("mt.frames.afp");
   alloc_path_pats = new_name_list("mt.frames.app");
   full_paths      = new_name_list("mt.frames.fp");
   VG_(addToXA)(full_paths, &empty);
   clear_cache();
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

/* Is s "<something>:<digits>)" up to its end? Returns the length of the
   <something> part, or -1. */
static Int srcloc_path_len(const HChar* s)
{
   Int n = VG_(strlen)(s), i;
   if (n < 3 || s[n - 1] != ')')
      return -1;
   i = n - 2;
   if (!VG_(isdigit)(s[i]))
      return -1;
   while (i > 0 && VG_(isdigit)(s[i]))
      i--;
   return s[i] == ':' && i > 0 ? i : -1;
}

/* Classifies one describe_IP text: by its name, by its source path. */
static void classify(const HChar* desc, Bool* by_name, Bool* by_path)
{
   const HChar* rest = VG_(strstr)(desc, ": ");
   const HChar *open = NULL, *p;
   SizeT name_len;

   *by_name = *by_path = False;
   if (rest == NULL)
      return;
   rest += 2;

   /* The location is the last " (" that opens "(in obj)" or
      "(path:line)" and runs to the end. */
   for (p = VG_(strstr)(rest, " ("); p != NULL; p = VG_(strstr)(p + 1, " (")) {
      if (VG_(strncmp)(p + 2, "in ", 3) == 0 || srcloc_path_len(p + 2) > 0)
         open = p;
   }
   if (open != NULL && VG_(strncmp)(open + 2, "in ", 3) != 0) {
      Int len = srcloc_path_len(open + 2);
      HChar path[len + 1];
      VG_(memcpy)(path, open + 2, len);
      path[len] = '\0';
      *by_path = path_is_alloc(path);
   }

   name_len = open != NULL ? (SizeT)(open - rest) : VG_(strlen)(rest);
   {
      HChar name[name_len + 1];
      VG_(memcpy)(name, rest, name_len);
      name[name_len] = '\0';
      if (VG_(strcmp)(name, "???") != 0)
         *by_name = name_is_alloc(name);
   }
}

/* Inlining deeper than this is unheard of; frames past it count as the
   program's own. */
#define MAX_FRAMES 256

static void analyse(DiEpoch ep, Addr ip, UInt* n_frames, UInt* n_plumbing)
{
   Bool by_name[MAX_FRAMES], by_path[MAX_FRAMES];
   XArray* user_prefixes = VG_(clo_fullpath_after);
   InlIPCursor* iipc = VG_(new_IIPC)(ep, ip);
   UInt n = 0, s = 0, i;

   VG_(clo_fullpath_after) = full_paths;
   do {
      if (n < MAX_FRAMES) {
         classify(VG_(describe_IP)(ep, ip, iipc), &by_name[n], &by_path[n]);
         n++;
      }
   } while (VG_(next_IIPC)(iipc));
   VG_(clo_fullpath_after) = user_prefixes;
   VG_(delete_IIPC)(iipc);

   for (i = 0; i < n; i++)       /* rule 1: down to the last named one */
      if (by_name[i])
         s = i + 1;
   while (s < n && (by_name[s] || by_path[s]))   /* rule 2 */
      s++;
   *n_frames = n;
   *n_plumbing = s;
}

UInt mt_frames_n_plumbing(Addr ip, UInt* n_frames)
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
      analyse(ep, ip, &info->n_frames, &info->n_plumbing);
      info->epoch = ep.n;
   }
   *n_frames = info->n_frames;
   return info->n_plumbing;
}
