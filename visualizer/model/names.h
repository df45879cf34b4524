/* names.h: how memtime-vis names an allocation site for a person, from the
 * verbatim label a profile's tree gives it ("0x4005E4: fn (file.c:12)"),
 * and how a set of sites gets names no two of which read the same. Pure
 * string work, no profile: sites.c applies it to a profile's sites and
 * counts, diff.c to a diff's rows.
 *
 * The full name is the label without its address, with Rust's symbol hashes
 * dropped (legacy "::h0123456789abcdef", a legacy mangled "_ZN...17h...E"
 * that leaked through, v0's "crate[1a2b3c4d5e]" disambiguators): nothing
 * else is cut. The short name, the one every view prints, also reduces the
 * location to its last path part with a library's build hash dropped
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
#ifndef VIS_NAMES_H
#define VIS_NAMES_H

#include <stddef.h>

/* The label without its "0x1234ABCD: " address prefix (a pointer into
 * label; label itself if it has none). */
const char *vis_name_bare(const char *label);

/* The full name (above), newly allocated; NULL when out of memory. */
char *vis_name_full(const char *label);

/* The short name within max_chars characters where the rules allow, newly
 * allocated; NULL when out of memory. addr_tag, if not NULL, is written
 * " @ADDR" after the function ("??? @0x4A12 called by f (in lib.so)"). */
char *vis_name_short(const char *label, const char *addr_tag, size_t max_chars);

/* The same with every generic argument kept, its paths cut to their last
 * segments ("Vec<…::Option<…::Box<…::TyS>>>::push"): how two instances
 * of one generic are told apart when the plain short names read alike. */
char *vis_name_short_args(const char *label, const char *addr_tag, size_t max_chars);

/* Characters as shown (UTF-8 continuation bytes do not count). */
size_t vis_name_width(const char *s);

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
