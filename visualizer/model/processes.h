/* processes.h: several profiles of one run, one per process (a server's
 * postmaster and its children), read with their companions and placed on
 * one time axis, for the one-line-per-process listing
 * (render/processes_text.h) and the all-processes chart
 * (render/processes_chart.h). */
#ifndef MT_PROCESSES_H
#define MT_PROCESSES_H

#include <stddef.h>
#include <stdint.h>
#include "model/profile.h"

struct vis_load_opts;   /* read/load.h */

typedef struct {
    char *path;
    vis_profile *profile;      /* with its companion's records (profile->process) */
    long long pid, parent;     /* -1: unknown; the pid from the file name
                                  when the companion has none */
    vis_end_kind end_kind;     /* its own "ended:", else its parent's
                                  "child-ended:" about it */
    int end_code;              /* exit status or signal number */
    uint64_t peak_B;           /* largest total (heap + extra + stacks) */
    uint64_t rss_peak_B;       /* the companion's rss-peak (anon + file + shmem), 0: none */
    long long abs_start, abs_end;  /* on the shared axis, from the first start */
} vis_proc;

typedef struct {
    vis_proc *procs;
    size_t n;
    vis_unit unit;
    int borrowed;              /* the profiles are the caller's (--follow's
                                  live reads): vis_procs_free leaves them */
} vis_procs;

/* Reads the profile at path and its companion's process records through
 * the one loader, as lo says (read/load.h; a profile cut short is added,
 * carrying its warning). 0, or -1 with "PATH:LINE: expected ..., found
 * ..." (or another one-line reason) in err. */
int vis_procs_add(vis_procs *ps, const char *path, const struct vis_load_opts *lo, char *err,
                  size_t errsz);
/* Adds the profile p read from path, with its companion: owned by ps
 * unless ps->borrowed. 0, or -1 with err (out of memory). */
int vis_procs_add_profile(vis_procs *ps, const char *path, vis_profile *p, char *err,
                          size_t errsz);
/* Adds every profile in directory dir, in name order, as vis_procs_add:
 * the regular files in a format memtime-vis reads (vis_load_is_profile),
 * except companions (*.memtime) and rewrites in progress (.NAME.tmp.PID).
 * 0, or -1 with err. */
int vis_procs_add_directory(vis_procs *ps, const char *dir, const struct vis_load_opts *lo, char *err,
                            size_t errsz);
/* Places every process on one axis, completes endings from the parents'
 * records, sorts by start. 0, or -1 with err (no profile, mixed units). */
int vis_procs_finish(vis_procs *ps, char *err, size_t errsz);
void vis_procs_free(vis_procs *ps);

/* The pid at the end of a file name ("pg.4242.out" -> 4242, memtime's
 * default "memtime.out.4242"), -1 if none. */
long long vis_proc_pid_from_name(const char *path);
/* "exit 3", "killed (SIGKILL)", "not recorded". */
char *vis_proc_ending(const vis_proc *q, char *buf, size_t n);
/* The title it last gave itself, else its command line. */
const char *vis_proc_name(const vis_proc *q);

#endif
