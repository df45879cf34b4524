/* pprof_in.h: the reader of one pprof heap profile (gzipped profile.proto,
 * what Go's runtime/pprof writes and what jemalloc_pprof serves): unpacked
 * with protobuf-c from the same pprof_profile.proto memtime-vis writes
 * with, checked (every index and id it uses exists), and the in-use bytes
 * picked among its sample types. read/dumps.h makes a series of them one
 * timeline. */
#ifndef VIS_PPROF_IN_H
#define VIS_PPROF_IN_H

#include <stddef.h>
#include <stdint.h>
#include "pprof_profile.pb-c.h"

typedef struct {
    uint64_t id;
    size_t index;
} vis_pprof_id;

typedef struct {
    char *path;
    Perftools__Profiles__Profile *p;
    size_t value;            /* the sample value that is in-use bytes */
    uint64_t total;          /* the sum of it over the samples */
    vis_pprof_id *locs, *funcs, *maps;   /* sorted by id */
} vis_pprof;

/* Whether the first bytes are gzip's (a pprof file on disk). */
int vis_pprof_sniff(const unsigned char *buf, size_t n);

/* Reads the profile at path into d. Returns 0, or -1 with a one-line err
 * ("PATH: expected ..., found ..."); d is then empty. */
int vis_pprof_read(const char *path, vis_pprof *d, char *err, size_t errsz);
void vis_pprof_free(vis_pprof *d);

/* By id (checked at read: they exist); the mapping NULL for id 0. */
const Perftools__Profiles__Location *vis_pprof_location(const vis_pprof *d, uint64_t id);
const Perftools__Profiles__Function *vis_pprof_function(const vis_pprof *d, uint64_t id);
const Perftools__Profiles__Mapping *vis_pprof_mapping(const vis_pprof *d, uint64_t id);
/* The string at index i (checked at read). */
const char *vis_pprof_str(const vis_pprof *d, int64_t i);

#endif
