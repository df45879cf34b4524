/* massif_out.c: Massif-format writing of heap trees (massif_out.h). The
 * grammar is the one docs/file-format.md describes and t200's ms_print
 * and the strict reader check: exact separators, one space of indent per
 * depth, siblings by bytes (largest first), the threshold's merged line
 * sorted among them. Labels are written verbatim (Massif escapes
 * nothing); a label holding a line break cannot be written and is
 * replaced by its first line, so the tree stays well formed. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "render/massif_out.h"

static void put_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c == '\r')
            fputs("\\r", out);
        else if (c == '\\')
            fputs("\\\\", out);
        else if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\x%02x", c);
        else
            fputc(c, out);
    }
}

void vis_massif_out_header(FILE *out, const char *desc, const char *cmd, vis_unit unit)
{
    static const char *const names[] = { "i", "ms", "B" };
    fputs("desc: ", out);
    put_escaped(out, desc && *desc ? desc : "(none)");
    fputs("\ncmd: ", out);
    put_escaped(out, cmd && *cmd ? cmd : "???");
    fprintf(out, "\ntime_unit: %s\n", names[unit]);
}

/* A label up to its first control character. */
static void put_label(FILE *out, const char *s)
{
    for (; *s && (unsigned char)*s >= 0x20 && *s != 0x7f; s++)
        fputc(*s, out);
}

static int write_node(FILE *out, const vis_htree *t, const vis_strtab *labels, uint32_t node,
                      unsigned depth, uint64_t min_bytes, double threshold)
{
    uint32_t *kids;
    long n = vis_htree_children(t, node, &kids);
    if (n < 0)
        return -1;
    long shown = 0, below = 0;
    uint64_t below_bytes = 0;
    for (long i = 0; i < n; i++) {
        if (t->n[kids[i]].bytes >= min_bytes && t->n[kids[i]].bytes > 0 &&
            depth + 1 < 4000)
            shown++;
        else if (t->n[kids[i]].bytes > 0) {
            below++;
            below_bytes += t->n[kids[i]].bytes;
        }
    }
    fprintf(out, "%*sn%ld: %" PRIu64 " ", (int)depth, "", shown + (below > 0), t->n[node].bytes);
    if (node == 0)
        fputs("(heap allocation functions) malloc/new/new[], --alloc-fns, etc.", out);
    else
        put_label(out, labels->s[t->n[node].label]);
    fputc('\n', out);
    int merged = 0, rc = 0;
    for (long i = 0; i <= shown && rc == 0; i++) {
        uint32_t k = i < shown ? kids[i] : 0;
        /* The merged line goes where its bytes sort it among the shown. */
        if (below && !merged && (i == shown || t->n[k].bytes < below_bytes)) {
            if (below == 1)
                fprintf(out, "%*sn0: %" PRIu64 " in 1 place, below massif's threshold (%.2f%%)\n",
                        (int)depth + 1, "", below_bytes, threshold);
            else
                fprintf(out, "%*sn0: %" PRIu64 " in %ld places, all below massif's threshold "
                        "(%.2f%%)\n", (int)depth + 1, "", below_bytes, below, threshold);
            merged = 1;
        }
        if (i < shown)
            rc = write_node(out, t, labels, k, depth + 1, min_bytes, threshold);
    }
    free(kids);
    return rc;
}

int vis_massif_out_snapshot(FILE *out, size_t index, uint64_t time, int peak, const vis_htree *t,
                            const vis_strtab *labels, double threshold)
{
    uint64_t heap = t->n[0].bytes;
    fprintf(out, "#-----------\nsnapshot=%zu\n#-----------\ntime=%" PRIu64 "\nmem_heap_B=%" PRIu64
            "\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=%s\n", index, time, heap,
            peak ? "peak" : "detailed");
    /* Massif keeps a node when it holds at least threshold% of the total. */
    uint64_t min_bytes = (uint64_t)((double)heap * threshold / 100.0);
    if (min_bytes == 0)
        min_bytes = 1;
    return write_node(out, t, labels, 0, 0, min_bytes, threshold);
}

static int write_dnode(FILE *out, const vis_htree *t, uint32_t node, unsigned depth)
{
    uint32_t *kids;
    long n = vis_htree_children(t, node, &kids);
    if (n < 0)
        return -1;
    int rc = 0;
    for (long i = 0; i < n && rc == 0; i++) {
        const vis_tnode *k = &t->n[kids[i]];
        if (!k->bytes)
            continue;
        fprintf(out, " %u.%" PRIu32 ".%" PRIu64, depth, k->label, k->bytes);
        rc = write_dnode(out, t, kids[i], depth + 1);
    }
    free(kids);
    return rc;
}

int vis_massif_out_dtree(FILE *out, size_t index, uint64_t time, const vis_htree *t)
{
    fprintf(out, "dtree: snapshot=%zu time=%" PRIu64, index, time);
    int rc = write_dnode(out, t, 0, 1);
    fputc('\n', out);
    return rc;
}
