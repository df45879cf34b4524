/* follow.h: memtime-vis --follow FILE|DIR, the live view of a run while
 * memtime still writes its profile (follow.c). */
#ifndef VIS_FOLLOW_H
#define VIS_FOLLOW_H

#include <stddef.h>
#include "model/groups.h"
#include "read/dumps.h"

typedef struct {
    const char *path;        /* a profile, or a directory of them */
    const char *companion;   /* --companion, or NULL */
    int no_companion;
    int top;                 /* the most sites listed */
    const vis_group_opts *group;   /* --group-by and its options, or NULL */
    const vis_dumps_opts *dumps;   /* a directory of heap dumps: how to read them */
} vis_follow_opts;

/* A directory holding heap dumps (read/dumps.h) and no profile is the
 * newest series of dumps in it, one profile, converted again whenever a
 * dump is added.
 * Follows o->path until the user quits (q, SIGINT, SIGTERM, SIGHUP) or,
 * when there is no keyboard to quit with (stdout or stdin is not a
 * terminal), until the run is over. Returns an exit status
 * (exit_status.h), with a one-line message in err when it is not 0. */
int vis_follow_run(const vis_follow_opts *o, char *err, size_t errsz);

#endif
