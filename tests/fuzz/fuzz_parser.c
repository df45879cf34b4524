/* fuzz_parser.c: libFuzzer harness for memtime-vis's Massif-format reader and
 * text reports. Each input is read from memory (fmemopen) through both
 * passes: vis_massif_read, then the summary and the ms_print-style report,
 * which re-reads every detailed snapshot's tree from its offset. Output goes
 * to /dev/null; the sanitizers report what matters. Built and run by
 * tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdio.h>
#include "massif.h"
#include "report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null_out;
    if (!null_out && !(null_out = fopen("/dev/null", "w")))
        return 0;
    if (size == 0)
        return 0;   /* glibc's fmemopen rejects an empty buffer */
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0;
    char err[1024];
    vis_profile *p = vis_massif_read(f, "fuzz.out", err, sizeof err);
    if (p) {
        vis_report_opts o;
        vis_report_opts_default(&o);
        o.graph_x = 10;      /* small graphs keep each run fast */
        o.graph_y = 5;
        vis_report_summary(null_out, p, &o);
        vis_report_ms_print(null_out, f, p, &o, err, sizeof err);
        vis_profile_free(p);
    }
    fclose(f);
    return 0;
}
