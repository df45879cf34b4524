/* csv.h: the chart's series as CSV (`memtime-vis FILE -o NAME.csv`), for a
 * user's own plotting and for the tests: a header, then one row per snapshot
 * in file order; integer bytes, times in the file's unit, RFC 4180 quoting.
 * Columns: snapshot,time,total, one per drawn site (named as in the legend),
 * other,unattributed,extra_heap,stacks. The parts of a row add up to total.
 * The exact outline has a CSV of its own (NAME.outline.csv). */
#ifndef MT_CSV_H
#define MT_CSV_H

#include <stddef.h>
#include <stdio.h>
#include "model/sites.h"

/* Writes the CSV of v (built from its profile) to f, lines ending in LF.
 * Returns 0, or -1 when out of memory; write errors show in ferror(f). */
int vis_csv_write(FILE *f, const vis_series *v);

/* Builds the series of the top sites and writes it to path atomically
 * (outfile.h). Returns 0, or -1 with err. */
int vis_csv_write_file(const vis_profile *p, size_t top, const char *path,
                       char *err, size_t errsz);

/* The exact outline as CSV (`-o NAME.outline.csv`): a header, then one
 * row per span of p's outline as the reader expanded it (filled spans
 * included): start,end,min_bytes,max_bytes,last_bytes,heap_min_bytes,
 * heap_max_bytes,heap_last_bytes; times in the file's unit, totals
 * heap + extra + stacks. Written atomically; a profile without an outline
 * writes nothing. Returns 0, or -1 with err. */
int vis_csv_outline_write_file(const vis_profile *p, const char *path, char *err, size_t errsz);

#endif
