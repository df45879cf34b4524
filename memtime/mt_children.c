/* mt_children.c: fork and exec (see mt_children.h for what the user sees).

   Why an option carries the exec count: after exec the tool starts afresh
   in the same process, with nothing but its command line (the core passes
   on the options given on valgrind's command line, VG_(args_for_valgrind)
   past VG_(args_for_valgrind_noexecpass)). Our pre-exec hook runs before
   the core's execve wrapper builds the new command line, so appending an
   option there reaches the new image and nothing else. The option is
   replaced, not appended again, if an exec fails and the program execs
   once more. mt_options parses it (clo_exec_count); this module only
   reads it, and tells the output writer the name's suffix rather than
   rewriting --memtime-out-file. */
#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_xarray.h"

#include "mt_children.h"
#include "mt_compat.h"
#include "mt_options.h"
#include "mt_snapshot.h"
#include "mt_time.h"


static Int   exec_count = 0;          /* execs of this pid before this image */
static Int   image_exec_count = 0;    /* clo_exec_count: this image's suffix */
static Bool  is_forked_child = False; /* this process was forked under us */
/* mt_snapshot_heap_n_changes() at the fork: the child has a story of its
   own once it differs. Not the snapshot generation, which a time-driven
   sample or a catch-up snapshot (ms clock) also moves, depending on the
   machine's load between the fork and an exec. */
static ULong heap_changes_at_fork = 0;
static ULong wall_ms_at_fork = 0;     /* mt_time_wall_ms() then */
static Bool  warned_shared_name = False;

/* Whether every process writes the same expanded name: only %p tells
   processes apart (%n restarts for each pid; %q{VAR} is inherited). */
static Bool name_is_shared(void)
{
   return VG_(strstr)(clo_out_file, "%p") == NULL;
}

static void child_after_fork(ThreadId tid)
{
   is_forked_child = True;
   heap_changes_at_fork = mt_snapshot_heap_n_changes();
   wall_ms_at_fork = mt_time_wall_ms();
   exec_count = 0;            /* this pid has not exec'd yet */
   warned_shared_name = False;
}

void mt_children_post_clo_init(void)
{
   exec_count = image_exec_count = clo_exec_count;
   if (name_is_shared() && VG_(clo_trace_children))
      VG_(umsg)("warning: memtime: --memtime-out-file=%s%s has no %%p: a "
                "forked child writes the same file as its parent, so the file "
                "holds whichever process rewrote it last (each rewrite is a "
                "complete profile). Programs exec'd under "
                "--trace-children=yes write <name>.exec1, .exec2, ... "
                "Add %%p to the name for one profile per process.\n",
                clo_out_file, mt_children_out_suffix());
   VG_(atfork)(NULL, NULL, child_after_fork);
}

const HChar* mt_children_out_suffix(void)
{
   static HChar suffix[32];
   if (image_exec_count == 0)
      return "";
   VG_(snprintf)(suffix, sizeof suffix, ".exec%d", image_exec_count);
   return suffix;
}

void mt_children_before_write(const HChar* out_path)
{
   if (!is_forked_child || !name_is_shared() || warned_shared_name)
      return;
   warned_shared_name = True;
   VG_(umsg)("warning: memtime: process %d (forked by %d) writes its profile "
             "to %s, its parent's file: --memtime-out-file has no %%p, so the "
             "file holds whichever process rewrote it last.\n",
             VG_(getpid)(), VG_(getppid)(), out_path);
}

/* Passes "--memtime-exec-count=<exec_count + 1>" to the next image,
   replacing the entry an earlier image or a failed exec left (the new
   image would take the last one anyway, but the list should not grow). */
static void pass_exec_count(void)
{
   XArray* args = VG_(args_for_valgrind);
   HChar opt[64];
   HChar* copy;
   Word i, n = VG_(sizeXA)(args);
   VG_(snprintf)(opt, sizeof opt, MT_EXEC_COUNT_OPT "=%d", exec_count + 1);
   copy = VG_(strdup)("mt.children.opt", opt);
   for (i = 0; i < n; i++) {
      HChar** slot = VG_(indexXA)(args, i);
      if (VG_(strncmp)(*slot, MT_EXEC_COUNT_OPT "=",
                       sizeof MT_EXEC_COUNT_OPT) == 0) {
         *slot = copy;        /* the old string is the core's to keep */
         return;
      }
   }
   VG_(addToXA)(args, &copy);
}

Bool mt_children_pre_syscall(UInt sysno)
{
   if (sysno != __NR_execve && sysno != __NR_execveat)
      return False;
   pass_exec_count();
   /* A forked child that only execs has nothing of its own to show. */
   return !is_forked_child
          || mt_snapshot_heap_n_changes() != heap_changes_at_fork;
}

Bool mt_children_only_inherited(ULong ms)
{
   return is_forked_child
          && mt_snapshot_heap_n_changes() == heap_changes_at_fork
          && mt_time_wall_ms() - wall_ms_at_fork < ms;
}
