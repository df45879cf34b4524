/* processes.c: the overview of a run of many processes (see processes.h):
 * one profile per process, each with the records memtime's companion keeps
 * about it (docs/file-format.md: process, command, title, fork,
 * child-ended, ended), put on one time axis.
 *
 * Times. Each profile's times count from its process's clock: a forked
 * child's are on its parent's, an exec'd image or a launched process starts
 * its own at 0. With the ms unit the companion gives the wall-clock time of
 * each clock's 0 (epoch_ms), so every profile is placed on one axis,
 * counted from the earliest start. Without it (Massif's files, other
 * units) each profile's own times are used as they are.
 *
 * How a process ended: its own `ended:` record (exit status), else its
 * parent's `child-ended:` record about it (the signal that killed it,
 * which no process can record about itself), else nothing is known (it
 * was killed before its parent reaped it, or it still runs).
 *
 * The profiles and their records come through the one loader
 * (read/load.c);
 * the listing and the chart are render/processes_list.c and
 * render/processes_chart.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/processes.h"
#include "read/follow_watch.h"
#include "read/load.h"


void vis_procs_free(vis_procs *ps)
{
    if (!ps)
        return;
    for (size_t i = 0; i < ps->n; i++) {
        if (!ps->borrowed)
            vis_profile_free(ps->procs[i].profile);
        free(ps->procs[i].path);
    }
    free(ps->procs);
    free(ps);
}

static char *dup_text(const char *s)
{
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    if (d)
        memcpy(d, s, n + 1);
    return d;
}

/* The pid at the end of a file name ("pg.4242.out" -> 4242), for profiles
 * without a companion; -1 if none. */
long long vis_proc_pid_from_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    long long best = -1;
    for (const char *s = base; *s; s++)
        if (*s >= '0' && *s <= '9' && (s == base || s[-1] == '.'))
            best = strtoll(s, NULL, 10);
    return best;
}

static int by_start(const void *va, const void *vb)
{
    const vis_proc *a = va, *b = vb;
    if (a->abs_start != b->abs_start)
        return a->abs_start < b->abs_start ? -1 : 1;
    return a->pid < b->pid ? -1 : a->pid > b->pid;
}

int vis_procs_add(vis_procs *ps, const char *path, const vis_load_opts *lo, char *err,
                  size_t errsz)
{
    vis_profile *p = vis_load_profile(path, lo, err, errsz);
    return p ? vis_procs_add_profile(ps, path, p, err, errsz) : -1;
}

int vis_procs_add_profile(vis_procs *ps, const char *path, vis_profile *p, char *err,
                          size_t errsz)
{
    vis_proc *a = realloc(ps->procs, (ps->n + 1) * sizeof *a);
    if (!a) {
        if (!ps->borrowed)
            vis_profile_free(p);
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    ps->procs = a;
    vis_proc *q = &a[ps->n++];
    memset(q, 0, sizeof *q);
    q->profile = p;
    if (!(q->path = dup_text(path))) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    q->pid = p->process.pid >= 0 ? p->process.pid : vis_proc_pid_from_name(path);
    q->parent = p->process.parent;
    q->end_kind = p->process.end_kind;
    q->end_code = p->process.end_code;
    if (p->rss_peak.present)
        q->rss_peak_B = p->rss_peak.anon_B + p->rss_peak.file_B + p->rss_peak.shmem_B;
    for (size_t i = 0; i < p->n_snaps; i++)
        if (vis_snap_total(&p->snaps[i]) > q->peak_B)
            q->peak_B = vis_snap_total(&p->snaps[i]);
    return 0;
}

int vis_procs_finish(vis_procs *ps, char *err, size_t errsz)
{
    if (ps->n == 0) {
        snprintf(err, errsz, "no profile to show");
        return -1;
    }
    ps->unit = ps->procs[0].profile->unit;
    int all_epoch = 1;
    for (size_t i = 0; i < ps->n; i++) {
        if (ps->procs[i].profile->unit != ps->unit) {
            snprintf(err, errsz, "%s: expected the time unit of %s, found another one",
                     ps->procs[i].path, ps->procs[0].path);
            return -1;
        }
        all_epoch &= ps->procs[i].profile->process.epoch_ms >= 0;
    }
    /* Each process's span on the shared axis (see the file comment). */
    long long origin = -1;
    for (size_t i = 0; i < ps->n; i++) {
        vis_proc *q = &ps->procs[i];
        const vis_profile *p = q->profile;
        long long shift = all_epoch ? q->profile->process.epoch_ms : 0;
        q->abs_start = shift + (long long)p->snaps[0].time;
        q->abs_end = shift + (long long)p->snaps[p->n_snaps - 1].time;
        if (origin < 0 || q->abs_start < origin)
            origin = q->abs_start;
    }
    for (size_t i = 0; i < ps->n; i++) {
        vis_proc *q = &ps->procs[i];
        q->abs_start -= origin;
        q->abs_end -= origin;
        /* How it ended, if it did not say: its parent's record of it. */
        for (size_t j = 0; q->end_kind == VIS_END_UNKNOWN && j < ps->n; j++) {
            const vis_process *parent = &ps->procs[j].profile->process;
            for (size_t k = 0; k < parent->n_child_ends; k++)
                if (parent->child_ends[k].pid == q->pid) {
                    q->end_kind = parent->child_ends[k].kind;
                    q->end_code = parent->child_ends[k].code;
                }
        }
    }
    qsort(ps->procs, ps->n, sizeof *ps->procs, by_start);
    return 0;
}

static const char *signal_name(int sig)
{
    static const char *const names[] = {
        [1] = "SIGHUP", [2] = "SIGINT", [3] = "SIGQUIT", [4] = "SIGILL", [6] = "SIGABRT",
        [7] = "SIGBUS", [8] = "SIGFPE", [9] = "SIGKILL", [11] = "SIGSEGV", [13] = "SIGPIPE",
        [14] = "SIGALRM", [15] = "SIGTERM",
    };
    return sig > 0 && sig < (int)(sizeof names / sizeof *names) && names[sig] ? names[sig] : NULL;
}

char *vis_proc_ending(const vis_proc *q, char *buf, size_t n)
{
    if (q->end_kind == VIS_END_EXIT)
        snprintf(buf, n, "exit %d", q->end_code);
    else if (q->end_kind == VIS_END_SIGNAL && signal_name(q->end_code))
        snprintf(buf, n, "killed (%s)", signal_name(q->end_code));
    else if (q->end_kind == VIS_END_SIGNAL)
        snprintf(buf, n, "killed (signal %d)", q->end_code);
    else
        snprintf(buf, n, "not recorded");
    return buf;
}

const char *vis_proc_name(const vis_proc *q)
{
    const vis_process *r = &q->profile->process;
    if (r->title)
        return r->title;
    return r->command ? r->command : q->profile->cmd;
}

int vis_procs_add_directory(vis_procs *ps, const char *dir, const vis_load_opts *lo, char *err,
                            size_t errsz)
{
    char **names;
    size_t n;
    if (vis_dir_names(dir, &names, &n, err, errsz) != 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        size_t pn = strlen(dir) + strlen(names[i]) + 2;
        char *path = rc == 0 ? malloc(pn) : NULL;
        if (rc == 0 && !path) {
            snprintf(err, errsz, "out of memory");
            rc = -1;
        }
        if (path) {
            snprintf(path, pn, "%s/%s", dir, names[i]);
            if (vis_load_is_profile(path) && vis_procs_add(ps, path, lo, err, errsz) != 0)
                rc = -1;
        }
        free(path);
        free(names[i]);
    }
    free(names);
    return rc;
}
