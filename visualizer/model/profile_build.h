/* profile_build.h: how the readers (read/massif.c, read/companion.c) fill
 * the model: a new profile, its snapshots and interned labels, and the
 * finishing step that sets the peak and ranks the sites. Renderers include
 * profile.h only and see the finished model read-only. */
#ifndef VIS_PROFILE_BUILD_H
#define VIS_PROFILE_BUILD_H

#include <stddef.h>
#include "model/profile.h"

vis_profile *vis_profile_new(const char *path);
/* Returns a shared NUL-terminated copy of s[0..len), or NULL when out of memory. */
char *vis_profile_intern(vis_profile *p, const char *s, size_t len);
/* Appends a zeroed snapshot, returns it or NULL when out of memory. */
vis_snapshot *vis_profile_add_snapshot(vis_profile *p);
/* Sets peak, largest, peak_marked and n_detailed from the snapshots and
 * ranks the sites (vis_profile_rank_sites). Returns 0, or -1 when out of
 * memory. */
int vis_profile_finish(vis_profile *p);
/* Frees a tree made by the parser: the root (allocated alone) and all below. NULL ok. */
void vis_node_free(vis_node *n);

#endif
