/* follow_watch.h: the file watching of --follow: which version of a file is
 * on disk (one stat per look, no read), whether a process is still there,
 * and which files of a directory are profiles. The live view (model/
 * follow_state.c) reads a file again only when its version moved. */
#ifndef VIS_FOLLOW_WATCH_H
#define VIS_FOLLOW_WATCH_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

/* What identifies one version of a file on disk: a rewrite renamed into
 * place is a new inode; a file written in place changes size or mtime. */
typedef struct {
    int exists;
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
} vis_file_sig;

/* The version st describes; the version at path (exists 0 when there is
 * no file, or path is NULL). */
void vis_file_sig_of_stat(vis_file_sig *s, const struct stat *st);
void vis_file_sig_of(const char *path, vis_file_sig *s);
int vis_file_sig_eq(const vis_file_sig *a, const vis_file_sig *b);
/* Whether a comes before b. */
int vis_time_before(struct timespec a, struct timespec b);

/* Whether no process has pid (kill(pid, 0) fails with ESRCH only then);
 * 0 for pid <= 0. */
int vis_pid_gone(long long pid);

/* The names in directory dir that may be profiles, in name order: all but
 * companions (*.memtime) and dot files (rewrites in progress). The caller
 * tells the profiles among them (vis_load_is_profile: the live view only
 * for names it has not seen, so a profile garbage replaced stays listed,
 * with its error). *names (free each, then the array) and *n; 0, or -1
 * with "DIR: cannot open: ..." or "out of memory" in err. */
int vis_dir_names(const char *dir, char ***names, size_t *n, char *err, size_t errsz);

#endif
