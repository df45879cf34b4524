/* mt_snapshot.h: live memory totals and the snapshot list.
   Snapshots are attempted at every allocation and deallocation and kept as
   Massif keeps them: a normal snapshot only when at least the current
   minimum interval passed since the last one, every --detailed-freq'th one
   detailed, a peak snapshot checked just before each deallocation, and
   when the list reaches --max-snapshots half of it culled (the ones
   spanning the least time) and the minimum interval raised. */
#ifndef MT_SNAPSHOT_H
#define MT_SNAPSHOT_H

#include "pub_tool_basics.h"
#include "pub_tool_xtree.h"   /* Time */

#include "mt_file.h"
#include "mt_tree.h"

/* From 77, as Massif's kinds: a zeroed entry is none of them. */
typedef enum { MtNormal = 77, MtPeak, MtUnused } MtSnapshotKind;

/* Live totals, what the next snapshot records: the heap's change only
   through mt_mem_update_heap, the stacks' at each snapshot attempt. */
SizeT mt_snapshot_heap_szB(void);        /* requested bytes of live blocks */
SizeT mt_snapshot_heap_extra_szB(void);  /* --heap-admin per block + slop */
/* Heap + extra + stacks (module mt_stacks, else 0): what a snapshot
   taken now would count. */
SizeT mt_snapshot_total_szB(void);
/* Changes of the heap totals so far: a process's own activity, which
   time-driven samples and catch-up snapshots are not (mt_children.c). */
ULong mt_snapshot_heap_n_changes(void);

void  mt_snapshot_init(void);    /* post_clo_init: allocates the list */
/* Applies a change of the heap totals (and counts it for time unit B). */
void  mt_mem_update_heap(SSizeT heap_delta_szB, SSizeT extra_delta_szB);

/* The first snapshot, when the client starts running. */
void  mt_snapshot_startup(void);
Bool  mt_snapshot_started(void);
/* In a child just forked: forgets the parent's snapshots and peak, and
   takes one detailed snapshot now (on the parent's clock) holding what the
   child inherited, so the child's profile starts at the fork. */
void  mt_snapshot_restart(void);
/* Massif's decision: MtNormal if it is time, MtPeak if a new peak. */
void  mt_snapshot_maybe(MtSnapshotKind kind);
/* --time-unit=ms: a normal snapshot attempt if --sample-interval ms of
   wall time passed since the last snapshot. */
void  mt_snapshot_sample(void);
/* ms only: a snapshot at the present before a system call that may block
   for long (nothing runs then), unless one was just taken. */
void  mt_snapshot_before_block(void);
/* --time-unit=ms, before a periodic rewrite: a normal snapshot now if
   --sample-interval ms passed since the last one, even if the minimum
   interval (which culling raises as the run goes on) has not, so a
   rewritten profile ends at most about one rewrite interval before the
   present. At most one per rewrite; culled like any other. */
void  mt_snapshot_catch_up(void);
/* --time-unit=ms, at exit: one last detailed snapshot (the peak if the
   total is a new peak), so the end of the run is on the timeline. */
void  mt_snapshot_final(void);
/* At exit, after the last snapshot: a reading of the resident memory for
   it if it has none (--rss=yes; mt_rss.h), whatever the time unit. */
void  mt_snapshot_rss_at_exit(void);
/* Takes a snapshot now, outside Massif's schedule (extensions, client
   requests). */
void  mt_snapshot_now(Bool detailed);

/* A number that changes whenever the list does, or mt_snapshot_touch is
   called: the output written at another generation is stale. */
ULong mt_snapshot_generation(void);
/* Something written with the profile (a mark, a companion record)
   changed: changes the generation, so the next periodic rewrite happens
   even if no snapshot is taken meanwhile. */
void  mt_snapshot_touch(void);
/* The time of the last snapshot in the list (0 if none). */
Time  mt_snapshot_last_time(void);
/* The label of a detailed tree's root line, as Massif's for the mode. */
const HChar* mt_snapshot_top_node_desc(void);
/* The snapshots as the profile numbers them: how many there are, and
   snapshot n's time and tree (NULL when it is not detailed), for the
   unpruned detail (mt_detail.h). */
Int   mt_snapshot_count(void);
const MtTreeSnap* mt_snapshot_tree(Int n, Time* time);
/* Writes every snapshot, in order, in Massif's format (mt_msprint.h). */
void  mt_snapshot_print_all(MtFile* fp);
/* Writes each snapshot's companion records, in order: the "stacks:"
   record of its per-thread stacks (mt_stacks) and the "rss:" record of its
   resident-memory reading (mt_rss), where it has them. */
void  mt_snapshot_companion(MtFile* c);

#endif /* MT_SNAPSHOT_H */
