/* follow_state.c: a profile followed while it is written (follow_state.h).
 *
 * memtime rewrites the profile and its companion whole, each under a
 * temporary name renamed over the real one (companion first), so a file
 * opened by its name is always a complete version. A version is told by
 * the stat of the name (device, inode, size, mtime; read/follow_watch.c
 * watches the files, read/load.c reads them): a poll that finds the same
 * signatures as the last read does nothing, so following costs one stat of
 * each file per poll and one read per rewrite.
 *
 * Files not written that way (Massif writes its file in place at exit, a
 * user copies one over) can be caught mid-write: when the name's size or
 * mtime moved while it was read, it is read again at the next poll rather
 * than trusted. A file that stays cut short is shown as every command
 * shows one (read/load.h): what is there, with its warning.
 *
 * The two files may be one rewrite apart (the companion is renamed first).
 * That matters once the companion says the run is over: the profile's
 * final version follows at once, so the run is "over" only once the
 * profile read is no older than the companion (by mtime), or has not
 * changed for a few polls (a pair put in place by hand). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/chart_data.h"
#include "model/follow_state.h"
#include "model/sites.h"
#include "model/outline.h"
#include "read/companion.h"
#include "read/follow_watch.h"
#include "read/load.h"

/* Polls with an unchanged profile after which a companion newer than it is
 * taken as the pair's final state (see the file comment). */
#define SETTLE_POLLS 8

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

vis_follow_file *vis_follow_file_new(const char *path, const char *companion_path, int no_companion)
{
    vis_follow_file *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->path = dup_text(path);
    if (!no_companion)
        l->companion_path = companion_path ? dup_text(companion_path) : vis_companion_path(path);
    l->tree = l->latest_tree = l->first_tree = l->rss_now = SIZE_MAX;
    l->pid = -1;
    if (!l->path || (!no_companion && !l->companion_path)) {
        vis_follow_file_free(l);
        return NULL;
    }
    return l;
}

void vis_follow_file_set_grouping(vis_follow_file *l, const vis_group_opts *g)
{
    l->grouped = 1;
    l->group = *g;
}

static void drop_derived(vis_follow_file *l)
{
    free(l->sites);
    free(l->total_B);
    l->sites = NULL;
    l->total_B = NULL;
    l->n_sites = 0;
}

void vis_follow_file_free(vis_follow_file *l)
{
    if (!l)
        return;
    drop_derived(l);
    vis_profile_free(l->p);
    free(l->path);
    free(l->companion_path);
    free(l);
}

static vis_follow_state state_of(vis_follow_file *l);

/* The sites the view lists: the latest tree's, or the peak's once the run
 * is over (its end freed what it held: the peak says where memory went)
 * or while the latest tree holds nothing. 0 or -1 (out of memory). */
static int pick_sites(vis_follow_file *l)
{
    const vis_profile *p = l->p;
    free(l->sites);
    l->sites = NULL;
    l->n_sites = 0;
    l->tree = l->latest_tree;
    l->tree_is_peak = 0;
    int over = l->state != VIS_FOLLOW_RUNNING && l->state != VIS_FOLLOW_NO_RECORD;
    /* The largest tree; of equals, the file's marked peak, else the first
     * (mid-run the marked peak can lag behind, see vis_follow_file_peak). */
    size_t big = SIZE_MAX;
    for (size_t i = 0; i < p->n_snaps; i++) {
        const vis_snapshot *s = &p->snaps[i];
        if (s->kind == VIS_TREE_EMPTY)
            continue;
        if (big == SIZE_MAX || vis_snap_total(s) > vis_snap_total(&p->snaps[big]) ||
            (vis_snap_total(s) == vis_snap_total(&p->snaps[big]) && s->kind == VIS_TREE_PEAK))
            big = i;
    }
    if (l->tree != SIZE_MAX && (over || p->snaps[l->tree].heap_B == 0) && big != l->tree &&
        p->snaps[big].heap_B > 0) {
        l->tree = big;
        l->tree_is_peak = over ? 2 : 1;
    }
    if (l->tree != SIZE_MAX) {
        const vis_snapshot *s = &p->snaps[l->tree], *f = &p->snaps[l->first_tree];
        l->sites = calloc(s->n_sites + 1, sizeof *l->sites);
        if (!l->sites)
            return -1;
        for (size_t k = 0; k < s->n_sites; k++) {
            const vis_site *st = &s->sites[k];
            vis_follow_site *o = &l->sites[l->n_sites];
            if (st->bytes == 0)
                continue;
            l->n_sites++;
            o->now_B = st->bytes;
            if (st->is_below_threshold || st->id >= p->n_site_info) {
                o->name = st->label;
                continue;
            }
            /* Where --group-by lands, the sites are grouped here, before
             * the view ranks them. */
            o->name = p->site_info[st->id].name;
            o->has_growth = 1;
            o->growth_B = (int64_t)(st->bytes - vis_site_bytes(f, st->id));
        }
    }
    return 0;
}

/* What the view shows of a new good read: the latest and first trees, the
 * latest tree's sites with their growth, the series, the RSS now. 0 or -1
 * (out of memory). */
static int derive(vis_follow_file *l)
{
    const vis_profile *p = l->p;
    drop_derived(l);
    l->latest_tree = l->first_tree = l->rss_now = SIZE_MAX;
    for (size_t i = 0; i < p->n_snaps; i++)
        if (p->snaps[i].kind != VIS_TREE_EMPTY) {
            if (l->first_tree == SIZE_MAX)
                l->first_tree = i;
            l->latest_tree = i;
        }
    for (size_t i = p->n_snaps; p->rss && i-- > 0;)
        if (p->rss[i].valid) {
            l->rss_now = i;
            break;
        }
    l->pid = p->process.pid >= 0 ? p->process.pid : vis_proc_pid_from_name(l->path);
    l->state = state_of(l);
    if (pick_sites(l) != 0)
        return -1;
    /* The sparkline draws the chart's own series (chart_data.h), summed:
     * the same numbers as the PNG, wherever they come from. */
    char err[256];
    vis_chart_data *d = vis_chart_data_new(p, 0, err, sizeof err);
    if (!d || !(l->total_B = calloc(p->n_snaps, sizeof *l->total_B))) {
        vis_chart_data_free(d);
        return -1;
    }
    for (size_t i = 0; i < p->n_snaps; i++)
        for (size_t b = 0; b < d->n_bands; b++)
            l->total_B[i] += d->value_B[i * d->n_bands + b];
    vis_chart_data_free(d);
    return 0;
}

/* The run's state from the companion's records and the pid. */
static vis_follow_state state_of(vis_follow_file *l)
{
    const vis_profile *p = l->p;
    l->has_code = 0;
    if (!p)
        return VIS_FOLLOW_NO_RECORD;
    switch (p->end_record) {
    case VIS_END_RECORD_EXIT:
        l->has_code = p->process.end_kind == VIS_END_EXIT;
        l->end_code = p->process.end_code;
        return VIS_FOLLOW_EXITED;
    case VIS_END_RECORD_EXEC:
        return VIS_FOLLOW_EXECED;
    case VIS_END_RECORD_RUNNING:
        if (p->limit.present && p->limit.reached && p->limit.action == VIS_LIMIT_KILL)
            return VIS_FOLLOW_LIMIT_KILLED;
        if (vis_pid_gone(l->pid))
            return VIS_FOLLOW_KILLED;
        return VIS_FOLLOW_RUNNING;
    default:
        return VIS_FOLLOW_NO_RECORD;
    }
}

/* Records a failed read's message; 1 when it is news. */
static int set_error(vis_follow_file *l, const char *msg)
{
    if (!strcmp(l->error, msg))
        return 0;
    size_t n = strlen(msg);
    if (n >= sizeof l->error)
        n = sizeof l->error - 1;
    memcpy(l->error, msg, n);
    l->error[n] = '\0';
    return 1;
}

/* Reads both files through the one loader (read/load.h). Returns 1 with
 * a new good read in l (a file cut short is one, with its warnings), 0
 * when the profile moved while it was read (try again), -1 with err. */
static int read_pair(vis_follow_file *l, vis_file_sig *psig, char *err, size_t errsz)
{
    struct stat st;
    /* The companion is read when it exists: the live view waits for it. */
    vis_load_opts lo = { .companion = l->companion_path, .no_companion = !l->companion_path,
                         .companion_optional = 1, .st = &st };
    vis_profile *p = vis_load_profile(l->path, &lo, err, errsz);
    if (st.st_mode)
        vis_file_sig_of_stat(psig, &st);
    else
        memset(psig, 0, sizeof *psig);
    vis_file_sig now;
    vis_file_sig_of(l->path, &now);
    if (psig->exists && now.exists && now.dev == psig->dev && now.ino == psig->ino &&
        !vis_file_sig_eq(&now, psig)) {
        vis_profile_free(p);     /* written in place while we read it */
        return 0;
    }
    if (!p)
        return -1;
    /* Each read is a new profile: grouped again, as the last one was. */
    if (l->grouped && vis_profile_regroup(p, &l->group) != 0) {
        snprintf(err, errsz, "%s: out of memory", l->path);
        vis_profile_free(p);
        return -1;
    }
    vis_profile_free(l->p);
    l->p = p;
    l->p_mtime = st.st_mtim;
    l->n_warnings = 0;
    while (l->n_warnings < VIS_FOLLOW_MAX_WARNINGS &&
           vis_load_warning(p, l->n_warnings, l->warnings[l->n_warnings],
                            sizeof l->warnings[0]))
        l->n_warnings++;
    return 1;
}

int vis_follow_file_poll(vis_follow_file *l)
{
    vis_file_sig ps, cs;
    vis_file_sig_of(l->path, &ps);
    vis_file_sig_of(l->companion_path, &cs);
    int changed = 0;
    if (!ps.exists) {
        changed = !l->missing;
        l->missing = 1;
        l->prof_sig = ps;
        char msg[1200];
        snprintf(msg, sizeof msg, "%s: %s", l->path,
                 l->p ? "removed; waiting for it to come back" : "waiting for it to appear");
        return set_error(l, msg) || changed;
    }
    changed = l->missing;
    l->missing = 0;
    if (vis_file_sig_eq(&ps, &l->prof_sig) && vis_file_sig_eq(&cs, &l->comp_sig)) {
        int settles = l->unchanged_polls == SETTLE_POLLS - 1;
        if (l->unchanged_polls < SETTLE_POLLS)
            l->unchanged_polls++;
        /* Only the run's state can move: a process that vanished, a
         * companion that settles. */
        vis_follow_state s = state_of(l);
        changed |= s != l->state || settles;
        if (s != l->state) {
            l->state = s;
            if (pick_sites(l) != 0) {
                vis_profile_free(l->p);
                l->p = NULL;
                set_error(l, "out of memory");
            }
        }
        return changed;
    }
    char err[1024];
    vis_file_sig read_sig;
    int rc = read_pair(l, &read_sig, err, sizeof err);
    if (rc == 0)
        return changed;          /* moving: read it at the next poll */
    if (!vis_file_sig_eq(&read_sig, &l->prof_sig))
        l->unchanged_polls = 0;
    l->prof_sig = read_sig;
    l->comp_sig = cs;
    if (rc < 0)
        return set_error(l, err) || changed;
    l->generation++;
    l->error[0] = '\0';
    if (derive(l) != 0) {
        vis_profile_free(l->p);
        l->p = NULL;
        set_error(l, "out of memory");
    }
    return 1;
}

size_t vis_follow_file_peak(const vis_follow_file *l)
{
    const vis_profile *p = l->p;
    return vis_snap_total(&p->snaps[p->largest]) > vis_snap_total(&p->snaps[p->peak]) ? p->largest
                                                                                    : p->peak;
}

int vis_follow_file_over(const vis_follow_file *l)
{
    if (!l->p || l->error[0])
        return 0;
    switch (l->state) {
    case VIS_FOLLOW_EXITED:
    case VIS_FOLLOW_EXECED: {
        /* The profile's final version is renamed just after the companion
         * that says so (see the file comment). */
        struct stat cst;
        int settled = l->unchanged_polls >= SETTLE_POLLS || !l->companion_path ||
                      stat(l->companion_path, &cst) != 0 ||
                      !vis_time_before(l->p_mtime, cst.st_mtim);
        return settled;
    }
    case VIS_FOLLOW_KILLED:
    case VIS_FOLLOW_LIMIT_KILLED:
        return 1;
    default:
        return 0;
    }
}

const char *vis_follow_state_text(const vis_follow_file *l, char *buf, size_t n)
{
    const vis_profile *p = l->p;
    switch (l->state) {
    case VIS_FOLLOW_RUNNING:
        snprintf(buf, n, "running");
        break;
    case VIS_FOLLOW_EXITED:
        if (l->has_code)
            snprintf(buf, n, "ended: exit %d", l->end_code);
        else
            snprintf(buf, n, "ended at exit");
        break;
    case VIS_FOLLOW_EXECED:
        snprintf(buf, n, "ended: exec (the new image writes its own profile)");
        break;
    case VIS_FOLLOW_KILLED:
        snprintf(buf, n, "killed: no final rewrite, and pid %lld is gone", l->pid);
        break;
    case VIS_FOLLOW_LIMIT_KILLED: {
        char b[64];
        vis_fmt_bytes(b, sizeof b, p->limit.bytes);
        snprintf(buf, n, "killed by memtime at its heap limit (%s)", b);
        break;
    }
    default:
        snprintf(buf, n, p && p->companion ? "not recorded (the companion has no end: line)"
                                           : "not recorded (no companion file)");
        break;
    }
    return buf;
}

void vis_follow_file_time_range(const vis_follow_file *l, uint64_t *t0, uint64_t *t1)
{
    const vis_profile *p = l->p;
    *t0 = p->snaps[0].time;
    *t1 = p->snaps[p->n_snaps - 1].time;
    if (vis_outline_has(p) && p->outline.spans[p->outline.n - 1].end > *t1)
        *t1 = p->outline.spans[p->outline.n - 1].end;
}

/* The columns from the exact outline: each one's highest total. */
static uint64_t outline_columns(const vis_follow_file *l, size_t cols, uint64_t *out)
{
    uint64_t t0, t1, max = 0;
    vis_follow_file_time_range(l, &t0, &t1);
    vis_outline_index *x = vis_outline_index_new(&l->p->outline);
    if (!x)
        return 0;
    double step = (double)(t1 - t0) / (double)cols;
    for (size_t c = 0; c < cols; c++) {
        /* [a, b): the last column runs to t1 itself, the moment of the
         * last rewrite. */
        uint64_t a = t0 + (uint64_t)(step * (double)c);
        uint64_t b = c + 1 == cols ? t1 + 1 : t0 + (uint64_t)(step * (double)(c + 1));
        vis_outline_range r;
        out[c] = b > a && vis_outline_range_time(x, a, b, &r) == 0 ? r.max_B : 0;
        if (b <= a && c > 0)
            out[c] = out[c - 1];   /* narrower than a unit: as the one before */
        if (out[c] > max)
            max = out[c];
    }
    vis_outline_index_free(x);
    return max;
}

uint64_t vis_follow_file_columns(const vis_follow_file *l, size_t cols, uint64_t *out)
{
    const vis_profile *p = l->p;
    uint64_t max = 0;
    if (!p || !cols)
        return 0;
    if (vis_outline_has(p))
        return outline_columns(l, cols, out);
    uint64_t t0 = p->snaps[0].time, span = p->snaps[p->n_snaps - 1].time - t0;
    for (size_t c = 0; c < cols; c++)
        out[c] = UINT64_MAX;
    for (size_t i = 0; i < p->n_snaps; i++) {
        size_t c = span ? (size_t)((double)(p->snaps[i].time - t0) / (double)span *
                                   (double)(cols - 1) + 0.5)
                        : cols - 1;
        if (c >= cols)
            c = cols - 1;
        if (out[c] == UINT64_MAX || l->total_B[i] > out[c])
            out[c] = l->total_B[i];
        if (l->total_B[i] > max)
            max = l->total_B[i];
    }
    uint64_t prev = 0;
    for (size_t c = 0; c < cols; c++) {
        if (out[c] == UINT64_MAX)
            out[c] = prev;
        prev = out[c];
    }
    return max;
}

/* ---------------------------------------------------------- directory */

vis_follow_dir *vis_follow_dir_new(const char *dir)
{
    vis_follow_dir *d = calloc(1, sizeof *d);
    if (d && !(d->dir = dup_text(dir))) {
        free(d);
        return NULL;
    }
    if (d)
        d->procs.borrowed = 1;
    return d;
}

static void procs_clear(vis_procs *ps)
{
    for (size_t i = 0; i < ps->n; i++)
        free(ps->procs[i].path);
    free(ps->procs);
    ps->procs = NULL;
    ps->n = 0;
}

void vis_follow_dir_free(vis_follow_dir *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->n; i++) {
        free(d->e[i].name);
        vis_follow_file_free(d->e[i].live);
    }
    free(d->e);
    procs_clear(&d->procs);
    free(d->dir);
    free(d);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const vis_follow_entry *)a)->name, ((const vis_follow_entry *)b)->name);
}

/* Adds the profiles new in the directory, marks those still there. 1 when
 * the set changed, 0, or -1 with d->error. */
static int scan(vis_follow_dir *d)
{
    char **names;
    size_t n;
    if (vis_dir_names(d->dir, &names, &n, d->error, sizeof d->error) != 0)
        return -1;
    d->error[0] = '\0';
    for (size_t i = 0; i < d->n; i++)
        d->e[i].seen = 0;
    int changed = 0;
    for (size_t j = 0; j < n; j++) {
        size_t i = 0;
        while (i < d->n && strcmp(d->e[i].name, names[j]))
            i++;
        if (i < d->n) {
            d->e[i].seen = 1;
            continue;
        }
        /* Told a profile by its content once, when first seen. */
        size_t pn = strlen(d->dir) + strlen(names[j]) + 2;
        char *path = malloc(pn);
        if (!path)
            break;
        snprintf(path, pn, "%s/%s", d->dir, names[j]);
        vis_follow_entry *a = vis_load_is_profile(path) ? realloc(d->e, (d->n + 1) * sizeof *a)
                                                      : NULL;
        vis_follow_file *l = a ? vis_follow_file_new(path, NULL, 0) : NULL;
        free(path);
        if (a)
            d->e = a;
        if (!l)
            continue;
        d->e[d->n++] = (vis_follow_entry){ names[j], l, 1 };
        names[j] = NULL;
        changed = 1;
    }
    for (size_t j = 0; j < n; j++)
        free(names[j]);
    free(names);
    /* A profile removed from the directory leaves the listing. */
    size_t o = 0;
    for (size_t i = 0; i < d->n; i++) {
        if (d->e[i].seen) {
            d->e[o++] = d->e[i];
        } else {
            free(d->e[i].name);
            vis_follow_file_free(d->e[i].live);
            changed = 1;
        }
    }
    d->n = o;
    if (changed)
        qsort(d->e, d->n, sizeof *d->e, by_name);
    return changed;
}

int vis_follow_dir_poll(vis_follow_dir *d)
{
    char old[sizeof d->error];
    memcpy(old, d->error, sizeof old);
    int changed = scan(d);
    if (changed < 0)
        return strcmp(old, d->error) != 0;
    for (size_t i = 0; i < d->n; i++)
        changed |= vis_follow_file_poll(d->e[i].live);
    if (!changed)
        return 0;
    /* The good reads as processes, on one axis, endings completed from
     * their parents' records (processes.c). */
    procs_clear(&d->procs);
    char err[1024];
    for (size_t i = 0; i < d->n; i++)
        if (d->e[i].live->p &&
            vis_procs_add_profile(&d->procs, d->e[i].live->path, d->e[i].live->p, err,
                                  sizeof err) != 0) {
            snprintf(d->error, sizeof d->error, "%s", err);
            return 1;
        }
    if (d->procs.n && vis_procs_finish(&d->procs, err, sizeof err) != 0)
        snprintf(d->error, sizeof d->error, "%s", err);
    return 1;
}

const vis_follow_entry *vis_follow_dir_entry_of(const vis_follow_dir *d, const vis_proc *q)
{
    for (size_t i = 0; i < d->n; i++)
        if (d->e[i].live->p == q->profile)
            return &d->e[i];
    return NULL;
}
