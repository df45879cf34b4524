/* strbuf.h: a string built by appending, for the text transforms that
 * rewrite a name piece by piece. Out of memory is sticky: every append after
 * it does nothing, and vis_sb_done reports it once, so a transform checks
 * once at its end. */
#ifndef VIS_STRBUF_H
#define VIS_STRBUF_H

#include <stddef.h>

typedef struct {
    char *s;
    size_t n, cap;
    int oom;
} vis_strbuf;

#define VIS_STRBUF_INIT { NULL, 0, 0, 0 }

/* Appends s[0..n). */
void vis_sb_put(vis_strbuf *b, const char *s, size_t n);
/* Appends the string s. */
void vis_sb_puts(vis_strbuf *b, const char *s);
/* The string built (the caller frees it; "" when nothing was appended), or
 * NULL when out of memory (what was built is freed). */
char *vis_sb_done(vis_strbuf *b);

#endif
