/* mt_detail.h: the unpruned detail of the trees, in the companion.
   The profile's trees are pruned as Massif prunes them (--threshold): what
   falls below merges into "in N places" lines and is gone for every
   reader. This module keeps, for every detailed snapshot of the profile,
   its tree down to --detail-depth call levels whatever the size of a
   node (and each path further while it has no function name, to its
   first named frame: a reader names unnamed code by its callers), as a
   string table of node labels ("frame:") and one line of nodes per
   snapshot ("dtree:"), so a reader can regroup the heap after the fact
   (by function, file, library, crate, through an allocation wrapper).
   The record syntax and meaning: docs/file-format.md. */
#ifndef MT_DETAIL_H
#define MT_DETAIL_H

#include "pub_tool_basics.h"

#include "mt_file.h"

/* True when there is a detail to write: --detail-depth above 0 and a
   detailed snapshot in the profile. */
Bool mt_detail_any(void);
/* Writes the "detail:", "frame:" and "dtree:" records for the snapshots
   the profile holds now (nothing for c == NULL). */
void mt_detail_companion(MtFile* c);

#endif /* MT_DETAIL_H */
