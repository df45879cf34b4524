/* maps.h: a process's memory map as Linux writes /proc/PID/maps, the text
 * a jemalloc dump copies after "MAPPED_LIBRARIES:": which object (and at
 * what file offset) an address of the process belonged to. */
#ifndef VIS_MAPS_H
#define VIS_MAPS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t start, end;     /* [start, end) in the process */
    uint64_t offset;         /* the file offset mapped at start */
    uint64_t inode;
    int exec;                /* 'x' in the permissions */
    const char *path;        /* the object (points into the text), "" if none */
    size_t path_len;
} vis_mapping;

typedef struct {
    vis_mapping *m;          /* sorted by start, not overlapping */
    size_t n;
    char *text;              /* owns the paths */
} vis_maps;

/* Parses text (len bytes, NUL-terminated; the maps take a copy) into maps.
 * first_line numbers text's first line in file's messages. Returns 0, or -1
 * with "FILE:LINE: expected ..." in err. */
int vis_maps_parse(vis_maps *maps, const char *text, size_t len, const char *file,
                   size_t first_line, char *err, size_t errsz);
void vis_maps_free(vis_maps *maps);

/* The mapping holding addr, or NULL. */
const vis_mapping *vis_maps_find(const vis_maps *maps, uint64_t addr);

#endif
