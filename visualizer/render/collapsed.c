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
 * When --group-by asks for groups, each stack starts with its group's key
 * as the outermost frame (the stacks come so, stack_groups.h), so a flame
 * graph made from it has one tower per group. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/export.h"

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

int vis_collapsed_write(FILE *out, const vis_export *e, char *err, size_t errsz)
{
    const vis_stacks *s = e->s;
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
