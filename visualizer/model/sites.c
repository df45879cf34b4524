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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "model/profile.h"
#include "model/sites.h"

/* ---- names --------------------------------------------------------------- */

const char *vis_site_name(const char *label)
{
    /* "0x4005E4: fn (file.c:12)" -> "fn (file.c:12)" */
    if (label[0] == '0' && label[1] == 'x') {
        const char *s = label + 2;
        while ((*s >= '0' && *s <= '9') || (*s >= 'A' && *s <= 'F') || (*s >= 'a' && *s <= 'f'))
            s++;
        if (s > label + 2 && s[0] == ':' && s[1] == ' ')
            return s + 2;
    }
    return label;
}

int vis_site_unnamed(const char *label)
{
    const char *n = vis_site_name(label);
    return n != label && strncmp(n, "???", 3) == 0 && (n[3] == '\0' || n[3] == ' ');
}

/* A stripped program's allocation sites are often static functions with no
 * name; the nearest named caller is what tells them apart for a reader. */
char *vis_site_label_by_caller(const char *site, const char *caller)
{
    const char *fn = vis_site_name(caller);
    size_t fn_len = strlen(fn);
    /* The caller's function without its location: up to the last " (" of a
     * label that ends with ')'. */
    const char *loc = NULL;
    if (fn_len > 0 && fn[fn_len - 1] == ')')
        for (const char *q = strstr(fn, " ("); q; q = strstr(q + 1, " ("))
            loc = q;
    if (loc)
        fn_len = (size_t)(loc - fn);
    const char *after = vis_site_name(site) + 3;   /* past "???" */
    size_t head = (size_t)(after - site);
    size_t cap = head + sizeof " called by " + fn_len + strlen(after);
    char *out = malloc(cap);
    if (out)
        snprintf(out, cap, "%.*s called by %.*s%s", (int)head, site, (int)fn_len, fn, after);
    return out;
}

static const char ELLIPSIS[] = "\xE2\x80\xA6";   /* one character on screen */

/* Characters as shown (UTF-8 continuation bytes do not count). */
static size_t shown_len(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* Replaces the contents of every outermost open..close pair in s (in place:
 * the result is never longer) by an ellipsis, except pairs whose contents
 * are at most 8 characters ("int", "double": they tell instantiations
 * apart) or "anonymous namespace". Unbalanced: unchanged. */
static void elide_brackets(char *s, char open, char close)
{
    size_t n = strlen(s);
    char *out = malloc(n + 1);
    if (!out)
        return;
    size_t o = 0, start = 0;
    int depth = 0;
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
                if (len <= 8 || (len == 19 && !strncmp(s + start, "anonymous namespace", 19))) {
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

/* If s ends with a Valgrind location "(file:line)" or "(in /obj)" preceded
 * by a space, returns the index of its '(', else -1. */
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
            const char *colon = strrchr(in, ':');     /* "file:123)" */
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

/* Drops a Rust legacy-mangling hash "::h0123456789abcdef" ending fn. */
static void drop_rust_hash(char *fn)
{
    size_t n = strlen(fn);
    if (n < 19 || strncmp(fn + n - 19, "::h", 3) != 0)
        return;
    for (size_t i = n - 16; i < n; i++)
        if (!((fn[i] >= '0' && fn[i] <= '9') || (fn[i] >= 'a' && fn[i] <= 'f')))
            return;
    fn[n - 19] = '\0';
}

/* Index of the last top-level "::" in fn (outside <> and ()), or -1. */
static long last_scope(const char *fn)
{
    long last = -1;
    int depth = 0;
    for (long i = 0; fn[i]; i++) {
        if (fn[i] == '<' || fn[i] == '(')
            depth++;
        else if ((fn[i] == '>' || fn[i] == ')') && depth > 0)
            depth--;
        else if (depth == 0 && fn[i] == ':' && fn[i + 1] == ':')
            last = i++;
    }
    return last;
}

/* Shortens s in place to at most max shown characters by an ellipsis after
 * its first head_max characters (fewer if max is small), keeping as much of
 * its end as fits (the end is the most specific part: the function's scope,
 * the object's suffix) and at least keep_tail bytes of it. Never splits a
 * UTF-8 character. */
static void elide_middle(char *s, size_t max, size_t head_max, size_t keep_tail)
{
    size_t n = strlen(s);
    if (shown_len(s) <= max || max < 5)
        return;
    size_t head = head_max < max / 2 ? head_max : max / 2;
    size_t tail = max - head - 1;          /* in characters; bytes may differ */
    if (tail < keep_tail)
        tail = keep_tail;
    if (tail > n)
        tail = n;
    while (head > 0 && ((unsigned char)s[head] & 0xC0) == 0x80)
        head--;
    size_t from = n - tail;
    while (from < n && ((unsigned char)s[from] & 0xC0) == 0x80)
        from++;
    if (head + 3 >= from)
        return;
    memmove(s + head + 3, s + from, n - from + 1);
    memcpy(s + head, ELLIPSIS, 3);
}

char *vis_site_display_name(const char *label, const char *addr_tag, size_t max_chars)
{
    const char *rest = vis_site_name(label);
    size_t rest_len = strlen(rest);
    /* fn may become "???" (an empty label, or one that is all location). */
    char *fn = malloc(rest_len + 4), *loc = malloc(rest_len + 8);
    if (!fn || !loc) {
        free(fn);
        free(loc);
        return NULL;
    }
    memcpy(fn, rest, rest_len + 1);
    loc[0] = '\0';
    long ls = location_start(fn);
    if (ls >= 0) {
        const char *l = fn + ls + 1;                /* inside the parentheses */
        const char *inner = !strncmp(l, "in ", 3) ? l + 3 : l;
        const char *slash = strrchr(inner, '/');    /* "/usr/lib/libc.so.6" -> "libc.so.6" */
        snprintf(loc, rest_len + 8, "(%s%s", inner == l ? "" : "in ", slash ? slash + 1 : inner);
        fn[ls - 1] = '\0';
    }
    if (!fn[0])
        strcpy(fn, "???");
    drop_rust_hash(fn);

    /* Too long: argument lists, then template arguments, then the scopes
     * before the function's own name, then the middle of the location. The
     * function's own name always stays whole. */
    size_t extra = (addr_tag ? strlen(addr_tag) + 2 : 0) + (loc[0] ? 1 : 0);
#define TOO_LONG() (shown_len(fn) + shown_len(loc) + extra > max_chars)
    if (TOO_LONG())
        elide_brackets(fn, '(', ')');
    if (TOO_LONG())
        elide_brackets(fn, '<', '>');
    if (TOO_LONG() && shown_len(loc) > 28)
        elide_middle(loc, 28, 12, 5);          /* "(in librustc_dri…f3a2b.so)" */
    if (TOO_LONG()) {
        size_t budget = max_chars > extra + shown_len(loc) ? max_chars - extra - shown_len(loc) : 0;
        long sc = last_scope(fn);
        if (budget < max_chars / 2)
            budget = max_chars / 2;
        if (sc > 0)
            elide_middle(fn, budget, 6, strlen(fn) - (size_t)sc);
    }
#undef TOO_LONG
    size_t cap = strlen(fn) + strlen(loc) + extra + 8;
    char *out = malloc(cap);
    if (out)
        snprintf(out, cap, "%s%s%s%s%s", fn, addr_tag ? " @" : "", addr_tag ? addr_tag : "",
                 loc[0] ? " " : "", loc);
    free(fn);
    free(loc);
    return out;
}

/* The "0x1091B7" of a label "0x1091B7: ...", newly allocated, or NULL if it
 * has none (or out of memory). */
static char *address_of(const char *label)
{
    const char *rest = vis_site_name(label);
    if (rest == label)
        return NULL;
    size_t n = (size_t)(rest - label) - 2;
    char *a = malloc(n + 1);
    if (a) {
        memcpy(a, label, n);
        a[n] = '\0';
    }
    return a;
}

/* The summary's name: the label without its address, with " @ADDR" after
 * the function when another site reads the same. */
static char *full_name(const char *label, const char *addr)
{
    const char *rest = vis_site_name(label);
    size_t n = strlen(rest) + (addr ? strlen(addr) + 2 : 0) + 1;
    char *out = malloc(n);
    if (!out)
        return NULL;
    long ls = addr ? location_start(rest) : -1;
    if (!addr)
        snprintf(out, n, "%s", rest);
    else if (ls > 0)
        snprintf(out, n, "%.*s @%s%s", (int)(ls - 1), rest, addr, rest + ls - 1);
    else
        snprintf(out, n, "%s @%s", rest, addr);
    return out;
}

/* ---- ranking -------------------------------------------------------------- */

/* Labels are interned, so a site is its label's address. */
typedef struct {
    size_t cap, n;
    const char **key;
    size_t *val;
} ptr_map;

static size_t ptr_hash(const void *k)
{
    uintptr_t x = (uintptr_t)k;
    x ^= x >> 17;
    x *= 0x9E3779B97F4A7C15ULL;
    return (size_t)(x ^ (x >> 29));
}

static size_t *map_get(ptr_map *m, const char *k)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 64;
        const char **nk = calloc(ncap, sizeof *nk);
        size_t *nv = malloc(ncap * sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return NULL;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->key[i]) {
                size_t j = ptr_hash(m->key[i]) & (ncap - 1);
                while (nk[j])
                    j = (j + 1) & (ncap - 1);
                nk[j] = m->key[i];
                nv[j] = m->val[i];
            }
        free(m->key);
        free(m->val);
        m->key = nk;
        m->val = nv;
        m->cap = ncap;
    }
    size_t j = ptr_hash(k) & (m->cap - 1);
    while (m->key[j] && m->key[j] != k)
        j = (j + 1) & (m->cap - 1);
    if (!m->key[j]) {
        m->key[j] = k;
        m->val[j] = SIZE_MAX;
        m->n++;
    }
    return &m->val[j];
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

static int by_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Gives every site whose name equals another's its address (both of them),
 * in the display names (shortened) or the full names. */
static int disambiguate(vis_profile *p, int shortened)
{
    size_t n = p->n_site_info;
    char **names = malloc((n ? n : 1) * sizeof *names);
    char **repl = calloc(n ? n : 1, sizeof *repl);
    int rc = names && repl ? 0 : -1;
    for (size_t k = 0; k < n && rc == 0; k++)
        names[k] = shortened ? p->site_info[k].name : p->site_info[k].full_name;
    if (rc == 0)
        qsort(names, n, sizeof *names, by_str);
    for (size_t k = 0; k < n && rc == 0; k++) {
        vis_site_info *s = &p->site_info[k];
        char *own = shortened ? s->name : s->full_name;
        char **hit = bsearch(&own, names, n, sizeof *names, by_str);
        int dup = (hit > names && !strcmp(hit[-1], own)) || (hit + 1 < names + n && !strcmp(hit[1], own));
        char *addr = dup ? address_of(s->label) : NULL;
        if (!addr)
            continue;                 /* unique, or no address to tell it apart by */
        repl[k] = shortened ? vis_site_display_name(s->label, addr, VIS_SITE_NAME_MAX)
                            : full_name(s->label, addr);
        free(addr);
        if (!repl[k])
            rc = -1;
    }
    /* Swapped in afterwards, so every comparison above saw the plain names. */
    for (size_t k = 0; k < n && repl; k++) {
        if (!repl[k])
            continue;
        char **own = shortened ? &p->site_info[k].name : &p->site_info[k].full_name;
        free(*own);
        *own = repl[k];
    }
    free(names);
    free(repl);
    return rc;
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
    ptr_map m = { 0, 0, NULL, NULL };
    size_t tie = tie_tree(p);
    vis_site_info *info = NULL;
    /* Ranked again after a regrouping (groups.h): the old ranking goes. */
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
            size_t *slot = map_get(&m, st->label);
            if (!slot)
                goto oom;
            if (*slot == SIZE_MAX) {
                vis_site_info *ni = vis_grow(info, p->n_site_info, 64, sizeof *ni);
                if (!ni)
                    goto oom;
                info = ni;
                *slot = p->n_site_info++;
                memset(&info[*slot], 0, sizeof *info);
                info[*slot].label = st->label;
                info[*slot].largest_snap = i;
            }
            st->id = *slot;
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
    free(m.key);
    free(m.val);
    m = (ptr_map){ 0, 0, NULL, NULL };
    for (size_t k = 0; k < p->n_site_info; k++) {
        size_t *slot = map_get(&m, info[k].label);
        if (!slot)
            goto oom;
        *slot = k;
        if (info[k].largest_B > 0)
            p->n_ranked = k + 1;
        if (!(info[k].name = vis_site_display_name(info[k].label, NULL, VIS_SITE_NAME_MAX)) ||
            !(info[k].full_name = full_name(info[k].label, NULL)))
            goto oom;
    }
    for (size_t i = 0; i < p->n_snaps; i++) {
        vis_snapshot *s = &p->snaps[i];
        for (size_t k = 0; k < s->n_sites && s->kind != VIS_TREE_EMPTY; k++)
            if (s->sites[k].id != SIZE_MAX)
                s->sites[k].id = *map_get(&m, s->sites[k].label);   /* present: no growth */
    }
    free(m.key);
    free(m.val);
    return disambiguate(p, 1) || disambiguate(p, 0) ? -1 : 0;
oom:
    free(m.key);
    free(m.val);
    if (!p->site_info)
        free(info);
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
