/* stack_groups.c: each stack of an exported tree under its group's key
 * (stack_groups.h). The keys are computed once a stack, sorted to find the
 * groups, and become frames of their own, so the writers need no rule of
 * their own: they draw the frames they are given. */
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "model/group_cut.h"
#include "model/groups.h"
#include "model/wrappers.h"
#include "model/sites.h"
#include "model/stack_groups.h"

int vis_stacks_grouped(const vis_profile *p)
{
    const vis_grouping *gr = &p->grouping;
    return gr->applied && gr->by != VIS_GROUP_SITE && !gr->by_auto;
}

typedef struct {
    char *key;
    size_t stack;
    int below;     /* Massif's "in N places" line: never under the threshold */
    char *coarse[2]; /* the fallback's keys (groups.h), when it has them */
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
                       int *below, char **coarse)
{
    const vis_stack *st = &s->stacks[i];
    size_t site = 0;
    while (site + 1 < st->depth && vis_wrapper_split_label(p, s->frames[st->frames[site]].label))
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
            /* Massif's "in N places" line names no caller. */
            told[fi] = c < st->depth && !s->frames[st->frames[c]].below_threshold
                           ? vis_site_label_by_caller(label, s->frames[st->frames[c]].label)
                           : strdup(label);
            if (!told[fi])
                return NULL;
        }
        label = told[fi];
    }
    vis_group_by fb = p->grouping.fallback;
    if (fb != VIS_GROUP_AUTO) {
        coarse[0] = vis_group_key(label, fb, 1);
        vis_group_by fb2 = vis_group_fallback2(p->grouping.by, fb);
        coarse[1] = fb2 != VIS_GROUP_AUTO ? vis_group_key(label, fb2, 1) : NULL;
        if (!coarse[0] || (fb2 != VIS_GROUP_AUTO && !coarse[1]))
            return NULL;
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
    size_t n = s->n_stacks, n_orig = s->n_frames, n_groups = 0, n_rest = 0;
    keyed *k = calloc(n, sizeof *k);
    char **told = calloc(n_orig + 1, sizeof *told);
    vis_cut *c = calloc(n + 1, sizeof *c);        /* the groups: runs of equal keys */
    size_t *first = calloc(n + 1, sizeof *first); /* a group's first stack in k */
    size_t *frame = calloc(n + 1, sizeof *frame); /* a group's frame */
    int rc = -1;
    if (!k || !told || !c || !first || !frame)
        goto out;
    for (size_t i = 0; i < n; i++) {
        k[i].stack = i;
        if (!(k[i].key = stack_key(s, p, i, told, &k[i].below, k[i].coarse)))
            goto out;
    }
    qsort(k, n, sizeof *k, by_key);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        uint64_t bytes = 0;
        for (; j < n && !strcmp(k[j].key, k[i].key); j++)
            bytes += s->stacks[k[j].stack].bytes;
        first[n_groups] = i;
        c[n_groups++] = (vis_cut){ k[i].key, bytes, k[i].below, { k[i].coarse[0], k[i].coarse[1] }, 0 };
        i = j;
    }
    if (vis_group_cut(c, n_groups, p->grouping.threshold / 100.0 * (double)s->total, &n_rest) != 0)
        goto out;

    /* The frames: a kept group's own, one a fallback line (found by its
     * text among those made), one for the remainder. */
    size_t rest = SIZE_MAX, lines0 = s->n_frames;
    for (size_t g = 0; g < n_groups; g++) {
        char text[512];
        if (c[g].fate == VIS_CUT_REST) {
            if (rest == SIZE_MAX) {
                vis_group_rest_label(text, sizeof text, n_rest, p->grouping.by, p->grouping.threshold);
                char *key = strdup(text);
                if (!key || add_group_frame(s, key, &rest) != 0)
                    goto out;
            }
            frame[g] = rest;
            continue;
        }
        if (c[g].fate == VIS_CUT_KEPT) {
            char *key = k[first[g]].key;
            k[first[g]].key = NULL;   /* the frame owns it; the run is found */
            if (add_group_frame(s, key, &frame[g]) != 0)
                goto out;
            continue;
        }
        vis_group_fallback_label(text, sizeof text, p->grouping.by, c[g].coarse[c[g].fate]);
        frame[g] = SIZE_MAX;
        for (size_t f = lines0; f < s->n_frames && frame[g] == SIZE_MAX; f++)
            if (f != rest && !strcmp(s->frames[f].label, text))
                frame[g] = f;
        char *key = frame[g] == SIZE_MAX ? strdup(text) : NULL;
        if (frame[g] == SIZE_MAX && (!key || add_group_frame(s, key, &frame[g]) != 0))
            goto out;
    }

    /* Each stack gets its group's frame, at its end. */
    for (size_t g = 0; g < n_groups; g++) {
        size_t end = g + 1 < n_groups ? first[g + 1] : n;
        for (size_t q = first[g]; q < end; q++) {
            vis_stack *st = &s->stacks[k[q].stack];
            size_t *fr = realloc(st->frames, (st->depth + 1) * sizeof *fr);
            if (!fr)
                goto out;
            st->frames = fr;
            st->frames[st->depth++] = frame[g];
        }
    }
    rc = vis_stacks_flame(s);
out:
    for (size_t i = 0; k && i < n; i++) {
        free(k[i].key);
        free(k[i].coarse[0]);
        free(k[i].coarse[1]);
    }
    for (size_t i = 0; told && i < n_orig; i++)
        free(told[i]);
    free(k);
    free(told);
    free(c);
    free(first);
    free(frame);
    return rc;
}
