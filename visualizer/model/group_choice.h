/* group_choice.h: which groupings (groups.h) a view that switches between
 * them offers (the HTML report's selector): those that can tell the
 * profile's sites apart in a way another grouping does not already. */
#ifndef VIS_GROUP_CHOICE_H
#define VIS_GROUP_CHOICE_H

#include "model/profile.h"

/* Whether the selector offers by for the profile site_grouped, read and
 * grouped by site (its snapshots' sites are the file's, or the detail's,
 * own). site, function, file and object are always offered; crate when a
 * Rust function holds bytes in some tree (without one, a crate group is
 * an object in parentheses or a C++ namespace, which namespace shows);
 * namespace when a C++ or Rust function in a namespace (a scope) does
 * (without one, every group is an object in parentheses, which object
 * shows). */
int vis_group_offered(const vis_profile *site_grouped, vis_group_by by);

#endif
