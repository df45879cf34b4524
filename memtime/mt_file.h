/* mt_file.h: the one writer of files in the tool. The profile, its
   companion and the files vgdb's monitor commands write all go through
   here; the modules that know what to say (mt_output, mt_companion,
   mt_monitor, mt_msprint) hand it text and never touch a file descriptor.

   What a writer promises:
   - A regular file (or a new one) is written whole to a temporary name in
     the same directory, "<dir>/.<base>.tmp.<pid>" (hidden from globs of the
     file's name, private to the process), fsync'ed, and renamed over the
     real name only when every byte was written: a reader, or a program
     killed at any moment, sees the previous complete file or the new one.
   - Every write is checked: a short write, a full disk, a failed fsync or
     rename makes the whole set of files fail together (the temporaries are
     removed, every previous file stays), and mt_file_commit says why.
   - A name that exists and is not a regular file (/dev/null, a FIFO, a
     terminal), anything under /dev or /proc, and a symlink are written in
     place: a rename would replace the device, or the link, with a file.
   - For tests only: --test-hook-pause=<point>:<file> makes every commit
     stop at <point> until <file> is gone, and --test-hook-log=<file> gets
     a line after every commit (docs/memtime.1, "FOR TESTS"). */
#ifndef MT_FILE_H
#define MT_FILE_H

#include "pub_tool_basics.h"

typedef struct MtFile MtFile;

/* True if path exists and is not a regular file, is a symlink, or is under
   /dev or /proc: such a file is written in place, never renamed over. */
Bool    mt_file_is_special(const HChar* path);
/* The temporary name for path (see above). Free with VG_(free). */
HChar*  mt_file_tmp_name(const HChar* path);
/* Checks, before the client runs, that path can be written: creates and
   removes its temporary (a special path is opened without truncating; a
   FIFO is not opened, which would end its reader's input). Returns NULL,
   or the error's text ("No such file or directory"). */
const HChar* mt_file_check_writable(const HChar* path);

/* Starts writing path. Never NULL: if the file cannot be created, the
   failure is kept, later writes do nothing and mt_file_commit reports it. */
MtFile* mt_file_open(const HChar* path);
/* A writer into memory, for text made once and written many times (a
   detailed snapshot's tree, at every rewrite): the same calls append to a
   growing buffer, which mt_file_memory_take hands over (VG_(malloc)ed,
   *n bytes, not terminated; NULL when empty) as it frees f. Such a file is
   never committed nor discarded. */
MtFile* mt_file_open_memory(void);
HChar*  mt_file_memory_take(MtFile* f, SizeT* n);
/* Appends text. No length limit; nothing is escaped. */
void    mt_file_write(MtFile* f, const HChar* buf, SizeT n);
void    mt_file_puts(MtFile* f, const HChar* s);
void    mt_file_printf(MtFile* f, const HChar* fmt, ...)
        __attribute__((format(printf, 2, 3)));
void    mt_file_vprintf(MtFile* f, const HChar* fmt, va_list vargs);
/* The path being written (the real name, not the temporary). */
const HChar* mt_file_path(const MtFile* f);

/* Ends files[0 .. n-1] (NULL entries are skipped), written as one set: if
   all were written whole, each is flushed, fsync'ed, closed, then renamed
   into place in array order, and True is returned. Otherwise nothing is
   renamed, the temporaries are removed, and False is returned with a
   one-line reason in *why (static, valid until the next call), e.g.
   "cannot write /out/.p.tmp.42: No space left on device". Frees the
   files either way. */
Bool    mt_file_commit(MtFile** files, UInt n, const HChar** why);
/* For tests: the text the test hooks add to their lines about the next
   commits (the writer of the profile says its times there). */
void    mt_file_set_test_note(const HChar* note);
/* Abandons f: removes its temporary, keeps the previous file. */
void    mt_file_discard(MtFile* f);

#endif /* MT_FILE_H */
