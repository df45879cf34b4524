/* follow_state.h: a profile followed while memtime still writes it (--follow): the
 * last complete read of the profile and its companion, re-read when either
 * file changes on disk, and what the live view shows of it (the numbers now
 * and at the peak so far, the run's series for the sparkline, the top sites
 * of the latest tree with their growth since the first, how the run ended).
 * Also a directory of such profiles, one per process.
 *
 * A read that fails (a file that is not a profile, garbage put in its
 * place, a companion that breaks its grammar) never replaces the last good
 * one: the view keeps showing that, with the read's message, and shows the
 * file again as soon as a good version of it is back. A file cut short is
 * a good read, with its warnings (read/load.h). The live view is "follow"
 * in each of its parts: the loop and the terminal follow.c, the watching
 * of the files read/follow_watch.c, this state, and the renderer
 * render/follow_view.c. */
#ifndef VIS_FOLLOW_STATE_H
#define VIS_FOLLOW_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include "model/processes.h"
#include "model/groups.h"
#include "model/profile.h"
#include "read/follow_watch.h"

/* How the followed run stands, from the companion's end:, ended: and
 * heap-limit: records and, while it says the process runs, whether its pid
 * is still there. */
typedef enum {
    VIS_FOLLOW_NO_RECORD,      /* no end: line (no companion yet, Massif's file,
                                an older memtime): nothing known */
    VIS_FOLLOW_RUNNING,        /* end: none, and the process is there (or its
                                pid is not known) */
    VIS_FOLLOW_EXITED,         /* end: exit (end_code with has_code) */
    VIS_FOLLOW_EXECED,         /* end: exec: the image was replaced */
    VIS_FOLLOW_KILLED,         /* end: none and the process is gone: killed
                                before a final rewrite (SIGKILL, OOM) */
    VIS_FOLLOW_LIMIT_KILLED    /* end: none after --heap-limit=...,kill was reached */
} vis_follow_state;

/* One row of the top sites: a site of the latest tree (of the peak's once
 * the run is over, or while the latest holds nothing). */
typedef struct {
    const char *name;        /* the chart's name for it (vis_site_info.name),
                                or the "in N places" line's label */
    uint64_t now_B;          /* in the latest tree */
    int has_growth;          /* a site (not a below-threshold line) */
    int64_t growth_B;        /* since the first tree of the file */
} vis_follow_site;

/* A profile and its companion: at most one warning each. */
#define VIS_FOLLOW_MAX_WARNINGS 2

typedef struct {
    char *path;              /* the profile */
    char *companion_path;    /* NULL with --no-companion */
    vis_file_sig prof_sig, comp_sig;   /* the versions last read */
    vis_profile *p;          /* the last good read, NULL before the first */
    struct timespec p_mtime; /* that read's profile mtime (when memtime wrote it) */
    unsigned generation;     /* counts good reads */
    char error[1024];        /* why the last read failed; "" after a good one */
    size_t n_warnings;       /* the last good read's files cut short ... */
    char warnings[VIS_FOLLOW_MAX_WARNINGS][2048];  /* ... their warnings
                                (vis_load_warning): shown, as by every
                                command, with what was read */
    int missing;             /* the profile does not exist (yet, or any more) */
    /* Derived from p at each good read: */
    size_t latest_tree, first_tree; /* the latest and first detailed snapshots,
                                       SIZE_MAX: none */
    size_t tree;             /* the sites' tree: the latest, or the peak's */
    int tree_is_peak;        /* tree is the peak's: 1, the latest tree is
                                empty; 2, the run is over */
    size_t n_sites;
    vis_follow_site *sites;    /* the latest tree's sites, largest first */
    uint64_t *total_B;       /* p->n_snaps totals: the chart's series, summed */
    size_t rss_now;          /* the latest snapshot with an RSS reading, SIZE_MAX: none */
    long long pid;           /* the process: companion, else the file name; -1 */
    vis_follow_state state;
    int has_code;            /* VIS_FOLLOW_EXITED: end_code is the exit status */
    int end_code;
    unsigned unchanged_polls;/* polls since the profile last changed */
    int grouped;             /* regroup each read as group says (groups.h) */
    vis_group_opts group;
} vis_follow_file;

/* Starts following path (nothing is read yet). companion_path NULL: the
 * default beside it; no_companion: none. NULL when out of memory. */
vis_follow_file *vis_follow_file_new(const char *path, const char *companion_path, int no_companion);
/* --group-by and its options: every read from now on is regrouped
 * (vis_profile_regroup) before its sites are picked, so the live view's
 * top sites are the groups. */
void vis_follow_file_set_grouping(vis_follow_file *l, const vis_group_opts *g);
void vis_follow_file_free(vis_follow_file *l);

/* Looks at the files and re-reads them when either changed. Returns 1 when
 * what the view shows changed (a new good read, a new problem, the run's
 * state), else 0. */
int vis_follow_file_poll(vis_follow_file *l);

/* The peak so far: the snapshot the file marks as its peak, unless a later
 * one holds more (memtime marks its peak when it takes a detailed snapshot
 * of it, so mid-run the mark can lag behind the largest total). */
size_t vis_follow_file_peak(const vis_follow_file *l);

/* Whether the run is over and the files final: it exited, exec'd or was
 * killed, and the profile's last rewrite is read. */
int vis_follow_file_over(const vis_follow_file *l);

/* "running", "exit 3", "ended at exit", "exec", "killed (no final
 * rewrite; pid 1234 is gone)", "killed at its heap limit" ... in buf. */
const char *vis_follow_state_text(const vis_follow_file *l, char *buf, size_t n);

/* The sparkline's time axis: from the first snapshot to the last one, or
 * to the exact outline's end when the profile has an outline reaching
 * further. */
void vis_follow_file_time_range(const vis_follow_file *l, uint64_t *t0, uint64_t *t1);

/* The sparkline's columns: cols values over vis_follow_file_time_range. With
 * memtime's exact outline, each column's highest total in its slice of
 * time (outline.h: bursts between snapshots show at their true height; 0
 * before the outline starts); else the largest total of the snapshots
 * falling in each column's slice (a column no snapshot falls in holds the
 * one before it). Returns the largest value, 0 when out of memory. */
uint64_t vis_follow_file_columns(const vis_follow_file *l, size_t cols, uint64_t *out);

/* ---------------------------------------------------------- directory */

/* One profile of a followed directory. */
typedef struct {
    char *name;              /* the file name in the directory */
    vis_follow_file *live;
    int seen;                /* found in the last scan */
} vis_follow_entry;

typedef struct {
    char *dir;
    size_t n;
    vis_follow_entry *e;       /* name order */
    vis_procs procs;         /* the good reads as processes (borrowed
                                profiles): endings from parents' records */
    char error[1024];        /* the directory cannot be read */
} vis_follow_dir;

vis_follow_dir *vis_follow_dir_new(const char *dir);
void vis_follow_dir_free(vis_follow_dir *d);
/* Scans the directory and polls every profile in it (regular files whose
 * first line is "desc:", not companions, not rewrites in progress). Returns
 * 1 when anything shown changed. */
int vis_follow_dir_poll(vis_follow_dir *d);
/* The entry whose good read is process q of d->procs. */
const vis_follow_entry *vis_follow_dir_entry_of(const vis_follow_dir *d, const vis_proc *q);

#endif
