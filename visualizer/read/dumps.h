/* dumps.h: heap profiles taken outside Valgrind, read as one timeline. A
 * series of jemalloc heap dumps of one process (jeheap.h), or of pprof
 * heap profiles (pprof_in.h), becomes a Massif-format profile plus its
 * companion: one detailed snapshot per dump, in the order of the dumps'
 * sequence numbers, every stack resolved to frames (symbols.h) with the
 * allocator's own frames stripped from its top, so that every view of
 * memtime-vis reads it as it reads memtime's profiles. The companion's
 * "source:" lines say where the profile came from, its sampling (and what
 * that means for a small site's error) and which clock its times are. */
#ifndef VIS_DUMPS_H
#define VIS_DUMPS_H

#include <stddef.h>
#include "read/symbols.h"

/* What a file is, from its first bytes. */
typedef enum { VIS_DUMP_NONE, VIS_DUMP_JEMALLOC, VIS_DUMP_PPROF } vis_dump_kind;
vis_dump_kind vis_dumps_sniff(const char *path);

/* The clock a series is drawn against: the files' modification times (ms
 * since the first), the dumps' sequence numbers, or for jemalloc's
 * interval dumps the bytes allocated (the interval dump's number times
 * 2^lg_prof_interval); auto takes the times when every dump has its own
 * millisecond (a profile's own time_nanos for pprof), else the sequence. */
typedef enum { VIS_CLOCK_AUTO, VIS_CLOCK_MTIME, VIS_CLOCK_SEQ, VIS_CLOCK_ALLOC } vis_clock;

typedef struct {
    vis_sym_opts sym;
    vis_clock clock;
    int lg_interval;         /* --lg-prof-interval; -1 when not given */
    double threshold;        /* the written trees' threshold, percent */
} vis_dumps_opts;

/* Parses --clock's value; 0 or -1. */
int vis_clock_parse(const char *s, vis_clock *c);

/* Converts the n dumps at paths into the profile out and its companion
 * out.memtime, each written whole or not at all. Gaps (objects not found,
 * addresses without a name) are listed in warn, one line each; shown gets
 * what the series is called ("FIRST .. LAST", in the series' order).
 * Returns 0, or -1 with a one-line err ("FILE:LINE: expected ..." for bad
 * input). */
int vis_dumps_convert(const char *const *paths, size_t n, const vis_dumps_opts *o,
                      const char *out, char *shown, size_t shownsz, char *warn, size_t warnsz,
                      char *err, size_t errsz);

/* The newest series of heap dumps in directory dir: the jemalloc dumps of
 * the process that wrote the latest one (a service restarted under a new
 * pid starts a new series), else every pprof profile. *paths (n of them,
 * malloc'd, free each) and *sig, a text that changes whenever one of them
 * is added, grows or is rewritten. Returns 0 (n may be 0), or -1 with err. */
int vis_dumps_scan_dir(const char *dir, char ***paths, size_t *n, char **sig, char *err,
                       size_t errsz);

#endif
