/* names.h: names for a set of sites no two of which read the same
 * (names.c), built from each site's short name (short_name.h) and full
 * name (full_name.h). sites.c applies it to a profile's sites and counts,
 * diff.c to a diff's rows. */
#ifndef VIS_NAMES_H
#define VIS_NAMES_H

#include <stddef.h>
#include "model/full_name.h"
#include "model/short_name.h"

/* One site of a set to name. label: the verbatim label (with its address,
 * when it has one); name and full: set by vis_names_assign (malloc'ed). */
typedef struct {
    const char *label;
    char *name, *full;
} vis_name_entry;

/* Names every entry: the short names (budget max_chars) of different
 * labels all differ, and so do the full names; entries with equal labels
 * get equal names. Where two short names read the same, the colliding
 * sites get, whichever first tells them apart: short template arguments
 * kept ("<int>", "<double>"), every argument kept with its paths cut to
 * their last segments (vis_name_short_args), a larger budget each way;
 * then their addresses ("fn @0x4A12 (in lib.so)"), then an ordinal (" [2]");
 * full names get the address, then the ordinal. Returns 0, or -1 when out
 * of memory (names then partly set; free them with vis_names_clear). */
int vis_names_assign(vis_name_entry *e, size_t n, size_t max_chars);
void vis_names_clear(vis_name_entry *e, size_t n);

#endif
