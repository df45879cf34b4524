/* label.c: the one reading of a site label's parts (label.h). */
#include <stdlib.h>
#include <string.h>
#include "model/label.h"

const char *vis_label_bare(const char *label)
{
    /* "0x4005E4: fn (file.c:12)" -> "fn (file.c:12)" */
    if (label[0] == '0' && label[1] == 'x') {
        const char *s = label + 2;
        while ((*s >= '0' && *s <= '9') || (*s >= 'A' && *s <= 'F') || (*s >= 'a' && *s <= 'f'))
            s++;
        if (s > label + 2 && s[0] == ':' && s[1] == ' ')
            return s + 2;
    }
    return label;
}

int vis_label_fn_unnamed(const char *fn, size_t n)
{
    return n == 0 || (n >= 3 && !strncmp(fn, "???", 3) && (n == 3 || fn[3] == ' '));
}

/* Fills l's location from the end of l->fn (l->fn_len bytes): the last
 * parenthesised group, after a space, holding "in OBJ" or "FILE:LINE". */
static void read_location(vis_label *l)
{
    const char *s = l->fn;
    size_t n = l->fn_len;
    if (n < 4 || s[n - 1] != ')')
        return;
    int depth = 0;
    for (size_t i = n; i-- > 0;) {
        if (s[i] == ')') {
            depth++;
            continue;
        }
        if (s[i] != '(' || --depth != 0)
            continue;
        if (i == 0 || s[i - 1] != ' ')
            return;
        const char *in = s + i + 1;
        size_t len = n - i - 2;            /* inside the parentheses */
        if (len > 3 && !strncmp(in, "in ", 3)) {
            l->obj = in + 3;
            l->obj_len = len - 3;
        } else {
            size_t c = len;
            while (c > 0 && in[c - 1] >= '0' && in[c - 1] <= '9')
                c--;
            if (c == len || len - c > 9 || c < 2 || in[c - 1] != ':')
                return;                    /* a C++ argument list, not a location */
            l->file = in;
            l->file_len = c - 1;
            l->line = (unsigned)strtoul(in + c, NULL, 10);
        }
        l->loc = s + i;
        l->fn_len = i - 1;
        return;
    }
}

vis_label vis_label_parse(const char *label)
{
    vis_label l;
    memset(&l, 0, sizeof l);
    l.fn = vis_label_bare(label);
    l.fn_len = strlen(l.fn);
    if (l.fn != label) {
        l.addr = label;
        l.addr_len = (size_t)(l.fn - label) - 2;
    } else if (!strncmp(label, "in ", 3) && strstr(label, "below massif's threshold")) {
        l.below = 1;
        return l;                          /* no function, no location */
    }
    read_location(&l);
    l.unnamed = vis_label_fn_unnamed(l.fn, l.fn_len);
    size_t by = sizeof VIS_LABEL_CALLED_BY - 1;
    if (l.fn_len > by && !strncmp(l.fn, VIS_LABEL_CALLED_BY, by)) {
        l.caller = l.fn + by;
        l.caller_len = l.fn_len - by;
    }
    return l;
}
