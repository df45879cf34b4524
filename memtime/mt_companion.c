/* mt_companion.c: keeps the phase marks and writes "<profile>.memtime", the
   companion file holding what the Massif format cannot (marks, per-thread
   stacks). The format and the rewrite protocol are in mt_companion.h and
   docs/file-format.md.

   Writes go through a small buffer onto a plain file descriptor rather than
   VgFile, because VgFile's close cannot report a failed write: a full disk
   must leave the previous companion in place, not a truncated one. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#include "mt_options.h"
#include "mt_stacks.h"
#include "mt_companion.h"
#include "mt_output.h"

/*------------------------------------------------------------*/
/*--- Marks                                                ---*/
/*------------------------------------------------------------*/

typedef struct { ULong time; HChar* label; } Mark;

static Mark* marks;
static UInt  n_marks, max_marks;

void mt_companion_add_mark(ULong time, const HChar* label)
{
   HChar* copy;
   Int i;
   if (n_marks == max_marks) {
      max_marks = max_marks ? 2 * max_marks : 16;
      marks = VG_(realloc)("mt.companion.marks", marks, max_marks * sizeof *marks);
   }
   copy = VG_(strdup)("mt.companion.label", label ? label : "");
   /* One mark, one line: control characters (a newline would start a new,
      bogus line) become spaces. */
   for (i = 0; copy[i]; i++)
      if ((UChar)copy[i] < 0x20 || copy[i] == 0x7f) copy[i] = ' ';
   marks[n_marks].time  = time;
   marks[n_marks].label = copy;
   n_marks++;
}

UInt mt_companion_n_marks(void) { return n_marks; }

/*------------------------------------------------------------*/
/*--- Buffered, checked output                             ---*/
/*------------------------------------------------------------*/

struct MtCompanion {
   Int    fd;
   Bool   failed;       /* a write failed: don't rename */
   HChar* tmp_path;
   HChar* path;
   UInt   used;
   HChar  buf[8192];
};

static void flush(MtCompanion* c)
{
   UInt off = 0;
   while (off < c->used && !c->failed) {
      Int n = VG_(write)(c->fd, c->buf + off, c->used - off);
      if (n <= 0) c->failed = True; else off += n;
   }
   c->used = 0;
}

static void put(MtCompanion* c, const HChar* s)
{
   while (*s) {
      if (c->used == sizeof c->buf) flush(c);
      c->buf[c->used++] = *s++;
   }
}

/* Lines are short except mark labels (put directly) and stacks: lines
   (written field by field), so a fixed scratch buffer is enough. */
static void putf(MtCompanion* c, const HChar* fmt, ...)
   __attribute__((format(printf, 2, 3)));
static void putf(MtCompanion* c, const HChar* fmt, ...)
{
   HChar line[256];
   va_list vargs;
   va_start(vargs, fmt);
   VG_(vsnprintf)(line, sizeof line, fmt, vargs);
   va_end(vargs);
   put(c, line);
}

/*------------------------------------------------------------*/
/*--- Rewrites                                             ---*/
/*------------------------------------------------------------*/

static const HChar* base_name(const HChar* path)
{
   const HChar* slash = VG_(strrchr)(path, '/');
   return slash ? slash + 1 : path;
}

MtCompanion* mt_companion_open(const HChar* profile_path, const HChar* time_unit)
{
   /* The companion path already cleared of a stale file (see below). */
   static HChar* checked_path = NULL;
   MtCompanion* c;
   SizeT len = VG_(strlen)(profile_path);
   HChar* path = VG_(malloc)("mt.companion.path", len + sizeof ".memtime");
   const HChar* base = base_name(profile_path);
   SysRes sr;
   UInt i, n_threads;

   VG_(sprintf)(path, "%s.memtime", profile_path);
   if (!clo_stacks && n_marks == 0) {
      /* Nothing to say. A companion of the same name left by an earlier run
         would be read with this profile: remove it, once per name (after
         that nobody but us writes it; a forked child has a new name). */
      if (checked_path == NULL || VG_(strcmp)(checked_path, path) != 0) {
         VG_(unlink)(path);
         if (checked_path) VG_(free)(checked_path);
         checked_path = path;
      } else {
         VG_(free)(path);
      }
      return NULL;
   }

   c = VG_(malloc)("mt.companion", sizeof *c);
   c->path = path;
   /* "<dir>/.<base>.memtime.tmp.<pid>", like the profile's own temporary. */
   c->tmp_path = mt_output_tmp_name(path);
   c->used = 0;
   c->failed = False;
   sr = VG_(open)(c->tmp_path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC,
                  VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP | VKI_S_IROTH);
   if (sr_isError(sr)) {
      VG_(umsg)("warning: memtime: cannot create %s; the companion file "
                "(marks, per-thread stacks) is not updated\n", c->tmp_path);
      VG_(free)(c->tmp_path);
      VG_(free)(c->path);
      VG_(free)(c);
      return NULL;
   }
   c->fd = sr_Res(sr);

   put(c, "memtime-companion: 1\n");
   putf(c, "profile: %s\n", base);
   putf(c, "time_unit: %s\n", time_unit);
   n_threads = mt_stacks_n_threads_seen();
   if (clo_stacks) mt_stacks_refresh_names();
   for (i = 1; i <= n_threads; i++) {
      const HChar* name = mt_stacks_thread_name(i);
      if (name) putf(c, "thread: tid=%u name=%s\n", i, name);
      else      putf(c, "thread: tid=%u\n", i);
   }
   for (i = 0; i < n_marks; i++) {
      putf(c, "mark: time=%llu ", marks[i].time);
      put(c, marks[i].label);
      put(c, "\n");
   }
   return c;
}

void mt_companion_snapshot(MtCompanion* c, UInt snapshot_n, ULong time,
                           const MtStackSample* s)
{
   UInt i;
   if (c == NULL || s == NULL) return;
   putf(c, "stacks: snapshot=%u time=%llu", snapshot_n, time);
   for (i = 0; i < s->n_threads; i++)
      putf(c, " %u=%lu", s->threads[i].thread_no, s->threads[i].szB);
   put(c, "\n");
}

Bool mt_companion_close(MtCompanion* c)
{
   Bool ok;
   if (c == NULL) return True;
   flush(c);
   VG_(close)(c->fd);
   ok = !c->failed && VG_(rename)(c->tmp_path, c->path) == 0;
   if (!ok) {
      VG_(umsg)("warning: memtime: could not write %s; the previous "
                "companion file, if any, is left unchanged\n", c->path);
      VG_(unlink)(c->tmp_path);
   }
   VG_(free)(c->tmp_path);
   VG_(free)(c->path);
   VG_(free)(c);
   return ok;
}
