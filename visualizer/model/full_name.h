/* full_name.h: a site's full name, the one the tooltips, JSON and CSV
 * carry: the verbatim label without its address, with Rust's symbol hashes
 * dropped (legacy "::h0123456789abcdef", a legacy mangled "_ZN...17h...E"
 * that leaked through, v0's "crate[1a2b3c4d5e]" disambiguators); nothing
 * else is cut (full_name.c). */
#ifndef VIS_FULL_NAME_H
#define VIS_FULL_NAME_H

/* The full name, newly allocated; NULL when out of memory. */
char *vis_name_full(const char *label);

#endif
