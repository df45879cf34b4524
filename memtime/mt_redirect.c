/* mt_redirect.c: which of the preload's interceptions in the main executable
   the core is told to make (see mt_redirect.h).

   Why. The core tries each redirection of the preload whose soname pattern
   matches an object against every symbol of that object, when the object
   is loaded. memtime intercepts allocators linked into the executable
   (jemalloc under three prefixes, tcmalloc, mimalloc: 124 functions under
   soname NONE); on an executable of 60,000 symbols that is 7 million name
   matches, 0.2 s of CPU at every start, for families most programs do not
   contain. So each family carries a soname synonym (VgSoSynmtrjem, ...,
   in mt_preload.c) instead of NONE: the core skips a synonym nobody set,
   and resolves the set ones from --soname-synonyms when the client's
   loader maps the preload, through system calls, after the core has read
   the executable's symbols. At the client's first system call this module
   reads those symbols once and adds "<family>=NONE" for each family the
   executable defines; the user's own --soname-synonyms stay first.

   A family is switched on by any text symbol of its prefix, a superset of
   the names the preload intercepts: a false match costs only the time the
   synonym saves, a missed one would make the profile blind. The symbols
   are the ones the core matches redirections against, so a name the core
   could redirect is a name seen here. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"

#include "mt_compat.h"
#include "mt_redirect.h"

/* One family of the executable: its synonym (as in mt_preload.c, without
   VgSoSyn) and what its symbols look like. */
typedef struct {
   const HChar*  synonym;
   const HChar*  prefix;    /* any symbol starting so; or NULL, and:   */
   const HChar* const* names; /* one of these exactly, NULL-ended     */
} Family;

/* jemalloc's extended API, unprefixed: only these exact names, since
   nothing else marks an unprefixed build. */
static const HChar* const je_x_names[] = {
   "mallocx", "rallocx", "xallocx", "sallocx", "dallocx", "sdallocx",
   "nallocx", NULL
};

static const Family families[] = {
   { "mtrjem", "_rjem_", NULL },        /* tikv-jemallocator            */
   { "mtjex",  NULL,     je_x_names },  /* jemalloc, unprefixed         */
   { "mtje",   "je_",    NULL },        /* jemalloc, je_ (redis-style)  */
   { "mttc",   "tc_",    NULL },        /* tcmalloc (gperftools)        */
   { "mtmi",   "mi_",    NULL },        /* mimalloc                     */
};
#define N_FAMILIES (sizeof families / sizeof families[0])

static Bool done;
static Bool found[N_FAMILIES];

/* Called for every symbol of the executable (a Rust node has hundreds of
   thousands): a first-character test rules out almost all of them. */
static Bool is_family_name(const Family* f, const HChar* name)
{
   const HChar* const* n;
   if (f->prefix) {
      const HChar* p = f->prefix;
      const HChar* q = name;
      while (*p && *p == *q) { p++; q++; }
      return *p == '\0';
   }
   for (n = f->names; *n; n++)
      if (name[0] == (*n)[0] && VG_(strcmp)(name, *n) == 0)
         return True;
   return False;
}

static void scan_symbol(const HChar* name)
{
   UInt i;
   for (i = 0; i < N_FAMILIES; i++)
      if (!found[i] && is_family_name(&families[i], name))
         found[i] = True;
}

/* Whether di is the tool's own executable, which the core also reads as
   soname NONE (an unstripped development build has 5,000 symbols). */
static Bool is_tool(const DebugInfo* di)
{
   Addr self = (Addr)&mt_redirect_before_client;
   Addr text = VG_(DebugInfo_get_text_avma)(di);
   return self >= text && self - text < VG_(DebugInfo_get_text_size)(di);
}

/* Every text symbol of the executable's debug info (soname NONE), with
   its aliases, as the core's redirection matching sees them. */
static void scan_executable(void)
{
   const DebugInfo* di;
   for (di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di)) {
      Int i, n;
      if (VG_(strcmp)(VG_(DebugInfo_get_soname)(di), "NONE") != 0 || is_tool(di))
         continue;
      n = VG_(DebugInfo_syms_howmany)(di);
      for (i = 0; i < n; i++) {
         SymAVMAs avmas;
         const HChar* pri;
         const HChar** sec;
         Bool is_text, is_ifunc, is_global;
         VG_(DebugInfo_syms_getidx)(di, i, &avmas, NULL, &pri, &sec,
                                    &is_text, &is_ifunc, &is_global);
         if (!is_text)
            continue;
         scan_symbol(pri);
         for (; sec && *sec; sec++)
            scan_symbol(*sec);
      }
   }
}

/* The user's synonyms, then "<family>=NONE" for each family found. The
   string lives as long as the run: the core reads it at each preload. */
static void set_synonyms(void)
{
   const HChar* user = VG_(clo_soname_synonyms);
   SizeT len = user ? VG_(strlen)(user) : 0;
   HChar* s;
   UInt i;
   Bool any = False;
   for (i = 0; i < N_FAMILIES; i++) {
      if (found[i]) {
         len += VG_(strlen)(families[i].synonym) + sizeof ",=NONE";
         any = True;
      }
   }
   if (!any)
      return;
   s = VG_(malloc)("mt.redirect.synonyms", len + 1);
   s[0] = '\0';
   if (user && user[0])
      VG_(strcat)(s, user);
   for (i = 0; i < N_FAMILIES; i++) {
      if (!found[i])
         continue;
      if (s[0])
         VG_(strcat)(s, ",");
      VG_(strcat)(s, families[i].synonym);
      VG_(strcat)(s, "=NONE");
   }
   VG_(clo_soname_synonyms) = s;
   if (VG_(clo_verbosity) > 1)
      VG_(umsg)("memtime: soname synonyms for the executable: %s\n", s);
}

void mt_redirect_before_client(void)
{
   if (done)
      return;
   done = True;
   scan_executable();
   set_synonyms();
}
