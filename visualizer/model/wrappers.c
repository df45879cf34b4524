/* wrappers.c: allocation wrappers (wrappers.h), known by name or found by
 * their shape: a function's callers counted as distinct calling functions
 * over memtime's detail, its recursion looked through. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "base/ptrmap.h"
#include "model/demangle.h"
#include "model/group_keys.h"
#include "model/label.h"
#include "model/profile_build.h"
#include "model/sites.h"
#include "model/wrappers.h"

/* Functions that allocate for their callers in common C programs and
 * libraries (compared with the function's name, scopes and arguments off). */
static const char *const WRAPPER_NAMES[] = {
    "my_malloc", "my_realloc", "my_multi_malloc", "my_multi_malloc_large", "my_memdup",
    "my_strdup", "my_strndup", "my_once_alloc", "my_once_memdup", "my_once_strdup",
    "alloc_root", "multi_alloc_root", "memdup_root", "strdup_root", "strmake_root",
    "thd_alloc", "thd_calloc", "thd_memdup", "thd_strdup", "thd_strmake",
    "g_malloc", "g_malloc0", "g_realloc", "g_try_malloc", "g_try_malloc0", "g_malloc_n",
    "g_malloc0_n", "g_slice_alloc", "g_slice_alloc0", "g_strdup", "g_new",
    "xmalloc", "xcalloc", "xrealloc", "xzalloc", "xstrdup", "xmemdup", "xnmalloc",
    "sqlite3Malloc", "sqlite3MallocZero", "sqlite3DbMallocRaw", "sqlite3DbMallocRawNN",
    "sqlite3DbMallocZero", "sqlite3Realloc", "sqlite3MemMalloc",
    "ngx_alloc", "ngx_calloc", "ngx_palloc", "ngx_pnalloc", "ngx_pcalloc",
    "emalloc", "_emalloc", "ecalloc", "erealloc", "PyMem_Malloc", "PyMem_RawMalloc",
    "PyObject_Malloc", "apr_palloc", "apr_pcalloc", "av_malloc", "av_mallocz",
    "pg_malloc", "palloc", "palloc0", "MemoryContextAlloc", "zmalloc", "je_malloc",
    "OPENSSL_malloc", "CRYPTO_malloc", "CRYPTO_zalloc", "xmlMalloc", "safe_malloc",
    "finish_grow", "grow_one", "grow_amortized", "grow_exact", "reserve_for_push",
    "do_reserve_and_handle",
};

static int wrapper_name(const char *label)
{
    vis_label p = vis_label_parse(label);
    if (p.unnamed)
        return 0;
    const char *name;
    int args;
    size_t n = vis_name_qualified(p.fn, vis_name_without_hash(p.fn, vis_name_without_clones(p.fn, p.fn_len)), &name, &args);
    size_t seg[64], len[64];
    size_t count = vis_name_segments(name, n, seg, len, 64);
    if (count == 0 || count > 64)
        return 0;
    const char *last = name + seg[count - 1];
    size_t ll = len[count - 1];
    while (ll > 0 && last[ll - 1] == '>') {   /* a template's arguments */
        size_t k = ll;
        int depth = 0;
        while (k > 0) {
            k--;
            if (last[k] == '>')
                depth++;
            else if (last[k] == '<' && --depth == 0)
                break;
        }
        ll = k;
    }
    for (size_t i = 0; i < sizeof WRAPPER_NAMES / sizeof *WRAPPER_NAMES; i++)
        if (strlen(WRAPPER_NAMES[i]) == ll && !strncmp(last, WRAPPER_NAMES[i], ll))
            return 1;
    /* An arena's "grow" (rustc_arena::DroplessArena::grow, TypedArena). */
    if (ll == 4 && !strncmp(last, "grow", 4) && count >= 2) {
        for (size_t i = 0; i + 5 <= (size_t)(last - name); i++)
            if (!strncmp(name + i, "Arena", 5) || !strncmp(name + i, "arena", 5))
                return 1;
    }
    return 0;
}

char *vis_wrapper_alloc_fn(const char *label)
{
    vis_label p = vis_label_parse(label);
    if (p.unnamed)
        return NULL;
    return strndup(p.fn, p.fn_len);
}

char *vis_wrapper_alloc_pattern(const char *label)
{
    char *fn = vis_wrapper_alloc_fn(label);
    if (!fn || strlen(fn) <= VIS_ALLOC_PATTERN_MAX || strstr(fn, "operator"))
        return fn;
    /* Each outermost <...> and (...) becomes <*> and (*): memtime's
     * --alloc-fn is a glob, and this one matches the name it came from. */
    char *out = malloc(strlen(fn) + 1), *o = out;
    if (!out) {
        free(fn);
        return NULL;
    }
    int depth = 0;
    for (const char *c = fn; *c; c++) {
        if (*c == '<' || *c == '(') {
            if (depth++ == 0) {
                *o++ = *c;
                *o++ = '*';
            }
        } else if ((*c == '>' || *c == ')') && depth > 0) {
            if (--depth == 0)
                *o++ = *c;
        } else if (depth == 0) {
            *o++ = *c;
        }
    }
    *o = '\0';
    if (depth != 0) {   /* unbalanced: the name as it is */
        free(out);
        return fn;
    }
    free(fn);
    return out;
}


int vis_wrapper_name(const char *label)
{
    char *copy;
    int rc = vis_demangle_label(label, &copy);
    if (rc < 0)
        return wrapper_name(label);   /* out of memory: the name as it is */
    int named = wrapper_name(rc ? copy : label);
    free(copy);
    return named;
}

char *vis_caller_key(const char *label)
{
    if (vis_site_unnamed(label))
        return strdup(vis_site_name(label));
    return vis_key_function(label);
}

/* ---- the shape, from memtime's detail --------------------------------------- */

/* One caller's part of a function's bytes in one tree: caller NULL for what
 * the function holds of its own (its stack ended there, or the detail's). */
typedef struct {
    const char *fn, *caller;   /* interned keys */
    uint64_t bytes;
} part;

/* A function's shape in the tree where it holds the most. */
typedef struct {
    uint64_t bytes, own, max_caller;
    size_t n_callers;
    size_t frame;              /* its frame holding the most there */
    int seen;
} fn_shape;

typedef struct {
    vis_profile *p;
    const char **fn;           /* per frame: its function's key, NULL unnamed */
    const char **caller;       /* per frame: its key as a caller */
    part *parts;
    size_t n_parts;
} finder;

static int add_part(finder *f, const char *fn, const char *caller, uint64_t bytes)
{
    part *a = vis_grow(f->parts, f->n_parts, 64, sizeof *a);
    if (!a)
        return -1;
    f->parts = a;
    a[f->n_parts++] = (part){ fn, caller, bytes };
    return 0;
}

/* The callers of node j, a frame of function fn: its children, where a
 * child is fn itself (recursion) that child's callers instead. */
static int callers_of(finder *f, const vis_dtree *t, size_t j, const char *fn, int level)
{
    size_t end = vis_dtree_end(t, j);
    uint64_t held = 0;
    for (size_t c = j + 1; c < end; c = vis_dtree_end(t, c)) {
        held += t->nodes[c].bytes;
        const char *cf = f->fn[t->nodes[c].frame];
        int rc = cf == fn && level < 1024 ? callers_of(f, t, c, fn, level + 1)
                                          : add_part(f, fn, f->caller[t->nodes[c].frame],
                                                     t->nodes[c].bytes);
        if (rc != 0)
            return -1;
    }
    return held < t->nodes[j].bytes ? add_part(f, fn, NULL, t->nodes[j].bytes - held) : 0;
}

static int by_fn_caller(const void *a, const void *b)
{
    const part *x = a, *y = b;
    if (x->fn != y->fn)
        return x->fn < y->fn ? -1 : 1;
    return x->caller < y->caller ? -1 : x->caller > y->caller;
}

/* The parts of tree t: for each named node whose callees (its ancestors)
 * are not its own function, its callers' bytes. *top[k] gets, per
 * function, its frame holding the most in t. */
static int tree_parts(finder *f, const vis_dtree *t, vis_ptrmap *top)
{
    unsigned max = 0;
    for (size_t j = 0; j < t->n; j++)
        if (t->nodes[j].depth > max)
            max = t->nodes[j].depth;
    const char **path = malloc((max + 1) * sizeof *path);   /* the callees of node j */
    if (!path)
        return -1;
    f->n_parts = 0;
    for (size_t j = 0; j < t->n; j++) {
        unsigned d = t->nodes[j].depth;
        const char *fn = f->fn[t->nodes[j].frame];
        path[d] = fn;
        if (!fn)
            continue;
        int inner = 0;
        for (unsigned a = 1; a < d && !inner; a++)
            inner = path[a] == fn;
        if (inner)
            continue;
        void **slot = callers_of(f, t, j, fn, 0) == 0 ? vis_ptrmap_slot(top, fn) : NULL;
        if (!slot) {
            free(path);
            return -1;
        }
        size_t prev = (size_t)(uintptr_t)*slot;
        if (!prev || t->nodes[prev - 1].bytes < t->nodes[j].bytes)
            *slot = (void *)(uintptr_t)(j + 1);
    }
    free(path);
    if (f->n_parts > 1)
        qsort(f->parts, f->n_parts, sizeof *f->parts, by_fn_caller);
    return 0;
}

/* The shape of the function whose parts are parts[i..*next) (sorted). */
static fn_shape shape_of(const part *parts, size_t n, size_t i, size_t *next)
{
    fn_shape s = { 0, 0, 0, 0, 0, 1 };
    size_t k = i;
    while (k < n && parts[k].fn == parts[i].fn) {
        size_t e = k;
        uint64_t b = 0;
        while (e < n && parts[e].fn == parts[i].fn && parts[e].caller == parts[k].caller)
            b += parts[e++].bytes;
        s.bytes += b;
        if (!parts[k].caller)
            s.own += b;
        else {
            s.n_callers++;
            if (b > s.max_caller)
                s.max_caller = b;
        }
        k = e;
    }
    *next = k;
    return s;
}

static int wide_fan(const fn_shape *s)
{
    return s->n_callers >= VIS_WRAPPER_MIN_CALLERS && s->own == 0 && s->bytes > 0 &&
           s->max_caller * 100 <= s->bytes * VIS_WRAPPER_MAX_SHARE;
}

static int add_wrapper(vis_grouping *gr, const vis_wrapper *w)
{
    vis_wrapper *a = vis_grow(gr->wrappers, gr->n_wrappers, 4, sizeof *a);
    if (!a)
        return -1;
    gr->wrappers = a;
    a[gr->n_wrappers++] = *w;
    return 0;
}

/* The keys of every detail frame. */
static int frame_keys(finder *f)
{
    const vis_detail *d = &f->p->detail;
    for (size_t k = 0; k < d->n_frames; k++) {
        char *c = vis_caller_key(d->frames[k]);
        if (!c || !(f->caller[k] = vis_profile_intern(f->p, c, strlen(c)))) {
            free(c);
            return -1;
        }
        free(c);
        f->fn[k] = vis_site_unnamed(d->frames[k]) ? NULL : f->caller[k];
    }
    return 0;
}

/* With memtime's detail: each function's shape where it holds the most
 * (best, by function key), then the wrappers among them. */
static int from_detail(vis_profile *p, int keep, unsigned char *split)
{
    vis_detail *d = &p->detail;
    finder f = { p, calloc(d->n_frames + 1, sizeof *f.fn), calloc(d->n_frames + 1, sizeof *f.caller),
                 NULL, 0 };
    vis_ptrmap best = VIS_PTRMAP_INIT;     /* fn -> fn_shape * */
    vis_ptrmap top = VIS_PTRMAP_INIT;      /* fn -> its largest node + 1, in one tree */
    fn_shape *shapes = NULL;
    size_t n_shapes = 0;
    int rc = -1;
    if (!f.fn || !f.caller || frame_keys(&f) != 0)
        goto out;
    for (size_t i = 0; i < d->n_trees; i++) {
        const vis_dtree *t = &d->trees[i];
        vis_ptrmap_clear(&top);
        if (tree_parts(&f, t, &top) != 0)
            goto out;
        for (size_t k = 0; k < f.n_parts;) {
            size_t next;
            fn_shape s = shape_of(f.parts, f.n_parts, k, &next);
            void *at = NULL;
            vis_ptrmap_get(&top, f.parts[k].fn, &at);
            s.frame = t->nodes[(size_t)(uintptr_t)at - 1].frame;
            void **slot = vis_ptrmap_slot(&best, f.parts[k].fn);
            if (!slot)
                goto out;
            if (!*slot) {
                fn_shape *a = vis_grow(shapes, n_shapes, 64, sizeof *a);
                if (!a)
                    goto out;
                shapes = a;
                shapes[n_shapes++] = s;
                *slot = (void *)(uintptr_t)n_shapes;
            } else if (shapes[(uintptr_t)*slot - 1].bytes < s.bytes) {
                shapes[(uintptr_t)*slot - 1] = s;
            }
            k = next;
        }
    }
    /* The peak's tree: what each wrapper holds there, and its frame there. */
    const vis_dtree *pt = p->peak_tree_snap != SIZE_MAX ? vis_detail_tree(p, p->peak_tree_snap) : NULL;
    vis_ptrmap_clear(&top);
    f.n_parts = 0;
    if (pt && tree_parts(&f, pt, &top) != 0)
        goto out;
    for (size_t k = 0; k < best.cap; k++) {
        if (!best.key || !best.key[k])
            continue;
        const char *fn = best.key[k];
        const fn_shape *s = &shapes[(uintptr_t)best.val[k] - 1];
        int by_name = vis_wrapper_name(d->frames[s->frame]);
        if (!by_name && !wide_fan(s))
            continue;
        vis_wrapper w = { d->frames[s->frame], fn, 0, 0, s->n_callers, s->bytes ? 100.0 *
                          (double)s->max_caller / (double)s->bytes : 0.0, by_name, !keep };
        for (size_t q = 0; q < f.n_parts;) {
            size_t next;
            if (f.parts[q].fn != fn) {
                q++;
                continue;
            }
            fn_shape ps = shape_of(f.parts, f.n_parts, q, &next);
            void *at = NULL;
            vis_ptrmap_get(&top, fn, &at);
            w.label = d->frames[pt->nodes[(size_t)(uintptr_t)at - 1].frame];
            w.bytes = ps.bytes;
            w.bytes_split = keep ? 0 : ps.bytes - ps.own;
            break;
        }
        for (size_t fr = 0; fr < d->n_frames && !keep; fr++)
            if (f.fn[fr] == fn)
                split[fr] = 1;
        if (add_wrapper(&p->grouping, &w) != 0)
            goto out;
    }
    rc = 0;
out:
    free(f.fn);
    free(f.caller);
    free(f.parts);
    free(shapes);
    vis_ptrmap_clear(&best);
    vis_ptrmap_clear(&top);
    return rc;
}

/* Without detail: the top level of the file's peak tree, callers as the
 * file has them (Massif's "in N places" lines name no function: their
 * bytes count, not as callers). Listed, never split. */
static int from_file(vis_profile *p)
{
    if (!p->peak_tree)
        return 0;
    for (size_t k = 0; k < p->peak_tree->n_children; k++) {
        const vis_node *n = &p->peak_tree->children[k];
        if (!n->label || vis_site_unnamed(n->label) || vis_label_parse(n->label).below)
            continue;
        char *fn = vis_caller_key(n->label);
        const char **seen = calloc(n->n_children + 1, sizeof *seen);
        fn_shape s = { n->bytes, n->bytes, 0, 0, 0, 1 };
        int rc = fn && seen ? 0 : -1;
        for (size_t c = 0; c < n->n_children && rc == 0; c++) {
            const vis_node *ch = &n->children[c];
            s.own = s.own > ch->bytes ? s.own - ch->bytes : 0;
            if (!ch->label || vis_label_parse(ch->label).below)
                continue;
            char *ck = vis_caller_key(ch->label);
            const char *in = ck ? vis_profile_intern(p, ck, strlen(ck)) : NULL;
            free(ck);
            if (!in) {
                rc = -1;
                break;
            }
            if (!strcmp(in, fn))
                continue;   /* recursion */
            size_t q = 0;
            while (q < s.n_callers && seen[q] != in)
                q++;
            if (q == s.n_callers)
                seen[s.n_callers++] = in;
            if (ch->bytes > s.max_caller)
                s.max_caller = ch->bytes;   /* a caller's largest site: a lower bound */
        }
        const char *key = rc == 0 ? vis_profile_intern(p, fn, strlen(fn)) : NULL;
        free(fn);
        free(seen);
        if (!key)
            return -1;
        int by_name = vis_wrapper_name(n->label);
        if (!by_name && !wide_fan(&s))
            continue;
        const char *l = vis_profile_intern(p, n->label, strlen(n->label));
        vis_wrapper w = { l, key, n->bytes, 0, s.n_callers,
                          n->bytes ? 100.0 * (double)s.max_caller / (double)n->bytes : 0.0,
                          by_name, 0 };
        if (!l || add_wrapper(&p->grouping, &w) != 0)
            return -1;
    }
    return 0;
}

int vis_find_wrappers(vis_profile *p, int keep, unsigned char *split)
{
    vis_grouping *gr = &p->grouping;
    int rc = p->detail.present ? from_detail(p, keep, split) : from_file(p);
    if (rc != 0)
        return -1;
    /* One entry per function (the file's tree may show one at several
     * addresses): they add up. */
    size_t kept = 0;
    for (size_t i = 0; i < gr->n_wrappers; i++) {
        size_t k;
        for (k = 0; k < kept && gr->wrappers[k].fn != gr->wrappers[i].fn; k++)
            ;
        if (k == kept) {
            gr->wrappers[kept++] = gr->wrappers[i];
            continue;
        }
        gr->wrappers[k].bytes += gr->wrappers[i].bytes;
        if (gr->wrappers[i].n_callers > gr->wrappers[k].n_callers)
            gr->wrappers[k].n_callers = gr->wrappers[i].n_callers;
    }
    gr->n_wrappers = kept;
    /* Largest first, ties by name (the map's order is no order). */
    for (size_t i = 1; i < gr->n_wrappers; i++)
        for (size_t j = i; j > 0; j--) {
            vis_wrapper *a = &gr->wrappers[j - 1], *b = &gr->wrappers[j];
            if (a->bytes > b->bytes || (a->bytes == b->bytes && strcmp(a->fn, b->fn) <= 0))
                break;
            vis_wrapper t = *a;
            *a = *b;
            *b = t;
        }
    return 0;
}

int vis_wrapper_split_label(const vis_profile *p, const char *label)
{
    const vis_grouping *gr = &p->grouping;
    int any = 0;
    for (size_t k = 0; k < gr->n_wrappers && !any; k++)
        any = gr->wrappers[k].split;
    if (!any || vis_site_unnamed(label))
        return 0;
    char *fn = vis_caller_key(label);
    int split = 0;
    for (size_t k = 0; fn && k < gr->n_wrappers && !split; k++)
        split = gr->wrappers[k].split && !strcmp(gr->wrappers[k].fn, fn);
    free(fn);
    return split;
}
