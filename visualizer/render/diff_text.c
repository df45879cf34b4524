/* diff_text.c: the diff of two profiles as text and as JSON, and the
 * broken limits of the CI gate one line each (diff_text.h); what they print
 * is computed in model/diff.c. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include "base/units.h"
#include "render/diff_text.h"
#include "render/json.h"

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
    fprintf(out, ")\n");
    if (d->true_max) {
        int64_t dm = (int64_t)d->new_max - (int64_t)d->old_max;
        fprintf(out, "  True peak (exact outlines, whole runs): %s -> %s (%s",
                vis_fmt_bytes(a, sizeof a, d->old_max), vis_fmt_bytes(b, sizeof b, d->new_max),
                vis_fmt_delta(c, sizeof c, dm));
        if (d->old_max)
            fprintf(out, ", %+.1f%%", pct(d->old_max, dm));
        fprintf(out, ")\n");
    }
    fputc('\n', out);
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
                r->name, !r->old_bytes ? "  [new]" : !r->new_bytes ? "  [gone]" : "");
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
                 ", \"delta_bytes\": %" PRId64 "},\n",
            d->old.total, d->new_.total, (int64_t)d->new_.total - (int64_t)d->old.total);
    if (d->true_max)
        fprintf(out, "  \"true_peak\": {\"old_bytes\": %" PRIu64 ", \"new_bytes\": %" PRIu64
                     ", \"delta_bytes\": %" PRId64 ", \"source\": \"outline\"},\n  \"sites\": [",
                d->old_max, d->new_max, (int64_t)d->new_max - (int64_t)d->old_max);
    else
        fputs("  \"true_peak\": null,\n  \"sites\": [", out);
    for (size_t i = 0; i < d->n_rows; i++) {
        const vis_diff_row *r = &d->rows[i];
        fprintf(out, "%s\n    {\"site\": ", i ? "," : "");
        vis_json_string(out, r->full);
        fputs(", \"name\": ", out);
        vis_json_string(out, r->name);
        fprintf(out, ", \"old_bytes\": %" PRIu64 ", \"new_bytes\": %" PRIu64
                     ", \"delta_bytes\": %" PRId64 "}",
                r->old_bytes, r->new_bytes, r->delta_bytes);
    }
    fputs(d->n_rows ? "\n  ]\n}\n" : "]\n}\n", out);
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

void vis_check_text(FILE *out, const vis_check_result *res, const vis_check_limits *lim)
{
    char a[48], b[48], e[32], f[32];
    for (size_t i = 0; i < res->n; i++) {
        const vis_check_broken *k = &res->broken[i];
        if (k->kind == VIS_CHECK_CUT_SHORT) {
            fprintf(out, "%s:%zu: the file is cut short: a run seen in part cannot pass the "
                    "check\n", k->site, k->snap);
        } else if (k->kind == VIS_CHECK_MAX_PEAK && k->outline) {
            fprintf(out, "true peak %s (%s B) by the exact outline (the snapshots' peak is "
                    "snapshot %zu) is over --max-peak %s (%s B)\n",
                    vis_fmt_bytes(a, sizeof a, k->to), vis_fmt_grouped(e, k->to), k->snap,
                    vis_fmt_bytes(b, sizeof b, lim->max_peak), vis_fmt_grouped(f, lim->max_peak));
        } else if (k->kind == VIS_CHECK_MAX_PEAK) {
            fprintf(out, "peak %s (%s B) at snapshot %zu is over --max-peak %s (%s B)\n",
                    vis_fmt_bytes(a, sizeof a, k->to), vis_fmt_grouped(e, k->to), k->snap,
                    vis_fmt_bytes(b, sizeof b, lim->max_peak), vis_fmt_grouped(f, lim->max_peak));
        } else if (k->kind == VIS_CHECK_PEAK_GREW) {
            growth_line(out, k->outline ? "true peak (exact outlines)" : "peak", k->from, k->to,
                        lim);
        } else {
            char what[1100];
            snprintf(what, sizeof what, "site %s at the peak", k->site);
            growth_line(out, what, k->from, k->to, lim);
        }
    }
}
