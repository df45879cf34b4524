/* when.h: the one syntax for naming a moment of a profile (WHEN), shared by
 * every option that takes one (--snapshot; --from/--to): a snapshot "#N",
 * "peak", "end", a time with a unit ("250ms", "1.5s", "2min", "3h"; ms
 * profiles only), a bare whole number in the file's own unit, or a phase
 * mark's label (the first mark so labelled; "mark:LABEL" names a mark whose
 * label reads like one of the other forms). */
#ifndef MT_WHEN_H
#define MT_WHEN_H

#include <stddef.h>
#include <stdint.h>
#include "model/profile.h"

typedef enum { VIS_WHEN_SNAPSHOT, VIS_WHEN_PEAK, VIS_WHEN_END, VIS_WHEN_TIME,
               VIS_WHEN_MARK } vis_when_kind;

typedef struct {
    vis_when_kind kind;
    uint64_t time;   /* the moment, in the file's unit */
    size_t snap;     /* the last snapshot at or before it (#N: that snapshot,
                        peak: p->peak); SIZE_MAX if the moment comes before
                        the first snapshot */
    size_t mark;     /* VIS_WHEN_MARK: index into p->marks */
} vis_when;

/* Resolves spec against the profile. Returns 0, or -1 with a one-line
 * message in err naming what was expected (for a usage error). */
int vis_when_parse(const vis_profile *p, const char *spec, vis_when *w,
                   char *err, size_t errsz);

/* The index of the last snapshot whose time is at or before t, or SIZE_MAX. */
size_t vis_when_snap_at(const vis_profile *p, uint64_t t);

/* The index of the last detailed (or peak) snapshot at or before snaps[i],
 * or SIZE_MAX if there is none. */
size_t vis_when_detailed_at_or_before(const vis_profile *p, size_t i);

#endif
