/* short_name.h: the short name of a site, the one every view prints
 * (short_name.c): its full name (full_name.h) with the location reduced to
 * its last path part and a library's build hash dropped
 * ("librustc_driver-4c3beb7552356b6f.so" -> "librustc_driver.so") and, when
 * longer than its budget, is shortened by these steps, each only while
 * still too long:
 *   1. generic and template arguments, innermost first: every <...> at the
 *      deepest level becomes <…>, then the next level out, ...; a Rust
 *      qualified path's own <Type as Trait> is not an argument list and
 *      stays;
 *   2. argument lists: (...) becomes (…);
 *   3. scopes: whole "::" segments out of the middle ("rustc_middle::…::
 *      TyCtxt::intern"), keeping the first and as many of the last as fit,
 *      then the first too;
 *   4. a qualified path's type and trait to their last segments, then the
 *      trait to "…".
 * No step cuts inside a name: an ellipsis always stands for whole
 * arguments or whole segments, and the function's own name stays whole
 * even when that leaves the name over its budget. "??? called by X" keeps
 * its head and shortens X the same way. */
#ifndef VIS_SHORT_NAME_H
#define VIS_SHORT_NAME_H

#include <stddef.h>

/* The short name within max_chars characters where the rules allow, newly
 * allocated; NULL when out of memory. addr_tag, if not NULL, is written
 * " @ADDR" after the function ("??? @0x4A12 called by f (in lib.so)"). */
char *vis_name_short(const char *label, const char *addr_tag, size_t max_chars);

/* The same with every generic argument kept, its paths cut to their last
 * segments ("Vec<…::Option<…::Box<…::TyS>>>::push"): how two instances
 * of one generic are told apart when the plain short names read alike. */
char *vis_name_short_args(const char *label, const char *addr_tag, size_t max_chars);

/* The short name with generic argument lists of at most keep_small
 * characters left whole (SIZE_MAX: vis_name_short_args); the rounds of
 * names.c try several. */
char *vis_name_shorten(const char *label, const char *addr_tag, size_t max_chars, size_t keep_small);

/* Characters as shown (UTF-8 continuation bytes do not count). */
size_t vis_name_width(const char *s);

#endif
