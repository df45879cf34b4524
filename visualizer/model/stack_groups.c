/* stack_groups.c: each stack of an exported tree under its group's key
 * (stack_groups.h). The keys are computed once a stack, sorted to find the
 * groups, and become frames of their own, so the writers need no rule of
 * their own: they draw the frames they are given. */
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "model/groups.h"
#include "model/sites.h"
#include "model/stack_groups.h"

int vis_stacks_grouped(const vis_profile *p)
{
    const vis_grouping *gr = &p->grouping;
    return gr->applied && gr->by != VIS_GROUP_SITE && !gr->by_auto;
}

/* Whether label is a wrapper the grouping split (its callers are the sites). */
static int split_wrapper(const vis_profile *p, const char *label)
{
    for (size_t k = 0; k < p->grouping.n_wrappers; k++)
        if (p->grouping.wrappers[k].split && !strcmp(p->grouping.wrappers[k].label, label))
            return 1;
    return 0;
}

typedef struct {
    char *key;
    size_t stack;
    int below;     /* Massif's "in N places" line: never under the threshold */
} keyed;

static int by_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->stack > y->stack) - (x->stack < y->stack);
}

/* The key of stack i. told[f]: the label unnamed frame f is told by, made
 * on its first sight (stacks are in the file's order, so the first stack
 * through a frame follows Massif's largest callers). */
static char *stack_key(const vis_stacks *s, const vis_profile *p, size_t i, char **told,
                       int *below)
{
    const vis_stack *st = &s->stacks[i];
    size_t site = 0;
    while (site + 1 < st->depth && split_wrapper(p, s->frames[st->frames[site]].label))
        site++;
    size_t fi = st->frames[site];
    const vis_frame *f = &s->frames[fi];
    *below = f->below_threshold;
    if (f->below_threshold)
        return strdup(f->name);
    const char *label = f->label;
    if (vis_site_unnamed(label)) {
        if (!told[fi]) {
            size_t c = site + 1;
            while (c < st->depth && vis_site_unnamed(s->frames[st->frames[c]].label))
                c++;
            told[fi] = c < st->depth ? vis_site_label_by_caller(label, s->frames[st->frames[c]].label)
                                     : strdup(label);
            if (!told[fi])
                return NULL;
        }
        label = told[fi];
    }
    return vis_group_key(label, p->grouping.by, p->grouping.ns_depth);
}

/* A group's frame: its key, nothing else. Takes key. */
static int add_group_frame(vis_stacks *s, char *key, size_t *out)
{
    vis_frame *a = vis_grow(s->frames, s->n_frames, 64, sizeof *a);
    const char **names = a ? vis_grow(s->names, s->n_names, 64, sizeof *names) : NULL;
    if (a)
        s->frames = a;
    if (names)
        s->names = names;
    char *fn = names ? strdup(key) : NULL, *file = fn ? strdup("") : NULL;
    if (!file) {
        free(key);
        free(fn);
        return -1;
    }
    vis_frame *f = &s->frames[s->n_frames];
    memset(f, 0, sizeof *f);
    f->label = f->name = key;
    f->function = fn;
    f->file = file;
    f->is_group = 1;
    /* A name of its own even if a frame reads the same: groups are only
     * ever the outermost frames, and the flame tree keys on name ids. */
    f->name_id = s->n_names;
    s->names[s->n_names++] = f->name;
    *out = s->n_frames++;
    return 0;
}

int vis_stacks_group(vis_stacks *s, const vis_profile *p)
{
    if (!vis_stacks_grouped(p) || s->n_stacks == 0)
        return 0;
    size_t n = s->n_stacks, n_orig = s->n_frames;
    keyed *k = calloc(n, sizeof *k);
    char **told = calloc(n_orig + 1, sizeof *told);
    unsigned char *is_small = calloc(n ? n : 1, 1);   /* by k's index: in a small group */
    int rc = -1;
    if (!k || !told || !is_small)
        goto out;
    for (size_t i = 0; i < n; i++) {
        k[i].stack = i;
        if (!(k[i].key = stack_key(s, p, i, told, &k[i].below)))
            goto out;
    }
    qsort(k, n, sizeof *k, by_key);

    /* The groups (runs of equal keys): their bytes, and which fall below
     * the view's threshold. */
    double cut = p->grouping.threshold / 100.0 * (double)s->total;
    size_t small = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        uint64_t bytes = 0;
        for (; j < n && !strcmp(k[j].key, k[i].key); j++)
            bytes += s->stacks[k[j].stack].bytes;
        int below_cut = !k[i].below && (double)bytes < cut;
        small += below_cut;
        memset(is_small + i, below_cut, j - i);
        i = j;
    }
    size_t rest = SIZE_MAX;   /* the frame of the groups below the threshold */
    if (small >= 2) {
        char text[160];
        vis_group_rest_label(text, sizeof text, small, p->grouping.by, p->grouping.threshold);
        char *key = strdup(text);
        if (!key || add_group_frame(s, key, &rest) != 0)
            goto out;
    }

    /* One frame a group (or the one for the small ones), at the end of each
     * of its stacks. */
    for (size_t i = 0; i < n;) {
        size_t j = i + 1, frame = rest;
        while (j < n && !strcmp(k[j].key, k[i].key))
            j++;
        if (!is_small[i] || small < 2) {
            char *key = k[i].key;
            k[i].key = NULL;   /* the frame owns it */
            if (add_group_frame(s, key, &frame) != 0)
                goto out;
        }
        for (size_t q = i; q < j; q++) {
            vis_stack *st = &s->stacks[k[q].stack];
            size_t *fr = realloc(st->frames, (st->depth + 1) * sizeof *fr);
            if (!fr)
                goto out;
            st->frames = fr;
            st->frames[st->depth++] = frame;
        }
        i = j;
    }
    rc = vis_stacks_flame(s);
out:
    for (size_t i = 0; k && i < n; i++)
        free(k[i].key);
    for (size_t i = 0; told && i < n_orig; i++)
        free(told[i]);
    free(k);
    free(told);
    free(is_small);
    return rc;
}
