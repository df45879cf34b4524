/* label.h: the grammar of a site's label, the text Valgrind and Massif
 * write for a tree node, and the one function that reads it (label.c):
 *   "0x4005D3: fn (file.c:12)"      a function, its source line
 *   "0x4005D3: fn (in /lib/x.so)"   a function, its object
 *   "0x4005D3: fn"                  a function alone
 *   "0x4005D3: ??? (in /lib/x.so)"  no function name
 *   "0x4005D3: ??? called by g (in prog)"  memtime-vis's name for one,
 *                                   told by its first named caller
 *   "(heap allocation functions) malloc/new/new[], --alloc-fns, etc."
 *                                   Massif's root, no address
 *   "in 3 places, all below massif's threshold (1.00%)"
 *                                   Massif's merged line, no address
 * The location is the last parenthesised group, after a space, holding
 * "in OBJ" or "FILE:LINE" (both parts non-empty, LINE 1 to 9 digits): a C++
 * argument list or "(anonymous namespace)" at the end is the function's.
 * Every module that reads a label's parts (naming, grouping, ranking, the
 * readers) goes through vis_label_parse, so they cannot disagree. */
#ifndef VIS_LABEL_H
#define VIS_LABEL_H

#include <stddef.h>

/* An unnamed function told apart by its first named caller (sites.h). */
#define VIS_LABEL_CALLED_BY "??? called by "

typedef struct {
    const char *addr;        /* "0x4005D3" (no ": "), or NULL */
    size_t addr_len;
    const char *fn;          /* after the address: the function */
    size_t fn_len;           /* up to the location's " (", or the end */
    const char *loc;         /* the location from its '(' to the end, or NULL */
    const char *obj;         /* "(in OBJ)": OBJ, else NULL */
    size_t obj_len;
    const char *file;        /* "(FILE:LINE)": FILE, else NULL */
    size_t file_len;
    unsigned line;           /* and LINE (at most 9 digits), else 0 */
    const char *caller;      /* "??? called by F": F (up to the location), else NULL */
    size_t caller_len;
    int unnamed;             /* vis_label_fn_unnamed(fn, fn_len) */
    int below;               /* Massif's "in N places, ... below massif's threshold" line */
} vis_label;

/* Reads label's parts (pointers into label). */
vis_label vis_label_parse(const char *label);

/* Whether a function fn[0..n) is unnamed: empty, or Valgrind's "???"
 * alone or before a space ("??? called by F" too). */
int vis_label_fn_unnamed(const char *fn, size_t n);

/* The label without its "0x1234ABCD: " address prefix (a pointer into
 * label; label itself if it has none): vis_label_parse(label).fn. */
const char *vis_label_bare(const char *label);

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
