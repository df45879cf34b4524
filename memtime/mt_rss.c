/* mt_rss.c: the client's resident memory (see mt_rss.h).

   How a reading is made: the address-space manager lists the client's
   segments (SkAnonC, SkFileC, SkShmC); for each one with any permission
   (PROT_NONE reservations hold nothing):
   - private anonymous memory (the heap, stacks, anonymous mmaps: most of a
     big program) is read with mincore, one byte per page, which for
     anonymous memory reports the pages present; it is the cheap path
     (0.2 ms for 512 MiB);
   - everything else through the kernel's page map, /proc/self/pagemap, one
     64-bit entry per page: bit 63 says the page is mapped in this
     process's page tables (what RSS counts, unlike mincore, which for a
     file reports page-cache residency whether or not this process touched
     it), bit 61 that it is a file page or shared memory (so the private,
     copied-on-write pages of a file mapping count as anonymous, as the
     kernel counts them). It looks at each page's structure: 8 to 17 ms
     for 512 MiB.
   Shared anonymous memory (MAP_SHARED | MAP_ANONYMOUS) looks private to the
   core: mt_main.c passes the mmap flags on. Only the client's ranges are
   read, so the cost follows the client's size, not Valgrind's; smaps would
   walk every mapping, Valgrind's included, and format text for each.

   The page map is opened for each reading: after fork() a descriptor
   opened earlier would still read the parent.

   Budget: readings stop being taken (except the one at exit) while their
   total cost exceeds 5% of the wall time since start-up plus 1 ms, so the
   default cannot cost more than about 5% of a run whatever its size.
   Pacing: a reading also waits MT_RSS_BACKOFF times the last one's cost
   (a normal snapshot's waits --sample-interval if that is longer), so a
   small program's readings (a fraction of a ms) come as before, and a big
   one's are spaced out to about 1% of the run: rustc with LLVM mapped
   reads in about 2.6 ms, and with ms samples detailed at every heap change
   it read every 100 ms, 2% of its run and the largest thing memtime did
   beyond Massif's work there. The first reading, peak snapshots' (the
   heap's peak is compared with the RSS then), those asked for and the one
   at exit are not paced.

   Names at the peak: a file mapping is named by its file; an anonymous
   mapping by the stack of the client mmap that created it (recorded at
   every client mmap in a sorted table of ranges); the core's own client
   mappings are the malloc arena of memtime's replacement allocator (the
   heap, marked isCH by the core), the main stack and the executable's
   bss. Under --allocator=program the heap is the program's allocator's:
   every mapping it made (an mmap, mremap or brk inside one of its calls)
   is one group, "[malloc]", whatever the stack: its heap and what it holds
   freed, which its own account splits. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_execontext.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "mt_compat.h"
#include "mt_companion.h"
#include "mt_file.h"
#include "mt_options.h"
#include "mt_rss.h"
#include "mt_time.h"

#define PM_PRESENT (1ULL << 63)
#define PM_FILE_OR_SHARED (1ULL << 61)

/* Mappings named at the peak (the rest are summed in the totals only). */
#define MT_RSS_TOP 10
/* Frames written per anonymous mapping's mmap stack. */
#define MT_RSS_FRAMES 12
/* A reading waits at least this many times the last reading's cost: at
   most about 1% of the run for the paced ones. */
#define MT_RSS_BACKOFF 100ULL

/*------------------------------------------------------------*/
/*--- Where anonymous mappings came from                   ---*/
/*------------------------------------------------------------*/

/* Disjoint ranges sorted by start, each with the stack of the mmap that
   made it, or made by the program's allocator (ec NULL then). A segment
   split later (mprotect) still falls inside its range. */
typedef struct { Addr start, end; ExeContext* ec; Bool shared, by_malloc; } Origin;

static Origin* origins;
static UInt    n_origins, max_origins;

/* Index of the first origin with start >= a. */
static UInt origin_lower_bound(Addr a)
{
   UInt lo = 0, hi = n_origins;
   while (lo < hi) {
      UInt mid = lo + (hi - lo) / 2;
      if (origins[mid].start < a) lo = mid + 1; else hi = mid;
   }
   return lo;
}

static Origin* origin_find(Addr a)
{
   UInt i = origin_lower_bound(a + 1);   /* first with start > a */
   if (i == 0) return NULL;
   return a < origins[i - 1].end ? &origins[i - 1] : NULL;
}

static void origin_insert_at(UInt i, Addr start, Addr end, ExeContext* ec,
                             Bool shared, Bool by_malloc)
{
   if (n_origins == max_origins) {
      max_origins = max_origins ? 2 * max_origins : 64;
      origins = VG_(realloc)("mt.rss.origins", origins,
                             max_origins * sizeof *origins);
   }
   VG_(memmove)(&origins[i + 1], &origins[i], (n_origins - i) * sizeof *origins);
   origins[i].start = start;
   origins[i].end = end;
   origins[i].ec = ec;
   origins[i].shared = shared;
   origins[i].by_malloc = by_malloc;
   n_origins++;
}

/* Forgets [a, a+len): ranges inside go, ranges across its edges shrink
   (one across both edges splits in two). */
static void origin_remove(Addr a, SizeT len)
{
   Addr end = a + len;
   UInt i = origin_lower_bound(a), j;
   if (len == 0) return;
   if (i > 0 && origins[i - 1].end > a) {
      Origin* o = &origins[i - 1];
      if (o->end > end) {
         Addr tail_end = o->end;
         o->end = a;
         origin_insert_at(i, end, tail_end, o->ec, o->shared, o->by_malloc);
         return;
      }
      o->end = a;
   }
   for (j = i; j < n_origins && origins[j].start < end; j++) { }
   if (j > i && origins[j - 1].end > end) {
      /* The last one sticks out past the end: keep its tail. */
      origins[j - 1].start = end;
      j--;
   }
   VG_(memmove)(&origins[i], &origins[j], (n_origins - j) * sizeof *origins);
   n_origins -= j - i;
}

static void origin_add(Addr a, SizeT len, ExeContext* ec, Bool shared,
                       Bool by_malloc)
{
   origin_remove(a, len);
   origin_insert_at(origin_lower_bound(a), a, a + len, ec, shared, by_malloc);
}

void mt_rss_new_mmap(Addr a, SizeT len, Bool by_malloc)
{
   NSegment const* seg = VG_(am_find_nsegment)(a);
   ThreadId tid = VG_(get_running_tid)();
   len = VG_PGROUNDUP(len);
   if (seg == NULL || seg->kind != SkAnonC || tid == VG_INVALID_THREADID) {
      origin_remove(a, len);   /* a file mapped over an anonymous range */
      return;
   }
   if (by_malloc) origin_add(a, len, NULL, False, True);
   else           origin_add(a, len, VG_(record_ExeContext)(tid, 0), False, False);
}

void mt_rss_new_brk(Addr a, SizeT len)
{
   origin_add(VG_PGROUNDDN(a), VG_PGROUNDUP(a + len) - VG_PGROUNDDN(a), NULL, False, True);
}

void mt_rss_mmap_shared(Addr a, SizeT len)
{
   Origin* o = origin_find(a);
   if (o != NULL && o->start == a)
      o->shared = True;
}

void mt_rss_copy_remap(Addr from, Addr to, SizeT len)
{
   Origin* o = origin_find(from);
   ExeContext* ec = o ? o->ec : NULL;
   Bool shared = o ? o->shared : False, by_malloc = o ? o->by_malloc : False;
   len = VG_PGROUNDUP(len);
   if (ec || by_malloc) origin_add(to, len, ec, shared, by_malloc);
   else                 origin_remove(to, len);
}

void mt_rss_die_munmap(Addr a, SizeT len)
{
   origin_remove(a, VG_PGROUNDUP(len));
}

/*------------------------------------------------------------*/
/*--- Readings                                             ---*/
/*------------------------------------------------------------*/

/* One client segment's resident bytes, from the last reading. */
typedef struct {
   Addr  start, end;      /* [start, end) */
   ULong anon_B, file_B, shmem_B;
} SegRss;

static Addr*   starts;
static Int     max_starts;
static SegRss* segs;
static UInt    n_segs, max_segs;

static ULong   pm_buf[8192];   /* 32 MiB of address space per read */

static ULong   start_ns;       /* monotonic clock at init */
static ULong   spent_ns;       /* total cost of readings so far */
static ULong   last_read_ms;   /* mt_time_wall_ms() at the last reading */
static ULong   last_cost_ns;   /* what the last reading cost */
static Bool    any_reading;
static Long    last_time;      /* the last reading's time and total */
static ULong   last_total_B;
static ULong   n_readings;
static ULong   n_peak_readings;   /* of them, at peak snapshots */

static ULong now_ns(void)
{
   struct vki_timespec ts;
   VG_(clock_gettime)(&ts, VKI_CLOCK_MONOTONIC);
   return (ULong)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Files the kernel counts as shared memory, not file pages: memfds, SysV
   segments, and every file on a tmpfs (/dev/shm, but also a /tmp or /run
   mounted so, where a program's scratch files often live). The file
   system is asked (statfs) once per device and the answer kept; the name
   decides only when it cannot be asked (the file was removed since it was
   mapped). */
#define MT_TMPFS_MAGIC 0x01021994UL
#define MT_MAX_FS_KINDS 32
static struct { ULong dev; Bool shmem; } fs_kinds[MT_MAX_FS_KINDS];
static UInt n_fs_kinds;

static Bool is_shmem_file(NSegment const* seg, const HChar* name)
{
   UWord buf[32];   /* struct statfs: f_type is its first word */
   Bool shmem;
   UInt i;
   SysRes sr;
   if (name == NULL)
      return False;
   if (VG_(strncmp)(name, "/dev/shm/", 9) == 0 || VG_(strncmp)(name, "/memfd:", 7) == 0
       || VG_(strncmp)(name, "/SYSV", 5) == 0)
      return True;
   for (i = 0; i < n_fs_kinds; i++)
      if (fs_kinds[i].dev == seg->dev)
         return fs_kinds[i].shmem;
   sr = VG_(do_syscall)(__NR_statfs, (UWord)name, (UWord)buf, 0, 0, 0, 0, 0, 0);
   if (sr_isError(sr))
      return False;
   shmem = buf[0] == MT_TMPFS_MAGIC;
   if (n_fs_kinds < MT_MAX_FS_KINDS) {
      fs_kinds[n_fs_kinds].dev = seg->dev;
      fs_kinds[n_fs_kinds].shmem = shmem;
      n_fs_kinds++;
   }
   return shmem;
}

/* A copy of s fit for one companion line: control characters (a newline
   would end the line) become '?'. */
static HChar* line_safe_copy(const HChar* s)
{
   HChar* c = VG_(strdup)("mt.rss.name", s);
   HChar* p;
   for (p = c; *p; p++)
      if ((UChar)*p < 0x20 || *p == 0x7f) *p = '?';
   return c;
}

/* memtime's and Valgrind's preloads are mapped into the client, and the
   core keeps a page of the tool's executable among the client's segments:
   none of them is the program's. */
static Bool is_ours(const HChar* name)
{
   const HChar* base;
   if (name == NULL)
      return False;
   base = VG_(strrchr)(name, '/');
   base = base ? base + 1 : name;
   return VG_(strncmp)(base, "vgpreload_", 10) == 0
          || VG_(strncmp)(base, "memtime-", 8) == 0;
}

/* Adds the resident pages of private anonymous [start, end) to s: mincore,
   which for anonymous memory reports exactly the pages present in the page
   tables (or in swap cache) and costs a fortieth of the page map (no page
   structure is looked at: 0.2 ms against 8 to 17 ms for 512 MiB). */
static Bool read_private_anon(SegRss* s)
{
   UChar* vec = (UChar*)pm_buf;
   Addr a = s->start;
   while (a < s->end) {
      SizeT n_pages = (s->end - a) / VKI_PAGE_SIZE, i;
      SysRes sr;
      if (n_pages > sizeof pm_buf)
         n_pages = sizeof pm_buf;
      sr = VG_(do_syscall)(__NR_mincore, a, n_pages * VKI_PAGE_SIZE, (UWord)vec,
                           0, 0, 0, 0, 0);
      if (sr_isError(sr))
         return False;
      for (i = 0; i < n_pages; i++)
         if (vec[i] & 1)
            s->anon_B += VKI_PAGE_SIZE;
      a += n_pages * VKI_PAGE_SIZE;
   }
   return True;
}

/* Adds the resident pages of [start, end) to s, by class, from the page
   map: pages mapped in this process (bit 63), file or shared ones (61). */
static Bool read_range(Int fd, SegKind kind, Bool shmem_file, SegRss* s)
{
   Addr a = s->start;
   while (a < s->end) {
      UInt n_pages = (s->end - a) / VKI_PAGE_SIZE, i;
      Int got;
      if (n_pages > sizeof pm_buf / sizeof pm_buf[0])
         n_pages = sizeof pm_buf / sizeof pm_buf[0];
      if (VG_(lseek)(fd, (Off64T)(a / VKI_PAGE_SIZE) * 8, VKI_SEEK_SET) < 0)
         return False;
      got = VG_(read)(fd, pm_buf, n_pages * 8);
      if (got <= 0)
         return False;
      n_pages = got / 8;
      for (i = 0; i < n_pages; i++) {
         ULong e = pm_buf[i];
         if (!(e & PM_PRESENT))
            continue;
         if (kind == SkShmC || (shmem_file && (e & PM_FILE_OR_SHARED)))
            s->shmem_B += VKI_PAGE_SIZE;
         else if ((e & PM_FILE_OR_SHARED) && kind == SkFileC)
            s->file_B += VKI_PAGE_SIZE;
         else if (e & PM_FILE_OR_SHARED)
            /* An anonymous segment's shared page is MAP_SHARED memory. */
            s->shmem_B += VKI_PAGE_SIZE;
         else
            s->anon_B += VKI_PAGE_SIZE;
      }
      a += (Addr)n_pages * VKI_PAGE_SIZE;
   }
   return True;
}

/* Was the anonymous segment at a mapped MAP_SHARED (mt_rss_mmap_shared)? */
static Bool is_shared_anon(Addr a)
{
   Origin* o = origin_find(a);
   return o != NULL && o->shared;
}

/* A free slot at the end of segs[]. */
static SegRss* new_seg(void)
{
   if (n_segs == max_segs) {
      max_segs = max_segs ? 2 * max_segs : 256;
      segs = VG_(realloc)("mt.rss.segs", segs, max_segs * sizeof *segs);
   }
   return &segs[n_segs];
}

/* Where the anonymous piece starting at a ends: the end of the origin that
   holds a, or the start of the next one, or end. */
static Addr piece_end(Addr a, Addr end)
{
   Origin* o = origin_find(a);
   UInt i;
   if (o != NULL)
      return o->end < end ? o->end : end;
   i = origin_lower_bound(a);
   return i < n_origins && origins[i].start < end ? origins[i].start : end;
}

/* Reads the client segment seg into segs[] and adds it to r. The core
   merges neighbouring anonymous segments (an mmap placed next to another
   one), so an anonymous segment is read in pieces, one per origin (or
   stretch without one): each piece's pages go to the mmap that made them. */
static Bool read_segment(Int fd, NSegment const* seg, const HChar* name, MtRss* r)
{
   Addr a = seg->start, end = seg->end + 1;
   while (a < end) {
      SegRss* s = new_seg();
      Bool ok;
      s->start = a;
      s->end = seg->kind == SkAnonC ? piece_end(a, end) : end;
      s->anon_B = s->file_B = s->shmem_B = 0;
      ok = seg->kind == SkAnonC && !is_shared_anon(a)
              ? read_private_anon(s)
              : read_range(fd, seg->kind, is_shmem_file(seg, name), s);
      if (!ok)
         return False;
      r->anon_B += s->anon_B;
      r->file_B += s->file_B;
      r->shmem_B += s->shmem_B;
      if (s->anon_B + s->file_B + s->shmem_B > 0)
         n_segs++;
      a = s->end;
   }
   return True;
}

/* Fills segs[] and r with the client's resident memory now. */
static Bool read_all(MtRss* r)
{
   Int n, i, fd;
   SysRes sr;

   if (starts == NULL) {   /* the core asserts a non-empty buffer */
      max_starts = 256;
      starts = VG_(malloc)("mt.rss.starts", max_starts * sizeof *starts);
   }
   while ((n = VG_(am_get_segment_starts)(SkAnonC | SkFileC | SkShmC,
                                          starts, max_starts)) < 0) {
      max_starts = -n + 64;
      starts = VG_(realloc)("mt.rss.starts", starts, max_starts * sizeof *starts);
   }
   sr = VG_(open)("/proc/self/pagemap", VKI_O_RDONLY, 0);
   if (sr_isError(sr))
      return False;
   fd = sr_Res(sr);
   r->anon_B = r->file_B = r->shmem_B = 0;
   n_segs = 0;
   for (i = 0; i < n; i++) {
      NSegment const* seg = VG_(am_find_nsegment)(starts[i]);
      const HChar* name;
      if (seg == NULL || !(seg->hasR || seg->hasW || seg->hasX))
         continue;
      name = seg->kind == SkAnonC ? NULL : VG_(am_get_filename)(seg);
      if (is_ours(name))
         continue;
      if (!read_segment(fd, seg, name, r)) {
         VG_(close)(fd);
         return False;
      }
   }
   VG_(close)(fd);
   return True;
}

/*------------------------------------------------------------*/
/*--- The peak and its largest mappings                    ---*/
/*------------------------------------------------------------*/

/* Mappings at the peak, grouped: every mapping of one file, or every
   anonymous mapping made by one mmap stack, is one group. */
typedef struct {
   HChar*      name;      /* file path, "[anon]", "[stack]", ... */
   ExeContext* ec;        /* [anon] made by a client mmap, else NULL */
   ULong       anon_B, file_B, shmem_B;
   UInt        n_maps;
} Group;

static MtRss peak;             /* valid once a reading was taken */
static Long  peak_time;
static ULong peak_heap_B;      /* heap + extra at the peak reading */
static Group peak_groups[MT_RSS_TOP];
static UInt  n_peak_groups;

static ULong rss_total(const MtRss* r)
{
   return r->anon_B + r->file_B + r->shmem_B;
}

static ULong group_total(const Group* g)
{
   return g->anon_B + g->file_B + g->shmem_B;
}

/* The group name of a segment, or NULL for the heap (memtime's malloc
   arena), which the peak's list leaves out: the heap is drawn on its own. */
static const HChar* segment_name(const SegRss* s, ExeContext** ec,
                                 HChar* buf, SizeT bufsz)
{
   NSegment const* seg = VG_(am_find_nsegment)(s->start);
   Origin* o;
   ThreadId tid;
   *ec = NULL;
   if (seg == NULL)
      return "[unmapped]";
   if (seg->kind != SkAnonC) {
      const HChar* f = VG_(am_get_filename)(seg);
      if (f == NULL)
         return seg->kind == SkShmC ? "[shm]" : "[file]";
      VG_(snprintf)(buf, bufsz, "%s", f);
      return buf;
   }
   if (seg->isCH)
      return NULL;
   o = origin_find(s->start);
   if (o != NULL && o->by_malloc)
      return "[malloc]";
   if (o != NULL) {
      *ec = o->ec;
      return "[anon]";
   }
   /* Mapped by the core for the client: the main stack, the executable's
      bss, the brk area. */
   for (tid = 1; tid < VG_N_THREADS; tid++) {
      Addr top;
      if (!VG_(is_valid_tid)(tid))
         continue;
      top = VG_(thread_get_stack_max)(tid);
      if (top > s->start && top - 1 < s->end)
         return "[stack]";
   }
   return "[anon]";
}

static void clear_peak_groups(void)
{
   UInt i;
   for (i = 0; i < n_peak_groups; i++)
      VG_(free)(peak_groups[i].name);
   n_peak_groups = 0;
}

/* Groups segs[] and keeps the MT_RSS_TOP largest non-heap groups. */
void mt_rss_forget_peak(void)
{
   clear_peak_groups();
   VG_(memset)(&peak, 0, sizeof peak);
   peak_time = 0;
   peak_heap_B = 0;
   /* The child's first reading is due at once, whatever the parent's
      pacing said (a child killed young would otherwise have none), and its
      budget is 5% of its own run. */
   any_reading = False;
   spent_ns = 0;
   start_ns = now_ns();
}

static void record_peak_groups(void)
{
   Group* groups = NULL;
   UInt n_groups = 0, i, j, k;
   HChar namebuf[VKI_PATH_MAX];

   if (n_segs > 0)
      groups = VG_(malloc)("mt.rss.groups", n_segs * sizeof *groups);
   /* Names are compared while the segment table is stable (no allocation
      in this loop), then copied. */
   for (i = 0; i < n_segs; i++) {
      ExeContext* ec;
      const HChar* name = segment_name(&segs[i], &ec, namebuf, sizeof namebuf);
      if (name == NULL)
         continue;
      for (j = 0; j < n_groups; j++)
         if (groups[j].ec == ec && VG_(strcmp)(groups[j].name, name) == 0)
            break;
      if (j == n_groups) {
         groups[j].name = line_safe_copy(name);
         groups[j].ec = ec;
         groups[j].anon_B = groups[j].file_B = groups[j].shmem_B = 0;
         groups[j].n_maps = 0;
         n_groups++;
      }
      groups[j].anon_B += segs[i].anon_B;
      groups[j].file_B += segs[i].file_B;
      groups[j].shmem_B += segs[i].shmem_B;
      groups[j].n_maps++;
   }
   clear_peak_groups();
   /* Selection of the largest (the list is short). */
   for (k = 0; k < MT_RSS_TOP && k < n_groups; k++) {
      UInt best = k;
      Group tmp;
      for (j = k + 1; j < n_groups; j++)
         if (group_total(&groups[j]) > group_total(&groups[best]))
            best = j;
      tmp = groups[k]; groups[k] = groups[best]; groups[best] = tmp;
      peak_groups[k] = groups[k];
      n_peak_groups++;
   }
   for (; k < n_groups; k++)
      VG_(free)(groups[k].name);
   if (groups) VG_(free)(groups);
}

/*------------------------------------------------------------*/
/*--- Sampling                                             ---*/
/*------------------------------------------------------------*/

void mt_rss_init(void)
{
   start_ns = now_ns();
}

ULong mt_rss_n_readings(void)
{
   return n_readings;
}

Bool mt_rss_last(Long* time, ULong* total_B)
{
   *time = last_time;
   *total_B = last_total_B;
   return any_reading;
}

Bool mt_rss_any(void)
{
   return any_reading;
}

void mt_rss_sample(MtRss* out, Long time, ULong heap_B, Bool detailed,
                   Bool at_peak, Bool force)
{
   ULong t0, t1;
   out->valid = False;
   if (!clo_rss)
      return;
   if (!force) {
      /* The first one and peaks; detailed snapshots at most every
         MT_RSS_BACKOFF times the last reading's cost; normal ones at most
         every --sample-interval ms (never with 0) or that, if longer. */
      ULong backoff_ms = MT_RSS_BACKOFF * last_cost_ns / 1000000ULL;
      ULong since_ms = mt_time_wall_ms() - last_read_ms;
      Bool due;
      if (!any_reading || at_peak)
         due = True;
      else if (detailed)
         due = since_ms >= backoff_ms;
      else
         due = clo_sample_interval_ms != 0
               && since_ms >= (ULong)clo_sample_interval_ms
               && since_ms >= backoff_ms;
      if (!due)
         return;
      t0 = now_ns();
      /* The budget: readings so far within 5% of the time since start-up
         (plus 1 ms, so the first readings of a young run are taken). */
      if (spent_ns > (t0 - start_ns) / 20 + 1000000ULL)
         return;
   } else {
      t0 = now_ns();
   }
   if (!read_all(out))
      return;
   out->valid = True;
   last_time = time;
   last_total_B = rss_total(out);
   any_reading = True;
   last_read_ms = mt_time_wall_ms();
   if (rss_total(out) > rss_total(&peak) || !peak.valid) {
      peak = *out;
      peak_time = time;
      peak_heap_B = heap_B;
      record_peak_groups();
   }
   t1 = now_ns();
   spent_ns += t1 - t0;
   last_cost_ns = t1 - t0;
   n_readings++;
   if (at_peak)
      n_peak_readings++;
}

void mt_rss_fini(void)
{
   if (clo_rss && VG_(clo_verbosity) > 1)
      VG_(dmsg)("memtime: %llu resident-memory readings (%llu at peak "
                "snapshots) took %llu.%03llu ms of %llu ms\n", n_readings,
                n_peak_readings, spent_ns / 1000000,
                (spent_ns / 1000) % 1000, (now_ns() - start_ns) / 1000000);
}

/*------------------------------------------------------------*/
/*--- Companion records                                    ---*/
/*------------------------------------------------------------*/

void mt_rss_companion_snapshot(MtFile* c, UInt snapshot_n, Long time,
                               const MtRss* r)
{
   if (c == NULL || r == NULL || !r->valid)
      return;
   mt_companion_record(c, MtRecRss, "snapshot=%u time=%lld anon=%llu "
                       "file=%llu shmem=%llu", snapshot_n, time, r->anon_B,
                       r->file_B, r->shmem_B);
}

typedef struct { MtFile* c; UInt n; } FrameCtx;

/* libc's mmap wrappers, left off the top of an mmap's stack: the frame
   worth reading is their caller. */
static Bool is_mmap_wrapper(const HChar* desc)
{
   static const HChar* const names[] = { "mmap", "mmap64", "__mmap",
                                         "__mmap64", NULL };
   const HChar* fn = VG_(strstr)(desc, ": ");
   Int i;
   if (fn == NULL) return False;
   fn += 2;
   for (i = 0; names[i]; i++) {
      SizeT n = VG_(strlen)(names[i]);
      if (VG_(strncmp)(fn, names[i], n) == 0
          && (fn[n] == ' ' || fn[n] == '\0'))
         return True;
   }
   return False;
}

static void put_frame(UInt n, DiEpoch ep, Addr ip, void* opaque)
{
   FrameCtx* fc = opaque;
   InlIPCursor* iipc = VG_(new_IIPC)(ep, ip);
   do {
      const HChar* desc = VG_(describe_IP)(ep, ip, iipc);
      HChar* safe;
      if (fc->n == 0 && is_mmap_wrapper(desc))
         continue;
      if (fc->n++ >= MT_RSS_FRAMES)
         break;
      safe = line_safe_copy(desc);
      mt_companion_record(fc->c, MtRecRssMappingFrame, "%s", safe);
      VG_(free)(safe);
   } while (VG_(next_IIPC)(iipc));
   VG_(delete_IIPC)(iipc);
}

void mt_rss_companion_peak(MtFile* c)
{
   UInt i;
   if (c == NULL || !peak.valid)
      return;
   mt_companion_record(c, MtRecRssPeak, "time=%lld anon=%llu file=%llu "
                       "shmem=%llu heap=%llu", peak_time, peak.anon_B,
                       peak.file_B, peak.shmem_B, peak_heap_B);
   for (i = 0; i < n_peak_groups; i++) {
      const Group* g = &peak_groups[i];
      mt_companion_record(c, MtRecRssMapping, "anon=%llu file=%llu shmem=%llu "
                          "mappings=%u %s", g->anon_B, g->file_B, g->shmem_B,
                          g->n_maps, g->name);
      if (g->ec != NULL) {
         FrameCtx fc = { c, 0 };
         VG_(apply_ExeContext)(put_frame, &fc, g->ec);
      }
   }
}
