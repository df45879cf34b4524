/* summary.c: the text summary, what a bug report needs first (summary.h):
 * the profile's own numbers (command, duration, peak and its sites, the
 * true peak and the bursts of memtime's exact outline, the heap limit,
 * resident memory, phase marks, threads' stacks), then what the analyses
 * found (model/analysis.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/units.h"
#include "model/alloc_account.h"
#include "model/group_cut.h"
#include "model/groups.h"
#include "model/wrappers.h"
#include "model/sites.h"
#include "render/growth_text.h"
#include "render/summary.h"

/* ------------------------------------------------------------ formatting */

static const char *unit_name(vis_unit u)
{
    switch (u) {
    case VIS_UNIT_I: return "i (instructions executed)";
    case VIS_UNIT_MS: return "ms (milliseconds)";
    default: return "B (bytes allocated and freed)";
    }
}

/* --------------------------------------------------------------- summary */

static void summary_wrappers(FILE *out, const vis_profile *p);

/* memtime --heap-limit: the limit, when it was reached and what followed. */
static void summary_limit(FILE *out, const vis_profile *p)
{
    char a[64], b[64];
    const vis_heap_limit *l = &p->limit;
    if (!l->present)
        return;
    vis_fmt_bytes(a, sizeof a, l->bytes);
    if (!l->reached) {
        fprintf(out, "\nHeap limit: %s (--heap-limit-action=%s), never reached\n", a,
                vis_limit_action_name(l->action));
        return;
    }
    vis_fmt_time(b, sizeof b, p->unit, l->time);
    switch (l->action) {
    case VIS_LIMIT_KILL:
        fprintf(out, "\nHeap limit: %s reached at %s: memtime took the snapshot of that moment "
                     "and ended the program with SIGKILL (--heap-limit-action=kill)\n", a, b);
        break;
    case VIS_LIMIT_FAIL:
        fprintf(out, "\nHeap limit: %s first reached at %s: %" PRIu64 " allocation%s refused "
                     "(--heap-limit-action=fail)\n", a, b, l->refused, l->refused == 1 ? "" : "s");
        break;
    case VIS_LIMIT_SNAPSHOT:
        fprintf(out, "\nHeap limit: %s first passed at %s: a detailed snapshot was taken there "
                     "(--heap-limit-action=snapshot)\n", a, b);
        break;
    }
}

/* Resident memory (memtime --rss=yes): the RSS peak, how much of it the heap
 * explains, and the largest mappings outside the heap resident then. */
static void summary_rss(FILE *out, const vis_profile *p)
{
    char a[64], b[64], c[64], d[64], e[64];
    const vis_rss_peak *k = &p->rss_peak;
    if (!k->present)
        return;
    vis_rss r = { 1, k->anon_B, k->file_B, k->shmem_B };
    uint64_t total = vis_rss_total(&r);
    fprintf(out, "\nResident memory (RSS; the program's own mappings):\n");
    fprintf(out, "  Peak RSS:   %s at %s: anonymous %s, file %s, shared %s\n",
            vis_fmt_bytes(a, sizeof a, total), vis_fmt_time(b, sizeof b, p->unit, k->time),
            vis_fmt_bytes(c, sizeof c, k->anon_B), vis_fmt_bytes(d, sizeof d, k->file_B),
            vis_fmt_bytes(e, sizeof e, k->shmem_B));
    fprintf(out, "              heap (with extra) %s there: it explains %.1f%% of the RSS; "
            "%s is outside the heap\n",
            vis_fmt_bytes(a, sizeof a, k->heap_B),
            total ? 100.0 * (double)k->heap_B / (double)total : 0.0,
            vis_fmt_bytes(c, sizeof c, total > k->heap_B ? total - k->heap_B : 0));
    const vis_snapshot *pk = &p->snaps[p->peak];
    if (p->rss && p->rss[p->peak].valid) {
        uint64_t at = vis_rss_total(&p->rss[p->peak]);
        fprintf(out, "  At the heap peak (snapshot %zu): RSS %s, heap %s (%.1f%%)\n", p->peak,
                vis_fmt_bytes(a, sizeof a, at),
                vis_fmt_bytes(b, sizeof b, pk->heap_B + pk->heap_extra_B),
                at ? 100.0 * (double)(pk->heap_B + pk->heap_extra_B) / (double)at : 0.0);
    }
    size_t last = SIZE_MAX;
    for (size_t i = p->n_snaps; p->rss && i-- > 0;)
        if (p->rss[i].valid) {
            last = i;
            break;
        }
    if (last != SIZE_MAX) {
        const vis_snapshot *ls = &p->snaps[last];
        uint64_t at = vis_rss_total(&p->rss[last]);
        fprintf(out, "  Last reading (snapshot %zu, %s): RSS %s, heap %s (%.1f%%)\n", last,
                vis_fmt_time(c, sizeof c, p->unit, ls->time), vis_fmt_bytes(a, sizeof a, at),
                vis_fmt_bytes(b, sizeof b, ls->heap_B + ls->heap_extra_B),
                at ? 100.0 * (double)(ls->heap_B + ls->heap_extra_B) / (double)at : 0.0);
    }
    if (k->n_maps == 0)
        return;
    /* The few that matter: at most 5, none under 1% of the peak. Under
     * memtime --allocator=program the heap is the program's allocator's
     * mappings, one group named "[malloc]", listed with the rest; in the
     * default mode memtime's own heap is left out. */
    if (p->allocator.name[0])
        fprintf(out, "  Largest mappings at the RSS peak ([malloc]: %s's, the heap and what it holds "
                     "freed):\n", p->allocator.name);
    else
        fprintf(out, "  Largest mappings at the RSS peak outside the malloc heap:\n");
    size_t shown = 0;
    uint64_t rest = 0;
    for (size_t i = 0; i < k->n_maps; i++) {
        const vis_rss_mapping *m = &k->maps[i];
        uint64_t t = m->anon_B + m->file_B + m->shmem_B;
        if (shown == 5 || (shown > 0 && t * 100 < total)) {
            rest += t;
            continue;
        }
        shown++;
        const char *kind = m->shmem_B >= m->anon_B && m->shmem_B >= m->file_B ? "shared"
                           : m->file_B >= m->anon_B                           ? "file"
                                                                              : "anon";
        fprintf(out, "  %2zu. %10s  %-6s %s", i + 1, vis_fmt_bytes(a, sizeof a, t), kind, m->name);
        if (m->n_maps > 1)
            fprintf(out, " (%" PRIu64 " mappings)", m->n_maps);
        fputc('\n', out);
        for (size_t j = 0; j < m->n_frames && j < 3; j++)
            fprintf(out, "      %s %s\n", j ? "  by" : "mmap at", vis_site_name(m->frames[j]));
    }
    if (shown < k->n_maps)
        fprintf(out, "      %10s  in %zu smaller mapping group%s\n", vis_fmt_bytes(a, sizeof a, rest),
                k->n_maps - shown, k->n_maps - shown == 1 ? "" : "s");
}

/* The RSS split by the allocator's own account (memtime
 * --allocator=program, model/alloc_account.h) where it holds the most
 * freed: the bytes the program holds, what the allocator holds freed (by
 * its names), and what lies outside it; the three add up to the RSS. */
static void summary_allocator(FILE *out, const vis_profile *p)
{
    char a[64], b[64], c[64], d[64], e[64], f[64], g[64];
    vis_alloc_moment m;
    if (!p->allocator.name[0] || vis_alloc_most_held(p, &m) != 0)
        return;
    const vis_alloc_stats *r = m.stats;
    const vis_alloc_split sp = m.split;
    const char *name = p->allocator.name;
    fprintf(out, "\nThe RSS by the allocator's own account, where it holds the most freed (%s, read at %s):\n", name,
            vis_fmt_time(a, sizeof a, p->unit, r->time));
    fprintf(out, "  RSS %s = heap %s + %s holds freed %s + outside %s %s\n",
            vis_fmt_bytes(a, sizeof a, sp.rss_B), vis_fmt_bytes(b, sizeof b, sp.heap_B), name,
            vis_fmt_bytes(c, sizeof c, sp.held_B), name,
            vis_fmt_bytes(d, sizeof d, sp.outside_B));
    if (m.snap != SIZE_MAX) {
        const vis_snapshot *s = &p->snaps[m.snap];
        fprintf(out, "  (the RSS of snapshot %zu at %s; memtime's heap there %s, with extra %s)\n",
                m.snap, vis_fmt_time(e, sizeof e, p->unit, s->time), vis_fmt_bytes(f, sizeof f, s->heap_B),
                vis_fmt_bytes(a, sizeof a, s->heap_B + s->heap_extra_B));
    } else
        fprintf(out, "  (the RSS read at %s, at a snapshot culled since)\n",
                vis_fmt_time(e, sizeof e, p->unit, m.rss_time));
    switch (vis_alloc_kind_of(r)) {
    case VIS_AK_JEMALLOC: {
        uint64_t act = vis_alloc_stat_or0(r, VIS_AS_ACTIVE), al = vis_alloc_stat_or0(r, VIS_AS_ALLOCATED);
        fprintf(out, "  %s holds freed: dirty pages %s, muzzy pages %s, partly used pages %s, "
                     "metadata %s; retained (unmapped) %s\n",
                name, vis_fmt_bytes(a, sizeof a, vis_alloc_stat_or0(r, VIS_AS_DIRTY)),
                vis_fmt_bytes(b, sizeof b, vis_alloc_stat_or0(r, VIS_AS_MUZZY)),
                vis_fmt_bytes(c, sizeof c, act > al ? act - al : 0),
                vis_fmt_bytes(d, sizeof d, vis_alloc_stat_or0(r, VIS_AS_METADATA)),
                vis_fmt_bytes(e, sizeof e, vis_alloc_stat_or0(r, VIS_AS_RETAINED)));
        break;
    }
    case VIS_AK_TCMALLOC:
        fprintf(out, "  %s holds freed: free pages in its page heap %s, free blocks in its caches %s "
                     "(central %s, transfer %s, thread %s), metadata %s; unmapped (returned) %s\n",
                name, vis_fmt_bytes(a, sizeof a, vis_alloc_stat_or0(r, VIS_AS_PAGEHEAP_FREE)),
                vis_fmt_bytes(b, sizeof b, vis_alloc_tc_caches(r)),
                vis_fmt_bytes(c, sizeof c, vis_alloc_stat_or0(r, VIS_AS_CENTRAL_FREE)),
                vis_fmt_bytes(d, sizeof d, vis_alloc_stat_or0(r, VIS_AS_TRANSFER_FREE)),
                vis_fmt_bytes(e, sizeof e, vis_alloc_stat_or0(r, VIS_AS_THREAD_FREE)),
                vis_fmt_bytes(f, sizeof f, vis_alloc_stat_or0(r, VIS_AS_METADATA)),
                vis_fmt_bytes(g, sizeof g, vis_alloc_stat_or0(r, VIS_AS_PAGEHEAP_UNMAPPED)));
        break;
    case VIS_AK_MIMALLOC: {
        uint64_t cm = vis_alloc_stat_or0(r, VIS_AS_COMMITTED), al = vis_alloc_stat_or0(r, VIS_AS_ALLOCATED);
        fprintf(out, "  %s holds freed: committed %s beyond the heap's %s (its commit %s, its peak %s; "
                     "the heap by memtime's count: %s counts it only in a statistics build)\n",
                name, vis_fmt_bytes(a, sizeof a, cm > al ? cm - al : 0), vis_fmt_bytes(b, sizeof b, al),
                vis_fmt_bytes(c, sizeof c, cm),
                vis_fmt_bytes(d, sizeof d, vis_alloc_stat_or0(r, VIS_AS_PEAK_COMMITTED)), name);
        break;
    }
    default: {
        uint64_t fr = vis_alloc_stat_or0(r, VIS_AS_FREE), top = vis_alloc_stat_or0(r, VIS_AS_TOP_RELEASABLE);
        fprintf(out, "  %s holds freed: free chunks %s in its arenas, %s of them at the top "
                     "(trimmable), %s in holes (malloc_trim returns their whole pages)\n",
                name, vis_fmt_bytes(a, sizeof a, fr), vis_fmt_bytes(b, sizeof b, top),
                vis_fmt_bytes(c, sizeof c, fr > top ? fr - top : 0));
        break;
    }
    }
}

/* The largest bursts of the exact outline (at most 5): when the top was,
 * how far above the level before it rose, how long it stayed above half
 * that, and the top site of a tree taken during it, if any. */
static void summary_bursts(FILE *out, const vis_profile *p, const vis_analysis *an)
{
    char a[64], b[64], c[64], d[64];
    if (!p->outline.present)
        return;
    if (an->n_bursts == 0) {
        fprintf(out, "\nBursts (exact outline): none rose by 5%% of its maximum and came back "
                     "down\n");
        return;
    }
    fprintf(out, "\nBursts (exact outline; rises by 5%% of its maximum or more that came back "
                 "down, largest first):\n");
    for (size_t i = 0; i < an->n_bursts && i < 5; i++) {
        const vis_burst *u = &an->bursts[i];
        fprintf(out, "  at %10s  %10s above %10s  for %10s  ",
                vis_fmt_time(a, sizeof a, p->unit, u->top_time),
                vis_fmt_delta(b, sizeof b, u->height_B > INT64_MAX ? INT64_MAX : (int64_t)u->height_B),
                vis_fmt_bytes(c, sizeof c, u->level_B),
                vis_fmt_time(d, sizeof d, p->unit, u->end - u->start));
        if (u->snap == SIZE_MAX)
            fprintf(out, "no tree during it\n");
        else if (u->site == SIZE_MAX)
            fprintf(out, "snapshot %zu: no site\n", u->snap);
        else
            fprintf(out, "snapshot %zu: %s %s\n", u->snap, vis_fmt_bytes(a, sizeof a, u->site_B),
                    p->site_info[u->site].name);
    }
    if (an->n_bursts > 5)
        fprintf(out, "  ... %s%zu more\n", an->n_bursts == VIS_BURSTS_MAX ? "at least " : "",
                an->n_bursts - 5);
}

/* Under a remainder line that holds much of the heap, what it holds by a
 * coarser grouping (model/groups.h), as shares of the snapshot (total),
 * aligned with the names above. */
static void rest_by_line(FILE *out, const vis_profile *p, const vis_rest_by *r, uint64_t total)
{
    fprintf(out, "%25sby %s%s, largest:", "", vis_group_by_name(r->by),
            p->grouping.by == r->by ? " (nothing coarser)" : "");
    for (size_t k = 0; k < r->n; k++)
        fprintf(out, "%s %s %.1f%%", k ? "," : "", r->part[k].name,
                total ? 100.0 * (double)r->part[k].bytes / (double)total : 0.0);
    fputc('\n', out);
}

/* The profile's head: its file, command, unit, duration, snapshots, the
 * peak and the largest total, the exact outline's true peak, where the
 * data came from and what was cut short. */
static void summary_profile(FILE *out, const vis_profile *p, const vis_analysis *an)
{
    char a[64], b[64], c[64], d[32];
    const vis_snapshot *last = &p->snaps[p->n_snaps - 1];
    const vis_snapshot *pk = &p->snaps[p->peak];
    uint64_t pk_total = vis_snap_total(pk);

    fprintf(out, "memtime-vis summary of %s\n", p->path);
    fprintf(out, "  Command:    %s\n", p->cmd);
    fprintf(out, "  Time unit:  %s\n", unit_name(p->unit));
    /* From the first snapshot: a forked child's profile starts at the fork,
     * on its parent's clock. */
    fprintf(out, "  Duration:   %s (last snapshot, %zu, at time=%s)\n",
            vis_fmt_time(a, sizeof a, p->unit, last->time - p->snaps[0].time), p->n_snaps - 1,
            vis_fmt_grouped(d, last->time));
    fprintf(out, "  Snapshots:  %zu, %zu detailed\n", p->n_snaps, p->n_detailed);
    fprintf(out, "  Peak:       %s (%s B) at %s, snapshot %zu\n",
            vis_fmt_bytes(a, sizeof a, pk_total), vis_fmt_grouped(c, pk_total),
            vis_fmt_time(b, sizeof b, p->unit, pk->time), p->peak);
    fprintf(out, "              heap %s, extra heap %s, stacks ",
            vis_fmt_bytes(a, sizeof a, pk->heap_B), vis_fmt_bytes(b, sizeof b, pk->heap_extra_B));
    fprintf(out, "%s\n", vis_fmt_bytes(a, sizeof a, pk->stacks_B));
    if (p->largest != p->peak) {
        const vis_snapshot *lg = &p->snaps[p->largest];
        uint64_t lg_total = vis_snap_total(lg);
        fprintf(out, "  Largest:    %s (%s B) at %s, snapshot %zu: more than at the peak the "
                "file marks\n", vis_fmt_bytes(a, sizeof a, lg_total), vis_fmt_grouped(c, lg_total),
                vis_fmt_time(b, sizeof b, p->unit, lg->time), p->largest);
    }
    const vis_outline_top *ot = &an->outline_top;
    uint64_t lg_total = vis_snap_total(&p->snaps[p->largest]);
    if (ot->span != SIZE_MAX && ot->bytes > lg_total) {
        char e[64], f[64], g[32];
        fprintf(out, "  True peak:  %s (%s B) in [%s, %s) by the exact outline: the samples' "
                "peak misses %s (%s B)\n", vis_fmt_bytes(a, sizeof a, ot->bytes),
                vis_fmt_grouped(c, ot->bytes), vis_fmt_time(b, sizeof b, p->unit, ot->start),
                vis_fmt_time(e, sizeof e, p->unit, ot->end),
                vis_fmt_bytes(f, sizeof f, ot->bytes - lg_total),
                vis_fmt_grouped(g, ot->bytes - lg_total));
    }
    if (p->truncated)
        fprintf(out, "  Warning:    the file is cut short at line %zu; %zu complete "
                "snapshots are shown\n", p->truncated_line, p->n_snaps);
    /* A profile converted from heap dumps says where it came from; its
     * companion is then a temporary file of no interest. */
    for (size_t i = 0; i < p->n_sources; i++)
        fprintf(out, "  %-11s %s\n", i ? "" : "Source:", p->sources[i]);
    if (p->companion && !p->n_sources)
        fprintf(out, "  Companion:  %s\n", p->companion);
    if (p->companion && p->companion_cut_line)
        fprintf(out, "  Warning:    the companion is cut short at line %zu; its records "
                "before the cut are used\n", p->companion_cut_line);
}

/* What the peak's list ranks, for its heading: "allocation sites", or the
 * groups and why the default chose them. */
static void peak_list_what(const vis_profile *p, char *what, size_t n)
{
    const vis_grouping *gr = &p->grouping;
    int groups = gr->applied && gr->by != VIS_GROUP_SITE;
    if (groups && gr->by_auto && gr->descend)
        snprintf(what, n, "groups by %s, %s by function (the default for this "
                 "program%s%s; %s held %.1f%% of the heap by %s, more than half; --group-by)",
                 vis_group_by_name(gr->by), gr->descend, gr->why ? ": " : "",
                 gr->why ? gr->why : "", gr->descend, gr->descend_share,
                 vis_group_by_name(gr->by));
    else if (groups && gr->by_auto)
        snprintf(what, n, "groups by %s (the default for this program%s%s; --group-by)",
                 vis_group_by_name(gr->by), gr->why ? ": " : "", gr->why ? gr->why : "");
    else if (groups && gr->descend)
        snprintf(what, n, "groups by %s, %s by function", vis_group_by_name(gr->by),
                 gr->descend);
    else if (groups)
        snprintf(what, n, "groups by %s", vis_group_by_name(gr->by));
    else
        snprintf(what, n, "allocation sites");
}

/* The "Grouping:" line: the grouping, where its data came from, the
 * threshold and what falls back or merges below it. */
static void summary_grouping(FILE *out, const vis_profile *p)
{
    const vis_grouping *gr = &p->grouping;
    int groups = gr->applied && gr->by != VIS_GROUP_SITE;
    if (gr->applied && gr->fallback != VIS_GROUP_AUTO) {
        vis_group_by fb2 = vis_group_fallback2(gr->by, gr->fallback);
        fprintf(out, "Grouping:   by %s, %s; %s below %.2f%% of a snapshot's heap (%s) "
                "fall back to their %s%s%s (\"other %s in ...\"), what is left merges\n",
                vis_group_by_name(gr->by),
                gr->from_detail ? "from memtime's unpruned detail" : "from the file's trees",
                gr->by == VIS_GROUP_FILE ? "files" : "functions", gr->threshold,
                gr->threshold_adapted ? "lowered; --threshold sets it" : "--threshold",
                vis_group_by_name(gr->fallback), fb2 != VIS_GROUP_AUTO ? ", then their " : "",
                fb2 != VIS_GROUP_AUTO ? vis_group_by_name(fb2) : "",
                gr->by == VIS_GROUP_FILE ? "files" : "functions");
    } else if (gr->applied && gr->descend)
        fprintf(out, "Grouping:   by %s, %s by function, %s; %s's functions below %.2f%% "
                "of a snapshot's heap fall back to \"other functions in %s\", other groups "
                "below it merge (%s)\n", vis_group_by_name(gr->by), gr->descend,
                gr->from_detail ? "from memtime's unpruned detail" : "from the file's trees",
                gr->descend, gr->threshold, gr->descend,
                gr->threshold_adapted ? "lowered from 1.00% so that what merges holds at most "
                                        "5% of the peak; --threshold sets it"
                                      : "--threshold");
    else if (gr->applied)
        fprintf(out, "Grouping:   %s%s, %s; groups below %.2f%% of a snapshot's heap "
                "merge (%s)\n", groups ? "by " : "by site",
                groups ? vis_group_by_name(gr->by) : "",
                gr->from_detail ? "from memtime's unpruned detail"
                                : "from the file's trees (what Massif merged stays "
                                  "\"in N places\")", gr->threshold,
                gr->threshold_adapted ? "lowered from 1.00% so that what merges holds at most "
                                        "5% of the peak; --threshold sets it"
                                      : "--threshold");
}

/* The top sites or groups at the peak's tree (or the tree nearest it),
 * what the view's threshold merged broken down, and the rest summed. */
static void summary_top(FILE *out, const vis_profile *p, const vis_report_opts *o)
{
    char a[64], b[64], what[640];
    fprintf(out, "\n");
    if (p->peak_tree_snap == SIZE_MAX) {
        fprintf(out, "Top allocation sites: none (no detailed snapshot)\n");
        return;
    }
    const vis_snapshot *t = &p->snaps[p->peak_tree_snap];
    uint64_t total = vis_snap_total(t);
    int groups = p->grouping.applied && p->grouping.by != VIS_GROUP_SITE;
    peak_list_what(p, what, sizeof what);
    summary_grouping(out, p);
    if (p->peak_tree_snap == p->peak)
        fprintf(out, "Top %s at the peak (snapshot %zu, %s):\n", what,
                p->peak, vis_fmt_bytes(a, sizeof a, total));
    else
        fprintf(out, "The peak has no tree. Top %s at snapshot %zu "
                "(%s at %s), %s:\n", what, p->peak_tree_snap,
                vis_fmt_bytes(a, sizeof a, total), vis_fmt_time(b, sizeof b, p->unit, t->time),
                p->peak_tree_snap == p->peak_marked ? "marked as the peak in the file"
                                                    : "the largest detailed one");
    if (t->n_sites == 0)
        fprintf(out, "  (none: the heap is empty there)\n");
    uint64_t rest = 0;
    size_t n_rest = 0;
    for (size_t i = 0; i < t->n_sites; i++) {
        const vis_site *s = &t->sites[i];
        if ((int)i >= o->top_n) {
            rest += s->bytes;
            n_rest++;
            continue;
        }
        fprintf(out, "  %2zu. %10s %5.1f%%  %s\n", i + 1,
                vis_fmt_bytes(a, sizeof a, s->bytes),
                total ? 100.0 * (double)s->bytes / (double)total : 0.0,
                s->id < p->n_site_info ? p->site_info[s->id].name : vis_site_name(s->label));
        if (s->is_below_threshold && t->rest_by.n && s->label == t->rest_by.line)
            rest_by_line(out, p, &t->rest_by, total);
    }
    if (n_rest)
        fprintf(out, "      %10s %5.1f%%  %zu more %s%s\n", vis_fmt_bytes(a, sizeof a, rest),
                total ? 100.0 * (double)rest / (double)total : 0.0, n_rest,
                groups ? "group" : "site", n_rest == 1 ? "" : "s");
}

/* Big phases the peak list misses: sites that held at least 5% of the
 * peak at some point, by the ranking (largest first). */
static void summary_other_sites(FILE *out, const vis_profile *p, const vis_report_opts *o)
{
    char a[64], b[64];
    uint64_t pk_total = vis_snap_total(&p->snaps[p->peak]);
    uint64_t pk5 = pk_total / 20 + (pk_total % 20 != 0);   /* 5%, rounded up */
    int header = 0;
    for (size_t k = 0; k < p->n_ranked && p->site_info[k].largest_B >= pk5 && pk5 > 0; k++) {
        const vis_site_info *si = &p->site_info[k];
        int listed = 0;
        if (p->peak_tree_snap != SIZE_MAX) {
            const vis_snapshot *t = &p->snaps[p->peak_tree_snap];
            for (size_t i = 0; i < t->n_sites && (int)i < o->top_n && !listed; i++)
                listed = t->sites[i].id == k;
        }
        if (listed)
            continue;
        if (!header++)
            fprintf(out, "Other sites that held at least 5%% of the peak at some point "
                    "(largest size, when):\n");
        fprintf(out, "      %10s %5.1f%%  at %s (snapshot %zu)  %s\n",
                vis_fmt_bytes(a, sizeof a, si->largest_B),
                100.0 * (double)si->largest_B / (double)pk_total,
                vis_fmt_time(b, sizeof b, p->unit, p->snaps[si->largest_snap].time),
                si->largest_snap, si->name);
    }
}

/* The phase marks and the threads' stacks. */
static void summary_marks_threads(FILE *out, const vis_profile *p)
{
    char a[64];
    if (p->n_marks) {
        fprintf(out, "\nPhase marks:\n");
        for (size_t i = 0; i < p->n_marks; i++)
            fprintf(out, "  %12s  %s\n", vis_fmt_time(a, sizeof a, p->unit, p->marks[i].time),
                    p->marks[i].label);
    }
    if (p->n_threads) {
        fprintf(out, "\nThread stacks (largest size seen):\n");
        for (size_t i = 0; i < p->n_threads; i++)
            fprintf(out, "  tid %-5u %10s  %s\n", p->threads[i].tid,
                    vis_fmt_bytes(a, sizeof a, p->threads[i].peak_B),
                    p->threads[i].name ? p->threads[i].name : "");
    }
}

static void summary_head(FILE *out, const vis_profile *p, const vis_analysis *an,
                         const vis_report_opts *o)
{
    summary_profile(out, p, an);
    summary_top(out, p, o);
    summary_wrappers(out, p);
    summary_other_sites(out, p, o);
    summary_limit(out, p);
    summary_rss(out, p);
    summary_allocator(out, p);
    summary_marks_threads(out, p);
    summary_bursts(out, p, an);
}

/* s as one shell word: bare when it has only characters no shell reads
 * specially, else in single quotes (a quote inside as '\''). Names come from
 * the profile: this keeps a copied command line from running any of them. */
static void shell_word(FILE *out, const char *s)
{
    if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_:.@+-/")
                  == strlen(s)) {
        fputs(s, out);
        return;
    }
    fputc('\'', out);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", out);
        else
            fputc(*s, out);
    }
    fputc('\'', out);
}

/* The allocation wrappers the grouping found (groups.h). */
static void summary_wrappers(FILE *out, const vis_profile *p)
{
    const vis_grouping *gr = &p->grouping;
    char a[32];
    if (!gr->n_wrappers)
        return;
    fprintf(out, "Allocation wrappers found (a known name, or at least %d distinct calling "
            "functions, none above %d%% of it, nothing of its own), what each held at the peak:\n",
            VIS_WRAPPER_MIN_CALLERS, VIS_WRAPPER_MAX_SHARE);
    uint64_t rest = 0;
    for (size_t k = 8; k < gr->n_wrappers; k++)
        rest += gr->wrappers[k].bytes;
    for (size_t k = 0; k < gr->n_wrappers && k < 8; k++) {
        const vis_wrapper *w = &gr->wrappers[k];
        char *name = vis_wrapper_display_name(p, w->label);
        char why[96], did[160];
        /* Why it was taken: its name, or its shape where it held the most. */
        if (w->by_name)
            snprintf(why, sizeof why, "known by name, %zu distinct calling function%s", w->n_callers,
                     w->n_callers == 1 ? "" : "s");
        else
            snprintf(why, sizeof why, "by its shape: %zu distinct calling functions, the largest "
                     "%.0f%% of its bytes", w->n_callers, w->largest_share);
        if (!w->n_callers && !w->split && !p->detail.present)
            snprintf(why, sizeof why, "known by name, its callers not in the file");
        /* What the rewrite did with its bytes. */
        if (w->split && w->bytes && !w->bytes_split)
            snprintf(did, sizeof did, "kept as a site: its callers are below the detail's depth "
                     "(memtime's --detail-depth or --alloc-fn reaches them)");
        else if (w->split && w->bytes_split < w->bytes)
            snprintf(did, sizeof did, "its callers are the sites (%s of it; the rest, its own, stays "
                     "with it; --keep-wrappers keeps it)", vis_fmt_bytes(a, sizeof a, w->bytes_split));
        else if (w->split)
            snprintf(did, sizeof did, "its callers are the sites (--keep-wrappers keeps it)");
        else if (p->detail.present)
            snprintf(did, sizeof did, "kept (--keep-wrappers)");
        else
            snprintf(did, sizeof did, "kept: the profile has no detail of its callers (memtime's "
                     "companion has it; or profile with --alloc-fn=NAME)");
        fprintf(out, "      %10s  %s: %s; %s\n", vis_fmt_bytes(a, sizeof a, w->bytes),
                name ? name : vis_site_name(w->label), why, did);
        free(name);
    }
    if (gr->n_wrappers > 8)
        fprintf(out, "      %10s  %zu more (--json lists them)\n", vis_fmt_bytes(a, sizeof a, rest),
                gr->n_wrappers - 8);
    /* What the split cannot do: the file itself (ms_print, massif-visualizer)
     * and the allocation counts keep the wrapper as the site. memtime strips
     * a wrapper named to it as it profiles. */
    int named = 0;
    for (size_t k = 0; k < gr->n_wrappers && k < 8; k++) {
        char *fn = vis_wrapper_alloc_pattern(gr->wrappers[k].label);
        if (!fn)
            continue;
        if (!named++)
            fprintf(out, "  profile with memtime's --alloc-fn so that the file, ms_print and the "
                         "allocation counts name their callers too (long names as patterns):\n");
        fputs("      --alloc-fn=", out);
        shell_word(out, fn);
        fputc('\n', out);
        free(fn);
    }
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
            vis_growth_header_line(out, p);
        vis_growth_row_line(out, p, r);
        shown++;
    }
    if (!shown)
        fprintf(out, "  (no site grew)\n");
}

/* How the run ended, "Growing" over the window, the last moments of a run
 * that did not end at exit, and, with counts, leaks at exit, most
 * allocations, most temporary allocations (top_n rows each). */
static void summary_analysis(FILE *out, const vis_profile *p, const vis_analysis *an, int top_n)
{
    char a[48], b[48], c[48], d[48];
    const vis_growth *g = &an->growth;
    int ended = an->ended;
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
    vis_growth_window_line(out, p, g, g->from == 0 && g->to == p->n_snaps - 1 ? "Growing over the whole run"
                                                                    : "Growing");
    if (g->n_detailed)
        growing(out, p, g, top_n < 5 ? top_n : 5);

    if (!ended) {
        const vis_growth *fin = &an->final;
        size_t from = an->final_from;
        fprintf(out, "\nLast moments (the final 10%% of the run, at least 5 snapshots: from %s, "
                     "snapshot %zu)\n",
                vis_fmt_time(a, sizeof a, p->unit, p->snaps[from].time), from);
        if (fin->n_detailed < 2) {
            fprintf(out, "  too few detailed snapshots there to break down by site; the total went "
                         "from %s to %s\n",
                    vis_fmt_bytes(a, sizeof a, vis_snap_total(&p->snaps[from])),
                    vis_fmt_bytes(b, sizeof b, vis_snap_total(last)));
        } else {
            vis_growth_window_line(out, p, fin, "  What grew");
            growing(out, p, fin, top_n < 5 ? top_n : 5);
        }
    }

    size_t n = an->n_counts;
    if (an->by_live) {
        if (ended) {
            const vis_site_counts *c_rows = an->by_live;
            uint64_t blocks = an->live_blocks, bytes = an->live_bytes;
            fprintf(out, "\nStill live at %s (leaks, if the program was done with them): %s in %"
                         PRIu64 " block%s\n",
                    p->end_record == VIS_END_RECORD_EXEC ? "exec" : "exit", vis_fmt_bytes(a, sizeof a, bytes), blocks,
                    blocks == 1 ? "" : "s");
            for (size_t i = 0; i < n && (int)i < top_n && c_rows[i].live_blocks; i++)
                fprintf(out, "  %10s in %8" PRIu64 " block%s  %s\n",
                        vis_fmt_bytes(a, sizeof a, c_rows[i].live_bytes), c_rows[i].live_blocks,
                        c_rows[i].live_blocks == 1 ? " " : "s", vis_site_label_name(p, c_rows[i].label));
        }
        const vis_site_counts *c_rows = an->by_allocs;
        uint64_t total = an->allocs, temps = an->temporary;
        fprintf(out, "\nMost allocations (%" PRIu64 " in all):\n", total);
        for (size_t i = 0; i < n && (int)i < top_n; i++)
            fprintf(out, "  %10" PRIu64 " calls %10s allocated  %s\n", c_rows[i].allocs,
                    vis_fmt_bytes(a, sizeof a, c_rows[i].alloc_bytes),
                    vis_site_label_name(p, c_rows[i].label));
        c_rows = an->by_temporary;
        fprintf(out, "\nMost temporary allocations (freed before the thread allocated again; %"
                     PRIu64 " in all):\n", temps);
        for (size_t i = 0; i < n && (int)i < top_n && c_rows[i].temporary; i++)
            fprintf(out, "  %10" PRIu64 " of %10" PRIu64 " calls  %s\n", c_rows[i].temporary,
                    c_rows[i].allocs, vis_site_label_name(p, c_rows[i].label));
        if (!temps)
            fprintf(out, "  (none)\n");
    }
}

void vis_summary_write(FILE *out, const vis_profile *p, const vis_analysis *an,
                       const vis_report_opts *o)
{
    summary_head(out, p, an, o);
    summary_analysis(out, p, an, o->top_n);
}
