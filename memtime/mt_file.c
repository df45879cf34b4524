/* mt_file.c: the one writer of files (see mt_file.h for what it promises).

   Why not VgFile (VG_(fopen)/VG_(fprintf)/VG_(fclose), which the core's
   VG_(XT_massif_open) uses): its buffer is flushed with writes whose result
   is dropped, and its close returns nothing, so a full disk yields a
   truncated file that is then renamed over the last complete profile.
   Here every write(2) result is looked at, the data is fsync'ed before the
   rename (on a file system with delayed allocation a full disk may only
   show then, and after a crash of the machine a renamed but unsynced file
   can come back empty), and rename(2)'s errno is kept for the message.

   All of this runs on the tool side with the big lock held, between two
   stretches of client code: the client cannot close, dup2 over or read
   the descriptors used here, which live only inside one call. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "mt_compat.h"
#include "mt_file.h"
#include "mt_options.h"


/* Big enough that a multi-megabyte profile takes few system calls. */
#define MT_FILE_BUF_SZB   (64 * 1024)
/* Mode of created files, as the core's own output files (xt_open). */
#define MT_FILE_MODE      (VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP \
                           | VKI_S_IROTH)
/* --test-hook-pause: how often the paused writer looks for its file, and
   when it gives up waiting (a test that died must not hang the run). */
#define MT_PAUSE_POLL_MS  10
#define MT_PAUSE_MAX_MS   (10 * 60 * 1000)

struct MtFile {
   HChar*       path;     /* the real name */
   HChar*       tmp;      /* the temporary, NULL when written in place */
   Int          fd;       /* -1 once closed or if never opened */
   Int          err;      /* errno of the first failure, 0 if none */
   const HChar* op;       /* what failed: "create", "write", ... */
   SizeT        used;
   SizeT        cap;      /* of buf: MT_FILE_BUF_SZB, or growing in memory */
   Bool         memory;   /* mt_file_open_memory: no file, buf grows */
   HChar*       buf;
};

/*------------------------------------------------------------*/
/*--- Names                                                 ---*/
/*------------------------------------------------------------*/

Bool mt_file_is_special(const HChar* path)
{
   struct vg_stat st;
   HChar link[8];
   SysRes sr;
   /* /dev/stdout is a symlink to a regular file when stdout is redirected:
      a rename would replace the link itself. Any symlink is written
      through, in place, for the same reason. /dev/shm holds ordinary
      files (a TMPDIR may be there): they are written as any other. */
   if ((VG_(strncmp)(path, "/dev/", 5) == 0 && VG_(strncmp)(path, "/dev/shm/", 9) != 0)
       || VG_(strncmp)(path, "/proc/", 6) == 0
       || VG_(readlink)(path, link, sizeof link) >= 0)
      return True;
   sr = VG_(stat)(path, &st);
   return !sr_isError(sr) && !VKI_S_ISREG(st.mode);
}

HChar* mt_file_tmp_name(const HChar* path)
{
   const HChar* slash = VG_(strrchr)(path, '/');
   SizeT dir_len = slash ? (SizeT)(slash - path) + 1 : 0;
   SizeT n = VG_(strlen)(path) + 32;
   HChar* tmp = VG_(malloc)("mt.file.tmp", n);
   VG_(memcpy)(tmp, path, dir_len);
   VG_(snprintf)(tmp + dir_len, n - dir_len, ".%s.tmp.%d",
                 path + dir_len, VG_(getpid)());
   return tmp;
}

/*------------------------------------------------------------*/
/*--- Reasons                                               ---*/
/*------------------------------------------------------------*/

static HChar* reason = NULL;

/* "cannot <op> <name>: <error text>", kept until the next call. */
static const HChar* set_reason(const HChar* op, const HChar* name, Int err)
{
   const HChar* text = VG_(strerror)(err);
   SizeT n = VG_(strlen)(op) + VG_(strlen)(name) + VG_(strlen)(text) + 16;
   if (reason) VG_(free)(reason);
   reason = VG_(malloc)("mt.file.reason", n);
   VG_(snprintf)(reason, n, "cannot %s %s: %s", op, name, text);
   return reason;
}

static void fail(MtFile* f, const HChar* op, Int err)
{
   if (f->err != 0)
      return;           /* the first failure is the one to report */
   f->err = err;
   f->op = op;
}

static const HChar* name_of(const MtFile* f)
{
   return f->tmp ? f->tmp : f->path;
}

/*------------------------------------------------------------*/
/*--- The test hook                                         ---*/
/*------------------------------------------------------------*/

static HChar test_note[128] = "";

void mt_file_set_test_note(const HChar* note)
{
   VG_(snprintf)(test_note, sizeof test_note, "%s", note);
}

/* Writes "<what> pid=<pid> <note>\n" to path (appended if append). */
static Bool write_test_line(const HChar* path, const HChar* what,
                            Bool append)
{
   HChar line[sizeof test_note + 64];
   SysRes sr = VG_(open)(path, VKI_O_CREAT | VKI_O_WRONLY
                               | (append ? VKI_O_APPEND : VKI_O_TRUNC),
                         MT_FILE_MODE);
   if (sr_isError(sr))
      return False;
   VG_(snprintf)(line, sizeof line, "%s pid=%d %s\n", what, VG_(getpid)(),
                 test_note);
   VG_(write)(sr_Res(sr), line, VG_(strlen)(line));
   VG_(close)(sr_Res(sr));
   return True;
}

/* The test hooks at a point of a commit: --test-hook-log appends a line
   after every commit; --test-hook-pause=<point>:<file> creates <file> at
   <point> and waits until it is removed. */
static void test_hooks_at(MtTestPoint point, const HChar* what)
{
   UInt waited = 0;
   if (point == MtTestRewritten && clo_test_log_file != NULL)
      write_test_line(clo_test_log_file, what, True);
   if (clo_test_pause_point != point || clo_test_pause_file == NULL
       || !write_test_line(clo_test_pause_file, what, False))
      return;
   while (waited < MT_PAUSE_MAX_MS) {
      struct vg_stat st;
      if (sr_isError(VG_(stat)(clo_test_pause_file, &st)))
         return;
      VG_(poll)(NULL, 0, MT_PAUSE_POLL_MS);
      waited += MT_PAUSE_POLL_MS;
   }
}

/*------------------------------------------------------------*/
/*--- Writing                                               ---*/
/*------------------------------------------------------------*/

const HChar* mt_file_check_writable(const HChar* path)
{
   struct vg_stat st;
   SysRes sr;
   HChar* tmp;
   if (mt_file_is_special(path)) {
      if (!sr_isError(VG_(stat)(path, &st)) && VKI_S_ISFIFO(st.mode))
         return NULL;
      sr = VG_(open)(path, VKI_O_WRONLY, 0);
      if (sr_isError(sr))
         return VG_(strerror)(sr_Err(sr));
      VG_(close)(sr_Res(sr));
      return NULL;
   }
   tmp = mt_file_tmp_name(path);
   sr = VG_(open)(tmp, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC,
                  MT_FILE_MODE);
   if (sr_isError(sr)) {
      VG_(free)(tmp);
      return VG_(strerror)(sr_Err(sr));
   }
   VG_(close)(sr_Res(sr));
   VG_(unlink)(tmp);
   VG_(free)(tmp);
   return NULL;
}

MtFile* mt_file_open(const HChar* path)
{
   MtFile* f = VG_(malloc)("mt.file", sizeof *f);
   SysRes sr;
   f->path = VG_(strdup)("mt.file.path", path);
   f->tmp  = mt_file_is_special(path) ? NULL : mt_file_tmp_name(path);
   f->fd   = -1;
   f->err  = 0;
   f->op   = NULL;
   f->used = 0;
   f->cap  = MT_FILE_BUF_SZB;
   f->memory = False;
   f->buf  = VG_(malloc)("mt.file.buf", MT_FILE_BUF_SZB);
   sr = VG_(open)(name_of(f), VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC,
                  MT_FILE_MODE);
   if (sr_isError(sr))
      fail(f, "create", sr_Err(sr));
   else
      f->fd = sr_Res(sr);
   return f;
}

MtFile* mt_file_open_memory(void)
{
   MtFile* f = VG_(malloc)("mt.file", sizeof *f);
   f->path = NULL;
   f->tmp  = NULL;
   f->fd   = -1;
   f->err  = 0;
   f->op   = NULL;
   f->used = 0;
   f->cap  = 4096;
   f->memory = True;
   f->buf  = VG_(malloc)("mt.file.mem", f->cap);
   return f;
}

HChar* mt_file_memory_take(MtFile* f, SizeT* n)
{
   HChar* text;
   tl_assert(f->memory);
   *n = f->used;
   text = f->used > 0 ? VG_(realloc)("mt.file.mem", f->buf, f->used) : NULL;
   if (text == NULL)
      VG_(free)(f->buf);
   VG_(free)(f);
   return text;
}

const HChar* mt_file_path(const MtFile* f)
{
   return f->path;
}

/* Writes out the buffer; any failure (an error, or write(2) taking no
   byte) marks the file failed, and from then on data is dropped. In
   memory the buffer doubles instead. */
static void flush(MtFile* f)
{
   SizeT off = 0;
   if (f->memory) {
      f->cap *= 2;
      f->buf = VG_(realloc)("mt.file.mem", f->buf, f->cap);
      return;
   }
   while (off < f->used && f->err == 0) {
      Int n = VG_(write)(f->fd, f->buf + off, (Int)(f->used - off));
      if (n == -VKI_EINTR)
         continue;
      if (n < 0)
         fail(f, "write", -n);
      else if (n == 0)
         fail(f, "write", VKI_EIO);
      else
         off += n;
   }
   f->used = 0;
}

void mt_file_write(MtFile* f, const HChar* s, SizeT n)
{
   while (n > 0) {
      SizeT room = f->cap - f->used;
      SizeT k = n < room ? n : room;
      VG_(memcpy)(f->buf + f->used, s, k);
      f->used += k;
      s += k;
      n -= k;
      if (f->used == f->cap)
         flush(f);
   }
}

void mt_file_puts(MtFile* f, const HChar* s)
{
   mt_file_write(f, s, VG_(strlen)(s));
}

static void put_char(HChar c, void* opaque)
{
   MtFile* f = opaque;
   if (f->used == f->cap)
      flush(f);
   f->buf[f->used++] = c;
}

void mt_file_vprintf(MtFile* f, const HChar* fmt, va_list vargs)
{
   VG_(vcbprintf)(put_char, f, fmt, vargs);
}

void mt_file_printf(MtFile* f, const HChar* fmt, ...)
{
   va_list vargs;
   va_start(vargs, fmt);
   VG_(vcbprintf)(put_char, f, fmt, vargs);
   va_end(vargs);
}

/* Flushes, fsyncs (a temporary only: fsync of a pipe or a terminal fails)
   and closes f. */
static void finish(MtFile* f)
{
   if (f->fd < 0)
      return;
   flush(f);
   if (f->err == 0 && f->tmp != NULL) {
      SysRes sr = VG_(do_syscall)(__NR_fsync, f->fd, 0, 0, 0, 0, 0, 0, 0);
      if (sr_isError(sr))
         fail(f, "write", sr_Err(sr));
   }
   VG_(close)(f->fd);
   f->fd = -1;
}

static void free_file(MtFile* f)
{
   if (f->tmp) VG_(free)(f->tmp);
   VG_(free)(f->path);
   VG_(free)(f->buf);
   VG_(free)(f);
}

void mt_file_discard(MtFile* f)
{
   if (f == NULL)
      return;
   if (f->fd >= 0)
      VG_(close)(f->fd);
   if (f->tmp != NULL)
      VG_(unlink)(f->tmp);
   free_file(f);
}

Bool mt_file_commit(MtFile** files, UInt n, const HChar** why)
{
   UInt i;
   const MtFile* bad = NULL;

   for (i = 0; i < n; i++) {
      if (files[i] == NULL)
         continue;
      finish(files[i]);
      if (files[i]->err != 0 && bad == NULL)
         bad = files[i];
   }
   if (bad == NULL) {
      test_hooks_at(MtTestMidRewrite, "mid-rewrite");
      for (i = 0; i < n && bad == NULL; i++) {
         SysRes sr;
         MtFile* f = files[i];
         if (f == NULL || f->tmp == NULL)
            continue;
         sr = VG_(do_syscall)(__NR_rename, (UWord)f->tmp, (UWord)f->path,
                              0, 0, 0, 0, 0, 0);
         if (sr_isError(sr)) {
            fail(f, "rename", sr_Err(sr));
            bad = f;
            *why = set_reason("rename", f->tmp, sr_Err(sr));
            break;
         }
         /* Renamed: nothing to remove below. */
         VG_(free)(f->tmp);
         f->tmp = NULL;
      }
   } else {
      *why = set_reason(bad->op, name_of(bad), bad->err);
   }
   for (i = 0; i < n; i++) {
      if (files[i] == NULL)
         continue;
      if (bad != NULL && files[i]->tmp != NULL)
         VG_(unlink)(files[i]->tmp);
      free_file(files[i]);
   }
   if (bad == NULL) {
      *why = NULL;
      test_hooks_at(MtTestRewritten, "rewritten");
   }
   return bad == NULL;
}
