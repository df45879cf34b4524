/* mt_rss.h: the client's resident memory (--rss=yes, the default), read
   beside the heap at snapshots and written to the companion file.

   Only the client's own mappings count (the address-space manager's SkAnonC,
   SkFileC and SkShmC segments): Valgrind's and memtime's memory never does.
   Resident bytes are split as the kernel splits them in /proc/PID/status
   (RssAnon, RssFile, RssShmem): private anonymous pages (including the
   copied-on-write pages of a private file mapping), page-cache pages of
   mapped files, and shared memory (MAP_SHARED anonymous, System V, tmpfs
   and memfd files).

   Readings are taken by mt_snapshot.c when a snapshot is taken: at the
   first, at every peak snapshot, at others at most every --sample-interval
   ms (detailed ones: at any time) or every 100 times the last reading's
   cost if that is longer, and at exit; never more than about 5% of the
   run's wall time (a reading's cost follows the resident size). The
   largest reading (the RSS peak) keeps the largest non-heap mappings
   resident then, named by file or by the stack of the mmap that made
   them. */
#ifndef MT_RSS_H
#define MT_RSS_H

#include "pub_tool_basics.h"

typedef struct {
   Bool  valid;    /* a reading was taken at this snapshot */
   ULong anon_B, file_B, shmem_B;
} MtRss;

#include "mt_file.h"

void mt_rss_init(void);            /* post_clo_init, with --rss=yes */
/* At exit, with -v -v: how many readings were taken and their cost. */
void mt_rss_fini(void);

/* A reading for a snapshot being taken at 'time' (profile unit), or
   out->valid = False when none is due: 'at_peak' asks for one, 'detailed'
   for one unless the last was too recent for its cost (both subject to the
   cost budget), 'force' always takes one (exit, snapshots asked for).
   heap_B is the heap total then (useful + extra), kept with the reading if
   it is the peak. */
void mt_rss_sample(MtRss* out, Long time, ULong heap_B, Bool detailed,
                   Bool at_peak, Bool force);

/* How many readings were taken so far (mt_allocator.c reads the
   allocator's statistics after each). */
ULong mt_rss_n_readings(void);

/* True when at least one reading was taken (the companion has RSS records
   to write). */
Bool mt_rss_any(void);
/* The last reading: its time and total (anon + file + shmem); False when
   none was taken. */
Bool mt_rss_last(Long* time, ULong* total_B);

/* Address-space events (fanned out by mt_main.c): the stacks of the
   client's anonymous mmaps, to name them at the RSS peak; by_malloc: made
   inside a call of the program's allocator (--allocator=program), one
   group of their own. mt_rss_new_brk: the brk area grew inside such a call
   (glibc's main arena). */
void mt_rss_new_mmap(Addr a, SizeT len, Bool by_malloc);
void mt_rss_new_brk(Addr a, SizeT len);
void mt_rss_copy_remap(Addr from, Addr to, SizeT len);
void mt_rss_die_munmap(Addr a, SizeT len);
/* After a successful mmap(MAP_SHARED | MAP_ANONYMOUS) at [a, a+len): the
   core records it as an anonymous segment like private memory. */
void mt_rss_mmap_shared(Addr a, SizeT len);

/* Companion records: one "rss:" line for a snapshot's reading, and the
   peak with its largest mappings ("rss-peak:", "rss-mapping:",
   "rss-mapping-frame:"); see docs/file-format.md. */
void mt_rss_companion_snapshot(MtFile* c, UInt snapshot_n,
                               Long time, const MtRss* r);
void mt_rss_companion_peak(MtFile* c);
/* In a child just forked: the parent's RSS peak is the parent's; the
   child's own peak starts with its reading at the fork. */
void mt_rss_forget_peak(void);

#endif /* MT_RSS_H */
