/* label.h: the grammar of a site's label, the text Valgrind and Massif
 * write for a tree node: "0x4005D3: fn (file.c:12)", "0x4005D3: fn (in
 * /lib/x.so)", "0x4005D3: ??? (in /lib/x.so)", memtime-vis's own "0x4005D3:
 * ??? called by g (in prog)", Massif's "(heap allocation functions)
 * malloc/new/new[], --alloc-fns, etc." and "in N places, all below massif's
 * threshold (1.00%)". Pure text work (label.c). */
#ifndef VIS_LABEL_H
#define VIS_LABEL_H

#include <stddef.h>

/* An unnamed function told apart by its first named caller (sites.h). */
#define VIS_LABEL_CALLED_BY "??? called by "

/* The label without its "0x1234ABCD: " address prefix (a pointer into
 * label; label itself if it has none). */
const char *vis_label_bare(const char *label);

/* If s ends with a Valgrind location "(file:line)" or "(in /obj)" preceded
 * by a space, returns the index of its '(', else -1. */
long vis_label_location(const char *s);

/* A character of an identifier as demanglers write them ('$' and UTF-8
 * included). */
static inline int vis_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$' || (unsigned char)c >= 0x80;
}

/* A lowercase hexadecimal digit (Rust's hashes). */
static inline int vis_hex_lower(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

#endif
