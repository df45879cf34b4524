/* label.c: the one reading of a site label's parts (label.h): its address,
 * its location. */
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

/* Valgrind's location ends the label: the last parenthesised group, after a
 * space, holding "in OBJ" or "FILE:LINE". */
long vis_label_location(const char *s)
{
    size_t n = strlen(s);
    if (n < 3 || s[n - 1] != ')')
        return -1;
    int depth = 0;
    for (long i = (long)n - 1; i >= 0; i--) {
        if (s[i] == ')')
            depth++;
        else if (s[i] == '(' && --depth == 0) {
            if (i == 0 || s[i - 1] != ' ')
                return -1;
            const char *in = s + i + 1;
            if (!strncmp(in, "in ", 3))
                return i;
            const char *colon = strrchr(in, ':');     /* "file:123)" */
            if (!colon || colon[1] == ')')
                return -1;
            for (const char *c = colon + 1; *c != ')'; c++)
                if (*c < '0' || *c > '9')
                    return -1;
            return i;
        }
    }
    return -1;
}
