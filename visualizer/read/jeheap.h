/* jeheap.h: the reader of one jemalloc heap profile dump ("heap_v2/",
 * jemalloc's prof.dump and lg_prof_interval dumps, the files jeprof reads).
 * It owns that grammar: the header's sampling period, one record per stack
 * with its all-threads ("t*") counts, unsampled with jeprof's formula, and
 * the verbatim MAPPED_LIBRARIES block the addresses are resolved through
 * (maps.h parses it, symbols.h names the addresses). Errors are one line
 * "PATH:LINE: expected <what>, found '<text>'". */
#ifndef VIS_JEHEAP_H
#define VIS_JEHEAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t *pcs;           /* innermost first, as jemalloc wrote them */
    size_t n_pcs;
    uint64_t sampled_objs, sampled_bytes;   /* the "t*" line as written */
    double objs, bytes;      /* unsampled (jeprof's AdjustSamples) */
} vis_jh_stack;

typedef struct {
    uint64_t uid;            /* jemalloc's thread uid ("t<uid>:") */
    char *name;              /* the thread's name, or NULL */
} vis_jh_thread;

typedef struct {
    char *path;
    uint64_t period;         /* heap_v2/<R>: one sample per R bytes on average */
    size_t n_stacks;
    vis_jh_stack *stacks;
    size_t n_threads;
    vis_jh_thread *threads;
    char *maps;              /* the MAPPED_LIBRARIES text, NULL when absent */
    size_t maps_len;
    size_t maps_line;        /* the file line the maps text starts on */
    double total_bytes;      /* the sum of the stacks' unsampled bytes */
} vis_jeheap;

/* Whether the first bytes of a file are a jemalloc heap dump's. */
int vis_jeheap_sniff(const unsigned char *buf, size_t n);

/* Reads the dump at path into d. Returns 0, or -1 with err (d freed). */
int vis_jeheap_read(const char *path, vis_jeheap *d, char *err, size_t errsz);
void vis_jeheap_free(vis_jeheap *d);

/* jeprof's "Remote-heap version 2" unsampling: the estimate of what n
 * sampled objects of s bytes in all stand for, with period R. */
void vis_jeheap_unsample(uint64_t n, uint64_t s, uint64_t period, double *objs, double *bytes);

/* The parts of jemalloc's file name <prefix>.<pid>.<seq>.<kind><kseq>.heap
 * (kind i, m, u, or f with no number; a pid namespace may precede the pid).
 * Returns 0, or -1 when the name does not have that shape. */
typedef struct {
    uint64_t pid, seq, kseq;
    char kind;               /* 'i', 'm', 'u', 'f' */
} vis_jh_name;
int vis_jeheap_parse_name(const char *path, vis_jh_name *n);

#endif
