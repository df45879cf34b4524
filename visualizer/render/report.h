/* report.h: the text reports of memtime-vis: a summary (what a bug report
 * needs first) and an ms_print-compatible report (the ASCII graph, the
 * snapshot table and every detailed snapshot's tree), byte-identical to
 * ms_print's output on Massif's own files. */
#ifndef MT_REPORT_H
#define MT_REPORT_H

#include <stdio.h>
#include "base/units.h"        /* vis_fmt_bytes, vis_fmt_time: the one formatter */
#include "model/profile.h"
#include "read/massif.h"

typedef struct {
    double threshold;          /* percent, 0..100; ms_print's --threshold */
    int graph_x, graph_y;      /* ms_print's --x, --y (4..1000) */
    int top_n;                 /* sites listed in the summary */
    const char *ms_print_args; /* the "ms_print arguments:" text, e.g. " f.out" */
} vis_report_opts;

void vis_report_opts_default(vis_report_opts *o);


/* Writes the whole ms_print-style report of p to out: the head (header,
 * graph, list of detailed snapshots) from the model, then the snapshot table
 * with each detailed snapshot's tree walked from in, the file p was read
 * from (seekable). Returns 0, or -1 with err when the file cannot be read
 * again or changed under us. Write errors show in ferror(out). */
int vis_report_ms_print(FILE *out, const vis_profile *p, const vis_report_opts *o,
                        FILE *in, char *err, size_t errsz);

/* The report's body (the snapshot table and the trees) rendered while pass 1
 * reads the file, so that the report reads it once: vis_report_body_new
 * fills sink for vis_massif_read_sink (NULL: out of memory). The body waits
 * for the head in memory, up to 1 MiB, then in an unlinked scratch file in
 * $TMPDIR (default /tmp). */
typedef struct vis_report_body vis_report_body;
vis_report_body *vis_report_body_new(const vis_report_opts *o, vis_massif_sink *sink);
void vis_report_body_free(vis_report_body *b);

/* vis_report_ms_print with the body kept from pass 1 (body may be NULL).
 * The same text either way: if the body could not be kept (no scratch
 * file could be made or written, memory ran out, or a tree that is not
 * nested holds a node that prints under one that does not), the trees are
 * walked from in as vis_report_ms_print does. Returns 0, or -1 with err. */
int vis_report_ms_print_body(FILE *out, const vis_profile *p, const vis_report_opts *o,
                             vis_report_body *body, FILE *in, char *err, size_t errsz);

#endif
