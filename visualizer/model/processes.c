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
 * was killed before its parent reaped it, or it still runs). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "base/canvas.h"
#include "base/font.h"
#include "base/png_file.h"
#include "model/processes.h"
#include "read/massif.h"
#include "render/report.h"


void vis_procs_free(vis_procs *ps)
{
    if (!ps)
        return;
    for (size_t i = 0; i < ps->n; i++) {
        vis_proc *q = &ps->procs[i];
        vis_profile_free(q->profile);
        free(q->title);
        free(q->command);
        free(q->began);
        free(q->path);
        free(q->child_ends);
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

/* "key=<digits>" inside a record's text; -1 when absent. */
static long long key_num(const char *text, const char *key)
{
    size_t kl = strlen(key);
    for (const char *s = text; (s = strstr(s, key)) != NULL; s++)
        if ((s == text || s[-1] == ' ') && s[kl] == '=' && s[kl + 1] >= '0' && s[kl + 1] <= '9')
            return strtoll(s + kl + 1, NULL, 10);
    return -1;
}

/* Reads the process records of the companion at path into q. A missing
 * companion leaves q as it is. Returns 0, or -1 when out of memory. */
static int read_records(vis_proc *q, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = 0;
    while (rc == 0 && (n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] == '\n')
            line[--n] = '\0';
        if (!strncmp(line, "process: ", 9)) {
            const char *t = line + 9;
            q->pid = key_num(t, "pid");
            q->parent = key_num(t, "parent");
            q->start = key_num(t, "start");
            q->epoch_ms = key_num(t, "epoch_ms");
            const char *b = strstr(t, " began=");
            free(q->began);
            if (b && !(q->began = dup_text(b + 7)))
                rc = -1;
        } else if (!strncmp(line, "command: ", 9)) {
            free(q->command);
            if (!(q->command = dup_text(line + 9)))
                rc = -1;
        } else if (!strncmp(line, "title: ", 7)) {
            /* "title: time=T via=V TEXT": the last one is the process's */
            const char *t = strstr(line + 7, " via=");
            t = t ? strchr(t + 1, ' ') : NULL;
            free(q->title);
            q->title = NULL;
            if (t && !(q->title = dup_text(t + 1)))
                rc = -1;
        } else if (!strncmp(line, "rss-peak: ", 10)) {
            long long an = key_num(line + 10, "anon"), fi = key_num(line + 10, "file"),
                      sh = key_num(line + 10, "shmem");
            if (an >= 0 && fi >= 0 && sh >= 0)
                q->rss_peak_B = (uint64_t)(an + fi + sh);
        } else if (!strncmp(line, "ended: ", 7)) {
            q->end_kind = VIS_END_EXIT;
            q->end_code = (int)key_num(line + 7, "exit");
        } else if (!strncmp(line, "child-ended: ", 13)) {
            vis_child_end e = { key_num(line + 13, "pid"), 0, 0 };
            long long sig = key_num(line + 13, "signal");
            e.kind = sig >= 0 ? VIS_END_SIGNAL : VIS_END_EXIT;
            e.code = (int)(sig >= 0 ? sig : key_num(line + 13, "exit"));
            vis_child_end *a = realloc(q->child_ends, (q->n_child_ends + 1) * sizeof *a);
            if (!a) {
                rc = -1;
            } else {
                q->child_ends = a;
                a[q->n_child_ends++] = e;
            }
        }
    }
    free(line);
    fclose(f);
    return rc;
}

/* The pid at the end of a file name ("pg.4242.out" -> 4242), for profiles
 * without a companion; -1 if none. */
static long long pid_from_name(const char *path)
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

int vis_procs_add(vis_procs *ps, const char *path, char *err, size_t errsz)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        snprintf(err, errsz, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    vis_profile *p = vis_massif_read(in, path, err, errsz);
    fclose(in);
    if (!p)
        return -1;
    vis_proc *a = realloc(ps->procs, (ps->n + 1) * sizeof *a);
    if (!a) {
        vis_profile_free(p);
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    ps->procs = a;
    vis_proc *q = &a[ps->n++];
    memset(q, 0, sizeof *q);
    q->profile = p;
    q->pid = q->parent = q->start = q->epoch_ms = -1;
    q->path = dup_text(path);
    size_t cn = strlen(path) + sizeof ".memtime";
    char *cpath = malloc(cn);
    if (!q->path || !cpath || (snprintf(cpath, cn, "%s.memtime", path), read_records(q, cpath)) != 0) {
        free(cpath);
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    free(cpath);
    if (q->pid < 0)
        q->pid = pid_from_name(path);
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
        all_epoch &= ps->procs[i].epoch_ms >= 0;
    }
    /* Each process's span on the shared axis (see the file comment). */
    long long origin = -1;
    for (size_t i = 0; i < ps->n; i++) {
        vis_proc *q = &ps->procs[i];
        const vis_profile *p = q->profile;
        long long shift = all_epoch ? q->epoch_ms : 0;
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
        for (size_t j = 0; q->end_kind == VIS_END_UNKNOWN && j < ps->n; j++)
            for (size_t k = 0; k < ps->procs[j].n_child_ends; k++)
                if (ps->procs[j].child_ends[k].pid == q->pid) {
                    q->end_kind = ps->procs[j].child_ends[k].kind;
                    q->end_code = ps->procs[j].child_ends[k].code;
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
    if (q->title)
        return q->title;
    return q->command ? q->command : q->profile->cmd;
}

void vis_procs_list(FILE *out, const vis_procs *ps)
{
    char a[64], b[64], c[64], d[64];
    fprintf(out, "%d processes, times from the first start (%s)\n", (int)ps->n,
            ps->unit == VIS_UNIT_MS ? "ms clock" : "each profile's own clock");
    fprintf(out, "%8s %8s %10s %10s %-18s %11s %11s  %s\n", "PID", "PARENT", "START", "END",
            "ENDED", "PEAK HEAP", "PEAK RSS", "TITLE");
    for (size_t i = 0; i < ps->n; i++) {
        const vis_proc *q = &ps->procs[i];
        char pid[24], parent[24], rss[64] = "-";
        if (q->rss_peak_B)
            vis_fmt_bytes(rss, sizeof rss, q->rss_peak_B);
        snprintf(pid, sizeof pid, "%lld", q->pid);
        snprintf(parent, sizeof parent, q->parent >= 0 ? "%lld" : "-", q->parent);
        fprintf(out, "%8s %8s %10s %10s %-18s %11s %11s  %s\n", pid, parent,
                vis_fmt_time(a, sizeof a, ps->unit, (uint64_t)q->abs_start),
                vis_fmt_time(b, sizeof b, ps->unit, (uint64_t)q->abs_end),
                vis_proc_ending(q, c, sizeof c), vis_fmt_bytes(d, sizeof d, q->peak_B), rss,
                vis_proc_name(q));
    }
}

/* ---------------------------------------------------------------- chart */

/* One lane per process, in start order, on one time axis: the lane's
 * band is the process's total memory (heap + extra + stacks) as a step
 * chart, scaled to the largest peak of all; its label names the process,
 * and a killed one says so in red at the end of its band. */
int vis_procs_write_png(const vis_procs *ps, int width, int height, const char *path,
                        char *err, size_t errsz)
{
    const vis_rgb bg = 0xFFFFFF, ink = 0x202020, grid = 0xDDDDDD, band = 0x4C78A8,
                  red = 0xC62828;
    int lane_h = (height - 120) / (int)ps->n;
    if (lane_h < 24) {
        lane_h = 24;
        height = 120 + lane_h * (int)ps->n;
        if (height > 8000) {
            snprintf(err, errsz, "%s: %zu processes do not fit in a chart (at most %d)", path,
                     ps->n, (8000 - 120) / 24);
            return -1;
        }
    }
    vis_canvas *cv = vis_canvas_new(width, height, bg);
    vis_font *f = vis_font_open(MT_FONT, err, errsz);
    if (!cv || !f) {
        vis_canvas_free(cv);
        vis_font_free(f);
        if (!cv)
            snprintf(err, errsz, "out of memory");
        return -1;
    }
    long long t_end = 1;
    uint64_t peak = 1;
    for (size_t i = 0; i < ps->n; i++) {
        if (ps->procs[i].abs_end > t_end)
            t_end = ps->procs[i].abs_end;
        if (ps->procs[i].peak_B > peak)
            peak = ps->procs[i].peak_B;
    }
    int x0 = width * 30 / 100, x1 = width - 40, y_top = 60;
    char buf[512], t1[64], t2[64];
    snprintf(buf, sizeof buf, "%zu processes on one time axis (0 to %s); bands: total memory, "
             "scaled to the largest peak (%s)", ps->n, vis_fmt_time(t1, sizeof t1, ps->unit,
             (uint64_t)t_end), vis_fmt_bytes(t2, sizeof t2, peak));
    vis_font_draw(cv, f, 16, 20, 30, buf, ink);
    for (size_t i = 0; i < ps->n; i++) {
        const vis_proc *q = &ps->procs[i];
        const vis_profile *p = q->profile;
        int ly0 = y_top + (int)i * lane_h, ly1 = ly0 + lane_h - 4;
        vis_canvas_hline(cv, x0, x1, ly1, 1, grid, 255);
        long long shift = q->abs_start - (long long)p->snaps[0].time;
        /* Its life: a thin line from start to end under the band. */
        vis_canvas_fill(cv, x0 + (int)((x1 - x0) * (double)q->abs_start / (double)t_end), ly1 - 1,
                        x0 + (int)((x1 - x0) * (double)q->abs_end / (double)t_end) + 1, ly1 + 2,
                        0x9E9E9E, 255);
        for (size_t k = 0; k < p->n_snaps; k++) {
            double ta = (double)(shift + (long long)p->snaps[k].time);
            double tb = k + 1 < p->n_snaps ? (double)(shift + (long long)p->snaps[k + 1].time) : ta;
            int xa = x0 + (int)((x1 - x0) * ta / (double)t_end);
            int xb = x0 + (int)((x1 - x0) * tb / (double)t_end);
            if (xb <= xa)
                xb = xa + 1;
            int h = (int)((double)(ly1 - ly0 - 2) * (double)vis_snap_total(&p->snaps[k]) / (double)peak);
            if (h > 0)
                vis_canvas_fill(cv, xa, ly1 - h, xb, ly1, band, 255);
        }
        char pid[24], fitted[256];
        snprintf(pid, sizeof pid, "%lld", q->pid);
        snprintf(buf, sizeof buf, "%s %s", pid, vis_proc_name(q));
        vis_font_fit(f, 13, buf, x0 - 30, fitted, sizeof fitted);
        vis_font_draw(cv, f, 13, 20, ly1 - 4, fitted, ink);
        if (q->end_kind == VIS_END_SIGNAL) {
            int xe = x0 + (int)((x1 - x0) * (double)q->abs_end / (double)t_end);
            char e[64];
            vis_canvas_vline(cv, xe, ly0 + 2, ly1, 2, red, 255);
            vis_proc_ending(q, e, sizeof e);
            int w = vis_font_width(f, 12, e);
            vis_font_draw(cv, f, 12, xe + 4 + w < x1 ? xe + 4 : xe - 4 - w, ly0 + 14, e, red);
        }
    }
    int yb = y_top + (int)ps->n * lane_h + 16;
    for (int k = 0; k <= 4; k++) {
        int x = x0 + (x1 - x0) * k / 4;
        vis_canvas_vline(cv, x, y_top, yb - 12, 1, grid, 160);
        vis_fmt_time(t1, sizeof t1, ps->unit, (uint64_t)(t_end * k / 4));
        vis_font_draw(cv, f, 12, x - vis_font_width(f, 12, t1) / 2, yb + 4, t1, ink);
    }
    int rc = vis_png_write(cv, path, err, errsz);
    vis_font_free(f);
    vis_canvas_free(cv);
    return rc;
}
