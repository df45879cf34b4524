/* export.c: chooses the snapshot the exports show and says which it is
 * (see export.h); the writers themselves are flamegraph.c, collapsed.c and
 * pprof.c. */
#include <stdlib.h>
#include <string.h>
#include "base/units.h"
#include "model/export.h"
#include "model/stack_groups.h"
#include "model/when.h"

static const char *when_words(const vis_profile *p, const char *spec, const vis_when *w,
                              char *buf, size_t n)
{
    char t[64];
    switch (w->kind) {
    case VIS_WHEN_SNAPSHOT: snprintf(buf, n, "snapshot %s", spec); break;
    case VIS_WHEN_PEAK: snprintf(buf, n, "the peak"); break;
    case VIS_WHEN_END: snprintf(buf, n, "the end"); break;
    case VIS_WHEN_MARK:
        snprintf(buf, n, "mark '%s' (%s)", p->marks[w->mark].label,
                 vis_fmt_time(t, sizeof t, p->unit, w->time));
        break;
    default:
        snprintf(buf, n, "%s", vis_fmt_time(t, sizeof t, p->unit, w->time));
        break;
    }
    return buf;
}

/* The tree's stacks under their groups when --group-by asks for them
 * (stack_groups.h): every writer then draws the groups as frames. */
static int grouped(vis_stacks *s, const vis_profile *p, char *err, size_t errsz)
{
    if (vis_stacks_group(s, p) != 0) {
        snprintf(err, errsz, "%s: out of memory", p->path);
        return -1;
    }
    return 0;
}

/* The differential flamegraph's earlier moment: the last detailed snapshot
 * at or before base_when, or an empty heap (a moment before any tree, when
 * the heap was 0 there). */
static int prepare_base(vis_export *e, FILE *f, const vis_profile *p, const char *base_when,
                        size_t snap, char *err, size_t errsz)
{
    vis_when w;
    if (vis_when_parse(p, base_when, &w, err, errsz) != 0)
        return -3;
    char words[192], t[64];
    when_words(p, base_when, &w, words, sizeof words);
    size_t b = vis_when_detailed_at_or_before(p, w.snap);
    e->diff = 1;
    if (b == SIZE_MAX) {
        if (w.snap != SIZE_MAX && p->snaps[w.snap].heap_B != 0) {
            snprintf(err, errsz, "'%s': no detailed snapshot at or before %s", base_when, words);
            return -3;
        }
        if (w.snap == SIZE_MAX)
            snprintf(e->base_moment, sizeof e->base_moment, "the start (an empty heap)");
        else
            snprintf(e->base_moment, sizeof e->base_moment, "snapshot %u at %s (an empty heap)",
                     p->snaps[w.snap].index, vis_fmt_time(t, sizeof t, p->unit,
                                                         p->snaps[w.snap].time));
        return 0;
    }
    if (b > snap) {
        snprintf(err, errsz, "'%s' (snapshot %u) comes after the snapshot shown (%u)", base_when,
                 p->snaps[b].index, p->snaps[snap].index);
        return -3;
    }
    snprintf(e->base_moment, sizeof e->base_moment, "snapshot %u at %s%s", p->snaps[b].index,
             vis_fmt_time(t, sizeof t, p->unit, p->snaps[b].time),
             p->unit == VIS_UNIT_B ? " allocated" : "");
    if (!(e->base = vis_stacks_read(f, p, b, err, errsz)))
        return -1;
    return grouped(e->base, p, err, errsz);
}

int vis_export_prepare(vis_export *e, FILE *f, const vis_profile *p, const char *when,
                       const char *base_when, char *err, size_t errsz)
{
    memset(e, 0, sizeof *e);
    e->p = p;
    size_t snap = p->peak_tree_snap;
    char why[256] = "";
    int want_peak = 1;
    if (when) {
        vis_when w;
        if (vis_when_parse(p, when, &w, err, errsz) != 0)
            return -2;
        char words[192];
        when_words(p, when, &w, words, sizeof words);
        if (w.kind == VIS_WHEN_PEAK) {
            snap = p->peak_tree_snap;
        } else {
            want_peak = 0;
            snap = vis_when_detailed_at_or_before(p, w.snap);
            if (snap == SIZE_MAX) {
                snprintf(err, errsz, "'%s': no detailed snapshot at or before %s", when, words);
                return -2;
            }
            if (snap != w.snap || w.kind != VIS_WHEN_SNAPSHOT)
                snprintf(why, sizeof why, ", the last detailed one at or before %s", words);
        }
    }
    if (snap == SIZE_MAX || snap >= p->n_snaps) {
        snprintf(err, errsz, "%s: no detailed snapshot: the file has no allocation tree to "
                 "export", p->path);
        return -1;
    }
    if (!(e->s = vis_stacks_read(f, p, snap, err, errsz)) || grouped(e->s, p, err, errsz) != 0)
        return -1;
    if (base_when) {
        int rc = prepare_base(e, f, p, base_when, snap, err, errsz);
        if (rc != 0)
            return rc;
    }
    const vis_snapshot *sn = &p->snaps[snap];
    char t[64], b[64];
    char peak[128] = "";
    if (snap == p->peak)
        snprintf(peak, sizeof peak, " (the peak)");
    else if (want_peak)
        snprintf(peak, sizeof peak, " (the largest detailed one; the peak, snapshot %u, has "
                 "no tree)", p->snaps[p->peak].index);
    snprintf(e->moment, sizeof e->moment, "snapshot %u%s at %s%s%s: heap %s",
             sn->index, peak, vis_fmt_time(t, sizeof t, p->unit, sn->time),
             p->unit == VIS_UNIT_B ? " allocated" : "", why,
             vis_fmt_bytes(b, sizeof b, sn->heap_B));
    return 0;
}

int vis_export_prepare_diff(vis_export *e, FILE *f_new, const vis_profile *p_new,
                            FILE *f_old, const vis_profile *p_old, const char *at,
                            char *err, size_t errsz)
{
    int rc = vis_export_prepare(e, f_new, p_new, at, NULL, err, errsz);
    if (rc != 0)
        return rc;
    vis_when w;
    if (vis_when_parse(p_old, at, &w, err, errsz) != 0)
        return -3;
    size_t b = w.kind == VIS_WHEN_PEAK ? p_old->peak_tree_snap
                                       : vis_when_detailed_at_or_before(p_old, w.snap);
    char t[64];
    e->diff = 1;
    if (b == SIZE_MAX || b >= p_old->n_snaps) {
        if (w.snap != SIZE_MAX && w.snap < p_old->n_snaps && p_old->snaps[w.snap].heap_B != 0) {
            snprintf(err, errsz, "'%s': no detailed snapshot of %s at or before it", at,
                     p_old->path);
            return -3;
        }
        snprintf(e->base_moment, sizeof e->base_moment, "%s (an empty heap)", p_old->path);
        return 0;
    }
    snprintf(e->base_moment, sizeof e->base_moment, "%s, snapshot %u at %s%s", p_old->path,
             p_old->snaps[b].index, vis_fmt_time(t, sizeof t, p_old->unit, p_old->snaps[b].time),
             p_old->unit == VIS_UNIT_B ? " allocated" : "");
    if (!(e->base = vis_stacks_read(f_old, p_old, b, err, errsz)))
        return -1;
    return grouped(e->base, p_old, err, errsz);
}

void vis_export_free(vis_export *e)
{
    vis_stacks_free(e->s);
    vis_stacks_free(e->base);
    e->s = e->base = NULL;
}
