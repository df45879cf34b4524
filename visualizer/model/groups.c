/* groups.c: the rewrite of every detailed snapshot's sites into groups
 * (groups.h): each snapshot's tree emitted as entries (wrappers and unnamed
 * frames split into their callers), keyed, merged into groups and cut at
 * the view's threshold, and the companion's counts summed by group. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "base/ptrmap.h"
#include "model/group_cut.h"
#include "model/group_default.h"
#include "model/groups.h"
#include "model/label.h"
#include "model/profile_build.h"
#include "model/sites.h"
#include "model/wrappers.h"

/* ---- the regrouping ---------------------------------------------------------- */

/* One part of a snapshot's heap before grouping. */
typedef struct {
    const char *label;       /* interned; its group's key once keyed */
    uint64_t bytes;
    int below;               /* Massif's "in N places" line */
    const char *origin;      /* the label as pushed: the remainder's coarser
                                grouping keys it again (rest_by) */
    int in_rest;             /* its group is in the remainder line (set_groups) */
} entry;

typedef struct {
    entry *e;
    size_t n;
} entries;

static int push(entries *es, const char *label, uint64_t bytes, int below)
{
    entry *a = vis_grow(es->e, es->n, 16, sizeof *a);
    if (!a)
        return -1;
    es->e = a;
    a[es->n++] = (entry){ label, bytes, below, label, 0 };
    return 0;
}


typedef struct {
    vis_profile *p;
    const vis_group_opts *o;
    vis_group_by by;
    unsigned char *wrapper;  /* per detail frame: split it */
    vis_ptrmap keys;         /* label -> interned key */
    vis_ptrmap told;         /* interned "0xADDR" -> the file's "called by" label */
    double threshold;        /* the view's threshold, percent (adapt_threshold) */
    vis_group_by rest_by;    /* the remainder's coarser grouping (vis_group_rest_coarser) */
    vis_ptrmap rest_keys;    /* label -> interned key by rest_by */
    vis_group_by fallback;   /* fallback groups by rest_by; AUTO: none */
    vis_ptrmap level2_keys;  /* label -> interned key by the fallback's second level */
    vis_ptrmap canon;        /* a frame's text without its address -> the
                                frame of that text at the lowest address */
    int canon_built;
    const char *descend;     /* interned: the group whose code is grouped by
                                function instead (descend), or NULL */
    vis_ptrmap descended;    /* function key of the descent -> non-NULL */
} rg;

/* The file's "??? called by" label for an unnamed label's address (the
 * file's trees are deeper than the detail where it stops), else label. */
static const char *told(rg *g, const char *l)
{
    vis_label lp = vis_label_parse(l);
    const char *addr = lp.addr ? vis_profile_intern(g->p, lp.addr, lp.addr_len) : NULL;
    void **slot = addr && g->told.cap ? vis_ptrmap_slot(&g->told, addr) : NULL;
    return slot && *slot ? *slot : l;
}

/* The interned "??? called by" label of the unnamed site l told by caller. */
static const char *by_caller(rg *g, const char *l, const char *caller)
{
    char *by = vis_site_label_by_caller(l, caller);
    if (!by)
        return NULL;
    const char *in = vis_profile_intern(g->p, by, strlen(by));
    free(by);
    return in;
}

/* The label an unnamed node shows at site grouping: told by its first named
 * caller, as the trees' reader names the file's sites (sites.h). */
static const char *named(rg *g, const vis_dtree *t, size_t j)
{
    const vis_detail *d = &g->p->detail;
    const char *l = d->frames[t->nodes[j].frame];
    if (!vis_site_unnamed(l))
        return l;
    /* The first-child chain (the largest caller at each level), to its
     * first named frame, as the trees' reader follows it. */
    for (size_t c = j + 1; c < t->n && t->nodes[c].depth == t->nodes[c - 1].depth + 1; c++)
        if (!vis_site_unnamed(d->frames[t->nodes[c].frame]))
            return by_caller(g, l, d->frames[t->nodes[c].frame]);
    return told(g, l);
}

static const char *key_of(rg *g, const char *label);

/* Crates of Rust's standard library and of the collections rustc and most
 * programs grow through: a Vec or a hash table growing is not what a person
 * acts on, the crate that grew it is (--group-by=crate). */
static const char *const PLUMBING_CRATES[] = {
    "alloc", "core", "std", "hashbrown", "smallvec", "indexmap",
};

static int plumbing_crate(const char *key)
{
    for (size_t i = 0; i < sizeof PLUMBING_CRATES / sizeof *PLUMBING_CRATES; i++)
        if (!strcmp(key, PLUMBING_CRATES[i]))
            return 1;
    return 0;
}

/* The label that stands for every frame whose label reads as l's but for
 * the address: the call sites of one line of one function (an unrolled
 * loop, a macro) are one caller of a wrapper, one site. */
static const char *canonical(rg *g, const char *l)
{
    const vis_detail *d = &g->p->detail;
    if (!g->canon_built) {
        g->canon_built = 1;
        for (size_t f = 0; f < d->n_frames; f++) {
            const char *text = vis_site_name(d->frames[f]);
            const char *in = vis_profile_intern(g->p, text, strlen(text));
            void **slot = in ? vis_ptrmap_slot(&g->canon, in) : NULL;
            if (!slot)
                return NULL;
            if (!*slot || strtoull(d->frames[f], NULL, 16) < strtoull(*slot, NULL, 16))
                *slot = (void *)d->frames[f];
        }
    }
    const char *text = vis_site_name(l);
    void *at = NULL;
    const char *in = vis_profile_intern(g->p, text, strlen(text));
    if (!in)
        return NULL;
    return vis_ptrmap_get(&g->canon, in, &at) && at ? at : l;
}

/* The entries of node j: itself, or, where the detail has the callers, the
 * callers' entries instead:
 *   - an allocation wrapper's callers (--keep-wrappers keeps it);
 *   - for a grouping whose key is read from a name (all but site), an
 *     unnamed frame's callers: its bytes go where each path first has a
 *     name, as "??? called by f" labels of the unnamed frame the path
 *     started at (origin), so that two callers are two entries rather than
 *     the largest one taking all;
 *   - at crate grouping, a frame of a plumbing crate's callers.
 * Bytes of a split node its callers do not hold (its stack ended, or the
 * detail did) stay with the node. */
static int emit(rg *g, const vis_dtree *t, size_t j, entries *es, int level, const char *origin)
{
    const vis_dnode *nd = &t->nodes[j];
    const char *l = g->p->detail.frames[nd->frame];
    size_t end = vis_dtree_end(t, j);
    int unnamed = vis_site_unnamed(l);
    const char *self;   /* the node's own entry label */
    int split;
    if (unnamed && g->by != VIS_GROUP_SITE) {
        if (!origin)
            origin = l;
        self = told(g, origin);
        split = 1;
    } else if (unnamed) {
        self = named(g, t, j);
        split = 0;
    } else {
        /* At site grouping only a wrapper is split: a node below the top
         * level is one of its callers. */
        self = origin ? by_caller(g, origin, l)
               : g->by == VIS_GROUP_SITE && level > 0 ? canonical(g, l) : l;
        split = g->wrapper[nd->frame];
        if (!split && self && g->by == VIS_GROUP_CRATE) {
            const char *k = key_of(g, self);
            if (!k)
                return -1;
            split = plumbing_crate(k);
        }
    }
    if (!self)
        return -1;
    if (split && end > j + 1 && level < 1024) {
        uint64_t sum = 0;
        for (size_t c = j + 1; c < end; c++)
            if (t->nodes[c].depth == nd->depth + 1) {
                sum += t->nodes[c].bytes;
                if (emit(g, t, c, es, level + 1, origin) != 0)
                    return -1;
            }
        return sum < nd->bytes ? push(es, self, nd->bytes - sum, 0) : 0;
    }
    return push(es, self, nd->bytes, 0);
}

/* The interned key of a label (the label itself for site grouping). */
static const char *key_of(rg *g, const char *label)
{
    if (g->by == VIS_GROUP_SITE)
        return label;
    void **slot = vis_ptrmap_slot(&g->keys, label);
    if (!slot)
        return NULL;
    if (!*slot) {
        char *k = vis_group_key(label, g->by, g->o->ns_depth);
        const char *in = k ? vis_profile_intern(g->p, k, strlen(k)) : NULL;
        free(k);
        if (in && in == g->descend) {
            /* The group the default view descends into: its functions. */
            k = vis_key_function(label);
            in = k ? vis_profile_intern(g->p, k, strlen(k)) : NULL;
            free(k);
            void **d = in ? vis_ptrmap_slot(&g->descended, in) : NULL;
            if (!d)
                return NULL;
            *d = (void *)g->descend;
        }
        if (!in)
            return NULL;
        /* The map may have grown meanwhile (keyed again above). */
        if (!(slot = vis_ptrmap_slot(&g->keys, label)))
            return NULL;
        *slot = (void *)in;
    }
    return *slot;
}

static int by_bytes(const void *a, const void *b)
{
    const vis_site *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? 1 : -1;
    if (x->is_below_threshold != y->is_below_threshold)
        return x->is_below_threshold - y->is_below_threshold;
    return strcmp(x->label, y->label);
}

static int by_label_ptr(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    return x->label < y->label ? -1 : x->label > y->label;
}

/* ---- what the remainder holds -------------------------------------------------- */

typedef struct {
    const char *label;       /* a label, then its coarser key (interned) */
    uint64_t bytes;
} rest_part;

static int by_part_label(const void *a, const void *b)
{
    const rest_part *x = a, *y = b;
    return x->label < y->label ? -1 : x->label > y->label;
}

static int by_part_bytes(const void *a, const void *b)
{
    const rest_part *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? 1 : -1;
    return strcmp(x->label, y->label);
}

/* Sums equal labels of a (sorted by label) in place; returns how many. */
static size_t sum_parts(rest_part *a, size_t n)
{
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        if (m > 0 && a[m - 1].label == a[k].label)
            a[m - 1].bytes += a[k].bytes;
        else
            a[m++] = a[k];
    }
    return m;
}

/* The interned key of label by the coarser grouping g->rest_by (or by
 * the fallback's second level, vis_group_fallback2), keyed
 * once a profile (rustc's remainder holds thousands of labels in every
 * snapshot). NULL when out of memory. */
static const char *coarse_key(rg *g, const char *label, vis_group_by by)
{
    void **slot = vis_ptrmap_slot(by == g->rest_by ? &g->rest_keys : &g->level2_keys, label);
    if (slot && !*slot) {
        char *key = vis_group_key(label, by, 1);
        *slot = key ? (void *)vis_profile_intern(g->p, key, strlen(key)) : NULL;
        free(key);
    }
    return slot ? *slot : NULL;
}

/* Fills s->rest_by: the entries of es in the remainder line (in_rest, as
 * set_groups' cut left them), keyed again by the coarser grouping
 * g->rest_by from the labels they were pushed with, summed, the largest
 * VIS_REST_BY_MAX kept. Each distinct label is keyed once a profile
 * (rustc's remainder holds thousands in every snapshot). */
static int rest_by(rg *g, vis_snapshot *s, const entries *es)
{
    rest_part *a = malloc((es->n + 1) * sizeof *a);
    if (!a)
        return -1;
    size_t n = 0;
    for (size_t k = 0; k < es->n; k++)
        if (es->e[k].in_rest)
            a[n++] = (rest_part){ es->e[k].origin, es->e[k].bytes };
    if (n > 1)
        qsort(a, n, sizeof *a, by_part_label);
    n = sum_parts(a, n);
    for (size_t k = 0; k < n; k++)
        if (!(a[k].label = coarse_key(g, a[k].label, g->rest_by))) {
            free(a);
            return -1;
        }
    if (n > 1)
        qsort(a, n, sizeof *a, by_part_label);
    n = sum_parts(a, n);
    if (n > 1)
        qsort(a, n, sizeof *a, by_part_bytes);
    vis_rest_by *r = &s->rest_by;
    r->by = g->rest_by;
    r->n = n < VIS_REST_BY_MAX ? n : VIS_REST_BY_MAX;
    for (size_t k = 0; k < r->n; k++) {
        r->part[k].name = a[k].label;
        r->part[k].bytes = a[k].bytes;
    }
    free(a);
    return 0;
}

/* Replaces snapshot s's sites by the groups of es. */
/* es's entries added up by group key: *out_p (n_p of them, room for one
 * more), unsorted by bytes; with first_p, where each group's entries start
 * in es (sorted by key now), and es->n after the last. */
static int merge_entries(rg *g, entries *es, vis_site **out_p, size_t *n_p, size_t **first_p)
{
    for (size_t k = 0; k < es->n; k++)
        if (!es->e[k].below && !(es->e[k].label = key_of(g, es->e[k].label)))
            return -1;
    if (es->n > 1)
        qsort(es->e, es->n, sizeof *es->e, by_label_ptr);
    vis_site *out = calloc(es->n + 1, sizeof *out);
    size_t *first = first_p ? calloc(es->n + 1, sizeof *first) : NULL;
    if (!out || (first_p && !first)) {
        free(out);
        return -1;
    }
    size_t n = 0;
    for (size_t k = 0; k < es->n; k++) {
        const entry *e = &es->e[k];
        if (!e->below && n > 0 && !out[n - 1].is_below_threshold && out[n - 1].label == e->label) {
            out[n - 1].bytes += e->bytes;
            continue;
        }
        if (first)
            first[n] = k;
        out[n++] = (vis_site){ e->bytes, (char *)e->label, e->below, SIZE_MAX };
    }
    if (first)
        first[n] = es->n;   /* so group k's entries are first[k] .. first[k + 1] */
    *out_p = out;
    *n_p = n;
    if (first_p)
        *first_p = first;
    return 0;
}

/* Replaces snapshot s's sites by the groups of es, cut at the view's
 * threshold (vis_group_cut). */
static int set_groups(rg *g, vis_snapshot *s, entries *es)
{
    vis_site *out;
    size_t n, *first;   /* group k's entries in es: first[k] .. first[k + 1] */
    if (merge_entries(g, es, &out, &n, &first) != 0)
        return -1;
    free(s->groups_all);
    s->groups_all = NULL;
    s->n_groups_all = 0;
    if (g->by != VIS_GROUP_SITE) {
        if (!(s->groups_all = malloc((n + 1) * sizeof *s->groups_all))) {
            free(out);
            free(first);
            return -1;
        }
        memcpy(s->groups_all, out, n * sizeof *out);
        s->n_groups_all = n;
    }
    double cut = g->threshold / 100.0 * (double)s->heap_B;
    vis_group_by fb2 = vis_group_fallback2(g->by, g->fallback);
    vis_cut *c = calloc(n + 1, sizeof *c);
    vis_ptrmap lines = VIS_PTRMAP_INIT;               /* fallback line -> its site + 1 */
    size_t kept = 0, n_rest = 0;
    uint64_t rest_B = 0;
    const char *rest_line = NULL;   /* the remainder's interned label */
    int rc = -1;
    if (!c)
        goto out;
    for (size_t k = 0; k < n; k++) {
        c[k] = (vis_cut){ out[k].label, out[k].bytes, out[k].is_below_threshold, { NULL, NULL }, 0 };
        void *in_descent = NULL;
        if (g->descend && !out[k].is_below_threshold && (double)out[k].bytes < cut &&
            vis_ptrmap_get(&g->descended, out[k].label, &in_descent) && in_descent) {
            /* A small function of the group descended into: "other
             * functions in CRATE". */
            c[k].coarse[0] = g->descend;
        } else if (g->fallback != VIS_GROUP_AUTO && !out[k].is_below_threshold &&
                   (double)out[k].bytes < cut) {
            const char *origin = es->e[first[k]].origin;
            if (!(c[k].coarse[0] = coarse_key(g, origin, g->fallback)) ||
                (fb2 != VIS_GROUP_AUTO && !(c[k].coarse[1] = coarse_key(g, origin, fb2))))
                goto out;
        }
    }
    if (vis_group_cut(c, n, cut, &n_rest) != 0)
        goto out;
    /* out is rebuilt in place: a group goes to a slot at or before its own
     * (a fallback line takes the slot of its first group). */
    for (size_t k = 0; k < n; k++) {
        if (c[k].fate == VIS_CUT_KEPT) {
            out[kept++] = out[k];
            continue;
        }
        if (c[k].fate == VIS_CUT_REST) {
            rest_B += out[k].bytes;
            for (size_t e = first[k]; e < first[k + 1]; e++)
                es->e[e].in_rest = 1;   /* read by rest_by */
            continue;
        }
        char text[512];
        vis_group_fallback_label(text, sizeof text, g->by, c[k].coarse[c[k].fate]);
        const char *l = vis_profile_intern(g->p, text, strlen(text));
        void **slot = l ? vis_ptrmap_slot(&lines, l) : NULL;
        if (!slot)
            goto out;
        if (!*slot) {
            out[kept] = (vis_site){ 0, (char *)l, 0, SIZE_MAX };
            *slot = (void *)(uintptr_t)++kept;
        }
        out[(uintptr_t)*slot - 1].bytes += c[k].bytes;
    }
    if (n_rest) {
        char text[160];
        vis_group_rest_label(text, sizeof text, n_rest, g->by, g->threshold);
        if (!(rest_line = vis_profile_intern(g->p, text, strlen(text))))
            goto out;
        out[kept++] = (vis_site){ rest_B, (char *)rest_line, 1, SIZE_MAX };
    }
    n = kept;
    s->rest_by.n = 0;
    s->rest_by.line = rest_line;
    if (rest_line && rest_B * 100 > (uint64_t)VIS_REST_BY_SHARE * s->heap_B &&
        rest_by(g, s, es) != 0)
        goto out;
    if (n > 1)
        qsort(out, n, sizeof *out, by_bytes);
    free(s->sites);
    s->sites = out;
    s->n_sites = n;
    out = NULL;
    rc = 0;
out:
    free(out);
    free(c);
    free(first);
    vis_ptrmap_clear(&lines);
    return rc;
}

/* Snapshot i's heap as entries to group: its detail's sites, wrappers
 * split (emit), or the file's own sites. */
static int snapshot_entries(rg *g, size_t i, entries *es)
{
    const vis_snapshot *s = &g->p->snaps[i];
    const vis_dtree *t = vis_detail_tree(g->p, i);
    int e = 0;
    if (t) {
        for (size_t j = 0; j < t->n && e == 0; j++)
            if (t->nodes[j].depth == 1)
                e = emit(g, t, j, es, 0, NULL);
    } else {
        for (size_t k = 0; k < s->n_sites && e == 0; k++)
            e = push(es, s->sites[k].label, s->sites[k].bytes, s->sites[k].is_below_threshold);
    }
    return e;
}

/* The peak's detailed tree merged into the view's groups, largest first
 * (*out, n of them, the caller frees): 0; 1 when the profile has no peak
 * tree with a heap (nothing to weigh); -1 out of memory. */
static int peak_groups(rg *g, vis_site **out, size_t *n)
{
    vis_profile *p = g->p;
    size_t snap = p->peak_tree_snap;
    *out = NULL;
    *n = 0;
    if (snap >= p->n_snaps || p->snaps[snap].kind == VIS_TREE_EMPTY || !p->snaps[snap].heap_B)
        return 1;
    entries es = { NULL, 0 };
    int e = snapshot_entries(g, snap, &es);
    if (e == 0)
        e = merge_entries(g, &es, out, n, NULL);
    free(es.e);
    if (e == 0 && *n > 1)
        qsort(*out, *n, sizeof **out, by_bytes);
    return e != 0 ? -1 : 0;
}

/* Sets g->descend and the grouping's record of it (vis_group_descent). */
static int choose_descent(rg *g)
{
    vis_profile *p = g->p;
    vis_site *out;
    size_t n;
    int r = peak_groups(g, &out, &n);
    if (r != 0)
        return r < 0 ? -1 : 0;
    uint64_t heap = p->snaps[p->peak_tree_snap].heap_B;
    const vis_site *top = vis_group_descent(out, n, heap);
    if (top) {
        g->descend = top->label;
        p->grouping.descend = top->label;
        p->grouping.descend_share = 100.0 * (double)top->bytes / (double)heap;
        vis_ptrmap_clear(&g->keys);   /* keyed before the descent */
    }
    free(out);
    return 0;
}

/* Sets g->threshold by vis_group_adapt_threshold. */
static int adapt_threshold(rg *g)
{
    vis_site *out;
    size_t n;
    int r = peak_groups(g, &out, &n);
    if (r != 0)
        return r < 0 ? -1 : 0;
    g->threshold = vis_group_adapt_threshold(out, n, g->p->snaps[g->p->peak_tree_snap].heap_B, g->threshold);
    free(out);
    return 0;
}

/* The companion's allocation counts, summed by group. */
static int regroup_counts(rg *g)
{
    vis_profile *p = g->p;
    size_t n = 0;
    vis_site_counts *out = calloc(p->n_counts + 1, sizeof *out);
    vis_ptrmap at = VIS_PTRMAP_INIT;
    if (!out)
        return -1;
    for (size_t i = 0; i < p->n_counts; i++) {
        const vis_site_counts *c = &p->counts[i];
        const char *k = key_of(g, c->label);
        void **slot = k ? vis_ptrmap_slot(&at, k) : NULL;
        if (!slot) {
            free(out);
            vis_ptrmap_clear(&at);
            return -1;
        }
        if (!*slot) {
            out[n] = (vis_site_counts){ k, 0, 0, 0, 0, 0 };
            *slot = &out[n++];
        }
        vis_site_counts *o = *slot;
        o->allocs += c->allocs;
        o->temporary += c->temporary;
        o->alloc_bytes += c->alloc_bytes;
        o->live_blocks += c->live_blocks;
        o->live_bytes += c->live_bytes;
    }
    vis_ptrmap_clear(&at);
    free(p->counts);
    p->counts = out;
    p->n_counts = n;
    return 0;
}

/* The file's unnamed sites told by a caller ("0xADDR: ??? called by f"),
 * by address, for the detail's sites whose own levels name no caller. */
static int told_names(rg *g)
{
    vis_profile *p = g->p;
    for (size_t i = 0; i < p->n_snaps; i++) {
        const vis_snapshot *s = &p->snaps[i];
        for (size_t k = 0; k < s->n_sites && s->kind != VIS_TREE_EMPTY; k++) {
            const char *l = s->sites[k].label;
            vis_label lp = vis_label_parse(l ? l : "");
            if (s->sites[k].is_below_threshold || !lp.addr || !lp.caller)
                continue;
            const char *addr = vis_profile_intern(p, l, lp.addr_len);
            void **slot = addr ? vis_ptrmap_slot(&g->told, addr) : NULL;
            if (!slot)
                return -1;
            *slot = (void *)l;
        }
    }
    return 0;
}

int vis_profile_regroup(vis_profile *p, const vis_group_opts *o)
{
    vis_grouping *gr = &p->grouping;
    rg g = { p, o, o->by, NULL, VIS_PTRMAP_INIT, VIS_PTRMAP_INIT, o->threshold, VIS_GROUP_OBJECT,
             VIS_PTRMAP_INIT, VIS_GROUP_AUTO, VIS_PTRMAP_INIT, VIS_PTRMAP_INIT, 0, NULL,
             VIS_PTRMAP_INIT };
    gr->why = NULL;
    gr->by_auto = o->by == VIS_GROUP_AUTO;
    gr->ns_depth = o->ns_depth;
    gr->threshold = o->threshold;
    gr->threshold_adapted = 0;
    gr->fallback = VIS_GROUP_AUTO;
    gr->descend = NULL;
    gr->descend_share = 0;
    gr->from_detail = p->detail.present && p->detail.n_trees > 0;
    if (!(g.wrapper = calloc(p->detail.n_frames + 1, 1)))
        return -1;
    int rc = -1;
    if (vis_find_wrappers(p, o->keep_wrappers, g.wrapper) != 0)
        goto out;
    if (g.by == VIS_GROUP_AUTO)
        g.by = vis_group_default(p, g.wrapper, &gr->why);
    gr->by = g.by;
    {
        const char *why;   /* the code's kind, even when --group-by chose */
        g.rest_by = vis_group_rest_coarser(g.by, gr->by_auto ? g.by : vis_group_default(p, g.wrapper, &why));
    }
    /* Function and file groups too small to list fall back to the code
     * they are in: a big program has thousands (rustc: 3,200 functions at
     * its peak, half its heap), which one remainder line would not name. */
    if ((g.by == VIS_GROUP_FUNCTION || g.by == VIS_GROUP_FILE) && g.rest_by != g.by)
        g.fallback = g.rest_by;
    gr->fallback = g.fallback;
    if (gr->from_detail && told_names(&g) != 0)
        goto out;
    if (g.by == VIS_GROUP_SITE && !gr->from_detail) {
        rc = 0;   /* the file's own sites, as Massif kept them */
        goto out;
    }
    if (gr->from_detail && (g.by == VIS_GROUP_CRATE || g.by == VIS_GROUP_NAMESPACE)) {
        if (o->descend) {   /* the descent of another profile's view (diff) */
            g.descend = gr->descend = vis_profile_intern(p, o->descend, strlen(o->descend));
            if (!g.descend)
                goto out;
        } else if (gr->by_auto && choose_descent(&g) != 0) {
            goto out;
        }
    }
    if (g.by != VIS_GROUP_SITE && g.fallback == VIS_GROUP_AUTO && !o->threshold_given &&
        g.threshold > 0) {
        if (adapt_threshold(&g) != 0)
            goto out;
        gr->threshold = g.threshold;
        gr->threshold_adapted = g.threshold != o->threshold;
    }
    for (size_t i = 0; i < p->n_snaps; i++) {
        vis_snapshot *s = &p->snaps[i];
        if (s->kind == VIS_TREE_EMPTY)
            continue;
        entries es = { NULL, 0 };
        int e = snapshot_entries(&g, i, &es);
        if (e == 0)
            e = set_groups(&g, s, &es);
        free(es.e);
        if (e != 0)
            goto out;
    }
    if (g.by != VIS_GROUP_SITE && p->counts && regroup_counts(&g) != 0)
        goto out;
    gr->applied = 1;
    rc = vis_profile_rank_sites(p);   /* names the groups too (sites.h) */
out:
    free(g.wrapper);
    vis_ptrmap_clear(&g.keys);
    vis_ptrmap_clear(&g.told);
    vis_ptrmap_clear(&g.rest_keys);
    vis_ptrmap_clear(&g.level2_keys);
    vis_ptrmap_clear(&g.canon);
    vis_ptrmap_clear(&g.descended);
    return rc;
}
