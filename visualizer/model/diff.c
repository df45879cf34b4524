/* diff.c: diffs of two profiles and the CI gate (see diff.h). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/diff.h"
#include "model/sites.h"
#include "render/analysis_text.h"
#include "render/json.h"
#include "render/report.h"

static const char below[] = "(sites below the threshold)";

static const char *key_of(const vis_site *s)
{
    return s->is_below_threshold ? below : vis_site_name(s->label);
}

typedef struct {
    const char *key;
    uint64_t bytes;
    int side;                    /* 0 old, 1 new */
} entry;

static int cmp_entry(const void *va, const void *vb)
{
    const entry *a = va, *b = vb;
    return strcmp(a->key, b->key);
}

static int cmp_row(const void *va, const void *vb)
{
    const vis_diff_row *a = va, *b = vb;
    uint64_t x = a->delta_bytes < 0 ? (uint64_t)0 - (uint64_t)a->delta_bytes : (uint64_t)a->delta_bytes;
    uint64_t y = b->delta_bytes < 0 ? (uint64_t)0 - (uint64_t)b->delta_bytes : (uint64_t)b->delta_bytes;
    if (x != y)
        return x > y ? -1 : 1;
    return strcmp(a->site, b->site);
}

static void side_of(const vis_profile *p, size_t snap, int at_peak, vis_diff_side *s)
{
    s->snap = snap;
    s->total = vis_snap_total(&p->snaps[snap]);
    if (at_peak)
        s->tree_snap = p->peak_tree_snap;
    else
        for (s->tree_snap = snap + 1; s->tree_snap-- > 0;)
            if (p->snaps[s->tree_snap].kind != VIS_TREE_EMPTY)
                break;
}

int vis_diff_compute(const vis_profile *old, size_t old_snap, const vis_profile *new_,
                     size_t new_snap, int at_peak, const char *at, vis_diff *d)
{
    memset(d, 0, sizeof *d);
    d->at = at;
    side_of(old, old_snap, at_peak, &d->old);
    side_of(new_, new_snap, at_peak, &d->new_);
    const vis_snapshot *so = d->old.tree_snap == SIZE_MAX ? NULL : &old->snaps[d->old.tree_snap];
    const vis_snapshot *sn = d->new_.tree_snap == SIZE_MAX ? NULL : &new_->snaps[d->new_.tree_snap];
    size_t n = (so ? so->n_sites : 0) + (sn ? sn->n_sites : 0);
    entry *e = malloc((n ? n : 1) * sizeof *e);
    d->rows = malloc((n ? n : 1) * sizeof *d->rows);
    if (!e || !d->rows) {
        free(e);
        vis_diff_free(d);
        return -1;
    }
    size_t k = 0;
    for (int side = 0; side < 2; side++) {
        const vis_snapshot *s = side ? sn : so;
        for (size_t i = 0; s && i < s->n_sites; i++)
            e[k++] = (entry){ key_of(&s->sites[i]), s->sites[i].bytes, side };
    }
    qsort(e, k, sizeof *e, cmp_entry);
    for (size_t i = 0; i < k;) {
        vis_diff_row *r = &d->rows[d->n_rows++];
        r->site = e[i].key;
        r->old_bytes = r->new_bytes = 0;
        size_t j = i;
        for (; j < k && !strcmp(e[j].key, e[i].key); j++) {
            if (e[j].side)
                r->new_bytes += e[j].bytes;
            else
                r->old_bytes += e[j].bytes;
        }
        r->delta_bytes = (int64_t)r->new_bytes - (int64_t)r->old_bytes;
        i = j;
    }
    free(e);
    qsort(d->rows, d->n_rows, sizeof *d->rows, cmp_row);
    return 0;
}

void vis_diff_free(vis_diff *d)
{
    free(d->rows);
    d->rows = NULL;
    d->n_rows = 0;
}

static void side_text(FILE *out, const char *name, const vis_profile *p, const vis_diff_side *s)
{
    char a[48], b[48];
    fprintf(out, "  %s %s: snapshot %zu at %s, total %s", name, p->path, s->snap,
            vis_fmt_time(a, sizeof a, p->unit, p->snaps[s->snap].time),
            vis_fmt_bytes(b, sizeof b, s->total));
    if (s->tree_snap == SIZE_MAX)
        fprintf(out, "; no detailed snapshot: no sites\n");
    else if (s->tree_snap != s->snap)
        fprintf(out, "; sites from snapshot %zu (%s)\n", s->tree_snap,
                vis_fmt_time(a, sizeof a, p->unit, p->snaps[s->tree_snap].time));
    else
        fprintf(out, "\n");
}

static double pct(uint64_t from, int64_t delta)
{
    return from ? 100.0 * (double)delta / (double)from : INFINITY;
}

void vis_diff_text(FILE *out, const vis_profile *old, const vis_profile *new_, const vis_diff *d,
                   int top_n)
{
    char a[48], b[48], c[48];
    fprintf(out, "memtime-vis diff at %s (NEW minus OLD; sites matched by function and "
                 "file:line)\n", d->at);
    side_text(out, "OLD", old, &d->old);
    side_text(out, "NEW", new_, &d->new_);
    int64_t dt = (int64_t)d->new_.total - (int64_t)d->old.total;
    fprintf(out, "  Total: %s -> %s (%s", vis_fmt_bytes(a, sizeof a, d->old.total),
            vis_fmt_bytes(b, sizeof b, d->new_.total), vis_fmt_delta(c, sizeof c, dt));
    if (d->old.total)
        fprintf(out, ", %+.1f%%", pct(d->old.total, dt));
    fprintf(out, ")\n\n");
    size_t unchanged = 0, shown = 0;
    for (size_t i = 0; i < d->n_rows; i++) {
        const vis_diff_row *r = &d->rows[i];
        if (r->delta_bytes == 0) {
            unchanged++;
            continue;
        }
        if (top_n > 0 && shown >= (size_t)top_n)
            continue;
        if (!shown)
            fprintf(out, "  %11s %10s %10s  %s\n", "delta", "old", "new", "site");
        fprintf(out, "  %11s %10s %10s  %s%s\n", vis_fmt_delta(a, sizeof a, r->delta_bytes),
                vis_fmt_bytes(b, sizeof b, r->old_bytes), vis_fmt_bytes(c, sizeof c, r->new_bytes),
                r->site, !r->old_bytes ? "  [new]" : !r->new_bytes ? "  [gone]" : "");
        shown++;
    }
    size_t changed = d->n_rows - unchanged;
    if (!changed)
        fprintf(out, "  (no site changed)\n");
    else if (shown < changed)
        fprintf(out, "  ... %zu more changed site%s (--top)\n", changed - shown,
                changed - shown == 1 ? "" : "s");
    if (unchanged)
        fprintf(out, "  %zu site%s unchanged\n", unchanged, unchanged == 1 ? "" : "s");
}

static void side_json(FILE *out, const vis_profile *p, const vis_diff_side *s)
{
    fputs("{\"profile\": ", out);
    vis_json_string(out, p->path);
    fprintf(out, ", \"snapshot\": %zu, \"time\": %" PRIu64 ", \"total_bytes\": %" PRIu64
                 ", \"sites_snapshot\": ",
            s->snap, p->snaps[s->snap].time, s->total);
    if (s->tree_snap == SIZE_MAX)
        fputs("null}", out);
    else
        fprintf(out, "%zu}", s->tree_snap);
}

void vis_diff_json(FILE *out, const vis_profile *old, const vis_profile *new_, const vis_diff *d)
{
    fputs("{\n  \"at\": ", out);
    vis_json_string(out, d->at);
    fputs(",\n  \"old\": ", out);
    side_json(out, old, &d->old);
    fputs(",\n  \"new\": ", out);
    side_json(out, new_, &d->new_);
    fprintf(out, ",\n  \"total\": {\"old_bytes\": %" PRIu64 ", \"new_bytes\": %" PRIu64
                 ", \"delta_bytes\": %" PRId64 "},\n  \"sites\": [",
            d->old.total, d->new_.total, (int64_t)d->new_.total - (int64_t)d->old.total);
    for (size_t i = 0; i < d->n_rows; i++) {
        const vis_diff_row *r = &d->rows[i];
        fprintf(out, "%s\n    {\"site\": ", i ? "," : "");
        vis_json_string(out, r->site);
        fprintf(out, ", \"old_bytes\": %" PRIu64 ", \"new_bytes\": %" PRIu64
                     ", \"delta_bytes\": %" PRId64 "}",
                r->old_bytes, r->new_bytes, r->delta_bytes);
    }
    fputs(d->n_rows ? "\n  ]\n}\n" : "]\n}\n", out);
}

/* -------------------------------------------------------------- the gate */

/* True when a change from -> to breaks --max-increase and --allow. */
static int over(uint64_t from, uint64_t to, const vis_check_limits *lim)
{
    if (to <= from || to - from <= lim->allow)
        return 0;
    return (double)(to - from) * 100.0 > lim->max_increase_pct * (double)from;
}

static void growth_line(FILE *out, const char *what, uint64_t from, uint64_t to,
                        const vis_check_limits *lim)
{
    char a[48], b[48], c[48], d[48], e[32], f[32];
    int64_t delta = (int64_t)(to - from);
    fprintf(out, "%s grew from %s (%s B) to %s (%s B): %s", what, vis_fmt_bytes(a, sizeof a, from),
            vis_fmt_grouped(e, from), vis_fmt_bytes(b, sizeof b, to), vis_fmt_grouped(f, to),
            vis_fmt_delta(c, sizeof c, delta));
    if (from)
        fprintf(out, ", %+.1f%%", pct(from, delta));
    else
        fprintf(out, ", new");
    fprintf(out, "; limits: --max-increase %g%% and --allow %s\n", lim->max_increase_pct,
            vis_fmt_bytes(d, sizeof d, lim->allow));
}

int vis_check(FILE *out, const vis_profile *p, const vis_diff *bd, const vis_check_limits *lim)
{
    char a[48], b[48], e[32], f[32];
    int n = 0;
    uint64_t peak = vis_snap_total(&p->snaps[p->peak]);
    if (lim->has_max_peak && peak > lim->max_peak) {
        fprintf(out, "peak %s (%s B) at snapshot %zu is over --max-peak %s (%s B)\n",
                vis_fmt_bytes(a, sizeof a, peak), vis_fmt_grouped(e, peak), p->peak,
                vis_fmt_bytes(b, sizeof b, lim->max_peak), vis_fmt_grouped(f, lim->max_peak));
        n++;
    }
    if (lim->has_increase && bd) {
        if (over(bd->old.total, bd->new_.total, lim)) {
            growth_line(out, "peak", bd->old.total, bd->new_.total, lim);
            n++;
        }
        for (size_t i = 0; i < bd->n_rows; i++) {
            const vis_diff_row *r = &bd->rows[i];
            if (!over(r->old_bytes, r->new_bytes, lim))
                continue;
            char what[1100];
            snprintf(what, sizeof what, "site %s at the peak", r->site);
            growth_line(out, what, r->old_bytes, r->new_bytes, lim);
            n++;
        }
    }
    return n;
}

int vis_parse_size(const char *s, uint64_t *bytes)
{
    static const struct { const char *u; double f; } units[] = {
        { "", 1 }, { "B", 1 },
        { "K", 1024.0 }, { "KiB", 1024.0 }, { "kB", 1e3 }, { "KB", 1e3 },
        { "M", 1048576.0 }, { "MiB", 1048576.0 }, { "MB", 1e6 },
        { "G", 1073741824.0 }, { "GiB", 1073741824.0 }, { "GB", 1e9 },
        { "T", 1099511627776.0 }, { "TiB", 1099511627776.0 }, { "TB", 1e12 },
    };
    size_t n = strspn(s, "0123456789.");
    if (n == 0 || s[0] == '.' || strchr(s, '.') != strrchr(s, '.') ||
        (strchr(s, '.') && strchr(s, '.') >= s + n))
        return -1;
    if (memchr(s, '.', n) && s[n - 1] == '.')
        return -1;
    char *end;
    double v = strtod(s, &end);
    if (end != s + n)
        return -1;
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        if (strcmp(s + n, units[i].u) != 0)
            continue;
        double b = floor(v * units[i].f + 0.5);
        if (!(b >= 0 && b < 1.8e19))
            return -1;
        *bytes = (uint64_t)b;
        return 0;
    }
    return -1;
}
