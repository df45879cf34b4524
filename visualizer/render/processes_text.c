/* processes_text.c: the listing of a run's processes (processes_text.h). */
#include <stdio.h>
#include "base/units.h"
#include "render/processes_text.h"

void vis_procs_list(FILE *out, const vis_procs *ps)
{
    char a[64], b[64], c[64], d[64];
    fprintf(out, "%d processes, times from the first start (%s)\n", (int)ps->n,
            ps->unit == VIS_UNIT_MS ? "ms clock" : "each profile's own clock");
    fprintf(out, "%8s %8s %10s %10s %-18s %11s %11s  %s\n", "PID", "PARENT", "START", "END",
            "ENDED", "PEAK HEAP", "PEAK RSS", "TITLE");
    for (size_t i = 0; i < ps->n; i++) {
        const vis_proc *q = &ps->procs[i];
        char pid[24], parent[24], rss[64] = "-";
        if (q->rss_peak_B)
            vis_fmt_bytes(rss, sizeof rss, q->rss_peak_B);
        snprintf(pid, sizeof pid, "%lld", q->pid);
        snprintf(parent, sizeof parent, q->parent >= 0 ? "%lld" : "-", q->parent);
        fprintf(out, "%8s %8s %10s %10s %-18s %11s %11s  %s\n", pid, parent,
                vis_fmt_time(a, sizeof a, ps->unit, (uint64_t)q->abs_start),
                vis_fmt_time(b, sizeof b, ps->unit, (uint64_t)q->abs_end),
                vis_proc_ending(q, c, sizeof c), vis_fmt_bytes(d, sizeof d, q->peak_B), rss,
                vis_proc_name(q));
    }
}
