/* demangle.h: a symbol that reached a profile mangled. Valgrind demangles
 * what it can, but a name its demangler does not know (a newer Rust v0
 * symbol, a name longer than it handles) reaches the file as the linker
 * wrote it ("_ZN5alpha5Store4fill17h0123456789abcdefE",
 * "_ZN5store4Disk4fillEm", "_RNvNtCs1a2b_5alpha5store4fill"); grouped as
 * it is, it would form a function (crate, namespace) group of its own
 * beside its demangled twin. libiberty's cplus_demangle, which binutils
 * and GCC maintain, demangles C++ (Itanium ABI) and Rust, legacy and v0. */
#ifndef VIS_DEMANGLE_H
#define VIS_DEMANGLE_H

/* A label ("0x4005E4: _ZN3foo3barEv (in /usr/lib/libfoo.so)") whose
 * function is a mangled name the demangler knows: *out is the label with
 * that function demangled ("0x4005E4: foo::bar() (in /usr/lib/libfoo.so)"),
 * newly allocated; returns 1. 0 when the function is not such a name
 * (*out NULL), -1 when out of memory. */
int vis_demangle_label(const char *label, char **out);

#endif
