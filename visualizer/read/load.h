/* load.h: the one door through which memtime-vis opens a profile, for every
 * command (the summary and report, the charts and exports, diff, check, the
 * overview of several processes, --follow of a file or a directory).
 *
 * It opens the file, tells its format by its first bytes, has that
 * format's reader build the profile, reads memtime's companion beside it
 * (or the one given, or none) and checks it. A new input format is one
 * more value of vis_format and one more branch in vis_format_of and in the
 * load's switch (load.c).
 *
 * The one rule for a file cut short (the profile, or its companion): what
 * is there is read and shown, the load succeeds, and the profile carries
 * one warning line per file cut, "PATH:LINE: warning: the file is cut short
 * (expected ..., found ...); showing ...", which every command reports as
 * it is (vis_load_warning). Anything else that breaks a format fails the
 * load with one line "PATH:LINE: expected ..., found '...'". */
#ifndef MT_LOAD_H
#define MT_LOAD_H

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include "model/profile.h"
#include "read/massif.h"

/* The formats memtime-vis reads. */
typedef enum {
    VIS_FORMAT_UNKNOWN,
    VIS_FORMAT_MASSIF,       /* Massif's and memtime's: "desc: ..." first */
} vis_format;

/* The format whose files begin with the n bytes at head (n may be short of
 * a whole line: a file shorter than that), VIS_FORMAT_UNKNOWN if none. */
vis_format vis_format_of(const char *head, size_t n);

/* Whether path is a regular file in a format vis_format_of knows: the
 * profiles among a directory's files (the overview, --follow DIR). */
int vis_load_is_profile(const char *path);

typedef struct vis_load_opts {
    const char *companion;          /* the companion to read, which must
                                       exist; NULL: "<path>.memtime" if it
                                       exists (vis_companion_path) */
    int no_companion;               /* read none */
    int companion_optional;         /* the companion given may not exist
                                       (yet: the live view waits for it) */
    const vis_massif_sink *sink;    /* handed the Massif file as it is read
                                       (massif.h), or NULL */
    FILE **keep;                    /* non-NULL: the profile's stream is left
                                       open here, at its end, for a second
                                       pass over its trees; NULL: closed */
    struct stat *st;                /* non-NULL: the stat of the file
                                       read (the live view tells versions
                                       by it), whether or not the read
                                       succeeded; zeroed when there was
                                       none */
} vis_load_opts;

/* Reads the profile at path as o says (NULL: the defaults, all zero).
 * Returns the profile (vis_profile_free), or NULL with one line in err:
 * "PATH: cannot open: ...", "PATH: expected a regular file, found ...",
 * the format's "PATH:LINE: expected ..., found '...'", or the companion's
 * "... (use --no-companion to ignore it)". A profile cut short is no
 * failure: see vis_load_warning. */
vis_profile *vis_load_profile(const char *path, const vis_load_opts *o, char *err,
                              size_t errsz);

/* The k-th warning (k from 0) of a loaded profile into buf, one line with
 * neither the program's name nor a newline: the profile cut short, then
 * its companion cut short. Returns 1, or 0 when there is no k-th. */
int vis_load_warning(const vis_profile *p, size_t k, char *buf, size_t n);

#endif
