/* group_keys.h: the keys a site's label is grouped by (--group-by): its
 * function, file, object, crate or namespace, read from the label's text
 * alone (group_keys.c), and what kind of code a label names, which the
 * default grouping weighs. Pure functions, unit-tested (tests/groups-unit.c).
 *
 * A label is Valgrind's text for a frame: "0xADDR: " then the function as
 * the demangler wrote it, then " (file:line)" or " (in /path/object)". */
#ifndef VIS_GROUP_KEYS_H
#define VIS_GROUP_KEYS_H

#include <stddef.h>
#include "model/profile.h"

/* "site", "function", ..., "auto" <-> vis_group_by. Parse: 0 or -1. */
int vis_group_by_parse(const char *s, vis_group_by *out);
const char *vis_group_by_name(vis_group_by by);

/* ---- keys of one label (pure functions, unit-tested) ----------------------
 * Each returns a newly allocated key, or NULL when out of memory. A label
 * is a tree node's text: "0x4005E4: fn (file.c:12)", "0x4005E4: fn (in
 * /usr/lib/libfoo.so.1)", "0x4005E4: ??? called by g (in /usr/bin/prog)".
 * A label the key cannot be read from falls back as the comment says;
 * fallbacks are written in parentheses or end in " (no symbols)", which no
 * function, crate or namespace key contains, so two kinds of group never
 * read the same. */

/* The function: the label without address and location, a Rust legacy hash
 * dropped. An unnamed function ("???") keeps its whole label: two unknown
 * functions are not one. */
char *vis_key_function(const char *label);
/* The source file's base name ("file.c"), else "(in OBJECT)", else "(???)". */
char *vis_key_file(const char *label);
/* The object's base name without version or build hashes:
 * "librustc_driver-4c3beb7552356b6f.so" -> "librustc_driver.so",
 * "libLLVM-14.so.1" -> "libLLVM-14.so", "libc.so.6" -> "libc.so",
 * "/usr/sbin/mariadbd" -> "mariadbd". A label without an object: "(???)". */
char *vis_key_object(const char *label);
/* The crate of a Rust symbol (the first path segment of the code that runs,
 * see vis_rust_crate), or for a C++ symbol its outermost namespace; a C
 * function: "(in OBJECT)" (vis_key_object in parentheses); an unnamed one:
 * "OBJECT (no symbols)". An unnamed function told by its caller ("???
 * called by f") counts as f, here, in vis_key_namespace and in
 * vis_symbol_kind. */
char *vis_key_crate(const char *label);
/* A C++ (or Rust) symbol's leading `depth` scopes ("llvm", "llvm::sys");
 * a symbol without scopes: "(in OBJECT)"; an unnamed one, as for crates,
 * "OBJECT (no symbols)". */
char *vis_key_namespace(const char *label, unsigned depth);
/* The key of label under by (not AUTO). */
char *vis_group_key(const char *label, vis_group_by by, unsigned ns_depth);

/* The crate of a demangled function name fn (no address, no location): the
 * first path segment, where "<T as a::Trait>::f" counts T's crate (the impl
 * is in T's crate unless T is not a path: a primitive, a slice, a tuple,
 * then the trait's), "<T>::f" T's crate, a v0 disambiguator
 * "crate[1a2b3c]" dropped, references and pointers looked through. Writes
 * at most cap-1 bytes to out; returns 0, or -1 when fn has no path. */
int vis_rust_crate(const char *fn, char *out, size_t cap);

/* What kind of symbol a label names: used by the default rule. */
typedef enum { VIS_SYM_UNNAMED, VIS_SYM_C, VIS_SYM_CXX, VIS_SYM_RUST } vis_sym_kind;
vis_sym_kind vis_symbol_kind(const char *label);

/* Whether a label's function is in a scope: a C++ namespace or class, a
 * Rust path (what a namespace key reads; not a fallback). */
int vis_symbol_scoped(const char *label);

/* The name of a function without what the compiler adds to a copy of it:
 * GCC's clone suffixes (".constprop.0", ".isra.0", ".part.1", ".cold",
 * ".lto_priv.0", ".localalias", " [clone .constprop.0]" as the C++
 * demangler writes them) and LLVM's ".llvm.123". One function the
 * compiler cloned is one function. Returns the length of fn[0..n) without
 * them. */
size_t vis_name_without_clones(const char *fn, size_t n);

/* ---- parts of a function's name, for the other readers of names (wrappers.c) -- */
/* The length of fn[0..n) without a Rust legacy hash "::h<16 hex>". */
size_t vis_name_without_hash(const char *fn, size_t n);
/* The qualified name of a demangled function fn[0..n): arguments and a
 * return type dropped; *had_args: there was an argument list (C++). */
size_t vis_name_qualified(const char *fn, size_t n, const char **name, int *had_args);
/* The top-level "::"-separated segments of s[0..n): how many, the offsets
 * and lengths of the first max in seg/len. */
size_t vis_name_segments(const char *s, size_t n, size_t *seg, size_t *len, size_t max);

#endif
