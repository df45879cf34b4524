/* sites.c: the model's view of allocation sites over the whole run (see
 * profile.h, "Sites"): one ranking of every site, computed once when the
 * profile is finished, the names every renderer prints, and the per-snapshot
 * series the chart draws and the CSV writes.
 *
 * Only snapshots with a tree break the heap down by site. The series never
 * invents: between two trees a site's value moves from its bytes in the
 * earlier tree towards its bytes in the later one as the heap moves from the
 * earlier tree's size towards the later one's (by time when the two heaps are
 * equal), so it never exceeds the larger of the two, and it is zero where
 * either tree shows the site holding nothing (before the first tree and
 * after the last, the missing side counts as nothing). Whatever part of the
 * heap the sites cannot explain that way is "unattributed". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "base/ptrmap.h"
#include "model/profile.h"
#include "model/label.h"
#include "model/names.h"
#include "model/sites.h"

/* ---- names --------------------------------------------------------------- */

const char *vis_site_name(const char *label)
{
    return vis_label_bare(label);
}

int vis_site_unnamed(const char *label)
{
    return vis_label_parse(label).unnamed;
}

/* A stripped program's allocation sites are often static functions with no
 * name; the nearest named caller is what tells them apart for a reader. */
char *vis_site_label_by_caller(const char *site, const char *caller)
{
    vis_label c = vis_label_parse(caller);   /* its function, without its location */
    const char *fn = c.fn;
    size_t fn_len = c.fn_len;
    const char *after = vis_site_name(site) + 3;   /* past "???" */
    size_t head = (size_t)(after - site);
    size_t cap = head + sizeof " called by " + fn_len + strlen(after);
    char *out = malloc(cap);
    if (out)
        snprintf(out, cap, "%.*s called by %.*s%s", (int)head, site, (int)fn_len, fn, after);
    return out;
}

char *vis_site_display_name(const char *label, const char *addr_tag, size_t max_chars)
{
    return vis_name_short(label, addr_tag, max_chars);
}

/* ---- ranking -------------------------------------------------------------- */

/* Labels are interned, so a site is its label's address: the maps hold
 * each label's index + 1 (a value is never NULL). */
static int put_index(vis_ptrmap *m, const char *k, size_t v)
{
    void **slot = vis_ptrmap_slot(m, k);
    if (!slot)
        return -1;
    *slot = (void *)(uintptr_t)(v + 1);
    return 0;
}

/* The index of label k in m, SIZE_MAX if none. */
static size_t get_index(const vis_ptrmap *m, const char *k)
{
    void *v;
    return vis_ptrmap_get(m, k, &v) ? (size_t)(uintptr_t)v - 1 : SIZE_MAX;
}

static int by_rank(const void *a, const void *b)
{
    const vis_site_info *x = a, *y = b;
    if (x->largest_B != y->largest_B)
        return x->largest_B < y->largest_B ? 1 : -1;
    if (x->peak_B != y->peak_B)
        return x->peak_B < y->peak_B ? 1 : -1;
    return strcmp(x->label, y->label);     /* the same order whatever the hash */
}

/* The tree whose bytes break ties in the ranking: the peak's if it has one,
 * else the largest one's. */
static size_t tie_tree(const vis_profile *p)
{
    if (p->peak < p->n_snaps && p->snaps[p->peak].kind != VIS_TREE_EMPTY)
        return p->peak;
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < p->n_snaps; i++)
        if (p->snaps[i].kind != VIS_TREE_EMPTY &&
            (best == SIZE_MAX || vis_snap_total(&p->snaps[i]) > vis_snap_total(&p->snaps[best])))
            best = i;
    return best;
}

int vis_profile_rank_sites(vis_profile *p)
{
    vis_ptrmap m = VIS_PTRMAP_INIT;
    size_t tie = tie_tree(p);
    vis_site_info *info = NULL;
    /* Ranked again after a regrouping (groups.h): the old ranking goes, and
     * the names with it (the table points into site_info's names). */
    vis_site_names_free(p->names);
    p->names = NULL;
    for (size_t k = 0; k < p->n_site_info; k++) {
        free(p->site_info[k].name);
        free(p->site_info[k].full_name);
    }
    free(p->site_info);
    p->site_info = NULL;
    p->n_site_info = p->n_ranked = 0;
    for (size_t i = 0; i < p->n_snaps; i++) {
        vis_snapshot *s = &p->snaps[i];
        if (s->kind == VIS_TREE_EMPTY)
            continue;
        for (size_t k = 0; k < s->n_sites; k++) {
            vis_site *st = &s->sites[k];
            st->id = SIZE_MAX;
            if (st->is_below_threshold || !st->label)
                continue;
            size_t id = get_index(&m, st->label);
            if (id == SIZE_MAX) {
                vis_site_info *ni = vis_grow(info, p->n_site_info, 64, sizeof *ni);
                if (!ni)
                    goto oom;
                info = ni;
                id = p->n_site_info;
                if (put_index(&m, st->label, id) != 0)
                    goto oom;
                p->n_site_info++;
                memset(&info[id], 0, sizeof *info);
                info[id].label = st->label;
                info[id].largest_snap = i;
            }
            st->id = id;
        }
        /* A label listed twice in one tree (a hand-made file) adds up. */
        for (size_t k = 0; k < s->n_sites; k++) {
            size_t id = s->sites[k].id;
            if (id == SIZE_MAX)
                continue;
            uint64_t b = vis_site_bytes(s, id);
            if (b > info[id].largest_B) {
                info[id].largest_B = b;
                info[id].largest_snap = i;
            }
            if (i == tie)
                info[id].peak_B = b;
        }
    }
    p->site_info = info;
    if (p->n_site_info)
        qsort(info, p->n_site_info, sizeof *info, by_rank);
    /* Ids follow the ranking. */
    vis_ptrmap_clear(&m);
    for (size_t k = 0; k < p->n_site_info; k++) {
        if (put_index(&m, info[k].label, k) != 0)
            goto oom;
        if (info[k].largest_B > 0)
            p->n_ranked = k + 1;
    }
    for (size_t i = 0; i < p->n_snaps; i++) {
        vis_snapshot *s = &p->snaps[i];
        for (size_t k = 0; k < s->n_sites && s->kind != VIS_TREE_EMPTY; k++)
            if (s->sites[k].id != SIZE_MAX)
                s->sites[k].id = get_index(&m, s->sites[k].label);
    }
    vis_ptrmap_clear(&m);
    return vis_profile_name_sites(p);
oom:
    vis_ptrmap_clear(&m);
    if (!p->site_info)
        free(info);
    return -1;
}

/* ---- the profile's names ------------------------------------------------ */

/* Every site of the profile (the trees' and the counts') with its names,
 * and which entry each interned label is: a site's label, and for an
 * unnamed site renamed by its caller, also the label the counts give it. */
struct vis_site_names {
    size_t n, n_moved;       /* e[0..n_moved) are site_info's: names owned there */
    vis_name_entry *e;
    vis_ptrmap by_label;      /* label -> entry + 1 (put_index) */
    size_t n_text, n_raw;
    struct text_entry {      /* a label's text and its entry */
        const char *text;
        size_t entry;
    } *by_text,              /* by_label's keys and raw's, sorted by text */
      *raw;                  /* renamed sites' labels as the file writes
                                them (owned), sorted by text */
};

void vis_site_names_free(struct vis_site_names *t)
{
    if (!t)
        return;
    for (size_t i = t->n_moved; i < t->n; i++) {
        free(t->e[i].name);
        free(t->e[i].full);
    }
    free(t->e);
    free(t->by_text);
    for (size_t k = 0; t->raw && k < t->n_raw; k++)
        free((char *)t->raw[k].text);
    free(t->raw);
    vis_ptrmap_clear(&t->by_label);
    free(t);
}

/* The entry of an interned label, SIZE_MAX if none. */
static size_t names_find(const struct vis_site_names *t, const char *label)
{
    return get_index(&t->by_label, label);
}

static int by_text(const void *a, const void *b)
{
    return strcmp(((const struct text_entry *)a)->text, ((const struct text_entry *)b)->text);
}

const char *vis_site_text_name(const vis_profile *p, const char *label, int full)
{
    struct text_entry key = { label, 0 }, *hit = NULL;
    if (p->names && p->names->n_text)
        hit = bsearch(&key, p->names->by_text, p->names->n_text, sizeof key, by_text);
    if (!hit)
        return vis_site_name(label);
    return full ? p->names->e[hit->entry].full : p->names->e[hit->entry].name;
}

const char *vis_site_label_name(const vis_profile *p, const char *label)
{
    size_t i = p->names ? names_find(p->names, label) : SIZE_MAX;
    return i != SIZE_MAX ? p->names->e[i].name : vis_site_name(label);
}

char *vis_wrapper_display_name(const vis_profile *p, const char *label)
{
    const char *site = vis_site_label_name(p, label);
    return site != vis_site_name(label) ? strdup(site)
                                        : vis_site_display_name(label, NULL, 2 * VIS_SITE_NAME_MAX);
}

const char *vis_site_label_full(const vis_profile *p, const char *label)
{
    size_t i = p->names ? names_find(p->names, label) : SIZE_MAX;
    return i != SIZE_MAX ? p->names->e[i].full : vis_site_name(label);
}

/* The label an unnamed site had before the reader named it by its caller
 * ("0x6DADBF: ??? called by f (in prog)" -> "0x6DADBF: ??? (in prog)"),
 * newly allocated; NULL if it was not renamed (or out of memory). */
static char *label_before_caller(const char *label)
{
    vis_label l = vis_label_parse(label);
    if (!l.addr || !l.caller)
        return NULL;
    size_t head = (size_t)(l.fn - label) + 3;
    /* The location vis_site_label_by_caller kept, with its space. */
    const char *loc = l.loc ? l.loc - 1 : NULL;
    size_t cap = head + (loc ? strlen(loc) : 0) + 1;
    char *raw = malloc(cap);
    if (raw)
        snprintf(raw, cap, "%.*s%s", (int)head, label, loc ? loc : "");
    return raw;
}

int vis_profile_name_sites(vis_profile *p)
{
    struct vis_site_names *t = calloc(1, sizeof *t);
    size_t n_sites = p->n_site_info, cap = n_sites + p->n_counts;
    if (!t || !(t->e = calloc(cap ? cap : 1, sizeof *t->e)))
        goto oom;
    for (size_t k = 0; k < n_sites; k++) {
        const char *label = p->site_info[k].label;
        if (put_index(&t->by_label, label, t->n) != 0)
            goto oom;
        t->e[t->n++].label = label;
    }
    /* An unnamed site renamed by its caller is the same site under the
     * label the file gives it, the one the counts use (and the report's
     * trees, read again from the file): kept by text. */
    if (!(t->raw = malloc((n_sites ? n_sites : 1) * sizeof *t->raw)))
        goto oom;
    for (size_t k = 0; k < n_sites; k++) {
        char *raw = label_before_caller(p->site_info[k].label);
        if (raw)
            t->raw[t->n_raw++] = (struct text_entry){ raw, k };
    }
    if (t->n_raw > 1)
        qsort(t->raw, t->n_raw, sizeof *t->raw, by_text);
    /* The counts' sites: a tree site's (the same pointer, or the text its
     * renaming replaced), or one of their own (a site the trees never
     * showed above the threshold). */
    for (size_t i = 0; i < p->n_counts; i++) {
        const char *label = p->counts[i].label;
        if (names_find(t, label) != SIZE_MAX)
            continue;
        struct text_entry key = { label, 0 }, *hit = NULL;
        if (t->n_raw && vis_site_unnamed(label))
            hit = bsearch(&key, t->raw, t->n_raw, sizeof key, by_text);
        if (put_index(&t->by_label, label, hit ? hit->entry : t->n) != 0)
            goto oom;
        if (!hit)
            t->e[t->n++].label = label;
    }
    if (vis_names_assign(t->e, t->n, VIS_SITE_NAME_MAX) != 0)
        goto oom;
    /* The same keys by their text, for labels read again from the file
     * (the report's trees), which are not interned. */
    if (!(t->by_text = malloc((t->by_label.n + t->n_raw + 1) * sizeof *t->by_text)))
        goto oom;
    for (size_t j = 0; j < t->by_label.cap; j++)
        if (t->by_label.key[j])
            t->by_text[t->n_text++] = (struct text_entry){ t->by_label.key[j],
                                                           (size_t)(uintptr_t)t->by_label.val[j] - 1 };
    for (size_t k = 0; k < t->n_raw; k++)
        t->by_text[t->n_text++] = t->raw[k];   /* (a text twice: either entry is the site) */
    if (t->n_text > 1)
        qsort(t->by_text, t->n_text, sizeof *t->by_text, by_text);
    for (size_t k = 0; k < n_sites; k++) {
        free(p->site_info[k].name);
        free(p->site_info[k].full_name);
        p->site_info[k].name = t->e[k].name;
        p->site_info[k].full_name = t->e[k].full;
    }
    t->n_moved = n_sites;
    vis_site_names_free(p->names);
    p->names = t;
    return 0;
oom:
    vis_site_names_free(t);
    return -1;
}

uint64_t vis_site_bytes(const vis_snapshot *s, size_t id)
{
    uint64_t b = 0;
    for (size_t k = 0; k < s->n_sites; k++)
        if (s->sites[k].id == id)
            b += s->sites[k].bytes;
    return b;
}

/* ---- series --------------------------------------------------------------- */

void vis_series_free(vis_series *v)
{
    if (!v)
        return;
    free(v->site_B);
    free(v->other_B);
    free(v->unattributed_B);
    free(v);
}

/* Splits a tree snapshot's heap: the top sites' bytes, the rest as other. */
static void tree_row(const vis_snapshot *s, size_t n_top, uint64_t *row, uint64_t *other)
{
    uint64_t sum = 0;
    for (size_t k = 0; k < n_top; k++)
        row[k] = 0;
    for (size_t j = 0; j < s->n_sites; j++)
        if (s->sites[j].id < n_top) {
            row[s->sites[j].id] += s->sites[j].bytes;
            sum += s->sites[j].bytes;
        }
    if (sum > s->heap_B) {
        /* Sites claiming more than the heap (a hand-made file): scale them
         * down so the parts still add up to the total. */
        uint64_t left = s->heap_B;
        for (size_t k = 0; k < n_top; k++) {
            row[k] = (uint64_t)((double)row[k] * ((double)s->heap_B / (double)sum));
            if (row[k] > left)
                row[k] = left;
            left -= row[k];
        }
        sum = s->heap_B - left;
    }
    *other = s->heap_B - sum;
}

/* A value between a tree's (va) and the next tree's (vb) at fraction f. */
static uint64_t between(uint64_t va, uint64_t vb, double f)
{
    if (va == 0 || vb == 0)
        return 0;
    double v = (double)va + f * ((double)vb - (double)va);
    uint64_t hi = va > vb ? va : vb, r = v <= 0 ? 0 : (uint64_t)v;
    return r > hi ? hi : r;
}

vis_series *vis_series_new(const vis_profile *p, size_t n_top)
{
    if (n_top > p->n_ranked)
        n_top = p->n_ranked;
    size_t n = p->n_snaps;
    vis_series *v = calloc(1, sizeof *v);
    uint64_t *ra = NULL, *rb = NULL;
    if (!v)
        return NULL;
    v->p = p;
    v->n_snaps = n;
    v->n_sites = n_top;
    v->site_B = calloc(n * n_top + 1, sizeof *v->site_B);
    v->other_B = calloc(n + 1, sizeof *v->other_B);
    v->unattributed_B = calloc(n + 1, sizeof *v->unattributed_B);
    ra = calloc(n_top + 1, sizeof *ra);      /* previous tree's row, other last */
    rb = calloc(n_top + 1, sizeof *rb);      /* next tree's */
    if (!v->site_B || !v->other_B || !v->unattributed_B || !ra || !rb)
        goto oom;

    size_t a = SIZE_MAX, b = SIZE_MAX;       /* trees around snapshot i */
    size_t next = 0;
    for (size_t i = 0; i < n; i++) {
        const vis_snapshot *s = &p->snaps[i];
        uint64_t *row = v->site_B + i * n_top;
        if (s->kind != VIS_TREE_EMPTY) {
            tree_row(s, n_top, row, &v->other_B[i]);
            a = i;
            memcpy(ra, row, n_top * sizeof *ra);
            ra[n_top] = v->other_B[i];
            continue;
        }
        if (b == SIZE_MAX || b <= i) {       /* find the next tree */
            if (next <= i)
                next = i + 1;
            while (next < n && p->snaps[next].kind == VIS_TREE_EMPTY)
                next++;
            b = next < n ? next : SIZE_MAX;
            if (b != SIZE_MAX)
                tree_row(&p->snaps[b], n_top, rb, &rb[n_top]);
        }
        if (a == SIZE_MAX || b == SIZE_MAX) {
            v->unattributed_B[i] = s->heap_B;    /* every site counts as holding nothing */
            continue;
        }
        const vis_snapshot *sa = &p->snaps[a], *sb = &p->snaps[b];
        double f;
        if (sa->heap_B != sb->heap_B)
            f = ((double)s->heap_B - (double)sa->heap_B) / ((double)sb->heap_B - (double)sa->heap_B);
        else if (sb->time > sa->time)
            f = (double)(s->time - sa->time) / (double)(sb->time - sa->time);
        else
            f = 0.5;
        f = f < 0 ? 0 : f > 1 ? 1 : f;
        uint64_t sum = 0, big = 0;
        size_t big_k = n_top;
        for (size_t k = 0; k <= n_top; k++) {
            uint64_t x = between(ra[k], rb[k], f);
            if (k < n_top)
                row[k] = x;
            else
                v->other_B[i] = x;
            sum += x;
            if (x > big) {
                big = x;
                big_k = k;
            }
        }
        if (sum > s->heap_B) {
            /* The heap dipped below both trees: scale down, never up. */
            double sc = (double)s->heap_B / (double)sum;
            sum = 0;
            for (size_t k = 0; k <= n_top; k++) {
                uint64_t *x = k < n_top ? &row[k] : &v->other_B[i];
                *x = (uint64_t)((double)*x * sc);
                sum += *x;
            }
            if (sum > s->heap_B) {           /* rounding: take it off the largest */
                uint64_t *x = big_k < n_top ? &row[big_k] : &v->other_B[i];
                uint64_t over = sum - s->heap_B;
                *x = *x > over ? *x - over : 0;
                sum = s->heap_B;
            }
        }
        v->unattributed_B[i] = s->heap_B - sum;
    }
    free(ra);
    free(rb);
    return v;
oom:
    free(ra);
    free(rb);
    vis_series_free(v);
    return NULL;
}
