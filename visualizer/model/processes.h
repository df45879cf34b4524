/* processes.h: several profiles of one run, one per process (a server's
 * postmaster and its children), read with the companion's process records
 * and placed on one time axis: the one-line-per-process listing and the
 * all-processes chart (processes.c). */
#ifndef MT_PROCESSES_H
#define MT_PROCESSES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "model/profile.h"

typedef enum { VIS_END_UNKNOWN, VIS_END_EXIT, VIS_END_SIGNAL } vis_end_kind;

typedef struct {
    long long pid;
    vis_end_kind kind;
    int code;
} vis_child_end;

typedef struct {
    char *path;
    vis_profile *profile;
    long long pid, parent;     /* -1: unknown */
    long long start, epoch_ms; /* the companion's start= and epoch_ms=, -1: none */
    char *began;               /* "launched", "fork of N", "exec of PATH" or NULL */
    char *command, *title;     /* NULL when not recorded */
    vis_end_kind end_kind;
    int end_code;              /* exit status or signal number */
    vis_child_end *child_ends; /* what it recorded about its children */
    size_t n_child_ends;
    uint64_t peak_B;           /* largest total (heap + extra + stacks) */
    uint64_t rss_peak_B;       /* the companion's rss-peak (anon + file + shmem), 0: none */
    long long abs_start, abs_end;  /* on the shared axis, from the first start */
} vis_proc;

typedef struct {
    vis_proc *procs;
    size_t n;
    vis_unit unit;
} vis_procs;

/* Reads the profile at path and its companion's process records. 0, or -1
 * with "PATH:LINE: expected ..., found ..." (or another one-line reason)
 * in err. */
int vis_procs_add(vis_procs *ps, const char *path, char *err, size_t errsz);
/* Places every process on one axis, completes endings from the parents'
 * records, sorts by start. 0, or -1 with err (no profile, mixed units). */
int vis_procs_finish(vis_procs *ps, char *err, size_t errsz);
void vis_procs_free(vis_procs *ps);

/* "exit 3", "killed (SIGKILL)", "not recorded". */
char *vis_proc_ending(const vis_proc *q, char *buf, size_t n);
/* The title it last gave itself, else its command line. */
const char *vis_proc_name(const vis_proc *q);

/* One line per process, in start order: pid, parent, start, end, how it
 * ended, peak heap, peak RSS (where the companion has it, else "-"), title. */
void vis_procs_list(FILE *out, const vis_procs *ps);
/* The all-processes chart as PNG. */
int vis_procs_write_png(const vis_procs *ps, int width, int height, const char *path,
                        char *err, size_t errsz);

#endif
