/* follow_view.h: what --follow shows (model/follow_state.h), as text: the
 * terminal's frame of one profile or of a directory of them, fitted to the
 * terminal's size, and the one plain line per change written when stdout
 * is not a terminal. It only formats: follow.c owns the terminal. */
#ifndef VIS_FOLLOW_VIEW_H
#define VIS_FOLLOW_VIEW_H

#include <stdio.h>
#include <time.h>
#include "model/follow_state.h"

typedef struct {
    int cols, rows;          /* the terminal's size */
    int utf8;                /* the terminal takes UTF-8: block characters
                                for the sparkline, names' UTF-8 kept (else '?') */
    int top;                 /* the most sites listed */
    int interactive;         /* the footer says how to quit */
    time_t now;              /* the wall clock, for "rewritten N s ago" */
} vis_follow_layout;

/* The frame of one followed profile: at most lay->rows lines of at most
 * lay->cols columns, each ended by '\n'. Every text from the files passes
 * through one filter: control characters (and, without UTF-8, every
 * non-ASCII byte) become '?', so a profile cannot drive the terminal. */
void vis_follow_frame(FILE *out, const vis_follow_file *l, const vis_follow_layout *lay);

/* One line, '\n' ended, of what the view shows now: time, heap, extra,
 * stacks, RSS, the peak, the top site, the state; or the read's problem.
 * Without with_time the profile's time is left out (to tell whether
 * anything but the time changed). */
void vis_follow_line(FILE *out, const vis_follow_file *l, int with_time);

/* The frame of a followed directory: one line per process. */
void vis_follow_dir_frame(FILE *out, const vis_follow_dir *d, const vis_follow_layout *lay);

/* One line, '\n' ended, per process of the directory (and per file that
 * fails to read): what vis_follow_dir_frame lists, unclipped. */
void vis_follow_dir_lines(FILE *out, const vis_follow_dir *d);

#endif
