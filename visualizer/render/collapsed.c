/* collapsed.c: the snapshot's tree as folded stacks, the input format of
 * flamegraph.pl, inferno and speedscope: one line per stack,
 * "outermost;...;innermost BYTES", merged by frame name and sorted by name
 * at each level, the bytes adding up to the snapshot's heap.
 *
 * Names are written as in the report ("fn (file.c:12)", no address). The
 * format has no quoting, so three things are escaped, percent-style: a ';'
 * (Rust's "[u8; 8]") is written %3B, a control character %XX (two hex
 * digits), and a '%' that two hex digits follow %25 (so "(1.00%)" stays as
 * it is); decoding each %XX gives back the name.
 *
 * When --group-by asks for groups (other than site; not the default
 * grouping, so that by default the stacks are the tree's), each
 * stack starts with its group's key as the outermost frame, so a flame
 * graph made from it has one tower per group: the site's group, or for a
 * site that is an allocation wrapper whose callers are the sites, its
 * caller's. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/export.h"
#include "model/groups.h"

static int is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
}

static void put_name(FILE *out, const char *s)
{
    if (!*s) {
        fputs("???", out);
        return;
    }
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == ';' || c < 0x20 || c == 0x7f || (c == '%' && is_hex(s[1]) && is_hex(s[2])))
            fprintf(out, "%%%02X", c);
        else
            fputc(c, out);
    }
}

typedef struct {
    char *text;
    uint64_t bytes;
} line;

static int by_text(const void *a, const void *b)
{
    return strcmp(((const line *)a)->text, ((const line *)b)->text);
}

/* Whether label is a wrapper the grouping split (its callers are the sites). */
static int split_wrapper(const vis_profile *p, const char *label)
{
    for (size_t k = 0; k < p->grouping.n_wrappers; k++)
        if (p->grouping.wrappers[k].split && !strcmp(p->grouping.wrappers[k].label, label))
            return 1;
    return 0;
}

/* The grouped form: "GROUP;outermost;...;site BYTES", equal lines merged,
 * sorted by text. */
static int write_grouped(FILE *out, const vis_export *e, char *err, size_t errsz)
{
    const vis_stacks *s = e->s;
    const vis_grouping *gr = &e->p->grouping;
    line *lines = calloc(s->n_stacks + 1, sizeof *lines);
    size_t n = 0;
    int rc = lines ? 0 : -1;
    for (size_t i = 0; i < s->n_stacks && rc == 0; i++) {
        const vis_stack *st = &s->stacks[i];
        size_t site = 0;
        if (st->depth > 1 && split_wrapper(e->p, s->frames[st->frames[0]].label))
            site = 1;
        const vis_frame *f = &s->frames[st->frames[site]];
        char *key = f->below_threshold ? strdup(f->name)
                                       : vis_group_key(f->label, gr->by, gr->ns_depth);
        char *buf = NULL;
        size_t len = 0;
        FILE *m = key ? open_memstream(&buf, &len) : NULL;
        if (!m) {
            free(key);
            rc = -1;
            break;
        }
        put_name(m, key);
        for (size_t k = st->depth; k-- > 0;) {
            fputc(';', m);
            put_name(m, s->names[s->frames[st->frames[k]].name_id]);
        }
        free(key);
        if (fclose(m) != 0 || !buf) {
            free(buf);
            rc = -1;
            break;
        }
        lines[n++] = (line){ buf, st->bytes };
    }
    if (rc == 0 && n > 1)
        qsort(lines, n, sizeof *lines, by_text);
    for (size_t i = 0; i < n && rc == 0; i++) {
        uint64_t b = lines[i].bytes;
        while (i + 1 < n && !strcmp(lines[i].text, lines[i + 1].text))
            b += lines[++i].bytes;
        if (b)
            fprintf(out, "%s %" PRIu64 "\n", lines[i].text, b);
    }
    for (size_t i = 0; i < n; i++)
        free(lines[i].text);
    free(lines);
    if (rc != 0)
        snprintf(err, errsz, "%s: out of memory", e->p->path);
    return rc;
}

int vis_collapsed_write(FILE *out, const vis_export *e, char *err, size_t errsz)
{
    const vis_stacks *s = e->s;
    /* Only when asked for: other tools read these stacks as the tree's. */
    if (e->p->grouping.applied && e->p->grouping.by != VIS_GROUP_SITE && !e->p->grouping.by_auto)
        return write_grouped(out, e, err, errsz);
    size_t *path = malloc((s->flame_depth + 1) * sizeof *path);
    if (!path) {
        snprintf(err, errsz, "%s: out of memory", e->p->path);
        return -1;
    }
    /* Preorder over the flame tree: children in name order. */
    size_t i = s->flame[0].first_child;
    while (i != SIZE_MAX) {
        const vis_flame_node *n = &s->flame[i];
        if (n->self > 0) {
            size_t len = vis_flame_path(s, i, path);
            for (size_t k = 0; k < len; k++) {
                if (k)
                    fputc(';', out);
                put_name(out, s->names[s->flame[path[k]].name_id]);
            }
            fprintf(out, " %" PRIu64 "\n", n->self);
        }
        if (n->first_child != SIZE_MAX) {
            i = n->first_child;
            continue;
        }
        while (i != 0 && s->flame[i].next_sibling == SIZE_MAX)
            i = s->flame[i].parent;
        i = i == 0 ? SIZE_MAX : s->flame[i].next_sibling;
    }
    free(path);
    return 0;
}
