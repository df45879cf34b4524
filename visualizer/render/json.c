/* json.c: the --json document (see json.h). Written as it goes, no tree of
 * values in memory. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "base/utf8.h"
#include "model/alloc_account.h"
#include "model/chart_data.h"
#include "model/group_cut.h"
#include "model/groups.h"
#include "model/wrappers.h"
#include "model/names.h"
#include "model/sites.h"
#include "model/pruned_tree.h"
#include "render/json.h"

static void grouping(FILE *out, const vis_profile *p);

void vis_json_string(FILE *out, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    fputc('"', out);
    while (*s) {
        unsigned c = *s;
        if (c == '"' || c == '\\') {
            fputc('\\', out);
            fputc((int)c, out);
            s++;
        } else if (c == '\n') {
            fputs("\\n", out);
            s++;
        } else if (c == '\t') {
            fputs("\\t", out);
            s++;
        } else if (c < 0x20 || c == 0x7F || c == '<' || c == '>' || c == '&') {
            fprintf(out, "\\u%04x", c);
            s++;
        } else if (c < 0x80) {
            fputc((int)c, out);
            s++;
        } else {
            size_t n = vis_utf8_len(s, 4);
            if (n == 0) {
                fputs("\\ufffd", out);
                s++;
            } else if (n == 3 && s[0] == 0xE2 && s[1] == 0x80 && (s[2] == 0xA8 || s[2] == 0xA9)) {
                fprintf(out, "\\u%04x", s[2] == 0xA8 ? 0x2028 : 0x2029);
                s += 3;
            } else {
                fwrite(s, 1, n, out);
                s += n;
            }
        }
    }
    fputc('"', out);
}

void vis_json_double(FILE *out, double v)
{
    if (!isfinite(v))
        fputs("null", out);
    else
        fprintf(out, "%.10g", v);
}

static void key(FILE *out, const char *k)
{
    vis_json_string(out, k);
    fputs(": ", out);
}

/* A site's keys: "site", its full name (distinct), "name", the short name
 * every other output prints (distinct), "label", the profile's own text
 * (sites.h). */
static void site_keys(FILE *out, const vis_profile *p, const char *label)
{
    key(out, "site");
    vis_json_string(out, vis_site_label_full(p, label));
    fputs(", ", out);
    key(out, "name");
    vis_json_string(out, vis_site_label_name(p, label));
    fputs(", ", out);
    key(out, "label");
    vis_json_string(out, label);
}

/* A remainder's "rest_by": what it holds by a coarser grouping, its
 * largest groups (model/groups.h); the names are data. */
static void rest_by(FILE *out, const vis_rest_by *r)
{
    fprintf(out, ", \"rest_by\": {\"by\": \"%s\", \"groups\": [", vis_group_by_name(r->by));
    for (size_t k = 0; k < r->n; k++) {
        fputs(k ? ", {" : "{", out);
        key(out, "name");
        vis_json_string(out, r->part[k].name);
        fprintf(out, ", \"bytes\": %" PRIu64 "}", r->part[k].bytes);
    }
    fputs("]}", out);
}

static void growth_rows(FILE *out, const vis_profile *p, const vis_growth *g, const char *indent)
{
    fputc('[', out);
    for (size_t i = 0; i < g->n_rows; i++) {
        const vis_growth_row *r = &g->rows[i];
        fprintf(out, "%s\n%s  {", i ? "," : "", indent);
        site_keys(out, p, r->label);
        fprintf(out, ", \"start_bytes\": %" PRIu64 ", \"end_bytes\": %" PRIu64
                     ", \"growth_bytes\": %" PRId64 ", \"max_bytes\": %" PRIu64 ", \"rate_per_s\": ",
                r->start_bytes, r->end_bytes, r->growth_bytes, r->max_bytes);
        double ps = vis_rate_per_s(p, r->rate);
        vis_json_double(out, p->unit == VIS_UNIT_MS ? ps : NAN);
        fputs(", \"rate_per_unit\": ", out);
        vis_json_double(out, r->rate);
        fputs(", \"kind\": ", out);
        vis_json_string(out, vis_kind_name(r->kind));
        fprintf(out, ", \"maybe_below_threshold\": %s}", r->maybe_below_threshold ? "true" : "false");
    }
    fprintf(out, "%s]", g->n_rows ? "\n" : "");
    if (g->n_rows)
        fputs(indent, out);
}

static void window(FILE *out, const vis_profile *p, const vis_growth *g)
{
    fprintf(out, "{\"from_snapshot\": %zu, \"to_snapshot\": %zu, \"from_time\": %" PRIu64
                 ", \"to_time\": %" PRIu64 ", \"detailed_snapshots\": %zu"
                 ", \"left_out_on_bursts\": %zu}",
            g->from, g->to, p->snaps[g->from].time, p->snaps[g->to].time, g->n_detailed,
            g->n_on_bursts);
}

/* "rss": null without resident-memory readings, else the peak (with its
 * largest mappings outside the heap) and every reading. */
static void rss_json(FILE *out, const vis_profile *p)
{
    const vis_rss_peak *k = &p->rss_peak;
    fputs(",\n  \"rss\": ", out);
    if (!k->present && p->n_rss == 0) {
        fputs("null", out);
        return;
    }
    fputs("{\"peak\": ", out);
    if (!k->present) {
        fputs("null", out);
    } else {
        fprintf(out, "{\"time\": %" PRIu64 ", \"total_bytes\": %" PRIu64 ", \"anon_bytes\": %" PRIu64
                     ", \"file_bytes\": %" PRIu64 ", \"shmem_bytes\": %" PRIu64
                     ", \"heap_bytes\": %" PRIu64 ",\n    \"mappings\": [",
                k->time, k->anon_B + k->file_B + k->shmem_B, k->anon_B, k->file_B, k->shmem_B,
                k->heap_B);
        for (size_t i = 0; i < k->n_maps; i++) {
            const vis_rss_mapping *m = &k->maps[i];
            fprintf(out, "%s\n      {\"name\": ", i ? "," : "");
            vis_json_string(out, m->name);
            fprintf(out, ", \"anon_bytes\": %" PRIu64 ", \"file_bytes\": %" PRIu64
                         ", \"shmem_bytes\": %" PRIu64 ", \"mappings\": %" PRIu64 ", \"mmap_stack\": [",
                    m->anon_B, m->file_B, m->shmem_B, m->n_maps);
            for (size_t j = 0; j < m->n_frames; j++) {
                fputs(j ? ", " : "", out);
                vis_json_string(out, vis_site_name(m->frames[j]));
            }
            fputs("]}", out);
        }
        fputs(k->n_maps ? "\n    ]}" : "]}", out);
    }
    fputs(",\n    \"readings\": [", out);
    size_t n = 0;
    for (size_t i = 0; p->rss && i < p->n_snaps; i++) {
        const vis_rss *r = &p->rss[i];
        if (!r->valid)
            continue;
        fprintf(out, "%s\n      {\"snapshot\": %zu, \"time\": %" PRIu64 ", \"total_bytes\": %" PRIu64
                     ", \"anon_bytes\": %" PRIu64 ", \"file_bytes\": %" PRIu64
                     ", \"shmem_bytes\": %" PRIu64 ", \"heap_total_bytes\": %" PRIu64 "}",
                n++ ? "," : "", i, p->snaps[i].time, vis_rss_total(r), r->anon_B, r->file_B,
                r->shmem_B, vis_snap_total(&p->snaps[i]));
    }
    fputs(n ? "\n    ]}" : "]}", out);
}

/* "allocator": null unless memtime ran the program's own allocator and read
 * its statistics (--allocator=program), else its name and every reading,
 * with the keys it gave, as "<key>_bytes", and "rss_split": the last RSS
 * reading split by the allocator's account (model/alloc_account.h), the
 * summary's line, or null when no reading goes with one. */
static void allocator_json(FILE *out, const vis_profile *p)
{
    const vis_allocator *a = &p->allocator;
    fputs(",\n  \"allocator\": ", out);
    if (!a->name[0]) {
        fputs("null", out);
        return;
    }
    fputs("{\"name\": ", out);
    vis_json_string(out, a->name);
    fputs(", \"stats\": [", out);
    for (size_t i = 0; i < a->n; i++) {
        const vis_alloc_stats *r = &a->stats[i];
        fprintf(out, "%s\n    {\"time\": %" PRIu64, i ? "," : "", r->time);
        if (r->has_rss)
            fprintf(out, ", \"rss_time\": %" PRIu64 ", \"rss_bytes\": %" PRIu64, r->rss_time, r->rss_B);
        for (int k = 0; k < VIS_AS_N; k++)
            if (r->have & (1u << k))
                fprintf(out, ", \"%s_bytes\": %" PRIu64, vis_alloc_stat_keys[k], r->v[k]);
        fputc('}', out);
    }
    fputs(a->n ? "\n  ]" : "]", out);
    vis_alloc_moment m;
    if (vis_alloc_most_held(p, &m) == 0) {
        const vis_alloc_split *sp = &m.split;
        fprintf(out, ",\n   \"rss_split\": {\"time\": %" PRIu64 ", \"snapshot\": ", m.rss_time);
        if (m.snap == SIZE_MAX)
            fputs("null", out);
        else
            fprintf(out, "%zu", m.snap);
        fprintf(out, ", \"stats_time\": %" PRIu64 ", \"rss_bytes\": %" PRIu64 ", \"heap_bytes\": %" PRIu64
                     ", \"held_bytes\": %" PRIu64 ", \"outside_bytes\": %" PRIu64 "}}",
                m.stats->time, sp->rss_B, sp->heap_B, sp->held_B, sp->outside_B);
    } else
        fputs(", \"rss_split\": null}", out);
}

/* The exact outline (memtime's companion): its spans as the reader
 * expanded them (filled ones included, flagged), the resident memory per
 * bucket, its true maximum and the bursts found on it. Empty arrays and
 * nulls for a profile without one (Massif's). */
static void outline_json(FILE *out, const vis_profile *p, const vis_analysis *an)
{
    const vis_outline *o = &p->outline;
    fputs(",\n  \"outline\": [", out);
    for (size_t i = 0; i < o->n; i++) {
        const vis_outline_span *s = &o->spans[i];
        fprintf(out, "%s\n    {\"start\": %" PRIu64 ", \"end\": %" PRIu64 ", \"min_bytes\": %" PRIu64
                     ", \"max_bytes\": %" PRIu64 ", \"last_bytes\": %" PRIu64
                     ", \"heap_min_bytes\": %" PRIu64 ", \"heap_max_bytes\": %" PRIu64
                     ", \"heap_last_bytes\": %" PRIu64 ", \"filled\": %s}",
                i ? "," : "", s->start, s->end, s->min_B, s->max_B, s->last_B, s->heap_min_B,
                s->heap_max_B, s->heap_last_B, s->filled ? "true" : "false");
    }
    fputs(o->n ? "\n  ]" : "]", out);
    fputs(",\n  \"outline_rss\": [", out);
    for (size_t i = 0; i < o->n_rss; i++) {
        const vis_outline_rss *r = &o->rss[i];
        fprintf(out, "%s\n    {\"start\": %" PRIu64 ", \"end\": %" PRIu64 ", \"min_bytes\": %" PRIu64
                     ", \"max_bytes\": %" PRIu64 ", \"last_bytes\": %" PRIu64 "}",
                i ? "," : "", r->start, r->end, r->min_B, r->max_B, r->last_B);
    }
    fputs(o->n_rss ? "\n  ]" : "]", out);
    fputs(",\n  \"outline_info\": ", out);
    if (!o->present) {
        fputs("null", out);
    } else {
        fprintf(out, "{\"width\": %" PRIu64 ", \"end\": %" PRIu64 ", \"max_bytes\": ", o->width,
                o->end);
        const vis_outline_top *t = &an->outline_top;
        if (t->span == SIZE_MAX)
            fputs("null, \"max_start\": null, \"max_end\": null}", out);
        else
            fprintf(out, "%" PRIu64 ", \"max_start\": %" PRIu64 ", \"max_end\": %" PRIu64 "}",
                    t->bytes, t->start, t->end);
    }
    fputs(",\n  \"bursts\": [", out);
    for (size_t i = 0; i < an->n_bursts; i++) {
        const vis_burst *b = &an->bursts[i];
        fprintf(out, "%s\n    {\"top_time\": %" PRIu64 ", \"top_end\": %" PRIu64
                     ", \"top_bytes\": %" PRIu64 ", \"level_bytes\": %" PRIu64
                     ", \"height_bytes\": %" PRIu64 ", \"start\": %" PRIu64 ", \"end\": %" PRIu64
                     ", \"duration\": %" PRIu64 ", \"snapshot\": ",
                i ? "," : "", b->top_time, o->spans[b->top_span].end, b->top_B, b->level_B,
                b->height_B, b->start, b->end, b->end - b->start);
        if (b->snap == SIZE_MAX)
            fputs("null", out);
        else
            fprintf(out, "%zu", b->snap);
        if (b->site == SIZE_MAX)
            fputs(", \"site\": null, \"name\": null, \"label\": null", out);
        else {
            fputs(", ", out);
            site_keys(out, p, p->site_info[b->site].label);
        }
        fprintf(out, ", \"site_bytes\": %" PRIu64 "}", b->site_B);
    }
    fputs(an->n_bursts ? "\n  ]" : "]", out);
}

/* The document's keys, without the closing brace, so the report page can
 * add its own keys to the same document. */
static void profile_keys(FILE *out, const vis_profile *p, const vis_analysis *an)
{
    const vis_growth *g = &an->growth;
    static const char *const units[] = { "i", "ms", "B" };
    const vis_snapshot *pk = &p->snaps[p->peak];
    int ended = an->ended;

    fputs("{\n  ", out);
    key(out, "command");
    vis_json_string(out, p->cmd ? p->cmd : "");
    fputs(",\n  ", out);
    key(out, "profile");
    vis_json_string(out, p->path);
    fprintf(out, ",\n  \"time_unit\": \"%s\",\n", units[p->unit]);
    /* A profile converted from heap dumps: where from, sampling, clock. */
    fputs("  \"source\": [", out);
    for (size_t i = 0; i < p->n_sources; i++) {
        if (i)
            fputs(", ", out);
        vis_json_string(out, p->sources[i]);
    }
    fputs("],\n", out);
    fprintf(out, "  \"duration\": %" PRIu64 ",\n  \"snapshots\": %zu,\n"
                 "  \"detailed_snapshots\": %zu,\n",
            p->snaps[p->n_snaps - 1].time, p->n_snaps, p->n_detailed);
    fprintf(out, "  \"ended_by_exit\": %s,\n  \"end\": %s,\n", ended ? "true" : "false",
            p->end_record == VIS_END_RECORD_EXIT ? "\"exit\"" : p->end_record == VIS_END_RECORD_EXEC ? "\"exec\""
            : p->end_record == VIS_END_RECORD_RUNNING ? "\"none\"" : "null");
    /* The files cut short (read/load.h): where each one ends. */
    fputs("  \"cut_short\": [", out);
    const char *cut_file[2] = { p->truncated ? p->path : NULL,
                                p->companion_cut_line ? p->companion : NULL };
    size_t cut_line[2] = { p->truncated_line, p->companion_cut_line }, n_cut = 0;
    for (size_t k = 0; k < 2; k++) {
        if (!cut_file[k])
            continue;
        fputs(n_cut++ ? ", {" : "{", out);
        key(out, "file");
        vis_json_string(out, cut_file[k]);
        fprintf(out, ", \"line\": %zu}", cut_line[k]);
    }
    fputs("],\n", out);
    grouping(out, p);
    if (p->limit.present) {
        fprintf(out, "  \"heap_limit\": {\"bytes\": %" PRIu64 ", \"action\": \"%s\", \"time\": ",
                p->limit.bytes, vis_limit_action_name(p->limit.action));
        if (p->limit.reached)
            fprintf(out, "%" PRIu64, p->limit.time);
        else
            fputs("null", out);
        fprintf(out, ", \"refused\": %" PRIu64 "},\n", p->limit.refused);
    } else {
        fputs("  \"heap_limit\": null,\n", out);
    }
    fprintf(out, "  \"peak\": {\"snapshot\": %zu, \"time\": %" PRIu64 ", \"total_bytes\": %" PRIu64
                 ", \"heap_bytes\": %" PRIu64 ", \"extra_bytes\": %" PRIu64
                 ", \"stacks_bytes\": %" PRIu64 ",\n    \"sites_snapshot\": ",
            p->peak, pk->time, vis_snap_total(pk), pk->heap_B, pk->heap_extra_B, pk->stacks_B);
    if (p->peak_tree_snap == SIZE_MAX) {
        fputs("null, \"sites\": []},\n", out);
    } else {
        const vis_snapshot *t = &p->snaps[p->peak_tree_snap];
        fprintf(out, "%zu, \"sites\": [", p->peak_tree_snap);
        for (size_t i = 0; i < t->n_sites; i++) {
            fprintf(out, "%s\n    {", i ? "," : "");
            site_keys(out, p, t->sites[i].label);
            fprintf(out, ", \"bytes\": %" PRIu64, t->sites[i].bytes);
            if (t->sites[i].is_below_threshold && t->rest_by.n && t->sites[i].label == t->rest_by.line)
                rest_by(out, &t->rest_by);
            fputc('}', out);
        }
        fprintf(out, "%s]},\n", t->n_sites ? "\n  " : "");
    }
    fputs("  \"window\": ", out);
    window(out, p, g);
    fputs(",\n  \"growth\": ", out);
    growth_rows(out, p, g, "  ");
    fputs(",\n  \"last_moments\": ", out);
    if (ended) {
        fputs("null", out);
    } else {
        const vis_growth *fin = &an->final;
        fputs("{\"window\": ", out);
        window(out, p, fin);
        fprintf(out, ", \"end_bytes\": %" PRIu64 ", \"peak_bytes\": %" PRIu64 ",\n    \"growth\": ",
                vis_snap_total(&p->snaps[p->n_snaps - 1]), vis_snap_total(pk));
        growth_rows(out, p, fin, "    ");
        fputs("}", out);
    }

    size_t n = an->n_counts;
    fputs(",\n  \"at_exit\": ", out);
    if (!an->by_live || !ended) {
        fputs("null", out);
    } else {
        const vis_site_counts *c = an->by_live;
        fputc('[', out);
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (!c[i].live_blocks)
                continue;
            fprintf(out, "%s\n    {", k++ ? "," : "");
            site_keys(out, p, c[i].label);
            fprintf(out, ", \"bytes\": %" PRIu64 ", \"blocks\": %" PRIu64 "}", c[i].live_bytes,
                    c[i].live_blocks);
        }
        fputs(k ? "\n  ]" : "]", out);
    }
    if (an->by_allocs) {
        const vis_site_counts *c = an->by_allocs;
        fputs(",\n  \"sites\": [", out);
        for (size_t i = 0; i < n; i++) {
            fprintf(out, "%s\n    {", i ? "," : "");
            site_keys(out, p, c[i].label);
            fprintf(out, ", \"allocations\": %" PRIu64 ", \"temporary\": %" PRIu64
                         ", \"allocated_bytes\": %" PRIu64 ", \"live_blocks\": %" PRIu64
                         ", \"live_bytes\": %" PRIu64 "}",
                    c[i].allocs, c[i].temporary, c[i].alloc_bytes, c[i].live_blocks,
                    c[i].live_bytes);
        }
        fputs(n ? "\n  ]" : "]", out);
    }
    rss_json(out, p);
    allocator_json(out, p);
    outline_json(out, p, an);
    fputs(",\n  \"marks\": [", out);
    for (size_t i = 0; i < p->n_marks; i++) {
        fprintf(out, "%s\n    {\"time\": %" PRIu64 ", \"label\": ", i ? "," : "", p->marks[i].time);
        vis_json_string(out, p->marks[i].label);
        fputc('}', out);
    }
    fputs(p->n_marks ? "\n  ]" : "]", out);
}

/* "grouping": how the sites are grouped and the allocation wrappers found
 * (groups.h). */
static void grouping(FILE *out, const vis_profile *p)
{
    const vis_grouping *gr = &p->grouping;
    fprintf(out, "  \"grouping\": {\"by\": \"%s\", \"by_default\": %s, \"default_reason\": ",
            vis_group_by_name(gr->applied ? gr->by : VIS_GROUP_SITE), gr->by_auto ? "true" : "false");
    if (gr->by_auto && gr->why)
        vis_json_string(out, gr->why);
    else
        fputs("null", out);
    fprintf(out, ", \"threshold\": %.2f, \"threshold_adapted\": %s, \"from_detail\": %s, \"fallback\": ",
            gr->threshold, gr->threshold_adapted ? "true" : "false", gr->from_detail ? "true" : "false");
    if (gr->applied && gr->fallback != VIS_GROUP_AUTO) {
        vis_group_by fb2 = vis_group_fallback2(gr->by, gr->fallback);
        fprintf(out, "[\"%s\"", vis_group_by_name(gr->fallback));
        if (fb2 != VIS_GROUP_AUTO)
            fprintf(out, ", \"%s\"", vis_group_by_name(fb2));
        fputc(']', out);
    } else {
        fputs("null", out);
    }
    /* The default view's descent into one group's functions (groups.h). */
    fputs(", \"descended\": ", out);
    if (gr->applied && gr->descend) {
        fputs("{\"group\": ", out);
        vis_json_string(out, gr->descend);
        fprintf(out, ", \"by\": \"function\", \"percent\": %.1f}", gr->descend_share);
    } else {
        fputs("null", out);
    }
    fputs(", \"wrappers\": [", out);
    for (size_t k = 0; k < gr->n_wrappers; k++) {
        const vis_wrapper *w = &gr->wrappers[k];
        fprintf(out, "%s\n    {\"function\": ", k ? "," : "");
        vis_json_string(out, vis_site_name(w->label));
        char *name = vis_wrapper_display_name(p, w->label);   /* as the summary prints it */
        fputs(", \"name\": ", out);
        vis_json_string(out, name ? name : vis_site_name(w->label));
        free(name);
        /* What memtime's --alloc-fn takes to strip it while profiling. */
        char *fn = vis_wrapper_alloc_fn(w->label);
        fputs(", \"alloc_fn\": ", out);
        if (fn)
            vis_json_string(out, fn);
        else
            fputs("null", out);
        free(fn);
        /* Why it was taken, and which of its bytes went to its callers. */
        fprintf(out, ", \"bytes\": %" PRIu64 ", \"bytes_to_callers\": %" PRIu64
                     ", \"callers\": %zu, \"largest_caller_percent\": %.1f, \"by_name\": %s, "
                     "\"reason\": \"%s\", \"callers_are_sites\": %s}",
                w->bytes, w->bytes_split, w->n_callers, w->largest_share,
                w->by_name ? "true" : "false", w->by_name ? "known name" : "shape",
                w->split ? "true" : "false");
    }
    fprintf(out, "%s]},\n", gr->n_wrappers ? "\n  " : "");
}

void vis_json_profile(FILE *out, const vis_profile *p, const vis_analysis *an)
{
    profile_keys(out, p, an);
    fputs("\n}\n", out);
}

/* ---- The report page's keys (vis_json_report) ---- */

static const char *band_kind(vis_band_kind k)
{
    switch (k) {
    case VIS_BAND_SITE: return "site";
    case VIS_BAND_OTHER: return "other";
    case VIS_BAND_UNATTRIBUTED: return "unattributed";
    case VIS_BAND_EXTRA: return "extra";
    default: return "stacks";
    }
}

/* "timeline": the chart's bands (chart_data.h, the PNG's numbers and
 * colours) and every snapshot's numbers. */
static void timeline_json(FILE *out, const vis_profile *p, const vis_chart_data *d)
{
    static const char *const kinds[] = { "empty", "detailed", "peak" };
    fputs(",\n  \"timeline\": {\"bands\": [", out);
    for (size_t b = 0; b < d->n_bands; b++) {
        fprintf(out, "%s\n    {\"name\": ", b ? "," : "");
        vis_json_string(out, d->bands[b].label);
        if (d->bands[b].kind == VIS_BAND_SITE && b < p->n_site_info) {
            /* site bands are the ranking's first sites, in its order */
            fputs(", \"full\": ", out);
            vis_json_string(out, p->site_info[b].full_name);
        }
        fprintf(out, ", \"kind\": \"%s\", \"colour\": \"#%06x\"}", band_kind(d->bands[b].kind),
                (unsigned)(d->bands[b].colour & 0xFFFFFF));
    }
    fputs("],\n    \"snapshots\": [", out);
    for (size_t i = 0; i < p->n_snaps; i++) {
        const vis_snapshot *s = &p->snaps[i];
        fprintf(out, "%s\n      {\"snapshot\": %u, \"time\": %" PRIu64 ", \"total_bytes\": %" PRIu64
                     ", \"heap_bytes\": %" PRIu64 ", \"extra_bytes\": %" PRIu64
                     ", \"stacks_bytes\": %" PRIu64 ", \"tree\": \"%s\", \"bands\": [",
                i ? "," : "", s->index, s->time, vis_snap_total(s), s->heap_B, s->heap_extra_B,
                s->stacks_B, kinds[s->kind]);
        for (size_t b = 0; b < d->n_bands; b++)
            fprintf(out, "%s%" PRIu64, b ? "," : "", d->value_B[i * d->n_bands + b]);
        fputs("]}", out);
    }
    fputs("\n    ]}", out);
}

/* One kept node as [depth, bytes, children in the file, label without
 * address] (model/pruned_tree.h decides which are kept). */
typedef struct {
    FILE *out;
    const vis_profile *p;
    size_t n_written;
} tree_ctx;

/* A site (depth 1) is named as everywhere else, its full name fifth (the
 * tooltip); a caller by its full name (names.h: no address, no Rust
 * hash). */
static void tree_node(void *ctx, unsigned depth, uint64_t bytes, const char *label,
                      size_t n_children)
{
    tree_ctx *t = ctx;
    fprintf(t->out, "%s\n        [%u, %" PRIu64 ", %zu, ", t->n_written++ ? "," : "", depth, bytes,
            n_children);
    if (depth == 1) {
        vis_json_string(t->out, vis_site_text_name(t->p, label, 0));
        fputs(", ", t->out);
        vis_json_string(t->out, vis_site_text_name(t->p, label, 1));
    } else {
        char *full = depth == 0 ? NULL : vis_name_full(label);
        vis_json_string(t->out, full ? full : depth == 0 ? label : vis_site_name(label));
        free(full);
    }
    fputc(']', t->out);
}

int vis_json_report(FILE *out, const vis_profile *p, const vis_analysis *an,
                    const vis_chart_data *d, FILE *in, const vis_json_report_opts *o,
                    char *err, size_t errsz)
{
    profile_keys(out, p, an);
    timeline_json(out, p, d);
    if (o->no_trees) {
        fputs("\n}\n", out);
        return 0;
    }
    fprintf(out, ",\n  \"trees\": {\"threshold_percent\": ");
    vis_json_double(out, o->threshold);
    fprintf(out, ", \"max_depth\": %u, \"snapshots\": [", o->max_depth);
    size_t n = 0;
    for (size_t i = 0; i < p->n_snaps; i++) {
        if (p->snaps[i].kind == VIS_TREE_EMPTY)
            continue;
        tree_ctx t = { out, p, 0 };
        size_t n_pruned;
        fprintf(out, "%s\n    {\"snapshot\": %zu, \"nodes\": [", n++ ? "," : "", i);
        if (vis_pruned_tree_walk(in, p, i, o->threshold, o->max_depth, tree_node, &t, &n_pruned,
                                 err, errsz) < 0)
            return -1;
        fprintf(out, "], \"pruned_subtrees\": %zu}", n_pruned);
    }
    fputs(n ? "\n  ]}\n}\n" : "]}\n}\n", out);
    return 0;
}
