/* mt_snapshot.c: live totals, snapshot taking, peak detection and culling.

   The schedule reproduces Massif 3.19 exactly, because with --time-unit=B
   or i memtime must produce the same list (times, values, culling, peak):
   - A normal snapshot is taken when now >= time of the last snapshot +
     min_interval (0 at first, so early on every event is recorded).
   - Every --detailed-freq'th taken snapshot (counting from the previous
     detailed one) is detailed; peak snapshots are always detailed.
   - A peak is checked just before every deallocation: if the total
     (heap + extra + stacks) exceeds the recorded peak by more than
     --peak-inaccuracy percent of it, a peak snapshot is taken and the old
     peak snapshot, if still listed, becomes a normal one.
   - When the list is full, half of it is culled one at a time, each time
     the interior snapshot (never the first, the last or the peak) whose
     neighbours are closest in time. The new min_interval is the smallest
     gap left, ignoring gaps between two uncullable snapshots (they would
     pin it forever).
   memtime's additions (ms unit only, so B and i stay identical): sampling
   snapshots from the client-code hook, a final snapshot at exit, and:
   - Culling that keeps the shape: each round removes the interior
     snapshot whose removal loses least: the triangle it makes with its
     neighbours, time by total (what the drawn line loses: the top of a
     burst or the bottom between two lose much), plus its neighbours' span
     times 2% of the largest total (what the coverage loses, as Massif's
     closest neighbours: so a flat stretch or a steady slope keeps evenly
     spaced trees, its snapshots going first where they are densest),
     four times that for a snapshot with a tree. The minimum
     interval then grows with the run (its length over --max-snapshots,
     at least 1 ms), as Massif's does, so culling stays rare.
   - Burst tops: before a deallocation, a total that rose above the
     lowest since the last burst by --burst-threshold percent of the peak
     gets a detailed snapshot, at most one per half minimum interval, so
     "what was that burst" has a tree; the next burst counts once the
     total has come down by as much again, and then the next snapshot
     has a tree too (the burst's end).
   Every change also goes to the exact outline (mt_outline.c), whatever
   the unit: the snapshots are samples, the outline is not. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_xtree.h"

#include "mt_options.h"
#include "mt_outline.h"
#include "mt_rss.h"
#include "mt_snapshot.h"
#include "mt_stacks.h"
#include "mt_time.h"
#include "mt_tree.h"

/* The live totals (see mt_snapshot.h). */
static SizeT live_heap_szB   = 0;
static SizeT live_extra_szB  = 0;
static SizeT live_stacks_szB = 0;
static ULong n_heap_changes  = 0;

typedef struct {
   MtSnapshotKind kind;
   Time   time;
   SizeT  heap_szB;
   SizeT  heap_extra_szB;
   SizeT  stacks_szB;
   MtTreeSnap* xt;        /* the heap tree's bytes if detailed */
   MtStackSample* stacks; /* per-thread stacks (--stacks=yes), else NULL */
   MtRss  rss;            /* resident memory, when read at this snapshot */
} Snapshot;

/* Larger than any time span: "no span found yet". */
#define MT_TIME_MAX ((Time)0x7fffffffffffffffLL)

static Snapshot* snapshots;           /* clo_max_snapshots entries */
static Int       n_snapshots = 0;     /* used: snapshots[0 .. n-1] */
static Bool      started = False;
/* The snapshot being taken was asked for (client request, vgdb): its
   resident-memory reading is taken whatever the budget (mt_rss.h). */
static Bool      explicit_snapshot = False;

/* Bumped at every change of the list and at mt_snapshot_touch. */
static ULong     generation = 0;

static SizeT peak_snapshot_total_szB = 0;  /* total of the last peak taken */
static Time  min_time_interval = 0;
static Time  earliest_next_snapshot_time = 0;
static Int   n_snapshots_since_last_detailed = 0;
static ULong wall_ms_of_last_snapshot = 0;
/* Heap totals at the last detailed snapshot: a clock-driven sample is made
   detailed when they changed, so a phase that allocates nothing (where no
   event-driven snapshot will come) starts with the breakdown it really has,
   not the one of the last detailed snapshot before it. */
static SizeT heap_szB_at_last_detailed = 0;
static SizeT extra_szB_at_last_detailed = 0;

/* Burst tracking (ms only, see the file comment). */
static Bool  burst_armed = True;     /* waiting for the next burst */
static SizeT burst_floor_szB = 0;    /* lowest total since armed */
static SizeT burst_top_szB = 0;      /* total at the last burst snapshot */
static Time  burst_time = -1;        /* time of the last burst snapshot */
static Bool  burst_end_due = False;  /* the burst came down: a tree next */


/* The rise that makes a burst: --burst-threshold percent of the peak so
   far, at least one byte; recomputed when the peak moves, not at every
   change (set_peak). */
static SizeT burst_rise_szB = 1;

static void set_peak(SizeT total)
{
   SizeT t = (SizeT)(total * clo_burst_threshold / 100);
   peak_snapshot_total_szB = total;
   burst_rise_szB = t > 0 ? t : 1;
}

/* After every change of the totals: the outline, and the burst state. */
static void note_change(void)
{
   SizeT total = live_heap_szB + live_extra_szB + live_stacks_szB;
   mt_outline_update(mt_time_now(), total, live_heap_szB + live_extra_szB);
   if (clo_time_unit != TimeMS)
      return;
   if (burst_armed) {
      if (total < burst_floor_szB)
         burst_floor_szB = total;
   } else if (total + burst_rise_szB <= burst_top_szB) {
      /* Came down by a burst's height: the next rise is a new burst, and
         the next snapshot has a tree (without one, the tree at the top
         would stand for the time after the burst too). */
      burst_armed = True;
      burst_floor_szB = total;
      burst_end_due = burst_time >= 0 && clo_burst_threshold < 100;
   }
}

void mt_mem_update_heap(SSizeT heap_delta_szB, SSizeT extra_delta_szB)
{
   if (heap_delta_szB < 0)
      tl_assert(live_heap_szB >= (SizeT)-heap_delta_szB);
   if (extra_delta_szB < 0)
      tl_assert(live_extra_szB >= (SizeT)-extra_delta_szB);
   live_heap_szB  += heap_delta_szB;
   live_extra_szB += extra_delta_szB;
   n_heap_changes++;
   mt_time_add_bytes(heap_delta_szB + extra_delta_szB);
   note_change();
}

/* Applies a change of the stacks total (and counts it for time unit B). */
static void update_stacks(SSizeT delta_szB)
{
   if (delta_szB < 0)
      tl_assert(live_stacks_szB >= (SizeT)-delta_szB);
   live_stacks_szB += delta_szB;
   mt_time_add_bytes(delta_szB);
   if (delta_szB != 0)
      note_change();
}

static SizeT total_szB(void)
{
   return live_heap_szB + live_extra_szB + live_stacks_szB;
}

SizeT mt_snapshot_heap_szB(void)       { return live_heap_szB; }
SizeT mt_snapshot_heap_extra_szB(void) { return live_extra_szB; }
SizeT mt_snapshot_total_szB(void)      { return total_szB(); }
ULong mt_snapshot_heap_n_changes(void) { return n_heap_changes; }

static void clear_snapshot(Snapshot* s)
{
   s->kind = MtUnused;
   s->time = -1;
   s->heap_szB = s->heap_extra_szB = s->stacks_szB = 0;
   s->xt = NULL;
   s->stacks = NULL;
   s->rss.valid = False;
}

/* --stacks=yes: live_stacks_szB follows the threads' stacks, read when a
   snapshot may be taken (the low-water marks make that enough: see
   mt_stacks.h). Its changes count for time unit B like heap changes. */
static void refresh_stacks(void)
{
   if (clo_stacks)
      update_stacks((SSizeT)mt_stacks_current_szB()
                           - (SSizeT)live_stacks_szB);
}

void mt_snapshot_init(void)
{
   Int i;
   mt_outline_init();
   snapshots = VG_(malloc)("mt.snapshot.list",
                           sizeof(Snapshot) * clo_max_snapshots);
   for (i = 0; i < clo_max_snapshots; i++)
      clear_snapshot(&snapshots[i]);
}

static Bool is_uncullable(Int i)
{
   return i == 0 || i == n_snapshots - 1 || snapshots[i].kind == MtPeak;
}

static double snap_total(const Snapshot* s)
{
   return (double)(s->heap_szB + s->heap_extra_szB + s->stacks_szB);
}

/* What is lost when cur goes (ms only): the area of the triangle
   prev-cur-next, time by total (the span times cur's distance from the
   line through its neighbours: what the drawn line loses), plus the span
   times a floor of 'floor_B' (what the timeline's coverage loses: a
   snapshot on a straight slope still carries a tree, and without the
   floor a steady leak would lose every tree of minutes). */
static double shape_loss(Int prev, Int cur, Int next, double floor_B)
{
   double dt1 = (double)(snapshots[cur].time - snapshots[prev].time);
   double dt2 = (double)(snapshots[next].time - snapshots[prev].time);
   double dv1 = snap_total(&snapshots[cur]) - snap_total(&snapshots[prev]);
   double dv2 = snap_total(&snapshots[next]) - snap_total(&snapshots[prev]);
   double a = dt1 * dv2 - dt2 * dv1;
   double loss = (a < 0 ? -a : a) + dt2 * floor_B;
   /* A tree is worth keeping: a snapshot without one goes first. */
   return snapshots[cur].xt != NULL ? 4 * loss : loss;
}

/* Removes half of the list (see the file comment); returns the new
   minimum interval. O(N^2) with N <= 1000, and rare. */
static Time cull_snapshots(void)
{
   Int n_to_delete = clo_max_snapshots / 2;
   Int d, i, j;
   Time min_span;
   Bool by_shape = clo_time_unit == TimeMS;
   double floor_B = 0;

   if (by_shape) {
      /* The floor: 2% of the largest total listed. */
      for (i = 0; i < n_snapshots; i++)
         if (snap_total(&snapshots[i]) > floor_B)
            floor_B = snap_total(&snapshots[i]);
      floor_B /= 50;
   }

   for (d = 0; d < n_to_delete; d++) {
      /* Walk the used entries as (prev, cur, next) triples; holes left by
         earlier deletions in this round are skipped. */
      Int prev = 0, cur, next, min_i = -1;
      Time min_timespan = MT_TIME_MAX;
      double min_loss = 0;
      for (cur = 1; cur < clo_max_snapshots && snapshots[cur].kind == MtUnused; cur++) { }
      for (next = cur + 1; next < clo_max_snapshots && snapshots[next].kind == MtUnused; next++) { }
      while (next < clo_max_snapshots) {
         Time span = snapshots[next].time - snapshots[prev].time;
         tl_assert(span >= 0);
         if (snapshots[cur].kind != MtPeak && by_shape) {
            double loss = shape_loss(prev, cur, next, floor_B);
            if (min_i == -1 || loss < min_loss
                || (loss == min_loss && span < min_timespan)) {
               min_loss = loss;
               min_timespan = span;
               min_i = cur;
            }
         } else if (snapshots[cur].kind != MtPeak && span < min_timespan) {
            min_timespan = span;
            min_i = cur;
         }
         prev = cur;
         cur = next;
         for (next = cur + 1; next < clo_max_snapshots && snapshots[next].kind == MtUnused; next++) { }
      }
      tl_assert(min_i != -1);
      mt_tree_snap_delete(snapshots[min_i].xt);
      mt_stacks_sample_free(snapshots[min_i].stacks);
      clear_snapshot(&snapshots[min_i]);
   }

   /* Close the holes. */
   for (i = 0, j = 0; j < clo_max_snapshots; j++) {
      if (snapshots[j].kind != MtUnused) {
         if (i != j) {
            snapshots[i] = snapshots[j];
            clear_snapshot(&snapshots[j]);
         }
         i++;
      }
   }
   n_snapshots = i;
   tl_assert(n_snapshots > 1);

   if (by_shape)
      /* The list spans the run evenly whatever is kept: the next cull
         comes when the run has grown by half. */
      return (snapshots[n_snapshots - 1].time - snapshots[0].time)
             / clo_max_snapshots;

   min_span = MT_TIME_MAX;
   for (i = 1; i < n_snapshots; i++) {
      if (is_uncullable(i) && is_uncullable(i - 1))
         continue;
      if (snapshots[i].time - snapshots[i - 1].time < min_span)
         min_span = snapshots[i].time - snapshots[i - 1].time;
   }
   tl_assert(min_span != MT_TIME_MAX);
   return min_span;
}

/* Records the current totals into the next free entry, then culls if the
   list is full. */
static void take_snapshot(MtSnapshotKind kind, Time now, Bool detailed)
{
   Snapshot* s = &snapshots[n_snapshots];
   tl_assert(s->kind == MtUnused);

   s->kind = kind;
   s->time = now;
   if (clo_heap) {
      s->heap_szB = live_heap_szB;
      s->heap_extra_szB = live_extra_szB;
      if (detailed)
         s->xt = mt_tree_snapshot();
   }
   s->stacks_szB = live_stacks_szB;
   s->stacks = mt_stacks_sample();   /* resets the low-water marks */
   tl_assert(s->stacks == NULL || s->stacks->total_szB == s->stacks_szB);
   mt_rss_sample(&s->rss, now, live_heap_szB + live_extra_szB, detailed,
                 kind == MtPeak, explicit_snapshot);
   if (s->rss.valid)
      mt_outline_rss(now, s->rss.anon_B + s->rss.file_B
                          + s->rss.shmem_B);

   if (detailed) {
      n_snapshots_since_last_detailed = 0;
      heap_szB_at_last_detailed = live_heap_szB;
      extra_szB_at_last_detailed = live_extra_szB;
   } else
      n_snapshots_since_last_detailed++;

   if (kind == MtPeak) {
      Int i, n_old_peaks = 0;
      SizeT s_total = s->heap_szB + s->heap_extra_szB + s->stacks_szB;
      tl_assert(s_total > peak_snapshot_total_szB);
      set_peak(s_total);
      for (i = 0; i < n_snapshots; i++) {
         if (snapshots[i].kind == MtPeak) {
            snapshots[i].kind = MtNormal;
            n_old_peaks++;
         }
      }
      tl_assert(n_old_peaks <= 1);
   }

   n_snapshots++;
   generation++;
   wall_ms_of_last_snapshot = mt_time_wall_ms();
   if (n_snapshots == clo_max_snapshots) {
      min_time_interval = cull_snapshots();
      /* With ms, many events share a millisecond: a minimum interval of 0
         would keep taking (and culling) a snapshot per event, tens of
         thousands per second, for a timeline that cannot show them. At
         most one scheduled snapshot per ms. (B and i keep Massif's rule.) */
      if (clo_time_unit == TimeMS && min_time_interval < 1)
         min_time_interval = 1;
   }
   earliest_next_snapshot_time = now + min_time_interval;
}

/* True if the current total is a new peak by more than the inaccuracy. */
static Bool is_new_peak(void)
{
   SizeT excess_szB = (SizeT)((peak_snapshot_total_szB * clo_peak_inaccuracy)
                              / 100);
   return total_szB() > peak_snapshot_total_szB + excess_szB;
}

/* Before a deallocation (ms): the total is the top of a burst that has no
   snapshot yet (see the file comment). */
static Bool is_burst_top(Time now)
{
   SizeT total = total_szB();
   SizeT rise = burst_rise_szB;
   if (clo_burst_threshold >= 100)
      return False;
   if (burst_armed ? total < burst_floor_szB + rise
                   : total < burst_top_szB + rise)
      return False;
   /* At most one per half minimum interval, and never two in one ms. */
   return burst_time < 0
          || (now > burst_time && now - burst_time >= min_time_interval / 2);
}

static void note_burst_top(Time now)
{
   burst_armed = False;
   burst_top_szB = total_szB();
   burst_time = now;
}

void mt_snapshot_maybe(MtSnapshotKind kind)
{
   Time now;
   if (!started)
      return;
   refresh_stacks();
   now = mt_time_now();
   if (kind == MtNormal) {
      if (burst_end_due && now > burst_time) {
         burst_end_due = False;
         take_snapshot(MtNormal, now, True);
         return;
      }
      if (now < earliest_next_snapshot_time)
         return;
      take_snapshot(MtNormal, now,
                    n_snapshots_since_last_detailed == clo_detailed_freq - 1);
   } else {
      tl_assert(kind == MtPeak);
      if (is_new_peak()) {
         take_snapshot(MtPeak, now, True);
         note_burst_top(now);
      } else if (clo_time_unit == TimeMS && is_burst_top(now)) {
         take_snapshot(MtNormal, now, True);
         note_burst_top(now);
      }
   }
}

void mt_snapshot_startup(void)
{
   tl_assert(!started);
   started = True;
   mt_time_start();
   mt_snapshot_maybe(MtNormal);
}

void mt_snapshot_restart(void)
{
   Int i;
   if (!started)
      return;
   for (i = 0; i < n_snapshots; i++) {
      mt_tree_snap_delete(snapshots[i].xt);
      mt_stacks_sample_free(snapshots[i].stacks);
      clear_snapshot(&snapshots[i]);
   }
   n_snapshots = 0;
   set_peak(0);
   min_time_interval = 0;
   earliest_next_snapshot_time = 0;
   n_snapshots_since_last_detailed = 0;
   burst_armed = True;
   burst_floor_szB = total_szB();
   burst_time = -1;
   burst_end_due = False;
   refresh_stacks();
   mt_outline_restart(mt_time_now(), total_szB(),
                      live_heap_szB + live_extra_szB);
   take_snapshot(MtNormal, mt_time_now(), True);
}

Bool mt_snapshot_started(void)
{
   return started;
}

/* A sample's detail: on the --detailed-freq schedule, or when the heap
   changed since the last detailed snapshot (samples are at most one per
   --sample-interval, so this costs little). */
static Bool sample_is_detailed(void)
{
   return n_snapshots_since_last_detailed == clo_detailed_freq - 1
          || (clo_heap && (live_heap_szB != heap_szB_at_last_detailed
                           || live_extra_szB != extra_szB_at_last_detailed));
}

/* True when a clock-driven sample is due (ms only, --sample-interval). */
static Bool sample_due(void)
{
   return started && clo_time_unit == TimeMS && clo_sample_interval_ms != 0
          && mt_time_wall_ms() - wall_ms_of_last_snapshot
             >= (ULong)clo_sample_interval_ms;
}

void mt_snapshot_sample(void)
{
   Time now;
   if (!sample_due())
      return;
   refresh_stacks();
   now = mt_time_now();
   if (now < earliest_next_snapshot_time)
      return;
   take_snapshot(MtNormal, now, sample_is_detailed());
}

void mt_snapshot_before_block(void)
{
   Time now;
   if (!started || clo_time_unit != TimeMS || clo_sample_interval_ms == 0)
      return;
   refresh_stacks();
   now = mt_time_now();
   if (now <= snapshots[n_snapshots - 1].time
       || now < earliest_next_snapshot_time)
      return;
   take_snapshot(MtNormal, now, sample_is_detailed());
}

void mt_snapshot_catch_up(void)
{
   if (!sample_due())
      return;
   refresh_stacks();
   take_snapshot(MtNormal, mt_time_now(), sample_is_detailed());
}

void mt_snapshot_final(void)
{
   if (!started || clo_time_unit != TimeMS)
      return;
   refresh_stacks();
   take_snapshot(is_new_peak() ? MtPeak : MtNormal, mt_time_now(), True);
}

void mt_snapshot_rss_at_exit(void)
{
   Snapshot* s;
   if (!started || n_snapshots == 0)
      return;
   s = &snapshots[n_snapshots - 1];
   if (!s->rss.valid) {
      mt_rss_sample(&s->rss, s->time, live_heap_szB + live_extra_szB, True,
                    False, True);
      if (s->rss.valid) {
         mt_outline_rss(s->time, s->rss.anon_B + s->rss.file_B
                                 + s->rss.shmem_B);
         generation++;
      }
   }
}

void mt_snapshot_now(Bool detailed)
{
   if (!started)
      return;
   refresh_stacks();
   explicit_snapshot = True;
   take_snapshot(MtNormal, mt_time_now(), detailed);
   explicit_snapshot = False;
}

void mt_snapshot_touch(void)
{
   generation++;
}

ULong mt_snapshot_generation(void)
{
   return generation;
}

Time mt_snapshot_last_time(void)
{
   return n_snapshots > 0 ? snapshots[n_snapshots - 1].time : 0;
}

const HChar* mt_snapshot_top_node_desc(void)
{
   return clo_pages_as_heap
      ? "(page allocation syscalls) mmap/mremap/brk, --alloc-fns, etc."
      : "(heap allocation functions) malloc/new/new[], --alloc-fns, etc.";
}

Int mt_snapshot_count(void)
{
   return n_snapshots;
}

const MtTreeSnap* mt_snapshot_tree(Int n, Time* time)
{
   tl_assert(n >= 0 && n < n_snapshots);
   *time = snapshots[n].time;
   return snapshots[n].xt;
}

void mt_snapshot_print_all(MtFile* fp)
{
   Int i;
   for (i = 0; i < n_snapshots; i++) {
      const Snapshot* s = &snapshots[i];
      const Massif_Header header = {
         .snapshot_n    = i,
         .time          = s->time,
         .sz_B          = s->heap_szB,
         .extra_B       = s->heap_extra_szB,
         .stacks_B      = s->stacks_szB,
         .detailed      = s->xt != NULL,
         .peak          = s->kind == MtPeak,
         .top_node_desc = mt_snapshot_top_node_desc(),
         .sig_threshold = clo_threshold,
      };
      mt_tree_print(fp, s->xt, &header);
   }
}

void mt_snapshot_companion(MtFile* c)
{
   Int i;
   for (i = 0; i < n_snapshots; i++) {
      mt_stacks_companion_sample(c, i, snapshots[i].time, snapshots[i].stacks);
      mt_rss_companion_snapshot(c, i, snapshots[i].time, &snapshots[i].rss);
   }
}
