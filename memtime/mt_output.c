/* mt_output.c: when and under which name the profile is written (see
   mt_output.h); the writing itself is mt_file's, the profile's text
   mt_msprint's, and the companion's each module's own records, called
   here in one fixed order (companion_records) through mt_companion's
   plain line writer.

   Names: --memtime-out-file is expanded (%p, %n, %q{VAR}, %%) once per
   process: %n would otherwise give every periodic rewrite a new name, and
   after fork() the child must get its own %p name, so the name is expanded
   again only when the pid changes. An exec'd image adds the suffix
   mt_children gives (".exec1", ...).

   A special name (mt_file.h: /dev/null, a FIFO, a symlink) is written
   once, at exit: it has no directory of its own to hold a companion, and a
   FIFO's reader wants one profile.

   Failures: a rewrite that fails (full disk, directory gone or read-only)
   leaves the previous complete profile and companion in place. The user
   is warned once, at the first failure, and told once when a rewrite
   succeeds again; later failures stay quiet (when culling shrinks the
   profile on a nearly full disk, rewrites fail and succeed in turn, and a
   message each time would bury the program's output), unless the final
   write at exit fails. Rewrites are retried on the usual
   schedule, each attempt counting as a write for the back-off, so a disk
   that stays full does not cost a rewrite at every client-code hook. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"

#include "mt_children.h"
#include "mt_companion.h"
#include "mt_counts.h"
#include "mt_detail.h"
#include "mt_file.h"
#include "mt_limit.h"
#include "mt_marks.h"
#include "mt_msprint.h"
#include "mt_options.h"
#include "mt_outline.h"
#include "mt_output.h"
#include "mt_process.h"
#include "mt_allocstats.h"
#include "mt_rss.h"
#include "mt_snapshot.h"
#include "mt_stacks.h"
#include "mt_time.h"

/* A rewrite waits at least this many times the last one's cost, so no
   more than about 1/20 = 5% of the run goes to rewriting. */
#define MT_REWRITE_BACKOFF       20
/* Before a long wait: no rewrite if one happened this recently (ms). */
#define MT_BLOCK_FLUSH_MIN_MS    100
#define MT_NO_GENERATION         ((ULong)-1)

static HChar* out_path = NULL;   /* expanded name, for out_pid */
static Int    out_pid  = -1;
static Bool   out_special = False;

static ULong  written_generation = MT_NO_GENERATION;
static Bool   attempted = False;      /* a write was tried in this process */
static ULong  last_attempt_ms = 0;
static ULong  last_cost_ms = 0;
static Bool   failing = False;        /* the last write failed */
static UInt   n_failed = 0;           /* writes failed in this run of them */
static Bool   warned = False;         /* the one warning was given */
static Bool   recovered = False;      /* a write succeeded after a failure */

/* (Re)computes out_path for the current process. */
static void set_paths(void)
{
   Int pid = VG_(getpid)();
   const HChar* suffix = mt_children_out_suffix();
   HChar* expanded;

   if (out_path != NULL && pid == out_pid)
      return;
   if (out_path) VG_(free)(out_path);
   out_pid  = pid;
   expanded = VG_(expand_file_name)("--memtime-out-file", clo_out_file);
   out_path = VG_(malloc)("mt.output.path",
                          VG_(strlen)(expanded) + VG_(strlen)(suffix) + 1);
   VG_(sprintf)(out_path, "%s%s", expanded, suffix);
   VG_(free)(expanded);
   out_special = mt_file_is_special(out_path);
   /* A forked child starts its own record of writes. */
   attempted = False;
   failing = warned = recovered = False;
   n_failed = 0;
}

void mt_output_post_clo_init(void)
{
   const HChar* why;
   set_paths();
   why = mt_file_check_writable(out_path);
   if (why != NULL) {
      VG_(fmsg)("memtime: cannot write the output file %s: %s\n",
                out_path, why);
      VG_(exit)(1);
   }
}

/* The outline up to the time of this rewrite. */
static void outline_companion(MtFile* c)
{
   mt_outline_companion(c, mt_snapshot_started() ? mt_time_now() : 0);
}

/* The companion's records, in the order a rewrite writes them (that of
   MtRecord in mt_companion.h): each module writes its own. 'due' says
   whether the module has something to record; a companion is written
   when one has, and then holds every module's records. NULL: records that
   only come beside others' (a snapshot's stacks: and rss: records need
   --stacks=yes or a reading, which make the companion due already). */
static const struct {
   Bool (*due)(void);
   void (*write)(MtFile* c);
} companion_records[] = {
   { mt_stacks_any,        mt_stacks_companion },     /* thread: */
   { mt_marks_any,         mt_marks_companion },      /* mark: */
   { mt_counts_any,        mt_counts_companion },     /* site:, end: */
   { mt_process_has_story, mt_process_companion },    /* process: .. ended: */
   { mt_limit_any,         mt_limit_companion },      /* heap-limit: */
   { NULL,                 mt_snapshot_companion },   /* stacks:, rss: */
   { mt_rss_any,           mt_rss_companion_peak },   /* rss-peak: .. */
   { mt_allocstats_any,    mt_allocstats_companion }, /* allocator: .. */
   { mt_outline_any,       outline_companion },       /* outline: .. */
   { mt_detail_any,        mt_detail_companion },     /* detail: .. */
};
#define N_COMPANION_RECORDS \
   (sizeof companion_records / sizeof companion_records[0])

/* The companion of the profile at path, or NULL (and a stale one removed)
   when no module has anything to record. */
static MtFile* write_companion(const HChar* path)
{
   MtFile* c;
   UInt i;
   Bool due = False;
   for (i = 0; i < N_COMPANION_RECORDS && !due; i++)
      due = companion_records[i].due != NULL && companion_records[i].due();
   if (!due) {
      mt_companion_none(path);
      return NULL;
   }
   c = mt_companion_open(path, mt_time_unit_name());
   for (i = 0; i < N_COMPANION_RECORDS; i++)
      companion_records[i].write(c);
   return c;
}

/* The profile at path, with its companion if asked, as one set. */
static Bool write_files(const HChar* path, Bool with_companion,
                        const HChar** why)
{
   MtFile* files[2] = { NULL, NULL };
   HChar note[96];
   /* For the test hooks: the present and the end of what is written, in
      the profile's time unit. */
   VG_(snprintf)(note, sizeof note, "time=%lld last=%lld",
                 mt_snapshot_started() ? (Long)mt_time_now() : 0LL,
                 (Long)mt_snapshot_last_time());
   mt_file_set_test_note(note);
   if (with_companion)
      /* The companion first: once the profile is renamed into place, its
         companion is at least as recent. */
      files[0] = write_companion(path);
   files[1] = mt_file_open(path);
   mt_ms_print_file_header(files[1], mt_args_for_desc, mt_time_unit_name());
   mt_snapshot_print_all(files[1]);
   return mt_file_commit(files, 2, why);
}

Bool mt_output_write_file(const HChar* path, const HChar** why)
{
   return write_files(path, !mt_file_is_special(path), why);
}

/* The profile under its own name, with the failure reports. */
static void write_profile(Bool final)
{
   const HChar* why;
   UInt t0 = VG_(read_millisecond_timer)();
   Bool ok;

   set_paths();
   if (!out_special)
      mt_children_before_write(out_path);
   ok = write_files(out_path, !out_special, &why);
   attempted = True;
   last_attempt_ms = mt_time_wall_ms();
   last_cost_ms = VG_(read_millisecond_timer)() - t0;
   if (ok) {
      written_generation = mt_snapshot_generation();
      if (failing && !recovered)
         VG_(umsg)("memtime: %s is written again, after %u failed "
                   "rewrite%s; later failures, if any, are only reported "
                   "if the final write fails\n",
                   out_path, n_failed, n_failed == 1 ? "" : "s");
      recovered = recovered || failing;
      failing = False;
      n_failed = 0;
      return;
   }
   if (out_special)
      /* Written once, at exit, in place: there is no earlier profile. */
      VG_(umsg)("warning: memtime: %s; the profile is lost\n", why);
   else if (!warned)
      VG_(umsg)("warning: memtime: %s; %s keeps its previous complete "
                "profile, if any. memtime retries at each rewrite and says "
                "so when one succeeds; if none does, that is the profile "
                "this run leaves.\n", why, out_path);
   else if (final && recovered)
      VG_(umsg)("warning: memtime: the final profile could not be written "
                "(%s); %s holds the last complete one\n", why, out_path);
   warned = True;
   failing = True;
   n_failed++;
}

void mt_output_write(void)
{
   write_profile(False);
}

void mt_output_write_final(void)
{
   write_profile(True);
}

/* True when periodic writes are on and at least min_interval_ms (or
   MT_REWRITE_BACKOFF times the last write's cost) passed since the last
   attempt. The first write is never delayed: the profile is small then,
   and from there on a SIGKILL (even one during a later, bigger rewrite)
   always finds a complete profile under the real name. */
static Bool write_due(ULong min_interval_ms)
{
   ULong interval_ms = min_interval_ms;
   if (clo_flush_interval_ms == 0 || out_special)
      return False;
   if (interval_ms < MT_REWRITE_BACKOFF * last_cost_ms)
      interval_ms = MT_REWRITE_BACKOFF * last_cost_ms;
   return !attempted || mt_time_wall_ms() - last_attempt_ms >= interval_ms;
}

void mt_output_maybe_flush(void)
{
   set_paths();
   if (!write_due(clo_flush_interval_ms)
       || mt_children_only_inherited(clo_flush_interval_ms))
      return;
   /* With the ms clock time passes even when nothing is allocated: end
      the profile now, not at the last snapshot (see mt_snapshot.h). */
   mt_snapshot_catch_up();
   if (written_generation == mt_snapshot_generation())
      return;
   mt_output_write();
}

void mt_output_flush_before_block(void)
{
   set_paths();
   if (!write_due(MT_BLOCK_FLUSH_MIN_MS))
      return;
   /* As for a periodic rewrite: the file ends near the present. */
   mt_snapshot_catch_up();
   if (written_generation == mt_snapshot_generation())
      return;
   mt_output_write();
}

void mt_output_before_exec(void)
{
   /* An execve that fails once it reached us leaves the program running
      and may be retried: if nothing changed since, the profile on disk is
      current, and another final snapshot would only repeat the last one.
      (Attempts on missing files, as execvp() makes along PATH, fail in
      Valgrind's own checks and never get here.) */
   static ULong generation_at_exec = MT_NO_GENERATION;
   if (!mt_snapshot_started() || mt_snapshot_generation() == generation_at_exec)
      return;
   if (clo_time_unit == TimeMS) {
      mt_time_tick(0, True);
      mt_snapshot_final();
   }
   mt_output_write();
   generation_at_exec = mt_snapshot_generation();
}
