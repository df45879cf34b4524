/* mt_process.c: who this process is, for the companion file (see
   mt_process.h): how it began, its command line, the titles it gives
   itself, the children it forks and reaps, how it ends.

   Titles. Under Valgrind `ps` shows every process as valgrind.bin, so
   servers' own titles (PostgreSQL's "postgres: checkpointer") would be
   lost. Two ways a program renames itself are followed: prctl(PR_SET_NAME)
   (seen in the system-call hook), and rewriting its argv strings in place,
   as PostgreSQL, nginx and Redis do (only the client's copy changes: the
   string at the original argv[0] is read back at each rewrite of the
   profile and at each fork). argv[0]'s address is read from the initial
   stack (argc, then argv[]) when the client's first block is translated,
   before any of it runs.

   Endings. exit_group's status is recorded as the process ends. A death by
   a signal cannot be seen from inside (the tool is told only that the run
   ended): the parent records it when it reaps the child (wait4, waitid),
   and memtime-vis combines the two. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_xarray.h"

#include "mt_compat.h"
#include "mt_companion.h"
#include "mt_counts.h"
#include "mt_marks.h"
#include "mt_options.h"
#include "mt_process.h"
#include "mt_rss.h"
#include "mt_snapshot.h"
#include "mt_time.h"

#define TITLE_MAX 1024          /* bytes of a title kept (heap buffers) */
#define MT_PR_SET_NAME 15       /* linux/prctl.h */
/* siginfo_t's si_code for a child's end (asm-generic/siginfo.h): the
   core's Linux headers do not name them. */
#define MT_CLD_EXITED  1
#define MT_CLD_KILLED  2
#define MT_CLD_DUMPED  3

typedef enum { BeganLaunched, BeganFork, BeganExec } Began;

typedef struct { ULong time; HChar* text; const HChar* via; } Title;
typedef struct { ULong time; Int pid; Bool signalled; Int code; } ChildEnd;
typedef struct { ULong time; Int pid; } Fork;

static Int    my_pid, parent_pid, forked_from;
static Began  began = BeganLaunched;
static ULong  start_time;
static Addr   argv0_addr;       /* 0: unknown */
static HChar* argv0_initial;    /* the string there at start-up */
static XArray* titles;          /* Title */
static XArray* forks;           /* Fork */
static XArray* child_ends;      /* ChildEnd */
static Bool   ended;
static ULong  end_time;
static Int    exit_code;
static Bool   fork_pending;     /* atfork parent handler ran: the next
                                   system call result is the child's pid */

static ULong now(void)
{
   return mt_snapshot_started() ? (ULong)mt_time_now() : 0;
}

static Bool client_readable(Addr a, SizeT n)
{
   return a != 0 && VG_(am_is_valid_for_client)(a, n, VKI_PROT_READ);
}

/* The title as the program last set it, or NULL if it never did. */
static const HChar* last_title(void)
{
   Word n = VG_(sizeXA)(titles);
   return n > 0 ? ((Title*)VG_(indexXA)(titles, n - 1))->text : NULL;
}

static void add_title(const HChar* text, const HChar* via)
{
   Title t;
   const HChar* last = last_title();
   if (text[0] == '\0' || (last != NULL && VG_(strcmp)(last, text) == 0))
      return;
   t.time = now();
   t.text = VG_(strdup)("mt.process.title", text);
   t.via = via;
   VG_(addToXA)(titles, &t);
   mt_snapshot_touch();   /* the companion changed */
}

/* argv rewritten in place: the string at argv[0] differs from the one the
   process started with. Trailing blanks (PostgreSQL pads) are dropped. */
static void read_argv_title(void)
{
   HChar* buf;
   SizeT n;
   if (argv0_addr == 0 || argv0_initial == NULL)
      return;
   buf = VG_(malloc)("mt.process.argv", TITLE_MAX + 1);
   mt_marks_copy_client_string(argv0_addr, buf, TITLE_MAX + 1);
   n = VG_(strlen)(buf);
   while (n > 0 && buf[n - 1] == ' ')
      buf[--n] = '\0';
   if (VG_(strcmp)(buf, argv0_initial) != 0)
      add_title(buf, "argv");
   VG_(free)(buf);
}

static XArray* new_list(const HChar* cc, SizeT elem)
{
   return VG_(newXA)(VG_(malloc), cc, VG_(free), elem);
}

static void before_fork(ThreadId tid)
{
   read_argv_title();   /* the child starts with the title as it is now */
}

static void parent_after_fork(ThreadId tid)
{
   fork_pending = True;
}

static void child_after_fork(ThreadId tid)
{
   Word i, n = VG_(sizeXA)(titles);
   HChar* keep = NULL;
   const HChar* keep_via = NULL;
   /* The child's profile starts here (mt_snapshot_restart), so do its
      records: the parent's forks, reaped children and marks are the
      parent's; the title in force is kept, stamped with the fork. */
   for (i = 0; i < n; i++) {
      Title* t = VG_(indexXA)(titles, i);
      if (i == n - 1) {
         keep = t->text;
         keep_via = t->via;
      } else {
         VG_(free)(t->text);
      }
   }
   VG_(dropTailXA)(titles, n);
   VG_(dropTailXA)(forks, VG_(sizeXA)(forks));
   VG_(dropTailXA)(child_ends, VG_(sizeXA)(child_ends));
   if (clo_time_unit == TimeMS && mt_snapshot_started())
      mt_time_tick(0, True);   /* the fork's time, not the cached one */
   forked_from = my_pid;
   parent_pid = my_pid;
   my_pid = VG_(getpid)();
   began = BeganFork;
   fork_pending = False;
   ended = False;
   if (clo_rss)
      mt_rss_forget_peak();
   mt_counts_restart();
   mt_snapshot_restart();
   start_time = now();
   mt_marks_clear();
   if (keep != NULL) {
      add_title(keep, keep_via);
      VG_(free)(keep);
   }
}

void mt_process_init(void)
{
   my_pid = VG_(getpid)();
   parent_pid = VG_(getppid)();
   began = clo_exec_count > 0 ? BeganExec : BeganLaunched;
   titles = new_list("mt.process.titles", sizeof(Title));
   forks = new_list("mt.process.forks", sizeof(Fork));
   child_ends = new_list("mt.process.ends", sizeof(ChildEnd));
   VG_(atfork)(before_fork, parent_after_fork, child_after_fork);
}

void mt_process_startup(void)
{
   Addr sp = VG_(get_SP)(1);
   UWord argc, argv0;
   if (client_readable(sp, 2 * sizeof(UWord))) {
      argc = *(UWord*)sp;
      argv0 = *(UWord*)(sp + sizeof(UWord));
      if (argc >= 1 && client_readable(argv0, 1)) {
         argv0_addr = argv0;
         argv0_initial = VG_(malloc)("mt.process.argv0", TITLE_MAX + 1);
         mt_marks_copy_client_string(argv0_addr, argv0_initial, TITLE_MAX + 1);
      }
   }
}

Bool mt_process_has_story(void)
{
   return VG_(clo_trace_children) || began != BeganLaunched
          || VG_(sizeXA)(forks) > 0 || VG_(sizeXA)(titles) > 0
          || VG_(sizeXA)(child_ends) > 0;
}

void mt_process_pre_syscall(UInt sysno, UWord* args)
{
   if (sysno == __NR_exit_group) {
      ended = True;
      end_time = now();
      exit_code = (Int)(args[0] & 0xff);
   } else if (sysno == __NR_prctl && args[0] == MT_PR_SET_NAME
              && VG_(gettid)() == VG_(getpid)()) {
      /* Only the main thread's name is the process's (ps, /proc/PID/comm);
         other threads naming themselves (worker pools) are not titles. */
      HChar name[17];   /* the kernel keeps 16 bytes with the NUL */
      mt_marks_copy_client_string(args[1], name, sizeof name);
      add_title(name, "prctl");
   }
}

static void add_child_end(Int pid, Bool signalled, Int code)
{
   ChildEnd e;
   Word i;
   for (i = 0; i < VG_(sizeXA)(child_ends); i++)
      if (((ChildEnd*)VG_(indexXA)(child_ends, i))->pid == pid)
         return;   /* WNOWAIT, then the real wait */
   e.time = now();
   e.pid = pid;
   e.signalled = signalled;
   e.code = code;
   VG_(addToXA)(child_ends, &e);
   mt_snapshot_touch();   /* the companion changed */
}

void mt_process_post_syscall(UInt sysno, UWord* args, SysRes res)
{
   if (fork_pending) {
      fork_pending = False;
      if (!sr_isError(res) && sr_Res(res) > 0) {
         Fork f;
         HChar label[32];
         f.pid = (Int)sr_Res(res);
         VG_(snprintf)(label, sizeof label, "fork %d", f.pid);
         mt_marks_add(label);   /* reads the clock afresh */
         f.time = now();
         VG_(addToXA)(forks, &f);
      }
   }
   if (sr_isError(res))
      return;
   if (sysno == __NR_wait4 && (Int)sr_Res(res) > 0
       && client_readable(args[1], sizeof(Int))) {
      Int status = *(Int*)args[1];
      Int low = status & 0x7f;
      if (low == 0)
         add_child_end((Int)sr_Res(res), False, (status >> 8) & 0xff);
      else if (low != 0x7f)
         add_child_end((Int)sr_Res(res), True, low);
   } else if (sysno == __NR_waitid && client_readable(args[2], 28)) {
      /* siginfo_t: si_code at 8; si_pid at 16, si_status at 24 */
      const UChar* si = (const UChar*)args[2];
      Int code = *(const Int*)(si + 8), pid = *(const Int*)(si + 16);
      Int st = *(const Int*)(si + 24);
      if (pid > 0 && code == MT_CLD_EXITED)
         add_child_end(pid, False, st);
      else if (pid > 0 && (code == MT_CLD_KILLED || code == MT_CLD_DUMPED))
         add_child_end(pid, True, st);
   }
}

/* A copy of s with control characters and backslashes escaped as in the
   profile's cmd: line (\n \t \r \\ \xHH), so a record stays one line. */
static HChar* escaped(const HChar* s)
{
   static const HChar hex[] = "0123456789abcdef";
   SizeT i, n = 0;
   HChar *e, *o;
   for (i = 0; s[i] != '\0'; i++)
      n += (UChar)s[i] < 0x20 || s[i] == 0x7f ? 4 : s[i] == '\\' ? 2 : 1;
   e = o = VG_(malloc)("mt.process.esc", n + 1);
   for (i = 0; s[i] != '\0'; i++) {
      UChar c = (UChar)s[i];
      if (c == '\\' || c == '\n' || c == '\t' || c == '\r') {
         *o++ = '\\';
         *o++ = c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' : '\\';
      } else if (c < 0x20 || c == 0x7f) {
         *o++ = '\\';
         *o++ = 'x';
         *o++ = hex[c >> 4];
         *o++ = hex[c & 15];
      } else {
         *o++ = (HChar)c;
      }
   }
   *o = '\0';
   return e;
}

void mt_process_companion(MtFile* c)
{
   HChar* e;
   Word i;
   if (c == NULL)
      return;
   read_argv_title();
   {
      HChar epoch[48] = "";
      if (clo_time_unit == TimeMS && mt_snapshot_started()) {
         /* The wall-clock time of this profile's time 0, so the profiles
            of several processes can share one time axis. */
         struct vki_timeval tv;
         if (VG_(gettimeofday)(&tv, NULL) == 0)
            VG_(snprintf)(epoch, sizeof epoch, " epoch_ms=%llu",
                          (ULong)tv.tv_sec * 1000 + tv.tv_usec / 1000
                          - (ULong)mt_time_now());
      }
      if (began == BeganFork) {
         mt_companion_record(c, MtRecProcess, "pid=%d parent=%d start=%llu%s began=fork of %d",
                             my_pid, parent_pid, start_time, epoch, forked_from);
      } else if (began == BeganExec) {
         e = escaped(VG_(args_the_exename));
         mt_companion_record(c, MtRecProcess, "pid=%d parent=%d start=%llu%s began=exec of %s",
                             my_pid, parent_pid, start_time, epoch, e);
         VG_(free)(e);
      } else {
         mt_companion_record(c, MtRecProcess, "pid=%d parent=%d start=%llu%s began=launched",
                             my_pid, parent_pid, start_time, epoch);
      }
   }
   {
      SizeT n = VG_(strlen)(VG_(args_the_exename)) + 1;
      HChar* cmd;
      for (i = 0; i < VG_(sizeXA)(VG_(args_for_client)); i++)
         n += 1 + VG_(strlen)(*(HChar**)VG_(indexXA)(VG_(args_for_client), i));
      cmd = VG_(malloc)("mt.process.cmd", n);
      VG_(strcpy)(cmd, VG_(args_the_exename));
      for (i = 0; i < VG_(sizeXA)(VG_(args_for_client)); i++) {
         VG_(strcat)(cmd, " ");
         VG_(strcat)(cmd, *(HChar**)VG_(indexXA)(VG_(args_for_client), i));
      }
      e = escaped(cmd);
      mt_companion_record(c, MtRecCommand, "%s", e);
      VG_(free)(e);
      VG_(free)(cmd);
   }
   for (i = 0; i < VG_(sizeXA)(titles); i++) {
      const Title* t = VG_(indexXA)(titles, i);
      e = escaped(t->text);
      mt_companion_record(c, MtRecTitle, "time=%llu via=%s %s", t->time,
                          t->via, e);
      VG_(free)(e);
   }
   for (i = 0; i < VG_(sizeXA)(forks); i++) {
      const Fork* f = VG_(indexXA)(forks, i);
      mt_companion_record(c, MtRecFork, "time=%llu child=%d", f->time, f->pid);
   }
   for (i = 0; i < VG_(sizeXA)(child_ends); i++) {
      const ChildEnd* ce = VG_(indexXA)(child_ends, i);
      mt_companion_record(c, MtRecChildEnded, "time=%llu pid=%d %s=%d", ce->time,
                          ce->pid, ce->signalled ? "signal" : "exit", ce->code);
   }
   if (ended)
      mt_companion_record(c, MtRecEnded, "time=%llu exit=%d", end_time,
                          exit_code);
}
