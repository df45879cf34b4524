/* fuzz_parser.c: libFuzzer harness for memtime-vis's Massif-format reader and
 * text reports. Each input is read from memory (fmemopen): pass 1, then the
 * analyses and the summary, the whole ms_print report (which walks every
 * tree again from the same stream), then every detailed snapshot's tree
 * once more through vis_massif_walk_tree, and read into stacks (stacks.c) and
 * written as a flamegraph and as folded stacks (pprof.c is left out: it
 * would need protobuf-c here, and reads the same stacks). An input holding
 * a line "memtime-companion: 1" is split there: what follows is read as
 * the profile's companion (its records, the exact outline with its range
 * queries and bursts). Output goes to /dev/null; the sanitizers report
 * what matters. Built and run by tests/fuzz/run.sh; its seeds are
 * tests/data's files and tests/fuzz/seeds/ (profiles with companions). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "model/analysis.h"
#include "model/export.h"
#include "model/outline.h"
#include "model/stacks.h"
#include "read/companion.h"
#include "model/groups.h"
#include "read/massif.h"
#include "render/report.h"
#include "render/summary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count_node(void *ctx, unsigned depth, uint64_t bytes, const char *label,
                      size_t n_children)
{
    (void)depth, (void)bytes, (void)label, (void)n_children;
    ++*(size_t *)ctx;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null_out;
    if (!null_out && !(null_out = fopen("/dev/null", "w")))
        return 0;
    if (size == 0)
        return 0;   /* glibc's fmemopen rejects an empty buffer */
    static const char mark[] = "memtime-companion: 1\n";
    size_t comp = SIZE_MAX;   /* where the companion starts, if anywhere */
    for (size_t i = 0; i + sizeof mark - 1 <= size; i++)
        if ((i == 0 || data[i - 1] == '\n') && !memcmp(data + i, mark, sizeof mark - 1)) {
            comp = i;
            break;
        }
    if (comp == 0)
        return 0;
    FILE *f = fmemopen((void *)data, comp == SIZE_MAX ? size : comp, "r");
    if (!f)
        return 0;
    char err[1024];
    vis_report_opts o;
    vis_report_opts_default(&o);
    o.graph_x = 10;      /* small graphs keep each run fast */
    o.graph_y = 5;
    vis_profile *p = vis_massif_read(f, "fuzz.out", err, sizeof err);
    if (p && comp != SIZE_MAX) {
        FILE *c = fmemopen((void *)(data + comp), size - comp, "r");
        int rc = c ? vis_companion_read_stream(p, c, "fuzz.out.memtime", err, sizeof err) : -1;
        if (c)
            fclose(c);
        vis_outline_index *x = rc == 0 ? vis_outline_index_new(&p->outline) : NULL;
        if (x && vis_outline_has(p)) {
            /* Windows across the whole outline, and one past its ends. */
            const vis_outline *o = &p->outline;
            uint64_t t0 = o->spans[0].start, t1 = o->spans[o->n - 1].end;
            vis_outline_range r;
            for (uint64_t k = 0; k < 8; k++)
                vis_outline_range_time(x, t0 + (t1 - t0) / 8 * k, t0 + (t1 - t0) / 8 * (k + 1) + 1,
                                       &r);
            vis_outline_find(o, t1);
        }
        vis_outline_index_free(x);
        if (rc != 0) {
            vis_profile_free(p);
            p = NULL;
        }
    }
    if (p) {
        /* The regrouping of the (checked) detail: each run a grouping picked
         * by the input's size, so every one is reached. */
        vis_group_opts g = { (vis_group_by)(size % 7), 1 + (unsigned)(size % 3), 1.0, 0,
                             (int)(size / 7 % 2), NULL };
        if (vis_profile_regroup(p, &g) != 0) {
            vis_profile_free(p);
            p = NULL;
        }
    }
    if (p) {
        vis_analysis an;
        if (vis_analysis_compute(p, 0, p->n_snaps - 1, &an) == 0) {
            vis_summary_write(null_out, p, &an, &o);
            vis_analysis_free(&an);
        }
        vis_report_ms_print(null_out, p, &o, f, err, sizeof err);
        size_t n_nodes = 0;
        for (size_t i = 0; i < p->n_snaps; i++)
            if (p->snaps[i].kind != VIS_TREE_EMPTY) {
                vis_massif_walk_tree(f, p, i, count_node, &n_nodes, err, sizeof err);
                vis_export e = { p, vis_stacks_read(f, p, i, err, sizeof err), "", 1, NULL, "" };
                if (e.s) {
                    vis_collapsed_write(null_out, &e, err, sizeof err);
                    vis_flamegraph_write(null_out, &e, err, sizeof err);
                    vis_stacks_free(e.s);
                }
            }
        vis_profile_free(p);
    }
    fclose(f);
    return 0;
}
