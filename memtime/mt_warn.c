/* mt_warn.c: the warnings that tell a user the profile is probably blind
   or nameless (see mt_warn.h), each judged on what the program really is.

   The executable. Read from the file Valgrind mapped as the client's
   executable, not the name as typed, which is relative to the current
   directory or was looked up on PATH by the launcher. Static:
   nothing can be preloaded, no heap block will be seen. No .symtab: the
   static functions have no names (they print as ???) and an allocator
   linked into the executable cannot be intercepted; the exported names in
   .dynsym remain, and the advice depends on who built it: a Rust program
   (rustc signs .comment) is rebuilt with Cargo's strip/debug settings, any
   other gets its distribution's debug symbols or --alloc-fn.

   The invisible allocator. A program whose allocator nobody intercepts
   still maps its heap: lots of anonymous memory while the heap model saw
   almost nothing. Counted is only memory the program could use for a
   heap: the client's anonymous mappings that are readable or writable
   (not PROT_NONE reservations: ld.so, thread stacks' guards and runtimes
   such as rustc's reserve hundreds of MiB that way) and private (a shared
   anonymous mapping, PostgreSQL's shared_buffers, is shared memory, not a
   heap; the core records it as anonymous client memory like any other, so
   /proc/self/maps' 's' flag tells). And it is judged only when the heap
   had its chance to grow: at exit, or when the gap is still there after a
   flush interval (a rewrite) since it was first seen; a start-up that maps
   first and allocates after is not warned about.

   Cost: a counter per mmap; the segment walk and /proc/self/maps read only
   once the mmapped total passes the threshold, at most once per second. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include <elf.h>

#include "mt_options.h"
#include "mt_snapshot.h"
#include "mt_time.h"
#include "mt_warn.h"

/* Usable anonymous memory before we suspect an uninstrumented allocator,
   and the share of it the heap must have reached to be believed. Thread
   stacks (8 MiB each) and a few arenas stay far below; a heap of hundreds
   of MiB allocated by a missed allocator does not. */
#define BLIND_MIN_ANON_SZB  (256ULL << 20)
#define BLIND_HEAP_RATIO    8
/* The gap must last this long (at least a flush interval) to be warned
   about before exit; and it is looked at no more often. */
#define BLIND_JUDGE_MS      1000

/*------------------------------------------------------------*/
/*--- The executable                                        ---*/
/*------------------------------------------------------------*/

typedef struct {
   Bool  has_symtab;     /* .symtab: every function has its name */
   Bool  is_dynamic;     /* PT_INTERP: the preload can be loaded */
   Bool  is_rust;        /* .comment names rustc */
   UInt  n_exported;     /* defined functions in .dynsym */
} ExeFacts;

static Bool read_at(Int fd, Off64T off, void* buf, SizeT n)
{
   return VG_(lseek)(fd, off, VKI_SEEK_SET) >= 0
          && VG_(read)(fd, buf, n) == (Int)n;
}

/* Sections are read in chunks of this many bytes, never whole: a Rust
   node's .rodata holds tens of MB, which would count in the peak resident
   memory of every run (and were read for nothing when a .symtab is there). */
#define SECTION_CHUNK (64 * 1024)
static ULong chunk[SECTION_CHUNK / sizeof(ULong)];   /* bss: touched only then */

/* Whether section sh contains the string s (shorter than SECTION_CHUNK),
   read chunk by chunk; consecutive chunks overlap by strlen(s) - 1 bytes
   so that no occurrence is cut. */
static Bool section_contains(Int fd, const Elf64_Shdr* sh, const HChar* s)
{
   HChar* buf = (HChar*)chunk;
   SizeT len = VG_(strlen)(s), off = 0;
   while (off + len <= sh->sh_size) {
      SizeT n = sh->sh_size - off < SECTION_CHUNK ? sh->sh_size - off : SECTION_CHUNK;
      SizeT i;
      if (!read_at(fd, sh->sh_offset + off, buf, n))
         return False;
      for (i = 0; i + len <= n; i++)
         if (buf[i] == s[0] && VG_(memcmp)(buf + i, s, len) == 0)
            return True;
      if (off + n >= sh->sh_size)
         break;
      off += n - (len - 1);
   }
   return False;
}

/* Defined functions among the symbols of section sh (.dynsym), read in
   chunks. */
static UInt count_functions(Int fd, const Elf64_Shdr* sh)
{
   Elf64_Sym* syms = (Elf64_Sym*)chunk;
   SizeT per_chunk = SECTION_CHUNK / sizeof(Elf64_Sym);
   SizeT total = sh->sh_size / sizeof(Elf64_Sym), done = 0, k;
   UInt n_funcs = 0;
   while (done < total) {
      SizeT n = total - done < per_chunk ? total - done : per_chunk;
      if (!read_at(fd, sh->sh_offset + done * sizeof(Elf64_Sym), syms,
                   n * sizeof(Elf64_Sym)))
         break;
      for (k = 0; k < n; k++)
         if (syms[k].st_shndx != SHN_UNDEF && ELF64_ST_TYPE(syms[k].st_info) == STT_FUNC)
            n_funcs++;
      done += n;
   }
   return n_funcs;
}

/* The name of section sh: a few bytes of the section-name table at most. */
static Bool section_named(Int fd, const Elf64_Shdr* names_sh, const Elf64_Shdr* sh,
                          const HChar* name)
{
   HChar got[16];
   SizeT len = VG_(strlen)(name) + 1;   /* with its NUL */
   return len <= sizeof got && sh->sh_name + len <= names_sh->sh_size
          && read_at(fd, names_sh->sh_offset + sh->sh_name, got, len)
          && VG_(memcmp)(got, name, len) == 0;
}

/* What the warnings need to know of the executable. The section headers
   are read first; the contents only of a stripped executable (no .symtab),
   whose warning names its exported functions and depends on who built it. */
static Bool exe_facts(const HChar* path, ExeFacts* f)
{
   Elf64_Ehdr eh;
   Elf64_Shdr sh, names_sh, dynsym_sh, comment_sh, rodata_sh;
   Elf64_Phdr ph;
   SysRes sr;
   Bool have_names = False, have_dynsym = False, have_comment = False,
        have_rodata = False;
   Int fd, i;
   Bool ok = False;

   VG_(memset)(f, 0, sizeof *f);
   sr = VG_(open)(path, VKI_O_RDONLY, 0);
   if (sr_isError(sr)) return False;
   fd = sr_Res(sr);
   if (!read_at(fd, 0, &eh, sizeof eh)
       || VG_(memcmp)(eh.e_ident, ELFMAG, SELFMAG) != 0
       || eh.e_ident[EI_CLASS] != ELFCLASS64) goto out;
   for (i = 0; i < eh.e_phnum; i++) {
      if (!read_at(fd, eh.e_phoff + (Off64T)i * eh.e_phentsize, &ph, sizeof ph))
         goto out;
      if (ph.p_type == PT_INTERP) f->is_dynamic = True;
   }
   if (eh.e_shstrndx != SHN_UNDEF && eh.e_shstrndx < eh.e_shnum
       && read_at(fd, eh.e_shoff + (Off64T)eh.e_shstrndx * eh.e_shentsize,
                  &names_sh, sizeof names_sh))
      have_names = True;
   for (i = 0; i < eh.e_shnum; i++) {
      if (!read_at(fd, eh.e_shoff + (Off64T)i * eh.e_shentsize, &sh, sizeof sh))
         goto out;
      if (sh.sh_type == SHT_SYMTAB) {
         f->has_symtab = True;
      } else if (sh.sh_type == SHT_DYNSYM && sh.sh_entsize == sizeof(Elf64_Sym)) {
         dynsym_sh = sh;
         have_dynsym = True;
      } else if (have_names && section_named(fd, &names_sh, &sh, ".comment")) {
         comment_sh = sh;
         have_comment = True;
      } else if (have_names && section_named(fd, &names_sh, &sh, ".rodata")) {
         rodata_sh = sh;
         have_rodata = True;
      }
   }
   if (!f->has_symtab) {
      if (have_dynsym)
         f->n_exported = count_functions(fd, &dynsym_sh);
      /* rustc signs .comment; older ones (Debian bookworm's 1.63) leave no
         mark there, but std's panic locations in .rodata name its sources. */
      f->is_rust = (have_comment && section_contains(fd, &comment_sh, "rustc version"))
                   || (have_rodata && section_contains(fd, &rodata_sh, "library/std/src/"));
   }
   ok = True;
 out:
   VG_(close)(fd);
   return ok;
}

/* The file the core mapped as the client's executable: its lowest file
   mapping (the core maps the executable low, a PIE at 0x108000, and ld.so
   and the libraries far above). VG_(args_the_exename) is the name as
   typed, relative to the cwd or looked up on PATH by the launcher, and
   VG_(client_fname) gives only its last component. */
/* The starts of the segments of a kind, in address order, in a
   VG_(malloc)ed array (*n of them). A short buffer gets minus the number
   needed (and the core asserts a buffer of at least one). */
static Addr* segment_starts(UInt kind, Int* n)
{
   Int cap = 256;
   Addr* starts = VG_(malloc)("mt.warn.starts", cap * sizeof(Addr));
   while ((*n = VG_(am_get_segment_starts)(kind, starts, cap)) < 0) {
      cap = -*n;
      starts = VG_(realloc)("mt.warn.starts", starts, cap * sizeof(Addr));
   }
   return starts;
}

static const HChar* loaded_executable(void)
{
   Int n;
   Addr* starts = segment_starts(SkFileC, &n);
   const HChar* name = n > 0 ? VG_(am_get_filename)(VG_(am_find_nsegment)(starts[0]))
                             : NULL;
   VG_(free)(starts);
   return name;
}

static void check_executable(void)
{
   ExeFacts f;
   const HChar* exe = loaded_executable();

   if (exe == NULL || !exe_facts(exe, &f))
      return;
   if (!f.is_dynamic)
      VG_(umsg)("memtime: warning: %s is statically linked: Valgrind cannot "
                "load memtime's allocator interceptions into it, so no heap "
                "block will be seen; link it dynamically\n", exe);
   else if (!f.has_symtab && f.is_rust)
      VG_(umsg)("memtime: warning: %s has no symbol table (stripped): only "
                "its %u exported functions keep their names, its own "
                "functions show as ??? and a #[global_allocator] such as "
                "jemalloc cannot be intercepted; build it with symbols "
                "(Cargo.toml, [profile.release]: strip = false, and "
                "debug = 1 for file:line)\n", exe, f.n_exported);
   else if (!f.has_symtab)
      VG_(umsg)("memtime: warning: %s has no full symbol table (.symtab "
                "stripped; only its %u exported functions keep their "
                "names): its static functions show as ??? and an allocator "
                "linked into it cannot be intercepted; install its debug "
                "symbols (Debian: the package's -dbgsym, found in "
                "/usr/lib/debug by build ID; elsewhere "
                "--extra-debuginfo-path=DIR), or name its allocation "
                "wrappers with --alloc-fn so their callers are the sites\n",
                exe, f.n_exported);
}

/*------------------------------------------------------------*/
/*--- The invisible allocator                               ---*/
/*------------------------------------------------------------*/

static ULong anon_mmap_szB;   /* anonymous client memory mmapped so far */
static SizeT heap_max_szB;    /* the largest heap seen at a look */
static ULong gap_since_ms;    /* the gap was first seen then; 0: no gap */
static ULong last_judge_ms;
static Bool  warned;

/* Bytes of /proc/self/maps' shared ('s') mappings that lie in the
   client's anonymous segments. */
static ULong shared_anon_szB(void)
{
   SysRes sr = VG_(open)("/proc/self/maps", VKI_O_RDONLY, 0);
   SizeT cap = 64 << 10, len = 0;
   HChar* buf;
   HChar* p;
   ULong total = 0;
   Int fd, n;

   if (sr_isError(sr)) return 0;
   fd = sr_Res(sr);
   buf = VG_(malloc)("mt.warn.maps", cap);
   while ((n = VG_(read)(fd, buf + len, cap - len - 1)) > 0) {
      len += n;
      if (len + 1 == cap) {
         cap *= 2;
         buf = VG_(realloc)("mt.warn.maps", buf, cap);
      }
   }
   VG_(close)(fd);
   buf[len] = '\0';
   for (p = buf; *p != '\0'; ) {
      HChar* end_p;
      Addr start = VG_(strtoull16)(p, &end_p), end;
      NSegment const* seg;
      end = *end_p == '-' ? VG_(strtoull16)(end_p + 1, &end_p) : 0;
      /* perms "rw-s" follow one blank */
      if (end > start && end_p[0] == ' ' && VG_(strlen)(end_p) > 4
          && end_p[4] == 's'
          && (seg = VG_(am_find_nsegment)(start)) != NULL
          && seg->kind == SkAnonC)
         total += end - start;
      p = VG_(strchr)(p, '\n');
      if (p == NULL) break;
      p++;
   }
   VG_(free)(buf);
   return total;
}

/* The client's anonymous memory it could use: readable or writable,
   private. */
static ULong usable_anon_szB(void)
{
   Int n, i;
   Addr* starts = segment_starts(SkAnonC, &n);
   ULong total = 0, shared;
   for (i = 0; i < n; i++) {
      NSegment const* seg = VG_(am_find_nsegment)(starts[i]);
      if (seg != NULL && seg->kind == SkAnonC && (seg->hasR || seg->hasW))
         total += seg->end - seg->start + 1;
   }
   VG_(free)(starts);
   shared = total >= BLIND_MIN_ANON_SZB ? shared_anon_szB() : 0;
   return total > shared ? total - shared : 0;
}

static void judge(Bool at_exit)
{
   ULong usable, now;

   if (mt_snapshot_heap_szB() > heap_max_szB)
      heap_max_szB = mt_snapshot_heap_szB();
   if (warned || clo_pages_as_heap || anon_mmap_szB < BLIND_MIN_ANON_SZB
       || heap_max_szB >= anon_mmap_szB / BLIND_HEAP_RATIO)
      return;   /* cheap: no suspicion */
   now = mt_time_wall_ms();
   if (!at_exit && last_judge_ms != 0 && now - last_judge_ms < BLIND_JUDGE_MS)
      return;
   last_judge_ms = now;
   usable = usable_anon_szB();
   if (usable < BLIND_MIN_ANON_SZB || heap_max_szB >= usable / BLIND_HEAP_RATIO) {
      gap_since_ms = 0;
      return;
   }
   if (gap_since_ms == 0) {
      gap_since_ms = now == 0 ? 1 : now;
      if (!at_exit)
         return;
   }
   if (!at_exit && now - gap_since_ms < BLIND_JUDGE_MS
                   + (ULong)clo_flush_interval_ms)
      return;
   warned = True;
   VG_(umsg)("memtime: warning: the program %s %llu MiB of private "
             "anonymous memory but its heap never exceeded %lu KiB: its "
             "allocator is probably invisible to memtime (linked into a "
             "stripped executable, or under a name or prefix memtime does "
             "not intercept; see memtime(1), ALLOCATION TREES, and the user "
             "guide's Rust and jemalloc)\n",
             at_exit ? "ended with" : "has held", usable >> 20,
             heap_max_szB >> 10);
}

void mt_warn_new_mmap(Addr a, SizeT len)
{
   NSegment const* seg = VG_(am_find_nsegment)(a);
   if (seg == NULL || seg->kind != SkAnonC) return;
   anon_mmap_szB += len;
   if (mt_snapshot_heap_szB() > heap_max_szB)
      heap_max_szB = mt_snapshot_heap_szB();
}

void mt_warn_init(void)
{
   check_executable();
}

void mt_warn_tick(void)
{
   judge(False);
}

void mt_warn_fini(void)
{
   judge(True);
}
