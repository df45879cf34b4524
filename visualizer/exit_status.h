/* exit_status.h: memtime-vis's exit statuses, the list docs/memtime-vis.1
 * gives under EXIT STATUS. Only main.c exits; everything below it reports
 * and lets main decide. */
#ifndef VIS_EXIT_STATUS_H
#define VIS_EXIT_STATUS_H

typedef enum {
    VIS_EXIT_OK = 0,        /* success, also for a file cut short (after the
                               warning) */
    VIS_EXIT_DATA = 1,      /* bad input data, or an input or output error
                               (a full disk on stdout included); no output
                               file is left behind */
    VIS_EXIT_USAGE = 2,     /* bad usage: an unknown option, a value out of
                               range, no input file, a WHEN naming nothing */
    VIS_EXIT_CHECK = 3      /* check only: a limit was broken */
} vis_exit_status;

#endif
