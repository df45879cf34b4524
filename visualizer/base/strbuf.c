/* strbuf.c: a string built by appending (strbuf.h). */
#include <stdlib.h>
#include <string.h>
#include "base/strbuf.h"

void vis_sb_put(vis_strbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->n + n + 1) * 2;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            b->oom = 1;
            return;
        }
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

void vis_sb_puts(vis_strbuf *b, const char *s)
{
    vis_sb_put(b, s, strlen(s));
}

char *vis_sb_done(vis_strbuf *b)
{
    if (b->oom) {
        free(b->s);
        return NULL;
    }
    if (!b->s) {
        b->s = malloc(1);
        if (b->s)
            b->s[0] = '\0';
    }
    return b->s;
}
