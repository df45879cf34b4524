/* chart_data.c: ranks allocation sites and splits every snapshot into the
 * chart's bands (see chart_data.h for the conventions). Cost: one pass over
 * the detailed snapshots' top-level sites (hash table keyed by the verbatim
 * label), then O(snapshots x bands). */
#include "chart_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A qualitative palette (Tableau 10 and 20 tones, red and grey removed so
 * the red peak marker and the grey "other" band stay unambiguous). */
static const vis_rgb site_palette[] = {
    0x4E79A7, 0xF28E2B, 0x59A14F, 0xB07AA1, 0x76B7B2, 0xEDC948, 0xFF9DA7,
    0x9C755F, 0xA0CBE8, 0xFFBE7D, 0x8CD17D, 0xD4A6C8, 0x499894, 0xB6992D,
    0x86BCB6, 0xF1CE63,
};
#define N_PALETTE (sizeof site_palette / sizeof site_palette[0])
#define COLOUR_OTHER  0xC9C9C9
#define COLOUR_HEAP   0x4E79A7
#define COLOUR_EXTRA  0x8F8F8F
#define COLOUR_STACKS 0x5A6B7B

/* ---- site table ---------------------------------------------------------- */

typedef struct {
    const char *label;     /* points into the profile */
    double rank_B;         /* bytes in the ranking snapshot */
    double max_B;          /* max over detailed snapshots */
} site_stat;

typedef struct {
    size_t cap, n;         /* cap is a power of two */
    site_stat *slot;       /* label == NULL: empty */
} site_table;

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL;        /* FNV-1a */
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
    return h;
}

static site_stat *table_get(site_table *t, const char *label)
{
    if ((t->n + 1) * 2 > t->cap) {
        size_t ncap = t->cap ? t->cap * 2 : 64;
        site_stat *ns = calloc(ncap, sizeof *ns);
        if (!ns)
            return NULL;
        for (size_t i = 0; i < t->cap; i++)
            if (t->slot[i].label) {
                size_t j = hash_str(t->slot[i].label) & (ncap - 1);
                while (ns[j].label)
                    j = (j + 1) & (ncap - 1);
                ns[j] = t->slot[i];
            }
        free(t->slot);
        t->slot = ns;
        t->cap = ncap;
    }
    size_t j = hash_str(label) & (t->cap - 1);
    while (t->slot[j].label && strcmp(t->slot[j].label, label) != 0)
        j = (j + 1) & (t->cap - 1);
    if (!t->slot[j].label) {
        t->slot[j].label = label;
        t->n++;
    }
    return &t->slot[j];
}

static int by_rank(const void *a, const void *b)
{
    const site_stat *x = a, *y = b;
    if (x->rank_B != y->rank_B)
        return x->rank_B < y->rank_B ? 1 : -1;
    if (x->max_B != y->max_B)
        return x->max_B < y->max_B ? 1 : -1;
    return strcmp(x->label, y->label);   /* stable output whatever the hash */
}

static int is_detailed(const vis_snapshot *s)
{
    return s->kind != VIS_TREE_EMPTY;
}

/* ---- labels ----------------------------------------------------------------- */

static const char ELLIPSIS[] = "\xE2\x80\xA6";

/* Replaces the contents of every outermost open..close pair in s (in place,
 * s has room since the result is never longer) by an ellipsis, except pairs
 * whose contents are empty or "anonymous namespace". Unbalanced: unchanged. */
static void elide_brackets(char *s, char open, char close)
{
    size_t n = strlen(s);
    char *out = malloc(n + 1);
    if (!out)
        return;
    size_t o = 0;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == open) {
            if (depth++ == 0) {
                out[o++] = s[i];
                start = i + 1;
            }
            continue;
        }
        if (s[i] == close && depth > 0) {
            if (--depth == 0) {
                size_t len = i - start;
                if (len == 0 || (len == 19 && !strncmp(s + start, "anonymous namespace", 19))
                    || len <= 3) {
                    memcpy(out + o, s + start, len);
                    o += len;
                } else {
                    memcpy(out + o, ELLIPSIS, 3);
                    o += 3;
                }
                out[o++] = s[i];
            }
            continue;
        }
        if (depth == 0)
            out[o++] = s[i];
    }
    if (depth == 0) {
        out[o] = '\0';
        memcpy(s, out, o + 1);
    }
    free(out);
}

/* If s ends with a Valgrind location "(file:line)" or "(in /obj)", returns
 * the index of its '(' (preceded by a space), else -1. */
static long location_start(const char *s)
{
    size_t n = strlen(s);
    if (n < 3 || s[n - 1] != ')')
        return -1;
    int depth = 0;
    for (long i = (long)n - 1; i >= 0; i--) {
        if (s[i] == ')')
            depth++;
        else if (s[i] == '(' && --depth == 0) {
            if (i == 0 || s[i - 1] != ' ')
                return -1;
            const char *in = s + i + 1;
            if (!strncmp(in, "in ", 3))
                return i;
            /* "file:123)" */
            const char *colon = strrchr(in, ':');
            if (!colon || colon[1] == ')')
                return -1;
            for (const char *c = colon + 1; *c != ')'; c++)
                if (*c < '0' || *c > '9')
                    return -1;
            return i;
        }
    }
    return -1;
}

char *vis_site_short_label(const char *raw, size_t max_fn_chars)
{
    /* Address prefix "0x1234AB: ", kept aside for sites with no name. */
    const char *rest = vis_site_name(raw), *addr = NULL;
    size_t addr_len = 0;
    if (rest != raw) {
        addr = raw;
        addr_len = (size_t)(rest - raw) - 2;
    }
    size_t rest_len = strlen(rest);
    char *fn = malloc(rest_len + 1);
    char *loc = malloc(rest_len + 1);
    if (!fn || !loc) {
        free(fn);
        free(loc);
        return NULL;
    }
    memcpy(fn, rest, rest_len + 1);
    loc[0] = '\0';
    long ls = location_start(fn);
    if (ls >= 0) {
        const char *l = fn + ls + 1;       /* inside the parentheses */
        if (!strncmp(l, "in ", 3)) {
            /* "(in /usr/lib/libfoo.so.1)" -> "(in libfoo.so.1)" */
            const char *path = l + 3;
            const char *slash = strrchr(path, '/');
            snprintf(loc, rest_len + 1, "(in %s", slash ? slash + 1 : path);
        } else {
            const char *slash = strrchr(l, '/');
            snprintf(loc, rest_len + 1, "(%s", slash ? slash + 1 : l);
        }
        fn[ls - 1] = '\0';                 /* drop " (" and what follows */
    }

    /* Shorten long names: argument lists first, then template arguments. */
    if (strlen(fn) > max_fn_chars)
        elide_brackets(fn, '(', ')');
    if (strlen(fn) > max_fn_chars)
        elide_brackets(fn, '<', '>');

    int unknown = fn[0] == '\0' || !strcmp(fn, "???");
    size_t cap = strlen(fn) + strlen(loc) + addr_len + 8;
    char *out = malloc(cap);
    if (out) {
        if (unknown && addr)        /* the address is all there is to go on */
            snprintf(out, cap, "%.*s%s%s", (int)addr_len, addr, loc[0] ? " " : "", loc);
        else
            snprintf(out, cap, "%s%s%s", fn[0] ? fn : "???", loc[0] ? " " : "", loc);
    }
    free(fn);
    free(loc);
    return out;
}

/* ---- decomposition ---------------------------------------------------------- */

void vis_chart_data_free(vis_chart_data *d)
{
    if (!d)
        return;
    for (size_t b = 0; b < d->n_bands; b++)
        free(d->bands[b].label);
    free(d->bands);
    free(d->value_B);
    free(d);
}

static int add_band(vis_chart_data *d, vis_band_kind kind, const char *label,
                    const char *raw, vis_rgb colour)
{
    vis_band *b = &d->bands[d->n_bands];
    b->kind = kind;
    b->raw = raw;
    b->colour = colour;
    b->label = raw ? vis_site_short_label(raw, 60) : strdup(label ? label : "");
    if (!b->label)
        return -1;
    d->n_bands++;
    return 0;
}

/* Two sites whose short labels coincide (no debug info, same line reached
 * from two addresses) get their addresses appended so the legend stays
 * unambiguous. */
static int disambiguate(vis_chart_data *d)
{
    size_t n = d->n_bands;
    int dup[n ? n : 1];
    for (size_t a = 0; a < n; a++) {
        dup[a] = 0;
        for (size_t b = 0; b < n && d->bands[a].kind == MT_BAND_SITE; b++)
            if (b != a && d->bands[b].kind == MT_BAND_SITE
                && !strcmp(d->bands[a].label, d->bands[b].label))
                dup[a] = 1;
    }
    for (size_t a = 0; a < n; a++) {
        if (!dup[a] || strncmp(d->bands[a].raw, "0x", 2) != 0)
            continue;
        size_t alen = strcspn(d->bands[a].raw, ":");
        size_t cap = strlen(d->bands[a].label) + alen + 4;
        char *l = malloc(cap);
        if (!l)
            return -1;
        snprintf(l, cap, "%s @%.*s", d->bands[a].label, (int)alen, d->bands[a].raw);
        free(d->bands[a].label);
        d->bands[a].label = l;
    }
    return 0;
}

static uint64_t heap_dist(uint64_t a, uint64_t b)
{
    return a > b ? a - b : b - a;
}

vis_chart_data *vis_chart_data_new(const vis_profile *p, int top_n,
                                 char *err, size_t errsz)
{
    if (!p->n_snaps) {
        snprintf(err, errsz, "%s: no snapshots to draw", p->path ? p->path : "profile");
        return NULL;
    }
    if (top_n < 0)
        top_n = 0;
    vis_chart_data *d = calloc(1, sizeof *d);
    site_table t = { 0, 0, NULL };
    site_stat *ranked = NULL;
    double *ref_B = NULL;
    unsigned char *keep = NULL;
    size_t *fwd = NULL;
    if (!d)
        goto oom;
    d->n_snaps = p->n_snaps;

    /* The ranking snapshot: the detailed one with the largest total. The
     * parser's peak_tree_snap is that by contract; recompute rather than
     * trust it, so a hand-made profile cannot make us index out of range. */
    size_t rank_snap = SIZE_MAX;
    for (size_t i = 0; i < p->n_snaps; i++) {
        const vis_snapshot *s = &p->snaps[i];
        if (!is_detailed(s))
            continue;
        d->n_detailed++;
        if (rank_snap == SIZE_MAX || vis_snap_total(s) > vis_snap_total(&p->snaps[rank_snap]))
            rank_snap = i;
    }
    d->rank_snap = rank_snap;

    for (size_t i = 0; i < p->n_snaps; i++) {
        const vis_snapshot *s = &p->snaps[i];
        if (!is_detailed(s))
            continue;
        for (size_t k = 0; k < s->n_sites; k++) {
            if (s->sites[k].is_below_threshold || !s->sites[k].label)
                continue;
            site_stat *st = table_get(&t, s->sites[k].label);
            if (!st)
                goto oom;
            double b = (double)s->sites[k].bytes;
            if (i == rank_snap)
                st->rank_B += b;
            if (b > st->max_B)
                st->max_B = b;
        }
    }
    d->n_sites = t.n;
    ranked = malloc((t.n ? t.n : 1) * sizeof *ranked);
    if (!ranked)
        goto oom;
    size_t n_ranked = 0;
    for (size_t j = 0; j < t.cap; j++)
        if (t.slot[j].label && t.slot[j].max_B > 0)
            ranked[n_ranked++] = t.slot[j];
    qsort(ranked, n_ranked, sizeof *ranked, by_rank);
    size_t n_top = n_ranked < (size_t)top_n ? n_ranked : (size_t)top_n;

    /* Bands: top sites, other/heap, extra, stacks (dropped later if zero). */
    d->bands = calloc(n_top + 3, sizeof *d->bands);
    if (!d->bands)
        goto oom;
    for (size_t k = 0; k < n_top; k++)
        if (add_band(d, MT_BAND_SITE, NULL, ranked[k].label, site_palette[k % N_PALETTE]))
            goto oom;
    size_t b_other = d->n_bands;
    if (d->n_detailed ? add_band(d, MT_BAND_OTHER, "other sites", NULL, COLOUR_OTHER)
                      : add_band(d, MT_BAND_HEAP, "heap (no detailed snapshots)", NULL, COLOUR_HEAP))
        goto oom;
    size_t b_extra = d->n_bands;
    if (add_band(d, MT_BAND_EXTRA, "extra heap (admin + slop)", NULL, COLOUR_EXTRA))
        goto oom;
    size_t b_stacks = d->n_bands;
    if (add_band(d, MT_BAND_STACKS, "stacks", NULL, COLOUR_STACKS))
        goto oom;
    if (disambiguate(d))
        goto oom;

    size_t nb = d->n_bands;
    d->value_B = calloc(p->n_snaps * nb, sizeof *d->value_B);
    if (!d->value_B)
        goto oom;

    /* Site bytes of each detailed snapshot, then held across the others.
     * ref is the reference detailed snapshot, ref_B its top sites' bytes. */
    size_t ref = SIZE_MAX, ref_loaded = SIZE_MAX;
    ref_B = malloc((n_top ? n_top : 1) * sizeof *ref_B);
    if (!ref_B)
        goto oom;
    for (size_t i = 0; i < p->n_snaps; i++)
        if (is_detailed(&p->snaps[i])) {
            ref = i;
            break;
        }
    /* nxt[i]: the next detailed snapshot after i. A snapshot between two
     * detailed ones takes the site shares of the one whose heap is nearer
     * its own (the earlier one on a tie): right after a burst is freed the
     * next breakdown is the true one, and holding the earlier would draw
     * freed sites until the next detailed snapshot. */
    fwd = malloc((p->n_snaps ? p->n_snaps : 1) * sizeof *fwd);
    if (!fwd)
        goto oom;
    for (size_t i = p->n_snaps; i-- > 0;)
        fwd[i] = i + 1 >= p->n_snaps ? SIZE_MAX
               : is_detailed(&p->snaps[i + 1]) ? i + 1 : fwd[i + 1];
    for (size_t i = 0; i < p->n_snaps; i++) {
        const vis_snapshot *s = &p->snaps[i];
        double *row = d->value_B + i * nb;
        if (is_detailed(s))
            ref = i;
        double heap = (double)s->heap_B;
        size_t use = ref;
        if (!is_detailed(s) && fwd[i] != SIZE_MAX) {
            if (ref == SIZE_MAX || ref > i)
                use = fwd[i];
            else {
                uint64_t dp = heap_dist(s->heap_B, p->snaps[ref].heap_B);
                uint64_t dn = heap_dist(s->heap_B, p->snaps[fwd[i]].heap_B);
                if (dn < dp)
                    use = fwd[i];
            }
        }
        if (use != SIZE_MAX) {
            const vis_snapshot *r = &p->snaps[use];
            if (ref_loaded != use) {
                for (size_t k = 0; k < n_top; k++) {
                    ref_B[k] = 0;
                    for (size_t j = 0; j < r->n_sites; j++)
                        if (!r->sites[j].is_below_threshold && r->sites[j].label
                            && !strcmp(r->sites[j].label, d->bands[k].raw))
                            ref_B[k] += (double)r->sites[j].bytes;
                }
                ref_loaded = use;
            }
            double sum = 0;
            for (size_t k = 0; k < n_top; k++) {
                row[k] = ref_B[k];
                sum += row[k];
            }
            /* Scale to this snapshot's heap: the identity at a detailed one,
             * unless its sites claim more than its heap (a malformed file),
             * where scaling keeps the stack equal to the total. */
            double rheap = (double)r->heap_B;
            double scale = (i == use && sum <= heap) ? 1.0
                         : rheap > 0 && sum <= rheap ? heap / rheap
                         : sum > 0 ? heap / sum : 0;
            sum = 0;
            for (size_t k = 0; k < n_top; k++) {
                row[k] *= scale;
                sum += row[k];
            }
            row[b_other] = heap - sum > 0 ? heap - sum : 0;
        } else {
            row[b_other] = heap;
        }
        row[b_extra] = (double)s->heap_extra_B;
        row[b_stacks] = (double)s->stacks_B;
    }

    /* Drop bands that are zero everywhere (compacting the value rows). */
    keep = malloc(nb);
    if (!keep)
        goto oom;
    size_t nkeep = 0;
    for (size_t b = 0; b < nb; b++) {
        keep[b] = 0;
        for (size_t i = 0; i < p->n_snaps && !keep[b]; i++)
            keep[b] = d->value_B[i * nb + b] > 0;
        /* An empty profile still needs one band to name in the legend. */
        if (b == b_other && d->n_detailed == 0)
            keep[b] = 1;
        nkeep += keep[b];
    }
    for (size_t i = 0; i < p->n_snaps; i++) {
        size_t o = 0;
        for (size_t b = 0; b < nb; b++)
            if (keep[b])
                d->value_B[i * nkeep + o++] = d->value_B[i * nb + b];
    }
    size_t o = 0;
    for (size_t b = 0; b < nb; b++) {
        if (keep[b])
            d->bands[o++] = d->bands[b];
        else
            free(d->bands[b].label);
    }
    d->n_bands = nkeep;
    for (size_t b = 0; b < nkeep; b++)
        d->bands[b].peak_B = vis_chart_value(d, p->peak < p->n_snaps ? p->peak : 0, b);

    free(fwd);
    free(keep);
    free(ref_B);
    free(ranked);
    free(t.slot);
    return d;
oom:
    snprintf(err, errsz, "out of memory");
    free(fwd);
    free(keep);
    free(ref_B);
    free(ranked);
    free(t.slot);
    vis_chart_data_free(d);
    return NULL;
}
