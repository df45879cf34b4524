/* follow_view.c: the text of --follow's view (follow_view.h), from the
 * live model (model/follow_state.h). Lines are built whole, then filtered and
 * clipped by one writer (put_line), which is where the terminal's size and
 * the safety of names taken from the files are handled. */
#define _XOPEN_SOURCE 700   /* wcwidth */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "base/units.h"
#include "base/utf8.h"
#include "render/follow_view.h"

#define SPARK_MAX_COLS 512

/* A frame being written: where, and how much room is left. */
typedef struct {
    FILE *out;
    int cols;                /* columns per line; <= 0: no limit */
    int rows_left;           /* lines left; < 0: no limit */
    int utf8;
} frame;

/* The code point of the valid UTF-8 sequence of len bytes at u. */
static unsigned long code_point(const unsigned char *u, size_t len)
{
    static const unsigned char lead_mask[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
    unsigned long c = u[0] & lead_mask[len];
    for (size_t i = 1; i < len; i++)
        c = c << 6 | (u[i] & 0x3f);
    return c;
}

static void put_or_measure(frame *f, const char *s, int *col, int write);

/* Writes s as one line: control characters, C1 controls and whatever the
 * locale cannot print as '?', bytes that are not UTF-8 (or all non-ASCII
 * without a UTF-8 terminal) as '?', clipped to the frame's width in
 * columns (wcwidth: a wide character takes two, a combining one none). A
 * frame without a width (the plain lines) keeps every printable UTF-8
 * sequence, whatever the locale. */
static void put_text(frame *f, const char *s, int *col)
{
    put_or_measure(f, s, col, 1);
}

/* The columns s takes on the frame's line, as put_text writes it. */
static int text_width(frame *f, const char *s)
{
    frame wide = *f;
    int col = 0;
    wide.cols = INT_MAX;   /* measured whole, never clipped */
    put_or_measure(&wide, s, &col, 0);
    return col;
}

/* put_text's walk; with write 0 it only counts the columns. */
static void put_or_measure(frame *f, const char *s, int *col, int write)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n && (f->cols <= 0 || *col < f->cols);) {
        size_t len = u[i] < 0x80 ? 1 : vis_utf8_len(u + i, n - i);
        int w = 1;
        int bad = u[i] < 0x20 || u[i] == 0x7f || len == 0 ||
                  (len > 1 && (!f->utf8 || (u[i] == 0xC2 && u[i + 1] < 0xA0)));
        if (!bad && len > 1 && f->cols > 0) {
            w = wcwidth((wchar_t)code_point(u + i, len));
            bad = w < 0;
        }
        if (bad)
            w = 1;
        if (f->cols > 0 && *col + w > f->cols)
            break;
        if (write && bad)
            fputc('?', f->out);
        else if (write)
            fwrite(u + i, 1, len, f->out);
        i += len ? len : 1;
        *col += w;
    }
}

static void line(frame *f, const char *fmt, ...)
{
    if (f->rows_left == 0)
        return;
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    int col = 0;
    put_text(f, buf, &col);
    fputc('\n', f->out);
    if (f->rows_left > 0)
        f->rows_left--;
}

/* A message that may be longer than a line (a reader's error with its
 * path): cut at the frame's width into as many lines as it takes, at most
 * four, so that it is read whole. */
static void wrapped(frame *f, const char *head, const char *msg, const char *tail)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s%s%s", head, msg, tail);
    const char *s = buf;
    for (int n = 0; *s && n < 4 && f->rows_left != 0; n++) {
        /* One line's worth of code points. */
        const unsigned char *u = (const unsigned char *)s;
        size_t i = 0, len = strlen(s);
        for (int col = 0; i < len && (f->cols <= 0 || col < f->cols); col++) {
            size_t k = u[i] < 0x80 ? 1 : vis_utf8_len(u + i, len - i);
            i += k ? k : 1;
        }
        char part[4096];
        memcpy(part, s, i);
        part[i] = '\0';
        line(f, "%s", part);
        s += i;
    }
}

/* The rows wrapped() takes for msg in cols columns (an estimate by bytes,
 * with room for the head and tail), at most its four. */
static int wrapped_rows(const char *msg, int cols)
{
    if (cols <= 0)
        cols = 80;
    int n = (int)((strlen(msg) + 32 + (size_t)cols - 1) / (size_t)cols);
    return n < 4 ? n : 4;
}

static const char *bytes(char *buf, size_t n, uint64_t b)
{
    return vis_fmt_bytes(buf, n, b);
}

/* The sparkline of the run's totals in w columns, and its axis. */
static void sparkline(frame *f, const vis_follow_file *l, int w)
{
    static const char *const blocks[] = { " ", "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83",
                                          "\xe2\x96\x84", "\xe2\x96\x85", "\xe2\x96\x86",
                                          "\xe2\x96\x87", "\xe2\x96\x88" };
    static const char ascii[] = " .:-=+*#%@";
    uint64_t col[SPARK_MAX_COLS];
    if (w > SPARK_MAX_COLS)
        w = SPARK_MAX_COLS;
    if (w < 8)
        return;
    uint64_t max = vis_follow_file_columns(l, (size_t)w, col);
    char buf[SPARK_MAX_COLS * 3 + 64], *o = buf;
    o += sprintf(o, "  ");
    for (int c = 0; c < w; c++) {
        /* Zero stays blank; anything above it shows at least the lowest step. */
        int levels = f->utf8 ? 8 : 9;
        int k = max && col[c] ? 1 + (int)((double)col[c] / (double)max * (levels - 1) + 0.5) : 0;
        if (k > levels)
            k = levels;
        if (f->utf8) {
            size_t len = strlen(blocks[k]);
            memcpy(o, blocks[k], len);
            o += len;
        } else {
            *o++ = ascii[k];
        }
    }
    *o = '\0';
    line(f, "%s", buf);
    const vis_profile *p = l->p;
    char t0[64], t1[64], top[64];
    uint64_t from, to;
    vis_follow_file_time_range(l, &from, &to);
    vis_fmt_time(t0, sizeof t0, p->unit, from);
    vis_fmt_time(t1, sizeof t1, p->unit, to);
    bytes(top, sizeof top, max);
    /* The axis: the run's start and its present at the ends, the scale
     * between them where it fits. */
    char mid[96], axis[SPARK_MAX_COLS + 128];
    snprintf(mid, sizeof mid, "total, full height %s", top);
    int room = w - (int)strlen(t0) - (int)strlen(t1);
    if ((int)strlen(mid) + 2 > room)
        mid[0] = '\0';
    int left = (room - (int)strlen(mid)) / 2, right = room - (int)strlen(mid) - left;
    snprintf(axis, sizeof axis, "  %s%*s%s%*s%s", t0, left > 1 ? left : 1, "", mid,
             right > 1 ? right : 1, "", t1);
    line(f, "%s", axis);
}

/* The first line, "PATH  [STATE]": a path too long for the line loses its
 * start ("…/run/p.out  [running]"), so the file's name and the state stay
 * in view however deep the directory. */
static void title(frame *f, const char *path, const char *state)
{
    char tail[300];
    snprintf(tail, sizeof tail, "  [%s]", state);
    const char *dots = f->utf8 ? "\xe2\x80\xa6" : "...";
    int room = f->cols - text_width(f, tail) - text_width(f, dots);
    if (f->cols > 0 && text_width(f, path) + text_width(f, tail) > f->cols && room > 0) {
        /* Code points off the start until the rest fits: each one's
         * width measured once (the view redraws five times a second). */
        const char *p = path;
        int w = text_width(f, path);
        while (*p && w > room) {
            size_t len = vis_utf8_len((const unsigned char *)p, strlen(p));
            char one[8] = { 0 };
            memcpy(one, p, len && len < sizeof one ? len : 1);
            w -= text_width(f, one);
            p += len ? len : 1;
        }
        line(f, "%s%s%s", dots, p, tail);
        return;
    }
    line(f, "%s%s", path, tail);
}

/* The state of the run, with the heap limit when the run had one. */
static void state_line(frame *f, const vis_follow_file *l)
{
    const vis_profile *p = l->p;
    char st[256], lim[64], t[64];
    vis_follow_state_text(l, st, sizeof st);
    if (!p->limit.present) {
        line(f, "run: %s", st);
        return;
    }
    bytes(lim, sizeof lim, p->limit.bytes);
    if (p->limit.reached)
        line(f, "run: %s; heap limit %s (%s) reached at %s%s", st, lim,
             vis_limit_action_name(p->limit.action),
             vis_fmt_time(t, sizeof t, p->unit, p->limit.time),
             p->limit.refused ? ", allocations refused" : "");
    else
        line(f, "run: %s; heap limit %s (%s) not reached", st, lim,
             vis_limit_action_name(p->limit.action));
}

void vis_follow_frame(FILE *out, const vis_follow_file *l, const vis_follow_layout *lay)
{
    frame f = { out, lay->cols, lay->rows > 0 ? lay->rows : -1, lay->utf8 };
    int footer = lay->interactive && lay->rows > 0;
    if (footer)
        f.rows_left--;
    char a[64], b[64], c[64], d[64], st[256];
    const vis_profile *p = l->p;
    if (!p) {
        line(&f, "memtime-vis --follow %s", l->path);
        wrapped(&f, "", l->error[0] ? l->error : "reading", "");
    } else {
        const vis_snapshot *now = &p->snaps[p->n_snaps - 1], *pk = &p->snaps[vis_follow_file_peak(l)];
        title(&f, l->path, vis_follow_state_text(l, st, sizeof st));
        line(&f, "cmd: %s", p->cmd);
        long ago = (long)(lay->now - l->p_mtime.tv_sec);
        line(&f, "elapsed %s, %zu snapshots, rewritten %lds ago",
             vis_fmt_time(a, sizeof a, p->unit, now->time), p->n_snaps, ago > 0 ? ago : 0);
        line(&f, "%-8s %12s %12s", "", "now", "peak");
        line(&f, "%-8s %12s %12s  at %s", "heap", bytes(a, sizeof a, now->heap_B),
             bytes(b, sizeof b, pk->heap_B), vis_fmt_time(c, sizeof c, p->unit, pk->time));
        line(&f, "%-8s %12s %12s", "extra", bytes(a, sizeof a, now->heap_extra_B),
             bytes(b, sizeof b, pk->heap_extra_B));
        line(&f, "%-8s %12s %12s", "stacks", bytes(a, sizeof a, now->stacks_B),
             bytes(b, sizeof b, pk->stacks_B));
        line(&f, "%-8s %12s %12s", "total", bytes(a, sizeof a, vis_snap_total(now)),
             bytes(b, sizeof b, vis_snap_total(pk)));
        if (l->rss_now != SIZE_MAX || p->rss_peak.present) {
            snprintf(a, sizeof a, "-");
            snprintf(b, sizeof b, "-");
            c[0] = '\0';
            if (l->rss_now != SIZE_MAX)
                bytes(a, sizeof a, vis_rss_total(&p->rss[l->rss_now]));
            if (p->rss_peak.present) {
                bytes(b, sizeof b, p->rss_peak.anon_B + p->rss_peak.file_B +
                                   p->rss_peak.shmem_B);
                snprintf(c, sizeof c, "  at %s",
                         vis_fmt_time(d, sizeof d, p->unit, p->rss_peak.time));
            }
            line(&f, "%-8s %12s %12s%s", "rss", a, b, c);
        }
        int w = (lay->cols > 0 ? lay->cols : 80) - 4;
        if (f.rows_left < 0 || f.rows_left >= 4)
            sparkline(&f, l, w);
        /* What is left goes to the sites, then the marks (the last few),
         * keeping a line for the state and one for a problem. */
        int reserve = 1;
        if (l->error[0])
            reserve += wrapped_rows(l->error, lay->cols);
        for (size_t k = 0; k < l->n_warnings; k++)
            reserve += wrapped_rows(l->warnings[k], lay->cols);
        int room = f.rows_left < 0 ? 1 << 20 : f.rows_left - reserve;
        int want_marks = p->n_marks ? 1 + (int)(p->n_marks < 3 ? p->n_marks : 3) : 0;
        int sites = (int)l->n_sites < lay->top ? (int)l->n_sites : lay->top;
        if (sites > room - 1 - want_marks)
            sites = room - 1 - want_marks;
        if (sites < 1 && l->n_sites && room >= 2)
            sites = room >= 2 ? 1 : 0;
        if (l->tree != SIZE_MAX && sites > 0) {
            line(&f, "top sites at %s%s, growth since %s:",
                 vis_fmt_time(a, sizeof a, p->unit, p->snaps[l->tree].time),
                 l->tree_is_peak == 2 ? " (the peak)"
                 : l->tree_is_peak ? " (the peak; the latest tree is empty)" : "",
                 vis_fmt_time(b, sizeof b, p->unit, p->snaps[l->first_tree].time));
            for (int k = 0; k < sites; k++) {
                const vis_follow_site *s = &l->sites[k];
                if (s->has_growth)
                    vis_fmt_delta(b, sizeof b, s->growth_B);
                else
                    snprintf(b, sizeof b, "-");
                line(&f, "  %10s %11s  %s", bytes(a, sizeof a, s->now_B), b, s->name);
            }
            room -= 1 + sites;
        } else if (l->tree == SIZE_MAX && room > want_marks + 1) {
            line(&f, "no detailed snapshot yet: no sites");
            room--;
        }
        int marks = (int)p->n_marks;
        if (marks > room - 1)
            marks = room - 1;
        if (marks > 0) {
            line(&f, "marks%s:", (size_t)marks < p->n_marks ? " (the latest)" : "");
            for (size_t k = p->n_marks - (size_t)marks; k < p->n_marks; k++)
                line(&f, "  %10s  %s", vis_fmt_time(a, sizeof a, p->unit, p->marks[k].time),
                     p->marks[k].label);
        }
        state_line(&f, l);
        for (size_t k = 0; k < l->n_warnings; k++)
            wrapped(&f, "! ", l->warnings[k], "");
        if (l->error[0])
            wrapped(&f, "! ", l->error, " (showing the last good read)");
    }
    if (footer) {
        f.rows_left = 1;
        line(&f, "%s", vis_follow_file_over(l) ? "the run is over; q: quit" : "q: quit");
    }
}

void vis_follow_line(FILE *out, const vis_follow_file *l, int with_time)
{
    frame f = { out, 0, -1, 1 };
    char a[64], b[64], c[64], d[64], e[64], g[64], st[256];
    const vis_profile *p = l->p;
    if (l->error[0] || !p) {
        line(&f, "%s%s", l->error[0] ? l->error : "reading",
             p && l->error[0] ? " (the last good read stands)" : "");
        return;
    }
    /* A file cut short: its warnings first, one line each, then what was
     * read of it. */
    for (size_t k = 0; k < l->n_warnings; k++)
        line(&f, "! %s", l->warnings[k]);
    const vis_snapshot *now = &p->snaps[p->n_snaps - 1], *pk = &p->snaps[vis_follow_file_peak(l)];
    char rss[80] = "";
    if (l->rss_now != SIZE_MAX)
        snprintf(rss, sizeof rss, " rss %s", bytes(a, sizeof a, vis_rss_total(&p->rss[l->rss_now])));
    char site[600] = "";
    if (l->n_sites)
        snprintf(site, sizeof site, " top %s %s", bytes(g, sizeof g, l->sites[0].now_B),
                 l->sites[0].name);
    if (with_time)
        vis_fmt_time(b, sizeof b, p->unit, now->time);
    else
        b[0] = '\0';
    line(&f, "%s%sheap %s extra %s stacks %s%s peak %s at %s%s [%s]", b, with_time ? " " : "", bytes(c, sizeof c, now->heap_B),
         bytes(d, sizeof d, now->heap_extra_B), bytes(e, sizeof e, now->stacks_B), rss,
         bytes(a, sizeof a, vis_snap_total(pk)), vis_fmt_time(g, sizeof g, p->unit, pk->time),
         site, vis_follow_state_text(l, st, sizeof st));
}

/* One process's line of the directory view. */
static void proc_line(frame *f, const vis_follow_dir *d, const vis_proc *q)
{
    const vis_follow_entry *e = vis_follow_dir_entry_of(d, q);
    const vis_follow_file *l = e->live;
    const vis_profile *p = q->profile;
    const vis_snapshot *now = &p->snaps[p->n_snaps - 1];
    char pid[24] = "-", heap[64], rss[64] = "-", peak[64], st[256];
    if (q->pid >= 0)
        snprintf(pid, sizeof pid, "%lld", q->pid);
    if (l->rss_now != SIZE_MAX)
        bytes(rss, sizeof rss, vis_rss_total(&p->rss[l->rss_now]));
    /* A parent's record of how a child died says more than the child's
     * own files can. */
    if (q->end_kind != VIS_END_UNKNOWN &&
        (l->state == VIS_FOLLOW_RUNNING || l->state == VIS_FOLLOW_KILLED ||
         l->state == VIS_FOLLOW_NO_RECORD || (l->state == VIS_FOLLOW_EXITED && !l->has_code)))
        vis_proc_ending(q, st, sizeof st);
    else
        vis_follow_state_text(l, st, sizeof st);
    line(f, "%8s %11s %11s %11s  %-24s %s%s", pid, bytes(heap, sizeof heap, now->heap_B), rss,
         bytes(peak, sizeof peak, q->peak_B), st, vis_proc_name(q),
         l->error[0] ? "  ! the last read failed" : "");
}

static void dir_lines(frame *f, const vis_follow_dir *d, int header)
{
    if (header)
        line(f, "%8s %11s %11s %11s  %-24s %s", "PID", "HEAP", "RSS", "PEAK", "STATE",
             "TITLE");
    /* More processes than rows: the latest to start, which a long-lived
     * server's newest workers are, and a line for those left out. */
    size_t first = 0, bad = 0;
    for (size_t i = 0; i < d->n; i++)
        bad += !d->e[i].live->p ? 1 : (d->e[i].live->error[0] != 0) + d->e[i].live->n_warnings;
    if (f->rows_left >= 0 && d->procs.n + bad > (size_t)f->rows_left) {
        size_t room = (size_t)f->rows_left > bad + 1 ? (size_t)f->rows_left - bad - 1 : 0;
        first = d->procs.n - room;
        line(f, "%8s (%zu earlier process%s not shown)", "", first, first == 1 ? "" : "es");
    }
    for (size_t i = first; i < d->procs.n; i++)
        proc_line(f, d, &d->procs.procs[i]);
    for (size_t i = 0; i < d->n; i++)
        if (!d->e[i].live->p) {
            line(f, "%8s %s", "!", d->e[i].live->error[0] ? d->e[i].live->error : "reading");
        } else {
            for (size_t k = 0; k < d->e[i].live->n_warnings; k++)
                line(f, "%8s %s", "!", d->e[i].live->warnings[k]);
            if (d->e[i].live->error[0])
                line(f, "%8s %s", "!", d->e[i].live->error);
        }
}

void vis_follow_dir_frame(FILE *out, const vis_follow_dir *d, const vis_follow_layout *lay)
{
    frame f = { out, lay->cols, lay->rows > 0 ? lay->rows : -1, lay->utf8 };
    int footer = lay->interactive && lay->rows > 0;
    if (footer)
        f.rows_left--;
    size_t alive = 0, unread = 0;
    for (size_t i = 0; i < d->n; i++) {
        alive += d->e[i].live->p && d->e[i].live->state == VIS_FOLLOW_RUNNING;
        unread += !d->e[i].live->p;
    }
    char bad[64] = "";
    if (unread)
        snprintf(bad, sizeof bad, ", %zu unreadable", unread);
    line(&f, "%s: %zu process%s, %zu running%s", d->dir, d->procs.n,
         d->procs.n == 1 ? "" : "es", alive, bad);
    if (d->error[0])
        line(&f, "! %s", d->error);
    dir_lines(&f, d, 1);
    if (footer) {
        f.rows_left = 1;
        line(&f, "q: quit");
    }
}

void vis_follow_dir_lines(FILE *out, const vis_follow_dir *d)
{
    frame f = { out, 0, -1, 1 };
    if (d->error[0])
        line(&f, "! %s", d->error);
    dir_lines(&f, d, 0);
}
