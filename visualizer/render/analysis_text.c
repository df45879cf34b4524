/* analysis_text.c: text of the growth, end-of-run and counts views (see
 * analysis_text.h). Sites are named as in the report: function (file:line). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/sites.h"
#include "render/analysis_text.h"
#include "render/report.h"

static void window_line(FILE *out, const vis_profile *p, const vis_growth *g, const char *what)
{
    char a[48], b[48];
    if (g->n_detailed == 0) {
        fprintf(out, "%s: no detailed snapshot between snapshots %zu and %zu\n", what, g->from,
                g->to);
        return;
    }
    fprintf(out, "%s, from %s (snapshot %zu) to %s (snapshot %zu), %zu detailed snapshot%s:\n",
            what, vis_fmt_time(a, sizeof a, p->unit, p->snaps[g->first_detailed].time),
            g->first_detailed, vis_fmt_time(b, sizeof b, p->unit, p->snaps[g->last_detailed].time),
            g->last_detailed, g->n_detailed, g->n_detailed == 1 ? "" : "s");
}

static void row_line(FILE *out, const vis_profile *p, const vis_growth_row *r)
{
    char a[48], b[48], c[48], d[48];
    fprintf(out, "  %-9s %10s %10s %11s %17s  %s%s\n", vis_kind_name(r->kind),
            vis_fmt_bytes(a, sizeof a, r->start_bytes), vis_fmt_bytes(b, sizeof b, r->end_bytes),
            vis_fmt_delta(c, sizeof c, r->growth_bytes), vis_fmt_rate(d, sizeof d, p->unit, r->rate),
            vis_site_name(r->label), r->maybe_below_threshold ? " [*]" : "");
}

static void header_line(FILE *out)
{
    fprintf(out, "  %-9s %10s %10s %11s %17s  %s\n", "kind", "start", "end", "growth", "rate",
            "site");
}

void vis_growth_text(FILE *out, const vis_profile *p, const vis_growth *g, size_t max_rows)
{
    window_line(out, p, g, "Growth by site");
    if (g->n_detailed == 0)
        return;
    if (g->n_rows == 0) {
        fprintf(out, "  (no allocation site in these snapshots)\n");
        return;
    }
    header_line(out);
    int star = 0;
    for (size_t i = 0; i < g->n_rows && (!max_rows || i < max_rows); i++) {
        row_line(out, p, &g->rows[i]);
        star |= g->rows[i].maybe_below_threshold;
    }
    if (max_rows && g->n_rows > max_rows)
        fprintf(out, "  ... %zu more site%s\n", g->n_rows - max_rows,
                g->n_rows - max_rows == 1 ? "" : "s");
    if (star)
        fprintf(out, "  [*] missing from some trees that merged small sites: counted as 0 there\n");
    fprintf(out, "  kinds: steady = grows through most of the window (a leak's shape); plateau = "
                 "grew, then levelled (a\n  bounded cache); burst = rose and fell back; shrinking; "
                 "flat = moves by 5%% of its maximum or less\n");
}

/* The rows of g worth a short section: those that grew, steady ones first. */
static void growing(FILE *out, const vis_profile *p, const vis_growth *g, int top_n)
{
    int shown = 0;
    for (size_t i = 0; i < g->n_rows && shown < top_n; i++) {
        const vis_growth_row *r = &g->rows[i];
        if (r->growth_bytes <= 0 || r->kind == VIS_KIND_FLAT || r->kind == VIS_KIND_BURST)
            continue;
        if (!shown)
            header_line(out);
        row_line(out, p, r);
        shown++;
    }
    if (!shown)
        fprintf(out, "  (no site grew)\n");
}

int vis_analysis_summary(FILE *out, const vis_profile *p, const vis_growth *g, int top_n)
{
    char a[48], b[48], c[48], d[48];
    int ended = vis_ended_by_exit(p);
    const vis_snapshot *last = &p->snaps[p->n_snaps - 1];
    const vis_snapshot *pk = &p->snaps[p->peak];

    if (p->end_record == VIS_END_RECORD_EXIT || p->end_record == VIS_END_RECORD_EXEC) {
        fprintf(out, "\nRun end: %s\n", p->end_record == VIS_END_RECORD_EXIT ? "exit" : "exec");
    } else if (p->limit.present && p->limit.reached && p->limit.action == VIS_LIMIT_KILL) {
        fprintf(out, "\nRun end: killed by memtime with SIGKILL at its heap limit (--heap-limit), "
                     "at %s with %s\n",
                vis_fmt_time(a, sizeof a, p->unit, last->time),
                vis_fmt_bytes(b, sizeof b, vis_snap_total(last)));
    } else if (!ended) {
        fprintf(out, "\n");
        fprintf(out, "Run end: NOT at exit: the program was killed (SIGKILL, the OOM killer) or is "
                     "still running;\n  the profile ends at %s (snapshot %zu) with %s, %.0f%% of "
                     "the peak (%s at %s)\n",
                vis_fmt_time(a, sizeof a, p->unit, last->time), p->n_snaps - 1,
                vis_fmt_bytes(b, sizeof b, vis_snap_total(last)),
                vis_snap_total(pk) ? 100.0 * (double)vis_snap_total(last) / (double)vis_snap_total(pk)
                                   : 100.0,
                vis_fmt_bytes(c, sizeof c, vis_snap_total(pk)),
                vis_fmt_time(d, sizeof d, p->unit, pk->time));
    }

    fprintf(out, "\n");
    window_line(out, p, g, g->from == 0 && g->to == p->n_snaps - 1 ? "Growing over the whole run"
                                                                    : "Growing");
    if (g->n_detailed)
        growing(out, p, g, top_n < 5 ? top_n : 5);

    if (!ended) {
        vis_growth fin;
        size_t from = vis_final_window(p);
        if (vis_growth_compute(p, from, p->n_snaps - 1, &fin) != 0)
            return -1;
        fprintf(out, "\nLast moments (the final 10%% of the run, at least 5 snapshots: from %s, "
                     "snapshot %zu)\n",
                vis_fmt_time(a, sizeof a, p->unit, p->snaps[from].time), from);
        if (fin.n_detailed < 2) {
            fprintf(out, "  too few detailed snapshots there to break down by site; the total went "
                         "from %s to %s\n",
                    vis_fmt_bytes(a, sizeof a, vis_snap_total(&p->snaps[from])),
                    vis_fmt_bytes(b, sizeof b, vis_snap_total(last)));
        } else {
            window_line(out, p, &fin, "  What grew");
            growing(out, p, &fin, top_n < 5 ? top_n : 5);
        }
        vis_growth_free(&fin);
    }

    vis_site_counts *c_rows;
    size_t n;
    if (vis_counts_merge(p, &c_rows, &n) != 0)
        return -1;
    if (c_rows) {
        if (ended) {
            vis_counts_sort(c_rows, n, VIS_BY_LIVE);
            uint64_t blocks = 0, bytes = 0;
            for (size_t i = 0; i < n; i++) {
                blocks += c_rows[i].live_blocks;
                bytes += c_rows[i].live_bytes;
            }
            fprintf(out, "\nStill live at %s (leaks, if the program was done with them): %s in %"
                         PRIu64 " block%s\n",
                    p->end_record == VIS_END_RECORD_EXEC ? "exec" : "exit", vis_fmt_bytes(a, sizeof a, bytes), blocks,
                    blocks == 1 ? "" : "s");
            for (size_t i = 0; i < n && (int)i < top_n && c_rows[i].live_blocks; i++)
                fprintf(out, "  %10s in %8" PRIu64 " block%s  %s\n",
                        vis_fmt_bytes(a, sizeof a, c_rows[i].live_bytes), c_rows[i].live_blocks,
                        c_rows[i].live_blocks == 1 ? " " : "s", vis_site_name(c_rows[i].label));
        }
        vis_counts_sort(c_rows, n, VIS_BY_ALLOCS);
        uint64_t total = 0, temps = 0;
        for (size_t i = 0; i < n; i++) {
            total += c_rows[i].allocs;
            temps += c_rows[i].temporary;
        }
        fprintf(out, "\nMost allocations (%" PRIu64 " in all):\n", total);
        for (size_t i = 0; i < n && (int)i < top_n; i++)
            fprintf(out, "  %10" PRIu64 " calls %10s allocated  %s\n", c_rows[i].allocs,
                    vis_fmt_bytes(a, sizeof a, c_rows[i].alloc_bytes),
                    vis_site_name(c_rows[i].label));
        vis_counts_sort(c_rows, n, VIS_BY_TEMPORARY);
        fprintf(out, "\nMost temporary allocations (freed before the thread allocated again; %"
                     PRIu64 " in all):\n", temps);
        for (size_t i = 0; i < n && (int)i < top_n && c_rows[i].temporary; i++)
            fprintf(out, "  %10" PRIu64 " of %10" PRIu64 " calls  %s\n", c_rows[i].temporary,
                    c_rows[i].allocs, vis_site_name(c_rows[i].label));
        if (!temps)
            fprintf(out, "  (none)\n");
        free(c_rows);
    }
    return 0;
}
