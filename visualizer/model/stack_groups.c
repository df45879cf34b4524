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

/* A group below the view's threshold, for the fallback (groups.h). */
typedef struct {
    size_t first;       /* its first stack in the keyed order */
    uint64_t bytes;
    const char *coarse; /* its key at the level being tried */
    char *label;        /* its fallback group's line, once it has one */
    int owned;          /* label is this entry's (else its frame's) */
} small_group;

static int by_coarse(const void *a, const void *b)
{
    const small_group *x = a, *y = b;
    return strcmp(x->coarse, y->coarse);
}

/* The fallback groups: small groups by their coarser key, then what is
 * left by the second level (vis_group_fallback2), at or above cut
 * together, as the regrouping makes them (groups.c's set_groups). */
static int fall_back(const vis_profile *p, const keyed *k, small_group *sg, size_t n, double cut)
{
    for (int level = 0; level < 2; level++) {
        /* The groups still without a line, to the front. */
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (!sg[i].label && k[sg[i].first].coarse[level]) {
                small_group t = sg[m];
                sg[m] = sg[i];
                sg[i] = t;
                sg[m].coarse = k[sg[m].first].coarse[level];
                m++;
            }
        if (m < 2)
            break;
        qsort(sg, m, sizeof *sg, by_coarse);
        for (size_t i = 0; i < m;) {
            size_t j = i;
            uint64_t sum = 0;
            for (; j < m && !strcmp(sg[j].coarse, sg[i].coarse); j++)
                sum += sg[j].bytes;
            if ((double)sum >= cut && j - i >= 2) {
                char text[512];
                vis_group_fallback_label(text, sizeof text, p->grouping.by, sg[i].coarse);
                for (size_t q = i; q < j; q++) {
                    if (!(sg[q].label = strdup(text)))
                        return -1;
                    sg[q].owned = 1;
                }
            }
            i = j;
        }
    }
    return 0;
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
    size_t n = s->n_stacks, n_orig = s->n_frames, n_small = 0;
    keyed *k = calloc(n, sizeof *k);
    char **told = calloc(n_orig + 1, sizeof *told);
    small_group *sg = calloc(n + 1, sizeof *sg);
    size_t *frame_of = calloc(n + 1, sizeof *frame_of);   /* by k's index */
    int rc = -1;
    if (!k || !told || !sg || !frame_of)
        goto out;
    for (size_t i = 0; i < n; i++) {
        k[i].stack = i;
        if (!(k[i].key = stack_key(s, p, i, told, &k[i].below, k[i].coarse)))
            goto out;
    }
    qsort(k, n, sizeof *k, by_key);

    /* The groups (runs of equal keys) below the view's threshold, then
     * the fallback groups that take some of them (groups.h). */
    double cut = p->grouping.threshold / 100.0 * (double)s->total;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        uint64_t bytes = 0;
        for (; j < n && !strcmp(k[j].key, k[i].key); j++)
            bytes += s->stacks[k[j].stack].bytes;
        if (!k[i].below && (double)bytes < cut)
            sg[n_small++] = (small_group){ i, bytes, NULL, NULL, 0 };
        i = j;
    }
    if (n_small >= 2 && p->grouping.fallback != VIS_GROUP_AUTO &&
        fall_back(p, k, sg, n_small, cut) != 0)
        goto out;
    size_t rest = SIZE_MAX, left = 0;   /* the frame of the groups still below */
    for (size_t i = 0; i < n_small; i++)
        left += !sg[i].label;
    if (left >= 2) {
        char text[160];
        vis_group_rest_label(text, sizeof text, left, p->grouping.by, p->grouping.threshold);
        char *key = strdup(text);
        if (!key || add_group_frame(s, key, &rest) != 0)
            goto out;
    }
    /* Each small group's frame: its fallback group's (one frame a line),
     * the remainder's, or its own when it is the only one left. */
    for (size_t i = 0; i < n; i++)
        frame_of[i] = SIZE_MAX;
    for (size_t i = 0; i < n_small; i++) {
        size_t *f = &frame_of[sg[i].first];
        if (!sg[i].label) {
            *f = left >= 2 ? rest : SIZE_MAX;
            continue;
        }
        for (size_t q = 0; q < i && *f == SIZE_MAX; q++)
            if (sg[q].label && !strcmp(sg[q].label, sg[i].label))
                *f = frame_of[sg[q].first];
        if (*f == SIZE_MAX) {
            sg[i].owned = 0;   /* the frame owns it, add_group_frame or not */
            if (add_group_frame(s, sg[i].label, f) != 0)
                goto out;
        } else {
            free(sg[i].label);
            sg[i].owned = 0;
        }
        sg[i].label = (char *)s->frames[*f].label;
    }

    /* One frame a group at the end of each of its stacks. */
    for (size_t i = 0; i < n;) {
        size_t j = i + 1, frame = frame_of[i];
        while (j < n && !strcmp(k[j].key, k[i].key))
            j++;
        if (frame == SIZE_MAX) {
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
    for (size_t i = 0; k && i < n; i++) {
        free(k[i].key);
        free(k[i].coarse[0]);
        free(k[i].coarse[1]);
    }
    for (size_t i = 0; told && i < n_orig; i++)
        free(told[i]);
    for (size_t i = 0; sg && i < n_small; i++)
        if (sg[i].owned)
            free(sg[i].label);
    free(k);
    free(told);
    free(sg);
    free(frame_of);
    return rc;
}
