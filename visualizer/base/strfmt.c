/* strfmt.c: vis_strfmt (strfmt.h), measured once with vsnprintf. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "base/strfmt.h"

char *vis_strfmt(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}
