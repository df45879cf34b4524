/* wrappers.h: allocation wrappers (wrappers.c): functions that allocate on
 * behalf of their callers, so that the heap they hold is their callers'.
 * One is known by its name (my_malloc, g_malloc, xmalloc, a Rust RawVec's
 * grow, ...) or found by its shape in memtime's detail: at least
 * VIS_WRAPPER_MIN_CALLERS distinct calling functions, none holding more
 * than VIS_WRAPPER_MAX_SHARE percent of it, nothing held by itself.
 *
 * A caller is a function, never a return address: the call sites of one
 * function (an unrolled loop, a function called from many lines, the
 * copies of a function inlined at many places or cloned by the compiler)
 * are one caller. Where a caller has no name, its source location stands
 * for it, else the object it is in. A function calling itself is not its
 * own caller: its callers are found past the recursion. */
#ifndef VIS_WRAPPERS_H
#define VIS_WRAPPERS_H

#include "model/profile.h"

#define VIS_WRAPPER_MIN_CALLERS 8
#define VIS_WRAPPER_MAX_SHARE 50

/* Whether a function's name is a known allocation wrapper (my_malloc,
 * g_malloc, xmalloc, sqlite3Malloc, ngx_alloc, an arena's grow, ...). */
int vis_wrapper_name(const char *label);
/* The function of a wrapper's label as memtime names it, what its
 * --alloc-fn=NAME takes: the label without address and location, its
 * arguments and any Rust hash kept ("0x4005E4: my_malloc (in /usr/sbin/x)"
 * -> "my_malloc"). NULL for an unnamed function or when out of memory. */
char *vis_wrapper_alloc_fn(const char *label);
/* The same as a shorter --alloc-fn pattern when the name is longer than
 * VIS_ALLOC_PATTERN_MAX: template and argument lists become <*> and (*)
 * ("std::_Rb_tree<...>::_M_insert_unique_<...>(...)" ->
 * "std::_Rb_tree<*>::_M_insert_unique_<*>(*)"), which memtime's glob
 * matches. Operators keep their names whole. */
#define VIS_ALLOC_PATTERN_MAX 60
char *vis_wrapper_alloc_pattern(const char *label);

/* The function a wrapper is (or a caller is), as the detection compares
 * them: the label's function demangled, without a Rust hash and the
 * compiler's clone suffixes; for a frame with no name, its location
 * ("??? (file.c:12)", "??? (in /usr/lib/libx.so)"). NULL when out of
 * memory. */
char *vis_caller_key(const char *label);

/* Finds p's wrappers: fills p->grouping.wrappers (largest at the peak's
 * tree first) and, with memtime's detail, split[f] for every detail frame f
 * of a wrapper to split (all of them unless keep, --keep-wrappers). split
 * has p->detail.n_frames entries, zeroed. Without detail, the peak's tree
 * of the file shows the shape (listed, not split). Returns 0, or -1 when
 * out of memory. */
int vis_find_wrappers(vis_profile *p, int keep, unsigned char *split);

/* Whether label's function is a wrapper the grouping split. */
int vis_wrapper_split_label(const vis_profile *p, const char *label);

#endif
