/* diff.c: two profiles compared at one moment, and which limits of the CI
 * gate a profile breaks (diff.h); render/diff_text.c writes both. */
#include <stdlib.h>
#include <string.h>
#include "model/diff.h"
#include "model/names.h"
#include "model/outline.h"
#include "model/sites.h"

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

/* The rows' names, distinct among them (names.h); the below-threshold
 * row keeps its own words. Sites are matched without their addresses, so
 * two that still read the same get an ordinal. 0, or -1 (memory). */
static int name_rows(vis_diff *d)
{
    vis_name_entry *e = calloc(d->n_rows ? d->n_rows : 1, sizeof *e);
    size_t n = 0;
    if (!e) {
        vis_diff_free(d);
        return -1;
    }
    for (size_t i = 0; i < d->n_rows; i++)
        if (d->rows[i].site != below)
            e[n++].label = d->rows[i].site;
    int rc = vis_names_assign(e, n, VIS_SITE_NAME_MAX);
    for (size_t i = 0, k = 0; i < d->n_rows; i++) {
        vis_diff_row *r = &d->rows[i];
        if (r->site != below) {
            r->name = e[k].name;
            r->full = e[k++].full;
        } else {
            r->name = strdup(below);
            r->full = strdup(below);
            if (!r->name || !r->full)
                rc = -1;
        }
    }
    free(e);
    if (rc != 0)
        vis_diff_free(d);
    return rc;
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
    if (vis_outline_has(old) && vis_outline_has(new_)) {
        d->true_max = 1;
        d->old_max = vis_outline_max(&old->outline).bytes;
        d->new_max = vis_outline_max(&new_->outline).bytes;
    }
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
        r->name = r->full = NULL;
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
    return name_rows(d);
}

void vis_diff_free(vis_diff *d)
{
    for (size_t i = 0; d->rows && i < d->n_rows; i++) {
        free(d->rows[i].name);
        free(d->rows[i].full);
    }
    free(d->rows);
    d->rows = NULL;
    d->n_rows = 0;
}

/* -------------------------------------------------------------- the gate */

/* True when a change from -> to breaks --max-increase and --allow. */
static int over(uint64_t from, uint64_t to, const vis_check_limits *lim)
{
    if (to <= from || to - from <= lim->allow)
        return 0;
    return (double)(to - from) * 100.0 > lim->max_increase_pct * (double)from;
}

/* The files of p cut short, as broken limits (see vis_check_eval). */
static void cut_short(const vis_profile *p, vis_check_result *res)
{
    if (p->truncated)
        res->broken[res->n++] = (vis_check_broken){ VIS_CHECK_CUT_SHORT, p->path,
                                                    p->truncated_line, 0, 0, 0 };
    if (p->companion_cut_line && p->companion)
        res->broken[res->n++] = (vis_check_broken){ VIS_CHECK_CUT_SHORT, p->companion,
                                                    p->companion_cut_line, 0, 0, 0 };
}

int vis_check_eval(const vis_profile *p, const vis_profile *base, const vis_diff *bd,
                   const vis_check_limits *lim, vis_check_result *res)
{
    size_t cap = 5 + (lim->has_increase && bd ? 1 + bd->n_rows : 0);
    memset(res, 0, sizeof *res);
    if (!(res->broken = malloc(cap * sizeof *res->broken)))
        return -1;
    cut_short(p, res);
    if (base)
        cut_short(base, res);
    /* The snapshots' peak, or the outline's true maximum above it: the
     * samples may have missed a burst, the outline never does. */
    uint64_t peak = vis_snap_total(&p->snaps[p->peak]);
    int by_outline = 0;
    if (vis_outline_has(p) && vis_outline_max(&p->outline).bytes > peak) {
        peak = vis_outline_max(&p->outline).bytes;
        by_outline = 1;
    }
    if (lim->has_max_peak && peak > lim->max_peak)
        res->broken[res->n++] = (vis_check_broken){ VIS_CHECK_MAX_PEAK, NULL, p->peak, 0, peak,
                                                    by_outline };
    if (lim->has_increase && bd) {
        uint64_t from = bd->true_max ? bd->old_max : bd->old.total;
        uint64_t to = bd->true_max ? bd->new_max : bd->new_.total;
        if (over(from, to, lim))
            res->broken[res->n++] = (vis_check_broken){ VIS_CHECK_PEAK_GREW, NULL, p->peak,
                                                        from, to, bd->true_max };
        for (size_t i = 0; i < bd->n_rows; i++) {
            const vis_diff_row *r = &bd->rows[i];
            if (over(r->old_bytes, r->new_bytes, lim))
                res->broken[res->n++] = (vis_check_broken){ VIS_CHECK_SITE_GREW, r->name, p->peak,
                                                            r->old_bytes, r->new_bytes, 0 };
        }
    }
    return 0;
}

void vis_check_result_free(vis_check_result *res)
{
    free(res->broken);
    res->broken = NULL;
    res->n = 0;
}
